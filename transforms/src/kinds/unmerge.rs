//! `unmerge(upper_lengths)`: one lower dimension, N upper, row-major:
//! `low = up[N-1] + sum_{i<N-1} up[i] * prod(L[i+1..])`.
//!
//! The reverse of merge; `make_naive_tensor_descriptor_packed` is one
//! unmerge. Linear. The last upper dimension gets vector length
//! `gcd(lower length, L[N-1])` and the lower stride; the others get nothing
//! (CK Tile's rule).

use crate::{Index, Indices};

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

/// The product of the first `n` lengths, all at least 1 (an unmerge's, or
/// a packed descriptor's), in 64-bit arithmetic without branches: what a
/// kernel that builds one from runtime lengths pays to check it. Each
/// partial product is at most the whole, so an overflow anywhere is an
/// overflow of the whole: exact. `None` on overflow, for no lengths, and
/// when a length is below 1.
///
/// ```
/// use cktile_transforms::kinds::unmerge::positive_product;
/// assert_eq!(positive_product(&[4, 8, 2, 0, 0, 0, 0, 0], 3), Some(64));
/// assert_eq!(positive_product(&[1 << 40, 1 << 30, 0, 0, 0, 0, 0, 0], 2), None);
/// assert_eq!(positive_product(&[4, 0, 0, 0, 0, 0, 0, 0], 2), None);
/// assert_eq!(positive_product(&[4, 0, 0, 0, 0, 0, 0, 0], 0), None);
/// ```
#[inline(always)]
pub const fn positive_product(lengths: &Indices, n: usize) -> Option<Index> {
    let (mut product, mut bad) = (1u64, n == 0);
    crate::dims::each_slot!(n, |i| {
        let l = lengths[i];
        bad |= l < 1;
        let (p, o) = product.overflowing_mul(l as u64);
        product = p;
        bad |= o;
    });
    if bad || product > Index::MAX as u64 { None } else { Some(product as Index) }
}

/// The lowering: one affine step over the row-major strides (the last is
/// 1), the same wrapping sum as [`lower`]. (The inverse splits:
/// [`merge::lowering`](super::merge::lowering).)
///
/// ```
/// use cktile_transforms::{kinds::unmerge::lowering, Dims};
/// let l = lowering(Dims::from_slice(&[4, 8])?);
/// assert_eq!(l.lower(&[3, 5])[0], 29);
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
pub const fn lowering(lengths: crate::Dims) -> crate::lowering::Lowering {
    let n = lengths.len();
    let (mut ins, mut strides) = ([0u8; crate::MAX_DIMS], [0; crate::MAX_DIMS]);
    let mut stride: Index = 1;
    let mut i = n;
    while i > 0 && i <= crate::MAX_DIMS {
        i -= 1;
        ins[i] = i as u8;
        strides[i] = stride;
        stride = stride.wrapping_mul(lengths.get(i));
    }
    let mut l = crate::lowering::Lowering::new(n);
    let s = l.affine(ins.split_at(n % (crate::MAX_DIMS + 1)).0, &strides, 0);
    l.output(s);
    l
}
