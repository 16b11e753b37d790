//! Whole GEMM kernels on the CPU (`ops::gemm::emulate_gemm`): CK's
//! universal GEMM as the GPU runs it, every block's 64-lane waves
//! emulated, checked against a plain GEMM.
//!
//! Each block runs the library's calls in the kernel's order, its threads
//! one after another inside each stage (the stages are the kernel's
//! barriers): every thread's `OperandPath` loads its DRAM tiles of A and
//! B (padded to the block tile) and stores them into the block's LDS
//! (CK's XOR layout); every thread loads its block GEMM operands through
//! `block_window`; each wave runs `emulate_block_gemm` (AMD's MFMA lane
//! map, the instruction's semantics written independently of CK's
//! encodings); and every thread stores its accumulators through its C
//! window (`store_c_tile`, CK's `Default2DEpilogue`). C starts as a
//! sentinel (NaN in `f32`, its bits in `i32`), so an element no thread
//! writes fails, as does one written with a wrong value; the inputs are
//! small integers, so every sum is exact in `f32` and the comparison is
//! exact. C's row stride is past its columns, and the gap must keep the
//! sentinel.
//!
//! Every warp GEMM (16-bit: 32x32x8, 32x32x16, 16x16x16, 16x16x32; 8-bit:
//! 32x32x16, 32x32x32, 16x16x32, 16x16x64; `mma.sync` m16n8k16 and
//! m16n8k32), every element type (fp16, bf16; fp8 and bf8 in gfx942's
//! FNUZ formats and OCP's; int8, summed in `i32`), several block tiles and
//! warp layouts, and all four layouts of A and B (K-contiguous or
//! rows-contiguous); shapes that fill the tiles, pad M, N and K, and drawn
//! at random (proptest), with leading dimensions that are no multiple of
//! the vector.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::ops::gemm::{
    ABlockTensor, ALayout, AccOf, Accumulator, BBlockTensor, BLayout, Bf8, Bf8Fnuz, Bf16, BitsOf, BlockWarps,
    CBlockTensor, CElement, CShuffle, ColumnMajor, CompV3, Default2D, ElementOf, Fp8, Fp8Fnuz, Fp16, GemmPolicy,
    GemmProblem, Gfx11, Gfx12, Int8, Mfma, MfmaElement, MmaSync, OneStage, OperandStorage, Pipeline, RowMajor,
    UniversalGemmPolicy, Wmma, emulate_block_gemm, emulate_gemm, emulate_gemm_with, make_c_dram_view,
};
use cktile::tile::SharedMemory;

/// C's initial bits: NaN as an `f32`; as an `i32`, a value no sum of the
/// tests' reaches.
const UNWRITTEN: u32 = 0x7fc0_0000;
use proptest::prelude::*;

/// Runs policy `P` over `shape` with small integers drawn from `seed`
/// (in the leading dimension's gap, a value that would spoil any sum
/// that read it), each operand laid out as `P`'s layouts say, and
/// compares C with a triple loop element by element.
fn check<P: GemmPolicy>(name: &str, shape: Shape, seed: u64) {
    check_with::<P, OneStage>(name, shape, seed, false)
}

/// [`check`] with the K loop of pipeline `L`, and CK's CShuffle epilogue
/// when `shuffle` (else `Default2D`).
fn check_with<P: GemmPolicy, L: Pipeline>(name: &str, shape: Shape, seed: u64, shuffle: bool) {
    check_c::<P, L, AccOf<P>>(name, shape, seed, shuffle)
}

