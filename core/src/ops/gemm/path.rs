//! One operand's data path through the universal GEMM pipeline, as one
//! thread runs it: [`OperandPath`] holds the thread's DRAM window (the
//! block tile of its operand, distributed by the policy's DRAM
//! distribution), its LDS store window (the same distribution over the
//! LDS block) and its warp window (the warp GEMM's operand distribution
//! over its warp tile of the LDS block), and moves tiles between them
//! with CK's calls. [`block_window`] is CK's block GEMM read: one window
//! over the whole LDS block with the embedded block distribution.
//!
//! Which operand a path moves is its side ([`OperandSide`]): [`OperandA`]
//! (rows along M, the warp's M index picks its warp tiles) or
//! [`OperandB`] (rows along N).
//!
//! ```
//! use cktile_core::ops::gemm::{GemmPolicy, OperandA, OperandPath, UniversalGemmPolicy};
//! use cktile_core::tile::SharedMemory;
//! use core::cell::Cell;
//! type P = UniversalGemmPolicy<256, 128, 128, 32>;
//! // A 128 x 32 A operand: element (m, k) = 100 * m + k.
//! let a: Vec<u32> = (0..128 * 32).map(|i| 100 * (i / 32) + i % 32).collect();
//! let lds: Vec<Cell<u32>> = (0..128 * 32).map(|_| Cell::new(0)).collect();
//! let mut paths: Vec<OperandPath<'_, u32, P, OperandA>> = (0..256)
//!     .map(|t| OperandPath::new(OperandA, &a, 128, 32, 32, 0, SharedMemory::new(&lds), t))
//!     .collect::<Result<_, _>>()?;
//! // The block's stages, barriers between them: every thread loads, then stores.
//! let tiles: Vec<_> = paths.iter().map(|p| p.load()).collect();
//! for (p, t) in paths.iter_mut().zip(&tiles) {
//!     p.store(t);
//! }
//! // Thread 70 (warp 1 = M warp 0, N warp 1; lane 6): warp tile (1, 1) holds row 64 + 6, K 16 + 0..8.
//! let regs = paths[70].read(1, 1);
//! assert_eq!(regs.thread_buffer(), &(0..8).map(|j| 100 * 70 + 16 + j).collect::<Vec<_>>()[..]);
//! # Ok::<(), cktile_core::Error>(())
//! ```

use super::WAVE;
use super::policy::{ADramChain, BDramChain, GemmPolicy};
use crate::Index;
use crate::distribution::typed::{TileEncoding, make_static_tile_distribution};
use crate::error::Error;
use crate::tile::{
    BufferElement, GlobalMemory, Partition, SharedMemory, StaticDistributedTensor, TileWindowWithStaticDistribution,
    load_tile, load_tile_into, make_tile_window_with_distribution, move_tile_window, store_tile,
};
use crate::typed::{Chain, TensorDescriptor, TensorView, make_tensor_view};
use cktile_transforms::Values;
use core::marker::PhantomData;
use typenum::U2;

