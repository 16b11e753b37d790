//! CK Tile's universal GEMM data paths for the A and B operands, the
//! library's policy (`cktile_core::ops::gemm`) instantiated once: a 128 x 128
//! x 32 block tile (MPerBlock, NPerBlock, KPerBlock) on 256 threads (4
//! waves of 64), 2 x 2 warps each computing 64 x 64 with CK's fp16 MFMA
//! 32x32x16 warp GEMM (8 elements of K per lane: 2 x 2 warp tiles per K
//! tile). `docs/src/writing-a-kernel.md` puts the policy beside CK's.
//! Per operand (A is M x K row-major, B is N x K, "column-major" in CK's
//! words, so the two paths are one code with M and N swapped, as CK's
//! policies are):
//!
//! 1. the DRAM view: runtime rows, K and row stride, 8 elements guaranteed
//!    contiguous along K (CK's `VectorSizeA`), right-padded to the block
//!    tile (`pad_tensor_view`);
//! 2. the DRAM window, distributed by CK's `MakeADramTileDistribution`
//!    (each thread loads 2 x 8 elements, one 8-wide vector per row);
//! 3. the LDS block, CK's `MakeALdsBlockDescriptor` (xor preshuffle,
//!    KPack 8, MLdsLayer 2), stored through a window of the same
//!    distribution;
//! 4. the warp windows, distributed by the MFMA 32x32x16 operand layout
//!    (lane `l` holds row `l % 32`, K `8 * (l / 32) + 0..8`), moved over
//!    the warp's 2 x 2 warp tiles;
//! 5. the K loop: the DRAM window moves by KPerBlock.
//!
//! A kernel calls [`OperandPath::load`], [`OperandPath::next_k`],
//! [`OperandPath::store`] and [`OperandPath::read`] with block barriers
//! between the store and the reads; `tests/gemm_simulator.rs` runs every
//! lane of a block on the CPU, stage by stage, and checks every MFMA
//! operand register against the element AMD's lane map names (for this
//! policy and for a second one). The operand is chosen at run time here
//! ([`Operand`]: the policy's A and B types are the same, its block tile
//! being square); a kernel of the library's own chooses it by type
//! (`OperandA`, `OperandB`).

use cktile_core::Index;
use cktile_core::ops::gemm::{self, GemmPolicy, OperandSide, UniversalGemmPolicy};
use cktile_core::prelude::*;
use cktile_core::tile::{Partition, SharedMemory, StaticDistributedTensor, TileWindowWithStaticDistribution};

pub use cktile_core::ops::gemm::{
    ABlockOuter, ADramDistribution, BBlockOuter, DramChain, KPacks, KPacksLayers, Layer, LdsChainOf, LdsRowStride,
    MPerLayer, WAVE, WarpOperand, make_lds_block,
};

/// The paths' policy: CK's universal GEMM for a 128 x 128 x 32 block tile
/// on 256 threads, 2 x 2 warps of the MFMA 32x32x16.
pub type Policy = UniversalGemmPolicy<256, 128, 128, 32>;

/// The elements of one DRAM load (16 bytes of fp16).
pub const VECTOR: usize = <Policy as GemmPolicy>::VECTOR;
/// Threads per block.
pub const BLOCK_SIZE: usize = <Policy as GemmPolicy>::BLOCK_SIZE;
/// MPerBlock (and NPerBlock).
pub const ROWS_PER_BLOCK: usize = <Policy as GemmPolicy>::M_PER_BLOCK;
/// KPerBlock.
pub const K_PER_BLOCK: usize = <Policy as GemmPolicy>::K_PER_BLOCK;
/// Warps along M (and along N).
pub const WARPS: usize = <Policy as GemmPolicy>::M_WARPS;
/// Warp tiles per warp along M (or N): 128 / (2 warps x 32).
pub const ITERS: usize = <Policy as GemmPolicy>::M_ITERS;
/// Warp tiles per K tile: 32 / 16.
pub const K_ITERS: usize = <Policy as GemmPolicy>::K_ITERS;
/// K per warp tile.
pub const K_PER_WARP_TILE: usize = <Policy as GemmPolicy>::WARP_K;
/// The elements of the LDS block.
pub const LDS_ELEMENTS: usize = ROWS_PER_BLOCK * K_PER_BLOCK;

