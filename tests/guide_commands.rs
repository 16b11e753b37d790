//! The guide's inline console blocks run as written: every `$ cktile ...`
//! line of a ```console block in `docs/src/*.md` is run (single-quoted
//! arguments, an optional `| head -N`), and the lines printed under it in
//! the block must be what it prints, stdout then stderr (an `error:` line
//! is the failing run's message). A command with nothing under it must
//! succeed. (Most chapters include generated outputs instead; these blocks
//! are written in place, so this holds them true.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

/// The words of a command line: spaces split, single quotes group.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    assert!(!quoted, "unbalanced quote in {line:?}");
    if any {
        out.push(word);
    }
    out
}

/// (command line, the lines printed under it) of every `$ cktile` line of every console block.
fn commands(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    // Inside a console block, and whether a command of this block is taking the lines.
    let (mut in_console, mut taking) = (false, false);
    for line in text.lines() {
        if line.starts_with("```") {
            in_console = line == "```console" && !in_console;
            taking = false;
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            out.push((cmd.to_string(), Vec::new()));
            taking = true;
        } else if let (true, Some((_, printed))) = (taking, out.last_mut()) {
            printed.push(line.to_string());
        }
    }
    out.retain(|(cmd, _)| cmd.starts_with("cktile "));
    out
}

#[test]
fn the_guides_inline_commands_print_what_it_shows() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src");
    let mut ran = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (line, printed) in commands(&text) {
            let (cmd, head) = match line.split_once(" | head -") {
                Some((cmd, n)) => (cmd, Some(n.trim().parse::<usize>().unwrap())),
                None => (line.as_str(), None),
            };
            let args = words(cmd);
            let o = Command::new(env!("CARGO_BIN_EXE_cktile")).args(&args[1..]).output().unwrap();
            let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
            let mut got: Vec<&str> = all.lines().collect();
            if let Some(n) = head {
                got.truncate(n);
            }
            let what = format!("{}: `$ {line}`", path.file_name().unwrap().to_string_lossy());
            if printed.is_empty() {
                assert!(o.status.success(), "{what} fails:\n{all}");
            } else {
                assert_eq!(o.status.success(), !printed[0].starts_with("error:"), "{what}:\n{all}");
                assert_eq!(got, printed, "{what}");
            }
            ran += 1;
        }
    }
    assert!(ran >= 5, "{ran} commands found");
}

#[test]
fn words_split_as_a_shell_would_here() {
    assert_eq!(words("cktile check 'packed((4, 8))' --json"), ["cktile", "check", "packed((4, 8))", "--json"]);
    assert_eq!(words("a ''"), ["a", ""]);
}
