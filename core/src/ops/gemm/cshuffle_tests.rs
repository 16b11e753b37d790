//! The CShuffle epilogue against CK and against brute force: its shuffle
//! tiles are the ones CK's `CShuffleEpilogue` computes (worked out by hand
//! from `cshuffle_epilogue.hpp` for each case), CK's LDS block descriptor
//! is the row-major tile the epilogue writes, each shuffle tile's LDS
//! writes cover it exactly once with the accumulators the C distribution
//! places there, and the copy reads each thread's elements of CK's
//! thread-raked pattern (its runtime encoding, evaluated).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::cshuffle::{Shuffle, shuffle_copy, shuffle_write};
use super::*;
use crate::Index;
use crate::Item;
use crate::descriptor::Descriptor;
use crate::distribution::Distribution;
use crate::distribution::catalogue::pattern::Variant;
use crate::distribution::typed::TileEncoding;
use crate::tile::{Partition, SharedMemory};
use cktile_transforms::{Transform, Vector};
use core::cell::Cell;

/// CK's numbers, by hand from `cshuffle_epilogue.hpp` (row-major C, 64-lane
/// waves, 64 KiB of LDS): (block, warps, warp tile, bytes) ->
/// (NumMXdlPerWavePerShuffle, NumNXdlPerWavePerShuffle, MPerIterationShuffle,
/// NPerIterationShuffle, GetVectorSizeC()).
#[test]
fn shuffle_tiles_are_cks() {
    type Case = ((usize, usize), (usize, usize), (usize, usize), usize, (usize, usize, usize, usize, usize));
    let cases: [Case; 10] = [
        // 16 accumulators a lane, 4 a vector: 4 shuffles, capped by the 2 M iterations.
        ((128, 128), (2, 2), (32, 32), 4, (2, 1, 128, 64, 4)),
        // fp16 C: 8 a vector, 2 shuffles.
        ((128, 128), (2, 2), (32, 32), 2, (2, 1, 128, 64, 8)),
        // 8-bit C: 16 a vector, all of a lane's accumulators: one warp tile.
        ((128, 128), (2, 2), (32, 32), 1, (1, 1, 64, 64, 16)),
        // 16x16: 4 accumulators a lane, one vector.
        ((128, 128), (2, 2), (16, 16), 4, (1, 1, 32, 32, 4)),
        // Four M iterations: all four shuffles, 256 x 64 x 4 bytes = 64 KiB, just fits.
        ((256, 256), (2, 2), (32, 32), 4, (4, 1, 256, 64, 4)),
        // One warp, eight M iterations: four shuffles.
        ((256, 256), (1, 1), (32, 32), 4, (4, 1, 128, 32, 4)),
        // Eight waves: 4 x 32 x 2 x 128 x 4 bytes is past 64 KiB, so one warp tile along M;
        // CK's BlockedXDLN_PerWarp takes the warp's 2 N tiles at once.
        ((256, 256), (2, 4), (32, 32), 4, (1, 2, 64, 256, 4)),
        // mma.sync's 32 x 16: 8 accumulators a lane, two vectors.
        ((128, 128), (2, 2), (32, 16), 4, (2, 1, 128, 32, 4)),
        // 32 x 8: 4 accumulators, one vector.
        ((128, 128), (2, 2), (32, 8), 4, (1, 1, 64, 16, 4)),
        // The vector capped by the columns the warps cover: 1 x 8 wide.
        ((64, 16), (2, 1), (32, 8), 2, (1, 1, 64, 8, 8)),
    ];
    for (block, warps, warp_tile, bytes, (mt, nt, m, n, v)) in cases {
        let t = ShuffleTile::new(block, warps, warp_tile, bytes).unwrap();
        assert_eq!(
            (t.m_tiles, t.n_tiles, t.m, t.n, t.vector),
            (mt, nt, m, n, v),
            "{block:?} {warps:?} {warp_tile:?} {bytes}"
        );
        assert_eq!((t.m_accesses, t.n_accesses), (block.0 / m, block.1 / n));
    }
}

