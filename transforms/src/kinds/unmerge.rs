//! `unmerge(upper_lengths)`: one lower dimension, N upper, row-major:
//! `low = up[N-1] + sum_{i<N-1} up[i] * prod(L[i+1..])`.
//!
//! The reverse of merge; `make_naive_tensor_descriptor_packed` is one
//! unmerge. Linear. The last upper dimension gets vector length
//! `gcd(lower length, L[N-1])` and the lower stride; the others get nothing
//! (CK Tile's rule).

use crate::Indices;

/// Combines the upper indices row-major into the lower index.
///
/// ```
/// use cktile_transforms::kinds::unmerge::lower;
/// let lens = [4, 8, 0, 0, 0, 0, 0, 0];
/// assert_eq!(lower(&[3, 5, 0, 0, 0, 0, 0, 0], &lens, 2), 29);
/// ```
#[inline(always)]
pub const fn lower(up: &Indices, lengths: &Indices, n: usize) -> i64 {
    let n = super::arity(n);
    super::merge::upper(up, lengths, n)
}

/// Inverse: splits the lower index into the upper ones (as merge's forward
/// direction).
///
/// ```
/// use cktile_transforms::kinds::unmerge::upper;
/// let lens = [4, 8, 0, 0, 0, 0, 0, 0];
/// assert_eq!(&upper(29, &lens, 2)[..2], &[3, 5]);
/// ```
#[inline(always)]
pub const fn upper(low: i64, lengths: &Indices, n: usize) -> Indices {
    let n = super::arity(n);
    super::merge::lower(low, lengths, n)
}
