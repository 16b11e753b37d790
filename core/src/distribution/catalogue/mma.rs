//! CK Tile's encoding calculator for matrix instructions
//! (`ck_tile/core/arch/mma/utility/tile_distribution_encoding_calculator.hpp`,
//! `TileDistrEncCalc`): the A, B and C warp distributions of an MFMA or
//! WMMA from the layout numbers CK's `amdgcn_mma_base` records for it
//! (`amdgcn_mma.hpp`), with CK's modifiers (transposed C, an M swizzle
//! factor, K iterations, the number of K accesses, packed accesses, the
//! uncompressed A of a sparse instruction).
//!
//! CK picks among several spellings of the A/B encoding: a general one
//! (`ABWarpDstrEncStridedK`) and "legacy" ones that drop or move length-1
//! dimensions so the generated address arithmetic matches older code. Its
//! comments call each legacy form a "PROVABLY IDENTICAL" map of the general
//! one, checked by tracing; [`MmaOp::general_ab`] gives the general form so
//! those claims can be checked (the tools crate's `lanes::equiv`
//! does, in `tests/distribution_builders.rs`).
//!
//! [`MMA_OPS`] lists the instructions with CK's numbers.
//!
//! ```
//! use cktile_core::distribution::{catalogue, catalogue::mma::{Calc, MMA_OPS}};
//! let op = MMA_OPS.iter().find(|o| o.name == "mfma_f32_16x16x16f16").unwrap();
//! let [a, b, c] = op.encodings(&Calc::default())?;
//! // CK's calculator gives the WarpGemm encodings, term for term.
//! assert_eq!((a, b, c), (catalogue::mfma_a(16, 16)?, catalogue::mfma_b(16, 16)?, catalogue::mfma_c(16, 16)?));
//! # Ok::<(), cktile_core::Error>(())
//! ```

use crate::distribution::Encoding;
use crate::error::{Error, ParameterProblem};

/// The instruction family, as CK's `OpType` and compiler target tell it.
///
/// ```
/// use cktile_core::distribution::catalogue::mma::MmaFamily;
/// assert_ne!(MmaFamily::Mfma, MmaFamily::WmmaGfx11);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MmaFamily {
    /// CDNA's MFMA (`MfmaOp`).
    Mfma,
    /// RDNA3's WMMA, whose A and B are repeated over the two half-waves.
    WmmaGfx11,
    /// RDNA4's WMMA and later.
    Wmma,
}

/// One instruction's layout numbers: CK's `amdgcn_mma_base<..., FragM,
/// FragN, FragK, WaveSize, kABKPerLane, kAKNumAccess, kARepeat,
/// kBKNumAccess, kBRepeat, kCMPerLane, kCMNumAccess, OpType, OpFamily>`.
///
/// ```
/// use cktile_core::distribution::catalogue::mma::MMA_OPS;
/// assert!(MMA_OPS.iter().any(|o| o.name == "wmma_f32_16x16x16_f16_w32_gfx12"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MmaOp {
    /// The builtin's name without `__builtin_amdgcn_` (with the tile when
    /// CK uses one builtin for two block-hiding shapes).
    pub name: &'static str,
    /// The family.
    pub family: MmaFamily,
    /// Whether it is a sparse (2:4) instruction: A's K is compressed by 2.
    pub sparse: bool,
    /// `kM`.
    pub m: usize,
    /// `kN`.
    pub n: usize,
    /// `kK`.
    pub k: usize,
    /// `WaveSize`.
    pub wave_size: usize,
    /// `kABKPerLane`: K values per lane (`K2 * K0`).
    pub ab_k_per_lane: usize,
    /// `kAKNumAccess`.
    pub a_k_num_access: usize,
    /// `kARepeat`.
    pub a_repeat: usize,
    /// `kBKNumAccess`.
    pub b_k_num_access: usize,
    /// `kBRepeat`.
    pub b_repeat: usize,
    /// `kCMPerLane`: C's M values per lane (`M2 * M0`).
    pub c_m_per_lane: usize,
    /// `kCMNumAccess` (`M2`).
    pub c_m_num_access: usize,
}

