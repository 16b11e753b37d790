//! The AMD LDS probe's ingestion (`cktile rules --ingest`, issue 38 item 5)
//! on published measurements written in the probe's format: nod-ai's MI300X
//! stride counts, and the gfx950 phase groupings HipKittens and nod-ai
//! measured with two-lane probes (converted here into the pairs a probe run
//! reports). Also: the disputed gfx950 `ds_read_b32` shows as a
//! disagreement; every AMD rule of cktile's table round-trips through the
//! probe's pairs, and a rule with two lanes swapped is caught; inconsistent
//! measurements and malformed files are named; the probe's scripts join a
//! run's files into a probe file; and the HIP source passes a host
//! compiler's syntax check.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::op::all_ops;
use cktile::analyzer::rules::rule;
use cktile::analyzer::{Arch, Op, arch};
use cktile::reports::probe::{PhaseProblem, ingest, parse};
use std::fmt::Write;
use std::process::Command;

/// A probe file's pair lines for `op` with these phases on `banks` banks:
/// lanes 0 and 1 at 128 and 256 bytes, then every pair at `banks * 4`,
/// conflicting (1 extra cycle) exactly within a phase.
fn pairs(op: &str, banks: u32, phases: &[Vec<u8>], wave: u8) -> String {
    let phase_of = |l: u8| phases.iter().position(|p| p.contains(&l)).unwrap();
    let mut s = String::new();
    let same01 = phase_of(0) == phase_of(1);
    for offset in [128u32, 256] {
        // Lanes 0 and 1 share a bank at 128 bytes on 32 banks, at 256 on both.
        let conflict = same01 && offset % (banks * 4) == 0;
        writeln!(s, "pair {op} 0 1 {offset} {}", u8::from(conflict)).unwrap();
    }
    for a in 0..wave {
        for b in a + 1..wave {
            writeln!(s, "pair {op} {a} {b} {} {}", banks * 4, u8::from(phase_of(a) == phase_of(b))).unwrap();
        }
    }
    s
}

/// Lanes `lo..=hi` of every `(lo, hi)`.
fn lanes(ranges: &[(u8, u8)]) -> Vec<u8> {
    let mut v: Vec<u8> = ranges.iter().flat_map(|&(lo, hi)| lo..=hi).collect();
    v.sort_unstable();
    v
}

#[test]
fn nod_ais_mi300x_strides_are_what_cktile_counts() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/amd-probe/mi300x-nod-ai-strides.txt"))
            .unwrap();
    let f = ingest(&parse(&text).unwrap()).unwrap();
    assert_eq!(f.strides.len(), 15);
    for s in &f.strides {
        assert!(s.agrees(), "{s:?}");
    }
    assert!(f.all_agree());
}

// gfx950, published two-lane measurements (HipKittens, nod-ai; cited in
// `cktile rules`): ds_read_b128 in four phases of 16 lanes on 64 banks,
// ds_read_b64 in 2 x 32 lanes on 64 banks.
#[test]
fn gfx950s_published_phases_are_cktiles() {
    let b128 = vec![
        lanes(&[(0, 3), (12, 15), (20, 23), (24, 27)]),
        lanes(&[(32, 35), (44, 47), (52, 55), (56, 59)]),
        lanes(&[(4, 7), (8, 11), (16, 19), (28, 31)]),
        lanes(&[(36, 39), (40, 43), (48, 51), (60, 63)]),
    ];
    let b64 = vec![lanes(&[(0, 31)]), lanes(&[(32, 63)])];
    let text = format!(
        "chip gfx950\ndevice published measurements\ndate 2026\n{}{}",
        pairs("ds_read_b128", 64, &b128, 64),
        pairs("ds_read_b64", 64, &b64, 64)
    );
    let f = ingest(&parse(&text).unwrap()).unwrap();
    assert_eq!(f.ops.len(), 2);
    for o in &f.ops {
        assert_eq!((o.banks_agree(), o.phases_agree(), &o.problem), (Some(true), Some(true), &None), "{o:?}");
    }
    let mut want = b128.clone();
    want.sort();
    assert_eq!(f.ops[0].phases, want);
}

