//! `cyclic_shift((L0, L1))`: two upper dimensions, two lower:
//! `low0 = up0`, `low1 = (up1 + up0) % L1`.
//!
//! CK Tile's `cyclic_shift_t` (2025), its "SwizzleT" pattern against LDS
//! bank conflicts: row `r` of an `L0 x L1` tile is rotated by `r` places,
//! so a column read touches `L1` different columns. Unlike `xor`, `L1` may
//! be any length (a rotation is a permutation of every row whatever its
//! length). `L0` only sets the upper length of dimension 0. Valid
//! everywhere; not linear (a move recomputes); vector length and stride
//! pass through per dimension, as CK's rule says. The inverse is CK's
//! `inverse_cyclic_shift_t`: `up1 = (low1 + L1 - low0 % L1) % L1`.

/// `(up1 + up0) % l1`: the new value of dimension 1 (dimension 0 is
/// unchanged). Wrapping, truncating as C.
///
/// ```
/// use cktile_transforms::kinds::cyclic_shift::lower1;
/// // Row 3 of a 4 x 6 tile: column 0 lands on 3, column 5 on 2.
/// assert_eq!((lower1(3, 0, 6), lower1(3, 5, 6)), (3, 2));
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn lower1(up0: i64, up1: i64, l1: i64) -> i64 {
    super::rem(up1.wrapping_add(up0), l1)
}

/// The inverse: `(low1 + l1 - low0 % l1) % l1`, the column a rotated row
/// came from.
///
/// ```
/// use cktile_transforms::kinds::cyclic_shift::{lower1, upper1};
/// assert!((0..6).all(|c| upper1(3, lower1(3, c, 6), 6) == c));
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn upper1(low0: i64, low1: i64, l1: i64) -> i64 {
    super::rem(low1.wrapping_add(l1).wrapping_sub(super::rem(low0, l1)), l1)
}

/// The lowering: `low0 = up0`, `low1 = (up1 + up0) % l1`: a sum, then a
/// remainder.
///
/// ```
/// let l = cktile_transforms::kinds::cyclic_shift::lowering(6);
/// assert_eq!(&l.lower(&[3, 5])[..2], &[3, 2]);
/// ```
pub const fn lowering(l1: i64) -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(2);
    let sum = l.affine(&[0, 1], &[1, 1], 0);
    let low1 = l.rem(sum, l1);
    l.output(0);
    l.output(low1);
    l
}

/// The inverse's lowering: `up0 = low0`,
/// `up1 = (low1 + l1 - low0 % l1) % l1`.
///
/// ```
/// let l = cktile_transforms::kinds::cyclic_shift::upper_lowering(6);
/// assert_eq!(&l.lower(&[3, 2])[..2], &[3, 5]);
/// ```
pub const fn upper_lowering(l1: i64) -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(2);
    let r = l.rem(0, l1);
    let shifted = l.affine(&[1, r], &[1, -1], l1);
    let up1 = l.rem(shifted, l1);
    l.output(0);
    l.output(up1);
    l
}

use super::kit::length;
use crate::{Error, Index, Params, Transform};

/// The parameters of `cyclic_shift((l0, l1))`.
///
/// ```
/// use cktile_transforms::{kinds::CyclicShiftParams, Params, Transform};
/// assert_eq!(Transform::cyclic_shift(64, 8)?.params(), Params::CyclicShift(CyclicShiftParams { l0: 64, l1: 8 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CyclicShiftParams {
    /// Length of dimension 0.
    pub l0: Index,
    /// Length of dimension 1, the rotation's modulus.
    pub l1: Index,
}

impl Transform {
    /// `cyclic_shift((l0, l1))`: CK Tile's `cyclic_shift_t`,
    /// `low1 = (up1 + up0) % l1` (row `up0` rotated by `up0` places); any
    /// lengths of at least 1 whose sum fits an index.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::cyclic_shift(4, 6).unwrap().to_string(), "cyclic_shift((4,6))");
    /// assert!(Transform::cyclic_shift(4, 0).is_err());
    /// ```
    #[inline]
    pub const fn cyclic_shift(l0: usize, l1: usize) -> Result<Transform, Error> {
        const NAME: &str = CyclicShiftParams::ROW.signature.name;
        let l0 = crate::tri!(length(l0, NAME, "L0"));
        let l1 = crate::tri!(length(l1, NAME, "L1"));
        // up0 + up1 for indices inside the lengths.
        crate::tri!(super::kit::checked_sum(l0, l1, NAME));
        Ok(Transform::wrap(Params::CyclicShift(CyclicShiftParams { l0, l1 })))
    }
}

// A rotation carries: `(up1 + up0) % l1` is not a xor of bits.
super::kit::pair_kind!(
    CyclicShiftParams,
    CyclicShift,
    "cyclic_shift",
    cyclic_shift,
    lower1 = lower1,
    upper1 = upper1,
    upper_lowering = upper_lowering,
    xor_linear = false,
    draws_over = |_, l| l > 0
);

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::kinds::forms::*;

    pair_transform! {
        /// `cyclic_shift((L0, L1))`: `low1 = (up1 + up0) % L1`, CK Tile's
        /// `cyclic_shift_t`.
        ///
        /// ```
        /// use cktile_transforms::typed::{CyclicShift, TypedTransform};
        /// use cktile_transforms::Number;
        /// let c = CyclicShift { lengths: (Number::<4>, 6usize) };
        /// assert_eq!(c.to_transform().unwrap().to_string(), "cyclic_shift((4,6))");
        /// ```
        CyclicShift, cyclic_shift, super::lower1;
        /// CK Tile's `make_cyclic_shift_transform(make_tuple(L0, L1))`: builds a
        /// [`CyclicShift`].
        ///
        /// ```
        /// use cktile_transforms::typed::*;
        /// use cktile_transforms::Number;
        /// assert!(make_cyclic_shift_transform((Number::<4>, Number::<6>)).to_transform().is_ok());
        /// ```
        make_cyclic_shift_transform;
        // Their sum (up0 + up1 for indices inside the lengths) fits an index.
        |l0, l1| accepts = l0.wrapping_add(l1) <= Index::MAX as u64
    }
}
