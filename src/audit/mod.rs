//! The audit report: verify's procedures, their findings and exceptions, and the evidence
//! that the block's winners are where nobody could choose or predict them.

pub mod leakage;
pub mod randomness;

/// A test whose p-value is below this (1 %) is reported as an exception.
pub const FLAG_P: f64 = 0.01;
