//! Proof kernels for the typed descriptor API: each `typed_*`
//! function computes offsets through cktile's typed descriptors, each
//! `hand_*` twin computes the same offsets written out by hand, as CK Tile's
//! generated code would. `scripts/target-icount.sh` compiles this crate for
//! amdgcn (gfx942), nvptx (sm_90) and x86_64, counts the instructions of each
//! function and fails when a typed kernel exceeds its twin (or calls out, or
//! uses scratch / local memory).
//!
//! The thread index is an argument, so the same source builds on every
//! target. Mixed (runtime-length) kernels take the descriptor by reference
//! (built once, e.g. by the host or at kernel start), the twin the same
//! runtime values as arguments; `*_build` kernels add the validating
//! construction, reported but not compared. The typed tensor coordinates'
//! kernels (K loops that move a coordinate, validity checks on a padded
//! view) are in [`coordinates`], the typed tensor adaptors' (tile
//! distributions' P, Y -> X maps) in [`adaptors`].
#![no_std]
#![allow(improper_ctypes_definitions)]
#![cfg_attr(any(target_arch = "amdgpu", target_arch = "nvptx64"), feature(abi_gpu_kernel))]
#![cfg_attr(
    all(target_arch = "amdgpu", not(any(feature = "gfx11", feature = "gfx12"))),
    feature(link_llvm_intrinsics, repr_simd, simd_ffi, f16),
    allow(internal_features)
)]
#![cfg_attr(target_arch = "nvptx64", feature(asm_experimental_arch))]

pub mod adaptors;
pub mod builders;
pub mod coordinates;
pub mod entry;
pub mod forms;
// The whole GEMMs are left out of the probe build (gpu/gemm.sh's data-path
// probes need none of them; gpu/sm90_gemm.sh builds them without it).
#[cfg(not(any(feature = "probe", feature = "gfx11", feature = "gfx12")))]
pub mod gemm;
/// The guide's complete GEMM kernels (`examples/gemm_kernels.rs`), compiled for their GPUs here.
#[cfg(all(any(target_arch = "amdgpu", target_arch = "nvptx64"), not(feature = "probe")))]
#[path = "../../../examples/gemm_kernels.rs"]
pub mod gemm_example;
pub mod generic;
pub mod paths;

use builders::*;
use cktile_core::Index;

/// The (m, k) coordinate a thread reads in a 128 x 32 tile: 4 threads per
/// row of 32, 8 consecutive elements each.
#[inline(always)]
fn mk(tid: u32) -> (Index, Index) {
    (((tid >> 2) & 127) as Index, ((tid & 3) * 8) as Index)
}

/// CK GEMM A LDS block, M=128, K=32, KPack=8, MLdsLayer=2 (fp16), all static.
#[unsafe(no_mangle)]
pub extern "C" fn typed_a_lds(tid: u32) -> Index {
    let (m, k) = mk(tid);
    match make_a_lds() {
        Ok(d) => d.calculate_offset([m, k]),
        Err(_) => -1,
    }
}

/// Twin of [`typed_a_lds`]: `((l*K0 + k/KPack) ^ (m' % (K0*L))) * KPack + m'*K*L + k%KPack`.
#[unsafe(no_mangle)]
pub extern "C" fn hand_a_lds(tid: u32) -> Index {
    let (m, k) = mk(tid);
    let (mp, l) = (m / 2, m % 2);
    ((l * 4 + k / 8) ^ (mp % 8)) * 8 + mp * 64 + k % 8
}

/// The same block with MPerBlock a runtime value (descriptor built outside).
#[unsafe(no_mangle)]
pub extern "C" fn typed_a_lds_rt(d: &ALdsRt, tid: u32) -> Index {
    let (m, k) = mk(tid);
    d.calculate_offset([m, k])
}

/// Twin of [`typed_a_lds_rt`] (M does not enter the formula).
#[unsafe(no_mangle)]
pub extern "C" fn hand_a_lds_rt(m_per_block: usize, tid: u32) -> Index {
    let _ = m_per_block;
    let (m, k) = mk(tid);
    let (mp, l) = (m / 2, m % 2);
    ((l * 4 + k / 8) ^ (mp % 8)) * 8 + mp * 64 + k % 8
}

