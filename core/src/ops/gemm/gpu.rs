//! The GEMM's GPU layer (compiled for `amdgcn-amd-amdhsa` and
//! `nvptx64-nvidia-cuda` only, as [`tile::gpu`](crate::tile::gpu)): the
//! policy's partition read from the hardware ids
//! ([`get_policy_partition`]) and the block GEMM (`block_gemm`): over the
//! MFMA intrinsics on amdgcn, over `mma.sync.aligned` on nvptx (a policy
//! of [`MmaSync`](super::MmaSync)).

use super::block::{ABlockTensor, AccOf, BBlockTensor, BitsOf, CBlockTensor, Matrices};
use super::cshuffle::{ShuffleSteps, check_lds, run_shuffle, shuffle_copy, shuffle_write};
use super::emulate::GemmProblem;
use super::epilogue::{CWindow, Default2D, Epilogue, c_window, store_c_tile};
use super::mfma::CElement;
use super::path::{BlockWindow, DramTensor, OperandA, OperandB, OperandPath, block_window};
use super::pipeline::{OneStage, Pipeline, Steps, run};
use super::policy::GemmPolicy;
use crate::Index;
use crate::error::Error;
use crate::tile::gpu::{block_sync_lds, get_block_id};
use crate::tile::{Partition, SharedMemory, load_tile};
use crate::typed::make_tensor_view;

/// The calling thread's partition as policy `P`'s encodings count lanes
/// ([`GemmPolicy::WAVE`] lanes a warp), `None` in a thread past
/// [`GemmPolicy::BLOCK_SIZE`]: what a GEMM kernel passes to its windows
/// ([`OperandPath::with_partition`](super::OperandPath::with_partition),
/// [`block_window`](super::block_window)). On gfx942 it is the hardware's
/// warp (wave-uniform, a scalar register) and lane; on an NVIDIA GPU,
/// whose warps are 32 lanes, a 64-lane policy's partition is computed from
/// the thread id, so the block's threads cover the whole tile
/// ([`GemmPolicy::partition_of_thread`] on the host computes the same).
///
/// ```ignore
/// type P = cktile_core::ops::gemm::UniversalGemmPolicy<256, 128, 128, 32>;
/// let Some(p) = cktile_core::ops::gemm::get_policy_partition::<P>() else { return }; // launched with 256 threads
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn get_policy_partition<P: GemmPolicy>() -> Option<Partition> {
    let () = P::CHECK;
    crate::tile::gpu::partition_in_block(P::BLOCK_SIZE, P::WAVE)
}

/// CK's universal GEMM kernel (`GemmKernel` over
/// `UniversalGemmPipelineAgBgCrPolicy`, one LDS stage, the
/// `Default2DEpilogue`) as the calling thread runs it: `C = A * B^T` over
/// `problem` (A `m x k`, B `n x k`, each laid out as the policy says with
/// its leading dimension, as their bits ([`BitsOf`]); C `m x n` in the
/// policy's accumulator type ([`AccOf`]: `f32`, `i32` for int8) with its
/// own), its block's tile of C by CK's 2-D tile
/// partitioner (block `b` computes rows `b / nb * MPerBlock ..` and
/// columns `b % nb * NPerBlock ..`, `nb` the tiles along N). The policy's
/// data paths ([`OperandPath`], [`block_window`]), its block GEMM
/// (`block_gemm`: MFMAs on amdgcn, `mma.sync` on nvptx) and
/// [`store_c_tile`]: with it, a GEMM kernel is a policy line and an entry
/// point. Every thread of the block calls it (a thread past the policy's
/// block returns at once), with `lds` the block's `(MPerBlock +
/// NPerBlock) x KPerBlock` elements of shared memory. The host's
/// [`emulate_gemm`](super::emulate_gemm) runs the same calls.
///
/// Errors (the same in every thread): before any thread touches LDS,
/// `lds` too short and what A's and B's views refuse (K not a multiple of
/// the policy's vector where K is contiguous, a stride below its row, a
/// buffer too short for its matrix); after the K loop, before any store,
/// what C's view refuses.
/// (C's view checked before the loop costs sm_90 a cliff: the
/// performance chapter's "The whole GEMM on sm_90".)
///
/// ```ignore
/// type P = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, MmaSync<32, 16, 16>>;
/// #[unsafe(no_mangle)]
/// pub extern "gpu-kernel" fn gemm(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
///     let problem = GemmProblem::packed(m as usize, n as usize, k as usize);
///     // SAFETY: launched with (128 + 128) x 32 fp16 of dynamic shared memory and the matrices' sizes.
///     let (a, b, c, lds) = unsafe { (slice(a, m * k), slice(b, n * k), slice_mut(c, m * n), workgroup_memory(256 * 32)) };
///     let _ = universal_gemm::<P>((a, b, c), problem, lds);
/// }
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn universal_gemm<P: GemmPolicy>(
    matrices: Matrices<'_, P, AccOf<P>>,
    problem: GemmProblem,
    lds: SharedMemory<'_, BitsOf<P>>,
) -> Result<(), Error> {
    universal_gemm_with::<P, OneStage, AccOf<P>, _>(matrices, problem, lds, Default2D)
}

