//! CK Tile's own tile distribution encodings, each built as its CK source
//! builds it (the source is named on each function).
//!
//! - Warp-GEMM MFMA operands, written in [`mfma`](super::mfma) and
//!   re-exported here (`ck_tile/ops/gemm/warp/warp_gemm_attribute_mfma.hpp`,
//!   lane counts from `warp_gemm_attribute_mfma_impl.hpp`): [`mfma_a`]
//!   (its shape for any K per lane: [`mfma_a_per_lane`]), [`mfma_b`], [`mfma_c`], [`mfma_c_transposed`], and the swizzled-B
//!   transposed-C pair [`mfma_b_swizzled`], [`mfma_c_swizzled`]. fp16 and
//!   bf16 share their encodings; the fp8 32x32x16 MFMA has those of the
//!   32x32x16 (two 32x32x8) family.
//! - The universal GEMM pipeline's block DRAM distribution for A or B
//!   (`ck_tile/ops/gemm/pipeline/gemm_universal_pipeline_ag_bg_cr_policy.hpp`,
//!   `MakeADramTileDistribution` / `MakeBDramTileDistribution`): [`gemm_dram`].
//!
//! - The fmha forward pipeline's Q and K distributions
//!   (`ck_tile/ops/fmha/pipeline/block_fmha_pipeline_qx_ks_vs_custom_policy.hpp`):
//!   [`fmha_q_load_once`] (Q in registers as the Q*K warp GEMM's A) and
//!   [`fmha_k_dram_async`] (K's asynchronous DRAM load). The synchronous Q
//!   and K DRAM loads use [`gemm_dram`]'s encoding with K1 = 16 bytes of
//!   elements. V: [`fmha_v_dram`] (its DRAM load, row- or column-major) and
//!   [`fmha_v_shuffled`] (the registers a row-major V is shuffled into
//!   before its LDS store).
//! - The fmha backward pipeline's LSE and D rows
//!   (`ck_tile/ops/fmha/pipeline/block_fmha_bwd_pipeline_default_policy.hpp`,
//!   `MakeLSEDDramTileDistribution`): [`fmha_lse_d_dram`].
//!
//! [`by_name`] looks the warp-GEMM ones up by a short name.
//!
//! ```
//! use cktile_core::distribution::{catalogue, Distribution};
//! let c = Distribution::new(catalogue::mfma_c(16, 16)?)?;
//! // 16x16 C: lane l, register i hold C(4 * (l / 16) + i, l % 16).
//! assert_eq!(c.calculate_index(&[37, 0, 3])?.as_slice(), &[11, 5]);
//! # Ok::<(), cktile_core::Error>(())
//! ```

use super::Encoding;
use super::mfma::{WAVE, lanes};
use crate::error::{Error, ParameterProblem, Snippet, SpecProblem};

pub use super::mfma::{mfma_a, mfma_a_per_lane, mfma_b, mfma_b_swizzled, mfma_c, mfma_c_swizzled, mfma_c_transposed};

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
    if k1 == 0 || k_per_block % k1 != 0 {
        return Err(bad("K1", k1, "K1 (the warp GEMM's K) must divide the block's K"));
    }
    let k0 = k_per_block / k1;
    if k0 == 0 || WAVE % k0 != 0 {
        return Err(bad("K", k_per_block, "K / K1 must divide the wave size 64"));
    }
    let m2 = WAVE / k0;
    if block_size == 0 || block_size % WAVE != 0 {
        return Err(bad("block size", block_size, "the block size must be a multiple of the wave size 64"));
    }
    let m1 = block_size / WAVE;
    if mn_per_block == 0 || mn_per_block % (m2 * m1) != 0 {
        return Err(bad("M", mn_per_block, "the block's M (or N) must be a multiple of (64 / (K / K1)) * warps"));
    }
    let m0 = mn_per_block / (m2 * m1);
    Encoding::new(&[1], &[&[m0, m1, m2], &[k0, k1]], &[&[1], &[1, 2]], &[&[1], &[2, 0]], &[1, 2], &[0, 1])
}

