//! `modulo(modulus, len)`: `low = up % modulus`, upper length `len`.
//!
//! CK Tile's incremental update adds the step twice (`low = (up_new + dup) %
//! m`, where `up_new` already includes `dup`); cktile's move recomputes
//! `up_new % m`, which always equals a fresh offset calculation. Not linear,
//! not invertible (many upper indices share a lower one when `len > modulus`).

/// `low = up % modulus` (truncating, as C).
///
/// ```
/// assert_eq!(cktile_transforms::kinds::modulo::lower(13, 8), 5);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn lower(up: i64, modulus: i64) -> i64 {
    super::rem(up, modulus)
}

/// The lowering: one remainder.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::modulo::lowering(8).lower(&[13])[0], 5);
/// ```
pub const fn lowering(modulus: i64) -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(1);
    let s = l.rem(0, modulus);
    l.output(s);
    l
}

use super::Draw;
use super::kit::{at, expect_len, length, put, single};
use super::row::{LEN, Row, sig};
use crate::lowering::Lowering;
use crate::signature::{Arg, Args, Param};
use crate::{Dims, Error, Family, Index, MAX_DIMS, Params, Transform};

/// The parameters of `modulo(modulus, len)`.
///
/// ```
/// use cktile_transforms::{kinds::ModuloParams, Params, Transform};
/// assert_eq!(Transform::modulo(8, 32)?.params(), Params::Modulo(ModuloParams { modulus: 8, len: 32 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModuloParams {
    /// The modulus (the lower length).
    pub modulus: Index,
    /// Upper length.
    pub len: Index,
}

impl Transform {
    /// `modulo(modulus, len)`: `low = up % modulus`, upper length `len`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::modulo(8, 32).unwrap().upper_lengths().as_slice(), &[32]);
    /// ```
    #[inline]
    pub const fn modulo(modulus: usize, len: usize) -> Result<Transform, Error> {
        const NAME: &str = ModuloParams::ROW.signature.name;
        let modulus = crate::tri!(length(modulus, NAME, "modulus"));
        let len = crate::tri!(length(len, NAME, "len"));
        Ok(Transform::wrap(Params::Modulo(ModuloParams { modulus, len })))
    }
}

super::kit::kind_defaults!(ModuloParams: one_lower, one_upper, always_valid, no_vector, no_inverse, recomputed);

impl ModuloParams {
    pub(crate) const ROW: Row = Row {
        family: Family::Index,
        signature: sig("modulo", const { &[Param::index("modulus"), LEN] }),
        build: |a| Transform::modulo(a.index(0)?, a.index(1)?),
    };
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::Int(self.modulus), Arg::Int(self.len), Args::Z], 2)
    }
    pub(crate) const fn upper_lengths(&self) -> Dims {
        single(self.len)
    }
    pub(crate) const fn bind(&self, lower: &Dims) -> Result<Transform, Error> {
        crate::tri!(expect_len(Self::ROW.signature.name, 0, self.modulus, lower.get(0)));
        Ok(Transform::wrap(Params::Modulo(*self)))
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
        put(low, low_ids, 0, lower(at(up, up_ids, 0), self.modulus));
    }
    pub(crate) const fn is_xor_linear(&self) -> bool {
        self.modulus > 0 && self.modulus & (self.modulus - 1) == 0
    }
    pub(crate) const fn lowering(&self) -> Lowering {
        lowering(self.modulus)
    }
    /// The offered dimension read over a random upper length.
    pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
        let la = d.offered();
        let len = 1 + d.index(2 * la);
        Transform::modulo(la, len).ok()
    }
}

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::kinds::forms::*;

    scalar_transform!(
        /// `modulo(modulus, len)`: `low = up % modulus`.
        Modulo, make_modulo_transform, modulo, U1, U1; modulus: M, len: L;
        |t, up, low| lower = one(super::lower(up[0], ix(t.modulus))), valid = true, lengths = one(ix(t.len))
    );
}