/// [`check_with`] with C in type `C`: the triple loop's exact sums
/// converted once, as CK's `type_convert` does, compared bit for bit (C
/// starts as the sentinel converted to C's type: NaN in a float).
fn check_c<P: GemmPolicy, L: Pipeline, C: CElement<AccOf<P>>>(name: &str, shape: Shape, seed: u64, shuffle: bool) {
    let Shape { m, n, k, gap } = shape;
    let c_stride = n + 3;
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    // An operand seen as rows x K: its leading dimension, its elements, and where (row, q) lies.
    let mut operand = |rows: usize, k_contiguous: bool| {
        let (inner, outer) = if k_contiguous { (k, rows) } else { (rows, k) };
        let ld = inner + gap;
        let data: Vec<BitsOf<P>> = (0..outer * ld)
            .map(|i| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let v = if i % ld < inner { (state % 9) as f32 - 4.0 } else { 1.0e4 };
                ElementOf::<P>::from_f32(v)
            })
            .collect();
        let at = move |row: usize, q: usize| if k_contiguous { row * ld + q } else { q * ld + row };
        (ld, data, at)
    };
    let (a_ld, a, a_at) = operand(m, <P::AStorage as OperandStorage>::K_CONTIGUOUS);
    let (b_ld, b, b_at) = operand(n, <P::BStorage as OperandStorage>::K_CONTIGUOUS);
    let value = |x: BitsOf<P>| ElementOf::<P>::to_acc(x);
    let problem = GemmProblem { m, n, k, a_stride: a_ld, b_stride: b_ld, c_stride };
    let unwritten = C::from_acc(AccOf::<P>::from_bits(UNWRITTEN));
    let mut c = vec![unwritten; m * c_stride];
    let run = if shuffle {
        let mut lds = vec![C::Bits::default(); CShuffle::<C::Bits>::lds_elements::<P>()];
        emulate_gemm_with::<P, L, C, _>(&a, &b, &mut c, problem, CShuffle::new(SharedMemory::from_mut(&mut lds)))
    } else {
        emulate_gemm_with::<P, L, C, _>(&a, &b, &mut c, problem, Default2D)
    };
    run.unwrap_or_else(|e| panic!("{name} {shape:?}: {e}"));
    let mut wrong = 0;
    for i in 0..m {
        for j in 0..n {
            // Small integers: every partial sum exact in the accumulator.
            let sum = (0..k).fold(AccOf::<P>::default(), |s, q| s.add(value(a[a_at(i, q)]).mul(value(b[b_at(j, q)]))));
            let (want, got) = (C::from_acc(sum), c[i * c_stride + j]);
            if C::raw(got) == C::raw(unwritten) || C::raw(got) != C::raw(want) {
                wrong += 1;
                assert!(wrong > 3, "{name} {shape:?}: C({i}, {j}) = {got:?}, not {want:?} ({sum:?})");
            }
        }
        let gap = &c[i * c_stride + n..(i + 1) * c_stride];
        assert!(gap.iter().all(|&x| C::raw(x) == C::raw(unwritten)), "{name}: C's stride gap written");
    }
    assert_eq!(wrong, 0, "{name} {shape:?}: {wrong} of {} elements wrong", m * n);
}

/// 128 x 128 x 32 on 256 threads, 2 x 2 warps of 32x32x16 (CK's default).
type Default128 = UniversalGemmPolicy<256, 128, 128, 32>;
/// The same in bf16.
type Default128Bf16 = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma<32, 32, 16, Bf16>>;
/// 32x32x8 (one instruction a warp GEMM), A and B tiles of different sizes.
type Wide = UniversalGemmPolicy<256, 128, 256, 32, BlockWarps<2, 2>, Mfma<32, 32, 8>>;
/// 16x16x32 on 128 threads, 2 x 1 warps.
type Small16 = UniversalGemmPolicy<128, 64, 64, 32, BlockWarps<2, 1>, Mfma<16, 16, 32>>;
/// 16x16x16 in bf16, 4 x 1 warps, K 64.
type Tall16 = UniversalGemmPolicy<256, 256, 128, 64, BlockWarps<4, 1>, Mfma<16, 16, 16, Bf16>>;
/// One wave: 64 threads, 32x32x8 in fp16 over 32 x 64 x 32.
type OneWave = UniversalGemmPolicy<64, 32, 64, 32, BlockWarps<1, 1>, Mfma<32, 32, 8, Fp16>>;

/// NVIDIA's: 128 x 128 x 32 on 256 threads (8 NVIDIA warps), 2 x 2 pairs
/// of warps of mma.sync, 32 x 16 warp tiles (the sm_90 kernel's).
type Mma128 = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, MmaSync<32, 16, 16>>;
/// One instruction a warp tile (32 x 8), 4 x 1 pairs, K tiles of 64, in bf16.
type Mma8 = UniversalGemmPolicy<256, 128, 64, 64, BlockWarps<4, 1>, MmaSync<32, 8, 16, Bf16>>;
/// Four (32 x 32), one pair of warps.
type Mma32 = UniversalGemmPolicy<64, 64, 64, 32, BlockWarps<1, 1>, MmaSync<32, 32, 16>>;

/// gfx942's 8-bit MFMAs: CK's fp8 configuration, 128 x 128 x 64, 2 x 2
/// warps of 32x32x32 (two v_mfma_f32_32x32x16_fp8_fp8 along K), in `E`.
type Mfma8<E> = UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Mfma<32, 32, 32, E>>;
/// One 8-bit MFMA a warp GEMM (16x16x32), 2 x 1 warps, K tiles of 64.
type Mfma8Small<E> = UniversalGemmPolicy<128, 64, 64, 64, BlockWarps<2, 1>, Mfma<16, 16, 32, E>>;
/// NVIDIA's 8-bit `mma.sync.m16n8k32`: 128 x 128 x 64, 32 x 16 warp tiles.
type MmaSync8<E> = UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, MmaSync<32, 16, 32, E>>;
/// One instruction a warp tile (32 x 8 x 32), 1 x 1 pair, int8.
type MmaSync8One = UniversalGemmPolicy<64, 32, 64, 32, BlockWarps<1, 1>, MmaSync<32, 8, 32, Int8>>;

/// A GEMM's sizes; each operand's leading dimension is its contiguous
/// extent (K, or its rows) plus `gap`.
#[derive(Clone, Copy, Debug)]
struct Shape {
    m: usize,
    n: usize,
    k: usize,
    gap: usize,
}

