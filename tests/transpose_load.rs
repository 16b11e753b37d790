//! CK's transposing LDS load (`load_tile_transpose.hpp`):
//! acceptance and the output distribution against CK's own input
//! generators (`LaneGroupTransposeTraits`, every lane group size, element
//! size and a grid of outer sizes), the data conservation a transpose
//! implies (every lane group ends up with the elements it read, transposed),
//! every refusal rule by name, and the CLI.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/xorshift.rs"]
mod xorshift;

use cktile::distribution::catalogue::transpose::{Refusal, TrElement, TransposeRule, Verdict, transpose};
use cktile::distribution::{Distribution, Encoding, MAX_ENUMERATED};
use std::collections::{BTreeSet, HashMap};
use xorshift::Rng;

/// CK's `LaneGroupTransposeTraits<T, G>::TileDistribution<o0, o1, i0, i1>`
/// (the 2-byte and 1-byte specializations), as written there.
fn ck_input(elem: TrElement, g: usize, outer: [usize; 2], inner: [usize; 2]) -> Encoding {
    let (second, tail): (usize, [usize; 2]) = match elem {
        TrElement::B16 => (4, [4, 4]),
        _ => (8, [2, 8]),
    };
    let h0 = [outer[0], outer[1], second];
    let h1 = [inner[0], inner[1], g / 16, tail[0], tail[1]];
    Encoding::new(&[], &[&h0, &h1], &[&[1, 2, 2, 1, 2]], &[&[0, 0, 2, 2, 3]], &[2, 1, 2], &[1, 1, 4]).unwrap()
}

/// (lane, Y...) -> X of every index, by lane.
fn by_lane(d: &Distribution) -> HashMap<i64, BTreeSet<(i64, i64)>> {
    let ndim_p = d.p_lengths().len();
    let p = d.p_lengths();
    let mut out: HashMap<i64, BTreeSet<(i64, i64)>> = HashMap::new();
    d.for_each(MAX_ENUMERATED, |ps_ys, xs, _| {
        // The flat P index (row-major over the Ps).
        let lane = (0..ndim_p).fold(0, |acc, i| acc * p.get(i) + ps_ys[i]);
        out.entry(lane).or_default().insert((xs[0], xs[1]));
    })
    .unwrap();
    out
}

