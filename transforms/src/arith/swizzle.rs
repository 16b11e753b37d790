//! CuTe's swizzle as arithmetic on an index: [`apply`], its [`Fields`]
//! computed once for many indices, and the [`block_bits`] every index
//! stays inside. The swizzle transform (`kinds::swizzle`, which re-exports
//! these) is this map on one dimension.

/// The permuted index.
///
/// ```
/// use cktile_transforms::kinds::swizzle::apply;
/// // SwizzleParams<3,3,3>: row r = o >> 6 XORs the 8-element chunk (o >> 3) & 7.
/// assert_eq!(apply(64, 3, 3, 3), 64 + 8);
/// assert_eq!(apply(apply(1234, 3, 3, 3), 3, 3, 3), 1234);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn apply(o: i64, bits: u32, base: u32, shift: i32) -> i64 {
    Fields::new(bits, base, shift).apply(o)
}

/// A swizzle's parameters as the three numbers its formula uses: the source
/// field and the two shifts that move it onto the target field (one of
/// them 0), so a caller applying one swizzle to many indices computes them
/// once and runs a formula without a branch. [`apply`] is this formula.
///
/// ```
/// use cktile_transforms::kinds::swizzle::{apply, Fields};
/// let f = Fields::new(2, 0, -3);
/// assert_eq!(f, Fields { source: 0b11, right: 0, left: 3 });
/// assert!((0..64).all(|o| f.apply(o) == apply(o, 2, 0, -3)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fields {
    /// The source field's bits: `mask << (M + max(0, S))`.
    pub source: i64,
    /// How far right the source field moves: `max(0, S)`.
    pub right: u32,
    /// How far left it moves: `max(0, -S)`.
    pub left: u32,
}

impl Fields {
    /// The fields of `swizzle(bits, base, shift)`.
    ///
    /// ```
    /// use cktile_transforms::kinds::swizzle::Fields;
    /// assert_eq!(Fields::new(3, 3, 3), Fields { source: 0b111 << 6, right: 3, left: 0 });
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn new(bits: u32, base: u32, shift: i32) -> Fields {
        // Wrapping shifts: the same bits for every valid swizzle (fields inside
        // 63 bits), and no panic for parameters no validated transform has.
        let mask: i64 = 1i64.wrapping_shl(bits).wrapping_sub(1);
        if shift >= 0 {
            Fields { source: mask.wrapping_shl(base.wrapping_add(shift as u32)), right: shift as u32, left: 0 }
        } else {
            Fields { source: mask.wrapping_shl(base), right: 0, left: shift.unsigned_abs() }
        }
    }

    /// The permuted index: `o ^ (((o & source) >> right) << left)`. The
    /// right shift is a logical one: a valid swizzle reaches at most bit 62
    /// (`Transform::swizzle` checks it), so its source
    /// field never holds the sign bit and the two shifts agree, and vector
    /// units have the logical one for 64-bit lanes.
    ///
    /// ```
    /// use cktile_transforms::kinds::swizzle::Fields;
    /// assert_eq!(Fields::new(3, 3, 3).apply(64), 64 + 8);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn apply(&self, o: i64) -> i64 {
        o ^ (((o & self.source) as u64).wrapping_shr(self.right) as i64).wrapping_shl(self.left)
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
