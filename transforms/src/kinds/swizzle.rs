//! `swizzle(B, M, S)`: CuTe's `Swizzle<B, M, S>` as a one-to-one transform on
//! a linear index.
//!
//! With `mask = (1 << B) - 1`, the source field is `mask << (M + max(0, S))`
//! and the target field `mask << (M - min(0, S))`:
//! `low = o ^ shift_right(o & source, S)` (a negative `S` shifts left). For
//! `S > 0` this is `o ^ (((o >> (M + S)) & mask) << M)`. It is an involution
//! (its own inverse) and linear over GF(2). CuTe requires `|S| >= B`.
//!
//! Only the target bits change, so every aligned block of
//! `2^(top of the target field)` indices maps onto itself: the dimension's
//! length must be a multiple of that block. The lowest `M` bits never change,
//! so runs of `2^M` consecutive indices stay contiguous; cktile reports that as
//! the vector length (`gcd(lower length, 2^M)`). CK Tile has no swizzle.

/// The permuted index.
///
/// ```
/// use cktile_transforms::kinds::swizzle::apply;
/// // Swizzle<3,3,3>: row r = o >> 6 XORs the 8-element chunk (o >> 3) & 7.
/// assert_eq!(apply(64, 3, 3, 3), 64 + 8);
/// assert_eq!(apply(apply(1234, 3, 3, 3), 3, 3, 3), 1234);
/// ```
#[inline(always)]
pub const fn apply(o: i64, bits: u32, base: u32, shift: i32) -> i64 {
    // Wrapping shifts: the same bits for every valid swizzle (fields inside
    // 63 bits), and no panic for parameters no validated transform has.
    let mask: i64 = 1i64.wrapping_shl(bits).wrapping_sub(1);
    if shift >= 0 {
        let source = mask.wrapping_shl(base.wrapping_add(shift as u32));
        o ^ (o & source).wrapping_shr(shift as u32)
    } else {
        let source = mask.wrapping_shl(base);
        o ^ (o & source).wrapping_shl(shift.unsigned_abs())
    }
}

/// Exponent of the block every index stays inside: the top of the target
/// field, `B + M - min(0, S)` (0 when `B = 0`, the identity).
///
/// ```
/// assert_eq!(cktile_transforms::kinds::swizzle::block_bits(3, 3, 3), 6);
/// assert_eq!(cktile_transforms::kinds::swizzle::block_bits(2, 0, -3), 5);
/// ```
#[inline]
pub const fn block_bits(bits: u32, base: u32, shift: i32) -> u32 {
    if bits == 0 {
        0
    } else if shift >= 0 {
        base.saturating_add(bits)
    } else {
        base.saturating_add(shift.unsigned_abs()).saturating_add(bits)
    }
}
