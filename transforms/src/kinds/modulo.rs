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
#[inline(always)]
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
