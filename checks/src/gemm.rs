//! CK Tile's universal GEMM data paths for the A and B operands, written
//! with cktile's tile windows, line for line as CK's policy and pipeline
//! write them (`docs/src/writing-a-kernel.md` puts the two side by side).
//!
//! The block: 256 threads (4 waves of 64), a 128 x 128 x 32 block tile
//! (MPerBlock, NPerBlock, KPerBlock), 2 x 2 warps each computing 64 x 64
//! with CK's fp16 MFMA 32x32x16 warp GEMM (8 elements of K per lane: 2 x 2
//! warp tiles per K tile). Per operand
//! (A is M x K row-major, B is N x K, "column-major" in CK's words, so the
//! two paths are one code with M and N swapped, as CK's policies are):
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
//! operand register against the element AMD's lane map names.

use cktile::Index;
use cktile::Number as N;
use cktile::distribution::Embed;
use cktile::distribution::typed::TileEncoding;
use cktile::prelude::*;
use cktile::tile::{
    Partition, SharedMemory, StaticDistributedTensor, TileWindowWithStaticDistribution, load_tile, load_tile_into,
    make_tile_window_with_distribution, move_tile_window, store_tile,
};
use cktile::transforms::typed::{Merge, PassThrough, RightPad, Unmerge, Xor};
use cktile::typed::{NaiveVector, Transformed};

/// Threads per block.
pub const BLOCK_SIZE: usize = 256;
/// Lanes per wave (CDNA).
pub const WAVE: usize = 64;
/// MPerBlock (and NPerBlock).
pub const ROWS_PER_BLOCK: usize = 128;
/// KPerBlock.
pub const K_PER_BLOCK: usize = 32;
/// Warps along M (and along N).
pub const WARPS: usize = 2;
/// Warp tiles per warp along M (or N): 128 / (2 warps x 32).
pub const ITERS: usize = 2;
/// Warp tiles per K tile: 32 / 16.
pub const K_ITERS: usize = 2;
/// K per warp tile.
pub const K_PER_WARP_TILE: usize = 16;
/// The elements a DRAM load moves at once (CK's `VectorSizeA`).
pub const VECTOR: usize = 8;
// `make_dram_view` tests K and the stride together, `(k | stride) % VECTOR`: a power of two's test.
const _: () = assert!(VECTOR.is_power_of_two());

cktile::tile_distribution_encoding! {
    /// CK's `MakeADramTileDistribution` (and `MakeBDramTileDistribution`,
    /// N for M), written once over the block size, MPerBlock, KPerBlock and
    /// K1 (the DRAM vector): K0 = K / K1, M2 = 64 / K0, M1 = BLOCK / 64,
    /// M0 = M / (M2 * M1). `REGS` is the thread buffer's size, M0 * K1.
    ///
    /// ```
    /// use cktile::distribution::typed::TileEncoding;
    /// use cktile_checks::gemm::ADramDistribution;
    /// let wide = ADramDistribution::<256, 256, 32, 8, 32>::ENCODING;
    /// assert_eq!(wide, cktile::distribution::catalogue::gemm_dram(256, 256, 32, 8)?);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    ///
    /// ```compile_fail
    /// use cktile::distribution::typed::TileEncoding;
    /// // MPerBlock 100 is not a multiple of 16 * 4: CK's static_assert, a compile error here.
    /// let _ = cktile_checks::gemm::ADramDistribution::<256, 100, 32, 8, 16>::ENCODING;
    /// ```
    pub struct ADramDistribution<const BLOCK: usize, const M: usize, const K: usize, const K1: usize, const REGS: usize> {
        requires: [
            K1 > 0 && K % K1 == 0 => "K1 (the DRAM vector) must divide KPerBlock",
            K >= K1 && 64 % (K / K1) == 0 => "KPerBlock / K1 must divide the wave size 64",
            BLOCK >= 64 && BLOCK % 64 == 0 => "the block size must be a multiple of the wave size 64",
            M > 0 && M % (64 / (K / K1) * (BLOCK / 64)) == 0 => "MPerBlock must be a multiple of (64 / (KPerBlock / K1)) * (BLOCK / 64)",
        ],
        registers: REGS,
        rs_lengths: [1],
        hs_lengthss: [[M / (64 / (K / K1) * (BLOCK / 64)), BLOCK / 64, 64 / (K / K1)], [K / K1, K1]],
        ps_to_rhss_major: [[1], [1, 2]],
        ps_to_rhss_minor: [[1], [2, 0]],
        ys_to_rhs_major: [1, 2],
        ys_to_rhs_minor: [0, 1],
    }
}