/// An instruction from CK's numbers, in `amdgcn_mma_base`'s order.
#[allow(clippy::too_many_arguments)]
const fn op(
    name: &'static str,
    family: MmaFamily,
    sparse: bool,
    mnk: [usize; 3],
    wave_size: usize,
    ab_k_per_lane: usize,
    a: [usize; 2],
    b: [usize; 2],
    c: [usize; 2],
) -> MmaOp {
    MmaOp {
        name,
        family,
        sparse,
        m: mnk[0],
        n: mnk[1],
        k: mnk[2],
        wave_size,
        ab_k_per_lane,
        a_k_num_access: a[0],
        a_repeat: a[1],
        b_k_num_access: b[0],
        b_repeat: b[1],
        c_m_per_lane: c[0],
        c_m_num_access: c[1],
    }
}

/// The instructions, with the numbers CK's `amdgcn_mma` specializations
/// give them (`mfma/mfma_gfx9.hpp`, `sparse/mfma/sparse_gfx9.hpp`,
/// `wmma/wmma_gfx11.hpp`, `wmma/wmma_gfx12.hpp` with its gfx1250 section,
/// `sparse/wmma/sparse_gfx12.hpp`).
///
/// CK gives gfx1250's 16x16x32 and 16x16x64 a single K access of 16 or 32
/// values here, where its warp GEMM ([`wmma`](crate::distribution::catalogue::wmma)) splits a lane's
/// K into blocks of 8 a half-wave apart; the calculator gives the warp
/// GEMM's map with `num_access_a` and `num_access_b` set to K / 16.
///
/// ```
/// use cktile_core::distribution::catalogue::mma::MMA_OPS;
/// assert!(MMA_OPS.len() >= 12);
/// ```
pub const MMA_OPS: &[MmaOp] = &[
    op("mfma_f32_16x16x16f16", MmaFamily::Mfma, false, [16, 16, 16], 64, 4, [1, 1], [1, 1], [4, 1]),
    op("mfma_f32_16x16x32_f16", MmaFamily::Mfma, false, [16, 16, 32], 64, 8, [1, 1], [1, 1], [4, 1]),
    op("mfma_f32_32x32x8f16", MmaFamily::Mfma, false, [32, 32, 8], 64, 4, [1, 1], [1, 1], [16, 4]),
    op("mfma_f32_32x32x16_bf8_bf8", MmaFamily::Mfma, false, [32, 32, 16], 64, 8, [1, 1], [1, 1], [16, 4]),
    op("mfma_f32_32x32x4f16 (64x32)", MmaFamily::Mfma, false, [64, 32, 4], 64, 4, [1, 1], [1, 2], [16, 4]),
    op("mfma_f32_32x32x4f16 (32x64)", MmaFamily::Mfma, false, [32, 64, 4], 64, 4, [1, 2], [1, 1], [16, 4]),
    op("mfma_f32_4x4x4f16 (64x4)", MmaFamily::Mfma, false, [64, 4, 4], 64, 4, [1, 1], [1, 16], [4, 1]),
    op("mfma_f32_4x4x4f16 (4x64)", MmaFamily::Mfma, false, [4, 64, 4], 64, 4, [1, 16], [1, 1], [4, 1]),
    op("smfmac_f32_16x16x32_f16", MmaFamily::Mfma, true, [16, 16, 32], 64, 8, [1, 1], [1, 1], [4, 1]),
    op("smfmac_f32_32x32x16_f16", MmaFamily::Mfma, true, [32, 32, 16], 64, 8, [1, 1], [1, 1], [16, 4]),
    op("wmma_f32_16x16x16_f16_w32", MmaFamily::WmmaGfx11, false, [16, 16, 16], 32, 16, [1, 2], [1, 2], [8, 8]),
    op("wmma_f32_16x16x16_f16_w32_gfx12", MmaFamily::Wmma, false, [16, 16, 16], 32, 8, [1, 1], [1, 1], [8, 1]),
    op("swmmac_f32_16x16x32_f16_w32", MmaFamily::Wmma, true, [16, 16, 32], 32, 16, [1, 1], [1, 1], [8, 1]),
    op("wmma_f32_16x16x32_bf16", MmaFamily::Wmma, false, [16, 16, 32], 32, 16, [1, 1], [1, 1], [8, 1]),
    op("wmma_i32_16x16x64_iu8", MmaFamily::Wmma, false, [16, 16, 64], 32, 32, [1, 1], [1, 1], [8, 1]),
];

