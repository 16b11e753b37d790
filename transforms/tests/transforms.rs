//! Every transform through the public `Transform` API: CK Tile's own unit-test
//! values, the bijection / involution properties of xor and swizzle, inverses,
//! incremental updates against recomputation, validation errors and the typed
//! (static) forms against the runtime constructors.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile_transforms::kinds::functor::BitPermute;
use cktile_transforms::typed::*;
use cktile_transforms::{Arg, Dims, Error, Index, Indices, Kind, MAX_DIMS, Number, ParamShape, Transform, Vector};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A full index array from its first entries.
fn idx(values: &[Index]) -> Indices {
    let mut out = [0; MAX_DIMS];
    out[..values.len()].copy_from_slice(values);
    out
}

fn lower(t: &Transform, up: &[Index]) -> Vec<Index> {
    t.calculate_lower(&idx(up))[..t.num_lower()].to_vec()
}

fn upper_of(t: &Transform, low: &[Index]) -> Option<Vec<Index>> {
    t.calculate_upper(&idx(low)).map(|u| u[..t.num_upper()].to_vec())
}

fn valid(t: &Transform, up: Index) -> bool {
    t.is_valid_upper(&idx(&[up]))
}

fn dims(values: &[Index]) -> Dims {
    Dims::from_slice(values).unwrap()
}

/// Every upper index of `t` in row-major order.
fn all_upper(t: &Transform) -> Vec<Vec<Index>> {
    let lens = t.upper_lengths();
    let mut out = vec![vec![]];
    for &len in lens.as_slice() {
        out = out.into_iter().flat_map(|p| (0..len).map(move |i| [p.clone(), vec![i]].concat())).collect();
    }
    out
}

// ---------------------------------------------------------------------------
// CK Tile's unit-test values (test/ck_tile/coordinate_transform).
// ---------------------------------------------------------------------------

#[test]
fn ck_merge_4_5() {
    let m = Transform::merge(&[4, 5]).unwrap();
    assert_eq!(lower(&m, &[7]), vec![1, 2]);
    assert_eq!(m.upper_lengths().as_slice(), &[20]);
    assert_eq!((m.num_lower(), m.num_upper()), (2, 1));
}

#[test]
fn ck_merge_2_3_4() {
    let m = Transform::merge(&[2, 3, 4]).unwrap();
    assert_eq!(lower(&m, &[23]), vec![1, 2, 3]);
    assert_eq!(lower(&m, &[6]), vec![0, 1, 2]);
    assert_eq!(lower(&m, &[0]), vec![0, 0, 0]);
    assert_eq!(m.upper_lengths().as_slice(), &[24]);
}

#[test]
fn merge_does_not_wrap_the_first_lower_index() {
    // CK Tile: low[0] is not reduced modulo low_lens[0].
    let m = Transform::merge(&[2, 3]).unwrap();
    assert_eq!(lower(&m, &[7]), vec![2, 1]);
}

#[test]
fn ck_pad_10_2_3() {
    let p = Transform::pad(10, 2, 3).unwrap();
    assert_eq!(p.upper_lengths().as_slice(), &[15]);
    assert_eq!(lower(&p, &[2]), vec![0]);
    assert_eq!(lower(&p, &[11]), vec![9]);
    // Padded positions still have (out-of-range) offsets.
    assert_eq!(lower(&p, &[0]), vec![-2]);
    assert_eq!(lower(&p, &[14]), vec![12]);
    let valid_ups: Vec<Index> = (-3..18).filter(|&u| valid(&p, u)).collect();
    assert_eq!(valid_ups, (2..=11).collect::<Vec<_>>());
    assert!(!p.is_always_valid());
}

