//! The README's commands as written. Every command line of its `sh` blocks
//! either runs `cktile` (first, or after a pipe), and then runs here through
//! `sh` from the repository root, with the `cktile` that `cargo test` built
//! first on `PATH` (what `cargo install --path . --locked`, the README's
//! first command, gives the reader), and must succeed and print something;
//! or it is one of [`RUN_ELSEWHERE`], each with where it runs. The guide's
//! commands and outputs are checked by `tests/guide_outputs.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

/// The README's commands that do not run here: the line, and where it runs.
const RUN_ELSEWHERE: &[(&str, &str)] = &[
    ("cargo run --release", "as `cktile` with no arguments, below (the same binary, the same main job)"),
    ("cargo test --workspace", "this test is part of it"),
    ("cargo install --path . --locked", "not here: these tests put the binary they build on PATH instead"),
    ("python3 -m venv .venv && .venv/bin/pip install ./python", ".ci/run, as written"),
    (
        ".venv/bin/python -c 'import cktile; print(cktile.Layout(\"ck-universal-a:m=128,k=64\").analyze(\"gfx942\", \"mfma16\").max_ways)'",
        ".ci/run, as written",
    ),
    ("gpu/run.sh", "an NVIDIA GPU; gpu/ci.sh's dry run in .ci/run"),
    ("gpu/kernel.sh", "an NVIDIA GPU; its PTX check in gpu/ci.sh"),
    ("gpu/gemm.sh", "an NVIDIA GPU; its build step in gpu/ci.sh"),
    ("gpu/sm90_gemm.sh", "an NVIDIA GPU; its kernels in scripts/target-icount.sh, its build step in gpu/ci.sh"),
    ("gpu/codegen.sh", "an NVIDIA GPU with nvcc"),
    ("gpu/amd/run.sh", "an AMD GPU with ROCm"),
    ("cargo run --example gemm_kernels", ".ci/run, as written, after the tests"),
    ("cargo run --example lds_design", ".ci/run, as written, after the GEMM example"),
    ("scripts/scratch-kind.sh", ".ci/run"),
    ("scripts/build-book.sh        # then serve docs/book (below) or open docs/book/index.html", ".ci/run"),
    (
        "JOBS=2 scripts/fuzz.sh               # 10 million executions of each target, 2 processes each",
        "hours on nightly Rust; .ci/run runs a 10,000-execution smoke run",
    ),
    ("scripts/fuzz.sh minimise             # cargo fuzz cmin into fuzz/corpus/TARGET", "after a long fuzz run"),
    (
        "FUZZ_SANITIZER=address scripts/fuzz.sh 10000 search_plan   # one sanitizer for every target: 2 min 54 s, 161 executions/s",
        ".ci/run (with spec and bank too)",
    ),
    ("scripts/perf-report.sh   # writes perf/results/report.md", "timings, which depend on the machine"),
];

/// The README's command lines (its `sh` blocks without comments), in order.
fn readme_commands() -> Vec<String> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_sh = line.trim() == "```sh" && !in_sh;
            continue;
        }
        let line = line.trim();
        if in_sh && !line.starts_with('#') && !line.is_empty() {
            out.push(line.to_string());
        }
    }
    out
}

/// Whether `line` runs `cktile`: first, or after a pipe.
fn runs_cktile(line: &str) -> bool {
    line == "cktile" || line.starts_with("cktile ") || line.contains("| cktile ") || line.ends_with("| cktile")
}

#[test]
fn every_readme_command_runs_as_written() {
    let commands = readme_commands();
    let mut run: Vec<_> = commands.iter().filter(|c| runs_cktile(c)).map(String::as_str).collect();
    // The main job, `cargo run --release`, is the binary with no arguments.
    assert!(commands.iter().any(|c| c == "cargo run --release"), "the README's main job");
    run.insert(0, "cktile");
    // The main job, the spec and catalogue commands, bank, analyze, search, dma-plan and codegen.
    assert!(run.len() >= 20, "{run:?}");
    let bin = Path::new(env!("CARGO_BIN_EXE_cktile")).parent().unwrap();
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    for command in run {
        let o = Command::new("sh")
            .arg("-c")
            .arg(command)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("PATH", &path)
            .output()
            .unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert!(o.status.success(), "{command}\n{stderr}");
        assert!(!stdout.trim().is_empty(), "{command} printed nothing");
    }
    // The one that writes a file wrote it where it says, outside the repository.
    assert!(Path::new("/tmp/gemm_a_lds.cuh").exists());
}

#[test]
fn every_other_readme_command_is_listed_with_where_it_runs() {
    let others: Vec<_> = readme_commands().into_iter().filter(|c| !runs_cktile(c)).collect();
    let listed: Vec<_> = RUN_ELSEWHERE.iter().map(|(c, _)| c.to_string()).collect();
    assert_eq!(others, listed, "a README command that does not run cktile must be listed in RUN_ELSEWHERE");
}
