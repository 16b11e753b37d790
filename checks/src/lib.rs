//! Build-level checks of the port (`cktile-core`), which this crate
//! depends on alone, with no allocator:
//!
//! - [`gemm`]: CK's universal GEMM A and B data paths, the library's
//!   `ops::gemm` policy instantiated once (128 x 128 x 32 on 256 threads),
//!   which `tests/gemm_simulator.rs` runs lane by lane on the CPU and
//!   `perf/kernels` compiles for amdgcn and nvptx;
//! - the probe functions of the generated-code check (`tests/codegen.rs`):
//!   each static descriptor's offset next to the hand-written expression
//!   it must compile to. Build with
//!   `cargo rustc --release -p cktile-checks --lib -- --emit asm` and
//!   compare the `probe_*` functions; `cargo run --release -p
//!   cktile-checks --example asm_probes` runs every pair once and prints
//!   both results;
//! - the compile-fail tests (`tests/compile_fail.rs`): the typed API's and
//!   the compile-time checks' refusals, each snapshot with its message.
//!
//! Building the port alone keeps each of these one small build, without
//! the tools', the CLI's or the test suite's dependencies.

#![no_std]
#![deny(rustdoc::broken_intra_doc_links)]

pub mod gemm;

use cktile_core::prelude::*;

/// A probe: `(m, k) -> offset`.
pub type Probe = fn(i64, i64) -> i64;

/// Builds a static descriptor, or returns `-1` from the probe (dead code: an
/// all-static chain is validated at compile time).
macro_rules! build {
    ($e:expr) => {
        match $e {
            Ok(d) => d,
            Err(_) => return -1,
        }
    };
}

/// CK Tile GEMM A LDS, M=128, K=64, KPack=8 (MLdsLayer 1), static descriptor.
#[inline(never)]
pub fn probe_gemm_k64_static(m: i64, k: i64) -> i64 {
    let d = build!(make_naive_tensor_descriptor(
        (Number::<8>, Number::<128>, Number::<8>),
        (Number::<8>, Number::<64>, Number::<1>)
    ));
    let d = build!(transform_tensor_descriptor(
        d,
        (make_xor_transform((Number::<128>, Number::<8>)), make_pass_through_transform(Number::<8>)),
        (ids![1, 0], ids![2]),
        (ids![1, 0], ids![2]),
    ));
    let d = build!(transform_tensor_descriptor(
        d,
        (make_pass_through_transform(Number::<128>), make_merge_transform((Number::<8>, Number::<8>))),
        (ids![1], ids![0, 2]),
        (ids![0], ids![1]),
    ));
    d.calculate_offset([m, k])
}

/// The hand-written form of [`probe_gemm_k64_static`].
#[inline(never)]
pub fn probe_gemm_k64_hand(m: i64, k: i64) -> i64 {
    64 * m + 8 * ((k / 8) ^ (m % 8)) + k % 8
}

/// The CK Tile GEMM A LDS descriptor, M=128, K=32, KPack=8, MLdsLayer=2
/// (current form), built statically by the port's one spelling of it
/// (`ops::gemm::make_lds_block`, the `LdsChain` of `descriptor_chain!`).
macro_rules! gemm_k32 {
    () => {{ build!(cktile_core::ops::gemm::make_lds_block::<128, 32, 2, 32, 16>()) }};
}

/// `gemm_k32!` at a runtime coordinate.
#[inline(never)]
pub fn probe_gemm_k32_static(m: i64, k: i64) -> i64 {
    gemm_k32!().calculate_offset([m, k])
}

/// The hand-written form of [`probe_gemm_k32_static`].
#[inline(never)]
pub fn probe_gemm_k32_hand(m: i64, k: i64) -> i64 {
    let (mm, l, k0, kp) = (m / 2, m % 2, k / 8, k % 8);
    ((l * 4 + k0) ^ (mm % 8)) * 8 + mm * 64 + kp
}

/// CuTe `Swizzle<3,3,3>` over a row-major 8x64 fp16 tile, static descriptor.
#[inline(never)]
pub fn probe_swizzle_static(m: i64, k: i64) -> i64 {
    let d = build!(make_naive_tensor_descriptor_packed((Number::<512>,)));
    let d = build!(transform_tensor_descriptor(d, (make_swizzle_transform::<3, 3, 3>(),), (ids![0],), (ids![0],)));
    let d = build!(transform_tensor_descriptor(
        d,
        (make_unmerge_transform((Number::<8>, Number::<64>)),),
        (ids![0],),
        (ids![0, 1],),
    ));
    d.calculate_offset([m, k])
}

/// The hand-written form of [`probe_swizzle_static`].
#[inline(never)]
pub fn probe_swizzle_hand(m: i64, k: i64) -> i64 {
    let o = 64 * m + k;
    o ^ (((o >> 6) & 7) << 3)
}

/// A 128x32 tile with each row padded by 8 elements, static descriptor.
#[inline(never)]
pub fn probe_padded_static(m: i64, k: i64) -> i64 {
    let d = build!(make_naive_tensor_descriptor((Number::<128>, Number::<32>), (Number::<40>, Number::<1>)));
    d.calculate_offset([m, k])
}

/// The hand-written form of [`probe_padded_static`].
#[inline(never)]
pub fn probe_padded_hand(m: i64, k: i64) -> i64 {
    40 * m + k
}

/// A 64x64 tile padded by 8 elements per row, as a `const` [`Descriptor`]
/// behind [`StaticDescriptor`].
struct PaddedConst;

impl StaticDescriptor for PaddedConst {
    const DESCRIPTOR: Descriptor = match Descriptor::naive(&[64, 64], &[72, 1]) {
        Ok(d) => d,
        Err(e) => panic!("{}", e.summary()),
    };
}

/// `PaddedConst` at a runtime coordinate.
#[inline(never)]
pub fn probe_padded_const_static(m: i64, k: i64) -> i64 {
    PaddedConst::calculate_offset(&[m, k])
}

/// The hand-written form of [`probe_padded_const_static`].
#[inline(never)]
pub fn probe_padded_const_hand(m: i64, k: i64) -> i64 {
    72 * m + k
}

/// A compile-time coordinate: must compile to a constant.
#[inline(never)]
pub fn probe_constant_static() -> i64 {
    gemm_k32!().calculate_offset([3, 9])
}

/// The constant [`probe_constant_static`] must return: 97.
#[inline(never)]
pub fn probe_constant_hand() -> i64 {
    97
}

/// Every `(name, coordinate, static probe, hand-written probe)` pair the
/// generated-code check compares, with a coordinate to run it at.
///
/// ```
/// for (name, (m, k), stat, hand) in cktile_checks::PAIRS {
///     assert_eq!(stat(m, k), hand(m, k), "{name}");
/// }
/// assert_eq!(cktile_checks::probe_constant_static(), 97);
/// ```
pub const PAIRS: [(&str, (i64, i64), Probe, Probe); 5] = [
    ("gemm_k64", (3, 9), probe_gemm_k64_static, probe_gemm_k64_hand),
    ("gemm_k32", (65, 5), probe_gemm_k32_static, probe_gemm_k32_hand),
    ("swizzle", (5, 17), probe_swizzle_static, probe_swizzle_hand),
    ("padded", (7, 3), probe_padded_static, probe_padded_hand),
    ("padded_const", (7, 3), probe_padded_const_static, probe_padded_const_hand),
];
