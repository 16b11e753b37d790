//! `pad(len, left, right)`, `left_pad(len, left)`, `right_pad(len, right)`.
//!
//! The upper dimension is the lower one with `left` extra indices before and
//! `right` after: `up_len = len + left + right`, `low = up - left`. Padded
//! positions still get an offset (negative on the left, as in CK Tile), but
//! are not *valid*: `coordinate_has_valid_offset` is false there.
//!
//! CK Tile differences, kept for exactness or fixed where CK is broken:
//! - All three pass vector information through, as current CK Tile
//!   (rocm-libraries) does: `pad` "simply shifts the index", so the stride
//!   is unchanged. (Older CK Tile gave `pad` its base class's default,
//!   nothing; cktile followed that until CK changed.)
//! - CK Tile's `left_pad` cannot be used in `transform_tensor_descriptor`
//!   (it lacks `base_transform`, a compile error). In cktile it composes like
//!   every other transform.

/// `low = up - left` (for `pad` and `left_pad`; `right_pad` has `left = 0`).
///
/// ```
/// // CK Tile's test: pad(10, 2, 3) maps upper 2 to 0 and 11 to 9.
/// use cktile_transforms::kinds::pad::lower;
/// assert_eq!((lower(2, 2), lower(11, 2)), (0, 9));
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn lower(up: i64, left: i64) -> i64 {
    up.wrapping_sub(left)
}

/// Inverse: `up = low + left`.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::pad::upper(0, 2), 2);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn upper(low: i64, left: i64) -> i64 {
    low.wrapping_add(left)
}

/// Whether `up` is a real (non-padded) position: `left <= up < len + left`.
///
/// ```
/// // pad(10, 2, 3): valid for [2, 11].
/// use cktile_transforms::kinds::pad::is_valid;
/// assert!(!is_valid(1, 10, 2) && is_valid(2, 10, 2) && is_valid(11, 10, 2) && !is_valid(12, 10, 2));
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn is_valid(up: i64, len: i64, left: i64) -> bool {
    up >= left && up.wrapping_sub(left) < len
}

/// The upper length: `len + left + right` (`left_pad` has `right = 0`,
/// `right_pad` `left = 0`; the sum is checked when the transform is built).
///
/// ```
/// assert_eq!(cktile_transforms::kinds::pad::upper_length(10, 2, 3), 15);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn upper_length(len: i64, left: i64, right: i64) -> i64 {
    len.wrapping_add(left).wrapping_add(right)
}

/// The lowering of `pad`/`left_pad`/`right_pad` (`right_pad` has
/// `left = 0`): `low = up - left`, valid for `left <= up < left + len`.
/// A right pad is a pass-through with a test.
///
/// ```
/// use cktile_transforms::kinds::pad::lowering;
/// let l = lowering(10, 2);
/// assert_eq!((l.lower(&[2])[0], l.is_valid(&[1]), l.is_valid(&[11])), (0, false, true));
/// assert!(lowering(10, 0).steps().is_empty());
/// ```
pub const fn lowering(len: i64, left: i64) -> crate::lowering::Lowering {
    let mut l = super::offset::lowering(left.wrapping_neg());
    l.set_check(0, left, left.wrapping_add(len));
    l
}

/// The inverse's lowering: `up = low + left`.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::pad::upper_lowering(2).lower(&[0])[0], 2);
/// ```
pub const fn upper_lowering(left: i64) -> crate::lowering::Lowering {
    super::offset::lowering(left)
}

use super::Draw;
use super::kit::{at, checked_sum, expect_len, length, one, put, single};
use super::row::{LEN, Row, sig};
use crate::dims::to_index;
use crate::lowering::Lowering;
use crate::signature::{Arg, Args, Param};
use crate::{Dims, Error, Family, Index, Indices, MAX_DIMS, Params, Transform, VectorRule};

/// The parameters of `pad(len, left, right)`.
///
/// ```
/// use cktile_transforms::{kinds::PadParams, Params, Transform};
/// assert_eq!(Transform::pad(10, 2, 3)?.params(), Params::Pad(PadParams { len: 10, left: 2, right: 3 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PadParams {
    /// Lower length.
    pub len: Index,
    /// Padding before.
    pub left: Index,
    /// Padding after.
    pub right: Index,
}