#[test]
fn left_and_right_pad_validity() {
    let l = Transform::left_pad(4, 3).unwrap();
    assert_eq!(l.upper_lengths().as_slice(), &[7]);
    assert_eq!(lower(&l, &[3]), vec![0]);
    assert_eq!((0..7).filter(|&u| valid(&l, u)).collect::<Vec<_>>(), vec![3, 4, 5, 6]);
    let r = Transform::right_pad(4, 3).unwrap();
    assert_eq!(r.upper_lengths().as_slice(), &[7]);
    assert_eq!(lower(&r, &[5]), vec![5]);
    assert_eq!((0..7).filter(|&u| valid(&r, u)).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    assert!(!l.is_always_valid() && !r.is_always_valid());
}

#[test]
fn ck_embed_4_5_coefs_2_3() {
    let e = Transform::embed(&[4, 5], &[2, 3]).unwrap();
    assert_eq!(lower(&e, &[2, 2]), vec![10]);
    assert_eq!(e.upper_lengths().as_slice(), &[4, 5]);
    assert_eq!((e.num_lower(), e.num_upper()), (1, 2));
    // Every upper index: 2*u0 + 3*u1.
    for u in all_upper(&e) {
        assert_eq!(lower(&e, &u), vec![2 * u[0] + 3 * u[1]]);
    }
}

#[test]
fn simple_forward_formulas() {
    let pt = Transform::pass_through(8).unwrap();
    let sl = Transform::slice(10, 3, 7).unwrap();
    let of = Transform::offset(16, 100).unwrap();
    let mo = Transform::modulo(8, 32).unwrap();
    let fr = Transform::freeze(5).unwrap();
    let un = Transform::unmerge(&[2, 3, 4]).unwrap();
    assert_eq!(sl.upper_lengths().as_slice(), &[4]);
    for u in 0..32 {
        assert_eq!(lower(&mo, &[u]), vec![u % 8]);
        if u < 8 {
            assert_eq!(lower(&pt, &[u]), vec![u]);
        }
        if u < 4 {
            assert_eq!(lower(&sl, &[u]), vec![u + 3]);
        }
        if u < 16 {
            assert_eq!(lower(&of, &[u]), vec![u + 100]);
        }
    }
    assert_eq!(lower(&fr, &[]), vec![5]);
    assert_eq!((fr.num_lower(), fr.num_upper()), (1, 0));
    for u in all_upper(&un) {
        assert_eq!(lower(&un, &u), vec![12 * u[0] + 4 * u[1] + u[2]]);
    }
    let ins = Transform::insert(4).unwrap();
    let rep = Transform::replicate(&[2, 3]).unwrap();
    assert_eq!((ins.num_lower(), ins.num_upper()), (0, 1));
    assert_eq!((rep.num_lower(), rep.num_upper()), (0, 2));
    assert_eq!(rep.upper_lengths().as_slice(), &[2, 3]);
}

// ---------------------------------------------------------------------------
// xor and swizzle: involutions and bijections.
// ---------------------------------------------------------------------------

#[test]
fn xor_is_an_involutive_bijection_for_power_of_two_l1() {
    for l1 in [1i64, 2, 4, 8, 16] {
        for l0 in 1i64..=20 {
            let x = Transform::xor(l0 as usize, l1 as usize).unwrap();
            assert_eq!(x.upper_lengths().as_slice(), &[l0, l1]);
            let mut seen = BTreeSet::new();
            for u0 in 0..l0 {
                for u1 in 0..l1 {
                    let low = x.calculate_lower(&idx(&[u0, u1]));
                    assert_eq!(low[0], u0);
                    assert_eq!(low[1], u1 ^ (u0 % l1), "xor(({l0},{l1})) at ({u0},{u1})");
                    assert!((0..l1).contains(&low[1]));
                    assert!(seen.insert((low[0], low[1])));
                    assert_eq!(&x.calculate_lower(&low)[..2], &[u0, u1], "involution");
                }
            }
            assert_eq!(seen.len() as i64, l0 * l1, "bijection onto [0,L0)x[0,L1)");
        }
    }
}

#[test]
fn ck_xor_packed_8x8_rows() {
    // CONFIRMED on CK Tile: offset(r, c) = 8r + (c ^ r) on a packed 8x8.
    let x = Transform::xor(8, 8).unwrap();
    let rows: Vec<Vec<Index>> =
        (0..4).map(|r| (0..8).map(|c| 8 * r + x.calculate_lower(&idx(&[r, c]))[1]).collect()).collect();
    assert_eq!(rows[0], vec![0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(rows[1], vec![9, 8, 11, 10, 13, 12, 15, 14]);
    assert_eq!(rows[2], vec![18, 19, 16, 17, 22, 23, 20, 21]);
    assert_eq!(rows[3], vec![27, 26, 25, 24, 31, 30, 29, 28]);
    let x4 = Transform::xor(8, 4).unwrap();
    let row1: Vec<Index> = (0..4).map(|c| 4 + x4.calculate_lower(&idx(&[1, c]))[1]).collect();
    assert_eq!(row1, vec![5, 4, 7, 6]);
}

/// Swizzle parameters (B, M, S) with `|S| >= B`, and a length that is a
/// multiple of the block the swizzle permutes.
fn swizzle_params() -> impl Strategy<Value = (u32, u32, i32, usize)> {
    (0u32..4, 0u32..4, 0i32..=5, any::<bool>(), 1usize..=3).prop_filter_map("|S| >= B", |(b, m, s_abs, negative, k)| {
        if (s_abs as u32) < b {
            return None;
        }
        let s = if negative { -s_abs } else { s_abs };
        let block_bits = if b == 0 {
            0
        } else if s >= 0 {
            m + b
        } else {
            m + s_abs as u32 + b
        };
        Some((b, m, s, k << block_bits))
    })
}

/// CuTe's `Swizzle<B, M, S>::apply`, written independently.
fn cute_swizzle(o: Index, b: u32, m: u32, s: i32) -> Index {
    let mask = (1i64 << b) - 1;
    if s >= 0 { o ^ (((o >> (m + s as u32)) & mask) << m) } else { o ^ (((o >> m) & mask) << (m + s.unsigned_abs())) }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn swizzle_is_an_involutive_bijection((b, m, s, len) in swizzle_params()) {
        let t = Transform::swizzle_with_len(len, b, m, s).unwrap();
        prop_assert_eq!(t.upper_lengths(), Dims::from_slice(&[len as Index]).unwrap());
        let len = len as Index;
        let mut image: Vec<Index> = Vec::with_capacity(len as usize);
        for o in 0..len {
            let low = t.calculate_lower(&idx(&[o]))[0];
            prop_assert_eq!(low, cute_swizzle(o, b, m, s), "CuTe's closed form at {}", o);
            if s > 0 {
                prop_assert_eq!(low, o ^ (((o >> (m + s as u32)) & ((1 << b) - 1)) << m));
            }
            prop_assert_eq!(t.calculate_lower(&idx(&[low]))[0], o, "involution at {}", o);
            prop_assert_eq!(upper_of(&t, &[low]), Some(vec![o]));
            image.push(low);
        }
        image.sort_unstable();
        prop_assert_eq!(image, (0..len).collect::<Vec<_>>(), "bijection onto [0, len)");
    }

    #[test]
    fn swizzle_rejects_a_length_that_is_not_a_multiple_of_the_block(
        (b, m, s, len) in swizzle_params(), extra in 1usize..64,
    ) {
        let block_bits = if b == 0 { 0 } else if s >= 0 { m + b } else { m + s.unsigned_abs() + b };
        let block = 1usize << block_bits;
        let bad = len + (extra % block);
        if !bad.is_multiple_of(block) {
            prop_assert_eq!(
                Transform::swizzle_with_len(bad, b, m, s),
                Err(Error::SwizzleLength { len: bad as Index, block: block as Index })
            );
        } else {
            prop_assert!(Transform::swizzle_with_len(bad, b, m, s).is_ok());
        }
    }
}

#[test]
fn swizzle_3_3_3_matches_the_gemm_lds_xor() {
    // Swizzle<3,3,3> over (128, 64):(64, 1) is 64*m + 8*((k/8) ^ (m%8)) + k%8.
    let t = Transform::swizzle_with_len(128 * 64, 3, 3, 3).unwrap();
    for m in 0..128 {
        for k in 0..64 {
            let o = 64 * m + k;
            assert_eq!(t.calculate_lower(&idx(&[o]))[0], 64 * m + 8 * ((k / 8) ^ (m % 8)) + k % 8);
        }
    }
}

// ---------------------------------------------------------------------------
// merge / unmerge round trips.
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn merge_then_unmerge_round_trips(lens in prop::collection::vec(1usize..=9, 1..=4)) {
        let merge = Transform::merge(&lens).unwrap();
        let unmerge = Transform::unmerge(&lens).unwrap();
        let total: Index = lens.iter().product::<usize>() as Index;
        prop_assert_eq!(merge.upper_lengths(), Dims::from_slice(&[total]).unwrap());
        prop_assert_eq!(unmerge.upper_lengths(), Dims::from_usizes(&lens).unwrap());
        let n = lens.len();
        for u in 0..total {
            let low = merge.calculate_lower(&idx(&[u]));
            // Each lower index is inside its length, and the decomposition is row-major.
            let mut rebuilt = 0;
            for i in 0..n {
                prop_assert!((0..lens[i] as Index).contains(&low[i]));
                rebuilt = rebuilt * lens[i] as Index + low[i];
            }
            prop_assert_eq!(rebuilt, u);
            prop_assert_eq!(unmerge.calculate_lower(&low)[0], u);
            prop_assert_eq!(merge.calculate_upper(&low).map(|x| x[0]), Some(u));
            let back = unmerge.calculate_upper(&idx(&[u])).unwrap();
            prop_assert_eq!(&back[..n], &low[..n]);
            prop_assert_eq!(merge.calculate_lower(&unmerge.calculate_lower(&low)), low);
        }
    }
}

// ---------------------------------------------------------------------------
// Random transforms.
// ---------------------------------------------------------------------------

/// Non-overlapping embed: coefficients built radix-style (each larger than
/// everything the smaller ones reach), with random padding, then assigned to
/// dimensions in a random order.
fn radix_embed() -> impl Strategy<Value = Transform> {
    prop::collection::vec((1usize..=5, 0usize..=3), 1..=4)
        .prop_flat_map(|spec| {
            let n = spec.len();
            (Just(spec), Just((0..n).collect::<Vec<_>>()).prop_shuffle())
        })
        .prop_map(|(spec, order)| {
            let n = spec.len();
            let mut lens = vec![0; n];
            let mut coefs = vec![0; n];
            let mut reach = 0usize;
            for (rank, &dim) in order.iter().enumerate() {
                let (len, pad) = spec[rank];
                let c = reach + 1 + pad;
                lens[dim] = len;
                coefs[dim] = c;
                reach += (len - 1) * c;
            }
            Transform::embed(&lens, &coefs).unwrap()
        })
}

/// Every transform that has an inverse, with small random parameters.
fn invertible() -> impl Strategy<Value = Transform> {
    prop_oneof![
        (1usize..=16).prop_map(|l| Transform::pass_through(l).unwrap()),
        (1usize..=12, 0usize..=4, 0usize..=4).prop_map(|(l, a, b)| Transform::pad(l, a, b).unwrap()),
        (1usize..=12, 0usize..=4).prop_map(|(l, a)| Transform::left_pad(l, a).unwrap()),
        (1usize..=12, 0usize..=4).prop_map(|(l, a)| Transform::right_pad(l, a).unwrap()),
        prop::collection::vec(1usize..=6, 1..=4).prop_map(|l| Transform::merge(&l).unwrap()),
        prop::collection::vec(1usize..=6, 1..=4).prop_map(|l| Transform::unmerge(&l).unwrap()),
        (1usize..=12, 0u32..=4).prop_map(|(l0, p)| Transform::xor(l0, 1 << p).unwrap()),
        (1usize..=16, 0usize..16, 1usize..=16)
            .prop_filter_map("begin < end <= len", |(len, b, e)| Transform::slice(len, b, e).ok()),
        (1usize..=16, 0usize..=100).prop_map(|(l, o)| Transform::offset(l, o).unwrap()),
        swizzle_params().prop_map(|(b, m, s, len)| Transform::swizzle_with_len(len, b, m, s).unwrap()),
        radix_embed(),
        (1usize..=12, 1usize..=9).prop_map(|(l0, l1)| Transform::cyclic_shift(l0, l1).unwrap()),
    ]
}

/// Any transform (including the non-invertible and non-linear ones).
fn any_transform() -> impl Strategy<Value = Transform> {
    prop_oneof![
        4 => invertible(),
        1 => (1usize..=9, 1usize..=40).prop_map(|(m, l)| Transform::modulo(m, l).unwrap()),
        1 => (0usize..=9).prop_map(|i| Transform::freeze(i).unwrap()),
        1 => (1usize..=9).prop_map(|l| Transform::insert(l).unwrap()),
        1 => prop::collection::vec(1usize..=4, 1..=3).prop_map(|l| Transform::replicate(&l).unwrap()),
        1 => (prop::collection::vec((1usize..=5, 0usize..=4), 1..=3)).prop_map(|v| {
            // Arbitrary, possibly overlapping, coefficients.
            let (l, c): (Vec<_>, Vec<_>) = v.into_iter().unzip();
            Transform::embed(&l, &c).unwrap()
        }),
    ]
}

/// An upper index inside the transform's upper lengths, from random seeds.
fn pick(t: &Transform, seeds: &[u64; MAX_DIMS]) -> Indices {
    let lens = t.upper_lengths();
    let mut up = [0; MAX_DIMS];
    for (i, &len) in lens.as_slice().iter().enumerate() {
        up[i] = (seeds[i] % len as u64) as Index;
    }
    up
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn inverse_of_forward_is_identity(t in invertible(), seeds in any::<[u64; MAX_DIMS]>()) {
        let up = pick(&t, &seeds);
        let low = t.calculate_lower(&up);
        let back = t.calculate_upper(&low);
        prop_assert!(back.is_some(), "{} has an inverse", t);
        let back = back.unwrap();
        prop_assert_eq!(&back[..t.num_upper()], &up[..t.num_upper()], "{} at {:?}", t, &up[..t.num_upper()]);
    }

    #[test]
    fn invertible_transforms_are_injective_on_their_upper_range(t in invertible()) {
        let ups = all_upper(&t);
        prop_assume!(ups.len() <= 4096);
        let lows: BTreeSet<Vec<Index>> = ups.iter().map(|u| lower(&t, u)).collect();
        prop_assert_eq!(lows.len(), ups.len(), "{} maps two upper indices to one lower index", t);
    }

    #[test]
    fn update_lower_equals_recompute(
        t in any_transform(),
        old_seeds in any::<[u64; MAX_DIMS]>(),
        new_seeds in any::<[u64; MAX_DIMS]>(),
    ) {
        let old = pick(&t, &old_seeds);
        let new = pick(&t, &new_seeds);
        let mut step = [0; MAX_DIMS];
        for i in 0..MAX_DIMS {
            step[i] = new[i] - old[i];
        }
        let low_old = t.calculate_lower(&old);
        let (low_new, diff) = t.update_lower(&step, &low_old, &new);
        let expected = t.calculate_lower(&new);
        let n = t.num_lower();
        prop_assert_eq!(&low_new[..n], &expected[..n], "{}: {:?} -> {:?}", t, old, new);
        for i in 0..n {
            prop_assert_eq!(diff[i], expected[i] - low_old[i], "{}: diff of lower dim {}", t, i);
        }
    }
}

#[test]
fn modulo_update_does_not_double_count_the_step() {
    // CK Tile computes (up_new + dup) % m; the correct value is up_new % m.
    let t = Transform::modulo(8, 32).unwrap();
    for old in 0..32 {
        for new in 0..32 {
            let (low, diff) = t.update_lower(&idx(&[new - old]), &idx(&[old % 8]), &idx(&[new]));
            assert_eq!((low[0], diff[0]), (new % 8, new % 8 - old % 8), "{old} -> {new}");
        }
    }
}

#[test]
fn non_invertible_transforms_have_no_inverse() {
    assert_eq!(Transform::modulo(8, 32).unwrap().calculate_upper(&idx(&[3])), None);
    assert_eq!(Transform::modulo(8, 8).unwrap().calculate_upper(&idx(&[3])), None);
    assert_eq!(Transform::freeze(3).unwrap().calculate_upper(&idx(&[3])), None);
    assert_eq!(Transform::insert(4).unwrap().calculate_upper(&idx(&[])), None);
    assert_eq!(Transform::insert(1).unwrap().calculate_upper(&idx(&[])), Some([0; MAX_DIMS]));
    assert_eq!(Transform::replicate(&[2, 1]).unwrap().calculate_upper(&idx(&[])), None);
    assert_eq!(Transform::replicate(&[1, 1]).unwrap().calculate_upper(&idx(&[])), Some([0; MAX_DIMS]));
    // embed((3,4),(2,1)) overlaps: 2 = 2*1 + 0 = 2*0 + 2.
    assert_eq!(Transform::embed(&[3, 4], &[2, 1]).unwrap().calculate_upper(&idx(&[2])), None);
    // Padded row pitch: strides (100, 1) over (4, 8) is still invertible.
    let e = Transform::embed(&[4, 8], &[100, 1]).unwrap();
    assert_eq!(upper_of(&e, &[205]), Some(vec![2, 5]));
}

#[test]
fn linearity_flags() {
    let linear = [
        Transform::pass_through(4).unwrap(),
        Transform::pad(4, 1, 1).unwrap(),
        Transform::left_pad(4, 1).unwrap(),
        Transform::right_pad(4, 1).unwrap(),
        Transform::embed(&[4, 5], &[2, 3]).unwrap(),
        Transform::unmerge(&[4, 8]).unwrap(),
        Transform::slice(10, 2, 5).unwrap(),
        Transform::offset(4, 3).unwrap(),
        Transform::freeze(2).unwrap(),
    ];
    let nonlinear = [
        Transform::merge(&[4, 8]).unwrap(),
        Transform::xor(8, 8).unwrap(),
        Transform::modulo(8, 32).unwrap(),
        Transform::swizzle(3, 3, 3).unwrap(),
    ];
    for t in linear {
        assert!(t.is_linear(), "{t}");
    }
    for t in nonlinear {
        assert!(!t.is_linear(), "{t}");
    }
}

// ---------------------------------------------------------------------------
// Validation errors.
// ---------------------------------------------------------------------------

#[test]
fn zero_lengths_are_rejected_with_their_position() {
    let e = Transform::pass_through(0).unwrap_err();
    assert_eq!(e, Error::ZeroLength { transform: "pass_through", parameter: "len", position: None });
    assert_eq!(e.to_string(), "pass_through: len is 0; it must be at least 1");

    let e = Transform::merge(&[4, 0, 2]).unwrap_err();
    assert_eq!(e, Error::ZeroLength { transform: "merge", parameter: "lower lengths", position: Some(1) });
    assert_eq!(e.to_string(), "merge: lower lengths[1] is 0; every length must be at least 1");

    let e = Transform::unmerge(&[3, 0]).unwrap_err();
    assert_eq!(e, Error::ZeroLength { transform: "unmerge", parameter: "upper lengths", position: Some(1) });
    assert!(e.to_string().contains("upper lengths[1] is 0"), "{e}");

    assert!(matches!(Transform::pad(0, 1, 1), Err(Error::ZeroLength { transform: "pad", .. })));
    assert!(matches!(Transform::left_pad(0, 1), Err(Error::ZeroLength { transform: "left_pad", .. })));
    assert!(matches!(Transform::right_pad(0, 1), Err(Error::ZeroLength { transform: "right_pad", .. })));
    assert!(matches!(Transform::slice(0, 0, 0), Err(Error::ZeroLength { transform: "slice", .. })));
    assert!(matches!(Transform::insert(0), Err(Error::ZeroLength { transform: "insert", .. })));
    assert!(matches!(Transform::offset(0, 3), Err(Error::ZeroLength { transform: "offset", .. })));
    assert_eq!(
        Transform::modulo(0, 3),
        Err(Error::ZeroLength { transform: "modulo", parameter: "modulus", position: None })
    );
    assert_eq!(
        Transform::modulo(3, 0),
        Err(Error::ZeroLength { transform: "modulo", parameter: "len", position: None })
    );
    assert_eq!(Transform::xor(0, 4), Err(Error::ZeroLength { transform: "xor", parameter: "L0", position: None }));
    assert_eq!(Transform::xor(4, 0), Err(Error::ZeroLength { transform: "xor", parameter: "L1", position: None }));
    assert_eq!(
        Transform::embed(&[4, 0], &[1, 1]),
        Err(Error::ZeroLength { transform: "embed", parameter: "lengths", position: Some(1) })
    );
    assert_eq!(
        Transform::replicate(&[0]),
        Err(Error::ZeroLength { transform: "replicate", parameter: "lengths", position: Some(0) })
    );
    assert_eq!(
        Transform::swizzle_with_len(0, 3, 3, 3).unwrap_err(),
        Error::ZeroLength { transform: "swizzle", parameter: "len", position: None }
    );
}

#[test]
fn empty_lists_are_rejected() {
    let e = Transform::merge(&[]).unwrap_err();
    assert_eq!(e, Error::EmptyList { transform: "merge", parameter: "lower lengths" });
    assert!(e.to_string().contains("lower lengths is empty"), "{e}");
    assert!(matches!(Transform::unmerge(&[]), Err(Error::EmptyList { transform: "unmerge", .. })));
    assert!(matches!(Transform::embed(&[], &[]), Err(Error::EmptyList { transform: "embed", .. })));
}

#[test]
fn xor_l1_must_be_a_power_of_two() {
    for l1 in [3usize, 5, 6, 7, 12, 24, 100] {
        let e = Transform::xor(8, l1).unwrap_err();
        assert_eq!(e, Error::XorNotPowerOfTwo { l1: l1 as Index });
        assert!(e.to_string().contains(&format!("L1 = {l1} is not a power of two")), "{e}");
    }
    for p in 0..20 {
        assert!(Transform::xor(3, 1 << p).is_ok());
    }
}

#[test]
fn slice_range_is_checked() {
    let e = Transform::slice(10, 5, 5).unwrap_err();
    assert_eq!(e, Error::SliceRange { len: 10, begin: 5, end: 5 });
    assert_eq!(e.to_string(), "slice: begin 5, end 5 on length 10; need begin < end <= len");
    assert_eq!(Transform::slice(10, 6, 5), Err(Error::SliceRange { len: 10, begin: 6, end: 5 }));
    let e = Transform::slice(10, 2, 11).unwrap_err();
    assert_eq!(e, Error::SliceRange { len: 10, begin: 2, end: 11 });
    assert!(e.to_string().contains("end 11 on length 10"), "{e}");
    assert!(Transform::slice(10, 0, 10).is_ok());
    assert!(Transform::slice(10, 9, 10).is_ok());
}

#[test]
fn swizzle_needs_shift_at_least_bits() {
    let e = Transform::swizzle(3, 3, 2).unwrap_err();
    assert_eq!(e, Error::SwizzleParameters { bits: 3, base: 3, shift: 2 });
    assert!(e.to_string().contains("swizzle(3, 3, 2)") && e.to_string().contains("|2| >= 3"), "{e}");
    assert_eq!(Transform::swizzle(3, 0, -2), Err(Error::SwizzleParameters { bits: 3, base: 0, shift: -2 }));
    assert_eq!(Transform::swizzle(1, 0, 0), Err(Error::SwizzleParameters { bits: 1, base: 0, shift: 0 }));
    // Bit fields above bit 62.
    assert_eq!(Transform::swizzle(30, 10, 30), Err(Error::SwizzleParameters { bits: 30, base: 10, shift: 30 }));
    assert!(Transform::swizzle(3, 3, -3).is_ok());
    assert!(Transform::swizzle(0, 0, 0).is_ok());
    let e = Transform::swizzle_with_len(100, 3, 3, 3).unwrap_err();
    assert_eq!(e, Error::SwizzleLength { len: 100, block: 64 });
    assert!(e.to_string().contains("length 100") && e.to_string().contains("multiple of 64"), "{e}");
}

#[test]
fn embed_lengths_and_coefficients_must_match() {
    let e = Transform::embed(&[4, 5], &[2]).unwrap_err();
    assert_eq!(e, Error::ListLengthMismatch { transform: "embed", first: 2, second: 1 });
    assert_eq!(e.to_string(), "embed: 2 lengths but 1 coefficients; give one coefficient per length");
    assert_eq!(
        Transform::embed(&[4], &[2, 3, 4]),
        Err(Error::ListLengthMismatch { transform: "embed", first: 1, second: 3 })
    );
}

#[test]
fn lists_longer_than_max_dims_are_rejected() {
    let nine = [1usize; MAX_DIMS + 1];
    let e = Transform::merge(&nine).unwrap_err();
    assert_eq!(e, Error::TooManyDims { given: 9, max: 8 });
    assert_eq!(e.to_string(), "a list has 9 entries; at most 8 are supported");
    assert_eq!(Transform::unmerge(&nine), Err(Error::TooManyDims { given: 9, max: 8 }));
    assert_eq!(Transform::replicate(&[1; 12]), Err(Error::TooManyDims { given: 12, max: 8 }));
    assert_eq!(Transform::embed(&nine, &nine), Err(Error::TooManyDims { given: 9, max: 8 }));
    assert!(Transform::merge(&[1; MAX_DIMS]).is_ok());
}

#[test]
fn values_above_i64_max_are_rejected() {
    let big = i64::MAX as usize + 1;
    let e = Transform::pass_through(big).unwrap_err();
    assert_eq!(e, Error::ValueTooLarge { value: 1 << 63 });
    assert!(e.to_string().contains("9223372036854775808"), "{e}");
    let e = Transform::merge(&[4, usize::MAX]).unwrap_err();
    assert_eq!(e, Error::ValueTooLarge { value: u64::MAX });
    assert!(e.to_string().contains(&u64::MAX.to_string()), "{e}");
    assert_eq!(Transform::pad(4, big, 0), Err(Error::ValueTooLarge { value: 1 << 63 }));
    assert_eq!(Transform::offset(4, usize::MAX), Err(Error::ValueTooLarge { value: u64::MAX }));
    assert_eq!(Transform::freeze(big), Err(Error::ValueTooLarge { value: 1 << 63 }));
    assert_eq!(Transform::slice(big, 0, 1), Err(Error::ValueTooLarge { value: 1 << 63 }));
    assert_eq!(Transform::embed(&[2], &[big]), Err(Error::ValueTooLarge { value: 1 << 63 }));
    assert!(Transform::pass_through(i64::MAX as usize).is_ok());
}

#[test]
fn products_and_sums_that_overflow_are_rejected() {
    let e = Transform::merge(&[1 << 32, 1 << 32]).unwrap_err();
    assert_eq!(e, Error::Overflow { transform: "merge", quantity: "product of the lengths", value: 1 << 64 });
    assert_eq!(
        e.to_string(),
        "merge: the product of the lengths is 18446744073709551616, past the largest signed 64-bit index \
         9223372036854775807; use smaller lengths"
    );
    assert_eq!(
        Transform::unmerge(&[1 << 31, 1 << 31, 4]),
        Err(Error::Overflow { transform: "unmerge", quantity: "product of the lengths", value: 1 << 64 })
    );
    assert!(Transform::merge(&[1 << 31, 1 << 31]).is_ok());
    let max = i64::MAX as i128;
    let e = Transform::pad(i64::MAX as usize, 1, 0).unwrap_err();
    assert_eq!(e, Error::Overflow { transform: "pad", quantity: "upper length", value: max + 1 });
    assert!(e.to_string().starts_with("pad: the upper length is 9223372036854775808, past"), "{e}");
    assert_eq!(
        Transform::left_pad(i64::MAX as usize - 1, 2),
        Err(Error::Overflow { transform: "left_pad", quantity: "upper length", value: max + 1 })
    );
    assert_eq!(
        Transform::right_pad(2, i64::MAX as usize),
        Err(Error::Overflow { transform: "right_pad", quantity: "upper length", value: max + 2 })
    );
    assert_eq!(
        Transform::offset(2, i64::MAX as usize),
        Err(Error::Overflow { transform: "offset", quantity: "upper length", value: max + 2 })
    );
    // (2^32 - 1) * 2^32 + 1 * 1
    assert_eq!(
        Transform::embed(&[1 << 32, 2], &[1 << 32, 1]),
        Err(Error::Overflow { transform: "embed", quantity: "largest lower index", value: (1 << 64) - (1 << 32) + 1 })
    );
    // Eight lengths of 2^63 - 1 saturate even 128 bits, and the message says so.
    let e = Transform::merge(&[i64::MAX as usize; 8]).unwrap_err();
    assert_eq!(e, Error::Overflow { transform: "merge", quantity: "product of the lengths", value: i128::MAX });
    assert!(e.to_string().contains("is at least 170141183460469231731687303715884105727, past"), "{e}");
}

#[test]
fn bind_checks_the_lengths_it_is_applied_to() {
    let m = Transform::merge(&[4, 8]).unwrap();
    assert_eq!(m.bind(&dims(&[4, 8])), Ok(m));
    let e = m.bind(&dims(&[4, 16])).unwrap_err();
    assert_eq!(e, Error::LowerLengthMismatch { transform: "merge", dim: 1, expected: 8, found: 16 });
    assert_eq!(
        e.to_string(),
        "merge: lower dimension 1 should have length 8 but the dimension it is applied to has length 16"
    );
    assert_eq!(m.bind(&dims(&[32])), Err(Error::LowerCount { transform: "merge", expected: 2, found: 1 }));
    let u = Transform::unmerge(&[2, 3, 4]).unwrap();
    assert!(u.bind(&dims(&[24])).is_ok());
    assert_eq!(
        u.bind(&dims(&[25])),
        Err(Error::LowerLengthMismatch { transform: "unmerge", dim: 0, expected: 24, found: 25 })
    );
    let e = Transform::embed(&[4, 5], &[2, 3]).unwrap();
    assert!(e.bind(&dims(&[19])).is_ok());
    assert_eq!(e.bind(&dims(&[18])), Err(Error::LowerOutOfRange { transform: "embed", largest: 18, length: 18 }));
    let x = Transform::xor(64, 8).unwrap();
    assert_eq!(
        x.bind(&dims(&[64, 4])),
        Err(Error::LowerLengthMismatch { transform: "xor", dim: 1, expected: 8, found: 4 })
    );
    assert_eq!(
        Transform::offset(4, 10).unwrap().bind(&dims(&[13])),
        Err(Error::LowerOutOfRange { transform: "offset", largest: 13, length: 13 })
    );
    assert_eq!(
        Transform::freeze(5).unwrap().bind(&dims(&[5])),
        Err(Error::LowerOutOfRange { transform: "freeze", largest: 5, length: 5 })
    );
    let s = Transform::swizzle(3, 3, 3).unwrap();
    assert_eq!(s.bind(&dims(&[512])).unwrap().upper_lengths().as_slice(), &[512]);
    assert_eq!(s.bind(&dims(&[96])), Err(Error::SwizzleLength { len: 96, block: 64 }));
}

#[test]
fn display_is_spec_syntax_and_kinds_round_trip() {
    let cases: Vec<(Transform, &str)> = vec![
        (Transform::pass_through(8).unwrap(), "pass_through(8)"),
        (Transform::pad(10, 2, 3).unwrap(), "pad(10,2,3)"),
        (Transform::left_pad(4, 1).unwrap(), "left_pad(4,1)"),
        (Transform::right_pad(4, 2).unwrap(), "right_pad(4,2)"),
        (Transform::embed(&[4, 5], &[2, 3]).unwrap(), "embed((4,5),(2,3))"),
        (Transform::embed(&[4], &[2]).unwrap(), "embed((4),(2))"),
        (Transform::merge(&[4, 8]).unwrap(), "merge((4,8))"),
        (Transform::merge(&[4]).unwrap(), "merge((4))"),
        (Transform::unmerge(&[2, 3, 4]).unwrap(), "unmerge((2,3,4))"),
        (Transform::xor(64, 8).unwrap(), "xor((64,8))"),
        (Transform::slice(10, 2, 5).unwrap(), "slice(10,2,5)"),
        (Transform::freeze(3).unwrap(), "freeze(3)"),
        (Transform::insert(4).unwrap(), "insert(4)"),
        (Transform::replicate(&[2, 3]).unwrap(), "replicate((2,3))"),
        (Transform::offset(16, 4).unwrap(), "offset(16,4)"),
        (Transform::modulo(8, 32).unwrap(), "modulo(8,32)"),
        (Transform::swizzle(2, 0, -3).unwrap(), "swizzle(2,0,-3)"),
        (Transform::cyclic_shift(10, 8).unwrap(), "cyclic_shift((10,8))"),
        (Transform::indexing(16, 5).unwrap(), "indexing(16,5)"),
        (Transform::xor_no_modulo(4, 8).unwrap(), "xor_no_modulo((4,8))"),
        (Transform::functor(40, &[1, 0, 2], 4).unwrap(), "functor(40,(1,0,2),4)"),
    ];
    for (t, text) in &cases {
        assert_eq!(t.to_string(), *text);
        let name = text.split('(').next().unwrap();
        assert_eq!(Kind::from_name(name), Some(t.kind()));
        assert_eq!(t.kind().name(), name);
    }
    let kinds: BTreeSet<&str> = cases.iter().map(|(t, _)| t.kind().name()).collect();
    assert_eq!(kinds.len(), Kind::ALL.len(), "every kind is covered");
    // Each kind's values have its signature's shapes, and build it back.
    for (t, _) in &cases {
        let signature = t.kind().signature();
        let args = t.args();
        assert!(signature.takes(args.as_slice().len()), "{t}: {} values for {signature}", args.as_slice().len());
        for (i, arg) in args.as_slice().iter().enumerate() {
            let param = signature.param(i).unwrap();
            let fits = match (param.shape, arg) {
                (ParamShape::Int { min, max, .. }, Arg::Int(v)) => (min..=max).contains(v),
                (ParamShape::List, Arg::List(d)) => !d.is_empty(),
                (ParamShape::Pair, Arg::List(d)) => d.len() == 2,
                _ => false,
            };
            assert!(fits, "{t}: argument {i} ({arg}) does not have the shape of {param}");
        }
        assert_eq!(Transform::from_args(t.kind(), args.as_slice()).unwrap(), *t);
    }
}

/// `from_args` names the call, the argument and what it should be, for
/// every way a value can be wrong.
#[test]
fn from_args_names_the_bad_argument() {
    let list = |v: &[i64]| Arg::List(Dims::from_slice(v).unwrap());
    let cases: Vec<(Kind, Vec<Arg>, &str)> = vec![
        (Kind::Pad, vec![Arg::Int(4)], "pad takes 3 arguments: pad(len, left, right), but 1 argument(s) were given"),
        (Kind::Merge, vec![], "merge takes 1 argument: merge((lower lengths)), but 0 argument(s) were given"),
        (Kind::Merge, vec![Arg::Int(4)], "merge's argument 1, (lower lengths), is 4; expected a list of lengths"),
        (
            Kind::Slice,
            vec![Arg::Int(8), list(&[1]), Arg::Int(4)],
            "slice's argument 2, begin, is a list of 1 value; expected an integer in [0, 2^63)",
        ),
        (
            Kind::Offset,
            vec![Arg::Int(8), Arg::Int(-1)],
            "offset's argument 2, off, is -1; expected an integer in [0, 2^63)",
        ),
        (
            Kind::Xor,
            vec![list(&[4, 8, 2])],
            "xor's argument 1, (L0, L1), is a list of 3 values; expected a pair of lengths",
        ),
        (Kind::CyclicShift, vec![list(&[4, -8])], "cyclic_shift: L1 is -8; it must be non-negative"),
        (
            Kind::Swizzle,
            vec![Arg::Int(3), Arg::Int(3), Arg::Int(63)],
            "swizzle's argument 3, S, is 63; expected an integer in [-62, 62]",
        ),
        // Shapes right, values refused by the constructor, as ever.
        (
            Kind::Xor,
            vec![list(&[4, 6])],
            "xor: L1 = 6 is not a power of two; up1 ^ (up0 % L1) stays in [0, L1) only for L1 = 1, 2, 4, 8, ...",
        ),
        (
            Kind::Embed,
            vec![list(&[4, 8]), list(&[1])],
            "embed: 2 lengths but 1 coefficients; give one coefficient per length",
        ),
    ];
    for (kind, args, message) in cases {
        let e = Transform::from_args(kind, &args).unwrap_err();
        assert_eq!(e.to_string(), message, "{kind:?} {args:?}");
        assert!(!e.summary().is_empty());
    }
}

#[test]
fn vector_propagation_rules() {
    let mut low = [Vector::UNKNOWN; MAX_DIMS];
    low[0] = Vector::new(8, 1);
    low[1] = Vector::new(4, 2);
    let first = |t: Transform| t.upper_vectors(&low)[0];
    assert_eq!(first(Transform::pass_through(8).unwrap()), Vector::new(8, 1));
    assert_eq!(first(Transform::left_pad(8, 1).unwrap()), Vector::new(8, 1));
    assert_eq!(first(Transform::right_pad(8, 1).unwrap()), Vector::new(8, 1));
    // pad passes through too (current CK Tile: "simply shifts the index").
    assert_eq!(first(Transform::pad(8, 1, 1).unwrap()), Vector::new(8, 1));
    assert_eq!(first(Transform::embed(&[8], &[1]).unwrap()), Vector::UNKNOWN);
    assert_eq!(first(Transform::slice(8, 1, 3).unwrap()), Vector::UNKNOWN);
    assert_eq!(first(Transform::offset(8, 1).unwrap()), Vector::UNKNOWN);
    assert_eq!(first(Transform::modulo(8, 16).unwrap()), Vector::UNKNOWN);
    // merge takes its last lower dimension's.
    assert_eq!(first(Transform::merge(&[8, 4]).unwrap()), Vector::new(4, 2));
    let x = Transform::xor(8, 4).unwrap().upper_vectors(&low);
    assert_eq!((x[0], x[1]), (Vector::new(8, 1), Vector::new(4, 2)));
    let c = Transform::cyclic_shift(8, 4).unwrap().upper_vectors(&low);
    assert_eq!((c[0], c[1]), (Vector::new(8, 1), Vector::new(4, 2)));
    // unmerge: gcd(lower length, last length) on the last upper dim only.
    let u = Transform::unmerge(&[2, 12]).unwrap().upper_vectors(&low);
    assert_eq!((u[0], u[1]), (Vector::UNKNOWN, Vector::new(4, 1)));
    // swizzle: runs of 2^M.
    let s = Transform::swizzle_with_len(64, 2, 2, 2).unwrap();
    assert_eq!(first(s), Vector::new(4, 1));
}

// ---------------------------------------------------------------------------
// Typed forms: static == the runtime constructor == dynamic parameters.
// ---------------------------------------------------------------------------

type N<const V: usize> = Number<V>;

#[test]
fn typed_scalar_transforms_static_equals_dynamic() {
    assert_eq!(<PassThrough<N<8>> as TypedTransform>::STATIC, Some(Transform::pass_through(8)));
    assert_eq!(make_pass_through_transform(Number::<8>).to_transform(), Transform::pass_through(8));
    assert_eq!(make_pass_through_transform(8usize).to_transform(), Transform::pass_through(8));
    assert_eq!(<PassThrough<usize> as TypedTransform>::STATIC, None);

    assert_eq!(<Pad<N<10>, N<2>, N<3>> as TypedTransform>::STATIC, Some(Transform::pad(10, 2, 3)));
    assert_eq!(make_pad_transform(10usize, 2usize, 3usize).to_transform(), Transform::pad(10, 2, 3));
    assert_eq!(make_pad_transform(Number::<10>, 2usize, Number::<3>).to_transform(), Transform::pad(10, 2, 3));
    assert_eq!(<Pad<N<10>, usize, N<3>> as TypedTransform>::STATIC, None);

    assert_eq!(<LeftPad<N<4>, N<1>> as TypedTransform>::STATIC, Some(Transform::left_pad(4, 1)));
    assert_eq!(make_left_pad_transform(4usize, 1usize).to_transform(), Transform::left_pad(4, 1));

    assert_eq!(<RightPad<N<4>, N<2>> as TypedTransform>::STATIC, Some(Transform::right_pad(4, 2)));
    assert_eq!(make_right_pad_transform(4usize, 2usize).to_transform(), Transform::right_pad(4, 2));

    assert_eq!(<Slice<N<10>, N<2>, N<5>> as TypedTransform>::STATIC, Some(Transform::slice(10, 2, 5)));
    assert_eq!(make_slice_transform(10usize, 2usize, 5usize).to_transform(), Transform::slice(10, 2, 5));

    assert_eq!(<Freeze<N<3>> as TypedTransform>::STATIC, Some(Transform::freeze(3)));
    assert_eq!(make_freeze_transform(3usize).to_transform(), Transform::freeze(3));

    assert_eq!(<Insert<N<4>> as TypedTransform>::STATIC, Some(Transform::insert(4)));
    assert_eq!(make_insert_transform(4usize).to_transform(), Transform::insert(4));

    assert_eq!(<Offset<N<16>, N<4>> as TypedTransform>::STATIC, Some(Transform::offset(16, 4)));
    assert_eq!(make_offset_transform(16usize, 4usize).to_transform(), Transform::offset(16, 4));

    assert_eq!(<Modulo<N<8>, N<32>> as TypedTransform>::STATIC, Some(Transform::modulo(8, 32)));
    assert_eq!(make_modulo_transform(8usize, 32usize).to_transform(), Transform::modulo(8, 32));

    // typenum integers are static too.
    assert_eq!(<PassThrough<typenum::U8> as TypedTransform>::STATIC, Some(Transform::pass_through(8)));
}

#[test]
fn typed_list_transforms_static_equals_dynamic() {
    type M = Merge<(N<4>, N<8>)>;
    assert_eq!(<M as TypedTransform>::STATIC, Some(Transform::merge(&[4, 8])));
    assert_eq!(make_merge_transform((4usize, 8usize)).to_transform(), Transform::merge(&[4, 8]));
    assert_eq!(make_merge_transform((Number::<4>, Number::<8>)).to_transform(), Transform::merge(&[4, 8]));
    assert_eq!(<Merge<(N<4>, usize)> as TypedTransform>::STATIC, None);
    assert_eq!(<<M as TypedTransform>::NumLower as typenum::Unsigned>::USIZE, 2);
    assert_eq!(<<M as TypedTransform>::NumUpper as typenum::Unsigned>::USIZE, 1);

    type U = Unmerge<(N<2>, N<3>, N<4>)>;
    assert_eq!(<U as TypedTransform>::STATIC, Some(Transform::unmerge(&[2, 3, 4])));
    assert_eq!(make_unmerge_transform((2usize, 3usize, 4usize)).to_transform(), Transform::unmerge(&[2, 3, 4]));
    assert_eq!(<<U as TypedTransform>::NumLower as typenum::Unsigned>::USIZE, 1);
    assert_eq!(<<U as TypedTransform>::NumUpper as typenum::Unsigned>::USIZE, 3);

    type R = Replicate<(N<2>, N<3>)>;
    assert_eq!(<R as TypedTransform>::STATIC, Some(Transform::replicate(&[2, 3])));
    assert_eq!(make_replicate_transform((2usize, 3usize)).to_transform(), Transform::replicate(&[2, 3]));
    assert_eq!(<<R as TypedTransform>::NumLower as typenum::Unsigned>::USIZE, 0);

    type E = Embed<(N<4>, N<5>), (N<2>, N<3>)>;
    assert_eq!(<E as TypedTransform>::STATIC, Some(Transform::embed(&[4, 5], &[2, 3])));
    assert_eq!(
        make_embed_transform((4usize, 5usize), (2usize, 3usize)).to_transform(),
        Transform::embed(&[4, 5], &[2, 3])
    );
    assert_eq!(<Embed<(N<4>, N<5>), (N<2>, usize)> as TypedTransform>::STATIC, None);
    assert_eq!(<<E as TypedTransform>::NumUpper as typenum::Unsigned>::USIZE, 2);

    type X = Xor<N<64>, N<8>>;
    assert_eq!(<X as TypedTransform>::STATIC, Some(Transform::xor(64, 8)));
    assert_eq!(make_xor_transform((64usize, 8usize)).to_transform(), Transform::xor(64, 8));
    assert_eq!(make_xor_transform((Number::<64>, 8usize)).to_transform(), Transform::xor(64, 8));
    assert_eq!(<Xor<N<64>, usize> as TypedTransform>::STATIC, None);
    assert_eq!(<<X as TypedTransform>::NumLower as typenum::Unsigned>::USIZE, 2);
    assert_eq!(<<X as TypedTransform>::NumUpper as typenum::Unsigned>::USIZE, 2);

    type Xn = XorNoModulo<N<8>, N<8>>;
    assert_eq!(<Xn as TypedTransform>::STATIC, Some(Transform::xor_no_modulo(8, 8)));
    assert_eq!(make_xor_no_modulo_transform((2usize, 6usize)).to_transform(), Transform::xor_no_modulo(2, 6));
    assert_eq!(<XorNoModulo<N<8>, usize> as TypedTransform>::STATIC, None);
    assert_eq!(<Xn as TypedTransform>::KIND, Kind::XorNoModulo);

    assert_eq!(<Swizzle<3, 3, 3> as TypedTransform>::STATIC, Some(Transform::swizzle(3, 3, 3)));
    assert_eq!(make_swizzle_transform::<2, 0, -3>().to_transform(), Transform::swizzle(2, 0, -3));

    type F = Functor<PermuteBits5, N<64>>;
    assert_eq!(<F as TypedTransform>::STATIC, Some(Transform::permute_bits_5(64)));
    assert_eq!(<F as TypedTransform>::KIND, Kind::Functor);
    assert_eq!(<Functor<SwapWarp, usize> as TypedTransform>::STATIC, None);
    assert_eq!(<Functor<BitPermute, N<4>> as TypedTransform>::STATIC, None);
    assert_eq!(make_functor_transform(SwapWarp, 8usize).to_transform(), Transform::swap_warp(8));
    assert_eq!(
        make_functor_transform(InversePermuteBits5, Number::<96>).to_transform(),
        Transform::inverse_permute_bits_5(96)
    );
    // A runtime map travels through one slot and back.
    let runtime = make_functor_transform(BitPermute::swap(1, 2).unwrap(), 24usize);
    assert_eq!(<Functor<BitPermute, usize> as TypedTransform>::RUNTIME, 2);
    let mut slots = [0u64; 2];
    runtime.write_runtime(&mut slots, 0);
    assert_eq!(<Functor<BitPermute, usize> as TypedTransform>::read_runtime(&slots, 0), runtime);
    assert_eq!(runtime.to_transform(), Transform::functor(24, &[0, 2, 1], 0));
}

/// The functor kind's map, every way it is written, on every map of up to
/// four bits (each permutation, each flip) and on CK's two, over every
/// index of two blocks and a few negative ones: the compiled moves equal
/// the meaning, the inverse inverts it, each block maps onto itself, and a
/// length is accepted exactly when brute force finds no index leaving it.
#[test]
fn functor_maps_agree_everywhere() {
    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in permutations(n - 1) {
            for at in 0..n {
                let mut q = p.clone();
                q.insert(at, n - 1);
                out.push(q);
            }
        }
        out
    }
    let mut maps = vec![BitPermute::SWAP_WARP, BitPermute::PERMUTE_BITS_5, BitPermute::INVERSE_PERMUTE_BITS_5];
    for n in 1..=4 {
        for p in permutations(n) {
            for flip in 0..1 << n {
                let dims = Dims::from_usizes(&p).unwrap();
                maps.push(BitPermute::new(dims, flip).unwrap());
            }
        }
    }
    assert_eq!(maps.len(), 3 + 2 + 2 * 4 + 6 * 8 + 24 * 16);
    for m in &maps {
        let block = m.block();
        let moves = m.moves();
        for x in -2 * block..2 * block {
            let y = m.apply(x);
            assert_eq!(moves.apply(x), y, "{m} at {x}");
            assert_eq!(m.inverse().apply(y), x, "{m} at {x}");
            assert_eq!(y.div_euclid(block), x.div_euclid(block), "{m} at {x}");
            // Bit by bit: bit i lands on targets[i], then the flip.
            if x >= 0 {
                let low = (0..m.bits()).map(|i| ((x >> i) & 1) << m.targets()[i as usize]).sum::<i64>() ^ m.flip();
                assert_eq!(y, (x & !(block - 1)) | low, "{m} at {x}");
            }
        }
        for len in 1..=3 * block {
            let leaves = (0..len).find(|&u| !(0..len).contains(&m.apply(u)));
            let built = Transform::functor_map(len as usize, *m);
            assert_eq!(built.is_err(), leaves.is_some(), "{m} on {len}: {built:?}");
            if let (Err(e), Some(u)) = (built, leaves) {
                let text = e.to_string();
                assert!(text.contains(&format!("index {u} maps to {}", m.apply(u))), "{text}");
                let (below, above) = m.nearest_kept(len);
                let above = above.unwrap();
                assert!(Transform::functor_map(above as usize, *m).is_ok() && above > len, "{text}");
                assert!(((len + 1)..above).all(|l| Transform::functor_map(l as usize, *m).is_err()), "{text}");
                if let Some(b) = below {
                    assert!(Transform::functor_map(b as usize, *m).is_ok() && b < len, "{text}");
                    assert!(((b + 1)..len).all(|l| Transform::functor_map(l as usize, *m).is_err()), "{text}");
                    assert!(text.contains(&format!("{b} and {above}")), "{text}");
                } else {
                    assert!((1..len).all(|l| Transform::functor_map(l as usize, *m).is_err()), "{text}");
                    assert!(text.contains(&format!("smallest such length is {above}")), "{text}");
                }
            }
            // Accepted: a bijection of [0, len), and the typed form agrees.
            if let Ok(t) = built {
                let mut seen: Vec<i64> = (0..len).map(|u| t.calculate_lower(&[u, 0, 0, 0, 0, 0, 0, 0])[0]).collect();
                seen.sort_unstable();
                assert_eq!(seen, (0..len).collect::<Vec<_>>(), "{t}");
            }
            let lower: Indices = [len, 0, 0, 0, 0, 0, 0, 0];
            assert_eq!(make_functor_transform(*m, len as usize).accepts(&lower), built.is_ok(), "{m} on {len}");
            assert_eq!(make_functor_transform(*m, len as usize).to_transform(), built, "{m} on {len}");
        }
        // The range of any span is exact.
        for lo in -block..block {
            for hi in lo..lo + 2 * block + 1 {
                let images: Vec<i64> = (lo..=hi).map(|x| m.apply(x)).collect();
                let want = (*images.iter().min().unwrap() as i128, *images.iter().max().unwrap() as i128);
                assert_eq!(m.range(lo as i128, hi as i128), want, "{m} over {lo}..={hi}");
            }
        }
    }
}

/// Every refusal of `functor` names the value it refuses.
#[test]
fn functor_refusals_name_the_value() {
    let cases: Vec<(Result<Transform, Error>, &str)> = vec![
        (Transform::functor(8, &[0, 2], 0), "bit targets[1] is 2; the 2 targets must be 0 to 1"),
        (Transform::functor(8, &[1, 1], 0), "bit targets[1] is 1; the 2 targets must be 0 to 1, each once"),
        (Transform::functor(8, &[], 0), "functor: bit targets is empty"),
        (Transform::functor(8, &[1, 0], 4), "flip 4 is not in [0, 3]"),
        (Transform::functor(0, &[0], 0), "functor: len is 0"),
        (
            Transform::functor(100, &[2, 3, 4, 0, 1], 0),
            "functor(100,(2,3,4,0,1),0): index 97 maps to 100, outside [0, 100); the map keeps each block of 32 indices, so the length must be a multiple of 32 or end a block the map keeps to itself: the nearest such lengths are 97 and 127",
        ),
        (Transform::swap_warp(3), "functor(3,(0),1): index 2 maps to 3, outside [0, 3)"),
        (Transform::swap_warp(1), "the smallest such length is 2"),
    ];
    for (built, text) in cases {
        let e = built.unwrap_err().to_string();
        assert!(e.contains(text), "{e}\n  lacks: {text}");
    }
    let list = |v: &[i64]| Arg::List(Dims::from_slice(v).unwrap());
    let from = |args: &[Arg]| Transform::from_args(Kind::Functor, args).unwrap_err().to_string();
    assert_eq!(
        from(&[Arg::Int(8), list(&[0]), Arg::Int(256)]),
        "functor's argument 3, flip, is 256; expected an integer in [0, 255]"
    );
    assert!(from(&[Arg::Int(8), list(&[0, -1]), Arg::Int(0)]).contains("bit targets[1] is -1"));
    assert!(
        from(&[Arg::Int(8), Arg::Int(0), Arg::Int(0)]).contains("argument 2, (bit targets), is 0; expected a list")
    );
}

#[test]
fn typed_invalid_static_parameters_carry_the_error() {
    assert_eq!(<Xor<N<8>, N<6>> as TypedTransform>::STATIC, Some(Err(Error::XorNotPowerOfTwo { l1: 6 })));
    assert_eq!(make_xor_transform((8usize, 6usize)).to_transform(), Err(Error::XorNotPowerOfTwo { l1: 6 }));
    assert_eq!(<XorNoModulo<N<16>, N<8>> as TypedTransform>::STATIC, Some(Err(Error::XorUnreduced { l0: 16, l1: 8 })));
    assert_eq!(
        make_xor_no_modulo_transform((3usize, 6usize)).to_transform(),
        Err(Error::XorUnreduced { l0: 3, l1: 6 })
    );
    assert_eq!(
        <Merge<(N<4>, N<0>)> as TypedTransform>::STATIC,
        Some(Err(Error::ZeroLength { transform: "merge", parameter: "lower lengths", position: Some(1) }))
    );
    assert_eq!(
        <Slice<N<4>, N<3>, N<3>> as TypedTransform>::STATIC,
        Some(Err(Error::SliceRange { len: 4, begin: 3, end: 3 }))
    );
    assert_eq!(
        <Swizzle<3, 3, 2> as TypedTransform>::STATIC,
        Some(Err(Error::SwizzleParameters { bits: 3, base: 3, shift: 2 }))
    );
    assert_eq!(
        <Merge<(N<{ 1 << 32 }>, N<{ 1 << 32 }>)> as TypedTransform>::STATIC,
        Some(Err(Error::Overflow { transform: "merge", quantity: "product of the lengths", value: 1 << 64 }))
    );
    assert_eq!(
        <PassThrough<N<{ usize::MAX }>> as TypedTransform>::STATIC,
        Some(Err(Error::ValueTooLarge { value: u64::MAX }))
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Runtime typed parameters agree with `Transform`'s constructors, errors included.
    #[test]
    fn typed_runtime_equals_constructor(a in 0usize..20, b in 0usize..20, c in 0usize..20) {
        prop_assert_eq!(make_pad_transform(a, b, c).to_transform(), Transform::pad(a, b, c));
        prop_assert_eq!(make_slice_transform(a, b, c).to_transform(), Transform::slice(a, b, c));
        prop_assert_eq!(make_xor_transform((a, b)).to_transform(), Transform::xor(a, b));
        prop_assert_eq!(make_xor_no_modulo_transform((a, b)).to_transform(), Transform::xor_no_modulo(a, b));
        // The typed form accepts its own lower lengths exactly when the constructor builds it.
        let lower: Indices = core::array::from_fn(|i| [a as i64, b as i64][i.min(1)]);
        prop_assert_eq!(make_xor_no_modulo_transform((a, b)).accepts(&lower), Transform::xor_no_modulo(a, b).is_ok());
        // Its formula is CK's unreduced XOR, and an involution on accepted lengths.
        if Transform::xor_no_modulo(a, b).is_ok() {
            let t = make_xor_no_modulo_transform((a, b));
            for r in 0..a as i64 {
                for col in 0..b as i64 {
                    let mut up = [0; MAX_DIMS];
                    (up[0], up[1]) = (r, col);
                    let low = t.lower(&up);
                    prop_assert_eq!((low[0], low[1]), (r, col ^ r));
                    prop_assert!((0..b as i64).contains(&low[1]));
                    prop_assert_eq!(t.lower(&low)[1], col);
                }
            }
        }
        prop_assert_eq!(make_merge_transform((a, b, c)).to_transform(), Transform::merge(&[a, b, c]));
        prop_assert_eq!(make_unmerge_transform((a, b)).to_transform(), Transform::unmerge(&[a, b]));
        prop_assert_eq!(make_embed_transform((a, b), (c, a)).to_transform(), Transform::embed(&[a, b], &[c, a]));
        prop_assert_eq!(make_modulo_transform(a, b).to_transform(), Transform::modulo(a, b));
        prop_assert_eq!(make_offset_transform(a, b).to_transform(), Transform::offset(a, b));
    }
}

/// The per-kind helpers are public and total: any dimension count (a count
/// past `MAX_DIMS` reads the whole arrays, exactly as `MAX_DIMS` does), any
/// order entry, any length, coefficient or swizzle parameter returns a value,
/// never a panic or an out-of-bounds index, in this overflow-checked build.
#[test]
fn kind_helpers_are_total() {
    use cktile_transforms::kinds::{embed, merge, pad, replicate, swizzle, unmerge, xor};
    const EXTREMES: [i64; 8] = [0, 1, -1, 2, 7, i64::MIN, i64::MAX, i64::MAX - 1];
    let arrays: Vec<Indices> = (0..EXTREMES.len())
        .map(|k| core::array::from_fn(|i| EXTREMES[(i * 3 + k) % EXTREMES.len()]))
        .chain([[1; MAX_DIMS], [i64::MAX; MAX_DIMS], [i64::MIN; MAX_DIMS], [-1; MAX_DIMS], [9; MAX_DIMS]])
        .collect();
    for a in &arrays {
        for b in &arrays {
            for n in [MAX_DIMS + 1, 64, usize::MAX] {
                assert_eq!(embed::lower(a, b, n), embed::lower(a, b, MAX_DIMS));
                assert_eq!(embed::wide_largest(a, b, n), embed::wide_largest(a, b, MAX_DIMS));
                assert_eq!(embed::radix_order(a, b, n), embed::radix_order(a, b, MAX_DIMS));
                assert_eq!(merge::upper(a, b, n), merge::upper(a, b, MAX_DIMS));
                assert_eq!(unmerge::lower(a, b, n), unmerge::lower(a, b, MAX_DIMS));
                assert_eq!(replicate::is_single_point(a, n), replicate::is_single_point(a, MAX_DIMS));
                for &x in &EXTREMES {
                    assert_eq!(merge::lower(x, a, n), merge::lower(x, a, MAX_DIMS));
                    assert_eq!(unmerge::upper(x, a, n), unmerge::upper(x, a, MAX_DIMS));
                    // `b` as an order: entries outside 0..MAX_DIMS are skipped.
                    assert_eq!(embed::upper(x, a, a, b, n), embed::upper(x, a, a, b, MAX_DIMS));
                }
            }
        }
    }
    for &x in &EXTREMES {
        for &y in &EXTREMES {
            let _ = (pad::lower(x, y), pad::upper(x, y), pad::is_valid(x, y, x), xor::lower1(x, y, x));
        }
        for bits in [0, 1, 3, 62, 63, 64, 65, u32::MAX] {
            for base in [0, 3, 63, 64, u32::MAX] {
                for shift in [0, 3, -3, 63, -63, 64, i32::MAX, i32::MIN] {
                    let _ = swizzle::apply(x, bits, base, shift);
                    assert!(swizzle::block_bits(bits, base, shift) >= bits.min(1));
                }
            }
        }
    }
    // Inside the valid range the wrapping forms change nothing: Swizzle<3,3,3>.
    assert_eq!(swizzle::apply(64, 3, 3, 3), 72);
}

/// An entry for the 64-bit arithmetic checks: small values, zero, signs,
/// and values at and around the limits of an index.
fn edge_entry() -> impl Strategy<Value = Index> {
    prop_oneof![
        4 => -9i64..=9,
        2 => (0u32..63).prop_map(|s| 1i64 << s),
        2 => (0u32..63).prop_map(|s| -(1i64 << s)),
        1 => Just(i64::MAX),
        1 => Just(i64::MIN),
        1 => Just(i64::MAX / 2 + 1),
        1 => Just(3_037_000_500), // just above sqrt(i64::MAX)
    ]
}

/// The exact product in 128-bit arithmetic, when it fits an index.
fn exact_product(values: &[Index]) -> Option<Index> {
    if values.contains(&0) {
        return Some(0);
    }
    let mut p: i128 = 1;
    for &v in values {
        // |p| only grows with nonzero factors: past 2^64 it can never come back.
        p = p.checked_mul(v as i128)?;
        if p.unsigned_abs() > 1u128 << 64 {
            return None;
        }
    }
    Index::try_from(p).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20000))]

    /// `Dims::product` (64-bit magnitudes and flags, no branches) is the
    /// exact product whenever it fits, `None` otherwise: signs, zeros and
    /// -2^63 included.
    #[test]
    fn dims_product_is_exact(values in proptest::collection::vec(edge_entry(), 0..=MAX_DIMS)) {
        prop_assert_eq!(dims(&values).product(), exact_product(&values), "{:?}", values);
    }

    /// The quick forms of the embed's largest index and the unmerge's
    /// product equal the 128-bit ones on their domain (lengths of at least
    /// 1, coefficients of at least 0) and refuse everything outside it.
    #[test]
    fn quick_largest_and_product_are_exact(
        lengths in proptest::collection::vec(edge_entry(), 0..=MAX_DIMS),
        coefficients in proptest::collection::vec(edge_entry(), MAX_DIMS),
    ) {
        use cktile_transforms::kinds::{embed, unmerge};
        let n = lengths.len();
        let (l, c) = (idx(&lengths), idx(&coefficients[..n]));
        let domain = lengths.iter().all(|&x| x >= 1) && coefficients[..n].iter().all(|&x| x >= 0);
        let want = if domain { embed::largest(&l, &c, n) } else { None };
        prop_assert_eq!(embed::non_negative_largest(&l, &c, n), want);
        let positive = n > 0 && lengths.iter().all(|&x| x >= 1);
        let want = if positive { exact_product(&lengths) } else { None };
        prop_assert_eq!(unmerge::positive_product(&l, n), want);
    }
}

