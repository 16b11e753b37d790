//! `cktile equiv` and the library behind it: every verdict recomputed by
//! brute force. A "same map" is checked at every coordinate, a difference
//! at its coordinate, the linearity proof by checking that every linear
//! chain's offsets are the XOR of its single-bit offsets, and the CLI's
//! printed commands are run as printed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::check::equiv::{Equivalence, Proof, equivalent, not_xor_linear};
use cktile::check::{coordinate, enumerable_size};
use cktile::distribution::Distribution;
use cktile::lanes::equiv::{DistributionEquivalence, equivalent as equivalent_distributions};
use cktile::layouts::resolve;
use cktile::random::chain::{ChainConfig, chain};
use cktile::spelling::resolve as resolve_distribution;
use cktile::{Descriptor, Index};
use std::process::{Command, Output};

/// Whether `a` and `b` agree at every coordinate (validity and offset).
fn same_everywhere(a: &Descriptor, b: &Descriptor) -> bool {
    let n = enumerable_size(a).unwrap();
    (0..n).all(|i| {
        let c = coordinate(a, i);
        a.offset_if_valid(&c) == b.offset_if_valid(&c)
    })
}

/// Asserts that `v` is the truth about `a` and `b`, by brute force.
fn assert_verdict_holds(a: &Descriptor, b: &Descriptor, v: &Equivalence) {
    match v {
        Equivalence::Same(_) => assert!(same_everywhere(a, b), "claimed the same map:\n{a}\n{b}"),
        Equivalence::Differ { coordinate, a: x, b: y, .. } => {
            assert_ne!(x, y);
            assert_eq!((a.offset_if_valid(coordinate), b.offset_if_valid(coordinate)), (*x, *y));
        }
        Equivalence::Lengths { a: la, b: lb } => assert_ne!(la, lb),
        Equivalence::Undecided { .. } => panic!("small descriptors are always decided"),
    }
}

#[test]
fn the_linearity_rule_holds_on_every_chain_it_accepts() {
    // Offsets of a chain called linear are the XOR of its single-bit offsets at every coordinate.
    let config = ChainConfig::default().with_stages(1, 4).with_max_elements(1 << 12);
    let (mut linear, mut checked) = (0, 0);
    for seed in 0..6000u64 {
        let d = chain(seed, &config);
        checked += 1;
        if not_xor_linear(&d).is_some() {
            continue;
        }
        linear += 1;
        let lengths = d.lengths();
        let lengths = lengths.as_slice();
        let single = |dim: usize, bit: Index| {
            let mut c = vec![0; lengths.len()];
            c[dim] = bit;
            d.offset_if_valid(&c).unwrap()
        };
        for n in 0..enumerable_size(&d).unwrap() {
            let c = coordinate(&d, n);
            let mut want = 0;
            for (dim, &v) in c.iter().enumerate() {
                for k in 0..63 {
                    if v >> k & 1 == 1 {
                        want ^= single(dim, 1 << k);
                    }
                }
            }
            assert_eq!(d.offset_if_valid(&c), Some(want), "{d}\nat {c:?}");
        }
    }
    // The rule is not vacuous on these chains, and not everything passes it.
    assert!(linear > 300 && linear < checked, "{linear} of {checked} linear");
}

#[test]
fn catalogue_linear_layouts_are_recognised() {
    for entry in [
        "ck-universal-a:m=128,k=64",
        "ck-xor-preshuffle:m=64,k=64,kpack=8",
        "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64",
        "cute-tma:mode=128b,rows=8,dtype=fp32",
        "triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows=64,cols=64",
        "xor-linear:rows=32,cols=4,vec=8,masks=1.2,major=col",
    ] {
        assert_eq!(not_xor_linear(&resolve(entry).unwrap()), None, "{entry}");
    }
    let padded = not_xor_linear(&resolve("row-padded:rows=4,cols=8,pad=1").unwrap()).unwrap();
    assert_eq!(padded, "stage 1 (embed((4,8),(9,1))): embed is not linear over GF(2) with these parameters");
    let even = not_xor_linear(&resolve("row-padded:rows=4,cols=8,pad=8").unwrap()).unwrap();
    // Rows of 16 with 8 used: the embed is linear, but its 56 elements are not a power of two.
    assert_eq!(even, "stage 1 has lower length 56, not a power of two");
    let odd = not_xor_linear(&resolve("packed((3,8))").unwrap()).unwrap();
    assert_eq!(odd, "stage 1 has lower length 24, not a power of two");
}

