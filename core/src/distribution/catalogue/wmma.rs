//! CK Tile's warp-GEMM operand distributions for RDNA's WMMA
//! (`ck_tile/ops/gemm/warp/warp_gemm_attribute_wmma.hpp`, lane counts from
//! `warp_gemm_attribute_wmma_impl_base_traits.hpp`, the instructions from
//! `warp_gemm_attribute_wmma_impl_16bit_traits.hpp` and `..._8bit_traits.hpp`),
//! wave32, with CK's default single access: the 16x16x16 WMMA of gfx11
//! (RDNA3) and gfx12 (RDNA4), and gfx1250's 16x16x32 (fp16, bf16) and
//! 16x16x64 (int8, uint8). An instruction is an [`Rdna`] generation and its
//! K; [`Rdna::ks`] lists the Ks CK has for each.
//!
//! - **gfx11** needs A and B duplicated across the two half-waves: lane `l`
//!   and lane `l + 16` hold the same 16 K values of row `l % 16`. CK writes
//!   that as an R dimension of length 2 (`kRepeat`), so the tools crate's `lanes::coverage`
//!   reports each element held twice, over R0. C: lane `l`, register `i`
//!   hold C(2i + l / 16, l % 16).
//! - **gfx12** splits K over the half-waves: lane `l` holds A(l % 16,
//!   8 (l / 16) + j), j < 8. C: lane `l`, register `i` hold C(8 (l / 16) + i, l % 16).
//! - **gfx1250** uses gfx12's lane counts (CK builds its `gfx125_t` traits
//!   on `WmmaTraitsBase<gfx12_t, ...>`), with K / 16 blocks of gfx12's
//!   16 K values per lane (`kAK0PerLane`): lane `l`, register `r` hold
//!   A(l % 16, 16 (r / 8) + 8 (l / 16) + r % 8), 16 registers at K = 32 and
//!   32 at K = 64. Each lane holds two runs of 8 consecutive K per 16-bit
//!   block: lane 0 holds K 0..8 and 16..24, lane 16 holds K 8..16 and
//!   24..32. C is gfx12's, whatever K.
//!
//! gfx1250 also reads B with a transposing load from a K x N tile whose N
//! is contiguous: [`wmma_b_tr`] gives the distribution `ds_load_tr16_b128`
//! (16x16x32) or `ds_load_tr8_b64` (16x16x64) reads with, X = (K, N), so
//! that the exchange (the analysis crate's `analyzer::exchange`) leaves each
//! lane holding [`wmma_b`]'s registers.
//!
//! The encodings do not depend on the element type: fp16, bf16, int8 and
//! (gfx12) fp8 share the 16x16x16 ones. On gfx1250, CK's 16x16x64 traits
//! for int8 and uint8 take the K split above (8 consecutive K per run);
//! for fp8 and bf8 the copies of CK's base traits differ (one gives them
//! the same split, another `LayoutFrom8BitK64`: runs of 16 K, two per
//! lane), so the catalogue's `wmma16x16x64_gfx1250_*` are the int8 ones.
//!
//! ```
//! use cktile_core::distribution::{Distribution, catalogue::wmma::{self, Rdna}};
//! let a = Distribution::new(wmma::wmma_a(Rdna::Gfx11, 16)?)?;
//! // Lanes 5 and 21 hold the same row.
//! assert_eq!(a.calculate_index(&[21, 0, 0, 7])?, a.calculate_index(&[5, 0, 0, 7])?);
//! let c = Distribution::new(wmma::wmma_c(Rdna::Gfx12)?)?;
//! assert_eq!(c.calculate_index(&[21, 0, 3])?.as_slice(), &[11, 5]);
//! // gfx1250, 16x16x32: lane 21, register 14 (block 1, run position 6).
//! let a = Distribution::new(wmma::wmma_a(Rdna::Gfx1250, 32)?)?;
//! assert_eq!(a.calculate_index(&[21, 0, 1, 6])?.as_slice(), &[5, 16 + 8 + 6]);
//! # Ok::<(), cktile_core::Error>(())
//! ```

use super::{NameFamily, malformed};
use crate::distribution::Encoding;
use crate::error::{Error, ParameterProblem};

/// An RDNA generation with WMMA.
///
/// ```
/// use cktile_core::distribution::catalogue::wmma::Rdna;
/// assert_eq!(Rdna::Gfx12.name(), "gfx12");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rdna {
    /// RDNA3 (gfx1100 ...): CK's `gfx11_t`.
    Gfx11,
    /// RDNA4 (gfx1200, gfx1201): CK's `gfx120_t`, on `gfx12_t`'s traits.
    Gfx12,
    /// gfx1250: CK's `gfx125_t`, on `gfx12_t`'s traits with a longer K.
    Gfx1250,
}

