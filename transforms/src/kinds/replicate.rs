//! `insert(len)` and `replicate(lengths)`: upper dimensions with no lower
//! dimension. Their indices do not reach memory at all (broadcast), so every
//! upper index maps to the same offset. Not invertible unless every length is 1.
//!
//! Both have nothing to compute; this module states the one property they
//! have, for the descriptor-level analysis.

/// Whether the upper side is a single point, so the transform is invertible.
///
/// ```
/// use cktile_transforms::kinds::replicate::is_single_point;
/// assert!(is_single_point(&[1, 1, 0, 0, 0, 0, 0, 0], 2));
/// assert!(!is_single_point(&[4, 0, 0, 0, 0, 0, 0, 0], 1));
/// ```
#[inline]
pub const fn is_single_point(lengths: &crate::Indices, n: usize) -> bool {
    let n = super::arity(n);
    let mut i = 0;
    while i < n {
        if lengths[i] != 1 {
            return false;
        }
        i += 1;
    }
    true
}

/// The lowering of `insert`/`replicate` with `n` upper dimensions: nothing
/// (no lower index).
///
/// ```
/// let l = cktile_transforms::kinds::replicate::lowering(2);
/// assert!(l.steps().is_empty() && l.outputs().is_empty());
/// ```
pub const fn lowering(n: usize) -> crate::lowering::Lowering {
    crate::lowering::Lowering::new(n)
}

/// The inverse's lowering, for a single point: every one of the `n` upper
/// indices is 0.
///
/// ```
/// let l = cktile_transforms::kinds::replicate::upper_lowering(2);
/// assert_eq!((l.inputs(), &l.lower(&[])[..2]), (0, &[0, 0][..]));
/// ```
pub const fn upper_lowering(n: usize) -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(0);
    let zero = l.affine(&[], &[], 0);
    let mut i = 0;
    while i < n && i < crate::MAX_DIMS {
        l.output(zero);
        i += 1;
    }
    l
}
