//! The analyzer's subcommands run as a user runs them: `cktile bank` (one
//! JSON request on stdin, one JSON object out) and `cktile analyze` (a
//! readable table or JSON), with their exit codes and error messages.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn cktile(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cktile")).args(args).output().expect("the binary runs")
}

fn bank(request: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .arg("bank")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child.stdin.take().expect("stdin").write_all(request.as_bytes()).expect("write");
    child.wait_with_output().expect("wait")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).expect("stdout is one JSON object")
}

#[test]
fn bank_counts_the_omniperf_example() {
    // Three lanes read bank 0 at three different words, lane 2 is inactive:
    // a 3-way phase plus the idle second phase = 4 index accesses, 2 conflicts.
    let o = bank(r#"{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [0, 128, null, 256]}"#);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["phases"], 2);
    assert_eq!(v["cycles"], 4);
    assert_eq!(v["conflict_cycles"], 2);
    assert_eq!(v["max_ways"], 3);
    assert_eq!(v["bank_conflict_rate_pct"], 100.0 * (2.0 / 32.0) / 2.0);
    assert_eq!(v["theoretical_bytes"], 512);
    assert_eq!(v["active_lanes"], 3);
    assert_eq!(v["assumption"], serde_json::Value::Null);
    let phase0 = &v["phase_detail"][0];
    assert_eq!(phase0["lanes"].as_array().map(Vec::len), Some(32));
    assert_eq!(
        (phase0["active_lanes"].clone(), phase0["cycles"].clone(), phase0["ways"].clone()),
        (3.into(), 3.into(), 3.into())
    );
    assert_eq!(
        phase0["conflicts"],
        serde_json::json!([{"bank": 0, "ways": 3, "words": [
            {"address": 0, "lanes": [0]}, {"address": 128, "lanes": [1]}, {"address": 256, "lanes": [3]}
        ]}])
    );
    assert_eq!(v["phase_detail"][1]["cycles"], 1, "the idle phase still costs a cycle on AMD");
}

#[test]
fn bank_reports_sources_assumptions_and_disputes() {
    // Sourced: gfx942's ds_write_b64 (rocKE, kuhar, HipKittens on gfx950).
    let o = bank(r#"{"arch": "gfx942", "op": "ds_write_b64", "addresses": [0, 8]}"#);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!((v["assumption"].is_null(), v["disputed"].is_null()), (true, true), "{v}");
    assert!(v["sources"].as_str().is_some_and(|s| s.contains("rocKE")), "{v}");
    assert_eq!((v["phases"].clone(), v["cycles"].clone(), v["banks"].clone()), (4.into(), 4.into(), 32.into()));
    // Assumed: ds_write2_b32 on gfx942; both addresses of each lane, 2 x 2 phases.
    let o = bank(r#"{"arch": "gfx942", "op": "ds_write2_b32(0,32)", "addresses": [0, 4]}"#);
    let v = json(&o);
    assert!(v["assumption"].as_str().is_some_and(|s| s.contains("read2/write2")), "{v}");
    assert_eq!((v["op"].clone(), v["phases"].clone()), ("ds_write2_b32(0,32)".into(), 4.into()));
    assert_eq!(v["phase_detail"][2]["access"], 1);
    // Disputed: gfx950's ds_read_b32, in the report and in the text of `analyze`.
    let o = bank(r#"{"arch": "gfx950", "op": "ds_read_b32", "addresses": [0, 128]}"#);
    let v = json(&o);
    assert!(v["disputed"].as_str().is_some_and(|s| s.contains("gfx950-b32x64")), "{v}");
    assert_eq!((v["banks"].clone(), v["conflict_cycles"].clone()), (32.into(), 1.into()));
    let o = bank(r#"{"arch": "gfx950-b32x64", "op": "ds_read_b32", "addresses": [0, 128]}"#);
    let v = json(&o);
    assert_eq!(
        (v["banks"].clone(), v["phases"].clone(), v["conflict_cycles"].clone()),
        (64.into(), 1.into(), 0.into())
    );
    let o = cktile(&[
        "analyze",
        "packed((64,64))",
        "--arch",
        "gfx950",
        "--pattern",
        "columns",
        "--op",
        "ds_read_b32",
        "--dtype",
        "fp32",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Note (disputed): "), "{}", stdout(&o));
}

#[test]
fn bank_nvidia_broadcast_and_ldmatrix() {
    let same: Vec<String> = (0..32).map(|_| "64".to_string()).collect();
    let o = bank(&format!(r#"{{"arch": "sm80", "op": "ld.shared.b32", "addresses": [{}]}}"#, same.join(",")));
    let v = json(&o);
    assert_eq!(
        (v["cycles"].clone(), v["conflict_cycles"].clone()),
        (1.into(), 0.into()),
        "a broadcast is one wavefront"
    );
    // ldmatrix.x1: eight 16-byte rows 128 bytes apart share one bank quad: 8 wavefronts.
    let rows: Vec<String> = (0..8).map(|r| (r * 128).to_string()).collect();
    let o = bank(&format!(r#"{{"arch": "sm90", "op": "ldmatrix.x1", "addresses": [{}]}}"#, rows.join(",")));
    let v = json(&o);
    assert_eq!((v["cycles"].clone(), v["max_ways"].clone()), (8.into(), 8.into()));
}

/// Addresses given to lanes the instruction does not read (lanes 8-31 of
/// `ldmatrix.x1`) are named in `unread_lanes` and not counted: the issue's
/// fuzz input, 10 addresses for an 8-row matrix.
#[test]
fn bank_names_the_addresses_an_instruction_does_not_read() {
    let o = bank(r#"{"arch": "sm90", "op": "ldmatrix.x1", "addresses": [0, 16, 32, 48, 64, 80, 96, 112, 128, 144]}"#);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!((&v["active_lanes"], &v["unread_lanes"]), (&8.into(), &serde_json::json!([8, 9])));
    let o = bank(r#"{"arch": "sm90", "op": "ldmatrix.x4", "addresses": [0, 16, 32, 48]}"#);
    assert_eq!(json(&o)["unread_lanes"], serde_json::json!([]));
}

#[test]
fn bank_unknown_names_list_the_valid_ones() {
    let o = bank(r#"{"arch": "gfx1030", "op": "ds_read_b32", "addresses": [0]}"#);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "unknown name `gfx1030`; expected one of: gfx90a, gfx942, gfx950, gfx950-b32x64, gfx1100, gfx1201, gfx1250, sm80, sm90"
        ),
        "{}",
        stderr(&o)
    );
    let o = bank(r#"{"arch": "gfx942", "op": "ds_read_b48", "addresses": [0]}"#);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ds_read_b32, ds_read_b64, ds_read_b96, ds_read_b128"), "{}", stderr(&o));
    assert!(stderr(&o).contains("ldmatrix.x1"), "{}", stderr(&o));
    let o = bank(r#"{"arch": "gfx942", "op": "ds_read_b64_tr_b16", "addresses": [0]}"#);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("gfx942 has no ds_read_b64_tr_b16 instruction"), "{}", stderr(&o));
    let o = bank(r#"{"arch": "sm80", "op": "stmatrix.x4", "addresses": [0]}"#);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("sm80 has no stmatrix.x4 instruction"), "{}", stderr(&o));
}

#[test]
fn bank_malformed_requests_exit_2() {
    let cases: &[(&str, &str)] = &[
        (r#"{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [0,"#, "malformed JSON request"),
        ("", "malformed JSON request"),
        ("[0, 128]", "the request must be one JSON object"),
        (r#"["gfx90a", "ds_read_b32", [0]]"#, "the request must be one JSON object"),
        (r#"{"op": "ds_read_b32", "addresses": [0]}"#, "missing field `arch`"),
        (r#"{"arch": 90, "op": "ds_read_b32", "addresses": [0]}"#, "invalid type: integer `90`, expected a string"),
        (
            r#"{"arch": "gfx90a", "op": "ds_read_b32", "addresses": 0}"#,
            "expected an array with one byte address (or null) per lane",
        ),
        (r#"{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [0, -4]}"#, "addresses[1] is -4"),
        (r#"{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [0, "8"]}"#, "addresses[1] is \"8\""),
        (
            r#"{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [0], "lanes": 1}"#,
            "unknown field `lanes`, expected one of `arch`, `op`, `addresses`",
        ),
    ];
    for (request, message) in cases {
        let o = bank(request);
        assert_eq!(o.status.code(), Some(2), "{request}");
        let err = stderr(&o);
        assert!(err.contains(message), "{request}: expected `{message}` in\n{err}");
        assert!(!err.contains("panicked"), "{request}: {err}");
        assert!(stdout(&o).is_empty(), "{request}");
    }
}

#[test]
fn bank_misaligned_and_too_many_lanes() {
    let o = bank(r#"{"arch": "gfx942", "op": "ds_read_b128", "addresses": [0, 8]}"#);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("lane 1: address 8 is not a multiple of 16"), "{}", stderr(&o));
    let lanes: Vec<String> = (0..33).map(|l| (l * 4).to_string()).collect();
    let o = bank(&format!(r#"{{"arch": "sm90", "op": "ld.shared.b32", "addresses": [{}]}}"#, lanes.join(",")));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("33 lane addresses given; the chip has 32 lanes per wave"), "{}", stderr(&o));
}

#[test]
fn analyze_prints_the_table_and_the_worst_phase() {
    let o = cktile(&["analyze", "packed((128,64))", "--arch", "gfx942", "--pattern", "mfma16", "--dtype", "fp16"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    for line in [
        "ds_read_b128, pattern mfma16 on gfx942",
        "Instructions                16  instructions",
        "Index Accesses             512  cycles",
        "Bank Conflict              384  cycles",
        "Bank Conflict Rate        9.38  pct",
        "Max Ways                     4  words per bank",
        "Theoretical Bytes        65536  bytes",
        "Worst: instruction 0, phase 0: lanes 0-3, 20-23 (8 active), 4 cycles, 4-way",
        "bank 4: 4 words: 528 (lane 20), 656 (lane 21), 784 (lane 22), 912 (lane 23)",
    ] {
        assert!(text.contains(line), "expected `{line}` in\n{text}");
    }
}

#[test]
fn analyze_catalogue_entries_and_ops() {
    let o = cktile(&[
        "analyze",
        "ck-universal-a:m=128,k=64",
        "--arch",
        "gfx942",
        "--pattern",
        "rows",
        "--op",
        "ds_write_b128",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("No bank conflicts"), "{}", stdout(&o));
    let o = cktile(&[
        "analyze",
        "packed((64,64))",
        "--arch",
        "sm80",
        "--pattern",
        "columns",
        "--op",
        "ld.shared.b32",
        "--dtype",
        "fp32",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A warp reads 32 rows of one fp32 column: 256-byte rows, every lane in bank 0.
    assert!(stdout(&o).contains("Max Ways                     32  words per bank"), "{}", stdout(&o));
}

#[test]
fn analyze_json() {
    let o = cktile(&[
        "analyze",
        "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64",
        "--arch",
        "sm90",
        "--pattern",
        "ldmatrix",
        "--json",
        "--dtype",
        "fp16",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["op"], "ldmatrix.x4");
    assert_eq!(v["pattern"], "ldmatrix");
    assert_eq!(v["instructions"], 4);
    assert_eq!(
        (v["phases"].clone(), v["cycles"].clone(), v["conflict_cycles"].clone()),
        (16.into(), 16.into(), 0.into())
    );
    assert_eq!(v["per_instruction"].as_array().map(Vec::len), Some(4));
    assert_eq!(v["worst"]["op"], "ldmatrix.x4");

    let o =
        cktile(&["analyze", "packed((16,64))", "--arch", "sm90", "--pattern", "ldmatrix", "--json", "--dtype", "fp16"]);
    let v = json(&o);
    assert_eq!(
        (v["cycles"].clone(), v["conflict_cycles"].clone(), v["max_ways"].clone()),
        (128.into(), 112.into(), 8.into())
    );
    assert_eq!(v["worst"]["phase_detail"][0]["conflicts"][0]["ways"], 8);
}

#[test]
fn analyze_bad_input_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--arch", "gfx1030", "--pattern", "mfma16"],
            "unknown name `gfx1030`; expected one of: gfx90a, gfx942, gfx950, gfx950-b32x64, gfx1100, gfx1201, gfx1250, sm80, sm90",
        ),
        (
            &["--arch", "gfx942", "--pattern", "diagonal"],
            "expected one of: rows, columns, mfma16, mfma32, ldmatrix, mma_sync_a",
        ),
        (&["--arch", "gfx942", "--pattern", "rows"], "the `rows` pattern needs an instruction (--op)"),
        (
            &["--arch", "gfx942", "--pattern", "mfma16", "--op", "ds_write_b128"],
            "the `mfma16` pattern cannot issue ds_write_b128",
        ),
        (
            &["--arch", "gfx942", "--pattern", "rows", "--op", "ld.shared.b32"],
            "gfx942 has no ld.shared.b32 instruction",
        ),
        (&["--arch", "gfx942", "--pattern", "mfma16", "--dtype", "fp7"], "--dtype"),
    ];
    for (args, message) in cases {
        let mut all = vec!["analyze", "packed((128,64))"];
        all.extend_from_slice(args);
        if !args.contains(&"--dtype") {
            all.extend_from_slice(&["--dtype", "fp16"]);
        }
        let o = cktile(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(message), "{args:?}: expected `{message}` in\n{}", stderr(&o));
    }
    let o = cktile(&["analyze", "packed((4,8,2))", "--arch", "gfx942", "--pattern", "mfma16", "--dtype", "fp16"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("this descriptor has 3 top dimension(s)"), "{}", stderr(&o));
}

#[test]
fn analyzer_subcommands_have_help_with_an_example() {
    for sub in ["bank", "analyze"] {
        let o = cktile(&[sub, "--help"]);
        assert!(o.status.success());
        assert!(stdout(&o).contains(&format!("cktile {sub}")), "{sub} --help has an example:\n{}", stdout(&o));
    }
    let help = stdout(&cktile(&["analyze", "--help"]));
    assert!(help.contains("mfma16") && help.contains("mma_sync_a"), "{help}");
    let help = stdout(&cktile(&["bank", "--help"]));
    assert!(help.contains("\"addresses\""), "{help}");
}

/// The element type travels with a catalogue entry: `dtype=fp8` in the entry
/// and `--dtype fp8` give the same answer (conflict-free; fp16's default
/// would give 128 conflict cycles), `dtype=fp32` is analysed as 4-byte
/// elements, a `--dtype` that differs from the entry's is refused naming
/// both, and a spec without an element type is refused naming the spec.
#[test]
fn analyze_takes_the_element_type_from_the_entry() {
    let run = |entry: &str, extra: &[&str]| {
        let mut args = vec!["analyze", entry, "--arch", "gfx942", "--pattern", "mfma16", "--json"];
        args.extend_from_slice(extra);
        cktile(&args)
    };
    let fields = |o: &std::process::Output| {
        assert!(o.status.success(), "{}", stderr(o));
        let v = json(o);
        (v["element_bytes"].as_u64(), v["cycles"].as_u64(), v["conflict_cycles"].as_u64())
    };
    let in_entry = fields(&run("ck-universal-a:m=128,k=64,dtype=fp8", &[]));
    assert_eq!(in_entry, (Some(1), Some(64), Some(0)));
    assert_eq!(fields(&run("ck-universal-a:m=128,k=64", &["--dtype", "fp8"])), in_entry);
    assert_eq!(fields(&run("ck-universal-a:m=128,k=64,dtype=fp8", &["--dtype", "int8"])), in_entry);
    assert_eq!(fields(&run("ck-universal-a:m=128,k=64,dtype=fp32", &[])), (Some(4), Some(256), Some(0)));
    assert_eq!(fields(&run("ck-universal-a:m=128,k=64", &[])), (Some(2), Some(128), Some(0)));

    let o = run("ck-universal-a:m=128,k=64,dtype=fp8", &["--dtype", "fp16"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "ck-universal-a is written with dtype=fp8 (1-byte elements) but the element type asked for is fp16 \
             (2-byte elements)"
        ),
        "{}",
        stderr(&o)
    );
    for spec in ["packed((128,64))", "row-padded:rows=128,cols=64,pad=8"] {
        let o = run(spec, &[]);
        assert_eq!(o.status.code(), Some(2), "{spec}");
        let name = spec.split(':').next().unwrap_or(spec);
        assert!(stderr(&o).contains(&format!("`{name}` carries no element type")), "{spec}: {}", stderr(&o));
    }
    // Render and dma-plan take the element type the same way.
    let o = cktile(&["render", "packed((4,8))", "--view", "grid"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("`packed((4,8))` carries no element type"), "{}", stderr(&o));
    let o = cktile(&[
        "dma-plan",
        "ck-universal-a:m=128,k=64,dtype=fp8",
        "--global-strides",
        "4096,1",
        "--width",
        "4",
        "--dtype",
        "fp32",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("dtype=fp8 (1-byte elements)"), "{}", stderr(&o));
    let o = cktile(&[
        "dma-plan",
        "ck-universal-a:m=128,k=64,dtype=fp8",
        "--global-strides",
        "4096,1",
        "--width",
        "4",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `cktile bank` refuses an access past the chip's shared memory:
/// lane 5 at byte 65,536 of gfx942's 64 KB, which is inside gfx950's 160 KB.
#[test]
fn bank_refuses_an_access_past_the_chips_shared_memory() {
    let past = r#"{"arch": "gfx942", "op": "ds_read_b32", "addresses": [0, 4, 8, 12, 16, 65536]}"#;
    let o = bank(past);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("lane 5: the 4-byte access at address 65536 ends at 65540"), "{err}");
    assert!(err.contains("65536 bytes of shared memory on gfx942"), "{err}");
    let o = bank(&past.replace("gfx942", "gfx950"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("\"max_ways\""), "{}", stdout(&o));
}
