//! Tile distributions and tensor adaptors against independent derivations:
//! every catalogue distribution's (P, Y) -> X compared with closed forms
//! written from AMD's matrix-instruction lane maps (or CK's formulas by
//! hand), the text form round-tripped and read from CK's own spelling,
//! every malformed encoding named, and adaptors built from descriptor
//! stages compared with the descriptors' offsets.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::adaptor::{Adaptor, AdaptorProblem};
use cktile::distribution::{Distribution, Encoding, MAX_ENUMERATED, catalogue};
use cktile::random::Rng;
use cktile::random::chain::{ChainConfig, chain};
use cktile::spelling::{parse, parse_compact, resolve};
use cktile::transforms::{Dims, Transform};
use cktile::{Descriptor, DescriptorProblem, ErrorKind, Item, ParameterProblem};
use std::collections::HashMap;

type Closed = fn(&[i64]) -> [i64; 2];

/// Every (P..., Y...) of `d` maps to `expected(ps_ys)`, the thread-buffer
/// index is row-major over Y, and (without R) every X element has exactly
/// one owner.
fn check_against(name: &str, d: &Distribution, expected: Closed) {
    let mut owners: HashMap<Vec<i64>, Vec<i64>> = HashMap::new();
    let mut count = 0u64;
    let y = d.y_lengths();
    let ndim_p = d.p_lengths().len();
    d.for_each(MAX_ENUMERATED, |ps_ys, xs, dd| {
        count += 1;
        assert_eq!(xs, &expected(ps_ys)[..], "{name}: (P, Y) = {ps_ys:?}");
        let mut row_major = 0;
        for (i, &v) in ps_ys[ndim_p..].iter().enumerate() {
            row_major = row_major * y.get(i) + v;
        }
        assert_eq!(dd, row_major, "{name}: D of {ps_ys:?}");
        assert_eq!(d.calculate_index(ps_ys).unwrap().as_slice(), xs, "{name}: calculate_index");
        if let Some(previous) = owners.insert(xs.to_vec(), ps_ys.to_vec()) {
            panic!("{name}: {xs:?} owned by {previous:?} and {ps_ys:?}");
        }
    })
    .unwrap();
    let x = d.x_lengths();
    assert_eq!(count, x.product().unwrap() as u64, "{name}: P x Y covers X exactly");
    assert_eq!(owners.len() as u64, count);
}

// AMD's MFMA operand layouts (CDNA3 ISA, "Matrix fused multiply-add"):
// A[i][k] of v_mfma_f32_{32x32x8,16x16x16}_f16 sits in lane i + M * (k / kpl),
// register k % kpl; D[i][j] of 32x32 in lane j + 32 * ((i / 4) % 2), register
// 4 * (i / 8) + i % 4; of 16x16 in lane j + 16 * (i / 4), register i % 4.
fn a_32x32x8(v: &[i64]) -> [i64; 2] {
    [v[0] % 32, 4 * (v[0] / 32) + v[1]]
}
fn a_16x16x16(v: &[i64]) -> [i64; 2] {
    [v[0] % 16, 4 * (v[0] / 16) + v[1]]
}
// The K = 32 / 16 families: CK issues two MFMAs, each lane holding 8
// consecutive K values (as gfx950's native 16x16x32 / 32x32x16 take them).
fn a_16x16x32(v: &[i64]) -> [i64; 2] {
    [v[0] % 16, 8 * (v[0] / 16) + v[1]]
}
fn a_32x32x16(v: &[i64]) -> [i64; 2] {
    [v[0] % 32, 8 * (v[0] / 32) + v[1]]
}
fn c_32x32(v: &[i64]) -> [i64; 2] {
    let (lane, reg) = (v[0], 4 * v[1] + v[2]);
    [8 * (reg / 4) + 4 * (lane / 32) + reg % 4, lane % 32]
}
fn c_16x16(v: &[i64]) -> [i64; 2] {
    let (lane, reg) = (v[0], 4 * v[1] + v[2]);
    [4 * (lane / 16) + reg, lane % 16]
}
fn c_32x32_t(v: &[i64]) -> [i64; 2] {
    let [m, n] = c_32x32(v);
    [n, m]
}
fn c_16x16_t(v: &[i64]) -> [i64; 2] {
    let [m, n] = c_16x16(v);
    [n, m]
}
// CK's swizzled B (32x32x16, SFactor 2) by hand: the lane's bits are
// (k group, n0, s, c, d) = (l / 32, (l / 16) % 2, (l / 8) % 2, (l / 4) % 2, l % 4)
// and n = 16 n0 + 8 c + 4 s + d: bits 2 and 3 of the lane swap places in N.
fn b_swizzled(v: &[i64]) -> [i64; 2] {
    let l = v[0];
    [16 * ((l / 16) % 2) + 8 * ((l / 4) % 2) + 4 * ((l / 8) % 2) + l % 4, 8 * (l / 32) + v[1]]
}
// Its C: transposed, M rows in blocks of 16 (two of them per lane), 8 per lane group.
fn c_swizzled(v: &[i64]) -> [i64; 2] {
    let l = v[0];
    [l % 32, 16 * v[1] + 8 * (l / 32) + v[2]]
}

#[test]
fn mfma_catalogue_matches_amd_lane_maps() {
    let cases: [(&str, Encoding, Closed); 18] = [
        ("32x32x8 A", catalogue::mfma_a(32, 8).unwrap(), a_32x32x8),
        ("32x32x8 B", catalogue::mfma_b(32, 8).unwrap(), a_32x32x8),
        ("32x32x8 C", catalogue::mfma_c(32, 8).unwrap(), c_32x32),
        ("32x32x8 C^T", catalogue::mfma_c_transposed(32, 8).unwrap(), c_32x32_t),
        ("16x16x16 A", catalogue::mfma_a(16, 16).unwrap(), a_16x16x16),
        ("16x16x16 B", catalogue::mfma_b(16, 16).unwrap(), a_16x16x16),
        ("16x16x16 C", catalogue::mfma_c(16, 16).unwrap(), c_16x16),
        ("16x16x16 C^T", catalogue::mfma_c_transposed(16, 16).unwrap(), c_16x16_t),
        ("16x16x32 A", catalogue::mfma_a(16, 32).unwrap(), a_16x16x32),
        ("16x16x32 B", catalogue::mfma_b(16, 32).unwrap(), a_16x16x32),
        ("16x16x32 C", catalogue::mfma_c(16, 32).unwrap(), c_16x16),
        ("32x32x16 A", catalogue::mfma_a(32, 16).unwrap(), a_32x32x16),
        ("32x32x16 B", catalogue::mfma_b(32, 16).unwrap(), a_32x32x16),
        ("32x32x16 C", catalogue::mfma_c(32, 16).unwrap(), c_32x32),
        ("32x32x16 C^T", catalogue::mfma_c_transposed(32, 16).unwrap(), c_32x32_t),
        ("16x16x32 C^T", catalogue::mfma_c_transposed(16, 32).unwrap(), c_16x16_t),
        ("32x32x16 swizzled B", catalogue::mfma_b_swizzled().unwrap(), b_swizzled),
        ("32x32x16 swizzled C", catalogue::mfma_c_swizzled().unwrap(), c_swizzled),
    ];
    for (name, encoding, expected) in cases {
        let d = Distribution::new(encoding).unwrap();
        assert_eq!(d.p_lengths().as_slice(), &[64], "{name}: one wave of lanes");
        check_against(name, &d, expected);
    }
}

#[test]
fn gemm_dram_matches_ck_formula() {
    // (block size, M per block, K per block, K1): M2 = 64 / (K / K1), M1 = warps, M0 = M / (M1 * M2).
    for (block, m, k, k1) in [(256, 128, 32, 8), (256, 256, 64, 8), (128, 64, 32, 4), (64, 32, 64, 16)] {
        let d = Distribution::new(catalogue::gemm_dram(block, m, k, k1).unwrap()).unwrap();
        let (k0, warps) = (k / k1, block / 64);
        let m2 = 64 / k0;
        let per_y0 = (warps * m2) as i64;
        let mut seen = std::collections::HashSet::new();
        d.for_each(MAX_ENUMERATED, |v, xs, _| {
            let (warp, lane, y0, y1) = (v[0], v[1], v[2], v[3]);
            let expected = [y0 * per_y0 + warp * m2 as i64 + lane / k0 as i64, (lane % k0 as i64) * k1 as i64 + y1];
            assert_eq!(xs, &expected, "gemm_dram({block}, {m}, {k}, {k1}) at {v:?}");
            assert!(seen.insert(expected));
        })
        .unwrap();
        assert_eq!(seen.len(), m * k);
        assert_eq!(d.rs_index(&[warps as i64 - 1, 63]).unwrap().as_slice(), &[0]);
    }
}

