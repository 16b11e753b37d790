//! The guide (`docs/src/*.md`) shows every command with its real output in
//! place, and every picture is committed: this test keeps both true.
//!
//! - Every `console` block is a list of `$ COMMAND` lines, each followed by
//!   what it prints (stdout and stderr as a terminal shows them, then
//!   `(exit code N)` when it fails). The test runs each command through
//!   `sh`, as a reader pastes it, from the repository root with the
//!   `cktile` that `cargo test` built first on `PATH` (the one `cargo
//!   install --path . --locked` gives the reader), and compares every line.
//!   A command continues on the next line while a quote is open.
//! - `<!-- output of: COMMAND -->` ... `<!-- end of output -->` holds what
//!   COMMAND prints on stdout (the rule table, printed as Markdown).
//! - `<!-- copy of: FILE [from line N] -->` ... `<!-- end of copy -->`
//!   holds a copy of FILE (from its line N), inside a fenced block when the
//!   region starts with one.
//! - A `console` or `sh` block right after `<!-- not run: REASON -->` is
//!   not run (it installs, downloads, needs nightly or a GPU, or measures
//!   time); [`NOT_RUN`] lists each, so a new one is a deliberate change.
//!   An `sh` block without the mark is refused: write it as a `console`
//!   block with its output.
//! - [`FIGURES`]: every picture of `docs/src/images/`, drawn again by
//!   `cktile render` and compared byte for byte.
//!
//! A difference fails the test, naming the chapter and line, the command
//! and the first line that differs. `CKTILE_BLESS=1 cargo test --test
//! guide_outputs` rewrites the chapters' outputs and copies, and the
//! pictures, with what the commands print now (then review `git diff`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The blocks the test does not run (chapter, first command); each says why
/// in its `<!-- not run: ... -->` mark.
const NOT_RUN: &[(&str, &str)] = &[
    ("cubecl.md", "scripts/cubecl-test.sh"),
    ("fuzzing.md", "cargo install cargo-fuzz --locked         # once (scripts/fuzz.sh does it if missing)"),
    ("getting-started.md", "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y"),
    ("performance.md", "cargo rustc --release -p cktile-checks --lib -- --emit asm"),
    ("performance.md", "scripts/target-icount.sh            # amdgcn nvptx x86_64; writes perf/kernels/results.md"),
    (
        "performance.md",
        "python3 perf/kernels/icount.py --loop nvptx=$(ls -t perf/kernels/target/nvptx64-nvidia-cuda/release/build/cktile-kernels/*/out/cktile_kernels-*.s | head -1) gemm_sm90_fp16 gemm_sm90_fp8",
    ),
    (
        "performance.md",
        "python3 perf/kernels/icount.py --loop amdgcn=$(ls -t perf/kernels/target/amdgcn-amd-amdhsa/release/build/cktile-kernels/*/out/cktile_kernels-*.s | head -1) gemm_gfx942_fp16 gemm_gfx942_fp8",
    ),
    (
        "performance.md",
        "python3 perf/kernels/icount.py --loop nvptx=$(ls -t perf/kernels/target/nvptx64-nvidia-cuda/release/build/cktile-kernels/*/out/cktile_kernels-*.s | head -1) gemm_sm90_fp16 gemm_sm90_fp16_vectors gemm_sm90_fp8 gemm_sm90_fp8_vectors",
    ),
    (
        "performance.md",
        "cargo build --release    # the script checks the H100 harness's addresses with cktile gpu-cases",
    ),
    ("performance.md", "cargo build --release && .venv/bin/pip install ./python"),
    ("performance.md", "scripts/perf-report.sh"),
    ("python.md", "python3 -m venv .venv && . .venv/bin/activate"),
    ("python.md", "pip install tensor-layouts==0.3.2 triton==3.9.0"),
    ("writing-a-kernel.md", "RUSTFLAGS=\"-Ctarget-cpu=gfx942 -Zunstable-options -Cpanic=immediate-abort\" \\"),
    ("writing-a-kernel.md", "cargo +nightly rustc --release -Zbuild-std=core --target amdgcn-amd-amdhsa -- \\"),
];

