//! The MFMA instructions CK's warp GEMMs issue on gfx942, each written once
//! from AMD's ISA: [`MfmaInstruction`] (its shape and lane map: which lane
//! and register hold which element of A, B and the accumulator) and the
//! 16-bit element types it multiplies ([`MfmaElement`]: [`Fp16`],
//! [`Bf16`]).
//!
//! The lane map serves the CPU emulation of the block GEMM
//! ([`emulate_block_gemm`](super::emulate_block_gemm)), which runs a whole
//! kernel on the host and checks C against a plain GEMM; on amdgcn the
//! same instruction is the LLVM intrinsic (`ops::gemm::gpu`). The warp
//! GEMMs' own encodings ([`WarpOperand`](super::WarpOperand),
//! [`WarpAccumulator`](super::WarpAccumulator)) are CK's, written
//! independently: the tests hold the accumulator's equal to this lane map
//! and the operands' equal up to the K order A and B share.
//!
//! ```
//! use cktile_core::ops::gemm::MfmaInstruction;
//! // v_mfma_f32_32x32x8_f16: lane 37, register 2 of A hold row 5, K 4 + 2.
//! let i = MfmaInstruction::of(32).ok_or(cktile_core::Error::policy("32 rows"))?;
//! assert_eq!(i.a_element(37, 2), (5, 6));
//! assert_eq!(i.a_register(5, 6), (37, 2));
//! // ... and D's register 6 of lane 37 is row 8 + 4 + 2, column 5.
//! assert_eq!(i.c_element(37, 6), (14, 5));
//! # Ok::<(), cktile_core::Error>(())
//! ```

/// One gfx942 MFMA of 16-bit elements with a 32-bit accumulator,
/// `v_mfma_f32_{M}x{M}x{K}_{f16,bf16}` (`bf16` in its `_1k` form): an `M x
/// M` block of D from `M x K` of A and `K x M` of B, every lane holding 4
/// K values of A and of B. The two CK's fp16 and bf16 warp GEMMs issue
/// are 32x32x8 (16 accumulator registers a lane) and 16x16x16 (4).
///
/// Its lane map, from AMD's ISA (the CDNA3 ISA's MFMA operand layouts, as
/// AMD's matrix instruction calculator prints them): the `64 / M` lane
/// groups of `M` lanes split K for A and B, lane `l` register `r` holding
/// row (of A; column of B) `l % M`, K value `4 * (l / M) + r`; D's
/// registers come in blocks of 4 consecutive rows, the lane groups
/// interleaved between them.
///
/// ```
/// use cktile_core::ops::gemm::MfmaInstruction;
/// let i = MfmaInstruction::of(16).ok_or(cktile_core::Error::policy("16 rows"))?;
/// assert_eq!((i.m(), i.k(), i.c_registers()), (16, 16, 4));
/// // 16x16x16: lane l, register r of D hold row 4 * (l / 16) + r, column l % 16.
/// assert_eq!(i.c_element(37, 3), (11, 5));
/// assert!(MfmaInstruction::of(8).is_none());
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MfmaInstruction {
    m: usize,
}

/// The lanes of a CDNA wave, every MFMA's.
const WAVE: usize = 64;
/// The K values a lane holds of A and of B in one instruction.
pub const MFMA_K_PER_LANE: usize = 4;

