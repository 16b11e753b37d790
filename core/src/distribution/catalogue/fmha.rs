//! CK's fmha pipelines' distributions: the forward pipeline's Q, K and V
//! (`ck_tile/ops/fmha/pipeline/block_fmha_pipeline_qx_ks_vs_custom_policy.hpp`):
//! [`fmha_q_load_once`] (Q in registers as the Q*K warp GEMM's A),
//! [`fmha_k_dram_async`] (K's asynchronous DRAM load), [`fmha_v_dram`] (V's
//! DRAM load, row- or column-major) and [`fmha_v_shuffled`] (the registers a
//! row-major V is shuffled into before its LDS store); the synchronous Q and
//! K DRAM loads use [`gemm_dram`]'s encoding with
//! K1 = 16 bytes of elements. The backward pipeline's LSE and D rows
//! (`ck_tile/ops/fmha/pipeline/block_fmha_bwd_pipeline_default_policy.hpp`,
//! `MakeLSEDDramTileDistribution`): [`fmha_lse_d_dram`].

use super::gemm::gemm_dram;
use super::mfma::{WAVE, lanes};
use crate::distribution::Encoding;
use crate::error::{Error, ParameterProblem};

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
    if m_per_block == 0 || !m_per_block.is_multiple_of(m2 * m1) {
        return Err(bad("M", m_per_block, "the block's M must be a multiple of the MFMA's M times the warps along M"));
    }
    if k_per_block == 0 || !k_per_block.is_multiple_of(k) {
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
    if k_vector == 0 || k_per_block == 0 || !k_per_block.is_multiple_of(k_vector) {
        return Err(bad("K", k_per_block, "the block's K must be a multiple of the vector K (KVector)"));
    }
    let lanes_per_k = k_per_block / k_vector;
    if !WAVE.is_multiple_of(lanes_per_k) {
        return Err(bad("K", k_per_block, "K / KVector (lanes per row) must divide the wave size 64"));
    }
    let lane_groups = WAVE / lanes_per_k;
    if block_size == 0 || !block_size.is_multiple_of(WAVE) {
        return Err(bad("block size", block_size, "the block size must be a multiple of the wave size 64"));
    }
    let warps = block_size / WAVE;
    if n_per_block == 0 || !n_per_block.is_multiple_of(lane_groups * warps) {
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
    if block_size == 0 || !block_size.is_multiple_of(WAVE) {
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
    if !n_per_block.is_multiple_of(n1) || !pixels.is_multiple_of(n1) {
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
    let (k, lanes_first) = if WAVE.is_multiple_of(span) {
        ([warps, WAVE / span, k2, k3], true)
    } else if span % WAVE == 0 && k2 % (span / WAVE) == 0 && warps.is_multiple_of(span / WAVE) {
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
