//! What people look at: ticket proofs ([`render`]) of the tickets selected ([`select`]), the proof sheet of a deck or of chosen
//! tickets ([`sheet`]), both drawn once on a canvas that writes SVG and PDF ([`draw`]); a
//! designer's preview of a spec with a specimen face per way ([`preview`]).

pub mod draw;
pub mod preview;
pub mod render;
pub mod select;
pub mod sheet;
pub mod words;
