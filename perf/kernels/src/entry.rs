//! Real kernel entry points (issue 49): CK's universal GEMM data path as a
//! CK engineer writes it, next to hand-written twins.
//!
//! What [`paths`](crate::paths) measures as device functions (the thread id
//! an argument, one operand per function), this module writes as kernels:
//! `extern "gpu-kernel"` entry points (on amdgcn and nvptx; the host test
//! calls the same bodies with the ids it chooses) that
//! - read the hardware ids (`cktile::tile::gpu::get_partition`,
//!   `get_block_id`) and map the block to its (M, N) tile as CK's 2-D tile
//!   partitioner does (`i_m = block / n_blocks`);
//! - hold both operands' windows in one pipeline struct ([`GemmPipeline`]:
//!   the A and B DRAM windows, LDS store windows and warp windows, as CK's
//!   pipeline holds `a_copy_dram_window`, `a_copy_lds_window`,
//!   `a_lds_gemm_window` and B's);
//! - stage both operands through the block's workgroup memory (A's LDS
//!   block, then B's);
//! - run the whole K loop (load A and B, move both windows, barrier, store
//!   both, barrier, the warp reads, barrier);
//! - read the MFMA operands either as 32x32x8 (`ds_read_b64`, 4 fp16 a
//!   lane, 4 warp tiles along K) or as K16 32x32x16 (`ds_read_b128`, 8 fp16
//!   a lane, 2 along K), [`Read8`] and [`Read16`].
//!
//! Three forms of each kernel: the DRAM descriptors built on the host
//! (`typed_kernel_*_host`, passed as `KernelArg`s), built in the kernel
//! from 32-bit arguments (`*_u32`, against a twin computing every index in
//! `i32` as CK's code does), and built in the kernel from 64-bit arguments
//! (`*_u64`). The twins (`hand_kernel_*`) compute the same addresses,
//! validity and registers by hand, with the same ids, barriers and
//! MFMA stand-in.

use crate::paths::barrier;
use cktile::Index;
use cktile::Number as N;
use cktile::distribution::typed::TileEncoding;
use cktile::prelude::*;
use cktile::tile::{
    Partition, SharedMemory, StaticDistributedTensor, TileWindowWithStaticDistribution, load_tile, load_tile_into,
    make_tile_window_with_distribution, move_tile_window, store_tile,
};
use cktile::typed::KernelArg;
use cktile_checks::gemm::{
    BLOCK_SIZE, DramChain, DramDistribution, K_PER_BLOCK, LDS_ELEMENTS, LdsChain, ROWS_PER_BLOCK, WARPS, WarpOperand,
    make_dram_view, make_lds_block,
};

/// Warp tiles per warp along M (or N): 128 rows / (2 warps x 32).
pub const ITERS: usize = ROWS_PER_BLOCK / (WARPS * 32);

/// One MFMA operand read: the warp encoding, the K length of a warp tile
/// and the fp16 values a lane holds.
pub trait WarpRead {
    /// The warp tile's distribution (CK's warp GEMM operand encoding).
    type Encoding: TileEncoding;
    /// K per warp tile (8 for 32x32x8, 16 for 32x32x16).
    const K: usize;
    /// The elements a lane holds (4 or 8).
    const LANE: usize;
    /// The window over a warp tile (32 rows, `K` columns), at `origin`.
    fn window<'a>(
        view: TensorView<SharedMemory<'a, u16>, LdsChain>,
        origin: [Index; 2],
        p: Partition,
    ) -> Result<TileWindowWithStaticDistribution<SharedMemory<'a, u16>, LdsChain, Self::Encoding>, Error>;
}

/// The 32x32x8 fp16 MFMA's operand read: 4 K values a lane, `ds_read_b64`.
pub struct Read8;
/// The 32x32x16 fp16 MFMA's operand read: 8 K values a lane, `ds_read_b128`.
pub struct Read16;