/// [`universal_gemm`] with the K loop of pipeline `L`
/// ([`OneStage`](super::OneStage), or CK's [`CompV3`](super::CompV3):
/// the next K tile's DRAM loads in flight during this tile's block GEMM),
/// C in type `C` ([`CElement`]: the accumulator's, or from an `f32` one
/// [`Fp16`](super::Fp16), [`Bf16`](super::Bf16) or an 8-bit float, each
/// accumulator converted once, in registers) and `epilogue`
/// ([`Default2D`](super::Default2D), or CK's
/// [`CShuffle`](super::CShuffle) over an LDS tile of C's type, which may
/// be the same launch-sized memory as `lds`). The host's
/// [`emulate_gemm_with`](super::emulate_gemm_with) runs the same steps in
/// the same order.
///
/// Errors: [`universal_gemm`]'s, and a CShuffle LDS tile shorter than
/// [`CShuffle::lds_elements`](super::CShuffle::lds_elements) (before the
/// K loop).
///
/// ```ignore
/// // The GEMM's LDS and the CShuffle tile share the launch-sized memory:
/// // launched with max((128 + 128) x 32 x 2, 128 x 64 x 4) bytes of it.
/// // SAFETY: the epilogue writes its tile only after the block's barrier that ends the K loop.
/// let (lds, c_lds) = unsafe { (workgroup_memory::<u16>(256 * 32), workgroup_memory::<f32>(128 * 64)) };
/// let _ = universal_gemm_with::<P, CompV3, f32, _>((a, b, c), problem, lds, CShuffle::new(c_lds));
/// // C in fp16 (`c: &mut [u16]`), through an LDS tile of fp16.
/// let c_lds = unsafe { workgroup_memory::<u16>(CShuffle::<u16>::lds_elements::<P>()) };
/// let _ = universal_gemm_with::<P, CompV3, Fp16, _>((a, b, c), problem, lds, CShuffle::new(c_lds));
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn universal_gemm_with<P: GemmPolicy, L: Pipeline, C: CElement<AccOf<P>>, E: Epilogue<C::Bits>>(
    (a, b, c): Matrices<'_, P, C>,
    problem: GemmProblem,
    lds: SharedMemory<'_, BitsOf<P>>,
    epilogue: E,
) -> Result<(), Error> {
    let Some(p) = get_policy_partition::<P>() else { return Ok(()) };
    let GemmProblem { m, n, k, a_stride, b_stride, c_stride } = problem;
    let a_len = P::M_PER_BLOCK * P::K_PER_BLOCK;
    let needed = a_len + P::N_PER_BLOCK * P::K_PER_BLOCK;
    if lds.len() < needed {
        return Err(Error::policy_minimum(
            "the GEMM's LDS must hold (MPerBlock + NPerBlock) x KPerBlock elements",
            "lds.len()",
            lds.len(),
            needed,
        ));
    }
    if let Some(c_lds) = epilogue.shuffle_lds() {
        check_lds::<P, C::Bits>(c_lds.len())?;
    }
    let block = get_block_id();
    let n_blocks = n.div_ceil(P::N_PER_BLOCK).max(1);
    let origin = |tile: usize, per: usize| Index::try_from(tile * per).unwrap_or(Index::MAX);
    let (m0, n0) = (origin(block / n_blocks, P::M_PER_BLOCK), origin(block % n_blocks, P::N_PER_BLOCK));
    let (a_lds, b_lds) = lds.split_at(a_len);
    let (a_view, b_view) = (P::make_a_dram_view(a, m, k, a_stride)?, P::make_b_dram_view(b, n, k, b_stride)?);
    let a_path =
        OperandPath::<BitsOf<P>, P, OperandA>::with_partition(OperandA, *a_view.descriptor(), a, m0, a_lds, p)?;
    let b_path =
        OperandPath::<BitsOf<P>, P, OperandB>::with_partition(OperandB, *b_view.descriptor(), b, n0, b_lds, p)?;
    let (a_block, b_block) =
        (block_window::<BitsOf<P>, P, OperandA>(a_lds, p)?, block_window::<BitsOf<P>, P, OperandB>(b_lds, p)?);
    let mut k_loop = KLoop::<P, L> {
        a_tile: DramTensor::<BitsOf<P>, P, OperandA>::filled(BitsOf::<P>::default()),
        b_tile: DramTensor::<BitsOf<P>, P, OperandB>::filled(BitsOf::<P>::default()),
        a_path,
        b_path,
        a_regs: ABlockTensor::<P>::filled(BitsOf::<P>::default()),
        b_regs: BBlockTensor::<P>::filled(BitsOf::<P>::default()),
        a_block,
        b_block,
        acc: CBlockTensor::<P>::filled(AccOf::<P>::default()),
        pipeline: core::marker::PhantomData,
    };
    run::<L, _>(k.div_ceil(P::K_PER_BLOCK), &mut k_loop);
    // C's descriptor, then its view: no `Result` holds C's slice (one that did carried its pointer
    // as an integer, and C's stores lost the global address space: `make_c_dram_descriptor`).
    let c_desc = P::make_c_dram_descriptor(c.len(), m, n, c_stride)?;
    let mut window = c_window::<C::Bits, P>(make_tensor_view(c, c_desc), (m0, n0), p)?;
    match epilogue.shuffle_lds() {
        None => store_c_tile::<C::Bits, P>(&mut window, &k_loop.acc, C::from_acc),
        Some(lds) => {
            run_shuffle::<P, C::Bits, _>(&mut ThreadShuffle::<P, C> { window, lds, acc: &k_loop.acc, p });
        }
    }
    Ok(())
}