/// CK's fmha forward Q distribution when Q is loaded once into registers
/// (`BlockFmhaPipelineQXCustomPolicy<true>::MakeQDramTileDistribution`,
/// `ck_tile/ops/fmha/pipeline/block_fmha_pipeline_qx_ks_vs_custom_policy.hpp`):
/// the `m_per_block x k_per_block` Q tile laid out as the Q*K warp GEMM's A
/// operand, for the MFMA `mdim x mdim x k` and `m_warps` warps along M.
/// X = (M, K), M = (M0, M1 = `m_warps`, M2 = `kAMLane`), K = (K0, K1 =
/// `kABKLane`, K2 = `kK / kABKLane`); P = (warp = M1, lane = (K1, M2));
/// Y = (M0, K0, K2).
///
/// ```
/// use cktile_core::distribution::{catalogue, Distribution};
/// // fp16, 128 x 64 Q block, 4 warps, the 16x16x16 warp GEMM.
/// let q = Distribution::new(catalogue::fmha_q_load_once(128, 64, 4, 16, 16)?)?;
/// assert_eq!((q.p_lengths().as_slice(), q.y_lengths().as_slice()), (&[4, 64][..], &[2, 4, 4][..]));
/// // warp 2, lane 37, y = (1, 3, 2): m = 64 + 16 * 2 + 37 % 16, k = 16 * 3 + 4 * (37 / 16) + 2.
/// assert_eq!(q.calculate_index(&[2, 37, 1, 3, 2])?.as_slice(), &[101, 58]);
/// assert!(catalogue::fmha_q_load_once(100, 64, 4, 16, 16).is_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn fmha_q_load_once(
    m_per_block: usize,
    k_per_block: usize,
    m_warps: usize,
    mdim: usize,
    k: usize,
) -> Result<Encoding, Error> {
    let layout = "fmha_q_load_once";
    let l = lanes(layout, mdim, k)?;
    let bad = |parameter, value: usize, requirement| {
        Error::parameter(ParameterProblem::invalid_usize(layout, parameter, value, requirement))
    };
    let (m2, m1, k1, k2) = (l.m_lane, m_warps, l.k_lane, k / l.k_lane);
    if m1 == 0 || m1 > WAVE {
        return Err(bad("M warps", m1, "the warps along M must be 1 to 64"));
    }
    if m_per_block == 0 || m_per_block % (m2 * m1) != 0 {
        return Err(bad("M", m_per_block, "the block's M must be a multiple of the MFMA's M times the warps along M"));
    }
    if k_per_block == 0 || k_per_block % k != 0 {
        return Err(bad("K", k_per_block, "the block's K must be a multiple of the warp GEMM's K"));
    }
    let (m0, k0) = (m_per_block / (m2 * m1), k_per_block / k);
    Encoding::new(&[1], &[&[m0, m1, m2], &[k0, k1, k2]], &[&[1], &[2, 1]], &[&[1], &[1, 2]], &[1, 2, 2], &[0, 0, 2])
}

