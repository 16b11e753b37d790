//! CK Tile's descriptors and their known offsets (the transform formulas of
//! ROCm/composable_kernel `include/ck_tile/core/algorithm/coordinate_transform.hpp`,
//! the GEMM A LDS blocks of its universal and v1 GEMM pipeline policies, and
//! small descriptors whose offsets were computed by CK Tile itself; the
//! guide's "From CK Tile to cktile" chapter, docs/src/ck-to-cktile.md, maps
//! each CK call to cktile's), each built three ways: parsed
//! from spec text, built with the typed static API, and the closed-form
//! formula. Every coordinate is checked, the three paths must agree, the
//! bijectivity and element space are checked with `check::check`, and random
//! coordinate walks must equal fresh offset calculations.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::check;
use cktile::prelude::*;
use cktile::typed::{Naive, Packed, Transformed};
use cktile::{Coordinate, Index, Vector};
use proptest::prelude::*;

type N<const V: usize> = Number<V>;

fn parse(spec: &str) -> Descriptor {
    cktile::spec::parse(spec).unwrap_or_else(|e| panic!("{spec}\n{e}"))
}

/// Every top coordinate of `d`, row-major.
fn coords(d: &Descriptor) -> Vec<Vec<Index>> {
    let n = d.element_size().unwrap() as u64;
    (0..n).map(|i| check::coordinate(d, i)).collect()
}

/// Checks a descriptor against a closed form at every coordinate, and that
/// the spec text round-trips through `Display`.
fn assert_closed_form(name: &str, d: &Descriptor, closed: impl Fn(&[Index]) -> Index) {
    for c in coords(d) {
        assert_eq!(d.calculate_offset(&c), closed(&c), "{name} at {c:?}");
        assert_eq!(Coordinate::new(d, &c).offset(), closed(&c), "{name} coordinate at {c:?}");
    }
    assert_eq!(&parse(&d.to_string()), d, "{name}: Display round trip");
}