#[test]
fn random_pairs_get_true_verdicts() {
    // Each chain against itself respelled (the same map), and against every other chain of the same
    // lengths (sometimes the same map, mostly not), each verdict recomputed by brute force.
    let config = ChainConfig::default().with_stages(0, 4).with_max_elements(1 << 10);
    let mut groups: std::collections::BTreeMap<Vec<Index>, Vec<Descriptor>> = Default::default();
    let mut by_linearity = 0;
    for seed in 0..1500u64 {
        let a = chain(seed, &config);
        let respelled = cktile::spec::parse(&a.to_string()).unwrap();
        let v = equivalent(&a, &respelled);
        assert!(matches!(v, Equivalence::Same(_)), "{a}: {v:?}");
        if matches!(v, Equivalence::Same(Proof::Linear { .. })) {
            by_linearity += 1;
        }
        groups.entry(a.lengths().as_slice().to_vec()).or_default().push(a);
    }
    let (mut same, mut differ) = (0, 0);
    for chains in groups.values() {
        for (i, a) in chains.iter().enumerate().take(12) {
            for b in &chains[i + 1..chains.len().min(12)] {
                let v = equivalent(a, b);
                assert_verdict_holds(a, b, &v);
                match v {
                    Equivalence::Same(_) => same += 1,
                    Equivalence::Differ { .. } => differ += 1,
                    other => panic!("same lengths, yet {other:?}"),
                }
            }
        }
    }
    assert!(differ > 500 && same > 20 && by_linearity > 100, "differ {differ}, same {same}, linear {by_linearity}");
}

#[test]
fn the_first_difference_is_the_first_probe_or_coordinate_that_differs() {
    // Swizzle<3,3,3> against the 2024 CK order: found among the single-bit probes.
    let a = resolve("ck-xor-lds:m=128,k=32,kpack=8,mlds=2,form=2024").unwrap();
    let b = resolve("cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=32").unwrap();
    let v = equivalent(&a, &b);
    assert_verdict_holds(&a, &b, &v);
    let Equivalence::Differ { coordinate, compared, .. } = v else { panic!("{v:?}") };
    // The first probe after the origin, row 1: the 2024 order moves it by one vector (8), CuTe's by a row (32).
    assert_eq!((coordinate, compared), (vec![1, 0], 2));
    // Two layouts that agree on every probe (row 0, column 0) and differ at (1, 2): found by enumeration.
    let a = resolve("packed((2,3))").unwrap();
    let b = cktile::spec::parse(
        "packed(5) | transform(modulo(5,6) on [0] -> [0]) | transform(unmerge((2,3)) on [0] -> [0,1])",
    )
    .unwrap();
    let v = equivalent(&a, &b);
    assert_verdict_holds(&a, &b, &v);
    assert!(
        matches!(v, Equivalence::Differ { ref coordinate, a: Some(5), b: Some(0), .. } if coordinate == &[1, 2]),
        "{v:?}"
    );
    let same =
        cktile::spec::parse("packed((2,3)) | transform(pass_through(2) on [0] -> [0], right_pad(3,0) on [1] -> [1])")
            .unwrap();
    assert_eq!(equivalent(&a, &same), Equivalence::Same(Proof::Exhaustion { coordinates: 6 }));
}

#[test]
fn large_tiles_are_proved_by_linearity_or_left_undecided() {
    // 2^25 coordinates, past the 2^24 enumerated: the same map, proved by its 25 bits.
    let a = resolve("packed((8192,4096))").unwrap();
    let b = resolve("naive((8192,4096),(4096,1))").unwrap();
    assert!(enumerable_size(&a).is_err());
    assert_eq!(equivalent(&a, &b), Equivalence::Same(Proof::Linear { bits: 25, probes: 28 }));
    // A large difference at a single bit is still found.
    let swapped = resolve("naive((8192,4096),(1,8192))").unwrap();
    assert!(
        matches!(equivalent(&a, &swapped), Equivalence::Differ { ref coordinate, a: Some(4096), b: Some(1), .. } if coordinate == &[1, 0])
    );
    // Not powers of two and too large: undecided, saying why.
    let odd = resolve("packed((8193,4096))").unwrap();
    let odd2 = resolve("naive((8193,4096),(4096,1))").unwrap();
    let v = equivalent(&odd, &odd2);
    let Equivalence::Undecided { size, limit, a_not_linear, b_not_linear, compared } = v else { panic!("{v:?}") };
    assert_eq!((size, limit), (8193 * 4096, 1 << 24));
    assert_eq!(a_not_linear.as_deref(), Some("stage 1 has lower length 33558528, not a power of two"));
    assert!(b_not_linear.is_some() && compared > 20);
}