/// CK's fmha forward K DRAM distribution with asynchronous copy
/// (`MakeKDramTileDistribution` with `AsyncCopyK`, same file as
/// [`fmha_q_load_once`]): `block_size` threads load an `n_per_block x
/// k_per_block` K tile, `k_vector` elements per lane (`GetAlignmentK`:
/// 4 bytes, one dword, per lane for the async copy). X = (N, K),
/// N = (N0 = issues, N1 = lane groups, N2 = warps), K = (K0 = lanes per K
/// row, K1 = `k_vector`); P = (warp = N2, lane = (N1, K0)); Y = (N0, K1).
/// The warps interleave: consecutive rows belong to consecutive warps.
///
/// ```
/// use cktile_core::distribution::{catalogue, Distribution};
/// // fp16, 256 threads, a 128 x 32 K tile, 2 elements (4 bytes) per lane.
/// let k = Distribution::new(catalogue::fmha_k_dram_async(256, 128, 32, 2)?)?;
/// assert_eq!((k.p_lengths().as_slice(), k.y_lengths().as_slice()), (&[4, 64][..], &[8, 2][..]));
/// // warp 3, lane 37, y = (5, 1): n = 16 * 5 + 4 * (37 / 16) + 3, k = 2 * (37 % 16) + 1.
/// assert_eq!(k.calculate_index(&[3, 37, 5, 1])?.as_slice(), &[91, 11]);
/// assert!(catalogue::fmha_k_dram_async(256, 128, 256, 2).is_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn fmha_k_dram_async(
    block_size: usize,
    n_per_block: usize,
    k_per_block: usize,
    k_vector: usize,
) -> Result<Encoding, Error> {
    let layout = "fmha_k_dram_async";
    let bad = |parameter, value: usize, requirement| {
        Error::parameter(ParameterProblem::invalid_usize(layout, parameter, value, requirement))
    };
    if k_vector == 0 || k_per_block == 0 || k_per_block % k_vector != 0 {
        return Err(bad("K", k_per_block, "the block's K must be a multiple of the vector K (KVector)"));
    }
    let lanes_per_k = k_per_block / k_vector;
    if WAVE % lanes_per_k != 0 {
        return Err(bad("K", k_per_block, "K / KVector (lanes per row) must divide the wave size 64"));
    }
    let lane_groups = WAVE / lanes_per_k;
    if block_size == 0 || block_size % WAVE != 0 {
        return Err(bad("block size", block_size, "the block size must be a multiple of the wave size 64"));
    }
    let warps = block_size / WAVE;
    if n_per_block == 0 || n_per_block % (lane_groups * warps) != 0 {
        return Err(bad("N", n_per_block, "the block's N must be a multiple of (64 / (K / KVector)) * warps"));
    }
    let issues = n_per_block / (lane_groups * warps);
    Encoding::new(
        &[1],
        &[&[issues, lane_groups, warps], &[lanes_per_k, k_vector]],
        &[&[1], &[1, 2]],
        &[&[2], &[1, 0]],
        &[1, 2],
        &[0, 1],
    )
}

/// How V is stored: CK's `VLayout` of the fmha forward pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VLayout {
    /// `RowMajor`: seqlen x hdim, the head dimension N contiguous.
    RowMajor,
    /// `ColumnMajor`: hdim x seqlen, the sequence dimension K contiguous.
    ColumnMajor,
}

/// CK's row-major V split (`MakeVDramTileDistribution` and
/// `MakeShuffledVRegBlockDescriptor` compute it alike): N = (N0, N1) with
/// N1 = `GetAlignmentV` (4 elements when a thread holds more than 4 of the
/// tile, else 2), K = (K0, K1, K2, K3) with K3 = elements per thread / N1
/// and K2 = KPack / K3 (KPack = 16 bytes of elements). In the first form
/// (`lanes_first`) K2 x N0 divides the wave and K = (warps, 64 / (K2 N0),
/// K2, K3); in the second, K2 x N0 spans K1 = K2 N0 / 64 warps and
/// K = (warps / K1, K1, K2 / K1, K3).
struct VSplit {
    n: [usize; 2],
    k: [usize; 4],
    lanes_first: bool,
}

/// Elements in 16 bytes (CK's KPack and `GetAlignmentV` for V), refused for
/// an element size that does not divide 16.
fn per_16_bytes(element_bytes: usize, layout: &'static str, requirement: &'static str) -> Result<usize, Error> {
    if matches!(element_bytes, 1 | 2 | 4 | 8 | 16) {
        Ok(16 / element_bytes)
    } else {
        let value = element_bytes as i64;
        Err(Error::parameter(ParameterProblem::Invalid {
            context: layout,
            parameter: "element bytes",
            value,
            requirement,
        }))
    }
}

