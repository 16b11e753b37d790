//! `cktile::export` against independent evaluations of what it gives:
//! Triton's linear layout rebuilt from its bases (each offset's coordinate
//! the XOR of its bits' bases), the padded one through its pair, and
//! CuTe's text evaluated as CuTe defines strided layouts and
//! `Swizzle<B,M,S>`; every coordinate of every catalogue layout that
//! exports compared with the layout's own offset; the refusals recomputed.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::export::{Exported, cute, linear_bases, padded, triton};
use std::collections::HashMap;
use std::process::Command;

const LAYOUTS: &[&str] = &[
    "packed((4,8))",
    "packed((16,64))",
    "cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64",
    "cute-swizzle:b=2,mbase=2,s=3,rows=32,cols=32",
    "cute-swizzle:b=1,mbase=0,s=1,rows=4,cols=4",
    "triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows=64,cols=64",
    "triton-swizzled:vec=4,perphase=2,maxphase=4,order=10,rows=32,cols=64",
    "triton-nvmma:swizzle=128,bits=16,rows=64",
    "triton-nvmma:swizzle=64,bits=8,rows=32",
    "triton-rotating:vec=4,perphase=1,maxphase=16,order=01,rows=64,cols=128",
    "triton-rotating:vec=8,perphase=2,maxphase=8,order=10,rows=256,cols=64",
    "ck-universal-a:m=64,k=32",
    "ck-xor-preshuffle:m=16,k=64,kpack=8",
    "row-padded:rows=64,cols=64,pad=8",
    "row-padded:rows=32,cols=16,pad=4",
    "row-padded:rows=12,cols=10,pad=3",
];

fn coords(lengths: &[i64]) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for &l in lengths {
        out = out.into_iter().flat_map(|c| (0..l).map(move |x| [c.clone(), vec![x]].concat())).collect();
    }
    out
}

/// Offset of every coordinate under Triton's bases (offset -> coordinate), padded by `pair`.
fn triton_offsets(bases: &[Vec<i64>], pair: Option<(u64, u64)>) -> HashMap<Vec<i64>, i64> {
    let mut out = HashMap::new();
    for o in 0..1i64 << bases.len() {
        let mut c = vec![0i64; bases[0].len()];
        for (b, basis) in bases.iter().enumerate() {
            if o >> b & 1 == 1 {
                for (x, y) in c.iter_mut().zip(basis) {
                    *x ^= y;
                }
            }
        }
        let placed = match pair {
            Some((i, p)) => o + (o / i as i64) * p as i64,
            None => o,
        };
        assert!(out.insert(c, placed).is_none(), "two offsets on one coordinate");
    }
    out
}

#[test]
fn every_export_is_the_layout_at_every_coordinate() {
    let (mut linear, mut pads, mut cutes) = (0, 0, 0);
    for entry in LAYOUTS {
        let desc = cktile::layouts::resolve(entry).unwrap();
        let lengths = desc.lengths().as_slice().to_vec();
        let all = coords(&lengths);
        match triton(&desc) {
            Ok(Exported::TritonLinear(b)) => {
                let t = triton_offsets(&b, None);
                assert!(all.iter().all(|c| t[c] == desc.calculate_offset(c)), "{entry}");
                linear += 1;
            }
            Ok(Exported::TritonPadded(p)) => {
                let t = triton_offsets(&p.offset_bases, Some(p.interval_padding));
                assert!(all.iter().all(|c| t[c] == desc.calculate_offset(c)), "{entry}");
                pads += 1;
            }
            Ok(Exported::Cute(_)) => unreachable!(),
            Err(e) => {
                // Refused only where no power-of-two tile exists to be linear over.
                assert!(lengths.iter().any(|l| !(*l as u64).is_power_of_two()), "{entry}: {e}");
            }
        }
        if let Ok(text) = cute(&desc) {
            assert!(all.iter().all(|c| cute_offset(&text, c) == desc.calculate_offset(c)), "{entry}: {text}");
            cutes += 1;
        }
    }
    assert_eq!((linear, pads, cutes), (13, 2, 14));
}

