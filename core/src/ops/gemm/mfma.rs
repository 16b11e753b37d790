//! The MFMA instructions CK's warp GEMMs issue on gfx942, each written once
//! from AMD's ISA: [`MfmaInstruction`] (its shape and lane map: which lane
//! and register hold which element of A, B and the accumulator), and the
//! element types the warp GEMMs multiply ([`MfmaElement`]): the 16-bit
//! [`Fp16`] and [`Bf16`], the 8-bit floats [`Fp8`] and [`Bf8`] (OCP's E4M3
//! and E5M2, NVIDIA's) and [`Fp8Fnuz`] and [`Bf8Fnuz`] (gfx942's), and
//! [`Int8`], each with its accumulator ([`Accumulator`]: `f32`, or `i32`
//! for [`Int8`]).
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

/// One gfx942 MFMA with a 32-bit accumulator: an `M x M` block of D from
/// `M x K` of A and `K x M` of B, every lane holding 8 bytes of A and of B
/// (4 K values of 16-bit elements, 8 of 8-bit ones). For 16-bit elements
/// `v_mfma_f32_{M}x{M}x{K}_{f16,bf16}` (`bf16` in its `_1k` form): 32x32x8
/// (16 accumulator registers a lane) and 16x16x16 (4), the two CK's fp16
/// and bf16 warp GEMMs issue; for 8-bit ones
/// `v_mfma_f32_{M}x{M}x{K}_{fp8_fp8,bf8_bf8}` and
/// `v_mfma_i32_{M}x{M}x{K}_i8`: 32x32x16 and 16x16x32.
///
/// Its lane map, from AMD's ISA (the CDNA3 ISA's MFMA operand layouts, as
/// AMD's matrix instruction calculator prints them): the `64 / M` lane
/// groups of `M` lanes split K for A and B, lane `l` register `r` holding
/// row (of A; column of B) `l % M`, K value `kl * (l / M) + r` with `kl`
/// the K values a lane holds ([`k_per_lane`](Self::k_per_lane)); D's
/// registers come in blocks of 4 consecutive rows, the lane groups
/// interleaved between them, whatever the element type.
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
    k_per_lane: usize,
}

/// The lanes of a CDNA wave, every MFMA's.
const WAVE: usize = 64;
/// The bytes a lane holds of A and of B in one instruction.
const BYTES_PER_LANE: usize = 8;

impl MfmaInstruction {
    /// The 16-bit instruction with `m` rows: 32 (32x32x8) or 16
    /// (16x16x16); `None` for any other ([`of_element`](Self::of_element)
    /// with 2 bytes).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MfmaInstruction::of(32).map(|i| i.k()), Some(8));
    /// ```
    pub const fn of(m: usize) -> Option<MfmaInstruction> {
        Self::of_element(m, 2)
    }

    /// The instruction with `m` rows (16 or 32) over elements of `bytes`
    /// bytes (2: fp16, bf16; 1: the 8-bit floats and int8); `None` for
    /// any other.
    ///
    /// ```
    /// use cktile_core::ops::gemm::MfmaInstruction;
    /// // v_mfma_f32_16x16x32_fp8_fp8: 8 K values a lane.
    /// assert_eq!(MfmaInstruction::of_element(16, 1).map(|i| (i.k(), i.k_per_lane())), Some((32, 8)));
    /// assert!(MfmaInstruction::of_element(16, 4).is_none());
    /// ```
    pub const fn of_element(m: usize, bytes: usize) -> Option<MfmaInstruction> {
        match (m, bytes) {
            (16 | 32, 1 | 2) => Some(MfmaInstruction { m, k_per_lane: BYTES_PER_LANE / bytes }),
            _ => None,
        }
    }

    /// [`of_element`](Self::of_element) for a warp GEMM's rows and
    /// element, checked when compiled.
    pub(crate) const fn of_rows<const M: usize>(bytes: usize) -> MfmaInstruction {
        match Self::of_element(M, bytes) {
            Some(i) => i,
            None => panic!("an MFMA has 16 or 32 rows, over 1- or 2-byte elements"),
        }
    }

    /// The K values a lane holds of A and of B: 4 (16-bit elements) or 8
    /// (8-bit ones).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MfmaInstruction::of(32).map(|i| i.k_per_lane()), Some(4));
    /// ```
    pub const fn k_per_lane(&self) -> usize {
        self.k_per_lane
    }