/// CK's spelling of every catalogue entry, as its source writes it once the
/// template parameters are substituted (prefixes, line breaks and `{}` as found).
const CK_SPELLINGS: [(&str, &str); 9] = [
    (
        "mfma32x32x8_a",
        "using AWarpDstrEncoding = ck_tile::tile_distribution_encoding<
        ck_tile::sequence<>,
        ck_tile::tuple<ck_tile::sequence<32>, ck_tile::sequence<2, 4>>,
        ck_tile::tuple<ck_tile::sequence<2, 1>>,
        ck_tile::tuple<ck_tile::sequence<0, 0>>,
        ck_tile::sequence<2>,
        ck_tile::sequence<1>>;",
    ),
    (
        "mfma32x32x8_c",
        "tile_distribution_encoding<
        sequence<>,
        tuple<sequence<4, 2, 4>,
              sequence<32>>,
        tuple<sequence<1, 2>>,
        tuple<sequence<1, 0>>,
        sequence<1, 1>,
        sequence<0, 2>>",
    ),
    (
        "mfma16x16x16_c_transposed",
        "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<1, 4, 4>>, tuple<sequence<2, 1>>, \
         tuple<sequence<1, 0>>, sequence<2, 2>, sequence<0, 2>>",
    ),
    (
        "mfma32x32x16_b_swizzled",
        "tile_distribution_encoding<
        sequence<>,
        tuple<sequence<2, 2, 2, 4>,  // N: kAMLane / (kCMLane * SFactor * kCM1PerLane), kCMLane, SFactor, kCM1PerLane
              sequence<2, 8>>,
        tuple<sequence<2, 1, 1, 1, 1>>,
        tuple<sequence<0, 0, 2, 1, 3>>,
        sequence<2>,
        sequence<1>>",
    ),
    (
        "mfma16x16x32_a",
        "::ck_tile::tile_distribution_encoding<::ck_tile::sequence<>,::ck_tile::tuple<::ck_tile::sequence<16>,\
         ::ck_tile::sequence<4,8>>,::ck_tile::tuple<::ck_tile::sequence<2,1>>,::ck_tile::tuple<::ck_tile::sequence<0,0>>,\
         ::ck_tile::sequence<2>,::ck_tile::sequence<1>>{}",
    ),
    // gfx1250's WMMA: AWarpDstrEncodingTrait and CWarpDstrEncodingTrait
    // (warp_gemm_attribute_wmma.hpp) with the gfx125_t traits' numbers put
    // in: kRepeat 1, kAMBlock 1, kAMLane 16, (kAK0PerLane, kABKLane,
    // kAK1PerLane) = (2, 2, 8) at K = 32 and (4, 2, 8) at K = 64; C's
    // (kCMBlock, kCM0PerLane, kCMLane, kCM1PerLane) = (1, 1, 2, 8).
    (
        "wmma16x16x32_gfx1250_a",
        "tile_distribution_encoding<
                sequence<1>,
                tuple<sequence<1, 16>,
                      sequence<2, 2, 8>>,
                tuple<sequence<2, 1>>,
                tuple<sequence<1, 1>>,
                sequence<1, 2, 2>,
                sequence<0, 0, 2>>{}",
    ),
    (
        "wmma16x16x64_gfx1250_b",
        "tile_distribution_encoding<sequence<1>, tuple<sequence<1, 16>, sequence<4, 2, 8>>, \
         tuple<sequence<2, 1>>, tuple<sequence<1, 1>>, sequence<1, 2, 2>, sequence<0, 0, 2>>",
    ),
    (
        "wmma16x16x64_gfx1250_c_transposed",
        "tile_distribution_encoding<
        sequence<>,
        tuple<sequence<1, 16>,
              sequence<1, 1, 2, 8>>,
        tuple<sequence<2, 1>>,
        tuple<sequence<2, 1>>,
        sequence<2, 2>,
        sequence<1, 3>>",
    ),
    (
        "gemm_dram(256, 128, 32, 8)",
        "make_static_tile_distribution(
            tile_distribution_encoding<sequence<1>,
                                       tuple<sequence<2, 4, 16>, sequence<4, 8>>,
                                       tuple<sequence<1>, sequence<1, 2>>,
                                       tuple<sequence<1>, sequence<2, 0>>,
                                       sequence<1, 2>,
                                       sequence<0, 1>>{});",
    ),
];

#[test]
fn ck_spellings_parse_to_the_catalogue() {
    for (name, text) in CK_SPELLINGS {
        let expected = match name {
            "gemm_dram(256, 128, 32, 8)" => catalogue::gemm_dram(256, 128, 32, 8).unwrap(),
            _ => catalogue::by_name(name).unwrap(),
        };
        assert_eq!(parse(text), Ok(expected), "{name}");
    }
}

#[test]
fn every_catalogue_entry_round_trips_through_text() {
    let names = ["mfma16x16x16", "mfma16x16x32", "mfma32x32x8", "mfma32x32x16"];
    let mut all = vec![catalogue::mfma_b_swizzled().unwrap(), catalogue::mfma_c_swizzled().unwrap()];
    for n in names {
        for op in ["a", "b", "c", "c_transposed"] {
            all.push(catalogue::by_name(&format!("{n}_{op}")).unwrap());
        }
    }
    for (block, m, k, k1) in [(256, 128, 32, 8), (256, 256, 64, 8), (128, 64, 32, 4)] {
        all.push(catalogue::gemm_dram(block, m, k, k1).unwrap());
    }
    for e in all {
        let text = e.to_string();
        assert_eq!(parse(&text), Ok(e), "{text}");
        // And the same text with every prefix and a different layout.
        let prefixed = text.replace("sequence<", "ck_tile::sequence<").replace("tuple<", "\n ck_tile::tuple<");
        assert_eq!(parse(&prefixed), Ok(e), "{prefixed}");
        // cktile's spelling: printed, read back, and read through `resolve`
        // with a comment and the lists on lines of their own.
        let compact = e.compact().to_string();
        assert_eq!(parse_compact(&compact), Ok(e), "{compact}");
        let spread = format!("# {text}\n{}", compact.replace(", h(", ",\n  h(").replace(", p(", ",\n  p("));
        assert_eq!(resolve(&spread), Ok(e), "{spread}");
    }
}

/// cktile's spelling names, for each P and Y, the component CK's major and
/// minor lists name: checked against the encoding's own lists on every
/// catalogue entry, independently of the printer.
#[test]
fn compact_references_are_cks_major_and_minor() {
    for name in ["mfma32x32x8_a", "mfma16x16x16_c_transposed", "mfma16x16x32_b"] {
        let e = catalogue::by_name(name).unwrap();
        let text = e.compact().to_string();
        let rh = |major: i64, minor: i64| {
            if major == 0 { format!("r[{minor}]") } else { format!("h{}[{minor}]", major - 1) }
        };
        let (ym, yi) = e.y_to_rh();
        let ys: Vec<String> = ym.as_slice().iter().zip(yi.as_slice()).map(|(&a, &i)| rh(a, i)).collect();
        assert!(text.ends_with(&format!("y({}))", ys.join(", "))), "{name}: {text}");
        for p in 0..e.ndim_p() {
            let (pm, pi) = e.p_to_rh(p);
            let refs: Vec<String> = pm.as_slice().iter().zip(pi.as_slice()).map(|(&a, &i)| rh(a, i)).collect();
            assert!(text.contains(&format!("({})", refs.join(", "))), "{name}: P{p} in {text}");
        }
    }
    // GEMM DRAM: an R component of length 1 (every thread its own copy),
    // warps over M's 4, lanes over M's 16 and K's 4, registers over M's 2 and K's 8.
    let g = catalogue::gemm_dram(256, 128, 32, 8).unwrap();
    assert_eq!(
        g.compact().to_string(),
        "distribution(r(1), h((2, 4, 16), (4, 8)), p((h0[1]), (h0[2], h1[0])), y(h0[0], h1[1]))"
    );
}

#[test]
fn malformed_compact_encodings_are_named_with_their_position() {
    // (text, the token the error must point at: its first occurrence, message after "L:C: "), each
    // entry named as the compact spelling writes it (hX[i], P and y references), not in CK's lists' terms.
    let cases = [
        (
            "distribution(r(), h((16), (4, 4)), p((h2[0], h0[0])), y(h1[1]))",
            "h2[0]",
            "P0's reference 0 names h2, but h(...) has 2 list(s), h0..h1",
        ),
        (
            "distribution(r(), h((16), (4, 4)), p((h1[0], h0[0])), y(h1[2]))",
            "h1[2]",
            "y's reference 0 names h1[2], but h1 has 2 entries (h1[0]..h1[1])",
        ),
        (
            "distribution(r(), h((16), (4, 4)), p((h1[0], h0[0])), y(h1[0]))",
            "h1[0]))",
            "P0's reference 0 and y's reference 0 both name h1[0]; each r or h component belongs to at most one P \
             or Y",
        ),
        (
            "distribution(r(), h((16), (4, 4, 2)), p((h1[0], h0[0])), y(h1[1]))",
            "2)), p",
            "h1[2] (length 2) is named by no P or Y, so part of X1 would never be reached; add it to p(...) or \
             y(...)",
        ),
        (
            "distribution(r(), h((16), (4, 4)), p((h1[0], h0[0])), y())",
            "y()",
            "y() is empty; cktile needs at least one Y dimension (the thread buffer's index)",
        ),
        (
            "distribution(r(), h((16), (4, 4)), p((x1[0], h0[0])), y(h1[1]))",
            "x1",
            "expected r[i] or hX[i] (X: an X dimension), found `x1`",
        ),
        ("distribution(r(), h((16), (4, 4)), p((h1 0, h0[0])), y(h1[1]))", "0,", "expected `[`, found `0`"),
        ("distribution(r(), h((16), (4, 4)), y(h1[1]))", "y(", "expected p, found `y`"),
        (
            "distribution(r(-1), h((16)), p(), y(h0[0]))",
            "-1",
            "number -1 is out of range; expected an integer in [0, 2^63)",
        ),
        (
            "distribution(r(), h((16)), p(), y(h0[0])) extra",
            "extra",
            "expected the end of the distribution, found `extra`",
        ),
    ];
    for (text, token, expected) in cases {
        let column = text.find(token).unwrap() + 1;
        assert_eq!(parse_compact(text).unwrap_err().to_string(), format!("1:{column}: {expected}"), "{text}");
    }
}

