//! The spec language: a text form of a descriptor chain that mirrors CK
//! Tile's calls one-to-one.
//!
//! ```text
//! SPEC  := STAGE ( '|' STAGE )*          whitespace and newlines are free; '#' starts a comment
//! STAGE := naive((lengths), (strides)[, vector length, vector stride])
//!        | naive_with_offset((lengths), (strides), offset)
//!        | packed((lengths)[, vector length])
//!        | aligned((lengths), align)
//!        | 'transform' '(' ITEM ( ',' ITEM )* ')'     one transform_tensor_descriptor call
//! ITEM  := XFORM 'on' IDS '->' IDS                     old top dims -> new top dims
//! XFORM := pass_through(len) | pad(len, left, right) | left_pad(len, left) | right_pad(len, right)
//!        | embed((lengths), (coefficients)) | merge((lower lengths)) | unmerge((upper lengths))
//!        | xor((L0, L1)) | xor_no_modulo((L0, L1)) | slice(len, begin, end) | freeze(index) | insert(len)
//!        | replicate((lengths))
//!        | offset(len, off) | modulo(modulus, len) | swizzle(B, M, S) | cyclic_shift((L0, L1))
//!        | indexing(len, index) | functor(len, (bit targets), flip)
//! IDS   := '[' ( INT ( ',' INT )* )? ']'
//! TUPLE := '(' INT ( ',' INT )* ')' | INT
//! ```
//!
//! A parenthesised argument such as `(lengths)` is a TUPLE, every other one
//! an INT. The alternatives are the signatures of the bases ([`BASES`]) and
//! of the transform kinds ([`Kind::signature`](cktile_transforms::Kind::signature)),
//! which the parser reads. The first stage is a base (`naive`,
//! `naive_with_offset`, `packed`, `aligned`); every later one is a
//! `transform`. In `naive`'s optional vector
//! arguments, `-1` means "not guaranteed" (CK's convention). A guaranteed
//! vector must hold for the lengths and strides, as
//! [`Descriptor::naive_with_vector`] says: a length `V` above 1 needs the
//! last length a multiple of `V` and the vector stride equal to the last
//! stride; `naive((64,70),(72,1),8,1)` is refused, and
//! `naive((64,40),(44,1),8,1)` is accepted (the other strides are free, as
//! in CK). A swizzle takes
//! the length of the dimension it is applied to. In `functor(len, (bit
//! targets), flip)` (CK's `functor_transform`), input bit `i` of the
//! index's low bits moves to bit `targets[i]`, then `flip` is XORed into
//! them: CK's `permute_bits_5` is `functor(len, (2,3,4,0,1), 0)`.
//!
//! [`parse`] reads a spec into a [`Descriptor`] with exactly the semantics of
//! the static API; `Display` on a [`Descriptor`] prints it back, and the two
//! round-trip. Every malformed or impossible spec is an [`Error`] with its
//! line and column.
//!
//! ```
//! let d = cktile_analysis::spec::parse("packed((4,8)) | transform(merge((4,8)) on [0,1] -> [0])")?;
//! assert_eq!(d.calculate_offset(&[13]), 13);
//! let e = cktile_analysis::spec::parse("packed((4,8)) | transform(merge((4,9)) on [0,1] -> [0])").unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "1:27: merge: lower dimension 1 should have length 9 but the dimension it is applied to has length 8"
//! );
//! # Ok::<(), cktile_analysis::Error>(())
//! ```

pub(crate) mod lexer;
pub(crate) mod parser;

use crate::Error;
use crate::Position;
use cktile_core::Descriptor;
use cktile_transforms::{Param, Signature};

/// The base descriptors' signatures, in the order the grammar lists them:
/// the parser reads its arguments by them.
///
/// ```
/// let names: Vec<_> = cktile_analysis::spec::BASES.iter().map(|b| b.to_string()).collect();
/// assert_eq!(names[2], "packed((lengths)[, vector length])");
/// ```
pub const BASES: [Signature; 4] = [
    Signature {
        name: "naive",
        params: &[Param::list("lengths"), Param::list("strides")],
        optional: &[
            Param::int("vector length", -1, i64::MAX, GUARANTEED_LENGTH),
            Param::int("vector stride", -1, i64::MAX, GUARANTEED_STRIDE),
        ],
    },
    Signature {
        name: "naive_with_offset",
        params: &[Param::list("lengths"), Param::list("strides"), Param::index("offset")],
        optional: &[],
    },
    Signature { name: "packed", params: &[Param::list("lengths")], optional: &[Param::index("vector length")] },
    Signature { name: "aligned", params: &[Param::list("lengths"), Param::index("align")], optional: &[] },
];
/// `naive`'s vector length: `-1` (unknown) or a positive value (a 0 is in
/// the parser's range, and refused by [`Descriptor::naive_dims`]).
const GUARANTEED_LENGTH: &str = "-1 (not guaranteed) or an integer in [1, 2^63)";
/// `naive`'s vector stride: `-1` (unknown) or a non-negative value.
const GUARANTEED_STRIDE: &str = "-1 (not guaranteed) or an integer in [0, 2^63)";

/// Reads a spec into a descriptor.
///
/// ```
/// let d = cktile_analysis::spec::parse("naive((4,8),(100,1))  # a 4x8 tile with row pitch 100")?;
/// assert_eq!(d.calculate_offset(&[2, 5]), 205);
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub fn parse(text: &str) -> Result<Descriptor, Error> {
    parser::Parser::new(text).spec()
}

/// How many characters of the source line [`excerpt`] quotes on each side of
/// the error position.
///
/// ```
/// assert_eq!(cktile_analysis::spec::EXCERPT_RADIUS, 40);
/// ```
pub const EXCERPT_RADIUS: usize = 40;

/// The source around an error position, for messages: `line:column`, then
/// at most [`EXCERPT_RADIUS`] characters either side of the column on that
/// line (`...` marking what is cut) with a caret under the column, so a
/// huge input is never echoed whole.
///
/// ```
/// let text = format!("packed(({}x))", "1".repeat(10_000));
/// let at = cktile_analysis::spec::parse(&text).unwrap_err().position().unwrap();
/// let quoted = cktile_analysis::spec::excerpt(&text, at);
/// assert!(quoted.len() < 200);
/// assert!(quoted.starts_with("  --> 1:10009\n  | ..."));
/// assert!(quoted.ends_with("^"));
/// ```
#[cfg(feature = "alloc")]
pub fn excerpt(source: &str, at: Position) -> alloc::string::String {
    use alloc::string::String;
    let line = source.lines().nth(at.line.saturating_sub(1) as usize).unwrap_or("");
    let col = at.column.saturating_sub(1) as usize;
    let first = col.saturating_sub(EXCERPT_RADIUS);
    let chars: String = line.chars().skip(first).take(2 * EXCERPT_RADIUS + 1).collect();
    let before = if first > 0 { "..." } else { "" };
    let after = if line.chars().count() > first + 2 * EXCERPT_RADIUS + 1 { "..." } else { "" };
    // Tabs, other control characters and bidirectional controls print as
    // one space, so the caret lines up and nothing acts on the terminal.
    let shown: String = chars.chars().map(|c| if cktile_core::is_hidden(c) { ' ' } else { c }).collect();
    let caret = " ".repeat(before.len() + col - first);
    alloc::format!("  --> {at}\n  | {before}{shown}{after}\n  | {caret}^")
}
