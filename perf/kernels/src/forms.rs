//! The family of forms a CK engineer writes for the same data path
//! (issue 64): each a [`Pipeline`] the entry points of
//! [`entry`](crate::entry) build and run in all three build forms (the
//! DRAM descriptors built on the host, in the kernel with `let Ok(..)
//! else`, in the kernel with `.unwrap()`), held to the same hand-written
//! twins as [`GemmPipeline`](crate::entry::GemmPipeline) (`icount.py`'s
//! `FORMS`):
//!
//! - [`BlockPipe`]: the pipeline built through one constructor with `?`
//!   (`OperandPath::with_partition(..)?`, then `block_window(..)?`), the
//!   warp tiles read as CK's block GEMM reads them, one `load_tile` of the
//!   whole LDS block per K tile;
//! - [`BlockPipeElse`]: the same windows, each built with `let Ok(..) else`;
//! - [`UserPipe`]: the user's own struct of windows, made with
//!   `make_tile_window_with_distribution` from the policy's encodings and
//!   the kernel's partition, the warp window moved to each warp tile;
//! - [`InlinePipe`]: the operand paths for the DRAM loads and LDS stores,
//!   the warp windows made inline in the K loop from the kernel's
//!   partition, one per warp tile.

use crate::entry::{Pipeline, Sink};
use crate::paths::barrier;
use cktile_core::Index;
use cktile_core::distribution::typed::make_static_tile_distribution;
use cktile_core::ops::gemm::{
    ADramChain, BDramChain, BlockWindow, DramWindow, GemmPolicy, LdsStoreWindow, OperandA, OperandB, OperandPath,
    OperandSide, WarpWindow, block_window,
};
use cktile_core::tile::{
    GlobalMemory, Partition, SharedMemory, load_tile, make_tile_window_with_distribution, move_tile_window, store_tile,
};
use cktile_core::typed::{TensorDescriptor, make_tensor_view};
use cktile_core::{Error, transforms::static_for};

/// A lane's `KL` values of warp tile `i` at K step `k_iter` in a block
/// GEMM's thread buffer `regs` (Y = the warp tile along the rows, along
/// K, then the lane's values).
#[inline(always)]
fn warp_tile<P: GemmPolicy>(regs: &[u16], i: usize, k_iter: usize) -> &[u16] {
    let kl = P::WARP_K * P::WARP_M / P::WAVE;
    regs.get((i * P::K_ITERS + k_iter) * kl..(i * P::K_ITERS + k_iter + 1) * kl).unwrap_or(&[])
}

/// The K loop every form shares: load both operands' K tiles, move,
/// barrier, store, barrier, each K step's reads (`read(k_iter)`, handed
/// to `sink`), barrier.
#[inline(always)]
fn k_loop<'a, P: GemmPolicy, const MI: usize, const NI: usize, S: Sink<MI, NI>>(
    paths: (&mut OperandPath<'a, u16, P, OperandA>, &mut OperandPath<'a, u16, P, OperandB>),
    k: usize,
    sink: &mut S,
    mut per_tile: impl FnMut(&mut S),
) {
    const { assert!(MI == P::M_ITERS && NI == P::N_ITERS) };
    let (a, b) = paths;
    let mut kt = 0;
    while kt < k.div_ceil(P::K_PER_BLOCK) {
        let (a_tile, b_tile) = (a.load(), b.load());
        a.next_k();
        b.next_k();
        barrier();
        a.store(&a_tile);
        b.store(&b_tile);
        barrier();
        per_tile(sink);
        barrier();
        kt += 1;
    }
}

/// The operand paths and CK's block GEMM windows, built through one
/// constructor with `?` (the first form).
pub struct BlockPipe<'a, P: GemmPolicy> {
    a: OperandPath<'a, u16, P, OperandA>,
    b: OperandPath<'a, u16, P, OperandB>,
    a_block: BlockWindow<'a, u16, P, OperandA>,
    b_block: BlockWindow<'a, u16, P, OperandB>,
}

