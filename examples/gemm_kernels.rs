//! A complete GEMM kernel for gfx942 and one for sm_90, each a policy line
//! and an entry point: `C = A * B^T`, A (M x K) and B (N x K) K-contiguous
//! in fp16 or bf16, C in `f32`, all through the library's kernel body
//! (`ops::gemm::universal_gemm`: CK's universal GEMM, its data paths, block
//! GEMM and epilogue).
//!
//! - gfx942: CK's default policy, 2 x 2 warps of the 32x32x16 MFMA;
//! - sm_90: the same policy over NVIDIA's warp GEMM (`MmaSync<32, 16,
//!   16>`: each 64-lane policy warp a pair of NVIDIA warps issuing
//!   `mma.sync.m16n8k16`).
//!
//! On the host, `main` runs every kernel's policy through the CPU
//! emulation (`ops::gemm::emulate_gemm`, the same library calls, each
//! instruction computed from its vendor's lane map) in fp16 and bf16, on a
//! shape padded along M, N and K with row strides that are no multiple of
//! the vector, and compares C with a plain triple loop:
//!
//! ```text
//! cargo run --example gemm_kernels
//! ```
//!
//! The entry points are compiled for their GPUs inside `perf/kernels`,
//! which includes this file (`scripts/target-icount.sh` builds it for
//! gfx942 and sm_90); `gpu/sm90_gemm.sh` runs the same body on an NVIDIA
//! GPU against cuBLAS (the performance chapter's "The whole GEMM on
//! sm_90"). Launch each with 256 threads, `ceil(m / 128) * ceil(n / 128)`
//! blocks and `(128 + 128) * 32` fp16 of dynamic shared memory.

use cktile_core::ops::gemm::{BlockWarps, Mfma, MmaSync, UniversalGemmPolicy};

/// gfx942: 128 x 128 x 32 on 256 threads, 2 x 2 warps of the 32x32x16 MFMA.
pub type Gfx942<E> = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma<32, 32, 16, E>>;
/// sm_90: the same tiles, 2 x 2 pairs of warps of `mma.sync.m16n8k16`.
pub type Sm90<E> = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, MmaSync<32, 16, 16, E>>;

/// The entry points: one line each over [`kernel`].
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
mod entry {
    use super::*;
    use cktile_core::ops::gemm::{Bf16, Fp16, GemmPolicy, GemmProblem, universal_gemm};

    /// The kernel body of policy `P` over a packed `m x n x k` problem.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn kernel<P: GemmPolicy>(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        let (m, n, k) = (m as usize, n as usize, k as usize);
        // SAFETY: launched with (MPerBlock + NPerBlock) x KPerBlock 16-bit elements of dynamic
        // shared memory, A holding m x k elements, B n x k, C m x n (each thread writes its own).
        let (lds, a, b, c) = unsafe {
            (
                cktile_core::tile::gpu::workgroup_memory::<u16>((P::M_PER_BLOCK + P::N_PER_BLOCK) * P::K_PER_BLOCK),
                core::slice::from_raw_parts(a, m * k),
                core::slice::from_raw_parts(b, n * k),
                core::slice::from_raw_parts_mut(c, m * n),
            )
        };
        let _ = universal_gemm::<P>((a, b, c), GemmProblem::packed(m, n, k), lds);
    }

    macro_rules! entry_points {
        ($($target:literal: $($name:ident = $policy:ty;)+)+) => {$($(
            #[doc = concat!("`", stringify!($policy), "` on ", $target, ".")]
            #[cfg(target_arch = $target)]
            #[unsafe(no_mangle)]
            pub extern "gpu-kernel" fn $name(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
                kernel::<$policy>(a, b, c, m, n, k)
            }
        )+)+};
    }

    entry_points! {
        "amdgpu":
            gemm_gfx942_fp16 = Gfx942<Fp16>;
            gemm_gfx942_bf16 = Gfx942<Bf16>;
        "nvptx64":
            gemm_sm90_fp16 = Sm90<Fp16>;
            gemm_sm90_bf16 = Sm90<Bf16>;
    }
}

/// Runs policy `P` on `problem` (elements of `P`'s type, small integers:
/// every sum exact in `f32`); returns how many elements of C differ from
/// the triple loop's.
#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
fn run<P: cktile_core::ops::gemm::GemmPolicy>(
    problem: cktile_core::ops::gemm::GemmProblem,
) -> Result<usize, cktile::Error> {
    use cktile_core::ops::gemm::{ElementOf, GemmProblem, MfmaElement};
    let GemmProblem { m, n, k, a_stride, b_stride, c_stride } = problem;
    let a: Vec<u16> = (0..m * a_stride).map(|i| ElementOf::<P>::from_f32(((i * 7 + 3) % 11) as f32 - 5.0)).collect();
    let b: Vec<u16> = (0..n * b_stride).map(|i| ElementOf::<P>::from_f32(((i * 5 + 1) % 13) as f32 - 6.0)).collect();
    let mut c = vec![f32::NAN; m * c_stride];
    cktile_core::ops::gemm::emulate_gemm::<P>(&a, &b, &mut c, problem)?;
    let value = |x: u16| ElementOf::<P>::to_f32(x);
    let reference =
        |i: usize, j: usize| (0..k).map(|q| value(a[i * a_stride + q]) * value(b[j * b_stride + q])).sum::<f32>();
    Ok((0..m * n).filter(|&x| c[x / n * c_stride + x % n] != reference(x / n, x % n)).count())
}

#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
fn main() -> Result<(), cktile::Error> {
    use cktile_core::ops::gemm::{Bf16, Fp16, GemmProblem};
    // Padded along M, N and K, with row strides that are no multiple of the vector.
    let problem = GemmProblem { m: 200, n: 150, k: 72, a_stride: 76, b_stride: 73, c_stride: 150 };
    let (m, n, k) = (problem.m, problem.n, problem.k);
    let mut wrong = 0;
    for (name, differ) in [
        ("gfx942 fp16 (MFMA 32x32x16)", run::<Gfx942<Fp16>>(problem)?),
        ("gfx942 bf16 (MFMA 32x32x16)", run::<Gfx942<Bf16>>(problem)?),
        ("sm_90 fp16 (mma.sync m16n8k16)", run::<Sm90<Fp16>>(problem)?),
        ("sm_90 bf16 (mma.sync m16n8k16)", run::<Sm90<Bf16>>(problem)?),
    ] {
        println!("{name}: C = A * B^T, {m} x {n} x {k}: {differ} of {} elements differ", m * n);
        wrong += differ;
    }
    if wrong == 0 { Ok(()) } else { std::process::exit(1) }
}