/// Exact tiles, then padding along M, N, K and all three, with leading
/// dimensions that are no multiple of the vector (8 elements, 16 of the
/// 8-bit types), down to a single element of C.
fn fixed_shapes<P: GemmPolicy>(name: &str) {
    fixed_shapes_with::<P, OneStage>(name, false)
}

/// [`fixed_shapes`] with the K loop of pipeline `L`, through the CShuffle
/// epilogue when `shuffle`.
fn fixed_shapes_with<P: GemmPolicy, L: Pipeline>(name: &str, shuffle: bool) {
    fixed_shapes_c::<P, L, AccOf<P>>(name, shuffle)
}

/// [`fixed_shapes_with`] with C in type `C`.
fn fixed_shapes_c<P: GemmPolicy, L: Pipeline, C: CElement<AccOf<P>>>(name: &str, shuffle: bool) {
    let (bm, bn, bk, v) = (P::M_PER_BLOCK, P::N_PER_BLOCK, P::K_PER_BLOCK, P::VECTOR);
    let shapes = [
        Shape { m: bm, n: bn, k: bk, gap: 0 },
        Shape { m: bm + 3, n: bn, k: 2 * bk, gap: 5 },
        Shape { m: bm, n: 2 * bn - 7, k: bk + v, gap: 0 },
        Shape { m: 2 * bm - 1, n: bn + 9, k: 3 * bk - v, gap: 9 },
        Shape { m: 5, n: 3, k: v, gap: 3 },
        Shape { m: 1, n: 1, k: v, gap: 0 },
    ];
    for (seed, shape) in shapes.into_iter().enumerate() {
        check_c::<P, L, C>(name, shape, seed as u64, shuffle);
    }
}

/// CK's CompV3 pipeline (the next K tile's loads in flight during this
/// tile's block GEMM, one LDS stage): the same C over one K tile, two and
/// more (the fixed shapes have 1, 2 and 3), on both vendors' warp GEMMs,
/// 16- and 8-bit, and a rows-contiguous layout.
#[test]
fn the_comp_v3_pipeline() {
    fixed_shapes_with::<Default128, CompV3>("128x128x32, 32x32x16 fp16, CompV3", false);
    fixed_shapes_with::<Mma128, CompV3>("128x128x32, mma.sync fp16, CompV3", false);
    fixed_shapes_with::<Mfma8<Int8>, CompV3>("128x128x64, 32x32x32 int8, CompV3", false);
    fixed_shapes_with::<MmaLaid<ColumnMajor, RowMajor>, CompV3>("A column, B row, mma.sync bf16, CompV3", false);
    check_with::<Small16, CompV3>(
        "64x64x32, 16x16x32 fp16, CompV3",
        Shape { m: 70, n: 65, k: 32 * 7 + 8, gap: 1 },
        11,
        false,
    );
}

/// Eight waves (512 threads, 2 x 4 warps): CK's CShuffle then takes all
/// of a warp's N tiles at once.
type EightWaves = UniversalGemmPolicy<512, 256, 256, 32, BlockWarps<2, 4>>;

/// CK's CShuffle epilogue: the same C through its LDS tiles, on every
/// shape of shuffle tile (two warp tiles along M, one, a warp's N tiles
/// at once), both vendors' warp GEMMs, `f32` and `i32` C, both
/// pipelines, a rows-contiguous layout; C's columns no multiple of its
/// 4-element vector (the fixed shapes' 2N - 7 and N + 9, and 5 and 1).
#[test]
fn the_cshuffle_epilogue() {
    fixed_shapes_with::<Default128, OneStage>("128x128x32, 32x32x16 fp16, CShuffle", true);
    fixed_shapes_with::<Small16, OneStage>("64x64x32, 16x16x32 fp16, CShuffle", true);
    fixed_shapes_with::<Wide, OneStage>("128x256x32, 32x32x8 fp16, CShuffle", true);
    fixed_shapes_with::<OneWave, OneStage>("32x64x32 on 64, CShuffle", true);
    fixed_shapes_with::<Mma128, OneStage>("128x128x32, mma.sync fp16, CShuffle", true);
    fixed_shapes_with::<Mma8, OneStage>("128x64x64, mma.sync 32x8 bf16, CShuffle", true);
    fixed_shapes_with::<Mfma8<Int8>, OneStage>("128x128x64, 32x32x32 int8, CShuffle", true);
    fixed_shapes_with::<MmaSync8<Fp8>, CompV3>("128x128x64, mma.sync fp8, CompV3, CShuffle", true);
    fixed_shapes_with::<Laid<ColumnMajor, RowMajor>, CompV3>("A column, B row, CompV3, CShuffle", true);
    check_with::<EightWaves, OneStage>("eight waves, CShuffle", Shape { m: 300, n: 270, k: 40, gap: 2 }, 12, true);
}