fn message(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn malformed_encodings_are_named_with_their_position() {
    // (text, the token the error must point at: its first occurrence in the text, message after "L:C: ")
    let cases = [
        (
            "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>, tuple<sequence<3, 1>>, tuple<sequence<0, 0>>, sequence<2>, sequence<1>>",
            "3, 1",
            "Ps2RHssMajor[0][0] is 3; majors are 0 (R) and 1..=2 (the H of X0..X1)",
        ),
        (
            "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>, tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<0>, sequence<1>>",
            "0>, sequence<1>>",
            "Ys2RHsMajor[0] is 0 (R); a Y names an H component, majors 1..=2",
        ),
        (
            "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>, tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<2>, sequence<2>>",
            "2>>",
            "Ys2RHsMinor[0] is 2, but RH major 2 (HsLengthss[1]) has 2 entries, so its minors are 0..2",
        ),
        (
            "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>, tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<2>, sequence<0>>",
            "2>, sequence<0>>",
            "Ps2RHss{Major,Minor}[0][0] and Ys2RHs{Major,Minor}[0] both name RH component (2, 0); each R or H \
             component belongs to at most one P or Y",
        ),
        (
            "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4, 2>>, tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<2>, sequence<1>>",
            "2>>, tuple",
            "HsLengthss[1][2] (length 2) is named by no P or Y, so part of its X dimension would never be \
             reached; map it to a P or a Y",
        ),
        (
            "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 0>>, tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<2>, sequence<1>>",
            "0>>, tuple<sequence<2",
            "HsLengthss[1][1] is 0; lengths must be at least 1",
        ),
        (
            "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>, tuple<sequence<2, 1>>, tuple<sequence<0>>, sequence<2>, sequence<1>>",
            "sequence<2, 1>",
            "Ps2RHssMajor[0] has 2 entries but Ps2RHssMinor[0] has 1; they must match",
        ),
        (
            "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>, tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<2>, sequence<1, 0>>",
            "sequence<2>",
            "Ys2RHsMajor has 1 entry but Ys2RHsMinor has 2; they must match",
        ),
        (
            "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>, tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<>, sequence<>>",
            "sequence<>, sequence<>>",
            "Ys2RHsMajor is empty; cktile needs at least one Y dimension (the thread buffer's index)",
        ),
        (
            "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<>>, tuple<sequence<1>>, tuple<sequence<0>>, sequence<1>, sequence<0>>",
            "sequence<>>",
            "HsLengthss[1] is empty; it needs at least one entry",
        ),
        (
            "tile_distribution_encoding<sequence<>, tuple<>, tuple<>, tuple<>, sequence<1>, sequence<0>>",
            "tuple<>",
            "HsLengthss is empty; it needs at least one entry",
        ),
        (
            "tile_distribution_encoding<sequence<>, tuple<sequence<1,1,1,1,1,1,1,1,1>>, tuple<>, tuple<>, sequence<1>, sequence<0>>",
            "sequence<1,",
            "HsLengthss[0] has 9 entries; at most 8 are supported",
        ),
        // Syntax: positions of the offending token.
        (
            "tile_distribution_encoding<sequence<>, tuple<sequence<Impl::kAMLane>>, tuple<>, tuple<>, sequence<1>, sequence<0>>",
            "Impl",
            "expected a number, found `Impl`",
        ),
        (
            "tile_distribution_encoding<sequence<>, tuple<sequence<16>>, tuple<>, tuple<>, sequence<1>>",
            ">",
            "expected `,` between tile_distribution_encoding's six arguments, found `>`",
        ),
        (
            "tile_dist<>",
            "tile_dist",
            "expected tile_distribution_encoding or make_static_tile_distribution, found `tile_dist`",
        ),
        (
            "tile_distribution_encoding<sequence<-1>, tuple<sequence<16>>, tuple<>, tuple<>, sequence<1>, sequence<0>>",
            "-1",
            "number -1 is out of range; expected an integer in [0, 2^63)",
        ),
    ];
    for (text, token, expected) in cases {
        let column = text.rfind(token).filter(|_| token == ">").or(text.find(token)).unwrap() + 1;
        assert_eq!(message(text), format!("1:{column}: {expected}"), "{text}");
    }
    let lines = "tile_distribution_encoding<sequence<>,\n  tuple<sequence<16>>,\n  tuple<>,\n  tuple<>,\n  sequence<1>,\n  sequence<0>> extra";
    assert_eq!(message(lines), "6:16: expected the end of the encoding, found `extra`");
}

#[test]
fn encoding_constructor_errors_name_entries() {
    let e = Encoding::new(&[0], &[&[4]], &[&[1]], &[&[0]], &[1], &[0]);
    assert!(matches!(e.unwrap_err().kind(), cktile_core::ErrorKind::Encoding(..)));
    // A P or Y names at most one component each; 9 P/Y dimensions are too many.
    let hs: Vec<usize> = vec![2; 8];
    let ys_minor: Vec<usize> = (0..8).collect();
    let e = Encoding::new(&[], &[&hs, &[2]], &[&[2]], &[&[0]], &[1; 8], &ys_minor).unwrap_err();
    assert_eq!(e.to_string(), "the P and Y dimensions together has 9 entries; at most 8 are supported");
    // Length-1 H components may be left unnamed (they cover nothing).
    assert!(Encoding::new(&[], &[&[1, 16], &[4]], &[&[1]], &[&[1]], &[2], &[0]).is_ok());
}

#[test]
fn replicated_dimensions_repeat_the_same_elements() {
    // R = 2 (two warps hold the same 16x4 tile): P0 = warp (the R), P1 = lane.
    let e = Encoding::new(&[2], &[&[16], &[4]], &[&[0], &[1]], &[&[0], &[0]], &[2], &[0]).unwrap();
    let d = Distribution::new(e).unwrap();
    assert_eq!((d.p_lengths().as_slice(), d.y_lengths().as_slice()), (&[2, 16][..], &[4][..]));
    for lane in 0..16 {
        for y in 0..4 {
            let a = d.calculate_index(&[0, lane, y]).unwrap();
            assert_eq!(a, d.calculate_index(&[1, lane, y]).unwrap());
            assert_eq!(a.as_slice(), &[lane, y]);
        }
        assert_eq!(d.rs_index(&[1, lane]).unwrap().as_slice(), &[1]);
    }
}

#[test]
fn enumeration_is_bounded() {
    // 2^25 (P, Y) indices: refused, naming the limit.
    let e = parse(
        "tile_distribution_encoding<sequence<>, tuple<sequence<1024, 32768>>, tuple<sequence<1, 1>>, tuple<sequence<0, 1>>, sequence<>, sequence<>>",
    );
    assert!(e.is_err()); // no Y
    let e = parse(
        "tile_distribution_encoding<sequence<>, tuple<sequence<1024, 32768>>, tuple<sequence<1>>, tuple<sequence<0>>, sequence<1>, sequence<1>>",
    )
    .unwrap();
    let d = Distribution::new(e).unwrap();
    let err = d.for_each(MAX_ENUMERATED, |_, _, _| {}).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the distribution has 33554432 (P..., Y...) indices, more than the 16777216 that are enumerated"
    );
}

/// The adaptor a descriptor's stages make: the base stage as a single-stage
/// adaptor, each later stage through `transform`.
fn adaptor_of(d: &Descriptor, from: usize) -> Adaptor {
    let stages = d.stages();
    let mut a = Adaptor::single_stage(stages[from].lower_lengths(), stages[from].items()).unwrap();
    for s in &stages[from + 1..] {
        a = a.transform(s.items()).unwrap();
    }
    a
}

fn for_each_coordinate(lengths: &[i64], mut f: impl FnMut(&[i64])) {
    let total: i64 = lengths.iter().product();
    let mut idx = vec![0i64; lengths.len()];
    for mut n in 0..total {
        for (i, &l) in lengths.iter().enumerate().rev() {
            idx[i] = n % l;
            n /= l;
        }
        f(&idx);
    }
}

#[test]
fn adaptors_from_descriptor_stages_agree_with_descriptors() {
    let config = ChainConfig::default();
    let mut compared = 0;
    for seed in 0..300 {
        let d = chain(seed, &config);
        let a = *d.adaptor();
        assert_eq!(a.top_lengths(), d.lengths(), "seed {seed}");
        assert_eq!(a.bottom_lengths().as_slice(), d.stages()[0].lower_lengths().as_slice(), "seed {seed}");
        // chain_tensor_adaptors of the chain cut after every stage gives the same adaptor's values.
        let cuts: Vec<Adaptor> = (1..d.stages().len())
            .map(|k| {
                let mut lower = Adaptor::single_stage(d.stages()[0].lower_lengths(), d.stages()[0].items()).unwrap();
                for s in &d.stages()[1..k] {
                    lower = lower.transform(s.items()).unwrap();
                }
                lower.chain(&adaptor_of(&d, k)).unwrap()
            })
            .collect();
        let program = cktile::Program::of_adaptor(&a).unwrap();
        for_each_coordinate(d.lengths().as_slice(), |top| {
            let offset = d.calculate_offset(top);
            assert_eq!(a.calculate_bottom_index(top).unwrap().as_slice(), &[offset], "seed {seed} at {top:?}\n{d}");
            assert_eq!(program.offset_if_valid(top), d.offset_if_valid(top), "seed {seed} at {top:?}\n{d}");
            for c in &cuts {
                assert_eq!(c.calculate_bottom_index(top).unwrap().as_slice(), &[offset], "seed {seed} chained");
            }
            compared += 1;
        });
    }
    assert!(compared > 10_000, "{compared}");
}

