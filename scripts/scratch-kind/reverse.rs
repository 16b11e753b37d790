//! `reverse(len)`: one upper dimension, one lower, `low = len - 1 - up`.
//!
//! A scratch kind: `scripts/scratch-kind.sh` adds this module and its line
//! in the list of kinds to a copy of the tree, and nothing else, then runs
//! the tests that draw every kind. It is not one of cktile's kinds.

use super::Draw;
use super::kit::{at, expect_len, length, one, put, single};
use super::row::{LEN, Row, sig};
use crate::lowering::Lowering;
use crate::signature::{Arg, Args};
use crate::{Dims, Error, Family, Index, Indices, MAX_DIMS, Params, Transform};

/// `len - 1 - up`, wrapping.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::reverse::lower(0, 8), 7);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn lower(up: i64, len: i64) -> i64 {
    len.wrapping_sub(1).wrapping_sub(up)
}

/// The lowering: one affine step, `len - 1 - up`; its own inverse.
///
/// ```
/// let l = cktile_transforms::kinds::reverse::lowering(8);
/// assert_eq!(l.lower(&[3])[0], 4);
/// ```
pub const fn lowering(len: i64) -> Lowering {
    let mut l = Lowering::new(1);
    let s = l.affine(&[0], &[-1], len.wrapping_sub(1));
    l.output(s);
    l
}

/// The parameters of `reverse(len)`.
///
/// ```
/// use cktile_transforms::{kinds::ReverseParams, Params, Transform};
/// assert_eq!(Transform::reverse(8)?.params(), Params::Reverse(ReverseParams { len: 8 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReverseParams {
    /// Length.
    pub len: Index,
}

impl Transform {
    /// `reverse(len)`: `low = len - 1 - up`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::reverse(8).unwrap().to_string(), "reverse(8)");
    /// ```
    #[inline]
    pub const fn reverse(len: usize) -> Result<Transform, Error> {
        const NAME: &str = ReverseParams::ROW.signature.name;
        Ok(Transform::wrap(Params::Reverse(ReverseParams { len: crate::tri!(length(len, NAME, "len")) })))
    }
}

super::kit::kind_defaults!(ReverseParams: one_lower, one_upper, always_valid, no_vector);

impl ReverseParams {
    pub(crate) const ROW: Row = Row {
        family: Family::Permutation,
        signature: sig("reverse", const { &[LEN] }),
        build: |a| Transform::reverse(a.index(0)?),
    };
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::Int(self.len), Args::Z, Args::Z], 1)
    }
    pub(crate) const fn upper_lengths(&self) -> Dims {
        single(self.len)
    }
    pub(crate) const fn bind(&self, lower: &Dims) -> Result<Transform, Error> {
        crate::tri!(expect_len(Self::ROW.signature.name, 0, self.len, lower.get(0)));
        Ok(Transform::wrap(Params::Reverse(*self)))
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
        put(low, low_ids, 0, lower(at(up, up_ids, 0), self.len));
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn step_at<const U: usize, const L: usize>(
        &self,
        d_up: &[Index; U],
        up_ids: &[u8; MAX_DIMS],
        d_low: &mut [Index; L],
        low_ids: &[u8; MAX_DIMS],
    ) {
        put(d_low, low_ids, 0, at(d_up, up_ids, 0).wrapping_neg());
    }
    /// Whether every transform of the kind is linear ([`Kind::is_linear`](crate::Kind::is_linear)).
    pub(crate) const LINEAR: bool = true;
    pub(crate) const fn is_linear(&self) -> bool {
        Self::LINEAR
    }
    pub(crate) const fn is_xor_linear(&self) -> bool {
        self.len == 1
    }
    pub(crate) const fn calculate_upper(&self, low: &Indices) -> Option<Indices> {
        Some(one(lower(low[0], self.len)))
    }
    pub(crate) const fn lowering(&self) -> Lowering {
        lowering(self.len)
    }
    pub(crate) const fn upper_lowering(&self) -> Option<Lowering> {
        Some(lowering(self.len))
    }
    /// The offered dimension, reversed.
    pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
        Transform::reverse(d.offered()).ok()
    }
}

/// The typed form: [`Reverse`](typed::Reverse) and `make_reverse_transform`,
/// evaluated by [`lower`].
pub mod typed {
    use crate::kinds::forms::*;

    scalar_transform!(
        /// `reverse(len)`: `low = len - 1 - up`.
        Reverse, make_reverse_transform, reverse, U1, U1; len: L;
        |t, up, low| lower = one(super::lower(up[0], ix(t.len))), valid = true, lengths = one(ix(t.len)),
        accepts = length_is(t.len, low[0])
    );
}
