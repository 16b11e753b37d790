//! The GEMM's GPU layer (compiled for `amdgcn-amd-amdhsa` and
//! `nvptx64-nvidia-cuda` only, as [`tile::gpu`](crate::tile::gpu)): the
//! policy's partition read from the hardware ids
//! ([`get_policy_partition`]) and the block GEMM (`block_gemm`): over the
//! MFMA intrinsics on amdgcn, over `mma.sync.aligned.m16n8k16` on nvptx
//! (a policy of [`MmaSync`](super::MmaSync)).

use super::block::CBlockTensor;
use super::emulate::GemmProblem;
use super::epilogue::{c_window, store_c_tile};
use super::path::{OperandA, OperandB, OperandPath, block_window};
use super::policy::GemmPolicy;
use crate::Index;
use crate::error::Error;
use crate::tile::gpu::{block_sync_lds, get_block_id};
use crate::tile::{Partition, SharedMemory, load_tile};

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
#[inline(always)]
pub fn get_policy_partition<P: GemmPolicy>() -> Option<Partition> {
    let () = P::CHECK;
    crate::tile::gpu::partition_in_block(P::BLOCK_SIZE, P::WAVE)
}

/// CK's universal GEMM kernel (`GemmKernel` over
/// `UniversalGemmPipelineAgBgCrPolicy`, one LDS stage, the
/// `Default2DEpilogue`) as the calling thread runs it: `C = A * B^T` over
/// `problem` (A `m x k`, B `n x k`, each K-contiguous with its row stride;
/// C `m x n` in `f32` with its own), its block's tile of C by CK's 2-D tile
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
/// the 8-element vector, a stride below its row, a buffer too short for
/// its matrix); after the K loop, before any store, what C's view refuses.
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
#[inline(always)]
#[allow(unsafe_code)]
pub fn universal_gemm<P: GemmPolicy>(
    (a, b, c): (&[u16], &[u16], &mut [f32]),
    problem: GemmProblem,
    lds: SharedMemory<'_, u16>,
) -> Result<(), Error> {
    let Some(p) = get_policy_partition::<P>() else { return Ok(()) };
    let GemmProblem { m, n, k, a_stride, b_stride, c_stride } = problem;
    let a_len = P::M_PER_BLOCK * P::K_PER_BLOCK;
    if lds.len() < a_len + P::N_PER_BLOCK * P::K_PER_BLOCK {
        return Err(Error::policy_value(
            "the GEMM's LDS must hold (MPerBlock + NPerBlock) x KPerBlock elements",
            "lds.len()",
            i64::try_from(lds.len()).unwrap_or(i64::MAX),
        ));
    }
    let block = get_block_id();
    let n_blocks = n.div_ceil(P::N_PER_BLOCK).max(1);
    let origin = |tile: usize, per: usize| Index::try_from(tile * per).unwrap_or(Index::MAX);
    let (m0, n0) = (origin(block / n_blocks, P::M_PER_BLOCK), origin(block % n_blocks, P::N_PER_BLOCK));
    let (a_lds, b_lds) = lds.split_at(a_len);
    let (a_view, b_view) = (P::make_a_dram_view(a, m, k, a_stride)?, P::make_b_dram_view(b, n, k, b_stride)?);
    let mut a_path = OperandPath::<u16, P, OperandA>::with_partition(OperandA, *a_view.descriptor(), a, m0, a_lds, p)?;
    let mut b_path = OperandPath::<u16, P, OperandB>::with_partition(OperandB, *b_view.descriptor(), b, n0, b_lds, p)?;
    let (a_block, b_block) = (block_window::<u16, P, OperandA>(a_lds, p)?, block_window::<u16, P, OperandB>(b_lds, p)?);
    let mut acc = CBlockTensor::<P>::filled(0.0);
    for _ in 0..k.div_ceil(P::K_PER_BLOCK) {
        let (a_tile, b_tile) = (a_path.load(), b_path.load());
        a_path.next_k();
        b_path.next_k();
        // SAFETY: every thread of the block runs the same K loop (the errors above are the
        // same in every thread, and come before it).
        unsafe { block_sync_lds() };
        a_path.store(&a_tile);
        b_path.store(&b_tile);
        // SAFETY: as above.
        unsafe { block_sync_lds() };
        block_gemm::<P>(&mut acc, &load_tile(&a_block), &load_tile(&b_block));
    }
    let mut window = c_window::<f32, P>(P::make_c_dram_view(c, m, n, c_stride)?, (m0, n0), p)?;
    store_c_tile::<f32, P>(&mut window, &acc, |x| x);
    Ok(())
}