/// One thread's CShuffle epilogue: its C window, the LDS tile, its
/// accumulators and its partition; the steps CK's loop orders.
struct ThreadShuffle<'w, 'a, P: GemmPolicy, C: CElement<AccOf<P>>> {
    window: CWindow<'a, C::Bits, P>,
    lds: SharedMemory<'w, C::Bits>,
    acc: &'w CBlockTensor<P>,
    p: Partition,
}

impl<P: GemmPolicy, C: CElement<AccOf<P>>> ShuffleSteps for ThreadShuffle<'_, '_, P, C> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    #[allow(unsafe_code)]
    fn sync(&mut self) {
        // SAFETY: every thread of the block runs the same epilogue after the same K loop.
        unsafe { block_sync_lds() };
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn write(&mut self, access: usize) {
        shuffle_write::<C::Bits, P>(&self.window, self.lds, self.acc, access, C::from_acc);
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn copy(&mut self, access: usize) {
        shuffle_copy::<C::Bits, P>(&mut self.window, self.lds, self.p, access);
    }
}

/// One thread's K loop: its paths and block windows, the DRAM tiles and
/// block GEMM operands in registers, its accumulators; the steps a
/// [`Pipeline`] `L` orders.
struct KLoop<'a, P: GemmPolicy, L: Pipeline> {
    a_path: OperandPath<'a, BitsOf<P>, P, OperandA>,
    b_path: OperandPath<'a, BitsOf<P>, P, OperandB>,
    a_tile: DramTensor<BitsOf<P>, P, OperandA>,
    b_tile: DramTensor<BitsOf<P>, P, OperandB>,
    a_block: BlockWindow<'a, BitsOf<P>, P, OperandA>,
    b_block: BlockWindow<'a, BitsOf<P>, P, OperandB>,
    a_regs: ABlockTensor<P>,
    b_regs: BBlockTensor<P>,
    acc: CBlockTensor<P>,
    pipeline: core::marker::PhantomData<fn() -> L>,
}

impl<P: GemmPolicy, L: Pipeline> Steps for KLoop<'_, P, L> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn load(&mut self) {
        (self.a_tile, self.b_tile) = if L::PREFETCH {
            // Inlined on nvptx, where LLVM otherwise calls the accesses of CompV3's one load.
            (self.a_path.load_prefetching(), self.b_path.load_prefetching())
        } else {
            (self.a_path.load(), self.b_path.load())
        };
        self.a_path.next_k();
        self.b_path.next_k();
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn store(&mut self) {
        if L::PREFETCH {
            // Inlined on nvptx, where LLVM otherwise calls CompV3's LDS stores.
            self.a_path.store_prefetching(&self.a_tile);
            self.b_path.store_prefetching(&self.b_tile);
        } else {
            self.a_path.store(&self.a_tile);
            self.b_path.store(&self.b_tile);
        }
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    #[allow(unsafe_code)]
    fn sync(&mut self) {
        // SAFETY: every thread of the block runs the same K loop (`universal_gemm_with`'s
        // errors are the same in every thread, and come before it).
        unsafe { block_sync_lds() };
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn read(&mut self) {
        (self.a_regs, self.b_regs) = (load_tile(&self.a_block), load_tile(&self.b_block));
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn gemm(&mut self) {
        block_gemm::<P>(&mut self.acc, &self.a_regs, &self.b_regs);
    }
}

/// The thread's block tensors' registers, each warp GEMM step's
/// instructions issued on them by the target's `issue` (amdgcn's MFMAs,
/// nvptx's `mma.sync`): a visitor whose step is always inlined (see
/// `block::WarpGemmVisitor`).
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
struct Issues<'a, W: super::policy::WarpGemm> {
    a: &'a [Bits<W>],
    b: &'a [Bits<W>],
    c: &'a mut [Acc<W>],
    warp: core::marker::PhantomData<W>,
}

/// A warp GEMM's element bits.
type Bits<W> = <<W as super::policy::WarpGemm>::Element as super::MfmaElement>::Bits;
/// A warp GEMM's accumulator.
type Acc<W> = <<W as super::policy::WarpGemm>::Element as super::MfmaElement>::Acc;

#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
impl<W: super::policy::WarpGemm> super::block::WarpGemmVisitor for Issues<'_, W> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn step(&mut self, s: super::WarpGemmStep) {
        #[cfg(target_arch = "amdgpu")]
        use amdgpu::issue;
        #[cfg(target_arch = "nvptx64")]
        use nvptx::issue;
        for q in 0..W::INSTRUCTIONS {
            let (a0, b0, c0) = s.instruction::<W>(q);
            if let (Some(a), Some(b), Some(c)) = (self.a.get(a0..), self.b.get(b0..), self.c.get_mut(c0..)) {
                issue::<W>(a, b, c);
            }
        }
    }
}

#[cfg(target_arch = "amdgpu")]
pub use amdgpu::block_gemm;