impl<'a, P: GemmPolicy> BlockPipe<'a, P> {
    /// The block GEMM's K steps: one `load_tile` of each block window,
    /// then each K step's warp tiles out of its thread buffer.
    #[inline(always)]
    fn run_blocks<const MI: usize, const NI: usize, S: Sink<MI, NI>>(&mut self, k: usize, sink: &mut S) {
        let (a_block, b_block) = (&self.a_block, &self.b_block);
        k_loop::<P, MI, NI, S>((&mut self.a, &mut self.b), k, sink, |sink| {
            let (a_regs, b_regs) = (load_tile(a_block), load_tile(b_block));
            static_for!(P::K_ITERS, |k_iter| {
                sink.step(
                    core::array::from_fn(|i| warp_tile::<P>(a_regs.thread_buffer(), i, k_iter)),
                    core::array::from_fn(|j| warp_tile::<P>(b_regs.thread_buffer(), j, k_iter)),
                );
            });
        });
    }
}

impl<'a, P: GemmPolicy> Pipeline<'a, P> for BlockPipe<'a, P> {
    #[inline(always)]
    fn new(
        (a, a_desc): (&'a [u16], TensorDescriptor<ADramChain<P>>),
        (b, b_desc): (&'a [u16], TensorDescriptor<BDramChain<P>>),
        lds: SharedMemory<'a, u16>,
        (m0, n0): (Index, Index),
        p: Partition,
    ) -> Result<Self, Error> {
        let (a_lds, b_lds) = lds.split_at(P::M_PER_BLOCK * P::K_PER_BLOCK);
        Ok(BlockPipe {
            a: OperandPath::with_partition(OperandA, a_desc, a, m0, a_lds, p)?,
            b: OperandPath::with_partition(OperandB, b_desc, b, n0, b_lds, p)?,
            a_block: block_window::<u16, P, OperandA>(a_lds, p)?,
            b_block: block_window::<u16, P, OperandB>(b_lds, p)?,
        })
    }

    #[inline(always)]
    fn run<const MI: usize, const NI: usize, S: Sink<MI, NI>>(&mut self, k: usize, sink: &mut S) {
        self.run_blocks::<MI, NI, S>(k, sink);
    }
}

/// [`BlockPipe`] with each window built by `let Ok(..) else`.
pub struct BlockPipeElse<'a, P: GemmPolicy>(BlockPipe<'a, P>);

impl<'a, P: GemmPolicy> Pipeline<'a, P> for BlockPipeElse<'a, P> {
    #[inline(always)]
    fn new(
        (a, a_desc): (&'a [u16], TensorDescriptor<ADramChain<P>>),
        (b, b_desc): (&'a [u16], TensorDescriptor<BDramChain<P>>),
        lds: SharedMemory<'a, u16>,
        (m0, n0): (Index, Index),
        p: Partition,
    ) -> Result<Self, Error> {
        let (a_lds, b_lds) = lds.split_at(P::M_PER_BLOCK * P::K_PER_BLOCK);
        let Ok(a_path) = OperandPath::with_partition(OperandA, a_desc, a, m0, a_lds, p) else {
            return Err(Error::policy("A's path"));
        };
        let Ok(b_path) = OperandPath::with_partition(OperandB, b_desc, b, n0, b_lds, p) else {
            return Err(Error::policy("B's path"));
        };
        let Ok(a_block) = block_window::<u16, P, OperandA>(a_lds, p) else {
            return Err(Error::policy("A's block window"));
        };
        let Ok(b_block) = block_window::<u16, P, OperandB>(b_lds, p) else {
            return Err(Error::policy("B's block window"));
        };
        Ok(BlockPipeElse(BlockPipe { a: a_path, b: b_path, a_block, b_block }))
    }

    #[inline(always)]
    fn run<const MI: usize, const NI: usize, S: Sink<MI, NI>>(&mut self, k: usize, sink: &mut S) {
        self.0.run_blocks::<MI, NI, S>(k, sink);
    }
}

/// One operand's windows in the user's own struct.
pub struct UserWindows<'a, P: GemmPolicy, S: OperandSide<P>> {
    dram: DramWindow<'a, u16, P, S>,
    lds_store: LdsStoreWindow<'a, u16, P, S>,
    warp: WarpWindow<'a, u16, P, S>,
}

