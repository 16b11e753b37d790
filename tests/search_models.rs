//! `search --model`: the listed layouts under a public model, recomputed
//! through the analyzer's own tile path (`models::answer_tile`, what
//! `analyze --model` prints) for patterns, and through a window's lane
//! addresses from the distribution itself for `DIST:OP` accesses; cktile's
//! own model agrees with the analyzer's counts; the CLI prints and
//! serializes the library's answers.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::window::{WindowAccess, repeat_over};
use cktile::analyzer::{Op, Pattern, arch};
use cktile::distribution::{Distribution, catalogue};
use cktile::reports::analyze_tile_report;
use cktile::reports::models::{MODELS, Model, answer, answer_tile};
use cktile::search::{Problem, search, under_model};
use std::process::Command;

#[test]
fn listed_layouts_under_every_model_are_the_analyzers_answers() {
    for (a, write, read) in [
        (arch::GFX942, "ds_write_b128:row", "mfma16x16x16:a"),
        (arch::GFX950, "ds_write_b64:row", "ds_read_b64:column"),
        (arch::GFX1250, "ds_write_b128:row", "ds_read_b128:column"),
    ] {
        let p = Problem::new(64, 64, 2, a)
            .write(Pattern::from_access(write).unwrap())
            .read(Pattern::from_access(read).unwrap());
        let r = search(&p).unwrap();
        for model in MODELS {
            let judged = under_model(&r, model, 4).unwrap();
            assert_eq!(judged.len(), r.optimal.len().min(4));
            for (j, c) in judged.iter().zip(&r.optimal) {
                assert_eq!((j.entry.as_str(), j.cycles), (c.entry.as_str(), c.cycles));
                let desc = cktile::layouts::resolve(&j.entry).unwrap();
                for ((name, got), pattern) in j.answers.iter().zip(p.writes.iter().chain(&p.reads)) {
                    assert_eq!(*name, pattern.access_name());
                    let want = answer_tile(model, &desc, 2, &a, *pattern).map(|t| t.max_ways);
                    assert_eq!(got.as_ref().ok(), want.as_ref().ok(), "{} {model:?} {name} on {}", j.entry, a.name());
                    assert_eq!(got.is_err(), want.is_err());
                    if model == Model::Cktile {
                        let counts = analyze_tile_report(&desc, 2, &a, *pattern).unwrap().counts;
                        assert_eq!(*got.as_ref().unwrap(), counts.max_ways);
                    }
                }
            }
        }
    }
}

#[test]
fn window_accesses_are_judged_on_the_distributions_own_lanes() {
    let p = Problem::new(64, 32, 2, arch::GFX942)
        .access(cktile::search::Role::Read, cktile::search::Access::parse("mfma16x16x32_a:ds_read_b128").unwrap());
    let r = search(&p).unwrap();
    let judged = under_model(&r, Model::Rocke, 2).unwrap();
    for j in &judged {
        let desc = cktile::layouts::resolve(&j.entry).unwrap();
        let d =
            Distribution::new(repeat_over(&catalogue::by_name("mfma16x16x32_a").unwrap(), 64, 32).unwrap()).unwrap();
        let op = Op::DsRead { bits: 128 };
        let w = WindowAccess::new(&d, op, 2, 64).unwrap();
        let mut worst = 0;
        for i in 0..w.instructions() {
            let lanes: Vec<Option<u64>> =
                (0..64).map(|l| w.coordinate(i, l).map(|[m, k]| 2 * desc.calculate_offset(&[m, k]) as u64)).collect();
            worst = worst.max(answer(Model::Rocke, &arch::GFX942, op, &lanes).unwrap());
        }
        assert_eq!(j.answers[0].1.as_ref().ok(), Some(&worst), "{}", j.entry);
    }
}

#[test]
fn the_cli_prints_and_serializes_the_models_answers() {
    let args = ["search", "--tile", "64x64", "--dtype", "fp16", "--arch", "gfx942"];
    let acc = ["--write", "ds_write_b128:row", "--read", "mfma16x16x16:a", "--top", "2", "--model", "iree"];
    let run =
        |extra: &[&str]| Command::new(env!("CARGO_BIN_EXE_cktile")).args(args).args(acc).args(extra).output().unwrap();
    let o = run(&[]);
    let text = String::from_utf8(o.stdout).unwrap();
    // IREE is silent on writes: the write is reported silent, the read answered.
    assert!(text.contains("Under the iree model (a tool's model;"), "{text}");
    assert!(
        text.contains("ds_write_b128:row silent (the iree model says nothing of ds_write_b128 on gfx942"),
        "{text}"
    );
    let o = run(&["--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let p = Problem::new(64, 64, 2, arch::GFX942)
        .write(Pattern::from_access("ds_write_b128:row").unwrap())
        .read(Pattern::from_access("mfma16x16x16:a").unwrap());
    let judged = under_model(&search(&p).unwrap(), Model::Iree, 2).unwrap();
    let layouts = v["model"]["layouts"].as_array().unwrap();
    assert_eq!(layouts.len(), judged.len());
    for (l, j) in layouts.iter().zip(&judged) {
        assert_eq!(l["entry"], j.entry.as_str());
        assert_eq!(l["accesses"][1]["max_ways"].as_u64(), j.answers[1].1.as_ref().ok().map(|&w| u64::from(w)));
        assert!(l["accesses"][0]["refusal"].as_str().unwrap().contains("iree"));
    }
    let o = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(args)
        .args(["--read", "mfma16x16x16:a", "--model", "nvidia"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8(o.stderr).unwrap().contains("--model: unknown name"));
}
