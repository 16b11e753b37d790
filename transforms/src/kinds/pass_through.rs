//! `pass_through(len)`: one upper dimension, one lower, `low = up`.
//!
//! Valid everywhere, linear (a move adds the same step), vector length and
//! stride pass through unchanged, and it is its own inverse.

/// `low = up`.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::pass_through::lower(5), 5);
/// ```
#[inline(always)]
pub const fn lower(up: i64) -> i64 {
    up
}