/// What CK's `static_assert`s and the fallback's inconsistency refuse,
/// each error naming the value.
#[test]
fn shuffle_tiles_cks_refuses() {
    let refused = |block, warps, warp_tile, bytes, needle: &str| {
        let e = ShuffleTile::new(block, warps, warp_tile, bytes).unwrap_err().to_string();
        assert!(e.contains(needle), "{block:?} {warps:?} {warp_tile:?} {bytes}: {e}");
    };
    // Three M iterations, two shuffles: the 128-row tile does not tile 192 rows.
    refused((192, 128), (2, 2), (32, 16), 4, "MPerBlock = 192");
    // A 3-byte C: 5 a vector, which 16 accumulators are not a multiple of.
    refused((128, 128), (2, 2), (32, 32), 3, "MPerXdl * NPerXdl / 64 = 16");
    refused((128, 96), (2, 2), (32, 32), 4, "NPerBlock = 96");
    refused((128, 128), (0, 2), (32, 32), 4, "MWarp * NWarp");
    refused((128, 128), (2, 2), (32, 32), 0, "bytes = 0");
    refused((128, 128), (2, 2), (usize::MAX, 2), 4, "overflows");
    refused((128, 128), (usize::MAX, 2), (32, 32), 4, "overflows");
    refused((128, 128), (2, 2), (0, 32), 4, "MPerBlock = 128");
    // Past the curve: the origin is (0, 0), and nothing overflows.
    let t = ShuffleTile::new((128, 128), (2, 2), (32, 32), 4).unwrap();
    assert_eq!(t.access_origin(usize::MAX), (0, 0));
    let odd = ShuffleTile { m_accesses: usize::MAX, n_accesses: 0, ..t };
    assert_eq!((odd.accesses(), odd.access_origin(3)), (0, (0, 0)));
}

/// CK's `MakeLdsBlockDescriptor` (row-major C), built from its
/// transforms with no padding (every chip but gfx950), is the row-major
/// tile: for every MLdsLayer the layers' unmerge and merge cancel.
#[test]
fn cks_lds_block_is_row_major() {
    for (m, n, bytes, v) in [(128, 64, 4, 4), (64, 32, 2, 8), (128, 16, 4, 4), (64, 8, 2, 8), (32, 32, 1, 16)] {
        let layer = (32 * 4 / n / bytes).max(1);
        let d =
            Descriptor::naive_with_vector(&[m / layer, n / v * layer, v], &[n * layer, v, 1], Vector::new(v as i64, 1))
                .unwrap();
        let d = d
            .transform(&[
                Item::new(Transform::pass_through(m / layer).unwrap(), &[0], &[0]).unwrap(),
                Item::new(Transform::unmerge(&[layer, n / v]).unwrap(), &[1], &[1, 2]).unwrap(),
                Item::new(Transform::pass_through(v).unwrap(), &[2], &[3]).unwrap(),
            ])
            .unwrap();
        let d = d
            .transform(&[
                Item::new(Transform::merge(&[m / layer, layer]).unwrap(), &[0, 1], &[0]).unwrap(),
                Item::new(Transform::merge(&[n / v, v]).unwrap(), &[2, 3], &[1]).unwrap(),
            ])
            .unwrap();
        for r in 0..m {
            for c in 0..n {
                assert_eq!(
                    d.calculate_offset(&[r as Index, c as Index]),
                    (r * n + c) as Index,
                    "{m} x {n} layer {layer}"
                );
            }
        }
    }
}

/// Every thread's accumulator `r` as a distinct value: `thread * 1024 + r`.
fn numbered<P: GemmPolicy<Warp = W>, W: WarpGemm<Element = Fp16>>(thread: usize) -> CBlockTensor<P> {
    let mut t = CBlockTensor::<P>::filled(0.0);
    for (r, x) in t.thread_buffer_mut().iter_mut().enumerate() {
        *x = (thread * 1024 + r) as f32;
    }
    t
}