/// CuTe's refusal names the first element (row-major) whose offset is not
/// the sum of its coordinates' offsets along their axes, recomputed here.
fn cute_names_its_witness(d: &cktile::Descriptor) {
    let lengths = d.lengths().as_slice().to_vec();
    let all = coords(&lengths);
    let axis_sum = |c: &[i64]| -> i64 {
        (0..c.len())
            .map(|k| {
                let mut axis = vec![0; c.len()];
                axis[k] = c[k];
                d.calculate_offset(&axis)
            })
            .sum()
    };
    let first = all.iter().position(|c| d.calculate_offset(c) != axis_sum(c)).expect("not separable");
    let e = cute(d).unwrap_err().to_string();
    assert!(e.contains(&format!("coordinate = {first}; its offset")), "{e}");
}

#[test]
fn what_a_peer_cannot_express_is_refused() {
    // Column-major is linear; a pitch of 3 or 5 leaves [0, N) or repeats: no bijection onto [0, N).
    assert!(linear_bases(&cktile::spec::parse("naive((4,4),(1,4))").unwrap()).is_ok());
    for spec in ["naive((2,4),(3,1))", "naive((4,4),(5,1))"] {
        let e = linear_bases(&cktile::spec::parse(spec).unwrap()).unwrap_err().to_string();
        assert!(e.contains("bijection"), "{spec}: {e}");
    }
    // A bijection onto [0, N) that is not GF(2)-linear: rows rotated by one (offset = 4r + (c + r) % 4).
    let rotated = cktile::spec::parse(
        "naive((4,4),(4,1)) | transform(pass_through(4) on [0] -> [0], cyclic_shift((4,4)) on [0,1] -> [0,1])",
    );
    if let Ok(d) = rotated {
        let lengths = d.lengths().as_slice().to_vec();
        let values: Vec<i64> = coords(&lengths).iter().map(|c| d.calculate_offset(c)).collect();
        let linear = (0..values.len())
            .all(|i| (0..4).filter(|b| i >> b & 1 == 1).fold(0, |x, b| x ^ values[1 << b]) == values[i]);
        assert_eq!(linear_bases(&d).is_ok(), linear, "the verdict is the brute force's");
    }
    // A padded layout is not linear, and a linear one has no padding.
    let padded_layout = cktile::layouts::resolve("row-padded:rows=4,cols=8,pad=1").unwrap();
    assert!(linear_bases(&padded_layout).unwrap_err().to_string().contains("padded"));
    let swizzled = cktile::layouts::resolve("cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64").unwrap();
    assert!(padded(&swizzled).unwrap_err().to_string().contains("no padding"));
    // A swizzle of a padded tile: no CuTe text cktile writes, but Triton's padded layout over a linear one.
    let d = cktile::spec::parse("naive((8,8),(9,1)) | transform(xor((8,8)) on [0,1] -> [0,1])").unwrap();
    cute_names_its_witness(&d);
    let Exported::TritonPadded(p) = triton(&d).unwrap() else { panic!("padded") };
    let t = triton_offsets(&p.offset_bases, Some(p.interval_padding));
    assert!(coords(&[8, 8]).iter().all(|c| t[c] == d.calculate_offset(c)));
    // A rotating layout (Triton's AMD one) is no strided layout nor a swizzle of one.
    cute_names_its_witness(
        &cktile::layouts::resolve("triton-rotating:vec=4,perphase=1,maxphase=16,rows=64,cols=64").unwrap(),
    );
    // One dimension whose offsets (0, 1, 3, 2) are no modes (nor a swizzle of any): that dimension is named.
    let gray = "naive((2,2),(2,1)) | transform(xor((2,2)) on [0,1] -> [0,1]) | transform(merge((2,2)) on [0,1] -> [0])";
    let d = cktile::spec::parse(gray).unwrap();
    assert_eq!((0..4).map(|i| d.calculate_offset(&[i])).collect::<Vec<_>>(), [0, 1, 3, 2]);
    let e = cute(&d).unwrap_err().to_string();
    assert!(e.contains("dimension = 0; its offsets along its axis are no CuTe modes"), "{e}");
    // What Gluon's constructors assert: power-of-two tiles and paddings, at least one basis.
    for (spec, named) in [
        ("row-padded:rows=4,cols=8,pad=3", "padding = 3; Triton's PaddedSharedLayout takes power-of-two paddings"),
        ("naive((4,6),(8,1))", "length = 6; Triton's linear layouts cover power-of-two tiles"),
        ("packed((1))", "elements = 1; Triton's shared linear layouts take at least one offset basis"),
    ] {
        let e = triton(&cktile::layouts::resolve(spec).unwrap()).unwrap_err().to_string();
        assert!(e.contains(named), "{spec}: {e}");
    }
}