/// C in a type other than the accumulator's (CK's `CDataType`): fp16 and
/// bf16 from every floating-point element type, and the 8-bit floats,
/// each accumulator rounded once, through both epilogues (the CShuffle
/// tile then holds C's type, its vector 8 elements of a 16-bit C and 16
/// of an 8-bit one), on both vendors' warp GEMMs, both pipelines and a
/// rows-contiguous layout, on the fixed shapes (C's columns no multiple
/// of the vector among them).
#[test]
fn c_in_another_type() {
    for shuffle in [false, true] {
        let e = if shuffle { "CShuffle" } else { "Default2D" };
        fixed_shapes_c::<Default128, OneStage, Fp16>(&format!("32x32x16 fp16, C in fp16, {e}"), shuffle);
        fixed_shapes_c::<Default128Bf16, OneStage, Bf16>(&format!("32x32x16 bf16, C in bf16, {e}"), shuffle);
        fixed_shapes_c::<Small16, CompV3, Bf16>(&format!("16x16x32 fp16, CompV3, C in bf16, {e}"), shuffle);
        fixed_shapes_c::<Mma128, OneStage, Fp16>(&format!("mma.sync fp16, C in fp16, {e}"), shuffle);
        fixed_shapes_c::<Mma8, CompV3, Fp16>(&format!("mma.sync 32x8 bf16, CompV3, C in fp16, {e}"), shuffle);
        fixed_shapes_c::<Mfma8<Fp8Fnuz>, OneStage, Fp16>(&format!("32x32x32 fp8, C in fp16, {e}"), shuffle);
        fixed_shapes_c::<MmaSync8<Bf8>, OneStage, Bf16>(&format!("mma.sync bf8, C in bf16, {e}"), shuffle);
        fixed_shapes_c::<Laid<ColumnMajor, RowMajor>, OneStage, Fp16>(
            &format!("A column, B row, C in fp16, {e}"),
            shuffle,
        );
        // 8-bit C: saturating (the sums pass 240 and 448), one byte a store.
        fixed_shapes_c::<Default128, OneStage, Fp8Fnuz>(&format!("32x32x16 fp16, C in fp8 (FNUZ), {e}"), shuffle);
        fixed_shapes_c::<Mma128, OneStage, Fp8>(&format!("mma.sync fp16, C in fp8 (e4m3), {e}"), shuffle);
    }
}

/// A 16-bit C is rounded to nearest, ties to even, once, after the sum:
/// sums a half cannot hold (odd values past 2048, ties among them) and
/// one past its largest finite value (to infinity), and the same sums in
/// bf16 (8 significant bits). Through both epilogues.
#[test]
fn a_16_bit_c_is_rounded_once() {
    type P = UniversalGemmPolicy<64, 32, 64, 32, BlockWarps<1, 1>, Mfma<32, 32, 8, Fp16>>;
    let (m, n, k) = (32, 64, 8);
    // C(i, j) = 64 (32 + j) + (i + 1), and 1024 * 64 more in the last row: every operand exact
    // in fp16, every sum exact in f32.
    let a_at = |i: usize, q: usize| match q {
        0 => 64.0,
        1 => (i + 1) as f32,
        2 if i == m - 1 => 1024.0,
        _ => 0.0,
    };
    let b_at = |j: usize, q: usize| [(32 + j) as f32, 1.0, 64.0].get(q).copied().unwrap_or(0.0);
    let a: Vec<u16> = (0..m * k).map(|x| Fp16::from_f32(a_at(x / k, x % k))).collect();
    let b: Vec<u16> = (0..n * k).map(|x| Fp16::from_f32(b_at(x / k, x % k))).collect();
    let exact = |x: usize| (0..k).map(|q| a_at(x / n, q) * b_at(x % n, q)).sum::<f32>();
    let problem = GemmProblem::packed(m, n, k);
    for shuffle in [false, true] {
        let (mut half, mut bf) = (vec![0u16; m * n], vec![0u16; m * n]);
        let mut lds = vec![0u16; CShuffle::<u16>::lds_elements::<P>()];
        if shuffle {
            let epilogue = CShuffle::new(SharedMemory::from_mut(&mut lds));
            emulate_gemm_with::<P, OneStage, Fp16, _>(&a, &b, &mut half, problem, epilogue).unwrap();
            emulate_gemm_with::<P, OneStage, Bf16, _>(&a, &b, &mut bf, problem, epilogue).unwrap();
        } else {
            emulate_gemm_with::<P, OneStage, Fp16, _>(&a, &b, &mut half, problem, Default2D).unwrap();
            emulate_gemm_with::<P, OneStage, Bf16, _>(&a, &b, &mut bf, problem, Default2D).unwrap();
        }
        // 2049 ties 2048 and 2050: to 2048 (even); 2050 is a half; 2051 ties 2050 and 2052: 2052.
        assert_eq!((half[0], half[n], half[2 * n]), (0x6800, 0x6801, 0x6802));
        // The last row is past 65520: infinity.
        assert_eq!(exact((m - 1) * n), 65536.0 + 2048.0 + 32.0);
        assert_eq!(half[(m - 1) * n], 0x7c00);
        // bf16 keeps 8 bits: 2049 and 2056 (a tie of 2048 and 2064) are 2048, 2057 is 2064.
        assert_eq!((bf[0], bf[7 * n], bf[8 * n]), (0x4500, 0x4500, 0x4501));
        for x in 0..m * n {
            assert_eq!(half[x], Fp16::from_f32(exact(x)), "C({}, {}) = {}", x / n, x % n, exact(x));
            assert_eq!(bf[x], Bf16::from_f32(exact(x)), "C({}, {}) = {}", x / n, x % n, exact(x));
        }
    }
}