/// For each shuffle tile of policy `P` (an fp16 policy, C in `f32`):
/// - the block's LDS writes fill the LDS tile, each element once, each
///   with the accumulator the C distribution (its runtime encoding)
///   places at that element of the block tile;
/// - the copies then store every element of the shuffle tile's part of C
///   with that value.
///
/// Together, every element of the block tile ends in C once, from its
/// own accumulator.
fn the_shuffle_is_exact<P: GemmPolicy<Warp = W>, W: WarpGemm<Element = Fp16>>(name: &str) {
    let tile = Shuffle::<P, f32>::TILE;
    let (mb, nb) = (P::M_PER_BLOCK, P::N_PER_BLOCK);
    let threads: Vec<Partition> = (0..P::BLOCK_SIZE).map(|t| P::partition_of_thread(t).unwrap()).collect();
    let acc: Vec<CBlockTensor<P>> = (0..P::BLOCK_SIZE).map(numbered::<P, W>).collect();
    // The C distribution, evaluated: the accumulator of each element of the block tile.
    let c_dist = Distribution::new(P::CBlock::ENCODING).unwrap();
    let mut owner = vec![f32::NAN; mb * nb];
    let ys = c_dist.y_lengths().as_slice().to_vec();
    for (t, p) in threads.iter().enumerate() {
        for r in 0..ys.iter().product::<Index>() as usize {
            let mut idx = vec![p.warp, p.lane];
            let mut rest = r as Index;
            let mut y = vec![0; ys.len()];
            for d in (0..ys.len()).rev() {
                y[d] = rest % ys[d];
                rest /= ys[d];
            }
            idx.extend(y);
            let x = c_dist.calculate_index(&idx).unwrap();
            let (row, col) = (x.as_slice()[0] as usize, x.as_slice()[1] as usize);
            assert!(owner[row * nb + col].is_nan(), "{name}: ({row}, {col}) held twice");
            owner[row * nb + col] = (t * 1024 + r) as f32;
        }
    }
    let mut c = vec![f32::NAN; mb * nb];
    for access in 0..tile.accesses() {
        let (om, on) = tile.access_origin(access);
        let cells: Vec<Cell<f32>> = (0..tile.lds_elements()).map(|_| Cell::new(f32::NAN)).collect();
        let lds = SharedMemory::new(&cells);
        for (p, a) in threads.iter().zip(&acc) {
            let view = P::make_c_dram_view(&mut c, mb, nb, nb).unwrap();
            let w = c_window::<f32, P>(view, (0, 0), *p).unwrap();
            shuffle_write::<f32, P>(&w, lds, a, access, |x| x);
        }
        for r in 0..tile.m {
            for col in 0..tile.n {
                let want = owner[(om + r) * nb + on + col];
                assert_eq!(cells[r * tile.n + col].get(), want, "{name}: access {access}, LDS ({r}, {col})");
            }
        }
        for p in &threads {
            let view = P::make_c_dram_view(&mut c, mb, nb, nb).unwrap();
            let mut w = c_window::<f32, P>(view, (0, 0), *p).unwrap();
            shuffle_copy::<f32, P>(&mut w, lds, *p, access);
        }
    }
    assert_eq!(c, owner, "{name}: C after every shuffle tile");
    // And the shuffle tiles are visited once each, covering the block tile.
    let mut origins: Vec<_> = (0..tile.accesses()).map(|i| tile.access_origin(i)).collect();
    origins.sort_unstable();
    let grid: Vec<_> = (0..mb / tile.m).flat_map(|i| (0..nb / tile.n).map(move |j| (i * tile.m, j * tile.n))).collect();
    assert_eq!(origins, grid, "{name}");
}

