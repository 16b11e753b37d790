//! Proof kernels of the typed tile distributions and tensor adaptors
//! (issues 15 and 16): two CK tile distributions declared with
//! `tile_distribution_encoding!` and made by `make_static_tile_distribution`
//! (their `ps_ys_to_xs` adaptors are typed general adaptors, transforms
//! wired by hidden ids), mapping a thread's (P, Y) indices to X as a tile
//! window does, next to the lane maps written out by hand; and a staged
//! adaptor with a runtime length (`make_single_stage_tensor_adaptor` then
//! `transform_tensor_adaptor`). Each kernel reads a tile at the X it
//! computes, so the count compares the index arithmetic, not how LLVM
//! folds a sum of indices.

use cktile_core::Index;
use cktile_core::prelude::*;
use cktile_core::typed::{SingleStageAdaptor, TransformedAdaptor};

use cktile_core::Number as N;

/// A tile of 128 x 32 elements (the largest X space below).
pub type Tile = [Index; 4096];

/// The element of the tile at a linear index (masked into the tile, as
/// the X of a valid (P, Y) index is, so no bounds check is compiled).
#[inline(always)]
fn read(tile: &Tile, at: Index) -> Index {
    tile[at as usize & 4095]
}

cktile_core::tile_distribution_encoding! {
    /// CK's warp-GEMM A distribution of the 32x32x8 MFMA (`mfma_a(32, 8)` in
    /// cktile's catalogue): X = (M 32, K 8); the lane merges K's 2 and M's
    /// 32, the register index Y walks K's 4.
    pub struct MfmaA {
        rs_lengths: [],
        hs_lengthss: [[32], [2, 4]],
        ps_to_rhss_major: [[2, 1]],
        ps_to_rhss_minor: [[0, 0]],
        ys_to_rhs_major: [2],
        ys_to_rhs_minor: [1],
    }
}

/// A lane's A element at register `y` of the 32 x 8 tile (row-major),
/// through the typed distribution. One element a call: a loop over the
/// four registers measures LLVM's load merging (amdgcn merges the hand
/// twin's four loads into two and the typed kernel's into three) rather
/// than the index arithmetic.
#[unsafe(no_mangle)]
pub extern "C" fn typed_mfma_a_x(tile: &Tile, tid: u32, y: u32) -> Index {
    let (lane, y) = ((tid & 63) as Index, (y & 3) as Index);
    let [m, k] = make_static_tile_distribution::<MfmaA>().calculate_index([lane, y]);
    read(tile, m * 8 + k)
}

/// Twin of [`typed_mfma_a_x`]: M = lane % 32, K = 4 * (lane / 32) + y.
#[unsafe(no_mangle)]
pub extern "C" fn hand_mfma_a_x(tile: &Tile, tid: u32, y: u32) -> Index {
    let (lane, y) = ((tid & 63) as Index, (y & 3) as Index);
    read(tile, (lane % 32) * 8 + 4 * (lane / 32) + y)
}

/// CK's universal GEMM block DRAM distribution for a 256-thread block, a
/// 128 x 32 tile and K1 = 8 (`gemm_dram(256, 128, 32, 8)`): a replicate,
/// two unmerges, two merges; P = (warp, lane), Y = (2, 8). The GEMM data
/// paths' own (`cktile_checks::gemm`), so both measure one encoding.
pub use cktile_checks::gemm::DramDistribution as GemmDram;

/// A thread's 16 elements of the 128 x 32 block tile, through the typed
/// distribution.
#[unsafe(no_mangle)]
pub extern "C" fn typed_gemm_dram_xs(tile: &Tile, tid: u32) -> Index {
    let (warp, lane) = (((tid >> 6) & 3) as Index, (tid & 63) as Index);
    let d = make_static_tile_distribution::<GemmDram>();
    let mut sum = 0;
    for y0 in 0..2 {
        for y1 in 0..8 {
            let [m, k] = d.calculate_index([warp, lane, y0, y1]);
            sum += read(tile, m * 32 + k);
        }
    }
    sum
}