cktile::tile_distribution_encoding! {
    /// CK's MFMA warp-GEMM A (and B) distribution for an `ML`-lane MFMA
    /// (16 or 32) whose lanes hold `KL` consecutive K values: the lane
    /// merges K's 64 / ML groups with the ML rows, the register walks the
    /// KL values (`REGS` = KL).
    pub struct WarpOperand<const ML: usize, const KL: usize, const REGS: usize> {
        requires: [ML == 16 || ML == 32 => "the MFMA's M (lanes per K group) is 16 or 32"],
        registers: REGS,
        rs_lengths: [],
        hs_lengthss: [[ML], [64 / ML, KL]],
        ps_to_rhss_major: [[2, 1]],
        ps_to_rhss_minor: [[0, 0]],
        ys_to_rhs_major: [2],
        ys_to_rhs_minor: [1],
    }
}

cktile::tile_distribution_encoding! {
    /// CK's block GEMM outer encoding of A (`a_block_outer_dstr_encoding` in
    /// `block_universal_gemm_as_bs_cr.hpp`), written once over the warp
    /// tiles per warp along M (`MITER`) and K (`KITER`) and the warps along
    /// M and N: the warps along N hold copies (R), a warp is
    /// `m_warp * N_WARPS + n_warp`, and M is (`MITER`, `M_WARPS`) outside
    /// each warp tile. `REGS` is `MITER * KITER`. Embedded with the warp
    /// GEMM's operand encoding ([`ABlockDistribution`]) it is the whole
    /// block's operand distribution.
    pub struct ABlockOuter<const MITER: usize, const M_WARPS: usize, const N_WARPS: usize, const KITER: usize, const REGS: usize> {
        registers: REGS,
        rs_lengths: [N_WARPS],
        hs_lengthss: [[MITER, M_WARPS], [KITER]],
        ps_to_rhss_major: [[1, 0]],
        ps_to_rhss_minor: [[1, 0]],
        ys_to_rhs_major: [1, 2],
        ys_to_rhs_minor: [0, 0],
    }
}

cktile::tile_distribution_encoding! {
    /// CK's block GEMM outer encoding of B (`b_block_outer_dstr_encoding`):
    /// as [`ABlockOuter`] with N for M, the warps along M holding copies
    /// (a warp is `m_warp * N_WARPS + n_warp`).
    pub struct BBlockOuter<const NITER: usize, const M_WARPS: usize, const N_WARPS: usize, const KITER: usize, const REGS: usize> {
        registers: REGS,
        rs_lengths: [M_WARPS],
        hs_lengthss: [[NITER, N_WARPS], [KITER]],
        ps_to_rhss_major: [[0, 1]],
        ps_to_rhss_minor: [[0, 1]],
        ys_to_rhs_major: [1, 2],
        ys_to_rhs_minor: [0, 0],
    }
}

/// The paths' block distribution of A, CK's
/// `make_embed_tile_distribution_encoding(a_block_outer_dstr_encoding,
/// AWarpDstrEncoding)`: 2 x 2 warp tiles of the MFMA 32x32x16 operand per
/// warp, 2 x 2 warps, over the 128 x 32 block (32 registers a thread).
pub type ABlockDistribution =
    Embed<ABlockOuter<ITERS, WARPS, WARPS, K_ITERS, { ITERS * K_ITERS }>, WarpDistribution, 32>;

