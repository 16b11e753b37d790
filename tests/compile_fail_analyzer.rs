//! The compile-time bank-conflict check: `assert_conflict_free!` on a
//! static layout passes for CK Tile's XOR-preshuffled GEMM A tile and fails
//! the build, naming the chip, the extra cycles and the worst instruction and
//! phase, for the naive row-major tile. Snapshots in
//! `tests/ui_analyzer/*.stderr`; regenerate with
//! `TRYBUILD=overwrite cargo test --test compile_fail_analyzer` and review them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[test]
fn ui_analyzer() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui_analyzer/pass_conflict_free.rs");
    t.compile_fail("tests/ui_analyzer/conflicting_layout.rs");
}

/// The reviewed snapshot carries the readable message and points at the
/// user's `assert_conflict_free!` call.
#[test]
fn conflict_snapshot_is_readable() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ui_analyzer/conflicting_layout.stderr");
    let stderr = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    for needle in [
        "cktile: the layout has bank conflicts on gfx942: 384 extra cycles over 512; worst: instruction 0, phase 0, 4-way",
        "--> tests/ui_analyzer/conflicting_layout.rs:",
    ] {
        assert!(stderr.contains(needle), "expected `{needle}` in {path}:\n{stderr}");
    }
}