#[test]
fn cks_transpose_inputs_are_accepted_and_transposed_within_their_lane_groups() {
    let mut checked = 0;
    for elem in [TrElement::B16, TrElement::B8] {
        for g in [16usize, 32, 64] {
            for outer in [[1, 1], [2, 1], [1, 2], [4, 2]] {
                for inner in [[1, 1], [2, 1], [1, 2], [2, 2]] {
                    let e = ck_input(elem, g, outer, inner);
                    let Verdict::Accepted { lane_group, output } = transpose(&e, elem, false).unwrap() else {
                        panic!("{e} refused: {:?}", transpose(&e, elem, false));
                    };
                    assert_eq!(lane_group, g, "{e}");
                    let (din, dout) = (Distribution::new(e).unwrap(), Distribution::new(output).unwrap());
                    // X transposed, threads and buffers kept.
                    let (xi, xo) = (din.x_lengths(), dout.x_lengths());
                    assert_eq!((xo.get(0), xo.get(1)), (xi.get(1), xi.get(0)), "{e}");
                    assert_eq!(din.p_lengths(), dout.p_lengths());
                    assert_eq!(din.d_length(), dout.d_length());
                    // Each lane group ends up holding the elements it read, transposed;
                    // and the vector a lane receives runs along the input's rows.
                    assert_conserved(&e.to_string(), &din, &dout, g);
                    let n = elem.per_lane() as i64;
                    let ndim_p = dout.p_lengths().len();
                    dout.for_each(MAX_ENUMERATED, |ps_ys, xs, _| {
                        let v = *ps_ys.last().unwrap();
                        if v > 0 {
                            let mut prev = ps_ys.to_vec();
                            *prev.last_mut().unwrap() -= 1;
                            let px = dout.calculate_index(&prev).unwrap();
                            assert_eq!((xs[0], xs[1]), (px.get(0), px.get(1) + 1), "{e}: {ps_ys:?}");
                        }
                        assert!(v < n && ps_ys.len() > ndim_p);
                    })
                    .unwrap();
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 96);
}

/// The lane groups of `din` hold, after the load, exactly what they read,
/// transposed (`dout`'s X is `din`'s with the two coordinates swapped).
fn assert_conserved(name: &str, din: &Distribution, dout: &Distribution, g: usize) {
    let (read, held) = (by_lane(din), by_lane(dout));
    let lanes = din.p_lengths().as_slice().iter().product::<i64>();
    for group in 0..lanes / g as i64 {
        let range = group * g as i64..(group + 1) * g as i64;
        let r: BTreeSet<(i64, i64)> = range.clone().flat_map(|l| read[&l].iter().copied()).collect();
        let h: BTreeSet<(i64, i64)> = range.flat_map(|l| held[&l].iter().map(|&(a, b)| (b, a))).collect();
        assert_eq!(r, h, "{name}: lane group {group}");
    }
}

/// A random input CK's rules accept: random outer H components on both
/// Xs, dealt to a warp P, the lane P and the Ys, then the quad's pattern.
fn random_input(rng: &mut Rng, elem: TrElement, g: usize) -> Option<Encoding> {
    let n = elem.per_lane();
    let outer0: Vec<usize> = (0..rng.below(3)).map(|_| 1 + rng.below(3)).collect();
    let outer1: Vec<usize> = (0..rng.below(3)).map(|_| 1 + rng.below(3)).collect();
    let (a, b) = (outer0.len(), outer1.len());
    let h0: Vec<usize> = outer0.iter().copied().chain([n]).collect();
    let h1: Vec<usize> = outer1.iter().copied().chain([g / 16, 16 / n, n]).collect();
    let warp = rng.below(2) == 0;
    let (mut warp_p, mut lane_p, mut ys) = (Vec::new(), Vec::new(), Vec::new());
    for c in (0..a).map(|m| (1, m)).chain((0..b).map(|m| (2, m))) {
        match rng.below(3) {
            0 if warp => warp_p.push(c),
            1 => lane_p.push(c),
            _ => ys.push(c),
        }
    }
    for i in (1..ys.len()).rev() {
        ys.swap(i, rng.below(i + 1));
    }
    lane_p.extend([(2, b), (1, a), (2, b + 1)]);
    ys.push((2, b + 2));
    let mut ps = Vec::new();
    if warp && !warp_p.is_empty() {
        ps.push(warp_p);
    }
    ps.push(lane_p);
    let pm: Vec<Vec<usize>> = ps.iter().map(|p| p.iter().map(|c| c.0).collect()).collect();
    let pn: Vec<Vec<usize>> = ps.iter().map(|p| p.iter().map(|c| c.1).collect()).collect();
    let pm_ref: Vec<&[usize]> = pm.iter().map(Vec::as_slice).collect();
    let pn_ref: Vec<&[usize]> = pn.iter().map(Vec::as_slice).collect();
    let (ym, yn): (Vec<usize>, Vec<usize>) = ys.into_iter().unzip();
    Encoding::new(&[], &[&h0, &h1], &pm_ref, &pn_ref, &ym, &yn).ok()
}

// Random inputs of every element size and lane group: accepted at their
// lane group, conserved within it, and CK's reverse direction
// (InputTileDistributionTraits) gives the input back.
#[test]
fn random_inputs_transpose_and_come_back() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut checked = 0;
    while checked < 600 {
        let elem = [TrElement::B16, TrElement::B8, TrElement::B4][rng.below(3)];
        let g = [16, 32, 64][rng.below(3)];
        let Some(e) = random_input(&mut rng, elem, g) else { continue };
        let Verdict::Accepted { lane_group, output } = transpose(&e, elem, false).unwrap() else {
            panic!("{e}: {:?}", transpose(&e, elem, false));
        };
        // A smaller lane group never matches first: CK tries 64, 32, 16 and the quad's
        // first component tells them apart.
        assert_eq!(lane_group, g, "{e}");
        let (din, dout) = (Distribution::new(e).unwrap(), Distribution::new(output).unwrap());
        assert_conserved(&e.to_string(), &din, &dout, g);
        let Verdict::Accepted { lane_group: back_group, output: back } = transpose(&output, elem, true).unwrap() else {
            panic!("{output}: reverse refused");
        };
        assert_eq!((back_group, back), (g, e), "{e} -> {output}");
        checked += 1;
    }
}

// CK's gfx950 transposed-B GEMM read (catalogue `gemm_b_tr_...`): the
// forward transpose of the read distribution gives back the block GEMM's
// B distribution, so the registers are what the MFMA loop expects; the
// warps along M hold copies (R0), and the data stays in its lane group.
#[test]
fn cks_transposed_b_gemm_read_returns_the_block_b_registers() {
    use cktile::distribution::catalogue::by_name;
    use cktile::distribution::catalogue::transpose::gemm_b_transposed_read;
    use cktile::lanes::coverage::Coverage;
    let cases = [
        ((2, 2, 128, 32, (32, 8)), TrElement::B16, "gemm_b_tr_128x32_w2x2_mfma32x32x8_fp16"),
        ((2, 2, 128, 64, (16, 32)), TrElement::B16, "gemm_b_tr_128x64_w2x2_mfma16x16x32_fp16"),
        ((2, 2, 128, 64, (32, 16)), TrElement::B8, "gemm_b_tr_128x64_w2x2_mfma32x32x16_fp8"),
        ((4, 1, 64, 32, (16, 16)), TrElement::B16, "gemm_b_tr_64x32_w4x1_mfma16x16x16_bf16"),
        ((1, 4, 256, 64, (32, 16)), TrElement::B16, "gemm_b_tr_256x64_w1x4_mfma32x32x16_fp16"),
    ];
    for ((mw, nw, n, k, mfma), elem, name) in cases {
        let (block, read) = gemm_b_transposed_read(mw, nw, n, k, mfma, elem).unwrap();
        assert_eq!(by_name(name).unwrap(), read, "{name}");
        let Verdict::Accepted { lane_group, output } = transpose(&read, elem, false).unwrap() else {
            panic!("{name}: the read is refused forward");
        };
        assert_eq!(output, block, "{name}: the load returns the block's B registers");
        let (dr, db) = (Distribution::new(read).unwrap(), Distribution::new(block).unwrap());
        assert_eq!(db.x_lengths().as_slice(), &[n as i64, k as i64]);
        assert_eq!(dr.x_lengths().as_slice(), &[k as i64, n as i64]);
        assert_conserved(name, &dr, &db, lane_group);
        let c = Coverage::new(&dr, Some(&[k as i64, n as i64])).unwrap();
        assert!(c.is_complete() && c.replication() == mw as u128, "{name}");
    }
    // A K per lane that is not 1, 2 or 4 reads of 8 bytes is refused, as CK's Invalid.
    let e = gemm_b_transposed_read(2, 2, 128, 32, (32, 8), TrElement::B8).unwrap_err().to_string();
    assert!(e.contains("1, 2 or 4 transposing reads of 8 bytes"), "{e}");
}

// Each of ValidationTraits' rules, broken on purpose, is named; the
// message says what the quad expects.
#[test]
fn every_refusal_names_its_rule() {
    let ok = ck_input(TrElement::B16, 16, [2, 1], [1, 1]);
    let refused = |e: &Encoding, elem| match transpose(e, elem, false).unwrap() {
        Verdict::Refused(r) => r,
        Verdict::Accepted { .. } => panic!("{e} accepted"),
    };
    let at16 = |r: &[Refusal]| r.iter().find(|x| x.lane_group == 16).cloned().unwrap();
    // 8-bit quads on a 16-bit input: X0's H (2, 1, 4) does not end with (8).
    let r = refused(&ok, TrElement::B8);
    assert_eq!(r.len(), 3);
    assert_eq!(r[0].to_string(), "lane groups of 64: the H lengths of X0, (2, 1, 4), do not end with the quad's (8)");
    // Three X dimensions.
    let e3 = Encoding::new(&[], &[&[4], &[4], &[4, 4]], &[&[3, 1]], &[&[0, 0]], &[3, 2], &[1, 0]).unwrap();
    assert_eq!(at16(&refused(&e3, TrElement::B16)).rule, TransposeRule::NotTwoDimensional { ndim_x: 3 });
    // The lane components in another order: the majors no longer end with (2, 1, 2).
    let swapped = Encoding::new(
        &[],
        &[&[2, 1, 4], &[1, 1, 1, 4, 4]],
        &[&[1, 2, 1, 2, 2]],
        &[&[0, 0, 2, 2, 3]],
        &[2, 1, 2],
        &[1, 1, 4],
    )
    .unwrap();
    let r = at16(&refused(&swapped, TrElement::B16));
    assert_eq!(r.rule, TransposeRule::PMajor { input: vec![1, 2, 1, 2, 2], quad: vec![2, 1, 2] });
    // Right majors, minors shuffled.
    let minors = Encoding::new(
        &[],
        &[&[2, 1, 4], &[1, 1, 1, 4, 4]],
        &[&[1, 2, 2, 1, 2]],
        &[&[0, 0, 3, 2, 2]],
        &[2, 1, 2],
        &[1, 1, 4],
    )
    .unwrap();
    let r = at16(&refused(&minors, TrElement::B16));
    assert_eq!(r.rule, TransposeRule::PMinor { input: vec![0, 0, 3, 2, 2], quad: vec![2, 2, 3] });
    assert!(r.to_string().contains("shifted past the outer H components, (2, 2, 3)"), "{r}");
    // The last Y on the wrong component.
    let last_y = Encoding::new(
        &[],
        &[&[2, 1, 4], &[1, 4, 1, 4, 4]],
        &[&[1, 2, 2, 1, 2]],
        &[&[0, 0, 2, 2, 3]],
        &[2, 2, 1],
        &[1, 4, 1],
    )
    .unwrap();
    let r = at16(&refused(&last_y, TrElement::B16));
    assert_eq!(r.rule, TransposeRule::LastY { major: 1, minor: 1, want_minor: 4 });
}

fn cktile(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_cktile")).args(args).output().unwrap()
}

#[test]
fn the_cli_answers_with_exit_codes_and_pastes_back() {
    let input = ck_input(TrElement::B16, 16, [2, 1], [1, 1]).to_string();
    let o = cktile(&["transpose-load", &input, "--op", "ds_read_b64_tr_b16"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("CK's load_tile_transpose accepts it with ds_read_b64_tr_b16, lane groups of 16.\n"));
    // The printed output encoding pastes back: reversed, it gives the input.
    let out = text.lines().nth(2).unwrap();
    let back = cktile(&["transpose-load", out, "--op", "ds_read_b64_tr_b16", "--reverse", "--json"]);
    assert_eq!(back.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&back.stdout).unwrap();
    assert_eq!(v["output"]["encoding"], input.as_str());
    assert_eq!((v["accepted"].as_bool(), v["lane_group"].as_u64()), (Some(true), Some(16)));
    // Refused: exit code 1, every lane group's rule.
    let o = cktile(&["transpose-load", "mfma16x16x16_a", "--op", "ds_read_b64_tr_b8"]);
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}");
    // Bad input: exit code 2, naming the option.
    let o = cktile(&["transpose-load", "mfma16x16x16_a", "--op", "ds_read_b128"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8(o.stderr).unwrap().contains("--op: `ds_read_b128` is not a transposing read"));
    // gfx1250's transposing loads: CK Tile has no policy for them; the message names the distributions that read
    // with them and the command that counts their banks, which runs once a layout is put in.
    let o = cktile(&["transpose-load", "mfma16x16x16_a", "--op", "ds_load_tr16_b128"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("`ds_load_tr16_b128` is gfx1250's transposing load"), "{err}");
    let tail = "--arch gfx1250 --distribution wmma16x16x32_gfx1250_b_tr16 --op ds_load_tr16_b128";
    assert!(err.contains(&format!("cktile analyze LAYOUT {tail}")), "{err}");
    let mut args = vec!["analyze", "row-padded:rows=64,cols=32,pad=16,dtype=fp16"];
    args.extend(tail.split(' '));
    assert!(cktile(&args).status.success());
}
