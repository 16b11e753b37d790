//! The layout catalogue (`cktile::layouts`): every builder checked against a
//! closed form written out here from the reference formulas, bijectivity
//! (or exactly the documented holes, for the padded layouts) over documented
//! parameter ranges, the point values CK Tile's own code produced, the
//! registry's `name:key=value` parsing and its error messages, the
//! `Display` / `spec::parse` round trip, and `const` use behind
//! `StaticDescriptor`.
//!
//! Ranges (exhaustive over every coordinate unless noted):
//! - `ck::xor_lds`, both unmerge orders: M, K in {16, 32, 64, 128}, KPack in
//!   {4, 8, 16}, MLdsLayer from `ck::mlds_layer` for element bytes 1, 2, 4 and
//!   32 / 64 banks; plus an irregular grid (M, K, KPack, L not powers of two)
//!   that pins down exactly which parameters are rejected.
//! - `ck::xor_preshuffle`: M in {1, 3, 8, 16, 24}, K in {4, 8, 12, 16, 32, 64}, KPack in {1, 2, 3, 4, 8}.
//! - `ck::kfold_mpair`: m {64, 128} x k {32, 64} x ak1 {4, 8} x m0 {16, 32, 64}
//!   x KThreadWrite {2, 4, 8} x MPerXdl {16, 32}, fp16 and fp8, 32 and 64 banks.
//! - `cute::swizzled_tile`: B, M in 0..=3, S in B..=4 and -4..=-max(B,1),
//!   rows in {1, 4, 32}, cols in {2, 8, 64}, both majors.
//! - `cute::gmma_atom`, `cute::tma_box`: every kind / mode, element bytes 1, 2, 4, 8.
//! - `triton::swizzled_shared`: a fixed grid and proptest over vec, perPhase,
//!   maxPhase, order and tile sizes (including invalid ones);
//!   `triton::nvmma_shared`: every swizzle width, element width and orientation.
//! - padding: `padding::row_padded`, `ck::v1_padded`, `ck::fmha_v` over small grids.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use cktile::layouts::ck::{self, KfoldParams, UnmergeOrder};
use cktile::layouts::cute::{self, Gmma, Major, Tma};
use cktile::layouts::{self, CATALOGUE, padding, triton};
use cktile::{
    Descriptor, DescriptorProblem, ErrorKind, ParameterProblem, SpecProblem, StaticDescriptor, Vector, check, spec,
};
use proptest::prelude::*;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

const ORDERS: [UnmergeOrder; 2] = [UnmergeOrder::Fixed2025, UnmergeOrder::Original2024];

/// Every top coordinate of a descriptor, row-major.
fn coords(d: &Descriptor) -> Vec<Vec<i64>> {
    let n = d.element_size().unwrap() as u64;
    (0..n).map(|i| check::coordinate(d, i)).collect()
}

/// Asserts `d` is a rows x cols tile whose offset at every `(r, c)` is `f(r, c)`.
fn assert_2d(d: &Descriptor, rows: usize, cols: usize, what: &str, f: impl Fn(i64, i64) -> i64) {
    assert_eq!(d.lengths().as_slice(), &[rows as i64, cols as i64], "{what}: lengths");
    for r in 0..rows as i64 {
        for c in 0..cols as i64 {
            assert_eq!(d.calculate_offset(&[r, c]), f(r, c), "{what}: offset at ({r}, {c})");
        }
    }
}

/// Asserts the offsets of every coordinate form a permutation of
/// `[0, element_space_size)` (without going through `check`).
fn assert_permutation(d: &Descriptor, what: &str) {
    let space = d.element_space_size();
    assert_eq!(d.element_size(), Some(space), "{what}: element size equals element space");
    let mut seen = vec![false; space as usize];
    for c in coords(d) {
        let o = d.calculate_offset(&c);
        assert!((0..space).contains(&o), "{what}: offset {o} of {c:?} outside [0, {space})");
        assert!(!seen[o as usize], "{what}: offset {o} reached twice (again at {c:?})");
        seen[o as usize] = true;
    }
}

/// Asserts `check::check` calls the descriptor a bijection.
fn assert_check_bijective(d: &Descriptor, what: &str) {
    let r = check::check(d).unwrap();
    assert!(r.is_bijective(), "{what}: check says not bijective: {r:?}");
    assert_eq!(r.hole_count, 0, "{what}");
    assert_eq!(r.collision_count, 0, "{what}");
    assert_eq!(r.outside_count, 0, "{what}");
    assert_eq!(r.valid_count as i64, d.element_space_size(), "{what}");
}

/// Asserts `d` is injective, stays in `[0, element_space_size)` and misses
/// exactly the offsets in `holes`.
fn assert_holes(d: &Descriptor, holes: &BTreeSet<i64>, what: &str) {
    let space = d.element_space_size();
    let mut seen = vec![false; space as usize];
    for c in coords(d) {
        let o = d.calculate_offset(&c);
        assert!((0..space).contains(&o), "{what}: offset {o} of {c:?} outside [0, {space})");
        assert!(!seen[o as usize], "{what}: offset {o} reached twice");
        seen[o as usize] = true;
    }
    let missed: BTreeSet<i64> = (0..space).filter(|&o| !seen[o as usize]).collect();
    assert_eq!(&missed, holes, "{what}: holes");
    let r = check::check(d).unwrap();
    assert!(r.injective && r.collision_count == 0 && r.outside_count == 0, "{what}: {r:?}");
    assert_eq!(r.hole_count, holes.len() as u64, "{what}: check's hole count");
    assert_eq!(r.surjective, holes.is_empty(), "{what}");
    let first: Vec<i64> = holes.iter().copied().take(check::EXAMPLES).collect();
    assert_eq!(r.holes, first, "{what}: check's first holes");
}

/// Asserts every top vector guarantee the descriptor reports holds: in a
/// dimension with vector length `v` and stride `s`, the `v` indices of each
/// aligned run are `s` apart in memory.
fn assert_vectors_hold(d: &Descriptor, what: &str) {
    let lengths = d.lengths();
    let vectors = d.top_vectors();
    for dim in 0..d.num_dims() {
        let (Some(v), Some(s)) = (vectors[dim].length, vectors[dim].stride) else { continue };
        assert!(v >= 1, "{what}: vector length {v}");
        for c in coords(d) {
            if c[dim] % v != 0 || c[dim] + v > lengths.get(dim) {
                continue;
            }
            let base = d.calculate_offset(&c);
            for j in 1..v {
                let mut n = c.clone();
                n[dim] += j;
                assert_eq!(d.calculate_offset(&n), base + j * s, "{what}: dim {dim} vector {v}x{s} from {c:?}");
            }
        }
    }
}

/// Asserts `d` prints to a spec that parses back to the same descriptor,
/// and that the parsed one gives the same offsets.
fn assert_round_trip(d: &Descriptor, what: &str) {
    let text = d.to_string();
    let back = spec::parse(&text).unwrap_or_else(|e| panic!("{what}: `{text}` does not parse: {e}"));
    assert_eq!(&back, d, "{what}: `{text}` parses to a different descriptor");
    assert_eq!(back.to_string(), text, "{what}");
    assert_eq!(layouts::resolve(&text).unwrap(), *d, "{what}: resolve of the printed spec");
}

// ---------------------------------------------------------------------------
// Closed forms, written from the reference (not from the builders)
// ---------------------------------------------------------------------------

/// CK Tile universal A, current (2025) form:
/// `((l*K0 + k0) ^ (m' % (K0*L)))*KPack + m'*(K*L) + kp`.
fn ck_2025(m: i64, k: i64, kk: i64, kpack: i64, l: i64) -> i64 {
    let k0n = kk / kpack;
    let (mp, li) = (m / l, m % l);
    let (k0, kp) = (k / kpack, k % kpack);
    ((li * k0n + k0) ^ (mp % (k0n * l))) * kpack + mp * (kk * l) + kp
}

/// CK Tile universal A, 2024 form: `((k0*L + l) ^ (m' % (K0*L)))*KPack + m'*K*L + kp`.
fn ck_2024(m: i64, k: i64, kk: i64, kpack: i64, l: i64) -> i64 {
    let k0n = kk / kpack;
    let (mp, li) = (m / l, m % l);
    let (k0, kp) = (k / kpack, k % kpack);
    ((k0 * l + li) ^ (mp % (k0n * l))) * kpack + mp * kk * l + kp
}

fn ck_form(order: UnmergeOrder, m: i64, k: i64, kk: i64, kpack: i64, l: i64) -> i64 {
    match order {
        UnmergeOrder::Fixed2025 => ck_2025(m, k, kk, kpack, l),
        UnmergeOrder::Original2024 => ck_2024(m, k, kk, kpack, l),
    }
}

/// CK's MLdsLayer: `max(1, (banks*4/K)/sizeof(T))`, left to right.
fn mlds_formula(k: usize, bytes: usize, banks: usize) -> usize {
    ((banks * 4 / k) / bytes).max(1)
}

/// CuTe `Swizzle<B,M,S>` on an index (S < 0 shifts left).
fn swizzle(o: i64, b: u32, m: u32, s: i32) -> i64 {
    let mask = (1i64 << b) - 1;
    if s >= 0 { o ^ (((o >> (m + s as u32)) & mask) << m) } else { o ^ (((o >> m) & mask) << (m + s.unsigned_abs())) }
}

/// The block a swizzle permutes within: `2^(top of the target field)`.
fn swizzle_block(b: u32, m: u32, s: i32) -> usize {
    if b == 0 { 1 } else { 1 << (m + b + if s < 0 { s.unsigned_abs() } else { 0 }) }
}

/// Triton's swizzled shared encoding, element form, on a row-major tile:
/// `col' = ((col/vec) ^ ((row/perPhase) % maxPhase))*vec + col%vec`.
fn triton_col(row: i64, col: i64, vec: i64, per_phase: i64, max_phase: i64) -> i64 {
    ((col / vec) ^ ((row / per_phase) % max_phase)) * vec + col % vec
}

// ---------------------------------------------------------------------------
// 1. CK XOR / MLdsLayer blocks
// ---------------------------------------------------------------------------

#[test]
fn mlds_layer_values() {
    // From the reference and the docs: fp16 K=64 -> 1, K=32 -> 2, gfx950 K=32 -> 4.
    assert_eq!(ck::mlds_layer(64, 2, 32).unwrap(), 1);
    assert_eq!(ck::mlds_layer(32, 2, 32).unwrap(), 2);
    assert_eq!(ck::mlds_layer(32, 2, 64).unwrap(), 4);
    assert_eq!(ck::mlds_layer(16, 2, 32).unwrap(), 4);
    assert_eq!(ck::mlds_layer(16, 1, 32).unwrap(), 8);
    assert_eq!(ck::mlds_layer(16, 1, 64).unwrap(), 16);
    assert_eq!(ck::mlds_layer(16, 4, 32).unwrap(), 2);
    assert_eq!(ck::mlds_layer(128, 2, 32).unwrap(), 1);
    assert_eq!(ck::mlds_layer(128, 4, 32).unwrap(), 1); // (128/128)/4 = 0 -> 1
    assert_eq!(ck::mlds_layer(256, 1, 32).unwrap(), 1); // 128/256 = 0 -> 1
    assert_eq!(ck::mlds_layer(24, 2, 32).unwrap(), 2); // (128/24 = 5)/2 = 2: left to right
    assert_eq!(ck::mlds_layer(48, 1, 32).unwrap(), 2);
    // Degenerate inputs do not divide by zero.
    assert_eq!(ck::mlds_layer(0, 2, 32).unwrap(), 1);
    assert_eq!(ck::mlds_layer(32, 0, 32).unwrap(), 1);
    assert_eq!(ck::default_kpack(1), 16);
    assert_eq!(ck::default_kpack(2), 8);
    assert_eq!(ck::default_kpack(4), 4);
    assert_eq!(ck::default_kpack(8), 2);
}