impl MfmaInstruction {
    /// The instruction with `m` rows: 32 (32x32x8) or 16 (16x16x16);
    /// `None` for any other.
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MfmaInstruction::of(32).map(|i| i.k()), Some(8));
    /// ```
    pub const fn of(m: usize) -> Option<MfmaInstruction> {
        match m {
            16 | 32 => Some(MfmaInstruction { m }),
            _ => None,
        }
    }

    /// [`of`](Self::of) for a warp GEMM's rows, checked when compiled: 16 or 32.
    pub(crate) const fn of_rows<const M: usize>() -> MfmaInstruction {
        match Self::of(M) {
            Some(i) => i,
            None => panic!("an MFMA has 16 or 32 rows"),
        }
    }

    /// M (= N): the rows of A and D, the columns of B and D.
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MfmaInstruction::of(16).map(|i| i.m()), Some(16));
    /// ```
    pub const fn m(&self) -> usize {
        self.m
    }

    /// K: the lane groups (`64 / M`) times 4 K values a lane.
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MfmaInstruction::of(16).map(|i| i.k()), Some(16));
    /// ```
    pub const fn k(&self) -> usize {
        WAVE / self.m * MFMA_K_PER_LANE
    }

    /// D's registers a lane holds (`M * M / 64`).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MfmaInstruction::of(32).map(|i| i.c_registers()), Some(16));
    /// ```
    pub const fn c_registers(&self) -> usize {
        self.m * self.m / WAVE
    }

    /// The (row, K) of A (or the (column, K) of B) that lane `lane`'s
    /// register `reg` holds (`lane < 64`, `reg < 4`).
    ///
    /// ```
    /// let i = cktile_core::ops::gemm::MfmaInstruction::of(16).ok_or(cktile_core::Error::policy("16"))?;
    /// assert_eq!(i.a_element(63, 3), (15, 15));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn a_element(&self, lane: usize, reg: usize) -> (usize, usize) {
        (lane % self.m, MFMA_K_PER_LANE * (lane / self.m) + reg)
    }

    /// The (lane, register) holding A's (`row`, `k`) (or B's (column,
    /// K)): the inverse of [`a_element`](Self::a_element).
    ///
    /// ```
    /// let i = cktile_core::ops::gemm::MfmaInstruction::of(32).ok_or(cktile_core::Error::policy("32"))?;
    /// assert_eq!(i.a_register(31, 7), (63, 3));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn a_register(&self, row: usize, k: usize) -> (usize, usize) {
        (row + self.m * (k / MFMA_K_PER_LANE), k % MFMA_K_PER_LANE)
    }

    /// The (row, column) of D that lane `lane`'s register `reg` holds
    /// (`reg` < [`c_registers`](Self::c_registers)): column `lane % M`,
    /// row `4 * groups * (reg / 4) + 4 * (lane / M) + reg % 4` with `groups
    /// = 64 / M`.
    ///
    /// ```
    /// let i = cktile_core::ops::gemm::MfmaInstruction::of(32).ok_or(cktile_core::Error::policy("32"))?;
    /// assert_eq!(i.c_element(63, 15), (31, 31));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn c_element(&self, lane: usize, reg: usize) -> (usize, usize) {
        let groups = WAVE / self.m;
        (4 * groups * (reg / 4) + 4 * (lane / self.m) + reg % 4, lane % self.m)
    }

    /// The (lane, register) holding D's (`row`, `col`): the inverse of
    /// [`c_element`](Self::c_element).
    ///
    /// ```
    /// let i = cktile_core::ops::gemm::MfmaInstruction::of(16).ok_or(cktile_core::Error::policy("16"))?;
    /// assert_eq!(i.c_register(11, 5), (37, 3));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn c_register(&self, row: usize, col: usize) -> (usize, usize) {
        let groups = WAVE / self.m;
        (col + self.m * ((row / 4) % groups), 4 * (row / (4 * groups)) + row % 4)
    }
}

/// Which 16-bit floating-point format an MFMA reads ([`MfmaElement::KIND`]).
///
/// ```
/// use cktile_core::ops::gemm::{Bf16, ElementKind, MfmaElement};
/// assert_eq!(Bf16::KIND, ElementKind::Bf16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElementKind {
    /// IEEE half precision (`_f16` MFMAs).
    Fp16,
    /// bfloat16 (`_bf16_1k` MFMAs).
    Bf16,
}

