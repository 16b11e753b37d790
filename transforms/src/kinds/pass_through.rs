//! `pass_through(len)`: one upper dimension, one lower, `low = up`.
//!
//! Valid everywhere, linear (a move adds the same step), vector length and
//! stride pass through unchanged, and it is its own inverse.

/// `low = up`.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::pass_through::lower(5), 5);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
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

use super::Draw;
use super::kit::{at, length, put, single};
use super::row::{LEN, Row, sig};
use crate::lowering::Lowering;
use crate::signature::{Arg, Args};
use crate::{Dims, Error, Family, Index, Indices, MAX_DIMS, Params, Transform, VectorRule};

/// The parameters of `pass_through(len)`.
///
/// ```
/// use cktile_transforms::{kinds::PassThroughParams, Params, Transform};
/// assert_eq!(Transform::pass_through(8)?.params(), Params::PassThrough(PassThroughParams { len: 8 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PassThroughParams {
    /// Length.
    pub len: Index,
}

impl Transform {
    /// `pass_through(len)`: `low = up`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::pass_through(8).unwrap().upper_lengths().as_slice(), &[8]);
    /// ```
    #[inline]
    pub const fn pass_through(len: usize) -> Result<Transform, Error> {
        const NAME: &str = PassThroughParams::ROW.signature.name;
        Ok(Transform::wrap(Params::PassThrough(PassThroughParams { len: crate::tri!(length(len, NAME, "len")) })))
    }
}

super::kit::kind_defaults!(PassThroughParams: one_lower, one_upper, always_valid, vector_without_length, shifted);

impl PassThroughParams {
    pub(crate) const ROW: Row = Row {
        family: Family::Identity,
        signature: sig("pass_through", const { &[LEN] }),
        build: |a| Transform::pass_through(a.index(0)?),
    };
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::Int(self.len), Args::Z, Args::Z], 1)
    }
    pub(crate) const fn upper_lengths(&self) -> Dims {
        single(self.len)
    }
    pub(crate) const fn bind(&self, lower: &Dims) -> Result<Transform, Error> {
        crate::tri!(super::kit::expect_len(Self::ROW.signature.name, 0, self.len, lower.get(0)));
        Ok(Transform::wrap(Params::PassThrough(*self)))
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
        put(low, low_ids, 0, lower(at(up, up_ids, 0)));
    }
    pub(crate) const fn is_xor_linear(&self) -> bool {
        true
    }
    pub(crate) const fn calculate_upper(&self, low: &Indices) -> Option<Indices> {
        Some(super::kit::one(low[0]))
    }
    pub(crate) const fn lowering(&self) -> Lowering {
        lowering()
    }
    pub(crate) const fn upper_lowering(&self) -> Option<Lowering> {
        Some(lowering())
    }
    pub(crate) const fn vector(_num_lower: usize, _num_upper: usize, _with: Option<i64>) -> VectorRule {
        VectorRule::Pass { dims: 1 }
    }
    pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
        Transform::pass_through(d.offered()).ok()
    }
}

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::kinds::forms::*;

    scalar_transform!(
        /// `pass_through(len)`: `low = up`.
        PassThrough, make_pass_through_transform, pass_through, U1, U1; len: L;
        |t, up, low| lower = one(super::lower(up[0])), valid = true, lengths = one(ix(t.len)),
        accepts = length_is(t.len, low[0])
    );
}