impl Rdna {
    /// Every generation.
    pub const ALL: [Rdna; 3] = [Rdna::Gfx11, Rdna::Gfx12, Rdna::Gfx1250];

    /// The generation's short name, as in the catalogue names.
    ///
    /// ```
    /// assert_eq!(cktile_core::distribution::catalogue::wmma::Rdna::Gfx1250.name(), "gfx1250");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Rdna::Gfx11 => "gfx11",
            Rdna::Gfx12 => "gfx12",
            Rdna::Gfx1250 => "gfx1250",
        }
    }

    /// The K of each 16x16xK WMMA CK's warp GEMM has on the generation
    /// (`WmmaTraits<arch, ..., 16, 16, K>`): 16 on gfx11 and gfx12; on
    /// gfx1250, 32 (16-bit inputs) and 64 (8-bit inputs).
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::wmma::Rdna;
    /// assert_eq!(Rdna::Gfx11.ks(), &[16]);
    /// assert_eq!(Rdna::Gfx1250.ks(), &[32, 64]);
    /// ```
    pub const fn ks(self) -> &'static [usize] {
        match self {
            Rdna::Gfx11 | Rdna::Gfx12 => &[16],
            Rdna::Gfx1250 => &[32, 64],
        }
    }

    /// What [`ks`](Rdna::ks) says, in words, for an error.
    const fn k_requirement(self) -> &'static str {
        match self {
            Rdna::Gfx11 => "gfx11's WMMA has K = 16",
            Rdna::Gfx12 => "gfx12's WMMA has K = 16",
            Rdna::Gfx1250 => "gfx1250's WMMA has K = 32 (16-bit inputs) or 64 (8-bit inputs)",
        }
    }
}

/// CK's `WmmaTraitsBase` numbers for a 16x16xK WMMA (M = N = 16, one
/// block each way).
struct Traits {
    /// `kRepeat`: copies of A and B across the wave.
    repeat: usize,
    /// `kAK0PerLane`: blocks of consecutive K values per lane.
    k0_per_lane: usize,
    /// `kABKLane`: lane groups along K.
    k_lane: usize,
    /// `kAK1PerLane`: consecutive K values per block.
    k1_per_lane: usize,
    /// `kCM0PerLane`.
    cm0_per_lane: usize,
    /// `kCM1PerLane`.
    cm1_per_lane: usize,
    /// `kABPs2RHssMajor` and `...Minor`: the lane's components.
    ab_p: (&'static [usize], &'static [usize]),
}

/// A WMMA's M = N: the lanes along M (or N) in each half-wave.
const MN: usize = 16;
/// `kCMLane`: C's lane groups along M.
const CM_LANE: usize = 2;
/// gfx12's `kABKLane` and `kK1PerLane` (`LayoutFromDataType` for 16- and
/// 8-bit inputs): two half-waves along K, 8 consecutive K each.
const GFX12_K_LANE: usize = 2;
const GFX12_K1: usize = 8;

/// The traits of `arch`'s 16x16x`k` WMMA, or an error naming the Ks it has.
const fn traits(arch: Rdna, k: usize) -> Result<Traits, Error> {
    let mut known = false;
    let ks = arch.ks();
    let mut i = 0;
    while i < ks.len() {
        known |= ks[i] == k;
        i += 1;
    }
    if !known {
        return Err(Error::parameter(ParameterProblem::invalid_usize("wmma", "K", k, arch.k_requirement())));
    }
    Ok(match arch {
        Rdna::Gfx11 => Traits {
            repeat: 2,
            k0_per_lane: 1,
            k_lane: 1,
            k1_per_lane: k,
            cm0_per_lane: 8,
            cm1_per_lane: 1,
            ab_p: (&[0, 2, 1], &[0, 1, 1]),
        },
        Rdna::Gfx12 | Rdna::Gfx1250 => Traits {
            repeat: 1,
            k0_per_lane: k / (GFX12_K_LANE * GFX12_K1),
            k_lane: GFX12_K_LANE,
            k1_per_lane: GFX12_K1,
            cm0_per_lane: 1,
            cm1_per_lane: 8,
            ab_p: (&[2, 1], &[1, 1]),
        },
    })
}

/// The traits' C numbers, which do not depend on K: those of the
/// generation's smallest K.
const fn c_traits(arch: Rdna) -> Result<Traits, Error> {
    traits(arch, arch.ks()[0])
}