/// A CShuffle LDS tile shorter than the shuffle tile is refused before
/// anything runs, naming its length.
#[test]
fn a_short_cshuffle_tile_is_refused() {
    let (a, b) = (vec![0u16; 64 * 32], vec![0u16; 64 * 32]);
    let mut c = vec![0f32; 64 * 64];
    let mut lds = vec![0f32; 128 * 64 - 1];
    let shuffle = CShuffle::new(SharedMemory::from_mut(&mut lds));
    let e = emulate_gemm_with::<Default128, OneStage, f32, _>(&a, &b, &mut c, GemmProblem::packed(64, 64, 32), shuffle)
        .unwrap_err()
        .to_string();
    assert!(e.ends_with("(lds.len() = 8191; at least 8192)"), "{e}");
    assert!(c.iter().all(|&x| x == 0.0));
}

/// C's view names what it refuses and the least that would do: a row
/// stride below the columns, a buffer short of its last row.
#[test]
fn c_views_name_the_least_that_would_do() {
    let mut c = vec![0f32; 10 * 12];
    let e = make_c_dram_view::<128, 128, _>(&mut c, 10, 12, 11).unwrap_err().to_string();
    assert_eq!(e, "C's row stride must be at least its columns (stride = 11; at least 12)");
    let e = make_c_dram_view::<128, 128, _>(&mut c, 10, 12, 13).unwrap_err().to_string();
    assert_eq!(e, "C's buffer must hold (rows - 1) * stride + cols elements (len = 120; at least 129)");
    // Exactly the least is accepted.
    let mut c = vec![0f32; 9 * 13 + 12];
    assert!(make_c_dram_view::<128, 128, _>(&mut c, 10, 12, 13).is_ok());
    // No rows, or a last row past 64 bits: the descriptor's builder refuses first, naming them.
    let e = make_c_dram_view::<128, 128, _>(&mut c, 0, 12, 13).unwrap_err().to_string();
    assert_eq!(e, "naive: lengths[0] is 0; every length must be at least 1");
    let e = make_c_dram_view::<128, 128, _>(&mut c, 3, 12, usize::MAX / 2).unwrap_err().to_string();
    assert!(e.starts_with("the element space size is 18446744073709551626"), "{e}");
}

#[test]
fn cks_default_gemm_in_fp16_and_bf16() {
    fixed_shapes::<Default128>("128x128x32, 32x32x16 fp16");
    fixed_shapes::<Default128Bf16>("128x128x32, 32x32x16 bf16");
}

#[test]
fn every_warp_gemm() {
    fixed_shapes::<Wide>("128x256x32, 32x32x8 fp16");
    fixed_shapes::<Small16>("64x64x32 on 128, 16x16x32 fp16");
    fixed_shapes::<Tall16>("256x128x64, 4 x 1 warps of 16x16x16 bf16");
    fixed_shapes::<OneWave>("32x64x32 on 64, 32x32x8 fp16");
}

/// gfx942's 8-bit MFMAs: fp8 and bf8 (FNUZ) and int8 (summed in `i32`),
/// one instruction a warp GEMM and CK's `IterateK` pair.
#[test]
fn eight_bit_mfmas() {
    fixed_shapes::<Mfma8<Fp8Fnuz>>("128x128x64, 32x32x32 fp8 (FNUZ)");
    fixed_shapes::<Mfma8<Bf8Fnuz>>("128x128x64, 32x32x32 bf8 (FNUZ)");
    fixed_shapes::<Mfma8<Int8>>("128x128x64, 32x32x32 int8");
    fixed_shapes::<Mfma8Small<Int8>>("64x64x64 on 128, 16x16x32 int8");
    fixed_shapes::<Mfma8Small<Fp8Fnuz>>("64x64x64 on 128, 16x16x32 fp8 (FNUZ)");
}

/// NVIDIA's 8-bit `mma.sync.m16n8k32`: OCP's fp8 (e4m3) and bf8 (e5m2),
/// and int8.
#[test]
fn eight_bit_mma_sync() {
    fixed_shapes::<MmaSync8<Fp8>>("128x128x64, mma.sync 32x16x32 fp8 (e4m3)");
    fixed_shapes::<MmaSync8<Bf8>>("128x128x64, mma.sync 32x16x32 bf8 (e5m2)");
    fixed_shapes::<MmaSync8<Int8>>("128x128x64, mma.sync 32x16x32 int8");
    fixed_shapes::<MmaSync8One>("32x64x32 on 64, mma.sync 32x8x32 int8");
}