impl<'a, P: GemmPolicy, S: OperandSide<P>> UserWindows<'a, P, S> {
    /// The three windows, made from the policy's encodings and `p`.
    #[inline(always)]
    fn new(
        side: S,
        (global, desc): (&'a [u16], TensorDescriptor<S::DramChain>),
        row0: Index,
        lds: SharedMemory<'a, u16>,
        p: Partition,
    ) -> Result<Self, Error> {
        let lds_view = make_tensor_view(lds, S::make_lds_block()?);
        let warp_row = side.warp_row(p.warp) * S::WARP_ROWS as Index;
        Ok(UserWindows {
            dram: make_tile_window_with_distribution(
                make_tensor_view(GlobalMemory::new(global)?, desc),
                S::Tile::default(),
                [row0, 0],
                make_static_tile_distribution(),
                p,
            )?,
            lds_store: make_tile_window_with_distribution(
                lds_view,
                S::Tile::default(),
                [0, 0],
                make_static_tile_distribution(),
                p,
            )?,
            warp: make_tile_window_with_distribution(
                lds_view,
                S::WarpTile::default(),
                [warp_row, 0],
                make_static_tile_distribution(),
                p,
            )?,
        })
    }

    /// The lane's operand of warp tile (`iter`, `k_iter`).
    #[inline(always)]
    fn read(&self, iter: usize, k_iter: usize) -> cktile_core::ops::gemm::WarpTensor<u16, P, S> {
        let mut w = self.warp;
        move_tile_window(&mut w, [(iter * S::ROW_WARPS * S::WARP_ROWS) as Index, (k_iter * P::WARP_K) as Index]);
        load_tile(&w)
    }
}

/// Both operands' windows in the user's own struct (no `OperandPath`).
pub struct UserPipe<'a, P: GemmPolicy> {
    a: UserWindows<'a, P, OperandA>,
    b: UserWindows<'a, P, OperandB>,
}

impl<'a, P: GemmPolicy> Pipeline<'a, P> for UserPipe<'a, P> {
    #[inline(always)]
    fn new(
        a: (&'a [u16], TensorDescriptor<ADramChain<P>>),
        b: (&'a [u16], TensorDescriptor<BDramChain<P>>),
        lds: SharedMemory<'a, u16>,
        (m0, n0): (Index, Index),
        p: Partition,
    ) -> Result<Self, Error> {
        let (a_lds, b_lds) = lds.split_at(P::M_PER_BLOCK * P::K_PER_BLOCK);
        Ok(UserPipe {
            a: UserWindows::new(OperandA, a, m0, a_lds, p)?,
            b: UserWindows::new(OperandB, b, n0, b_lds, p)?,
        })
    }

    #[inline(always)]
    fn run<const MI: usize, const NI: usize, S: Sink<MI, NI>>(&mut self, k: usize, sink: &mut S) {
        const { assert!(MI == P::M_ITERS && NI == P::N_ITERS) };
        let (a, b) = (&mut self.a, &mut self.b);
        let mut kt = 0;
        while kt < k.div_ceil(P::K_PER_BLOCK) {
            let (a_tile, b_tile) = (load_tile(&a.dram), load_tile(&b.dram));
            move_tile_window(&mut a.dram, [0, P::K_PER_BLOCK as Index]);
            move_tile_window(&mut b.dram, [0, P::K_PER_BLOCK as Index]);
            barrier();
            store_tile(&mut a.lds_store, &a_tile);
            store_tile(&mut b.lds_store, &b_tile);
            barrier();
            static_for!(P::K_ITERS, |k_iter| {
                let a_regs: [_; MI] = core::array::from_fn(|i| a.read(i, k_iter));
                let b_regs: [_; NI] = core::array::from_fn(|j| b.read(j, k_iter));
                sink.step(
                    core::array::from_fn(|i| a_regs[i].thread_buffer()),
                    core::array::from_fn(|j| b_regs[j].thread_buffer()),
                );
            });
            barrier();
            kt += 1;
        }
    }
}

/// The operand paths for the loads and stores; the warp windows made
/// inline in the K loop, one per warp tile, from the kernel's partition.
pub struct InlinePipe<'a, P: GemmPolicy> {
    a: OperandPath<'a, u16, P, OperandA>,
    b: OperandPath<'a, u16, P, OperandB>,
    lds: (SharedMemory<'a, u16>, SharedMemory<'a, u16>),
    p: Partition,
}