/// Every picture of the guide: `docs/src/images/NAME.svg` is what
/// `cktile render ARGS -o FILE` draws.
const FIGURES: &[(&str, &[&str])] = &[
    // Hopper and Blackwell: one 128-byte-swizzled fp16 atom.
    (
        "hopper-nvmma-128b-grid",
        &["triton-nvmma:swizzle=128,bits=16,rows=8", "--view", "grid", "--arch", "sm90", "--dtype", "fp16"],
    ),
    // What a descriptor is.
    ("packed-grid", &["packed((4,8))", "--view", "grid", "--dtype", "fp32"]),
    ("naive-pitch-grid", &["naive((4,8),(10,1))", "--view", "grid", "--dtype", "fp32"]),
    ("merge-chain", &["packed((4,8)) | transform(merge((4,8)) on [0,1] -> [0])", "--view", "chain"]),
    // One per transform (fp32 elements: the bank is the offset mod 32).
    (
        "t-pass-through",
        &[
            "packed((4,8)) | transform(pass_through(4) on [0] -> [1], pass_through(8) on [1] -> [0])",
            "--view",
            "grid",
            "--dtype",
            "fp32",
        ],
    ),
    (
        "t-pass-through-chain",
        &["packed((4,8)) | transform(pass_through(4) on [0] -> [1], pass_through(8) on [1] -> [0])", "--view", "chain"],
    ),
    ("t-pad", &["naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])", "--view", "grid", "--dtype", "fp32"]),
    (
        "t-left-right-pad",
        &[
            "packed((4,4)) | transform(left_pad(4,1) on [0] -> [0], right_pad(4,2) on [1] -> [1])",
            "--view",
            "grid",
            "--dtype",
            "fp32",
        ],
    ),
    ("t-embed", &["packed((16)) | transform(embed((3,4),(2,1)) on [0] -> [0,1])", "--view", "grid", "--dtype", "fp32"]),
    (
        "t-merge",
        &["naive((4,8),(100,1)) | transform(merge((4,8)) on [0,1] -> [0])", "--view", "grid", "--dtype", "fp32"],
    ),
    (
        "t-unmerge",
        &["naive((32),(1)) | transform(unmerge((4,8)) on [0] -> [0,1])", "--view", "grid", "--dtype", "fp32"],
    ),
    ("t-xor", &["packed((8,8)) | transform(xor((8,8)) on [0,1] -> [0,1])", "--view", "grid", "--dtype", "fp32"]),
    ("t-xor-chain", &["packed((8,8)) | transform(xor((8,8)) on [0,1] -> [0,1])", "--view", "chain"]),
    (
        "t-cyclic-shift",
        &["packed((8,8)) | transform(cyclic_shift((8,8)) on [0,1] -> [0,1])", "--view", "grid", "--dtype", "fp32"],
    ),
    ("t-slice", &["packed((10)) | transform(slice(10,2,5) on [0] -> [0])", "--view", "grid", "--dtype", "fp32"]),
    (
        "t-freeze",
        &[
            "packed((4,8)) | transform(freeze(2) on [0] -> [], pass_through(8) on [1] -> [0])",
            "--view",
            "grid",
            "--dtype",
            "fp32",
        ],
    ),
    (
        "t-freeze-chain",
        &["packed((4,8)) | transform(freeze(2) on [0] -> [], pass_through(8) on [1] -> [0])", "--view", "chain"],
    ),
    (
        "t-insert",
        &[
            "packed((8)) | transform(insert(4) on [] -> [0], pass_through(8) on [0] -> [1])",
            "--view",
            "grid",
            "--dtype",
            "fp32",
        ],
    ),
    ("t-offset", &["naive_with_offset((2,4),(4,1),100)", "--view", "grid", "--dtype", "fp32"]),
    ("t-offset-chain", &["naive_with_offset((2,4),(4,1),100)", "--view", "chain"]),
    ("t-modulo", &["packed((8)) | transform(modulo(8,16) on [0] -> [0])", "--view", "grid", "--dtype", "fp32"]),
    (
        "t-indexing",
        &[
            "packed((4,8)) | transform(indexing(4,2) on [0] -> [0], pass_through(8) on [1] -> [1])",
            "--view",
            "grid",
            "--dtype",
            "fp32",
        ],
    ),
    (
        "t-functor",
        &[
            "packed((4,8)) | transform(merge((4,8)) on [0,1] -> [0]) | transform(functor(32,(2,3,4,0,1),0) on [0] -> [0]) | transform(unmerge((4,8)) on [0] -> [0,1])",
            "--view",
            "grid",
            "--dtype",
            "fp32",
        ],
    ),
    (
        "t-swizzle",
        &[
            "packed((8,16)) | transform(merge((8,16)) on [0,1] -> [0]) | transform(swizzle(2,2,2) on [0] -> [0]) | transform(unmerge((8,16)) on [0] -> [0,1])",
            "--view",
            "grid",
            "--dtype",
            "fp32",
        ],
    ),
    // Composing: CK Tile's GEMM A block (K = 64).
    (
        "gemm3-chain",
        &[
            "naive((8,128,8),(8,64,1)) | transform(xor((128,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2]) | transform(pass_through(128) on [1] -> [0], merge((8,8)) on [0,2] -> [1])",
            "--view",
            "chain",
            "--title",
            "CK Tile GEMM A LDS block, M = 128, K = 64, KPack = 8",
        ],
    ),
    ("gemm-k64-grid", &["ck-universal-a:m=128,k=64", "--view", "grid", "--rows", "8", "--cols", "32"]),
    // Banks and the analyzer.
    (
        "banks-naive-gfx942",
        &["packed((128,64))", "--view", "banks", "--arch", "gfx942", "--pattern", "mfma16", "--dtype", "fp16"],
    ),
    ("banks-xor-gfx942", &["ck-universal-a:m=128,k=64", "--view", "banks", "--arch", "gfx942", "--pattern", "mfma16"]),
    (
        "banks-naive-sm90",
        &["packed((16,64))", "--view", "banks", "--arch", "sm90", "--pattern", "ldmatrix", "--dtype", "fp16"],
    ),
    (
        "banks-swizzle-sm90",
        &[
            "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64",
            "--view",
            "banks",
            "--arch",
            "sm90",
            "--pattern",
            "ldmatrix",
            "--dtype",
            "fp16",
        ],
    ),
    (
        "banks-columns-sm80",
        &[
            "packed((32,32))",
            "--view",
            "banks",
            "--arch",
            "sm80",
            "--pattern",
            "columns",
            "--op",
            "ld.shared.b32",
            "--dtype",
            "fp32",
        ],
    ),
    (
        "banks-padded-columns-sm80",
        &[
            "row-padded:rows=32,cols=32,pad=1",
            "--view",
            "banks",
            "--arch",
            "sm80",
            "--pattern",
            "columns",
            "--op",
            "ld.shared.b32",
            "--dtype",
            "fp32",
        ],
    ),
    // Padding versus XOR (fp16, K = 32: a row is 64 bytes, half the banks).
    ("k32-naive-grid", &["packed((128,32))", "--view", "grid", "--rows", "16", "--dtype", "fp16"]),
    ("k32-padded16-grid", &["row-padded:rows=128,cols=32,pad=16", "--view", "grid", "--rows", "16", "--dtype", "fp16"]),
    ("k32-xor-grid", &["ck-universal-a:m=128,k=32", "--view", "grid", "--rows", "16"]),
    (
        "k32-naive-banks",
        &["packed((128,32))", "--view", "banks", "--arch", "gfx942", "--pattern", "mfma16", "--dtype", "fp16"],
    ),
    ("k32-xor-banks", &["ck-universal-a:m=128,k=32", "--view", "banks", "--arch", "gfx942", "--pattern", "mfma16"]),
    // Index swapping.
    ("swap-chain", &["ck-xor-lds:m=128,k=32,kpack=8,mlds=2", "--view", "chain"]),
    ("swap-2024-chain", &["ck-xor-lds:m=128,k=32,kpack=8,mlds=2,form=2024", "--view", "chain"]),
    (
        "swap-2024-banks",
        &[
            "ck-xor-lds:m=128,k=32,kpack=8,mlds=2,form=2024",
            "--view",
            "banks",
            "--arch",
            "gfx942",
            "--pattern",
            "mfma32",
            "--op",
            "ds_read_b128",
            "--dtype",
            "fp16",
        ],
    ),
    // CuTe, TMA, Triton.
    ("cute-swizzle-grid", &["cute-swizzle:b=2,mbase=3,s=3,rows=8,cols=32", "--view", "grid", "--dtype", "fp16"]),
    ("tma-128b-grid", &["cute-tma:mode=128b,rows=8,dtype=fp32", "--view", "grid", "--dtype", "fp32"]),
    (
        "triton-swizzled-grid",
        &["triton-swizzled:vec=8,perphase=1,maxphase=4,order=10,rows=16,cols=32", "--view", "grid", "--dtype", "fp16"],
    ),
    ("triton-nvmma-grid", &["triton-nvmma:swizzle=64,bits=16,rows=8", "--view", "grid"]),
    ("triton-nvmma-chain", &["triton-nvmma:swizzle=64,bits=16,rows=8", "--view", "chain"]),
    // Layout search: the winners against the naive tile.
    (
        "search-best-gfx942",
        &[
            "ck-xor-preshuffle:m=128,k=64,kpack=16",
            "--view",
            "banks",
            "--arch",
            "gfx942",
            "--pattern",
            "mfma16",
            "--dtype",
            "fp16",
        ],
    ),
    (
        "search-naive-sm90",
        &["packed((128,64))", "--view", "banks", "--arch", "sm90", "--pattern", "ldmatrix", "--dtype", "fp16"],
    ),
    (
        "search-best-sm90",
        &[
            "ck-xor-preshuffle:m=128,k=64,kpack=8",
            "--view",
            "banks",
            "--arch",
            "sm90",
            "--pattern",
            "ldmatrix",
            "--dtype",
            "fp16",
        ],
    ),
    (
        "search-best-sm80-grid",
        &["ck-xor-preshuffle:m=64,k=32,kpack=4", "--view", "grid", "--dtype", "fp32", "--arch", "sm80", "--rows", "8"],
    ),
    // Tile distributions: owner grids (SPEC is a distribution here).
    ("dist-mfma-a-owners", &["mfma32x32x8_a", "--view", "distribution"]),
    (
        "dist-fmha-k-owners",
        &[
            "tile_distribution_encoding<sequence<1>, tuple<sequence<8, 4, 4>, sequence<16, 2>>, tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<2>, sequence<1, 0>>, sequence<1, 2>, sequence<0, 1>>",
            "--view",
            "distribution",
            "--rows",
            "16",
            "--title",
            "fmha forward K, async copy: 256 threads, 128 x 32 fp16 (first 16 rows)",
        ],
    ),
];

