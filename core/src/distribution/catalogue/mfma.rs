//! CK Tile's warp-GEMM MFMA operand encodings, the catalogue's MFMA family
//! (`ck_tile/ops/gemm/warp/warp_gemm_attribute_mfma.hpp`, lane counts from
//! `warp_gemm_attribute_mfma_impl.hpp`): [`mfma_a`] (its shape for any K per
//! lane: [`mfma_a_per_lane`]), [`mfma_b`], [`mfma_c`],
//! [`mfma_c_transposed`], and the swizzled-B transposed-C pair
//! [`mfma_b_swizzled`], [`mfma_c_swizzled`]. fp16 and bf16 share their
//! encodings; the fp8 32x32x16 MFMA has those of the 32x32x16 (two
//! 32x32x8) family. The [`catalogue`](crate::distribution::catalogue) re-exports them and
//! reads their names.
//!
//! ```
//! use cktile_core::distribution::{catalogue, catalogue::mfma, Distribution};
//! assert_eq!(catalogue::mfma_b(32, 8)?, mfma::mfma_b(32, 8)?);
//! let c = Distribution::new(mfma::mfma_c(16, 16)?)?;
//! // 16x16 C: lane l, register i hold C(4 * (l / 16) + i, l % 16).
//! assert_eq!(c.calculate_index(&[37, 0, 3])?.as_slice(), &[11, 5]);
//! # Ok::<(), cktile_core::Error>(())
//! ```

use super::{NameFamily, malformed};
use crate::distribution::Encoding;
use crate::error::{Error, ParameterProblem};

/// The lanes of an AMD wave: every MFMA encoding spans 64 of them.
pub(crate) const WAVE: usize = 64;

/// CK's `WarpGemmAttributeMfmaImpl*` lane counts of an MFMA family.
pub(crate) struct Lanes {
    /// `kAMLane` = `kBNLane` = `kCNLane`: the MFMA's M (= N).
    pub(crate) m_lane: usize,
    /// `kABKLane`: lane groups along K.
    pub(crate) k_lane: usize,
    /// `kABKPerLane` (times CK's `kKIter`): consecutive K values per lane.
    pub(crate) k_per_lane: usize,
    /// `kCMLane`.
    pub(crate) cm_lane: usize,
    /// `kCM0PerLane`.
    pub(crate) cm0_per_lane: usize,
    /// `kCM1PerLane`.
    pub(crate) cm1_per_lane: usize,
}

/// The lane counts of the MFMA `m x m x k`: 16x16x16 and 32x32x8 as CK's
/// `WarpGemmAttributeMfmaImplF16F16F32M16N16K16` / `...M32N32K8`, and
/// 16x16x32, 32x32x16 as those with `kKIter = 2`.
pub(crate) fn lanes(layout: &'static str, m: usize, k: usize) -> Result<Lanes, Error> {
    let requirement = "the MFMA families are 16x16x16, 16x16x32, 32x32x8 and 32x32x16";
    match (m, k) {
        (16, 16 | 32) | (32, 8 | 16) => Ok(Lanes {
            m_lane: m,
            k_lane: WAVE / m,
            k_per_lane: k * m / WAVE,
            cm_lane: WAVE / m,
            cm0_per_lane: m * m / WAVE / 4,
            cm1_per_lane: 4,
        }),
        (16 | 32, _) => Err(Error::parameter(ParameterProblem::invalid_usize(layout, "K", k, requirement))),
        _ => Err(Error::parameter(ParameterProblem::invalid_usize(layout, "M", m, requirement))),
    }
}

/// CK's `AWarpDstrEncoding` of the MFMA `m x m x k` (`WarpGemmAtrributeMfma`,
/// or `...IterateK` with `kKIter = 2` for K 32 / 16): X = (M, K); the lane
/// merges (K lane group, M); Y walks `kABKPerLane` consecutive K values.
///
/// ```
/// use cktile_core::distribution::{catalogue, Distribution};
/// let a = Distribution::new(catalogue::mfma_a(32, 16)?)?;
/// assert_eq!(a.calculate_index(&[40, 7])?.as_slice(), &[8, 15]); // m = l % 32, k = 8 * (l / 32) + v
/// assert!(catalogue::mfma_a(32, 32).is_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn mfma_a(m: usize, k: usize) -> Result<Encoding, Error> {
    let l = lanes("mfma_a", m, k)?;
    mfma_a_per_lane(l.m_lane, l.k_per_lane)
}