    /// M (= N): the rows of A and D, the columns of B and D.
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MfmaInstruction::of(16).map(|i| i.m()), Some(16));
    /// ```
    pub const fn m(&self) -> usize {
        self.m
    }

    /// K: the lane groups (`64 / M`) times the K values a lane holds.
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MfmaInstruction::of(16).map(|i| i.k()), Some(16));
    /// ```
    pub const fn k(&self) -> usize {
        WAVE / self.m * self.k_per_lane
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
    /// register `reg` holds (`lane < 64`, `reg <`
    /// [`k_per_lane`](Self::k_per_lane)).
    ///
    /// ```
    /// let i = cktile_core::ops::gemm::MfmaInstruction::of(16).ok_or(cktile_core::Error::policy("16"))?;
    /// assert_eq!(i.a_element(63, 3), (15, 15));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn a_element(&self, lane: usize, reg: usize) -> (usize, usize) {
        (lane % self.m, self.k_per_lane * (lane / self.m) + reg)
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
        (row + self.m * (k / self.k_per_lane), k % self.k_per_lane)
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

/// Which element format a warp GEMM reads ([`MfmaElement::KIND`]).
///
/// ```
/// use cktile_core::ops::gemm::{Bf16, ElementKind, Int8, MfmaElement};
/// assert_eq!((Bf16::KIND, Int8::KIND), (ElementKind::Bf16, ElementKind::Int8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElementKind {
    /// IEEE half precision (`_f16` MFMAs, `.f16` `mma.sync`).
    Fp16,
    /// bfloat16 (`_bf16_1k` MFMAs, `.bf16` `mma.sync`).
    Bf16,
    /// OCP's 8-bit E4M3 (`.e4m3` `mma.sync`, sm_89 and later).
    Fp8,
    /// OCP's 8-bit E5M2 (`.e5m2` `mma.sync`).
    Bf8,
    /// E4M3 FNUZ, gfx942's fp8 (`_fp8_fp8` MFMAs).
    Fp8Fnuz,
    /// E5M2 FNUZ, gfx942's bf8 (`_bf8_bf8` MFMAs).
    Bf8Fnuz,
    /// Signed 8-bit integers (`_i8` MFMAs, `.s8` `mma.sync`).
    Int8,
}

/// A warp GEMM's accumulator: `f32`, or `i32` for [`Int8`] (whose
/// products and sums wrap, as the hardware's do). Sealed.
///
/// ```
/// use cktile_core::ops::gemm::Accumulator;
/// assert_eq!(1.5f32.add(2.0f32.mul(0.25)), 2.0);
/// assert_eq!(i32::MAX.add(1), i32::MIN);
/// assert_eq!((Accumulator::to_bits(-1i32), <f32 as Accumulator>::from_bits(0x3f80_0000)), (u32::MAX, 1.0));
/// assert_eq!(Accumulator::to_f64(-7i32), -7.0);
/// ```
pub trait Accumulator:
    sealed::Sealed + CElement<Self, Bits = Self> + Copy + Default + PartialEq + core::fmt::Debug + 'static
{
    /// CK's name of the type (`float`, `int32_t`).
    const NAME: &'static str;
    /// `self + other` (wrapping for `i32`).
    fn add(self, other: Self) -> Self;
    /// `self * other` (wrapping for `i32`).
    fn mul(self, other: Self) -> Self;
    /// The value's 32 bits (what a register holds).
    fn to_bits(self) -> u32;
    /// The value of 32 bits.
    fn from_bits(bits: u32) -> Self;
    /// The value as an `f64` (exact).
    fn to_f64(self) -> f64;
}