#[test]
fn product_boundaries() {
    assert_eq!(dims(&[1 << 62, 2]).product(), None);
    assert_eq!(dims(&[1 << 62, -2]).product(), Some(i64::MIN));
    assert_eq!(dims(&[1 << 62, 2, -1]).product(), Some(i64::MIN)); // past i64::MAX on the way, then back
    assert_eq!(dims(&[1 << 62, 2, 1]).product(), None);
    assert_eq!(dims(&[1 << 40, 1 << 40, 0]).product(), Some(0));
    assert_eq!(dims(&[i64::MIN, 1]).product(), Some(i64::MIN));
    assert_eq!(dims(&[i64::MIN, -1]).product(), None);
    assert_eq!(dims(&[]).product(), Some(1));
}

// ---------------------------------------------------------------------------
// Lowerings: each transform's steps give its formulas.
// ---------------------------------------------------------------------------

/// An upper coordinate anywhere: inside the lengths, just outside, or at the
/// edges of the 64-bit range (the formulas wrap; the lowering must too).
fn anywhere(t: &Transform) -> impl Strategy<Value = Indices> + use<> {
    let lens = t.upper_lengths();
    let n = lens.len();
    let entry = move |len: Index| {
        prop_oneof![
            4 => 0..len.max(1),
            1 => -3 * len.max(1)..4 * len.max(1),
            1 => edge_entry(),
        ]
    };
    let parts: Vec<_> =
        (0..MAX_DIMS).map(|i| if i < n { entry(lens.get(i)).boxed() } else { Just(0).boxed() }).collect();
    parts.prop_map(|v| {
        let mut up = [0; MAX_DIMS];
        up.copy_from_slice(&v);
        up
    })
}

