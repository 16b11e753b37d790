//! A complete GEMM kernel for gfx942, one for sm_90 and ones for RDNA, each a policy line
//! and an entry point: `C = A * B`, A (M x K) and B (K x N) in any of the
//! element types CK's universal GEMM takes (fp16, bf16, fp8, bf8, int8),
//! each row-major or column-major, C row-major in the accumulator's type
//! (`f32`; `i32` for int8) or, as CK's examples store it, in the inputs'
//! 16-bit type (the `_c16` entry points), all through the library's kernel body
//! (`ops::gemm::universal_gemm`: CK's universal GEMM, its data paths,
//! block GEMM and epilogue).
//!
//! - gfx942: CK's default policies, 2 x 2 warps of the 32x32x16 MFMA over
//!   128 x 128 x 32 for the 16-bit types, and of CK's 8-bit 32x32x32
//!   (two `v_mfma_*_32x32x16_{fp8,bf8,i8}`) over 128 x 128 x 64 for the
//!   8-bit ones (gfx942's fp8 and bf8 are the FNUZ formats: `Fp8Fnuz`,
//!   `Bf8Fnuz`); every tile row is 64 bytes either way;
//! - sm_90: the same tiles over NVIDIA's warp GEMM (`MmaSync`: each
//!   64-lane policy warp a pair of NVIDIA warps issuing
//!   `mma.sync.m16n8k16` for 16-bit elements, `m16n8k32` for OCP's fp8 and
//!   bf8 (`Fp8`, `Bf8`: e4m3, e5m2) and int8);
//! - gfx11 and gfx12 (RDNA3, RDNA4): the same tiles over their wave32
//!   WMMAs (`Wmma`: each policy warp a pair of waves), fp16, bf16 and
//!   int8, and on gfx12 OCP's fp8 and bf8 (the `gemm_gfx11_*` and
//!   `gemm_gfx12_*` entry points, built by `scripts/rdna-gemm.sh`).
//!
//! On the host, `main` runs every kernel's policy through the CPU
//! emulation (`ops::gemm::emulate_gemm`, the same library calls, each
//! instruction computed from its vendor's lane map) in every element type
//! each target takes and in all four layouts of A and B (CK's RCR, RRR,
//! CCR, CRR), on a shape padded along M, N and K with leading dimensions
//! that are no multiple of the vector, and compares C with a plain triple
//! loop:
//!
//! ```text
//! cargo run --example gemm_kernels
//! ```
//!
//! The LDS layouts these kernels store A and B in (CK's XOR blocks) are
//! designed and checked on the host in `examples/lds_design.rs`.
//!
//! The entry points are compiled for their GPUs inside `perf/kernels`,
//! which includes this file (`scripts/target-icount.sh` builds it for
//! gfx942 and sm_90); `gpu/sm90_gemm.sh` runs the sm_90 ones on an
//! NVIDIA GPU against cuBLAS (the performance chapter's "The whole GEMM on
//! sm_90"). Launch each with 256 threads, `ceil(m / 128) * ceil(n / 128)`
//! blocks and 16 KiB of dynamic shared memory (`(128 + 128) * 32` 16-bit
//! elements, `(128 + 128) * 64` 8-bit ones). The `_crr` entry points take
//! a column-major A (K x M in memory, M contiguous) and a row-major B (K x
//! N, N contiguous); `gemm_gfx942_fp16_v3` and `gemm_sm90_fp16_v3` run CK's
//! CompV3 pipeline (the next K tile's loads in flight during this tile's
//! block GEMM), the others the one-stage K loop. The `_cshuffle` entry
//! points store C through CK's CShuffle epilogue (an LDS tile of C's type
//! sharing the launch-sized memory: launch them with 32 KiB on gfx942,
//! `128 * 64` floats, and 16 KiB on sm_90, `128 * 32`; a 16-bit C's tile
//! is `128 * 64` halves on both, 16 KiB), the others with `Default2D`.
//! The `_c16` entry points take C as the inputs' 16-bit bits (fp16 or
//! bf16), each accumulator rounded once, to nearest even. The sm_90 fp8 entry point's `mma.sync` needs PTX ISA
//! 8.4 (`-Ctarget-feature=+ptx84`, as the scripts build it).

use cktile_core::ops::gemm::{
    BlockWarps, ColumnMajor, Gfx11, Gfx12, Mfma, MmaSync, RowMajor, UniversalGemmPolicy, Wmma,
};
use cktile_core::tile::{BufferGfx9, BufferGfx11, Plain};