/// 65536 elements split into (256, 256), each split into eight 2s and
/// merged back: 16 hidden values side by side, past a program's registers.
fn wide_adaptor() -> Adaptor {
    let twos = [2; 8];
    let items = [
        Item::new(Transform::unmerge(&[256, 256]).unwrap(), &[0], &[1, 2]).unwrap(),
        Item::new(Transform::unmerge(&twos).unwrap(), &[1], &[3, 4, 5, 6, 7, 8, 9, 10]).unwrap(),
        Item::new(Transform::unmerge(&twos).unwrap(), &[2], &[11, 12, 13, 14, 15, 16, 17, 18]).unwrap(),
        Item::new(Transform::merge(&twos).unwrap(), &[3, 4, 5, 6, 7, 8, 9, 10], &[19]).unwrap(),
        Item::new(Transform::merge(&twos).unwrap(), &[11, 12, 13, 14, 15, 16, 17, 18], &[20]).unwrap(),
    ];
    Adaptor::new(Dims::from_slice(&[65536]).unwrap(), &items, &[0], &[19, 20]).unwrap()
}

/// The offset of `top` walked stage by stage over positions, each stage's
/// transforms reading the previous level: the stage-list evaluation
/// descriptors had before they held an adaptor, kept here as an
/// independent reference for the adaptor's walk.
fn offset_by_stages(d: &Descriptor, top: &[i64]) -> (i64, bool) {
    let mut level = [0i64; 8];
    level[..top.len()].copy_from_slice(top);
    let mut valid = true;
    for stage in d.stages().iter().rev() {
        let mut lower = [0i64; 8];
        for item in stage.items() {
            let mut up = [0i64; 8];
            for j in 0..item.upper().len() {
                up[j] = level[item.upper().get(j)];
            }
            valid &= item.transform().is_valid_upper(&up);
            let low = item.transform().calculate_lower(&up);
            for j in 0..item.lower().len() {
                lower[item.lower().get(j)] = low[j];
            }
        }
        level = lower;
    }
    (level[0], valid)
}

/// A descriptor is an adaptor plus an element space, and keeps the stages
/// it was written in: on random chains of every transform kind and on the
/// catalogue, its stages (read back from the adaptor) rebuild it equal,
/// its spec parses back to itself, the adaptor numbers each level as a
/// run of consecutive hidden ids after the last, and its offsets and
/// validity are those of a stage-by-stage walk over positions (inside the
/// lengths and one past each side), as are a coordinate's moved to them.
#[test]
fn a_descriptor_is_its_adaptor_and_keeps_its_stages() {
    let config = ChainConfig::default();
    let mut descriptors: Vec<(String, Descriptor)> =
        (0..400).map(|seed| (format!("seed {seed}"), chain(seed, &config))).collect();
    for e in cktile::layouts::CATALOGUE {
        descriptors.push((e.example.to_string(), cktile::layouts::resolve(e.example).unwrap()));
    }
    let (mut compared, mut moved) = (0, 0);
    for (name, d) in &descriptors {
        let stages = d.stages();
        let base = &stages[..d.num_stages() - d.transform_stages().len()];
        let mut rebuilt = cktile::spec::parse(&base_text(d)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rebuilt.stages().as_slice(), base, "{name}: the base");
        for stage in d.transform_stages() {
            rebuilt = rebuilt.transform(stage.items()).unwrap();
        }
        assert_eq!(&rebuilt, d, "{name}: the stages rebuild the descriptor");
        assert_eq!(&cktile::spec::parse(&d.to_string()).unwrap(), d, "{name}: the spec pastes back");
        // CK's numbering: bottom 0, then every level's ids in order.
        let a = d.adaptor();
        assert_eq!(a.bottom_ids().to_array().0[0], 0, "{name}");
        let mut next = 1;
        for (s, stage) in stages.iter().enumerate() {
            for t in d.stage_items(s) {
                let upper = a.items()[t].upper();
                for j in 0..upper.len() {
                    let id = upper.get(j);
                    let position = stage.items()[t - d.stage_items(s).start].upper().get(j);
                    assert_eq!(id, next + position, "{name}: stage {s}");
                }
            }
            next += stage.upper_lengths().len();
        }
        assert_eq!(a.num_hidden(), next, "{name}");
        let lengths: Vec<i64> = d.lengths().as_slice().iter().map(|&l| l + 2).collect();
        if lengths.iter().product::<i64>() > 20_000 {
            continue;
        }
        let mut walker: Option<(cktile::Coordinate, Vec<i64>)> = None;
        for_each_coordinate(&lengths, |c| {
            let c: Vec<i64> = c.iter().map(|&v| v - 1).collect();
            let inside = c.iter().zip(d.lengths().as_slice()).all(|(&v, &l)| (0..l).contains(&v));
            let (offset, valid) = offset_by_stages(d, &c);
            assert_eq!(d.calculate_offset(&c), offset, "{name} at {c:?}\n{d}");
            assert_eq!(d.offset_if_valid(&c), (inside && valid).then_some(offset), "{name} at {c:?}\n{d}");
            if inside {
                // One coordinate walks every inside position in turn.
                let (w, at) = walker.get_or_insert_with(|| (cktile::Coordinate::new(d, &c), c.clone()));
                let step: Vec<i64> = c.iter().zip(at.iter()).map(|(a, b)| a - b).collect();
                let before = w.offset();
                assert_eq!(w.move_by(d, &step), offset.wrapping_sub(before), "{name} step to {c:?}");
                assert_eq!((w.offset(), &w.top()[..c.len()]), (offset, &c[..]), "{name} moved to {c:?}");
                *at = c.clone();
                moved += 1;
            }
            compared += 1;
        });
    }
    assert!(compared > 50_000 && moved > 20_000, "{compared} coordinates, {moved} moves");
}

/// The base a descriptor was written with, as spec text (its first line).
fn base_text(d: &Descriptor) -> String {
    d.to_string().lines().next().unwrap().to_string()
}

/// A composed descriptor is the layout with the distribution's two levels
/// as two more stages; it refuses, naming the limit, a layout with no room
/// for them.
#[test]
fn composed_descriptors_add_two_stages_and_name_their_limits() {
    let a = Distribution::new(catalogue::mfma_a(16, 16).unwrap()).unwrap();
    let lds = Descriptor::naive(&[16, 16], &[24, 1]).unwrap();
    let lanes = a.compose_descriptor(&lds).unwrap();
    assert_eq!(lanes.num_stages(), lds.num_stages() + 2);
    assert_eq!(&lanes.stages()[..1], &lds.stages()[..]);
    // With R: the replicate is the first level's, its component merged into P.
    let encoding = parse_compact("distribution(r(2), h((4, 8), (16)), p((r[0], h0[0])), y(h0[1], h1[0]))").unwrap();
    let d = Distribution::new(encoding).unwrap();
    let layout = Descriptor::packed(&[32, 16]).unwrap();
    let lanes = d.compose_descriptor(&layout).unwrap();
    assert_eq!(
        lanes.to_string(),
        "packed((32,16))\n| transform(replicate((2)) on [] -> [0], unmerge((4,8)) on [0] -> [1,2], unmerge((16)) on [1] -> [3])\n\
         | transform(merge((2,4)) on [0,1] -> [0], pass_through(8) on [2] -> [1], pass_through(16) on [3] -> [2])"
    );
    let mut checked = 0;
    for_each_coordinate(lanes.lengths().as_slice(), |ps_ys| {
        let x = d.ps_ys_to_xs().calculate_bottom_index(ps_ys).unwrap();
        assert_eq!(lanes.offset_if_valid(ps_ys), layout.offset_if_valid(x.as_slice()), "{ps_ys:?}\n{lanes}");
        checked += 1;
    });
    assert_eq!(checked, 8 * 8 * 16);
    // A layout of seven stages leaves no room for two more.
    let mut deep = Descriptor::packed(&[16, 16]).unwrap();
    let keep = [
        Item::new(Transform::pass_through(16).unwrap(), &[0], &[0]).unwrap(),
        Item::new(Transform::pass_through(16).unwrap(), &[1], &[1]).unwrap(),
    ];
    for _ in 1..7 {
        deep = deep.transform(&keep).unwrap();
    }
    let e = a.compose_descriptor(&deep).unwrap_err();
    assert!(matches!(e.kind(), cktile_core::ErrorKind::Descriptor(DescriptorProblem::TooManyStages { .. })), "{e:?}");
    // A layout of another shape: compose's error.
    let e = a.compose_descriptor(&Descriptor::packed(&[16, 32]).unwrap()).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            cktile_core::ErrorKind::Adaptor(AdaptorProblem::ChainLength { dim: 1, top: 32, bottom: 16 })
        ),
        "{e}"
    );
}

