//! Real kernel entry points: CK's universal GEMM data path as a
//! CK engineer writes it, next to hand-written twins.
//!
//! What [`paths`](crate::paths) measures as device functions (the thread id
//! an argument, one operand per function), this module writes as kernels:
//! `extern "gpu-kernel"` entry points (on amdgcn and nvptx; the host test
//! calls the same bodies with the ids it chooses) that
//! - instantiate the library's policy, one line per configuration
//!   (`cktile_core::ops::gemm::UniversalGemmPolicy`): [`Tile128K16`],
//!   [`Tile128K8`] and [`Tile64K16`];
//! - read the hardware ids (`cktile_core::tile::gpu::get_partition`, the warp
//!   wave-uniform, and `get_block_id`) and map the block to its (M, N)
//!   tile as CK's 2-D tile partitioner does (`i_m = block / n_blocks`);
//! - hold both operands' windows in one pipeline struct ([`GemmPipeline`]:
//!   the A and B DRAM windows, LDS store windows and warp windows, as CK's
//!   pipeline holds `a_copy_dram_window`, `a_copy_lds_window`,
//!   `a_lds_gemm_window` and B's);
//! - stage both operands through the block's workgroup memory (A's LDS
//!   block, then B's);
//! - run the whole K loop (load A and B, move both windows, barrier, store
//!   both, barrier, the warp reads, barrier).
//!
//! Four forms of each kernel: the DRAM descriptors built on the host
//! (`typed_kernel_*_host`, passed as `KernelArg`s), built in the kernel
//! from 32-bit arguments with `let Ok(..) else` (`*_u32`) or with
//! `.unwrap()` (`*_unwrap`), both against a twin computing every index in
//! `i32` as CK's code does, and built in the kernel from 64-bit arguments
//! (`*_u64`), against a twin doing the exact 64-bit validation by hand.
//! The twins (`hand_kernel_*`, [`hand`], [`hand_i32`], [`hand_checked`])
//! compute the same addresses, validity and registers by hand from the
//! policy's numbers, with the same ids, barriers and MFMA stand-in.
//!
//! Every kernel, typed and twin, starts with the block bound (a thread
//! past the policy's block returns: `get_partition_in_block`), and hands
//! each K step's operand registers to a [`Sink`]: the MFMA stand-in
//! ([`Accumulate`]) in the proof kernels, or, with feature `probe`, a
//! recorder of every register (`Record`) in the `probe_*` kernels that
//! `gpu/gemm.sh` runs on an NVIDIA GPU and checks against CK's lane map.

use crate::paths::barrier;
use cktile_core::Index;
use cktile_core::ops::gemm::{
    ADramChain, BDramChain, BlockWarps, GemmPolicy, Mfma32x32x8, Mfma32x32x16, OperandA, OperandB, OperandPath,
    UniversalGemmPolicy, WarpTensor,
};
use cktile_core::tile::{Partition, SharedMemory};
use cktile_core::typed::{KernelArg, TensorDescriptor};

/// CK's universal GEMM, 128 x 128 x 32 on 256 threads, 2 x 2 warps, K16
/// reads (MFMA 32x32x16: 8 fp16 a lane, `ds_read_b128`).
pub type Tile128K16 = UniversalGemmPolicy<256, 128, 128, 32>;
/// The same block with 32x32x8 reads (4 fp16 a lane, `ds_read_b64`).
pub type Tile128K8 = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma32x32x8>;
/// 64 x 64 x 32 on 128 threads, 2 x 1 warps, K16 reads.
pub type Tile64K16 = UniversalGemmPolicy<128, 64, 64, 32, BlockWarps<2, 1>, Mfma32x32x16>;

/// The DRAM descriptors' chain (every policy's: runtime rows, K and
/// stride, padded to the block tile).
pub type DramChain = ADramChain<Tile128K16>;

/// Runs `$body` with `$i` bound to each of `0..$n` (a constant, at most
/// 8), written out with the library's `static_for!`: LLVM leaves a K loop
/// of several warp tiles rolled or not as its size thresholds fall, so
/// both sides unroll it by hand, as the guide advises for short loops.
macro_rules! unroll {
    ($n:expr, |$i:ident| $body:block) => {{
        const { assert!($n <= 8, "unroll!: at most 8 steps") };
        cktile_core::transforms::static_for!($n, |$i| $body)
    }};
}

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

/// What the K loop does with the operand registers of each K step (the
/// lane's A operands of its `MI` warp tiles along M, B's of its `NI`
/// along N): the proof kernels feed the MFMA stand-in ([`Accumulate`]),
/// the GPU check records every register (`Record`, feature `probe`). Typed bodies and
/// twins take the same sink.
pub trait Sink<const MI: usize, const NI: usize> {
    /// The sink of thread `ids` of a block of `block_size` threads, writing at `out`.
    fn start(out: *mut u16, ids: Ids, block_size: usize) -> Self;
    /// One K step's operands.
    fn step(&mut self, a: [&[u16]; MI], b: [&[u16]; NI]);
    /// The K loop is over.
    fn finish(self);
}

/// The `MI x NI` accumulators of the MFMA stand-in, written at the end (a
/// block's threads' accumulators contiguous, blocks one after the other).
pub struct Accumulate<const ACC: usize> {
    acc: [[u16; 8]; ACC],
    out: *mut u16,
    ids: Ids,
    block_size: usize,
}

impl<const MI: usize, const NI: usize, const ACC: usize> Sink<MI, NI> for Accumulate<ACC> {
    #[inline(always)]
    fn start(out: *mut u16, ids: Ids, block_size: usize) -> Self {
        const { assert!(ACC == MI * NI, "Accumulate<ACC>: ACC is MI x NI") };
        Accumulate { acc: [[0; 8]; ACC], out, ids, block_size }
    }

    #[inline(always)]
    fn step(&mut self, a: [&[u16]; MI], b: [&[u16]; NI]) {
        // CK's block GEMM order: for each warp tile along M, each along N.
        unroll!(MI, |i| { unroll!(NI, |j| { mfma(&mut self.acc[i * NI + j], a[i], b[j]) }) });
    }