#[test]
fn mlds_layer_formula_over_range() {
    for k in 1..=512 {
        for bytes in [1, 2, 4, 8] {
            for banks in [32, 64] {
                assert_eq!(
                    ck::mlds_layer(k, bytes, banks).unwrap(),
                    mlds_formula(k, bytes, banks),
                    "K={k} bytes={bytes}"
                );
            }
        }
    }
}

/// The documented grid: every combination is valid, a bijection onto
/// `[0, M*K)`, and equal to the closed form of its unmerge order.
#[test]
fn xor_lds_bijective_closed_form_grid() {
    let mut built = BTreeSet::new();
    for order in ORDERS {
        for m in [16usize, 32, 64, 128] {
            for k in [16usize, 32, 64, 128] {
                for kpack in [4usize, 8, 16] {
                    for bytes in [1usize, 2, 4] {
                        for banks in [32usize, 64] {
                            let l = ck::mlds_layer(k, bytes, banks).unwrap();
                            let valid = k % kpack == 0 && m % l == 0 && (k / kpack * l).is_power_of_two();
                            let res = ck::xor_lds(m, k, kpack, l, order);
                            assert_eq!(res.is_ok(), valid, "{order:?} M={m} K={k} KPack={kpack} L={l}: {res:?}");
                            // universal_a is xor_lds with CK's MLdsLayer.
                            let ua = ck::universal_a(m, k, kpack, bytes, banks, order);
                            assert_eq!(ua, res, "universal_a {order:?} M={m} K={k} KPack={kpack} e={bytes} b={banks}");
                            if !built.insert((order == UnmergeOrder::Fixed2025, m, k, kpack, l)) {
                                continue;
                            }
                            let d = res.unwrap();
                            let what = format!("xor_lds {order:?} M={m} K={k} KPack={kpack} L={l}");
                            assert_eq!(d.element_space_size(), (m * k) as i64, "{what}");
                            assert_2d(&d, m, k, &what, |r, c| ck_form(order, r, c, k as i64, kpack as i64, l as i64));
                            assert_permutation(&d, &what);
                            assert_eq!(d.top_vectors()[1], Vector::new(kpack as i64, 1), "{what}: k vector");
                        }
                    }
                }
            }
        }
    }
    assert!(built.len() >= 300, "{} distinct layouts", built.len());
}

/// `check::check` agrees on a slice of the grid, and the reported vectors hold.
#[test]
fn xor_lds_check_and_vectors() {
    for order in ORDERS {
        for (m, k, kpack, l) in [(64, 32, 8, 2), (32, 16, 4, 4), (16, 64, 16, 1), (32, 128, 8, 2), (16, 16, 8, 8)] {
            let d = ck::xor_lds(m, k, kpack, l, order).unwrap();
            let what = format!("xor_lds {order:?} M={m} K={k} KPack={kpack} L={l}");
            assert_check_bijective(&d, &what);
            assert_vectors_hold(&d, &what);
            assert_round_trip(&d, &what);
        }
    }
}