/// What one place of a chapter holds, and how the test gets it again.
enum Source {
    /// A console block's command: its stdout and stderr, and its exit code when not 0.
    Console(String),
    /// What a command prints on stdout (it must succeed).
    Stdout(String),
    /// A file of the repository from its line `from` (1-based).
    Copy { path: String, from: usize },
}

/// One place of a chapter and what it shows now.
struct Shown {
    /// The chapter's file name and the 1-based line of the command or mark.
    chapter: String,
    line: usize,
    source: Source,
    /// The chapter's lines `range` hold `lines`.
    range: std::ops::Range<usize>,
    lines: Vec<String>,
}

/// A chapter's places, and its blocks marked not run (first command, reason).
#[derive(Default)]
struct Chapter {
    shown: Vec<Shown>,
    not_run: Vec<(String, String)>,
}

fn chapters() -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(Path::new(ROOT).join("docs/src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    files
}

/// Whether a quote of `text` is still open at its end (as `sh` reads it:
/// single quotes, double quotes with backslash escapes, a final backslash).
fn open(text: &str) -> bool {
    let (mut single, mut double, mut escaped) = (false, false, false);
    for c in text.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if !single => escaped = true,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            _ => {}
        }
    }
    single || double || escaped
}

/// The text of a `<!-- KEY: TEXT -->` mark.
fn mark<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.strip_prefix("<!-- ")?.strip_suffix(" -->")?.strip_prefix(key)?.strip_prefix(": ")
}