/// `TileDistrEncCalc`'s modifiers; [`Default`] is CK's defaults.
///
/// ```
/// use cktile_core::distribution::catalogue::mma::Calc;
/// let c = Calc { k_iter: 2, ..Calc::default() };
/// assert_eq!((c.k_iter, c.swizzle_factor, c.c_transpose), (2, 1, false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Calc {
    /// `CTranspose`: C is (N, M), A and B swap.
    pub c_transpose: bool,
    /// `SFactor`: the M swizzle factor (1: none).
    pub swizzle_factor: usize,
    /// `kIter`: consecutive instructions along K.
    pub k_iter: usize,
    /// `AttrNumAccessAV`: K accesses requested for A (raised to the instruction's).
    pub num_access_a: usize,
    /// `AttrNumAccessBV`.
    pub num_access_b: usize,
    /// `UncompressedA`: a sparse instruction's A at full K.
    pub uncompressed_a: bool,
    /// `UsePackedNumAccess`: a lane's K accesses contiguous.
    pub packed_num_access: bool,
}

impl Default for Calc {
    fn default() -> Calc {
        Calc {
            c_transpose: false,
            swizzle_factor: 1,
            k_iter: 1,
            num_access_a: 1,
            num_access_b: 1,
            uncompressed_a: false,
            packed_num_access: false,
        }
    }
}

/// CK's A/B spellings, named as its type aliases are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AbForm {
    StridedK,
    StridedKLegacy1,
    StridedKLegacy2,
    ContiguousK,
    StridedKLegacy,
    Gfx11WmmaLegacy,
}

fn bad(parameter: &'static str, value: usize, requirement: &'static str) -> Error {
    Error::parameter(ParameterProblem::invalid_usize("TileDistrEncCalc", parameter, value, requirement))
}

impl MmaOp {
    /// `kCompressionRatio`.
    const fn compression(&self) -> usize {
        if self.sparse { 2 } else { 1 }
    }

    /// `kCMBlocks` and `kCNBlocks`: an MFMA's block-hiding repeats.
    const fn c_blocks(&self) -> (usize, usize) {
        match self.family {
            MmaFamily::Mfma => (self.b_repeat, self.a_repeat),
            _ => (1, 1),
        }
    }

    /// Whether every block count is 1 and nothing is compressed, for the family.
    fn plain(&self, family_matches: bool) -> bool {
        family_matches && self.c_blocks() == (1, 1) && self.compression() == 1
    }

    /// One A/B encoding in CK's `form`.
    fn ab_form(
        &self,
        form: AbForm,
        major: usize,
        repeat: usize,
        access: usize,
        ratio: usize,
        k_iter: usize,
    ) -> Result<Encoding, Error> {
        let k_lanes = self.k / self.ab_k_per_lane;
        let per_access = self.ab_k_per_lane / access / ratio * k_iter;
        let k = [access, k_lanes, per_access];
        match form {
            AbForm::StridedK => {
                Encoding::new(&[repeat], &[&[major], &k], &[&[2, 0, 1]], &[&[1, 0, 0]], &[2, 2], &[0, 2])
            }
            AbForm::StridedKLegacy1 => Encoding::new(&[], &[&[major], &k], &[&[2, 1]], &[&[1, 0]], &[2, 2], &[0, 2]),
            AbForm::StridedKLegacy2 => {
                let k = [k_lanes, self.ab_k_per_lane / ratio * k_iter];
                Encoding::new(&[], &[&[major], &k], &[&[2, 1]], &[&[0, 0]], &[2], &[1])
            }
            AbForm::ContiguousK => {
                let k = [k_lanes, access, per_access];
                Encoding::new(&[repeat], &[&[major], &k], &[&[2, 0, 1]], &[&[0, 0, 0]], &[2, 2], &[1, 2])
            }
            AbForm::StridedKLegacy => {
                Encoding::new(&[repeat], &[&[1, major], &k], &[&[2, 1]], &[&[1, 1]], &[1, 2, 2], &[0, 0, 2])
            }
            AbForm::Gfx11WmmaLegacy => {
                Encoding::new(&[repeat], &[&[1, major], &k], &[&[0, 2, 1]], &[&[0, 1, 1]], &[1, 2, 2], &[0, 0, 2])
            }
        }
    }

