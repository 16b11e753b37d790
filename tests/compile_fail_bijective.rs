//! The compile-time bijectivity check: `assert_bijective!` passes for CK
//! Tile's GEMM A LDS block, a CuTe swizzle and a typed descriptor, and fails
//! the build naming the first collision (both coordinates and the offset)
//! or the first hole. Snapshots in `tests/ui_bijective/*.stderr`; regenerate
//! with `TRYBUILD=overwrite cargo test --test compile_fail_bijective` and
//! review them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[test]
fn ui_bijective() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui_bijective/pass_bijective.rs");
    t.compile_fail("tests/ui_bijective/collision.rs");
    t.compile_fail("tests/ui_bijective/hole.rs");
}

/// The reviewed snapshots carry the readable message and point at the
/// user's `assert_bijective!` call.
#[test]
fn snapshots_are_readable() {
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