/// An element type CK's 16-bit MFMAs multiply, held as its bits (`u16`)
/// on every path: the data path moves bits, the MFMA (or its emulation)
/// reads them as numbers. Sealed: [`Fp16`] and [`Bf16`].
///
/// ```
/// use cktile_core::ops::gemm::{Bf16, Fp16, MfmaElement};
/// assert_eq!(Fp16::to_f32(0x3c00), 1.0);
/// assert_eq!(Bf16::to_f32(0xc040), -3.0);
/// assert_eq!((Fp16::from_f32(2.5), Bf16::from_f32(2.5)), (0x4100, 0x4020));
/// ```
pub trait MfmaElement: sealed::Sealed + Copy + Default + 'static {
    /// The format.
    const KIND: ElementKind;
    /// CK's name of the type (`fp16_t`, `bf16_t`).
    const NAME: &'static str;
    /// The value of `bits` (exact: every 16-bit value is an `f32`).
    fn to_f32(bits: u16) -> f32;
    /// `value` rounded to the nearest representable value, ties to even
    /// (CK's `type_convert` for a C of this type); NaN stays NaN.
    fn from_f32(value: f32) -> u16;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Fp16 {}
    impl Sealed for super::Bf16 {}
}

/// IEEE half precision, CK's `fp16_t` (`half_t`).
///
/// ```
/// use cktile_core::ops::gemm::{Fp16, MfmaElement};
/// assert_eq!(Fp16::to_f32(0x0001), 2f32.powi(-24)); // the least subnormal
/// assert_eq!(Fp16::from_f32(65520.0), 0x7c00); // rounds past the largest finite value: infinity
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Fp16;

/// bfloat16, CK's `bf16_t`: the high half of an `f32`.
///
/// ```
/// use cktile_core::ops::gemm::{Bf16, MfmaElement};
/// assert_eq!(Bf16::from_f32(1.0 + 2f32.powi(-8)), 0x3f80); // a tie, to even
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bf16;

impl MfmaElement for Fp16 {
    const KIND: ElementKind = ElementKind::Fp16;
    const NAME: &'static str = "fp16_t";

    fn to_f32(bits: u16) -> f32 {
        let sign = u32::from(bits >> 15) << 31;
        let exp = u32::from((bits >> 10) & 0x1f);
        let man = u32::from(bits & 0x3ff);
        let magnitude = match (exp, man) {
            (0, 0) => 0,
            // Subnormal: man * 2^-24, exact in f32.
            (0, _) => (man as f32 * f32::from_bits(0x3380_0000)).to_bits(),
            (0x1f, 0) => 0x7f80_0000,
            (0x1f, _) => 0x7fc0_0000 | (man << 13),
            _ => ((exp + 112) << 23) | (man << 13),
        };
        f32::from_bits(sign | magnitude)
    }

    fn from_f32(value: f32) -> u16 {
        let bits = value.to_bits();
        let sign = ((bits >> 16) & 0x8000) as u16;
        let abs = bits & 0x7fff_ffff;
        if abs > 0x7f80_0000 {
            return sign | 0x7e00;
        }
        // 2^-25 and below round to zero (2^-25 itself is a tie with zero, to even).
        if abs <= 0x3300_0000 {
            return sign;
        }
        let exp = (abs >> 23) as i32 - 127;
        let man = (abs & 0x7f_ffff) | 0x80_0000;
        // The half's unit in the last place, as a shift of the 24-bit significand.
        let shift = if exp < -14 { (13 - 14 - exp) as u32 } else { 13 };
        let kept = man >> shift;
        let rest = man & ((1 << shift) - 1);
        let half = 1 << (shift - 1);
        let rounded = kept + u32::from(rest > half || (rest == half && kept & 1 == 1));
        let magnitude = if exp < -14 {
            // Subnormal (a carry into bit 10 makes it the least normal, as it should).
            rounded
        } else {
            // Normal: a carry past the significand bumps the exponent (to infinity past 65504).
            (((exp + 15) as u32) << 10) + (rounded - 0x400)
        };
        sign | magnitude.min(0x7c00) as u16
    }
}

impl MfmaElement for Bf16 {
    const KIND: ElementKind = ElementKind::Bf16;
    const NAME: &'static str = "bf16_t";

    fn to_f32(bits: u16) -> f32 {
        f32::from_bits(u32::from(bits) << 16)
    }

