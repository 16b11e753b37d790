//! The integer arithmetic every transform's formulas and every lowering's
//! steps share, beneath both: C's truncating division and remainder (and
//! their power-of-two forms as shifts), the row-major split of an index,
//! the smallest power of two at least a value, CuTe's swizzle as fields
//! ([`swizzle`]) and the functor's bit permutations ([`bits`]). It reads
//! nothing of the transforms: the kinds (`kinds::div`,
//! `kinds::merge::lower`, `kinds::swizzle::Fields`,
//! `kinds::functor::BitPermute`, ...) and the lowering vocabulary both
//! build on it, and the kinds re-export each item where their formulas
//! name it.

use crate::{Index, Indices};

pub mod bits;
pub mod swizzle;

/// The dimensions a formula reads: `n`, or [`MAX_DIMS`](crate::MAX_DIMS) when
/// `n` is larger (the index arrays hold no more). Every function here that
/// takes a dimension count is total: a count past the arrays reads all of
/// them rather than indexing out of bounds.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn arity(n: usize) -> usize {
    if n > crate::MAX_DIMS { crate::MAX_DIMS } else { n }
}

/// Greatest common divisor of two positive values (the vector rules
/// reduce a vector length against a kind's length with it).
#[inline]
pub(crate) const fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a as i64
}

/// Truncating division (C's `/`) that returns 0 instead of panicking on a
/// zero divisor or for `i64::MIN / -1` (validated transforms have neither).
///
/// ```
/// use cktile_transforms::kinds::div;
/// assert_eq!((div(-29, 8), div(29, 0)), (-3, 0));
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn div(a: i64, b: i64) -> i64 {
    match a.checked_div(b) {
        Some(q) => q,
        None => 0,
    }
}

/// Truncating remainder (C's `%`, negative for a negative dividend), 0
/// instead of panicking on a zero divisor (or for `i64::MIN % -1`).
///
/// ```
/// use cktile_transforms::kinds::rem;
/// assert_eq!((rem(-29, 8), rem(29, 0)), (-5, 0));
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn rem(a: i64, b: i64) -> i64 {
    match a.checked_rem(b) {
        Some(r) => r,
        None => 0,
    }
}

/// C's truncating division by `1 << shift` (the `/` of every formula
/// here) as shifts: the same quotient for every
/// `a` (a negative `a` is biased by `2^shift - 1` first, as a compiler does
/// for a constant divisor), without a hardware division. For `shift` in
/// `0..=62`, the powers of two a validated length can be; larger shifts wrap
/// and never panic.
///
/// ```
/// use cktile_transforms::kinds::div_pow2;
/// assert_eq!((div_pow2(29, 3), div_pow2(-29, 3), div_pow2(-8, 3), div_pow2(7, 0)), (3, -3, -1, 7));
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn div_pow2(a: i64, shift: u32) -> i64 {
    let bias = (a >> 63) & 1i64.wrapping_shl(shift).wrapping_sub(1);
    a.wrapping_add(bias).wrapping_shr(shift)
}

/// C's truncating remainder by `1 << shift` as shifts (negative for
/// a negative `a`, as C's `%`) for every `a`, from [`div_pow2`].
///
/// ```
/// use cktile_transforms::kinds::rem_pow2;
/// assert_eq!((rem_pow2(29, 3), rem_pow2(-29, 3), rem_pow2(-8, 3), rem_pow2(7, 0)), (5, -5, 0, 0));
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn rem_pow2(a: i64, shift: u32) -> i64 {
    a.wrapping_sub(div_pow2(a, shift).wrapping_shl(shift))
}

/// Splits `up` row-major over the first `n` of `lengths`: `low[i] = t %
/// L[i]`, `t /= L[i]` from the last dimension, `low[0] = t` (C's
/// truncating arithmetic). A merge's formula, and the split step of a
/// lowering.
///
/// ```
/// use cktile_transforms::kinds::merge::lower;
/// let lens = [2, 3, 4, 0, 0, 0, 0, 0];
/// // CK Tile's tests: 23 -> (1, 2, 3), 6 -> (0, 1, 2).
/// assert_eq!(&lower(23, &lens, 3)[..3], &[1, 2, 3]);
/// assert_eq!(&lower(6, &lens, 3)[..3], &[0, 1, 2]);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn split(up: Index, lengths: &Indices, n: usize) -> Indices {
    let n = arity(n);
    let mut low = [0i64; crate::MAX_DIMS];
    let mut t = up;
    let mut i = n;
    while i > 1 {
        i -= 1;
        low[i] = rem(t, lengths[i]);
        t = div(t, lengths[i]);
    }
    low[0] = t;
    low
}

/// The smallest power of two at least `l0` (`l0` from 1 to `i64::MAX`, so
/// it fits a `u64`; the largest power, `2^63`, past that): the block of
/// columns `xor_no_modulo` permutes.
///
/// ```
/// use cktile_transforms::kinds::xor_no_modulo::row_block;
/// assert_eq!((row_block(1), row_block(4), row_block(5)), (1, 4, 8));
/// ```
#[inline]
pub const fn pow2_at_least(l0: Index) -> u64 {
    match (l0 as u64).checked_next_power_of_two() {
        Some(p) => p,
        None => 1 << 63,
    }
}