    /// The spelling CK's `ABWarpDstrEnc` picks.
    fn pick(&self, calc: &Calc, repeat: usize, access: usize, ratio: usize) -> AbForm {
        let wmma = self.plain(matches!(self.family, MmaFamily::Wmma | MmaFamily::WmmaGfx11));
        let gfx11 = wmma && self.family == MmaFamily::WmmaGfx11;
        if calc.packed_num_access && access > 1 {
            AbForm::ContiguousK
        } else if gfx11 && repeat == 2 && ratio == 1 {
            AbForm::Gfx11WmmaLegacy
        } else if wmma && repeat == 1 && access == 1 && ratio == 1 {
            AbForm::StridedKLegacy
        } else if repeat == 1 && access == 1 {
            AbForm::StridedKLegacy2
        } else if repeat == 1 {
            AbForm::StridedKLegacy1
        } else {
            AbForm::StridedK
        }
    }

    /// The general A/B encoding (`ABWarpDstrEncStridedK`) that every
    /// spelling CK picks is meant to equal: `a` for A (else B), with the
    /// calculator's K accesses and compression.
    ///
    /// ```
    /// use cktile_core::distribution::{catalogue::mma::{Calc, MMA_OPS}, Distribution};
    /// let op = MMA_OPS.iter().find(|o| o.name == "wmma_f32_16x16x16_f16_w32").unwrap();
    /// let [a, _, _] = op.encodings(&Calc::default())?;
    /// let general = op.general_ab(&Calc::default(), true)?;
    /// // Another spelling of the same lane map (the tools crate's
    /// // `lanes::equiv` proves it, for every instruction).
    /// assert_ne!(a, general);
    /// assert_eq!(Distribution::new(a)?.x_lengths(), Distribution::new(general)?.x_lengths());
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn general_ab(&self, calc: &Calc, a: bool) -> Result<Encoding, Error> {
        let (access_a, access_b) = self.accesses(calc)?;
        let ratio_a = if calc.uncompressed_a { 1 } else { self.compression() };
        let (major, repeat, access, ratio) =
            if a { (self.m, self.a_repeat, access_a, ratio_a) } else { (self.n, self.b_repeat, access_b, 1) };
        self.ab_form(AbForm::StridedK, major, repeat, access, ratio, calc.k_iter)
    }

    /// `NumAccessA` and `NumAccessB`, with CK's checks.
    fn accesses(&self, calc: &Calc) -> Result<(usize, usize), Error> {
        if calc.k_iter == 0 {
            return Err(bad("kIter", 0, "at least one instruction along K"));
        }
        if calc.swizzle_factor == 0 || !self.c_m_num_access.is_multiple_of(calc.swizzle_factor) {
            return Err(bad("SFactor", calc.swizzle_factor, "kCMNumAccess must be a multiple of SFactor"));
        }
        let a = self.a_k_num_access.max(calc.num_access_a);
        let b = self.b_k_num_access.max(calc.num_access_b);
        if !a.is_multiple_of(self.a_k_num_access) || !self.ab_k_per_lane.is_multiple_of(a * self.compression()) {
            return Err(bad("NumAccessA", a, "NumAccessA (times the compression) must divide kABKPerLane"));
        }
        if !b.is_multiple_of(self.b_k_num_access) || !self.ab_k_per_lane.is_multiple_of(b) {
            return Err(bad("NumAccessB", b, "NumAccessB must divide kABKPerLane"));
        }
        Ok((a, b))
    }