/// The thread's block tensors' registers, each warp GEMM step's
/// instructions issued on them by the target's `issue` (amdgcn's MFMAs,
/// nvptx's `mma.sync`): a visitor whose step is always inlined (see
/// `block::WarpGemmVisitor`).
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
struct Steps<'a, W> {
    a: &'a [u16],
    b: &'a [u16],
    c: &'a mut [f32],
    warp: core::marker::PhantomData<W>,
}

#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
impl<W: super::policy::WarpGemm> super::block::WarpGemmVisitor for Steps<'_, W> {
    #[inline(always)]
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
/// `unsafe` outside `tile::gpu`: an LLVM intrinsic is an `extern` call).
#[cfg(target_arch = "amdgpu")]
#[allow(unsafe_code)]
mod amdgpu {
    use super::super::block::{ABlockTensor, BBlockTensor, CBlockTensor, visit_warp_gemms};
    use super::super::mfma::{ElementKind, MfmaElement};
    use super::super::policy::WarpGemm;
    use super::GemmPolicy;
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

    // The gfx942 MFMAs (`v_mfma_f32_32x32x8_f16`, `..._16x16x16_f16`, and
    // their bf16 `_1k` forms); the last three arguments (cbsz, abid, blgp:
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
    }

    #[inline(always)]
    fn f16x4(v: &[u16; 4]) -> F16x4 {
        F16x4(v.map(f16::from_bits))
    }

    #[inline(always)]
    fn i16x4(v: &[u16; 4]) -> I16x4 {
        I16x4(v.map(|x| x as i16))
    }

    /// One instruction of warp GEMM `W`: `c += a * b` on the lane's 4
    /// operand registers and its accumulators.
    #[inline(always)]
    fn mfma<W: WarpGemm>(a: &[u16; 4], b: &[u16; 4], c: &mut [f32]) {
        let kind = <W::Element as MfmaElement>::KIND;
        if let Some(c) = c.first_chunk_mut::<16>().filter(|_| W::C_PER_LANE == 16) {
            // SAFETY: the intrinsic has no precondition (gfx942 has it; the kernel is compiled
            // for it); a SIMD vector of 16 `f32` has the layout of the array (its fields cannot
            // be projected, so it is read back whole).
            *c = unsafe {
                core::mem::transmute::<F32x16, [f32; 16]>(match kind {
                    ElementKind::Fp16 => mfma_32x32x8_f16(f16x4(a), f16x4(b), F32x16(*c), 0, 0, 0),
                    ElementKind::Bf16 => mfma_32x32x8_bf16(i16x4(a), i16x4(b), F32x16(*c), 0, 0, 0),
                })
            };
        } else if let Some(c) = c.first_chunk_mut::<4>().filter(|_| W::C_PER_LANE == 4) {
            // SAFETY: as above.
            *c = unsafe {
                core::mem::transmute::<F32x4, [f32; 4]>(match kind {
                    ElementKind::Fp16 => mfma_16x16x16_f16(f16x4(a), f16x4(b), F32x4(*c), 0, 0, 0),
                    ElementKind::Bf16 => mfma_16x16x16_bf16(i16x4(a), i16x4(b), F32x4(*c), 0, 0, 0),
                })
            };
        }
    }

    /// CK's block GEMM (`BlockUniversalGemmAsBsCr::operator()`) as one
    /// thread runs it on amdgcn: `c += a * b` over the thread's block
    /// tensors, each warp GEMM of [`for_each_warp_gemm`] issuing its
    /// [`INSTRUCTIONS`](WarpGemm::INSTRUCTIONS) MFMAs. Every lane of the wave calls it
    /// together (the MFMA is a wave instruction); a policy of
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
    #[inline(always)]
    pub fn block_gemm<P: GemmPolicy>(c: &mut CBlockTensor<P>, a: &ABlockTensor<P>, b: &BBlockTensor<P>) {
        const {
            assert!(
                matches!(<P::Warp as WarpGemm>::INSTRUCTION, super::super::WarpInstruction::Mfma(_)),
                "on amdgcn the block GEMM issues MFMAs: the policy's warp GEMM must be Mfma"
            )
        };
        let (a, b, c) = (a.thread_buffer(), b.thread_buffer(), c.thread_buffer_mut());
        visit_warp_gemms::<P, _>(&mut super::Steps::<P::Warp> { a, b, c, warp: PhantomData });
    }

    /// One MFMA of warp GEMM `W` on the registers from its operands' and
    /// accumulators' first.
    #[inline(always)]
    pub(super) fn issue<W: WarpGemm>(a: &[u16], b: &[u16], c: &mut [f32]) {
        if let (Some(a), Some(b)) = (a.first_chunk::<4>(), b.first_chunk::<4>()) {
            mfma::<W>(a, b, c);
        }
    }
}