/// Which operand of policy `P` a data path moves: its encodings, LDS
/// chain, tile lengths and builders, and which warp tiles a warp reads.
/// [`OperandA`] and [`OperandB`] implement it for every policy; a type of
/// one's own may too (a runtime choice of operand, for a policy whose A
/// and B types are the same).
///
/// ```
/// use cktile_core::ops::gemm::{OperandA, OperandB, OperandSide, UniversalGemmPolicy};
/// type P = UniversalGemmPolicy<256, 128, 64, 32>;
/// assert_eq!((<OperandA as OperandSide<P>>::ROWS, <OperandB as OperandSide<P>>::ROWS), (128, 64));
/// // Warp 3 of 2 x 2 warps is M warp 1, N warp 1; warp 2 is M warp 1, N warp 0.
/// assert_eq!((<OperandA as OperandSide<P>>::warp_row(OperandA, 2), <OperandB as OperandSide<P>>::warp_row(OperandB, 2)), (1, 0));
/// ```
pub trait OperandSide<P: GemmPolicy>: Copy {
    /// Rows of the block tile (MPerBlock for A, NPerBlock for B).
    const ROWS: usize;
    /// Warps along the rows (MWarp for A, NWarp for B).
    const ROW_WARPS: usize;
    /// Rows of a warp tile (the warp GEMM's M or N).
    const WARP_ROWS: usize;
    /// Warp tiles a warp iterates along the rows (MIterPerWarp, NIterPerWarp).
    const ITERS: usize;
    /// The DRAM (and LDS store) distribution.
    type Dram: TileEncoding;
    /// The warp GEMM's operand distribution.
    type Warp: TileEncoding;
    /// The LDS block's chain.
    type LdsChain: Chain<NumTop = U2>;
    /// The DRAM view's chain ([`ADramChain`] or [`BDramChain`]: the
    /// operand's layout).
    type DramChain: Chain<NumTop = U2>;
    /// The block tile's lengths.
    type Tile: Values<Len = U2> + Default;
    /// The warp tile's lengths.
    type WarpTile: Values<Len = U2> + Default;
    /// The warp's index along the rows, of warp `warp` of the block.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{BlockWarps, OperandA, OperandSide, UniversalGemmPolicy};
    /// // 4 x 1 warps: warp w is M warp w.
    /// type P = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<4, 1>>;
    /// assert_eq!(<OperandA as OperandSide<P>>::warp_row(OperandA, 3), 3);
    /// ```
    fn warp_row(self, warp: Index) -> Index;
    /// The LDS block descriptor.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{OperandB, OperandSide, UniversalGemmPolicy};
    /// type P = UniversalGemmPolicy<256, 128, 64, 32>;
    /// assert_eq!(<OperandB as OperandSide<P>>::make_lds_block()?.element_space_size(), 64 * 32);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn make_lds_block() -> Result<TensorDescriptor<Self::LdsChain>, Error>;
    /// The DRAM view of a `rows x k` operand (leading dimension `stride`:
    /// its row stride when K is contiguous, its column stride when its
    /// rows are).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{OperandB, OperandSide, UniversalGemmPolicy};
    /// type P = UniversalGemmPolicy<256, 128, 64, 32>;
    /// let b = vec![0u16; 70 * 40];
    /// // Padded to NPerBlock x KPerBlock tiles: 128 x 64.
    /// let v = <OperandB as OperandSide<P>>::make_dram_view(&b, 70, 40, 40)?;
    /// assert_eq!(v.descriptor().lengths().as_slice(), &[128, 64]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn make_dram_view<T: Copy>(
        data: &[T],
        rows: usize,
        k: usize,
        stride: usize,
    ) -> Result<TensorView<&[T], Self::DramChain>, Error>;
}

/// The A operand (seen as M x K, whatever its layout): warp `w` reads the warp tiles of
/// rows `WARP_M * (w / NWarp) + MWarp * WARP_M * i`.
///
/// ```
/// use cktile_core::ops::gemm::{OperandA, OperandSide, UniversalGemmPolicy};
/// assert_eq!(<OperandA as OperandSide<UniversalGemmPolicy<256, 128, 128, 32>>>::ITERS, 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OperandA;

/// The B operand (seen as N x K, whatever its layout): warp `w` reads the
/// warp tiles of rows `WARP_N * (w % NWarp) + NWarp * WARP_N * i`.
///
/// ```
/// use cktile_core::ops::gemm::{OperandB, OperandSide, UniversalGemmPolicy};
/// assert_eq!(<OperandB as OperandSide<UniversalGemmPolicy<256, 128, 64, 32>>>::ITERS, 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OperandB;

