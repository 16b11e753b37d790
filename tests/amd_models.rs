//! The public models of AMD's LDS (`cktile::reports::models`) against their
//! own definitions, restated here independently of the library: each
//! source's lane grouping as a key of the lane, its bank count and whether
//! lanes on one word share an access, counted by brute force over every
//! pattern of the disagreement corpus. Also: the issue's two gfx942
//! examples and the gfx950 `ds_read_b32` dispute, found by `rules
//! --disagreements`; cktile's model equal to the analyzer's own count.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::arch::{self, Arch, Chip};
use cktile::analyzer::rules::rule;
use cktile::analyzer::{Op, count};
use cktile::reports::disagreements::{CHIPS, OPS, corpus, disagreements, disagreements_on};
use cktile::reports::models::{MODELS, Model, answer, conflict_cycles};
use std::collections::HashMap;
use std::process::Command;

fn bit(l: u32, b: u32) -> u32 {
    (l >> b) & 1
}

/// What a source says of one (chip, instruction): the phase key of a lane,
/// the bank count, and `Some(broadcast)` or `None` (not stated).
struct Def {
    key: Box<dyn Fn(u32) -> u32>,
    banks: u64,
    broadcast: Option<bool>,
    full_wave: bool,
}

fn def(key: impl Fn(u32) -> u32 + 'static, banks: u64, broadcast: Option<bool>) -> Def {
    Def { key: Box::new(key), banks, broadcast, full_wave: false }
}

/// Each model's definition, from its source (see the module docs of
/// `cktile::reports::models` for the citations). `None`: the source is silent.
fn definition(model: Model, a: &Arch, op: Op) -> Option<Def> {
    let (read, bits) = match op {
        Op::DsRead { bits } => (true, bits),
        Op::DsWrite { bits } => (false, bits),
        // AMD's MI450 blog: the transposing load meets the banks as ds_load_b128.
        Op::DsLoadTr { element_bits: 16 } if model == Model::Mi450Blog => (true, 128),
        _ => return None,
    };
    let chip = if a.is_gfx950() { Chip::Gfx950 } else { a.chip() };
    let cdna = matches!(chip, Chip::Gfx90a | Chip::Gfx942 | Chip::Gfx950);
    let b128_cdna3 = |l: u32| (bit(l, 5), bit(l, 4) ^ bit(l, 2), bit(l, 3));
    let k3 = move |l: u32| {
        let (x, y, z) = b128_cdna3(l);
        x * 4 + y * 2 + z
    };
    let k4 = |l: u32| bit(l, 5) * 2 + (bit(l, 4) ^ bit(l, 3) ^ bit(l, 2));
    match model {
        Model::Cktile => {
            let r = rule(a, op);
            let g = r.grouping;
            let mut phase_of = HashMap::new();
            for p in 0..g.phases() {
                for &l in g.phase(p) {
                    phase_of.insert(u32::from(l), p as u32);
                }
            }
            Some(def(move |l| phase_of[&l], u64::from(r.banks), Some(true)))
        }
        // rocKE: gfx90a profile (gfx942 follows), gfx950 profile for its 8- and 16-byte reads.
        Model::Rocke if cdna && bits != 96 => Some(match (chip, read, bits) {
            (Chip::Gfx950, true, 64) => def(|l| bit(l, 5), 64, Some(true)),
            (Chip::Gfx950, true, 128) => def(k4, 64, Some(true)),
            (_, _, 32) => def(|l| bit(l, 5), 32, Some(true)),
            (_, _, 64) => def(|l| l / 16, 32, Some(true)),
            (_, true, _) => def(k3, 32, Some(true)),
            _ => def(|l| l / 8, 32, Some(true)),
        }),
        // rocRoller: lanes per clock and banks by (gfx950 read, dwords); counts every lane.
        Model::RocRoller if cdna => {
            let dwords = bits / 32;
            let g950r = chip == Chip::Gfx950 && read;
            let per = if g950r { [16, 16, 4, 8][dwords as usize - 1] } else { [16, 8, 4, 4][dwords as usize - 1] };
            let banks = if g950r && (dwords == 2 || dwords == 4) { 64 } else { 32 };
            Some(Def { key: Box::new(move |l| l / per), banks, broadcast: Some(false), full_wave: true })
        }
        Model::TritonXor if chip == Chip::Gfx1250 && read && bits >= 96 => Some(def(|l| l / 8, 64, Some(true))),
        Model::TritonContiguous | Model::TritonXor if cdna && read && bits != 96 => {
            let banks = if chip == Chip::Gfx950 { 64 } else { 32 };
            match (model, chip, bits) {
                (Model::TritonXor, Chip::Gfx942, 128) => Some(def(k3, 32, Some(true))),
                (Model::TritonXor, Chip::Gfx950, 128) => Some(def(k4, 64, Some(true))),
                (Model::TritonXor, _, 128) => None,
                _ => {
                    let per = banks * 32 / bits;
                    Some(def(move |l| l / per, u64::from(banks), Some(true)))
                }
            }
        }
        Model::Iree => match (chip, read, bits) {
            (Chip::Gfx950, true, 128) => Some(def(k4, 64, None)),
            (Chip::Gfx950, true, 32 | 64) => Some(def(move |l| l * bits / 2048, 64, None)),
            (Chip::Gfx90a | Chip::Gfx942, true, 32 | 64 | 128) => Some(def(move |l| l * bits / 1024, 32, None)),
            _ => None,
        },
        Model::AmdShark if read => match (chip, bits) {
            (Chip::Gfx942, 32) => Some(def(|l| l / 32, 32, Some(true))),
            (Chip::Gfx942, 64) => Some(def(|l| l / 16, 32, Some(true))),
            (Chip::Gfx942, 128) => Some(def(k3, 32, Some(true))),
            (Chip::Gfx950, 32) => Some(def(|_| 0, 64, Some(true))),
            (Chip::Gfx950, 64) => Some(def(|l| l / 32, 64, Some(true))),
            (Chip::Gfx950, 128) => Some(def(k4, 64, Some(true))),
            (Chip::Gfx1100 | Chip::Gfx1201, 32) => Some(def(|_| 0, 32, Some(true))),
            (Chip::Gfx1100 | Chip::Gfx1201, 64) => Some(def(|l| l / 16, 32, Some(true))),
            (Chip::Gfx1100, 128) => Some(def(|l| (bit(l, 4) ^ bit(l, 2)) * 2 + bit(l, 3), 32, Some(true))),
            (Chip::Gfx1201, 128) => Some(def(|l| l / 8, 32, Some(true))),
            _ => None,
        },
        Model::HipKittens if chip == Chip::Gfx950 => match (read, bits) {
            (true, 64) => Some(def(|l| l / 32, 64, None)),
            (true, 128) => Some(def(k4, 64, None)),
            (true, 96) => Some(def(k3, 32, None)),
            (false, 64) => Some(def(|l| l / 16, 32, None)),
            _ => None,
        },
        // AMD's MI450 blog: gfx1250's ds_load_b128 in groups of 16 lanes on 64 banks; broadcasts unstated.
        Model::Mi450Blog if chip == Chip::Gfx1250 && read && bits == 128 => Some(def(|l| l / 16, 64, None)),
        _ => None,
    }
}