fn v_row_major(
    block_size: usize,
    n_per_block: usize,
    k_per_block: usize,
    element_bytes: usize,
    layout: &'static str,
) -> Result<VSplit, Error> {
    let bad = |parameter, value: usize, requirement| {
        Error::parameter(ParameterProblem::invalid_usize(layout, parameter, value, requirement))
    };
    let kpack = per_16_bytes(element_bytes, layout, "an element of 1, 2, 4, 8 or 16 bytes (KPack = 16 bytes)")?;
    if block_size == 0 || block_size % WAVE != 0 {
        return Err(bad("block size", block_size, "the block size must be a multiple of the wave size 64"));
    }
    let tile = n_per_block.checked_mul(k_per_block).filter(|&t| t > 0 && t % block_size == 0);
    let Some(tile) = tile else {
        return Err(bad(
            "N x K",
            n_per_block.saturating_mul(k_per_block),
            "the V tile must split evenly over the block's threads",
        ));
    };
    let pixels = tile / block_size;
    let n1 = if pixels > 4 { 4 } else { 2 };
    if n_per_block % n1 != 0 || pixels % n1 != 0 {
        return Err(bad(
            "N",
            n_per_block,
            "N and the elements per thread must be multiples of GetAlignmentV (4, or 2 for at most 4 elements per thread)",
        ));
    }
    let (n0, k3) = (n_per_block / n1, pixels / n1);
    if kpack % k3 != 0 {
        return Err(bad(
            "K",
            k_per_block,
            "the elements per thread along K (elements per thread / GetAlignmentV) must divide KPack (16 bytes)",
        ));
    }
    let k2 = kpack / k3;
    let warps = block_size / WAVE;
    let span = k2 * n0;
    let (k, lanes_first) = if WAVE % span == 0 {
        ([warps, WAVE / span, k2, k3], true)
    } else if span % WAVE == 0 && k2 % (span / WAVE) == 0 && warps % (span / WAVE) == 0 {
        let k1 = span / WAVE;
        ([warps / k1, k1, k2 / k1, k3], false)
    } else {
        return Err(bad(
            "N",
            n_per_block,
            "N / GetAlignmentV times KPack / K3 must divide the wave size 64, or be a multiple of it that splits the warps",
        ));
    };
    if k.iter().product::<usize>() != k_per_block {
        return Err(bad(
            "K",
            k_per_block,
            "the block's K must equal K0 * K1 * K2 * K3 of CK's V split (static_assert in MakeVDramTileDistribution)",
        ));
    }
    Ok(VSplit { n: [n0, n1], k, lanes_first })
}