impl<P: GemmPolicy> OperandSide<P> for OperandA {
    const ROWS: usize = P::M_PER_BLOCK;
    const ROW_WARPS: usize = P::M_WARPS;
    const WARP_ROWS: usize = P::WARP_M;
    const ITERS: usize = P::M_ITERS;
    type Dram = P::ADram;
    type Warp = P::AWarp;
    type LdsChain = P::ALdsChain;
    type DramChain = ADramChain<P>;
    type Tile = P::ATile;
    type WarpTile = P::AWarpTile;

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn warp_row(self, warp: Index) -> Index {
        warp / P::N_WARPS as Index
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn make_lds_block() -> Result<TensorDescriptor<Self::LdsChain>, Error> {
        P::make_a_lds_block()
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn make_dram_view<T: Copy>(
        data: &[T],
        rows: usize,
        k: usize,
        stride: usize,
    ) -> Result<TensorView<&[T], ADramChain<P>>, Error> {
        P::make_a_dram_view(data, rows, k, stride)
    }
}

impl<P: GemmPolicy> OperandSide<P> for OperandB {
    const ROWS: usize = P::N_PER_BLOCK;
    const ROW_WARPS: usize = P::N_WARPS;
    const WARP_ROWS: usize = P::WARP_N;
    const ITERS: usize = P::N_ITERS;
    type Dram = P::BDram;
    type Warp = P::BWarp;
    type LdsChain = P::BLdsChain;
    type DramChain = BDramChain<P>;
    type Tile = P::BTile;
    type WarpTile = P::BWarpTile;

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn warp_row(self, warp: Index) -> Index {
        warp % P::N_WARPS as Index
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn make_lds_block() -> Result<TensorDescriptor<Self::LdsChain>, Error> {
        P::make_b_lds_block()
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn make_dram_view<T: Copy>(
        data: &[T],
        rows: usize,
        k: usize,
        stride: usize,
    ) -> Result<TensorView<&[T], BDramChain<P>>, Error> {
        P::make_b_dram_view(data, rows, k, stride)
    }
}

/// A thread's DRAM tile of side `S` (what [`OperandPath::load`] returns and
/// [`OperandPath::store`] writes).
///
/// ```
/// use cktile_core::ops::gemm::{DramTensor, OperandA, UniversalGemmPolicy};
/// // 128 x 32 over 256 threads: 16 elements a thread.
/// assert_eq!(size_of::<DramTensor<u16, UniversalGemmPolicy<256, 128, 128, 32>, OperandA>>(), 16 * 2);
/// ```
pub type DramTensor<T, P, S> = StaticDistributedTensor<T, <S as OperandSide<P>>::Dram>;

/// A thread's warp GEMM operand of side `S` (CK's `AWarpTensor`,
/// `BWarpTensor`).
///
/// ```
/// use cktile_core::ops::gemm::{BlockWarps, Mfma16x16x16, OperandB, UniversalGemmPolicy, WarpTensor};
/// type P = UniversalGemmPolicy<256, 64, 64, 32, BlockWarps<2, 2>, Mfma16x16x16>;
/// assert_eq!(size_of::<WarpTensor<u16, P, OperandB>>(), 4 * 2);
/// ```
pub type WarpTensor<T, P, S> = StaticDistributedTensor<T, <S as OperandSide<P>>::Warp>;

/// A thread's DRAM window of side `S` (CK's `a_copy_dram_window`): the
/// block tile of its operand in global memory, distributed by the DRAM
/// distribution.
///
/// ```
/// use cktile_core::ops::gemm::{DramWindow, OperandA, UniversalGemmPolicy};
/// fn _kernel(w: &DramWindow<'_, u16, UniversalGemmPolicy<256, 128, 128, 32>, OperandA>) {
///     let _tile = cktile_core::tile::load_tile(w);
/// }
/// ```
pub type DramWindow<'a, T, P, S> = TileWindowWithStaticDistribution<
    GlobalMemory<'a, T, GlobalOf<P>>,
    <S as OperandSide<P>>::DramChain,
    <S as OperandSide<P>>::Dram,
>;

/// How policy `P` reads A and B from global memory: its
/// [`Global`](GemmPolicy::Global) ([`Plain`](crate::tile::Plain) loads
/// unless the policy names CK's buffer loads).
///
/// ```
/// use cktile_core::ops::gemm::{BlockWarps, ColumnMajor, GlobalOf, Mfma32x32x16, RowMajor, UniversalGemmPolicy};
/// use cktile_core::tile::{BufferGfx9, Plain};
/// use core::any::TypeId;
/// assert_eq!(TypeId::of::<GlobalOf<UniversalGemmPolicy<256, 128, 128, 32>>>(), TypeId::of::<Plain>());
/// type Buffered = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma32x32x16, RowMajor, ColumnMajor, BufferGfx9>;
/// assert_eq!(TypeId::of::<GlobalOf<Buffered>>(), TypeId::of::<BufferGfx9>());
/// ```
pub type GlobalOf<P> = <P as GemmPolicy>::Global;

/// A thread's LDS store window of side `S` (CK's `a_copy_lds_window`): the
/// LDS block, distributed by the DRAM distribution.
///
/// ```
/// use cktile_core::ops::gemm::{DramTensor, LdsStoreWindow, OperandB, UniversalGemmPolicy};
/// type P = UniversalGemmPolicy<256, 128, 128, 32>;
/// fn _store(w: &mut LdsStoreWindow<'_, u16, P, OperandB>, tile: &DramTensor<u16, P, OperandB>) {
///     cktile_core::tile::store_tile(w, tile);
/// }
/// ```
pub type LdsStoreWindow<'a, T, P, S> =
    TileWindowWithStaticDistribution<SharedMemory<'a, T>, <S as OperandSide<P>>::LdsChain, <S as OperandSide<P>>::Dram>;

/// A thread's warp window of side `S` (CK's `a_lds_gemm_window` read by a
/// warp GEMM operand): one warp tile of the LDS block, distributed by the
/// MFMA operand encoding.
///
/// ```
/// use cktile_core::ops::gemm::{OperandA, UniversalGemmPolicy, WarpWindow};
/// fn _read(w: &WarpWindow<'_, u16, UniversalGemmPolicy<256, 128, 128, 32>, OperandA>) -> usize {
///     w.plan().vector()
/// }
/// ```
pub type WarpWindow<'a, T, P, S> =
    TileWindowWithStaticDistribution<SharedMemory<'a, T>, <S as OperandSide<P>>::LdsChain, <S as OperandSide<P>>::Warp>;

/// One thread's windows of one operand's data path: the DRAM window, the
/// LDS store window and the warp window (see the [module](self)).
/// `Copy`; everything but the windows' origins is a compile-time
/// constant of the policy.
pub struct OperandPath<'a, T: Copy, P: GemmPolicy, S: OperandSide<P>> {
    dram: DramWindow<'a, T, P, S>,
    lds_store: LdsStoreWindow<'a, T, P, S>,
    warp: WarpWindow<'a, T, P, S>,
    policy: PhantomData<fn() -> (P, S)>,
}

impl<T: Copy, P: GemmPolicy, S: OperandSide<P>> Clone for OperandPath<'_, T, P, S> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Copy, P: GemmPolicy, S: OperandSide<P>> Copy for OperandPath<'_, T, P, S> {}

impl<'a, T: BufferElement, P: GemmPolicy, S: OperandSide<P>> OperandPath<'a, T, P, S> {
    /// The windows of thread `thread` of the block whose tile starts at
    /// row `block_row` of a `rows x k` operand (row stride `stride`) in
    /// `global`, staged through `lds` (the LDS block's elements, ROWS x
    /// KPerBlock). Errors: the DRAM view's ([`make_dram_view`](super::make_dram_view)).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{OperandB, OperandPath, UniversalGemmPolicy};
    /// use cktile_core::tile::SharedMemory;
    /// use core::cell::Cell;
    /// type P = UniversalGemmPolicy<256, 128, 64, 32>;
    /// let b = vec![1u16; 64 * 40];
    /// let lds: Vec<Cell<u16>> = (0..64 * 32).map(|_| Cell::new(0)).collect();
    /// let path = OperandPath::<u16, P, OperandB>::new(OperandB, &b, 64, 40, 40, 0, SharedMemory::new(&lds), 5)?;
    /// assert_eq!(path.vectors(), (8, 8, 8));
    /// assert!(OperandPath::<u16, P, OperandB>::new(OperandB, &b, 64, 36, 40, 0, SharedMemory::new(&lds), 5).is_err());
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        side: S,
        global: &'a [T],
        rows: usize,
        k: usize,
        stride: usize,
        block_row: Index,
        lds: SharedMemory<'a, T>,
        thread: usize,
    ) -> Result<Self, Error> {
        // Referenced here too, in the function the caller calls, so a compile error points at the call.
        let () = P::CHECK;
        let desc = *S::make_dram_view(global, rows, k, stride)?.descriptor();
        Self::from_descriptor(side, desc, global, block_row, lds, thread)
    }

    /// [`new`](Self::new) over a DRAM descriptor built by the side's
    /// [`make_dram_view`](OperandSide::make_dram_view) (on the host, say)
    /// for `global`.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{GemmPolicy, OperandA, OperandPath, UniversalGemmPolicy};
    /// use cktile_core::tile::SharedMemory;
    /// use core::cell::Cell;
    /// type P = UniversalGemmPolicy<256, 128, 128, 32>;
    /// let a = vec![1u16; 128 * 32];
    /// let desc = *P::make_a_dram_view(&a, 128, 32, 32)?.descriptor();
    /// let lds: Vec<Cell<u16>> = (0..128 * 32).map(|_| Cell::new(0)).collect();
    /// let path = OperandPath::<u16, P, OperandA>::from_descriptor(OperandA, desc, &a, 0, SharedMemory::new(&lds), 0)?;
    /// assert_eq!(path.load().thread_buffer(), &[1; 16]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn from_descriptor(
        side: S,
        desc: TensorDescriptor<S::DramChain>,
        global: &'a [T],
        block_row: Index,
        lds: SharedMemory<'a, T>,
        thread: usize,
    ) -> Result<Self, Error> {
        Self::with_partition(side, desc, global, block_row, lds, Partition::from_thread::<WAVE>(thread))
    }

    /// [`from_descriptor`](Self::from_descriptor) for the thread at
    /// partition `p` (its warp and lane): in a GPU kernel,
    /// `cktile_core::tile::gpu::get_partition()`, whose warp is wave-uniform (a
    /// scalar register on amdgcn, as CK's `get_warp_id`).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{GemmPolicy, OperandB, OperandPath, UniversalGemmPolicy};
    /// use cktile_core::tile::{Partition, SharedMemory};
    /// use core::cell::Cell;
    /// type P = UniversalGemmPolicy<256, 128, 128, 32>;
    /// let b = vec![1u16; 128 * 32];
    /// let desc = *P::make_b_dram_view(&b, 128, 32, 32)?.descriptor();
    /// let lds: Vec<Cell<u16>> = (0..128 * 32).map(|_| Cell::new(0)).collect();
    /// let p = Partition { warp: 3, lane: 8 };
    /// let path = OperandPath::<u16, P, OperandB>::with_partition(OperandB, desc, &b, 0, SharedMemory::new(&lds), p)?;
    /// let same = OperandPath::<u16, P, OperandB>::from_descriptor(OperandB, desc, &b, 0, SharedMemory::new(&lds), 3 * 64 + 8)?;
    /// assert_eq!(path.load(), same.load());
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn with_partition(
        side: S,
        desc: TensorDescriptor<S::DramChain>,
        global: &'a [T],
        block_row: Index,
        lds: SharedMemory<'a, T>,
        p: Partition,
    ) -> Result<Self, Error> {
        let () = P::CHECK;
        let dram_view = make_tensor_view(GlobalMemory::new(global)?, desc);
        let dram = make_tile_window_with_distribution(
            dram_view,
            S::Tile::default(),
            [block_row, 0],
            make_static_tile_distribution(),
            p,
        )?;
        let lds_view = make_tensor_view(lds, S::make_lds_block()?);
        let lds_store = make_tile_window_with_distribution(
            lds_view,
            S::Tile::default(),
            [0, 0],
            make_static_tile_distribution(),
            p,
        )?;
        let warp_row = side.warp_row(p.warp) * S::WARP_ROWS as Index;
        let warp = make_tile_window_with_distribution(
            lds_view,
            S::WarpTile::default(),
            [warp_row, 0],
            make_static_tile_distribution(),
            p,
        )?;
        Ok(OperandPath { dram, lds_store, warp, policy: PhantomData })
    }

    /// The elements each access moves, as the windows' plans chose them
    /// from the distributions and the views: (DRAM load, LDS store, warp
    /// read).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{BlockWarps, Mfma32x32x8, OperandA, OperandPath, UniversalGemmPolicy};
    /// use cktile_core::tile::SharedMemory;
    /// use core::cell::Cell;
    /// // The 32x32x8 MFMA reads 4 K values a lane: CK's KPack 4, so each 8-element DRAM
    /// // vector is stored as two 4-element LDS vectors.
    /// type P = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma32x32x8>;
    /// let a = vec![0u16; 128 * 32];
    /// let lds: Vec<Cell<u16>> = (0..128 * 32).map(|_| Cell::new(0)).collect();
    /// let path = OperandPath::<u16, P, OperandA>::new(OperandA, &a, 128, 32, 32, 0, SharedMemory::new(&lds), 0)?;
    /// assert_eq!(path.vectors(), (8, 4, 4));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn vectors(&self) -> (usize, usize, usize) {
        (self.dram.plan().vector(), self.lds_store.plan().vector(), self.warp.plan().vector())
    }

