//! Compile-time checks that must fail the build, each with a readable
//! `cktile:` message pointing at the user's call. Three suites, one trybuild
//! run (so cktile's core is compiled once for all of them):
//!
//! - `tests/ui`: the typed API rejects invalid all-static compositions, and
//!   compositions whose ids do not fit their transforms whatever their
//!   runtime lengths (`mixed_*`), invalid all-static adaptors and invalid
//!   typed distribution encodings (and a universal GEMM policy or encoding
//!   whose sizes CK's `static_assert`s refuse); a
//!   coordinate, a strides tuple or a chained adaptor of the wrong arity is
//!   a type error whose message names both arities as array types
//!   (`[i64; 2]`), not as typenum integers, and so is generic code bounded
//!   by `DescriptorOf<N>` / `AdaptorOf<TOP, BOTTOM>` called with a
//!   descriptor or adaptor of another rank; a typed descriptor with more
//!   runtime values than a `KernelArg` has slots does not become one;
//!   `descriptor_chain!` names a transform it does not spell, and its
//!   typed builder fails the build on compile-time lengths CK refuses;
//! - `tests/ui_analyzer`: `assert_conflict_free!` passes for CK Tile's
//!   XOR-preshuffled GEMM A tile (under ready patterns and under the stores
//!   of CK's block DRAM distribution) and fails the build, naming the chip,
//!   the extra cycles and the worst instruction and phase, for the naive
//!   row-major tile (under a pattern, and under an MFMA distribution's
//!   reads); the 32 ds_read_b64 reads of CK's block GEMM operand for the
//!   MFMA 32x32x8 pass on a KPack 4 block and fail on `gemm.rs`'s KPack 8
//!   block, both within rustc's default const-evaluation limit (no
//!   `long_running_const_eval` allowed);
//! - `tests/ui_bijective`: `assert_bijective!` passes for CK Tile's GEMM A
//!   LDS block, a CuTe swizzle and a typed descriptor, and fails the build
//!   naming the first collision (both coordinates and the offset) or the
//!   first hole;
//! - `tests/ui_gemm`: `ops::gemm::block_window` takes its block encoding
//!   from the side (`BlockGemmSide`): B's block window is no window of
//!   A's block distribution (a type mismatch), even on a square tile.
//!
//! Snapshots in `tests/ui*/*.stderr` (paths relative to `checks/`);
//! regenerate with `TRYBUILD=overwrite cargo test -p cktile-checks --test
//! compile_fail` and review them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