/// The answer by brute force: every (phase, bank), the words its lanes
/// touch (distinct with a broadcast, each lane's otherwise); the most of
/// any (phase, bank), and the sum over phases of the phase's most minus one
/// (the conflict cycles); `None` when the source is silent on the access.
fn brute_both(model: Model, a: &Arch, op: Op, addrs: &[Option<u64>]) -> Option<(u32, u32)> {
    let d = definition(model, a, op)?;
    if d.full_wave && addrs.iter().any(Option::is_none) {
        return None;
    }
    let bytes = op.access_bytes();
    let mut per: HashMap<(u32, u64), Vec<u64>> = HashMap::new();
    for (l, addr) in addrs.iter().enumerate() {
        let Some(addr) = addr else { continue };
        for byte in (*addr..addr + bytes).step_by(4) {
            let word = byte / 4;
            per.entry(((d.key)(l as u32), word % d.banks)).or_default().push(word);
        }
    }
    let mut phase_worst: HashMap<u32, usize> = HashMap::new();
    for ((phase, _), words) in per.iter_mut() {
        let n = words.len();
        words.sort_unstable();
        words.dedup();
        if words.len() != n && d.broadcast.is_none() {
            return None;
        }
        let ways = if d.broadcast == Some(true) { words.len() } else { n };
        let w = phase_worst.entry(*phase).or_default();
        *w = (*w).max(ways);
    }
    let worst = phase_worst.values().copied().max().unwrap_or(0) as u32;
    let cycles = phase_worst.values().map(|&w| w.saturating_sub(1) as u32).sum();
    Some((worst, cycles))
}