/// gfx942, 16-bit elements `E` (fp16, bf16): 128 x 128 x 32 on 256
/// threads, 2 x 2 warps of the 32x32x16 MFMA, A laid out as `A` and B as
/// `B`, A and B read as CK reads them: through gfx9's buffer loads.
pub type Gfx942<E, A = RowMajor, B = ColumnMajor> =
    UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma<32, 32, 16, E>, A, B, BufferGfx9>;
/// gfx942, 8-bit elements `E` (`Fp8Fnuz`, `Bf8Fnuz`, `Int8`): 128 x 128 x
/// 64, 2 x 2 warps of the 8-bit 32x32x32 MFMA, through buffer loads.
pub type Gfx942x8<E, A = RowMajor, B = ColumnMajor> =
    UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Mfma<32, 32, 32, E>, A, B, BufferGfx9>;
/// sm_90, 16-bit elements: the same tiles, 2 x 2 pairs of warps of
/// `mma.sync.m16n8k16`, A and B read through `G`: `Plain` (each element
/// alone) or `Vectors` (a 16-byte vector whose address allows it in one
/// `ld.global.v4.b32`).
pub type Sm90<E, A = RowMajor, B = ColumnMajor, G = Plain> =
    UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, MmaSync<32, 16, 16, E>, A, B, G>;
/// sm_90, 8-bit elements (`Fp8`, `Bf8`, `Int8`): 128 x 128 x 64, 2 x 2
/// pairs of warps of `mma.sync.m16n8k32`, A and B read through `G`.
pub type Sm90x8<E, A = RowMajor, B = ColumnMajor, G = Plain> =
    UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, MmaSync<32, 16, 32, E>, A, B, G>;

/// RDNA3 (gfx11), 16-bit elements: the same tiles, 2 x 2 pairs of
/// wave32 waves of `v_wmma_*_16x16x16_*` (each wave 16 rows of a 32 x 32
/// x 16 warp tile, two WMMAs a K step), through gfx11's buffer loads (as
/// every RDNA policy here).
pub type Rdna3<E, A = RowMajor, B = ColumnMajor> =
    UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Wmma<32, 32, 16, E, Gfx11>, A, B, BufferGfx11>;
/// RDNA3, int8: 128 x 128 x 64 (64-byte rows, as the other 8-bit policies).
pub type Rdna3x8<E, A = RowMajor, B = ColumnMajor> =
    UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Wmma<32, 32, 16, E, Gfx11>, A, B, BufferGfx11>;
/// RDNA4 (gfx12), 16-bit elements: as [`Rdna3`] over gfx12's WMMA.
pub type Rdna4<E, A = RowMajor, B = ColumnMajor> =
    UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Wmma<32, 32, 16, E, Gfx12>, A, B, BufferGfx11>;
/// RDNA4, 8-bit elements (OCP's `Fp8`, `Bf8`, and `Int8`): 128 x 128 x 64.
pub type Rdna4x8<E, A = RowMajor, B = ColumnMajor> =
    UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Wmma<32, 32, 16, E, Gfx12>, A, B, BufferGfx11>;

/// The entry points: one line each over [`kernel`].
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
mod entry {
    use super::*;
    use cktile_core::ops::gemm::{
        AccOf, Bf16, BitsOf, CElement, CShuffle, Default2D, Fp16, GemmPolicy, GemmProblem, Int8, OneStage, Pipeline,
        universal_gemm_with,
    };