/// The A or B encoding (`AWarpDstrEncodingTrait` with single access).
const fn ab(arch: Rdna, k: usize) -> Result<Encoding, Error> {
    let t = match traits(arch, k) {
        Ok(t) => t,
        Err(e) => return Err(e),
    };
    let k: &[usize] = &[t.k0_per_lane, t.k_lane, t.k1_per_lane];
    Encoding::new(&[t.repeat], &[&[1, MN], k], &[t.ab_p.0], &[t.ab_p.1], &[1, 2, 2], &[0, 0, 2])
}

/// CK's `AWarpDstrEncoding` of the 16x16x`k` WMMA on `arch`: X = (M, K);
/// an error when CK has no such instruction ([`Rdna::ks`]).
///
/// ```
/// use cktile_core::distribution::{Distribution, catalogue::wmma::{self, Rdna}};
/// let a = Distribution::new(wmma::wmma_a(Rdna::Gfx12, 16)?)?;
/// // Lane 21, register 6: row 5, K = 8 + 6.
/// assert_eq!(a.calculate_index(&[21, 0, 0, 6])?.as_slice(), &[5, 14]);
/// // gfx1250's 16x16x64: lane 3, register 3 * 8 + 2: row 3, K = 16 * 3 + 2.
/// let a = Distribution::new(wmma::wmma_a(Rdna::Gfx1250, 64)?)?;
/// assert_eq!(a.calculate_index(&[3, 0, 3, 2])?.as_slice(), &[3, 50]);
/// assert!(wmma::wmma_a(Rdna::Gfx1250, 16).is_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub const fn wmma_a(arch: Rdna, k: usize) -> Result<Encoding, Error> {
    ab(arch, k)
}

/// CK's `BWarpDstrEncoding`: X = (N, K), the same map as A's.
///
/// ```
/// use cktile_core::distribution::catalogue::wmma::{self, Rdna};
/// assert_eq!(wmma::wmma_b(Rdna::Gfx11, 16)?, wmma::wmma_a(Rdna::Gfx11, 16)?);
/// assert_eq!(wmma::wmma_b(Rdna::Gfx1250, 32)?, wmma::wmma_a(Rdna::Gfx1250, 32)?);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub const fn wmma_b(arch: Rdna, k: usize) -> Result<Encoding, Error> {
    ab(arch, k)
}

/// The distribution gfx1250's transposing load reads B with, over a K x N
/// tile (X = (K, N), N contiguous in memory): lane `l`, Y = (instruction,
/// element) reads 8 consecutive N at one K, and the exchange of
/// `ds_load_tr16_b128` (K = 32) or `ds_load_tr8_b64` (K = 64) leaves every
/// lane holding [`wmma_b`]'s registers, instruction `p` its registers
/// `8p..8p + 8`. The same layouts as Triton's gfx1250 lowering reads a
/// non-transposed B with.
///
/// - K = 32: lane `l` reads K = 16 p + 8 (l / 16) + l % 8, N = 8 (l / 8 % 2) + e;
/// - K = 64: lane `l` reads K = 16 p + 8 (l / 16) + 4 (l / 8 % 2) + l % 4,
///   N = 8 (l / 4 % 2) + e.
///
/// An error for a K gfx1250's WMMA does not have.
///
/// ```
/// use cktile_core::distribution::{Distribution, catalogue::wmma::{self, Rdna}};
/// let b = Distribution::new(wmma::wmma_b_tr(32)?)?;
/// // Lane 27 (K = 8 + 3, N = 8 + e), second instruction: K + 16.
/// assert_eq!(b.calculate_index(&[27, 1, 5])?.as_slice(), &[16 + 8 + 3, 8 + 5]);
/// let b8 = Distribution::new(wmma::wmma_b_tr(64)?)?;
/// assert_eq!(b8.calculate_index(&[6, 0, 0])?.as_slice(), &[2, 8]);
/// assert!(wmma::wmma_b_tr(16).is_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub const fn wmma_b_tr(k: usize) -> Result<Encoding, Error> {
    match k {
        32 => Encoding::new(&[], &[&[2, 2, 8], &[2, 8]], &[&[1, 2, 1]], &[&[1, 0, 2]], &[1, 2], &[0, 1]),
        64 => {
            Encoding::new(&[], &[&[4, 2, 2, 2, 2], &[2, 8]], &[&[1, 1, 2, 1, 1]], &[&[1, 2, 0, 3, 4]], &[1, 2], &[0, 1])
        }
        _ => Err(Error::parameter(ParameterProblem::invalid_usize(
            "wmma_b_tr",
            "K",
            k,
            "gfx1250's transposed B reads have K = 32 (ds_load_tr16_b128) or 64 (ds_load_tr8_b64)",
        ))),
    }
}