impl WarpRead for Read8 {
    type Encoding = WarpOperand<32, 4, 4>;
    const K: usize = 8;
    const LANE: usize = 4;
    #[inline(always)]
    fn window<'a>(
        view: TensorView<SharedMemory<'a, u16>, LdsChain>,
        origin: [Index; 2],
        p: Partition,
    ) -> Result<TileWindowWithStaticDistribution<SharedMemory<'a, u16>, LdsChain, Self::Encoding>, Error> {
        make_tile_window_with_distribution(view, (N::<32>, N::<8>), origin, make_static_tile_distribution(), p)
    }
}

impl WarpRead for Read16 {
    type Encoding = WarpOperand<32, 8, 8>;
    const K: usize = 16;
    const LANE: usize = 8;
    #[inline(always)]
    fn window<'a>(
        view: TensorView<SharedMemory<'a, u16>, LdsChain>,
        origin: [Index; 2],
        p: Partition,
    ) -> Result<TileWindowWithStaticDistribution<SharedMemory<'a, u16>, LdsChain, Self::Encoding>, Error> {
        make_tile_window_with_distribution(view, (N::<32>, N::<16>), origin, make_static_tile_distribution(), p)
    }
}

/// A DRAM window of one operand.
type DramWindow<'a> = TileWindowWithStaticDistribution<&'a [u16], DramChain, DramDistribution>;
/// An LDS window of one operand with encoding `E`.
type LdsWindow<'a, E> = TileWindowWithStaticDistribution<SharedMemory<'a, u16>, LdsChain, E>;

/// CK's pipeline state: both operands' windows, held in one struct.
pub struct GemmPipeline<'a, R: WarpRead> {
    a_dram: DramWindow<'a>,
    b_dram: DramWindow<'a>,
    a_lds: LdsWindow<'a, DramDistribution>,
    b_lds: LdsWindow<'a, DramDistribution>,
    a_warp: LdsWindow<'a, R::Encoding>,
    b_warp: LdsWindow<'a, R::Encoding>,
}

/// The accumulators of one thread: `ITERS x ITERS` warp tiles' stand-in
/// for the MFMA's outputs, 8 values each.
pub type Acc = [[u16; 8]; ITERS * ITERS];

/// The MFMA's stand-in: `acc[j] += a[j] * b[j]` (wrapping) for each of the
/// lane's values, written out (an MFMA takes its operand registers as
/// they are; a loop over them may stay rolled on amdgcn).
#[inline(always)]
fn mfma(acc: &mut [u16; 8], a: &[u16], b: &[u16]) {
    macro_rules! lane {
        ($($j:literal)*) => {$(
            if $j < a.len() && $j < b.len() {
                acc[$j] = acc[$j].wrapping_add(a[$j].wrapping_mul(b[$j]));
            }
        )*};
    }
    lane!(0 1 2 3 4 5 6 7);
}