/// A distribution composed with an LDS layout of its X is one adaptor whose
/// every (P, Y) gives the offset the two steps give, recomputed here
/// through the distribution's adaptor and the layout's offset, for CK's
/// MFMA operands and GEMM DRAM distributions over plain, padded, xor and
/// swizzled layouts.
#[test]
fn a_distribution_composed_with_a_layout_gives_every_lanes_offsets() {
    use cktile::layouts::{ck, cute, padding};
    let cases: Vec<(Encoding, Descriptor)> = vec![
        (catalogue::mfma_a(16, 16).unwrap(), ck::xor_preshuffle(16, 16, 8).unwrap()),
        (catalogue::mfma_b(32, 8).unwrap(), Descriptor::packed(&[32, 8]).unwrap()),
        (catalogue::mfma_c(16, 16).unwrap(), padding::row_padded(16, 16, 4).unwrap()),
        (catalogue::gemm_dram(256, 128, 32, 8).unwrap(), ck::xor_preshuffle(128, 32, 8).unwrap()),
        (catalogue::gemm_dram(64, 32, 16, 4).unwrap(), cute::swizzled_tile(2, 2, 3, 32, 16, cute::Major::Row).unwrap()),
    ];
    let mut compared = 0;
    for (encoding, lds) in &cases {
        let d = Distribution::new(*encoding).unwrap();
        let composed = d.compose(lds).unwrap();
        let top = d.ps_ys_to_xs().top_lengths();
        assert_eq!(composed.top_lengths(), top);
        assert_eq!(composed.bottom_lengths().len(), 1);
        for_each_coordinate(top.as_slice(), |ps_ys| {
            let x = d.ps_ys_to_xs().calculate_bottom_index(ps_ys).unwrap();
            let offset = lds.calculate_offset(x.as_slice());
            assert_eq!(composed.calculate_bottom_index(ps_ys).unwrap().as_slice(), [offset], "{encoding} at {ps_ys:?}");
            compared += 1;
        });
    }
    assert_eq!(compared, 5376, "every (P, Y) of the five distributions");
    // A layout of another shape is refused, naming the dimension.
    let a = Distribution::new(catalogue::mfma_a(16, 16).unwrap()).unwrap();
    let e = a.compose(&Descriptor::packed(&[16, 32]).unwrap()).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            cktile_core::ErrorKind::Adaptor(AdaptorProblem::ChainLength { dim: 1, top: 32, bottom: 16 })
        ),
        "{e}"
    );
}

/// A random encoding of a distribution over X lengths `x`: each X split
/// into one or two H components, sometimes one R component of 2, every
/// component named by one of one or two Ps or by a Y (R only by a P).
/// `None` when the draw breaks a rule of encodings (a P without
/// components, more than eight Ps and Ys).
fn random_encoding(x: &[i64], rng: &mut Rng) -> Option<Encoding> {
    let hs: Vec<Vec<usize>> = x
        .iter()
        .map(|&len| {
            let len = len as usize;
            let divisors: Vec<usize> = (1..=len).filter(|d| len.is_multiple_of(*d)).collect();
            let d = divisors[rng.below(divisors.len() as u64) as usize];
            if d == 1 || d == len { vec![len] } else { vec![d, len / d] }
        })
        .collect();
    let rs: Vec<usize> = if rng.below(3) == 0 { vec![2] } else { vec![] };
    let n_p = 1 + rng.below(2) as usize;
    // Each P's and the Ys' components, as (major, minor).
    let mut ps: Vec<Vec<(usize, usize)>> = vec![vec![]; n_p];
    let mut ys: Vec<(usize, usize)> = vec![];
    for minor in 0..rs.len() {
        ps[rng.below(n_p as u64) as usize].push((0, minor));
    }
    for (x, h) in hs.iter().enumerate() {
        for minor in 0..h.len() {
            let to = rng.below(n_p as u64 + 1) as usize;
            let c = (x + 1, minor);
            if to == n_p { ys.push(c) } else { ps[to].push(c) }
        }
    }
    if ys.is_empty() || ps.iter().any(Vec::is_empty) || ps.len() + ys.len() > 8 {
        return None;
    }
    let hs: Vec<&[usize]> = hs.iter().map(Vec::as_slice).collect();
    let major: Vec<Vec<usize>> = ps.iter().map(|p| p.iter().map(|c| c.0).collect()).collect();
    let minor: Vec<Vec<usize>> = ps.iter().map(|p| p.iter().map(|c| c.1).collect()).collect();
    let major: Vec<&[usize]> = major.iter().map(Vec::as_slice).collect();
    let minor: Vec<&[usize]> = minor.iter().map(Vec::as_slice).collect();
    let (ys_major, ys_minor): (Vec<usize>, Vec<usize>) = ys.into_iter().unzip();
    Some(Encoding::new(&rs, &hs, &major, &minor, &ys_major, &ys_minor).unwrap())
}

/// A composed adaptor compiles to a program with its offsets: on random
/// distributions composed with random chains of every transform kind, the
/// program's offset is the adaptor's at every (P, Y) and at coordinates
/// outside the lengths, and its checked offset is the layout's checked
/// offset of the element the two steps reach (padding stays invalid). Read
/// as a descriptor over (P, Y) (`Distribution::compose_descriptor`), it gives the
/// same checked offsets, where its stages fit a descriptor.
#[test]
fn composed_adaptors_compile_to_programs_with_their_offsets() {
    let config = ChainConfig::default();
    let (mut compared, mut padded, mut layouts, mut as_descriptors, mut beyond) = (0, 0, 0, 0, 0);
    for seed in 0..1000 {
        let lds = chain(seed, &config);
        let mut rng = Rng::new(seed);
        let Some(encoding) = random_encoding(lds.lengths().as_slice(), &mut rng) else { continue };
        let d = Distribution::new(encoding).unwrap();
        let composed = d.compose(&lds).unwrap();
        let p =
            cktile::Program::of_adaptor(&composed).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{encoding}\n{lds}"));
        layouts += 1;
        let top = composed.top_lengths();
        assert_eq!(p.lengths(), top);
        // As a descriptor over (P, Y), where its stages fit a descriptor's limits.
        let as_descriptor = match d.compose_descriptor(&lds) {
            Ok(desc) => Some(desc),
            Err(e) => {
                assert!(
                    matches!(
                        e.kind(),
                        cktile_core::ErrorKind::Descriptor(
                            DescriptorProblem::TooManyDims { .. }
                                | DescriptorProblem::TooManyItems { .. }
                                | DescriptorProblem::TooManyStages { .. }
                        ) | cktile_core::ErrorKind::Adaptor(
                            AdaptorProblem::TooManyTransforms { .. } | AdaptorProblem::IdTooLarge { .. }
                        )
                    ),
                    "seed {seed}: {e}"
                );
                beyond += 1;
                None
            }
        };
        for_each_coordinate(top.as_slice(), |ps_ys| {
            let x = d.ps_ys_to_xs().calculate_bottom_index(ps_ys).unwrap();
            let expected = lds.offset_if_valid(x.as_slice());
            assert_eq!(p.offset_if_valid(ps_ys), expected, "seed {seed} at {ps_ys:?}\n{encoding}\n{lds}");
            if let Some(desc) = &as_descriptor {
                assert_eq!(desc.offset_if_valid(ps_ys), expected, "seed {seed} at {ps_ys:?}\n{desc}");
                as_descriptors += 1;
            }
            assert_eq!(p.calculate_offset(ps_ys), composed.bottom_index_unchecked(ps_ys).get(0), "seed {seed}");
            padded += usize::from(expected.is_none());
            compared += 1;
        });
        // Outside the lengths: the same unchecked value, and no checked one.
        for _ in 0..16 {
            let far: Vec<i64> = top.as_slice().iter().map(|&l| rng.below(4 * l as u64) as i64 - 2 * l).collect();
            assert_eq!(
                p.calculate_offset(&far),
                composed.bottom_index_unchecked(&far).get(0),
                "seed {seed} at {far:?}"
            );
            if far.iter().zip(top.as_slice()).any(|(&v, &l)| v < 0 || v >= l) {
                assert_eq!(p.offset_if_valid(&far), None);
            }
        }
    }
    assert!(layouts > 300 && compared > 40_000 && padded > 5_000, "{layouts} {compared} {padded}");
    assert!(
        as_descriptors > 30_000 && beyond < layouts / 4,
        "{as_descriptors} as descriptors, {beyond} beyond the limits"
    );
    // Only an adaptor with one bottom dimension compiles.
    let a = Distribution::new(catalogue::mfma_a(16, 16).unwrap()).unwrap();
    let e = cktile::Program::of_adaptor(a.ps_ys_to_xs()).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::Port(cktile_core::ErrorKind::Adaptor(AdaptorProblem::ProgramBottom { dims: 2 }))),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "the adaptor has 2 bottom dimension(s); a program computes one value, so only an adaptor with exactly one \
         bottom dimension (an offset) compiles to one"
    );
    // Two merges into eight values each: going down, 17 values would be live at once.
    let wide = wide_adaptor();
    assert_eq!(wide.calculate_bottom_index(&[255, 1]).unwrap().as_slice(), &[255 * 256 + 1]);
    let e = cktile::Program::of_adaptor(&wide).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::Port(cktile_core::ErrorKind::Adaptor(AdaptorProblem::ProgramRegisters {
                transform: 3,
                registers: 16
            }))
        ),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "compiling adaptor transform 3 needs more than the program's 16 registers: too many hidden values are live \
         at once"
    );
    // One merge fits.
    let narrow = Adaptor::new(Dims::from_slice(&[256]).unwrap(), &[wide.items()[1], wide.items()[3]], &[1], &[19]);
    let narrow = narrow.unwrap();
    assert_eq!(cktile::Program::of_adaptor(&narrow).unwrap().offset_if_valid(&[200]), Some(200));
}

/// Every member the catalogue's families list, their `{a,b}` choices
/// expanded.
fn catalogue_members() -> Vec<(String, Distribution)> {
    fn expand(name: &str) -> Vec<String> {
        match (name.find('{'), name.find('}')) {
            (Some(open), Some(close)) => name[open + 1..close]
                .split(',')
                .flat_map(|choice| expand(&format!("{}{choice}{}", &name[..open], &name[close + 1..])))
                .collect(),
            _ => vec![name.to_string()],
        }
    }
    let names: Vec<String> = catalogue::FAMILIES.iter().flat_map(|f| f.names.iter().flat_map(|n| expand(n))).collect();
    names.into_iter().map(|n| (n.clone(), Distribution::new(catalogue::by_name(&n).unwrap()).unwrap())).collect()
}