/// The block GEMM on amdgcn: the MFMA intrinsics (the GPU layer's only
/// `unsafe` outside `tile::gpu`, `tile::cells` and `tile::buffer`: an LLVM intrinsic is an
/// `extern` call).
#[cfg(target_arch = "amdgpu")]
#[allow(unsafe_code)]
mod amdgpu {
    use super::super::block::{ABlockTensor, BBlockTensor, CBlockTensor, visit_warp_gemms};
    use super::super::mfma::{Accumulator, ElementKind, MfmaElement};
    use super::super::mma::WarpInstruction;
    use super::super::policy::WarpGemm;
    use super::{Acc, Bits, GemmPolicy};
    use core::marker::PhantomData;

    /// LLVM's `<4 x half>`.
    #[repr(simd)]
    #[derive(Clone, Copy)]
    struct F16x4([f16; 4]);
    /// LLVM's `<4 x i16>` (the `_1k` bf16 MFMAs' operands).
    #[repr(simd)]
    #[derive(Clone, Copy)]
    struct I16x4([i16; 4]);
    /// LLVM's `<4 x float>`.
    #[repr(simd)]
    #[derive(Clone, Copy)]
    struct F32x4([f32; 4]);
    /// LLVM's `<16 x float>`.
    #[repr(simd)]
    #[derive(Clone, Copy)]
    struct F32x16([f32; 16]);
    /// LLVM's `<4 x i32>`.
    #[repr(simd)]
    #[derive(Clone, Copy)]
    struct I32x4([i32; 4]);
    /// LLVM's `<16 x i32>`.
    #[repr(simd)]
    #[derive(Clone, Copy)]
    struct I32x16([i32; 16]);

    // The gfx942 MFMAs: `v_mfma_f32_32x32x8_f16`, `..._16x16x16_f16` and their bf16 `_1k`
    // forms; the 8-bit `v_mfma_f32_{32x32x16,16x16x32}_{fp8_fp8,bf8_bf8}` (gfx942 reads them
    // as FNUZ) and `v_mfma_i32_{32x32x16,16x16x32}_i8`, each operand 8 bytes of a lane as
    // an `i64` (element `i` in its byte `i`). The last three arguments (cbsz, abid, blgp:
    // broadcast controls) are 0, as CK passes them.
    unsafe extern "llvm-intrinsic" {
        #[link_name = "llvm.amdgcn.mfma.f32.32x32x8f16"]
        fn mfma_32x32x8_f16(a: F16x4, b: F16x4, c: F32x16, cbsz: i32, abid: i32, blgp: i32) -> F32x16;
        #[link_name = "llvm.amdgcn.mfma.f32.16x16x16f16"]
        fn mfma_16x16x16_f16(a: F16x4, b: F16x4, c: F32x4, cbsz: i32, abid: i32, blgp: i32) -> F32x4;
        #[link_name = "llvm.amdgcn.mfma.f32.32x32x8bf16.1k"]
        fn mfma_32x32x8_bf16(a: I16x4, b: I16x4, c: F32x16, cbsz: i32, abid: i32, blgp: i32) -> F32x16;
        #[link_name = "llvm.amdgcn.mfma.f32.16x16x16bf16.1k"]
        fn mfma_16x16x16_bf16(a: I16x4, b: I16x4, c: F32x4, cbsz: i32, abid: i32, blgp: i32) -> F32x4;
        #[link_name = "llvm.amdgcn.mfma.f32.32x32x16.fp8.fp8"]
        fn mfma_32x32x16_fp8(a: i64, b: i64, c: F32x16, cbsz: i32, abid: i32, blgp: i32) -> F32x16;
        #[link_name = "llvm.amdgcn.mfma.f32.16x16x32.fp8.fp8"]
        fn mfma_16x16x32_fp8(a: i64, b: i64, c: F32x4, cbsz: i32, abid: i32, blgp: i32) -> F32x4;
        #[link_name = "llvm.amdgcn.mfma.f32.32x32x16.bf8.bf8"]
        fn mfma_32x32x16_bf8(a: i64, b: i64, c: F32x16, cbsz: i32, abid: i32, blgp: i32) -> F32x16;
        #[link_name = "llvm.amdgcn.mfma.f32.16x16x32.bf8.bf8"]
        fn mfma_16x16x32_bf8(a: i64, b: i64, c: F32x4, cbsz: i32, abid: i32, blgp: i32) -> F32x4;
        #[link_name = "llvm.amdgcn.mfma.i32.32x32x16.i8"]
        fn mfma_32x32x16_i8(a: i64, b: i64, c: I32x16, cbsz: i32, abid: i32, blgp: i32) -> I32x16;
        #[link_name = "llvm.amdgcn.mfma.i32.16x16x32.i8"]
        fn mfma_16x16x32_i8(a: i64, b: i64, c: I32x4, cbsz: i32, abid: i32, blgp: i32) -> I32x4;
    }

    /// The intrinsic call `$call` on a lane's `$n` accumulators `$c` (a
    /// `&mut [Acc<$w>; $n]`), passed to it as `$acc`, LLVM's `$vector` of
    /// `$lane` (`f32` or `i32`), its result written back: the MFMAs' and
    /// the WMMAs' one conversion.
    macro_rules! on_accumulators {
        ($w:ty, $c:expr, $n:literal, $vector:ident, $lane:ty, |$acc:ident| $call:expr) => {{
            let c: &mut [Acc<$w>; $n] = $c;
            let $acc = $vector(c.map(|x| <$lane as Accumulator>::from_bits(x.to_bits())));
            // SAFETY: the intrinsic has no precondition (the kernel is compiled for a CPU that
            // has it, the policy's); a SIMD vector of `$n` lanes has the layout of the array (its
            // fields cannot be projected, so it is read back whole).
            let d = unsafe { core::mem::transmute::<$vector, [$lane; $n]>($call) };
            *c = d.map(|x| <Acc<$w> as Accumulator>::from_bits(x.to_bits()));
        }};
    }