/// Reads one chapter; malformed blocks and marks are returned as errors.
fn parse(name: &str, text: &str) -> Result<Chapter, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut chapter = Chapter::default();
    let end_of = |from: usize, end: &str| -> Result<usize, String> {
        (from..lines.len()).find(|&j| lines[j] == end).ok_or(format!("{name}:{from}: no `{end}` closes this mark"))
    };
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(command) = mark(line, "output of") {
            let end = end_of(i + 1, "<!-- end of output -->")?;
            let range = i + 1..end;
            let shown = lines[range.clone()].iter().map(|l| l.to_string()).collect();
            let source = Source::Stdout(command.to_string());
            chapter.shown.push(Shown { chapter: name.into(), line: i + 1, source, range, lines: shown });
            i = end + 1;
        } else if let Some(what) = mark(line, "copy of") {
            let end = end_of(i + 1, "<!-- end of copy -->")?;
            let (path, from) = match what.split_once(" from line ") {
                Some((path, from)) => (path, from.parse().map_err(|_| format!("{name}:{}: line `{from}`", i + 1))?),
                None => (what, 1),
            };
            let mut range = i + 1..end;
            if lines.get(i + 1).is_some_and(|l| l.starts_with("```")) && end > i + 2 && lines[end - 1] == "```" {
                range = i + 2..end - 1;
            }
            let shown = lines[range.clone()].iter().map(|l| l.to_string()).collect();
            let source = Source::Copy { path: path.to_string(), from };
            chapter.shown.push(Shown { chapter: name.into(), line: i + 1, source, range, lines: shown });
            i = end + 1;
        } else if mark(line, "not run").is_some()
            && !lines.get(i + 1).is_some_and(|l| *l == "```console" || *l == "```sh")
        {
            return Err(format!("{name}:{}: a `not run` mark that no console or sh block follows", i + 1));
        } else if let Some(info) = line.strip_prefix("```") {
            let end = end_of(i + 1, "```")?;
            let not_run = if i > 0 { mark(lines[i - 1], "not run") } else { None };
            let body = &lines[i + 1..end];
            match (info, not_run) {
                ("console" | "sh", Some(reason)) => {
                    let first = body.first().copied().unwrap_or_default();
                    let first = first.strip_prefix("$ ").unwrap_or(first);
                    chapter.not_run.push((first.to_string(), reason.to_string()));
                }
                ("sh", None) => {
                    return Err(format!(
                        "{name}:{}: an `sh` block: write it as a `console` block with `$ ` before each command \
                         and its output, or mark it `<!-- not run: REASON -->`",
                        i + 1
                    ));
                }
                ("console", None) => {
                    let mut j = i + 1;
                    while j < end {
                        let Some(first) = lines[j].strip_prefix("$ ") else {
                            return Err(format!("{name}:{}: a console line that no `$ ` command prints", j + 1));
                        };
                        let (at, mut command) = (j + 1, first.to_string());
                        j += 1;
                        while open(&command) && j < end {
                            command.push('\n');
                            command.push_str(lines[j]);
                            j += 1;
                        }
                        let start = j;
                        while j < end && !lines[j].starts_with("$ ") {
                            j += 1;
                        }
                        let shown = lines[start..j].iter().map(|l| l.to_string()).collect();
                        let source = Source::Console(command);
                        chapter.shown.push(Shown {
                            chapter: name.into(),
                            line: at,
                            source,
                            range: start..j,
                            lines: shown,
                        });
                    }
                }
                _ => {}
            }
            i = end + 1;
        } else {
            i += 1;
        }
    }
    Ok(chapter)
}