/// CK's fmha forward V DRAM distribution (`MakeVDramTileDistribution` in
/// `block_fmha_pipeline_qx_ks_vs_custom_policy.hpp`): `block_size` threads
/// load the `n_per_block x k_per_block` V tile of the second GEMM (N = the
/// head dimension, kN1; K = the sequence, kK1) of `element_bytes`-byte
/// elements. X = (N, K).
///
/// - Row-major V (N contiguous): N = (N0, N1 = `GetAlignmentV`), K = (K0,
///   K1, K2, K3) with K3 = elements per thread / N1, K2 = KPack / K3
///   (KPack = 16 bytes of elements); each thread loads N1 consecutive N for
///   K3 consecutive K. P = (warp, lane) over (K0, (K1, N0, K2)), or over
///   ((K0, K1), (N0, K2)) when K2 x N0 exceeds a wave; Y = (K3, N1).
/// - Column-major V (K contiguous): [`gemm_dram`]'s encoding with the
///   vector K1 = `GetAlignmentV` = 16 bytes of elements.
///
/// ```
/// use cktile_core::distribution::{catalogue::{self, VLayout}, Distribution};
/// // fp16, 256 threads, a 128 (hdim) x 32 (seqlen) V tile, row-major.
/// let v = Distribution::new(catalogue::fmha_v_dram(256, 128, 32, 2, VLayout::RowMajor)?)?;
/// assert_eq!((v.p_lengths().as_slice(), v.y_lengths().as_slice()), (&[4, 64][..], &[4, 4][..]));
/// // warp 1, lane 37, y = (3, 2): n = 4 * (37 / 2 % 32) + 2, k = 8 * 1 + 4 * (37 % 2) + 3.
/// assert_eq!(v.calculate_index(&[1, 37, 3, 2])?.as_slice(), &[74, 15]);
/// assert!(catalogue::fmha_v_dram(256, 128, 48, 2, VLayout::RowMajor).is_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn fmha_v_dram(
    block_size: usize,
    n_per_block: usize,
    k_per_block: usize,
    element_bytes: usize,
    v_layout: VLayout,
) -> Result<Encoding, Error> {
    if v_layout == VLayout::ColumnMajor {
        let vector = per_16_bytes(
            element_bytes,
            "fmha_v_dram",
            "an element of 1, 2, 4, 8 or 16 bytes (GetAlignmentV = 16 bytes)",
        )?;
        return gemm_dram(block_size, n_per_block, k_per_block, vector);
    }
    let s = v_row_major(block_size, n_per_block, k_per_block, element_bytes, "fmha_v_dram")?;
    let ([n0, n1], [k0, k1, k2, k3]) = (s.n, s.k);
    if s.lanes_first {
        Encoding::new(&[1], &[&[n0, n1], &[k0, k1, k2, k3]], &[&[2], &[2, 1, 2]], &[&[0], &[1, 0, 2]], &[2, 1], &[3, 1])
    } else {
        Encoding::new(&[1], &[&[n0, n1], &[k0, k1, k2, k3]], &[&[2, 2], &[1, 2]], &[&[0, 1], &[0, 2]], &[2, 1], &[3, 1])
    }
}

/// The registers a row-major V tile is shuffled into before CK stores it
/// to LDS (`MakeShuffledVRegBlockDescriptor`, same file as [`fmha_v_dram`]):
/// the same threads own the same elements as in [`fmha_v_dram`], but each
/// thread's buffer runs along K first (Y = (N1, K3)), so a KPack-long run of
/// K lands in consecutive registers.
///
/// ```
/// use cktile_core::distribution::{catalogue::{self, VLayout}, Distribution};
/// let dram = Distribution::new(catalogue::fmha_v_dram(256, 128, 32, 2, VLayout::RowMajor)?)?;
/// let regs = Distribution::new(catalogue::fmha_v_shuffled(256, 128, 32, 2)?)?;
/// // Thread (1, 37) holds the same element at y = (3, 2) there and (2, 3) here.
/// assert_eq!(regs.calculate_index(&[1, 37, 2, 3])?, dram.calculate_index(&[1, 37, 3, 2])?);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn fmha_v_shuffled(
    block_size: usize,
    n_per_block: usize,
    k_per_block: usize,
    element_bytes: usize,
) -> Result<Encoding, Error> {
    let s = v_row_major(block_size, n_per_block, k_per_block, element_bytes, "fmha_v_shuffled")?;
    let ([n0, n1], [k0, k1, k2, k3]) = (s.n, s.k);
    if s.lanes_first {
        Encoding::new(&[1], &[&[n0, n1], &[k0, k1, k2, k3]], &[&[2], &[2, 1, 2]], &[&[0], &[1, 0, 2]], &[1, 2], &[1, 3])
    } else {
        Encoding::new(&[1], &[&[n0, n1], &[k0, k1, k2, k3]], &[&[2, 2], &[1, 2]], &[&[0, 1], &[0, 2]], &[1, 2], &[1, 3])
    }
}