/// An 8-bit K-contiguous operand's K must be a multiple of its 16-element
/// vector: 40 is refused, naming it.
#[test]
fn an_8_bit_k_off_the_vector_is_refused() {
    let a = vec![0u8; 50 * 40];
    let mut c = vec![0f32; 50 * 50];
    let e = emulate_gemm::<Mfma8<Fp8Fnuz>>(&a, &a, &mut c, GemmProblem::packed(50, 50, 40)).unwrap_err().to_string();
    assert!(e.contains("length 40, not a multiple of the guaranteed vector length 16"), "{e}");
}

/// NVIDIA's warp GEMM (`mma.sync.m16n8k16`, the PTX ISA's lane map) under
/// the same policies: every N (8, 16, 32), fp16 and bf16.
#[test]
fn nvidias_warp_gemm() {
    fixed_shapes::<Mma128>("128x128x32, mma.sync 32x16x16 fp16");
    fixed_shapes::<Mma8>("128x64x64, 4 x 1 pairs of mma.sync 32x8x16 bf16");
    fixed_shapes::<Mma32>("64x64x32 on 64, mma.sync 32x32x16 fp16");
}

/// RDNA's warp GEMMs (gfx11's and gfx12's wave32 WMMAs, CK's traits'
/// lane maps; each policy warp a pair of waves) over the same policies, a
/// 16-bit and an 8-bit type on each generation (`examples/gemm_kernels.rs`
/// runs every element type in every layout, and the random shapes below
/// bf16 and bf8).
type Rdna<const N: usize, E, G> = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Wmma<32, N, 16, E, G>>;
/// The 8-bit ones: 128 x 128 x 64.
type Rdna8<E, G> = UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Wmma<32, 32, 16, E, G>>;

#[test]
fn rdnas_warp_gemm() {
    fixed_shapes::<Rdna<32, Fp16, Gfx11>>("128x128x32, gfx11 WMMA 32x32x16 fp16");
    fixed_shapes::<Rdna<64, Fp16, Gfx12>>("128x128x32, gfx12 WMMA 32x64x16 fp16");
    fixed_shapes::<Rdna8<Int8, Gfx11>>("128x128x64, gfx11 WMMA int8");
    fixed_shapes::<Rdna8<Fp8, Gfx12>>("128x128x64, gfx12 WMMA fp8 (e4m3)");
    fixed_shapes_with::<Rdna<32, Fp16, Gfx11>, CompV3>("gfx11 WMMA fp16, CompV3, CShuffle", true);
}

/// gfx11's WMMA holds A and B once per half-wave (the hardware's
/// requirement: both copies the same), and the emulation reads each
/// half-wave's own copy, so that a copy the data path got wrong shows in
/// C. Row 21 of A (the second wave's row 5) lies in lanes 37 and 53; C's
/// row 21 is odd in its wave, held by the second half-wave (accumulator
/// `r` of lane `l` is row `2 r + l / 16`), which reads lane 53's copy: one
/// element changed there changes that row in all 32 columns, changed in
/// lane 37 changes nothing.
#[test]
fn gfx11_reads_each_half_waves_copy() {
    type P = UniversalGemmPolicy<64, 32, 32, 16, BlockWarps<1, 1>, Wmma<32, 32, 16, Fp16, Gfx11>>;
    let one = Fp16::from_f32(1.0);
    let (a, b) = (vec![ABlockTensor::<P>::filled(one); 64], vec![BBlockTensor::<P>::filled(one); 64]);
    let mut base = vec![CBlockTensor::<P>::filled(0.0); 64];
    emulate_block_gemm::<P>(&mut base, &a, &b).unwrap();
    assert!(base.iter().all(|t| t.thread_buffer().iter().all(|&x| x == 16.0)));
    let w = cktile::ops::gemm::WmmaInstruction::of(cktile::distribution::catalogue::wmma::Rdna::Gfx11).unwrap();
    for (copies, want) in [(&[37usize][..], 0), (&[53], 32), (&[37, 53], 32)] {
        let mut bumped = a.clone();
        for &lane in copies {
            // Register 3 of lanes 37 and 53 is row 21's K 3.
            bumped[lane].thread_buffer_mut()[3] = Fp16::from_f32(4.0);
        }
        let mut c = vec![CBlockTensor::<P>::filled(0.0); 64];
        emulate_block_gemm::<P>(&mut c, &bumped, &b).unwrap();
        let mut changed = 0;
        for (lane, t) in c.iter().enumerate() {
            for (r, &x) in t.thread_buffer().iter().enumerate() {
                // Registers 0..8 are the first WMMA's (columns 0..16), 8..16 the second's.
                let (row, _) = w.c_element(lane % 32, r % 8);
                let hit = lane >= 32 && row == 5 && copies.contains(&53);
                assert_eq!(x, if hit { 16.0 + 3.0 } else { 16.0 }, "copies {copies:?}, lane {lane}, register {r}");
                changed += usize::from(hit);
            }
        }
        assert_eq!(changed, want, "copies {copies:?}");
    }
}

