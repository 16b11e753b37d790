//! The fast runtime paths agree with the descriptor: a compiled
//! [`Program`](cktile::Program) gives its offsets and validity for every
//! coordinate, and an incremental move gives the fresh coordinate, on
//! random chains of every transform kind, the catalogue's examples, and
//! coordinates outside the lengths.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::{Descriptor, Index, Item, Transform, make_tensor_coordinate, move_tensor_coordinate};
use proptest::prelude::*;

mod common;
use common::Rng;

/// A random base of 1 to 3 dimensions.
fn base(rng: &mut Rng) -> Option<Descriptor> {
    let n = 1 + rng.below(3);
    let lens: Vec<usize> = (0..n).map(|_| [1, 2, 3, 4, 6, 8][rng.below(6)]).collect();
    match rng.below(4) {
        0 => Descriptor::packed(&lens).ok(),
        1 => {
            let strides: Vec<usize> = (0..n).map(|_| rng.below(20)).collect();
            Descriptor::naive(&lens, &strides).ok()
        }
        2 => Descriptor::aligned(&lens, 1 + rng.below(8)).ok(),
        _ => Descriptor::naive_with_offset(&lens, &vec![1; n], rng.below(5)).ok(),
    }
}

/// One random item over the dimensions `free` (removed as they are used);
/// returns the item's transform and lower ids.
fn item(lens: &[i64], free: &mut Vec<usize>, rng: &mut Rng) -> (Transform, Vec<usize>) {
    let a = free.remove(rng.below(free.len()));
    let la = lens[a] as usize;
    let pt = || (Transform::pass_through(la).unwrap(), vec![a]);
    let t = match rng.below(14) {
        0 if !free.is_empty() => {
            let b = free.remove(rng.below(free.len()));
            return (Transform::merge(&[la, lens[b] as usize]).unwrap(), vec![a, b]);
        }
        1 if !free.is_empty() && lens[free[0]].count_ones() == 1 => {
            let b = free.remove(0);
            return (Transform::xor(la, lens[b] as usize).unwrap(), vec![a, b]);
        }
        2 => match (2..la).find(|p| la % p == 0) {
            Some(p) => Transform::unmerge(&[p, la / p]),
            None => Transform::unmerge(&[la]),
        },
        3 => Transform::pad(la, rng.below(3), rng.below(3)),
        4 => Transform::left_pad(la, rng.below(3)),
        5 => Transform::right_pad(la, rng.below(3)),
        6 => Transform::embed(&[2, 1 + rng.below(3)], &[rng.below(la), 0]),
        7 => {
            let b = rng.below(la);
            Transform::slice(la, b, b + 1 + rng.below(la - b))
        }
        8 => Transform::freeze(rng.below(la)),
        9 => Transform::modulo(la, 1 + rng.below(12)),
        10 => {
            let off = rng.below(la);
            Transform::offset(1 + rng.below(la - off), off)
        }
        11 if la.is_power_of_two() && la >= 4 => Transform::swizzle_with_len(la, 1, 0, 1 + rng.below(2) as i32),
        12 => Transform::embed(&[la], &[1]),
        _ => return pt(),
    };
    match t {
        Ok(t) => (t, vec![a]),
        Err(_) => pt(),
    }
}

/// A random stage on `d`, or `None` when the random choice is not valid.
fn stage(d: &Descriptor, rng: &mut Rng) -> Option<Descriptor> {
    let lens = d.lengths();
    let mut free: Vec<usize> = (0..lens.len()).collect();
    let mut planned = Vec::new();
    let mut n_upper = 0;
    while !free.is_empty() {
        let (t, lower) = item(lens.as_slice(), &mut free, rng);
        n_upper += t.num_upper();
        planned.push((t, lower));
    }
    if rng.below(4) == 0 {
        planned.push((Transform::insert(1 + rng.below(3)).unwrap(), vec![]));
        n_upper += 1;
    }
    let mut ids: Vec<usize> = (0..n_upper).collect();
    for i in (1..ids.len()).rev() {
        ids.swap(i, rng.below(i + 1));
    }
    let mut next = 0;
    let mut items = Vec::new();
    for (t, lower) in planned {
        let upper = &ids[next..next + t.num_upper()];
        next += t.num_upper();
        items.push(Item::new(t, &lower, upper).ok()?);
    }
    d.transform(&items).ok()
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

    #[test]
    fn program_matches_descriptor_on_random_chains(seed in any::<u64>(), stages in 1usize..=5) {
        let mut rng = Rng(seed);
        if let Some(mut d) = base(&mut rng) {
            assert_same(&d);
            for _ in 0..stages {
                if let Some(next) = stage(&d, &mut rng) {
                    d = next;
                    assert_same(&d);
                }
            }
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