#[test]
fn every_warp_gemms_shuffle_is_exact() {
    the_shuffle_is_exact::<UniversalGemmPolicy<256, 128, 128, 32>, _>("128x128, 32x32x16");
    the_shuffle_is_exact::<UniversalGemmPolicy<256, 256, 128, 64>, _>("256x128, 32x32x16, four shuffles");
    the_shuffle_is_exact::<UniversalGemmPolicy<128, 64, 64, 32, BlockWarps<1, 2>, Mfma16x16x32>, _>("64x64, 16x16x32");
    the_shuffle_is_exact::<UniversalGemmPolicy<256, 256, 128, 64, BlockWarps<4, 1>, Mfma16x16x16>, _>("256x128, 16x16");
    the_shuffle_is_exact::<UniversalGemmPolicy<256, 128, 256, 32, BlockWarps<2, 2>, Mfma32x32x8>, _>(
        "128x256, 32x32x8",
    );
    the_shuffle_is_exact::<UniversalGemmPolicy<64, 32, 64, 32, BlockWarps<1, 1>, Mfma32x32x8>, _>("one wave");
    the_shuffle_is_exact::<UniversalGemmPolicy<512, 256, 256, 32, BlockWarps<2, 4>>, _>("eight waves");
    the_shuffle_is_exact::<UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, MmaSync<32, 16, 16>>, _>(
        "mma 32x16",
    );
    the_shuffle_is_exact::<UniversalGemmPolicy<256, 128, 64, 64, BlockWarps<4, 1>, MmaSync<32, 8, 16>>, _>("mma 32x8");
    the_shuffle_is_exact::<UniversalGemmPolicy<64, 64, 64, 32, BlockWarps<1, 1>, MmaSync<32, 32, 16>>, _>("mma 32x32");
}

/// The copy of thread `p` stores exactly the elements CK's thread-raked
/// pattern (`Pattern2d::encoding`, evaluated by the runtime distribution)
/// gives it, for every thread of the block.
fn the_copy_is_cks_pattern<P: GemmPolicy>(name: &str) {
    let tile = Shuffle::<P, f32>::TILE;
    let pattern = Distribution::new(tile.store_pattern(P::BLOCK_SIZE).encoding(Variant::Regular).unwrap()).unwrap();
    let ys = pattern.y_lengths().as_slice().to_vec();
    let (mb, nb) = (P::M_PER_BLOCK, P::N_PER_BLOCK);
    // The LDS tile holds each element's index, plus one.
    let cells: Vec<Cell<f32>> = (0..tile.lds_elements()).map(|i| Cell::new(i as f32 + 1.0)).collect();
    for t in 0..P::BLOCK_SIZE {
        let p = P::partition_of_thread(t).unwrap();
        let mut c = vec![0f32; mb * nb];
        let view = P::make_c_dram_view(&mut c, mb, nb, nb).unwrap();
        let mut w = c_window::<f32, P>(view, (0, 0), p).unwrap();
        shuffle_copy::<f32, P>(&mut w, SharedMemory::new(&cells), p, 0);
        let mut got: Vec<(usize, usize)> = (0..mb * nb).filter(|&i| c[i] != 0.0).map(|i| (i / nb, i % nb)).collect();
        // Each element stored is the LDS tile's at the same place.
        assert!(got.iter().all(|&(r, col)| c[r * nb + col] == (r * tile.n + col) as f32 + 1.0), "{name}");
        let mut want = Vec::new();
        for y in 0..ys.iter().product::<Index>() {
            let mut idx = vec![p.warp, p.lane];
            let (mut rest, mut yv) = (y, vec![0; ys.len()]);
            for d in (0..ys.len()).rev() {
                yv[d] = rest % ys[d];
                rest /= ys[d];
            }
            idx.extend(yv);
            let x = pattern.calculate_index(&idx).unwrap();
            want.push((x.as_slice()[0] as usize, x.as_slice()[1] as usize));
        }
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "{name}: thread {t}");
    }
}

#[test]
fn the_copy_is_cks_thread_raked_pattern() {
    the_copy_is_cks_pattern::<UniversalGemmPolicy<256, 128, 128, 32>>("128x128, 32x32x16");
    the_copy_is_cks_pattern::<UniversalGemmPolicy<128, 64, 64, 32, BlockWarps<1, 2>, Mfma16x16x32>>("64x64, 16x16x32");
    the_copy_is_cks_pattern::<UniversalGemmPolicy<512, 256, 256, 32, BlockWarps<2, 4>>>("eight waves");
    the_copy_is_cks_pattern::<UniversalGemmPolicy<256, 128, 64, 64, BlockWarps<4, 1>, MmaSync<32, 8, 16>>>("mma 32x8");
}