// The dispute cktile records for gfx950's ds_read_b32: nod-ai's latency
// measurement gives one phase of 64 lanes on 64 banks, where cktile follows
// rocKE and rocRoller (2 x 32 on 32 banks). A run measuring nod-ai's answer
// shows both disagreements, and the CLI exits 1.
#[test]
fn the_disputed_gfx950_read_shows_as_a_disagreement() {
    let one_phase = vec![(0..64).collect::<Vec<u8>>()];
    let text = format!("chip gfx950\n{}", pairs("ds_read_b32", 64, &one_phase, 64));
    let f = ingest(&parse(&text).unwrap()).unwrap();
    let o = &f.ops[0];
    assert_eq!((o.banks, o.banks_agree(), o.phases_agree()), (Some(64), Some(false), Some(false)));
    assert!(!f.all_agree());
    let path = std::env::temp_dir().join(format!("cktile-probe-{}.txt", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(["rules", "--ingest", path.to_str().unwrap()])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("ds_read_b32: measured 64 banks (cktile has 32: DISAGREES); phases 0-63 (cktile has 0-31 | 32-63: DISAGREES)"), "{text}");
    assert!(text.contains("gfx950 ds_read_b32 (64 banks, measured): 0-63"), "{text}");
    assert!(text.ends_with("0 of 1 measurements agree with cktile\n"), "{text}");
}

/// The single-address instructions the probe measures on `a`.
fn probed(a: &Arch) -> Vec<Op> {
    all_ops()
        .filter(|op| op.runs_on(a))
        .filter(|op| matches!(op, Op::DsRead { .. } | Op::DsWrite { .. } | Op::DsReadTr { .. }))
        .collect()
}

// Every AMD rule of cktile's table, written as the pairs a probe would
// report if the hardware followed it, ingests back to the same rule; with
// two lanes of different phases swapped, the disagreement is caught.
#[test]
fn every_amd_rule_round_trips_and_a_swap_is_caught() {
    let mut checked = 0;
    for a in [arch::GFX90A, arch::GFX942, arch::GFX950, arch::GFX1100, arch::GFX1201] {
        let wave = a.wave() as u8;
        for op in probed(&a) {
            let r = rule(&a, op);
            let phases: Vec<Vec<u8>> = (0..r.grouping.phases()).map(|p| r.grouping.phase(p).to_vec()).collect();
            let name = Op::name(&op);
            let text = format!("chip {}\n{}", a.name(), pairs(name, r.banks, &phases, wave));
            let f = ingest(&parse(&text).unwrap()).unwrap();
            assert!(f.all_agree(), "{} {name}: {:?}", a.name(), f.ops);
            if phases.len() > 1 {
                let mut swapped = phases.clone();
                // The last lanes of the first two phases (never lane 0 or 1, which the bank count uses).
                let (i, j) = (swapped[0].len() - 1, swapped[1].len() - 1);
                let (x, y) = (swapped[0][i], swapped[1][j]);
                swapped[0][i] = y;
                swapped[1][j] = x;
                let text = format!("chip {}\n{}", a.name(), pairs(name, r.banks, &swapped, wave));
                let f = ingest(&parse(&text).unwrap()).unwrap();
                assert_eq!(f.ops[0].phases_agree(), Some(false), "{} {name}", a.name());
            }
            checked += 1;
        }
    }
    assert!(checked >= 50, "{checked}");
}

#[test]
fn inconsistent_or_partial_measurements_are_named() {
    // Lanes 0-1 and 1-2 conflict, 0-2 do not: no partition.
    let mut text = String::from("chip gfx942\npair ds_read_b32 0 1 128 1\n");
    for a in 0..64u8 {
        for b in a + 1..64 {
            let conflict = (a, b) == (0, 1) || (a, b) == (1, 2);
            writeln!(text, "pair ds_read_b32 {a} {b} 128 {}", u8::from(conflict)).unwrap();
        }
    }
    let f = ingest(&parse(&text).unwrap()).unwrap();
    assert!(matches!(f.ops[0].problem, Some(PhaseProblem::NotPartition { a: 0, b: 2, .. })), "{:?}", f.ops[0].problem);
    assert!(!f.all_agree());
    // Malformed lines, each named with its line.
    for (bad, message) in [
        ("chip gfx942\npair ds_read_b32 0 0 128 1\n", "2:1: expected two different lanes"),
        ("chip gfx942\npair ds_read_b32 0 1 128\n", "2:1: expected OP A B OFFSET EXTRA"),
        ("chip gfx942\nstride ds_read_b32 0 1 8 2\n", "2:1: expected `- -` for the lanes of a stride"),
        ("chip gfx942\npair ds_read_b32 0 1 x 1\n", "2:1: expected a whole number of bytes or cycles, found `x`"),
        ("chip gfx942\nwhat\n", "2:1: expected a line starting with chip, device, date, pair, stride or pattern"),
        ("chip gfx942\npattern ds_read_b128 - - x 1\n", "2:1: expected a pattern's index, found `x`"),
        ("chip gfx9000\n", "1:6: unknown name `gfx9000`"),
        ("pair ds_read_b32 0 1 128 1\n", "expected a `chip` line before the measurements"),
        ("", "expected a `chip` line"),
    ] {
        let e = parse(bad).unwrap_err().to_string();
        assert!(e.contains(message), "{bad:?}: {e}");
    }
    // The chip must have the instruction for a stride to be counted.
    assert!(ingest(&parse("chip gfx1100\nstride ds_read_b64_tr_b16 - - 8 0\n").unwrap()).is_err());
    // A pattern index past this cktile's list names its line.
    let e = ingest(&parse("chip gfx942\npattern ds_read_b128 - - 100000 1\n").unwrap()).unwrap_err().to_string();
    assert!(e.starts_with("2:1: expected the index of one of this cktile's `rules --disagreements` patterns"), "{e}");
}

/// The Python interpreter the probe's scripts run with.
fn python() -> &'static str {
    "python3"
}

