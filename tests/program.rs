//! The fast runtime paths agree with the descriptor: a compiled
//! [`Program`](cktile::Program) gives its offsets and validity for every
//! coordinate, and an incremental move gives the fresh coordinate, on
//! random chains of every transform kind, the catalogue's examples, and
//! coordinates outside the lengths.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::random::chain::ChainConfig;
use cktile::{Descriptor, Index, make_tensor_coordinate, move_tensor_coordinate, spec, strategy};
use proptest::prelude::*;

/// The base of `d` alone, then with each of its stages in turn (`d` last).
fn prefixes(d: &Descriptor) -> Vec<Descriptor> {
    let mut prefix = spec::parse(&d.origin().to_string()).unwrap();
    let mut out = vec![prefix];
    for stage in d.transform_stages() {
        prefix = prefix.transform(stage.items()).unwrap();
        out.push(prefix);
    }
    assert_eq!(out.last(), Some(d));
    out
}

/// Every coordinate in range plus a margin of one outside each side.
fn coordinates(d: &Descriptor) -> Vec<Vec<Index>> {
    let lens = d.lengths();
    let mut out = vec![vec![]];
    for &l in lens.as_slice() {
        out = out.into_iter().flat_map(|c| (-1..=l).map(move |v| [c.clone(), vec![v]].concat())).collect();
        if out.len() > 20_000 {
            return out;
        }
    }
    out
}

/// Moving a coordinate one step along each dimension (both ways) gives the
/// fresh coordinate of the target, level by level.
fn assert_moves(d: &Descriptor) {
    let lens = d.lengths();
    for c in coordinates(d).into_iter().filter(|c| d.check_coordinate(c).is_ok()).take(3000) {
        for dim in 0..lens.len() {
            for delta in [-1, 1] {
                let mut target = c.clone();
                target[dim] += delta;
                if d.check_coordinate(&target).is_err() {
                    continue;
                }
                let mut step = vec![0; lens.len()];
                step[dim] = delta;
                let mut moved = make_tensor_coordinate(d, &c);
                let diff = move_tensor_coordinate(d, &mut moved, &step);
                let fresh = make_tensor_coordinate(d, &target);
                assert_eq!(moved, fresh, "{d}: {c:?} + {step:?}");
                assert_eq!(diff, fresh.offset().wrapping_sub(make_tensor_coordinate(d, &c).offset()));
            }
        }
    }
}

fn assert_same(d: &Descriptor) {
    assert_moves(d);
    let p = d.program();
    for c in coordinates(d) {
        let valid = d.coordinate_has_valid_offset(&c);
        assert_eq!(p.calculate_offset(&c), d.calculate_offset(&c), "{d} at {c:?}");
        assert_eq!(d.offset_if_valid(&c), valid.then(|| d.calculate_offset(&c)), "{d} at {c:?}");
        assert_eq!(p.offset_if_valid(&c), valid.then(|| d.calculate_offset(&c)), "{d} at {c:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The suite's random chains: every transform kind, one to five stages;
    /// every prefix of a chain (its base alone included) is checked too.
        #[test]
    fn program_matches_descriptor_on_random_chains(d in strategy::chain(ChainConfig::default().with_stages(1, 5))) {
        for prefix in prefixes(&d) {
            assert_same(&prefix);
        }
    }
}

#[test]
fn program_matches_descriptor_on_the_catalogue() {
    for e in cktile::layouts::CATALOG {
        let d = cktile::layouts::resolve(e.example).unwrap();
        assert_same(&d);
    }
}

#[test]
fn identities_compile_away() {
    let d = cktile::spec::parse(
        "packed((8192)) | transform(swizzle(3,3,3) on [0] -> [0]) | transform(unmerge((128,64)) on [0] -> [0,1])",
    )
    .unwrap();
    // packed((8192)) is a one-length unmerge: only the swizzle and the 2-D unmerge remain.
    assert_eq!(d.program().operations(), 2);
    assert_eq!(Descriptor::naive(&[4], &[1]).unwrap().program().operations(), 0);
}