fn brute(model: Model, a: &Arch, op: Op, addrs: &[Option<u64>]) -> Option<u32> {
    brute_both(model, a, op, addrs).map(|b| b.0)
}

#[test]
fn every_model_answers_as_its_definition_on_the_whole_corpus() {
    let mut checked = 0;
    for a in CHIPS {
        for op in OPS.into_iter().filter(|op| op.runs_on(&a)) {
            for c in corpus(&a, op) {
                for m in MODELS {
                    let got = answer(m, &a, op, &c.addresses).ok();
                    let cycles = conflict_cycles(m, &a, op, &c.addresses).ok();
                    let want = brute_both(m, &a, op, &c.addresses);
                    assert_eq!(got.zip(cycles), want, "{} {op} {}: {}", a.name(), m.name(), c.description);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn cktile_model_is_the_analyzers_count() {
    for a in CHIPS {
        for op in OPS.into_iter().filter(|op| op.runs_on(&a)) {
            for c in corpus(&a, op) {
                let counts = count(&a, op, &c.addresses).unwrap();
                let ours = (
                    answer(Model::Cktile, &a, op, &c.addresses).unwrap(),
                    conflict_cycles(Model::Cktile, &a, op, &c.addresses).unwrap(),
                );
                assert_eq!(ours, (counts.max_ways, counts.conflict_cycles), "{} {op} {}", a.name(), c.description);
            }
        }
    }
}

fn answers_on(
    d: &[cktile::reports::disagreements::Disagreement],
    description: &str,
) -> Vec<(&'static str, Option<u32>)> {
    let d = d.iter().find(|d| d.case.description == description).unwrap_or_else(|| panic!("{description} not found"));
    d.answers.iter().map(|(m, a)| (m.name(), a.as_ref().ok().copied())).collect()
}

#[test]
fn the_issues_examples_are_found() {
    let b128 = disagreements_on(&arch::GFX942, Op::DsRead { bits: 128 });
    // 2-way by the phase tables (cktile, rocKE, Triton, IREE, amd-shark), 1-way by rocRoller.
    let a = answers_on(&b128, "lane L at byte 16*(L%4) + 128*(L/4)");
    assert_eq!(
        a,
        [
            ("cktile", Some(2)),
            ("rocke", Some(2)),
            ("rocroller", Some(1)),
            ("triton-9662", Some(2)),
            ("triton-11365", Some(2)),
            ("iree", Some(2)),
            ("amd-shark", Some(2)),
            ("hipkittens", None),
            ("mi450-blog", None)
        ]
    );
    // A broadcast (rocKE, Triton, amd-shark, cktile), 4-way by rocRoller; IREE and HipKittens silent.
    let a = answers_on(&b128, "every lane at byte 0");
    assert_eq!(
        a,
        [
            ("cktile", Some(1)),
            ("rocke", Some(1)),
            ("rocroller", Some(4)),
            ("triton-9662", Some(1)),
            ("triton-11365", Some(1)),
            ("iree", None),
            ("amd-shark", Some(1)),
            ("hipkittens", None),
            ("mi450-blog", None)
        ]
    );
    // gfx950 ds_read_b32: lanes 0 and 32 at bytes 0 and 256 conflict only in one 64-lane phase.
    let b32 = disagreements_on(&arch::GFX950, Op::DsRead { bits: 32 });
    let a = answers_on(&b32, "lanes 0 and 32 only, at bytes 0 and 256");
    assert_eq!(
        a,
        [
            ("cktile", Some(1)),
            ("rocke", Some(1)),
            ("rocroller", None),
            ("triton-9662", Some(2)),
            ("triton-11365", Some(2)),
            ("iree", Some(2)),
            ("amd-shark", Some(2)),
            ("hipkittens", None),
            ("mi450-blog", None)
        ]
    );
    // gfx1250 ds_read_b128: lanes 0-15 on 16 B of each 64: the MI450 blog's 16-lane groups
    // meet 2-way where the GFX12 ISA's 8-lane groups (Triton #11365) are conflict-free.
    let g1250 = disagreements_on(&arch::GFX1250, Op::DsRead { bits: 128 });
    let a = answers_on(&g1250, "lane L at byte 16*(L%8) + 256*(L/8)");
    let answered: Vec<_> = a.into_iter().filter(|(_, w)| w.is_some()).collect();
    assert_eq!(answered, [("cktile", Some(2)), ("triton-11365", Some(1)), ("mi450-blog", Some(2))]);
    // Every disagreement has two models that answer differently.
    for d in disagreements(None) {
        let mut s: Vec<u32> = d.signature().into_iter().flatten().collect();
        s.sort_unstable();
        s.dedup();
        assert!(s.len() > 1, "{} {} {}", d.arch, d.op, d.case.description);
    }
}

#[test]
fn silent_models_refuse_naming_model_chip_and_instruction() {
    let e = answer(Model::HipKittens, &arch::GFX942, Op::DsRead { bits: 128 }, &[Some(0)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the hipkittens model says nothing of ds_read_b128 on gfx942: it covers ds_read_b64, ds_read_b96, \
         ds_read_b128 and ds_write_b64 on gfx950"
    );
    let e = answer(Model::Iree, &arch::GFX942, Op::DsRead { bits: 32 }, &[Some(0), Some(0)]).unwrap_err();
    assert!(
        e.to_string().contains("the iree model says nothing of ds_read_b32 on gfx942: lanes of one phase share a word")
    );
    let e = answer(Model::RocRoller, &arch::GFX942, Op::DsRead { bits: 32 }, &[Some(0)]).unwrap_err();
    assert!(e.to_string().contains("a full wave"), "{e}");
    assert_eq!(Model::by_name("triton-9662").unwrap(), Model::TritonContiguous);
    assert!(Model::by_name("tritn").unwrap_err().to_string().contains("unknown name `tritn`"));
}

#[test]
fn the_cli_prints_the_disagreements() {
    let o = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(["rules", "--disagreements", "--arch", "gfx942"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("gfx942 ds_read_b128: the models disagree on"), "{text}");
    assert!(text.contains("rocroller 4-way"), "{text}");
    let o = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(["rules", "--disagreements", "--arch", "sm90"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("sm90 is an NVIDIA chip"));
}

#[test]
fn bank_answers_with_a_model_from_the_flag_or_the_request() {
    use std::io::Write;
    let bank = |args: &[&str], request: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cktile"))
            .arg("bank")
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(request.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    };
    let full: Vec<String> = (0..64).map(|_| String::from("0")).collect();
    let request = format!(r#"{{"arch": "gfx942", "op": "ds_read_b128", "addresses": [{}]}}"#, full.join(","));
    let o = bank(&["--model", "rocroller"], &request);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["model"].as_str(), v["max_ways"].as_u64(), v["broadcast"].as_bool()),
        (Some("rocroller"), Some(4), Some(false))
    );
    // The request's key, and cktile's own report by default.
    let with_key = request.replacen('{', r#"{"model": "rocke", "#, 1);
    let v: serde_json::Value = serde_json::from_slice(&bank(&[], &with_key).stdout).unwrap();
    assert_eq!((v["model"].as_str(), v["max_ways"].as_u64()), (Some("rocke"), Some(1)));
    let v: serde_json::Value = serde_json::from_slice(&bank(&[], &request).stdout).unwrap();
    assert_eq!((v["max_ways"].as_u64(), v.get("model")), (Some(1), None));
    // Silent, conflicting or unknown: exit code 2, the message naming them.
    let o = bank(&["--model", "hipkittens"], &request);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the hipkittens model says nothing of ds_read_b128 on gfx942"));
    let o = bank(&["--model", "iree"], &with_key);
    assert!(String::from_utf8_lossy(&o.stderr).contains("--model `iree` and the request's model `rocke` differ"));
    let o = bank(&["--model", "nvidia"], &request);
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown name `nvidia`; expected one of: cktile, rocke"));
}

#[test]
fn a_tile_under_a_model_is_the_worst_of_its_instructions() {
    use cktile::analyzer::Pattern;
    use cktile::analyzer::tile::lane_addresses;
    use cktile::reports::models::answer_tile;
    let cases = [
        ("packed((128,64))", arch::GFX942, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } }),
        ("ck-universal-a:m=128,k=64", arch::GFX942, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } }),
        ("packed((64,64))", arch::GFX950, Pattern::Rows { op: Op::DsRead { bits: 32 } }),
        ("row-padded:rows=64,cols=64,pad=8", arch::GFX950, Pattern::Columns { op: Op::DsRead { bits: 64 } }),
    ];
    for (spec, a, p) in cases {
        let d = cktile::layouts::resolve(spec).unwrap();
        for m in MODELS {
            let got = answer_tile(m, &d, 2, &a, p).ok().map(|t| t.max_ways);
            let total = answer_tile(Model::Cktile, &d, 2, &a, p).unwrap().instructions;
            let want: Option<u32> = (0..total)
                .map(|i| brute(m, &a, p.op(), &lane_addresses(&d, 2, &a, p, i).unwrap()))
                .try_fold(0, |w, x| x.map(|x| w.max(x)));
            assert_eq!(got, want, "{spec} {} {}", a.name(), m.name());
        }
    }
    let o = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(["analyze", "packed((128,64))", "--arch", "gfx942", "--pattern", "mfma16", "--dtype", "fp16"])
        .args(["--model", "triton-9662", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((v["max_ways"].as_u64(), v["cktile_max_ways"].as_u64()), (Some(8), Some(4)));
}

#[test]
fn the_disagreements_json_holds_every_answer() {
    let o = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(["rules", "--disagreements", "--arch", "gfx950", "--op", "ds_read_b32", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), disagreements_on(&arch::GFX950, Op::DsRead { bits: 32 }).len());
    let row = rows.iter().find(|r| r["pattern"] == "lane L at byte 4*(L%32) + 256*(L/32)").unwrap();
    let ways: Vec<Option<u64>> = row["answers"].as_array().unwrap().iter().map(|a| a["ways"].as_u64()).collect();
    assert_eq!(ways, [Some(1), Some(1), Some(1), Some(2), Some(2), Some(2), Some(2), None, None]);
    assert_eq!(row["addresses"][32], 256);
    assert!(row["answers"][7]["refusal"].as_str().unwrap().starts_with("the hipkittens model says nothing"));
}

/// nod-ai's published MI300X stride counts (tests/data/amd-probe/), read
/// by `rules --ingest`: every one is what cktile, rocKE, both Triton forms,
/// IREE and amd-shark count, and none what rocRoller's 16/8/4-lane clocks
/// count; HipKittens says nothing of gfx942. Each model's count is its
/// brute-force one from the definitions above.
#[test]
fn the_published_mi300x_strides_support_the_phase_tables_not_rocrollers_clocks() {
    use cktile::reports::probe::{ingest, parse};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/amd-probe/mi300x-nod-ai-strides.txt");
    let f = ingest(&parse(&std::fs::read_to_string(path).unwrap()).unwrap()).unwrap();
    assert_eq!(f.strides.len(), 15);
    for s in &f.strides {
        let addrs: Vec<Option<u64>> = (0..64).map(|t| Some(t * s.stride)).collect();
        for (m, cycles) in &s.models {
            assert_eq!(
                *cycles,
                brute_both(*m, &arch::GFX942, s.op, &addrs).map(|b| b.1),
                "{} {} {}",
                m.name(),
                s.op,
                s.stride
            );
        }
        let supports: Vec<&str> = s.supports().iter().map(|m| m.name()).collect();
        assert_eq!(
            supports,
            ["cktile", "rocke", "triton-9662", "triton-11365", "iree", "amd-shark"],
            "{} {}",
            s.op,
            s.stride
        );
    }
}

/// `analyze --model` over a distribution's window: every model's answer
/// from its definition, on lanes taken from the distribution itself.
#[test]
fn a_window_under_a_model_is_its_definitions_answer() {
    use cktile::distribution::{Distribution, catalogue};
    use cktile::reports::models::answer_window;
    let d = Distribution::new(catalogue::mfma_a(16, 32).unwrap()).unwrap();
    let ndim_y = d.encoding().ndim_y();
    let op = Op::DsRead { bits: 128 };
    for spec in ["packed((16,32))", "row-padded:rows=16,cols=32,pad=8", "ck-xor-preshuffle:m=16,k=32,kpack=8"] {
        let desc = cktile::layouts::resolve(spec).unwrap();
        // One instruction: each lane reads the 8 elements from its Y origin.
        let addrs: Vec<Option<u64>> = (0..64i64)
            .map(|lane| {
                let mut top = vec![lane];
                top.extend(std::iter::repeat_n(0, ndim_y));
                let x = d.calculate_index(&top).unwrap();
                Some(2 * desc.calculate_offset(&[x.get(0), x.get(1)]) as u64)
            })
            .collect();
        for model in MODELS {
            let got = answer_window(model, &desc, 2, &arch::GFX942, &d, op);
            let want = brute_both(model, &arch::GFX942, op, &addrs).map(|(ways, _)| ways);
            assert_eq!(got.as_ref().ok().map(|t| t.max_ways), want, "{spec} {model:?}");
        }
    }
}
