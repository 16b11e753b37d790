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

use crate::{Index, Indices};

/// Splits `up` into the `n` lower indices (the row-major split).
pub use crate::arith::split as lower;

/// Inverse: combines the lower indices row-major.
///
/// ```
/// use cktile_transforms::kinds::merge::upper;
/// let lens = [2, 3, 4, 0, 0, 0, 0, 0];
/// assert_eq!(upper(&[1, 2, 3, 0, 0, 0, 0, 0], &lens, 3), 23);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
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
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
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

/// The product of the first `n` lengths, all at least 1 (an unmerge's, or
/// a packed descriptor's), in 64-bit arithmetic without branches: what a
/// kernel that builds one from runtime lengths pays to check it. Each
/// partial product is at most the whole, so an overflow anywhere is an
/// overflow of the whole: exact. `None` on overflow, for no lengths, and
/// when a length is below 1.
///
/// ```
/// use cktile_transforms::kinds::merge::positive_product;
/// assert_eq!(positive_product(&[4, 8, 2, 0, 0, 0, 0, 0], 3), Some(64));
/// assert_eq!(positive_product(&[1 << 40, 1 << 30, 0, 0, 0, 0, 0, 0], 2), None);
/// assert_eq!(positive_product(&[4, 0, 0, 0, 0, 0, 0, 0], 2), None);
/// assert_eq!(positive_product(&[4, 0, 0, 0, 0, 0, 0, 0], 0), None);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn positive_product(lengths: &Indices, n: usize) -> Option<Index> {
    let (mut product, mut bad) = (1u64, n == 0);
    crate::static_for!(n, |i| {
        let l = lengths[i];
        bad |= l < 1;
        let (p, o) = product.overflowing_mul(l as u64);
        product = p;
        bad |= o;
    });
    if bad || product > Index::MAX as u64 { None } else { Some(product as Index) }
}

/// The inverse's lowering (unmerge's, [`unmerge::lowering`](super::unmerge::lowering)):
/// one affine step over the row-major strides (the last is 1), the same
/// wrapping sum as [`upper`].
///
/// ```
/// use cktile_transforms::{kinds::merge::inverse_lowering, Dims};
/// let l = inverse_lowering(Dims::from_slice(&[4, 8])?);
/// assert_eq!(l.lower(&[3, 5])[0], 29);
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
pub const fn inverse_lowering(lengths: crate::Dims) -> crate::lowering::Lowering {
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

use super::Draw;
use super::kit::{at, expect_len, lengths as checked_lengths, one, put, single};
use super::row::{Row, sig};
use crate::lowering::Lowering;
use crate::signature::{Arg, Args, Param};
use crate::{Dims, Error, Family, MAX_DIMS, Params, Transform, VectorRule};

/// The parameters of `merge(lower_lengths)`.
///
/// ```
/// use cktile_transforms::{kinds::MergeParams, Dims, Params, Transform};
/// let lengths = Dims::from_slice(&[4, 8])?;
/// assert_eq!(Transform::merge(&[4, 8])?.params(), Params::Merge(MergeParams { lengths }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MergeParams {
    /// Lower lengths.
    pub lengths: Dims,
}

impl Transform {
    /// `merge(lower_lengths)`: row-major merge of N lower dimensions into one.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::merge(&[4, 8]).unwrap().upper_lengths().as_slice(), &[32]);
    /// ```
    #[inline]
    pub const fn merge(lower_lengths: &[usize]) -> Result<Transform, Error> {
        Transform::merge_dims(crate::tri!(Dims::from_usizes(lower_lengths)))
    }

    /// [`merge`](Self::merge) from [`Dims`].
    ///
    /// ```
    /// # use cktile_transforms::{Dims, Transform};
    /// assert!(Transform::merge_dims(Dims::from_slice(&[4, -1]).unwrap()).is_err());
    /// ```
    #[inline]
    pub const fn merge_dims(lower_lengths: Dims) -> Result<Transform, Error> {
        const NAME: &str = MergeParams::ROW.signature.name;
        let lengths = crate::tri!(checked_lengths(lower_lengths, NAME, "lower lengths"));
        Ok(Transform::wrap(Params::Merge(MergeParams { lengths })))
    }
}