impl<'a, R: WarpRead> GemmPipeline<'a, R> {
    /// The windows of the thread at `p` of the block whose tiles start at
    /// row `m0` of A and `n0` of B, over the DRAM descriptors `a_desc`,
    /// `b_desc` of `a`, `b`, staged through `lds` (2 LDS blocks).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        a: &'a [u16],
        a_desc: TensorDescriptor<DramChain>,
        b: &'a [u16],
        b_desc: TensorDescriptor<DramChain>,
        lds: SharedMemory<'a, u16>,
        m0: Index,
        n0: Index,
        p: Partition,
    ) -> Result<Self, Error> {
        let tile = (N::<ROWS_PER_BLOCK>, N::<K_PER_BLOCK>);
        let a_dram = make_tile_window_with_distribution(
            make_tensor_view(a, a_desc),
            tile,
            [m0, 0],
            make_static_tile_distribution(),
            p,
        )?;
        let b_dram = make_tile_window_with_distribution(
            make_tensor_view(b, b_desc),
            tile,
            [n0, 0],
            make_static_tile_distribution(),
            p,
        )?;
        let (a_cells, b_cells) = lds.cells().split_at(LDS_ELEMENTS);
        let block = make_lds_block::<ROWS_PER_BLOCK, K_PER_BLOCK>()?;
        let a_view = make_tensor_view(SharedMemory::new(a_cells), block);
        let b_view = make_tensor_view(SharedMemory::new(b_cells), block);
        let a_lds = make_tile_window_with_distribution(a_view, tile, [0, 0], make_static_tile_distribution(), p)?;
        let b_lds = make_tile_window_with_distribution(b_view, tile, [0, 0], make_static_tile_distribution(), p)?;
        // Warp (m, n) of the 2 x 2: A's warp tiles start at row 32 m, B's at 32 n.
        let a_warp = R::window(a_view, [p.warp / WARPS as Index * 32, 0], p)?;
        let b_warp = R::window(b_view, [p.warp % WARPS as Index * 32, 0], p)?;
        Ok(GemmPipeline { a_dram, b_dram, a_lds, b_lds, a_warp, b_warp })
    }

    /// The K loop over `k` columns: returns the thread's accumulators.
    #[inline(always)]
    pub fn run(&mut self, k: usize) -> Acc {
        let mut acc = [[0u16; 8]; ITERS * ITERS];
        let mut a_regs = [StaticDistributedTensor::<u16, R::Encoding>::filled(0); ITERS];
        let mut b_regs = [StaticDistributedTensor::<u16, R::Encoding>::filled(0); ITERS];
        let mut kt = 0;
        while kt < k.div_ceil(K_PER_BLOCK) {
            let a_tile = load_tile(&self.a_dram);
            let b_tile = load_tile(&self.b_dram);
            move_tile_window(&mut self.a_dram, [0, K_PER_BLOCK as Index]);
            move_tile_window(&mut self.b_dram, [0, K_PER_BLOCK as Index]);
            barrier();
            store_tile(&mut self.a_lds, &a_tile);
            store_tile(&mut self.b_lds, &b_tile);
            barrier();
            for k_iter in 0..K_PER_BLOCK / R::K {
                let k_col = (k_iter * R::K) as Index;
                // The warp's A and B operands of this K step, then their MFMAs (CK's block GEMM order).
                for i in 0..ITERS {
                    let row = (i * WARPS * 32) as Index;
                    let (mut a_warp, mut b_warp) = (self.a_warp, self.b_warp);
                    move_tile_window(&mut a_warp, [row, k_col]);
                    move_tile_window(&mut b_warp, [row, k_col]);
                    load_tile_into(&a_warp, &mut a_regs[i]);
                    load_tile_into(&b_warp, &mut b_regs[i]);
                }
                for mi in 0..ITERS {
                    for ni in 0..ITERS {
                        mfma(&mut acc[mi * ITERS + ni], a_regs[mi].thread_buffer(), b_regs[ni].thread_buffer());
                    }
                }
            }
            barrier();
            kt += 1;
        }
        acc
    }
}

/// Writes thread `tid`'s accumulators of block `block` (the block's 256
/// threads' accumulators are contiguous).
#[inline(always)]
fn write_out(out: *mut u16, block: usize, tid: usize, acc: Acc) {
    // SAFETY: the caller passes `size_of::<Acc>()` writable bytes per thread of the grid at `out`.
    unsafe { core::ptr::write((out as *mut Acc).add(block * BLOCK_SIZE + tid), acc) }
}

/// The ids a kernel reads from the hardware: (block, thread, partition).
/// On the host (the test), the caller passes them instead.
#[derive(Clone, Copy)]
pub struct Ids {
    /// The block in the grid (CK's `get_block_id`).
    pub block: usize,
    /// The thread in the block (CK's `get_thread_id`).
    pub thread: usize,
}

impl Ids {
    /// The warp and lane of the thread (64-lane waves, as on gfx942; the
    /// nvptx build runs the same partition, as the twins do).
    #[inline(always)]
    fn partition(self) -> Partition {
        #[cfg(target_arch = "amdgpu")]
        {
            let _ = self;
            cktile::tile::gpu::get_partition()
        }
        #[cfg(not(target_arch = "amdgpu"))]
        Partition::from_thread::<{ cktile_checks::gemm::WAVE }>(self.thread)
    }

