//! A complete GEMM kernel for gfx942 and one for sm_90, each a policy line
//! and an entry point: `C = A * B`, A (M x K) and B (K x N) in fp16 or
//! bf16, each row-major or column-major, C in `f32` (row-major), all
//! through the library's kernel body (`ops::gemm::universal_gemm`: CK's
//! universal GEMM, its data paths, block GEMM and epilogue).
//!
//! - gfx942: CK's default policy, 2 x 2 warps of the 32x32x16 MFMA;
//! - sm_90: the same policy over NVIDIA's warp GEMM (`MmaSync<32, 16,
//!   16>`: each 64-lane policy warp a pair of NVIDIA warps issuing
//!   `mma.sync.m16n8k16`).
//!
//! On the host, `main` runs every kernel's policy through the CPU
//! emulation (`ops::gemm::emulate_gemm`, the same library calls, each
//! instruction computed from its vendor's lane map) in fp16 and bf16 and
//! in all four layouts of A and B (CK's RCR, RRR, CCR, CRR), on a shape
//! padded along M, N and K with leading dimensions that are no multiple
//! of the vector, and compares C with a plain triple loop:
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
//! blocks and `(128 + 128) * 32` fp16 of dynamic shared memory. The
//! `_crr` entry points take a column-major A (K x M in memory, M
//! contiguous) and a row-major B (K x N, N contiguous).

use cktile_core::ops::gemm::{BlockWarps, ColumnMajor, Mfma, MmaSync, RowMajor, UniversalGemmPolicy};

/// gfx942: 128 x 128 x 32 on 256 threads, 2 x 2 warps of the 32x32x16
/// MFMA, elements `E`, A laid out as `A` and B as `B`.
pub type Gfx942<E, A = RowMajor, B = ColumnMajor> =
    UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma<32, 32, 16, E>, A, B>;
/// sm_90: the same tiles, 2 x 2 pairs of warps of `mma.sync.m16n8k16`.
pub type Sm90<E, A = RowMajor, B = ColumnMajor> =
    UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, MmaSync<32, 16, 16, E>, A, B>;

/// The entry points: one line each over [`kernel`].
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
mod entry {
    use super::*;
    use cktile_core::ops::gemm::{Bf16, Fp16, GemmPolicy, GemmProblem, universal_gemm};

    /// The kernel body of policy `P` over a packed `m x n x k` problem
    /// (each operand laid out as `P` says).
    #[inline(always)]
    #[allow(unsafe_code)]
    fn kernel<P: GemmPolicy>(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        let (m, n, k) = (m as usize, n as usize, k as usize);
        // SAFETY: launched with (MPerBlock + NPerBlock) x KPerBlock 16-bit elements of dynamic
        // shared memory, A holding m x k elements, B k x n, C m x n (each thread writes its own).
        let (lds, a, b, c) = unsafe {
            (
                cktile_core::tile::gpu::workgroup_memory::<u16>((P::M_PER_BLOCK + P::N_PER_BLOCK) * P::K_PER_BLOCK),
                core::slice::from_raw_parts(a, m * k),
                core::slice::from_raw_parts(b, n * k),
                core::slice::from_raw_parts_mut(c, m * n),
            )
        };
        let _ = universal_gemm::<P>((a, b, c), GemmProblem::packed_for::<P>(m, n, k), lds);
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
            gemm_gfx942_fp16_crr = Gfx942<Fp16, ColumnMajor, RowMajor>;
        "nvptx64":
            gemm_sm90_fp16 = Sm90<Fp16>;
            gemm_sm90_bf16 = Sm90<Bf16>;
            gemm_sm90_fp16_crr = Sm90<Fp16, ColumnMajor, RowMajor>;
    }
}