/// Every X index of `d`, recomputed through its inverse and back: the
/// inverse names a (P, Y) holding that element, with the R components 0;
/// without R, the inverse after the distribution is the identity on every
/// (P, Y).
fn check_inverse(name: &str, d: &Distribution) -> usize {
    let inverse = d.inverse().unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(inverse.top_lengths(), d.x_lengths(), "{name}");
    assert_eq!(inverse.bottom_lengths(), d.ps_ys_to_xs().top_lengths(), "{name}");
    let mut checked = 0;
    for_each_coordinate(d.x_lengths().as_slice(), |x| {
        let ps_ys = inverse.calculate_bottom_index(x).unwrap();
        assert_eq!(d.calculate_index(ps_ys.as_slice()).unwrap().as_slice(), x, "{name} at {x:?}");
        let rs = d.rs_index(&ps_ys.as_slice()[..d.p_lengths().len()]).unwrap();
        assert!(rs.as_slice().iter().all(|&r| r == 0), "{name} at {x:?}: R {rs:?}");
        checked += 1;
    });
    if d.encoding().ndim_r() == 0 {
        for_each_coordinate(d.ps_ys_to_xs().top_lengths().as_slice(), |ps_ys| {
            let x = d.calculate_index(ps_ys).unwrap();
            assert_eq!(inverse.calculate_bottom_index(x.as_slice()).unwrap().as_slice(), ps_ys, "{name}");
        });
    }
    checked
}

/// A distribution's inverse, on every catalogue member and on random
/// encodings (replicated ones and ones with length-1 H components nobody
/// names included): every element of X comes back to itself.
#[test]
fn inverses_name_a_holder_of_every_element() {
    let mut checked = 0;
    let members = catalogue_members();
    assert!(members.len() > 30, "{}", members.len());
    for (name, d) in &members {
        checked += check_inverse(name, d);
    }
    let mut rng = Rng::new(11);
    let (mut random, mut replicated) = (0, 0);
    while random < 300 {
        let x: Vec<i64> = (0..1 + rng.below(3)).map(|_| [1, 2, 3, 4, 6, 8, 12, 16][rng.below(8) as usize]).collect();
        let Some(e) = random_encoding(&x, &mut rng) else { continue };
        replicated += usize::from(e.ndim_r() > 0);
        checked += check_inverse(&e.to_string(), &Distribution::new(e).unwrap());
        random += 1;
    }
    // An H component of length 1 that no P or Y names.
    let e = Encoding::new(&[], &[&[4, 1], &[8]], &[&[1]], &[&[0]], &[2], &[0]).unwrap();
    checked += check_inverse("unnamed h", &Distribution::new(e).unwrap());
    assert!(replicated > 50 && checked > 100_000, "{replicated} {checked}");
}

/// Triton's invertAndCompose: for every pair of catalogue members with the
/// same X lengths, and pairs of random encodings over the same X, the
/// composed adaptor sends every (P, Y) of the first to a (P, Y) of the
/// second holding the same element.
#[test]
fn invert_and_compose_finds_the_same_element_in_the_other_distribution() {
    let members = catalogue_members();
    let mut pairs = 0;
    let mut check = |(a_name, a): (&str, &Distribution), (b_name, b): (&str, &Distribution)| {
        let c = a.invert_and_compose(b).unwrap_or_else(|e| panic!("{a_name} into {b_name}: {e}"));
        assert_eq!(c.bottom_lengths(), b.ps_ys_to_xs().top_lengths());
        for_each_coordinate(a.ps_ys_to_xs().top_lengths().as_slice(), |ps_ys| {
            let there = c.calculate_bottom_index(ps_ys).unwrap();
            assert_eq!(
                b.calculate_index(there.as_slice()).unwrap(),
                a.calculate_index(ps_ys).unwrap(),
                "{a_name} into {b_name} at {ps_ys:?}"
            );
        });
        pairs += 1;
    };
    for (a_name, a) in &members {
        for (b_name, b) in &members {
            if a.x_lengths() == b.x_lengths() {
                check((a_name, a), (b_name, b));
            }
        }
    }
    let mut rng = Rng::new(5);
    let mut random = 0;
    while random < 200 {
        let x: Vec<i64> = (0..1 + rng.below(2)).map(|_| [2, 4, 6, 8, 16][rng.below(5) as usize]).collect();
        let (Some(a), Some(b)) = (random_encoding(&x, &mut rng), random_encoding(&x, &mut rng)) else { continue };
        let (a, b) = (Distribution::new(a).unwrap(), Distribution::new(b).unwrap());
        check(("a", &a), ("b", &b));
        random += 1;
    }
    assert!(pairs > 300, "{pairs}");
    // Other X lengths do not compose.
    let a = Distribution::new(catalogue::mfma_a(16, 16).unwrap()).unwrap();
    let b = Distribution::new(catalogue::mfma_a(32, 8).unwrap()).unwrap();
    let e = a.invert_and_compose(&b).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            cktile_core::ErrorKind::Adaptor(AdaptorProblem::ChainLength { dim: 0, top: 32, bottom: 16 })
        ),
        "{e}"
    );
}

#[test]
fn adaptor_wiring_errors_are_named() {
    let lens = Dims::from_slice(&[32]).unwrap();
    let split = Item::new(Transform::unmerge(&[4, 8]).unwrap(), &[0], &[1, 2]).unwrap();
    let problem = |r: Result<Adaptor, cktile_core::Error>| match *r.unwrap_err().kind() {
        cktile_core::ErrorKind::Adaptor(problem) => problem,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        problem(Adaptor::new(lens, &[split, split], &[0], &[1])),
        AdaptorProblem::ReadTwice { first: 0, second: 1, id: 0 }
    );
    let again = Item::new(Transform::pass_through(4).unwrap(), &[1], &[2]).unwrap();
    assert_eq!(
        problem(Adaptor::new(lens, &[split, again], &[0], &[2])),
        AdaptorProblem::ProducedTwice { transform: 1, id: 2 }
    );
    assert_eq!(problem(Adaptor::new(lens, &[split], &[0], &[1, 7])), AdaptorProblem::TopUnknown { id: 7 });
    assert_eq!(problem(Adaptor::new(lens, &[split], &[0], &[1, 1])), AdaptorProblem::TopRepeated { id: 1 });
    assert_eq!(problem(Adaptor::new(lens, &[split], &[0], &[0, 1])), AdaptorProblem::TopRead { id: 0, transform: 0 });
    let two = Dims::from_slice(&[32, 4]).unwrap();
    assert_eq!(
        problem(Adaptor::new(two, &[split], &[0, 5], &[1, 2])),
        AdaptorProblem::BottomUnreached { position: 1, id: 5 }
    );
    assert_eq!(
        problem(Adaptor::new(lens, &[split], &[0, 1], &[1])),
        AdaptorProblem::BottomCount { ids: 2, lengths: 1 }
    );
    let far = Item::new(Transform::unmerge(&[4, 8]).unwrap(), &[0], &[1, 40]).unwrap();
    assert_eq!(problem(Adaptor::new(lens, &[far], &[0], &[1])), AdaptorProblem::IdTooLarge { id: 40, max: 32 });
    let many = vec![Item::new(Transform::pass_through(32).unwrap(), &[0], &[1]).unwrap(); 33];
    assert_eq!(
        problem(Adaptor::new(lens, &many, &[0], &[1])),
        AdaptorProblem::TooManyTransforms { given: 33, max: 32 }
    );
    // The limits are the adaptor's; the fixed sentences of const panics spell them too.
    use cktile::adaptor::{MAX_HIDDEN, MAX_TRANSFORMS};
    let summary = AdaptorProblem::TooManyTransforms { given: 25, max: MAX_TRANSFORMS }.summary();
    assert!(summary.contains(&format!("MAX_TRANSFORMS ({MAX_TRANSFORMS})")), "{summary}");
    let summary = AdaptorProblem::IdTooLarge { id: 40, max: MAX_HIDDEN }.summary();
    assert!(summary.contains(&format!("MAX_HIDDEN ({MAX_HIDDEN})")), "{summary}");
    // Lengths are checked when built: an unmerge of 4 x 8 does not fit 30.
    let e = Adaptor::new(Dims::from_slice(&[30]).unwrap(), &[split], &[0], &[1, 2]).unwrap_err();
    assert!(
        matches!(e.kind(), cktile_core::ErrorKind::Descriptor(DescriptorProblem::Transform { item: 0, .. })),
        "{e}"
    );
    // chain: counts and lengths must match.
    let a = Adaptor::new(lens, &[split], &[0], &[1, 2]).unwrap();
    let b = Adaptor::single_stage(
        Dims::from_slice(&[8, 4]).unwrap(),
        &[Item::new(Transform::merge(&[8, 4]).unwrap(), &[0, 1], &[0]).unwrap()],
    )
    .unwrap();
    assert_eq!(problem(a.chain(&b)), AdaptorProblem::ChainLength { dim: 0, top: 4, bottom: 8 });
    assert_eq!(problem(b.chain(&b)), AdaptorProblem::ChainCount { top: 1, bottom: 2 });
    // Index checks.
    assert_eq!(
        a.calculate_bottom_index(&[1]).unwrap_err().to_string(),
        "the coordinate has 1 dimension(s); the descriptor has 2"
    );
}