    /// CK's `AWarpDstrEncoding`, `BWarpDstrEncoding` and `CWarpDstrEncoding`
    /// for `calc`, or the first of CK's checks it breaks.
    ///
    /// ```
    /// use cktile_core::distribution::{catalogue, catalogue::mma::{Calc, MMA_OPS}};
    /// let op = MMA_OPS.iter().find(|o| o.name == "wmma_f32_16x16x16_f16_w32").unwrap();
    /// let [a, _, c] = op.encodings(&Calc::default())?;
    /// assert_eq!((a, c), (catalogue::by_name("wmma16x16x16_gfx11_a")?, catalogue::by_name("wmma16x16x16_gfx11_c")?));
    /// let e = op.encodings(&Calc { swizzle_factor: 3, ..Calc::default() }).unwrap_err();
    /// assert!(e.to_string().contains("SFactor = 3"));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn encodings(&self, calc: &Calc) -> Result<[Encoding; 3], Error> {
        let (access_a, access_b) = self.accesses(calc)?;
        let ratio_a = if calc.uncompressed_a { 1 } else { self.compression() };
        let a = if calc.swizzle_factor > 1 {
            self.a_swizzled(access_a, ratio_a, calc)?
        } else {
            let form = self.pick(calc, self.a_repeat, access_a, ratio_a);
            self.ab_form(form, self.m, self.a_repeat, access_a, ratio_a, calc.k_iter)?
        };
        let form = self.pick(calc, self.b_repeat, access_b, 1);
        let b = self.ab_form(form, self.n, self.b_repeat, access_b, 1, calc.k_iter)?;
        let c = self.c(calc)?;
        Ok(if calc.c_transpose { [b, a, c] } else { [a, b, c] })
    }

    /// `AWarpDstrEncSwizzle`: M split so the swizzle factor sits inside it.
    fn a_swizzled(&self, access: usize, ratio: usize, calc: &Calc) -> Result<Encoding, Error> {
        let (cm_blocks, _) = self.c_blocks();
        let sf = calc.swizzle_factor;
        let m = [
            cm_blocks * self.c_m_num_access / sf,
            self.m / cm_blocks / self.c_m_per_lane,
            sf,
            self.c_m_per_lane / self.c_m_num_access,
        ];
        let k = [access, self.k / self.ab_k_per_lane, self.ab_k_per_lane / access / ratio * calc.k_iter];
        let (major, minor): (&[usize], &[usize]) = (&[2, 0, 1, 1, 1, 1], &[1, 0, 0, 2, 1, 3]);
        Encoding::new(&[self.a_repeat], &[&m, &k], &[major], &[minor], &[2, 2], &[0, 2])
    }

    /// `get_cwarp_dstr_encoding()`.
    fn c(&self, calc: &Calc) -> Result<Encoding, Error> {
        let (cm_blocks, cn_blocks) = self.c_blocks();
        let sf = calc.swizzle_factor;
        let (mi, ni) = if calc.c_transpose { (2, 1) } else { (1, 2) };
        let gfx11 = self.plain(self.family == MmaFamily::WmmaGfx11);
        if gfx11 && sf == 1 {
            let m = [
                cm_blocks,
                self.c_m_num_access,
                self.m / cm_blocks / self.c_m_per_lane,
                self.c_m_per_lane / self.c_m_num_access,
            ];
            let n = [cn_blocks, self.n / cn_blocks];
            let hs: [&[usize]; 2] = if calc.c_transpose { [&n, &m] } else { [&m, &n] };
            return Encoding::new(&[], &hs, &[&[mi, ni]], &[&[2, 1]], &[mi, mi], &[1, 3]);
        }
        if (cm_blocks, cn_blocks) == (1, 1) {
            let m =
                [self.c_m_num_access / sf, self.m / self.c_m_per_lane, self.c_m_per_lane * sf / self.c_m_num_access];
            let n = [self.n];
            let hs: [&[usize]; 2] = if calc.c_transpose { [&n, &m] } else { [&m, &n] };
            let rs: &[usize] = if self.plain(self.family == MmaFamily::Mfma) { &[] } else { &[1] };
            return Encoding::new(rs, &hs, &[&[mi, ni]], &[&[1, 0]], &[mi, mi], &[0, 2]);
        }
        let m = [
            cm_blocks,
            self.c_m_num_access / sf,
            self.m / cm_blocks / self.c_m_per_lane,
            self.c_m_per_lane * sf / self.c_m_num_access,
        ];
        let n = [cn_blocks, self.n / cn_blocks];
        let hs: [&[usize]; 2] = if calc.c_transpose { [&n, &m] } else { [&m, &n] };
        let c_elements = self.m * self.n / self.wave_size;
        if cm_blocks * cn_blocks * self.c_m_per_lane == c_elements {
            Encoding::new(&[1], &hs, &[&[mi, ni]], &[&[2, 1]], &[mi, ni, mi, mi], &[0, 0, 1, 3])
        } else {
            Encoding::new(&[1], &hs, &[&[mi, mi, ni, ni]], &[&[2, 0, 0, 1]], &[mi, mi], &[1, 3])
        }
    }
}