#[cfg(target_arch = "nvptx64")]
pub use nvptx::block_gemm;

/// The block GEMM on nvptx: `mma.sync.aligned.m16n8k16` in inline PTX
/// (the GPU layer's only `unsafe` here outside `tile::gpu`).
#[cfg(target_arch = "nvptx64")]
#[allow(unsafe_code)]
mod nvptx {
    use super::super::block::{ABlockTensor, BBlockTensor, CBlockTensor, visit_warp_gemms};
    use super::super::mfma::{ElementKind, MfmaElement};
    use super::super::policy::WarpGemm;
    use super::GemmPolicy;
    use core::marker::PhantomData;

    /// Two 16-bit elements in one 32-bit register, the first in the low
    /// half (PTX's `.f16x2` and `.bf16x2`).
    #[inline(always)]
    fn pair(x: &[u16; 2]) -> u32 {
        u32::from(x[0]) | (u32::from(x[1]) << 16)
    }

    /// One `mma.sync.aligned.m16n8k16.row.col.f32` of element type `E`:
    /// `c += a * b` on the lane's 8 A elements, 4 B elements and 4
    /// accumulators, as the PTX ISA lays them out
    /// ([`MmaSyncInstruction`](super::super::MmaSyncInstruction)).
    #[inline(always)]
    fn mma<E: MfmaElement>(a: &[u16; 8], b: &[u16; 4], c: &mut [f32; 4]) {
        let (a0, a1, a2, a3) = (a[0..2].try_into(), a[2..4].try_into(), a[4..6].try_into(), a[6..8].try_into());
        let (b0, b1) = (b[0..2].try_into(), b[2..4].try_into());
        let (Ok(a0), Ok(a1), Ok(a2), Ok(a3), Ok(b0), Ok(b1)) = (a0, a1, a2, a3, b0, b1) else { return };
        let (a0, a1, a2, a3, b0, b1) = (pair(a0), pair(a1), pair(a2), pair(a3), pair(b0), pair(b1));
        let [d0, d1, d2, d3] = c;
        // The instruction for element type `$ty` (PTX's `f16` or `bf16`).
        macro_rules! mma_sync {
            ($ty:literal) => {
                // SAFETY: the instruction reads and writes only its registers; every lane of the
                // warp executes it together (`block_gemm`'s contract: the whole block calls it,
                // converged).
                unsafe {
                    core::arch::asm!(
                        concat!(
                            "mma.sync.aligned.m16n8k16.row.col.f32.", $ty, ".", $ty, ".f32 ",
                            "{{{0}, {1}, {2}, {3}}}, {{{4}, {5}, {6}, {7}}}, {{{8}, {9}}}, {{{0}, {1}, {2}, {3}}};"
                        ),
                        inout(reg32) *d0, inout(reg32) *d1, inout(reg32) *d2, inout(reg32) *d3,
                        in(reg32) a0, in(reg32) a1, in(reg32) a2, in(reg32) a3, in(reg32) b0, in(reg32) b1,
                        options(pure, nomem, nostack),
                    )
                }
            };
        }
        match E::KIND {
            ElementKind::Fp16 => mma_sync!("f16"),
            ElementKind::Bf16 => mma_sync!("bf16"),
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
    #[inline(always)]
    pub fn block_gemm<P: GemmPolicy>(c: &mut CBlockTensor<P>, a: &ABlockTensor<P>, b: &BBlockTensor<P>) {
        const {
            assert!(
                matches!(<P::Warp as WarpGemm>::INSTRUCTION, super::super::WarpInstruction::MmaSync(_)),
                "on nvptx the block GEMM issues mma.sync: the policy's warp GEMM must be MmaSync"
            )
        };
        let (a, b, c) = (a.thread_buffer(), b.thread_buffer(), c.thread_buffer_mut());
        visit_warp_gemms::<P, _>(&mut super::Steps::<P::Warp> { a, b, c, warp: PhantomData });
    }

    /// One `mma.sync` of warp GEMM `W` on the registers from its operands'
    /// and accumulators' first.
    #[inline(always)]
    pub(super) fn issue<W: WarpGemm>(a: &[u16], b: &[u16], c: &mut [f32]) {
        if let (Some(a), Some(b), Some(c)) = (a.first_chunk::<8>(), b.first_chunk::<4>(), c.first_chunk_mut::<4>()) {
            mma::<W::Element>(a, b, c);
        }
    }
}
