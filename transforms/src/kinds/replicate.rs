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
