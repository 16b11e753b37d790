//! The property checks (`cktile::check::{is_bijective, ...}`) and the
//! strategies (`cktile::strategy`): every check passes on the catalogue's
//! layouts and random chains where the property holds, catches a
//! deliberately broken layout with a readable counterexample (asserted
//! word for word), and the chain generator makes every transform kind.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::check::{self, Checker, Counterexample};
use cktile::layouts::{self, CATALOGUE, Domain};
use cktile::random::chain::{ChainConfig, chain};
use cktile::transforms::Kind;
use cktile::{Descriptor, Index, strategy};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// CK Tile's GEMM A LDS block (M=128, K=64, KPack=8, MLdsLayer 1) with the
/// row stride given: 64 is CK's, 32 is a bug (rows overlap).
fn gemm_a(row_stride: usize) -> Descriptor {
    cktile::spec::parse(&format!(
        "naive((8,128,8),(8,{row_stride},1))
         | transform(xor((128,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2])
         | transform(pass_through(128) on [1] -> [0], merge((8,8)) on [0,2] -> [1])"
    ))
    .unwrap()
}

/// The closed form of [`gemm_a`]`(64)`.
fn gemm_a_offset(c: &[Index]) -> Index {
    let (m, k) = (c[0], c[1]);
    64 * m + 8 * ((k / 8) ^ (m % 8)) + k % 8
}

#[test]
fn the_real_layout_has_every_property() {
    let d = gemm_a(64);
    assert_eq!(check::is_bijective(&d), Ok(()));
    assert_eq!(check::round_trips(&d), Ok(()));
    assert_eq!(check::offsets_equal(&d, gemm_a_offset), Ok(()));
    // Sampled, the same answers.
    let sampled = Checker::new().samples(500).seed(3);
    assert!(!sampled.is_exhaustive(&d));
    assert_eq!(sampled.is_bijective(&d), Ok(()));
    assert_eq!(sampled.round_trips(&d), Ok(()));
    assert_eq!(sampled.offsets_equal(&d, gemm_a_offset), Ok(()));
}

#[test]
fn a_collision_names_both_coordinates_the_offset_and_where_they_meet() {
    let broken = gemm_a(32);
    let e = check::is_injective(&broken).unwrap_err();
    assert_eq!(
        e.to_string(),
        "not injective: coordinates [0, 32] and [1, 8] both have offset 32; they first meet at level 3 ([32]), \
         in the base `naive((8,128,8),(8,32,1))`"
    );
    // The same counterexample from is_bijective.
    assert_eq!(check::is_bijective(&broken), Err(e.clone()));
    let Counterexample::Collision { first, second, offset, .. } = e else { panic!("{e:?}") };
    assert_eq!((broken.calculate_offset(&first), broken.calculate_offset(&second)), (offset, offset));
    // Sampled: found through the samples or the inverse, and still a real collision.
    let sampled = Checker::new().samples(200).is_injective(&broken).unwrap_err();
    let Counterexample::Collision { first, second, offset, meet } = &sampled else { panic!("{sampled:?}") };
    assert_ne!(first, second);
    assert_eq!((broken.calculate_offset(first), broken.calculate_offset(second)), (*offset, *offset));
    assert!(sampled.to_string().starts_with("not injective: coordinates "), "{sampled}");
    assert_eq!(meet.level, check::property::meet(&broken, first, second).level);
}

#[test]
fn collisions_meet_at_the_stage_that_makes_them_equal() {
    // Rows wrapped by a modulo: rows 0 and 8 share their offsets, and the
    // stage that makes them equal is the modulo's, not the base.
    let d = cktile::spec::parse("packed((8,8)) | transform(modulo(8,16) on [0] -> [0], pass_through(8) on [1] -> [1])")
        .unwrap();
    let e = check::is_injective(&d).unwrap_err();
    assert_eq!(
        e.to_string(),
        "not injective: coordinates [0, 0] and [8, 0] both have offset 0; they first meet at level 1 ([0, 0]), \
         in transform(modulo(8,16) on [0] -> [0], pass_through(8) on [1] -> [1])"
    );
}

#[test]
fn a_hole_is_named_with_the_count() {
    let padded = layouts::resolve("row-padded:rows=8,cols=16,pad=4").unwrap();
    assert_eq!(check::is_injective(&padded), Ok(()));
    let e = check::is_surjective(&padded).unwrap_err();
    assert_eq!(e.to_string(), "not surjective: offset 16 of [0, 156) is a hole: no valid coordinate has it (28 holes)");
    assert_eq!(check::is_bijective(&padded), Err(e));
    // Sampled: the inverse finds no coordinate for a hole.
    let big = layouts::resolve("row-padded:rows=256,cols=256,pad=8").unwrap();
    let e = Checker::new().samples(1000).is_surjective(&big).unwrap_err();
    let Counterexample::Hole { offset, count: None, .. } = e else { panic!("{e:?}") };
    assert!(offset % 264 >= 256, "{offset} is not in a row's padding");
    assert!(e.to_string().ends_with("calculate_top_index finds no coordinate for it (sampled)"), "{e}");
}

#[test]
fn an_offset_outside_the_element_space_is_named() {
    // The shift of naive_with_offset is not part of the element space.
    let shifted = Descriptor::naive_with_offset(&[4], &[1], 2).unwrap();
    assert_eq!(
        check::is_bijective(&shifted).unwrap_err().to_string(),
        "coordinate [2] has offset 4, outside the element space [0, 4)"
    );
}

#[test]
fn collisions_outside_the_element_space_count() {
    // Every offset is shifted past the element space [0, 3); two coordinates still share one.
    let d = Descriptor::naive_with_offset(&[2, 2], &[1, 1], 10).unwrap();
    let report = check::check(&d).unwrap();
    assert!(!report.injective);
    assert_eq!((report.collision_count, report.outside_count), (1, 4));
    assert_eq!(
        check::is_injective(&d).unwrap_err().to_string(),
        "not injective: coordinates [0, 1] and [1, 0] both have offset 11; they first meet at level 1 ([1]), \
         in the base `naive_with_offset((2,2),(1,1),10)`"
    );
}

#[test]
fn a_broken_inverse_is_named() {
    // freeze has no inverse: every offset's top index is unknown.
    let frozen =
        cktile::spec::parse("packed((4,8)) | transform(freeze(2) on [0] -> [], pass_through(8) on [1] -> [0])")
            .unwrap();
    assert_eq!(check::is_injective(&frozen), Ok(()));
    assert_eq!(
        check::round_trips(&frozen).unwrap_err().to_string(),
        "the inverse does not round-trip: coordinate [0] has offset 16, and calculate_top_index(16) finds no coordinate"
    );
    // Above the sample count, holes cannot be looked for without the inverse.
    let big =
        cktile::spec::parse("packed((4,4096)) | transform(freeze(0) on [0] -> [], pass_through(4096) on [1] -> [0])")
            .unwrap();
    let e = Checker::new().samples(100).seed(1).is_surjective(&big).unwrap_err();
    let Counterexample::NoInverse { coordinate, offset, element_size: 4096 } = &e else { panic!("{e:?}") };
    assert_eq!(big.calculate_offset(coordinate), *offset);
    let text = e.to_string();
    assert!(text.starts_with(&format!("cannot look for holes by sampling: calculate_top_index({offset}) finds no coordinate, yet {coordinate:?} has that offset")), "{text}");
    assert!(text.ends_with("(a transform without an inverse); raise the sample count to 4096 to enumerate"), "{text}");
}

#[test]
fn a_wrong_closed_form_is_named() {
    // Forgetting the XOR: the layout is CK's, the closed form is not.
    let d = gemm_a(64);
    let e = check::offsets_equal(&d, |c| 64 * c[0] + c[1]).unwrap_err();
    assert_eq!(e.to_string(), "coordinate [1, 0] has offset 72; the closed form gives 64");
}

#[test]
fn typed_and_runtime_descriptors_are_checked_alike() {
    use cktile::prelude::*;
    let typed = make_naive_tensor_descriptor((Number::<4>, Number::<8>), (Number::<4>, Number::<1>)).unwrap();
    let runtime = Descriptor::naive(&[4, 8], &[4, 1]).unwrap();
    assert_eq!(check::is_injective(&typed.descriptor()), check::is_injective(&runtime));
    assert!(check::is_injective(&typed.descriptor()).is_err());
    // The typed inverse is the runtime one.
    let packed = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
    for o in 0..32 {
        let back = packed.calculate_top_index(o).unwrap();
        assert_eq!(back.as_slice(), packed.descriptor().calculate_top_index(o).unwrap().as_slice());
        assert_eq!(packed.calculate_offset(back), o);
    }
}

#[test]
fn the_chain_generator_makes_every_kind() {
    // All kinds together, and each kind alone.
    let config = ChainConfig::default();
    let kinds_of = |config: &ChainConfig, seeds: std::ops::Range<u64>| -> BTreeSet<&'static str> {
        seeds
            .flat_map(|s| {
                let d = chain(s, config);
                d.transform_stages()
                    .iter()
                    .flat_map(|st| st.items().iter().map(|i| i.transform().kind().name()))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let all = kinds_of(&config, 0..300);
    for kind in Kind::ALL {
        assert!(all.contains(kind.name()), "no chain uses {}", kind.name());
        let alone = kinds_of(&config.clone().with_kinds(&[kind]), 0..50);
        assert!(alone.contains(kind.name()), "a chain of {} alone never uses it: {alone:?}", kind.name());
    }
}

#[test]
fn every_word_of_a_domain_builds() {
    // The domains' words are what the builders accept: each, in the entry's example.
    for e in CATALOGUE {
        for p in e.params {
            let Domain::Words(words) = p.domain else { continue };
            for w in words {
                let (name, params) = e.example.split_once(':').unwrap();
                let mut pairs: Vec<String> = params
                    .split(',')
                    .filter(|kv| !kv.starts_with(&format!("{}=", p.name)))
                    .map(str::to_string)
                    .collect();
                pairs.push(format!("{}={w}", p.name));
                let text = format!("{name}:{}", pairs.join(","));
                // A word may break a cross-parameter rule of the example (e.g. dtype and kpack);
                // it must never be an unknown value.
                if let Err(err) = layouts::resolve(&text) {
                    assert!(
                        !matches!(err.kind(), cktile::ErrorKind::Spec(cktile::SpecProblem::NumberRange { .. })),
                        "{text}: {err}"
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A family test over every catalogue entry's parameters.
    #[test]
    fn catalogue_members_have_their_documented_property(m in strategy::catalogue(1 << 12)) {
        let entry = CATALOGUE.iter().find(|e| m.text.starts_with(&format!("{}:", e.name))).unwrap();
        if entry.bijective {
            prop_assert_eq!(check::is_bijective(&m), Ok(()), "{:?}", m);
        } else {
            prop_assert_eq!(check::is_injective(&m), Ok(()), "{:?}", m);
        }
    }

    #[test]
    fn coordinates_lie_inside_or_outside_as_asked(
        (d, inside, outside, anywhere, o) in strategy::chain(ChainConfig::default()).prop_flat_map(|d| (
            Just(d),
            strategy::coordinate(&d),
            strategy::coordinate_outside(&d),
            strategy::any_coordinate(&d),
            strategy::offset(&d),
        ))
    ) {
        prop_assert!(d.check_coordinate(&inside).is_ok());
        prop_assert!(d.check_coordinate(&outside).is_err());
        prop_assert!(!d.coordinate_has_valid_offset(&outside));
        let lens = d.lengths();
        prop_assert!(anywhere.iter().zip(lens.as_slice()).all(|(&c, &l)| -l <= c && c < 2 * l));
        prop_assert!((0..d.element_space_size()).contains(&o));
    }

    /// Exhaustive and sampled checks agree where the sample finds the counterexample.
    #[test]
    fn sampled_checks_never_report_a_false_collision(d in strategy::chain(ChainConfig::default())) {
        if let Err(Counterexample::Collision { first, second, offset, .. }) = Checker::new().samples(64).is_injective(&d) {
            prop_assert_ne!(&first, &second);
            prop_assert_eq!(d.offset_if_valid(&first), Some(offset));
            prop_assert_eq!(d.offset_if_valid(&second), Some(offset));
            prop_assert!(check::is_injective(&d).is_err(), "{} {:?} {:?} {}", d, first, second, offset);
        }
    }
}