/// CK's fmha backward LSE / D row distribution
/// (`MakeLSEDDramTileDistribution` in
/// `block_fmha_bwd_pipeline_default_policy.hpp`): the `m_per_block` values
/// of LSE (or D) of a block whose first GEMM has `m_warps x n_warps` warps.
/// X = (M), M = (M0 = `m_warps`, M1, M2): when a wave is longer than the
/// block's M, M1 = M and N1 = 64 / M lanes hold copies (an R component),
/// otherwise M1 = 64 and M2 = M / 64 values per lane; the `n_warps` warps
/// along N hold copies too. P = (warp = (N warp, M warp), lane = (N1, M1)),
/// Y = (M2). X's length is `m_warps x m_per_block`, as CK's encoding has it.
///
/// ```
/// use cktile_core::distribution::{catalogue, Distribution};
/// let d = Distribution::new(catalogue::fmha_lse_d_dram(16, 1, 4)?)?;
/// assert_eq!((d.x_lengths().as_slice(), d.p_lengths().as_slice()), (&[16][..], &[4, 64][..]));
/// // 4 lanes (and every N warp) hold each of the 16 rows: lane l holds row l % 16.
/// assert_eq!(d.calculate_index(&[3, 37, 0])?.as_slice(), &[5]);
/// assert!(catalogue::fmha_lse_d_dram(48, 1, 4).is_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn fmha_lse_d_dram(m_per_block: usize, m_warps: usize, n_warps: usize) -> Result<Encoding, Error> {
    let bad = |parameter, value: usize, requirement| {
        Error::parameter(ParameterProblem::invalid_usize("fmha_lse_d_dram", parameter, value, requirement))
    };
    if m_warps == 0 {
        return Err(bad("M warps", m_warps, "at least one warp along M"));
    }
    if n_warps == 0 {
        return Err(bad("N warps", n_warps, "at least one warp along N"));
    }
    let replicated = m_per_block > 0 && WAVE / m_per_block > 1;
    let (n1, m1, m2) = if replicated { (WAVE / m_per_block, m_per_block, 1) } else { (1, WAVE, m_per_block / WAVE) };
    if m_per_block == 0 || m1 * m2 != m_per_block || n1 * m1 != WAVE {
        return Err(bad("M", m_per_block, "the block's M must divide the wave size 64 or be a multiple of it"));
    }
    Encoding::new(&[n_warps, n1], &[&[m_warps, m1, m2]], &[&[0, 1], &[0, 1]], &[&[0, 0], &[1, 1]], &[1], &[2])
}

/// One family of catalogue names: the form its names take, CK's common
/// members (as [`NAMES`] lists them; `{a,b}` stands for each choice), and
/// its reader.
///
/// ```
/// use cktile_core::distribution::catalogue::FAMILIES;
/// let wmma = FAMILIES.iter().find(|f| f.form.starts_with("wmma")).unwrap();
/// assert!(wmma.read("wmma16x16x16_gfx12_b")?.is_some());
/// assert!(wmma.read("wmma16x16x64_gfx1250_c_transposed")?.is_some());
/// assert!(wmma.read("mfma16x16x16_b")?.is_none(), "another family's name");
/// assert!(wmma.read("wmma16x16x16_gfx10_b").is_err(), "this family's, malformed");
/// assert!(wmma.read("wmma16x16x32_gfx12_a").is_err(), "no such K on gfx12");
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct NameFamily {
    /// The form of the family's names.
    pub form: &'static str,
    /// CK's common members.
    pub names: &'static [&'static str],
    read: fn(&str) -> Result<Option<Encoding>, Error>,
}

impl NameFamily {
    /// The encoding `name` gives: `Ok(None)` when it is not this family's
    /// name, an error naming the form when it is one malformed.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::{self, FAMILIES};
    /// assert_eq!(FAMILIES[0].read("mfma32x32x8_c")?, Some(catalogue::mfma_c(32, 8)?));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn read(&self, name: &str) -> Result<Option<Encoding>, Error> {
        (self.read)(name)
    }
}

