//! An independent, executable spec of the transforms, written from CK
//! Tile's `coordinate_transform.hpp` (and CuTe's `Swizzle`) rather than from
//! cktile's `kinds` modules, the way pycute is a short spec of CuTe. Every
//! evaluator in cktile (scalar, batched, compiled, typed, generated code)
//! calls the same `kinds` formulas, so the differential tests catch wiring
//! but not a wrong formula; this file is the second opinion.
//!
//! The spec walks a descriptor's stages from the top coordinate down to the
//! offset, one item at a time, and keeps CK's validity: a pad family
//! transform is valid where the upper index lands inside the unpadded range.
//! On random chains of every kind it must give `calculate_offset` and
//! `coordinate_has_valid_offset` for every coordinate, padded ones included,
//! and so must each transform's lowering (the steps the compiled program,
//! the generated code and the interval analysis read), run as written here
//! and as compiled into a `Program`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::Descriptor;
use cktile::check::coordinate;
use cktile::random::chain::{ChainConfig, chain};
use cktile_transforms::kinds;
use cktile_transforms::{Kind, Params};

/// CuTe's `shiftr`: right for a positive shift, left for a negative one.
fn shiftr(v: i64, s: i32) -> i64 {
    if s >= 0 { v >> s } else { v << -s }
}

/// Row-major strides of `lengths`: the last dimension is fastest.
fn suffix_products(lengths: &[i64]) -> Vec<i64> {
    let mut strides = vec![1; lengths.len()];
    for i in (0..lengths.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * lengths[i + 1];
    }
    strides
}

/// One transform: its lower indices from its upper ones, and whether CK's
/// `is_valid_upper_index_mapped_to_valid_lower_index` holds.
fn apply(p: &Params, up: &[i64]) -> (Vec<i64>, bool) {
    match *p {
        Params::PassThrough(kinds::PassThroughParams { .. }) => (vec![up[0]], true),
        // pad_t: low = up - left; valid on [left, left + len).
        Params::Pad(kinds::PadParams { len, left, .. }) => (vec![up[0] - left], up[0] >= left && up[0] < left + len),
        Params::LeftPad(kinds::LeftPadParams { left, .. }) => (vec![up[0] - left], up[0] >= left),
        Params::RightPad(kinds::RightPadParams { len, .. }) => (vec![up[0]], up[0] < len),
        // embed: low = sum up[i] * coefficients[i].
        Params::Embed(kinds::EmbedParams { coefficients, .. }) => {
            (vec![up.iter().zip(coefficients.as_slice()).map(|(u, c)| u * c).sum()], true)
        }
        // merge: the row-major split of one upper index; the first lower index is not reduced.
        Params::Merge(kinds::MergeParams { lengths }) => {
            let l = lengths.as_slice();
            let strides = suffix_products(l);
            let low =
                (0..l.len()).map(|i| if i == 0 { up[0] / strides[0] } else { up[0] / strides[i] % l[i] }).collect();
            (low, true)
        }
        // unmerge: the row-major combination of the upper indices.
        Params::Unmerge(kinds::UnmergeParams { lengths }) => {
            let strides = suffix_products(lengths.as_slice());
            (vec![up.iter().zip(&strides).map(|(u, s)| u * s).sum()], true)
        }
        // xor_t (CK since 2024): low0 = up0, low1 = up1 ^ (up0 % L1).
        Params::Xor(kinds::XorParams { l1, .. }) => (vec![up[0], up[1] ^ (up[0] % l1)], true),
        // xor_t<_, ApplyModulo = false> (CK 2025): low0 = up0, low1 = up1 ^ up0.
        Params::XorNoModulo(kinds::XorNoModuloParams { .. }) => (vec![up[0], up[1] ^ up[0]], true),
        // cyclic_shift_t (CK 2025): low0 = up0, low1 = (up1 + up0) % L1.
        Params::CyclicShift(kinds::CyclicShiftParams { l1, .. }) => (vec![up[0], (up[1] + up[0]) % l1], true),
        Params::Slice(kinds::SliceParams { begin, .. }) => (vec![up[0] + begin], true),
        Params::Freeze(kinds::FreezeParams { index }) => (vec![index], true),
        Params::Insert(kinds::InsertParams { .. }) | Params::Replicate(kinds::ReplicateParams { .. }) => (vec![], true),
        Params::Offset(kinds::OffsetParams { offset, .. }) => (vec![up[0] + offset], true),
        Params::Modulo(kinds::ModuloParams { modulus, .. }) => (vec![up[0] % modulus], true),
        // indexing with indexing_adaptor_onshot_cached (CK 2025): the
        // cached index, whatever the upper index.
        Params::Indexing(kinds::IndexingParams { index, .. }) => (vec![index], true),
        // functor_transform: low = f(up), for the functors CK
        // writes (swap_warp_t's v ^ 1, permute_bits_5): input bit i of the
        // n low bits lands on bit targets[i], then the flip; higher bits stay.
        Params::Functor(kinds::FunctorParams { map, .. }) => {
            let n = map.targets().len();
            let moved: i64 = map.targets().iter().enumerate().map(|(i, &t)| ((up[0] >> i) & 1) << t).sum();
            (vec![(up[0] >> n << n) | (moved ^ map.flip())], true)
        }
        // CuTe Swizzle<B, M, S>: o ^ shiftr(o & (mask << (M + max(0, S))), S).
        Params::Swizzle(kinds::SwizzleParams { bits, base, shift, .. }) => {
            let mask = (1i64 << bits) - 1;
            let source = mask << (base as i32 + shift.max(0));
            (vec![up[0] ^ shiftr(up[0] & source, shift)], true)
        }
    }
}

