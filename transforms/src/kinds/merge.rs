//! `merge(lower_lengths)`: N lower dimensions, one upper, row-major (the last
//! lower dimension is fastest): `up = (..(low0 * L1 + low1) * L2 ..) + low[N-1]`.
//!
//! The forward direction divides: for `i` from `N-1` down to 1,
//! `low[i] = t % L[i]`, `t /= L[i]`; then `low[0] = t` (not reduced modulo
//! `L0`, as in CK Tile). CK Tile's default merge divides with magic numbers,
//! which agrees with plain truncating division for `0 <= up < 2^31` and is
//! wrong above; cktile divides exactly over the whole 64-bit range (its
//! `merge_v3_division_mod`). Not linear: a move recomputes. The upper
//! dimension inherits the vector length and stride of the last lower one.

use crate::Indices;

/// Splits `up` into the `n` lower indices.
///
/// ```
/// use cktile_transforms::kinds::merge::lower;
/// let lens = [2, 3, 4, 0, 0, 0, 0, 0];
/// // CK Tile's tests: 23 -> (1, 2, 3), 6 -> (0, 1, 2).
/// assert_eq!(&lower(23, &lens, 3)[..3], &[1, 2, 3]);
/// assert_eq!(&lower(6, &lens, 3)[..3], &[0, 1, 2]);
/// ```
#[inline(always)]
pub const fn lower(up: i64, lengths: &Indices, n: usize) -> Indices {
    let n = super::arity(n);
    let mut low = [0i64; crate::MAX_DIMS];
    let mut t = up;
    let mut i = n;
    while i > 1 {
        i -= 1;
        low[i] = super::rem(t, lengths[i]);
        t = super::div(t, lengths[i]);
    }
    low[0] = t;
    low
}

/// Inverse: combines the lower indices row-major.
///
/// ```
/// use cktile_transforms::kinds::merge::upper;
/// let lens = [2, 3, 4, 0, 0, 0, 0, 0];
/// assert_eq!(upper(&[1, 2, 3, 0, 0, 0, 0, 0], &lens, 3), 23);
/// ```
#[inline(always)]
pub const fn upper(low: &Indices, lengths: &Indices, n: usize) -> i64 {
    let n = super::arity(n);
    let mut up: i64 = 0;
    let mut i = 0;
    while i < n {
        up = up.wrapping_mul(lengths[i]).wrapping_add(low[i]);
        i += 1;
    }
    up
}

/// The upper length: the product of the `n` lower lengths (checked when the
/// transform is built).
///
/// ```
/// let lens = [2, 3, 4, 0, 0, 0, 0, 0];
/// assert_eq!(cktile_transforms::kinds::merge::upper_length(&lens, 3), 24);
/// ```
#[inline(always)]
pub const fn upper_length(lengths: &Indices, n: usize) -> i64 {
    let mut p: i64 = 1;
    let mut i = 0;
    while i < n && i < crate::MAX_DIMS {
        p = p.wrapping_mul(lengths[i]);
        i += 1;
    }
    p
}

/// The lowering: one row-major split. (The inverse combines:
/// [`unmerge::lowering`](super::unmerge::lowering).)
///
/// ```
/// use cktile_transforms::{kinds::merge::lowering, Dims};
/// let l = lowering(Dims::from_slice(&[2, 3, 4])?);
/// assert_eq!(&l.lower(&[23])[..3], &[1, 2, 3]);
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
pub const fn lowering(lengths: crate::Dims) -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(1);
    let s = l.split(0, lengths);
    l.outputs_from(s, lengths.len());
    l
}