/// 128 x 128 x 32 with A and B laid out as `A` and `B` say, over AMD's
/// warp GEMM and NVIDIA's.
type Laid<A, B> = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma<32, 32, 16>, A, B>;
type MmaLaid<A, B> = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, MmaSync<32, 16, 16, Bf16>, A, B>;
/// The 8-bit ones: fp8 on AMD's, int8 on NVIDIA's.
type Laid8<A, B> = UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Mfma<32, 32, 32, Fp8Fnuz>, A, B>;
type MmaLaid8<A, B> = UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, MmaSync<32, 16, 32, Int8>, A, B>;
/// RDNA's: fp16 on gfx11's WMMA, int8 on gfx12's.
type RdnaLaid<A, B> = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Wmma<32, 32, 16, Fp16, Gfx11>, A, B>;
type RdnaLaid8<A, B> = UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Wmma<32, 32, 16, Int8, Gfx12>, A, B>;

/// The four layouts of A and B (CK's RCR, RRR, CCR, CRR), on both
/// vendors' warp GEMMs; where neither operand is K-contiguous, K need not
/// be a multiple of the vector (13 and 45 here).
#[test]
fn every_layout() {
    fn both<A: ALayout, B: BLayout>() {
        let name = format!("A {}, B {}", A::NAME, B::NAME);
        fixed_shapes::<Laid<A, B>>(&format!("{name}, 32x32x16 fp16"));
        fixed_shapes::<MmaLaid<A, B>>(&format!("{name}, mma.sync bf16"));
        fixed_shapes::<Laid8<A, B>>(&format!("{name}, 32x32x32 fp8 (FNUZ)"));
        fixed_shapes::<MmaLaid8<A, B>>(&format!("{name}, mma.sync int8"));
        fixed_shapes::<RdnaLaid<A, B>>(&format!("{name}, gfx11 WMMA fp16"));
        if !<A::Storage as OperandStorage>::K_CONTIGUOUS && !<B::Storage as OperandStorage>::K_CONTIGUOUS {
            check::<Laid<A, B>>(&name, Shape { m: 130, n: 77, k: 13, gap: 2 }, 7);
            check::<MmaLaid<A, B>>(&name, Shape { m: 3, n: 200, k: 45, gap: 0 }, 8);
            check::<Laid8<A, B>>(&name, Shape { m: 70, n: 129, k: 21, gap: 1 }, 9);
            check::<MmaLaid8<A, B>>(&name, Shape { m: 131, n: 5, k: 77, gap: 4 }, 10);
            check::<RdnaLaid<A, B>>(&name, Shape { m: 60, n: 140, k: 29, gap: 3 }, 11);
            check::<RdnaLaid8<A, B>>(&name, Shape { m: 129, n: 33, k: 71, gap: 2 }, 12);
        }
    }
    both::<RowMajor, ColumnMajor>();
    both::<RowMajor, RowMajor>();
    both::<ColumnMajor, ColumnMajor>();
    both::<ColumnMajor, RowMajor>();
}

