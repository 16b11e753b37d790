//! Every command refuses, before allocating, what it cannot finish in
//! bounded time and memory, and says the limit: input reads, enumerations,
//! tile analyses, direct-to-LDS plans and layout searches. Each limit is
//! tested at the largest accepted input (it finishes) and one past it (it is
//! refused with the numbers), as cheaply as the limit allows. Every run
//! here has at most 2 GiB of address space (`ulimit -v`), the memory bound
//! the CLI promises: an accepted input at its limit that needed more would
//! fail its run.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The 2 GiB address-space bound every run here has, in KiB.
const MEMORY_KIB: u64 = 2 << 20;

/// `cktile ARGS` with at most [`MEMORY_KIB`] of address space.
fn bounded(args: &[&str]) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(format!("ulimit -v {MEMORY_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_cktile"))
        .args(args);
    c
}

fn cktile(args: &[&str]) -> Output {
    bounded(args).output().expect("the binary runs")
}

/// Runs `args` with `input` on stdin (the command may stop reading early).
fn with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child =
        bounded(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    // A refusal closes the pipe before everything is written: not an error here.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("wait")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The command failed with exit code 2, printed nothing, and said `message`.
fn refused(o: &Output, message: &str) {
    assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
    assert!(stderr(o).contains(message), "expected `{message}` in\n{}", stderr(o));
    assert!(!stderr(o).contains("panicked"), "{}", stderr(o));
    assert!(o.stdout.is_empty());
}

const LIMIT: usize = 1 << 20;

#[test]
fn spec_files_and_stdin_are_read_up_to_one_mebibyte() {
    // /dev/zero never ends: the read stops at the limit.
    refused(&cktile(&["offsets", "@/dev/zero"]), "`/dev/zero` is longer than 1048576 bytes (1 MiB)");
    refused(&with_stdin(&["offsets", "-"], &vec![b' '; LIMIT + 1]), "stdin is longer than 1048576 bytes");
    refused(&with_stdin(&["bank"], &vec![0; LIMIT + 1]), "stdin is longer than 1048576 bytes");
    // A probe file is allowed 16 MiB (a full AMD run is about 1 MB), and no more.
    refused(&cktile(&["rules", "--ingest", "/dev/zero"]), "`/dev/zero` is longer than 16777216 bytes (16 MiB)");
    // Exactly the limit is read: a spec padded with spaces to 1 MiB builds.
    let mut spec = b"packed((4,8))".to_vec();
    spec.resize(LIMIT, b' ');
    let o = with_stdin(&["check", "-"], &spec);
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = std::env::temp_dir().join(format!("cktile-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("big.spec");
    std::fs::write(&file, &spec).unwrap();
    let at = format!("@{}", file.display());
    assert!(cktile(&["check", &at]).status.success());
    spec.push(b' ');
    std::fs::write(&file, &spec).unwrap();
    refused(&cktile(&["check", &at]), "is longer than 1048576 bytes");
    // A request padded to the limit is read; one byte more is refused.
    let mut req = br#"{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [0, 128]}"#.to_vec();
    req.resize(LIMIT, b'\n');
    assert!(with_stdin(&["bank"], &req).status.success());
    req.push(b'\n');
    refused(&with_stdin(&["bank"], &req), "stdin is longer than 1048576 bytes");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn non_utf8_input_is_refused() {
    refused(&with_stdin(&["offsets", "-"], &[0xff, 0xfe]), "stdin is not UTF-8 text");
}

#[test]
fn analyze_and_the_banks_view_cover_at_most_2_pow_24_elements() {
    // The issue's examples: a 51 GB allocation and minutes of counting.
    refused(
        &cktile(&[
            "analyze",
            "naive((1048576,1048576),(0,0))",
            "--arch",
            "gfx942",
            "--pattern",
            "rows",
            "--op",
            "ds_write_b128",
            "--dtype",
            "fp16",
        ]),
        "the descriptor has 1099511627776 coordinates, more than the 16777216",
    );
    refused(
        &cktile(&["analyze", "packed((100000,100000))", "--arch", "gfx942", "--pattern", "mfma16", "--dtype", "fp16"]),
        "10000000000 coordinates, more than the 16777216",
    );
    refused(
        &cktile(&[
            "render",
            "packed((4097,4096))",
            "--view",
            "banks",
            "--arch",
            "gfx942",
            "--pattern",
            "mfma16",
            "--dtype",
            "fp16",
        ]),
        "16781312 coordinates, more than the 16777216",
    );
    // The largest accepted tile is analysed.
    let o = cktile(&[
        "analyze",
        "packed((4096,4096))",
        "--arch",
        "gfx942",
        "--pattern",
        "mfma16",
        "--dtype",
        "fp16",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // 4096/16 row blocks x 4096/32 column blocks, 4-way conflicts in each phase.
    assert_eq!(v["instructions"], 256 * 128);
    assert_eq!(v["cycles"], 256 * 128 * 8 * 4);
}

#[test]
fn enumeration_is_bounded_by_coordinates_times_transforms() {
    refused(
        &cktile(&["check", "packed((4097,4096))"]),
        "the descriptor has 16781312 coordinates, more than the 16777216",
    );
    // Seven stages of two pass-throughs after the base: 15 transforms, 2^27 / 15 coordinates.
    let chain = format!(
        "packed((4096,4096)){}",
        " | transform(pass_through(4096) on [0] -> [0], pass_through(4096) on [1] -> [1])".repeat(7)
    );
    for sub in ["offsets", "check", "codegen"] {
        let mut args = vec![sub, chain.as_str()];
        if sub == "codegen" {
            args.extend(["--lang", "cuda"]);
        }
        let o = cktile(&args);
        if sub == "codegen" {
            // codegen still emits the offset function; it only skips the inverse.
            assert!(o.status.success(), "{}", stderr(&o));
            continue;
        }
        refused(&o, "16777216 coordinates, more than the 8947848");
    }
}

#[test]
fn dma_plans_fill_at_most_the_chips_lds() {
    // The issue's example needed 8 GB: 16 MiB of LDS is refused up front, naming gfx942's 64 KiB.
    refused(
        &cktile(&[
            "dma-plan",
            "packed((4096,4096))",
            "--global-strides",
            "4096,1",
            "--width",
            "4",
            "--dtype",
            "fp8",
            "--json",
        ]),
        "the layout spans 16777216 bytes, more than the 65536 bytes of shared memory one workgroup can use on gfx942",
    );
    // One row past gfx950's 160 KiB is refused ...
    let at = |rows: &str| {
        cktile(&[
            "dma-plan",
            &format!("packed(({rows},1024))"),
            "--global-strides",
            "1024,1",
            "--arch",
            "gfx950",
            "--width",
            "16",
            "--dtype",
            "fp8",
            "--json",
        ])
    };
    refused(&at("161"), "the layout spans 164864 bytes, more than the 163840 bytes");
    // ... and exactly 160 KiB is planned, verified and listed.
    let o = at("160");
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["lds_bytes"], 160 * 1024);
    assert_eq!(v["gathers"].as_array().map(Vec::len), Some(160 * 1024 / 16));
    assert_eq!(v["gathers"][1]["global_byte"], 16);
}

#[test]
fn search_work_is_computed_up_front_and_bounded() {
    // The issue's example class: a 2^20-element tile took minutes. It no longer fits any chip's shared memory ...
    let o =
        cktile(&["search", "--tile", "1024x1024", "--dtype", "fp8", "--arch", "sm80", "--read", "ld.shared.b8:column"]);
    refused(&o, "the layout spans 1048576 bytes, more than the 166912 bytes of shared memory");
    // ... and a tile that fits is refused by the work it would take, computed before any is done.
    let o =
        cktile(&["search", "--tile", "256x512", "--dtype", "fp8", "--arch", "sm80", "--read", "ld.shared.b8:column"]);
    refused(&o, "search: work units = 443547648; a search takes at most 2^28 (268435456) work units");
    // Repeated accesses are bounded too: 129 column reads of 2^17 bytes are 129 * 2^17 lane accesses.
    let mut args = vec!["search", "--tile", "128x1024", "--dtype", "fp8", "--arch", "sm80"];
    for _ in 0..129 {
        args.extend(["--read", "ld.shared.b8:column"]);
    }
    refused(&cktile(&args), "lane accesses = 16908288; the patterns together make at most 2^24");
    // The xor-linear family's classes count too: 2^20 classes x 4 shapes of a 16x32 byte tile
    // would take the search past the bound, so that family is left out with its numbers and
    // the others are searched (issue 34: the whole search used to be refused).
    let o = cktile(&[
        "search",
        "--tile",
        "16x32",
        "--dtype",
        "fp8",
        "--arch",
        "sm80",
        "--read",
        "ld.shared.b8:column",
        "--write",
        "st.shared.b8:column",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let row = out.lines().find(|l| l.trim_start().starts_with("xor-linear")).unwrap_or_default();
    assert!(row.contains("0 members,      0 valid (not searched: 2^20 classes x "), "{row}");
}