/// [`typed_a_lds_rt`] with the validating construction in the kernel.
#[unsafe(no_mangle)]
pub extern "C" fn typed_a_lds_rt_build(m_per_block: usize, tid: u32) -> Index {
    let (m, k) = mk(tid);
    match make_a_lds_rt(m_per_block) {
        Ok(d) => d.calculate_offset([m, k]),
        Err(_) => -1,
    }
}

/// The generic policy ([`generic::make_a_lds_desc`]) at M=128, K=32
/// (MLdsLayer 2): the same block as [`typed_a_lds`].
#[unsafe(no_mangle)]
pub extern "C" fn typed_generic_a_lds(tid: u32) -> Index {
    let (m, k) = mk(tid);
    match generic::make_a_lds_desc::<128, 32, 2, 32, 16>() {
        Ok(d) => d.calculate_offset([m, k]),
        Err(_) => -1,
    }
}

/// Twin of [`typed_generic_a_lds`]: [`hand_a_lds`]'s formula.
#[unsafe(no_mangle)]
pub extern "C" fn hand_generic_a_lds(tid: u32) -> Index {
    hand_a_lds(tid)
}

/// The generic policy at M=64, K=64 (MLdsLayer 1): 8 threads per row of 64.
#[unsafe(no_mangle)]
pub extern "C" fn typed_generic_a_lds_64x64(tid: u32) -> Index {
    let (m, k) = (((tid >> 3) & 63) as Index, ((tid & 7) * 8) as Index);
    match generic::make_a_lds_desc::<64, 64, 2, 32, 16>() {
        Ok(d) => d.calculate_offset([m, k]),
        Err(_) => -1,
    }
}

/// Twin of [`typed_generic_a_lds_64x64`]: `8 * ((k/8) ^ (m%8)) + 64*m + k%8`.
#[unsafe(no_mangle)]
pub extern "C" fn hand_generic_a_lds_64x64(tid: u32) -> Index {
    let (m, k) = (((tid >> 3) & 63) as Index, ((tid & 7) * 8) as Index);
    8 * ((k / 8) ^ (m % 8)) + 64 * m + k % 8
}

/// CK GEMM B LDS block, N=256, K=64, KPack=8, MLdsLayer=1 (fp16), all static.
#[unsafe(no_mangle)]
pub extern "C" fn typed_b_lds(tid: u32) -> Index {
    let (n, k) = (((tid >> 3) & 255) as Index, ((tid & 7) * 8) as Index);
    match make_b_lds() {
        Ok(d) => d.calculate_offset([n, k]),
        Err(_) => -1,
    }
}

/// Twin of [`typed_b_lds`]: `64*n + 8*((k/8) ^ (n%8)) + k%8`.
#[unsafe(no_mangle)]
pub extern "C" fn hand_b_lds(tid: u32) -> Index {
    let (n, k) = (((tid >> 3) & 255) as Index, ((tid & 7) * 8) as Index);
    64 * n + 8 * ((k / 8) ^ (n % 8)) + k % 8
}

/// CK fmha V LDS block, N=128, K=32, KPack=8, fp16, two prefetch buffers.
#[unsafe(no_mangle)]
pub extern "C" fn typed_fmha_v(tid: u32) -> Index {
    let (n, k) = (((tid >> 2) & 255) as Index, ((tid & 3) * 8) as Index);
    match make_fmha_v() {
        Ok(d) => d.calculate_offset([n, k]),
        Err(_) => -1,
    }
}

/// Twin of [`typed_fmha_v`]: rows of 64 elements padded by 8.
#[unsafe(no_mangle)]
pub extern "C" fn hand_fmha_v(tid: u32) -> Index {
    let (n, k) = (((tid >> 2) & 255) as Index, ((tid & 3) * 8) as Index);
    let (p, r, c) = (n / 128, (n / 8) % 16, n % 8);
    p * 4608 + (k / 8) * 1152 + r * 72 + c * 8 + k % 8
}

