//! `cktile distribution`: the JSON contract, the text report, the owner
//! grid and the refusals, checked against the library and against the
//! closed forms of AMD's MFMA lane maps.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Output};

fn cktile(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cktile")).args(args).output().expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn ints(v: &serde_json::Value) -> Vec<i64> {
    v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect()
}

const DRAM: &str = "tile_distribution_encoding<sequence<1>, tuple<sequence<2, 4, 16>, sequence<4, 8>>, \
tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>, sequence<1, 2>, sequence<0, 1>>";

#[test]
fn json_contract_for_the_32x32x8_accumulator() {
    let out = stdout(&cktile(&["distribution", "mfma32x32x8_c", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(ints(&v["x_lengths"]), [32, 32]);
    assert_eq!(ints(&v["p_lengths"]), [64]);
    assert_eq!(ints(&v["y_lengths"]), [4, 4]);
    assert_eq!(ints(&v["r_lengths"]), Vec::<i64>::new());
    let xs = v["xs"].as_array().unwrap();
    let ds = ints(&v["ys_to_d"]);
    assert_eq!((xs.len(), ds.len()), (64 * 16, 64 * 16));
    // Row-major over (lane, y0, y1), last Y fastest; AMD's D layout:
    // register r = 4 * y0 + y1 of lane l holds C(8 * (r / 4) + 4 * (l / 32) + r % 4, l % 32).
    for (i, x) in xs.iter().enumerate() {
        let (lane, r) = ((i / 16) as i64, (i % 16) as i64);
        assert_eq!(ints(x), [8 * (r / 4) + 4 * (lane / 32) + r % 4, lane % 32], "index {i}");
        assert_eq!(ds[i], r);
    }
}

#[test]
fn json_of_ck_spelling_matches_the_library() {
    let out = stdout(&cktile(&["distribution", DRAM, "--json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let d = cktile::distribution::Distribution::new(cktile::spelling::parse(DRAM).unwrap()).unwrap();
    assert_eq!(v["encoding"].as_str().unwrap(), DRAM);
    // cktile's spelling of the same encoding, and the same report from it.
    let compact = v["compact"].as_str().unwrap();
    assert_eq!(compact, "distribution(r(1), h((2, 4, 16), (4, 8)), p((h0[1]), (h0[2], h1[0])), y(h0[0], h1[1]))");
    assert_eq!(cktile::spelling::parse_compact(compact).as_ref(), Ok(d.encoding()));
    assert_eq!(stdout(&cktile(&["distribution", compact, "--json"])), out);
    assert_eq!(ints(&v["p_lengths"]), [4, 64]);
    assert_eq!(ints(&v["y_lengths"]), [2, 8]);
    let xs = v["xs"].as_array().unwrap();
    let mut i = 0;
    d.for_each(1 << 24, |ps_ys, x, dd| {
        assert_eq!(ints(&xs[i]), x, "{ps_ys:?}");
        assert_eq!(v["ys_to_d"][i].as_i64().unwrap(), dd);
        i += 1;
    })
    .unwrap();
    assert_eq!(i, xs.len());
}

#[test]
fn text_report_lists_every_thread_and_the_owner_grid() {
    let out = stdout(&cktile(&["distribution", "mfma32x32x8_a"]));
    assert!(
        out.contains("X lengths (32,8), P lengths (64), Y lengths (4), R lengths (); 4 elements per thread"),
        "{out}"
    );
    // lane 37 holds A(5, 4..8)
    assert!(out.contains("\nP (37): (5,4) (5,5) (5,6) (5,7)\n"), "{out}");
    // grid row 5: lane 5 registers 0..3, then lane 37
    assert!(out.contains("\n 5 |  5:0  5:1  5:2  5:3 37:0 37:1 37:2 37:3\n"), "{out}");
    let dram = stdout(&cktile(&["distribution", DRAM]));
    assert!(dram.contains("P (3,63): (63,24)"), "{dram}");
}

#[test]
fn errors_point_into_the_encoding() {
    let out = cktile(&[
        "distribution",
        "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>,\n  tuple<sequence<2, 1>>, tuple<sequence<0, 3>>, sequence<2>, sequence<1>>",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("error: 2:44: Ps2RHssMinor[0][1] is 3, but RH major 1 (HsLengthss[0]) has 1 entry"),
        "{err}"
    );
    assert!(err.contains("\n  |                                            ^"), "{err}");
    let out = cktile(&["distribution", "mfma8x8x8_a"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr).unwrap().contains("unknown name `mfma8x8x8_a`; expected one of: mfma16x16x16_")
    );
    let big = "tile_distribution_encoding<sequence<>, tuple<sequence<1024, 32768>>, tuple<sequence<1>>, \
               tuple<sequence<0>>, sequence<1>, sequence<1>>";
    let out = cktile(&["distribution", big, "--json"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap().trim(),
        "error: the distribution has 33554432 (P..., Y...) indices, more than the 16777216 that are enumerated"
    );
}

/// CK's warp-GEMM A (16x16x32, 8 fp16 per lane) repeated over a 128x64 tile
/// (8 M iterations, 2 K iterations): what the `mfma16` pattern reads with
/// ds_read_b128.
const BLOCK_A: &str = "tile_distribution_encoding<sequence<>, tuple<sequence<8, 16>, sequence<2, 4, 8>>, \
tuple<sequence<2, 1>>, tuple<sequence<1, 1>>, sequence<1, 2, 2>, sequence<0, 0, 2>>";

#[test]
fn analyze_with_a_distribution_matches_the_mfma_pattern() {
    for (spec, arch) in
        [("packed((128,64))", "gfx942"), ("ck-universal-a:m=128,k=64", "gfx950"), ("packed((128,64))", "gfx90a")]
    {
        let json = |extra: &[&str]| -> serde_json::Value {
            let mut args = vec!["analyze", spec, "--dtype", "fp16", "--arch", arch, "--json"];
            args.extend_from_slice(extra);
            serde_json::from_str(&stdout(&cktile(&args))).unwrap()
        };
        let by_pattern = json(&["--pattern", "mfma16"]);
        let by_distribution = json(&["--distribution", BLOCK_A, "--op", "ds_read_b128"]);
        for key in ["instructions", "cycles", "conflict_cycles", "max_ways", "per_instruction", "phases", "worst"] {
            assert_eq!(by_pattern[key], by_distribution[key], "{spec} on {arch}: {key}");
        }
    }
    let out = cktile(&[
        "analyze",
        "packed((32,8))",
        "--dtype",
        "fp16",
        "--arch",
        "gfx942",
        "--distribution",
        "mfma32x32x8_a",
        "--op",
        "ds_read_b128",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("the vector dimension Y0 has length 4"));
    let out = cktile(&[
        "analyze",
        "packed((32,8))",
        "--dtype",
        "fp16",
        "--arch",
        "gfx942",
        "--distribution",
        "mfma32x32x8_a",
    ]);
    assert_eq!(
        String::from_utf8(out.stderr).unwrap().trim(),
        "error: --distribution needs the instruction it issues (--op)"
    );
}

/// `cktile search --read DIST:OP`: the same front as the equivalent ready
/// pattern, the access listed as written; a CK spelling works as well.
#[test]
fn search_takes_distribution_reads() {
    let run = |read: &str| {
        let out = stdout(&cktile(&[
            "search",
            "--tile",
            "128x64",
            "--dtype",
            "fp16",
            "--arch",
            "gfx942",
            "--write",
            "ds_write_b128:row",
            "--read",
            read,
            "--json",
        ]));
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let by_pattern = run("mfma16x16x16:a");
    let by_name = run("mfma16x16x32_a:ds_read_b128");
    let spelled = format!("{}:ds_read_b128", cktile::distribution::catalogue::mfma_a(16, 32).unwrap());
    let by_spelling = run(&spelled);
    for v in [&by_name, &by_spelling] {
        for key in ["front", "optimal", "naive", "minimum_per_pattern", "pattern_best"] {
            assert_eq!(v[key], by_pattern[key], "{key}");
        }
    }
    assert_eq!(by_name["patterns"][1]["access"], "mfma16x16x32_a:ds_read_b128");
    assert_eq!(by_spelling["patterns"][1]["access"].as_str().unwrap(), spelled);
    let text = stdout(&cktile(&[
        "search",
        "--tile",
        "128x64",
        "--dtype",
        "fp16",
        "--arch",
        "gfx942",
        "--read",
        "mfma16x16x32_a:ds_read_b128",
    ]));
    assert!(text.contains("read mfma16x16x32_a:ds_read_b128"), "{text}");
    let out =
        cktile(&["search", "--tile", "128x64", "--dtype", "fp16", "--arch", "gfx942", "--read", "mfma16x16x32_a"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("DIST:OP"));
}

/// `cktile render ENC --view distribution`: the owner grid as SVG, from a
/// catalogue name or CK's spelling, limited by --rows / --cols.
#[test]
fn render_draws_the_owner_grid() {
    let svg = stdout(&cktile(&["render", "mfma16x16x16_a", "--view", "distribution"]));
    assert_eq!(svg.matches("class=\"cell\"").count(), 256);
    assert!(svg.contains("data-row=\"5\" data-col=\"6\" data-p=\"21\" data-lane=\"21\" data-d=\"2\""));
    let svg = stdout(&cktile(&["render", DRAM, "--view", "distribution", "--rows", "8", "--cols", "16"]));
    assert_eq!(svg.matches("class=\"cell\"").count(), 8 * 16);
    // Warp 0, lane 1 holds row 0, K 8..16 (K0 = 1, K1 = 0..8) with D = 0..8.
    assert!(svg.contains("data-row=\"0\" data-col=\"9\" data-p=\"0.1\" data-lane=\"1\" data-d=\"1\""));
    let out = cktile(&["render", "mfma8x8x8_a", "--view", "distribution"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("mfma16x16x16"));
}

/// `--compose LAYOUT`: the distribution composed with a layout of its X,
/// printed as the spec of a descriptor over (P..., Y...) that the library's
/// `compose_descriptor` gives; the spec pastes back into `cktile offsets`,
/// whose every offset is the layout's offset of the element that lane
/// holds; the JSON carries the same spec; a layout of other lengths is
/// refused with both shapes named.
#[test]
fn compose_prints_each_lanes_offsets_as_a_descriptor() {
    use cktile::distribution::Distribution;
    use cktile::spelling::resolve;
    let layout = "ck-xor-preshuffle:m=16,k=16,kpack=8";
    let out = stdout(&cktile(&["distribution", "mfma16x16x16_a", "--brief", "--compose", layout]));
    let d = Distribution::new(resolve("mfma16x16x16_a").unwrap()).unwrap();
    let lds = cktile::layouts::resolve(layout).unwrap();
    let lanes = d.compose_descriptor(&lds).unwrap();
    let (head, spec) = out.split_once(&format!("Composed with {layout}: ")).unwrap();
    assert!(head.contains("Coverage: every element of X (16,16) is held once"), "{out}");
    assert_eq!(spec, format!("the offset of every (P..., Y...), a descriptor of lengths (64,4):\n{lanes}\n"));
    // The spec, pasted into `cktile offsets --json`: each (lane, y) is the
    // layout's offset of that lane's element.
    let spec = spec.split_once(":\n").unwrap().1.trim_end();
    let v: serde_json::Value = serde_json::from_str(&stdout(&cktile(&["offsets", spec, "--json"]))).unwrap();
    let offsets = ints(&v["offsets"]);
    assert_eq!(offsets.len(), 64 * 4);
    assert!(v["valid"].as_array().unwrap().iter().all(|b| b == true));
    for (i, &offset) in offsets.iter().enumerate() {
        let (lane, y) = ((i / 4) as i64, (i % 4) as i64);
        let x = d.ps_ys_to_xs().calculate_bottom_index(&[lane, y]).unwrap();
        assert_eq!(offset, lds.calculate_offset(x.as_slice()), "lane {lane}, y {y}");
    }
    // The JSON report carries the same spec.
    let json = stdout(&cktile(&["distribution", "mfma16x16x16_a", "--json", "--compose", layout]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["composed"]["layout"], layout);
    assert_eq!(v["composed"]["descriptor"], lanes.to_string());
    let plain: serde_json::Value =
        serde_json::from_str(&stdout(&cktile(&["distribution", "mfma16x16x16_a", "--json"]))).unwrap();
    assert!(plain.get("composed").is_none(), "no --compose, no field");
    // Both from stdin: refused before either is read.
    let out = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(["distribution", "-", "--compose", "-"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "error: ENCODING and --compose both read stdin (`-`); give one of them as text or `@path`"
    );
    // A layout of other lengths.
    let out = cktile(&["distribution", "mfma16x16x16_a", "--compose", "packed((16,32))"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "error: --compose packed((16,32)): the layout is 16x32, and a layout of this distribution's X is 16x16 (its X \
         lengths)"
    );
}