/// Runs `command` through `sh` from the repository root, the built `cktile`
/// first on `PATH`; stdout, or stdout and stderr together, and the status.
fn run(command: &str, with_stderr: bool) -> (String, std::process::ExitStatus) {
    let bin = Path::new(env!("CARGO_BIN_EXE_cktile")).parent().unwrap();
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let script = if with_stderr { format!("exec 2>&1\n{command}") } else { command.to_string() };
    let o = Command::new("sh").arg("-c").arg(script).current_dir(ROOT).env("PATH", path).output().unwrap();
    (String::from_utf8_lossy(&o.stdout).into_owned(), o.status)
}

/// What a place should hold now.
fn now(source: &Source) -> Result<Vec<String>, String> {
    let lines = |text: &str| text.lines().map(str::to_string).collect::<Vec<_>>();
    match source {
        Source::Console(command) => {
            let (out, status) = run(command, true);
            let mut out = lines(&out);
            match status.code() {
                Some(0) => {}
                Some(code) => out.push(format!("(exit code {code})")),
                None => return Err(format!("killed by a signal ({status})")),
            }
            Ok(out)
        }
        Source::Stdout(command) => {
            let (out, status) = run(command, false);
            if !status.success() {
                return Err(format!("failed ({status})"));
            }
            Ok(lines(&out))
        }
        Source::Copy { path, from } => {
            let text = std::fs::read_to_string(Path::new(ROOT).join(path)).map_err(|e| format!("{path}: {e}"))?;
            Ok(lines(&text).into_iter().skip(from - 1).collect())
        }
    }
}