    /// The block's (M, N) tile rows: CK's 2-D tile partitioner over
    /// `n_blocks` tiles along N.
    #[inline(always)]
    fn tile(self, n_blocks: u32) -> (Index, Index) {
        let n_blocks = n_blocks.max(1) as usize;
        let (i_m, i_n) = (self.block / n_blocks, self.block % n_blocks);
        ((i_m * ROWS_PER_BLOCK) as Index, (i_n * ROWS_PER_BLOCK) as Index)
    }
}

/// The kernel body over DRAM descriptors built on the host.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn typed_host<R: WarpRead>(
    ids: Ids,
    lds: SharedMemory<'_, u16>,
    a_arg: &KernelArg<DramChain>,
    b_arg: &KernelArg<DramChain>,
    (a, a_len): (*const u16, usize),
    (b, b_len): (*const u16, usize),
    n_blocks: u32,
    out: *mut u16,
) {
    let (a_desc, b_desc) = (a_arg.descriptor(), b_arg.descriptor());
    // SAFETY: the host passes `a_len` elements at `a`.
    let a = unsafe { core::slice::from_raw_parts(a, a_len) };
    // SAFETY: as above.
    let b = unsafe { core::slice::from_raw_parts(b, b_len) };
    let (m0, n0) = ids.tile(n_blocks);
    let Ok(mut pipe) = GemmPipeline::<R>::new(a, a_desc, b, b_desc, lds, m0, n0, ids.partition()) else {
        return;
    };
    write_out(out, ids.block, ids.thread, pipe.run(a_desc.lengths()[1] as usize));
}

/// The kernel body building the DRAM views in the kernel from (M, N, K,
/// stride) given as `usize`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn typed_build<R: WarpRead>(
    ids: Ids,
    lds: SharedMemory<'_, u16>,
    a: *const u16,
    b: *const u16,
    (m, n, k, stride): (usize, usize, usize, usize),
    n_blocks: u32,
    out: *mut u16,
) {
    let (Some(a_len), Some(b_len)) = (m.checked_mul(stride), n.checked_mul(stride)) else {
        return;
    };
    // SAFETY: the host passes `rows * stride` elements of each operand.
    let a = unsafe { core::slice::from_raw_parts(a, a_len) };
    // SAFETY: as above.
    let b = unsafe { core::slice::from_raw_parts(b, b_len) };
    let Ok(a_view) = make_dram_view(a, m, k, stride) else {
        return;
    };
    let Ok(b_view) = make_dram_view(b, n, k, stride) else {
        return;
    };
    let (m0, n0) = ids.tile(n_blocks);
    let Ok(mut pipe) =
        GemmPipeline::<R>::new(a, *a_view.descriptor(), b, *b_view.descriptor(), lds, m0, n0, ids.partition())
    else {
        return;
    };
    write_out(out, ids.block, ids.thread, pipe.run(k));
}

/// [`typed_build`] written with `.unwrap()`, as kernel code often is: with
/// `panic = "immediate-abort"` (how `scripts/target-icount.sh` builds the
/// GPU targets) a refused shape traps, with no call and no scratch; with
/// `panic = "abort"` the unwrap keeps core's panic formatting (a call and
/// scratch memory on amdgcn, local memory on nvptx).
#[inline(always)]
#[allow(clippy::unwrap_used)]
pub fn typed_build_unwrap<R: WarpRead>(
    ids: Ids,
    lds: SharedMemory<'_, u16>,
    a: *const u16,
    b: *const u16,
    (m, n, k, stride): (usize, usize, usize, usize),
    n_blocks: u32,
    out: *mut u16,
) {
    // SAFETY: the host passes `rows * stride` elements of each operand (32-bit sizes: no overflow).
    let a = unsafe { core::slice::from_raw_parts(a, m * stride) };
    // SAFETY: as above.
    let b = unsafe { core::slice::from_raw_parts(b, n * stride) };
    let a_desc = *make_dram_view(a, m, k, stride).unwrap().descriptor();
    let b_desc = *make_dram_view(b, n, k, stride).unwrap().descriptor();
    let (m0, n0) = ids.tile(n_blocks);
    let mut pipe = GemmPipeline::<R>::new(a, a_desc, b, b_desc, lds, m0, n0, ids.partition()).unwrap();
    write_out(out, ids.block, ids.thread, pipe.run(k));
}