    #[inline(always)]
    fn finish(self) {
        let thread = self.ids.block * self.block_size + self.ids.thread;
        // SAFETY: the caller passes `size_of_val(&acc)` writable bytes per thread of the grid at `out`.
        unsafe { core::ptr::write((self.out as *mut [[u16; 8]; ACC]).add(thread), self.acc) }
    }
}

/// Every operand register of the first `STEPS` K steps, for the GPU check
/// (`gpu/gemm.py`): thread `t` of the grid (`block * block_size + thread`)
/// writes step `s`'s A operands, then its B operands, 8 values each (zero
/// past the lane's count), at `out[((t * STEPS + s) * (MI + NI) + slot) * 8..]`.
#[cfg(any(test, feature = "probe"))]
pub struct Record<const STEPS: usize> {
    out: *mut u16,
    step: usize,
}

#[cfg(any(test, feature = "probe"))]
impl<const MI: usize, const NI: usize, const STEPS: usize> Sink<MI, NI> for Record<STEPS> {
    #[inline(always)]
    fn start(out: *mut u16, ids: Ids, block_size: usize) -> Self {
        let thread = ids.block * block_size + ids.thread;
        Record { out: out.wrapping_add(thread * STEPS * (MI + NI) * 8), step: 0 }
    }

    #[inline(always)]
    fn step(&mut self, a: [&[u16]; MI], b: [&[u16]; NI]) {
        /// A lane's values, zero past its count (written out: an indexed
        /// array of slices would go to local memory).
        #[inline(always)]
        fn eight(regs: &[u16]) -> [u16; 8] {
            let mut v = [0u16; 8];
            unroll!(8, |j| {
                if j < regs.len() {
                    v[j] = regs[j];
                }
            });
            v
        }
        if self.step < STEPS {
            let at = (self.out as *mut [u16; 8]).wrapping_add(self.step * (MI + NI));
            // SAFETY: the caller passes `STEPS * (MI + NI) * 8` writable elements per thread of the grid at `out`.
            unroll!(MI, |i| { unsafe { core::ptr::write(at.add(i), eight(a[i])) } });
            // SAFETY: as above.
            unroll!(NI, |j| { unsafe { core::ptr::write(at.add(MI + j), eight(b[j])) } });
        }
        self.step += 1;
    }

    #[inline(always)]
    fn finish(self) {}
}

/// A pipeline's state for policy `P`, one form of it (this module's
/// [`GemmPipeline`], the forms of [`forms`](crate::forms)): what every
/// kernel body builds for its thread and runs.
pub trait Pipeline<'a, P: GemmPolicy>: Sized {
    /// The windows of the thread at `p` of the block whose tiles start at
    /// row `m0` of A and `n0` of B, over the DRAM descriptors `a_desc`,
    /// `b_desc` of `a`, `b`, staged through `lds` (A's LDS block, then B's).
    fn new(
        a: (&'a [u16], TensorDescriptor<ADramChain<P>>),
        b: (&'a [u16], TensorDescriptor<BDramChain<P>>),
        lds: SharedMemory<'a, u16>,
        origin: (Index, Index),
        p: Partition,
    ) -> Result<Self, cktile_core::Error>;

    /// The K loop over `k` columns, each K step's operands to `sink`
    /// (`MI`, `NI`: the policy's warp tiles per warp along M and N, a
    /// compile error otherwise).
    fn run<const MI: usize, const NI: usize, S: Sink<MI, NI>>(&mut self, k: usize, sink: &mut S);
}

/// CK's pipeline state for policy `P`: both operands' windows (DRAM, LDS
/// store, warp), held in one struct, the warp tiles read one by one
/// ([`OperandPath::read`]).
pub struct GemmPipeline<'a, P: GemmPolicy> {
    a: OperandPath<'a, u16, P, OperandA>,
    b: OperandPath<'a, u16, P, OperandB>,
}

