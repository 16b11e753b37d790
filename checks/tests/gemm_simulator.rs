//! A CPU lane simulator of CK's universal GEMM A and B data paths
//! (`cktile_core::ops::gemm`, and `cktile_checks::gemm`, its 128 x 128 x 32
//! instance): every one of the block's threads is a loop iteration, LDS is
//! an array of cells, and each stage (DRAM loads, LDS stores, warp reads)
//! runs for all threads before the next begins, as the block barriers
//! order them. Every MFMA operand register of every warp tile of every K
//! tile is checked against the element AMD's lane map names (lane `l`,
//! register `r` of an `M x K` MFMA holding `KL` K values a lane: row
//! `l % M`, K `KL * (l / M) + r` of the warp tile), zero in the padding,
//! for runtime shapes that pad along M, along K and along both; and the
//! block GEMM's embedded distribution reads the same registers. Three
//! policies: the checks' (256 threads, 128 x 128 x 32, MFMA 32x32x16, the
//! operand chosen at run time), 128 threads over 64 x 64 x 32 with 2 x 1
//! warps of the 16x16x32 MFMA, and 256 threads over 256 x 128 x 64 with
//! the 32x32x8 MFMA (A and B of different sizes, 4 K values a lane).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile_checks::gemm::{
    BLOCK_SIZE, ITERS, K_ITERS, K_PER_BLOCK, K_PER_WARP_TILE, LDS_ELEMENTS, Operand, OperandPath, Policy,
    ROWS_PER_BLOCK, WARPS, WAVE,
};
use cktile_core::distribution::typed::TileEncoding;
use cktile_core::ops::gemm::{
    self, BlockGemmSide, BlockWarps, GemmPolicy, Mfma16x16x32, Mfma32x32x8, OperandA, OperandB, OperandSide,
    UniversalGemmPolicy,
};
use cktile_core::tile::{SharedMemory, load_tile};
use core::cell::Cell;
use core::fmt::Debug;

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

/// The last two have row strides that are no multiple of the 8-element
/// vector (CK accepts them; the vectors are contiguous, not aligned).
const SHAPES: [Shape; 7] = [
    Shape { rows: 128, k: 32, stride: 32, block_row: 0 },
    Shape { rows: 200, k: 72, stride: 80, block_row: 128 },
    Shape { rows: 130, k: 40, stride: 40, block_row: 0 },
    Shape { rows: 257, k: 96, stride: 104, block_row: 256 },
    Shape { rows: 64, k: 8, stride: 8, block_row: 0 },
    Shape { rows: 130, k: 40, stride: 44, block_row: 128 },
    Shape { rows: 200, k: 72, stride: 77, block_row: 0 },
];

/// 64 x 64 x 32 on 128 threads: 2 x 1 warps of the 16x16x32 MFMA.
type Small = UniversalGemmPolicy<128, 64, 64, 32, BlockWarps<2, 1>, Mfma16x16x32>;
/// 256 x 128 x 64 on 256 threads: 2 x 2 warps of the 32x32x8 MFMA.
type Wide = UniversalGemmPolicy<256, 256, 128, 64, BlockWarps<2, 2>, Mfma32x32x8>;

