//! `xor_no_modulo((L0, L1))`: CK Tile's `xor_t` with `ApplyModulo = false`,
//! two upper dimensions, two lower: `low0 = up0`, `low1 = up1 ^ up0`.
//!
//! CK Tile's `xor_t<LowLengths, ApplyModulo>` takes the flag as its second
//! template argument (default `true`, which is [`xor`](super::xor):
//! `up1 ^ (up0 % L1)`); `make_xor_transform<Lengths, false>(lengths)`
//! builds this form, which skips the remainder. CK uses it where the caller
//! knows the row index is already below `L1` (its grouped convolution
//! merges `(G, G)` groups this way, with a power-of-two `G`).
//!
//! cktile checks what CK's caller assumes: `L1` is a multiple of the
//! smallest power of two `P >= L0`. Those are exactly the lengths for which
//! `up1 ^ up0` stays in `[0, L1)` for every upper index: the rows
//! `0..L0` XOR the low `log2(P)` bits of the column, which keeps each
//! aligned block of `P` columns onto itself, and a row with a bit at or
//! above a length that is not such a multiple carries a column past `L1`.
//! On those lengths each row permutes `[0, L1)`, so the transform is a
//! bijection. When `L1` is a power of two (as CK's callers have it) the
//! rule reads `L0 <= L1`, and the two forms agree on every in-range index.
//! Like `xor`, it is an involution (the same formula inverts it), linear
//! over GF(2), valid everywhere, recomputed on a move, and passes vector
//! length and stride through per dimension; in CK both forms report the
//! same `coord_transform_enum::xor_t`.

/// `up1 ^ up0`: the new value of dimension 1 (dimension 0 is unchanged).
/// `l1` is not read: the form has no remainder.
///
/// ```
/// use cktile_transforms::kinds::xor_no_modulo::lower1;
/// // Row 3 of an 8 x 8 tile: column 5 lands on 6.
/// assert_eq!(lower1(3, 5, 8), 6);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn lower1(up0: i64, up1: i64, _l1: i64) -> i64 {
    up1 ^ up0
}

/// The lowering: `low0 = up0`, `low1 = up1 ^ up0`, one step. An involution:
/// the same lowering inverts it.
///
/// ```
/// let l = cktile_transforms::kinds::xor_no_modulo::lowering(8);
/// assert_eq!(&l.lower(&[3, 5])[..2], &[3, 6]);
/// ```
pub const fn lowering(_l1: i64) -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(2);
    let x = l.xor(1, 0);
    l.output(0);
    l.output(x);
    l
}

use super::kit::length;
use crate::{Error, Index, Params, Transform};

/// The block of columns the rows `0..l0` permute: the smallest power of
/// two at least `l0`.
pub use crate::arith::pow2_at_least as row_block;

/// Whether `up1 ^ up0` stays in `[0, l1)` for every `up0 < l0`,
/// `up1 < l1`: `l1` is a multiple of [`row_block`]`(l0)`.
///
/// ```
/// use cktile_transforms::kinds::xor_no_modulo::stays_in_range;
/// assert!(stays_in_range(8, 8) && stays_in_range(2, 6) && stays_in_range(1, 3));
/// assert!(!stays_in_range(16, 8) && !stays_in_range(3, 6));
/// ```
#[inline]
pub const fn stays_in_range(l0: Index, l1: Index) -> bool {
    l0 >= 1 && l1 >= 1 && (l1 as u64).is_multiple_of(row_block(l0))
}

/// The parameters of `xor_no_modulo((l0, l1))`.
///
/// ```
/// use cktile_transforms::{kinds::XorNoModuloParams, Params, Transform};
/// let p = Transform::xor_no_modulo(8, 8)?.params();
/// assert_eq!(p, Params::XorNoModulo(XorNoModuloParams { l0: 8, l1: 8 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct XorNoModuloParams {
    /// Length of dimension 0.
    pub l0: Index,
    /// Length of dimension 1, a multiple of the smallest power of two `>= l0`.
    pub l1: Index,
}

impl Transform {
    /// `xor_no_modulo((l0, l1))`: `low1 = up1 ^ up0`, CK Tile's `xor_t`
    /// with `ApplyModulo = false`. `l1` must be a multiple of the smallest
    /// power of two `>= l0` (for a power-of-two `l1`: `l0 <= l1`), or the
    /// XOR leaves `[0, l1)`.
    ///
    /// ```
    /// # use cktile_transforms::{Error, Transform};
    /// assert!(Transform::xor_no_modulo(4, 8).is_ok());
    /// assert!(Transform::xor_no_modulo(2, 6).is_ok()); // rows 0, 1 swap column pairs
    /// assert_eq!(Transform::xor_no_modulo(16, 8), Err(Error::XorUnreduced { l0: 16, l1: 8 }));
    /// assert_eq!(Transform::xor_no_modulo(3, 6), Err(Error::XorUnreduced { l0: 3, l1: 6 }));
    /// ```
    #[inline]
    pub const fn xor_no_modulo(l0: usize, l1: usize) -> Result<Transform, Error> {
        const NAME: &str = XorNoModuloParams::ROW.signature.name;
        let l0 = crate::tri!(length(l0, NAME, "L0"));
        let l1 = crate::tri!(length(l1, NAME, "L1"));
        if !stays_in_range(l0, l1) {
            return Err(Error::XorUnreduced { l0, l1 });
        }
        Ok(Transform::wrap(Params::XorNoModulo(XorNoModuloParams { l0, l1 })))
    }
}

// An involution: the same formula inverts it, and a xor of bits.
super::kit::pair_kind!(
    XorNoModuloParams,
    XorNoModulo,
    "xor_no_modulo",
    xor_no_modulo,
    lower1 = lower1,
    upper1 = lower1,
    upper_lowering = lowering,
    xor_linear = true,
    draws_over = |l0, l| stays_in_range(l0 as Index, l)
);

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::kinds::forms::*;

    pair_transform! {
        /// `xor_no_modulo((L0, L1))`: `low1 = up1 ^ up0` (CK's `ApplyModulo = false`).
        ///
        /// ```
        /// use cktile_transforms::typed::{TypedTransform, XorNoModulo};
        /// use cktile_transforms::Number;
        /// let x = XorNoModulo { lengths: (Number::<8>, 8usize) };
        /// assert_eq!(x.to_transform().unwrap().to_string(), "xor_no_modulo((8,8))");
        /// ```
        XorNoModulo, xor_no_modulo, super::lower1;
        /// CK Tile's `make_xor_transform<Lengths, false>(make_tuple(L0, L1))`:
        /// builds an [`XorNoModulo`].
        ///
        /// ```
        /// use cktile_transforms::typed::*;
        /// use cktile_transforms::Number;
        /// assert!(make_xor_no_modulo_transform((Number::<8>, Number::<8>)).to_transform().is_ok());
        /// assert!(make_xor_no_modulo_transform((Number::<16>, Number::<8>)).to_transform().is_err());
        /// ```
        make_xor_no_modulo_transform;
        |l0, l1| accepts = super::stays_in_range(l0 as i64, l1 as i64)
    }
}
