//! The `cktile` binary, run as a user runs it: output, JSON shape, exit
//! codes and error messages.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn cktile(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cktile")).args(args).output().expect("the binary runs")
}

/// `cktile ARGS` with `input` on its standard input.
fn cktile_with_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
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

const GEMM_K32_2024: &str = "naive((8,64,8),(8,64,1))
| transform(xor((64,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2])
| transform(unmerge((4,2)) on [0] -> [0,2], pass_through(64) on [1] -> [1], pass_through(8) on [2] -> [3])
| transform(merge((4,8)) on [0,3] -> [1], merge((64,2)) on [1,2] -> [0])";

#[test]
fn offsets_json_matches_the_closed_form() {
    let o = cktile(&["offsets", GEMM_K32_2024, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["lengths"], serde_json::json!([128, 32]));
    assert_eq!(v["element_space_size"], 4096);
    let offsets = v["offsets"].as_array().expect("offsets array");
    let valid = v["valid"].as_array().expect("valid array");
    assert_eq!((offsets.len(), valid.len()), (4096, 4096));
    for m in 0..128i64 {
        for k in 0..32i64 {
            // The 2024 form: ((k0*L + l) ^ (m' % (K0*L)))*8 + m'*K*L + k1, L = 2, K0 = 4.
            let expected = (((k / 8) * 2 + m % 2) ^ ((m / 2) % 8)) * 8 + (m / 2) * 64 + k % 8;
            assert_eq!(offsets[(m * 32 + k) as usize], expected, "({m}, {k})");
            assert_eq!(valid[(m * 32 + k) as usize], true);
        }
    }
    assert_eq!(v.as_object().map(|o| o.len()), Some(4), "exactly the four documented keys");
}

#[test]
fn offsets_of_padding_are_negative_and_invalid() {
    let o = cktile(&["offsets", "naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["offsets"], serde_json::json!([-2, -1, 0, 1, 2, 3, 4, 5, 6, 7]));
    assert_eq!(v["valid"], serde_json::json!([false, false, true, true, true, true, true, false, false, false]));
    assert_eq!(v["element_space_size"], 5);
}

#[test]
fn offsets_grid_for_two_dimensions() {
    let o = cktile(&["offsets", "naive((2,3),(10,1))"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "  d1:  0  1  2\nd0=0:  0  1  2\nd0=1: 10 11 12\n");
}

#[test]
fn offsets_at_one_coordinate_shows_every_level() {
    let o = cktile(&["offsets", "packed((4,8)) | transform(merge((4,8)) on [0,1] -> [0])", "--at", "13", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["offset"], 13);
    assert_eq!(v["levels"], serde_json::json!([[13], [1, 5], [13]]));
    let bad = cktile(&["offsets", "packed((4,8))", "--at", "4,0"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("coordinate dimension 0 is 4; it must be in [0, 4)"), "{}", stderr(&bad));
}

#[test]
fn check_reports_holes_and_vectors() {
    let o = cktile(&["check", "naive((4,8),(10,1))", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["injective"], true);
    assert_eq!(v["surjective"], false);
    assert_eq!(v["hole_count"], 6);
    assert_eq!(v["holes"], serde_json::json!([8, 9, 18, 19, 28, 29]));
    let text = stdout(&cktile(&["check", GEMM_K32_2024]));
    assert!(text.contains("bijective:   yes"), "{text}");
}

#[test]
fn check_reports_collisions() {
    let o = cktile(&["check", "naive((4,4),(1,1))", "--json"]);
    let v = json(&o);
    assert_eq!(v["injective"], false);
    assert_eq!(v["collision_count"], 9);
    assert_eq!(v["collisions"][0], serde_json::json!({"offset": 1, "first": [0, 1], "second": [1, 0]}));
}

#[test]
fn spec_from_file_and_stdin() {
    let dir = std::env::temp_dir().join(format!("cktile-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("tile.spec");
    std::fs::write(&path, "# a comment\npacked((2,2))\n").expect("write spec");
    let o = cktile(&["offsets", &format!("@{}", path.display()), "--json"]);
    assert_eq!(json(&o)["offsets"], serde_json::json!([0, 1, 2, 3]));

    let out = cktile_with_stdin(&["check", "-", "--json"], "packed((3,3))");
    assert_eq!(json(&out)["bijective"], true);

    let missing = cktile(&["check", "@/nonexistent/cktile.spec"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("cannot read `/nonexistent/cktile.spec`"));
}

/// `#` starts a comment in every text an `@file` holds, as the guide says:
/// a catalogue entry or a distribution's name after comment lines, with a
/// trailing comment, reads as the entry or name alone (the same answer as
/// the bare text), and a spec keeps its comments between lines.
#[test]
fn comments_in_files_are_read_alike_for_every_kind_of_text() {
    let dir = std::env::temp_dir().join(format!("cktile-comments-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        format!("@{}", path.display())
    };
    let entry = "ck-universal-a:m=128,k=64";
    for (name, text) in [
        ("lead.txt", format!("# the A tile\n{entry}\n")),
        ("trail.txt", format!("{entry}  # fp16 by default\n")),
        ("both.txt", format!("\n# the A tile\n  {entry} # fp16\n# end\n\n")),
    ] {
        let o = cktile(&["offsets", &file(name, &text), "--json"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert_eq!(json(&o), json(&cktile(&["offsets", entry, "--json"])), "{name}");
    }
    let spec = file(
        "spec.txt",
        "# a 4x8 tile\nnaive((4,8),(8,1)) # row-major\n# then merged\n| transform(merge((4,8)) on [0,1] -> [0])\n",
    );
    let o = cktile(&["offsets", &spec, "--json"]);
    assert_eq!(json(&o)["offsets"], serde_json::json!((0..32).collect::<Vec<_>>()), "{}", stderr(&o));
    let dist = file("dist.txt", "# the A operand\nmfma16x16x16_a  # 16x16x16\n");
    let o = cktile(&["distribution", &dist, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&o), json(&cktile(&["distribution", "mfma16x16x16_a", "--json"])));
    // CK's C++ spelling reads `#` comments too (beside its own `//`).
    let ck = "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>, tuple<sequence<2, 1>>, \
              tuple<sequence<0, 0>>, sequence<2>, sequence<1>>";
    let o =
        cktile(&["distribution", &file("ck.txt", &format!("# from CK\n// warp GEMM A\n{ck} # 16x16x16\n")), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&o), json(&cktile(&["distribution", ck, "--json"])));
    // A fault after a comment is still placed on its own line and column.
    let bad = file("bad.txt", "# the A tile\nck-universal-a:m=128,k=6x\n");
    let o = cktile(&["offsets", &bad]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_specs_exit_2_with_a_position() {
    let cases: &[(&str, &str)] = &[
        ("packed((4,8)) | transform(mergee((4,8)) on [0,1] -> [0])", "1:27: unknown name `mergee`"),
        ("packed((4,8)) | transform(merge((4,8)) on [0,2] -> [0])", "lower id 2 is out of range"),
        (
            "packed((4,8))\n| transform(merge((4,8)) on [0,0] -> [0])",
            "2:3: lower ids are not a permutation: 0 appears more than once",
        ),
        (
            "packed((4,8)) | transform(unmerge((3,3)) on [0] -> [0,1], pass_through(8) on [1] -> [2])",
            "unmerge: lower dimension 0 should have length 9",
        ),
        ("packed((4,0))", "is 0; every length must be at least 1"),
        ("packed((4,8)) | transform(xor((4,6)) on [0,1] -> [0,1])", "L1 = 6 is not a power of two"),
        (
            "naive((4294967296,4294967296),(4294967296,4294967296))",
            "element space size is 36893488138829168641, past the largest signed 64-bit index",
        ),
        (
            "packed((4,8)) | transform(pass_through(4,1) on [0] -> [0], pass_through(8) on [1] -> [1])",
            "pass_through takes 1 argument",
        ),
        ("packed((4,8)) trailing", "expected `|` or the end of the spec, found `trailing`"),
        ("", "expected a base descriptor"),
    ];
    for (spec, message) in cases {
        let o = cktile(&["offsets", spec]);
        assert_eq!(o.status.code(), Some(2), "{spec}");
        let err = stderr(&o);
        assert!(err.contains(message), "{spec}: expected `{message}` in\n{err}");
        assert!(!err.contains("panicked"), "{spec}: {err}");
    }
}

#[test]
fn too_large_to_enumerate_says_so() {
    let o = cktile(&["offsets", "packed((65536,65536))"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("4294967296 coordinates"), "{}", stderr(&o));
}

#[test]
fn default_run_summarises_the_gemm_descriptor() {
    // The main job: the CK Tile docs' LDS bank-conflict walk-through, an fp16
    // 128x64 A tile on gfx942, naive vs padded vs XOR-preshuffled layout.
    let o = cktile(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("fp16 128x64 GEMM A tile on gfx942"), "{text}");
    let row = |label: &str, nth: usize| -> Vec<String> {
        let line = text
            .lines()
            .filter(|l| l.starts_with(label))
            .nth(nth)
            .unwrap_or_else(|| panic!("no line {nth} starting with `{label}` in\n{text}"));
        line[label.len()..].split_whitespace().map(String::from).collect()
    };
    assert_eq!(row("  ", 0)[..], ["naive", "padded", "XOR", "(CK)"][..], "{text}");
    assert_eq!(row("storage (elements)", 0), ["8192", "9208", "8192"]);
    assert_eq!(row("overhead", 0), ["0.0%", "12.4%", "0.0%"]);
    // MFMA 16x16x16 reads with ds_read_b128: 4-way, 2-way, conflict-free.
    assert_eq!(row("  index accesses (cycles)", 0), ["512", "256", "128"]);
    assert_eq!(row("  bank conflict (cycles)", 0), ["384", "128", "0"]);
    assert_eq!(row("  max ways", 0), ["4", "2", "1"]);
    assert_eq!(row("  conflict rate", 0), ["9.38%", "3.12%", "0.00%"]);
    // Row writes with ds_write_b128: conflict-free for all three.
    assert_eq!(row("  index accesses (cycles)", 1), ["128", "128", "128"]);
    assert_eq!(row("  bank conflict (cycles)", 1), ["0", "0", "0"]);
    // Why each conflicting read conflicts, one line per layout, recomputed
    // here from the layouts: every byte named is the element's offset (fp16,
    // 2 bytes), in the bank named (gfx942: 32 banks of 4 bytes), the words
    // are distinct and as many as the layout's max ways.
    let specs = [("naive", "packed((128,64))"), ("padded", "row-padded:rows=128,cols=64,pad=8")];
    let why: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("Why the reads conflict")).skip(1).collect();
    for (i, ((name, spec), ways)) in specs.iter().zip([4, 2]).enumerate() {
        let line = why[i].trim_start();
        let rest = line
            .strip_prefix(&format!("{name}: instruction 0, phase 0, {ways}-way: bank "))
            .unwrap_or_else(|| panic!("{line}"));
        let (bank, rest) = rest.split_once(" serves bytes ").unwrap();
        let bank: u64 = bank.parse().unwrap();
        assert!(rest.ends_with(", multiples of 128 bytes (32 banks x 4 bytes) apart"), "{line}");
        let desc = cktile::layouts::resolve(spec).unwrap();
        let mut bytes = Vec::new();
        for word in rest.split(" (lane ").skip(1) {
            let coords = word.split_once("element (").unwrap().1.split_once(')').unwrap().0;
            let coords: Vec<i64> = coords.split(", ").map(|c| c.parse().unwrap()).collect();
            bytes.push(desc.calculate_offset(&coords) as u64 * 2);
        }
        let named: Vec<u64> = rest
            .split(" (lane ")
            .map(|part| part.rsplit([' ', ',']).next().unwrap().parse::<u64>())
            .filter_map(Result::ok)
            .collect();
        assert_eq!(named.len(), ways, "{line}");
        assert_eq!(bytes, named[..bytes.len()], "{line}: each byte is its element's");
        assert!(bytes.iter().all(|b| (b / 4) % 32 == bank), "{line}: all in bank {bank}");
        let mut distinct = bytes.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), ways, "{line}: {ways} distinct words");
    }
    assert!(!why[2].contains("XOR"), "the conflict-free XOR layout has no line: {}", why[2]);
    assert!(text.contains("max ways, the most distinct 4-byte words one bank serves in one phase"), "{text}");
}

#[test]
fn every_subcommand_has_help_with_an_example() {
    for sub in [
        "offsets",
        "check",
        "catalogue",
        "bank",
        "analyze",
        "search",
        "dma-plan",
        "codegen",
        "gpu-cases",
        "render",
        "equiv",
        "distribution",
        "transpose-load",
    ] {
        let o = cktile(&[sub, "--help"]);
        assert!(o.status.success());
        assert!(stdout(&o).contains(&format!("cktile {sub} ")), "{sub} --help has an example");
    }
}

/// The catalogue's one name is `catalogue`; `catalog`, its old spelling,
/// still runs it.
#[test]
fn catalog_is_the_catalogues_old_spelling() {
    let (new, old) = (cktile(&["catalogue", "--json"]), cktile(&["catalog", "--json"]));
    assert!(new.status.success() && old.status.success());
    assert_eq!(stdout(&new), stdout(&old));
    assert!(stdout(&cktile(&["--help"])).contains("  catalogue "));
}

#[test]
fn a_reader_closing_the_pipe_early_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .arg("gpu-cases")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(&first, b"# cktile hardwar");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// An error written to a closed stderr still exits with its own status (2
/// for a bad input, 1 for an I/O failure), never a panic's 101; so does a
/// usage error from the argument parser.
#[test]
fn a_closed_stderr_keeps_the_errors_exit_code() {
    for (args, code) in [
        (&["check", "packed((4,x))"][..], 2),
        (&["check", "@/nonexistent/cktile-spec"][..], 1),
        (&["check", "--no-such-flag"][..], 2),
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_cktile")).args(args).stderr(writer).output().unwrap();
        assert_eq!(out.status.code(), Some(code), "cktile {args:?} with stderr closed");
    }
}

/// Messages name the user's value: an NVIDIA chip for dma-plan, an AMD
/// pattern on an NVIDIA chip (and the reverse), and a huge bad spec is
/// quoted in a bounded window with its line:column.
#[test]
fn messages_name_the_users_value() {
    let o = cktile(&[
        "dma-plan",
        "ck-universal-a:m=128,k=64",
        "--global-strides",
        "4096,1",
        "--width",
        "4",
        "--arch",
        "sm90",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).trim(),
        "error: dma-plan (global_load_lds) does not run on sm90; global_load_lds is an AMD instruction (gfx942, \
         gfx950); NVIDIA has cp.async and TMA"
    );
    for (arch, pattern, valid) in [
        (
            "sm80",
            "mfma16",
            "it is an NVIDIA chip: use rows or columns (with ld.shared / st.shared), ldmatrix or mma_sync_a",
        ),
        ("sm90", "mfma32", "it is an NVIDIA chip"),
        ("gfx942", "ldmatrix", "it is an AMD chip: use rows or columns (with ds_read / ds_write), mfma16 or mfma32"),
        ("gfx90a", "mma_sync_a", "it is an AMD chip"),
    ] {
        let o = cktile(&["analyze", "packed((128,64))", "--dtype", "fp16", "--arch", arch, "--pattern", pattern]);
        assert_eq!(o.status.code(), Some(2), "{arch} {pattern}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!("the {pattern} pattern")) && err.contains(&format!("does not run on {arch}")),
            "{err}"
        );
        assert!(err.contains(valid), "{err}");
        assert!(!err.contains("mdim"), "{err}");
    }
    // A spec near the 1 MiB input limit with an error at its end: the message stays short.
    let big = format!("packed(({}x))", "1,".repeat(500_000));
    let path = std::env::temp_dir().join(format!("cktile-big-{}.spec", std::process::id()));
    std::fs::write(&path, &big).unwrap();
    let o = cktile(&["check", &format!("@{}", path.display())]);
    std::fs::remove_file(&path).ok();
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.len() < 400, "{} bytes of message", err.len());
    assert!(err.starts_with("error: 1:1000009: expected a number, found `x`\n  --> 1:1000009\n  | ...1,1,"), "{err}");
    assert!(err.trim_end().ends_with('^'), "{err}");
}

/// `offsets` explains its `[x]` marks with a legend, in the grid and in the
/// one-line-per-coordinate form, and prints none without padding.
#[test]
fn offsets_explains_padded_positions() {
    let legend = cktile::render::text::INVALID_LEGEND;
    for spec in [
        "packed((4,4)) | transform(left_pad(4,1) on [0] -> [0], right_pad(4,2) on [1] -> [1])",
        "naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])",
    ] {
        let text = stdout(&cktile(&["offsets", spec]));
        assert!(text.contains('[') && text.ends_with(&format!("{legend}\n")), "{text}");
    }
    assert!(legend.starts_with("[x]: padding: the coordinate has no valid offset"));
    let text = stdout(&cktile(&["offsets", "packed((4,4))"]));
    assert!(!text.contains("[x]"), "{text}");
}

/// `rules --json` prints the library's rule rows, one object each, with
/// exactly the six documented keys.
#[test]
fn rules_json_is_the_librarys_rule_table() {
    let o = cktile(&["rules", "--json", "--arch", "gfx90a"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = cktile::render::rules::rows(Some(&cktile::analyzer::arch::GFX90A));
    let views: Vec<_> = rows.iter().map(cktile::json::RuleJson::new).collect();
    assert_eq!(stdout(&o), format!("{}\n", serde_json::to_string(&views).unwrap()));
    let v = json(&o);
    let list = v.as_array().expect("one array");
    assert_eq!(list.len(), rows.len());
    let b32 = list.iter().find(|r| r["op"] == "ds_read_b32").expect("ds_read_b32 has a rule on gfx90a");
    let keys: Vec<&str> = b32.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["arch", "banks", "op", "phases", "provenance", "source"]);
    assert_eq!(
        (&b32["arch"], &b32["banks"], &b32["phases"], &b32["provenance"]),
        (
            &serde_json::json!("gfx90a"),
            &serde_json::json!(32),
            &serde_json::json!("0-31 | 32-63"),
            &serde_json::json!("sourced")
        )
    );
}

/// A negative count or size option is refused as negative, naming the option
/// and the value, whether written `--top -3` or `--top=-3`; a negative
/// number in a spec or a catalogue parameter is out of range.
#[test]
fn negative_options_are_refused_as_negative() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["search", "--tile", "8x8", "--dtype", "fp16", "--arch", "sm80", "--top", "-3"],
            "error: invalid value '-3' for '--top <TOP>': -3 is negative; it must be a non-negative integer\n",
        ),
        (
            &["search", "--tile", "8x8", "--dtype", "fp16", "--arch", "sm80", "--max-padding-bytes=-1"],
            "error: invalid value '-1' for '--max-padding-bytes <BYTES>': -1 is negative; it must be a non-negative integer\n",
        ),
        (
            &["render", "packed((4,8))", "--rows", "-2"],
            "error: invalid value '-2' for '--rows <ROWS>': -2 is negative; it must be a non-negative integer\n",
        ),
        (
            &["dma-plan", "packed((4,64))", "--global-strides", "64,1", "--width", "-4", "--dtype", "fp32"],
            "error: invalid value '-4' for '--width <WIDTH>': -4 is negative; it must be a non-negative integer\n",
        ),
    ];
    for (args, expected) in cases {
        let o = cktile(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).starts_with(expected), "{args:?}: {}", stderr(&o));
    }
    // Other bad values keep the parser's own message.
    let o = cktile(&["search", "--tile", "8x8", "--dtype", "fp16", "--arch", "sm80", "--top", "abc"]);
    assert!(stderr(&o).starts_with("error: invalid value 'abc' for '--top <TOP>': invalid digit found in string\n"));
    let o = cktile(&["offsets", "naive((4,8),(8,-3))"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error: 1:16: number -3 is out of range; expected an integer in [0, 2^63)\n"));
    let o = cktile(&["offsets", "row-padded:rows=4,cols=4,pad=-1"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "error: number -1 is out of range; expected an integer in [0, 2^63)\n");
}

/// Issue 34: an option's value is checked against what it means, and the
/// refusal names the value and what would be valid (`--vector 3` and
/// `--vector 0` were silently raised to the access width, `--rows 0` and
/// `--cols 0` silently drew one row or column).
#[test]
fn option_values_are_checked_against_their_meaning() {
    let search = ["search", "--tile", "64x64", "--dtype", "fp16", "--arch", "gfx942", "--write", "ds_write_b64:row"];
    let grid = ["render", "packed((16,64))", "--dtype", "fp16"];
    let owners = ["render", "mfma16x16x16_a", "--view", "distribution"];
    let table: [(Vec<&str>, &str); 7] = [
        (
            [&search[..], &["--vector", "3"]].concat(),
            "error: search: vector = 3; it must be a power of two (1, 2, 4, ...) of elements\n",
        ),
        (
            [&search[..], &["--vector", "0"]].concat(),
            "error: search: vector = 0; it must be a power of two (1, 2, 4, ...) of elements\n",
        ),
        (
            [&search[..], &["--vector", "6"]].concat(),
            "error: search: vector = 6; it must be a power of two (1, 2, 4, ...) of elements\n",
        ),
        (
            [&grid[..], &["--rows", "0"]].concat(),
            "error: grid view: rows = 0; show at least 1 (leave it out to show all)\n",
        ),
        (
            [&grid[..], &["--cols", "0"]].concat(),
            "error: grid view: cols = 0; show at least 1 (leave it out to show all)\n",
        ),
        (
            [&owners[..], &["--rows", "0"]].concat(),
            "error: distribution view: rows = 0; show at least 1 (leave it out to show all)\n",
        ),
        (
            [&owners[..], &["--cols", "0"]].concat(),
            "error: distribution view: cols = 0; show at least 1 (leave it out to show all)\n",
        ),
    ];
    for (args, message) in table {
        let o = cktile(&args);
        assert_eq!((o.status.code(), stderr(&o).as_str(), stdout(&o).as_str()), (Some(2), message, ""), "{args:?}");
    }
    // The accepted values still work: a narrower power of two is raised to the access width, as the help says.
    let o = cktile(&[&search[..], &["--vector", "2", "--top", "1"]].concat());
    assert!(o.status.success() && stdout(&o).contains("vectors of 4 elements stay contiguous"), "{}", stderr(&o));
}

/// Issue 34: the chips a subcommand's help lists are the chips it takes,
/// from the library's one list (`bank --help` left out gfx950-b32x64,
/// gfx1100 and gfx1201; `analyze` and `search` too).
#[test]
fn help_lists_every_chip_each_subcommand_takes() {
    use cktile::analyzer::ARCHS;
    use cktile::analyzer::arch::ARCH_NAMES;
    for sub in ["bank", "analyze", "search", "rules", "render"] {
        let help = stdout(&cktile(&[sub, "--help"]));
        assert!(help.contains(ARCH_NAMES), "{sub} --help lacks {ARCH_NAMES}:\n{help}");
    }
    let dma = stdout(&cktile(&["dma-plan", "--help"]));
    assert!(dma.contains(&format!("The chip: {}", cktile::plan::dma::DMA_ARCH_NAMES)), "{dma}");
    // Each listed chip is taken: bank analyses one instruction on every one.
    for arch in ARCHS {
        let op = if arch.name().starts_with("sm") { "ld.shared.b32" } else { "ds_read_b32" };
        let request = format!("{{\"arch\": \"{}\", \"op\": \"{op}\", \"addresses\": [0, 4]}}", arch.name());
        let o = cktile_with_stdin(&["bank"], &request);
        assert!(o.status.success(), "{}: {}", arch.name(), stderr(&o));
    }
    // The operations bank --help lists are the library's.
    assert!(stdout(&cktile(&["bank", "--help"])).contains(cktile::analyzer::op::OP_NAMES));
}

/// `analyze` shows, in its usage line, that it takes one of --pattern and
/// --distribution, and says so when neither or both are given; `--dtype`
/// takes the usual aliases and names the valid ones when it refuses one.
#[test]
fn analyze_usage_names_its_access_options_and_dtype_aliases_work() {
    let help = cktile(&["analyze", "--help"]);
    assert!(
        stdout(&help).contains(
            "Usage: cktile analyze [OPTIONS] --arch <ARCH> <--pattern <PATTERN>|--distribution <ENCODING>> <SPEC>"
        ),
        "{}",
        stdout(&help)
    );
    let neither = cktile(&["analyze", "packed((8,8))", "--arch", "gfx942"]);
    assert_eq!(neither.status.code(), Some(2));
    assert!(stderr(&neither).contains("<--pattern <PATTERN>|--distribution <ENCODING>>"), "{}", stderr(&neither));
    let both = cktile(&["analyze", "packed((8,8))", "--arch", "gfx942", "--pattern", "rows", "--distribution", "x"]);
    assert!(stderr(&both).contains("cannot be used with"), "{}", stderr(&both));
    let spec = "ck-universal-a:m=128,k=32";
    let run =
        |dtype: &str| cktile(&["analyze", spec, "--arch", "gfx942", "--pattern", "mfma16", "--dtype", dtype, "--json"]);
    for (alias, name) in [("bfloat16", "bf16"), ("half", "fp16"), ("float", "fp32"), ("double", "fp64")] {
        let (a, n) = (run(alias), run(name));
        assert!(a.status.success(), "{alias}: {}", stderr(&a));
        assert_eq!(stdout(&a), stdout(&n), "{alias} = {name}");
    }
    let bad = run("bfloat12");
    assert!(
        stderr(&bad).contains("unknown name `bfloat12`; expected one of: fp8, int8, fp16, bf16"),
        "{}",
        stderr(&bad)
    );
}

/// Every answer `cktile search` prints in text pastes back: each catalogue
/// entry it names (the best, the equally good ones, the Pareto front) and
/// the best layout's spec, given to `cktile analyze` with the search's
/// write and read, cost what the search says, pattern by pattern.
#[test]
fn every_search_answer_pastes_back_into_analyze() {
    /// Search arguments, dtype, and (analyze pattern, op) for the write, then the read.
    type Problem<'a> = (&'a [&'a str], &'a str, [(&'a str, &'a str); 2]);
    let problems: [Problem; 2] = [
        (
            &["--tile", "64x64", "--arch", "sm90", "--write", "st.shared.b128:row", "--read", "ldmatrix.x4"],
            "fp16",
            [("rows", "st.shared.b128"), ("ldmatrix", "ldmatrix.x4")],
        ),
        (
            &["--tile", "64x32", "--arch", "sm80", "--write", "st.shared.b32:row", "--read", "ld.shared.b32:column"],
            "fp32",
            [("rows", "st.shared.b32"), ("columns", "ld.shared.b32")],
        ),
    ];
    for (args, dtype, accesses) in problems {
        let mut search_args = vec!["search", "--dtype", dtype, "--top", "50"];
        search_args.extend_from_slice(args);
        let o = cktile(&search_args);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        let arch = args[3];
        let cost = |layout: &str| -> u64 {
            accesses
                .iter()
                .map(|(pattern, op)| {
                    let a = cktile(&[
                        "analyze",
                        layout,
                        "--arch",
                        arch,
                        "--pattern",
                        pattern,
                        "--op",
                        op,
                        "--dtype",
                        dtype,
                        "--json",
                    ]);
                    assert!(a.status.success(), "{layout} {pattern}: {}", stderr(&a));
                    json(&a)["cycles"].as_u64().unwrap()
                })
                .sum()
        };
        // The best: its entry, its cycles and its spec block.
        let best_line = text.lines().find(|l| l.starts_with("Best: ")).unwrap();
        let best = best_line.trim_start_matches("Best: ");
        let best_cycles: u64 = text
            .lines()
            .skip_while(|l| !l.starts_with("Best: "))
            .nth(1)
            .and_then(|l| l.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        assert_eq!(cost(best), best_cycles, "{best}");
        let spec: String = text
            .lines()
            .skip_while(|l| l.trim() != "spec:")
            .skip(1)
            .take_while(|l| l.starts_with("    "))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(spec.contains("transform") || spec.contains("packed"), "{text}");
        assert_eq!(cost(&spec), best_cycles, "the best's spec:\n{spec}");
        // The equally good ones cost the best's cycles; the Pareto front's say theirs.
        let good: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("Equally good"))
            .skip(1)
            .take_while(|l| l.starts_with("  ") && !l.starts_with("  ..."))
            .map(|l| l.trim().split(' ').next().unwrap())
            .collect();
        assert!(!good.is_empty(), "{text}");
        for entry in good {
            assert_eq!(cost(entry), best_cycles, "{entry}");
        }
        let front: Vec<(u64, &str)> = text
            .lines()
            .skip_while(|l| !l.starts_with("Pareto front"))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                (w[0].parse().unwrap(), w[4])
            })
            .collect();
        assert!(!front.is_empty(), "{text}");
        for (cycles, entry) in front {
            assert_eq!(cost(entry), cycles, "{entry}");
        }
    }
}

/// gfx950's native MFMA shapes are pattern names and search reads: the same
/// reads as `mfma16` / `mfma32` (an operand read's lane map depends on M and
/// the read's width only), so the reports are the same.
#[test]
fn gfx950_mfma_shapes_are_patterns_and_search_reads() {
    let analyze = |pattern: &str| {
        let o = cktile(&[
            "analyze",
            "ck-universal-a:m=128,k=64",
            "--arch",
            "gfx950",
            "--pattern",
            pattern,
            "--dtype",
            "fp16",
            "--json",
        ]);
        assert!(o.status.success(), "{pattern}: {}", stderr(&o));
        stdout(&o)
    };
    assert_eq!(analyze("mfma16x16x32"), analyze("mfma16"));
    assert_eq!(analyze("mfma32x32x16"), analyze("mfma32"));
    let search = |read: &str| {
        let args = [
            "search",
            "--tile",
            "64x64",
            "--dtype",
            "fp16",
            "--arch",
            "gfx950",
            "--write",
            "ds_write_b128:row",
            "--read",
            read,
            "--json",
        ];
        let o = cktile(&args);
        assert!(o.status.success(), "{read}: {}", stderr(&o));
        json(&o)["best"]["cycles"].clone()
    };
    assert_eq!(search("mfma16x16x32:a"), search("mfma16x16x16:a"));
    assert!(search("mfma32x32x16:b").as_u64().is_some());
}

/// `analyze --distribution` counts one window and `search` the window
/// repeated over the tile: each says so, with the window's size and, in the
/// search, how many windows the tile holds.
#[test]
fn window_and_tile_counts_say_what_they_count() {
    let a = cktile(&[
        "analyze",
        "ck-universal-a:m=64,k=64",
        "--arch",
        "gfx950",
        "--distribution",
        "mfma16x16x32_a",
        "--op",
        "ds_read_b128",
        "--dtype",
        "fp16",
    ]);
    assert!(
        stdout(&a).contains(
            "Accesses: one tile window of the distribution (16x32 elements, its X lengths) at the tile's origin"
        ),
        "{}",
        stdout(&a)
    );
    let s = cktile(&[
        "search",
        "--tile",
        "64x64",
        "--dtype",
        "fp16",
        "--arch",
        "gfx950",
        "--write",
        "ds_write_b128:row",
        "--read",
        "mfma16x16x32_a:ds_read_b128",
    ]);
    assert!(
        stdout(&s).contains("mfma16x16x32_a:ds_read_b128: its 16x32 window repeated over the 64x64 tile (8 windows)"),
        "{}",
        stdout(&s)
    );
    // A ready pattern covers the tile in both, and neither note appears.
    let p =
        cktile(&["analyze", "ck-universal-a:m=64,k=64", "--arch", "gfx950", "--pattern", "mfma16", "--dtype", "fp16"]);
    assert!(!stdout(&p).contains("window"), "{}", stdout(&p));
}

/// The help of every subcommand taking `--dtype` lists every element type
/// name the library takes, and those taking `--pattern` every pattern: from
/// the library's one list each.
#[test]
fn help_lists_every_element_type_and_pattern() {
    let patterns: Vec<&str> = cktile::analyzer::pattern_name::PATTERN_NAMES.split(", ").collect();
    for sub in ["analyze", "search", "render", "dma-plan"] {
        let help = stdout(&cktile(&[sub, "--help"]));
        for (name, _) in cktile::layouts::DTYPE_NAMES {
            assert!(
                help.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w == name),
                "{sub} --help lacks {name}"
            );
        }
        if sub == "analyze" || sub == "render" {
            for p in &patterns {
                assert!(help.contains(p), "{sub} --help lacks pattern {p}");
            }
        }
    }
}