/// The shape of CK's `AWarpDstrEncoding` for an `m`-lane MFMA whose lanes
/// each hold `k_per_lane` consecutive K values (`kABKPerLane * kKIter`):
/// X = (M = `m`, K = (64 / `m`, `k_per_lane`)); the lane merges (K lane
/// group, M); one Y walks the lane's K values. [`mfma_a`] is this with the
/// families' K per lane; the analyzer's `mfma16` / `mfma32` patterns use it
/// with the read instruction's width, whatever the element type.
///
/// ```
/// use cktile_core::distribution::{catalogue, Distribution};
/// assert_eq!(catalogue::mfma_a_per_lane(16, 8)?, catalogue::mfma_a(16, 32)?);
/// // fp8 read with ds_read_b128: 16 K values per lane.
/// let a = Distribution::new(catalogue::mfma_a_per_lane(32, 16)?)?;
/// assert_eq!(a.calculate_index(&[33, 15])?.as_slice(), &[1, 31]);
/// assert!(catalogue::mfma_a_per_lane(8, 4).is_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn mfma_a_per_lane(m: usize, k_per_lane: usize) -> Result<Encoding, Error> {
    if m != 16 && m != 32 {
        return Err(Error::parameter(ParameterProblem::invalid_usize(
            "mfma_a_per_lane",
            "M",
            m,
            "the MFMA's M is 16 or 32",
        )));
    }
    Encoding::new(&[], &[&[m], &[WAVE / m, k_per_lane]], &[&[2, 1]], &[&[0, 0]], &[2], &[1])
}

/// CK's `BWarpDstrEncoding` of the MFMA `n x n x k`: X = (N, K), the same
/// shape as [`mfma_a`] (`kBNLane` = `kAMLane`).
///
/// ```
/// use cktile_core::distribution::catalogue;
/// assert_eq!(catalogue::mfma_b(16, 16)?, catalogue::mfma_a(16, 16)?);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn mfma_b(n: usize, k: usize) -> Result<Encoding, Error> {
    let l = lanes("mfma_b", n, k)?;
    Encoding::new(&[], &[&[l.m_lane], &[l.k_lane, l.k_per_lane]], &[&[2, 1]], &[&[0, 0]], &[2], &[1])
}

/// CK's `CWarpDstrEncoding` of the MFMA `m x m x k` (the accumulator; it
/// does not depend on K): X = (M, N), M split into
/// (`kCM0PerLane`, `kCMLane`, `kCM1PerLane`); the lane merges (M lane group,
/// N); Y walks the two per-lane M parts.
///
/// ```
/// use cktile_core::distribution::{catalogue, Distribution};
/// let c = Distribution::new(catalogue::mfma_c(32, 8)?)?;
/// assert_eq!(c.y_lengths().as_slice(), &[4, 4]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn mfma_c(m: usize, k: usize) -> Result<Encoding, Error> {
    let l = lanes("mfma_c", m, k)?;
    Encoding::new(
        &[],
        &[&[l.cm0_per_lane, l.cm_lane, l.cm1_per_lane], &[l.m_lane]],
        &[&[1, 2]],
        &[&[1, 0]],
        &[1, 1],
        &[0, 2],
    )
}

/// CK's `CWarpDstrEncoding` of `WarpGemmAtrributeMfmaTransposedCDistribution`
/// (and its `IterateK` form): the accumulator stored transposed, X = (N, M).
///
/// ```
/// use cktile_core::distribution::{catalogue, Distribution};
/// let c = Distribution::new(catalogue::mfma_c(32, 8)?)?;
/// let t = Distribution::new(catalogue::mfma_c_transposed(32, 8)?)?;
/// let (x, y) = (c.calculate_index(&[40, 1, 2])?, t.calculate_index(&[40, 1, 2])?);
/// assert_eq!((x.get(0), x.get(1)), (y.get(1), y.get(0)));
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn mfma_c_transposed(m: usize, k: usize) -> Result<Encoding, Error> {
    let l = lanes("mfma_c_transposed", m, k)?;
    Encoding::new(
        &[],
        &[&[l.m_lane], &[l.cm0_per_lane, l.cm_lane, l.cm1_per_lane]],
        &[&[2, 1]],
        &[&[1, 0]],
        &[2, 2],
        &[0, 2],
    )
}

/// The swizzle factor CK's `...TransposedCDistribution_SwizzleB` uses by default.
const SWIZZLE_FACTOR: usize = 2;

