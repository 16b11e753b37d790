//! `check::check` against an independent recount of the offsets that
//! `check::offsets` produces: collisions over every offset (wherever it lies),
//! holes inside the element space only, and the offsets outside it. Random
//! `naive_with_offset` bases (strides 0 included, so offsets collide and fall
//! outside the space) under random pads, xors and merges.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::check;
use proptest::prelude::*;
use std::collections::BTreeMap;

/// Recounts (collisions, holes, outside, valid) from the offsets alone.
fn recount(text: &str) -> (u64, u64, u64, u64) {
    let d = cktile::spec::parse(text).unwrap();
    let o = check::offsets(&d).unwrap();
    let space = d.element_space_size();
    let mut seen: BTreeMap<i64, u64> = BTreeMap::new();
    for (&off, &ok) in o.offsets.iter().zip(&o.valid) {
        if ok {
            *seen.entry(off).or_default() += 1;
        }
    }
    let valid: u64 = seen.values().sum();
    let collisions = valid - seen.len() as u64;
    let inside = seen.keys().filter(|&&k| (0..space).contains(&k)).count() as u64;
    let outside: u64 = seen.iter().filter(|(k, _)| !(0..space).contains(*k)).map(|(_, n)| n).sum();
    (collisions, space as u64 - inside, outside, valid)
}

fn assert_matches_recount(text: &str) {
    let d = cktile::spec::parse(text).unwrap();
    let r = check::check(&d).unwrap();
    let (collisions, holes, outside, valid) = recount(text);
    assert_eq!(r.collision_count, collisions, "{text}: collisions");
    assert_eq!(r.hole_count, holes, "{text}: holes");
    assert_eq!(r.outside_count, outside, "{text}: outside");
    assert_eq!(r.valid_count, valid, "{text}: valid");
    assert_eq!(r.injective, collisions == 0, "{text}");
    assert_eq!(r.surjective, holes == 0, "{text}");
    assert_eq!(r.is_bijective(), collisions == 0 && holes == 0 && outside == 0, "{text}");
    // Every example is what it claims to be.
    for c in &r.collisions {
        assert_ne!(c.first, c.second, "{text}");
        assert_eq!(d.calculate_offset(&c.first), c.offset, "{text}");
        assert_eq!(d.calculate_offset(&c.second), c.offset, "{text}");
    }
    for &h in &r.holes {
        assert!((0..d.element_space_size()).contains(&h), "{text}: hole {h}");
    }
    for (c, o) in &r.outside {
        assert_eq!(d.calculate_offset(c), *o, "{text}");
        assert!(!(0..d.element_space_size()).contains(o), "{text}: {o} is inside");
    }
}

/// The issue's example: three coordinates at offset 100 in a 1-element space
/// collide, although none lies inside the space.
#[test]
fn collisions_outside_the_element_space_are_counted() {
    let d = cktile::spec::parse("naive_with_offset((3),(0),100)").unwrap();
    let r = check::check(&d).unwrap();
    assert!(!r.injective && !r.surjective && !r.is_bijective());
    assert_eq!((r.element_space_size, r.collision_count, r.hole_count, r.outside_count), (1, 2, 1, 3));
    assert_eq!(r.collisions[0].offset, 100);
    assert_eq!((r.collisions[0].first.clone(), r.collisions[0].second.clone()), (vec![0], vec![1]));
    assert_eq!(r.holes, vec![0]);
    assert_eq!(r.outside, vec![(vec![0], 100), (vec![1], 100), (vec![2], 100)]);
    let text = cktile::render::text::report(&r);
    assert!(text.contains("injective:   no (2 coordinates share an offset with an earlier one)"), "{text}");
    assert!(text.contains("  offset 100: [0] and [1]"), "{text}");
    assert!(text.contains("outside the element space: 3 valid coordinates map to offsets outside [0, 1)"), "{text}");
    assert_matches_recount("naive_with_offset((3),(0),100)");
}

