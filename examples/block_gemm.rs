//! A whole GEMM kernel run on the CPU: CK Tile's universal GEMM, its
//! MFMAs emulated, checked against a plain triple loop.
//!
//! `ops::gemm::emulate_gemm` runs every block of `C = A * B^T` (A is M x
//! K, B is N x K, both K-contiguous with row strides of their own) as the
//! GPU runs it: each thread's `OperandPath` loads its DRAM tile
//! (8-element vectors, padded to the block tile) and stores it into the
//! block's LDS with CK's XOR layout; each thread reads its block GEMM
//! operands through `block_window`; each 64-lane wave's MFMAs are
//! computed from AMD's lane map; and each thread stores its accumulators
//! through its C window (CK's `Default2DEpilogue`). The block's threads
//! run one after another inside each stage; the stages are the kernel's
//! barriers. The inputs are small integers, so every sum is exact in
//! `f32` and the comparison is exact.
//!
//! ```text
//! cargo run --example block_gemm
//! ```
//!
//! The GPU form of the same kernel (one thread per lane, LDS from
//! `tile::gpu::workgroup_memory`, `block_sync_lds` for the barriers, the
//! MFMA intrinsics) is `typed_gemm_128_k16` in `perf/kernels/src/gemm.rs`,
//! which `scripts/target-icount.sh` compiles for gfx942 against a
//! hand-written twin.

use cktile::Error;
use cktile::ops::gemm::{Bf16, BlockWarps, Fp16, GemmPolicy, GemmProblem, Mfma, MfmaElement, UniversalGemmPolicy};

/// CK's 256-thread, 128 x 128 x 32 configuration: 2 x 2 warps of the fp16
/// 32x32x16 warp GEMM (two `v_mfma_f32_32x32x8_f16` each).
type Fp16Gemm = UniversalGemmPolicy<256, 128, 128, 32>;
/// 64 x 64 x 32 on 128 threads: 2 x 1 warps of the bf16 16x16x32 warp GEMM.
type Bf16Gemm = UniversalGemmPolicy<128, 64, 64, 32, BlockWarps<2, 1>, Mfma<16, 16, 32, Bf16>>;

/// Runs policy `P` on `problem` with elements of type `E`; returns how
/// many elements of C differ from the triple loop's.
fn run<P: GemmPolicy, E: MfmaElement>(problem: GemmProblem) -> Result<usize, Error> {
    let GemmProblem { m, n, k, a_stride, b_stride, c_stride } = problem;
    let a: Vec<u16> = (0..m * a_stride).map(|i| E::from_f32(((i * 7 + 3) % 11) as f32 - 5.0)).collect();
    let b: Vec<u16> = (0..n * b_stride).map(|i| E::from_f32(((i * 5 + 1) % 13) as f32 - 6.0)).collect();
    let mut c = vec![0.0f32; m * c_stride];
    cktile::ops::gemm::emulate_gemm::<P>(&a, &b, &mut c, problem)?;
    let value = |x: u16| E::to_f32(x);
    let reference =
        |i: usize, j: usize| (0..k).map(|q| value(a[i * a_stride + q]) * value(b[j * b_stride + q])).sum::<f32>();
    Ok((0..m * n).filter(|&x| c[x / n * c_stride + x % n] != reference(x / n, x % n)).count())
}

fn main() -> Result<(), Error> {
    // Padded along M, N and K, with row strides that are no multiple of the vector (CK accepts them).
    let problem = GemmProblem { m: 200, n: 150, k: 72, a_stride: 76, b_stride: 73, c_stride: 150 };
    let fp16 = run::<Fp16Gemm, Fp16>(problem)?;
    let bf16 = run::<Bf16Gemm, Bf16>(problem)?;
    let (m, n, k) = (problem.m, problem.n, problem.k);
    for (name, wrong, blocks) in [
        ("fp16, 128 x 128 x 32 tiles", fp16, m.div_ceil(128) * n.div_ceil(128)),
        ("bf16, 64 x 64 x 32 tiles", bf16, m.div_ceil(64) * n.div_ceil(64)),
    ] {
        println!("C = A * B^T, {m} x {n} x {k} in {name} ({blocks} blocks): {wrong} of {} elements differ", m * n);
    }
    if fp16 + bf16 == 0 { Ok(()) } else { std::process::exit(1) }
}