/// Runs the data path of side `side` of policy `P` for one block over
/// `shape`; `block` loads thread `t`'s registers of the whole LDS block
/// through the embedded block distribution. Returns the number of operand
/// registers checked.
fn simulate<P: GemmPolicy, S: OperandSide<P> + Debug>(
    side: S,
    shape: Shape,
    block: impl Fn(SharedMemory<'_, u32>, usize) -> Vec<u32>,
) -> usize {
    let Shape { rows, k, stride, block_row } = shape;
    let global: Vec<u32> =
        (0..rows * stride).map(|i| if i % stride < k { tag(i / stride, i % stride) } else { GAP }).collect();
    let lds: Vec<Cell<u32>> = (0..S::ROWS * P::K_PER_BLOCK).map(|_| Cell::new(POISON)).collect();
    let mut paths: Vec<gemm::OperandPath<'_, u32, P, S>> = (0..P::BLOCK_SIZE)
        .map(|t| gemm::OperandPath::new(side, &global, rows, k, stride, block_row as i64, SharedMemory::new(&lds), t))
        .collect::<Result<_, _>>()
        .expect("the data path's windows");
    // The K values a lane holds, and the vector widths CK's rule gives: 8-element
    // DRAM loads, LDS stores of KPack elements (CK's: the lane's K values, at most
    // the 8-element vector), MFMA reads of the lane's K values.
    let kl = P::WARP_K * S::WARP_ROWS / WAVE;
    assert_eq!(P::KPACK, kl.min(8), "{side:?}");
    assert_eq!(paths[0].vectors(), (8, P::KPACK, kl), "{side:?}");
    let mut checked = 0;
    for kt in 0..k.div_ceil(P::K_PER_BLOCK) {
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
        // The block's threads cover the LDS block exactly.
        assert!(lds.iter().all(|c| c.get() != POISON), "{side:?} {shape:?}: an LDS element no thread wrote");
        // Barrier. Stage 3: every warp reads its MFMA operands.
        for (t, p) in paths.iter().enumerate() {
            let (warp, lane) = (t / WAVE, t % WAVE);
            let warp_row = side.warp_row(warp as i64) as usize * S::WARP_ROWS;
            // CK's block distribution (the outer encoding embedded with the warp
            // operand's) loads all the thread's warp tiles at once: the same registers.
            let whole = block(SharedMemory::new(&lds), t);
            assert_eq!(whole.len(), S::ITERS * P::K_ITERS * kl, "{side:?}: the block distribution's registers");
            for iter in 0..S::ITERS {
                for k_iter in 0..P::K_ITERS {
                    let regs = p.read(iter, k_iter);
                    let d = (iter * P::K_ITERS + k_iter) * kl;
                    assert_eq!(
                        &whole[d..d + kl],
                        regs.thread_buffer(),
                        "{side:?} {shape:?}: K tile {kt}, thread {t}, warp tile ({iter}, {k_iter}): the block distribution's load"
                    );
                    for (r, &got) in regs.thread_buffer().iter().enumerate() {
                        let row = block_row + warp_row + iter * S::ROW_WARPS * S::WARP_ROWS + lane % S::WARP_ROWS;
                        let col = kt * P::K_PER_BLOCK + k_iter * P::WARP_K + kl * (lane / S::WARP_ROWS) + r;
                        let want = if row < rows && col < k { tag(row, col) } else { 0 };
                        assert_eq!(
                            got, want,
                            "{side:?} {shape:?}: K tile {kt}, thread {t}, warp tile ({iter}, {k_iter}), register {r} \
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

/// Thread `thread`'s registers of the whole LDS block of side `S` through
/// a window of the embedded block distribution `E`.
fn block_tile<P: GemmPolicy, S: BlockGemmSide<P>>(lds: SharedMemory<'_, u32>, thread: usize) -> Vec<u32> {
    let p = P::partition_of_thread(thread).unwrap();
    load_tile(&gemm::block_window::<u32, P, S>(lds, p).unwrap()).thread_buffer().to_vec()
}

/// The checks' paths: the operand chosen at run time.
fn simulate_checks(operand: Operand, shape: Shape) -> usize {
    use cktile_checks::gemm::block_window;
    simulate::<Policy, Operand>(operand, shape, |lds, t| {
        let p = Policy::partition_of_thread(t).unwrap();
        match operand {
            Operand::A => load_tile(&block_window::<u32, OperandA>(lds, p).unwrap()).thread_buffer().to_vec(),
            Operand::B => load_tile(&block_window::<u32, OperandB>(lds, p).unwrap()).thread_buffer().to_vec(),
        }
    })
}

/// The embedded block distributions are CK's: the runtime `embed` of the
/// outer encoding CK's block GEMM writes with the
/// catalogue's MFMA 32x32x16 operand.
#[test]
fn the_block_distributions_are_ck_embeddings() {
    use cktile_checks::gemm::{ABlockDistribution, BBlockDistribution};
    use cktile_core::distribution::{Encoding, catalogue, embed_encoding};
    let warp = catalogue::by_name("mfma32x32x16_a").unwrap();
    // tile_distribution_encoding<sequence<NWarp>, tuple<sequence<MIterPerWarp, MWarp>, sequence<KIterPerWarp>>,
    //     tuple<sequence<1, 0>>, tuple<sequence<1, 0>>, sequence<1, 2>, sequence<0, 0>>, and B's with sequence<0, 1>.
    let a_outer = Encoding::new(&[2], &[&[2, 2], &[2]], &[&[1, 0]], &[&[1, 0]], &[1, 2], &[0, 0]).unwrap();
    let b_outer = Encoding::new(&[2], &[&[2, 2], &[2]], &[&[0, 1]], &[&[0, 1]], &[1, 2], &[0, 0]).unwrap();
    assert_eq!(ABlockDistribution::ENCODING, embed_encoding(&a_outer, &warp).unwrap());
    assert_eq!(BBlockDistribution::ENCODING, embed_encoding(&b_outer, &warp).unwrap());
    assert_eq!(ABlockDistribution::ENCODING.y_elements(), 32);
}

#[test]
fn a_operand_registers_match_the_mfma_lane_map() {
    for shape in SHAPES {
        let k_tiles = shape.k.div_ceil(K_PER_BLOCK);
        assert_eq!(simulate_checks(Operand::A, shape), k_tiles * BLOCK_SIZE * ITERS * K_ITERS * 8);
    }
}

#[test]
fn b_operand_registers_match_the_mfma_lane_map() {
    for shape in SHAPES {
        let k_tiles = shape.k.div_ceil(K_PER_BLOCK);
        assert_eq!(simulate_checks(Operand::B, shape), k_tiles * BLOCK_SIZE * ITERS * K_ITERS * 8);
    }
}

#[test]
fn every_block_row_of_a_large_operand_is_covered() {
    // All three block rows of a 300-row operand, K padded: every element of the
    // operand reaches exactly the warp registers the lane map names.
    for block in 0..3 {
        let shape = Shape { rows: 300, k: 48, stride: 56, block_row: block * ROWS_PER_BLOCK };
        assert!(simulate_checks(Operand::A, shape) > 0);
    }
}

/// A second policy: 128 threads, a 64 x 64 x 32 block tile, 2 x 1 warps of
/// the 16x16x32 MFMA (A: 2 warp tiles a warp along M; B: 4 along N), with
/// the library's typed sides.
#[test]
fn a_small_policy_matches_the_mfma_lane_map() {
    let shapes = [
        Shape { rows: 64, k: 32, stride: 32, block_row: 0 },
        Shape { rows: 100, k: 72, stride: 80, block_row: 64 },
        Shape { rows: 70, k: 40, stride: 40, block_row: 0 },
        Shape { rows: 130, k: 96, stride: 104, block_row: 128 },
    ];
    for shape in shapes {
        let k_tiles = shape.k.div_ceil(32);
        let a = simulate::<Small, OperandA>(OperandA, shape, block_tile::<Small, OperandA>);
        assert_eq!(a, k_tiles * 128 * 2 * 8, "{shape:?}");
        let b = simulate::<Small, OperandB>(OperandB, shape, block_tile::<Small, OperandB>);
        assert_eq!(b, k_tiles * 128 * 4 * 8, "{shape:?}");
    }
}

/// A third: 256 threads over 256 x 128 x 64 (A and B blocks of different
/// sizes) with the 32x32x8 MFMA (4 K values a lane, 8 warp tiles per K
/// tile; MLdsLayer 1).
#[test]
fn a_wide_policy_matches_the_mfma_lane_map() {
    let shapes = [
        Shape { rows: 256, k: 64, stride: 64, block_row: 0 },
        Shape { rows: 300, k: 136, stride: 144, block_row: 256 },
        Shape { rows: 130, k: 40, stride: 40, block_row: 0 },
    ];
    for shape in shapes {
        let k_tiles = shape.k.div_ceil(64);
        let a = simulate::<Wide, OperandA>(OperandA, shape, block_tile::<Wide, OperandA>);
        assert_eq!(a, k_tiles * 256 * 4 * 8 * 4, "{shape:?}");
        let b = simulate::<Wide, OperandB>(OperandB, shape, block_tile::<Wide, OperandB>);
        assert_eq!(b, k_tiles * 256 * 2 * 8 * 4, "{shape:?}");
    }
}

/// K not a multiple of the 8-element loads is refused (a vector would run
/// past its row), naming K; the row stride is free (stride 44 with K = 40
/// is read right by `SHAPES`).
#[test]
fn shapes_the_vector_loads_cannot_serve_are_refused() {
    let global = vec![0u32; 1000];
    let lds: Vec<Cell<u32>> = (0..LDS_ELEMENTS).map(|_| Cell::new(0)).collect();
    for (k, stride) in [(36, 40), (36, 36), (44, 44), (4, 45)] {
        let e =
            OperandPath::new(Operand::A, &global, 10, k, stride, 0, SharedMemory::new(&lds), 0).err().expect("refused");
        // The library's guaranteed-vector rule names the value that breaks it.
        assert!(e.to_string().contains(&format!("length {k}, not a multiple")), "{e}");
        assert!(e.to_string().contains("guaranteed vector length 8"), "{e}");
    }
    assert!(OperandPath::new(Operand::A, &global, 10, 40, 44, 0, SharedMemory::new(&lds), 0).is_ok());
}

/// The DRAM distribution the paths declare is the catalogue's
/// `gemm_dram(256, 128, 32, 8)`, by its CLI name too (`cktile
/// distribution gemm_dram_256x128x32_k8`), and the warp distribution is
/// `mfma32x32x16_a`: the typed and runtime paths agree.
#[test]
fn the_paths_distributions_are_the_catalogues() {
    use cktile_checks::gemm::{DramDistribution, WarpDistribution};
    use cktile_core::distribution::catalogue;
    assert_eq!(DramDistribution::ENCODING, catalogue::gemm_dram(256, 128, 32, 8).unwrap());
    assert_eq!(DramDistribution::ENCODING, catalogue::by_name("gemm_dram_256x128x32_k8").unwrap());
    assert_eq!(WarpDistribution::ENCODING, catalogue::by_name("mfma32x32x16_a").unwrap());
    assert_eq!((WARPS, K_PER_WARP_TILE), (2, 16));
}

/// The generic encodings are CK's for every configuration they are
/// instantiated with, not only the paths': each equals the catalogue's
/// runtime encoding of the same parameters (and its CLI name).
#[test]
fn the_generic_policies_are_the_catalogues_for_every_size() {
    use cktile_checks::gemm::{ADramDistribution, WarpOperand};
    use cktile_core::distribution::catalogue;
    let dram = [
        ((256, 128, 32, 8), ADramDistribution::<256, 128, 32, 8>::ENCODING),
        ((256, 256, 32, 8), ADramDistribution::<256, 256, 32, 8>::ENCODING),
        ((256, 128, 64, 8), ADramDistribution::<256, 128, 64, 8>::ENCODING),
        ((128, 64, 32, 4), ADramDistribution::<128, 64, 32, 4>::ENCODING),
        ((512, 256, 16, 8), ADramDistribution::<512, 256, 16, 8>::ENCODING),
        ((64, 16, 64, 16), ADramDistribution::<64, 16, 64, 16>::ENCODING),
    ];
    for ((block, m, k, k1), typed) in dram {
        assert_eq!(typed, catalogue::gemm_dram(block, m, k, k1).unwrap(), "{block} {m} {k} {k1}");
        let name = format!("gemm_dram_{block}x{m}x{k}_k{k1}");
        assert_eq!(typed, catalogue::by_name(&name).unwrap(), "{name}");
    }
    let warp = [
        ((16, 4), WarpOperand::<16, 4>::ENCODING),
        ((16, 8), WarpOperand::<16, 8>::ENCODING),
        ((32, 4), WarpOperand::<32, 4>::ENCODING),
        ((32, 8), WarpOperand::<32, 8>::ENCODING),
        ((32, 16), WarpOperand::<32, 16>::ENCODING),
    ];
    for ((ml, kl), typed) in warp {
        assert_eq!(typed, catalogue::mfma_a_per_lane(ml, kl).unwrap(), "{ml} {kl}");
    }
}