/// CK's global A view: runtime M, K and row stride, right-padded to a
/// multiple of the tile; the offset when the coordinate is valid, -1 otherwise.
#[unsafe(no_mangle)]
pub extern "C" fn typed_global_a(d: &GlobalA, tid: u32, row0: Index) -> Index {
    let (m, k) = (row0 + (tid >> 3) as Index, ((tid & 7) * 8) as Index);
    d.offset_if_valid([m, k]).unwrap_or(-1)
}

/// Twin of [`typed_global_a`].
#[unsafe(no_mangle)]
pub extern "C" fn hand_global_a(
    (m_len, k_len, stride, pad_m, pad_k): (usize, usize, usize, usize, usize),
    tid: u32,
    row0: Index,
) -> Index {
    let (m, k) = (row0 + (tid >> 3) as Index, ((tid & 7) * 8) as Index);
    let (ml, kl) = (m_len as Index, k_len as Index);
    let inside = m >= 0 && k >= 0 && m < ml + pad_m as Index && k < kl + pad_k as Index;
    if inside && m < ml && k < kl { m * stride as Index + k } else { -1 }
}

/// [`typed_global_a`] with the validating construction in the kernel.
#[unsafe(no_mangle)]
pub extern "C" fn typed_global_a_build(
    (m_len, k_len, stride, pad_m, pad_k): (usize, usize, usize, usize, usize),
    tid: u32,
    row0: Index,
) -> Index {
    let (m, k) = (row0 + (tid >> 3) as Index, ((tid & 7) * 8) as Index);
    match make_global_a(m_len, k_len, stride, pad_m, pad_k) {
        Ok(d) => d.offset_if_valid([m, k]).unwrap_or(-1),
        Err(_) => -1,
    }
}

// With panic = "immediate-abort" (the GPU builds of scripts/target-icount.sh)
// a panic is a trap and core needs no handler; with feature `host` (the
// GPU check's host program, examples/gemm_args.rs) std's handler serves.
#[cfg(not(any(test, panic = "immediate-abort", feature = "host")))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}

/// Every typed kernel computes its twin's offsets (the instruction counts of
/// scripts/target-icount.sh compare like with like), over every thread of
/// its tile; the runtime ones for several runtime values.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_kernels_equal_their_twins() {
        for tid in 0..4096 {
            assert_eq!(typed_a_lds(tid), hand_a_lds(tid), "a_lds {tid}");
            assert_eq!(typed_b_lds(tid), hand_b_lds(tid), "b_lds {tid}");
            assert_eq!(typed_fmha_v(tid), hand_fmha_v(tid), "fmha_v {tid}");
            assert_eq!(typed_generic_a_lds(tid), hand_generic_a_lds(tid), "generic {tid}");
            assert_eq!(typed_generic_a_lds_64x64(tid), hand_generic_a_lds_64x64(tid), "generic 64x64 {tid}");
        }
        for m_per_block in [128, 256] {
            let d = make_a_lds_rt(m_per_block).unwrap();
            for tid in 0..(m_per_block as u32 * 4) {
                let want = hand_a_lds_rt(m_per_block, tid);
                assert_eq!(typed_a_lds_rt(&d, tid), want, "a_lds_rt {m_per_block} {tid}");
                assert_eq!(typed_a_lds_rt_build(m_per_block, tid), want, "a_lds_rt_build {m_per_block} {tid}");
            }
        }
        // The generic policy at (128, 32) is the hand-built block's layout.
        let (generic, built) = (generic::make_a_lds_desc::<128, 32, 2, 32, 16>().unwrap(), make_a_lds().unwrap());
        for m in 0..128 {
            for k in 0..32 {
                assert_eq!(generic.calculate_offset([m, k]), built.calculate_offset([m, k]));
            }
        }
        let shape = (100, 60, 72, 28, 4);
        let d = make_global_a(shape.0, shape.1, shape.2, shape.3, shape.4).unwrap();
        for row0 in [0, 64, 120] {
            for tid in 0..512 {
                let want = hand_global_a(shape, tid, row0);
                assert_eq!(typed_global_a(&d, tid, row0), want, "global_a {row0} {tid}");
                assert_eq!(typed_global_a_build(shape, tid, row0), want, "global_a_build {row0} {tid}");
            }
        }
    }
}
