//! The GEMM's GPU layer (compiled for `amdgcn-amd-amdhsa` and
//! `nvptx64-nvidia-cuda` only, as [`tile::gpu`](crate::tile::gpu)): the
//! policy's partition read from the hardware ids
//! ([`get_policy_partition`]), and on amdgcn the block GEMM over the MFMA
//! intrinsics (`block_gemm`). nvptx has no MFMA; its warp GEMM
//! (`mma.sync`, over 32-lane policies) is not written yet.

use super::policy::GemmPolicy;
use crate::tile::Partition;

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

#[cfg(target_arch = "amdgpu")]
pub use amdgpu::block_gemm;

/// The block GEMM on amdgcn: the MFMA intrinsics (the GPU layer's only
/// `unsafe` outside `tile::gpu`: an LLVM intrinsic is an `extern` call).
#[cfg(target_arch = "amdgpu")]
#[allow(unsafe_code)]
mod amdgpu {
    use super::super::block::{ABlockTensor, BBlockTensor, CBlockTensor, for_each_warp_gemm};
    use super::super::mfma::{ElementKind, MfmaElement};
    use super::super::policy::WarpGemm;
    use super::GemmPolicy;

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
    /// [`K_ITER`](WarpGemm::K_ITER) MFMAs. Every lane of the wave calls it
    /// together (the MFMA is a wave instruction); the host's
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
        let (a, b, c) = (a.thread_buffer(), b.thread_buffer(), c.thread_buffer_mut());
        for_each_warp_gemm::<P>(|s| {
            for q in 0..<P::Warp as WarpGemm>::K_ITER {
                let (a0, b0) = s.instruction(q);
                let (Some(a), Some(b), Some(c)) = (
                    a.get(a0..).and_then(<[u16]>::first_chunk::<4>),
                    b.get(b0..).and_then(<[u16]>::first_chunk::<4>),
                    c.get_mut(s.c..),
                ) else {
                    continue;
                };
                mfma::<P::Warp>(a, b, c);
            }
        });
    }
}