    /// CK's `load_tile` of the DRAM window: this K tile's elements.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{OperandA, OperandPath, UniversalGemmPolicy};
    /// use cktile_core::tile::SharedMemory;
    /// use core::cell::Cell;
    /// type P = UniversalGemmPolicy<256, 128, 128, 32>;
    /// let a: Vec<u16> = (0..128 * 32).map(|i| i as u16).collect();
    /// let lds: Vec<Cell<u16>> = (0..128 * 32).map(|_| Cell::new(0)).collect();
    /// let path = OperandPath::<u16, P, OperandA>::new(OperandA, &a, 128, 32, 32, 0, SharedMemory::new(&lds), 1)?;
    /// // Thread 1: row 0, K 8..16, then row 64.
    /// assert_eq!(path.load().thread_buffer()[..9], [8, 9, 10, 11, 12, 13, 14, 15, 64 * 32 + 8]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn load(&self) -> DramTensor<T, P, S> {
        load_tile(&self.dram)
    }

    /// [`load`](Self::load) for a prefetching K loop (CK's CompV3), its
    /// accesses inlined on nvptx (`tile::transfer::load_tile_eager`).
    #[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) fn load_prefetching(&self) -> DramTensor<T, P, S> {
        crate::tile::transfer::load_tile_eager(&self.dram)
    }

    /// [`store`](Self::store) for a prefetching K loop (CK's CompV3), its
    /// accesses inlined on nvptx (`tile::transfer::store_tile_eager`).
    #[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) fn store_prefetching(&mut self, tile: &DramTensor<T, P, S>) {
        crate::tile::transfer::store_tile_eager(&mut self.lds_store, tile);
    }

    /// CK's `move_tile_window` of the DRAM window to the next K tile.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{OperandA, OperandPath, UniversalGemmPolicy};
    /// use cktile_core::tile::SharedMemory;
    /// use core::cell::Cell;
    /// type P = UniversalGemmPolicy<256, 128, 128, 32>;
    /// let a: Vec<u16> = (0..128 * 64).map(|i| (i % 64) as u16).collect();
    /// let lds: Vec<Cell<u16>> = (0..128 * 32).map(|_| Cell::new(0)).collect();
    /// let mut path = OperandPath::<u16, P, OperandA>::new(OperandA, &a, 128, 64, 64, 0, SharedMemory::new(&lds), 0)?;
    /// path.next_k();
    /// assert_eq!(path.load().thread_buffer()[0], 32);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn next_k(&mut self) {
        move_tile_window(&mut self.dram, [0, P::K_PER_BLOCK as Index]);
    }

    /// CK's `store_tile` of a DRAM tile into the LDS block.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{OperandA, OperandPath, UniversalGemmPolicy};
    /// use cktile_core::tile::SharedMemory;
    /// use core::cell::Cell;
    /// type P = UniversalGemmPolicy<256, 128, 128, 32>;
    /// let a = vec![7u16; 128 * 32];
    /// let lds: Vec<Cell<u16>> = (0..128 * 32).map(|_| Cell::new(0)).collect();
    /// let mut path = OperandPath::<u16, P, OperandA>::new(OperandA, &a, 128, 32, 32, 0, SharedMemory::new(&lds), 0)?;
    /// let tile = path.load();
    /// path.store(&tile);
    /// assert_eq!(lds.iter().filter(|c| c.get() == 7).count(), 16);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn store(&mut self, tile: &DramTensor<T, P, S>) {
        store_tile(&mut self.lds_store, tile);
    }

    /// The warp GEMM operand of warp tile (`iter`, `k_iter`): the warp
    /// window moved there, CK's `load_tile`.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{OperandA, OperandPath, UniversalGemmPolicy};
    /// use cktile_core::tile::SharedMemory;
    /// use core::cell::Cell;
    /// type P = UniversalGemmPolicy<256, 128, 128, 32>;
    /// let lds: Vec<Cell<u16>> = (0..128 * 32).map(|_| Cell::new(3)).collect();
    /// let path = OperandPath::<u16, P, OperandA>::new(OperandA, &[0; 128 * 32], 128, 32, 32, 0, SharedMemory::new(&lds), 0)?;
    /// assert_eq!(path.read(1, 1).thread_buffer(), &[3; 8]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn read(&self, iter: usize, k_iter: usize) -> WarpTensor<T, P, S> {
        let mut regs = WarpTensor::<T, P, S>::filled(T::default());
        self.read_into(iter, k_iter, &mut regs);
        regs
    }

    /// [`read`](Self::read) into an existing operand (CK's
    /// `load_tile(tensor, window)`).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{OperandA, OperandPath, UniversalGemmPolicy, WarpTensor};
    /// use cktile_core::tile::SharedMemory;
    /// use core::cell::Cell;
    /// type P = UniversalGemmPolicy<256, 128, 128, 32>;
    /// let lds: Vec<Cell<u16>> = (0..128 * 32).map(|_| Cell::new(3)).collect();
    /// let path = OperandPath::<u16, P, OperandA>::new(OperandA, &[0; 128 * 32], 128, 32, 32, 0, SharedMemory::new(&lds), 0)?;
    /// let mut regs = WarpTensor::<u16, P, OperandA>::filled(0);
    /// path.read_into(0, 1, &mut regs);
    /// assert_eq!(regs.thread_buffer(), &[3; 8]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn read_into(&self, iter: usize, k_iter: usize, regs: &mut WarpTensor<T, P, S>) {
        let mut w = self.warp;
        move_tile_window(&mut w, [(iter * S::ROW_WARPS * S::WARP_ROWS) as Index, (k_iter * P::WARP_K) as Index]);
        load_tile_into(&w, regs);
    }
}

