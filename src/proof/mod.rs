//! What people look at: ticket proofs ([`render`]) of the tickets selected ([`select`]), the proof sheet of a deck or of chosen
//! tickets ([`sheet`]), both drawn once on a canvas that writes SVG and PDF ([`draw`]).

pub mod draw;
pub mod render;
pub mod select;
pub mod sheet;
pub mod words;