impl Accumulator for f32 {
    const NAME: &'static str = "float";
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn add(self, other: f32) -> f32 {
        self + other
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn mul(self, other: f32) -> f32 {
        self * other
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn to_bits(self) -> u32 {
        f32::to_bits(self)
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn from_bits(bits: u32) -> f32 {
        f32::from_bits(bits)
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

impl Accumulator for i32 {
    const NAME: &'static str = "int32_t";
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn add(self, other: i32) -> i32 {
        self.wrapping_add(other)
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn mul(self, other: i32) -> i32 {
        self.wrapping_mul(other)
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn to_bits(self) -> u32 {
        self as u32
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn from_bits(bits: u32) -> i32 {
        bits as i32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

/// A type C may be stored in by a GEMM whose warp GEMMs sum in `Acc`
/// (CK's `CDataType`, reached from the accumulator by `type_convert`):
/// the accumulator itself (`f32`, `i32`: no conversion), or, from `f32`,
/// any floating-point [`MfmaElement`] ([`Fp16`], [`Bf16`] and the 8-bit
/// floats, rounded as [`MfmaElement::from_f32`] rounds). C's memory holds
/// its [`Bits`](Self::Bits). Sealed.
///
/// The epilogues convert each accumulator once, before it leaves the
/// thread (CK's `Default2DEpilogue`), or before it enters the CShuffle
/// LDS tile, which then holds C's type (CK's `CShuffleEpilogue`).
///
/// ```
/// use cktile_core::ops::gemm::{Bf16, CElement, Fp16, Fp8Fnuz};
/// assert_eq!(<Fp16 as CElement<f32>>::from_acc(1.5), 0x3e00);
/// assert_eq!(<Bf16 as CElement<f32>>::from_acc(-2.0), 0xc000);
/// assert_eq!(<Fp8Fnuz as CElement<f32>>::from_acc(1000.0), 0x7f); // saturates at 240
/// assert_eq!((<f32 as CElement<f32>>::from_acc(0.1), <i32 as CElement<i32>>::from_acc(-7)), (0.1, -7));
/// assert_eq!(<f32 as CElement<f32>>::raw(1.0), 0x3f80_0000);
/// ```
pub trait CElement<Acc>: sealed::Sealed + 'static {
    /// What C's memory holds: the accumulator, or the element's bits.
    type Bits: Copy + Default + PartialEq + core::fmt::Debug + 'static;
    /// `acc` in C's type (CK's `type_convert<CDataType>`).
    fn from_acc(acc: Acc) -> Self::Bits;
    /// The bit pattern, zero-extended (to compare C's values bit for bit,
    /// NaNs included).
    fn raw(bits: Self::Bits) -> u32;
}

impl CElement<f32> for f32 {
    type Bits = f32;
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn from_acc(acc: f32) -> f32 {
        acc
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn raw(bits: f32) -> u32 {
        bits.to_bits()
    }
}

impl CElement<i32> for i32 {
    type Bits = i32;
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn from_acc(acc: i32) -> i32 {
        acc
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn raw(bits: i32) -> u32 {
        bits as u32
    }
}

impl<E: MfmaElement<Acc = f32>> CElement<f32> for E {
    type Bits = E::Bits;
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn from_acc(acc: f32) -> E::Bits {
        E::from_f32(acc)
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn raw(bits: E::Bits) -> u32 {
        E::raw(bits)
    }
}

/// An element type the warp GEMMs multiply, held as its bits
/// ([`Bits`](Self::Bits): `u16` for the 16-bit types, `u8` for the 8-bit
/// floats, `i8` for [`Int8`]) on every path: the data path moves bits, the
/// instruction (or its emulation) reads them as numbers. Sealed: [`Fp16`],
/// [`Bf16`], [`Fp8`], [`Bf8`], [`Fp8Fnuz`], [`Bf8Fnuz`], [`Int8`].
///
/// ```
/// use cktile_core::ops::gemm::{Bf16, Fp16, Fp8Fnuz, Int8, MfmaElement};
/// assert_eq!(Fp16::to_f32(0x3c00), 1.0);
/// assert_eq!(Bf16::to_f32(0xc040), -3.0);
/// assert_eq!((Fp16::from_f32(2.5), Bf16::from_f32(2.5)), (0x4100, 0x4020));
/// assert_eq!((Fp8Fnuz::from_f32(1.0), Fp8Fnuz::BYTES), (0x40, 1));
/// assert_eq!(Int8::to_acc(Int8::from_f32(-3.0)), -3);
/// ```
pub trait MfmaElement: sealed::Sealed + Copy + Default + 'static {
    /// The format.
    const KIND: ElementKind;
    /// CK's name of the type (`fp16_t`, `bf16_t`, `fp8_t`, `bf8_t`,
    /// `int8_t`; CK's `fp8_t` is OCP's E4M3 or the FNUZ one as the target
    /// reads it).
    const NAME: &'static str;
    /// The bytes of one element: 2 or 1. A policy's DRAM vector and LDS
    /// pack are 16 bytes of them ([`GemmPolicy::VECTOR`](super::GemmPolicy::VECTOR)).
    const BYTES: usize;
    /// The element's bits as the data path moves them.
    type Bits: crate::tile::BufferElement + PartialEq + core::fmt::Debug;
    /// The accumulator the warp GEMMs sum its products in.
    type Acc: Accumulator;
    /// The value of `bits` (exact: every value of these types is an `f32`;
    /// a NaN encoding is NaN).
    fn to_f32(bits: Self::Bits) -> f32;
    /// `value` rounded to the nearest representable value, ties to even
    /// (CK's `type_convert` for a C of this type). NaN stays NaN for the
    /// 16-bit types, which round past their largest finite value to
    /// infinity; the 8-bit floats saturate to their largest finite value
    /// (as `cvt.rn.satfinite` and CK's saturating conversion), and
    /// [`Int8`] to -128..=127, NaN to 0.
    fn from_f32(value: f32) -> Self::Bits;
    /// The value of `bits` in the accumulator's type (exact).
    fn to_acc(bits: Self::Bits) -> Self::Acc;
    /// The bit pattern, zero-extended: how the instructions' registers pack
    /// the element (element `i` of a register at bit `i * 8 * BYTES`).
    fn raw(bits: Self::Bits) -> u32;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Fp16 {}
    impl Sealed for super::Bf16 {}
    impl Sealed for super::Fp8 {}
    impl Sealed for super::Bf8 {}
    impl Sealed for super::Fp8Fnuz {}
    impl Sealed for super::Bf8Fnuz {}
    impl Sealed for super::Int8 {}
    impl Sealed for f32 {}
    impl Sealed for i32 {}
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

/// OCP's 8-bit E4M3 (`e4m3fn`: bias 7, no infinities, largest finite
/// 448), CK's `fp8_t` where the target reads OCP's formats (gfx950, gfx12)
/// and NVIDIA's `.e4m3` (sm_89 and later).
///
/// ```
/// use cktile_core::ops::gemm::{Fp8, MfmaElement};
/// assert_eq!((Fp8::from_f32(1.0), Fp8::to_f32(0x7e)), (0x38, 448.0));
/// assert_eq!(Fp8::from_f32(1000.0), 0x7e); // saturates
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Fp8;

/// OCP's 8-bit E5M2 (bias 15, IEEE's infinities and NaNs), CK's `bf8_t`
/// on OCP targets and NVIDIA's `.e5m2`.
///
/// ```
/// use cktile_core::ops::gemm::{Bf8, MfmaElement};
/// assert_eq!((Bf8::from_f32(1.0), Bf8::to_f32(0x7b)), (0x3c, 57344.0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bf8;

/// 8-bit E4M3 FNUZ (bias 8, no infinities, no negative zero, NaN
/// `0x80`, largest finite 240): CK's `fp8_t` on gfx942, the format its
/// `_fp8_fp8` MFMAs read.
///
/// ```
/// use cktile_core::ops::gemm::{Fp8Fnuz, MfmaElement};
/// assert_eq!((Fp8Fnuz::from_f32(1.0), Fp8Fnuz::to_f32(0x7f)), (0x40, 240.0));
/// assert!(Fp8Fnuz::to_f32(0x80).is_nan());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Fp8Fnuz;

/// 8-bit E5M2 FNUZ (bias 16, no infinities, no negative zero, NaN
/// `0x80`): CK's `bf8_t` on gfx942 (`_bf8_bf8` MFMAs).
///
/// ```
/// use cktile_core::ops::gemm::{Bf8Fnuz, MfmaElement};
/// assert_eq!(Bf8Fnuz::from_f32(1.0), 0x40);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bf8Fnuz;

/// Signed 8-bit integers, CK's `int8_t`, summed in `i32`.
///
/// ```
/// use cktile_core::ops::gemm::{Int8, MfmaElement};
/// assert_eq!((Int8::from_f32(2.5), Int8::from_f32(3.5), Int8::from_f32(-300.0)), (2, 4, -128));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Int8;

impl MfmaElement for Fp16 {
    const KIND: ElementKind = ElementKind::Fp16;
    const NAME: &'static str = "fp16_t";
    const BYTES: usize = 2;
    type Bits = u16;
    type Acc = f32;

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

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn from_f32(value: f32) -> u16 {
        // On the GPUs, the hardware's conversion (`v_cvt_f16_f32`, `cvt.rn.f16.f32`) through
        // Rust's `as`, which rounds as `half_from_f32` does (to nearest, ties to even: the
        // tests hold `half_from_f32` to an independent reference); a NaN's payload may differ.
        #[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
        return (value as f16).to_bits();
        #[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
        half_from_f32(value)
    }

    fn to_acc(bits: u16) -> f32 {
        Self::to_f32(bits)
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn raw(bits: u16) -> u32 {
        u32::from(bits)
    }
}

/// `value` as a half, rounded to nearest with ties to even, past 65504
/// to infinity, NaN to a quiet NaN of its sign (the host's
/// [`Fp16::from_f32`]; the GPUs convert in hardware, with the same
/// rounding).
#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
fn half_from_f32(value: f32) -> u16 {
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

impl MfmaElement for Bf16 {
    const KIND: ElementKind = ElementKind::Bf16;
    const NAME: &'static str = "bf16_t";
    const BYTES: usize = 2;
    type Bits = u16;
    type Acc = f32;

    fn to_f32(bits: u16) -> f32 {
        f32::from_bits(u32::from(bits) << 16)
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn from_f32(value: f32) -> u16 {
        // On nvptx, the hardware's conversion (`cvt.rn.bf16.f32`), which rounds the same.
        #[cfg(target_arch = "nvptx64")]
        return crate::tile::gpu::bf16_from_f32(value);
        #[cfg(not(target_arch = "nvptx64"))]
        bf16_from_f32(value)
    }

    fn to_acc(bits: u16) -> f32 {
        Self::to_f32(bits)
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn raw(bits: u16) -> u32 {
        u32::from(bits)
    }
}

/// `value` as a bfloat16 (the high half of the `f32`), rounded to
/// nearest with ties to even, a NaN made quiet with its sign and high
/// payload: both results are computed and one picked, without a branch
/// (on gfx942, which has no conversion instruction, the C tile's 64 a
/// thread are 5 instructions each, as CK's). The host's and amdgcn's
/// [`Bf16::from_f32`]; nvptx converts in hardware.
#[cfg(not(target_arch = "nvptx64"))]
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn bf16_from_f32(value: f32) -> u16 {
    let bits = value.to_bits();
    let rounded = (bits.wrapping_add(0x7fff + ((bits >> 16) & 1)) >> 16) as u16;
    let quiet = ((bits >> 16) | 0x40) as u16;
    core::hint::select_unpredictable(value.is_nan(), quiet, rounded)
}

/// The 8-bit floats, each one of [`minifloat`](super::minifloat)'s formats.
macro_rules! minifloat_element {
    ($($ty:ident: $kind:ident, $name:literal, $format:ident;)+) => {$(
        impl MfmaElement for $ty {
            const KIND: ElementKind = ElementKind::$kind;
            const NAME: &'static str = $name;
            const BYTES: usize = 1;
            type Bits = u8;
            type Acc = f32;

            fn to_f32(bits: u8) -> f32 {
                super::minifloat::$format.decode(bits)
            }

            fn from_f32(value: f32) -> u8 {
                super::minifloat::$format.encode(value)
            }

            fn to_acc(bits: u8) -> f32 {
                Self::to_f32(bits)
            }

            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn raw(bits: u8) -> u32 {
                u32::from(bits)
            }
        }
    )+};
}

minifloat_element! {
    Fp8: Fp8, "fp8_t", E4M3FN;
    Bf8: Bf8, "bf8_t", E5M2;
    Fp8Fnuz: Fp8Fnuz, "fp8_t", E4M3FNUZ;
    Bf8Fnuz: Bf8Fnuz, "bf8_t", E5M2FNUZ;
}

impl MfmaElement for Int8 {
    const KIND: ElementKind = ElementKind::Int8;
    const NAME: &'static str = "int8_t";
    const BYTES: usize = 1;
    type Bits = i8;
    type Acc = i32;

    fn to_f32(bits: i8) -> f32 {
        f32::from(bits)
    }

    fn from_f32(value: f32) -> i8 {
        if value.is_nan() {
            return 0;
        }
        // Clamped first, then rounded to the nearest integer, ties to even: adding and
        // subtracting 1.5 * 2^23 leaves an f32 of that size no fraction bits (exact below 2^22).
        const ROUND: f32 = 12_582_912.0;
        let clamped = value.clamp(-128.0, 127.0);
        ((clamped + ROUND) - ROUND) as i8
    }

    fn to_acc(bits: i8) -> i32 {
        i32::from(bits)
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn raw(bits: i8) -> u32 {
        u32::from(bits as u8)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_lane_maps_are_inverse_bijections() {
        for (m, bytes) in [(16, 1), (16, 2), (32, 1), (32, 2)] {
            let i = MfmaInstruction::of_element(m, bytes).unwrap();
            let mut a_seen = vec![false; m * i.k()];
            let mut c_seen = vec![false; m * m];
            for lane in 0..WAVE {
                for reg in 0..i.k_per_lane() {
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

    /// Every tie: the midpoint of each two neighbouring halves (exact in
    /// `f32`) goes to the even one, and the `f32`s either side of it to
    /// the nearer one; past the largest finite half, its midpoint with
    /// 65536 and above go to infinity. (The GPUs convert in hardware, as
    /// Rust's `as f16`, which rounds the same.)
    #[test]
    fn fp16_breaks_every_tie_to_even() {
        for below in 0..0x7bffu16 {
            let (lo, hi) = (Fp16::to_f32(below), Fp16::to_f32(below + 1));
            let mid = (f64::from(lo) + f64::from(hi)) / 2.0;
            let tie = mid as f32;
            assert_eq!(f64::from(tie), mid);
            let even = if below % 2 == 0 { below } else { below + 1 };
            assert_eq!(Fp16::from_f32(tie), even, "{mid}");
            assert_eq!(Fp16::from_f32(f32::from_bits(tie.to_bits() - 1)), below, "{mid}");
            assert_eq!(Fp16::from_f32(f32::from_bits(tie.to_bits() + 1)), below + 1, "{mid}");
            assert_eq!(Fp16::from_f32(-tie), even | 0x8000);
        }
        assert_eq!(Fp16::from_f32(65519.996), 0x7bff);
        assert_eq!((Fp16::from_f32(65520.0), Fp16::from_f32(f32::MAX)), (0x7c00, 0x7c00));
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

    /// Int8's conversions: every value exactly, and rounding against the
    /// nearest integer computed in `f64` (ties to even), saturating.
    #[test]
    fn int8_conversions_round_to_nearest_even_and_saturate() {
        for v in i8::MIN..=i8::MAX {
            assert_eq!(Int8::to_f32(v), f32::from(v));
            assert_eq!(
                (Int8::from_f32(f32::from(v)), Int8::to_acc(v), Int8::raw(v)),
                (v, i32::from(v), u32::from(v as u8))
            );
        }
        let mut x = -200.0f64;
        while x <= 200.0 {
            let (floor, frac) = (x.floor(), x - x.floor());
            let nearest = if frac > 0.5 || (frac == 0.5 && floor.rem_euclid(2.0) == 1.0) { floor + 1.0 } else { floor };
            assert_eq!(Int8::from_f32(x as f32), nearest.clamp(-128.0, 127.0) as i8, "{x}");
            x += 0.125;
        }
        assert_eq!((Int8::from_f32(f32::NAN), Int8::from_f32(f32::INFINITY), Int8::from_f32(-1e30)), (0, 127, -128));
    }

    /// The 8-bit floats read through their element types are the codec's
    /// formats (the codec's own tests hold each format exhaustively).
    #[test]
    fn eight_bit_elements_are_their_formats() {
        use super::super::minifloat::{E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ};
        for b in 0..=u8::MAX {
            let same = |x: f32, y: f32| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
            assert!(same(Fp8::to_f32(b), E4M3FN.decode(b)) && same(Bf8::to_f32(b), E5M2.decode(b)));
            assert!(same(Fp8Fnuz::to_f32(b), E4M3FNUZ.decode(b)) && same(Bf8Fnuz::to_f32(b), E5M2FNUZ.decode(b)));
        }
        assert_eq!((Fp8::BYTES, Bf8Fnuz::BYTES, Fp16::BYTES, Int8::BYTES), (1, 1, 2, 1));
    }
}
