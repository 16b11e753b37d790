//! The spec language: a text form of a descriptor chain that mirrors CK
//! Tile's calls one-to-one.
//!
//! ```text
//! SPEC  := STAGE ( '|' STAGE )*          whitespace and newlines are free; '#' starts a comment
//! STAGE := 'naive' '(' TUPLE ',' TUPLE [ ',' INT ',' INT ] ')'   lengths, strides[, vector length, vector stride]
//!        | 'naive_with_offset' '(' TUPLE ',' TUPLE ',' INT ')'
//!        | 'packed' '(' TUPLE [ ',' INT ] ')'                    lengths[, vector length]
//!        | 'aligned' '(' TUPLE ',' INT ')'
//!        | 'transform' '(' ITEM ( ',' ITEM )* ')'               one transform_tensor_descriptor call
//! ITEM  := XFORM 'on' IDS '->' IDS                               old top dims -> new top dims
//! XFORM := pass_through(len) | pad(len, left, right) | left_pad(len, left) | right_pad(len, right)
//!        | embed(TUPLE lengths, TUPLE coefficients) | merge(TUPLE lower_lengths)
//!        | unmerge(TUPLE upper_lengths) | xor((L0, L1)) | slice(len, begin, end) | freeze(index)
//!        | insert(len) | replicate(TUPLE) | offset(len, off) | modulo(modulus, len) | swizzle(B, M, S)
//! IDS   := '[' ( INT ( ',' INT )* )? ']'
//! TUPLE := '(' INT ( ',' INT )* ')' | INT
//! ```
//!
//! The first stage is a base (`naive`, `naive_with_offset`, `packed`,
//! `aligned`); every later one is a `transform`. In `naive`'s optional vector
//! arguments, `-1` means "not guaranteed" (CK's convention). A swizzle takes
//! the length of the dimension it is applied to.
//!
//! [`parse`] reads a spec into a [`Descriptor`] with exactly the semantics of
//! the static API; `Display` on a [`Descriptor`] prints it back, and the two
//! round-trip. Every malformed or impossible spec is an [`Error`] with its
//! line and column.
//!
//! ```
//! let d = cktile::spec::parse("packed((4,8)) | transform(merge((4,8)) on [0,1] -> [0])")?;
//! assert_eq!(d.calculate_offset(&[13]), 13);
//! let e = cktile::spec::parse("packed((4,8)) | transform(merge((4,9)) on [0,1] -> [0])").unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "1:27: merge: lower dimension 1 should have length 9 but the dimension it is applied to has length 8"
//! );
//! # Ok::<(), cktile::Error>(())
//! ```

pub(crate) mod lexer;
pub(crate) mod parser;

use crate::{Descriptor, Error};

/// Reads a spec into a descriptor.
///
/// ```
/// let d = cktile::spec::parse("naive((4,8),(100,1))  # a 4x8 tile with row pitch 100")?;
/// assert_eq!(d.calculate_offset(&[2, 5]), 205);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn parse(text: &str) -> Result<Descriptor, Error> {
    parser::Parser::new(text).spec()
}