/// Every (P, Y) of `d` maps to `expected(ps_ys)` and every X element has
/// exactly one owner (the R of length 1 replicates nothing).
fn check_closed(name: &str, d: &Distribution, expected: impl Fn(&[i64]) -> [i64; 2]) {
    let mut owners = std::collections::HashSet::new();
    d.for_each(MAX_ENUMERATED, |ps_ys, xs, _| {
        assert_eq!(xs, &expected(ps_ys)[..], "{name}: (P, Y) = {ps_ys:?}");
        assert!(owners.insert(xs.to_vec()), "{name}: {xs:?} owned twice");
    })
    .unwrap();
    assert_eq!(owners.len() as i64, d.x_lengths().product().unwrap(), "{name}: every element owned");
}

// CK's fmha forward Q, loaded once (BlockFmhaPipelineQXCustomPolicy<true>::MakeQDramTileDistribution),
// restated by hand: K2 = kK / kABKLane, K1 = kABKLane, K0 = kK0BlockLength / (K1 K2), M2 = kAMLane,
// M1 = MWarp, M0 = kM0 / (M2 M1); P0 = M1, P1 = (K1, M2); Y = (M0, K0, K2). So warp w, lane l,
// Y (i, j, v) hold Q(m = (i M1 + w) M2 + l % M2, k = (j K1 + l / M2) K2 + v).
#[test]
fn fmha_q_load_once_is_cks_formula() {
    use cktile::distribution::embed_encoding;
    for (m_per_block, k_per_block, m_warps, mdim, k) in
        [(128, 64, 4, 16, 16), (128, 128, 4, 32, 16), (64, 32, 2, 32, 8), (32, 64, 1, 16, 32)]
    {
        let name = format!("fmha_q_load_once({m_per_block}, {k_per_block}, {m_warps}, {mdim}, {k})");
        let e = catalogue::fmha_q_load_once(m_per_block, k_per_block, m_warps, mdim, k).unwrap();
        let (m2, k1) = (mdim as i64, 64 / mdim as i64);
        let k2 = k as i64 / k1;
        let m1 = m_warps as i64;
        let d = Distribution::new(e).unwrap();
        assert_eq!(d.x_lengths().as_slice(), &[m_per_block as i64, k_per_block as i64]);
        check_closed(&name, &d, |v| {
            let [w, l, i, j, x] = v.try_into().unwrap();
            [(i * m1 + w) * m2 + l % m2, (j * k1 + l / m2) * k2 + x]
        });
        // CK's own spelling with the numbers put in.
        let (m0, k0) = (m_per_block as i64 / (m2 * m1), k_per_block as i64 / (k1 * k2));
        let ck = format!(
            "tile_distribution_encoding<sequence<1>, tuple<sequence<{m0}, {m1}, {m2}>, sequence<{k0}, {k1}, {k2}>>, \
             tuple<sequence<1>, sequence<2, 1>>, tuple<sequence<1>, sequence<1, 2>>, sequence<1, 2, 2>, \
             sequence<0, 0, 2>>"
        );
        assert_eq!(parse(&ck).unwrap(), e, "{name}");
        // It is the warp GEMM's A embedded in the block's warps and iterations.
        let outer = Encoding::new(&[1], &[&[m0 as usize, m_warps], &[k0 as usize]], &[&[1]], &[&[1]], &[1, 2], &[0, 0])
            .unwrap();
        assert_eq!(embed_encoding(&outer, &catalogue::mfma_a(mdim, k).unwrap()).unwrap(), e, "{name}");
    }
    assert!(catalogue::fmha_q_load_once(128, 64, 4, 16, 8).is_err());
    assert!(catalogue::fmha_q_load_once(128, 40, 4, 16, 16).is_err());
    assert!(catalogue::fmha_q_load_once(128, 64, 0, 16, 16).is_err());
}

// CK's fmha forward K with AsyncCopyK (MakeKDramTileDistribution), restated by hand:
// K0 = LanesPerK = kK / KVector, N1 = LaneGroups = 64 / K0, N2 = NumWarps, N0 = NumIssues = kN / (N1 N2);
// P0 = N2, P1 = (N1, K0); Y = (N0, K1). So warp w, lane l, Y (i, v) hold K(n = (i N1 + l / K0) N2 + w,
// k = (l % K0) KVector + v).
#[test]
fn fmha_k_dram_async_is_cks_formula() {
    for (block, n, k, vector) in [(256, 128, 32, 2), (256, 64, 64, 2), (128, 64, 32, 4), (512, 128, 128, 2)] {
        let name = format!("fmha_k_dram_async({block}, {n}, {k}, {vector})");
        let e = catalogue::fmha_k_dram_async(block, n, k, vector).unwrap();
        let k0 = (k / vector) as i64;
        let (n1, n2) = (64 / k0, (block / 64) as i64);
        let d = Distribution::new(e).unwrap();
        assert_eq!(d.x_lengths().as_slice(), &[n as i64, k as i64]);
        assert_eq!(d.p_lengths().as_slice(), &[n2, 64]);
        check_closed(&name, &d, |v| {
            let [w, l, i, x] = v.try_into().unwrap();
            [(i * n1 + l / k0) * n2 + w, (l % k0) * vector as i64 + x]
        });
        let n0 = n as i64 / (n1 * n2);
        let ck = format!(
            "ck_tile::tile_distribution_encoding<ck_tile::sequence<1>,\n  ck_tile::tuple<ck_tile::sequence<{n0}, {n1}, {n2}>, \
             ck_tile::sequence<{k0}, {vector}>>,\n  ck_tile::tuple<ck_tile::sequence<1>, ck_tile::sequence<1, 2>>,\n  \
             ck_tile::tuple<ck_tile::sequence<2>, ck_tile::sequence<1, 0>>,\n  ck_tile::sequence<1, 2>,\n  \
             ck_tile::sequence<0, 1>>{{}}"
        );
        assert_eq!(parse(&ck).unwrap(), e, "{name}");
    }
    assert!(catalogue::fmha_k_dram_async(256, 100, 32, 2).is_err());
    assert!(catalogue::fmha_k_dram_async(200, 128, 32, 2).is_err());
    assert!(catalogue::fmha_k_dram_async(256, 128, 32, 0).is_err());
}

// CK's fmha forward V, row-major (MakeVDramTileDistribution), restated by hand: N1 = GetAlignmentV
// (4 when a thread holds more than 4 elements, else 2), N0 = kN / N1, K3 = elements per thread / N1,
// K2 = KPack / K3 (KPack = 16 bytes). First form (K2 N0 divides 64): K1 = 64 / (K2 N0), K0 = warps,
// P0 = K0, P1 = (K1, N0, K2). Second form: K1 = K2 N0 / 64 warps share K2, K2m = K2 / K1,
// K0 = warps / K1, P0 = (K0, K1), P1 = (N0, K2m). Y = (K3, N1) in both. So warp w, lane l, Y (i, v)
// hold V(n = N0-index * N1 + v, k = (w-part and lane-part of K) * K3 + i), written out below.
#[test]
fn fmha_v_dram_row_major_is_cks_formula() {
    use cktile::distribution::catalogue::VLayout;
    // (block, kN1, kK1, element bytes, first form?)
    for (block, n, k, bytes, first) in [
        (256, 128, 32, 2, true),
        (256, 64, 64, 2, true),
        (128, 64, 32, 4, true),
        (256, 128, 16, 2, false),
        (512, 256, 32, 2, false),
    ] {
        let name = format!("fmha_v_dram({block}, {n}, {k}, {bytes}, RowMajor)");
        let e = catalogue::fmha_v_dram(block, n, k, bytes, VLayout::RowMajor).unwrap();
        let pixels = (n * k / block) as i64;
        let n1 = if pixels > 4 { 4 } else { 2 };
        let (n0, k3) = (n as i64 / n1, pixels / n1);
        let k2 = 16 / bytes as i64 / k3;
        let warps = block as i64 / 64;
        let d = Distribution::new(e).unwrap();
        assert_eq!(d.x_lengths().as_slice(), &[n as i64, k as i64], "{name}");
        assert_eq!(d.y_lengths().as_slice(), &[k3, n1], "{name}");
        let ck = if first {
            let k1 = 64 / (k2 * n0);
            check_closed(&name, &d, |v| {
                let [w, l, i, x] = v.try_into().unwrap();
                let (kk2, nn0, kk1) = (l % k2, l / k2 % n0, l / (k2 * n0));
                [nn0 * n1 + x, ((w * k1 + kk1) * k2 + kk2) * k3 + i]
            });
            format!(
                "tile_distribution_encoding<sequence<1>, tuple<sequence<{n0}, {n1}>, sequence<{warps}, {k1}, {k2}, {k3}>>, \
                 tuple<sequence<2>, sequence<2, 1, 2>>, tuple<sequence<0>, sequence<1, 0, 2>>, sequence<2, 1>, sequence<3, 1>>"
            )
        } else {
            let k1 = k2 * n0 / 64;
            let k2m = k2 / k1;
            check_closed(&name, &d, |v| {
                let [w, l, i, x] = v.try_into().unwrap();
                [l / k2m * n1 + x, (w * k2m + l % k2m) * k3 + i]
            });
            format!(
                "tile_distribution_encoding<sequence<1>, tuple<sequence<{n0}, {n1}>, sequence<{}, {k1}, {k2m}, {k3}>>, \
                 tuple<sequence<2, 2>, sequence<1, 2>>, tuple<sequence<0, 1>, sequence<0, 2>>, sequence<2, 1>, sequence<3, 1>>",
                warps / k1
            )
        };
        assert_eq!(parse(&ck).unwrap(), e, "{name}");
        // The shuffled register block: the same owners, Y swapped to (N1, K3).
        let s = Distribution::new(catalogue::fmha_v_shuffled(block, n, k, bytes).unwrap()).unwrap();
        let shuffled = ck.replace("sequence<2, 1>, sequence<3, 1>>", "sequence<1, 2>, sequence<1, 3>>");
        assert_eq!(parse(&shuffled).unwrap(), *s.encoding(), "{name}");
        d.for_each(MAX_ENUMERATED, |ps_ys, xs, _| {
            let swapped = [ps_ys[0], ps_ys[1], ps_ys[3], ps_ys[2]];
            assert_eq!(s.calculate_index(&swapped).unwrap().as_slice(), xs, "{name}: {ps_ys:?}");
        })
        .unwrap();
    }
    for (block, n, k, bytes) in
        [(256, 128, 48, 2), (200, 128, 32, 2), (256, 128, 32, 3), (256, 0, 32, 2), (64, 8, 8, 2)]
    {
        let e = catalogue::fmha_v_dram(block, n, k, bytes, VLayout::RowMajor).unwrap_err();
        assert!(
            matches!(
                e.kind(),
                cktile_core::ErrorKind::Parameter(ParameterProblem::Invalid { context: "fmha_v_dram", .. })
            ),
            "{e}"
        );
    }
}