fn describe(source: &Source) -> String {
    match source {
        Source::Console(command) => format!("`$ {command}`"),
        Source::Stdout(command) => format!("the output of `{command}`"),
        Source::Copy { path, from } => format!("the copy of {path} from line {from}"),
    }
}

/// The first line where `shown` and `now` differ, as a message.
fn first_difference(shown: &[String], now: &[String]) -> Option<String> {
    let at = (0..shown.len().max(now.len())).find(|&k| shown.get(k) != now.get(k))?;
    let show = |l: Option<&String>| l.map_or("(nothing: the output ends here)".to_string(), |l| format!("{l:?}"));
    Some(format!(
        "its line {} differs:\n    the chapter: {}\n    now:         {}",
        at + 1,
        show(shown.get(at)),
        show(now.get(at))
    ))
}

fn bless() -> bool {
    std::env::var_os("CKTILE_BLESS").is_some_and(|v| v == "1")
}

#[test]
fn every_guide_output_is_what_its_command_prints() {
    let (mut failures, mut count) = (Vec::new(), 0);
    for path in chapters() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let chapter = match parse(&name, &text) {
            Ok(chapter) => chapter,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        // Replaced from the last place up, so the earlier ranges stay put.
        for shown in chapter.shown.iter().rev() {
            count += 1;
            let what = describe(&shown.source);
            match now(&shown.source) {
                Err(e) => failures.push(format!("{}:{}: {what}: {e}", shown.chapter, shown.line)),
                Ok(now) => {
                    if let Some(difference) = first_difference(&shown.lines, &now) {
                        failures.push(format!("{}:{}: {what}: {difference}", shown.chapter, shown.line));
                        lines.splice(shown.range.clone(), now);
                    }
                }
            }
        }
        if bless() {
            let mut new = lines.join("\n");
            if text.ends_with('\n') {
                new.push('\n');
            }
            if new != text {
                std::fs::write(&path, new).unwrap();
            }
        }
    }
    // The chapters quote about 150 outputs; an empty count means a broken parse.
    assert!(count >= 140, "only {count} outputs found");
    failures.reverse();
    if bless() {
        eprintln!("rewrote {} places:\n{}", failures.len(), failures.join("\n"));
    } else {
        assert!(
            failures.is_empty(),
            "{} of {count} places of the guide are not what their commands print now \
             (`CKTILE_BLESS=1 cargo test --test guide_outputs` rewrites them):\n\n{}",
            failures.len(),
            failures.join("\n\n")
        );
    }
}