/// An irregular grid: the builder rejects exactly the combinations with
/// K % KPack != 0, M % L != 0 or K/KPack*L not a power of two, and every
/// accepted one is a bijection with the closed form.
#[test]
fn xor_lds_rejects_exactly_the_invalid_parameters() {
    let mut accepted = 0;
    let mut rejected = 0;
    for order in ORDERS {
        for m in [4usize, 6, 8, 12, 16, 24] {
            for k in [6usize, 8, 12, 16, 24, 32, 48] {
                for kpack in [1usize, 2, 3, 4, 8] {
                    for l in [1usize, 2, 3, 4, 8] {
                        let valid = k % kpack == 0 && m % l == 0 && (k / kpack * l).is_power_of_two();
                        let res = ck::xor_lds(m, k, kpack, l, order);
                        let what = format!("xor_lds {order:?} M={m} K={k} KPack={kpack} L={l}");
                        assert_eq!(res.is_ok(), valid, "{what}: {res:?}");
                        match res {
                            Ok(d) => {
                                accepted += 1;
                                assert_2d(&d, m, k, &what, |r, c| {
                                    ck_form(order, r, c, k as i64, kpack as i64, l as i64)
                                });
                                assert_permutation(&d, &what);
                            }
                            Err(e) => {
                                rejected += 1;
                                let ErrorKind::Port(cktile_core::ErrorKind::Parameter(ParameterProblem::Invalid {
                                    context: layout,
                                    parameter,
                                    value,
                                    ..
                                })) = *e.kind()
                                else {
                                    panic!("{what}: not a layout-parameter error: {e:?}")
                                };
                                assert_eq!(layout, "ck-xor-lds", "{what}");
                                // The first failed condition is the one named.
                                let (p, v) = if k % kpack != 0 {
                                    ("K", k)
                                } else if m % l != 0 {
                                    ("M", m)
                                } else {
                                    ("K/KPack * MLdsLayer", k / kpack * l)
                                };
                                assert_eq!((parameter, value), (p, v as i64), "{what}: {e}");
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(accepted > 100 && rejected > 100, "accepted {accepted}, rejected {rejected}");
}

#[test]
fn xor_lds_zero_parameters_are_errors() {
    for (m, k, kpack, l, name) in
        [(0, 32, 8, 1, "M"), (128, 0, 8, 1, "K"), (128, 32, 0, 1, "KPack"), (128, 32, 8, 0, "MLdsLayer")]
    {
        let e = ck::xor_lds(m, k, kpack, l, UnmergeOrder::Fixed2025).unwrap_err();
        assert_eq!(e.to_string(), format!("ck-xor-lds: {name} = 0; it must be at least 1"));
    }
    // Overflowing K/KPack * MLdsLayer is an error, not a panic.
    let e = ck::xor_lds(1 << 40, 1 << 40, 1, 1 << 40, UnmergeOrder::Fixed2025).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::Port(cktile_core::ErrorKind::Parameter(ParameterProblem::Invalid { .. }))),
        "{e}"
    );
}

#[test]
fn universal_a_parameter_errors() {
    let e = ck::universal_a(128, 32, 8, 3, 32, UnmergeOrder::Fixed2025).unwrap_err();
    assert_eq!(e.to_string(), "ck-universal-a: element bytes = 3; it must be 1, 2, 4 or 8");
    let e = ck::universal_a(128, 32, 8, 2, 48, UnmergeOrder::Fixed2025).unwrap_err();
    assert_eq!(e.to_string(), "ck-universal-a: banks = 48; it must be 32 (gfx90a, gfx942) or 64 (gfx950)");
    let e = ck::universal_a(128, 0, 8, 2, 32, UnmergeOrder::Fixed2025).unwrap_err();
    assert_eq!(e.to_string(), "ck-universal-a: K = 0; it must be at least 1");
    let e = ck::universal_a(128, 24, 8, 2, 32, UnmergeOrder::Fixed2025).unwrap_err();
    assert!(e.to_string().starts_with("ck-universal-a: K = 24; K/KPack * MLdsLayer must be a power of two"), "{e}");
}

/// Reference section 3(a) and 7: the values CK Tile's code computes.
#[test]
fn ck_universal_a_point_values() {
    for order in ORDERS {
        // K = 64, L = 1: both forms agree.
        let d = ck::universal_a(128, 64, 8, 2, 32, order).unwrap();
        assert_eq!(d.element_space_size(), 8192);
        for ((m, k), o) in [
            ((0, 0), 0),
            ((1, 0), 72),
            ((2, 0), 144),
            ((1, 8), 64),
            ((3, 9), 209),
            ((3, 17), 201),
            ((9, 63), 631),
            ((16, 16), 1040),
            ((64, 0), 4096),
            ((127, 63), 8135),
        ] {
            assert_eq!(d.calculate_offset(&[m, k]), o, "{order:?} K=64 ({m},{k})");
        }
    }
    let d = ck::universal_a(128, 32, 8, 2, 32, UnmergeOrder::Fixed2025).unwrap();
    assert_eq!(d.element_space_size(), 4096);
    for ((m, k), o) in [
        ((1, 0), 32),
        ((2, 0), 72),
        ((1, 8), 40),
        ((3, 9), 97),
        ((3, 17), 121),
        ((16, 16), 528),
        ((64, 0), 2048),
        ((65, 5), 2085),
        ((127, 31), 4039),
    ] {
        assert_eq!(d.calculate_offset(&[m, k]), o, "2025 K=32 ({m},{k})");
    }
    let d = ck::universal_a(128, 32, 8, 2, 32, UnmergeOrder::Original2024).unwrap();
    assert_eq!(d.element_space_size(), 4096);
    for ((m, k), o) in [((1, 0), 8), ((1, 8), 24), ((3, 9), 81), ((3, 17), 97), ((16, 16), 544), ((65, 5), 2061)] {
        assert_eq!(d.calculate_offset(&[m, k]), o, "2024 K=32 ({m},{k})");
    }
    // Section 7: the 2024 K=32 formula 64*(m/2) + 8*(((k/8)*2 + m%2) ^ ((m/2)%8)) + k%8.
    assert_2d(&d, 128, 32, "2024 K=32 section 7", |m, k| {
        64 * (m / 2) + 8 * (((k / 8) * 2 + m % 2) ^ ((m / 2) % 8)) + k % 8
    });
    // The docs' example of the two orders.
    let old = ck::xor_lds(128, 32, 8, 2, UnmergeOrder::Original2024).unwrap();
    let new = ck::xor_lds(128, 32, 8, 2, UnmergeOrder::Fixed2025).unwrap();
    assert_eq!((old.calculate_offset(&[1, 0]), new.calculate_offset(&[1, 0])), (8, 32));
}

/// With MLdsLayer 1 the unmerge is trivial, so both CK versions agree.
#[test]
fn ck_orders_agree_when_mlds_layer_is_one() {
    for (m, k, kpack) in [(32, 64, 8), (16, 32, 4), (64, 128, 16), (8, 16, 2)] {
        let a = ck::xor_lds(m, k, kpack, 1, UnmergeOrder::Fixed2025).unwrap();
        let b = ck::xor_lds(m, k, kpack, 1, UnmergeOrder::Original2024).unwrap();
        for c in coords(&a) {
            assert_eq!(a.calculate_offset(&c), b.calculate_offset(&c), "M={m} K={k} KPack={kpack} {c:?}");
        }
    }
    // ... and differ when it is not.
    let a = ck::xor_lds(32, 32, 8, 2, UnmergeOrder::Fixed2025).unwrap();
    let b = ck::xor_lds(32, 32, 8, 2, UnmergeOrder::Original2024).unwrap();
    assert_ne!(a.calculate_offset(&[1, 0]), b.calculate_offset(&[1, 0]));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Larger tiles, sampled: the closed form at random coordinates.
    #[test]
    fn xor_lds_closed_form_sampled(
        m_log in 4u32..=10, k_log in 3u32..=9, kpack_log in 0u32..=4, bytes in prop::sample::select(vec![1usize, 2, 4, 8]),
        banks in prop::sample::select(vec![32usize, 64]), fixed in any::<bool>(),
        samples in prop::collection::vec((any::<u32>(), any::<u32>()), 32),
    ) {
        let (m, k, kpack) = (1usize << m_log, 1usize << k_log, 1usize << kpack_log.min(k_log));
        let order = if fixed { UnmergeOrder::Fixed2025 } else { UnmergeOrder::Original2024 };
        let l = ck::mlds_layer(k, bytes, banks).unwrap();
        let res = ck::universal_a(m, k, kpack, bytes, banks, order);
        prop_assert_eq!(res.is_ok(), m % l == 0);
        if let Ok(d) = res {
            prop_assert_eq!(d.element_space_size(), (m * k) as i64);
            for (a, b) in samples {
                let (r, c) = ((a as usize % m) as i64, (b as usize % k) as i64);
                let o = d.calculate_offset(&[r, c]);
                prop_assert_eq!(o, ck_form(order, r, c, k as i64, kpack as i64, l as i64));
                prop_assert_eq!(d.try_calculate_offset(&[r, c]).unwrap(), o);
            }
            prop_assert!(d.try_calculate_offset(&[m as i64, 0]).is_err());
            prop_assert!(d.try_calculate_offset(&[0, k as i64]).is_err());
        }
    }
}

// ---------------------------------------------------------------------------
// CK plain XOR preshuffle
// ---------------------------------------------------------------------------

#[test]
fn xor_preshuffle_closed_form_and_validity() {
    let mut accepted = 0;
    for m in [1usize, 3, 8, 16, 24] {
        for k in [4usize, 8, 12, 16, 32, 64] {
            for kpack in [1usize, 2, 3, 4, 8] {
                let valid = k % kpack == 0 && (k / kpack).is_power_of_two();
                let res = ck::xor_preshuffle(m, k, kpack);
                let what = format!("xor_preshuffle M={m} K={k} KPack={kpack}");
                assert_eq!(res.is_ok(), valid, "{what}: {res:?}");
                let Ok(d) = res else { continue };
                accepted += 1;
                let (kk, kp, k0n) = (k as i64, kpack as i64, (k / kpack) as i64);
                // x' = (y % K0) ^ x on KPack-wide vectors.
                assert_2d(&d, m, k, &what, |y, x| y * kk + ((y % k0n) ^ (x / kp)) * kp + x % kp);
                assert_permutation(&d, &what);
            }
        }
    }
    assert!(accepted >= 40, "{accepted}");
    let d = ck::xor_preshuffle(64, 64, 8).unwrap();
    assert_eq!(d.calculate_offset(&[1, 0]), 72);
    assert_check_bijective(&d, "xor_preshuffle 64x64");
    assert_vectors_hold(&d, "xor_preshuffle 64x64");
    assert_round_trip(&d, "xor_preshuffle 64x64");
    let e = ck::xor_preshuffle(64, 48, 8).unwrap_err();
    assert_eq!(e.to_string(), "ck-xor-preshuffle: K/KPack = 6; it must be a power of two (the xor's modulus)");
    let e = ck::xor_preshuffle(64, 60, 8).unwrap_err();
    assert_eq!(e.to_string(), "ck-xor-preshuffle: K = 60; it must be a multiple of KPack");
}

// ---------------------------------------------------------------------------
// CK kfold / mpair
// ---------------------------------------------------------------------------

/// The kfold / mpair chain of reference section 3(b), evaluated by hand:
/// `None` where a derived quantity does not fit.
fn kfold_offset_fn(p: &KfoldParams) -> Option<impl Fn(i64, i64) -> i64 + use<>> {
    let w = p.banks * 4;
    let kfold = if p.ak1 * p.m0 * p.element_bytes > w { 1 } else { w / (p.ak1 * p.m0 * p.element_bytes) };
    let mpair = if p.ak1 * p.m_per_xdl * p.element_bytes > w {
        1
    } else {
        p.m0.min(w / (p.ak1 * p.m_per_xdl * p.element_bytes))
    };
    if !p.m.is_multiple_of(p.m0) || !p.k.is_multiple_of(p.ak1) {
        return None;
    }
    let m1 = p.m / p.m0;
    let ak0 = p.k / p.ak1;
    let k_thread_read = 64 / p.m_per_xdl;
    if !ak0.is_multiple_of(p.k_thread_write) || !ak0.is_multiple_of(k_thread_read) {
        return None;
    }
    let k0w = ak0 / p.k_thread_write;
    let k0r = ak0 / k_thread_read;
    let q = kfold * k0w / k0r;
    let krp = if q > 1 { k_thread_read / q } else { k_thread_read };
    if krp == 0 || !p.k_thread_write.is_multiple_of(kfold * krp) || !p.m0.is_multiple_of(mpair) {
        return None;
    }
    let k_outer = p.k_thread_write / kfold / krp;
    let x0 = krp * m1;
    let x1 = kfold * p.m0 / mpair;
    if !x1.is_power_of_two() {
        return None;
    }
    let [m1, mpair, kfold, k0w, ak1, k_outer, x0, x1, m0p] =
        [m1, mpair, kfold, k0w, p.ak1, k_outer, x0, x1, p.m0 / mpair].map(|v| v as i64);
    Some(move |m: i64, k: i64| {
        // m = merge(M0/mpair, mpair, M1) -> dims 5, 6, 3.
        let d3 = m % m1;
        let d6 = (m / m1) % mpair;
        let d5 = m / m1 / mpair;
        // k = merge(KThreadReadPerm, k_outer, kfold, K0PerThreadWrite, AK1) -> dims 0, 1, 4, 2, 7.
        let d7 = k % ak1;
        let t = k / ak1;
        let d2 = t % k0w;
        let t = t / k0w;
        let d4 = t % kfold;
        let t = t / kfold;
        let d1 = t % k_outer;
        let d0 = t / k_outer;
        // unmerge((KThreadReadPerm, M1)) and unmerge((kfold, M0/mpair)).
        let x2 = d0 * m1 + d3;
        let x3 = d4 * m0p + d5;
        // xor on dims 2, 3, then the packed 6-D block.
        let y3 = x3 ^ (x2 % x1);
        ((((d1 * k0w + d2) * x0 + x2) * x1 + y3) * mpair + d6) * ak1 + d7
    })
}

#[test]
fn kfold_mpair_grid() {
    let mut valid_count = 0;
    for (bytes, banks) in [(2usize, 32usize), (1, 32), (2, 64)] {
        for m in [64usize, 128] {
            for k in [32usize, 64] {
                for ak1 in [4usize, 8] {
                    for m0 in [16usize, 32, 64] {
                        for ktw in [2usize, 4, 8] {
                            for mpx in [16usize, 32] {
                                let p = KfoldParams {
                                    m,
                                    k,
                                    ak1,
                                    m0,
                                    k_thread_write: ktw,
                                    m_per_xdl: mpx,
                                    element_bytes: bytes,
                                    banks,
                                };
                                let what = format!("{p:?}");
                                let expected = kfold_offset_fn(&p);
                                let res = ck::kfold_mpair(&p);
                                assert_eq!(res.is_ok(), expected.is_some(), "{what}: {res:?}");
                                let (Ok(d), Some(f)) = (res, expected) else { continue };
                                valid_count += 1;
                                assert_eq!(d.element_space_size(), (m * k) as i64, "{what}");
                                assert_2d(&d, m, k, &what, &f);
                                assert_permutation(&d, &what);
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(valid_count >= 50, "only {valid_count} valid kfold/mpair parameter sets");
}

#[test]
fn kfold_mpair_factors_and_example() {
    let p =
        KfoldParams { m: 128, k: 32, ak1: 8, m0: 32, k_thread_write: 4, m_per_xdl: 32, element_bytes: 2, banks: 32 };
    assert_eq!((p.kfold(), p.mpair()), (Ok(1), Ok(1)));
    let mut q =
        KfoldParams { m: 64, k: 32, ak1: 4, m0: 16, k_thread_write: 8, m_per_xdl: 16, element_bytes: 2, banks: 32 };
    assert_eq!((q.kfold(), q.mpair()), (Ok(1), Ok(1)));
    q.m0 = 8;
    assert_eq!(q.kfold(), Ok(2));
    let r = KfoldParams { m: 64, k: 32, ak1: 4, m0: 4, k_thread_write: 8, m_per_xdl: 16, element_bytes: 1, banks: 64 };
    assert_eq!((r.kfold(), r.mpair()), (Ok(16), Ok(4))); // 256/16; min(4, 256/64)
    let d = ck::kfold_mpair(&p).unwrap();
    assert_check_bijective(&d, "kfold example");
    assert_vectors_hold(&d, "kfold example");
    assert_round_trip(&d, "kfold example");
    let mut bad = p;
    bad.m_per_xdl = 8;
    assert_eq!(ck::kfold_mpair(&bad).unwrap_err().to_string(), "ck-kfold-mpair: MPerXdl = 8; it must be 16 or 32");
    let mut bad = p;
    bad.m0 = 48;
    assert_eq!(ck::kfold_mpair(&bad).unwrap_err().to_string(), "ck-kfold-mpair: M = 128; it must be a multiple of M0");
}

// ---------------------------------------------------------------------------
// CuTe swizzled tiles
// ---------------------------------------------------------------------------

#[test]
fn swizzled_tile_bijective_over_range() {
    let mut accepted = 0;
    let mut rejected = 0;
    for b in 0..=3u32 {
        for m in 0..=3u32 {
            let shifts: Vec<i32> = (b as i32..=4).chain(-4..=-(b.max(1) as i32)).collect();
            for s in shifts {
                for rows in [1usize, 4, 32] {
                    for cols in [2usize, 8, 64] {
                        for major in [Major::Row, Major::Column] {
                            let what = format!("Swizzle<{b},{m},{s}> {rows}x{cols} {major:?}");
                            let valid = (rows * cols) % swizzle_block(b, m, s) == 0;
                            let res = cute::swizzled_tile(b, m, s, rows, cols, major);
                            assert_eq!(res.is_ok(), valid, "{what}: {res:?}");
                            let Ok(d) = res else {
                                rejected += 1;
                                continue;
                            };
                            accepted += 1;
                            assert_2d(&d, rows, cols, &what, |r, c| {
                                let o = match major {
                                    Major::Row => r * cols as i64 + c,
                                    Major::Column => c * rows as i64 + r,
                                };
                                swizzle(o, b, m, s)
                            });
                            assert_permutation(&d, &what);
                        }
                    }
                }
            }
        }
    }
    assert!(accepted > 500 && rejected > 100, "accepted {accepted}, rejected {rejected}");
}

#[test]
fn swizzled_tile_parameter_errors() {
    // |S| < B.
    assert!(matches!(
        cute::swizzled_tile(3, 3, 2, 8, 64, Major::Row).unwrap_err().kind(),
        ErrorKind::Port(cktile_core::ErrorKind::Descriptor(DescriptorProblem::Transform { .. }))
    ));
    assert!(matches!(
        cute::swizzled_tile(3, 3, -2, 8, 64, Major::Row).unwrap_err().kind(),
        ErrorKind::Port(cktile_core::ErrorKind::Descriptor(DescriptorProblem::Transform { .. }))
    ));
    // Too far-reaching.
    assert!(cute::swizzled_tile(30, 30, 30, 8, 64, Major::Row).is_err());
    // Tile not a multiple of the permuted block (2^6 elements).
    assert!(cute::swizzled_tile(3, 3, 3, 1, 32, Major::Row).is_err());
    assert_eq!(
        cute::swizzled_tile(3, 3, 3, 0, 64, Major::Row).unwrap_err().to_string(),
        "cute-swizzle: rows = 0; it must be at least 1"
    );
    let e = cute::swizzled_tile(1, 0, 1, usize::MAX / 2, 4, Major::Row).unwrap_err();
    assert_eq!(e.to_string().split(';').next().unwrap(), format!("cute-swizzle: rows = {}", i64::MAX));
    // SM80 fp16 K-major atom from the docs.
    let d = cute::swizzled_tile(3, 3, 3, 8, 64, Major::Row).unwrap();
    assert_eq!(d.calculate_offset(&[1, 0]), 72);
    assert_vectors_hold(&d, "Swizzle<3,3,3> 8x64");
    assert_round_trip(&d, "Swizzle<3,3,3> 8x64");
    let d = cute::swizzled_tile(2, 1, -3, 16, 16, Major::Column).unwrap();
    assert_check_bijective(&d, "Swizzle<2,1,-3> col");
    assert_vectors_hold(&d, "Swizzle<2,1,-3> col");
    assert_round_trip(&d, "Swizzle<2,1,-3> col");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Larger swizzled tiles, sampled coordinates against the closed form.
    #[test]
    fn swizzled_tile_sampled(
        b in 0u32..=4, m in 0u32..=5, s_abs in 0i32..=6, neg in any::<bool>(), rows_log in 0u32..=8, cols_log in 0u32..=8,
        row_major in any::<bool>(), samples in prop::collection::vec((any::<u32>(), any::<u32>()), 24),
    ) {
        let s = if neg { -s_abs } else { s_abs };
        let (rows, cols) = (1usize << rows_log, 1usize << cols_log);
        let major = if row_major { Major::Row } else { Major::Column };
        let res = cute::swizzled_tile(b, m, s, rows, cols, major);
        let valid = s.unsigned_abs() >= b && (rows * cols) % swizzle_block(b, m, s) == 0;
        prop_assert_eq!(res.is_ok(), valid);
        if let Ok(d) = res {
            for (x, y) in samples {
                let (r, c) = ((x as usize % rows) as i64, (y as usize % cols) as i64);
                let o = if row_major { r * cols as i64 + c } else { c * rows as i64 + r };
                prop_assert_eq!(d.calculate_offset(&[r, c]), swizzle(o, b, m, s));
            }
        }
    }
}

// ---------------------------------------------------------------------------
// GMMA atoms and TMA boxes (bijectivity; the byte formulas are in catalog_equivalences.rs)
// ---------------------------------------------------------------------------

#[test]
fn gmma_atoms_bijective_with_shapes() {
    for kind in [Gmma::Interleave, Gmma::Sw32, Gmma::Sw64, Gmma::Sw128] {
        for major in [Major::Row, Major::Column] {
            for e in [1usize, 2, 4, 8] {
                let d = cute::gmma_atom(kind, major, e).unwrap();
                let what = format!("gmma {kind:?} {major:?} {e}B");
                let per_row = kind.row_bytes() / e;
                let expected = match major {
                    Major::Row => [8, per_row as i64],
                    Major::Column => [per_row as i64, 8],
                };
                assert_eq!(d.lengths().as_slice(), &expected, "{what}");
                assert_eq!(d.element_space_size(), (8 * per_row) as i64, "{what}");
                assert_check_bijective(&d, &what);
                assert_vectors_hold(&d, &what);
                assert_round_trip(&d, &what);
            }
        }
    }
    for e in [0usize, 3, 16] {
        let err = cute::gmma_atom(Gmma::Sw128, Major::Row, e).unwrap_err();
        assert_eq!(err.to_string(), format!("cute-gmma: element bytes = {e}; it must be 1, 2, 4 or 8"));
    }
}

#[test]
fn tma_boxes_bijective_with_shapes() {
    for mode in [Tma::None, Tma::B32, Tma::B64, Tma::B128, Tma::B128Atom32, Tma::B128Atom64] {
        for e in [1usize, 2, 4, 8] {
            for rows in [1usize, 2, 8, 16] {
                let d = cute::tma_box(mode, rows, e).unwrap();
                let what = format!("tma {mode:?} {e}B rows={rows}");
                assert_eq!(d.lengths().as_slice(), &[rows as i64, (mode.row_bytes() / e) as i64], "{what}");
                assert_check_bijective(&d, &what);
                assert_vectors_hold(&d, &what);
            }
        }
    }
    assert!(cute::tma_box(Tma::B128, 0, 2).is_err());
    assert!(cute::tma_box(Tma::B128, 8, 16).is_err());
}

// ---------------------------------------------------------------------------
// Triton
// ---------------------------------------------------------------------------

/// Valid iff the contiguous length is a multiple of vec with a power-of-two
/// quotient at least maxPhase, and the other length a multiple of perPhase*maxPhase.
fn triton_valid(vec: usize, pp: usize, mp: usize, row_major: bool, rows: usize, cols: usize) -> bool {
    let (outer, inner) = if row_major { (rows, cols) } else { (cols, rows) };
    vec > 0
        && pp > 0
        && mp > 0
        && rows > 0
        && cols > 0
        && inner % vec == 0
        && (inner / vec).is_power_of_two()
        && inner / vec >= mp
        && outer % (pp * mp) == 0
}

/// `params` is `[vec, perPhase, maxPhase, rows, cols]`.
fn triton_offset(r: i64, c: i64, params: [i64; 5], row_major: bool) -> i64 {
    let [vec, pp, mp, rows, cols] = params;
    if row_major { r * cols + triton_col(r, c, vec, pp, mp) } else { c * rows + triton_col(c, r, vec, pp, mp) }
}

#[test]
fn triton_swizzled_grid() {
    let mut accepted = 0;
    for vec in [1usize, 2, 4, 8] {
        for pp in [1usize, 2, 4] {
            for mp in [1usize, 2, 3, 4, 8] {
                for row_major in [true, false] {
                    for (rows, cols) in [(8usize, 32usize), (16, 16), (24, 64), (32, 8), (48, 24)] {
                        let what = format!("triton vec={vec} pp={pp} mp={mp} rm={row_major} {rows}x{cols}");
                        let res = triton::swizzled_shared(vec, pp, mp, row_major, rows, cols);
                        assert_eq!(res.is_ok(), triton_valid(vec, pp, mp, row_major, rows, cols), "{what}: {res:?}");
                        let Ok(d) = res else { continue };
                        accepted += 1;
                        let [v, p, q, rr, cc] = [vec, pp, mp, rows, cols].map(|x| x as i64);
                        assert_2d(&d, rows, cols, &what, |r, c| triton_offset(r, c, [v, p, q, rr, cc], row_major));
                        assert_permutation(&d, &what);
                    }
                }
            }
        }
    }
    assert!(accepted >= 60, "{accepted}");
    let d = triton::swizzled_shared(4, 2, 4, false, 32, 16).unwrap();
    assert_check_bijective(&d, "triton col-major");
    assert_vectors_hold(&d, "triton col-major");
    assert_round_trip(&d, "triton col-major");
    let e = triton::swizzled_shared(8, 1, 16, true, 64, 64).unwrap_err();
    assert_eq!(e.to_string(), "triton-swizzled: maxPhase = 16; it must be at most the contiguous length / vec");
    let e = triton::swizzled_shared(8, 1, 8, true, 60, 64).unwrap_err();
    assert_eq!(e.to_string(), "triton-swizzled: strided length = 60; it must be a multiple of perPhase * maxPhase");
}

/// Triton's `sharedToLinearLayoutAMDRotating` rebuilt from its definition: the bases (offset bit ->
/// (row, col) in Triton's terms, columns contiguous), then each offset's coordinate as the XOR of its
/// bits' bases. Returns `offset[row][col]`.
fn triton_rotating_offsets(vec: usize, pp: usize, mp: usize, rows: usize, cols: usize) -> Vec<Vec<i64>> {
    let mut bases: Vec<(usize, usize)> = (0..cols.trailing_zeros()).map(|k| (0, 1 << k)).collect();
    for k in 0..rows.trailing_zeros() {
        let row = 1usize << k;
        let phase = (row / pp) % mp;
        let block = row / mp / pp % mp;
        bases.push((row, (vec * (phase ^ block)) % cols));
    }
    let mut out = vec![vec![-1i64; cols]; rows];
    for o in 0..rows * cols {
        let (mut r, mut c) = (0, 0);
        for (b, &(br, bc)) in bases.iter().enumerate() {
            if o >> b & 1 == 1 {
                r ^= br;
                c ^= bc;
            }
        }
        assert_eq!(out[r][c], -1, "two offsets on ({r}, {c})");
        out[r][c] = o as i64;
    }
    out
}

#[test]
fn triton_rotating_is_tritons_linear_layout_at_every_coordinate() {
    let (mut checked, mut refused) = (0, 0);
    for vec in [0, 1, 2, 3, 4, 8, 16] {
        for pp in [1, 2, 3, 4] {
            for mp in [1, 2, 4, 5, 8, 16] {
                for (rows, cols) in [(1, 1), (8, 4), (64, 128), (256, 32), (32, 16), (512, 64)] {
                    for row_major in [true, false] {
                        let what = format!("vec={vec} pp={pp} mp={mp} {rows}x{cols} row_major={row_major}");
                        let d = match triton::rotating_shared(vec, pp, mp, row_major, rows, cols) {
                            Ok(d) => d,
                            Err(e) => {
                                // Only shifts too irregular for a descriptor, from parameters Triton never picks.
                                let pow2 = [pp, mp].iter().all(|x| x.is_power_of_two()) && vec != 3;
                                assert!(!pow2 && e.to_string().contains("swizzle runs the shifts need"), "{what}: {e}");
                                refused += 1;
                                continue;
                            }
                        };
                        // Column-major (order [0, 1]): Triton's rows are cktile's columns.
                        let (t_rows, t_cols) = if row_major { (rows, cols) } else { (cols, rows) };
                        let want = triton_rotating_offsets(vec, pp, mp, t_rows, t_cols);
                        let at = |r: usize, c: usize| {
                            let top = if row_major { [r as i64, c as i64] } else { [c as i64, r as i64] };
                            d.calculate_offset(&top)
                        };
                        for (r, row) in want.iter().enumerate() {
                            for (c, &o) in row.iter().enumerate() {
                                assert_eq!(at(r, c), o, "{what} at Triton's ({r}, {c})");
                            }
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked + refused, 7 * 4 * 6 * 6 * 2);
    assert!(refused * 10 < checked, "{checked} checked, {refused} refused");
}

#[test]
fn triton_rotating_matches_the_tables_in_tritons_documentation() {
    // TritonGPUAttrDefs.td's three examples (vec = 1, 8 x 4, order [1, 0]), row by row.
    type Table = [[i64; 4]; 8];
    let tables: [((usize, usize), Table); 3] = [
        (
            (1, 2),
            [
                [0, 1, 2, 3],
                [5, 4, 7, 6],
                [9, 8, 11, 10],
                [12, 13, 14, 15],
                [16, 17, 18, 19],
                [21, 20, 23, 22],
                [25, 24, 27, 26],
                [28, 29, 30, 31],
            ],
        ),
        (
            (2, 2),
            [
                [0, 1, 2, 3],
                [4, 5, 6, 7],
                [9, 8, 11, 10],
                [13, 12, 15, 14],
                [17, 16, 19, 18],
                [21, 20, 23, 22],
                [24, 25, 26, 27],
                [28, 29, 30, 31],
            ],
        ),
        (
            (1, 4),
            [
                [0, 1, 2, 3],
                [5, 4, 7, 6],
                [10, 11, 8, 9],
                [15, 14, 13, 12],
                [17, 16, 19, 18],
                [20, 21, 22, 23],
                [27, 26, 25, 24],
                [30, 31, 28, 29],
            ],
        ),
    ];
    for ((pp, mp), table) in tables {
        let d = triton::rotating_shared(1, pp, mp, true, 8, 4).unwrap();
        for (r, row) in table.iter().enumerate() {
            // The tables list what each row holds: the element stored at offset r * 4 + j.
            for (j, &element) in row.iter().enumerate() {
                let (er, ec) = (element / 4, element % 4);
                assert_eq!(d.calculate_offset(&[er, ec]), (r * 4 + j) as i64, "pp={pp} mp={mp} row {r}");
            }
        }
    }
    let e = |r: Result<cktile::Descriptor, cktile::Error>| r.unwrap_err().to_string();
    assert_eq!(e(triton::rotating_shared(4, 0, 8, true, 8, 8)), "triton-rotating: perPhase = 0; it must be at least 1");
    assert_eq!(e(triton::rotating_shared(4, 1, 0, true, 8, 8)), "triton-rotating: maxPhase = 0; it must be at least 1");
    assert_eq!(
        e(triton::rotating_shared(4, 1, 8, true, 48, 8)),
        "triton-rotating: rows = 48; it must be a power of two (Triton's linear layouts cover power-of-two tiles)"
    );
    assert_eq!(
        e(triton::rotating_shared(usize::MAX, 1, 8, true, 8, 8)),
        format!("triton-rotating: vec = {}; vec times a phase overflows", usize::MAX)
    );
    let order = e(layouts::resolve("triton-rotating:vec=4,perphase=1,maxphase=8,order=11,rows=8,cols=8"));
    assert!(order.ends_with("11 is out of range; expected 10 or 01"), "{order}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn triton_swizzled_sampled(
        vec in 1usize..=16, pp in 1usize..=8, mp in 1usize..=16, row_major in any::<bool>(),
        rows in 1usize..=256, cols in 1usize..=256,
        samples in prop::collection::vec((any::<u32>(), any::<u32>()), 24),
    ) {
        let res = triton::swizzled_shared(vec, pp, mp, row_major, rows, cols);
        prop_assert_eq!(res.is_ok(), triton_valid(vec, pp, mp, row_major, rows, cols));
        if let Ok(d) = res {
            prop_assert_eq!(d.element_space_size(), (rows * cols) as i64);
            let [v, p, q, rr, cc] = [vec, pp, mp, rows, cols].map(|x| x as i64);
            for (x, y) in samples {
                let (r, c) = ((x as usize % rows) as i64, (y as usize % cols) as i64);
                prop_assert_eq!(d.calculate_offset(&[r, c]), triton_offset(r, c, [v, p, q, rr, cc], row_major));
            }
        }
    }

    /// Valid tiles only (sizes built to fit), exhaustively bijective.
    #[test]
    fn triton_swizzled_valid_bijective(
        vec_log in 0u32..=3, pp_log in 0u32..=2, mp_log in 0u32..=3, extra_log in 0u32..=2, cycles in 1usize..=3,
        row_major in any::<bool>(),
    ) {
        let (vec, pp, mp) = (1usize << vec_log, 1usize << pp_log, 1usize << mp_log);
        let inner = vec * (mp << extra_log);
        let outer = pp * mp * cycles;
        let (rows, cols) = if row_major { (outer, inner) } else { (inner, outer) };
        let d = triton::swizzled_shared(vec, pp, mp, row_major, rows, cols).unwrap();
        let [v, p, q, rr, cc] = [vec, pp, mp, rows, cols].map(|x| x as i64);
        assert_2d(&d, rows, cols, "triton", |r, c| triton_offset(r, c, [v, p, q, rr, cc], row_major));
        assert_permutation(&d, "triton");
    }
}

#[test]
fn triton_nvmma_all_widths() {
    for swizzle_bytes in [0usize, 32, 64, 128] {
        for bits in [8usize, 16, 32, 64] {
            for transposed in [false, true] {
                for strided in [8usize, 16, 24] {
                    let what = format!("nvmma sw={swizzle_bytes} bits={bits} t={transposed} strided={strided}");
                    let d = triton::nvmma_shared(swizzle_bytes, bits, transposed, strided).unwrap();
                    let width = if swizzle_bytes == 0 { 128 } else { swizzle_bytes };
                    let inner = width * 8 / bits;
                    let (pp, mp) = match swizzle_bytes {
                        0 => (1, 1),
                        sw => (128 / sw, sw / 16),
                    };
                    let (rows, cols) = if transposed { (inner, strided) } else { (strided, inner) };
                    // It is the swizzled encoding with vec = 128/bits, perPhase = 128/sw, maxPhase = sw/16.
                    assert_eq!(Ok(d), triton::swizzled_shared(128 / bits, pp, mp, !transposed, rows, cols), "{what}");
                    let [v, p, q, rr, cc] = [128 / bits, pp, mp, rows, cols].map(|x| x as i64);
                    assert_2d(&d, rows, cols, &what, |r, c| triton_offset(r, c, [v, p, q, rr, cc], !transposed));
                    assert_permutation(&d, &what);
                }
            }
        }
    }
    // Strided lengths that are not a multiple of 8 rows of the swizzle pattern.
    assert!(triton::nvmma_shared(128, 16, false, 4).is_err());
    assert!(triton::nvmma_shared(0, 16, false, 3).is_ok());
    let e = triton::nvmma_shared(16, 16, false, 64).unwrap_err();
    assert_eq!(e.to_string(), "triton-nvmma: swizzlingByteWidth = 16; it must be 0, 32, 64 or 128");
    let e = triton::nvmma_shared(128, 12, false, 64).unwrap_err();
    assert_eq!(e.to_string(), "triton-nvmma: elementBitWidth = 12; it must be 8, 16, 32 or 64");
}

// ---------------------------------------------------------------------------
// 2. Padded layouts: injective with exactly the documented holes
// ---------------------------------------------------------------------------

#[test]
fn row_padded_holes() {
    for rows in [1usize, 2, 5, 16] {
        for cols in [1usize, 3, 8, 64] {
            for pad in [0usize, 1, 4, 8] {
                let d = padding::row_padded(rows, cols, pad).unwrap();
                let what = format!("row_padded {rows}x{cols}+{pad}");
                let pitch = (cols + pad) as i64;
                assert_eq!(d.element_space_size(), (rows as i64 - 1) * pitch + cols as i64, "{what}");
                assert_2d(&d, rows, cols, &what, |r, c| r * pitch + c);
                let holes: BTreeSet<i64> =
                    (0..rows as i64 - 1).flat_map(|r| (r * pitch + cols as i64)..((r + 1) * pitch)).collect();
                assert_eq!(holes.len(), (rows - 1) * pad, "{what}");
                assert_holes(&d, &holes, &what);
            }
        }
    }
    let d = padding::row_padded(128, 64, 8).unwrap();
    assert_eq!((d.calculate_offset(&[1, 0]), d.element_space_size()), (72, 127 * 72 + 64));
    assert_round_trip(&d, "row_padded");
    assert_eq!(padding::row_padded(0, 4, 1).unwrap_err().to_string(), "row-padded: rows = 0; it must be at least 1");
    assert_eq!(padding::row_padded(4, 0, 1).unwrap_err().to_string(), "row-padded: cols = 0; it must be at least 1");
    assert!(padding::row_padded(4, usize::MAX, 1).is_err());
    assert!(padding::row_padded(1 << 40, 1 << 40, 0).is_err());
}

#[test]
fn v1_padded_holes() {
    for m in [1usize, 4, 32] {
        for (k, kpack) in [(8usize, 8usize), (16, 8), (32, 8), (12, 4), (16, 2), (6, 3)] {
            let d = ck::v1_padded(m, k, kpack).unwrap();
            let what = format!("v1_padded M={m} K={k} KPack={kpack}");
            let (mm, kp, k0n) = (m as i64, kpack as i64, (k / kpack) as i64);
            let slab = (mm + 1) * kp;
            assert_2d(&d, m, k, &what, |r, c| (c / kp) * slab + kp * r + c % kp);
            assert_eq!(d.element_space_size(), k0n * slab - kp, "{what}");
            // Holes: the last KPack elements of every slab but the last.
            let holes: BTreeSet<i64> = (0..k0n - 1).flat_map(|s| (s * slab + mm * kp)..((s + 1) * slab)).collect();
            assert_eq!(holes.len() as i64, (k0n - 1) * kp, "{what}");
            assert_holes(&d, &holes, &what);
            assert_eq!(d.top_vectors()[1], Vector::new(kp, 1), "{what}");
            assert_vectors_hold(&d, &what);
        }
    }
    // Reference section 3(c): M=128, K=32.
    let d = ck::v1_padded(128, 32, 8).unwrap();
    assert_eq!(d.element_space_size(), 4120);
    for ((m, k), o) in [((1, 0), 8), ((1, 8), 1040), ((3, 17), 2089), ((127, 31), 4119)] {
        assert_eq!(d.calculate_offset(&[m, k]), o, "v1 ({m},{k})");
    }
    // Section 7: M=32, K=16.
    let d = ck::v1_padded(32, 16, 8).unwrap();
    assert_eq!(d.element_space_size(), 520);
    assert_2d(&d, 32, 16, "v1 M=32 K=16", |m, k| 264 * (k / 8) + 8 * m + k % 8);
    assert_round_trip(&d, "v1 M=32 K=16");
    let e = ck::v1_padded(32, 12, 8).unwrap_err();
    assert_eq!(e.to_string(), "ck-v1-padded: K = 12; it must be a multiple of KPack");
}

#[test]
fn fmha_v_holes() {
    use ck::FmhaKTile;
    for e in [1usize, 2, 4, 8] {
        let pixels = 128 / e;
        for kpack in [1usize, 2, 4, 8, 16, 32] {
            if kpack > pixels {
                assert!(ck::fmha_v(pixels, 2 * kpack, kpack, e, 1, FmhaKTile::CK_DEFAULT).is_err());
                continue;
            }
            let npr = pixels / kpack;
            for n in [npr, 3 * npr] {
                for k in [kpack, 2 * kpack] {
                    for (prefetch, tile) in
                        [(1, FmhaKTile::CK_DEFAULT), (2, FmhaKTile::CK_DEFAULT), (3, FmhaKTile { n0: 64, warps: 2 })]
                    {
                        let what = format!("fmha_v N={n} K={k} KPack={kpack} e={e} prefetch={prefetch} {tile:?}");
                        let (rows, pitch, k0n) = ((n / npr) as i64, (pixels + kpack) as i64, (k / kpack) as i64);
                        let v_block = k0n * rows * pitch;
                        // CK's async K buffer, restated: lanes load 4 bytes, each warp's
                        // 64 loads are padded by 16 bytes of elements.
                        let kv = 4 / e.min(8);
                        let async_ok = e <= 4 && kpack == 16 / e && 64 * kv % k == 0;
                        let groups = if kv > 0 && k >= kv { 64 / (k / kv).max(1) } else { 0 };
                        let async_ok = async_ok && groups > 0 && tile.n0 % (groups * tile.warps) == 0;
                        let d = ck::fmha_v(n, k, kpack, e, prefetch, tile);
                        let buffer = if prefetch == 1 {
                            v_block
                        } else if async_ok {
                            let k_buffer = (tile.n0 / groups * (64 * kv + 16 / e)) as i64;
                            v_block.max(k_buffer)
                        } else {
                            assert!(d.is_err(), "{what}: CK's async pipeline refuses it");
                            continue;
                        };
                        let d = d.unwrap();
                        let (npr_, kp) = (npr as i64, kpack as i64);
                        assert_2d(&d, prefetch * n, k, &what, |nn, kk| {
                            let p = nn / (rows * npr_);
                            let r = (nn / npr_) % rows;
                            let j = nn % npr_;
                            p * buffer + (kk / kp) * rows * pitch + r * pitch + j * kp + kk % kp
                        });
                        // 128-byte rows of `pixels` elements, each padded by KPack; between
                        // buffers, whatever the K buffer adds past the V block.
                        let p = prefetch as i64;
                        assert_eq!(d.element_space_size(), (p - 1) * buffer + v_block - kp, "{what}");
                        let holes: BTreeSet<i64> = (0..p)
                            .flat_map(|b| {
                                let rows_in = (0..k0n * rows).map(move |g| b * buffer + g * pitch);
                                let pads = rows_in.flat_map(|r| (r + pixels as i64)..(r + pitch));
                                pads.chain((b * buffer + v_block)..((b + 1) * buffer))
                            })
                            .filter(|&o| o < d.element_space_size())
                            .collect();
                        assert_holes(&d, &holes, &what);
                    }
                }
            }
        }
    }
    let d = ck::fmha_v(128, 32, 8, 2, 1, FmhaKTile::CK_DEFAULT).unwrap();
    assert_eq!(d.calculate_offset(&[8, 0]), 72);
    assert_round_trip(&d, "fmha_v");
    assert_eq!(
        ck::fmha_v(100, 32, 8, 2, 1, FmhaKTile::CK_DEFAULT).unwrap_err().to_string(),
        "ck-fmha-v: N = 100; it must be a multiple of NPerRow = 32*4/sizeof(T)/KPack"
    );
    assert_eq!(
        ck::fmha_v(128, 32, 8, 2, 0, FmhaKTile::CK_DEFAULT).unwrap_err().to_string(),
        "ck-fmha-v: prefetch = 0; it must be at least 1"
    );
}

/// Issue #18's example: a small head dimension with three prefetch buffers
/// on 2 warps. CK spaces the buffers by max(K buffer, V block) =
/// max(8 * 2 * (64*2 + 8), 4 * 4 * 72) = 4352 elements, not the V block's 1152.
#[test]
fn fmha_v_buffers_are_spaced_by_the_larger_of_k_and_v() {
    let text = "ck-fmha-v:n=32,k=32,kpack=8,dtype=fp16,prefetch=3,warps=2";
    let d = layouts::resolve(text).unwrap();
    assert_eq!(d.element_space_size(), 2 * 4352 + 1152 - 8);
    for n in 0..96i64 {
        for k in 0..32i64 {
            let within = (k / 8) * 4 * 72 + ((n % 32) / 8) * 72 + (n % 8) * 8 + k % 8;
            assert_eq!(d.calculate_offset(&[n, k]), (n / 32) * 4352 + within, "{text} at ({n}, {k})");
        }
    }
    // A large head dimension's V block is the larger one and spaces them (d128: 4 * 16 * 72).
    let d = layouts::resolve("ck-fmha-v:n=128,k=32,dtype=fp16,prefetch=3").unwrap();
    assert_eq!(d.calculate_offset(&[128, 0]), 4608);
    // One buffer does not depend on the K tile.
    let one = layouts::resolve("ck-fmha-v:n=32,k=32,dtype=fp16,warps=1,n0=64").unwrap();
    assert_eq!(one, layouts::resolve("ck-fmha-v:n=32,k=32,dtype=fp16").unwrap());
}

/// A KPack that does not divide the 128-byte row is reported with its own
/// value (not the row's element count).
#[test]
fn fmha_v_kpack_error_names_the_kpack_value() {
    let e = ck::fmha_v(128, 48, 24, 2, 1, ck::FmhaKTile::CK_DEFAULT).unwrap_err();
    let ErrorKind::Port(cktile_core::ErrorKind::Parameter(ParameterProblem::Invalid {
        context: layout,
        parameter,
        value,
        ..
    })) = *e.kind()
    else {
        panic!("{e:?}")
    };
    assert_eq!((layout, parameter), ("ck-fmha-v", "KPack"));
    assert_eq!(value, 24, "{e}");
    assert_eq!(e.to_string(), "ck-fmha-v: KPack = 24; it must divide the 128-byte row (32*4/sizeof(T) elements)");
    let e = layouts::resolve("ck-fmha-v:n=128,k=32,kpack=32,dtype=fp64").unwrap_err();
    assert_eq!(e.to_string(), "ck-fmha-v: kpack = 32; it must divide the 128-byte row (32*4/sizeof(T) elements)");
}

// ---------------------------------------------------------------------------
// 6. Registry
// ---------------------------------------------------------------------------

fn entry(name: &str) -> &'static layouts::Entry {
    CATALOGUE.iter().find(|e| e.name == name).unwrap()
}

#[test]
fn catalog_examples_resolve_and_match_bijective_flag() {
    let names: Vec<&str> = CATALOGUE.iter().map(|e| e.name).collect();
    assert_eq!(
        names,
        [
            "ck-universal-a",
            "ck-xor-lds",
            "ck-xor-preshuffle",
            "ck-kfold-mpair",
            "ck-v1-padded",
            "ck-fmha-v",
            "cute-swizzle",
            "cute-gmma",
            "cute-tma",
            "triton-swizzled",
            "triton-nvmma",
            "triton-rotating",
            "row-padded",
            "xor-linear"
        ]
    );
    for e in CATALOGUE {
        let prefix = format!("{}:", e.name);
        assert!(e.example.starts_with(&prefix), "{}: example {}", e.name, e.example);
        let d = layouts::resolve(e.example).unwrap_or_else(|err| panic!("{}: {err}", e.example));
        assert_eq!(layouts::build_entry(e.example).unwrap(), d, "{}", e.name);
        assert_eq!(e.build(&e.example[prefix.len()..]).unwrap(), d, "{}", e.name);
        let r = check::check(&d).unwrap();
        assert!(r.injective, "{}: {r:?}", e.name);
        assert_eq!(r.outside_count, 0, "{}", e.name);
        assert_eq!(r.is_bijective(), e.bijective, "{}: bijective flag vs check: {r:?}", e.name);
        assert!(!e.summary.is_empty() && !e.source.is_empty(), "{}", e.name);
        assert_round_trip(&d, e.name);
        assert_vectors_hold(&d, e.name);
    }
}

#[test]
fn param_names_match_params() {
    for e in CATALOGUE {
        let joined = e.params.iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
        assert_eq!(e.param_names(), joined, "{}", e.name);
        // Every default is accepted, and a parameter without one is required.
        for p in e.params {
            assert!(!p.help.is_empty(), "{}.{}", e.name, p.name);
        }
    }
    assert_eq!(entry("row-padded").param_names(), "rows, cols, pad, dtype");
}

/// Entries with parameters that have no default report the first missing one.
#[test]
fn required_parameters_are_reported() {
    for e in CATALOGUE {
        let required: Vec<&str> = e.params.iter().filter(|p| p.default.is_none()).map(|p| p.name).collect();
        let res = e.build("");
        // ck-universal-a's kpack has no textual default but is derived from dtype.
        let required: Vec<&str> =
            required.into_iter().filter(|n| !(e.name == "ck-universal-a" && *n == "kpack") && *n != "dtype").collect();
        match required.first() {
            None => {
                let d = res.unwrap_or_else(|err| panic!("{}: {err}", e.name));
                assert_eq!(layouts::resolve(e.name).unwrap(), d, "{}", e.name);
            }
            Some(first) => {
                let err = res.unwrap_err();
                assert_eq!(
                    err.to_string(),
                    format!("{} needs the parameter `{first}` (write {}:{first}=VALUE,...)", e.name, e.name),
                );
                assert_eq!(
                    *err.kind(),
                    ErrorKind::Port(cktile_core::ErrorKind::Parameter(ParameterProblem::Missing {
                        layout: e.name,
                        parameter: first
                    }))
                );
            }
        }
    }
}

#[test]
fn resolve_equals_direct_builders() {
    let cases: Vec<(&str, Result<Descriptor, cktile::Error>)> = vec![
        ("ck-universal-a:m=128,k=32,kpack=8,dtype=fp16", ck::universal_a(128, 32, 8, 2, 32, UnmergeOrder::Fixed2025)),
        ("ck-universal-a:m=128,k=64", ck::universal_a(128, 64, 8, 2, 32, UnmergeOrder::Fixed2025)),
        (
            "ck-universal-a:m=64,k=64,dtype=fp8,banks=64,form=2024",
            ck::universal_a(64, 64, 16, 1, 64, UnmergeOrder::Original2024),
        ),
        ("ck-universal-a:m=64,k=32,dtype=fp32", ck::universal_a(64, 32, 4, 4, 32, UnmergeOrder::Fixed2025)),
        ("ck-universal-a:m=64,k=32,dtype=bf16", ck::universal_a(64, 32, 8, 2, 32, UnmergeOrder::Fixed2025)),
        ("ck-universal-a:m=64,k=32,dtype=4", ck::universal_a(64, 32, 4, 4, 32, UnmergeOrder::Fixed2025)),
        ("ck-xor-lds:m=128,k=32,kpack=8,mlds=2", ck::xor_lds(128, 32, 8, 2, UnmergeOrder::Fixed2025)),
        ("ck-xor-lds:m=128,k=32,mlds=2,form=2024", ck::xor_lds(128, 32, 8, 2, UnmergeOrder::Original2024)),
        ("ck-xor-preshuffle:m=128,k=64,kpack=8", ck::xor_preshuffle(128, 64, 8)),
        (
            "ck-kfold-mpair:m=128,k=32,ak1=8,m0=32,kthreadwrite=4",
            ck::kfold_mpair(&KfoldParams {
                m: 128,
                k: 32,
                ak1: 8,
                m0: 32,
                k_thread_write: 4,
                m_per_xdl: 32,
                element_bytes: 2,
                banks: 32,
            }),
        ),
        (
            "ck-kfold-mpair:m=64,k=64,ak1=4,m0=16,kthreadwrite=4,mperxdl=16,dtype=fp8,banks=64",
            ck::kfold_mpair(&KfoldParams {
                m: 64,
                k: 64,
                ak1: 4,
                m0: 16,
                k_thread_write: 4,
                m_per_xdl: 16,
                element_bytes: 1,
                banks: 64,
            }),
        ),
        ("ck-v1-padded:m=128,k=32", ck::v1_padded(128, 32, 8)),
        ("ck-fmha-v:n=128,k=32,kpack=8,dtype=fp16,prefetch=2", ck::fmha_v(128, 32, 8, 2, 2, ck::FmhaKTile::CK_DEFAULT)),
        ("cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64", cute::swizzled_tile(3, 3, 3, 8, 64, Major::Row)),
        ("cute-swizzle:b=2,mbase=0,s=-3,rows=8,cols=8,major=col", cute::swizzled_tile(2, 0, -3, 8, 8, Major::Column)),
        ("cute-gmma", cute::gmma_atom(Gmma::Sw128, Major::Row, 2)),
        ("cute-gmma:atom=sw64,major=mn,dtype=fp32", cute::gmma_atom(Gmma::Sw64, Major::Column, 4)),
        ("cute-gmma:atom=inter,major=k,dtype=fp64", cute::gmma_atom(Gmma::Interleave, Major::Row, 8)),
        ("cute-tma", cute::tma_box(Tma::B128, 8, 2)),
        ("cute-tma:mode=128b-atom-32b,rows=16,dtype=fp8", cute::tma_box(Tma::B128Atom32, 16, 1)),
        ("cute-tma:mode=128b-atom-64b,dtype=fp32", cute::tma_box(Tma::B128Atom64, 8, 4)),
        ("cute-tma:mode=none,rows=4,dtype=int8", cute::tma_box(Tma::None, 4, 1)),
        (
            "triton-swizzled:vec=4,perphase=2,maxphase=4,order=01,rows=32,cols=16",
            triton::swizzled_shared(4, 2, 4, false, 32, 16),
        ),
        ("triton-swizzled:vec=8,perphase=1,maxphase=8,rows=64,cols=64", triton::swizzled_shared(8, 1, 8, true, 64, 64)),
        ("triton-nvmma:rows=64", triton::nvmma_shared(128, 16, false, 64)),
        ("triton-nvmma:swizzle=64,bits=8,transposed=true,rows=16", triton::nvmma_shared(64, 8, true, 16)),
        ("row-padded:rows=4,cols=4,pad=1", padding::row_padded(4, 4, 1)),
        ("  row-padded : rows = 4 , cols=4,, pad=1 ,", padding::row_padded(4, 4, 1)),
    ];
    for (text, direct) in cases {
        let direct = direct.unwrap_or_else(|e| panic!("{text}: direct builder failed: {e}"));
        assert_eq!(layouts::resolve(text).unwrap_or_else(|e| panic!("{text}: {e}")), direct, "{text}");
        assert_round_trip(&direct, text);
    }
    // A plain spec goes to the spec parser.
    assert_eq!(
        layouts::resolve("naive((2,2),(3,1))").unwrap(),
        layouts::resolve("row-padded:rows=2,cols=2,pad=1").unwrap()
    );
}

fn resolve_err(text: &str) -> cktile::Error {
    match layouts::resolve(text) {
        Ok(d) => panic!("{text}: expected an error, got {d}"),
        Err(e) => e,
    }
}

#[test]
fn registry_unknown_names() {
    let all = CATALOGUE.iter().map(|e| e.name).collect::<Vec<_>>().join(", ");
    let e = resolve_err("ck-bogus:m=1");
    assert_eq!(e.to_string(), format!("unknown name `ck-bogus`; expected one of: {all}"));
    let ErrorKind::Port(cktile_core::ErrorKind::Parameter(ParameterProblem::UnknownName { name, valid })) = *e.kind()
    else {
        panic!("{e:?}")
    };
    assert_eq!((name.as_str(), valid), ("ck-bogus", all.as_str()));
    assert!(matches!(
        layouts::build_entry("bogus").unwrap_err().kind(),
        ErrorKind::Port(cktile_core::ErrorKind::Parameter(ParameterProblem::UnknownName { .. }))
    ));

    let e = resolve_err("row-padded:rows=4,cols=4,pad=1,bogus=2");
    assert_eq!(e.to_string(), "unknown name `bogus`; expected one of: rows, cols, pad, dtype");
    for entry in CATALOGUE {
        let e = entry.build("zzz=1").unwrap_err();
        assert_eq!(e.to_string(), format!("unknown name `zzz`; expected one of: {}", entry.param_names()));
    }
    // Keys are case-sensitive.
    let e = resolve_err("row-padded:ROWS=4,cols=4,pad=1");
    assert_eq!(e.to_string(), "unknown name `ROWS`; expected one of: rows, cols, pad, dtype");
}

#[test]
fn registry_missing_and_repeated_parameters() {
    let e = resolve_err("row-padded:rows=4,cols=4");
    assert_eq!(e.to_string(), "row-padded needs the parameter `pad` (write row-padded:pad=VALUE,...)");
    assert_eq!(
        *e.kind(),
        ErrorKind::Port(cktile_core::ErrorKind::Parameter(ParameterProblem::Missing {
            layout: "row-padded",
            parameter: "pad"
        }))
    );
    let e = resolve_err("triton-nvmma");
    assert_eq!(e.to_string(), "triton-nvmma needs the parameter `rows` (write triton-nvmma:rows=VALUE,...)");
    let e = resolve_err("ck-universal-a:k=32");
    assert_eq!(e.to_string(), "ck-universal-a needs the parameter `m` (write ck-universal-a:m=VALUE,...)");

    let e = resolve_err("row-padded:rows=4,rows=4,cols=4,pad=1");
    assert_eq!(e.to_string(), "expected each parameter once, found `rows`");
    assert!(matches!(e.kind(), ErrorKind::Spec(SpecProblem::Syntax { expected: "each parameter once", .. })));
    let e = resolve_err("row-padded:rows=4,cols=4,pad=1,pad=2");
    assert_eq!(e.to_string(), "expected each parameter once, found `pad`");
    let e = resolve_err("row-padded:rows=4,cols");
    assert_eq!(e.to_string(), "expected key=value, found `cols`");
}

#[test]
fn registry_bad_values() {
    let integer = "an integer in [0, 2^63)";
    // An element type that is no name is an unknown name listing them all; a byte count out of range, a range.
    let e = resolve_err("ck-universal-a:m=128,k=32,dtype=fp7");
    assert_eq!(e.to_string(), format!("unknown name `fp7`; expected one of: {}", cktile::layouts::DTYPE_LIST));
    for (text, number, range) in [
        ("ck-universal-a:m=128,k=32,dtype=3", "3", "1, 2, 4 or 8 bytes"),
        ("ck-universal-a:m=128,k=32,form=2023", "2023", "2024 or 2025"),
        ("cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64,major=diag", "diag", "row (k) or col (mn)"),
        ("cute-gmma:major=diag", "diag", "row (k) or col (mn)"),
        ("cute-gmma:atom=sw256", "sw256", "inter, sw32, sw64 or sw128"),
        ("cute-tma:mode=256b", "256b", "none, 32b, 64b, 128b, 128b-atom-32b or 128b-atom-64b"),
        ("triton-swizzled:vec=8,perphase=1,maxphase=8,order=11,rows=64,cols=64", "11", "10 or 01"),
        ("triton-nvmma:transposed=yes,rows=64", "yes", "true or false"),
        ("row-padded:rows=4.5,cols=4,pad=1", "4.5", integer),
        ("row-padded:rows=abc,cols=4,pad=1", "abc", integer),
        ("row-padded:rows=-4,cols=4,pad=1", "-4", integer),
        ("row-padded:rows=,cols=4,pad=1", "", integer),
        ("row-padded:rows=0x10,cols=4,pad=1", "0x10", integer),
        ("row-padded:rows=99999999999999999999,cols=4,pad=1", "99999999999999999999", integer),
        ("row-padded:rows=9223372036854775808,cols=4,pad=1", "9223372036854775808", integer),
        ("ck-xor-lds:m=128,k=32,mlds=1e3", "1e3", integer),
        (
            "cute-swizzle:b=63,mbase=3,s=3,rows=8,cols=64",
            "63",
            "a small integer (see `cktile catalogue` for the range)",
        ),
        (
            "cute-swizzle:b=3,mbase=3,s=-63,rows=8,cols=64",
            "-63",
            "a small integer (see `cktile catalogue` for the range)",
        ),
        ("cute-swizzle:b=3,mbase=x,s=3,rows=8,cols=64", "x", "a small integer (see `cktile catalogue` for the range)"),
    ] {
        let e = resolve_err(text);
        assert_eq!(e.to_string(), format!("number {number} is out of range; expected {range}"), "{text}");
        let ErrorKind::Spec(SpecProblem::NumberRange { number: n, range: r }) = *e.kind() else {
            panic!("{text}: {e:?}")
        };
        assert_eq!((n.as_str(), r), (number, range), "{text}");
    }
    // i64::MAX is accepted as a number, and the builder then refuses the size without panicking.
    let e = resolve_err("row-padded:rows=9223372036854775807,cols=4,pad=1");
    assert!(!matches!(e.kind(), ErrorKind::Spec(SpecProblem::NumberRange { .. })), "{e}");
    let e = resolve_err("ck-xor-lds:m=9223372036854775807,k=9223372036854775807,kpack=1,mlds=1");
    assert!(
        matches!(
            e.kind(),
            ErrorKind::Port(cktile_core::ErrorKind::Parameter(ParameterProblem::Invalid { .. }))
                | ErrorKind::Port(cktile_core::ErrorKind::Descriptor(DescriptorProblem::Overflow { .. }))
        ),
        "{e}"
    );
}

#[test]
fn registry_invalid_combinations_name_the_parameter() {
    for (text, message, layout, parameter, value) in [
        (
            "ck-universal-a:m=128,k=24",
            "ck-universal-a: k = 24; K/KPack * MLdsLayer must be a power of two (the xor's modulus), with \
             MLdsLayer = max(1, banks*4/K/sizeof(T)) as CK derives it",
            "ck-universal-a",
            "k",
            24,
        ),
        (
            "ck-universal-a:m=128,k=20",
            "ck-universal-a: k = 20; it must be a multiple of KPack",
            "ck-universal-a",
            "k",
            20,
        ),
        (
            "ck-xor-lds:m=127,k=32,mlds=2",
            "ck-xor-lds: m = 127; it must be a multiple of MLdsLayer",
            "ck-xor-lds",
            "m",
            127,
        ),
        (
            "ck-universal-a:m=128,k=32,banks=48",
            "ck-universal-a: banks = 48; it must be 32 (gfx90a, gfx942) or 64 (gfx950)",
            "ck-universal-a",
            "banks",
            48,
        ),
        ("row-padded:rows=0,cols=4,pad=1", "row-padded: rows = 0; it must be at least 1", "row-padded", "rows", 0),
        (
            "triton-swizzled:vec=8,perphase=1,maxphase=16,rows=64,cols=64",
            "triton-swizzled: maxphase = 16; it must be at most the contiguous length / vec",
            "triton-swizzled",
            "maxphase",
            16,
        ),
        (
            "triton-nvmma:swizzle=16,rows=64",
            "triton-nvmma: swizzlingByteWidth = 16; it must be 0, 32, 64 or 128",
            "triton-nvmma",
            "swizzlingByteWidth",
            16,
        ),
        (
            "ck-kfold-mpair:m=128,k=32,m0=32,kthreadwrite=4,mperxdl=8",
            "ck-kfold-mpair: mperxdl = 8; it must be 16 or 32",
            "ck-kfold-mpair",
            "mperxdl",
            8,
        ),
        (
            "ck-fmha-v:n=100,k=32",
            "ck-fmha-v: n = 100; it must be a multiple of NPerRow = 32*4/sizeof(T)/KPack",
            "ck-fmha-v",
            "n",
            100,
        ),
        ("ck-v1-padded:m=128,k=36", "ck-v1-padded: k = 36; it must be a multiple of KPack", "ck-v1-padded", "k", 36),
    ] {
        let e = resolve_err(text);
        assert_eq!(e.to_string(), message, "{text}");
        let ErrorKind::Port(cktile_core::ErrorKind::Parameter(ParameterProblem::Invalid {
            context: l,
            parameter: p,
            value: v,
            ..
        })) = *e.kind()
        else {
            panic!("{text}: {e:?}")
        };
        assert_eq!((l, p, v), (layout, parameter, value), "{text}");
        assert_eq!(e.summary(), "cktile: a layout parameter is outside its valid range");
    }
    // Swizzle parameters rejected by the transform itself.
    let e = resolve_err("cute-swizzle:b=3,mbase=3,s=2,rows=8,cols=64");
    assert!(
        matches!(e.kind(), ErrorKind::Port(cktile_core::ErrorKind::Descriptor(DescriptorProblem::Transform { .. }))),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "swizzle(3, 3, 2): need |S| >= B (|2| >= 3) and base + |shift| + bits <= 62");
    let e = resolve_err("cute-swizzle:b=30,mbase=30,s=30,rows=8,cols=64");
    assert_eq!(e.to_string(), "swizzle(30, 30, 30): need |S| >= B (|30| >= 30) and base + |shift| + bits <= 62");
    let e = resolve_err("cute-swizzle:b=3,mbase=3,s=3,rows=1,cols=32");
    assert!(
        matches!(e.kind(), ErrorKind::Port(cktile_core::ErrorKind::Descriptor(DescriptorProblem::Transform { .. }))),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "swizzle on a dimension of length 32: the length must be a multiple of 64, the block the swizzle permutes"
    );
    // Layouts built on another builder report the entry written and its key.
    let e = resolve_err("cute-tma:rows=0");
    assert_eq!(e.to_string(), "cute-tma: rows = 0; it must be at least 1");
    let e = resolve_err("ck-v1-padded:m=9223372036854775807,k=8");
    assert_eq!(e.to_string(), "ck-v1-padded: m = 9223372036854775807; (M+1) * KPack overflows");
}

/// `triton-nvmma` has one length parameter, the strided one (`rows`); an
/// invalid value must be reported under that name in both orientations,
/// not as the `cols` of the swizzled encoding it is built on.
#[test]
fn nvmma_strided_length_errors_name_the_strided_parameter() {
    for transposed in [false, true] {
        for strided in [0usize, 4] {
            let e = triton::nvmma_shared(128, 16, transposed, strided).unwrap_err();
            let ErrorKind::Port(cktile_core::ErrorKind::Parameter(ParameterProblem::Invalid {
                parameter, value, ..
            })) = *e.kind()
            else {
                panic!("{e:?}")
            };
            assert!(
                ["rows", "strided length", "strided"].contains(&parameter),
                "transposed={transposed} strided={strided}: the error names `{parameter}`: {e}"
            );
            assert_eq!(value, strided as i64, "{e}");
        }
    }
}

// ---------------------------------------------------------------------------
// 7. Compile time: catalogue builders in `const` items
// ---------------------------------------------------------------------------

macro_rules! static_layout {
    ($name:ident, $build:expr) => {
        struct $name;
        impl StaticDescriptor for $name {
            const DESCRIPTOR: Descriptor = match $build {
                Ok(d) => d,
                Err(e) => panic!("{}", e.summary()),
            };
        }
    };
}

static_layout!(GemmA64, ck::universal_a(128, 64, 8, 2, 32, UnmergeOrder::Fixed2025));
static_layout!(GemmA32, ck::universal_a(128, 32, 8, 2, 32, UnmergeOrder::Fixed2025));
static_layout!(GemmA32Old, ck::universal_a(128, 32, 8, 2, 32, UnmergeOrder::Original2024));
static_layout!(XorLds, ck::xor_lds(64, 16, 4, 4, UnmergeOrder::Fixed2025));
static_layout!(Preshuffle, ck::xor_preshuffle(64, 64, 8));
static_layout!(
    Kfold,
    ck::kfold_mpair(&KfoldParams {
        m: 128,
        k: 32,
        ak1: 8,
        m0: 32,
        k_thread_write: 4,
        m_per_xdl: 32,
        element_bytes: 2,
        banks: 32
    })
);
static_layout!(V1, ck::v1_padded(128, 32, 8));
static_layout!(FmhaV, ck::fmha_v(128, 32, 8, 2, 2, ck::FmhaKTile::CK_DEFAULT));
static_layout!(Sw333, cute::swizzled_tile(3, 3, 3, 64, 64, Major::Row));
static_layout!(SwNeg, cute::swizzled_tile(2, 1, -3, 16, 16, Major::Column));
static_layout!(GmmaMn, cute::gmma_atom(Gmma::Sw128, Major::Column, 4));
static_layout!(Tma32, cute::tma_box(Tma::B128Atom32, 16, 1));
static_layout!(TritonSw, triton::swizzled_shared(4, 2, 4, false, 32, 16));
static_layout!(Nvmma, triton::nvmma_shared(64, 16, true, 32));
static_layout!(Padded, padding::row_padded(16, 24, 8));

const GEMM_A32_AT_3_9: i64 = GemmA32::DESCRIPTOR.calculate_offset(&[3, 9]);
const GEMM_A64_AT_9_63: i64 = GemmA64::DESCRIPTOR.calculate_offset(&[9, 63]);
const V1_SPACE: i64 = V1::DESCRIPTOR.element_space_size();

fn assert_static_matches<S: StaticDescriptor>(runtime: Result<Descriptor, cktile::Error>, what: &str) {
    let d = runtime.unwrap();
    assert_eq!(S::DESCRIPTOR, d, "{what}");
    for c in coords(&d) {
        assert_eq!(S::calculate_offset(&c), d.calculate_offset(&c), "{what} at {c:?}");
    }
}

#[test]
fn const_builders_match_runtime_builders() {
    assert_eq!(GEMM_A32_AT_3_9, 97);
    assert_eq!(GEMM_A64_AT_9_63, 631);
    assert_eq!(V1_SPACE, 4120);
    assert_eq!(GemmA32Old::calculate_offset(&[3, 9]), 81);

    // Runtime parameters, so the comparison is not against the same constant folding.
    let (m, k) = (std::hint::black_box(128usize), std::hint::black_box(32usize));
    assert_static_matches::<GemmA64>(ck::universal_a(m, 2 * k, 8, 2, 32, UnmergeOrder::Fixed2025), "GemmA64");
    assert_static_matches::<GemmA32>(ck::universal_a(m, k, 8, 2, 32, UnmergeOrder::Fixed2025), "GemmA32");
    assert_static_matches::<GemmA32Old>(ck::universal_a(m, k, 8, 2, 32, UnmergeOrder::Original2024), "GemmA32Old");
    assert_static_matches::<XorLds>(ck::xor_lds(64, 16, 4, 4, UnmergeOrder::Fixed2025), "XorLds");
    assert_static_matches::<Preshuffle>(ck::xor_preshuffle(64, 64, 8), "Preshuffle");
    assert_static_matches::<Kfold>(
        ck::kfold_mpair(&KfoldParams {
            m,
            k,
            ak1: 8,
            m0: 32,
            k_thread_write: 4,
            m_per_xdl: 32,
            element_bytes: 2,
            banks: 32,
        }),
        "Kfold",
    );
    assert_static_matches::<V1>(ck::v1_padded(m, k, 8), "V1");
    assert_static_matches::<FmhaV>(ck::fmha_v(128, 32, 8, 2, 2, ck::FmhaKTile::CK_DEFAULT), "FmhaV");
    assert_static_matches::<Sw333>(cute::swizzled_tile(3, 3, 3, 64, 64, Major::Row), "Sw333");
    assert_static_matches::<SwNeg>(cute::swizzled_tile(2, 1, -3, 16, 16, Major::Column), "SwNeg");
    assert_static_matches::<GmmaMn>(cute::gmma_atom(Gmma::Sw128, Major::Column, 4), "GmmaMn");
    assert_static_matches::<Tma32>(cute::tma_box(Tma::B128Atom32, 16, 1), "Tma32");
    assert_static_matches::<TritonSw>(triton::swizzled_shared(4, 2, 4, false, 32, 16), "TritonSw");
    assert_static_matches::<Nvmma>(triton::nvmma_shared(64, 16, true, 32), "Nvmma");
    assert_static_matches::<Padded>(padding::row_padded(16, 24, 8), "Padded");

    // And the closed forms, through the static path.
    for r in 0..128 {
        for c in 0..32 {
            assert_eq!(GemmA32::calculate_offset(&[r, c]), ck_2025(r, c, 32, 8, 2));
            assert_eq!(GemmA32Old::calculate_offset(&[r, c]), ck_2024(r, c, 32, 8, 2));
        }
    }
    // The registry resolves to the same constant.
    assert_eq!(layouts::resolve("ck-universal-a:m=128,k=64").unwrap(), GemmA64::DESCRIPTOR);
}

/// The element type travels with every entry: for each entry and each
/// element type, `--dtype` filling the entry's element parameter builds the
/// same layout as writing it in the entry, with the same element size; a
/// written element type of another size is refused naming both; entries
/// whose offsets do not depend on it carry the one asked for.
#[test]
fn every_entry_carries_its_element_type() {
    let sizes = [("fp8", 1usize), ("fp16", 2), ("fp32", 4), ("fp64", 8)];
    for e in CATALOGUE {
        let key = e.element_key().unwrap_or_else(|| panic!("{} has no element parameter", e.name));
        let params = e.example.split_once(':').map_or("", |(_, p)| p);
        let bare: Vec<&str> = params.split(',').filter(|kv| !kv.starts_with(&format!("{key}="))).collect();
        let bare = bare.join(",");
        for (name, bytes) in sizes {
            let written = if key == "bits" { format!("{}", bytes * 8) } else { name.to_string() };
            let explicit = format!("{bare},{key}={written}");
            let by_entry = e.build_typed(&explicit, None);
            let by_flag = e.build_typed(&bare, Some(name));
            match (by_entry, by_flag) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a, b, "{}: {explicit} against --dtype {name}", e.name);
                    assert_eq!(a.element_bytes, Some(bytes), "{}: {explicit}", e.name);
                    assert_eq!(a.descriptor, e.build(&explicit).unwrap(), "{}", e.name);
                    // The same size under another name is no conflict.
                    let same = e.build_typed(&explicit, Some(&bytes.to_string())).unwrap();
                    assert_eq!(same, a, "{}", e.name);
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{}: {explicit}", e.name),
                (a, b) => panic!("{}: {explicit}: {a:?} against --dtype {name}: {b:?}", e.name),
            }
            for (other, other_bytes) in sizes.iter().filter(|(_, b)| *b != bytes) {
                let Ok(_) = e.build(&explicit) else { continue };
                let err = e.build_typed(&explicit, Some(other)).unwrap_err();
                assert_eq!(
                    err.to_string(),
                    format!(
                        "{} is written with {key}={written} ({bytes}-byte elements) but the element type asked for \
                         is {other} ({other_bytes}-byte elements); drop one or make them agree",
                        e.name
                    )
                );
            }
        }
    }
}

/// Errors name the entry the user wrote and its keys: over every entry and
/// random small values of its numeric parameters, a parameter error names
/// the entry (never the shared builder, as ck-universal-a's once named
/// ck-xor-lds) and, for a parameter the entry takes, its key as written.
#[test]
fn parameter_errors_name_the_entry_and_its_keys() {
    let mut rng = cktile::random::Rng::new(0xe77);
    let mut failures = 0;
    for e in CATALOGUE {
        let numeric: Vec<&str> =
            e.params.iter().map(|p| p.name).filter(|n| e.example.contains(&format!("{n}="))).collect();
        for _ in 0..300 {
            let mut params: Vec<String> = e
                .example
                .split_once(':')
                .map_or("", |(_, p)| p)
                .split(',')
                .filter(|kv| !kv.is_empty())
                .map(str::to_string)
                .collect();
            // Replace one or two numeric values with a random small number.
            for _ in 0..1 + rng.index(2) {
                let key = numeric[rng.index(numeric.len())];
                let value = [0, 1, 2, 3, 5, 6, 12, 24, 48, 100][rng.index(10)];
                if let Some(kv) = params.iter_mut().find(|kv| kv.starts_with(&format!("{key}=")))
                    && kv.split_once('=').is_some_and(|(_, v)| v.parse::<u64>().is_ok())
                {
                    *kv = format!("{key}={value}");
                }
            }
            let text = params.join(",");
            if let Err(err) = e.build(&text)
                && let ErrorKind::Port(cktile_core::ErrorKind::Parameter(ParameterProblem::Invalid {
                    context: layout,
                    parameter,
                    ..
                })) = *err.kind()
            {
                failures += 1;
                assert_eq!(layout, e.name, "{}:{text}: {err}", e.name);
                let squashed: String =
                    parameter.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect();
                if let Some(p) = e.params.iter().find(|p| p.name == squashed) {
                    assert_eq!(parameter, p.name, "{}:{text}: {err}", e.name);
                }
                assert!(err.to_string().starts_with(&format!("{}: ", e.name)), "{err}");
            }
        }
    }
    assert!(failures > 100, "only {failures} parameter errors were exercised");
}

/// The example: ck-universal-a's errors were reported as ck-xor-lds's.
#[test]
fn ck_universal_a_errors_are_its_own() {
    let e = layouts::resolve("ck-universal-a:m=128,k=24").unwrap_err();
    assert_eq!(
        e.to_string(),
        "ck-universal-a: k = 24; K/KPack * MLdsLayer must be a power of two (the xor's modulus), with MLdsLayer = \
         max(1, banks*4/K/sizeof(T)) as CK derives it"
    );
    let e = layouts::resolve("ck-universal-a:m=127,k=32").unwrap_err();
    assert!(e.to_string().starts_with("ck-universal-a: m = 127; it must be a multiple of MLdsLayer"), "{e}");
    let e = layouts::resolve("ck-xor-lds:m=128,k=32,kpack=8,mlds=3").unwrap_err();
    assert!(e.to_string().starts_with("ck-xor-lds: m = 128;"), "{e}");
}

/// Every element type name `dtype_bytes` takes is listed where a wrong one
/// is refused, with its size; the catalogue's own words come first.
#[test]
fn every_dtype_name_is_accepted_and_listed() {
    use cktile::layouts::{DTYPE_NAMES, dtype_bytes};
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let refusal = dtype_bytes("fp12").unwrap_err().to_string();
    for (name, bytes) in DTYPE_NAMES {
        assert_eq!(dtype_bytes(name), Ok(bytes), "{name}");
        assert!(refusal.split(|c: char| !is_word(c)).any(|w| w == name), "{name} missing from: {refusal}");
    }
    let listed = refusal.split(|c: char| !is_word(c)).filter(|w| w.chars().any(|c| c.is_alphabetic())).count();
    // "unknown name fp12 expected one of" + the names + "aliases or a byte count".
    assert_eq!(listed, 7 + DTYPE_NAMES.len() + 5, "{refusal}");
    assert_eq!(
        DTYPE_NAMES[..7].iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        ["fp8", "int8", "fp16", "bf16", "fp32", "tf32", "fp64"]
    );
    assert_eq!((dtype_bytes("8"), dtype_bytes("16").is_err(), dtype_bytes("").is_err()), (Ok(8), true, true));
}