#[test]
fn lengths_that_differ_are_named() {
    let v = equivalent(&resolve("packed((4,8))").unwrap(), &resolve("packed((8,4))").unwrap());
    assert_eq!(v, Equivalence::Lengths { a: vec![4, 8], b: vec![8, 4] });
    assert_eq!(v.same(), Some(false));
}

fn dist(text: &str) -> Distribution {
    resolve_distribution(text).and_then(|e| Ok(Distribution::new(e)?)).unwrap()
}

#[test]
fn every_catalogue_distribution_equals_its_own_ck_spelling() {
    let out = cktile_bin(&["distribution", "mfma16x16x16_a", "--json"]);
    assert!(out.status.success());
    let mut names = 0;
    for name in ["mfma16x16x16_a", "mfma16x16x16_b", "mfma32x32x8_a", "mfma32x32x8_c", "mfma16x16x32_c_transposed"] {
        let d = dist(name);
        // The library prints both spellings; each reads back as the same map.
        let json: serde_json::Value =
            serde_json::from_slice(&cktile_bin(&["distribution", name, "--json"]).stdout).unwrap();
        for key in ["encoding", "compact"] {
            let text = json[key].as_str().unwrap();
            let v = equivalent_distributions(&d, &dist(text)).unwrap();
            let count = d.index_count().unwrap();
            assert_eq!(v, DistributionEquivalence::Same { indices: count }, "{name} as {key}");
        }
        names += 1;
    }
    assert_eq!(names, 5);
}

#[test]
fn different_distributions_are_told_apart_at_their_first_difference() {
    // CK's MFMA A and B operand distributions are one map (each lane holds K-contiguous elements).
    for (a, b) in [("mfma16x16x16_a", "mfma16x16x16_b"), ("mfma32x32x8_a", "mfma32x32x8_b")] {
        assert_eq!(
            equivalent_distributions(&dist(a), &dist(b)).unwrap(),
            DistributionEquivalence::Same { indices: 256 }
        );
    }
    for (a, b) in [("mfma16x16x16_c", "mfma16x16x16_c_transposed"), ("mfma32x32x8_c", "mfma32x32x8_c_transposed")] {
        let (da, db) = (dist(a), dist(b));
        let v = equivalent_distributions(&da, &db).unwrap();
        let DistributionEquivalence::Differ { p, y, a: xa, b: xb, compared } = v else { panic!("{v:?}") };
        let ps_ys: Vec<Index> = p.iter().chain(&y).copied().collect();
        assert_eq!(da.calculate_index(&ps_ys).unwrap().as_slice(), xa.as_slice());
        assert_eq!(db.calculate_index(&ps_ys).unwrap().as_slice(), xb.as_slice());
        assert_ne!(xa, xb);
        // Every index before it agrees.
        let mut seen = 0u64;
        da.for_each(1 << 24, |idx, x, _| {
            seen += 1;
            if seen < compared {
                assert_eq!(db.calculate_index(idx).unwrap().as_slice(), x);
            }
        })
        .unwrap();
    }
    let v = equivalent_distributions(&dist("mfma16x16x16_a"), &dist("mfma32x32x8_a")).unwrap();
    assert_eq!(v, DistributionEquivalence::Lengths { what: "X", a: vec![16, 16], b: vec![32, 8] });
}

fn cktile_bin(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cktile")).args(args).output().expect("the binary runs")
}