/// Runs policy `P` on an `m x n x k` problem (elements of `P`'s type,
/// small integers: every sum exact in `f32`), each operand laid out as
/// `P` says with `gap` elements past its contiguous extent; returns how
/// many elements of C differ from the triple loop's.
#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
fn run<P: cktile_core::ops::gemm::GemmPolicy>(
    (m, n, k): (usize, usize, usize),
    gap: usize,
) -> Result<usize, cktile::Error> {
    use cktile_core::ops::gemm::{ElementOf, GemmProblem, MfmaElement, OperandStorage};
    // An operand seen as rows x K: its leading dimension, and where element (row, q) lies.
    let storage = |rows: usize, k_contiguous: bool| {
        let ld = if k_contiguous { k } else { rows } + gap;
        (ld, move |row: usize, q: usize| if k_contiguous { row * ld + q } else { q * ld + row })
    };
    let (a_ld, a_at) = storage(m, <P::AStorage as OperandStorage>::K_CONTIGUOUS);
    let (b_ld, b_at) = storage(n, <P::BStorage as OperandStorage>::K_CONTIGUOUS);
    let a: Vec<u16> = (0..m.max(k) * a_ld).map(|i| ElementOf::<P>::from_f32(((i * 7 + 3) % 11) as f32 - 5.0)).collect();
    let b: Vec<u16> = (0..n.max(k) * b_ld).map(|i| ElementOf::<P>::from_f32(((i * 5 + 1) % 13) as f32 - 6.0)).collect();
    let problem = GemmProblem { m, n, k, a_stride: a_ld, b_stride: b_ld, c_stride: n };
    let mut c = vec![f32::NAN; m * n];
    cktile_core::ops::gemm::emulate_gemm::<P>(&a, &b, &mut c, problem)?;
    let value = |x: u16| ElementOf::<P>::to_f32(x);
    let reference = |i: usize, j: usize| (0..k).map(|q| value(a[a_at(i, q)]) * value(b[b_at(j, q)])).sum::<f32>();
    Ok((0..m * n).filter(|&x| c[x] != reference(x / n, x % n)).count())
}

#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
fn main() -> Result<(), cktile::Error> {
    use cktile_core::ops::gemm::{ALayout, BLayout, Bf16, Fp16, MfmaElement};
    // Padded along M, N and K, with leading dimensions that are no multiple of the vector.
    let (m, n, k, gap) = (200, 150, 72, 3);
    let mut wrong = 0;
    let mut report = |name: String, differ: usize| {
        println!("{name}: C = A * B, {m} x {n} x {k}: {differ} of {} elements differ", m * n);
        wrong += differ;
    };
    fn layouts<E: MfmaElement, A: ALayout, B: BLayout>(
        report: &mut impl FnMut(String, usize),
        shape: (usize, usize, usize),
        gap: usize,
    ) -> Result<(), cktile::Error> {
        let (e, a, b) = (E::NAME, A::NAME, B::NAME);
        report(format!("gfx942 {e} (MFMA 32x32x16), A {a}, B {b}"), run::<Gfx942<E, A, B>>(shape, gap)?);
        report(format!("sm_90 {e} (mma.sync m16n8k16), A {a}, B {b}"), run::<Sm90<E, A, B>>(shape, gap)?);
        Ok(())
    }
    fn dtypes<A: ALayout, B: BLayout>(
        report: &mut impl FnMut(String, usize),
        shape: (usize, usize, usize),
        gap: usize,
    ) -> Result<(), cktile::Error> {
        layouts::<Fp16, A, B>(report, shape, gap)?;
        layouts::<Bf16, A, B>(report, shape, gap)
    }
    dtypes::<RowMajor, ColumnMajor>(&mut report, (m, n, k), gap)?;
    dtypes::<RowMajor, RowMajor>(&mut report, (m, n, k), gap)?;
    dtypes::<ColumnMajor, ColumnMajor>(&mut report, (m, n, k), gap)?;
    dtypes::<ColumnMajor, RowMajor>(&mut report, (m, n, k), gap)?;
    if wrong == 0 { Ok(()) } else { std::process::exit(1) }
}