/// An error naming `form`, for a malformed member called `name`.
fn malformed(form: &'static str, name: &str) -> Error {
    Error::spec(SpecProblem::UnknownName { name: Snippet::new(name), valid: form })
}

const MFMA_FORM: &str = "mfma16x16x16_X, mfma16x16x32_X, mfma32x32x8_X or mfma32x32x16_X with X one of a, b, c, \
c_transposed; mfma32x32x16_b_swizzled, mfma32x32x16_c_swizzled";
const GEMM_DRAM_FORM: &str = "gemm_dram_{BLOCK}x{MN}x{K}_k{K1} with whole numbers, e.g. gemm_dram_256x128x32_k8";
const WMMA_FORM: &str = "wmma16x16x16_{gfx11,gfx12}_X, wmma16x16x32_gfx1250_X or wmma16x16x64_gfx1250_X with X one of \
a, b, c, c_transposed";

/// Every family of names [`by_name`] reads, in the order it tries them:
/// the one table [`NAMES`] and [`by_name`] derive from.
///
/// ```
/// use cktile_core::distribution::catalogue::{by_name, FAMILIES};
/// // Every listed member is read, by its own family.
/// for family in FAMILIES {
///     for name in family.names.iter().filter(|n| !n.contains('{')) {
///         assert_eq!(family.read(name)?, Some(by_name(name)?));
///     }
/// }
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub const FAMILIES: [NameFamily; 5] = [
    NameFamily {
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
    },
    NameFamily {
        form: GEMM_DRAM_FORM,
        names: &[
            "gemm_dram_256x128x32_k8",
            "gemm_dram_256x256x32_k8",
            "gemm_dram_256x128x64_k8",
            "gemm_dram_128x128x32_k8",
        ],
        read: read_gemm_dram,
    },
    NameFamily {
        form: WMMA_FORM,
        names: &[
            "wmma16x16x16_gfx11_{a,b,c,c_transposed}",
            "wmma16x16x16_gfx12_{a,b,c,c_transposed}",
            "wmma16x16x32_gfx1250_{a,b,c,c_transposed}",
            "wmma16x16x64_gfx1250_{a,b,c,c_transposed}",
        ],
        read: read_wmma,
    },
    NameFamily {
        form: super::pattern::NAME_FORM,
        names: &[
            "warp_raked_256x128x32_v8",
            "thread_raked_256x128x64_v8",
            "block_raked_256x32x64_v16",
            "thread_raked_128x64x128_v8_w32_shuffled",
        ],
        read: super::pattern::by_name,
    },
    NameFamily {
        form: TRANSPOSED_FORM,
        names: &[
            "gemm_b_tr_128x32_w2x2_mfma32x32x8_fp16",
            "gemm_b_tr_128x64_w2x2_mfma16x16x32_fp16",
            "gemm_b_tr_128x64_w2x2_mfma32x32x16_fp8",
        ],
        read: read_transposed,
    },
];

#[cfg(feature = "alloc")]
const TRANSPOSED_FORM: &str = super::transpose::NAME_FORM;
#[cfg(not(feature = "alloc"))]
const TRANSPOSED_FORM: &str =
    "gemm_b_tr_{N}x{K}_w{MWARPS}x{NWARPS}_mfma{M}x{M}x{K}_{fp16,bf16,fp8} (with the alloc feature)";

/// gfx950's transposed-B reads need the `alloc` feature; without it no
/// name is theirs.
fn read_transposed(name: &str) -> Result<Option<Encoding>, Error> {
    #[cfg(feature = "alloc")]
    return super::transpose::by_name(name);
    #[cfg(not(feature = "alloc"))]
    {
        let _ = name;
        Ok(None)
    }
}

/// How many members [`FAMILIES`] list.
const NAME_COUNT: usize = {
    let (mut n, mut i) = (0, 0);
    while i < FAMILIES.len() {
        n += FAMILIES[i].names.len();
        i += 1;
    }
    n
};

