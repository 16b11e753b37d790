//! An encoding's texts, as the port prints them: CK Tile's C++ spelling
//! ([`text`], `Display`) and cktile's compact one naming the component
//! each P and Y takes ([`compact`], [`Encoding::compact`](crate::distribution::Encoding::compact)).
//! Reading them back is the analysis crate's (`cktile-analysis`, its
//! `spelling` module), which holds the parsers.

pub mod compact;
pub mod text;