    /// The kernel body of policy `P`, pipeline `L`, C in type `C` and,
    /// with `SHUFFLE`, CK's CShuffle epilogue (else `Default2D`) over a
    /// packed `m x n x k` problem (each operand laid out as `P` says, its
    /// elements as their bits).
    #[inline(always)]
    #[allow(unsafe_code)]
    fn kernel<P: GemmPolicy, L: Pipeline, C: CElement<AccOf<P>>, const SHUFFLE: bool>(
        a: *const BitsOf<P>,
        b: *const BitsOf<P>,
        c: *mut C::Bits,
        m: u32,
        n: u32,
        k: u32,
    ) {
        let (m, n, k) = (m as usize, n as usize, k as usize);
        // SAFETY: launched with (MPerBlock + NPerBlock) x KPerBlock elements of dynamic shared
        // memory, A holding m x k elements, B k x n, C m x n (each thread writes its own).
        let (lds, a, b, c) = unsafe {
            (
                cktile_core::tile::gpu::workgroup_memory::<BitsOf<P>>(
                    (P::M_PER_BLOCK + P::N_PER_BLOCK) * P::K_PER_BLOCK,
                ),
                core::slice::from_raw_parts(a, m * k),
                core::slice::from_raw_parts(b, n * k),
                core::slice::from_raw_parts_mut(c, m * n),
            )
        };
        let problem = GemmProblem::packed_for::<P>(m, n, k);
        if SHUFFLE {
            // SAFETY: the CShuffle tile shares the launch-sized memory with `lds` (launched with
            // the larger of the two); the epilogue writes it only after the K loop's last barrier.
            let c_lds = unsafe {
                cktile_core::tile::gpu::workgroup_memory::<C::Bits>(CShuffle::<C::Bits>::lds_elements::<P>())
            };
            let _ = universal_gemm_with::<P, L, C, _>((a, b, c), problem, lds, CShuffle::new(c_lds));
        } else {
            let _ = universal_gemm_with::<P, L, C, _>((a, b, c), problem, lds, Default2D);
        }
    }

    /// Each entry point: its name, its policy, pipeline and epilogue, C's
    /// type, and the policy's element bits and C's (`BitsOf`,
    /// `CElement::Bits`), spelled as primitives for the kernel ABI.
    macro_rules! entry_points {
        ($($target:literal if $cfg:meta: $($name:ident = $policy:ty, $pipeline:ty, $epilogue:ident, $bits:ty => $c:ty as $c_bits:ty;)+)+) => {$($(
            #[doc = concat!("`", stringify!($policy), "` (", stringify!($pipeline), ", ", stringify!($epilogue), ", C in ", stringify!($c), ") on ", $target, ".")]
            #[cfg($cfg)]
            #[unsafe(no_mangle)]
            pub extern "gpu-kernel" fn $name(a: *const $bits, b: *const $bits, c: *mut $c_bits, m: u32, n: u32, k: u32) {
                kernel::<$policy, $pipeline, $c, { entry_points!(@shuffle $epilogue) }>(a, b, c, m, n, k)
            }
        )+)+};
        (@shuffle Default2D) => { false };
        (@shuffle CShuffle) => { true };
    }