/// The parameters of `left_pad(len, left)`.
///
/// ```
/// use cktile_transforms::{kinds::LeftPadParams, Params, Transform};
/// assert_eq!(Transform::left_pad(4, 1)?.params(), Params::LeftPad(LeftPadParams { len: 4, left: 1 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LeftPadParams {
    /// Lower length.
    pub len: Index,
    /// Padding before.
    pub left: Index,
}

/// The parameters of `right_pad(len, right)`.
///
/// ```
/// use cktile_transforms::{kinds::RightPadParams, Params, Transform};
/// assert_eq!(Transform::right_pad(4, 1)?.params(), Params::RightPad(RightPadParams { len: 4, right: 1 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RightPadParams {
    /// Lower length.
    pub len: Index,
    /// Padding after.
    pub right: Index,
}

impl Transform {
    /// `pad(len, left, right)`: upper length `len + left + right`, `low = up - left`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::pad(10, 2, 3).unwrap().upper_lengths().as_slice(), &[15]);
    /// ```
    #[inline]
    pub const fn pad(len: usize, left: usize, right: usize) -> Result<Transform, Error> {
        const NAME: &str = PadParams::ROW.signature.name;
        let len = crate::tri!(length(len, NAME, "len"));
        let (left, right) = (crate::tri!(to_index(left)), crate::tri!(to_index(right)));
        crate::tri!(checked_sum(crate::tri!(checked_sum(len, left, NAME)), right, NAME));
        Ok(Transform::wrap(Params::Pad(PadParams { len, left, right })))
    }

    /// `left_pad(len, left)`: upper length `len + left`, `low = up - left`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::left_pad(4, 1).unwrap().upper_lengths().as_slice(), &[5]);
    /// ```
    #[inline]
    pub const fn left_pad(len: usize, left: usize) -> Result<Transform, Error> {
        const NAME: &str = LeftPadParams::ROW.signature.name;
        let len = crate::tri!(length(len, NAME, "len"));
        let left = crate::tri!(to_index(left));
        crate::tri!(checked_sum(len, left, NAME));
        Ok(Transform::wrap(Params::LeftPad(LeftPadParams { len, left })))
    }

    /// `right_pad(len, right)`: upper length `len + right`, `low = up`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::right_pad(4, 1).unwrap().upper_lengths().as_slice(), &[5]);
    /// ```
    #[inline]
    pub const fn right_pad(len: usize, right: usize) -> Result<Transform, Error> {
        const NAME: &str = RightPadParams::ROW.signature.name;
        let len = crate::tri!(length(len, NAME, "len"));
        let right = crate::tri!(to_index(right));
        crate::tri!(checked_sum(len, right, NAME));
        Ok(Transform::wrap(Params::RightPad(RightPadParams { len, right })))
    }
}

/// What the three pads share, written once over `(len, left, right)`.
macro_rules! pad_kind {
    ($name:ident, $variant:ident, |$s:ident| ($len:expr, $left:expr, $right:expr), $row:expr, $draw:expr) => {
        super::kit::kind_defaults!($name: one_lower, one_upper, vector_without_length, shifted);

        // A one-sided pad's missing side is the constant 0, so a method
        // that reads only that side reads nothing of `self`.
        #[allow(unused_variables)]
        impl $name {
            pub(crate) const ROW: Row = $row;
            pub(crate) const fn upper_lengths(&self) -> Dims {
                let $s = self;
                single(upper_length($len, $left, $right))
            }
            pub(crate) const fn bind(&self, lower: &Dims) -> Result<Transform, Error> {
                let $s = self;
                crate::tri!(expect_len(Self::ROW.signature.name, 0, $len, lower.get(0)));
                Ok(Transform::wrap(Params::$variant(*self)))
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
                let $s = self;
                put(low, low_ids, 0, lower(at(up, up_ids, 0), $left));
            }
            pub(crate) const fn is_xor_linear(&self) -> bool {
                let $s = self;
                $left == 0 && $right == 0
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            pub(crate) const fn is_valid(&self, up0: Index) -> bool {
                let $s = self;
                is_valid(up0, $len, $left)
            }
            pub(crate) const fn calculate_upper(&self, low: &Indices) -> Option<Indices> {
                let $s = self;
                Some(one(upper(low[0], $left)))
            }
            pub(crate) const fn lowering(&self) -> Lowering {
                let $s = self;
                lowering($len, $left)
            }
            pub(crate) const fn upper_lowering(&self) -> Option<Lowering> {
                let $s = self;
                Some(upper_lowering($left))
            }
            pub(crate) const fn vector(_num_lower: usize, _num_upper: usize, _with: Option<i64>) -> VectorRule {
                VectorRule::Pass { dims: 1 }
            }
            pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
                let draw: fn(&mut dyn Draw) -> Option<Transform> = $draw;
                draw(d)
            }
        }
    };
}