/// The hand-written twin, for one index type `$i`: the same K loop with
/// every address, validity test and register written out, as CK's
/// generated code computes them.
macro_rules! hand_twin {
    ($name:ident, $i:ty, $validate:expr) => {
        /// The twin of the typed kernels in this index type.
        #[inline(always)]
        #[allow(clippy::too_many_arguments)]
        pub fn $name<R: WarpRead>(
            ids: Ids,
            lds: SharedMemory<'_, u16>,
            a: *const u16,
            b: *const u16,
            (m, n, k, stride): ($i, $i, $i, $i),
            n_blocks: u32,
            out: *mut u16,
        ) {
            /// The LDS offset of (row, k) in CK's xor block (KPack 8, MLdsLayer 2).
            #[inline(always)]
            fn lds_offset(row: $i, k: $i) -> $i {
                let (rp, l) = (row / 2, row % 2);
                ((l * 4 + k / 8) ^ (rp % 8)) * 8 + rp * 64 + k % 8
            }
            /// `L` elements at `offset` of `s`, or `None` outside it.
            #[inline(always)]
            fn load<const L: usize>(s: &[u16], offset: $i) -> Option<[u16; L]> {
                let start = usize::try_from(offset).ok()?;
                s.get(start..start.checked_add(L)?)?.try_into().ok()
            }
            let (a_len, b_len) = if $validate {
                // The exact 64-bit validation: the operands' sizes fit, and the
                // 8-element loads stay inside rows (CK's IsSupportedArgument).
                let (Some(a_len), Some(b_len)) = ((m as usize).checked_mul(stride as usize), (n as usize).checked_mul(stride as usize))
                else {
                    return;
                };
                if (k | stride) % 8 != 0 {
                    return;
                }
                (a_len, b_len)
            } else {
                (m as usize * stride as usize, n as usize * stride as usize)
            };
            // SAFETY: the host passes `rows * stride` elements of each operand.
            let a = unsafe { core::slice::from_raw_parts(a, a_len) };
            // SAFETY: as above.
            let b = unsafe { core::slice::from_raw_parts(b, b_len) };
            let cells = lds.cells();
            let p = ids.partition();
            let (warp, lane) = (p.warp as $i, p.lane as $i);
            let (m0, n0) = ids.tile(n_blocks);
            let (m0, n0) = (m0 as $i, n0 as $i);
            // DRAM: row y0 * 64 + warp * 16 + lane / 4, K (lane % 4) * 8, 8 elements per y0.
            let (row, col) = (warp * 16 + lane / 4, (lane % 4) * 8);
            let (a_row, b_row) = ((warp / WARPS as $i) * 32, (warp % WARPS as $i) * 32);
            // This thread's 2 x 8 elements of an operand's K tile at column k0.
            let dram = |s: &[u16], rows: $i, base: $i, k0: $i| {
                let mut tile = [[0u16; 8]; 2];
                for y0 in 0..2 {
                    let (r, kk) = (base + y0 * 64 + row, k0 + col);
                    if r < rows && kk < k {
                        if let Some(v) = load::<8>(s, r * stride + kk) {
                            tile[y0 as usize] = v;
                        }
                    }
                }
                tile
            };
            // Stores a K tile into the LDS block at `block`.
            let store = |tile: &[[u16; 8]; 2], block: usize| {
                for y0 in 0..2 {
                    let offset = lds_offset(y0 * 64 + row, col) as usize + block;
                    if let Some(c) = cells.get(offset..offset + 8) {
                        for j in 0..8 {
                            c[j].set(tile[y0 as usize][j]);
                        }
                    }
                }
            };
            // A lane's MFMA operand of the warp tile at (row0, k) in the LDS block at `block`.
            let read = |row0: $i, k: $i, block: usize| {
                let mut v = [0u16; 8];
                let offset = lds_offset(row0 + lane % 32, k + R::LANE as $i * (lane / 32)) as usize + block;
                if let Some(c) = cells.get(offset..offset + R::LANE) {
                    for j in 0..R::LANE {
                        v[j] = c[j].get();
                    }
                }
                v
            };
            let mut acc = [[0u16; 8]; ITERS * ITERS];
            let mut k0 = 0;
            while k0 < k {
                let (a_tile, b_tile) = (dram(a, m, m0, k0), dram(b, n, n0, k0));
                k0 += K_PER_BLOCK as $i;
                barrier();
                store(&a_tile, 0);
                store(&b_tile, LDS_ELEMENTS);
                barrier();
                for k_iter in 0..(K_PER_BLOCK / R::K) as $i {
                    let mut av = [[0u16; 8]; ITERS];
                    let mut bv = [[0u16; 8]; ITERS];
                    for i in 0..ITERS {
                        av[i] = read(a_row + i as $i * 64, k_iter * R::K as $i, 0);
                        bv[i] = read(b_row + i as $i * 64, k_iter * R::K as $i, LDS_ELEMENTS);
                    }
                    for mi in 0..ITERS {
                        for ni in 0..ITERS {
                            mfma(&mut acc[mi * ITERS + ni], &av[mi][..R::LANE], &bv[ni][..R::LANE]);
                        }
                    }
                }
                barrier();
            }
            write_out(out, ids.block, ids.thread, acc);
        }
    };
}