#[test]
fn the_cli_exports_as_the_library() {
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_cktile")).arg("export").args(args).output().unwrap();
    let o = run(&["row-padded:rows=64,cols=64,pad=8", "--as", "triton", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let p = padded(&cktile::layouts::resolve("row-padded:rows=64,cols=64,pad=8").unwrap()).unwrap();
    assert_eq!((v["kind"].as_str(), v["interval_padding_pairs"][0][0].as_u64()), (Some("padded"), Some(64)));
    assert_eq!(v["offset_bases"].as_array().unwrap().len(), p.offset_bases.len());
    let o = run(&["cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64", "--as", "cute"]);
    assert_eq!(String::from_utf8(o.stdout).unwrap(), "Sw<3,3,3> o _0 o (64,64):(64,1)\n");
    let o = run(&["packed((4,8))", "--as", "fish"]);
    assert_eq!(o.status.code(), Some(2));
}

/// One `answer` of `search --as` or `analyze --as` (JSON) for `desc`: an
/// export, evaluated independently (Triton's bases, CuTe's text) and equal
/// to `desc`'s map at every coordinate, gives `Ok` with the peer's text; a
/// refusal, equal to the library's, gives `Err` with it.
fn checked_answer(
    answer: &serde_json::Value,
    peer: &str,
    desc: &cktile::Descriptor,
    what: &str,
) -> Result<String, String> {
    assert_eq!(answer["peer"], peer, "{what}");
    let all = coords(desc.lengths().as_slice());
    match answer["export"].as_object() {
        Some(e) if peer == "triton" => {
            let bases: Vec<Vec<i64>> = serde_json::from_value(e["offset_bases"].clone()).unwrap();
            let pair = e["interval_padding_pairs"]
                .as_array()
                .unwrap()
                .first()
                .map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()));
            let t = triton_offsets(&bases, pair);
            assert!(all.iter().all(|x| t[x] == desc.calculate_offset(x)), "{what}");
            Ok(e["text"].as_str().unwrap().to_string())
        }
        Some(e) => {
            let text = e["text"].as_str().unwrap();
            assert!(all.iter().all(|x| cute_offset(text, x) == desc.calculate_offset(x)), "{what}: {text}");
            Ok(text.to_string())
        }
        None => {
            let why = answer["refused"].as_str().unwrap();
            let p = cktile::export::Peer::by_name(peer).unwrap();
            assert_eq!(p.export(desc).unwrap_err().to_string(), why, "{what}");
            Err(why.to_string())
        }
    }
}