super::kit::kind_defaults!(MergeParams: one_upper, always_valid, vector_without_length, recomputed);

impl MergeParams {
    pub(crate) const ROW: Row = Row {
        family: Family::Merge,
        signature: sig("merge", const { &[Param::list("lower lengths")] }),
        build: |a| Transform::merge_dims(a.list(0)?),
    };
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::List(self.lengths), Args::Z, Args::Z], 1)
    }
    pub(crate) const fn num_lower(&self) -> usize {
        self.lengths.len()
    }
    pub(crate) const fn upper_lengths(&self) -> Dims {
        // The product is checked at construction.
        single(upper_length(&self.lengths.to_array(), self.lengths.len()))
    }
    pub(crate) const fn bind(&self, lower: &Dims) -> Result<Transform, Error> {
        let name = Self::ROW.signature.name;
        crate::static_for!(self.lengths.len(), |i| {
            crate::tri!(expect_len(name, i, self.lengths.get(i), lower.get(i)));
        });
        Ok(Transform::wrap(Params::Merge(*self)))
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn lower_at<const U: usize, const L: usize>(
        &self,
        up: &[Index; U],
        up_ids: &[u8; MAX_DIMS],
        low: &mut [Index; L],
        low_ids: &[u8; MAX_DIMS],
    ) {
        // [`lower`]'s formula, its indices placed at the ids.
        let n = self.lengths.len();
        let values = lower(at(up, up_ids, 0), &self.lengths.to_array(), n);
        let mut i = 0;
        while i < n && i < MAX_DIMS {
            put(low, low_ids, i, values[i]);
            i += 1;
        }
    }
    pub(crate) const fn is_xor_linear(&self) -> bool {
        true
    }
    pub(crate) const fn calculate_upper(&self, low: &Indices) -> Option<Indices> {
        Some(one(upper(low, &self.lengths.to_array(), self.lengths.len())))
    }
    pub(crate) const fn lowering(&self) -> Lowering {
        lowering(self.lengths)
    }
    pub(crate) const fn upper_lowering(&self) -> Option<Lowering> {
        Some(inverse_lowering(self.lengths))
    }
    pub(crate) const fn vector(num_lower: usize, _num_upper: usize, _with: Option<i64>) -> VectorRule {
        VectorRule::Last { lower: num_lower.saturating_sub(1) }
    }
    /// The offered dimension merged with one or two other free ones;
    /// nothing when no other is free.
    pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
        let first = d.length();
        let second = d.take(&|_| true)?;
        let mut lengths = [first, second, 0];
        let n = match d.below(3) {
            0 => match d.take(&|_| true) {
                Some(third) => {
                    lengths[2] = third;
                    3
                }
                None => 2,
            },
            _ => 2,
        };
        Transform::merge_dims(Dims::from_slice(&lengths[..n]).ok()?).ok()
    }
}

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::kinds::forms::*;

    list_transform!(
        /// `merge(lower_lengths)`: row-major merge into one upper dimension.
        Merge, make_merge_transform, merge_dims, Ls::Len, U1, "(Number::<4>, Number::<8>)";
        |t, up, low| lower = super::lower(up[0], &t.lengths.indices(), len_of::<Ls>()),
        lengths = one(super::upper_length(&t.lengths.indices(), len_of::<Ls>())),
        accepts = {
            // Positive lengths whose product fits, each the lower length it reads.
            let (lengths, n) = (t.lengths.indices(), len_of::<Ls>());
            let mut same = true;
            for i in 0..n.min(MAX_DIMS) {
                same &= lengths[i] == low[i];
            }
            same & super::positive_product(&lengths, n).is_some()
        }
    );
}