impl<'a, P: GemmPolicy> Pipeline<'a, P> for GemmPipeline<'a, P> {
    #[inline(always)]
    fn new(
        (a, a_desc): (&'a [u16], TensorDescriptor<ADramChain<P>>),
        (b, b_desc): (&'a [u16], TensorDescriptor<BDramChain<P>>),
        lds: SharedMemory<'a, u16>,
        (m0, n0): (Index, Index),
        p: Partition,
    ) -> Result<Self, cktile_core::Error> {
        let (a_lds, b_lds) = lds.split_at(P::M_PER_BLOCK * P::K_PER_BLOCK);
        let a = OperandPath::with_partition(OperandA, a_desc, a, m0, a_lds, p)?;
        let b = OperandPath::with_partition(OperandB, b_desc, b, n0, b_lds, p)?;
        Ok(GemmPipeline { a, b })
    }

    #[inline(always)]
    fn run<const MI: usize, const NI: usize, S: Sink<MI, NI>>(&mut self, k: usize, sink: &mut S) {
        const { assert!(MI == P::M_ITERS && NI == P::N_ITERS) };
        let mut kt = 0;
        while kt < k.div_ceil(P::K_PER_BLOCK) {
            let (a_tile, b_tile) = (self.a.load(), self.b.load());
            self.a.next_k();
            self.b.next_k();
            barrier();
            self.a.store(&a_tile);
            self.b.store(&b_tile);
            barrier();
            unroll!(P::K_ITERS, |k_iter| {
                // The warp's A and B operands of this K step, then their MFMAs.
                let a_regs: [WarpTensor<u16, P, OperandA>; MI] = core::array::from_fn(|i| self.a.read(i, k_iter));
                let b_regs: [WarpTensor<u16, P, OperandB>; NI] = core::array::from_fn(|j| self.b.read(j, k_iter));
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

/// The ids a kernel reads from the hardware. On the host (the test), the
/// caller passes them instead.
#[derive(Clone, Copy)]
pub struct Ids {
    /// The block in the grid (CK's `get_block_id`).
    pub block: usize,
    /// The thread in the block (CK's `get_thread_id`).
    pub thread: usize,
}

impl Ids {
    /// The warp and lane of the thread as policy `P`'s encodings count
    /// them (64-lane warps), `None` past its block (the kernels start
    /// with it, as a CUDA kernel tests `threadIdx.x < BlockSize`; the
    /// bound lets the compiler fold the LDS bounds checks): on the GPU
    /// targets the library's `get_policy_partition` (on amdgcn the
    /// hardware's warp, wave-uniform, and lane; on nvptx, whose warps are
    /// 32 lanes, computed from the thread id), on the host
    /// `GemmPolicy::partition_of_thread`, the same numbers.
    #[inline(always)]
    pub(crate) fn partition<P: GemmPolicy>(self) -> Option<Partition> {
        #[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
        {
            let _ = self;
            cktile_core::ops::gemm::get_policy_partition::<P>()
        }
        #[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
        P::partition_of_thread(self.thread)
    }

    /// The block's (M, N) tile rows under policy `P`: CK's 2-D tile
    /// partitioner over `n_blocks` tiles along N.
    #[inline(always)]
    pub(crate) fn tile<P: GemmPolicy>(self, n_blocks: u32) -> (Index, Index) {
        let n_blocks = n_blocks.max(1) as usize;
        let (i_m, i_n) = (self.block / n_blocks, self.block % n_blocks);
        ((i_m * P::M_PER_BLOCK) as Index, (i_n * P::N_PER_BLOCK) as Index)
    }
}

/// The kernel body over DRAM descriptors built on the host.
#[inline(always)]
pub fn typed_host<'a, P: GemmPolicy, Q: Pipeline<'a, P>, const MI: usize, const NI: usize, S: Sink<MI, NI>>(
    (ids, lds): (Ids, SharedMemory<'a, u16>),
    (a_arg, b_arg): (&KernelArg<ADramChain<P>>, &KernelArg<BDramChain<P>>),
    (a, a_len): (*const u16, usize),
    (b, b_len): (*const u16, usize),
    n_blocks: u32,
    out: *mut u16,
) {
    let Some(p) = ids.partition::<P>() else {
        return;
    };
    let (a_desc, b_desc) = (a_arg.descriptor(), b_arg.descriptor());
    // SAFETY: the host passes `a_len` elements at `a`.
    let a = unsafe { core::slice::from_raw_parts(a, a_len) };
    // SAFETY: as above.
    let b = unsafe { core::slice::from_raw_parts(b, b_len) };
    let Ok(mut pipe) = Q::new((a, a_desc), (b, b_desc), lds, ids.tile::<P>(n_blocks), p) else {
        return;
    };
    let mut sink = S::start(out, ids, P::BLOCK_SIZE);
    pipe.run::<MI, NI, S>(a_desc.lengths()[1] as usize, &mut sink);
    sink.finish();
}

/// The kernel body building the DRAM views in the kernel from (M, N, K,
/// stride) given as `usize`, each step with `let Ok(..) else`.
#[inline(always)]
pub fn typed_build<'a, P: GemmPolicy, Q: Pipeline<'a, P>, const MI: usize, const NI: usize, S: Sink<MI, NI>>(
    (ids, lds): (Ids, SharedMemory<'a, u16>),
    (a, b): (*const u16, *const u16),
    (m, n, k, stride): (usize, usize, usize, usize),
    n_blocks: u32,
    out: *mut u16,
) {
    let Some(p) = ids.partition::<P>() else {
        return;
    };
    let (Some(a_len), Some(b_len)) = (m.checked_mul(stride), n.checked_mul(stride)) else {
        return;
    };
    // SAFETY: the host passes `rows * stride` elements of each operand.
    let a = unsafe { core::slice::from_raw_parts(a, a_len) };
    // SAFETY: as above.
    let b = unsafe { core::slice::from_raw_parts(b, b_len) };
    let Ok(a_view) = P::make_a_dram_view(a, m, k, stride) else {
        return;
    };
    let Ok(b_view) = P::make_b_dram_view(b, n, k, stride) else {
        return;
    };
    let (a_desc, b_desc) = (*a_view.descriptor(), *b_view.descriptor());
    let Ok(mut pipe) = Q::new((a, a_desc), (b, b_desc), lds, ids.tile::<P>(n_blocks), p) else {
        return;
    };
    let mut sink = S::start(out, ids, P::BLOCK_SIZE);
    pipe.run::<MI, NI, S>(k, &mut sink);
    sink.finish();
}

/// [`typed_build`] written with `.unwrap()`, as kernel code often is: with
/// `panic = "immediate-abort"` (how `scripts/target-icount.sh` builds the
/// GPU targets) a refused shape traps, with no call and no scratch; with
/// `panic = "abort"` the unwrap keeps core's panic formatting (a call and
/// scratch memory on amdgcn, local memory on nvptx).
#[inline(always)]
#[allow(clippy::unwrap_used)]
pub fn typed_build_unwrap<'a, P: GemmPolicy, Q: Pipeline<'a, P>, const MI: usize, const NI: usize, S: Sink<MI, NI>>(
    (ids, lds): (Ids, SharedMemory<'a, u16>),
    (a, b): (*const u16, *const u16),
    (m, n, k, stride): (usize, usize, usize, usize),
    n_blocks: u32,
    out: *mut u16,
) {
    // A thread past the block returns, as every kernel's does (`get_partition_in_block`'s idiom):
    // it is not a refused shape, so it does not trap.
    let Some(p) = ids.partition::<P>() else {
        return;
    };
    // SAFETY: the host passes `rows * stride` elements of each operand (32-bit sizes: no overflow).
    let a = unsafe { core::slice::from_raw_parts(a, m * stride) };
    // SAFETY: as above.
    let b = unsafe { core::slice::from_raw_parts(b, n * stride) };
    let a_desc = *P::make_a_dram_view(a, m, k, stride).unwrap().descriptor();
    let b_desc = *P::make_b_dram_view(b, n, k, stride).unwrap().descriptor();
    let mut pipe = Q::new((a, a_desc), (b, b_desc), lds, ids.tile::<P>(n_blocks), p).unwrap();
    let mut sink = S::start(out, ids, P::BLOCK_SIZE);
    pipe.run::<MI, NI, S>(k, &mut sink);
    sink.finish();
}

/// The hand-written twin, for one index type `$i`: the same K loop with
/// every address, validity test and register written out, as CK's
/// generated code computes them, from the policy's numbers alone.
/// `$validate`: the exact 64-bit validation first.
macro_rules! hand_twin {
    ($(#[$doc:meta])* $name:ident, $i:ty, $validate:expr) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<P: GemmPolicy, const MI: usize, const NI: usize, const MA: usize, const MB: usize, S: Sink<MI, NI>>(
            (ids, lds): (Ids, SharedMemory<'_, u16>),
            (a, b): (*const u16, *const u16),
            (m, n, k, stride): ($i, $i, $i, $i),
            n_blocks: u32,
            out: *mut u16,
        ) {
            // The policy's numbers: the block tile, CK's DRAM distribution
            // (K0 = K / 8 lanes along K, M2 = 64 / K0 rows a wave, M1 waves,
            // MA / MB vectors a thread), the warp GEMM (WM rows, WK columns, KL
            // values a lane) and the LDS block (MLdsLayer L; KPack KP, CK's: the
            // lane's KL values, at most the 8-element vector).
            const { assert!(MI == P::M_ITERS && NI == P::N_ITERS && P::VECTOR == 8) };
            let Some(p) = ids.partition::<P>() else {
                return;
            };
            let (bk, k0) = (P::K_PER_BLOCK as $i, (P::K_PER_BLOCK / 8) as $i);
            let (m2, m1) = (64 / k0, (P::BLOCK_SIZE / 64) as $i);
            const { assert!(MA * 64 / (P::K_PER_BLOCK / 8) * (P::BLOCK_SIZE / 64) == P::M_PER_BLOCK) };
            const { assert!(MB * 64 / (P::K_PER_BLOCK / 8) * (P::BLOCK_SIZE / 64) == P::N_PER_BLOCK) };
            let l: $i = if 64 / bk > 1 { 64 / bk } else { 1 };
            let (wm, wk) = (P::WARP_M as $i, P::WARP_K as $i);
            let kl = wk * wm / 64;
            let kp = if kl < 8 { kl } else { 8 };
            let kps = bk / kp;
            let a_block = P::M_PER_BLOCK * P::K_PER_BLOCK;
            /// `L` elements at `offset` of `s`, or `None` outside it.
            #[inline(always)]
            fn load<const L: usize>(s: &[u16], offset: $i) -> Option<[u16; L]> {
                let start = usize::try_from(offset).ok()?;
                s.get(start..start.checked_add(L)?)?.try_into().ok()
            }
            let (a_len, b_len) = if $validate {
                // The exact 64-bit validation, with the typed form's verdict on
                // every input: the operands' sizes fit (the slices), and each
                // DRAM view is what `make_dram_view` accepts (CK's naive
                // descriptor: positive lengths whose product fits, an element
                // space that fits; the 8-element vector: K a multiple of 8, as
                // CK's IsSupportedArgument checks, any row stride; the padded
                // lengths fit). Written as one
                // flag per operand, no branch between the tests.
                let (Some(a_len), Some(b_len)) =
                    ((m as usize).checked_mul(stride as usize), (n as usize).checked_mul(stride as usize))
                else {
                    return;
                };
                #[inline(always)]
                fn view_ok(rows: u64, k: u64, stride: u64, tile: u64, k_tile: u64) -> Option<()> {
                    let max = Index::MAX as u64;
                    // The padded lengths: `rows` and `k` rounded up to their tiles.
                    let padded = |n: u64, t: u64| n.checked_add(t - 1).filter(|&p| p - p % t <= max);
                    (rows >= 1 && k >= 1 && stride <= max && k % 8 == 0).then_some(())?;
                    rows.checked_mul(k).filter(|&p| p <= max)?;
                    ((rows - 1).checked_mul(stride)?.checked_add(k - 1)? < max).then_some(())?;
                    padded(rows, tile)?;
                    padded(k, k_tile).map(|_| ())
                }
                let (k, stride, bk) = (k as u64, stride as u64, P::K_PER_BLOCK as u64);
                if view_ok(m as u64, k, stride, P::M_PER_BLOCK as u64, bk).is_none()
                    || view_ok(n as u64, k, stride, P::N_PER_BLOCK as u64, bk).is_none()
                {
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
            let (warp, lane) = (p.warp as $i, p.lane as $i);
            let (m0, n0) = ids.tile::<P>(n_blocks);
            let (m0, n0) = (m0 as $i, n0 as $i);
            // The LDS offset of (row, col) in CK's xor block (KPS = K / KP packs a row).
            let lds_offset = |row: $i, col: $i| {
                let (rp, rl) = (row / l, row % l);
                ((rl * kps + col / kp) ^ (rp % (kps * l))) * kp + rp * (bk * l) + col % kp
            };
            // DRAM: row y0 * M1 * M2 + warp * M2 + lane / K0, column (lane % K0) * 8.
            let (row, col) = (warp * m2 + lane / k0, (lane % k0) * 8);
            let (a_row, b_row) = ((warp / P::N_WARPS as $i) * wm, (warp % P::N_WARPS as $i) * wm);
            // This thread's vectors of A's and B's K tiles at column `kc`
            // (written out for each: one generic helper for both compiled to
            // 50 more instructions in some twins).
            let dram_a = |kc: $i| {
                let mut tile = [[0u16; 8]; MA];
                unroll!(MA, |y0| {
                    let (r, kk) = (m0 + y0 as $i * m1 * m2 + row, kc + col);
                    if r < m && kk < k {
                        if let Some(x) = load::<8>(a, r * stride + kk) {
                            tile[y0] = x;
                        }
                    }
                });
                tile
            };
            let dram_b = |kc: $i| {
                let mut tile = [[0u16; 8]; MB];
                unroll!(MB, |y0| {
                    let (r, kk) = (n0 + y0 as $i * m1 * m2 + row, kc + col);
                    if r < n && kk < k {
                        if let Some(x) = load::<8>(b, r * stride + kk) {
                            tile[y0] = x;
                        }
                    }
                });
                tile
            };
            // Stores a thread's vectors into the LDS block at `block`: each 8-element
            // vector as its KP-element packs (one, when KP is 8).
            let store = |tile: &[[u16; 8]], block: usize| {
                unroll!(8, |y0| {
                    if let Some(v) = tile.get(y0) {
                        unroll!(2, |h| {
                            let first = h as $i * kp;
                            if first < 8 {
                                let offset = lds_offset(y0 as $i * m1 * m2 + row, col + first) as usize + block;
                                if let Some(c) = cells.get(offset..offset + kp as usize) {
                                    unroll!(8, |j| {
                                        if let (Some(c), Some(&x)) = (c.get(j), v.get(first as usize + j)) {
                                            c.set(x)
                                        }
                                    });
                                }
                            }
                        });
                    }
                });
            };
            // A lane's MFMA operand of the warp tile at (row0, kc) in the LDS block at `block`.
            let read = |row0: $i, kc: $i, block: usize| {
                let mut v = [0u16; 8];
                let offset = lds_offset(row0 + lane % wm, kc + kl * (lane / wm)) as usize + block;
                if let Some(c) = cells.get(offset..offset + kl as usize) {
                    unroll!(8, |j| {
                        if j < c.len() {
                            v[j] = c[j].get();
                        }
                    });
                }
                v
            };
            let mut sink = S::start(out, ids, P::BLOCK_SIZE);
            let mut kc = 0;
            while kc < k {
                let (a_tile, b_tile) = (dram_a(kc), dram_b(kc));
                kc += bk;
                barrier();
                store(&a_tile, 0);
                store(&b_tile, a_block);
                barrier();
                unroll!(P::K_ITERS, |k_iter| {
                    let k_iter = k_iter as $i;
                    let mut av = [[0u16; 8]; MI];
                    let mut bv = [[0u16; 8]; NI];
                    unroll!(MI, |i| { av[i] = read(a_row + i as $i * (P::M_WARPS as $i * wm), k_iter * wk, 0) });
                    unroll!(NI, |j| { bv[j] = read(b_row + j as $i * (P::N_WARPS as $i * wm), k_iter * wk, a_block) });
                    sink.step(
                        core::array::from_fn(|i| &av[i][..kl as usize]),
                        core::array::from_fn(|j| &bv[j][..kl as usize]),
                    );
                });
                barrier();
            }
            sink.finish();
        }
    };
}

hand_twin!(
    /// The twin in 64 bits (cktile's `Index`), trusting its arguments (the host validated them).
    hand, Index, false
);
hand_twin!(
    /// The twin in 64 bits with the exact 64-bit validation first.
    hand_checked, Index, true
);
hand_twin!(
    /// The twin in 32 bits, as CK's code (`index_t`), trusting its arguments.
    hand_i32, i32, false
);

/// The entry points: `extern "gpu-kernel"`, ids from the hardware, LDS the
/// launch-sized workgroup memory (the policy's A block, then its B block).
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
mod kernels {
    use super::*;
    use cktile_core::tile::gpu::{get_block_id, get_thread_id, workgroup_memory};

    /// This thread's ids and the block's LDS (both operands' blocks).
    #[inline(always)]
    fn start<'a, P: GemmPolicy>() -> (Ids, SharedMemory<'a, u16>) {
        // SAFETY: the kernels are launched with (M + N) x KPerBlock fp16 of dynamic shared memory.
        let lds = unsafe { workgroup_memory::<u16>((P::M_PER_BLOCK + P::N_PER_BLOCK) * P::K_PER_BLOCK) };
        (Ids { block: get_block_id(), thread: get_thread_id() }, lds)
    }

    macro_rules! kernels {
        // A kernel taking (M, N, K, stride) as `$arg`, its body `$body` over them as `$to`.
        (@sized $(#[$doc:meta])* $name:ident($arg:ty) => $body:ident($to:ty) $p:ty, [$($c:tt)*]) => {
            $(#[$doc])*
            #[unsafe(no_mangle)]
            #[allow(clippy::too_many_arguments)]
            pub extern "gpu-kernel" fn $name(a: *const u16, b: *const u16, m: $arg, n: $arg, k: $arg, stride: $arg, n_blocks: u32, out: *mut u16) {
                $body::<$p, $($c)*>((start::<$p>()), (a, b), (m as $to, n as $to, k as $to, stride as $to), n_blocks, out)
            }
        };
        // A kernel over DRAM descriptors the host built, its body `typed_host::<$p, $($c)*>`.
        (@host $(#[$doc:meta])* $name:ident $p:ty, [$($c:tt)*]) => {
            $(#[$doc])*
            #[unsafe(no_mangle)]
            #[allow(clippy::too_many_arguments)]
            pub extern "gpu-kernel" fn $name(
                a_arg: *const KernelArg<DramChain>,
                b_arg: *const KernelArg<DramChain>,
                a: *const u16,
                a_len: u64,
                b: *const u16,
                b_len: u64,
                n_blocks: u32,
                out: *mut u16,
            ) {
                // SAFETY: the host passes its descriptors' kernel-argument forms.
                let args = unsafe { (&*a_arg, &*b_arg) };
                typed_host::<$p, $($c)*>(start::<$p>(), args, (a, a_len as usize), (b, b_len as usize), n_blocks, out)
            }
        };
        // A form of the pipeline (`crate::forms`) in the three build forms, held to `$p`'s twins.
        (@forms $p:ty, $q:ty, $mi:literal x $ni:literal, $sink:ty: $host:ident, $u32:ident, $unwrap:ident) => {
            kernels!(@host
                /// A form of the data path over DRAM descriptors the host built.
                $host $p, [$q, $mi, $ni, $sink]);
            kernels!(@sized
                /// A form of the data path, its DRAM views built in the kernel from 32-bit arguments.
                $u32(u32) => typed_build(usize) $p, [$q, $mi, $ni, $sink]);
            kernels!(@sized
                /// A form of the data path built in the kernel from 32-bit arguments with `.unwrap()`.
                $unwrap(u32) => typed_build_unwrap(usize) $p, [$q, $mi, $ni, $sink]);
        };
        ($p:ty, $mi:literal x $ni:literal, dram $ma:literal $mb:literal, $sink:ty: $host:ident, $hand:ident, $u32:ident, $hand32:ident, $unwrap:ident, $u64:ident, $hand64:ident) => {
            kernels!(@host
                /// The data path over DRAM descriptors the host built.
                $host $p, [GemmPipeline<'_, $p>, $mi, $ni, $sink]);
            kernels!(@sized
                /// Twin of the host-descriptor kernel: M, N, K and the stride as arguments.
                $hand(u64) => hand(Index) $p, [$mi, $ni, $ma, $mb, $sink]);
            kernels!(@sized
                /// The data path, its DRAM views built in the kernel from 32-bit arguments.
                $u32(u32) => typed_build(usize) $p, [GemmPipeline<'_, $p>, $mi, $ni, $sink]);
            kernels!(@sized
                /// Twin of the 32-bit kernels: every index an `i32`, as CK's code.
                $hand32(u32) => hand_i32(i32) $p, [$mi, $ni, $ma, $mb, $sink]);
            kernels!(@sized
                /// The data path built in the kernel from 32-bit arguments with
                /// `.unwrap()` (its twin is the 32-bit kernel's, `icount.py`'s `TWINS`).
                $unwrap(u32) => typed_build_unwrap(usize) $p, [GemmPipeline<'_, $p>, $mi, $ni, $sink]);
            kernels!(@sized
                /// The data path, its DRAM views built in the kernel from 64-bit arguments.
                $u64(u64) => typed_build(usize) $p, [GemmPipeline<'_, $p>, $mi, $ni, $sink]);
            kernels!(@sized
                /// Twin of the 64-bit kernel: the exact 64-bit validation by hand, then the path.
                $hand64(u64) => hand_checked(Index) $p, [$mi, $ni, $ma, $mb, $sink]);
        };
    }

    kernels!(Tile128K16, 2 x 2, dram 2 2, Accumulate<4>: typed_kernel_k16_host, hand_kernel_k16_host,
        typed_kernel_k16_u32, hand_kernel_k16_u32, typed_kernel_k16_unwrap, typed_kernel_k16_u64, hand_kernel_k16_u64);
    kernels!(Tile128K8, 2 x 2, dram 2 2, Accumulate<4>: typed_kernel_k8_host, hand_kernel_k8_host,
        typed_kernel_k8_u32, hand_kernel_k8_u32, typed_kernel_k8_unwrap, typed_kernel_k8_u64, hand_kernel_k8_u64);
    kernels!(Tile64K16, 1 x 2, dram 2 2, Accumulate<2>: typed_kernel_64_host, hand_kernel_64_host,
        typed_kernel_64_u32, hand_kernel_64_u32, typed_kernel_64_unwrap, typed_kernel_64_u64, hand_kernel_64_u64);

    // The family of forms (`crate::forms`, issue 64), each in the three build forms.
    use crate::forms::{BlockPipe, BlockPipeElse, InlinePipe, UserPipe};
    kernels!(@forms Tile128K16, BlockPipe<'_, Tile128K16>, 2 x 2, Accumulate<4>:
        typed_kernel_k16_ctor_host, typed_kernel_k16_ctor_u32, typed_kernel_k16_ctor_unwrap);
    kernels!(@forms Tile128K16, BlockPipeElse<'_, Tile128K16>, 2 x 2, Accumulate<4>:
        typed_kernel_k16_letelse_host, typed_kernel_k16_letelse_u32, typed_kernel_k16_letelse_unwrap);
    kernels!(@forms Tile128K16, UserPipe<'_, Tile128K16>, 2 x 2, Accumulate<4>:
        typed_kernel_k16_user_host, typed_kernel_k16_user_u32, typed_kernel_k16_user_unwrap);
    kernels!(@forms Tile128K16, InlinePipe<'_, Tile128K16>, 2 x 2, Accumulate<4>:
        typed_kernel_k16_inline_host, typed_kernel_k16_inline_u32, typed_kernel_k16_inline_unwrap);

    /// The GPU check's kernels (`gpu/gemm.sh`; feature `probe`): the same
    /// bodies, each recording every operand register of its first
    /// [`PROBE_STEPS`] K steps ([`Record`]) instead of accumulating.
    #[cfg(feature = "probe")]
    mod probes {
        use super::*;
        kernels!(Tile128K16, 2 x 2, dram 2 2, Record<PROBE_STEPS>: probe_typed_k16_host, probe_hand_k16_host,
            probe_typed_k16_u32, probe_hand_k16_u32, probe_typed_k16_unwrap, probe_typed_k16_u64, probe_hand_k16_u64);
        kernels!(Tile128K8, 2 x 2, dram 2 2, Record<PROBE_STEPS>: probe_typed_k8_host, probe_hand_k8_host,
            probe_typed_k8_u32, probe_hand_k8_u32, probe_typed_k8_unwrap, probe_typed_k8_u64, probe_hand_k8_u64);
        kernels!(Tile64K16, 1 x 2, dram 2 2, Record<PROBE_STEPS>: probe_typed_64_host, probe_hand_64_host,
            probe_typed_64_u32, probe_hand_64_u32, probe_typed_64_unwrap, probe_typed_64_u64, probe_hand_64_u64);
    }
}

/// The K steps whose registers the probe kernels record (`K <= 16 / K_ITERS
/// x KPerBlock`: 128 columns with 32x32x8 reads, 256 with K16).
#[cfg(any(test, feature = "probe"))]
pub const PROBE_STEPS: usize = 16;

/// Every typed kernel body leaves the same accumulators and the same LDS
/// as its twins, for every thread of several blocks, on shapes that pad
/// along M, N and K, for every configuration (each thread runs alone over
/// a pre-filled LDS: the addresses, validity and register places are what
/// is compared; `checks/tests/gemm_simulator.rs` runs whole blocks).
#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::forms::{BlockPipe, BlockPipeElse, InlinePipe, UserPipe};
    use core::cell::Cell;
    use std::vec;
    use std::vec::Vec;

    /// The LDS of one block, pre-filled.
    fn lds<P: GemmPolicy>() -> Vec<Cell<u16>> {
        (0..(P::M_PER_BLOCK + P::N_PER_BLOCK) * P::K_PER_BLOCK).map(|i| Cell::new((i * 7 + 3) as u16)).collect()
    }

    /// (what every thread of `blocks` wrote, `per_thread` values each; the
    /// LDS each left) of a kernel body.
    fn run<P: GemmPolicy>(
        blocks: usize,
        per_thread: usize,
        body: impl Fn((Ids, SharedMemory<'_, u16>), *mut u16),
    ) -> (Vec<u16>, Vec<u16>) {
        let mut out = vec![0u16; blocks * P::BLOCK_SIZE * per_thread];
        let mut lds_after = Vec::new();
        for block in 0..blocks {
            for thread in 0..P::BLOCK_SIZE {
                let lds = lds::<P>();
                body((Ids { block, thread }, SharedMemory::new(&lds)), out.as_mut_ptr());
                lds_after.extend(lds.iter().map(Cell::get));
            }
        }
        (out, lds_after)
    }

    /// Every body with sink `S` (`per_thread` values a thread) against the
    /// 64-bit twin; returns each shape's (A, B, twin's output).
    #[allow(clippy::type_complexity)]
    fn check<P: GemmPolicy, const MI: usize, const NI: usize, const MA: usize, const MB: usize, S: Sink<MI, NI>>(
        per_thread: usize,
    ) -> Vec<((usize, usize, usize, usize, u32), Vec<u16>, Vec<u16>, Vec<u16>)> {
        let mut results = Vec::new();
        let shapes = [
            (P::M_PER_BLOCK, P::N_PER_BLOCK, P::K_PER_BLOCK, P::K_PER_BLOCK, 1u32),
            (200, 130, 72, 80, 3),
            (64, 190, 128, 136, 2),
            (257, 256, 40, 48, 4),
            // Row strides no multiple of the 8-element vector (CK accepts them).
            (130, 200, 40, 44, 2),
            (70, 64, 16, 19, 1),
        ];
        for (m, n, k, stride, n_blocks) in shapes {
            let blocks = m.div_ceil(P::M_PER_BLOCK) * n_blocks as usize;
            let a: Vec<u16> = (0..m * stride).map(|i| (i % 65521) as u16 + 1).collect();
            let b: Vec<u16> = (0..n * stride).map(|i| (i % 65519) as u16 + 3).collect();
            let ptrs = (a.as_ptr(), b.as_ptr());
            let wide = (m as Index, n as Index, k as Index, stride as Index);
            let want =
                run::<P>(blocks, per_thread, |ids, out| hand::<P, MI, NI, MA, MB, S>(ids, ptrs, wide, n_blocks, out));
            assert!(want.0.iter().any(|&x| x != 0), "the twin computes something");
            let (a_arg, b_arg) = (
                P::make_a_dram_view::<u16>(&[], m, k, stride).unwrap().descriptor().to_kernel_arg(),
                P::make_b_dram_view::<u16>(&[], n, k, stride).unwrap().descriptor().to_kernel_arg(),
            );
            let sizes = (m, n, k, stride);
            // Every form of the pipeline (`crate::forms`), in the three build forms.
            macro_rules! forms {
                ($($q:ident),*) => {$(
                    let host = run::<P>(blocks, per_thread, |ids, out| {
                        typed_host::<P, $q<'_, P>, MI, NI, S>(ids, (&a_arg, &b_arg), (ptrs.0, a.len()), (ptrs.1, b.len()), n_blocks, out)
                    });
                    assert!(host == want, "{}: host form, shape {m} x {n} x {k}", stringify!($q));
                    let build = run::<P>(blocks, per_thread, |ids, out| {
                        typed_build::<P, $q<'_, P>, MI, NI, S>(ids, ptrs, sizes, n_blocks, out)
                    });
                    assert!(build == want, "{}: in-kernel build, shape {m} x {n} x {k}", stringify!($q));
                    let unwrapped = run::<P>(blocks, per_thread, |ids, out| {
                        typed_build_unwrap::<P, $q<'_, P>, MI, NI, S>(ids, ptrs, sizes, n_blocks, out)
                    });
                    assert!(unwrapped == want, "{}: in-kernel build with unwrap, shape {m} x {n} x {k}", stringify!($q));
                )*};
            }
            forms!(GemmPipeline, BlockPipe, BlockPipeElse, UserPipe, InlinePipe);
            let checked = run::<P>(blocks, per_thread, |ids, out| {
                hand_checked::<P, MI, NI, MA, MB, S>(ids, ptrs, wide, n_blocks, out)
            });
            assert!(checked == want, "checked twin, shape {m} x {n} x {k}");
            let narrow = (m as i32, n as i32, k as i32, stride as i32);
            let i32s = run::<P>(blocks, per_thread, |ids, out| {
                hand_i32::<P, MI, NI, MA, MB, S>(ids, ptrs, narrow, n_blocks, out)
            });
            assert!(i32s == want, "i32 twin, shape {m} x {n} x {k}");
            results.push(((m, n, k, stride, n_blocks), a, b, want.0));
        }
        // Shapes the in-kernel build refuses, and the checked twin with it,
        // writing nothing: K = 36 and K = 44, not multiples of the 8-element
        // loads; no rows; no K; a product of
        // lengths past 64 bits (whose operand sizes, with a zero stride, fit).
        let a = vec![1u16; 4096];
        let ptrs = (a.as_ptr(), a.as_ptr());
        let huge = 1usize << 40;
        for shape in
            [(10, 10, 36, 40), (10, 10, 44, 44), (0, 10, 32, 32), (10, 0, 32, 32), (10, 10, 0, 32), (huge, 1, huge, 0)]
        {
            let wide = (shape.0 as Index, shape.1 as Index, shape.2 as Index, shape.3 as Index);
            for refused in [
                run::<P>(1, per_thread, |ids, out| {
                    typed_build::<P, GemmPipeline<'_, P>, MI, NI, S>(ids, ptrs, shape, 1, out)
                }),
                run::<P>(1, per_thread, |ids, out| hand_checked::<P, MI, NI, MA, MB, S>(ids, ptrs, wide, 1, out)),
            ] {
                assert!(refused.0.iter().all(|&x| x == 0), "shape {shape:?} refused");
                let untouched: Vec<u16> =
                    (0..P::BLOCK_SIZE).flat_map(|_| lds::<P>().into_iter().map(|c| c.get())).collect();
                assert!(refused.1 == untouched, "shape {shape:?} refused");
            }
        }
        results
    }

    /// The accumulators, and the recorded registers (the GPU check's
    /// probes): every body equals its twins with both sinks, and the
    /// recorded registers, multiplied and summed as the MFMA stand-in
    /// does, give the accumulators (so `gpu/gemm.py` reads the records'
    /// layout right).
    fn check_both<P: GemmPolicy, const MI: usize, const NI: usize, const MA: usize, const MB: usize, const ACC: usize>()
    where
        Accumulate<ACC>: Sink<MI, NI>,
    {
        let accumulated = check::<P, MI, NI, MA, MB, Accumulate<ACC>>(8 * ACC);
        let slots = MI + NI;
        let recorded = check::<P, MI, NI, MA, MB, Record<PROBE_STEPS>>(PROBE_STEPS * slots * 8);
        for ((shape, _, _, acc), (_, _, _, regs)) in accumulated.iter().zip(&recorded) {
            let steps = shape.2.div_ceil(P::K_PER_BLOCK) * P::K_ITERS;
            assert!(steps <= PROBE_STEPS, "shape {shape:?}: {steps} K steps, the probes record {PROBE_STEPS}");
            let mut from_regs = vec![0u16; acc.len()];
            for (t, thread) in from_regs.chunks_mut(ACC * 8).enumerate() {
                let regs = &regs[t * PROBE_STEPS * slots * 8..][..PROBE_STEPS * slots * 8];
                for s in 0..PROBE_STEPS {
                    let at = |slot: usize, v: usize| regs[(s * slots + slot) * 8 + v];
                    for (i, j, v) in (0..MI).flat_map(|i| (0..NI).flat_map(move |j| (0..8).map(move |v| (i, j, v)))) {
                        let x = &mut thread[(i * NI + j) * 8 + v];
                        *x = x.wrapping_add(at(i, v).wrapping_mul(at(MI + j, v)));
                    }
                }
            }
            assert!(&from_regs == acc, "shape {shape:?}: the records do not give the accumulators");
            assert!(regs.iter().any(|&x| x != 0), "shape {shape:?}: something recorded");
        }
    }

    /// The registers a probe records for one K tile, run as a whole block
    /// runs: every thread stores its part of the LDS block (a first pass),
    /// then every thread runs again over the complete block, so its reads
    /// are the block's. They must be what CK's 32x32 MFMA lane map gives:
    /// lane `l` of warp tile `i` holds row `l % 32` of the tile and, of each
    /// K step, the `KL` columns from `KL * (l / 32)`; 0 outside the matrix.
    fn records_follow_the_lane_map<
        P: GemmPolicy,
        const MI: usize,
        const NI: usize,
        const MA: usize,
        const MB: usize,
    >() {
        let slots = MI + NI;
        let per_thread = PROBE_STEPS * slots * 8;
        let kl = P::WARP_K * P::WARP_M / 64;
        for (m, n, k, stride) in [(P::M_PER_BLOCK, P::N_PER_BLOCK, P::K_PER_BLOCK, 40), (100, 70, 24, 24)] {
            let a: Vec<u16> = (0..m * stride).map(|i| (i * 31 % 65521) as u16 + 1).collect();
            let b: Vec<u16> = (0..n * stride).map(|i| (i * 17 % 65519) as u16 + 5).collect();
            let ptrs = (a.as_ptr(), b.as_ptr());
            let lds = vec![Cell::new(0u16); (P::M_PER_BLOCK + P::N_PER_BLOCK) * P::K_PER_BLOCK];
            let mut out = vec![0u16; P::BLOCK_SIZE * per_thread];
            let bodies: [&dyn Fn(Ids, *mut u16); 2] = [
                &|ids, out| {
                    typed_build::<P, GemmPipeline<'_, P>, MI, NI, Record<PROBE_STEPS>>(
                        (ids, SharedMemory::new(&lds)),
                        ptrs,
                        (m, n, k, stride),
                        1,
                        out,
                    )
                },
                &|ids, out| {
                    let wide = (m as Index, n as Index, k as Index, stride as Index);
                    hand::<P, MI, NI, MA, MB, Record<PROBE_STEPS>>((ids, SharedMemory::new(&lds)), ptrs, wide, 1, out)
                },
            ];
            for body in bodies {
                for _pass in 0..2 {
                    for thread in 0..P::BLOCK_SIZE {
                        body(Ids { block: 0, thread }, out.as_mut_ptr());
                    }
                }
                for (t, regs) in out.chunks(per_thread).enumerate() {
                    let (warp, lane) = (t / 64, t % 64);
                    for (s, slot, v) in
                        (0..P::K_ITERS).flat_map(|s| (0..slots).flat_map(move |x| (0..8).map(move |v| (s, x, v))))
                    {
                        let (rows, data, row) = if slot < MI {
                            (m, &a, (warp / P::N_WARPS) * P::WARP_M + slot * P::M_WARPS * P::WARP_M)
                        } else {
                            (n, &b, (warp % P::N_WARPS) * P::WARP_M + (slot - MI) * P::N_WARPS * P::WARP_M)
                        };
                        let (row, col) = (row + lane % P::WARP_M, s * P::WARP_K + kl * (lane / P::WARP_M) + v);
                        let want = if v < kl && row < rows && col < k { data[row * stride + col] } else { 0 };
                        assert_eq!(
                            regs[(s * slots + slot) * 8 + v],
                            want,
                            "{m}x{n}x{k}: thread {t}, step {s}, slot {slot}, value {v}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn records_follow_the_lane_map_all_configurations() {
        records_follow_the_lane_map::<Tile128K16, 2, 2, 2, 2>();
        records_follow_the_lane_map::<Tile128K8, 2, 2, 2, 2>();
        records_follow_the_lane_map::<Tile64K16, 1, 2, 2, 2>();
    }

    #[test]
    fn kernel_bodies_equal_their_twins_128_k16() {
        check_both::<Tile128K16, 2, 2, 2, 2, 4>();
    }

    #[test]
    fn kernel_bodies_equal_their_twins_128_k8() {
        check_both::<Tile128K8, 2, 2, 2, 2, 4>();
    }

    #[test]
    fn kernel_bodies_equal_their_twins_64_k16() {
        check_both::<Tile64K16, 1, 2, 2, 2, 2>();
    }
}