// The scripts' plumbing, without a GPU: probe.py writes the cases; a
// stand-in for lds_probe's manifest and rocprofv3's CSV (counters made
// from cktile's own gfx942 rules, labelled as such) goes through
// `probe.py collect`; the result ingests back to agreement.
#[test]
fn the_probe_scripts_join_a_run_into_a_probe_file() {
    let dir = std::env::temp_dir().join(format!("cktile-amd-probe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/gpu/amd/probe.py");
    // One pass: probe.py's cases, a stand-in for the GPU run, probe.py's collection.
    let pass = |name: &str, extra: &[&str]| -> String {
        let pass_dir = dir.join(name);
        std::fs::create_dir_all(pass_dir.join("counters")).unwrap();
        let cases = Command::new(python())
            .args([script, "cases", "--chip", "gfx942", "--wave", "64", "--pass", name])
            .args(extra)
            .output()
            .expect("python3 runs gpu/amd/probe.py");
        assert!(cases.status.success(), "{}", String::from_utf8_lossy(&cases.stderr));
        let text = String::from_utf8(cases.stdout).unwrap();
        std::fs::write(pass_dir.join("cases.txt"), &text).unwrap();
        // One dispatch per case line; its counters from cktile's analyzer (a stand-in for the GPU).
        let (mut manifest, mut csv) = (String::new(), String::from("Dispatch_Id,Counter_Name,Counter_Value\n"));
        for (k, line) in text.lines().filter(|l| !l.starts_with('#')).enumerate() {
            let t: Vec<&str> = line.split_whitespace().collect();
            let op = Op::by_name(t[0]).unwrap();
            let iterations: u32 = t[1].parse().unwrap();
            let addresses: Vec<Option<u64>> =
                t[2..].iter().map(|a| a.parse::<i64>().ok().and_then(|a| u64::try_from(a).ok())).collect();
            let r = cktile::reports::analyze_instruction(&arch::GFX942, op, &addresses).unwrap();
            writeln!(manifest, "dispatch {k} {}", t[0]).unwrap();
            writeln!(csv, "{},SQ_LDS_BANK_CONFLICT,{}", k + 1, r.counts.conflict_cycles * iterations).unwrap();
            writeln!(csv, "{},SQ_INSTS_LDS,{iterations}", k + 1).unwrap();
        }
        std::fs::write(pass_dir.join("manifest.txt"), manifest).unwrap();
        std::fs::write(pass_dir.join("counters").join("run_counter_collection.csv"), csv).unwrap();
        let collected = Command::new(python())
            .args([script, "collect", "--cases"])
            .arg(pass_dir.join("cases.txt"))
            .arg("--manifest")
            .arg(pass_dir.join("manifest.txt"))
            .arg("--counters")
            .arg(pass_dir.join("counters"))
            .output()
            .unwrap();
        assert!(collected.status.success(), "{}", String::from_utf8_lossy(&collected.stderr));
        let lines = String::from_utf8(collected.stdout).unwrap();
        assert_eq!(lines.lines().count(), text.lines().filter(|l| l.starts_with('#')).count());
        std::fs::write(dir.join(format!("{name}.txt")), &lines).unwrap();
        lines
    };
    let banks = pass("banks", &[]);
    let banks_file = dir.join("banks.txt");
    let pairs = pass("pairs", &["--banks", banks_file.to_str().unwrap()]);
    let f = ingest(&parse(&format!("chip gfx942\n{banks}{pairs}")).unwrap()).unwrap();
    assert!(f.all_agree(), "{}", cktile::render::rules::findings(&f));
    assert_eq!(f.ops.len(), 12);
    assert!(f.ops.iter().all(|o| o.phases_agree() == Some(true) && o.banks_agree() == Some(true)), "{:?}", f.ops);
    assert!(f.strides.len() >= 60, "{}", f.strides.len());
    // The disagreements pass: every pattern of cktile's list, measured, ingests beside every model.
    let list = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(["rules", "--disagreements", "--arch", "gfx942", "--json"])
        .output()
        .unwrap();
    let json_file = dir.join("disagreements.json");
    std::fs::write(&json_file, &list.stdout).unwrap();
    let measured = pass("disagreements", &["--disagreements", json_file.to_str().unwrap()]);
    let f = ingest(&parse(&format!("chip gfx942\n{measured}")).unwrap()).unwrap();
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(f.patterns.len(), rows.len());
    assert!(f.all_agree(), "{}", cktile::render::rules::findings(&f));
    // Each measured pattern is the listed one, and its counters are cktile's, so it supports cktile.
    for (p, r) in f.patterns.iter().zip(&rows) {
        assert_eq!((p.description.as_str(), p.op.name()), (r["pattern"].as_str().unwrap(), r["op"].as_str().unwrap()));
        assert!(p.supports().contains(&cktile::reports::models::Model::Cktile));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// The HIP source compiles as far as a host compiler can check it (no HIP
// toolchain installs here): `c++ -fsyntax-only` with gpu/amd/syntax_check.hpp.
#[test]
fn the_hip_probe_passes_a_syntax_check() {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let out = Command::new(&cxx)
        .args([
            "-std=c++17",
            "-fsyntax-only",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-DCKTILE_PROBE_SYNTAX_CHECK",
            "-x",
            "c++",
        ])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/gpu/amd/lds_probe.hip"))
        .output()
        .unwrap_or_else(|e| {
            panic!("`{cxx}` was not found ({e}): the syntax check of gpu/amd/lds_probe.hip needs a C++ compiler")
        });
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

// A full run's file (every probed gfx950 instruction, all lane pairs: about
// 0.9 MB, here padded past 1 MiB) goes through the CLI, whose limit for
// probe files is 16 MiB (1 MiB for specs).
#[test]
fn a_full_gfx950_run_ingests_through_the_cli() {
    let a = arch::GFX950;
    let mut text = String::from("chip gfx950\ndevice cktile's own rules, as pairs\n");
    let ops = probed(&a);
    for &op in &ops {
        let r = rule(&a, op);
        let phases: Vec<Vec<u8>> = (0..r.grouping.phases()).map(|p| r.grouping.phase(p).to_vec()).collect();
        text.push_str(&pairs(Op::name(&op), r.banks, &phases, 64));
    }
    // A run on another machine may write longer lines (names, notes): take it past 1 MiB with comments.
    while text.len() <= 1 << 20 {
        text.push_str("# a note the probe's reader skips\n");
    }
    let path = std::env::temp_dir().join(format!("cktile-probe-full-{}.txt", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(["rules", "--ingest", path.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["all_agree"], true);
    assert_eq!(v["ops"].as_array().unwrap().len(), ops.len());
}