/// CK's `BWarpDstrEncoding` of
/// `WarpGemmAtrributeMfmaIterateKAndTransposedCDistribution_SwizzleB` on the
/// 32x32x8 MFMA with `kKIter = 2` and `SFactor = 2` (`WarpGemmMfmaF16F16F32M32N32K16SwizzleBTransposedCDistribution`):
/// X = (N, K) with N split into (2, `kCMLane`, `SFactor`, `kCM1PerLane`) and
/// the lane merging (K lane group, N0, SFactor, `kCMLane`, `kCM1PerLane`),
/// so the N rows a lane reads follow the transposed C it produces.
///
/// ```
/// use cktile_core::distribution::{catalogue, Distribution};
/// let b = Distribution::new(catalogue::mfma_b_swizzled()?)?;
/// // lane 12 = (k group 0, n0 0, s 1, c 1, d 0): n = 16 * 0 + 8 * 1 + 4 * 1 + 0.
/// assert_eq!(b.calculate_index(&[12, 0])?.as_slice(), &[12, 0]);
/// assert_eq!(b.calculate_index(&[8, 0])?.as_slice(), &[4, 0]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn mfma_b_swizzled() -> Result<Encoding, Error> {
    let l = lanes("mfma_b_swizzled", 32, 8)?;
    let k_iter = 2;
    let n0 = l.m_lane / (l.cm_lane * SWIZZLE_FACTOR * l.cm1_per_lane);
    Encoding::new(
        &[],
        &[&[n0, l.cm_lane, SWIZZLE_FACTOR, l.cm1_per_lane], &[l.k_lane, l.k_per_lane * k_iter]],
        &[&[2, 1, 1, 1, 1]],
        &[&[0, 0, 2, 1, 3]],
        &[2],
        &[1],
    )
}

/// The `CWarpDstrEncoding` that goes with [`mfma_b_swizzled`]: transposed
/// C, X = (N, M), with M split into (`kCM0PerLane / SFactor`, `kCMLane`,
/// `kCM1PerLane * SFactor`).
///
/// ```
/// use cktile_core::distribution::{catalogue, Distribution};
/// let c = Distribution::new(catalogue::mfma_c_swizzled()?)?;
/// assert_eq!(c.y_lengths().as_slice(), &[2, 8]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn mfma_c_swizzled() -> Result<Encoding, Error> {
    let l = lanes("mfma_c_swizzled", 32, 8)?;
    Encoding::new(
        &[],
        &[&[l.m_lane], &[l.cm0_per_lane / SWIZZLE_FACTOR, l.cm_lane, l.cm1_per_lane * SWIZZLE_FACTOR]],
        &[&[2, 1]],
        &[&[1, 0]],
        &[2, 2],
        &[0, 2],
    )
}

const MFMA_FORM: &str = "mfma16x16x16_X, mfma16x16x32_X, mfma32x32x8_X or mfma32x32x16_X with X one of a, b, c, \
c_transposed; mfma32x32x16_b_swizzled, mfma32x32x16_c_swizzled";

/// `mfma{M}x{M}x{K}_{operand}` and the swizzled pair.
fn read_mfma(name: &str) -> Result<Option<Encoding>, Error> {
    let Some(rest) = name.strip_prefix("mfma") else { return Ok(None) };
    let malformed = || malformed(MFMA_FORM, name);
    match name {
        "mfma32x32x16_b_swizzled" => return mfma_b_swizzled().map(Some),
        "mfma32x32x16_c_swizzled" => return mfma_c_swizzled().map(Some),
        _ => {}
    }
    let (shape, operand) = rest.split_once('_').ok_or_else(malformed)?;
    let mut it = shape.split('x').map(|s| s.parse::<usize>().ok());
    let (m, k) = match (it.next(), it.next(), it.next(), it.next()) {
        (Some(Some(m)), Some(Some(n)), Some(Some(k)), None)
            if m == n && matches!((m, k), (16, 16 | 32) | (32, 8 | 16)) =>
        {
            (m, k)
        }
        _ => return Err(malformed()),
    };
    match operand {
        "a" => mfma_a(m, k),
        "b" => mfma_b(m, k),
        "c" => mfma_c(m, k),
        "c_transposed" => mfma_c_transposed(m, k),
        _ => Err(malformed()),
    }
    .map(Some)
}

/// This family's row of [`FAMILIES`](super::FAMILIES): its names' form,
/// CK's common members and its reader.
pub const FAMILY: NameFamily = NameFamily {
    form: MFMA_FORM,
    names: &[
        "mfma16x16x16_{a,b,c,c_transposed}",
        "mfma16x16x32_{a,b,c,c_transposed}",
        "mfma32x32x8_{a,b,c,c_transposed}",
        "mfma32x32x16_{a,b,c,c_transposed}",
        "mfma32x32x16_b_swizzled",
        "mfma32x32x16_c_swizzled",
    ],
    read: read_mfma,
};