    // The including crate (`perf/kernels`) builds gfx11's or gfx12's with its feature of that
    // name, for a CPU of that generation; gfx942's otherwise.
    entry_points! {
        "gfx942" if all(target_arch = "amdgpu", not(any(feature = "gfx11", feature = "gfx12"))):
            gemm_gfx942_fp16 = Gfx942<Fp16>, OneStage, Default2D, u16 => f32 as f32;
            gemm_gfx942_bf16 = Gfx942<Bf16>, OneStage, Default2D, u16 => f32 as f32;
            gemm_gfx942_fp16_crr = Gfx942<Fp16, ColumnMajor, RowMajor>, OneStage, Default2D, u16 => f32 as f32;
            gemm_gfx942_fp8 = Gfx942x8<cktile_core::ops::gemm::Fp8Fnuz>, OneStage, Default2D, u8 => f32 as f32;
            gemm_gfx942_int8 = Gfx942x8<Int8>, OneStage, Default2D, i8 => i32 as i32;
            gemm_gfx942_fp16_v3 = Gfx942<Fp16>, cktile_core::ops::gemm::CompV3, Default2D, u16 => f32 as f32;
            gemm_gfx942_fp16_cshuffle = Gfx942<Fp16>, OneStage, CShuffle, u16 => f32 as f32;
            gemm_gfx942_fp16_c16 = Gfx942<Fp16>, OneStage, Default2D, u16 => Fp16 as u16;
            gemm_gfx942_bf16_c16 = Gfx942<Bf16>, OneStage, Default2D, u16 => Bf16 as u16;
            gemm_gfx942_fp16_c16_cshuffle = Gfx942<Fp16>, OneStage, CShuffle, u16 => Fp16 as u16;
        "sm_90" if target_arch = "nvptx64":
            gemm_sm90_fp16 = Sm90<Fp16>, OneStage, Default2D, u16 => f32 as f32;
            gemm_sm90_bf16 = Sm90<Bf16>, OneStage, Default2D, u16 => f32 as f32;
            gemm_sm90_fp16_crr = Sm90<Fp16, ColumnMajor, RowMajor>, OneStage, Default2D, u16 => f32 as f32;
            gemm_sm90_fp8 = Sm90x8<cktile_core::ops::gemm::Fp8>, OneStage, Default2D, u8 => f32 as f32;
            gemm_sm90_int8 = Sm90x8<Int8>, OneStage, Default2D, i8 => i32 as i32;
            gemm_sm90_fp16_cshuffle = Sm90<Fp16>, OneStage, CShuffle, u16 => f32 as f32;
            gemm_sm90_fp16_v3 = Sm90<Fp16>, cktile_core::ops::gemm::CompV3, Default2D, u16 => f32 as f32;
            gemm_sm90_fp16_c16 = Sm90<Fp16>, OneStage, Default2D, u16 => Fp16 as u16;
            gemm_sm90_bf16_c16 = Sm90<Bf16>, OneStage, Default2D, u16 => Bf16 as u16;
            gemm_sm90_fp16_c16_cshuffle = Sm90<Fp16>, OneStage, CShuffle, u16 => Fp16 as u16;
            gemm_sm90_fp16_vectors = Sm90<Fp16, RowMajor, ColumnMajor, cktile_core::tile::Vectors>, OneStage, Default2D, u16 => f32 as f32;
            gemm_sm90_fp8_vectors = Sm90x8<cktile_core::ops::gemm::Fp8, RowMajor, ColumnMajor, cktile_core::tile::Vectors>, OneStage, Default2D, u8 => f32 as f32;
        "gfx11" if all(target_arch = "amdgpu", feature = "gfx11"):
            gemm_gfx11_fp16 = Rdna3<Fp16>, OneStage, Default2D, u16 => f32 as f32;
            gemm_gfx11_bf16 = Rdna3<Bf16>, OneStage, Default2D, u16 => f32 as f32;
            gemm_gfx11_fp16_crr = Rdna3<Fp16, ColumnMajor, RowMajor>, OneStage, Default2D, u16 => f32 as f32;
            gemm_gfx11_int8 = Rdna3x8<Int8>, OneStage, Default2D, i8 => i32 as i32;
            gemm_gfx11_fp16_v3 = Rdna3<Fp16>, cktile_core::ops::gemm::CompV3, Default2D, u16 => f32 as f32;
            gemm_gfx11_fp16_cshuffle = Rdna3<Fp16>, OneStage, CShuffle, u16 => f32 as f32;
            gemm_gfx11_fp16_c16 = Rdna3<Fp16>, OneStage, Default2D, u16 => Fp16 as u16;
        "gfx12" if all(target_arch = "amdgpu", feature = "gfx12"):
            gemm_gfx12_fp16 = Rdna4<Fp16>, OneStage, Default2D, u16 => f32 as f32;
            gemm_gfx12_bf16 = Rdna4<Bf16>, OneStage, Default2D, u16 => f32 as f32;
            gemm_gfx12_fp16_crr = Rdna4<Fp16, ColumnMajor, RowMajor>, OneStage, Default2D, u16 => f32 as f32;
            gemm_gfx12_fp8 = Rdna4x8<cktile_core::ops::gemm::Fp8>, OneStage, Default2D, u8 => f32 as f32;
            gemm_gfx12_int8 = Rdna4x8<Int8>, OneStage, Default2D, i8 => i32 as i32;
            gemm_gfx12_fp16_v3 = Rdna4<Fp16>, cktile_core::ops::gemm::CompV3, Default2D, u16 => f32 as f32;
            gemm_gfx12_fp16_cshuffle = Rdna4<Fp16>, OneStage, CShuffle, u16 => f32 as f32;
            gemm_gfx12_bf16_c16 = Rdna4<Bf16>, OneStage, Default2D, u16 => Bf16 as u16;
    }
}

