//! A CPU lane simulator of CK's universal GEMM A and B data paths
//! (`cktile_checks::gemm`): every one of the block's 256 threads is a loop
//! iteration, LDS is an array of cells, and each stage (DRAM loads, LDS
//! stores, warp reads) runs for all threads before the next begins, as the
//! block barriers order them. Every MFMA operand register of every warp
//! tile of every K tile is checked against the element AMD's MFMA 32x32x8
//! lane map names (lane `l`, register `r`: row `l % 32`, K `4 * (l / 32) +
//! r` of the warp tile), zero in the padding, for runtime shapes that pad
//! along M, along K and along both.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::tile::SharedMemory;
use cktile_checks::gemm::{
    BLOCK_SIZE, ITERS, K_ITERS, K_PER_BLOCK, K_PER_WARP_TILE, LDS_ELEMENTS, Operand, OperandPath, ROWS_PER_BLOCK,
    WARPS, WAVE,
};
use core::cell::Cell;

/// The value of element (row, k): unique and never zero.
fn tag(row: usize, k: usize) -> u32 {
    (row * 4096 + k + 1) as u32
}

/// In the row stride's gap past K: must never be read.
const GAP: u32 = u32::MAX;
/// LDS before each K tile's stores: must be overwritten everywhere.
const POISON: u32 = u32::MAX - 1;

#[derive(Clone, Copy, Debug)]
struct Shape {
    rows: usize,
    k: usize,
    stride: usize,
    block_row: usize,
}

const SHAPES: [Shape; 5] = [
    Shape { rows: 128, k: 32, stride: 32, block_row: 0 },
    Shape { rows: 200, k: 72, stride: 80, block_row: 128 },
    Shape { rows: 130, k: 40, stride: 40, block_row: 0 },
    Shape { rows: 257, k: 96, stride: 104, block_row: 256 },
    Shape { rows: 64, k: 8, stride: 8, block_row: 0 },
];