    fn from_f32(value: f32) -> u16 {
        let bits = value.to_bits();
        if value.is_nan() {
            return ((bits >> 16) | 0x40) as u16;
        }
        let rounding = 0x7fff + ((bits >> 16) & 1);
        (bits.wrapping_add(rounding) >> 16) as u16
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_lane_maps_are_inverse_bijections() {
        for m in [16, 32] {
            let i = MfmaInstruction::of(m).unwrap();
            let mut a_seen = vec![false; m * i.k()];
            let mut c_seen = vec![false; m * m];
            for lane in 0..WAVE {
                for reg in 0..MFMA_K_PER_LANE {
                    let (row, k) = i.a_element(lane, reg);
                    assert!(row < m && k < i.k());
                    assert!(!std::mem::replace(&mut a_seen[row * i.k() + k], true));
                    assert_eq!(i.a_register(row, k), (lane, reg));
                }
                for reg in 0..i.c_registers() {
                    let (row, col) = i.c_element(lane, reg);
                    assert!(row < m && col < m);
                    assert!(!std::mem::replace(&mut c_seen[row * m + col], true));
                    assert_eq!(i.c_register(row, col), (lane, reg));
                }
            }
        }
    }

    /// Every one of the 65,536 halves, through `f64` (an independent
    /// reference: the value from its fields) and back.
    #[test]
    fn fp16_conversions_are_exact_on_every_value() {
        for bits in 0..=u16::MAX {
            let (exp, man) = (i32::from((bits >> 10) & 0x1f), f64::from(bits & 0x3ff));
            let sign = if bits >> 15 == 1 { -1.0 } else { 1.0 };
            let value = Fp16::to_f32(bits);
            match exp {
                0x1f if man == 0.0 => assert_eq!(f64::from(value), sign * f64::INFINITY),
                0x1f => assert!(value.is_nan()),
                0 => assert_eq!(f64::from(value), sign * man * 2f64.powi(-24)),
                _ => assert_eq!(f64::from(value), sign * (1.0 + man / 1024.0) * 2f64.powi(exp - 15)),
            }
            if value.is_nan() {
                assert!(Fp16::to_f32(Fp16::from_f32(value)).is_nan());
            } else {
                assert_eq!(Fp16::from_f32(value), bits, "{bits:#06x}");
            }
        }
    }

    /// Rounding to fp16 against the nearest of the two neighbours,
    /// computed in `f64`, on every `f32` pattern of a stride through the
    /// whole range.
    #[test]
    fn fp16_rounds_to_nearest_even() {
        let halves: Vec<f64> = (0..0x7c00u16).map(|b| f64::from(Fp16::to_f32(b))).collect();
        for bits in (0..0x7f80_0000u32).step_by(4099) {
            let x = f64::from(f32::from_bits(bits));
            let got = Fp16::from_f32(f32::from_bits(bits));
            let at = halves.partition_point(|&h| h <= x);
            let below = at - 1;
            let want = if at == halves.len() {
                // Past the largest finite half: infinity from halfway to the next power.
                if x >= 65520.0 { 0x7c00 } else { below as u16 }
            } else {
                let (lo, hi) = (x - halves[below], halves[at] - x);
                if lo < hi || (lo == hi && below % 2 == 0) { below as u16 } else { at as u16 }
            };
            assert_eq!(got, want, "{x}");
            assert_eq!(Fp16::from_f32(-f32::from_bits(bits)), want | 0x8000);
        }
    }

    #[test]
    fn bf16_rounds_to_nearest_even() {
        for bits in (0..0x7f80_0000u32).step_by(997) {
            let x = f64::from(f32::from_bits(bits));
            let got = Bf16::from_f32(f32::from_bits(bits));
            let (lo, hi) = ((bits >> 16) as u16, (bits >> 16) as u16 + 1);
            // Past the largest finite bf16, the next step up is 2^128 (rounded to, it is infinity).
            let hi_value = if hi == 0x7f80 { 2f64.powi(128) } else { f64::from(Bf16::to_f32(hi)) };
            let (dlo, dhi) = (x - f64::from(Bf16::to_f32(lo)), hi_value - x);
            let want = if dlo < dhi || (dlo == dhi && lo % 2 == 0) { lo } else { hi };
            assert_eq!(got, want, "{x}");
        }
        assert!(Bf16::to_f32(Bf16::from_f32(f32::NAN)).is_nan());
    }
}
