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
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
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
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn upper(low: i64, lengths: &Indices, n: usize) -> Indices {
    let n = super::arity(n);
    super::merge::lower(low, lengths, n)
}

pub use super::merge::positive_product;

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
    super::merge::inverse_lowering(lengths)
}

use super::Draw;
use super::kit::{at, expect_len, lengths as checked_lengths, put};
use super::row::{Row, sig};
use crate::lowering::Lowering;
use crate::signature::{Arg, Args, Param};
use crate::{Dims, Error, Family, MAX_DIMS, Params, Transform, VectorRule};

/// The parameters of `unmerge(upper_lengths)`.
///
/// ```
/// use cktile_transforms::{kinds::UnmergeParams, Dims, Params, Transform};
/// let lengths = Dims::from_slice(&[4, 8])?;
/// assert_eq!(Transform::unmerge(&[4, 8])?.params(), Params::Unmerge(UnmergeParams { lengths }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnmergeParams {
    /// Upper lengths.
    pub lengths: Dims,
}

impl Transform {
    /// `unmerge(upper_lengths)`: row-major split of one lower dimension into N.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::unmerge(&[4, 2]).unwrap().upper_lengths().as_slice(), &[4, 2]);
    /// ```
    #[inline]
    pub const fn unmerge(upper_lengths: &[usize]) -> Result<Transform, Error> {
        Transform::unmerge_dims(crate::tri!(Dims::from_usizes(upper_lengths)))
    }

    /// [`unmerge`](Self::unmerge) from [`Dims`].
    ///
    /// ```
    /// # use cktile_transforms::{Dims, Transform};
    /// assert!(Transform::unmerge_dims(Dims::from_slice(&[4, -1]).unwrap()).is_err());
    /// ```
    #[inline]
    pub const fn unmerge_dims(upper_lengths: Dims) -> Result<Transform, Error> {
        const NAME: &str = UnmergeParams::ROW.signature.name;
        let lengths = crate::tri!(checked_lengths(upper_lengths, NAME, "upper lengths"));
        Ok(Transform::wrap(Params::Unmerge(UnmergeParams { lengths })))
    }
}

super::kit::kind_defaults!(UnmergeParams: one_lower, always_valid);

impl UnmergeParams {
    pub(crate) const ROW: Row = Row {
        family: Family::Unmerge,
        signature: sig("unmerge", const { &[Param::list("upper lengths")] }),
        build: |a| Transform::unmerge_dims(a.list(0)?),
    };
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::List(self.lengths), Args::Z, Args::Z], 1)
    }
    pub(crate) const fn num_upper(&self) -> usize {
        self.lengths.len()
    }
    pub(crate) const fn upper_lengths(&self) -> Dims {
        self.lengths
    }
    pub(crate) const fn bind(&self, lower: &Dims) -> Result<Transform, Error> {
        let name = Self::ROW.signature.name;
        match self.lengths.product() {
            Some(p) => crate::tri!(expect_len(name, 0, p, lower.get(0))),
            None => {
                let value = self.lengths.wide_product();
                return Err(Error::Overflow { transform: name, quantity: "product of the lengths", value });
            }
        }
        Ok(Transform::wrap(Params::Unmerge(*self)))
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
        self.step_at(up, up_ids, low, low_ids);
    }
    /// The row-major combination, the same for an index and for a step.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn step_at<const U: usize, const L: usize>(
        &self,
        d_up: &[Index; U],
        up_ids: &[u8; MAX_DIMS],
        d_low: &mut [Index; L],
        low_ids: &[u8; MAX_DIMS],
    ) {
        let l = self.lengths.slots();
        let mut acc: Index = 0;
        let mut j = 0;
        while j < self.lengths.len() && j < MAX_DIMS {
            acc = acc.wrapping_mul(l[j]).wrapping_add(at(d_up, up_ids, j));
            j += 1;
        }
        put(d_low, low_ids, 0, acc);
    }
    /// Whether every transform of the kind is linear ([`Kind::is_linear`](crate::Kind::is_linear)).
    pub(crate) const LINEAR: bool = true;
    pub(crate) const fn is_linear(&self) -> bool {
        Self::LINEAR
    }
    pub(crate) const fn is_xor_linear(&self) -> bool {
        true
    }
    pub(crate) const fn calculate_upper(&self, low: &Indices) -> Option<Indices> {
        Some(upper(low[0], &self.lengths.to_array(), self.lengths.len()))
    }
    pub(crate) const fn lowering(&self) -> Lowering {
        lowering(self.lengths)
    }
    pub(crate) const fn upper_lowering(&self) -> Option<Lowering> {
        Some(super::merge::lowering(self.lengths))
    }
    pub(crate) const fn vector(_num_lower: usize, num_upper: usize, with: Option<i64>) -> VectorRule {
        VectorRule::Gcd { upper: num_upper.saturating_sub(1), with }
    }
    /// The last upper length, which the gcd is taken with.
    pub(crate) const fn vector_with(&self) -> Option<i64> {
        Some(self.lengths.get(self.lengths.len().saturating_sub(1)))
    }
    /// The offered length split into two factors (a random divisor), or
    /// into itself when it has none.
    pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
        let la = d.offered();
        let divisors = (2..la).filter(|p| la.is_multiple_of(*p));
        let n = divisors.clone().count();
        match divisors.clone().nth(d.index(n)) {
            Some(p) => Transform::unmerge(&[p, la / p]).ok(),
            None => Transform::unmerge(&[la]).ok(),
        }
    }
}

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::kinds::forms::*;

    list_transform!(
        /// `unmerge(upper_lengths)`: row-major split of one lower dimension.
        Unmerge, make_unmerge_transform, unmerge_dims, U1, Ls::Len, "(Number::<4>, 2usize)";
        |t, up, low| lower = one(super::lower(up, &t.lengths.indices(), len_of::<Ls>())), lengths = t.lengths.indices(),
        // Positive lengths whose product fits and is the lower length.
        accepts = super::positive_product(&t.lengths.indices(), len_of::<Ls>()) == Some(low[0])
    );
}