#[test]
fn the_blocks_not_run_are_the_listed_ones() {
    let mut found = Vec::new();
    for path in chapters() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let chapter = parse(&name, &std::fs::read_to_string(&path).unwrap()).unwrap();
        for (command, reason) in chapter.not_run {
            assert!(reason.len() > 10, "{name}: `{command}` is not run without a reason");
            eprintln!("not run: {name}: `{command}`: {reason}");
            found.push((name.clone(), command));
        }
    }
    let listed: Vec<_> = NOT_RUN.iter().map(|&(c, l)| (c.to_string(), l.to_string())).collect();
    assert_eq!(found, listed);
}

#[test]
fn every_picture_is_what_cktile_draws() {
    let images = Path::new(ROOT).join("docs/src/images");
    let scratch = std::env::temp_dir().join(format!("cktile-guide-images-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let mut failures = Vec::new();
    for (name, args) in FIGURES {
        let drawn = scratch.join(format!("{name}.svg"));
        let o = Command::new(env!("CARGO_BIN_EXE_cktile"))
            .arg("render")
            .args(*args)
            .arg("-o")
            .arg(&drawn)
            .output()
            .unwrap();
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let drawn = std::fs::read(&drawn).unwrap();
        let committed = images.join(format!("{name}.svg"));
        if std::fs::read(&committed).ok().as_ref() != Some(&drawn) {
            failures.push(format!("docs/src/images/{name}.svg is not what `cktile render` draws now"));
            if bless() {
                std::fs::write(&committed, &drawn).unwrap();
            }
        }
    }
    std::fs::remove_dir_all(&scratch).unwrap();
    // Every picture a chapter shows is one of FIGURES, and every committed picture is shown.
    let names: Vec<&str> = FIGURES.iter().map(|(n, _)| *n).collect();
    let mut shown = Vec::new();
    for path in chapters() {
        let text = std::fs::read_to_string(&path).unwrap();
        for piece in text.split("images/").skip(1) {
            let name = piece.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).next().unwrap();
            if !piece[name.len()..].starts_with(".svg") {
                continue;
            }
            assert!(names.contains(&name), "{}: images/{name}.svg is not drawn by FIGURES", path.display());
            shown.push(name.to_string());
        }
    }
    for entry in std::fs::read_dir(&images).unwrap() {
        let file = entry.unwrap().file_name().to_string_lossy().into_owned();
        let name = file.strip_suffix(".svg").unwrap_or(&file);
        assert!(shown.iter().any(|s| s == name), "docs/src/images/{file} is shown by no chapter");
    }
    if bless() {
        eprintln!("redrew {} pictures:\n{}", failures.len(), failures.join("\n"));
    } else {
        assert!(
            failures.is_empty(),
            "{}\n(`CKTILE_BLESS=1 cargo test --test guide_outputs` draws them again)",
            failures.join("\n")
        );
    }
}

/// The API docs' crate page (`src/lib.rs`) links every chapter of the
/// guide's table of contents, and nothing else under `docs/src/`.
#[test]
fn the_crate_page_links_every_chapter() {
    let lib = std::fs::read_to_string(Path::new(ROOT).join("src/lib.rs")).unwrap();
    let page: String = lib.lines().filter_map(|l| l.strip_prefix("//!")).collect::<Vec<_>>().join("\n");
    let prefix = "https://github.com/cktile/cktile/blob/main/docs/src/";
    let linked: Vec<&str> = page.split(prefix).skip(1).map(|p| p.split(')').next().unwrap()).collect();
    let summary = std::fs::read_to_string(Path::new(ROOT).join("docs/src/SUMMARY.md")).unwrap();
    let chapters: Vec<&str> = summary.split("](").skip(1).map(|p| p.split(')').next().unwrap()).collect();
    for chapter in &chapters {
        assert!(linked.contains(chapter), "src/lib.rs does not link the chapter {chapter}");
    }
    for link in &linked {
        assert!(
            Path::new(ROOT).join("docs/src").join(link).exists(),
            "src/lib.rs links {link}, which is not a chapter"
        );
    }
}