/// Every slot a step reads is an input or was written by an earlier step,
/// and the outputs are written slots.
fn well_formed(l: &cktile_transforms::lowering::Lowering) -> bool {
    let mut written = l.inputs();
    let reads_ok = l.steps().iter().all(|s| {
        use cktile_transforms::lowering::Step;
        let ok = match *s {
            Step::Affine { n, ins, .. } => ins[..n as usize].iter().all(|&i| (i as usize) < written),
            Step::Split { a, .. }
            | Step::Div { a, .. }
            | Step::Rem { a, .. }
            | Step::Swizzle { a, .. }
            | Step::Permute { a, .. } => (a as usize) < written,
            Step::Xor { a, b, .. } => (a as usize) < written && (b as usize) < written,
        };
        let placed = s.out() as usize == written;
        written += s.outputs();
        ok && placed
    });
    reads_ok && written == l.slots() && l.outputs().iter().all(|&o| (o as usize) < written)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The forward lowering computes `calculate_lower` and its check
    /// `is_valid_upper`, everywhere; the inverse computes `calculate_upper`
    /// exactly where that exists; an identity keeps every index.
    #[test]
    fn lowerings_equal_the_formulas((t, up) in any_transform().prop_flat_map(|t| (Just(t), anywhere(&t)))) {
        let l = t.lowering();
        prop_assert!(well_formed(&l), "{t}: {l:?}");
        prop_assert_eq!((l.inputs(), l.outputs().len()), (t.num_upper(), t.num_lower()), "{}", t);
        prop_assert_eq!(l.lower(&up), t.calculate_lower(&up), "{} at {:?}", t, &up[..t.num_upper()]);
        prop_assert_eq!(l.is_valid(&up), t.is_valid_upper(&up), "{} at {:?}", t, &up[..t.num_upper()]);
        // The compiled program's budget: two operations per item, and no
        // more fresh registers than the item has outputs.
        prop_assert!(l.steps().len() + usize::from(l.check().is_some()) <= 2, "{}: {:?}", t, l);
        prop_assert!(l.slots() - l.inputs() <= t.num_lower(), "{}: {:?}", t, l);
        // An identity (read off the lowering) keeps every index in range,
        // and every one is valid.
        let lens = t.upper_lengths();
        let in_range = lens.as_slice().iter().enumerate().all(|(i, &len)| (0..len).contains(&up[i]));
        if t.is_identity() && in_range {
            prop_assert!(t.calculate_lower(&up)[0] == up[0] && t.is_valid_upper(&up), "{} at {}", t, up[0]);
        }
        // The inverse, on the lower side of the same values.
        let low = t.calculate_lower(&up);
        let inv = t.upper_lowering();
        prop_assert_eq!(inv.is_some(), t.calculate_upper(&low).is_some(), "{}", t);
        if let Some(inv) = inv {
            prop_assert!(well_formed(&inv), "{t}: {inv:?}");
            prop_assert_eq!((inv.inputs(), inv.outputs().len()), (t.num_lower(), t.num_upper()), "{}", t);
            prop_assert_eq!(Some(inv.lower(&low)), t.calculate_upper(&low), "{} at {:?}", t, &low[..t.num_lower()]);
            prop_assert_eq!(Some(inv.lower(&up)), t.calculate_upper(&up), "{} at {:?}", t, &up[..t.num_lower()]);
        }
    }
}