/// The offset of `top` and whether every pad-family check on the way holds.
fn reference(d: &Descriptor, top: &[i64]) -> (i64, bool) {
    let mut level = top.to_vec();
    let mut valid = true;
    for stage in d.stages().iter().rev() {
        let mut lower = vec![0i64; stage.lower_lengths().len()];
        for item in stage.items() {
            let (up_ids, nu) = item.upper().to_array();
            let (low_ids, nl) = item.lower().to_array();
            let up: Vec<i64> = up_ids[..nu].iter().map(|&i| level[i]).collect();
            let (low, ok) = apply(&item.transform().params(), &up);
            assert_eq!(low.len(), nl, "{item:?}");
            for (&i, v) in low_ids[..nl].iter().zip(low) {
                lower[i] = v;
            }
            valid &= ok;
        }
        level = lower;
    }
    (level[0], valid)
}

/// The offset and validity by each item's lowering, run as written
/// ([`Lowering::lower`](cktile_transforms::lowering::Lowering::lower)).
fn by_lowerings(d: &Descriptor, top: &[i64]) -> (i64, bool) {
    let mut level = top.to_vec();
    let mut valid = true;
    for stage in d.stages().iter().rev() {
        let mut lower = vec![0; stage.lower_lengths().len()];
        for item in stage.items() {
            let (up_ids, nu) = item.upper().to_array();
            let up: Vec<i64> = up_ids[..nu].iter().map(|&i| level[i]).collect();
            let l = item.transform().lowering();
            valid &= l.is_valid(&up);
            let low = l.lower(&up);
            let (low_ids, nl) = item.lower().to_array();
            for (j, &i) in low_ids[..nl].iter().enumerate() {
                lower[i] = low[j];
            }
        }
        level = lower;
    }
    (level[0], valid)
}

#[test]
fn the_reference_spec_gives_every_offset_and_validity() {
    let config = ChainConfig::default();
    let (mut compared, mut padded) = (0u64, 0u64);
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..3000u64 {
        let d = chain(seed, &config);
        for stage in d.stages() {
            for item in stage.items() {
                kinds.insert(item.transform().kind().name());
            }
        }
        let total: u64 = d.lengths().as_slice().iter().map(|&l| l as u64).product();
        let program = cktile::Program::of(&d);
        for n in 0..total {
            let x = coordinate(&d, n);
            let (offset, valid) = reference(&d, &x);
            assert_eq!(d.calculate_offset(&x), offset, "seed {seed}: {d}: offset of {x:?}");
            assert_eq!(d.coordinate_has_valid_offset(&x), valid, "seed {seed}: {d}: validity of {x:?}");
            assert_eq!(by_lowerings(&d, &x), (offset, valid), "seed {seed}: {d}: lowerings at {x:?}");
            assert_eq!(program.calculate_offset(&x), offset, "seed {seed}: {d}: program's offset of {x:?}");
            assert_eq!(program.offset_if_valid(&x), valid.then_some(offset), "seed {seed}: {d}: program at {x:?}");
            padded += u64::from(!valid);
            compared += 1;
        }
    }
    // Every kind the generator knows was exercised.
    let all: std::collections::BTreeSet<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(kinds, all);
    // Sizes: over 140,000 coordinates, over 25,000 of them padded (148,235
    // and 33,865 before cyclic_shift joined the generator, 143,702 and
    // 26,814 with xor_no_modulo).
    assert!(compared > 140_000 && padded > 25_000, "{compared} {padded}");
}

/// The spec itself, on values worked by hand from CK's formulas.
#[test]
fn the_reference_spec_on_hand_worked_values() {
    use cktile_transforms::Transform;
    let at = |t: Transform, up: &[i64]| apply(&t.params(), up);
    assert_eq!(at(Transform::merge(&[4, 8]).unwrap(), &[13]), (vec![1, 5], true));
    assert_eq!(at(Transform::unmerge(&[4, 8]).unwrap(), &[1, 5]), (vec![13], true));
    assert_eq!(at(Transform::pad(10, 2, 3).unwrap(), &[1]), (vec![-1], false));
    assert_eq!(at(Transform::xor(4, 8).unwrap(), &[11, 5]), (vec![11, 5 ^ 3], true));
    // CK's factory test: cyclic_shift((8, 4)) maps (3, 2) to (3, (2 + 3) % 4).
    assert_eq!(at(Transform::cyclic_shift(8, 4).unwrap(), &[3, 2]), (vec![3, 1], true));
    // Swizzle<3,3,3> of offset 64 * 2 + 8 * 1: row 2 XORs chunk 1 into chunk 3.
    assert_eq!(at(Transform::swizzle(3, 3, 3).unwrap(), &[136]), (vec![128 + 8 * 3], true));
}