/// CK's `CWarpDstrEncoding` (`CWarpDstrEncodingTrait`): X = (M, N). C
/// does not depend on K: gfx1250's is gfx12's.
///
/// ```
/// use cktile_core::distribution::{Distribution, catalogue::wmma::{self, Rdna}};
/// let c = Distribution::new(wmma::wmma_c(Rdna::Gfx11)?)?;
/// // Lane 21, register 3: row 2 * 3 + 1, column 5.
/// assert_eq!(c.calculate_index(&[21, 3, 0])?.as_slice(), &[7, 5]);
/// assert_eq!(wmma::wmma_c(Rdna::Gfx1250)?, wmma::wmma_c(Rdna::Gfx12)?);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub const fn wmma_c(arch: Rdna) -> Result<Encoding, Error> {
    let t = match c_traits(arch) {
        Ok(t) => t,
        Err(e) => return Err(e),
    };
    let m: &[usize] = &[1, t.cm0_per_lane, CM_LANE, t.cm1_per_lane];
    Encoding::new(&[], &[m, &[1, MN]], &[&[1, 2]], &[&[2, 1]], &[1, 1], &[1, 3])
}

/// CK's transposed `CWarpDstrEncoding` (`CTransposedWarpDstrEncodingTrait`,
/// `kTransC`): X = (N, M).
///
/// ```
/// use cktile_core::distribution::{Distribution, catalogue::wmma::{self, Rdna}};
/// let c = Distribution::new(wmma::wmma_c(Rdna::Gfx12)?)?;
/// let t = Distribution::new(wmma::wmma_c_transposed(Rdna::Gfx12)?)?;
/// let x = c.calculate_index(&[21, 0, 3])?;
/// assert_eq!(t.calculate_index(&[21, 0, 3])?.as_slice(), &[x.get(1), x.get(0)]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub const fn wmma_c_transposed(arch: Rdna) -> Result<Encoding, Error> {
    let t = match c_traits(arch) {
        Ok(t) => t,
        Err(e) => return Err(e),
    };
    let m: &[usize] = &[1, t.cm0_per_lane, CM_LANE, t.cm1_per_lane];
    Encoding::new(&[], &[&[1, MN], m], &[&[2, 1]], &[&[2, 1]], &[2, 2], &[1, 3])
}

const WMMA_FORM: &str = "wmma16x16x16_{gfx11,gfx12}_X, wmma16x16x32_gfx1250_X or wmma16x16x64_gfx1250_X with X one of \
a, b, c, c_transposed; or wmma16x16x32_gfx1250_b_tr16, wmma16x16x64_gfx1250_b_tr8";

/// `wmma16x16x{K}_{arch}_{operand}`, with a K the arch has ([`Rdna::ks`](self::wmma::Rdna::ks)).
fn read_wmma(name: &str) -> Result<Option<Encoding>, Error> {
    let Some(rest) = name.strip_prefix("wmma16x16x") else { return Ok(None) };
    let malformed = || malformed(WMMA_FORM, name);
    let mut parts = rest.splitn(3, '_');
    let (Some(k), Some(arch), Some(operand)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(malformed());
    };
    let arch = Rdna::ALL.into_iter().find(|a| a.name() == arch).ok_or_else(malformed)?;
    // Digits only, no leading zero: the name as written, not any spelling of the number.
    let digits = !k.is_empty() && !k.starts_with('0') && k.bytes().all(|b| b.is_ascii_digit());
    let k = k.parse::<usize>().ok().filter(|k| digits && arch.ks().contains(k)).ok_or_else(malformed)?;
    match operand {
        "a" => wmma_a(arch, k),
        "b" => wmma_b(arch, k),
        "c" => wmma_c(arch),
        "c_transposed" => wmma_c_transposed(arch),
        "b_tr16" if arch == Rdna::Gfx1250 && k == 32 => wmma_b_tr(k),
        "b_tr8" if arch == Rdna::Gfx1250 && k == 64 => wmma_b_tr(k),
        _ => Err(malformed()),
    }
    .map(Some)
}

/// This family's row of [`FAMILIES`](super::FAMILIES): its names' form,
/// CK's common members and its reader.
pub const FAMILY: NameFamily = NameFamily {
    form: WMMA_FORM,
    names: &[
        "wmma16x16x16_gfx11_{a,b,c,c_transposed}",
        "wmma16x16x16_gfx12_{a,b,c,c_transposed}",
        "wmma16x16x32_gfx1250_{a,b,c,c_transposed}",
        "wmma16x16x64_gfx1250_{a,b,c,c_transposed}",
        "wmma16x16x32_gfx1250_b_tr16",
        "wmma16x16x64_gfx1250_b_tr8",
    ],
    read: read_wmma,
};