/// The paths' block distribution of B (N for M).
pub type BBlockDistribution =
    Embed<BBlockOuter<ITERS, WARPS, WARPS, K_ITERS, { ITERS * K_ITERS }>, WarpDistribution, 32>;

/// The paths' DRAM distribution: 256 threads over 128 x 32 with K1 = 8
/// (K0 = 4, M2 = 16, M1 = 4, M0 = 2; 16 registers).
pub type DramDistribution = ADramDistribution<256, 128, 32, 8, 16>;

/// The paths' warp distribution: the MFMA 32x32x16 fp16 operand, 8 K
/// values a lane (one 16-byte read).
pub type WarpDistribution = WarpOperand<32, 8, 8>;

/// The DRAM view's chain: naive (rows, K) with strides (stride, 1) and 8
/// guaranteed contiguous along K, each dimension right-padded.
pub type DramChain = Transformed<
    NaiveVector<(usize, usize), (usize, N<1>), N<8>, N<1>>,
    (RightPad<usize, usize>, RightPad<usize, usize>),
    ((N<0>,), (N<1>,)),
    ((N<0>,), (N<1>,)),
>;

/// CK's MLdsLayer for fp16 on 32 four-byte banks: how many K tiles share
/// one LDS row of 64 fp16 (`32 * 4 / KPerBlock / 2`, at least 1).
const fn lds_layer(k: usize) -> usize {
    match cktile::layouts::ck::mlds_layer(k, 2, 32) {
        Ok(l) => l,
        Err(_) => panic!("cktile-checks: no MLdsLayer for this KPerBlock (it must be a positive multiple of KPack 8)"),
    }
}

cktile::derived_number! {
    /// MLdsLayer for KPerBlock `K`.
    pub struct Layer<const K: usize> = lds_layer(K);
    /// MPerBlock / MLdsLayer (a compile error when it does not divide).
    pub struct MPerLayer<const M: usize, const K: usize> =
        if M % lds_layer(K) == 0 { M / lds_layer(K) } else { panic!("cktile-checks: MPerBlock must be a multiple of MLdsLayer") };
    /// KPerBlock / KPack.
    pub struct KPacks<const K: usize> = K / 8;
    /// KPerBlock / KPack * MLdsLayer.
    pub struct KPacksLayers<const K: usize> = K / 8 * lds_layer(K);
    /// KPerBlock * MLdsLayer, the row stride.
    pub struct LdsRowStride<const K: usize> = K * lds_layer(K);
}

/// The LDS block's chain for MPerBlock `M` and KPerBlock `K` (see
/// [`make_lds_block`]), spelled once for every tile size.
pub type LdsChainOf<const M: usize, const K: usize> = Transformed<
    Transformed<
        Transformed<
            NaiveVector<(KPacksLayers<K>, MPerLayer<M, K>, N<8>), (N<8>, LdsRowStride<K>, N<1>), N<8>, N<1>>,
            (Xor<MPerLayer<M, K>, KPacksLayers<K>>, PassThrough<N<8>>),
            ((N<1>, N<0>), (N<2>,)),
            ((N<1>, N<0>), (N<2>,)),
        >,
        (Unmerge<(Layer<K>, KPacks<K>)>, PassThrough<MPerLayer<M, K>>, PassThrough<N<8>>),
        ((N<0>,), (N<1>,), (N<2>,)),
        ((N<0>, N<2>), (N<1>,), (N<3>,)),
    >,
    (Merge<(MPerLayer<M, K>, Layer<K>)>, Merge<(KPacks<K>, N<8>)>),
    ((N<1>, N<0>), (N<2>, N<3>)),
    ((N<0>,), (N<1>,)),
>;

/// The paths' LDS block chain: 128 x 32 (MLdsLayer 2).
pub type LdsChain = LdsChainOf<ROWS_PER_BLOCK, K_PER_BLOCK>;

/// The elements of the LDS block.
pub const LDS_ELEMENTS: usize = ROWS_PER_BLOCK * K_PER_BLOCK;