// ---------------------------------------------------------------------------
// cyclic_shift: CK Tile's own test cases (`test_cyclic_shift.cpp`).
// ---------------------------------------------------------------------------

/// CK's shapes (the two conv tiles, a square, and both degenerate ones):
/// every row is the identity rotated by its index, a permutation of the
/// row, row 0 untouched; the inverse undoes it; and on CK's (10, 8) it
/// differs from the xor over the same lengths.
#[test]
fn cyclic_shift_passes_cks_own_cases() {
    for (d0, d1) in [(10, 8), (20, 16), (4, 4), (8, 1), (1, 8)] {
        let t = Transform::cyclic_shift(d0, d1).unwrap();
        assert_eq!(t.upper_lengths().as_slice(), &[d0 as Index, d1 as Index]);
        assert!(t.is_always_valid() && !t.is_linear() && t.num_lower() == 2 && t.num_upper() == 2);
        for x in 0..d0 as Index {
            let mut row = Vec::new();
            for c in 0..d1 as Index {
                let low = t.calculate_lower(&idx(&[x, c]));
                assert_eq!(&low[..2], &[x, (c + x) % d1 as Index], "({d0}, {d1}) at ({x}, {c})");
                assert_eq!(t.calculate_upper(&low).map(|u| [u[0], u[1]]), Some([x, c]));
                row.push(low[1]);
            }
            row.sort_unstable();
            assert_eq!(row, (0..d1 as Index).collect::<Vec<_>>(), "row {x} is a permutation");
        }
    }
    // CK's factory test: (8, 4) maps (3, 2) to (3, 1).
    assert_eq!(&Transform::cyclic_shift(8, 4).unwrap().calculate_lower(&idx(&[3, 2]))[..2], &[3, 1]);
    let (cs, xr) = (Transform::cyclic_shift(10, 8).unwrap(), Transform::xor(10, 8).unwrap());
    let differs =
        (0..10).any(|x| (0..8).any(|c| cs.calculate_lower(&idx(&[x, c])) != xr.calculate_lower(&idx(&[x, c]))));
    assert!(differs);
    // Refused: a zero length, and lengths whose sum leaves an index.
    assert!(Transform::cyclic_shift(0, 8).is_err() && Transform::cyclic_shift(8, 0).is_err());
    assert!(Transform::cyclic_shift(usize::MAX / 2, usize::MAX / 2).is_err());
}