/// Runs the data path of `operand` for one block over `shape`; returns the
/// number of operand registers checked.
fn simulate(operand: Operand, shape: Shape) -> usize {
    let Shape { rows, k, stride, block_row } = shape;
    let global: Vec<u32> =
        (0..rows * stride).map(|i| if i % stride < k { tag(i / stride, i % stride) } else { GAP }).collect();
    let lds: Vec<Cell<u32>> = (0..LDS_ELEMENTS).map(|_| Cell::new(POISON)).collect();
    let mut paths: Vec<OperandPath<'_, u32>> = (0..BLOCK_SIZE)
        .map(|t| OperandPath::new(operand, &global, rows, k, stride, block_row as i64, SharedMemory::new(&lds), t))
        .collect::<Result<_, _>>()
        .expect("the data path's windows");
    // The vector widths CK's rule gives: 8-element DRAM loads, LDS stores and MFMA reads.
    assert_eq!(paths[0].vectors(), (8, 8, 8));
    let mut checked = 0;
    for kt in 0..k.div_ceil(K_PER_BLOCK) {
        for cell in &lds {
            cell.set(POISON);
        }
        // Stage 1: every thread loads its DRAM tile and moves its window along K.
        let tiles: Vec<_> = paths
            .iter_mut()
            .map(|p| {
                let t = p.load();
                p.next_k();
                t
            })
            .collect();
        // Barrier. Stage 2: every thread stores its tile into the LDS block.
        for (p, t) in paths.iter_mut().zip(&tiles) {
            p.store(t);
        }
        // The block's 256 threads cover the 128 x 32 LDS block exactly.
        assert!(lds.iter().all(|c| c.get() != POISON), "{operand:?} {shape:?}: an LDS element no thread wrote");
        // Barrier. Stage 3: every warp reads its MFMA operands.
        for (t, p) in paths.iter().enumerate() {
            let (warp, lane) = (t / WAVE, t % WAVE);
            let warp_row = match operand {
                Operand::A => warp / WARPS,
                Operand::B => warp % WARPS,
            } * 32;
            // CK's block distribution (the outer encoding embedded with the warp
            // operand's) loads the thread's 2 x 2 warp tiles at once: the same registers.
            let block = block_tile(operand, &lds, t);
            for iter in 0..ITERS {
                for k_iter in 0..K_ITERS {
                    let regs = p.read(iter, k_iter);
                    let d = (iter * K_ITERS + k_iter) * 8;
                    assert_eq!(
                        &block[d..d + 8],
                        regs.thread_buffer(),
                        "{operand:?} {shape:?}: K tile {kt}, thread {t}, warp tile ({iter}, {k_iter}): the block distribution's load"
                    );
                    for (r, &got) in regs.thread_buffer().iter().enumerate() {
                        let row = block_row + warp_row + iter * WARPS * 32 + lane % 32;
                        let col = kt * K_PER_BLOCK + k_iter * K_PER_WARP_TILE + 8 * (lane / 32) + r;
                        let want = if row < rows && col < k { tag(row, col) } else { 0 };
                        assert_eq!(
                            got, want,
                            "{operand:?} {shape:?}: K tile {kt}, thread {t}, warp tile ({iter}, {k_iter}), register {r} \
                             should hold ({row}, {col})"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    checked
}

/// Thread `thread`'s registers of the whole LDS block through a window of
/// CK's embedded block distribution of `operand` (32: 2 x 2 warp tiles of 8).
fn block_tile(operand: Operand, lds: &[Cell<u32>], thread: usize) -> Vec<u32> {
    use cktile::tile::load_tile;
    use cktile_checks::gemm::{ABlockDistribution, BBlockDistribution, block_window};
    let lds = SharedMemory::new(lds);
    match operand {
        Operand::A => load_tile(&block_window::<_, ABlockDistribution>(lds, thread).unwrap()).thread_buffer().to_vec(),
        Operand::B => load_tile(&block_window::<_, BBlockDistribution>(lds, thread).unwrap()).thread_buffer().to_vec(),
    }
}

/// The embedded block distributions are CK's: the runtime `embed` of the
/// outer encoding CK's block GEMM writes with the
/// catalogue's MFMA 32x32x16 operand.
#[test]
fn the_block_distributions_are_ck_embeddings() {
    use cktile::distribution::typed::TileEncoding;
    use cktile::distribution::{Encoding, catalogue, embed};
    use cktile_checks::gemm::{ABlockDistribution, BBlockDistribution};
    let warp = catalogue::by_name("mfma32x32x16_a").unwrap();
    // tile_distribution_encoding<sequence<NWarp>, tuple<sequence<MIterPerWarp, MWarp>, sequence<KIterPerWarp>>,
    //     tuple<sequence<1, 0>>, tuple<sequence<1, 0>>, sequence<1, 2>, sequence<0, 0>>, and B's with sequence<0, 1>.
    let a_outer = Encoding::new(&[2], &[&[2, 2], &[2]], &[&[1, 0]], &[&[1, 0]], &[1, 2], &[0, 0]).unwrap();
    let b_outer = Encoding::new(&[2], &[&[2, 2], &[2]], &[&[0, 1]], &[&[0, 1]], &[1, 2], &[0, 0]).unwrap();
    assert_eq!(ABlockDistribution::ENCODING, embed(&a_outer, &warp).unwrap());
    assert_eq!(BBlockDistribution::ENCODING, embed(&b_outer, &warp).unwrap());
    assert_eq!(ABlockDistribution::ENCODING.y_elements(), 32);
}

#[test]
fn a_operand_registers_match_the_mfma_lane_map() {
    for shape in SHAPES {
        let k_tiles = shape.k.div_ceil(K_PER_BLOCK);
        assert_eq!(simulate(Operand::A, shape), k_tiles * BLOCK_SIZE * ITERS * K_ITERS * 8);
    }
}

#[test]
fn b_operand_registers_match_the_mfma_lane_map() {
    for shape in SHAPES {
        let k_tiles = shape.k.div_ceil(K_PER_BLOCK);
        assert_eq!(simulate(Operand::B, shape), k_tiles * BLOCK_SIZE * ITERS * K_ITERS * 8);
    }
}

#[test]
fn every_block_row_of_a_large_operand_is_covered() {
    // All three block rows of a 300-row operand, K padded: every element of the
    // operand reaches exactly the warp registers the lane map names.
    for block in 0..3 {
        let shape = Shape { rows: 300, k: 48, stride: 56, block_row: block * ROWS_PER_BLOCK };
        assert!(simulate(Operand::A, shape) > 0);
    }
}

#[test]
fn shapes_the_vector_loads_cannot_serve_are_refused() {
    let global = vec![0u32; 1000];
    let lds: Vec<Cell<u32>> = (0..LDS_ELEMENTS).map(|_| Cell::new(0)).collect();
    for (k, stride) in [(36, 40), (40, 44)] {
        let e =
            OperandPath::new(Operand::A, &global, 10, k, stride, 0, SharedMemory::new(&lds), 0).err().expect("refused");
        let name = if k % 8 != 0 { "K" } else { "row stride" };
        let value = if k % 8 != 0 { k } else { stride };
        assert_eq!(
            e.to_string(),
            format!("K and the row stride must be multiples of the 8 elements each DRAM load moves ({name} = {value})")
        );
    }
}

/// The DRAM distribution the paths declare with `tile_distribution_encoding!`
/// is the catalogue's `gemm_dram(256, 128, 32, 8)`, by its CLI name too
/// (`cktile distribution gemm_dram_256x128x32_k8`), and the warp
/// distribution is `mfma32x32x16_a`: the typed and runtime paths agree.
#[test]
fn the_paths_distributions_are_the_catalogues() {
    use cktile::distribution::catalogue;
    use cktile::distribution::typed::TileEncoding;
    use cktile_checks::gemm::{DramDistribution, WarpDistribution};
    assert_eq!(DramDistribution::ENCODING, catalogue::gemm_dram(256, 128, 32, 8).unwrap());
    assert_eq!(DramDistribution::ENCODING, catalogue::by_name("gemm_dram_256x128x32_k8").unwrap());
    assert_eq!(WarpDistribution::ENCODING, catalogue::by_name("mfma32x32x16_a").unwrap());
}

/// The generic policies are CK's for every configuration they are
/// instantiated with, not only the paths': each equals the catalogue's
/// runtime encoding of the same parameters (and its CLI name).
#[test]
fn the_generic_policies_are_the_catalogues_for_every_size() {
    use cktile::distribution::catalogue;
    use cktile::distribution::typed::TileEncoding;
    use cktile_checks::gemm::{ADramDistribution, WarpOperand};
    let dram = [
        ((256, 128, 32, 8), ADramDistribution::<256, 128, 32, 8, 16>::ENCODING),
        ((256, 256, 32, 8), ADramDistribution::<256, 256, 32, 8, 32>::ENCODING),
        ((256, 128, 64, 8), ADramDistribution::<256, 128, 64, 8, 32>::ENCODING),
        ((128, 64, 32, 4), ADramDistribution::<128, 64, 32, 4, 16>::ENCODING),
        ((512, 256, 16, 8), ADramDistribution::<512, 256, 16, 8, 8>::ENCODING),
        ((64, 16, 64, 16), ADramDistribution::<64, 16, 64, 16, 16>::ENCODING),
    ];
    for ((block, m, k, k1), typed) in dram {
        assert_eq!(typed, catalogue::gemm_dram(block, m, k, k1).unwrap(), "{block} {m} {k} {k1}");
        let name = format!("gemm_dram_{block}x{m}x{k}_k{k1}");
        assert_eq!(typed, catalogue::by_name(&name).unwrap(), "{name}");
    }
    let warp = [
        ((16, 4), WarpOperand::<16, 4, 4>::ENCODING),
        ((16, 8), WarpOperand::<16, 8, 8>::ENCODING),
        ((32, 4), WarpOperand::<32, 4, 4>::ENCODING),
        ((32, 8), WarpOperand::<32, 8, 8>::ENCODING),
        ((32, 16), WarpOperand::<32, 16, 16>::ENCODING),
    ];
    for ((ml, kl), typed) in warp {
        assert_eq!(typed, catalogue::mfma_a_per_lane(ml, kl).unwrap(), "{ml} {kl}");
    }
}
