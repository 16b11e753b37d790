//! The typed API rejects invalid all-static compositions at compile time
//! with a readable `cktile:` message, and a coordinate of the wrong arity is
//! a type error. Snapshots in `tests/ui/*.stderr`; regenerate with
//! `TRYBUILD=overwrite cargo test --test compile_fail` and review them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

/// The compile-fail cases and the `cktile:` message each must show (`None`
/// for the arity case, a plain type error).
const CASES: &[(&str, Option<&str>)] = &[
    ("ids_not_permutation", Some("cktile: the id lists are not a permutation: an id appears twice")),
    (
        "id_count_mismatch",
        Some("cktile: an id list's length differs from its transform's number of dimensions on that side"),
    ),
    (
        "merge_length_mismatch",
        Some("cktile: a transform's lengths do not match the lengths of the dimensions it is applied to"),
    ),
    (
        "xor_not_power_of_two",
        Some("cktile: xor((L0, L1)) needs L1 to be a power of two, or up1 ^ (up0 % L1) leaves [0, L1)"),
    ),
    ("zero_length", Some("cktile: a transform length is zero; every length must be at least 1")),
    (
        "static_overflow",
        Some(
            "cktile: the transform's lengths overflow the signed 64-bit index type \
             (the value is 18446744073709551616)",
        ),
    ),
    (
        "static_element_space_overflow",
        Some("cktile: the element space overflows a signed 64-bit index (the value is 19807040623954398379958599684)"),
    ),
    ("coordinate_arity", None),
    (
        "descriptor_of_runtime_chain",
        Some("cktile: DESCRIPTOR needs every length of the chain to be a compile-time Number"),
    ),
];

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass_static.rs");
    for (name, _) in CASES {
        t.compile_fail(format!("tests/ui/{name}.rs"));
    }
}

/// The reviewed snapshots carry the readable message and point at the
/// user's own call (a `--> tests/ui/<case>.rs:<line>:<col>` location), not
/// only into cktile's sources. `ui` checks that the compiler's output equals
/// the snapshots, so together they check the compiler's output.
#[test]
fn snapshots_are_readable_and_point_at_the_users_call() {
    let mut problems = vec![];
    for (name, message) in CASES {
        let path = format!("{}/tests/ui/{name}.stderr", env!("CARGO_MANIFEST_DIR"));
        let stderr = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        if let Some(message) = message {
            if !stderr.contains(&format!("evaluation panicked: {message}")) {
                problems.push(format!("{name}: no `{message}`"));
            }
        }
        if !stderr.contains(&format!("--> tests/ui/{name}.rs:")) {
            problems.push(format!("{name}: no note points at tests/ui/{name}.rs"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