/// `calculate_top_index` inverts `calculate_offset` on every valid coordinate.
fn assert_inverse(name: &str, d: &Descriptor) {
    for c in coords(d) {
        if d.coordinate_has_valid_offset(&c) {
            let top = d.calculate_top_index(d.calculate_offset(&c));
            assert_eq!(top.map(|t| t.as_slice().to_vec()), Some(c.clone()), "{name} at {c:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// GEMM A LDS, universal policy (M = 128, KPack = 8).
// ---------------------------------------------------------------------------

/// Current form (2025+): unmerge((L, K0)), merge((M/L, L)) on [1,0], merge((K0, KPack)) on [2,3].
fn gemm_current_spec(k: usize, l: usize, vector: bool) -> String {
    let (m, kp) = (128, 8);
    let k0 = k / kp;
    let v = if vector { format!(",{kp},1") } else { String::new() };
    format!(
        "naive(({k0l},{ml},{kp}),({kp},{kl},1){v})
         | transform(xor(({ml},{k0l})) on [1,0] -> [1,0], pass_through({kp}) on [2] -> [2])
         | transform(unmerge(({l},{k0})) on [0] -> [0,2], pass_through({ml}) on [1] -> [1], pass_through({kp}) on [2] -> [3])
         | transform(merge(({ml},{l})) on [1,0] -> [0], merge(({k0},{kp})) on [2,3] -> [1])",
        k0l = k0 * l,
        ml = m / l,
        kl = k * l,
    )
}

fn gemm_current_closed(k: Index, l: Index, kp: Index) -> impl Fn(&[Index]) -> Index {
    move |c| {
        let (m, kk) = (c[0], c[1]);
        let k0n = k / kp;
        let (mp, ll, k0, kpi) = (m / l, m % l, kk / kp, kk % kp);
        ((ll * k0n + k0) ^ (mp % (k0n * l))) * kp + mp * (k * l) + kpi
    }
}

/// 2024 form: unmerge((K0, L)), merge((K0, K1)) on [0,3] -> k, merge((M/L, L)) on [1,2] -> m.
fn gemm_2024_spec(k: usize, l: usize, kp: usize) -> String {
    let m = 128;
    let k0 = k / kp;
    format!(
        "naive(({k0l},{ml},{kp}),({kp},{kl},1))
         | transform(xor(({ml},{k0l})) on [1,0] -> [1,0], pass_through({kp}) on [2] -> [2])
         | transform(unmerge(({k0},{l})) on [0] -> [0,2], pass_through({ml}) on [1] -> [1], pass_through({kp}) on [2] -> [3])
         | transform(merge(({k0},{kp})) on [0,3] -> [1], merge(({ml},{l})) on [1,2] -> [0])",
        k0l = k0 * l,
        ml = m / l,
        kl = k * l,
    )
}

fn gemm_2024_closed(k: Index, l: Index, kp: Index) -> impl Fn(&[Index]) -> Index {
    move |c| {
        let (m, kk) = (c[0], c[1]);
        let k0n = k / kp;
        let (mp, ll, k0, kpi) = (m / l, m % l, kk / kp, kk % kp);
        ((k0 * l + ll) ^ (mp % (k0n * l))) * kp + mp * k * l + kpi
    }
}

/// The current form, typed, all static. Arguments: K0*L, M/L, K*L, L, K0.
macro_rules! gemm_current_typed {
    ($k0l:literal, $ml:literal, $kl:literal, $l:literal, $k0:literal) => {{
        let d = make_naive_tensor_descriptor(
            (Number::<$k0l>, Number::<$ml>, Number::<8>),
            (Number::<8>, Number::<$kl>, Number::<1>),
        )
        .unwrap();
        let d = transform_tensor_descriptor(
            d,
            (make_xor_transform((Number::<$ml>, Number::<$k0l>)), make_pass_through_transform(Number::<8>)),
            (ids![1, 0], ids![2]),
            (ids![1, 0], ids![2]),
        )
        .unwrap();
        let d = transform_tensor_descriptor(
            d,
            (
                make_unmerge_transform((Number::<$l>, Number::<$k0>)),
                make_pass_through_transform(Number::<$ml>),
                make_pass_through_transform(Number::<8>),
            ),
            (ids![0], ids![1], ids![2]),
            (ids![0, 2], ids![1], ids![3]),
        )
        .unwrap();
        transform_tensor_descriptor(
            d,
            (make_merge_transform((Number::<$ml>, Number::<$l>)), make_merge_transform((Number::<$k0>, Number::<8>))),
            (ids![1, 0], ids![2, 3]),
            (ids![0], ids![1]),
        )
        .unwrap()
    }};
}

/// The 2024 form, typed, all static. Arguments: K0*L, M/L, K*L, L, K0, KPack.
macro_rules! gemm_2024_typed {
    ($k0l:literal, $ml:literal, $kl:literal, $l:literal, $k0:literal, $kp:literal) => {{
        let d = make_naive_tensor_descriptor(
            (Number::<$k0l>, Number::<$ml>, Number::<$kp>),
            (Number::<$kp>, Number::<$kl>, Number::<1>),
        )
        .unwrap();
        let d = transform_tensor_descriptor(
            d,
            (make_xor_transform((Number::<$ml>, Number::<$k0l>)), make_pass_through_transform(Number::<$kp>)),
            (ids![1, 0], ids![2]),
            (ids![1, 0], ids![2]),
        )
        .unwrap();
        let d = transform_tensor_descriptor(
            d,
            (
                make_unmerge_transform((Number::<$k0>, Number::<$l>)),
                make_pass_through_transform(Number::<$ml>),
                make_pass_through_transform(Number::<$kp>),
            ),
            (ids![0], ids![1], ids![2]),
            (ids![0, 2], ids![1], ids![3]),
        )
        .unwrap();
        transform_tensor_descriptor(
            d,
            (make_merge_transform((Number::<$k0>, Number::<$kp>)), make_merge_transform((Number::<$ml>, Number::<$l>))),
            (ids![0, 3], ids![1, 2]),
            (ids![1], ids![0]),
        )
        .unwrap()
    }};
}

/// The checks shared by the GEMM layouts: lengths, closed form everywhere,
/// typed == spec == closed form, bijective onto [0, M*K), inverse.
fn check_gemm(
    name: &str,
    spec: &Descriptor,
    typed: &Descriptor,
    typed_offset: impl Fn(Index, Index) -> Index,
    closed: impl Fn(&[Index]) -> Index,
    k: Index,
) {
    assert_eq!(spec, typed, "{name}: spec and typed API build the same descriptor");
    assert_eq!(spec.lengths().as_slice(), &[128, k]);
    assert_eq!(spec.element_space_size(), 128 * k);
    assert_closed_form(name, spec, &closed);
    for m in 0..128 {
        for kk in 0..k {
            assert_eq!(typed_offset(m, kk), closed(&[m, kk]), "{name} typed at ({m}, {kk})");
        }
    }
    let report = check::check(spec).unwrap();
    assert!(report.is_bijective(), "{name}: {report:?}");
    assert_eq!((report.element_size, report.valid_count), (128 * k as u64, 128 * k as u64));
    assert_eq!((report.hole_count, report.collision_count, report.outside_count), (0, 0, 0));
    assert_inverse(name, spec);
}

#[test]
fn gemm_current_k64_l1() {
    let spec = parse(&gemm_current_spec(64, 1, false));
    let typed = gemm_current_typed!(8, 128, 64, 1, 8);
    let closed = gemm_current_closed(64, 1, 8);
    check_gemm("current K=64", &spec, &typed.descriptor(), |m, k| typed.calculate_offset([m, k]), &closed, 64);
    // L = 1: offset = (k0 ^ (m%8))*8 + 64*m + kp.
    for m in 0..128 {
        for k in 0..64 {
            assert_eq!(closed(&[m, k]), ((k / 8) ^ (m % 8)) * 8 + 64 * m + k % 8);
        }
    }
    let expected = [
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
    ];
    for ((m, k), off) in expected {
        assert_eq!(spec.calculate_offset(&[m, k]), off, "({m}, {k})");
        assert_eq!(typed.calculate_offset([m, k]), off, "typed ({m}, {k})");
    }
    assert_eq!(typed.element_space_size(), 8192);
}

#[test]
fn gemm_current_k32_l2() {
    let spec = parse(&gemm_current_spec(32, 2, false));
    let typed = gemm_current_typed!(8, 64, 64, 2, 4);
    let closed = gemm_current_closed(32, 2, 8);
    check_gemm("current K=32", &spec, &typed.descriptor(), |m, k| typed.calculate_offset([m, k]), &closed, 32);
    let expected = [
        ((1, 0), 32),
        ((2, 0), 72),
        ((1, 8), 40),
        ((3, 9), 97),
        ((3, 17), 121),
        ((16, 16), 528),
        ((64, 0), 2048),
        ((65, 5), 2085),
        ((127, 31), 4039),
    ];
    for ((m, k), off) in expected {
        assert_eq!(spec.calculate_offset(&[m, k]), off, "({m}, {k})");
        assert_eq!(typed.calculate_offset([m, k]), off, "typed ({m}, {k})");
        assert_eq!(closed(&[m, k]), off, "closed ({m}, {k})");
    }
    assert_eq!(typed.element_space_size(), 4096);
    assert_eq!(typed.lengths().as_slice(), &[128, 32]);
}

/// The typed four-argument `make_naive_tensor_descriptor` (static, and
/// with runtime lengths and vector) carries the same guarantee to K as the
/// spec's `naive(..., 8, 1)`, with the offsets of the two-argument form.
#[test]
fn typed_vector_guarantee_matches_the_spec() {
    let spec = parse(&gemm_current_spec(64, 1, true));
    let stat = make_naive_tensor_descriptor_with_vector(
        (Number::<8>, Number::<128>, Number::<8>),
        (Number::<8>, Number::<64>, Number::<1>),
        Number::<8>,
        Number::<1>,
    )
    .unwrap();
    let mixed = make_naive_tensor_descriptor_with_vector(
        (8usize, Number::<128>, 8usize),
        (8usize, 64usize, Number::<1>),
        8usize,
        1usize,
    )
    .unwrap();
    macro_rules! gemm {
        ($d:expr) => {{
            let d = transform_tensor_descriptor(
                $d,
                (make_xor_transform((Number::<128>, Number::<8>)), make_pass_through_transform(Number::<8>)),
                (ids![1, 0], ids![2]),
                (ids![1, 0], ids![2]),
            )
            .unwrap();
            transform_tensor_descriptor(
                d,
                (make_pass_through_transform(Number::<128>), make_merge_transform((Number::<8>, Number::<8>))),
                (ids![1], ids![0, 2]),
                (ids![0], ids![1]),
            )
            .unwrap()
        }};
    }
    let (stat, mixed) = (gemm!(stat), gemm!(mixed));
    let v = spec.top_vectors();
    assert_eq!((v[0], v[1]), (Vector::UNKNOWN, Vector::new(8, 1)));
    for d in [stat.descriptor(), mixed.descriptor()] {
        assert_eq!(d.top_vectors()[..2], v[..2]);
    }
    for c in coords(&spec) {
        let at = [c[0], c[1]];
        assert_eq!(stat.calculate_offset(at), spec.calculate_offset(&c), "{c:?}");
        assert_eq!(mixed.calculate_offset(at), spec.calculate_offset(&c), "{c:?}");
    }
    // A vector that does not fit a signed 64-bit index is refused, naming it.
    let e = make_naive_tensor_descriptor_with_vector((4usize,), (1usize,), 1usize, usize::MAX).unwrap_err();
    assert!(e.to_string().contains(&usize::MAX.to_string()), "{e}");
}

#[test]
fn gemm_current_vector_guarantee_reaches_k() {
    // The KPack dim's guarantee (8, 1) flows through merge to top dim k; m gets nothing.
    for (k, l) in [(64, 1), (32, 2)] {
        let d = parse(&gemm_current_spec(k, l, true));
        let v = d.top_vectors();
        assert_eq!((v[0], v[1]), (Vector::UNKNOWN, Vector::new(8, 1)), "K={k}");
        // The guarantee does not change any offset.
        let plain = parse(&gemm_current_spec(k, l, false));
        for c in coords(&d) {
            assert_eq!(d.calculate_offset(&c), plain.calculate_offset(&c));
        }
        assert_eq!(&parse(&d.to_string()), &d);
    }
}

#[test]
fn gemm_2024_k32() {
    let spec = parse(&gemm_2024_spec(32, 2, 8));
    let typed = gemm_2024_typed!(8, 64, 64, 2, 4, 8);
    let closed = gemm_2024_closed(32, 2, 8);
    check_gemm("2024 K=32", &spec, &typed.descriptor(), |m, k| typed.calculate_offset([m, k]), &closed, 32);
    let expected = [((1, 0), 8), ((1, 8), 24), ((3, 9), 81), ((3, 17), 97), ((16, 16), 544), ((65, 5), 2061)];
    for ((m, k), off) in expected {
        assert_eq!(spec.calculate_offset(&[m, k]), off, "({m}, {k})");
        assert_eq!(typed.calculate_offset([m, k]), off, "typed ({m}, {k})");
    }
    // Computed by CK Tile: 64*(m/2) + 8*(((k/8)*2 + m%2) ^ ((m/2)%8)) + k%8.
    for m in 0..128 {
        for k in 0..32 {
            assert_eq!(closed(&[m, k]), 64 * (m / 2) + 8 * (((k / 8) * 2 + m % 2) ^ ((m / 2) % 8)) + k % 8);
        }
    }
}

#[test]
fn gemm_2024_k64_equals_current_k64() {
    let old = parse(&gemm_2024_spec(64, 1, 8));
    let new = parse(&gemm_current_spec(64, 1, false));
    let typed = gemm_2024_typed!(8, 128, 64, 1, 8, 8);
    assert_eq!(old, typed.descriptor());
    for c in coords(&old) {
        assert_eq!(old.calculate_offset(&c), new.calculate_offset(&c), "{c:?}");
    }
    // Computed by CK Tile (= CuTe Swizzle<3,3,3> o (128,64):(64,1)).
    assert_closed_form("2024 K=64", &old, |c| 64 * c[0] + 8 * ((c[1] / 8) ^ (c[0] % 8)) + c[1] % 8);
    let swz = parse(
        "naive((8192),(1)) | transform(swizzle(3,3,3) on [0] -> [0]) | transform(unmerge((128,64)) on [0] -> [0,1])",
    );
    for c in coords(&old) {
        assert_eq!(old.calculate_offset(&c), swz.calculate_offset(&c), "{c:?}");
    }
}

#[test]
fn gemm_kpack16_k64_is_swizzle_2_4_2() {
    let spec = parse(&gemm_2024_spec(64, 1, 16));
    let typed = gemm_2024_typed!(4, 128, 64, 1, 4, 16);
    let closed = |c: &[Index]| 64 * c[0] + 16 * ((c[1] / 16) ^ (c[0] % 4)) + c[1] % 16;
    check_gemm("KPack 16 K=64", &spec, &typed.descriptor(), |m, k| typed.calculate_offset([m, k]), closed, 64);
    assert_eq!(gemm_2024_closed(64, 1, 16)(&[5, 40]), closed(&[5, 40]));
    // The same map as CuTe's Swizzle<2,4,2> on the row-major index, three ways.
    let swz_spec = parse(
        "naive((8192),(1))
         | transform(swizzle(2,4,2) on [0] -> [0])
         | transform(unmerge((128,64)) on [0] -> [0,1])",
    );
    let swz_typed = {
        let d = make_naive_tensor_descriptor((Number::<8192>,), (Number::<1>,)).unwrap();
        let d = transform_tensor_descriptor(d, (make_swizzle_transform::<2, 4, 2>(),), (ids![0],), (ids![0],)).unwrap();
        transform_tensor_descriptor(
            d,
            (make_unmerge_transform((Number::<128>, Number::<64>)),),
            (ids![0],),
            (ids![0, 1],),
        )
        .unwrap()
    };
    assert_eq!(swz_spec, swz_typed.descriptor());
    for c in coords(&spec) {
        let o = 64 * c[0] + c[1];
        let cute = o ^ (((o >> 6) & 3) << 4);
        assert_eq!(swz_spec.calculate_offset(&c), cute, "{c:?}");
        assert_eq!(swz_typed.calculate_offset([c[0], c[1]]), cute, "{c:?}");
        assert_eq!(spec.calculate_offset(&c), cute, "{c:?}");
    }
    assert!(check::check(&swz_spec).unwrap().is_bijective());
    // Swizzle keeps runs of 2^M = 16 contiguous: with the whole buffer
    // guaranteed contiguous, k gets vector length gcd(16, 64) = 16, stride 1.
    let guaranteed = parse(
        "naive((8192),(1),8192,1)
         | transform(swizzle(2,4,2) on [0] -> [0])
         | transform(unmerge((128,64)) on [0] -> [0,1])",
    );
    let v = guaranteed.top_vectors();
    assert_eq!((v[0], v[1]), (Vector::UNKNOWN, Vector::new(16, 1)));
}

// ---------------------------------------------------------------------------
// v1 "3-D + padding".
// ---------------------------------------------------------------------------

fn v1_spec(m: usize, k: usize) -> String {
    format!(
        "naive(({k8},{m},8),({pitch},8,1),8,1) | transform(pass_through({m}) on [1] -> [0], merge(({k8},8)) on [0,2] -> [1])",
        k8 = k / 8,
        pitch = (m + 1) * 8,
    )
}

#[test]
fn v1_padding_m128_k32() {
    let spec = parse(&v1_spec(128, 32));
    let typed = {
        let d = make_naive_tensor_descriptor(
            (Number::<4>, Number::<128>, Number::<8>),
            (Number::<1032>, Number::<8>, Number::<1>),
        )
        .unwrap();
        transform_tensor_descriptor(
            d,
            (make_pass_through_transform(Number::<128>), make_merge_transform((Number::<4>, Number::<8>))),
            (ids![1], ids![0, 2]),
            (ids![0], ids![1]),
        )
        .unwrap()
    };
    let closed = |c: &[Index]| (c[1] / 8) * 129 * 8 + 8 * c[0] + c[1] % 8;
    assert_closed_form("v1 M=128 K=32", &spec, closed);
    assert_eq!(spec.element_space_size(), 4120);
    assert_eq!(typed.element_space_size(), 4120);
    for ((m, k), off) in [((1, 0), 8), ((1, 8), 1040), ((3, 17), 2089), ((127, 31), 4119)] {
        assert_eq!(spec.calculate_offset(&[m, k]), off);
        assert_eq!(typed.calculate_offset([m, k]), off);
    }
    for c in coords(&spec) {
        assert_eq!(typed.calculate_offset([c[0], c[1]]), closed(&c));
    }
    // Same offsets as the typed path; the spec also carries the vector guarantee.
    assert_eq!(spec.top_vectors()[1], Vector::new(8, 1));
    let report = check::check(&spec).unwrap();
    assert!(report.injective && !report.surjective);
    assert_eq!(report.hole_count, 4120 - 4096);
    // The holes are the 8-element pad at the end of each 1032-element K0 slab.
    assert_eq!(report.holes, (1024..1032).collect::<Vec<_>>());
    assert_inverse("v1 M=128 K=32", &spec);
}

#[test]
fn v1_padding_m32_k16() {
    let spec = parse(&v1_spec(32, 16));
    let typed = {
        let d = make_naive_tensor_descriptor(
            (Number::<2>, Number::<32>, Number::<8>),
            (Number::<264>, Number::<8>, Number::<1>),
        )
        .unwrap();
        transform_tensor_descriptor(
            d,
            (make_pass_through_transform(Number::<32>), make_merge_transform((Number::<2>, Number::<8>))),
            (ids![1], ids![0, 2]),
            (ids![0], ids![1]),
        )
        .unwrap()
    };
    // Computed by CK Tile: 264*(k/8) + 8*m + k%8, element space 520.
    let closed = |c: &[Index]| 264 * (c[1] / 8) + 8 * c[0] + c[1] % 8;
    assert_closed_form("v1 M=32 K=16", &spec, closed);
    for c in coords(&spec) {
        assert_eq!(typed.calculate_offset([c[0], c[1]]), closed(&c));
    }
    assert_eq!((spec.element_space_size(), typed.element_space_size()), (520, 520));
    let report = check::check(&spec).unwrap();
    assert!(report.injective);
    assert_eq!(report.hole_count, 520 - 512);
    assert_inverse("v1 M=32 K=16", &spec);
}

// ---------------------------------------------------------------------------
// Small descriptors whose offsets CK Tile itself computed.
// ---------------------------------------------------------------------------

#[test]
fn xor_8x8_packed_rows() {
    let spec = parse("packed((8,8)) | transform(xor((8,8)) on [0,1] -> [0,1])");
    let typed = transform_tensor_descriptor(
        make_naive_tensor_descriptor_packed((Number::<8>, Number::<8>)).unwrap(),
        (make_xor_transform((Number::<8>, Number::<8>)),),
        (ids![0, 1],),
        (ids![0, 1],),
    )
    .unwrap();
    assert_eq!(spec, typed.descriptor());
    assert_closed_form("xor 8x8", &spec, |c| 8 * c[0] + (c[1] ^ c[0]));
    let rows: Vec<Vec<Index>> = (0..4).map(|r| (0..8).map(|c| typed.calculate_offset([r, c])).collect()).collect();
    assert_eq!(
        rows,
        vec![
            vec![0, 1, 2, 3, 4, 5, 6, 7],
            vec![9, 8, 11, 10, 13, 12, 15, 14],
            vec![18, 19, 16, 17, 22, 23, 20, 21],
            vec![27, 26, 25, 24, 31, 30, 29, 28],
        ]
    );
    assert!(check::check(&spec).unwrap().is_bijective());
    assert_eq!(spec.element_space_size(), 64);
    assert_inverse("xor 8x8", &spec);
}

#[test]
fn xor_8x4_packed_row_1() {
    let spec = parse("packed((8,4)) | transform(xor((8,4)) on [0,1] -> [0,1])");
    let typed = transform_tensor_descriptor(
        make_naive_tensor_descriptor_packed((Number::<8>, Number::<4>)).unwrap(),
        (make_xor_transform((Number::<8>, Number::<4>)),),
        (ids![0, 1],),
        (ids![0, 1],),
    )
    .unwrap();
    assert_eq!(spec, typed.descriptor());
    let row1: Vec<Index> = (0..4).map(|c| typed.calculate_offset([1, c])).collect();
    assert_eq!(row1, vec![5, 4, 7, 6]);
    assert_closed_form("xor 8x4", &spec, |c| 4 * c[0] + (c[1] ^ (c[0] % 4)));
    assert!(check::check(&spec).unwrap().is_bijective());
}

/// CK's `xor_t<_, ApplyModulo = false>`, as its grouped convolution uses
/// it (`make_xor_transform<(G, G), false>` over a `(G, G)` pair with a
/// power-of-two `G`): `low1 = up1 ^ up0`, with no remainder. On such
/// lengths it equals the default form, `up1 ^ (up0 % L1)`.
#[test]
fn xor_no_modulo_4x8_packed() {
    let spec = parse("packed((4,8)) | transform(xor_no_modulo((4,8)) on [0,1] -> [0,1])");
    let typed = transform_tensor_descriptor(
        make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap(),
        (make_xor_no_modulo_transform((Number::<4>, Number::<8>)),),
        (ids![0, 1],),
        (ids![0, 1],),
    )
    .unwrap();
    assert_eq!(spec, typed.descriptor());
    // CK's formula, written out: row r, column c lands on 8 * r + (c ^ r).
    assert_closed_form("xor_no_modulo 4x8", &spec, |c| 8 * c[0] + (c[1] ^ c[0]));
    let row3: Vec<Index> = (0..8).map(|c| typed.calculate_offset([3, c])).collect();
    assert_eq!(row3, vec![27, 26, 25, 24, 31, 30, 29, 28]);
    let modded = parse("packed((4,8)) | transform(xor((4,8)) on [0,1] -> [0,1])");
    assert_eq!(
        coords(&spec).iter().map(|c| spec.calculate_offset(c)).collect::<Vec<_>>(),
        coords(&modded).iter().map(|c| modded.calculate_offset(c)).collect::<Vec<_>>()
    );
    assert!(check::check(&spec).unwrap().is_bijective());
    assert_inverse("xor_no_modulo 4x8", &spec);
}

/// cktile takes exactly the lengths on which CK's unreduced XOR stays in
/// `[0, L1)` for every upper index, found here by trying every index.
#[test]
fn xor_no_modulo_accepts_exactly_the_lengths_that_stay_in_range() {
    for l0 in 1..=20usize {
        for l1 in 1..=20usize {
            let stays = (0..l0 as i64).all(|r| (0..l1 as i64).all(|c| (0..l1 as i64).contains(&(c ^ r))));
            let built = cktile::transforms::Transform::xor_no_modulo(l0, l1);
            assert_eq!(built.is_ok(), stays, "({l0}, {l1}): {built:?}");
            if let Err(e) = built {
                let text = e.to_string();
                let block = (l0 as u64).next_power_of_two();
                assert!(
                    text.contains(&format!("({l0}, {l1})")) && text.contains(&format!("multiple of {block}")),
                    "{text}"
                );
            }
        }
    }
}

/// CK's `permute_bits_5` (its FMHA forward V3 kernel), written out from
/// its definition: output bits 4..0 are input bits 2, 1, 0, 4, 3; the
/// higher bits stay.
fn ck_permute_bits_5(x: Index) -> Index {
    let b = |i: u32| (x >> i) & 1;
    (x & !31) | (b(2) << 4) | (b(1) << 3) | (b(0) << 2) | (b(4) << 1) | b(3)
}

/// CK's `inverse_permute_bits_5`, written out the same way: output bits
/// 4..0 are input bits 1, 0, 4, 3, 2.
fn ck_inverse_permute_bits_5(x: Index) -> Index {
    let c = |i: u32| (x >> i) & 1;
    (x & !31) | (c(1) << 4) | (c(0) << 3) | (c(4) << 2) | (c(3) << 1) | c(2)
}

/// CK's FMHA forward V3 K view: `make_functor_transform(permute_bits_5,
/// seqlen_k)` on the token rows of a `(seqlen_k, hdim)` tensor,
/// `pass_through` on `hdim`. The spec, the typed builder and the runtime
/// constructor build the same descriptor; its offsets are CK's formula on
/// every coordinate (by the descriptor, a moving coordinate and the
/// compiled program), it is a bijection, and the inverse undoes it.
#[test]
fn functor_permute_bits_5_on_fmha_k_rows() {
    let spec = parse(
        "naive((64,8),(8,1)) | transform(functor(64,(2,3,4,0,1),0) on [0] -> [0], pass_through(8) on [1] -> [1])",
    );
    let typed = transform_tensor_descriptor(
        make_naive_tensor_descriptor((Number::<64>, Number::<8>), (Number::<8>, Number::<1>)).unwrap(),
        (make_functor_transform(PermuteBits5, Number::<64>), make_pass_through_transform(Number::<8>)),
        (ids![0], ids![1]),
        (ids![0], ids![1]),
    )
    .unwrap();
    assert_eq!(spec, typed.descriptor());
    let runtime = Descriptor::naive(&[64, 8], &[8, 1])
        .unwrap()
        .transform(&[
            Item::new(cktile::transforms::Transform::permute_bits_5(64).unwrap(), &[0], &[0]).unwrap(),
            Item::new(cktile::transforms::Transform::pass_through(8).unwrap(), &[1], &[1]).unwrap(),
        ])
        .unwrap();
    assert_eq!(runtime, spec);
    assert_closed_form("permute_bits_5", &spec, |c| 8 * ck_permute_bits_5(c[0]) + c[1]);
    // Token t reads row 4 (t % 8) + t / 8 of its block of 32.
    let rows: Vec<Index> = (0..64).map(|t| typed.calculate_offset([t, 0]) / 8).collect();
    assert_eq!(&rows[..12], &[0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13]);
    assert_eq!(rows, (0..64).map(ck_permute_bits_5).collect::<Vec<_>>());
    let p = cktile::Program::of(&spec);
    for c in coords(&spec) {
        assert_eq!(p.calculate_offset(&c), spec.calculate_offset(&c), "program at {c:?}");
    }
    assert!(check::check(&spec).unwrap().is_bijective());
    assert_inverse("permute_bits_5", &spec);
    // CK's inverse, and the two composed: the identity.
    let inverse = parse("packed((64)) | transform(functor(64,(3,4,0,1,2),0) on [0] -> [0])");
    assert_closed_form("inverse_permute_bits_5", &inverse, |c| ck_inverse_permute_bits_5(c[0]));
    let both = parse(
        "packed((64)) | transform(functor(64,(3,4,0,1,2),0) on [0] -> [0]) | transform(functor(64,(2,3,4,0,1),0) on [0] -> [0])",
    );
    assert_closed_form("permute_bits_5 after its inverse", &both, |c| c[0]);
}

/// CK's `swap_warp_t` (`v ^ 1`) over the `KWarps` groups of its quantised
/// GEMM's async policy: the two groups of each pair trade places.
#[test]
fn functor_swap_warp() {
    let spec = parse("packed((4,16)) | transform(functor(4,(0),1) on [0] -> [0], pass_through(16) on [1] -> [1])");
    let typed = transform_tensor_descriptor(
        make_naive_tensor_descriptor_packed((Number::<4>, Number::<16>)).unwrap(),
        (make_functor_transform(SwapWarp, 4usize), make_pass_through_transform(Number::<16>)),
        (ids![0], ids![1]),
        (ids![0], ids![1]),
    )
    .unwrap();
    assert_eq!(spec, typed.descriptor());
    assert_closed_form("swap_warp", &spec, |c| 16 * (c[0] ^ 1) + c[1]);
    let groups: Vec<Index> = (0..4).map(|w| typed.calculate_offset([w, 0]) / 16).collect();
    assert_eq!(groups, vec![1, 0, 3, 2]);
    assert_inverse("swap_warp", &spec);
    // An odd number of groups would send the last past the end.
    assert!(cktile::transforms::Transform::swap_warp(3).is_err());
}

/// One of CK's functors: its name, its formula and cktile's constructor.
type CkFunctor =
    (&'static str, fn(Index) -> Index, fn(usize) -> Result<cktile::transforms::Transform, cktile::transforms::Error>);

/// cktile takes exactly the lengths on which CK's two functors keep every
/// index inside `[0, len)`, found by trying every index; CK's FMHA kernel
/// takes any `seqlen_k`, and most lengths map a token past the end.
#[test]
fn functor_accepts_exactly_the_lengths_that_stay_in_range() {
    let functors: [CkFunctor; 3] = [
        ("permute_bits_5", ck_permute_bits_5, cktile::transforms::Transform::permute_bits_5),
        ("inverse_permute_bits_5", ck_inverse_permute_bits_5, cktile::transforms::Transform::inverse_permute_bits_5),
        ("swap_warp", |v| v ^ 1, cktile::transforms::Transform::swap_warp),
    ];
    for (name, f, build) in functors {
        let mut refused = 0;
        for len in 1..=200usize {
            let escapes = (0..len as Index).find(|&u| f(u) >= len as Index);
            let built = build(len);
            assert_eq!(built.is_ok(), escapes.is_none(), "{name} on {len}: {built:?}");
            if let (Err(e), Some(u)) = (built, escapes) {
                let text = e.to_string();
                assert!(text.contains(&format!("index {u} maps to {}, outside [0, {len})", f(u))), "{text}");
                refused += 1;
            }
        }
        assert!(refused > 90, "{name}: {refused}");
    }
}

#[test]
fn merge_over_padded_rows() {
    let spec = parse("naive((4,8),(100,1)) | transform(merge((4,8)) on [0,1] -> [0])");
    let typed = transform_tensor_descriptor(
        make_naive_tensor_descriptor((Number::<4>, Number::<8>), (Number::<100>, Number::<1>)).unwrap(),
        (make_merge_transform((Number::<4>, Number::<8>)),),
        (ids![0, 1],),
        (ids![0],),
    )
    .unwrap();
    assert_eq!(spec, typed.descriptor());
    let all: Vec<Index> = (0..32).map(|i| typed.calculate_offset([i])).collect();
    let expected: Vec<Index> = (0..4).flat_map(|r| (0..8).map(move |c| 100 * r + c)).collect();
    assert_eq!(all, expected);
    assert_closed_form("merge", &spec, |c| 100 * (c[0] / 8) + c[0] % 8);
    assert_eq!(spec.element_space_size(), 308);
    let report = check::check(&spec).unwrap();
    assert!(report.injective && !report.surjective);
    assert_eq!(report.hole_count, 308 - 32);
    assert_eq!(report.holes, (8..16).collect::<Vec<_>>());
    assert_inverse("merge", &spec);
}

#[test]
fn unmerge_over_strided() {
    let spec = parse("naive((24),(3)) | transform(unmerge((2,3,4)) on [0] -> [0,1,2])");
    let typed = transform_tensor_descriptor(
        make_naive_tensor_descriptor((Number::<24>,), (Number::<3>,)).unwrap(),
        (make_unmerge_transform((Number::<2>, Number::<3>, Number::<4>)),),
        (ids![0],),
        (ids![0, 1, 2],),
    )
    .unwrap();
    assert_eq!(spec, typed.descriptor());
    let closed = |c: &[Index]| 3 * (12 * c[0] + 4 * c[1] + c[2]);
    assert_closed_form("unmerge (2,3,4)", &spec, closed);
    for c in coords(&spec) {
        assert_eq!(typed.calculate_offset([c[0], c[1], c[2]]), closed(&c));
    }
    assert_eq!(spec.element_space_size(), 70);
    assert!(check::check(&spec).unwrap().injective);
    assert_inverse("unmerge (2,3,4)", &spec);

    let spec = parse("naive((32),(1)) | transform(unmerge((4,8)) on [0] -> [0,1])");
    assert_closed_form("unmerge (4,8)", &spec, |c| 8 * c[0] + c[1]);
    assert!(check::check(&spec).unwrap().is_bijective());
}

#[test]
fn pad_5_2_3_offsets_and_validity() {
    let spec = parse("naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])");
    let typed = transform_tensor_descriptor(
        make_naive_tensor_descriptor((Number::<5>,), (Number::<1>,)).unwrap(),
        (make_pad_transform(Number::<5>, Number::<2>, Number::<3>),),
        (ids![0],),
        (ids![0],),
    )
    .unwrap();
    assert_eq!(spec, typed.descriptor());
    assert_eq!(spec.lengths().as_slice(), &[10]);
    let offsets: Vec<Index> = (0..10).map(|i| spec.calculate_offset(&[i])).collect();
    assert_eq!(offsets, (-2..8).collect::<Vec<_>>());
    let typed_offsets: Vec<Index> = (0..10).map(|i| typed.calculate_offset([i])).collect();
    assert_eq!(typed_offsets, offsets);
    let valid: Vec<bool> = (0..10).map(|i| spec.coordinate_has_valid_offset(&[i])).collect();
    let typed_valid: Vec<bool> = (0..10).map(|i| typed.coordinate_has_valid_offset([i])).collect();
    assert_eq!(valid, (0..10).map(|i| (2..7).contains(&i)).collect::<Vec<_>>());
    assert_eq!(typed_valid, valid);
    // Outside the top lengths is never valid.
    assert!(!spec.coordinate_has_valid_offset(&[10]) && !spec.coordinate_has_valid_offset(&[-1]));
    // The element space is the base's: 5.
    assert_eq!((spec.element_space_size(), typed.element_space_size()), (5, 5));
    let report = check::check(&spec).unwrap();
    assert_eq!((report.element_size, report.valid_count), (10, 5));
    assert!(report.is_bijective(), "{report:?}");
    assert_inverse("pad", &spec);
    let o = check::offsets(&spec).unwrap();
    assert_eq!(o.offsets, offsets);
    assert_eq!(o.valid, valid);
}

#[test]
fn embed_overlapping_windows() {
    let spec = parse("naive((16),(1)) | transform(embed((3,4),(2,1)) on [0] -> [0,1])");
    let typed = transform_tensor_descriptor(
        make_naive_tensor_descriptor((Number::<16>,), (Number::<1>,)).unwrap(),
        (make_embed_transform((Number::<3>, Number::<4>), (Number::<2>, Number::<1>)),),
        (ids![0],),
        (ids![0, 1],),
    )
    .unwrap();
    assert_eq!(spec, typed.descriptor());
    let rows: Vec<Vec<Index>> = (0..3).map(|r| (0..4).map(|c| typed.calculate_offset([r, c])).collect()).collect();
    assert_eq!(rows, vec![vec![0, 1, 2, 3], vec![2, 3, 4, 5], vec![4, 5, 6, 7]]);
    assert_closed_form("embed", &spec, |c| 2 * c[0] + c[1]);
    assert_eq!(spec.element_space_size(), 16);
    let report = check::check(&spec).unwrap();
    assert!(!report.injective && !report.surjective);
    assert_eq!((report.collision_count, report.hole_count), (4, 8));
    assert_eq!(report.collisions[0].offset, 2);
    assert_eq!((report.collisions[0].first.clone(), report.collisions[0].second.clone()), (vec![0, 2], vec![1, 0]));
    // Overlapping: no inverse.
    assert_eq!(spec.calculate_top_index(3), None);
}

// ---------------------------------------------------------------------------
// Compile-time constants.
// ---------------------------------------------------------------------------

/// The typed chain of the current-form GEMM A LDS descriptor, K = 32, L = 2.
type GemmBase = Naive<(N<8>, N<64>, N<8>), (N<8>, N<64>, N<1>)>;
type GemmPerm =
    Transformed<GemmBase, (Xor<N<64>, N<8>>, PassThrough<N<8>>), ((N<1>, N<0>), (N<2>,)), ((N<1>, N<0>), (N<2>,))>;
type GemmUnmerged = Transformed<
    GemmPerm,
    (Unmerge<(N<2>, N<4>)>, PassThrough<N<64>>, PassThrough<N<8>>),
    ((N<0>,), (N<1>,), (N<2>,)),
    ((N<0>, N<2>), (N<1>,), (N<3>,)),
>;
type GemmK32 = Transformed<
    GemmUnmerged,
    (Merge<(N<64>, N<2>)>, Merge<(N<4>, N<8>)>),
    ((N<1>, N<0>), (N<2>, N<3>)),
    ((N<0>,), (N<1>,)),
>;

const OFF_3_9: Index = TensorDescriptor::<GemmK32>::DESCRIPTOR.calculate_offset(&[3, 9]);
const OFF_127_31: Index = TensorDescriptor::<GemmK32>::DESCRIPTOR.calculate_offset(&[127, 31]);
const SPACE: Index = TensorDescriptor::<GemmK32>::DESCRIPTOR.element_space_size();

/// The same descriptor built with `const fn`s in a `const` item.
const GEMM_K32_CONST: Descriptor = {
    let Ok(d) = Descriptor::naive(&[8, 64, 8], &[8, 64, 1]) else { panic!() };
    let Ok(xor) = cktile::Transform::xor(64, 8) else { panic!() };
    let Ok(pt8) = cktile::Transform::pass_through(8) else { panic!() };
    let Ok(a) = Item::new(xor, &[1, 0], &[1, 0]) else { panic!() };
    let Ok(b) = Item::new(pt8, &[2], &[2]) else { panic!() };
    let Ok(d) = d.transform(&[a, b]) else { panic!() };
    let Ok(un) = cktile::Transform::unmerge(&[2, 4]) else { panic!() };
    let Ok(pt64) = cktile::Transform::pass_through(64) else { panic!() };
    let Ok(a) = Item::new(un, &[0], &[0, 2]) else { panic!() };
    let Ok(b) = Item::new(pt64, &[1], &[1]) else { panic!() };
    let Ok(c) = Item::new(pt8, &[2], &[3]) else { panic!() };
    let Ok(d) = d.transform(&[a, b, c]) else { panic!() };
    let Ok(mm) = cktile::Transform::merge(&[64, 2]) else { panic!() };
    let Ok(mk) = cktile::Transform::merge(&[4, 8]) else { panic!() };
    let Ok(a) = Item::new(mm, &[1, 0], &[0]) else { panic!() };
    let Ok(b) = Item::new(mk, &[2, 3], &[1]) else { panic!() };
    let Ok(d) = d.transform(&[a, b]) else { panic!() };
    d
};
const CONST_OFF_3_9: Index = GEMM_K32_CONST.calculate_offset(&[3, 9]);

const PACKED_OFF: Index = TensorDescriptor::<Packed<(N<4>, N<8>)>>::DESCRIPTOR.calculate_offset(&[3, 7]);

#[test]
fn compile_time_offsets() {
    assert_eq!(OFF_3_9, 97);
    assert_eq!(OFF_127_31, 4039);
    assert_eq!(SPACE, 4096);
    assert_eq!(CONST_OFF_3_9, 97);
    assert_eq!(PACKED_OFF, 31);
    // The named chain type is exactly what the builder calls produce.
    let built: TensorDescriptor<GemmK32> = gemm_current_typed!(8, 64, 64, 2, 4);
    assert_eq!(&built.descriptor(), TensorDescriptor::<GemmK32>::DESCRIPTOR);
    assert_eq!(&GEMM_K32_CONST, TensorDescriptor::<GemmK32>::DESCRIPTOR);
    assert_eq!(&parse(&gemm_current_spec(32, 2, false)), &GEMM_K32_CONST);
    assert_eq!(TensorDescriptor::<GemmK32>::STATIC_DESCRIPTOR, Some(&GEMM_K32_CONST));
}

// ---------------------------------------------------------------------------
// Coordinate walks.
// ---------------------------------------------------------------------------

fn walk_cases() -> Vec<(&'static str, Descriptor)> {
    vec![
        ("current K=64", parse(&gemm_current_spec(64, 1, false))),
        ("current K=32", parse(&gemm_current_spec(32, 2, true))),
        ("2024 K=32", parse(&gemm_2024_spec(32, 2, 8))),
        ("KPack16", parse(&gemm_2024_spec(64, 1, 16))),
        ("v1 128x32", parse(&v1_spec(128, 32))),
        ("v1 32x16", parse(&v1_spec(32, 16))),
        ("xor 8x8", parse("packed((8,8)) | transform(xor((8,8)) on [0,1] -> [0,1])")),
        ("merge", parse("naive((4,8),(100,1)) | transform(merge((4,8)) on [0,1] -> [0])")),
        ("unmerge", parse("naive((24),(3)) | transform(unmerge((2,3,4)) on [0] -> [0,1,2])")),
        ("pad", parse("naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])")),
        ("embed", parse("naive((16),(1)) | transform(embed((3,4),(2,1)) on [0] -> [0,1])")),
        (
            "swizzle",
            parse(
                "naive((8192),(1)) | transform(swizzle(2,4,2) on [0] -> [0]) | transform(unmerge((128,64)) on [0] -> [0,1])",
            ),
        ),
    ]
}

fn in_range(d: &Descriptor, seeds: &[u64; 8]) -> Vec<Index> {
    d.lengths().as_slice().iter().zip(seeds).map(|(&len, &s)| (s % len as u64) as Index).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn moves_equal_fresh_offsets(
        case in 0usize..12,
        start in any::<[u64; 8]>(),
        targets in prop::collection::vec((any::<[u64; 8]>(), any::<u8>()), 1..24),
    ) {
        let cases = walk_cases();
        let (name, d) = &cases[case % cases.len()];
        let mut top = in_range(d, &start);
        let mut coord = Coordinate::new(d, &top);
        prop_assert_eq!(coord.offset(), d.calculate_offset(&top));
        for (seed, mask) in targets {
            // Move some dimensions (those selected by `mask`) to a random place.
            let target = in_range(d, &seed);
            let step: Vec<Index> = (0..top.len())
                .map(|i| if mask & (1 << i) != 0 { target[i] - top[i] } else { 0 })
                .collect();
            let before = coord.offset();
            let diff = coord.move_by(d, &step);
            for i in 0..top.len() {
                top[i] += step[i];
            }
            let fresh = Coordinate::new(d, &top);
            prop_assert_eq!(coord.offset(), d.calculate_offset(&top), "{} at {:?}", name, top);
            prop_assert_eq!(diff, coord.offset() - before);
            prop_assert_eq!(coord, fresh, "{}: every level equals a fresh coordinate", name);
            prop_assert_eq!(
                coord.has_valid_offset(d),
                d.coordinate_has_valid_offset(&top)
            );
        }
    }
}