pad_kind!(
    PadParams,
    Pad,
    |s| (s.len, s.left, s.right),
    Row {
        family: Family::Pad,
        signature: sig("pad", const { &[LEN, Param::index("left"), Param::index("right")] }),
        build: |a| Transform::pad(a.index(0)?, a.index(1)?, a.index(2)?),
    },
    |d| {
        let (left, right) = (d.index(3), d.index(3));
        Transform::pad(d.offered(), left, right).ok()
    }
);
pad_kind!(
    LeftPadParams,
    LeftPad,
    |s| (s.len, s.left, 0),
    Row {
        family: Family::Pad,
        signature: sig("left_pad", const { &[LEN, Param::index("left")] }),
        build: |a| Transform::left_pad(a.index(0)?, a.index(1)?),
    },
    |d| {
        let left = d.index(3);
        Transform::left_pad(d.offered(), left).ok()
    }
);
pad_kind!(
    RightPadParams,
    RightPad,
    |s| (s.len, 0, s.right),
    Row {
        family: Family::Pad,
        signature: sig("right_pad", const { &[LEN, Param::index("right")] }),
        build: |a| Transform::right_pad(a.index(0)?, a.index(1)?),
    },
    |d| {
        let right = d.index(3);
        Transform::right_pad(d.offered(), right).ok()
    }
);

impl PadParams {
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::Int(self.len), Arg::Int(self.left), Arg::Int(self.right)], 3)
    }
}

impl LeftPadParams {
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::Int(self.len), Arg::Int(self.left), Args::Z], 2)
    }
}

impl RightPadParams {
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::Int(self.len), Arg::Int(self.right), Args::Z], 2)
    }
}

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::kinds::forms::*;
    use crate::kinds::pass_through;

    scalar_transform!(
        /// `pad(len, left, right)`: `low = up - left`; the padding is not valid.
        Pad, make_pad_transform, pad, U1, U1; len: L, left: P, right: Q;
        |t, up, low| lower = one(super::lower(up[0], ix(t.left))),
        valid = super::is_valid(up[0], ix(t.len), ix(t.left)),
        lengths = one(super::upper_length(ix(t.len), ix(t.left), ix(t.right))),
        accepts = length_is(t.len, low[0]) & sum_fits(&[t.len.get(), t.left.get(), t.right.get()])
    );

    scalar_transform!(
        /// `left_pad(len, left)`: `low = up - left`.
        LeftPad, make_left_pad_transform, left_pad, U1, U1; len: L, left: P;
        |t, up, low| lower = one(super::lower(up[0], ix(t.left))),
        valid = super::is_valid(up[0], ix(t.len), ix(t.left)),
        lengths = one(super::upper_length(ix(t.len), ix(t.left), 0)),
        accepts = length_is(t.len, low[0]) & sum_fits(&[t.len.get(), t.left.get()])
    );

    scalar_transform!(
        /// `right_pad(len, right)`: `low = up`; indices `>= len` are not valid.
        RightPad, make_right_pad_transform, right_pad, U1, U1; len: L, right: P;
        |t, up, low| lower = one(pass_through::lower(up[0])),
        valid = super::is_valid(up[0], ix(t.len), 0),
        lengths = one(super::upper_length(ix(t.len), 0, ix(t.right))),
        accepts = length_is(t.len, low[0]) & sum_fits(&[t.len.get(), t.right.get()])
    );
}
