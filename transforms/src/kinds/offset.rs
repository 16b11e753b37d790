//! `offset(len, off)`: `low = up + off`, upper length `len`.
//!
//! `make_naive_tensor_descriptor_with_offset` puts one below its embed. Linear,
//! valid everywhere, no vector information; inverse `up = low - off`.

/// `low = up + off`.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::offset::lower(4, 100), 104);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn lower(up: i64, off: i64) -> i64 {
    up.wrapping_add(off)
}

/// The lowering of `low = up + off` (also `slice`'s, with its `begin`, and
/// every inverse that subtracts): one affine step, none for `off = 0`.
///
/// ```
/// let l = cktile_transforms::kinds::offset::lowering(100);
/// assert_eq!(l.lower(&[4])[0], 104);
/// assert!(cktile_transforms::kinds::offset::lowering(0).steps().is_empty());
/// ```
pub const fn lowering(off: i64) -> crate::lowering::Lowering {
    // (`off = 0` is a lone unit term: the builder keeps it as the input.)
    let mut l = crate::lowering::Lowering::new(1);
    let s = l.affine(&[0], &[1], off);
    l.output(s);
    l
}

use super::Draw;
use super::kit::{at, fits, length, one, put, single};
use super::row::{LEN, Row, sig};
use crate::dims::to_index;
use crate::lowering::Lowering;
use crate::signature::{Arg, Args, Param};
use crate::{Dims, Error, Family, Index, Indices, MAX_DIMS, Params, Transform};

/// The parameters of `offset(len, off)`.
///
/// ```
/// use cktile_transforms::{kinds::OffsetParams, Params, Transform};
/// assert_eq!(Transform::offset(16, 4)?.params(), Params::Offset(OffsetParams { len: 16, offset: 4 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OffsetParams {
    /// Upper length.
    pub len: Index,
    /// What is added.
    pub offset: Index,
}

impl Transform {
    /// `offset(len, off)`: `low = up + off`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::offset(16, 4).unwrap().upper_lengths().as_slice(), &[16]);
    /// ```
    #[inline]
    pub const fn offset(len: usize, off: usize) -> Result<Transform, Error> {
        const NAME: &str = OffsetParams::ROW.signature.name;
        let len = crate::tri!(length(len, NAME, "len"));
        let offset = crate::tri!(to_index(off));
        crate::tri!(super::kit::checked_sum(len, offset, NAME));
        Ok(Transform::wrap(Params::Offset(OffsetParams { len, offset })))
    }
}

super::kit::kind_defaults!(OffsetParams: one_lower, one_upper, always_valid, no_vector, shifted);

impl OffsetParams {
    pub(crate) const ROW: Row = Row {
        family: Family::Index,
        signature: sig("offset", const { &[LEN, Param::index("off")] }),
        build: |a| Transform::offset(a.index(0)?, a.index(1)?),
    };
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::Int(self.len), Arg::Int(self.offset), Args::Z], 2)
    }
    pub(crate) const fn upper_lengths(&self) -> Dims {
        single(self.len)
    }
    pub(crate) const fn bind(&self, lower: &Dims) -> Result<Transform, Error> {
        crate::tri!(fits(Self::ROW.signature.name, self.len + self.offset - 1, lower.get(0)));
        Ok(Transform::wrap(Params::Offset(*self)))
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
        put(low, low_ids, 0, lower(at(up, up_ids, 0), self.offset));
    }
    pub(crate) const fn is_xor_linear(&self) -> bool {
        self.offset == 0
    }
    pub(crate) const fn calculate_upper(&self, low: &Indices) -> Option<Indices> {
        Some(one(low[0].wrapping_sub(self.offset)))
    }
    pub(crate) const fn lowering(&self) -> Lowering {
        lowering(self.offset)
    }
    pub(crate) const fn upper_lowering(&self) -> Option<Lowering> {
        Some(lowering(self.offset.wrapping_neg()))
    }
    /// A random window of the offered dimension.
    pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
        let la = d.offered();
        let off = d.index(la);
        let len = 1 + d.index(la - off);
        Transform::offset(len, off).ok()
    }
}

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::kinds::forms::*;

    scalar_transform!(
        /// `offset(len, off)`: `low = up + off`.
        Offset, make_offset_transform, offset, U1, U1; len: L, off: O;
        |t, up, low| lower = one(super::lower(up[0], ix(t.off))), valid = true, lengths = one(ix(t.len))
    );
}