/// CK's `MakeALdsBlockDescriptor` (and `MakeBLdsBlockDescriptor`, N for
/// M) for fp16, written once over MPerBlock `M` and KPerBlock `K`: KPack 8
/// guaranteed contiguous, `naive((K0 * L, M / L, KPack), (KPack, K * L,
/// 1))` with L = MLdsLayer, the xor preshuffle of (M / L, K0 * L), then
/// unmerge and merge back to (M, K).
///
/// ```
/// use cktile::layouts::ck::{universal_a, UnmergeOrder};
/// use cktile_checks::gemm::make_lds_block;
/// // The paths' block (128 x 32, MLdsLayer 2) and a 256 x 64 one (MLdsLayer 1):
/// // every offset is the catalogue's CK block's.
/// let blocks = [(make_lds_block::<128, 32>()?.descriptor(), 128, 32), (make_lds_block::<256, 64>()?.descriptor(), 256, 64)];
/// for (d, m, k) in blocks {
///     let ck = universal_a(m, k, 8, 2, 32, UnmergeOrder::Fixed2025)?;
///     for (mi, ki) in (0..m as i64).flat_map(|mi| (0..k as i64).map(move |ki| (mi, ki))) {
///         assert_eq!(d.calculate_offset(&[mi, ki]), ck.calculate_offset(&[mi, ki]));
///     }
/// }
/// # Ok::<(), cktile::Error>(())
/// ```
#[inline(always)]
pub fn make_lds_block<const M: usize, const K: usize>() -> Result<TensorDescriptor<LdsChainOf<M, K>>, Error> {
    let (ml, k0l) = (MPerLayer::<M, K>, KPacksLayers::<K>);
    let d = make_naive_tensor_descriptor_with_vector(
        (k0l, ml, N::<8>),
        (N::<8>, LdsRowStride::<K>, N::<1>),
        N::<8>,
        N::<1>,
    )?;
    let d = transform_tensor_descriptor(
        d,
        (make_xor_transform((ml, k0l)), make_pass_through_transform(N::<8>)),
        (ids![1, 0], ids![2]),
        (ids![1, 0], ids![2]),
    )?;
    let d = transform_tensor_descriptor(
        d,
        (
            make_unmerge_transform((Layer::<K>, KPacks::<K>)),
            make_pass_through_transform(ml),
            make_pass_through_transform(N::<8>),
        ),
        (ids![0], ids![1], ids![2]),
        (ids![0, 2], ids![1], ids![3]),
    )?;
    transform_tensor_descriptor(
        d,
        (make_merge_transform((ml, Layer::<K>)), make_merge_transform((KPacks::<K>, N::<8>))),
        (ids![1, 0], ids![2, 3]),
        (ids![0], ids![1]),
    )
}

/// CK's `make_naive_tensor_view<global>(p, (rows, K), (stride, 1),
/// number<8>, number<1>)` padded to the block tile (`pad_tensor_view`).
/// Refused, as CK's `IsSupportedArgument` refuses them: K or the stride
/// not a multiple of the vector (a vector would run past a row's end).
#[inline(always)]
pub fn make_dram_view<T: Copy>(
    data: &[T],
    rows: usize,
    k: usize,
    stride: usize,
) -> Result<cktile::typed::TensorView<&[T], DramChain>, Error> {
    // CK's IsSupportedArgument, as a policy check of this kernel's own:
    // one test of both values (a loop over a (name, value) array stayed a
    // loop in amdgcn's scratch memory), the error named only on refusal.
    if (k | stride) % VECTOR != 0 {
        let (name, value) = if k % VECTOR != 0 { ("K", k) } else { ("row stride", stride) };
        return Err(Error::policy_value(
            "K and the row stride must be multiples of the 8 elements each DRAM load moves",
            name,
            value as Index,
        ));
    }
    let d = make_naive_tensor_descriptor_with_vector((rows, k), (stride, N::<1>), N::<8>, N::<1>)?;
    pad_tensor_view(make_tensor_view(data, d), (N::<128>, N::<32>), (DoPad::<true>, DoPad::<true>))
}

