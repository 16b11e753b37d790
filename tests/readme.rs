//! The README's cktile commands run as written: every `cargo run --release`
//! line of its `sh` blocks (the main job, and `-- ARGS`, piped input
//! included) runs the built binary through `sh` and must succeed and print
//! something. So do the guide's `$ cktile` lines, and where a console block
//! shows what one prints, it prints exactly that. The README's scripts run elsewhere: `scripts/build-book.sh`,
//! `scripts/explorer-test.sh` and a `scripts/fuzz.sh` smoke run in CI
//! (`.ci/run`); the `gpu/` scripts need a GPU.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

/// The README's `cargo run --release` command lines, in order.
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
        if in_sh && !line.starts_with('#') && line.contains("cargo run --release") {
            out.push(line.to_string());
        }
    }
    out
}

/// The guide's `$ cktile ...` command lines, each with the lines its
/// console block prints under it (empty where the block shows none: its
/// other commands install tools, clone, or build; the quoted outputs'
/// commands run in `scripts/book-outputs.sh` in CI).
fn guide_commands() -> Vec<(String, Vec<String>)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src");
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "md")) {
        // Inside a console block, and whether a `$ cktile` line of it is taking the lines below it.
        let (mut in_console, mut taking) = (false, false);
        for line in std::fs::read_to_string(path).unwrap().lines() {
            if line.starts_with("```") {
                in_console = line == "```console" && !in_console;
                taking = false;
            } else if let Some(command) = line.strip_prefix("$ ") {
                taking = in_console && command.starts_with("cktile ");
                if let Some(command) = command.strip_prefix("cktile ") {
                    let command = command.split(" # ").next().unwrap_or(command).trim();
                    out.push((format!("cktile {command}"), Vec::new()));
                }
            } else if let (true, Some((_, printed))) = (taking, out.last_mut()) {
                printed.push(line.to_string());
            }
        }
    }
    out
}

/// Runs `shell` through `sh`, as a user pastes it.
fn sh(shell: &str) -> std::process::Output {
    Command::new("sh").arg("-c").arg(shell).output().unwrap()
}

/// Every guide command runs; where its console block shows what it
/// prints, it prints exactly that (stdout, then stderr; a block whose first
/// line is `error:` shows a refusal, and the command must fail).
#[test]
fn every_guide_cktile_command_runs_as_written() {
    let commands = guide_commands();
    assert!(commands.len() >= 5, "{commands:?}");
    assert!(commands.iter().any(|(_, printed)| !printed.is_empty()), "no block shows an output");
    let bin = env!("CARGO_BIN_EXE_cktile");
    for (command, printed) in &commands {
        let o = sh(&format!("{bin}{}", &command["cktile".len()..]));
        let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        let refused = printed.first().is_some_and(|l| l.starts_with("error:"));
        assert_eq!(o.status.success(), !refused, "{command}\n{all}");
        if !printed.is_empty() {
            assert_eq!(all.lines().collect::<Vec<_>>(), *printed, "{command}");
        }
    }
}

#[test]
fn every_readme_command_runs_as_written() {
    let commands = readme_commands();
    // The main job, the spec and catalogue commands, bank, analyze, search, dma-plan and codegen.
    assert!(commands.len() >= 15, "{commands:?}");
    let bin = env!("CARGO_BIN_EXE_cktile");
    for command in &commands {
        let o = sh(&command.replace("cargo run --release --", bin).replace("cargo run --release", bin));
        let (stdout, stderr) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert!(o.status.success(), "{command}\n{stderr}");
        assert!(!stdout.trim().is_empty() || command.contains(" -o "), "{command} printed nothing");
    }
    // The one that writes a file wrote it where it says, outside the repository.
    assert!(std::path::Path::new("/tmp/gemm_a_lds.cuh").exists());
}