/// A side whose whole LDS block CK's block GEMM reads at once
/// ([`block_window`]): its embedded block distribution (`P::ABlock` for
/// [`OperandA`], `P::BBlock` for [`OperandB`]), tied to the side by type,
/// so a window of one side's LDS block cannot take the other side's
/// encoding. A side chosen at run time (one type for both operands) has
/// no block distribution of its own, and does not implement it.
///
/// ```
/// use cktile_core::distribution::typed::TileEncoding;
/// use cktile_core::ops::gemm::{BlockGemmSide, GemmPolicy, OperandB, UniversalGemmPolicy};
/// type P = UniversalGemmPolicy<256, 128, 64, 32>;
/// assert_eq!(<<OperandB as BlockGemmSide<P>>::Block as TileEncoding>::ENCODING, <<P as GemmPolicy>::BBlock as TileEncoding>::ENCODING);
/// ```
pub trait BlockGemmSide<P: GemmPolicy>: OperandSide<P> {
    /// The embedded block distribution (CK's `MakeABlockDistributionEncode`, `MakeBBlockDistributionEncode`).
    type Block: TileEncoding;
}

impl<P: GemmPolicy> BlockGemmSide<P> for OperandA {
    type Block = P::ABlock;
}

impl<P: GemmPolicy> BlockGemmSide<P> for OperandB {
    type Block = P::BBlock;
}