hand_twin!(hand, Index, false);
hand_twin!(hand_checked, Index, true);
hand_twin!(hand_i32, i32, false);

/// The entry points: `extern "gpu-kernel"`, ids from the hardware, LDS the
/// launch-sized workgroup memory (2 blocks of [`LDS_ELEMENTS`] fp16).
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
mod kernels {
    use super::*;
    use cktile::tile::gpu::{get_block_id, get_thread_id, workgroup_memory};

    /// This thread's ids and the block's LDS.
    #[inline(always)]
    fn start<'a>() -> (Ids, SharedMemory<'a, u16>) {
        // SAFETY: the kernels are launched with 2 * LDS_ELEMENTS fp16 of dynamic shared memory.
        let lds = unsafe { workgroup_memory::<u16>(2 * LDS_ELEMENTS) };
        (Ids { block: get_block_id(), thread: get_thread_id() }, lds)
    }

    macro_rules! kernels {
        ($read:ty, $host:ident, $hand:ident, $u32:ident, $hand32:ident, $u64:ident, $hand64:ident, $unwrap:ident) => {
            /// The data path over DRAM descriptors the host built.
            #[unsafe(no_mangle)]
            #[allow(clippy::too_many_arguments)]
            pub extern "gpu-kernel" fn $host(
                a_arg: *const KernelArg<DramChain>,
                b_arg: *const KernelArg<DramChain>,
                a: *const u16,
                a_len: u64,
                b: *const u16,
                b_len: u64,
                n_blocks: u32,
                out: *mut u16,
            ) {
                let (ids, lds) = start();
                // SAFETY: the host passes its descriptors' kernel-argument forms.
                let (a_arg, b_arg) = unsafe { (&*a_arg, &*b_arg) };
                typed_host::<$read>(ids, lds, a_arg, b_arg, (a, a_len as usize), (b, b_len as usize), n_blocks, out)
            }

            /// Twin of the host-descriptor kernel: M, N, K and the stride as arguments.
            #[unsafe(no_mangle)]
            #[allow(clippy::too_many_arguments)]
            pub extern "gpu-kernel" fn $hand(a: *const u16, b: *const u16, m: u64, n: u64, k: u64, stride: u64, n_blocks: u32, out: *mut u16) {
                let (ids, lds) = start();
                hand::<$read>(ids, lds, a, b, (m as Index, n as Index, k as Index, stride as Index), n_blocks, out)
            }

            /// The data path, its DRAM views built in the kernel from 32-bit arguments.
            #[unsafe(no_mangle)]
            #[allow(clippy::too_many_arguments)]
            pub extern "gpu-kernel" fn $u32(a: *const u16, b: *const u16, m: u32, n: u32, k: u32, stride: u32, n_blocks: u32, out: *mut u16) {
                let (ids, lds) = start();
                typed_build::<$read>(ids, lds, a, b, (m as usize, n as usize, k as usize, stride as usize), n_blocks, out)
            }

            /// Twin of the 32-bit kernel: every index an `i32`, as CK's code.
            #[unsafe(no_mangle)]
            #[allow(clippy::too_many_arguments)]
            pub extern "gpu-kernel" fn $hand32(a: *const u16, b: *const u16, m: u32, n: u32, k: u32, stride: u32, n_blocks: u32, out: *mut u16) {
                let (ids, lds) = start();
                hand_i32::<$read>(ids, lds, a, b, (m as i32, n as i32, k as i32, stride as i32), n_blocks, out)
            }

            /// The data path, its DRAM views built in the kernel from 64-bit arguments.
            #[unsafe(no_mangle)]
            #[allow(clippy::too_many_arguments)]
            pub extern "gpu-kernel" fn $u64(a: *const u16, b: *const u16, m: u64, n: u64, k: u64, stride: u64, n_blocks: u32, out: *mut u16) {
                let (ids, lds) = start();
                typed_build::<$read>(ids, lds, a, b, (m as usize, n as usize, k as usize, stride as usize), n_blocks, out)
            }

            /// The data path built in the kernel from 32-bit arguments with
            /// `.unwrap()` (its twin is the 32-bit kernel's, `icount.py`'s `TWINS`).
            #[unsafe(no_mangle)]
            #[allow(clippy::too_many_arguments)]
            pub extern "gpu-kernel" fn $unwrap(a: *const u16, b: *const u16, m: u32, n: u32, k: u32, stride: u32, n_blocks: u32, out: *mut u16) {
                let (ids, lds) = start();
                typed_build_unwrap::<$read>(ids, lds, a, b, (m as usize, n as usize, k as usize, stride as usize), n_blocks, out)
            }

            /// Twin of the 64-bit kernel: the exact 64-bit validation by hand, then the path.
            #[unsafe(no_mangle)]
            #[allow(clippy::too_many_arguments)]
            pub extern "gpu-kernel" fn $hand64(a: *const u16, b: *const u16, m: u64, n: u64, k: u64, stride: u64, n_blocks: u32, out: *mut u16) {
                let (ids, lds) = start();
                hand_checked::<$read>(ids, lds, a, b, (m as Index, n as Index, k as Index, stride as Index), n_blocks, out)
            }
        };
    }

    kernels!(Read16, typed_kernel_k16_host, hand_kernel_k16_host, typed_kernel_k16_u32, hand_kernel_k16_u32, typed_kernel_k16_u64, hand_kernel_k16_u64, typed_kernel_k16_unwrap);
    kernels!(Read8, typed_kernel_k8_host, hand_kernel_k8_host, typed_kernel_k8_u32, hand_kernel_k8_u32, typed_kernel_k8_u64, hand_kernel_k8_u64, typed_kernel_k8_unwrap);
}