#[test]
fn the_cli_answers_with_exit_codes_and_commands_that_paste_back() {
    let same = cktile_bin(&["equiv", "ck-universal-a:m=128,k=64", "cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=64"]);
    assert_eq!(same.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&same.stdout).starts_with("the same map, proved by linearity"));
    let (a, b) = ("ck-xor-lds:m=128,k=32,kpack=8,mlds=2,form=2024", "cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=32");
    let differ = cktile_bin(&["equiv", a, b]);
    assert_eq!(differ.status.code(), Some(1));
    let text = String::from_utf8(differ.stdout).unwrap();
    assert!(text.starts_with("different maps: at (1, 0), A gives offset 8 and B offset 32"), "{text}");
    // The printed commands run, and print the offsets the verdict names.
    let commands: Vec<&str> = text.lines().filter_map(|l| l.trim().split_once("cktile ").map(|(_, c)| c)).collect();
    assert_eq!(commands.len(), 2);
    let (da, db) = (resolve(a).unwrap(), resolve(b).unwrap());
    for (command, d) in commands.iter().zip([&da, &db]) {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("\"$CKTILE\" {command}"))
            .env("CKTILE", env!("CARGO_BIN_EXE_cktile"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{command}: {}", String::from_utf8_lossy(&out.stderr));
        let want = format!("[1, 0] -> offset {} ", d.offset_if_valid(&[1, 0]).unwrap());
        assert!(String::from_utf8_lossy(&out.stdout).starts_with(&want), "{command}");
    }
    // JSON.
    let json = cktile_bin(&["equiv", a, b, "--json"]);
    assert_eq!(json.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!((v["same"].as_bool(), v["kind"].as_str()), (Some(false), Some("layout")));
    assert_eq!(v["difference"]["coordinate"], serde_json::json!([1, 0]));
    // Undecided: 3; bad input: 2 with the argument named.
    let undecided = cktile_bin(&["equiv", "packed((8193,4096))", "naive((8193,4096),(4096,1))"]);
    assert_eq!(undecided.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&undecided.stdout).starts_with("undecided: 33558528 coordinates"));
    let bad = cktile_bin(&["equiv", "packed((4,8))", "packed((4,8)) | bogus"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).starts_with("error: B: "));
    let missing = cktile_bin(&["equiv", "@/nonexistent/spec", "packed((4,8))"]);
    assert_eq!(missing.status.code(), Some(2));
    // Distributions, in either spelling.
    let d = cktile_bin(&["equiv", "mfma16x16x16_c", "mfma16x16x16_c_transposed"]);
    assert_eq!(d.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&d.stdout).starts_with("different maps: thread P = (0), register Y = (0, 1)"));
    let kind = cktile_bin(&["equiv", "packed((4,8))", "mfma16x16x16_a", "--kind", "distribution"]);
    assert_eq!(kind.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&kind.stderr).starts_with("error: A: "));
}

/// A malformed A gets its own error: unless it is written as an
/// encoding, `equiv` reports what `--kind layout` reports for it, whichever
/// of the grammar's faults it has; written as an encoding, what `--kind
/// distribution` reports. Each message is also the one for the same text as B.
#[test]
fn a_malformed_first_argument_gets_its_own_error() {
    let stderr = |args: &[&str]| {
        let o = cktile_bin(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let layouts = [
        "packed((4,8)) | transform(merge((4,4)) on [0,1] -> [0])",
        "packed((4,8)) | bogus",
        "packed((4,8)",
        "naive((4,8),(8))",
        "ck-universal-a:m=0,k=32",
        "ck-nonexistent:m=1",
        "cute-swizzle:b=3",
        "# a layout\npacked((4,0))",
        "packed((4,8)) | transform(xor((4,9)) on [0,1] -> [0,1])",
    ];
    for bad in layouts {
        let auto = stderr(&["equiv", bad, "packed((32))"]);
        assert_eq!(auto, stderr(&["equiv", bad, "packed((32))", "--kind", "layout"]), "{bad}");
        let as_b = stderr(&["equiv", "packed((32))", bad]);
        assert_eq!(auto.replacen("error: A: ", "", 1), as_b.replacen("error: B: ", "", 1), "{bad}");
        assert!(!auto.contains("tile_distribution_encoding"), "{bad}: {auto}");
    }
    let encodings =
        ["mfma16x16x16_q", "tile_distribution_encoding<sequence<>, tuple<", "distribution(r(), h((4)), p(("];
    for bad in encodings {
        let auto = stderr(&["equiv", bad, "mfma16x16x16_a"]);
        assert_eq!(auto, stderr(&["equiv", bad, "mfma16x16x16_a", "--kind", "distribution"]), "{bad}");
    }
}