    /// A lane's `N` 16-bit operand elements as halves (`<N x half>`'s
    /// lanes).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn halves<E: MfmaElement, const N: usize>(v: &[E::Bits; N]) -> [f16; N] {
        v.map(|x| f16::from_bits(E::raw(x) as u16))
    }

    /// A lane's `N` 16-bit operand elements as `i16`s (the bf16
    /// instructions' `<N x i16>`).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn shorts<E: MfmaElement, const N: usize>(v: &[E::Bits; N]) -> [i16; N] {
        v.map(|x| E::raw(x) as i16)
    }

    /// A lane's `N` 8-bit operand elements packed into `W = N / 4` words,
    /// element `i` in byte `i % 4` of word `i / 4` (from an array, so that
    /// every index is a constant: a loop over a slice kept the operands in
    /// scratch memory).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn words<E: MfmaElement, const N: usize, const W: usize>(v: &[E::Bits; N]) -> [i32; W] {
        core::array::from_fn(|w| {
            let mut packed = 0u32;
            for j in 0..4 {
                if let Some(&x) = v.get(4 * w + j) {
                    packed |= (E::raw(x) & 0xff) << (8 * j);
                }
            }
            packed as i32
        })
    }

    /// A lane's 8 8-bit operand elements as one `i64` (the MFMAs' operand),
    /// element `i` in its byte `i`.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn bytes8<E: MfmaElement>(v: &[E::Bits; 8]) -> i64 {
        let [low, high] = words::<E, 8, 2>(v);
        (u64::from(low as u32) | u64::from(high as u32) << 32) as i64
    }

    /// One instruction of warp GEMM `W` on the lane's registers from its
    /// operands' and accumulators' first: an MFMA (gfx942) or a WMMA
    /// (gfx11, gfx12; [`wmma`]).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(super) fn issue<W: WarpGemm>(a: &[Bits<W>], b: &[Bits<W>], c: &mut [Acc<W>]) {
        match W::INSTRUCTION {
            WarpInstruction::Wmma(i) => wmma::issue::<W>(i, a, b, c),
            _ => mfma::<W>(a, b, c),
        }
    }

    /// One MFMA of warp GEMM `W`: `c += a * b` on the lane's operand
    /// registers (8 bytes of each, from its operands' first) and its
    /// accumulators (from theirs).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn mfma<W: WarpGemm>(a: &[Bits<W>], b: &[Bits<W>], c: &mut [Acc<W>]) {
        // One accumulator shape: `$n` accumulators as LLVM's `$vector` of `$lane`, passed to
        // the intrinsic call `$call` as `$acc` (its operands built above from the lane's registers).
        macro_rules! accumulate {
            ($n:literal, $vector:ident, $lane:ty, |$acc:ident| $call:expr) => {
                if let Some(c) = c.first_chunk_mut::<$n>().filter(|_| W::C_PER_LANE == $n) {
                    on_accumulators!(W, c, $n, $vector, $lane, |$acc| $call);
                }
            };
        }
        type E<W> = <W as WarpGemm>::Element;
        if <E<W>>::BYTES == 2 {
            let (Some(a), Some(b)) = (a.first_chunk::<4>(), b.first_chunk::<4>()) else { return };
            match <E<W>>::KIND {
                ElementKind::Fp16 => {
                    let (a, b) = (F16x4(halves::<E<W>, 4>(a)), F16x4(halves::<E<W>, 4>(b)));
                    accumulate!(16, F32x16, f32, |c| mfma_32x32x8_f16(a, b, c, 0, 0, 0));
                    accumulate!(4, F32x4, f32, |c| mfma_16x16x16_f16(a, b, c, 0, 0, 0));
                }
                ElementKind::Bf16 => {
                    let (a, b) = (I16x4(shorts::<E<W>, 4>(a)), I16x4(shorts::<E<W>, 4>(b)));
                    accumulate!(16, F32x16, f32, |c| mfma_32x32x8_bf16(a, b, c, 0, 0, 0));
                    accumulate!(4, F32x4, f32, |c| mfma_16x16x16_bf16(a, b, c, 0, 0, 0));
                }
                _ => {}
            }
        } else {
            let (Some(a), Some(b)) = (a.first_chunk::<8>(), b.first_chunk::<8>()) else { return };
            let (a, b) = (bytes8::<E<W>>(a), bytes8::<E<W>>(b));
            match <E<W>>::KIND {
                ElementKind::Fp8Fnuz => {
                    accumulate!(16, F32x16, f32, |c| mfma_32x32x16_fp8(a, b, c, 0, 0, 0));
                    accumulate!(4, F32x4, f32, |c| mfma_16x16x32_fp8(a, b, c, 0, 0, 0));
                }
                ElementKind::Bf8Fnuz => {
                    accumulate!(16, F32x16, f32, |c| mfma_32x32x16_bf8(a, b, c, 0, 0, 0));
                    accumulate!(4, F32x4, f32, |c| mfma_16x16x32_bf8(a, b, c, 0, 0, 0));
                }
                ElementKind::Int8 => {
                    accumulate!(16, I32x16, i32, |c| mfma_32x32x16_i8(a, b, c, 0, 0, 0));
                    accumulate!(4, I32x4, i32, |c| mfma_16x16x32_i8(a, b, c, 0, 0, 0));
                }
                // OCP's formats: refused by the policy's `CHECK` (gfx942 reads FNUZ).
                _ => {}
            }
        }
    }

    /// CK's block GEMM (`BlockUniversalGemmAsBsCr::operator()`) as one
    /// thread runs it on amdgcn: `c += a * b` over the thread's block
    /// tensors, each warp GEMM of [`for_each_warp_gemm`] issuing its
    /// [`INSTRUCTIONS`](WarpGemm::INSTRUCTIONS) MFMAs (gfx942) or WMMAs
    /// ([`Wmma`](super::super::Wmma): gfx11, gfx12, compiled for a wave32
    /// CPU of the policy's generation). Every lane of the wave calls it
    /// together (both are wave instructions); a policy of
    /// [`MmaSync`](super::super::MmaSync) is a compile error here. The host's
    /// [`emulate_block_gemm`](crate::ops::gemm::emulate_block_gemm) computes
    /// the same, lane for lane.
    ///
    /// ```ignore
    /// type P = cktile_core::ops::gemm::UniversalGemmPolicy<256, 128, 128, 32>;
    /// let a = load_tile(&a_block_window); // block_window::<u16, P, OperandA>(..)
    /// let b = load_tile(&b_block_window);
    /// block_gemm::<P>(&mut acc, &a, &b);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn block_gemm<P: GemmPolicy>(c: &mut CBlockTensor<P>, a: &ABlockTensor<P>, b: &BBlockTensor<P>) {
        const {
            assert!(
                !matches!(<P::Warp as WarpGemm>::INSTRUCTION, WarpInstruction::MmaSync(_)),
                "on amdgcn the block GEMM issues MFMAs or WMMAs: the policy's warp GEMM must be Mfma or Wmma"
            )
        };
        let (a, b, c) = (a.thread_buffer(), b.thread_buffer(), c.thread_buffer_mut());
        visit_warp_gemms::<P, _>(&mut super::Issues::<P::Warp> { a, b, c, warp: PhantomData });
    }

    /// The WMMAs of gfx11 and gfx12 (wave32), as LLVM names them for a
    /// 32-lane wave: A and B a lane's 16 (gfx11) or 8 (gfx12) elements,
    /// 16-bit ones as `<N x half>` (bf16 as `<N x i16>`), 8-bit ones packed
    /// four to an `i32` ([`words`]); C the lane's 8 accumulators. `iu8`'s
    /// flags say A and B are signed (int8) and that the sum wraps (no
    /// clamp), as the emulation's `i32` does.
    mod wmma {
        use super::super::super::mfma::{Accumulator, ElementKind, MfmaElement};
        use super::super::super::policy::WarpGemm;
        use super::super::super::wmma::WmmaInstruction;
        use super::super::{Acc, Bits};
        use super::{I32x4, halves, shorts, words};
        use crate::distribution::catalogue::wmma::Rdna;

        /// LLVM's `<16 x half>`.
        #[repr(simd)]
        #[derive(Clone, Copy)]
        struct F16x16([f16; 16]);
        /// LLVM's `<8 x half>`.
        #[repr(simd)]
        #[derive(Clone, Copy)]
        struct F16x8([f16; 8]);
        /// LLVM's `<16 x i16>`.
        #[repr(simd)]
        #[derive(Clone, Copy)]
        struct I16x16([i16; 16]);
        /// LLVM's `<8 x i16>`.
        #[repr(simd)]
        #[derive(Clone, Copy)]
        struct I16x8([i16; 8]);
        /// LLVM's `<8 x float>`.
        #[repr(simd)]
        #[derive(Clone, Copy)]
        struct F32x8([f32; 8]);
        /// LLVM's `<8 x i32>`.
        #[repr(simd)]
        #[derive(Clone, Copy)]
        struct I32x8([i32; 8]);
        /// LLVM's `<2 x i32>`.
        #[repr(simd)]
        #[derive(Clone, Copy)]
        struct I32x2([i32; 2]);

        unsafe extern "llvm-intrinsic" {
            #[link_name = "llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.v16f16"]
            fn f16_gfx11(a: F16x16, b: F16x16, c: F32x8) -> F32x8;
            #[link_name = "llvm.amdgcn.wmma.f32.16x16x16.bf16.v8f32.v16i16"]
            fn bf16_gfx11(a: I16x16, b: I16x16, c: F32x8) -> F32x8;
            #[link_name = "llvm.amdgcn.wmma.i32.16x16x16.iu8.v8i32.v4i32"]
            fn i8_gfx11(a_signed: bool, a: I32x4, b_signed: bool, b: I32x4, c: I32x8, clamp: bool) -> I32x8;
            #[link_name = "llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.v8f16"]
            fn f16_gfx12(a: F16x8, b: F16x8, c: F32x8) -> F32x8;
            #[link_name = "llvm.amdgcn.wmma.f32.16x16x16.bf16.v8f32.v8i16"]
            fn bf16_gfx12(a: I16x8, b: I16x8, c: F32x8) -> F32x8;
            #[link_name = "llvm.amdgcn.wmma.i32.16x16x16.iu8.v8i32.v2i32"]
            fn i8_gfx12(a_signed: bool, a: I32x2, b_signed: bool, b: I32x2, c: I32x8, clamp: bool) -> I32x8;
            #[link_name = "llvm.amdgcn.wmma.f32.16x16x16.fp8.fp8.v8f32.v2i32"]
            fn fp8_gfx12(a: I32x2, b: I32x2, c: F32x8) -> F32x8;
            #[link_name = "llvm.amdgcn.wmma.f32.16x16x16.bf8.bf8.v8f32.v2i32"]
            fn bf8_gfx12(a: I32x2, b: I32x2, c: F32x8) -> F32x8;
        }

        /// One WMMA `i` of warp GEMM `W`: `c += a * b` on the lane's
        /// operand elements (from its operands' first) and its 8
        /// accumulators (from theirs).
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        pub(in super::super) fn issue<W: WarpGemm>(i: WmmaInstruction, a: &[Bits<W>], b: &[Bits<W>], c: &mut [Acc<W>]) {
            type E<W> = <W as WarpGemm>::Element;
            let Some(c) = c.first_chunk_mut::<8>() else { return };
            // `$call` on the 8 accumulators as LLVM's `$vector` of `$lane`.
            macro_rules! accumulate {
                ($vector:ident, $lane:ty, |$acc:ident| $call:expr) => {
                    on_accumulators!(W, c, 8, $vector, $lane, |$acc| $call)
                };
            }
            match (i.rdna(), <E<W>>::KIND) {
                (Rdna::Gfx11, ElementKind::Fp16 | ElementKind::Bf16) => {
                    let (Some(a), Some(b)) = (a.first_chunk::<16>(), b.first_chunk::<16>()) else { return };
                    if matches!(<E<W>>::KIND, ElementKind::Fp16) {
                        let (a, b) = (F16x16(halves::<E<W>, 16>(a)), F16x16(halves::<E<W>, 16>(b)));
                        accumulate!(F32x8, f32, |acc| f16_gfx11(a, b, acc));
                    } else {
                        let (a, b) = (I16x16(shorts::<E<W>, 16>(a)), I16x16(shorts::<E<W>, 16>(b)));
                        accumulate!(F32x8, f32, |acc| bf16_gfx11(a, b, acc));
                    }
                }
                (Rdna::Gfx11, ElementKind::Int8) => {
                    let (Some(a), Some(b)) = (a.first_chunk::<16>(), b.first_chunk::<16>()) else { return };
                    let (a, b) = (I32x4(words::<E<W>, 16, 4>(a)), I32x4(words::<E<W>, 16, 4>(b)));
                    accumulate!(I32x8, i32, |acc| i8_gfx11(true, a, true, b, acc, false));
                }
                (Rdna::Gfx12, ElementKind::Fp16 | ElementKind::Bf16) => {
                    let (Some(a), Some(b)) = (a.first_chunk::<8>(), b.first_chunk::<8>()) else { return };
                    if matches!(<E<W>>::KIND, ElementKind::Fp16) {
                        let (a, b) = (F16x8(halves::<E<W>, 8>(a)), F16x8(halves::<E<W>, 8>(b)));
                        accumulate!(F32x8, f32, |acc| f16_gfx12(a, b, acc));
                    } else {
                        let (a, b) = (I16x8(shorts::<E<W>, 8>(a)), I16x8(shorts::<E<W>, 8>(b)));
                        accumulate!(F32x8, f32, |acc| bf16_gfx12(a, b, acc));
                    }
                }
                (Rdna::Gfx12, kind @ (ElementKind::Int8 | ElementKind::Fp8 | ElementKind::Bf8)) => {
                    let (Some(a), Some(b)) = (a.first_chunk::<8>(), b.first_chunk::<8>()) else { return };
                    let (a, b) = (I32x2(words::<E<W>, 8, 2>(a)), I32x2(words::<E<W>, 8, 2>(b)));
                    match kind {
                        ElementKind::Int8 => accumulate!(I32x8, i32, |acc| i8_gfx12(true, a, true, b, acc, false)),
                        ElementKind::Fp8 => accumulate!(F32x8, f32, |acc| fp8_gfx12(a, b, acc)),
                        _ => accumulate!(F32x8, f32, |acc| bf8_gfx12(a, b, acc)),
                    }
                }
                // The formats a generation lacks: refused by the policy's `CHECK`.
                _ => {}
            }
        }
    }
}

