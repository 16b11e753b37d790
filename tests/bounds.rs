//! The interval analysis (`descriptor::bounds::value_range`, which chooses
//! the generated code's integer type and tells whether padded offsets fit)
//! restates every transform's formula over intervals. Here it is held to the
//! evaluator: over random chains of every kind, every value any coordinate
//! takes at any level of its trace (the top coordinate, each stage's lower
//! index, the offset) lies inside the range the analysis reports, and every
//! offset lies inside `[0, offset_reach]` when the analysis gives a reach
//! (what tile windows use to bound their loads' offsets). The forward
//! half alone (`forward_range`, a `const fn` that cktile-cubecl uses to
//! choose its index type at compile time) holds every traced value too, and
//! lies inside the whole range.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::check::{coordinate, trace};
use cktile::descriptor::bounds::{forward_range, offset_reach, value_range};
use cktile::random::chain::{ChainConfig, chain};

#[test]
fn every_traced_value_lies_inside_the_analysed_range() {
    let config = ChainConfig::default();
    let (mut traced, mut padded, mut tight) = (0u64, 0u64, 0u64);
    let (mut reached, mut reach_tight) = (0u64, 0u64);
    for seed in 0..3000u64 {
        let d = chain(seed, &config);
        let range = value_range(&d).unwrap_or_else(|e| panic!("seed {seed}: {d}: {e}"));
        let reach = offset_reach(&d);
        let forward = forward_range(&d);
        assert!(
            range.low <= forward.0 && forward.1 <= range.high,
            "seed {seed}: {d}: forward range {forward:?} outside [{}, {}]",
            range.low,
            range.high
        );
        let mut largest = i64::MIN;
        let total: u64 = d.lengths().as_slice().iter().map(|&l| l as u64).product();
        let (mut low, mut high) = (i128::MAX, i128::MIN);
        for n in 0..total {
            let x = coordinate(&d, n);
            let t = trace(&d, &x).unwrap_or_else(|e| panic!("seed {seed}: {d}: {x:?}: {e}"));
            padded += u64::from(!t.valid);
            if let Some(r) = reach {
                assert!(
                    (0..=r).contains(&t.offset),
                    "seed {seed}: {d}: coordinate {x:?} has offset {}, outside [0, {r}]",
                    t.offset
                );
            }
            largest = largest.max(t.offset);
            for &v in t.levels.iter().flatten().chain([&t.offset]) {
                let v = i128::from(v);
                assert!(
                    (forward.0..=forward.1).contains(&v),
                    "seed {seed}: {d}: coordinate {x:?} reaches {v}, outside the forward range {forward:?}"
                );
                assert!(
                    (range.low..=range.high).contains(&v),
                    "seed {seed}: {d}: coordinate {x:?} reaches {v}, outside [{}, {}]",
                    range.low,
                    range.high
                );
                (low, high) = (low.min(v), high.max(v));
            }
            traced += 1;
        }
        // The analysis also counts literals and lengths, so it may be wider;
        // count the chains where the traced values reach both ends.
        tight += u64::from(low == range.low && high == range.high);
        reached += u64::from(reach.is_some());
        reach_tight += u64::from(reach == Some(largest));
    }
    // Sizes, taken once: 3000 chains, over 140,000 coordinates (over 30,000
    // padded), and 204 chains whose traced values reach both ends of the
    // range. (The range also holds the inverse's intermediate values, which
    // a forward trace does not take: a cyclic shift's inverse adds its
    // length before its remainder.) The bounds leave room for a new kind
    // in the list, which draws its share of the chains
    // (`scripts/scratch-kind.sh`: with a 17th kind, 176 tight chains).
    assert!(traced > 120_000, "{traced}");
    assert!(padded > 25_000, "{padded}");
    assert!(tight > 150, "{tight}");
    // Chains with a reach (no offset may be negative): 2,564 of the 3,000,
    // 2,460 of them with an offset at their reach (taken once; room left
    // for a new kind, as above).
    assert!(reached > 2000, "{reached}");
    assert!(reach_tight > 1900, "{reach_tight}");
}

/// The inverse's own intermediate values count: a cyclic shift's inverse
/// adds its length before the remainder, so `(low1 + L1 - low0 % L1) % L1`
/// reaches `2 * L1 - 1` although every coordinate and offset stays below
/// `L1`. With `L1 = 2^30 + 1` that leaves `std::int32_t`, and the generated
/// inverse must be 64-bit.
#[test]
fn the_inverse_steps_are_analysed_too() {
    use cktile::codegen::IndexType;
    let l1 = (1i64 << 30) + 1;
    let d = cktile::spec::parse(&format!("packed((1,{l1})) | transform(cyclic_shift((1,{l1})) on [0,1] -> [0,1])"))
        .unwrap();
    let range = value_range(&d).unwrap();
    assert_eq!(d.element_space_size(), l1);
    assert!(range.high >= i128::from(2 * l1 - 1), "{range:?}");
    assert_eq!(range.index_type, IndexType::I64);
    // The forward walk alone stays inside 32 bits (the same chain without
    // an inverse to run: a modulo has none).
    let forward_only = cktile::spec::parse(&format!(
        "packed((1,{l1})) | transform(pass_through(1) on [0] -> [0], modulo({l1},{l1}) on [1] -> [1])"
    ))
    .unwrap();
    assert_eq!(value_range(&forward_only).unwrap().index_type, IndexType::I32);
}