/// The paths' block distribution of A, CK's
/// `make_embed_tile_distribution_encoding(a_block_outer_dstr_encoding,
/// AWarpDstrEncoding)`: 2 x 2 warp tiles of the MFMA 32x32x16 operand per
/// warp, 2 x 2 warps, over the 128 x 32 block (32 registers a thread).
pub type ABlockDistribution = <Policy as GemmPolicy>::ABlock;

/// The paths' block distribution of B (N for M).
pub type BBlockDistribution = <Policy as GemmPolicy>::BBlock;

/// The paths' DRAM distribution: 256 threads over 128 x 32 with K1 = 8
/// (K0 = 4, M2 = 16, M1 = 4, M0 = 2; 16 registers).
pub type DramDistribution = <Policy as GemmPolicy>::ADram;

/// The paths' warp distribution: the MFMA 32x32x16 fp16 operand, 8 K
/// values a lane (one 16-byte read).
pub type WarpDistribution = <Policy as GemmPolicy>::AWarp;

/// The paths' LDS block chain: 128 x 32 (MLdsLayer 2).
pub type LdsChain = <Policy as GemmPolicy>::ALdsChain;

/// CK's `make_naive_tensor_view<global>(p, (rows, K), (stride, 1),
/// number<8>, number<1>)` padded to the 128 x 32 block tile
/// (`pad_tensor_view`). Refused: K not a multiple of the vector (a vector
/// would run past a row's end; CK's `IsSupportedArgument` refuses it too).
/// Any row stride is accepted, as in CK (see
/// [`make_dram_view`](cktile_core::ops::gemm::make_dram_view)).
///
/// ```
/// let a = vec![0u16; 100 * 40];
/// let v = cktile_checks::gemm::make_dram_view(&a, 100, 40, 40)?;
/// assert_eq!(v.descriptor().lengths().as_slice(), &[128, 64]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[inline(always)]
pub fn make_dram_view<T: Copy>(
    data: &[T],
    rows: usize,
    k: usize,
    stride: usize,
) -> Result<cktile_core::typed::TensorView<&[T], DramChain>, Error> {
    Policy::make_a_dram_view(data, rows, k, stride)
}

/// Which operand a path moves, chosen at run time: the warp's row of warp
/// tiles is its M index for A, its N index for B. Both read the same
/// types (the policy's block tile is square), so one [`OperandPath`] type
/// serves both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A (M x K): warp `w` takes rows `32 * (w / 2) + 64 * i`.
    A,
    /// B (N x K): warp `w` takes rows `32 * (w % 2) + 64 * i`.
    B,
}

// A runtime side needs A's and B's types to be the same: they are, for this policy.
const _: fn(<Policy as GemmPolicy>::BDram) -> DramDistribution = |x| x;
const _: fn(<Policy as GemmPolicy>::BWarp) -> WarpDistribution = |x| x;
const _: fn(<Policy as GemmPolicy>::BLdsChain) -> LdsChain = |x| x;
const _: fn(<Policy as GemmPolicy>::BTile) -> <Policy as GemmPolicy>::ATile = |x| x;
const _: fn(<Policy as GemmPolicy>::BWarpTile) -> <Policy as GemmPolicy>::AWarpTile = |x| x;

impl OperandSide<Policy> for Operand {
    const ROWS: usize = ROWS_PER_BLOCK;
    const ROW_WARPS: usize = WARPS;
    const WARP_ROWS: usize = <Policy as GemmPolicy>::WARP_M;
    const ITERS: usize = ITERS;
    type Dram = DramDistribution;
    type Warp = WarpDistribution;
    type LdsChain = LdsChain;
    type DramChain = DramChain;
    type Tile = <Policy as GemmPolicy>::ATile;
    type WarpTile = <Policy as GemmPolicy>::AWarpTile;