/// Offsets partly inside, partly outside: holes count only inside offsets,
/// and a collision straddling nothing is still found.
#[test]
fn holes_count_only_offsets_inside_the_space() {
    // Offsets 2, 3, 4, 5 in a 4-element space: holes 0 and 1, two outside.
    let d = cktile::spec::parse("naive_with_offset((4),(1),2)").unwrap();
    let r = check::check(&d).unwrap();
    assert_eq!((r.hole_count, r.holes.clone(), r.outside_count, r.injective), (2, vec![0, 1], 2, true));
    assert!(!r.is_bijective());
}

fn tuple(v: &[usize]) -> String {
    format!("({})", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(","))
}

/// A random 2-D `naive_with_offset` base and one optional stage on top.
fn spec_strategy() -> impl Strategy<Value = String> {
    (1usize..=6, 1usize..=6, 0usize..=7, 0usize..=7, 0usize..=40, 0u8..4, 0usize..=2, 0usize..=2).prop_map(
        |(a, b, s0, s1, off, stage, l, r)| {
            let base = format!("naive_with_offset({}, {}, {off})", tuple(&[a, b]), tuple(&[s0, s1]));
            match stage {
                0 => base,
                1 => format!("{base} | transform(pad({a},{l},{r}) on [0] -> [0], pass_through({b}) on [1] -> [1])"),
                2 if b.is_power_of_two() && b % a == 0 => {
                    format!("{base} | transform(xor(({a},{b})) on [0,1] -> [0,1])")
                }
                _ => format!("{base} | transform(merge(({a},{b})) on [0,1] -> [0])"),
            }
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Over random layouts whose offsets collide and leave the element
    /// space, check's counts equal the recount.
    #[test]
    fn check_equals_an_independent_recount(text in spec_strategy()) {
        assert_matches_recount(&text);
    }
}

/// The verified contiguity by its definition: the largest power of two `L`
/// dividing the length for which every aligned run of `L` coordinates along
/// the dimension is valid and consecutive, checked run by run.
fn brute_verified(d: &cktile::Descriptor, dim: usize) -> i64 {
    let lengths = d.lengths().as_slice().to_vec();
    let size: u64 = lengths.iter().map(|&l| l as u64).product();
    let mut best = 1;
    let mut l = 2;
    while l <= lengths[dim] {
        if lengths[dim] % l == 0 {
            let ok = (0..size).map(|n| check::coordinate(d, n)).filter(|c| c[dim] % l == 0).all(|c| {
                (0..l).all(|i| {
                    let mut x = c.clone();
                    x[dim] += i;
                    d.coordinate_has_valid_offset(&x) && d.calculate_offset(&x) == d.calculate_offset(&c) + i
                })
            });
            if ok {
                best = l;
            }
        }
        l *= 2;
    }
    best
}

/// The issue's example: CK's rule passes the base's 16 through the xor,
/// but row 1 is 17 16 19 18 ...; the report says so.
#[test]
fn ck_vector_claims_are_checked_against_the_offsets() {
    let d = cktile::spec::parse("packed((2,16),16) | transform(xor((2,16)) on [0,1] -> [0,1])").unwrap();
    let r = check::check(&d).unwrap();
    assert_eq!(r.vectors[1].length, Some(16));
    assert_eq!(r.verified, vec![1, 1]);
    let text = cktile::render::text::report(&r);
    assert!(text.contains("dim 1: CK's guarantee: vector length 16, stride 1; verified contiguous: 1"), "{text}");
    assert!(text.contains("CK's claim of 16 is false for these offsets"), "{text}");
    // left_pad passes the lower length through too: the run straddling the pad breaks.
    let d = cktile::spec::parse("naive((8),(1),4,1) | transform(left_pad(8,3) on [0] -> [0])").unwrap();
    let r = check::check(&d).unwrap();
    assert_eq!((r.vectors[0].length, r.verified[0]), (Some(4), 1));
    // Where CK knows nothing, the report says why.
    let r = check::check(&cktile::spec::parse("packed((128,64))").unwrap()).unwrap();
    assert_eq!(r.verified, vec![1, 64]);
    let text = cktile::render::text::report(&r);
    assert!(text.contains("dim 1: CK's guarantee: vector length unknown, stride 1; verified contiguous: 64"));
    assert!(text.contains("this base guarantees none (give one: packed((LENGTHS), N)"), "{text}");
    // A correct claim is confirmed.
    let r = check::check(&cktile::layouts::resolve("ck-universal-a:m=128,k=64").unwrap()).unwrap();
    assert_eq!((r.vectors[1].length, r.verified[1]), (Some(8), 8));
    assert!(!cktile::render::text::report(&r).contains("is false"));
}

/// 2-D bases with a guaranteed vector length under the transforms CK's rule
/// passes lengths through (xor, pads, merges, unmerges, pass_through).
fn vector_spec_strategy() -> impl Strategy<Value = String> {
    (0u32..3, 0u32..4, 0u32..4, 0u8..5, 0usize..4).prop_map(|(ra, cb, vb, stage, pad)| {
        let (a, b, v) = (1usize << ra, 1usize << (cb + 1), 1usize << vb.min(cb + 1));
        let base = format!("packed(({a},{b}),{v})");
        match stage {
            0 => base,
            1 if b % a == 0 => format!("{base} | transform(xor(({a},{b})) on [0,1] -> [0,1])"),
            2 => format!("{base} | transform(pass_through({a}) on [0] -> [0], left_pad({b},{pad}) on [1] -> [1])"),
            3 => format!("{base} | transform(pass_through({a}) on [0] -> [0], right_pad({b},{pad}) on [1] -> [1])"),
            _ => format!("{base} | transform(merge(({a},{b})) on [0,1] -> [0])"),
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// The verified contiguity equals its definition checked run by run,
    /// over layouts whose offsets collide, leave the space, pad and xor.
    #[test]
    fn verified_contiguity_is_its_definition(text in prop_oneof![spec_strategy(), vector_spec_strategy()]) {
        let d = cktile::spec::parse(&text).unwrap();
        let r = check::check(&d).unwrap();
        for dim in 0..d.num_dims() {
            prop_assert_eq!(r.verified[dim], brute_verified(&d, dim), "{} dim {}", text, dim);
        }
    }
}

/// CK's claim (length `l`, stride `s`) on dimension `dim` by its definition,
/// run by run: every aligned run of `l` coordinates along the dimension
/// (cut at its end) is padding throughout, or valid throughout with each
/// offset `s` past the previous one (with no stride, the run's first step).
fn brute_claim_holds(d: &cktile::Descriptor, dim: usize, l: i64, s: Option<i64>) -> bool {
    let lengths = d.lengths().as_slice().to_vec();
    let size: u64 = lengths.iter().map(|&x| x as u64).product();
    (0..size).map(|n| check::coordinate(d, n)).filter(|c| c[dim] % l == 0).all(|start| {
        let run: Vec<Option<i64>> = (0..l)
            .take_while(|&i| start[dim] + i < lengths[dim])
            .map(|i| {
                let mut x = start.clone();
                x[dim] += i;
                d.offset_if_valid(&x)
            })
            .collect();
        if run.iter().all(Option::is_none) {
            return true;
        }
        let Some(offsets) = run.iter().copied().collect::<Option<Vec<i64>>>() else { return false };
        let step = s.unwrap_or(if offsets.len() > 1 { offsets[1] - offsets[0] } else { 0 });
        offsets.windows(2).all(|w| w[0].checked_add(step) == Some(w[1]))
    })
}

/// The issue's examples (34, class 2): a true claim of 6 was called false,
/// and a claimed stride was never checked.
#[test]
fn ck_vector_claims_are_judged_by_the_offsets_themselves() {
    let text = |spec: &str| cktile::render::text::report(&check::check(&cktile::spec::parse(spec).unwrap()).unwrap());
    let six = text("packed((6),6)");
    assert!(six.contains("CK's claim of 6 holds for these offsets"), "{six}");
    assert!(!six.contains("is false"), "{six}");
    // A claimed stride is checked: stride 2 claimed contiguous. A base refuses that guarantee when it
    // is built (the stride it guarantees must be its last stride); a claim handed to `claim_break` may
    // still say it.
    assert!(cktile::spec::parse("naive((4),(2),4,1)").is_err());
    assert!(!text("naive((4),(2),4,2)").contains("is false"));
    let d = cktile::spec::parse("naive((4),(2))").unwrap();
    let o = check::offsets(&d).unwrap();
    let b = check::claim_break(&d, &o, 0, cktile::Vector::new(4, 1)).unwrap();
    assert_eq!((b.first, b.second, b.offsets), (vec![0], vec![1], (Some(0), Some(2))));
    assert_eq!(check::claim_break(&d, &o, 0, cktile::Vector::new(4, 2)), None);
    // A false claim CK's own rule makes, through an xor, in the report.
    const XOR: &str = "packed((2,16),16) | transform(xor((2,16)) on [0,1] -> [0,1])";
    let xored = text(XOR);
    assert!(
        xored.contains(
            "CK's claim of 16 is false for these offsets: [1, 0] (offset 17) and [1, 1] (offset 16) lie in one \
             aligned run of 16 along dim 1, not 1 apart; the widest power-of-two vector contiguous everywhere is 1"
        ),
        "{xored}"
    );
    let json = |spec: &str| {
        let r = check::check(&cktile::spec::parse(spec).unwrap()).unwrap();
        serde_json::to_string(&cktile::json::CheckJson::new(&r)).unwrap()
    };
    assert!(json("packed((6),6)").contains(r#""ck_claim_holds":true"#));
    assert!(json(XOR).contains(r#""ck_claim_holds":false"#));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// `claim_break` (what `check` prints and its JSON's `ck_claim_holds`)
    /// equals the claim's definition checked run by run, for CK's own
    /// claims and for lengths 2, 3, 4, 6 and 8 with strides 1, 2 and none
    /// on every dimension; a break it names is a real one.
    #[test]
    fn claim_verdicts_are_their_definition(text in prop_oneof![spec_strategy(), vector_spec_strategy()]) {
        let d = cktile::spec::parse(&text).unwrap();
        let r = check::check(&d).unwrap();
        let o = check::offsets(&d).unwrap();
        for dim in 0..d.num_dims() {
            let mut claims = vec![r.vectors[dim]];
            for l in [2, 3, 4, 6, 8] {
                claims.extend([cktile::Vector::new(l, 1), cktile::Vector::new(l, 2), cktile::Vector { length: Some(l), stride: None }]);
            }
            for claim in claims {
                let found = check::claim_break(&d, &o, dim, claim);
                let holds = claim.length.is_none_or(|l| l < 2 || brute_claim_holds(&d, dim, l, claim.stride));
                prop_assert_eq!(found.is_none(), holds, "{} dim {} {:?}: {:?}", text, dim, claim, found);
                if let Some(b) = found {
                    let (a, c) = (d.offset_if_valid(&b.first), d.offset_if_valid(&b.second));
                    prop_assert_eq!((a, c), b.offsets);
                    prop_assert_eq!(b.second[dim], b.first[dim] + 1);
                }
            }
            prop_assert_eq!(r.claim_breaks[dim].is_none(), check::claim_break(&d, &o, dim, r.vectors[dim]).is_none());
        }
    }
}

/// Every catalogue family's example: CK's claim on each dimension, as
/// `check` judges it, equals its run-by-run definition (verdicts
/// recomputed by brute force over every family).
#[test]
fn catalogue_claims_are_judged_by_their_definition() {
    let mut judged = 0;
    for e in cktile::layouts::CATALOGUE {
        let d = cktile::layouts::resolve(e.example).unwrap_or_else(|err| panic!("{}: {err}", e.example));
        let (r, o) = (check::check(&d).unwrap(), check::offsets(&d).unwrap());
        for dim in 0..d.num_dims() {
            let claim = r.vectors[dim];
            let holds = claim.length.is_none_or(|l| l < 2 || brute_claim_holds(&d, dim, l, claim.stride));
            assert_eq!(r.claim_breaks[dim].is_none(), holds, "{} dim {dim} {claim:?}", e.example);
            assert_eq!(check::claim_break(&d, &o, dim, claim), r.claim_breaks[dim]);
            judged += 1;
        }
    }
    assert!(judged >= cktile::layouts::CATALOGUE.len(), "{judged}");
}