/// Any argument values: small and extreme integers, lists of 0 to 8
/// entries (negative ones among them).
fn any_arg() -> impl Strategy<Value = Arg> {
    let int = prop_oneof![-3i64..70, any::<i64>()];
    prop_oneof![
        int.prop_map(Arg::Int),
        proptest::collection::vec(prop_oneof![-2i64..40, any::<i64>()], 0..=MAX_DIMS)
            .prop_map(|v| Arg::List(Dims::from_slice(&v).unwrap())),
    ]
}

proptest! {
    /// `from_args` never panics on any values; whatever it builds is of
    /// the kind asked for, and builds back from its own `args`.
    #[test]
    fn from_args_takes_any_values(kind in 0..Kind::ALL.len(), args in proptest::collection::vec(any_arg(), 0..5)) {
        let kind = Kind::ALL[kind];
        match Transform::from_args(kind, &args) {
            Ok(t) => {
                prop_assert_eq!(t.kind(), kind);
                prop_assert_eq!(Transform::from_args(kind, t.args().as_slice()).unwrap(), t);
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

// ---------------------------------------------------------------------------
// Every kind, drawn by the kind itself: what a new kind is tested by
// without a new strategy (`scripts/scratch-kind.sh` adds one and runs
// these tests, the `drawn_` ones).
// ---------------------------------------------------------------------------

/// A dimension of length `len` offered to a kind, the lengths of the free
/// ones it may take, and a seeded random source.
struct Seeded {
    len: Index,
    free: Vec<Index>,
    state: u64,
}

impl cktile_transforms::kinds::Draw for Seeded {
    fn length(&self) -> Index {
        self.len
    }
    fn below(&mut self, n: u64) -> u64 {
        // splitmix64
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        if n == 0 { 0 } else { (z ^ (z >> 31)) % n }
    }
    fn take(&mut self, fits: &dyn Fn(Index) -> bool) -> Option<Index> {
        let i = self.free.iter().position(|&l| fits(l))?;
        Some(self.free.remove(i))
    }
}

/// A transform of any kind of `Kind::ALL`, drawn by its kind over a
/// random offered dimension and up to two free ones.
fn drawn() -> impl Strategy<Value = Transform> {
    (0..Kind::ALL.len(), 1i64..=16, prop::collection::vec(1i64..=16, 0..=2), any::<u64>())
        .prop_filter_map("the kind fits the dimensions offered", |(k, len, free, state)| {
            Transform::draw(Kind::ALL[k], &mut Seeded { len, free, state })
        })
}

/// Every kind draws itself over some offer, and what it draws is of that
/// kind and round-trips through its spec text's values.
#[test]
fn drawn_every_kind_draws_itself() {
    for kind in Kind::ALL {
        let drawn: Vec<Transform> = (0..64)
            .filter_map(|state| Transform::draw(kind, &mut Seeded { len: 8, free: vec![4, 6, 8], state }))
            .collect();
        assert!(!drawn.is_empty(), "{kind:?} never draws over a length of 8 with 4, 6 and 8 free");
        for t in drawn {
            assert_eq!(t.kind(), kind);
            // (A swizzle's bound length is not an argument: compare texts.)
            assert_eq!(Transform::from_args(kind, t.args().as_slice()).unwrap().to_string(), t.to_string());
            assert_eq!(Kind::from_name(kind.name()), Some(kind));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// On every kind: the lowering computes the formulas and the check
    /// the validity, everywhere; the inverse lowering computes the inverse
    /// formulas where there is one; the inverse undoes the forward map
    /// inside the lengths; a move's update equals recomputing; a linear
    /// kind lowers to affine steps.
    #[test]
    fn drawn_transforms_keep_their_laws((t, up) in drawn().prop_flat_map(|t| (Just(t), anywhere(&t)))) {
        let l = t.lowering();
        prop_assert!(well_formed(&l), "{t}: {l:?}");
        prop_assert_eq!((l.inputs(), l.outputs().len()), (t.num_upper(), t.num_lower()), "{}", t);
        prop_assert_eq!(l.lower(&up), t.calculate_lower(&up), "{} at {:?}", t, &up[..t.num_upper()]);
        prop_assert_eq!(l.is_valid(&up), t.is_valid_upper(&up), "{} at {:?}", t, &up[..t.num_upper()]);
        let low = t.calculate_lower(&up);
        if let Some(inv) = t.upper_lowering() {
            prop_assert_eq!(Some(inv.lower(&low)), t.calculate_upper(&low), "{}", t);
        } else {
            prop_assert_eq!(t.calculate_upper(&low), None, "{}", t);
        }
        let lens = t.upper_lengths();
        let in_range = lens.as_slice().iter().enumerate().all(|(i, &len)| (0..len).contains(&up[i]));
        if in_range && let Some(back) = t.calculate_upper(&low) {
            prop_assert_eq!(&back[..t.num_upper()], &up[..t.num_upper()], "{} at {:?}", t, &up[..t.num_upper()]);
        }
        let zero = [0; MAX_DIMS];
        let (moved, _) = t.update_lower(&up, &t.calculate_lower(&zero), &up);
        prop_assert_eq!(&moved[..t.num_lower()], &low[..t.num_lower()], "{} moved from 0 to {:?}", t, &up[..t.num_upper()]);
        // A linear kind's lowering is affine steps and checks only, and its
        // formula is affine, wrapping: lower(a + b) = lower(a) + lower(b) -
        // lower(0), at this index and another anywhere. The kind says so
        // for every transform of it.
        prop_assert_eq!(t.kind().is_linear(), t.is_linear(), "{}", t);
        let affine = l.steps().iter().all(|s| matches!(s, cktile_transforms::lowering::Step::Affine { .. }));
        prop_assert!(!t.is_linear() || affine, "{}: {:?}", t, l);
        if t.is_linear() {
            let other: Indices = core::array::from_fn(|i| up[(i + 1) % MAX_DIMS].wrapping_mul(7).wrapping_sub(3));
            let sum: Indices = core::array::from_fn(|i| up[i].wrapping_add(other[i]));
            let (lb, l0, ls) = (t.calculate_lower(&other), t.calculate_lower(&zero), t.calculate_lower(&sum));
            for i in 0..t.num_lower() {
                prop_assert_eq!(ls[i], low[i].wrapping_add(lb[i]).wrapping_sub(l0[i]), "{} lower {}", t, i);
            }
        }
    }
}
