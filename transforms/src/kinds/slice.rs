//! `slice(len, begin, end)`: the upper dimension is `[begin, end)` of the
//! lower one: `up_len = end - begin`, `low = up + begin`.
//!
//! Valid everywhere (CK Tile checks no bounds), linear, no vector information.

/// `low = up + begin`.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::slice::lower(0, 3), 3);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn lower(up: i64, begin: i64) -> i64 {
    up.wrapping_add(begin)
}

/// The upper length: `end - begin`.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::slice::upper_length(2, 5), 3);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn upper_length(begin: i64, end: i64) -> i64 {
    end.wrapping_sub(begin)
}

/// The lowering: `low = up + begin`; the inverse is
/// [`offset::lowering`](super::offset::lowering)`(-begin)`.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::slice::lowering(3).lower(&[0])[0], 3);
/// ```
pub const fn lowering(begin: i64) -> crate::lowering::Lowering {
    super::offset::lowering(begin)
}

use super::Draw;
use super::kit::{at, expect_len, length, one, put, single};
use super::row::{LEN, Row, sig};
use crate::dims::to_index;
use crate::lowering::Lowering;
use crate::signature::{Arg, Args, Param};
use crate::{Dims, Error, Family, Index, Indices, MAX_DIMS, Params, Transform};

/// The parameters of `slice(len, begin, end)`.
///
/// ```
/// use cktile_transforms::{kinds::SliceParams, Params, Transform};
/// assert_eq!(Transform::slice(10, 2, 5)?.params(), Params::Slice(SliceParams { len: 10, begin: 2, end: 5 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SliceParams {
    /// Lower length.
    pub len: Index,
    /// First lower index kept.
    pub begin: Index,
    /// One past the last lower index kept.
    pub end: Index,
}

impl Transform {
    /// `slice(len, begin, end)`: the upper dimension is `[begin, end)` of the lower.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::slice(10, 2, 5).unwrap().upper_lengths().as_slice(), &[3]);
    /// assert!(Transform::slice(10, 5, 5).is_err());
    /// ```
    #[inline]
    pub const fn slice(len: usize, begin: usize, end: usize) -> Result<Transform, Error> {
        const NAME: &str = SliceParams::ROW.signature.name;
        let len = crate::tri!(length(len, NAME, "len"));
        let (begin, end) = (crate::tri!(to_index(begin)), crate::tri!(to_index(end)));
        if begin >= end || end > len {
            return Err(Error::SliceRange { len, begin, end });
        }
        Ok(Transform::wrap(Params::Slice(SliceParams { len, begin, end })))
    }
}

super::kit::kind_defaults!(SliceParams: one_lower, one_upper, always_valid, no_vector, shifted);

impl SliceParams {
    pub(crate) const ROW: Row = Row {
        family: Family::Index,
        signature: sig("slice", const { &[LEN, Param::index("begin"), Param::index("end")] }),
        build: |a| Transform::slice(a.index(0)?, a.index(1)?, a.index(2)?),
    };
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::Int(self.len), Arg::Int(self.begin), Arg::Int(self.end)], 3)
    }
    pub(crate) const fn upper_lengths(&self) -> Dims {
        single(upper_length(self.begin, self.end))
    }
    pub(crate) const fn bind(&self, lower: &Dims) -> Result<Transform, Error> {
        crate::tri!(expect_len(Self::ROW.signature.name, 0, self.len, lower.get(0)));
        Ok(Transform::wrap(Params::Slice(*self)))
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
        put(low, low_ids, 0, lower(at(up, up_ids, 0), self.begin));
    }
    pub(crate) const fn is_xor_linear(&self) -> bool {
        self.begin == 0
    }
    pub(crate) const fn calculate_upper(&self, low: &Indices) -> Option<Indices> {
        Some(one(low[0].wrapping_sub(self.begin)))
    }
    pub(crate) const fn lowering(&self) -> Lowering {
        lowering(self.begin)
    }
    pub(crate) const fn upper_lowering(&self) -> Option<Lowering> {
        Some(super::offset::lowering(self.begin.wrapping_neg()))
    }
    /// A random range of the offered dimension.
    pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
        let la = d.offered();
        let begin = d.index(la);
        let end = begin + 1 + d.index(la - begin);
        Transform::slice(la, begin, end).ok()
    }
}

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::kinds::forms::*;

    scalar_transform!(
        /// `slice(len, begin, end)`: `low = up + begin`.
        Slice, make_slice_transform, slice, U1, U1; len: L, begin: B, end: E;
        |t, up, low| lower = one(super::lower(up[0], ix(t.begin))), valid = true,
        lengths = one(super::upper_length(ix(t.begin), ix(t.end)))
    );
}