/// Every typed kernel body leaves the same accumulators and the same LDS
/// as its twin, for every thread of several blocks, on shapes that pad
/// along M, N and K, with both operand reads (each thread runs alone over
/// a pre-filled LDS: the addresses, validity and register places are what
/// is compared; `checks/tests/gemm_simulator.rs` runs whole blocks).
#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use core::cell::Cell;
    use std::vec;
    use std::vec::Vec;

    /// (accumulators of every thread of `blocks`, the LDS each left) of a kernel body.
    fn run(blocks: usize, body: impl Fn(Ids, SharedMemory<'_, u16>, *mut u16)) -> (Vec<u16>, Vec<u16>) {
        let threads = BLOCK_SIZE;
        let mut out = vec![0u16; blocks * threads * 8 * ITERS * ITERS];
        let mut lds_after = Vec::new();
        for block in 0..blocks {
            for thread in 0..threads {
                let lds: Vec<Cell<u16>> = (0..2 * LDS_ELEMENTS).map(|i| Cell::new((i * 7 + 3) as u16)).collect();
                body(Ids { block, thread }, SharedMemory::new(&lds), out.as_mut_ptr());
                lds_after.extend(lds.iter().map(Cell::get));
            }
        }
        (out, lds_after)
    }

    fn check<R: WarpRead>() {
        for (m, n, k, stride, n_blocks) in [(128usize, 128, 32, 32, 1u32), (200, 130, 72, 80, 2), (257, 256, 40, 48, 2)] {
            let blocks = m.div_ceil(128) * n_blocks as usize;
            let a: Vec<u16> = (0..m * stride).map(|i| (i % 65521) as u16 + 1).collect();
            let b: Vec<u16> = (0..n * stride).map(|i| (i % 65519) as u16 + 3).collect();
            let (pa, pb) = (a.as_ptr(), b.as_ptr());
            let want = run(blocks, |ids, lds, out| {
                hand::<R>(ids, lds, pa, pb, (m as Index, n as Index, k as Index, stride as Index), n_blocks, out)
            });
            assert!(want.0.iter().any(|&x| x != 0), "the twin computes something");
            let arg = |rows| cktile_checks::gemm::make_dram_view::<u16>(&[], rows, k, stride).unwrap().descriptor().to_kernel_arg();
            let (a_arg, b_arg) = (arg(m), arg(n));
            let host = run(blocks, |ids, lds, out| {
                typed_host::<R>(ids, lds, &a_arg, &b_arg, (pa, a.len()), (pb, b.len()), n_blocks, out)
            });
            assert!(host == want, "host form, shape {m} x {n} x {k}");
            let build = run(blocks, |ids, lds, out| typed_build::<R>(ids, lds, pa, pb, (m, n, k, stride), n_blocks, out));
            assert!(build == want, "in-kernel build, shape {m} x {n} x {k}");
            let unwrapped =
                run(blocks, |ids, lds, out| typed_build_unwrap::<R>(ids, lds, pa, pb, (m, n, k, stride), n_blocks, out));
            assert!(unwrapped == want, "in-kernel build with unwrap, shape {m} x {n} x {k}");
            let checked = run(blocks, |ids, lds, out| {
                hand_checked::<R>(ids, lds, pa, pb, (m as Index, n as Index, k as Index, stride as Index), n_blocks, out)
            });
            assert!(checked == want, "checked twin, shape {m} x {n} x {k}");
            let i32s = run(blocks, |ids, lds, out| {
                hand_i32::<R>(ids, lds, pa, pb, (m as i32, n as i32, k as i32, stride as i32), n_blocks, out)
            });
            assert!(i32s == want, "i32 twin, shape {m} x {n} x {k}");
        }
        // K = 36 is not a multiple of the 8-element loads: the in-kernel
        // build and the checked twin refuse it, writing nothing.
        let a = vec![1u16; 4096];
        for refused in [
            run(1, |ids, lds, out| typed_build::<R>(ids, lds, a.as_ptr(), a.as_ptr(), (10, 10, 36, 40), 1, out)),
            run(1, |ids, lds, out| hand_checked::<R>(ids, lds, a.as_ptr(), a.as_ptr(), (10, 10, 36, 40), 1, out)),
        ] {
            assert!(refused.0.iter().all(|&x| x == 0));
            let untouched: Vec<u16> = (0..BLOCK_SIZE).flat_map(|_| (0..2 * LDS_ELEMENTS).map(|i| (i * 7 + 3) as u16)).collect();
            assert!(refused.1 == untouched);
        }
    }

    #[test]
    fn kernel_bodies_equal_their_twins_k16() {
        check::<Read16>();
    }

    #[test]
    fn kernel_bodies_equal_their_twins_k8() {
        check::<Read8>();
    }
}