/// Twin of [`typed_gemm_dram_xs`]: M = 64 y0 + 16 warp + lane / 4,
/// K = 8 (lane % 4) + y1.
#[unsafe(no_mangle)]
pub extern "C" fn hand_gemm_dram_xs(tile: &Tile, tid: u32) -> Index {
    let (warp, lane) = (((tid >> 6) & 3) as Index, (tid & 63) as Index);
    let mut sum = 0;
    for y0 in 0..2 {
        for y1 in 0..8 {
            sum += read(tile, (64 * y0 + 16 * warp + lane / 4) * 32 + 8 * (lane % 4) + y1);
        }
    }
    sum
}

/// A staged adaptor with a runtime length K: (32, K) -> M split (4, 8) and
/// K passed through, then (8, 4) merged back in the other order.
pub type Staged = TensorAdaptor<
    TransformedAdaptor<
        SingleStageAdaptor<
            (N<32>, usize),
            (Unmerge<(N<4>, N<8>)>, PassThrough<usize>),
            ((N<0>,), (N<1>,)),
            ((N<0>, N<1>), (N<2>,)),
        >,
        (Merge<(N<8>, N<4>)>, PassThrough<usize>),
        ((N<1>, N<0>), (N<2>,)),
        ((N<0>,), (N<1>,)),
    >,
>;

/// [`Staged`] for a runtime K (validated in a few compares).
#[inline(always)]
pub fn make_staged(k: usize) -> Result<Staged, Error> {
    let a = make_single_stage_tensor_adaptor(
        (N::<32>, k),
        (make_unmerge_transform((N::<4>, N::<8>)), make_pass_through_transform(k)),
        (ids![0], ids![1]),
        (ids![0, 1], ids![2]),
    )?;
    transform_tensor_adaptor(
        a,
        (make_merge_transform((N::<8>, N::<4>)), make_pass_through_transform(k)),
        (ids![1, 0], ids![2]),
        (ids![0], ids![1]),
    )
}

/// A thread's bottom index in the staged adaptor (built outside), read
/// from a (32, K) row-major tile.
#[unsafe(no_mangle)]
pub extern "C" fn typed_staged_rt(a: &Staged, tile: &Tile, tid: u32) -> Index {
    let [m, k] = a.calculate_bottom_index([(tid & 31) as Index, (tid >> 5) as Index]);
    read(tile, m * a.bottom_lengths()[1] + k)
}

/// Twin of [`typed_staged_rt`]: M = 8 (t0 % 4) + t0 / 4.
#[unsafe(no_mangle)]
pub extern "C" fn hand_staged_rt(k_len: usize, tile: &Tile, tid: u32) -> Index {
    let (t0, t1) = ((tid & 31) as Index, (tid >> 5) as Index);
    read(tile, (8 * (t0 % 4) + t0 / 4) * k_len as Index + t1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every adaptor kernel computes its twin's value for every thread.
    #[test]
    fn typed_adaptor_kernels_equal_their_twins() {
        let mut tile = [0; 4096];
        for (i, x) in tile.iter_mut().enumerate() {
            *x = (i as Index) * 7919 % 65521;
        }
        for tid in 0..256 {
            for y in 0..8 {
                assert_eq!(typed_mfma_a_x(&tile, tid, y), hand_mfma_a_x(&tile, tid, y), "mfma_a {tid} {y}");
            }
            assert_eq!(typed_gemm_dram_xs(&tile, tid), hand_gemm_dram_xs(&tile, tid), "gemm_dram {tid}");
        }
        for k in [1, 8, 100] {
            let a = make_staged(k).unwrap();
            for tid in 0..(32 * k as u32) {
                assert_eq!(typed_staged_rt(&a, &tile, tid), hand_staged_rt(k, &tile, tid), "staged {k} {tid}");
            }
        }
        assert!(make_staged(0).is_err());
    }
}
