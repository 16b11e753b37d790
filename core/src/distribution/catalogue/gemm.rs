//! The universal GEMM pipeline's block DRAM distribution for A or B
//! (`ck_tile/ops/gemm/pipeline/gemm_universal_pipeline_ag_bg_cr_policy.hpp`,
//! `MakeADramTileDistribution` / `MakeBDramTileDistribution`):
//! [`gemm_dram`], and its names `gemm_dram_{BLOCK}x{MN}x{K}_k{K1}`.

use super::mfma::WAVE;
use super::{NameFamily, malformed};
use crate::distribution::Encoding;
use crate::error::{Error, ParameterProblem};

/// The universal GEMM pipeline's A (or B) DRAM distribution for a block
/// tile of `mn_per_block x k_per_block` read by `block_size` threads, where
/// `k1` is the warp GEMM's K (CK's `WarpGemm::kK`, the per-thread vector):
/// X = (M, K), M = (M0, M1 = warps, M2 = 64 / K0), K = (K0 = K / K1, K1);
/// P = (warp, lane = (M2, K0)), Y = (M0, K1).
///
/// ```
/// use cktile_core::distribution::{catalogue, Distribution};
/// let a = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8)?)?;
/// assert_eq!((a.p_lengths().as_slice(), a.y_lengths().as_slice()), (&[4, 64][..], &[2, 8][..]));
/// // warp 1, lane 9, y = (1, 3): m = 64 * 1 + 16 * 1 + 9 / 4, k = 8 * (9 % 4) + 3.
/// assert_eq!(a.calculate_index(&[1, 9, 1, 3])?.as_slice(), &[82, 11]);
/// assert!(catalogue::gemm_dram(256, 100, 32, 8).is_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn gemm_dram(block_size: usize, mn_per_block: usize, k_per_block: usize, k1: usize) -> Result<Encoding, Error> {
    let layout = "gemm_dram";
    let bad = |parameter, value: usize, requirement| {
        Error::parameter(ParameterProblem::invalid_usize(layout, parameter, value, requirement))
    };
    if k1 == 0 || !k_per_block.is_multiple_of(k1) {
        return Err(bad("K1", k1, "K1 (the warp GEMM's K) must divide the block's K"));
    }
    let k0 = k_per_block / k1;
    if k0 == 0 || !WAVE.is_multiple_of(k0) {
        return Err(bad("K", k_per_block, "K / K1 must divide the wave size 64"));
    }
    let m2 = WAVE / k0;
    if block_size == 0 || !block_size.is_multiple_of(WAVE) {
        return Err(bad("block size", block_size, "the block size must be a multiple of the wave size 64"));
    }
    let m1 = block_size / WAVE;
    if mn_per_block == 0 || !mn_per_block.is_multiple_of(m2 * m1) {
        return Err(bad("M", mn_per_block, "the block's M (or N) must be a multiple of (64 / (K / K1)) * warps"));
    }
    let m0 = mn_per_block / (m2 * m1);
    Encoding::new(&[1], &[&[m0, m1, m2], &[k0, k1]], &[&[1], &[1, 2]], &[&[1], &[2, 0]], &[1, 2], &[0, 1])
}

const GEMM_DRAM_FORM: &str = "gemm_dram_{BLOCK}x{MN}x{K}_k{K1} with whole numbers, e.g. gemm_dram_256x128x32_k8";

/// `gemm_dram_{BLOCK}x{MN}x{K}_k{K1}`: [`gemm_dram`] with those sizes.
fn read_gemm_dram(name: &str) -> Result<Option<Encoding>, Error> {
    let Some(rest) = name.strip_prefix("gemm_dram_") else { return Ok(None) };
    let malformed = || malformed(GEMM_DRAM_FORM, name);
    let (shape, k1) = rest.split_once("_k").ok_or_else(malformed)?;
    let mut sizes = shape.split('x').map(|s| s.parse::<usize>().ok());
    match (sizes.next(), sizes.next(), sizes.next(), sizes.next(), k1.parse::<usize>().ok()) {
        (Some(Some(block)), Some(Some(mn)), Some(Some(k)), None, Some(k1)) => gemm_dram(block, mn, k, k1).map(Some),
        _ => Err(malformed()),
    }
}

/// This family's row of [`FAMILIES`](super::FAMILIES): its names' form,
/// CK's common members and its reader.
pub const FAMILY: NameFamily = NameFamily {
    form: GEMM_DRAM_FORM,
    names: &[
        "gemm_dram_256x128x32_k8",
        "gemm_dram_256x256x32_k8",
        "gemm_dram_256x128x64_k8",
        "gemm_dram_128x128x32_k8",
    ],
    read: read_gemm_dram,
};