    #[inline(always)]
    fn warp_row(self, warp: Index) -> Index {
        match self {
            Operand::A => <gemm::OperandA as OperandSide<Policy>>::warp_row(gemm::OperandA, warp),
            Operand::B => <gemm::OperandB as OperandSide<Policy>>::warp_row(gemm::OperandB, warp),
        }
    }

    #[inline(always)]
    fn make_lds_block() -> Result<TensorDescriptor<LdsChain>, Error> {
        Policy::make_a_lds_block()
    }

    #[inline(always)]
    fn make_dram_view<T: Copy>(
        data: &[T],
        rows: usize,
        k: usize,
        stride: usize,
    ) -> Result<cktile_core::typed::TensorView<&[T], DramChain>, Error> {
        make_dram_view(data, rows, k, stride)
    }
}

/// One thread's windows of one operand's data path: the library's
/// `OperandPath` of the paths' policy, the operand chosen at run time.
pub type OperandPath<'a, T> = gemm::OperandPath<'a, T, Policy, Operand>;

/// A thread's DRAM tile (16 elements).
pub type DramTile<T> = StaticDistributedTensor<T, DramDistribution>;
/// A thread's MFMA operand (8 elements).
pub type WarpTile<T> = StaticDistributedTensor<T, WarpDistribution>;

/// CK's block GEMM operand read (`block_universal_gemm_as_bs_cr`): the
/// window of the thread at `p` over the whole LDS block of side `S`
/// ([`gemm::OperandA`] or [`gemm::OperandB`]: a side chosen by type, whose
/// embedded block distribution, [`ABlockDistribution`] or
/// [`BBlockDistribution`], comes with it); one `load_tile` of it is the
/// thread's 2 x 2 warp tiles (Y = M tile, K tile, register), the same
/// registers as [`OperandPath::read`] of each.
///
/// ```
/// use cktile_core::ops::gemm::{GemmPolicy, OperandA};
/// use cktile_core::tile::{SharedMemory, load_tile};
/// use cktile_checks::gemm::{LDS_ELEMENTS, Policy, block_window};
/// use core::cell::Cell;
/// let lds: Vec<Cell<u16>> = (0..LDS_ELEMENTS).map(|i| Cell::new(i as u16)).collect();
/// let p = Policy::partition_of_thread(0).unwrap();
/// let w = block_window::<u16, OperandA>(SharedMemory::new(&lds), p)?;
/// assert_eq!((w.plan().accesses(), w.plan().vector()), (4, 8));
/// assert_eq!(load_tile(&w).thread_buffer().len(), 32);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[inline(always)]
pub fn block_window<T: Copy, S: gemm::BlockGemmSide<Policy, LdsChain = LdsChain>>(
    lds: SharedMemory<'_, T>,
    p: Partition,
) -> Result<TileWindowWithStaticDistribution<SharedMemory<'_, T>, LdsChain, S::Block>, Error> {
    gemm::block_window::<T, Policy, S>(lds, p)
}

/// The LDS block as a constant, for the compile-time bank checks below.
const LDS_BLOCK: cktile_core::Descriptor = *TensorDescriptor::<LdsChain>::DESCRIPTOR;

// The windows the kernel declares over the LDS block, checked at compile
// time on gfx942 (fp16): the block's ds_write_b128 stores of the DRAM tile,
// and the warps' ds_read_b128 MFMA operand reads. A layout change that
// conflicts stops the build, naming the instruction, phase and ways. (The
// MFMA 32x32x8 operand, 4 elements a lane read by ds_read_b64, is 2-way
// conflicted on this block: lanes 0 and 9 of phase 0 share banks 0 and 1.)
cktile_analysis::assert_conflict_free!(
    LDS_BLOCK,
    2,
    cktile_analysis::analyzer::arch::GFX942,
    <DramDistribution as cktile_core::distribution::typed::TileEncoding>::ENCODING,
    cktile_analysis::analyzer::Op::DsWrite { bits: 128 }
);
cktile_analysis::assert_conflict_free!(
    LDS_BLOCK,
    2,
    cktile_analysis::analyzer::arch::GFX942,
    <WarpDistribution as cktile_core::distribution::typed::TileEncoding>::ENCODING,
    cktile_analysis::analyzer::Op::DsRead { bits: 128 }
);