/// Runs policy `P` on an `m x n x k` problem (elements of `P`'s type,
/// small integers: every sum exact in `f32` and `i32`) with C in type `C`,
/// each operand laid out as `P` says with `gap` elements past its
/// contiguous extent; returns how many elements of C differ from the
/// triple loop's (its exact sums converted to C's type as CK's
/// `type_convert` does).
#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
fn run<P: cktile_core::ops::gemm::GemmPolicy, L: cktile_core::ops::gemm::Pipeline, C>(
    (m, n, k): (usize, usize, usize),
    gap: usize,
    shuffle: bool,
) -> Result<usize, cktile::Error>
where
    C: cktile_core::ops::gemm::CElement<cktile_core::ops::gemm::AccOf<P>>,
{
    use cktile_core::ops::gemm::{
        AccOf, Accumulator, BitsOf, CShuffle, Default2D, ElementOf, GemmProblem, MfmaElement, OperandStorage,
        emulate_gemm_with,
    };
    // An operand seen as rows x K: its leading dimension, and where element (row, q) lies.
    let storage = |rows: usize, k_contiguous: bool| {
        let ld = if k_contiguous { k } else { rows } + gap;
        (ld, move |row: usize, q: usize| if k_contiguous { row * ld + q } else { q * ld + row })
    };
    let (a_ld, a_at) = storage(m, <P::AStorage as OperandStorage>::K_CONTIGUOUS);
    let (b_ld, b_at) = storage(n, <P::BStorage as OperandStorage>::K_CONTIGUOUS);
    let element = |v: usize, shift: usize| ElementOf::<P>::from_f32(v as f32 - shift as f32);
    let a: Vec<BitsOf<P>> = (0..m.max(k) * a_ld).map(|i| element((i * 7 + 3) % 11, 5)).collect();
    let b: Vec<BitsOf<P>> = (0..n.max(k) * b_ld).map(|i| element((i * 5 + 1) % 13, 6)).collect();
    let problem = GemmProblem { m, n, k, a_stride: a_ld, b_stride: b_ld, c_stride: n };
    // C starts as NaN in C's type (in `i32`, NaN's bits): an element no thread writes differs.
    let mut c = vec![C::from_acc(AccOf::<P>::from_bits(0x7fc0_0000)); m * n];
    if shuffle {
        let mut lds = vec![C::Bits::default(); CShuffle::<C::Bits>::lds_elements::<P>()];
        let epilogue = CShuffle::new(cktile_core::tile::SharedMemory::from_mut(&mut lds));
        emulate_gemm_with::<P, L, C, _>(&a, &b, &mut c, problem, epilogue)?;
    } else {
        emulate_gemm_with::<P, L, C, _>(&a, &b, &mut c, problem, Default2D)?;
    }
    // The triple loop in the accumulator (exact: small integers), converted once.
    let value = |x: BitsOf<P>| ElementOf::<P>::to_acc(x);
    let reference = |i: usize, j: usize| {
        let sum = (0..k).fold(AccOf::<P>::default(), |s, q| s.add(value(a[a_at(i, q)]).mul(value(b[b_at(j, q)]))));
        C::raw(C::from_acc(sum))
    };
    Ok((0..m * n).filter(|&x| C::raw(c[x]) != reference(x / n, x % n)).count())
}

