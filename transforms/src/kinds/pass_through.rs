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

/// The lowering of `pass_through` (and of `right_pad`'s offset): no step,
/// the output is the input. Its own inverse.
///
/// ```
/// let l = cktile_transforms::kinds::pass_through::lowering();
/// assert!(l.steps().is_empty() && l.outputs() == [0]);
/// ```
pub const fn lowering() -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(1);
    l.output(0);
    l
}