/// The members of every family, in order.
const NAME_LIST: [&str; NAME_COUNT] = {
    let mut names = [""; NAME_COUNT];
    let (mut n, mut i) = (0, 0);
    while i < FAMILIES.len() {
        let mut j = 0;
        while j < FAMILIES[i].names.len() {
            names[n] = FAMILIES[i].names[j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    names
};

/// Every name [`by_name`] knows.
///
/// ```
/// assert!(cktile_core::distribution::catalogue::NAMES.contains("mfma32x32x8_{a,b,c,c_transposed}"));
/// ```
pub const NAMES: &str = crate::names::joined!(&NAME_LIST);

/// An encoding by name: a warp GEMM's, `mfma{M}x{M}x{K}_{a,b,c,c_transposed}`
/// for the four MFMA families, `mfma32x32x16_b_swizzled` and
/// `mfma32x32x16_c_swizzled`; or the universal GEMM pipeline's A/B DRAM
/// distribution, `gemm_dram_{BLOCK}x{MN}x{K}_k{K1}` ([`gemm_dram`] with
/// those sizes: [`NAMES`] lists CK's common ones, any it accepts works);
/// RDNA's WMMA operands, `wmma16x16x16_{gfx11,gfx12}_{a,b,c,c_transposed}`
/// and gfx1250's `wmma16x16x{32,64}_gfx1250_{a,b,c,c_transposed}`
/// ([`wmma`](super::wmma)); or one of CK's 2-D access patterns,
/// `{thread,warp,block}_raked_{BLOCK}x{Y}x{X}_v{VEC}` with optional
/// suffixes ([`pattern::by_name`](super::pattern::by_name); [`NAMES`] shows
/// a few, any CK accepts works); or CK's gfx950 transposed-B GEMM read,
/// `gemm_b_tr_{N}x{K}_w{MWARPS}x{NWARPS}_mfma{M}x{M}x{K}_{fp16,bf16,fp8}`
/// (`transpose::by_name`, with the `alloc` feature).
///
/// ```
/// use cktile_core::distribution::catalogue;
/// assert_eq!(catalogue::by_name("mfma32x32x8_c")?, catalogue::mfma_c(32, 8)?);
/// assert_eq!(catalogue::by_name("gemm_dram_256x128x32_k8")?, catalogue::gemm_dram(256, 128, 32, 8)?);
/// assert_eq!(catalogue::by_name("gemm_dram_64x32x16_k4")?, catalogue::gemm_dram(64, 32, 16, 4)?);
/// assert!(catalogue::by_name("mfma8x8x8_a").is_err());
/// // gemm_dram's own refusal, naming the value.
/// assert!(catalogue::by_name("gemm_dram_256x100x32_k8").unwrap_err().to_string().contains("100"));
/// use cktile_core::distribution::wmma::{self, Rdna};
/// assert_eq!(catalogue::by_name("wmma16x16x16_gfx11_c")?, wmma::wmma_c(Rdna::Gfx11)?);
/// assert_eq!(catalogue::by_name("wmma16x16x32_gfx1250_a")?, wmma::wmma_a(Rdna::Gfx1250, 32)?);
/// assert_eq!(catalogue::by_name("block_raked_256x32x64_v16")?.to_string().len() > 0, true);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn by_name(name: &str) -> Result<Encoding, Error> {
    for family in FAMILIES {
        if let Some(encoding) = family.read(name)? {
            return Ok(encoding);
        }
    }
    Err(Error::spec(SpecProblem::UnknownName { name: Snippet::new(name), valid: NAMES }))
}

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

/// `wmma16x16x{K}_{arch}_{operand}`, with a K the arch has ([`Rdna::ks`](super::wmma::Rdna::ks)).
fn read_wmma(name: &str) -> Result<Option<Encoding>, Error> {
    use super::wmma::{Rdna, wmma_a, wmma_b, wmma_c, wmma_c_transposed};
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
        _ => Err(malformed()),
    }
    .map(Some)
}