#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
fn main() -> Result<(), cktile::Error> {
    use cktile_core::ops::gemm::{
        ALayout, AccOf, Accumulator, BLayout, Bf8, Bf8Fnuz, Bf16, CElement, Fp8, Fp8Fnuz, Fp16, GemmPolicy, Int8,
        MfmaElement,
    };
    // Padded along M, N and K (K a multiple of both vectors, 8 and 16 elements), with leading
    // dimensions that are no multiple of them.
    let (m, n, k, gap) = (200, 150, 80, 3);
    let mut wrong = 0;
    let mut report = |name: String, differ: usize| {
        println!("{name}: C = A * B, {m} x {n} x {k}: {differ} of {} elements differ", m * n);
        wrong += differ;
    };
    /// One policy of each of the four layouts: `$policy<E, A, B>` for element `E`, named `$what`.
    macro_rules! layouts {
        ($report:expr, $target:literal, $policy:ident, $what:literal, $($e:ty),+) => {$({
            fn one<P: GemmPolicy>(report: &mut impl FnMut(String, usize), a: &str, b: &str, shape: (usize, usize, usize), gap: usize) -> Result<(), cktile::Error> {
                type E<P> = cktile_core::ops::gemm::ElementOf<P>;
                let e = format!("{} ({:?})", <E<P> as MfmaElement>::NAME, <E<P> as MfmaElement>::KIND);
                let acc = <cktile_core::ops::gemm::AccOf<P> as Accumulator>::NAME;
                report(format!(concat!($target, " {} ", $what, ", C in {}, A {}, B {}"), e, acc, a, b), run::<P, cktile_core::ops::gemm::OneStage, cktile_core::ops::gemm::AccOf<P>>(shape, gap, false)?);
                Ok(())
            }
            let (row, column) = (<RowMajor as ALayout>::NAME, <ColumnMajor as BLayout>::NAME);
            one::<$policy<$e, RowMajor, ColumnMajor>>($report, row, column, (m, n, k), gap)?;
            one::<$policy<$e, RowMajor, RowMajor>>($report, row, row, (m, n, k), gap)?;
            one::<$policy<$e, ColumnMajor, ColumnMajor>>($report, column, column, (m, n, k), gap)?;
            one::<$policy<$e, ColumnMajor, RowMajor>>($report, column, row, (m, n, k), gap)?;
        })+};
    }
    layouts!(&mut report, "gfx942", Gfx942, "(MFMA 32x32x16)", Fp16, Bf16);
    layouts!(&mut report, "gfx942", Gfx942x8, "(MFMA 32x32x32)", Fp8Fnuz, Bf8Fnuz, Int8);
    layouts!(&mut report, "sm_90", Sm90, "(mma.sync m16n8k16)", Fp16, Bf16);
    layouts!(&mut report, "sm_90", Sm90x8, "(mma.sync m16n8k32)", Fp8, Bf8, Int8);
    layouts!(&mut report, "gfx11", Rdna3, "(WMMA 16x16x16, A and B twice a wave)", Fp16, Bf16);
    layouts!(&mut report, "gfx11", Rdna3x8, "(WMMA 16x16x16, A and B twice a wave)", Int8);
    layouts!(&mut report, "gfx12", Rdna4, "(WMMA 16x16x16)", Fp16, Bf16);
    layouts!(&mut report, "gfx12", Rdna4x8, "(WMMA 16x16x16)", Fp8, Bf8, Int8);
    // The `_v3` entry point: CK's CompV3 pipeline.
    use cktile_core::ops::gemm::CompV3;
    report(
        "gfx942 fp16_t (MFMA 32x32x16), CompV3, A row-major, B column-major".to_string(),
        run::<Gfx942<Fp16>, CompV3, f32>((m, n, k), gap, false)?,
    );
    report(
        "sm_90 fp16_t (mma.sync m16n8k16), CompV3, A row-major, B column-major".to_string(),
        run::<Sm90<Fp16>, CompV3, f32>((m, n, k), gap, false)?,
    );
    report(
        "gfx11 fp16_t (WMMA 16x16x16), CompV3, A row-major, B column-major".to_string(),
        run::<Rdna3<Fp16>, CompV3, f32>((m, n, k), gap, false)?,
    );
    report(
        "gfx12 fp16_t (WMMA 16x16x16), CompV3, A row-major, B column-major".to_string(),
        run::<Rdna4<Fp16>, CompV3, f32>((m, n, k), gap, false)?,
    );
    // The `_cshuffle` entry points: CK's CShuffle epilogue, and the other element types
    // through it, each in one layout.
    use cktile_core::ops::gemm::OneStage;
    let shuffled = "CShuffle epilogue, A row-major, B column-major";
    report(
        format!("gfx942 fp16_t (MFMA 32x32x16), {shuffled}"),
        run::<Gfx942<Fp16>, OneStage, f32>((m, n, k), gap, true)?,
    );
    report(
        format!("gfx942 int8_t (MFMA 32x32x32), {shuffled}"),
        run::<Gfx942x8<Int8>, OneStage, i32>((m, n, k), gap, true)?,
    );
    report(
        format!("gfx942 fp16_t (MFMA 32x32x16), CompV3, {shuffled}"),
        run::<Gfx942<Fp16>, CompV3, f32>((m, n, k), gap, true)?,
    );
    report(
        format!("sm_90 fp16_t (mma.sync m16n8k16), {shuffled}"),
        run::<Sm90<Fp16>, OneStage, f32>((m, n, k), gap, true)?,
    );
    report(
        format!("sm_90 fp8_t (Fp8) (mma.sync m16n8k32), {shuffled}"),
        run::<Sm90x8<Fp8>, OneStage, f32>((m, n, k), gap, true)?,
    );
    // The `_vectors` entry points: A and B through `Vectors` (on the host, the plain loads).
    report(
        "sm_90 fp16_t (mma.sync m16n8k16), Vectors, A row-major, B column-major".to_string(),
        run::<Sm90<Fp16, RowMajor, ColumnMajor, cktile_core::tile::Vectors>, OneStage, f32>((m, n, k), gap, false)?,
    );
    report(
        "sm_90 fp8_t (Fp8) (mma.sync m16n8k32), Vectors, A row-major, B column-major".to_string(),
        run::<Sm90x8<Fp8, RowMajor, ColumnMajor, cktile_core::tile::Vectors>, OneStage, f32>((m, n, k), gap, false)?,
    );
    report(
        format!("gfx11 fp16_t (WMMA 16x16x16), {shuffled}"),
        run::<Rdna3<Fp16>, OneStage, f32>((m, n, k), gap, true)?,
    );
    report(
        format!("gfx11 int8_t (WMMA 16x16x16), {shuffled}"),
        run::<Rdna3x8<Int8>, OneStage, i32>((m, n, k), gap, true)?,
    );
    report(
        format!("gfx12 fp16_t (WMMA 16x16x16), {shuffled}"),
        run::<Rdna4<Fp16>, OneStage, f32>((m, n, k), gap, true)?,
    );
    report(
        format!("gfx12 fp8_t (Fp8) (WMMA 16x16x16), {shuffled}"),
        run::<Rdna4x8<Fp8>, OneStage, f32>((m, n, k), gap, true)?,
    );
    // The `_c16` entry points: C in fp16 and in bf16, from every floating-point element type
    // of each target, through both epilogues (A row-major, B column-major).
    fn sixteen<P: GemmPolicy>(
        report: &mut impl FnMut(String, usize),
        what: &str,
        shape: (usize, usize, usize),
        gap: usize,
    ) -> Result<(), cktile::Error>
    where
        Fp16: CElement<AccOf<P>>,
        Bf16: CElement<AccOf<P>>,
    {
        let e = <cktile_core::ops::gemm::ElementOf<P> as MfmaElement>::NAME;
        for (epilogue, shuffle) in [("Default2D", false), ("CShuffle", true)] {
            let name = |c: &str| format!("{what} {e}, C in {c}, {epilogue}, A row-major, B column-major");
            report(name(Fp16::NAME), run::<P, OneStage, Fp16>(shape, gap, shuffle)?);
            report(name(Bf16::NAME), run::<P, OneStage, Bf16>(shape, gap, shuffle)?);
        }
        Ok(())
    }
    let shape = (m, n, k);
    sixteen::<Gfx942<Fp16>>(&mut report, "gfx942 (MFMA 32x32x16)", shape, gap)?;
    sixteen::<Gfx942<Bf16>>(&mut report, "gfx942 (MFMA 32x32x16)", shape, gap)?;
    sixteen::<Gfx942x8<Fp8Fnuz>>(&mut report, "gfx942 (MFMA 32x32x32)", shape, gap)?;
    sixteen::<Gfx942x8<Bf8Fnuz>>(&mut report, "gfx942 (MFMA 32x32x32)", shape, gap)?;
    sixteen::<Sm90<Fp16>>(&mut report, "sm_90 (mma.sync m16n8k16)", shape, gap)?;
    sixteen::<Sm90<Bf16>>(&mut report, "sm_90 (mma.sync m16n8k16)", shape, gap)?;
    sixteen::<Sm90x8<Fp8>>(&mut report, "sm_90 (mma.sync m16n8k32)", shape, gap)?;
    sixteen::<Sm90x8<Bf8>>(&mut report, "sm_90 (mma.sync m16n8k32)", shape, gap)?;
    sixteen::<Rdna3<Fp16>>(&mut report, "gfx11 (WMMA 16x16x16)", shape, gap)?;
    sixteen::<Rdna3<Bf16>>(&mut report, "gfx11 (WMMA 16x16x16)", shape, gap)?;
    sixteen::<Rdna4<Fp16>>(&mut report, "gfx12 (WMMA 16x16x16)", shape, gap)?;
    sixteen::<Rdna4<Bf16>>(&mut report, "gfx12 (WMMA 16x16x16)", shape, gap)?;
    sixteen::<Rdna4x8<Fp8>>(&mut report, "gfx12 (WMMA 16x16x16)", shape, gap)?;
    sixteen::<Rdna4x8<Bf8>>(&mut report, "gfx12 (WMMA 16x16x16)", shape, gap)?;
    if wrong == 0 { Ok(()) } else { std::process::exit(1) }
}