#[cfg(target_arch = "nvptx64")]
pub use nvptx::block_gemm;

/// The block GEMM on nvptx: `mma.sync.aligned` in inline PTX (the GPU
/// layer's only `unsafe` here outside `tile::gpu`, `tile::cells` and
/// `tile::buffer`).
#[cfg(target_arch = "nvptx64")]
#[allow(unsafe_code)]
mod nvptx {
    use super::super::block::{ABlockTensor, BBlockTensor, CBlockTensor, visit_warp_gemms};
    use super::super::mfma::{Accumulator, ElementKind, MfmaElement};
    use super::super::policy::WarpGemm;
    use super::{Acc, Bits, GemmPolicy};
    use core::marker::PhantomData;

    /// 32-bit operand register `i` of `x`: its elements `p i .. p i + p`
    /// (`p = 4 / BYTES`), the first in the low bits (PTX's `.f16x2`,
    /// `.bf16x2` and the 8-bit packs).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn register<E: MfmaElement>(x: &[E::Bits], i: usize) -> u32 {
        let p = 4 / E::BYTES;
        let mut packed = 0;
        for j in 0..p {
            if let Some(&e) = x.get(p * i + j) {
                packed |= E::raw(e) << (8 * E::BYTES * j);
            }
        }
        packed
    }

    /// One `mma.sync.aligned` of element type `E` (`m16n8k16` for 16-bit
    /// elements, `m16n8k32` for 8-bit ones): `c += a * b` on the lane's 4
    /// A registers, 2 B registers and 4 accumulators, as the PTX ISA lays
    /// them out ([`MmaSyncInstruction`](super::super::MmaSyncInstruction)).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn mma<E: MfmaElement>(a: &[E::Bits], b: &[E::Bits], c: &mut [E::Acc; 4]) {
        let (a0, a1, a2, a3) = (register::<E>(a, 0), register::<E>(a, 1), register::<E>(a, 2), register::<E>(a, 3));
        let (b0, b1) = (register::<E>(b, 0), register::<E>(b, 1));
        // The instruction `$shape.row.col.$types` on accumulators of type `$acc` (f32 or i32).
        macro_rules! mma_sync {
            ($shape:literal, $types:literal, $acc:ty) => {{
                let [mut d0, mut d1, mut d2, mut d3] = (*c).map(|x| <$acc as Accumulator>::from_bits(x.to_bits()));
                // SAFETY: the instruction reads and writes only its registers; every lane of the
                // warp executes it together (`block_gemm`'s contract: the whole block calls it,
                // converged).
                unsafe {
                    core::arch::asm!(
                        concat!(
                            "mma.sync.aligned.", $shape, ".row.col.", $types, " ",
                            "{{{0}, {1}, {2}, {3}}}, {{{4}, {5}, {6}, {7}}}, {{{8}, {9}}}, {{{0}, {1}, {2}, {3}}};"
                        ),
                        inout(reg32) d0, inout(reg32) d1, inout(reg32) d2, inout(reg32) d3,
                        in(reg32) a0, in(reg32) a1, in(reg32) a2, in(reg32) a3, in(reg32) b0, in(reg32) b1,
                        options(pure, nomem, nostack),
                    )
                }
                *c = [d0, d1, d2, d3].map(|x| <E::Acc as Accumulator>::from_bits(x.to_bits()));
            }};
        }
        match E::KIND {
            ElementKind::Fp16 => mma_sync!("m16n8k16", "f32.f16.f16.f32", f32),
            ElementKind::Bf16 => mma_sync!("m16n8k16", "f32.bf16.bf16.f32", f32),
            ElementKind::Fp8 => mma_sync!("m16n8k32", "f32.e4m3.e4m3.f32", f32),
            ElementKind::Bf8 => mma_sync!("m16n8k32", "f32.e5m2.e5m2.f32", f32),
            ElementKind::Int8 => mma_sync!("m16n8k32", "s32.s8.s8.s32", i32),
            // The FNUZ formats: refused by the policy's `CHECK` (mma.sync reads OCP's).
            ElementKind::Fp8Fnuz | ElementKind::Bf8Fnuz => {}
        }
    }

    /// CK's block GEMM as one thread runs it on an NVIDIA GPU: `c += a *
    /// b` over the thread's block tensors, each warp GEMM of
    /// [`for_each_warp_gemm`] issuing its
    /// [`INSTRUCTIONS`](WarpGemm::INSTRUCTIONS) `mma.sync` (one each 8
    /// columns of the warp tile). The policy's warp GEMM is
    /// [`MmaSync`](super::super::MmaSync); an MFMA policy is a compile
    /// error here. Every lane of the block calls it
    /// together (`mma.sync` is a warp instruction); the host's
    /// [`emulate_block_gemm`](crate::ops::gemm::emulate_block_gemm)
    /// computes the same, lane for lane.
    ///
    /// ```ignore
    /// type P = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, MmaSync<32, 16, 16>>;
    /// block_gemm::<P>(&mut acc, &load_tile(&a_block_window), &load_tile(&b_block_window));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn block_gemm<P: GemmPolicy>(c: &mut CBlockTensor<P>, a: &ABlockTensor<P>, b: &BBlockTensor<P>) {
        const {
            assert!(
                matches!(<P::Warp as WarpGemm>::INSTRUCTION, super::super::WarpInstruction::MmaSync(_)),
                "on nvptx the block GEMM issues mma.sync: the policy's warp GEMM must be MmaSync"
            )
        };
        let (a, b, c) = (a.thread_buffer(), b.thread_buffer(), c.thread_buffer_mut());
        visit_warp_gemms::<P, _>(&mut super::Issues::<P::Warp> { a, b, c, warp: PhantomData });
    }

    /// One `mma.sync` of warp GEMM `W` on the registers from its operands'
    /// and accumulators' first.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(super) fn issue<W: WarpGemm>(a: &[Bits<W>], b: &[Bits<W>], c: &mut [Acc<W>]) {
        if let Some(c) = c.first_chunk_mut::<4>() {
            mma::<W::Element>(a, b, c);
        }
    }
}