/// The warp window of side `S` at warp tile (`iter`, `k_iter`), made
/// where it is read; `None` when the window is refused.
#[inline(always)]
fn inline_read<P: GemmPolicy, S: OperandSide<P>>(
    side: S,
    lds: SharedMemory<'_, u16>,
    p: Partition,
    iter: usize,
    k_iter: usize,
) -> cktile_core::ops::gemm::WarpTensor<u16, P, S> {
    let row = side.warp_row(p.warp) * S::WARP_ROWS as Index + (iter * S::ROW_WARPS * S::WARP_ROWS) as Index;
    let window = S::make_lds_block().and_then(|block| {
        make_tile_window_with_distribution(
            make_tensor_view(lds, block),
            S::WarpTile::default(),
            [row, (k_iter * P::WARP_K) as Index],
            make_static_tile_distribution(),
            p,
        )
    });
    match window {
        Ok(w) => load_tile(&w),
        Err(_) => cktile_core::ops::gemm::WarpTensor::<u16, P, S>::filled(0),
    }
}

impl<'a, P: GemmPolicy> Pipeline<'a, P> for InlinePipe<'a, P> {
    #[inline(always)]
    fn new(
        (a, a_desc): (&'a [u16], TensorDescriptor<ADramChain<P>>),
        (b, b_desc): (&'a [u16], TensorDescriptor<BDramChain<P>>),
        lds: SharedMemory<'a, u16>,
        (m0, n0): (Index, Index),
        p: Partition,
    ) -> Result<Self, Error> {
        let (a_lds, b_lds) = lds.split_at(P::M_PER_BLOCK * P::K_PER_BLOCK);
        Ok(InlinePipe {
            a: OperandPath::with_partition(OperandA, a_desc, a, m0, a_lds, p)?,
            b: OperandPath::with_partition(OperandB, b_desc, b, n0, b_lds, p)?,
            lds: (a_lds, b_lds),
            p,
        })
    }

    #[inline(always)]
    fn run<const MI: usize, const NI: usize, S: Sink<MI, NI>>(&mut self, k: usize, sink: &mut S) {
        let ((a_lds, b_lds), p) = (self.lds, self.p);
        k_loop::<P, MI, NI, S>((&mut self.a, &mut self.b), k, sink, |sink| {
            static_for!(P::K_ITERS, |k_iter| {
                let a_regs: [_; MI] =
                    core::array::from_fn(|i| inline_read::<P, OperandA>(OperandA, a_lds, p, i, k_iter));
                let b_regs: [_; NI] =
                    core::array::from_fn(|j| inline_read::<P, OperandB>(OperandB, b_lds, p, j, k_iter));
                sink.step(
                    core::array::from_fn(|i| a_regs[i].thread_buffer()),
                    core::array::from_fn(|j| b_regs[j].thread_buffer()),
                );
            });
        });
    }
}