/// The first line a compile-fail case's error must start with: a failed
/// compile-time check (`evaluation panicked: cktile: ...`), a type error
/// carrying cktile's own message (`error[E0277]: ...`) or a macro's own
/// refusal (`error: ...`).
enum Message {
    Panic(&'static str),
    TypeError(&'static str),
    Macro(&'static str),
}

use Message::{Macro, Panic, TypeError};

/// The compile-fail cases and the message each must show.
const CASES: &[(&str, Message)] = &[
    ("ids_not_permutation", Panic("cktile: the id lists are not a permutation: an id appears twice")),
    ("mixed_ids_not_permutation", Panic("cktile: the id lists are not a permutation: an id appears twice")),
    ("ids_not_covering", Panic("cktile: the id lists are not a permutation: a dimension is named by no id list")),
    (
        "id_count_mismatch",
        Panic("cktile: an id list's length differs from its transform's number of dimensions on that side"),
    ),
    (
        "merge_length_mismatch",
        Panic("cktile: a transform's lengths do not match the lengths of the dimensions it is applied to"),
    ),
    (
        "xor_not_power_of_two",
        Panic("cktile: xor((L0, L1)) needs L1 to be a power of two, or up1 ^ (up0 % L1) leaves [0, L1)"),
    ),
    ("zero_length", Panic("cktile: a transform length is zero; every length must be at least 1")),
    (
        "static_overflow",
        Panic(
            "cktile: the transform's lengths overflow the signed 64-bit index type \
             (the value is 18446744073709551616)",
        ),
    ),
    (
        "static_element_space_overflow",
        Panic("cktile: the element space overflows a signed 64-bit index (the value is 19807040623954398379958599684)"),
    ),
    ("coordinate_arity", TypeError("this descriptor or adaptor takes a coordinate `[i64; 2]`, not `[{integer}; 3]`")),
    (
        "naive_strides_arity",
        TypeError("the strides `(cktile_core::Number<8>,)` do not fit lengths whose coordinates are `[i64; 2]`"),
    ),
    (
        "adaptor_chain_arity",
        TypeError(
            "cannot chain: the first adaptor's top coordinate is `[i64; 2]`, the second's bottom coordinate is `[i64; 1]`",
        ),
    ),
    (
        "adaptor_static_wiring",
        Panic(
            "cktile: an adaptor transform reads a hidden dimension that is neither a bottom dimension nor produced by \
             an earlier transform (transform 1, hidden id 5)",
        ),
    ),
    (
        "distribution_bad_minor",
        Panic(
            "cktile: a P or Y minor is past the entries of its R/H group (Ys2RHs entry 0, major 2, minor 1, entries 1)",
        ),
    ),
    (
        "gemm_policy_warps",
        Panic("the block size must be MWarp * NWarp * 64: the block's threads are its BlockWarps' warps"),
    ),
    (
        "gemm_too_many_warp_gemms",
        Panic(
            "the block GEMM unrolls at most 256 warp GEMMs (K x M x N warp tiles): take a smaller block tile or more \
             warps",
        ),
    ),
    (
        "gemm_encoding_requires",
        Panic("MPerBlock must be a multiple of (64 / (KPerBlock / K1)) * (BLOCK / 64): every thread loads whole rows"),
    ),
    (
        "descriptor_of_wrong_rank",
        TypeError(
            "this code needs 2 top dimensions; a descriptor or adaptor whose coordinates are `[i64; 3]` has another \
             number",
        ),
    ),
    (
        "adaptor_of_wrong_rank",
        TypeError(
            "this code needs an adaptor with 3 bottom dimensions; one whose bottom coordinates are `[i64; 2]` has \
             another number",
        ),
    ),
    (
        "kernel_arg_too_many_slots",
        Panic(
            "cktile: the chain holds 18 runtime values; a KernelArg carries at most KERNEL_ARG_SLOTS (16): make some \
             lengths compile-time Numbers, or pass two descriptors",
        ),
    ),
    (
        "descriptor_of_runtime_chain",
        Panic("cktile: DESCRIPTOR needs every length of the chain to be a compile-time Number"),
    ),
    (
        "descriptor_chain_unknown_kind",
        Macro(
            "descriptor_chain!: `swizzle(L)` is no transform it spells; it spells pass_through(len), pad(len, left, \
             right), left_pad(len, left), right_pad(len, right), merge((lengths)), unmerge((lengths)), xor((l0, l1)) \
             and embed((lengths), (coefficients))",
        ),
    ),
    (
        "descriptor_chain_static_refusal",
        Panic("cktile: xor((L0, L1)) needs L1 to be a power of two, or up1 ^ (up0 % L1) leaves [0, L1)"),
    ),
];

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass_static.rs");
    for (name, _) in CASES {
        t.compile_fail(format!("tests/ui/{name}.rs"));
    }
    t.pass("tests/ui_analyzer/pass_conflict_free.rs");
    t.compile_fail("tests/ui_analyzer/conflicting_layout.rs");
    t.compile_fail("tests/ui_analyzer/conflicting_distribution.rs");
    t.pass("tests/ui_analyzer/pass_mfma32x8_window.rs");
    t.compile_fail("tests/ui_analyzer/conflicting_mfma32x8_window.rs");
    t.pass("tests/ui_bijective/pass_bijective.rs");
    t.compile_fail("tests/ui_bijective/collision.rs");
    t.compile_fail("tests/ui_bijective/hole.rs");
    t.compile_fail("tests/ui_gemm/block_window_wrong_side.rs");
}

/// The reviewed snapshots start with the readable message, point at the
/// user's own call (a `--> tests/ui/<case>.rs:<line>:<col>` location), not
/// only into cktile's sources, and name no typenum integer anywhere. `ui`
/// checks that the compiler's output equals the snapshots, so together they
/// check the compiler's output.
#[test]
fn snapshots_are_readable_and_point_at_the_users_call() {
    let mut problems = vec![];
    for (name, message) in CASES {
        let path = format!("{}/tests/ui/{name}.stderr", env!("CARGO_MANIFEST_DIR"));
        let stderr = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let first = match message {
            Panic(m) => format!("error[E0080]: evaluation panicked: {m}"),
            TypeError(m) => format!("error[E0277]: {m}"),
            Macro(m) => format!("error: {m}"),
        };
        if !stderr.starts_with(&first) {
            problems.push(format!("{name}: does not start with `{first}`"));
        }
        for typenum in ["UInt<", "UTerm", "typenum::", "B0>", "B1>"] {
            if stderr.contains(typenum) {
                problems.push(format!("{name}: names a typenum integer (`{typenum}`)"));
            }
        }
        if !stderr.contains(&format!("--> tests/ui/{name}.rs:")) {
            problems.push(format!("{name}: no note points at tests/ui/{name}.rs"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The reviewed snapshots carry the readable message and point at the
/// user's `assert_conflict_free!` call.
#[test]
fn conflict_snapshots_are_readable() {
    for (file, message) in [
        (
            "conflicting_layout",
            "cktile: the layout has bank conflicts on gfx942: 384 extra cycles over 512; worst: instruction 0, phase 0, \
             4-way",
        ),
        (
            "conflicting_distribution",
            "cktile: the window has bank conflicts on gfx942: 8 extra cycles over 16; worst: instruction 0, phase 0, \
             2-way: lanes 0 and 2 touch two words of bank 0",
        ),
        (
            "conflicting_mfma32x8_window",
            "cktile: the window has bank conflicts on gfx942: 128 extra cycles over 256; worst: instruction 0, phase \
             0, 2-way: lanes 0 and 9 touch two words of bank 0",
        ),
    ] {
        let path = format!("{}/tests/ui_analyzer/{file}.stderr", env!("CARGO_MANIFEST_DIR"));
        let stderr = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for needle in [message.to_string(), format!("--> tests/ui_analyzer/{file}.rs:")] {
            assert!(stderr.contains(&needle), "expected `{needle}` in {path}:\n{stderr}");
        }
    }
}

/// The reviewed snapshots carry the readable message and point at the
/// user's `assert_bijective!` call.
#[test]
fn bijective_snapshots_are_readable() {
    for (file, needle) in [
        ("collision", "cktile: the layout is not a bijection: coordinates [0, 40] and [1, 0] both have offset 40"),
        ("hole", "cktile: the layout is not a bijection: offset 4 of [0, 19) is a hole: no valid coordinate has it"),
    ] {
        let path = format!("{}/tests/ui_bijective/{file}.stderr", env!("CARGO_MANIFEST_DIR"));
        let stderr = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for needle in [needle.to_string(), format!("--> tests/ui_bijective/{file}.rs:")] {
            assert!(stderr.contains(&needle), "expected `{needle}` in {path}:\n{stderr}");
        }
    }
}
