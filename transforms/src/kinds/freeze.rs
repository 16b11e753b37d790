//! `freeze(index)`: one lower dimension, no upper: the lower index is fixed
//! at `index`. A move never changes it. Not invertible (it drops a dimension).

/// The lower index, whatever the upper side.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::freeze::lower(3), 3);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn lower(index: i64) -> i64 {
    index
}

/// The lowering: a constant (no inputs, one affine step without terms).
///
/// ```
/// let l = cktile_transforms::kinds::freeze::lowering(3);
/// assert_eq!((l.inputs(), l.lower(&[])[0]), (0, 3));
/// ```
pub const fn lowering(index: i64) -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(0);
    let s = l.affine(&[], &[], index);
    l.output(s);
    l
}

use super::Draw;
use super::kit::{fits, put};
use super::row::{Row, sig};
use crate::dims::to_index;
use crate::lowering::Lowering;
use crate::signature::{Arg, Args, Param};
use crate::{Dims, Error, Family, Index, MAX_DIMS, Params, Transform};

/// The parameters of `freeze(index)`.
///
/// ```
/// use cktile_transforms::{kinds::FreezeParams, Params, Transform};
/// assert_eq!(Transform::freeze(3)?.params(), Params::Freeze(FreezeParams { index: 3 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FreezeParams {
    /// The lower index it is fixed at.
    pub index: Index,
}

impl Transform {
    /// `freeze(index)`: drops a lower dimension, fixing it at `index`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::freeze(3).unwrap().num_upper(), 0);
    /// ```
    #[inline]
    pub const fn freeze(index: usize) -> Result<Transform, Error> {
        Ok(Transform::wrap(Params::Freeze(FreezeParams { index: crate::tri!(to_index(index)) })))
    }
}

// A move never changes a frozen index (`constant`).
super::kit::kind_defaults!(FreezeParams: one_lower, always_valid, no_vector, no_inverse, constant);

impl FreezeParams {
    pub(crate) const ROW: Row = Row {
        family: Family::Index,
        signature: sig("freeze", const { &[Param::index("index")] }),
        build: |a| Transform::freeze(a.index(0)?),
    };
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::Int(self.index), Args::Z, Args::Z], 1)
    }
    pub(crate) const fn num_upper(&self) -> usize {
        0
    }
    pub(crate) const fn upper_lengths(&self) -> Dims {
        Dims::EMPTY
    }
    pub(crate) const fn bind(&self, lower: &Dims) -> Result<Transform, Error> {
        crate::tri!(fits(Self::ROW.signature.name, self.index, lower.get(0)));
        Ok(Transform::wrap(Params::Freeze(*self)))
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn lower_at<const U: usize, const L: usize>(
        &self,
        _: &[Index; U],
        _: &[u8; MAX_DIMS],
        low: &mut [Index; L],
        low_ids: &[u8; MAX_DIMS],
    ) {
        put(low, low_ids, 0, lower(self.index));
    }
    pub(crate) const fn is_xor_linear(&self) -> bool {
        self.index == 0
    }
    pub(crate) const fn lowering(&self) -> Lowering {
        lowering(self.index)
    }
    /// The offered dimension fixed at a random index.
    pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
        let la = d.offered();
        Transform::freeze(d.index(la)).ok()
    }
}

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::kinds::forms::*;

    scalar_transform!(
        /// `freeze(index)`: a lower dimension fixed at `index`.
        Freeze, make_freeze_transform, freeze, U1, U0; index: I;
        |t, up, low| lower = one(super::lower(ix(t.index))), valid = true, lengths = [0; MAX_DIMS]
    );
}
