//! Generated-code check: the static descriptors' offsets compile to
//! straight-line code no longer than the hand-written expressions.
//!
//! Builds this crate's library (`src/lib.rs`, the probes) in release mode
//! with `--emit asm` (into a separate target directory, with cktile's core
//! only) and reads each `probe_*_static` function next
//! to its `probe_*_hand` twin: no calls, no jumps (so no loops and no bounds
//! checks, whose failure paths are calls), and no more instructions than the
//! hand-written version. The constant probe must reduce to a constant.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

/// Instruction lines (no labels, directives or comments) of every function
/// whose mangled name contains `probe_`, keyed by the probe's name.
fn probe_functions(asm: &str) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    let mut current: Option<(String, Vec<String>)> = None;
    for line in asm.lines() {
        if let Some(label) = line.strip_suffix(':')
            && !line.starts_with(char::is_whitespace)
            && !label.starts_with('.')
        {
            if let Some((name, body)) = current.take() {
                out.insert(name, body);
            }
            if let Some(start) = label.find("probe_") {
                // Legacy mangling: `...21probe_gemm_k64_static17h<hash>E`.
                let rest = &label[start..];
                let name = rest.split("17h").next().unwrap_or(rest).to_string();
                current = Some((name, Vec::new()));
            }
            continue;
        }
        let t = line.trim();
        if let Some((_, body)) = current.as_mut() {
            if t.is_empty() || t.starts_with('.') || t.starts_with('#') || t.ends_with(':') {
                if (t.starts_with(".cfi_endproc") || t.starts_with(".Lfunc_end"))
                    && let Some((name, body)) = current.take()
                {
                    out.insert(name, body);
                }
                continue;
            }
            body.push(t.to_string());
        }
    }
    if let Some((name, body)) = current {
        out.insert(name, body);
    }
    out
}

fn emit_asm() -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // The workspace's target directory, beside (not inside) this crate.
    let target = root.join("..").join("target").join("codegen-check");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(&root)
        .env("CARGO_TARGET_DIR", &target)
        .args(["rustc", "--release", "--lib", "--quiet", "--", "--emit", "asm"])
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building the probes failed");
    let dir = target.join("release").join("deps");
    let mut newest: Option<(std::time::SystemTime, PathBuf)> = None;
    for entry in std::fs::read_dir(&dir).expect("the deps directory exists") {
        let path = entry.expect("readable entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("cktile_checks") && name.ends_with(".s") {
            let modified = path.metadata().and_then(|m| m.modified()).expect("mtime");
            if newest.as_ref().is_none_or(|(t, _)| modified > *t) {
                newest = Some((modified, path));
            }
        }
    }
    let (_, path) = newest.expect("a cktile_checks .s file was emitted");
    std::fs::read_to_string(path).expect("readable asm")
}

#[test]
fn static_descriptors_compile_to_hand_written_arithmetic() {
    let asm = emit_asm();
    let probes = probe_functions(&asm);
    let mut report = Vec::new();
    for name in ["gemm_k64", "gemm_k32", "swizzle", "padded", "padded_const", "constant"] {
        let (stat, hand) =
            match (probes.get(&format!("probe_{name}_static")), probes.get(&format!("probe_{name}_hand"))) {
                (Some(s), Some(h)) => (s, h),
                // rustc merges functions with identical machine code: one of the
                // pair then has no body of its own and its callers call the other.
                (Some(one), None) | (None, Some(one)) => (one, one),
                (None, None) => panic!("neither probe_{name}_static nor probe_{name}_hand is in the asm"),
            };
        for insn in stat {
            let op = insn.split_whitespace().next().unwrap_or("");
            assert!(!op.starts_with("call"), "{name}: static probe calls a function: {insn}\n{stat:#?}");
            assert!(!op.starts_with('j'), "{name}: static probe branches (a loop or a check): {insn}\n{stat:#?}");
        }
        assert!(
            stat.len() <= hand.len(),
            "{name}: static probe has {} instructions, hand-written {}\nstatic: {stat:#?}\nhand: {hand:#?}",
            stat.len(),
            hand.len()
        );
        report.push(format!("{name}: static {} / hand {} instructions", stat.len(), hand.len()));
    }
    let constant =
        probes.get("probe_constant_static").or_else(|| probes.get("probe_constant_hand")).expect("constant probe");
    assert!(
        constant.iter().any(|i| i.contains("$97")) && constant.len() <= 2,
        "the compile-time coordinate did not fold to the constant 97: {constant:#?}"
    );
    println!("{}", report.join("\n"));
}
