//! CK Tile's warp-GEMM operand distributions for RDNA's WMMA
//! (`ck_tile/ops/gemm/warp/warp_gemm_attribute_wmma.hpp`, lane counts from
//! `warp_gemm_attribute_wmma_impl_base_traits.hpp`): the 16x16x16 WMMA of
//! gfx11 (RDNA3) and gfx12 (RDNA4), wave32, with CK's default single
//! access. The encodings do not depend on the element type: fp16, bf16,
//! int8 and (gfx12) fp8 share them.
//!
//! - **gfx11** needs A and B duplicated across the two half-waves: lane `l`
//!   and lane `l + 16` hold the same 16 K values of row `l % 16`. CK writes
//!   that as an R dimension of length 2 (`kRepeat`), so [`coverage`](super::coverage)
//!   reports each element held twice, over R0. C: lane `l`, register `i`
//!   hold C(2i + l / 16, l % 16).
//! - **gfx12** splits K over the half-waves: lane `l` holds A(l % 16,
//!   8 (l / 16) + j), j < 8. C: lane `l`, register `i` hold C(8 (l / 16) + i, l % 16).
//!
//! ```
//! use cktile::distribution::{Distribution, wmma::{self, Rdna}};
//! let a = Distribution::new(wmma::wmma_a(Rdna::Gfx11)?)?;
//! // Lanes 5 and 21 hold the same row.
//! assert_eq!(a.calculate_index(&[21, 0, 0, 7])?, a.calculate_index(&[5, 0, 0, 7])?);
//! let c = Distribution::new(wmma::wmma_c(Rdna::Gfx12)?)?;
//! assert_eq!(c.calculate_index(&[21, 0, 3])?.as_slice(), &[11, 5]);
//! # Ok::<(), cktile::Error>(())
//! ```

use super::Encoding;
use crate::error::Error;

/// An RDNA generation with WMMA.
///
/// ```
/// use cktile::distribution::wmma::Rdna;
/// assert_eq!(Rdna::Gfx12.name(), "gfx12");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rdna {
    /// RDNA3 (gfx1100 ...): CK's `gfx11_t`.
    Gfx11,
    /// RDNA4 (gfx1200, gfx1201): CK's `gfx12_t`.
    Gfx12,
}

impl Rdna {
    /// Both generations.
    pub const ALL: [Rdna; 2] = [Rdna::Gfx11, Rdna::Gfx12];

    /// The generation's short name, as in the catalogue names.
    ///
    /// ```
    /// assert_eq!(cktile::distribution::wmma::Rdna::Gfx11.name(), "gfx11");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Rdna::Gfx11 => "gfx11",
            Rdna::Gfx12 => "gfx12",
        }
    }
}

/// CK's `WmmaTraitsBase` numbers for a 16x16x16 WMMA with 16-bit or 8-bit
/// inputs (M = N = 16, one block each way).
struct Traits {
    /// `kRepeat`: copies of A and B across the wave.
    repeat: usize,
    /// `kABKLane`: lane groups along K.
    k_lane: usize,
    /// `kAK1PerLane`: consecutive K values per lane (`kAK0PerLane` is 1).
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

const fn traits(arch: Rdna) -> Traits {
    match arch {
        Rdna::Gfx11 => Traits {
            repeat: 2,
            k_lane: 1,
            k1_per_lane: 16,
            cm0_per_lane: 8,
            cm1_per_lane: 1,
            ab_p: (&[0, 2, 1], &[0, 1, 1]),
        },
        Rdna::Gfx12 => {
            Traits { repeat: 1, k_lane: 2, k1_per_lane: 8, cm0_per_lane: 1, cm1_per_lane: 8, ab_p: (&[2, 1], &[1, 1]) }
        }
    }
}

/// The A or B encoding (`AWarpDstrEncodingTrait` with single access).
const fn ab(arch: Rdna) -> Result<Encoding, Error> {
    let t = traits(arch);
    let k: &[usize] = &[1, t.k_lane, t.k1_per_lane];
    Encoding::new(&[t.repeat], &[&[1, MN], k], &[t.ab_p.0], &[t.ab_p.1], &[1, 2, 2], &[0, 0, 2])
}

/// CK's `AWarpDstrEncoding` of the 16x16x16 WMMA on `arch`: X = (M, K).
///
/// ```
/// use cktile::distribution::{Distribution, wmma::{self, Rdna}};
/// let a = Distribution::new(wmma::wmma_a(Rdna::Gfx12)?)?;
/// // Lane 21, register 6: row 5, K = 8 + 6.
/// assert_eq!(a.calculate_index(&[21, 0, 0, 6])?.as_slice(), &[5, 14]);
/// # Ok::<(), cktile::Error>(())
/// ```
pub const fn wmma_a(arch: Rdna) -> Result<Encoding, Error> {
    ab(arch)
}

/// CK's `BWarpDstrEncoding`: X = (N, K), the same map as A's.
///
/// ```
/// use cktile::distribution::wmma::{self, Rdna};
/// assert_eq!(wmma::wmma_b(Rdna::Gfx11)?, wmma::wmma_a(Rdna::Gfx11)?);
/// # Ok::<(), cktile::Error>(())
/// ```
pub const fn wmma_b(arch: Rdna) -> Result<Encoding, Error> {
    ab(arch)
}

/// CK's `CWarpDstrEncoding` (`CWarpDstrEncodingTrait`): X = (M, N).
///
/// ```
/// use cktile::distribution::{Distribution, wmma::{self, Rdna}};
/// let c = Distribution::new(wmma::wmma_c(Rdna::Gfx11)?)?;
/// // Lane 21, register 3: row 2 * 3 + 1, column 5.
/// assert_eq!(c.calculate_index(&[21, 3, 0])?.as_slice(), &[7, 5]);
/// # Ok::<(), cktile::Error>(())
/// ```
pub const fn wmma_c(arch: Rdna) -> Result<Encoding, Error> {
    let t = traits(arch);
    let m: &[usize] = &[1, t.cm0_per_lane, CM_LANE, t.cm1_per_lane];
    Encoding::new(&[], &[m, &[1, MN]], &[&[1, 2]], &[&[2, 1]], &[1, 1], &[1, 3])
}

/// CK's transposed `CWarpDstrEncoding` (`CTransposedWarpDstrEncodingTrait`,
/// `kTransC`): X = (N, M).
///
/// ```
/// use cktile::distribution::{Distribution, wmma::{self, Rdna}};
/// let c = Distribution::new(wmma::wmma_c(Rdna::Gfx12)?)?;
/// let t = Distribution::new(wmma::wmma_c_transposed(Rdna::Gfx12)?)?;
/// let x = c.calculate_index(&[21, 0, 3])?;
/// assert_eq!(t.calculate_index(&[21, 0, 3])?.as_slice(), &[x.get(1), x.get(0)]);
/// # Ok::<(), cktile::Error>(())
/// ```
pub const fn wmma_c_transposed(arch: Rdna) -> Result<Encoding, Error> {
    let t = traits(arch);
    let m: &[usize] = &[1, t.cm0_per_lane, CM_LANE, t.cm1_per_lane];
    Encoding::new(&[], &[&[1, MN], m], &[&[2, 1]], &[&[2, 1]], &[2, 2], &[1, 3])
}