/// A thread's block GEMM window of side `S`: the whole LDS block,
/// distributed by the side's embedded block distribution ([`block_window`]).
///
/// ```
/// use cktile_core::ops::gemm::{BlockWindow, OperandA, UniversalGemmPolicy};
/// fn _read(w: &BlockWindow<'_, u16, UniversalGemmPolicy<256, 128, 128, 32>, OperandA>) -> usize {
///     cktile_core::tile::load_tile(w).thread_buffer().len()
/// }
/// ```
pub type BlockWindow<'a, T, P, S> = TileWindowWithStaticDistribution<
    SharedMemory<'a, T>,
    <S as OperandSide<P>>::LdsChain,
    <S as BlockGemmSide<P>>::Block,
>;

/// CK's block GEMM operand read (`block_universal_gemm_as_bs_cr`): the
/// window of the thread at partition `p` (from the policy:
/// [`GemmPolicy::partition_of_thread`], or `get_policy_partition` in a
/// kernel) over the whole LDS block of side `S`, distributed by the
/// side's embedded block distribution ([`BlockGemmSide::Block`]). One
/// `load_tile` of it is all the thread's warp tiles (Y = the iteration
/// along the rows, along K, then the warp operand's registers), the same
/// registers as [`OperandPath::read`] of each.
///
/// ```
/// use cktile_core::ops::gemm::{GemmPolicy, OperandA, UniversalGemmPolicy, block_window};
/// use cktile_core::tile::{SharedMemory, load_tile};
/// use core::cell::Cell;
/// type P = UniversalGemmPolicy<256, 128, 128, 32>;
/// let lds: Vec<Cell<u16>> = (0..128 * 32).map(|i| Cell::new(i as u16)).collect();
/// let p = P::partition_of_thread(0).ok_or(cktile_core::Error::policy("thread 0 is in the block"))?;
/// let w = block_window::<u16, P, OperandA>(SharedMemory::new(&lds), p)?;
/// assert_eq!((w.plan().accesses(), w.plan().vector()), (4, 8));
/// assert_eq!(load_tile(&w).thread_buffer().len(), 32);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn block_window<'a, T: Copy, P: GemmPolicy, S: BlockGemmSide<P>>(
    lds: SharedMemory<'a, T>,
    p: Partition,
) -> Result<BlockWindow<'a, T, P, S>, Error> {
    let () = P::CHECK;
    let view = make_tensor_view(lds, S::make_lds_block()?);
    make_tile_window_with_distribution(view, S::Tile::default(), [0, 0], make_static_tile_distribution(), p)
}
