//! gfx1250's partition check (`cktile::reports::partitions`) recomputed by
//! brute force from AMD's MI450 blog's rule, restated here: warp w runs on
//! SIMD w % 4, the even warps forming one pair and the odd the other; an
//! LDS byte address a lies in partition a / 65536; an access is conflicted
//! when both pairs reach one partition. Each access of the window is taken
//! from the distribution directly (its first Y the access, its second the
//! vector), not from the window's own numbering.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::{Op, arch};
use cktile::distribution::{Distribution, catalogue};
use cktile::reports::partitions::partitions;
use std::collections::BTreeSet;
use std::process::Command;

const PARTITIONED: &str =
    "naive((8,2,8,32),(320,32768,40,1)) | transform(merge((8,2,8)) on [0,1,2] -> [0], pass_through(32) on [3] -> [1])";

/// For each access (Y0), the partitions of the even and of the odd warps.
fn brute(desc: &cktile::Descriptor, d: &Distribution, base: u64) -> Vec<(BTreeSet<u64>, BTreeSet<u64>)> {
    let mut out = Vec::new();
    for access in 0..4 {
        let mut pairs = (BTreeSet::new(), BTreeSet::new());
        for warp in 0..4i64 {
            for lane in 0..32i64 {
                for v in 0..8 {
                    let x = d.calculate_index(&[warp, lane, access, v]).unwrap();
                    let offset = desc.calculate_offset(&[x.get(0), x.get(1)]);
                    let p = (base + 2 * offset as u64) / 65536;
                    if warp % 2 == 0 {
                        pairs.0.insert(p)
                    } else {
                        pairs.1.insert(p)
                    };
                }
            }
        }
        out.push(pairs);
    }
    out
}

#[test]
fn the_check_is_the_blogs_rule_by_brute_force() {
    let d = Distribution::new(catalogue::by_name("block_raked_128x128x32_v8_w32").unwrap()).unwrap();
    let op = Op::DsWrite { bits: 128 };
    let layouts = [
        cktile::layouts::resolve("row-padded:rows=128,cols=32,pad=8").unwrap(),
        cktile::Descriptor::packed(&[128, 32]).unwrap(),
        cktile::spec::parse(PARTITIONED).unwrap(),
    ];
    let mut seen = BTreeSet::new();
    for desc in &layouts {
        for base in (0..5 * 65536u64 - 80 * 1024).step_by(4096) {
            let r = partitions(desc, 2, &arch::GFX1250, &d, op, base).unwrap();
            let want = brute(desc, &d, base);
            assert_eq!(r.warps, 4);
            assert_eq!(r.accesses.len(), want.len());
            for (got, (a, b)) in r.accesses.iter().zip(&want) {
                assert_eq!(got.pair_a, a.iter().copied().collect::<Vec<_>>(), "base {base}");
                assert_eq!(got.pair_b, b.iter().copied().collect::<Vec<_>>(), "base {base}");
                assert_eq!(got.shared, a.intersection(b).copied().collect::<Vec<_>>(), "base {base}");
                seen.insert(got.conflicted());
            }
        }
    }
    // Both verdicts occur: the plain tiles share a partition, the partitioned one keeps the pairs apart.
    assert_eq!(seen.len(), 2);
    let apart = partitions(&layouts[2], 2, &arch::GFX1250, &d, op, 0).unwrap();
    assert_eq!(apart.conflicted(), 0);
    assert_eq!((apart.accesses[0].pair_a.as_slice(), apart.accesses[0].pair_b.as_slice()), (&[0][..], &[1][..]));
    assert_eq!(partitions(&layouts[0], 2, &arch::GFX1250, &d, op, 0).unwrap().conflicted(), 4);
}

#[test]
fn the_check_refuses_what_it_cannot_judge() {
    let d = Distribution::new(catalogue::by_name("block_raked_128x128x32_v8_w32").unwrap()).unwrap();
    let lds = cktile::Descriptor::packed(&[128, 32]).unwrap();
    let op = Op::DsWrite { bits: 128 };
    for a in [arch::GFX942, arch::GFX950, arch::GFX1201, arch::SM90] {
        assert!(partitions(&lds, 2, &a, &d, op, 0).is_err(), "{}", a.name());
    }
    // Past the 320 KiB, or past u64.
    let e = partitions(&lds, 2, &arch::GFX1250, &d, op, 320 * 1024 - 4096).unwrap_err().to_string();
    assert!(e.contains("327680"), "{e}");
    assert!(partitions(&lds, 2, &arch::GFX1250, &d, op, u64::MAX).is_err());
    // An instruction gfx1250 lacks.
    assert!(partitions(&lds, 2, &arch::GFX1250, &d, Op::DsReadTr { element_bits: 16 }, 0).is_err());
}

fn cktile(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cktile")).args(args).output().unwrap()
}

#[test]
fn analyze_prints_and_serializes_the_check() {
    let base = ["analyze", PARTITIONED, "--dtype", "fp16", "--arch", "gfx1250"];
    let window = ["--distribution", "block_raked_128x128x32_v8_w32", "--op", "ds_write_b128"];
    let o = cktile(&[&base[..], &window[..]].concat());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("no access puts both pairs in one partition (4 accesses)"), "{text}");
    let o = cktile(&[&base[..], &window[..], &["--lds-base", "32768", "--json"][..]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // 32 KiB in: the even warps' rows still in partition 0, the odd ones' in 1.
    let d = Distribution::new(catalogue::by_name("block_raked_128x128x32_v8_w32").unwrap()).unwrap();
    let want = brute(&cktile::spec::parse(PARTITIONED).unwrap(), &d, 32768);
    let conflicted = want.iter().filter(|(a, b)| a.intersection(b).next().is_some()).count();
    assert_eq!((v["partitions"]["conflicted"].as_u64(), conflicted), (Some(0), 0));
    assert_eq!(v["partitions"]["base"], 32768);
    // No partitions key for a pattern, or on another chip; --lds-base refused there by name.
    let o = cktile(
        &["analyze", PARTITIONED, "--dtype", "fp16", "--arch", "gfx950", "--json"]
            .iter()
            .chain(&window)
            .copied()
            .collect::<Vec<_>>(),
    );
    assert!(!String::from_utf8(o.stdout).unwrap().contains("partitions"));
    let o = cktile(&[&base[..], &["--pattern", "rows", "--op", "ds_write_b128", "--lds-base", "0"][..]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8(o.stderr).unwrap().contains("a distribution's window on gfx1250, not a pattern"));
}