// Column-major V (K contiguous): K1 = GetAlignmentV = 16 bytes of elements, K0 = kK / K1,
// N2 = 64 / K0, N1 = warps, N0 = kN / (N2 N1); P = (N1, (N2, K0)), Y = (N0, K1): CK's spelling.
#[test]
fn fmha_v_dram_column_major_is_cks_spelling() {
    use cktile::distribution::catalogue::VLayout;
    for (block, n, k, bytes) in [(256, 128, 32, 2), (256, 64, 64, 2), (128, 128, 32, 4)] {
        let e = catalogue::fmha_v_dram(block, n, k, bytes, VLayout::ColumnMajor).unwrap();
        let k1 = 16 / bytes;
        let k0 = k / k1;
        let (n2, n1) = (64 / k0, block / 64);
        let n0 = n / (n2 * n1);
        let ck = format!(
            "tile_distribution_encoding<sequence<1>, tuple<sequence<{n0}, {n1}, {n2}>, sequence<{k0}, {k1}>>, \
             tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>, sequence<1, 2>, sequence<0, 1>>"
        );
        assert_eq!(parse(&ck).unwrap(), e, "{block} {n} {k} {bytes}");
    }
    assert!(catalogue::fmha_v_dram(256, 128, 32, 3, VLayout::ColumnMajor).is_err());
}

// CK's fmha backward LSE/D rows (MakeLSEDDramTileDistribution), restated by hand: with
// M = kM0, N1 = 64 / M lanes hold copies when a wave is longer than M (M1 = M, M2 = 1), else
// M1 = 64, M2 = M / 64; R = (NWarp, N1), P0 = (NWarp, MWarp), P1 = (N1, M1), Y = M2. So warp w,
// lane l, Y i hold row ((w % MWarp) M1 + l % M1) M2 + i.
#[test]
fn fmha_lse_d_dram_is_cks_formula() {
    for (m, m_warps, n_warps) in [(16, 1, 4), (32, 1, 4), (64, 1, 4), (128, 1, 4), (128, 2, 2), (256, 4, 1)] {
        let name = format!("fmha_lse_d_dram({m}, {m_warps}, {n_warps})");
        let e = catalogue::fmha_lse_d_dram(m, m_warps, n_warps).unwrap();
        let (n1, m1, m2) = if 64 / m > 1 { (64 / m, m, 1) } else { (1, 64, m / 64) };
        let ck = format!(
            "tile_distribution_encoding<sequence<{n_warps}, {n1}>, tuple<sequence<{m_warps}, {m1}, {m2}>>, \
             tuple<sequence<0, 1>, sequence<0, 1>>, tuple<sequence<0, 0>, sequence<1, 1>>, sequence<1>, sequence<2>>"
        );
        assert_eq!(parse(&ck).unwrap(), e, "{name}");
        let d = Distribution::new(e).unwrap();
        assert_eq!(d.x_lengths().as_slice(), &[(m_warps * m) as i64], "{name}");
        assert_eq!(d.p_lengths().as_slice(), &[(n_warps * m_warps) as i64, 64], "{name}");
        let (mw, m1, m2) = (m_warps as i64, m1 as i64, m2 as i64);
        let mut count = HashMap::new();
        d.for_each(MAX_ENUMERATED, |ps_ys, xs, _| {
            let [w, l, i] = ps_ys.try_into().unwrap();
            assert_eq!(xs, &[((w % mw) * m1 + l % m1) * m2 + i], "{name}: {ps_ys:?}");
            *count.entry(xs[0]).or_insert(0) += 1;
        })
        .unwrap();
        // Every row is held by the same number of threads: n_warps x N1 copies.
        assert!(count.values().all(|&c| c == n_warps * n1), "{name}: {count:?}");
        assert_eq!(count.len(), m_warps * m, "{name}");
    }
    for (m, m_warps, n_warps) in [(48, 1, 4), (96, 1, 4), (24, 1, 4), (0, 1, 4), (64, 0, 4), (64, 1, 0)] {
        assert!(catalogue::fmha_lse_d_dram(m, m_warps, n_warps).is_err(), "{m} {m_warps} {n_warps}");
    }
}

/// Every name `catalogue::NAMES` lists (its braces expanded, as the
/// explorer lists them) resolves, and the GEMM DRAM names are
/// `gemm_dram` with the sizes they spell (issue 33: the GEMM DRAM
/// distributions by name on the command line).
#[test]
fn every_listed_distribution_name_resolves() {
    use cktile::distribution::catalogue::{NAMES, by_name, gemm_dram};
    let mut names = Vec::new();
    for item in NAMES.split(", ") {
        match item.split_once('{') {
            Some((head, tail)) => {
                let alternatives = tail.trim_end_matches('}');
                names.extend(alternatives.split(',').map(|a| format!("{head}{a}")));
            }
            None => names.push(item.to_string()),
        }
    }
    assert!(names.len() >= 22, "{names:?}");
    for n in &names {
        assert!(by_name(n).is_ok(), "{n}: {:?}", by_name(n));
        assert!(cktile::spelling::resolve(n).is_ok(), "{n}");
    }
    for (block, mn, k, k1) in
        [(256, 128, 32, 8), (256, 256, 32, 8), (256, 128, 64, 8), (128, 128, 32, 8), (64, 32, 16, 4)]
    {
        assert_eq!(by_name(&format!("gemm_dram_{block}x{mn}x{k}_k{k1}")), gemm_dram(block, mn, k, k1));
    }
    for bad in ["gemm_dram_256x128x32", "gemm_dram_256x128_k8", "gemm_dram_256x128x32x1_k8", "gemm_dram_axbxc_kd"] {
        let e = by_name(bad).unwrap_err().to_string();
        assert!(e.contains("gemm_dram_{BLOCK}x{MN}x{K}_k{K1}"), "{bad}: {e}");
    }
}

/// The vector dimension a tile window and the analyzer's windows take
/// (`Distribution::vector_dim_y`, CK's `get_vector_dim_y_scalar_per_vector`
/// over X vectors carried through `ps_ys_to_xs`), with the last X
/// contiguous over its whole length, is the Y that walks the last X's
/// fastest H component, with that component's length: checked against the
/// encoding's own lists on catalogue distributions of every family, and
/// `None` when every X is unknown.
#[test]
fn the_vector_dimension_is_the_y_on_the_last_xs_fastest_component() {
    use cktile::transforms::{MAX_DIMS, Vector};
    let mut all = vec![catalogue::mfma_b_swizzled().unwrap(), catalogue::mfma_c_swizzled().unwrap()];
    for n in ["mfma16x16x16", "mfma16x16x32", "mfma32x32x8", "mfma32x32x16"] {
        for op in ["a", "b", "c", "c_transposed"] {
            all.push(catalogue::by_name(&format!("{n}_{op}")).unwrap());
        }
    }
    for name in [
        "wmma16x16x16_gfx11_a",
        "wmma16x16x16_gfx11_c",
        "wmma16x16x32_gfx1250_b_tr16",
        "wmma16x16x64_gfx1250_b_tr8",
        "thread_raked_256x4x64_v8",
        "warp_raked_256x8x64_v4_shuffled",
        "block_raked_128x16x32_v2",
    ] {
        all.push(catalogue::by_name(name).unwrap_or_else(|e| panic!("{name}: {e}")));
    }
    for (block, m, k, k1) in [(256, 128, 32, 8), (256, 256, 64, 8), (128, 64, 32, 4)] {
        all.push(catalogue::gemm_dram(block, m, k, k1).unwrap());
    }
    let mut found = 0;
    for e in all {
        let d = Distribution::new(e).unwrap();
        let last = e.ndim_x() - 1;
        let fastest = e.hs_lengths(last).len() - 1;
        let (major, minor) = e.y_to_rh();
        let want = (0..e.ndim_y())
            .find(|&y| major.get(y) == last as i64 + 1 && minor.get(y) == fastest as i64)
            .map(|y| (y, e.hs_lengths(last).get(fastest)))
            .filter(|&(_, len)| len > 1);
        let mut x = [Vector::UNKNOWN; MAX_DIMS];
        x[last] = Vector::new(d.x_lengths().get(last), 1);
        assert_eq!(d.vector_dim_y(&x), want, "{e}");
        assert_eq!(d.vector_dim_y(&[Vector::UNKNOWN; MAX_DIMS]), None, "{e}");
        found += usize::from(want.is_some());
    }
    assert!(found > 10, "{found}");
}
