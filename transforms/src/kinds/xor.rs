//! `xor((L0, L1))`: two upper dimensions, two lower:
//! `low0 = up0`, `low1 = up1 ^ (up0 % L1)`.
//!
//! This is CK Tile's `xor_t` since August 2024 (before that it was a
//! subtract-and-wrap, not a XOR). `L0` only sets the upper length of
//! dimension 0; `L1` must be a power of two, or the XOR leaves `[0, L1)`. The
//! transform is an involution: applying it twice gives the identity, so the
//! inverse is the same formula. Valid everywhere; a move recomputes; vector
//! length and stride pass through per dimension.
//!
//! In a descriptor it usually appears with swapped id lists
//! (`xor((M, K0)) on [1,0] -> [1,0]`), so the XORed dimension is the one the
//! descriptor lists first.

/// `up1 ^ (up0 % l1)`: the new value of dimension 1 (dimension 0 is unchanged).
///
/// ```
/// // CK Tile on a packed 8x8: row 1 is 9 8 11 10 13 12 15 14, so column 0 -> 1.
/// assert_eq!(cktile_transforms::kinds::xor::lower1(1, 0, 8), 1);
/// assert_eq!(cktile_transforms::kinds::xor::lower1(3, 2, 8), 1);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn lower1(up0: i64, up1: i64, l1: i64) -> i64 {
    up1 ^ super::rem(up0, l1)
}

/// The lowering: `low0 = up0`, `low1 = up1 ^ (up0 % l1)`. An involution:
/// the same lowering inverts it.
///
/// ```
/// let l = cktile_transforms::kinds::xor::lowering(8);
/// assert_eq!(&l.lower(&[3, 2])[..2], &[3, 1]);
/// ```
pub const fn lowering(l1: i64) -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(2);
    let r = l.rem(0, l1);
    let x = l.xor(1, r);
    l.output(0);
    l.output(x);
    l
}

use super::kit::length;
use crate::{Error, Index, Params, Transform};

/// The parameters of `xor((l0, l1))`.
///
/// ```
/// use cktile_transforms::{kinds::XorParams, Params, Transform};
/// assert_eq!(Transform::xor(64, 8)?.params(), Params::Xor(XorParams { l0: 64, l1: 8 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct XorParams {
    /// Length of dimension 0.
    pub l0: Index,
    /// Length of dimension 1, a power of two.
    pub l1: Index,
}

impl Transform {
    /// `xor((l0, l1))`: `low1 = up1 ^ (up0 % l1)`; `l1` must be a power of two.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(Transform::xor(64, 8).is_ok());
    /// assert!(Transform::xor(64, 12).is_err());
    /// ```
    #[inline]
    pub const fn xor(l0: usize, l1: usize) -> Result<Transform, Error> {
        const NAME: &str = XorParams::ROW.signature.name;
        let l0 = crate::tri!(length(l0, NAME, "L0"));
        let l1 = crate::tri!(length(l1, NAME, "L1"));
        if !(l1 as u64).is_power_of_two() {
            return Err(Error::XorNotPowerOfTwo { l1 });
        }
        Ok(Transform::wrap(Params::Xor(XorParams { l0, l1 })))
    }
}

// An involution: the same formula inverts it, and a xor of bits.
super::kit::pair_kind!(
    XorParams,
    Xor,
    "xor",
    xor,
    lower1 = lower1,
    upper1 = lower1,
    upper_lowering = lowering,
    xor_linear = true,
    draws_over = |_, l| (l as u64).is_power_of_two()
);

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::kinds::forms::*;

    pair_transform! {
        /// `xor((L0, L1))`: `low1 = up1 ^ (up0 % L1)`.
        ///
        /// ```
        /// use cktile_transforms::typed::{TypedTransform, Xor};
        /// use cktile_transforms::Number;
        /// let x = Xor { lengths: (Number::<64>, 8usize) };
        /// assert_eq!(x.to_transform().unwrap().to_string(), "xor((64,8))");
        /// ```
        Xor, xor, super::lower1;
        /// CK Tile's `make_xor_transform(make_tuple(L0, L1))`: builds a [`Xor`].
        ///
        /// ```
        /// use cktile_transforms::typed::*;
        /// use cktile_transforms::Number;
        /// assert!(make_xor_transform((Number::<64>, Number::<8>)).to_transform().is_ok());
        /// ```
        make_xor_transform;
        |_l0, l1| accepts = l1.is_power_of_two()
    }
}