/// Which operand a path moves: the warp's row of warp tiles is its M index
/// for A, its N index for B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A (M x K): warp `w` takes rows `32 * (w / 2) + 64 * i`.
    A,
    /// B (N x K): warp `w` takes rows `32 * (w % 2) + 64 * i`.
    B,
}

/// One thread's windows of one operand's data path.
#[derive(Clone, Copy)]
pub struct OperandPath<'a, T: Copy> {
    dram: TileWindowWithStaticDistribution<&'a [T], DramChain, DramDistribution>,
    lds_store: TileWindowWithStaticDistribution<SharedMemory<'a, T>, LdsChain, DramDistribution>,
    warp: TileWindowWithStaticDistribution<SharedMemory<'a, T>, LdsChain, WarpDistribution>,
}

/// A thread's DRAM tile (16 elements).
pub type DramTile<T> = StaticDistributedTensor<T, DramDistribution>;
/// A thread's MFMA operand (8 elements).
pub type WarpTile<T> = StaticDistributedTensor<T, WarpDistribution>;

impl<'a, T: Copy + Default> OperandPath<'a, T> {
    /// The windows of thread `thread` for the block whose tile starts at row
    /// `block_row` of a `rows x k` operand (row stride `stride`) in
    /// `global`, staged through `lds` ([`LDS_ELEMENTS`] elements).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        operand: Operand,
        global: &'a [T],
        rows: usize,
        k: usize,
        stride: usize,
        block_row: Index,
        lds: SharedMemory<'a, T>,
        thread: usize,
    ) -> Result<Self, Error> {
        let desc = *make_dram_view(global, rows, k, stride)?.descriptor();
        Self::from_descriptor(operand, desc, global, block_row, lds, thread)
    }

    /// [`new`](Self::new) over a DRAM descriptor built by [`make_dram_view`]
    /// (on the host, say) for `global`.
    #[inline(always)]
    pub fn from_descriptor(
        operand: Operand,
        desc: TensorDescriptor<DramChain>,
        global: &'a [T],
        block_row: Index,
        lds: SharedMemory<'a, T>,
        thread: usize,
    ) -> Result<Self, Error> {
        let p = Partition::from_thread::<WAVE>(thread);
        let tile = (N::<128>, N::<32>);
        let dram_view = make_tensor_view(global, desc);
        let dram =
            make_tile_window_with_distribution(dram_view, tile, [block_row, 0], make_static_tile_distribution(), p)?;
        let lds_view = make_tensor_view(lds, make_lds_block::<ROWS_PER_BLOCK, K_PER_BLOCK>()?);
        let lds_store = make_tile_window_with_distribution(lds_view, tile, [0, 0], make_static_tile_distribution(), p)?;
        let warp_row = match operand {
            Operand::A => p.warp / WARPS as Index,
            Operand::B => p.warp % WARPS as Index,
        } * 32;
        let warp = make_tile_window_with_distribution(
            lds_view,
            (N::<32>, N::<16>),
            [warp_row, 0],
            make_static_tile_distribution(),
            p,
        )?;
        Ok(OperandPath { dram, lds_store, warp })
    }

    /// The elements each access moves, as the windows' plans chose them
    /// from the distributions and the views: (DRAM load, LDS store, warp
    /// read).
    pub fn vectors(&self) -> (usize, usize, usize) {
        (self.dram.plan().vector(), self.lds_store.plan().vector(), self.warp.plan().vector())
    }

    /// `load_tile` of the DRAM window: this K tile's 16 elements.
    #[inline(always)]
    pub fn load(&self) -> DramTile<T> {
        load_tile(&self.dram)
    }

    /// `move_tile_window` of the DRAM window to the next K tile.
    #[inline(always)]
    pub fn next_k(&mut self) {
        move_tile_window(&mut self.dram, [0, K_PER_BLOCK as Index]);
    }

    /// `store_tile` of a DRAM tile into the LDS block.
    #[inline(always)]
    pub fn store(&mut self, tile: &DramTile<T>) {
        store_tile(&mut self.lds_store, tile);
    }

    /// The MFMA operand of warp tile (`iter`, `k_iter`): the warp window
    /// moved there, `load_tile`.
    #[inline(always)]
    pub fn read(&self, iter: usize, k_iter: usize) -> WarpTile<T> {
        let mut regs = WarpTile::filled(T::default());
        self.read_into(iter, k_iter, &mut regs);
        regs
    }

    /// [`read`](Self::read) into an existing operand (CK's `load_tile(tensor, window)`).
    #[inline(always)]
    pub fn read_into(&self, iter: usize, k_iter: usize, regs: &mut WarpTile<T>) {
        let mut w = self.warp;
        move_tile_window(&mut w, [(iter * WARPS * 32) as Index, (k_iter * K_PER_WARP_TILE) as Index]);
        load_tile_into(&w, regs);
    }
}