/// `cktile search --as PEER --json`: every layout the report lists (the
/// best, the equally good ones, the Pareto front, the naive layout) carries
/// its answer in the peer's terms, and each answer, evaluated independently
/// (Triton's bases, CuTe's text), is its catalogue entry's map at every
/// coordinate; a refusal is the library's refusal too. The text report
/// prints the same answers, and an unknown peer is refused naming the
/// valid ones.
#[test]
fn search_answers_each_listed_layout_in_the_peers_terms() {
    let search = |extra: &[&str]| {
        let mut args = vec!["search", "--tile", "64x64", "--dtype", "fp16", "--arch", "gfx942"];
        args.extend(["--write", "ds_write_b128:row", "--read", "mfma16x16x16:a"]);
        args.extend(extra);
        Command::new(env!("CARGO_BIN_EXE_cktile")).args(&args).output().unwrap()
    };
    let (mut exported, mut refused) = (0, 0);
    for peer in ["triton", "cute"] {
        let o = search(&["--as", peer, "--json"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let mut listed = vec![&v["best"], &v["naive"]];
        listed.extend(v["optimal"].as_array().unwrap());
        listed.extend(v["front"].as_array().unwrap());
        for c in listed {
            let entry = c["entry"].as_str().unwrap();
            let desc = cktile::layouts::resolve(entry).unwrap();
            match checked_answer(&c["answer"], peer, &desc, entry) {
                Ok(_) => exported += 1,
                Err(_) => refused += 1,
            }
        }
        // The text report: the best layout's answer, after its entry.
        let text = String::from_utf8(search(&["--as", peer]).stdout).unwrap();
        let best = &v["best"];
        let want = match best["answer"]["export"]["text"].as_str() {
            Some(t) => t.to_string(),
            None => format!("refused: {}", best["answer"]["refused"].as_str().unwrap()),
        };
        let entry = best["entry"].as_str().unwrap();
        assert!(text.contains(&format!("As {peer}:\n  {entry}\n    {want}\n")), "{text}");
    }
    assert!(exported > 10, "{exported} exported, {refused} refused");
    let o = search(&["--as", "ck"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--as: unknown name `ck`; expected one of: triton, cute"));
}

/// `cktile analyze --as PEER`: the analysed layout in the peer's terms,
/// after the report (text) or under `answer` (JSON), for layouts from each
/// family a peer expresses and for ones it refuses: each export evaluated
/// independently (Triton's bases, CuTe's text) is the layout's map at every
/// coordinate, each refusal the library's, and the text the same answer.
#[test]
fn analyze_answers_in_the_peers_terms() {
    let analyze = |spec: &str, extra: &[&str]| {
        let mut args = vec!["analyze", spec, "--arch", "gfx942", "--pattern", "mfma16", "--dtype", "fp16"];
        args.extend(extra);
        Command::new(env!("CARGO_BIN_EXE_cktile")).args(&args).output().unwrap()
    };
    let (mut exported, mut refused) = (0, 0);
    for spec in [
        "packed((64,64))",
        "ck-universal-a:m=64,k=64",
        "cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64",
        "row-padded:rows=64,cols=64,pad=8",
        // Triton refuses a tile of 48 rows, CuTe a rotating XOR (no sum of axes, no Swizzle).
        "naive((48,64),(64,1))",
        "triton-rotating:vec=8,perphase=1,maxphase=8,rows=64,cols=64",
    ] {
        let desc = cktile::layouts::resolve(spec).unwrap();
        for peer in ["triton", "cute"] {
            let o = analyze(spec, &["--as", peer, "--json"]);
            assert!(o.status.success(), "{spec}: {}", String::from_utf8_lossy(&o.stderr));
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            let want = match checked_answer(&v["answer"], peer, &desc, spec) {
                Ok(text) => {
                    exported += 1;
                    text
                }
                Err(why) => {
                    refused += 1;
                    format!("refused: {why}")
                }
            };
            // The text report ends with the same answer; the report before it is the plain one.
            let text = String::from_utf8(analyze(spec, &["--as", peer]).stdout).unwrap();
            let plain = String::from_utf8(analyze(spec, &[]).stdout).unwrap();
            assert_eq!(text, format!("{plain}As {peer}:\n  {want}\n"), "{spec}");
        }
    }
    assert!(exported >= 6 && refused >= 2, "{exported} exported, {refused} refused");
    let o = analyze("packed((64,64))", &["--as", "ck"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--as: unknown name `ck`; expected one of: triton, cute"));
}

/// CuTe's text, `(d0,(d1,d2)):(s0,(s1,s2))` (flat or nested) after an
/// optional `Sw<B,M,S> o _0 o`, evaluated as CuTe defines it: a
/// dimension's index split over its modes fastest first, each digit times
/// its stride, then the swizzle.
fn cute_offset(text: &str, c: &[i64]) -> i64 {
    fn tuple(t: &str) -> Vec<Vec<i64>> {
        // The top level's items, each a list of its modes.
        let inner = &t[1..t.len() - 1];
        let (mut items, mut depth, mut cur) = (Vec::new(), 0, String::new());
        for ch in inner.chars() {
            match ch {
                '(' => depth += 1,
                ')' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(cur.clone());
                    cur.clear();
                    continue;
                }
                _ => {}
            }
            cur.push(ch);
        }
        items.push(cur);
        items.iter().map(|i| i.trim_matches(['(', ')']).split(',').map(|x| x.parse().unwrap()).collect()).collect()
    }
    let (swizzle, layout) = match text.split_once(" o _0 o ") {
        Some((s, l)) => (Some(s), l),
        None => (None, text),
    };
    let (shape, stride) = layout.split_once(':').unwrap();
    let (shape, stride) = (tuple(shape), tuple(stride));
    let mut x = 0;
    for ((modes, strides), &i) in shape.iter().zip(&stride).zip(c) {
        let mut i = i;
        for (l, s) in modes.iter().zip(strides) {
            x += (i % l) * s;
            i /= l;
        }
    }
    match swizzle {
        None => x,
        Some(s) => {
            let p: Vec<i64> =
                s.trim_start_matches("Sw<").trim_end_matches('>').split(',').map(|v| v.parse().unwrap()).collect();
            let yyy = ((1 << p[0]) - 1) << (p[1] + p[2]);
            x ^ ((x & yyy) >> p[2])
        }
    }
}

/// A dimension whose offsets are no single stride is written as CuTe's
/// modes (a merge of (2, 3) over strides (12, 1): `(3,2):(1,12)`, fastest
/// first), a swizzle of such a layout as the swizzle over it, and each text
/// is the layout at every coordinate by CuTe's definition.
#[test]
fn cute_writes_a_dimension_of_several_modes() {
    let merged = "naive((4,2,3),(3,12,1)) | transform(pass_through(4) on [0] -> [0], merge((2,3)) on [1,2] -> [1])";
    let d = cktile::spec::parse(merged).unwrap();
    let text = cute(&d).unwrap();
    assert_eq!(text, "(4,(3,2)):(3,(1,12))");
    for c in coords(d.lengths().as_slice()) {
        assert_eq!(cute_offset(&text, &c), d.calculate_offset(&c), "{c:?}");
    }
    // Two 64 x 64 blocks of CK's XOR tile side by side, the second 4096 on: the XOR of 8-element vectors by
    // the row is CuTe's Swizzle<3,3,3> over (64,(64,2)):(64,(1,4096)), as Triton's 128-byte NVMMA
    // layout of a 64 x 128 fp16 tile is.
    let tiled = "naive((64,2,8,8),(64,4096,8,1)) | transform(xor((64,8)) on [0,2] -> [0,2], pass_through(2) on [1] -> [1], pass_through(8) on [3] -> [3]) | transform(pass_through(64) on [0] -> [0], merge((2,8,8)) on [1,2,3] -> [1])";
    let d = cktile::spec::parse(tiled).unwrap();
    let text = cute(&d).unwrap();
    assert_eq!(text, "Sw<3,3,3> o _0 o (64,(64,2)):(64,(1,4096))");
    for c in coords(d.lengths().as_slice()) {
        assert_eq!(cute_offset(&text, &c), d.calculate_offset(&c), "{c:?}");
    }
}