/// A leading dimension below the contiguous extent is refused, naming it.
#[test]
fn a_short_leading_dimension_is_refused() {
    let a = vec![0u16; 64 * 100];
    let mut c = vec![0f32; 100 * 100];
    let problem = GemmProblem { m: 100, n: 100, k: 64, a_stride: 99, b_stride: 64, c_stride: 100 };
    let e = emulate_gemm::<Laid<ColumnMajor, ColumnMajor>>(&a, &a, &mut c, problem).unwrap_err().to_string();
    assert!(e.contains("leading dimension") && e.contains("99"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Random shapes (K a multiple of the vector, any leading dimension past it).
    #[test]
    fn random_shapes(m in 1usize..200, n in 1usize..200, k8 in 1usize..12, gap in 0usize..13, seed: u64, which in 0usize..13) {
        let shape = Shape { m, n, k: 8 * k8, gap };
        let shape16 = Shape { k: 16 * k8.div_ceil(2), ..shape };
        match which {
            0 => check::<Default128>("128x128x32 fp16", shape, seed),
            1 => check::<Small16>("64x64x32, 16x16x32 fp16", shape, seed),
            2 => check::<Mma128>("128x128x32, mma.sync fp16", shape, seed),
            3 => check::<Default128Bf16>("128x128x32 bf16", shape, seed),
            4 => check::<Mfma8<Int8>>("128x128x64 int8", shape16, seed),
            5 => check::<MmaSync8<Fp8>>("128x128x64, mma.sync fp8", shape16, seed),
            6 => check_with::<Default128, OneStage>("128x128x32 fp16, CShuffle", shape, seed, true),
            7 => check_with::<Mma128, CompV3>("mma.sync fp16, CompV3, CShuffle", shape, seed, true),
            8 => check_c::<Default128, OneStage, Fp16>("128x128x32 fp16, C in fp16, CShuffle", shape, seed, true),
            9 => check_c::<Mma128, CompV3, Bf16>("mma.sync fp16, CompV3, C in bf16", shape, seed, false),
            10 => check::<Rdna<32, Bf16, Gfx11>>("gfx11 WMMA bf16", shape, seed),
            11 => check_with::<Rdna8<Bf8, Gfx12>, CompV3>("gfx12 WMMA bf8, CompV3, CShuffle", shape16, seed, true),
            _ => check::<Mfma8Small<Bf8Fnuz>>("64x64x64, 16x16x32 bf8 (FNUZ)", shape16, seed),
        }
    }

    /// Random shapes under every layout (K any length where neither
    /// operand is K-contiguous).
    #[test]
    fn random_shapes_every_layout(m in 1usize..200, n in 1usize..200, k in 1usize..90, gap in 0usize..13, seed: u64, which in 0usize..5) {
        let k8 = Shape { m, n, k: 8 * k.div_ceil(8), gap };
        match which {
            0 => check::<Laid<RowMajor, RowMajor>>("A row, B row", k8, seed),
            1 => check::<MmaLaid<ColumnMajor, ColumnMajor>>("A column, B column, mma.sync", k8, seed),
            2 => check::<Laid<ColumnMajor, RowMajor>>("A column, B row", Shape { m, n, k, gap }, seed),
            3 => check::<RdnaLaid<ColumnMajor, RowMajor>>("A column, B row, gfx11 WMMA", Shape { m, n, k, gap }, seed),
            _ => check::<MmaLaid<ColumnMajor, RowMajor>>("A column, B row, mma.sync", Shape { m, n, k, gap }, seed),
        }
    }
}

/// The emulation reads each register where AMD's lane map puts it: one
/// A register of one lane changed (lane 33, register 2: row 1, K 4 + 2 of
/// the first warp tile) changes exactly row 1 of C, by the product with
/// B's K value 6 in every column.
#[test]
fn one_register_changes_one_row() {
    type P = OneWave;
    let one = Fp16::from_f32(1.0);
    let a = vec![ABlockTensor::<P>::filled(one); 64];
    let b: Vec<BBlockTensor<P>> = (0..64)
        .map(|lane| {
            let mut t = BBlockTensor::<P>::filled(one);
            // Lane l, register r of B's warp tiles at K iteration 0 (N iteration 0 from register
            // 0, N iteration 1 from 4 K iterations x 4 = 16) hold column l % 32, K 4 * (l / 32) + r.
            let six = Fp16::from_f32(if lane >= 32 { 3.0 } else { 1.0 });
            (t.thread_buffer_mut()[2], t.thread_buffer_mut()[18]) = (six, six);
            t
        })
        .collect();
    let mut base = vec![CBlockTensor::<P>::filled(0.0); 64];
    emulate_block_gemm::<P>(&mut base, &a, &b).unwrap();
    let mut bumped = a.clone();
    bumped[33].thread_buffer_mut()[2] = Fp16::from_f32(5.0);
    let mut c = vec![CBlockTensor::<P>::filled(0.0); 64];
    emulate_block_gemm::<P>(&mut c, &bumped, &b).unwrap();
    let w = cktile::ops::gemm::MfmaInstruction::of(32).unwrap();
    let mut changed = 0;
    for lane in 0..64 {
        for (r, (x, y)) in c[lane].thread_buffer().iter().zip(base[lane].thread_buffer()).enumerate() {
            // Registers 0..16 are N iteration 0, 16..32 N iteration 1 (the same rows).
            let (row, _) = w.c_element(lane, r % 16);
            if row == 1 {
                assert_eq!(x - y, 4.0 * 3.0, "lane {lane}, register {r}");
                changed += 1;
            } else {
                assert_eq!(x, y, "lane {lane}, register {r}");
            }
        }
    }
    assert_eq!(changed, 64);
}

/// The emulation's `mma.sync` A lane map (`MmaSyncInstruction`, from the PTX
/// ISA) against the analyzer's `mma_sync_a` pattern, written separately
/// (one 32-bit register an instruction): every lane's pairs.
#[test]
fn the_mma_sync_a_lane_map_is_the_analyzers_pattern() {
    use cktile_analysis::analyzer::Pattern;
    use cktile_core::ops::gemm::MmaSyncInstruction;
    for lane in 0..32 {
        for pair in 0..4 {
            let (row, k) = MmaSyncInstruction::M16N8K16.a_element(lane, 2 * pair);
            let want = Some((row as i64, k as i64));
            assert_eq!(Pattern::MmaSyncA.coordinate(16, 16, 2, 32, pair, lane), Ok(want), "lane {lane}, pair {pair}");
            assert_eq!(
                MmaSyncInstruction::M16N8K16.a_element(lane, 2 * pair + 1),
                (row, k + 1),
                "lane {lane}, pair {pair}"
            );
        }
    }
}