/// CK's block GEMM operand read (`block_universal_gemm_as_bs_cr`): thread
/// `thread`'s window over the whole LDS block with the embedded block
/// distribution `E` ([`ABlockDistribution`] or [`BBlockDistribution`]);
/// one `load_tile` of it is the thread's 2 x 2 warp tiles (Y = M tile, K
/// tile, register), the same registers as [`OperandPath::read`] of each.
///
/// ```
/// use cktile::tile::{SharedMemory, load_tile};
/// use cktile_checks::gemm::{ABlockDistribution, LDS_ELEMENTS, block_window};
/// use core::cell::Cell;
/// let lds: Vec<Cell<u16>> = (0..LDS_ELEMENTS).map(|i| Cell::new(i as u16)).collect();
/// let w = block_window::<u16, ABlockDistribution>(SharedMemory::new(&lds), 0)?;
/// assert_eq!((w.plan().accesses(), w.plan().vector()), (4, 8));
/// assert_eq!(load_tile(&w).thread_buffer().len(), 32);
/// # Ok::<(), cktile::Error>(())
/// ```
#[inline(always)]
pub fn block_window<T: Copy, E: TileEncoding>(
    lds: SharedMemory<'_, T>,
    thread: usize,
) -> Result<TileWindowWithStaticDistribution<SharedMemory<'_, T>, LdsChain, E>, Error> {
    let view = make_tensor_view(lds, make_lds_block::<ROWS_PER_BLOCK, K_PER_BLOCK>()?);
    let p = Partition::from_thread::<WAVE>(thread);
    make_tile_window_with_distribution(view, (N::<128>, N::<32>), [0, 0], make_static_tile_distribution(), p)
}

/// The LDS block as a constant, for the compile-time bank checks below.
const LDS_BLOCK: cktile::Descriptor = *TensorDescriptor::<LdsChain>::DESCRIPTOR;

// The windows the kernel declares over the LDS block, checked at compile
// time on gfx942 (fp16): the block's ds_write_b128 stores of the DRAM tile,
// and the warps' ds_read_b128 MFMA operand reads. A layout change that
// conflicts stops the build, naming the instruction, phase and ways. (The
// MFMA 32x32x8 operand, 4 elements a lane read by ds_read_b64, is 2-way
// conflicted on this block: lanes 0 and 9 of phase 0 share banks 0 and 1.)
cktile::assert_conflict_free!(
    LDS_BLOCK,
    2,
    cktile::analyzer::arch::GFX942,
    <DramDistribution as cktile::distribution::typed::TileEncoding>::ENCODING,
    cktile::analyzer::Op::DsWrite { bits: 128 }
);
cktile::assert_conflict_free!(
    LDS_BLOCK,
    2,
    cktile::analyzer::arch::GFX942,
    <WarpDistribution as cktile::distribution::typed::TileEncoding>::ENCODING,
    cktile::analyzer::Op::DsRead { bits: 128 }
);
