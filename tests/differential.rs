//! The differential suite: the same layouts built three ways, the static
//! typed API (`Number` parameters, mixed, or runtime `usize`), the runtime
//! `Descriptor` builder, and the spec text (written independently and
//! printed back by `Display`), must agree on everything observable: lengths,
//! element space, offsets, validity, vector information, the inverse, moves,
//! and the bank analyzer's reports. Random runtime chains (thousands) are
//! generated stage by stage; the typed API covers fixed shapes with random
//! runtime values and all-static instances.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::check;
use cktile::prelude::*;
use cktile::random::chain::ChainConfig;
use cktile::transforms::{Kind, Params};
use cktile::typed::Chain;
use cktile::{Coordinate, Index, Origin, Transform, Vector, strategy};
use cktile_transforms::kinds;
use proptest::prelude::*;

// ---------------------------------------------------------------------------
// The chain model: chains come from the suite's generator
// (`cktile::strategy::chain`, every transform kind); the test writes each
// chain's spec text itself from the transforms' parameters (independently
// of `Display`, with its own spacing) and models the top lengths.
// ---------------------------------------------------------------------------

fn tuple(v: &[Index]) -> String {
    format!("({})", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "))
}

fn id_list(ids: cktile::Ids) -> String {
    let (ids, n) = ids.to_array();
    format!("[{}]", ids[..n].iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "))
}

/// One transform as spec text, from its parameters.
fn transform_text(t: &Transform) -> String {
    match t.params() {
        Params::PassThrough(kinds::PassThroughParams { len }) => format!("pass_through( {len} )"),
        Params::Pad(kinds::PadParams { len, left, right }) => format!("pad({len}, {left}, {right})"),
        Params::LeftPad(kinds::LeftPadParams { len, left }) => format!("left_pad({len},{left})"),
        Params::RightPad(kinds::RightPadParams { len, right }) => format!("right_pad( {len} , {right} )"),
        Params::Embed(kinds::EmbedParams { lengths, coefficients }) => {
            format!("embed({}, {})", tuple(lengths.as_slice()), tuple(coefficients.as_slice()))
        }
        Params::Merge(kinds::MergeParams { lengths }) => format!("merge({})", tuple(lengths.as_slice())),
        Params::Unmerge(kinds::UnmergeParams { lengths }) => format!("unmerge({})", tuple(lengths.as_slice())),
        Params::Xor(kinds::XorParams { l0, l1 }) => format!("xor(({l0}, {l1}))"),
        Params::XorNoModulo(kinds::XorNoModuloParams { l0, l1 }) => format!("xor_no_modulo( ( {l0} ,{l1}) )"),
        Params::Slice(kinds::SliceParams { len, begin, end }) => format!("slice({len},{begin},{end})"),
        Params::Freeze(kinds::FreezeParams { index }) => format!("freeze({index})"),
        Params::Insert(kinds::InsertParams { len }) => format!("insert({len})"),
        Params::Replicate(kinds::ReplicateParams { lengths }) => format!("replicate({})", tuple(lengths.as_slice())),
        Params::Offset(kinds::OffsetParams { len, offset }) => format!("offset({len}, {offset})"),
        Params::Modulo(kinds::ModuloParams { modulus, len }) => format!("modulo({modulus}, {len})"),
        Params::Swizzle(kinds::SwizzleParams { bits, base, shift, .. }) => format!("swizzle({bits},{base},{shift})"),
        Params::CyclicShift(kinds::CyclicShiftParams { l0, l1 }) => format!("cyclic_shift( ({l0},{l1}) )"),
        Params::Indexing(kinds::IndexingParams { len, index }) => format!("indexing( {len}, {index} )"),
        Params::Functor(kinds::FunctorParams { len, map }) => {
            let targets: Vec<i64> = map.targets().iter().map(|&t| t.into()).collect();
            format!("functor( {len}, {} ,{})", tuple(&targets), map.flip())
        }
    }
}

/// The upper lengths of one item, from its parameters (`lower` is its lower
/// dimensions' lengths; a swizzle keeps its dimension's length).
fn upper_lengths(t: &Transform, lower: &[Index]) -> Vec<Index> {
    match t.params() {
        Params::PassThrough(kinds::PassThroughParams { len }) => vec![len],
        Params::Pad(kinds::PadParams { len, left, right }) => vec![len + left + right],
        Params::LeftPad(kinds::LeftPadParams { len, left }) => vec![len + left],
        Params::RightPad(kinds::RightPadParams { len, right }) => vec![len + right],
        Params::Embed(kinds::EmbedParams { lengths, .. })
        | Params::Unmerge(kinds::UnmergeParams { lengths })
        | Params::Replicate(kinds::ReplicateParams { lengths }) => lengths.as_slice().to_vec(),
        Params::Merge(kinds::MergeParams { lengths }) => vec![lengths.as_slice().iter().product()],
        Params::Xor(kinds::XorParams { l0, l1 })
        | Params::XorNoModulo(kinds::XorNoModuloParams { l0, l1 })
        | Params::CyclicShift(kinds::CyclicShiftParams { l0, l1 }) => {
            vec![l0, l1]
        }
        Params::Slice(kinds::SliceParams { begin, end, .. }) => vec![end - begin],
        Params::Freeze(kinds::FreezeParams { .. }) => vec![],
        Params::Insert(kinds::InsertParams { len })
        | Params::Offset(kinds::OffsetParams { len, .. })
        | Params::Modulo(kinds::ModuloParams { len, .. })
        | Params::Indexing(kinds::IndexingParams { len, .. })
        | Params::Functor(kinds::FunctorParams { len, .. }) => vec![len],
        Params::Swizzle(kinds::SwizzleParams { .. }) => vec![lower[0]],
    }
}

/// The base call as spec text, from the origin's fields.
fn base_text(origin: &Origin) -> String {
    let opt = |v: Option<Index>| v.map_or("-1".to_string(), |v| v.to_string());
    match *origin {
        Origin::Packed { lengths, vector_length: None } => format!("packed({})", tuple(lengths.as_slice())),
        Origin::Packed { lengths, vector_length: Some(v) } => format!("packed({}, {v})", tuple(lengths.as_slice())),
        Origin::Naive { lengths, strides, vector: Vector { length: None, stride: None } } => {
            format!("naive({}, {})", tuple(lengths.as_slice()), tuple(strides.as_slice()))
        }
        Origin::Naive { lengths, strides, vector } => format!(
            "naive({}, {}, {}, {})",
            tuple(lengths.as_slice()),
            tuple(strides.as_slice()),
            opt(vector.length),
            opt(vector.stride)
        ),
        Origin::NaiveWithOffset { lengths, strides, offset } => {
            format!("naive_with_offset({}, {}, {offset})", tuple(lengths.as_slice()), tuple(strides.as_slice()))
        }
        Origin::Aligned { lengths, align } => format!("aligned({}, {align})", tuple(lengths.as_slice())),
    }
}

/// The chain as spec text, written from its parts.
fn chain_text(d: &Descriptor) -> String {
    let mut s = format!("# generated\n{}", base_text(d.origin()));
    for stage in d.transform_stages() {
        let items: Vec<String> = stage
            .items()
            .iter()
            .map(|i| format!("{} on {} -> {}", transform_text(i.transform()), id_list(i.lower()), id_list(i.upper())))
            .collect();
        s.push_str(&format!("\n  | transform({})", items.join(",\n      ")));
    }
    s
}

/// The top lengths the model gives: the base's lengths, then each stage's
/// items' upper lengths placed at their upper ids.
fn model_lengths(d: &Descriptor) -> Vec<Index> {
    let (Origin::Packed { lengths, .. }
    | Origin::Naive { lengths, .. }
    | Origin::NaiveWithOffset { lengths, .. }
    | Origin::Aligned { lengths, .. }) = *d.origin();
    let mut lens = lengths.as_slice().to_vec();
    for stage in d.transform_stages() {
        let mut next = vec![0; stage.items().iter().map(|i| i.upper().len()).sum()];
        for item in stage.items() {
            let (lower, n) = item.lower().to_array();
            let lower: Vec<Index> = lower[..n].iter().map(|&l| lens[l]).collect();
            let (upper, m) = item.upper().to_array();
            for (&u, len) in upper[..m].iter().zip(upper_lengths(item.transform(), &lower)) {
                next[u] = len;
            }
        }
        lens = next;
    }
    lens
}

/// Whether the base embed has an inverse (packed, or strides that never overlap).
fn base_invertible(d: &Descriptor) -> bool {
    match *d.origin() {
        Origin::Packed { .. } => true,
        Origin::Naive { lengths, strides, .. } | Origin::NaiveWithOffset { lengths, strides, .. } => {
            Transform::embed_dims(lengths, strides).unwrap().calculate_upper(&[0; 8]).is_some()
        }
        Origin::Aligned { .. } => true,
    }
}

/// The kinds that are one-to-one on valid coordinates and have an inverse:
/// a chain of them over an invertible base is injective and inverts.
const INVERTIBLE: [Kind; 12] = [
    Kind::PassThrough,
    Kind::Pad,
    Kind::LeftPad,
    Kind::RightPad,
    Kind::Merge,
    Kind::Unmerge,
    Kind::Xor,
    Kind::XorNoModulo,
    Kind::Functor,
    Kind::Slice,
    Kind::Swizzle,
    Kind::Offset,
];

fn only_invertible_kinds(d: &Descriptor) -> bool {
    d.transform_stages().iter().flat_map(|s| s.items()).all(|i| INVERTIBLE.contains(&i.transform().kind()))
}

fn chains() -> impl Strategy<Value = Descriptor> {
    strategy::chain(ChainConfig::default())
}

fn coords(d: &Descriptor) -> Vec<Vec<Index>> {
    (0..d.element_size().unwrap() as u64).map(|n| check::coordinate(d, n)).collect()
}

/// Two descriptors give the same answers everywhere.
fn assert_same_behaviour(a: &Descriptor, b: &Descriptor, what: &str) {
    assert_eq!(a.lengths(), b.lengths(), "{what}: lengths");
    assert_eq!(a.element_space_size(), b.element_space_size(), "{what}: element space");
    assert_eq!(a.top_vectors(), b.top_vectors(), "{what}: vectors");
    for c in coords(a) {
        assert_eq!(a.calculate_offset(&c), b.calculate_offset(&c), "{what}: offset at {c:?}");
        assert_eq!(a.coordinate_has_valid_offset(&c), b.coordinate_has_valid_offset(&c), "{what}: validity at {c:?}");
    }
    assert_eq!(bank_reports(a), bank_reports(b), "{what}: bank reports");
}

/// The analyzer's reports of a 2-D descriptor: a warp of 1-byte loads and a
/// wave of `ds_read_b32` walking the valid coordinates row-major, and the
/// same warp walking them column-major. `None` for other ranks and for
/// layouts the analyzer refuses (negative offsets).
fn bank_reports(d: &Descriptor) -> Option<Vec<(u32, u32, u32, u32)>> {
    use cktile::analyzer::{Op, arch};
    use cktile::reports::analyze_with;
    let [rows, cols] = d.lengths().as_slice().try_into().ok()?;
    let valid = |r: Index, c: Index| d.coordinate_has_valid_offset(&[r, c]) && d.calculate_offset(&[r, c]) >= 0;
    let by_rows: Vec<[Index; 2]> =
        (0..rows).flat_map(|r| (0..cols).map(move |c| [r, c])).filter(|&[r, c]| valid(r, c)).collect();
    let by_cols: Vec<[Index; 2]> =
        (0..cols).flat_map(|c| (0..rows).map(move |r| [r, c])).filter(|&[r, c]| valid(r, c)).collect();
    let mut out = Vec::new();
    for (chip, op, bytes, order) in [
        (arch::SM80, Op::LdShared { bits: 8 }, 1, &by_rows),
        (arch::GFX942, Op::DsRead { bits: 32 }, 4, &by_rows),
        (arch::SM90, Op::LdShared { bits: 8 }, 1, &by_cols),
    ] {
        let wave = chip.wave() as usize;
        let n = order.len().div_ceil(wave).max(1);
        let r = analyze_with(d, bytes, &chip, op, n, |i, lane| order.get(i * wave + lane).copied()).ok()?;
        let c = r.counts;
        out.push((c.cycles, c.conflict_cycles, c.max_ways, c.worst_instruction));
    }
    Some(out)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn api_spec_and_display_agree(api in chains()) {
        let text = chain_text(&api);
        let parsed = cktile::spec::parse(&text).unwrap_or_else(|e| panic!("{text}\n{e}"));
        prop_assert_eq!(&parsed, &api, "{}", text);
        let shown = api.to_string();
        let reparsed = cktile::spec::parse(&shown).unwrap_or_else(|e| panic!("{shown}\n{e}"));
        prop_assert_eq!(&reparsed, &api, "{}", shown);
        prop_assert_eq!(reparsed.to_string(), shown);
        assert_same_behaviour(&api, &parsed, "spec");
        assert_same_behaviour(&api, &reparsed, "display");
        // The stages and lengths match the model.
        prop_assert_eq!(parsed.transform_stages().len(), api.transform_stages().len());
        prop_assert!(!api.transform_stages().is_empty());
        prop_assert_eq!(api.lengths().as_slice().to_vec(), model_lengths(&api), "{}", text);
    }

    #[test]
    fn moves_equal_recompute_on_random_chains(
        d in chains(),
        start in any::<[u64; 8]>(),
        walk in prop::collection::vec((any::<[u64; 8]>(), any::<u8>()), 1..16),
    ) {
        let pick = |s: &[u64; 8]| -> Vec<Index> {
            d.lengths().as_slice().iter().zip(s).map(|(&l, &x)| (x % l as u64) as Index).collect()
        };
        let mut top = pick(&start);
        let mut c = Coordinate::new(&d, &top);
        for (seed, mask) in walk {
            let target = pick(&seed);
            let step: Vec<Index> =
                (0..top.len()).map(|i| if mask & (1 << i) != 0 { target[i] - top[i] } else { 0 }).collect();
            let before = c.offset();
            let diff = c.move_by(&d, &step);
            for i in 0..top.len() {
                top[i] += step[i];
            }
            prop_assert_eq!(c.offset(), d.calculate_offset(&top), "{} at {:?}", d, top);
            prop_assert_eq!(diff, c.offset() - before);
            prop_assert_eq!(c, Coordinate::new(&d, &top), "{} at {:?}", d, top);
        }
    }

    #[test]
    fn top_index_inverts_offset_when_injective(
        d in prop_oneof![chains(), strategy::chain(ChainConfig::default().with_kinds(&INVERTIBLE))],
    ) {
        let report = check::check(&d).unwrap();
        let invertible = base_invertible(&d) && only_invertible_kinds(&d);
        if invertible {
            // Every transform in the chain is then injective on valid coordinates.
            prop_assert!(report.injective, "{}: {:?}", d, report.collisions);
        }
        if report.injective && invertible {
            for c in coords(&d) {
                if d.coordinate_has_valid_offset(&c) {
                    let back = d.calculate_top_index(d.calculate_offset(&c));
                    prop_assert_eq!(
                        back.map(|t| t.as_slice().to_vec()),
                        Some(c.clone()),
                        "{} at {:?}", d, c
                    );
                }
            }
        }
        // Whatever the inverse answers, for the offset of any coordinate in
        // range (padded ones included), is a valid coordinate with that offset.
        for c in coords(&d) {
            let offset = d.calculate_offset(&c);
            if let Some(t) = d.calculate_top_index(offset) {
                prop_assert!(d.coordinate_has_valid_offset(t.as_slice()), "{}: {} -> padded {:?}", d, offset, t);
                prop_assert_eq!(d.calculate_offset(t.as_slice()), offset, "{}: {} -> {:?}", d, offset, t);
            }
        }
        if !report.injective {
            // Two valid coordinates share an offset: the inverse cannot name both.
            let col = &report.collisions[0];
            prop_assert_eq!(d.calculate_offset(&col.first), d.calculate_offset(&col.second));
            prop_assert_ne!(&col.first, &col.second);
        }
    }
}

// ---------------------------------------------------------------------------
// Typed shapes: static, mixed and runtime parameters.
// ---------------------------------------------------------------------------

/// naive((a, b), (s0, s1)) -> xor((a, b)) on [0,1] -> [0,1] -> merge((a, b)) on [0,1] -> [0].
macro_rules! shape_xor_merge {
    ($a:expr, $b:expr, $s0:expr, $s1:expr) => {{
        let d = make_naive_tensor_descriptor(($a, $b), ($s0, $s1)).unwrap();
        let d = transform_tensor_descriptor(d, (make_xor_transform(($a, $b)),), (ids![0, 1],), (ids![0, 1],)).unwrap();
        transform_tensor_descriptor(d, (make_merge_transform(($a, $b)),), (ids![0, 1],), (ids![0],)).unwrap()
    }};
}

fn shape_xor_merge_runtime(a: usize, b: usize, s0: usize, s1: usize) -> (Descriptor, String) {
    let d = Descriptor::naive(&[a, b], &[s0, s1]).unwrap();
    let d = d.transform(&[Item::new(Transform::xor(a, b).unwrap(), &[0, 1], &[0, 1]).unwrap()]).unwrap();
    let d = d.transform(&[Item::new(Transform::merge(&[a, b]).unwrap(), &[0, 1], &[0]).unwrap()]).unwrap();
    let spec = format!(
        "naive(({a},{b}),({s0},{s1})) | transform(xor(({a},{b})) on [0,1] -> [0,1]) | transform(merge(({a},{b})) on [0,1] -> [0])"
    );
    (d, spec)
}

/// packed((a, b*c)) -> [pass_through(a) on [0] -> [1], unmerge((b, c)) on [1] -> [0, 2]]
///                  -> [pad(b, l, r) on [0] -> [0], merge((a, c)) on [1, 2] -> [1]].
macro_rules! shape_unmerge_pad {
    ($a:expr, $bc:expr, $b:expr, $c:expr, $l:expr, $r:expr) => {{
        let d = make_naive_tensor_descriptor_packed(($a, $bc)).unwrap();
        let d = transform_tensor_descriptor(
            d,
            (make_pass_through_transform($a), make_unmerge_transform(($b, $c))),
            (ids![0], ids![1]),
            (ids![1], ids![0, 2]),
        )
        .unwrap();
        transform_tensor_descriptor(
            d,
            (make_pad_transform($b, $l, $r), make_merge_transform(($a, $c))),
            (ids![0], ids![1, 2]),
            (ids![0], ids![1]),
        )
        .unwrap()
    }};
}

fn shape_unmerge_pad_runtime(a: usize, b: usize, c: usize, l: usize, r: usize) -> (Descriptor, String) {
    let d = Descriptor::packed(&[a, b * c]).unwrap();
    let d = d
        .transform(&[
            Item::new(Transform::pass_through(a).unwrap(), &[0], &[1]).unwrap(),
            Item::new(Transform::unmerge(&[b, c]).unwrap(), &[1], &[0, 2]).unwrap(),
        ])
        .unwrap();
    let d = d
        .transform(&[
            Item::new(Transform::pad(b, l, r).unwrap(), &[0], &[0]).unwrap(),
            Item::new(Transform::merge(&[a, c]).unwrap(), &[1, 2], &[1]).unwrap(),
        ])
        .unwrap();
    let spec = format!(
        "packed(({a},{bc}))
         | transform(pass_through({a}) on [0] -> [1], unmerge(({b},{c})) on [1] -> [0,2])
         | transform(pad({b},{l},{r}) on [0] -> [0], merge(({a},{c})) on [1,2] -> [1])",
        bc = b * c
    );
    (d, spec)
}

/// aligned((a, b), align) -> [slice(a, s, e) on [0] -> [1], swizzle<1,1,1> on [1] -> [0]] (b % 4 == 0).
macro_rules! shape_aligned_slice_swizzle {
    ($a:expr, $b:expr, $align:expr, $s:expr, $e:expr) => {{
        let d = make_naive_tensor_descriptor_aligned(($a, $b), $align).unwrap();
        transform_tensor_descriptor(
            d,
            (make_slice_transform($a, $s, $e), make_swizzle_transform::<1, 1, 1>()),
            (ids![0], ids![1]),
            (ids![1], ids![0]),
        )
        .unwrap()
    }};
}

fn shape_aligned_slice_swizzle_runtime(a: usize, b: usize, align: usize, s: usize, e: usize) -> (Descriptor, String) {
    let d = Descriptor::aligned(&[a, b], align).unwrap();
    let d = d
        .transform(&[
            Item::new(Transform::slice(a, s, e).unwrap(), &[0], &[1]).unwrap(),
            Item::new(Transform::swizzle(1, 1, 1).unwrap(), &[1], &[0]).unwrap(),
        ])
        .unwrap();
    let spec = format!(
        "aligned(({a},{b}),{align}) | transform(slice({a},{s},{e}) on [0] -> [1], swizzle(1,1,1) on [1] -> [0])"
    );
    (d, spec)
}

/// naive_with_offset((a, b), (s0, 1), off) -> unmerge((a, b)) is not possible on 2 dims, so:
/// merge((a, b)) on [0,1] -> [0] -> unmerge((b, a)) on [0] -> [0, 1] (a transpose of the flat index).
macro_rules! shape_offset_remerge {
    ($a:expr, $b:expr, $s0:expr, $off:expr) => {{
        let d = make_naive_tensor_descriptor_with_offset(($a, $b), ($s0, Number::<1>), $off).unwrap();
        let d = transform_tensor_descriptor(d, (make_merge_transform(($a, $b)),), (ids![0, 1],), (ids![0],)).unwrap();
        transform_tensor_descriptor(d, (make_unmerge_transform(($b, $a)),), (ids![0],), (ids![0, 1],)).unwrap()
    }};
}

fn shape_offset_remerge_runtime(a: usize, b: usize, s0: usize, off: usize) -> (Descriptor, String) {
    let d = Descriptor::naive_with_offset(&[a, b], &[s0, 1], off).unwrap();
    let d = d.transform(&[Item::new(Transform::merge(&[a, b]).unwrap(), &[0, 1], &[0]).unwrap()]).unwrap();
    let d = d.transform(&[Item::new(Transform::unmerge(&[b, a]).unwrap(), &[0], &[0, 1]).unwrap()]).unwrap();
    let spec = format!(
        "naive_with_offset(({a},{b}),({s0},1),{off}) | transform(merge(({a},{b})) on [0,1] -> [0]) | transform(unmerge(({b},{a})) on [0] -> [0,1])"
    );
    (d, spec)
}

/// Whether the typed descriptor's chain is all static (a compile-time descriptor).
fn is_static<C: Chain>(_: &TensorDescriptor<C>) -> bool {
    TensorDescriptor::<C>::STATIC_DESCRIPTOR.is_some()
}

/// Compares a typed descriptor's own evaluation (2-D) with a runtime
/// descriptor and with the spec text, and the spec's Display round trip.
fn assert_typed_2d(
    typed_desc: &Descriptor,
    typed_offset: impl Fn(Index, Index) -> Index,
    typed_valid: impl Fn(Index, Index) -> bool,
    runtime: &Descriptor,
    spec: &str,
) {
    let parsed = cktile::spec::parse(spec).unwrap_or_else(|e| panic!("{spec}\n{e}"));
    assert_eq!(typed_desc, runtime, "typed == runtime: {spec}");
    assert_eq!(&parsed, runtime, "spec == runtime: {spec}");
    assert_eq!(&cktile::spec::parse(&runtime.to_string()).unwrap(), runtime, "display round trip: {spec}");
    assert_same_behaviour(typed_desc, &parsed, spec);
    for c in coords(runtime) {
        assert_eq!(typed_offset(c[0], c[1]), runtime.calculate_offset(&c), "{spec} at {c:?}");
        assert_eq!(typed_valid(c[0], c[1]), runtime.coordinate_has_valid_offset(&c), "{spec} at {c:?}");
    }
}

#[test]
fn static_mixed_and_runtime_xor_merge() {
    let s = shape_xor_merge!(Number::<6>, Number::<4>, Number::<5>, Number::<1>);
    let m = shape_xor_merge!(Number::<6>, 4usize, 5usize, Number::<1>);
    let r = shape_xor_merge!(6usize, 4usize, 5usize, 1usize);
    let (rt, spec) = shape_xor_merge_runtime(6, 4, 5, 1);
    assert!(is_static(&s) && !is_static(&m) && !is_static(&r));
    for (name, d) in [("static", s.descriptor()), ("mixed", m.descriptor()), ("runtime", r.descriptor())] {
        assert_eq!(&d, &rt, "{name}");
    }
    for i in 0..24 {
        let (u0, u1) = (i / 4, i % 4);
        let expected = 5 * u0 + (u1 ^ (u0 % 4));
        assert_eq!(s.calculate_offset([i]), expected);
        assert_eq!(m.calculate_offset([i]), expected);
        assert_eq!(r.calculate_offset([i]), expected);
        assert_eq!(rt.calculate_offset(&[i]), expected);
    }
    assert_eq!(cktile::spec::parse(&spec).unwrap(), rt);
    assert_eq!((s.element_space_size(), r.element_space_size()), (5 * 5 + 3 + 1, 5 * 5 + 3 + 1));
    assert_eq!(s.lengths().as_slice(), &[24]);
}

#[test]
fn static_mixed_and_runtime_unmerge_pad() {
    let s = shape_unmerge_pad!(Number::<3>, Number::<8>, Number::<2>, Number::<4>, Number::<1>, Number::<2>);
    let m = shape_unmerge_pad!(Number::<3>, 8usize, Number::<2>, 4usize, 1usize, Number::<2>);
    let r = shape_unmerge_pad!(3usize, 8usize, 2usize, 4usize, 1usize, 2usize);
    let (rt, spec) = shape_unmerge_pad_runtime(3, 2, 4, 1, 2);
    assert!(is_static(&s) && !is_static(&m) && !is_static(&r));
    assert_typed_2d(
        &s.descriptor(),
        |a, b| s.calculate_offset([a, b]),
        |a, b| s.coordinate_has_valid_offset([a, b]),
        &rt,
        &spec,
    );
    assert_typed_2d(
        &m.descriptor(),
        |a, b| m.calculate_offset([a, b]),
        |a, b| m.coordinate_has_valid_offset([a, b]),
        &rt,
        &spec,
    );
    assert_typed_2d(
        &r.descriptor(),
        |a, b| r.calculate_offset([a, b]),
        |a, b| r.coordinate_has_valid_offset([a, b]),
        &rt,
        &spec,
    );
    // Closed form: top (p, q) with p in [0, 5) padded (1 left, 2 right) over b = 2, q in [0, 12) = merge(a, c).
    assert_eq!(s.lengths().as_slice(), &[5, 12]);
    for p in 0..5 {
        for q in 0..12 {
            let (b, a, c) = (p - 1, q / 4, q % 4);
            assert_eq!(s.calculate_offset([p, q]), 8 * a + 4 * b + c, "({p}, {q})");
            assert_eq!(s.coordinate_has_valid_offset([p, q]), (1..3).contains(&p));
        }
    }
}

#[test]
fn static_mixed_and_runtime_aligned_slice_swizzle() {
    let s = shape_aligned_slice_swizzle!(Number::<5>, Number::<8>, Number::<3>, Number::<1>, Number::<4>);
    let m = shape_aligned_slice_swizzle!(5usize, Number::<8>, Number::<3>, 1usize, Number::<4>);
    let r = shape_aligned_slice_swizzle!(5usize, 8usize, 3usize, 1usize, 4usize);
    assert!(is_static(&s) && !is_static(&m) && !is_static(&r));
    let (rt, spec) = shape_aligned_slice_swizzle_runtime(5, 8, 3, 1, 4);
    assert_typed_2d(
        &s.descriptor(),
        |a, b| s.calculate_offset([a, b]),
        |a, b| s.coordinate_has_valid_offset([a, b]),
        &rt,
        &spec,
    );
    assert_typed_2d(
        &m.descriptor(),
        |a, b| m.calculate_offset([a, b]),
        |a, b| m.coordinate_has_valid_offset([a, b]),
        &rt,
        &spec,
    );
    assert_typed_2d(
        &r.descriptor(),
        |a, b| r.calculate_offset([a, b]),
        |a, b| r.coordinate_has_valid_offset([a, b]),
        &rt,
        &spec,
    );
    // aligned((5, 8), 3): row stride 9; top (k, m) with m in [0, 3) -> row m + 1, k swizzled by <1,1,1>.
    assert_eq!(s.lengths().as_slice(), &[8, 3]);
    assert_eq!(s.element_space_size(), 1 + 4 * 9 + 7);
    for k in 0..8 {
        for row in 0..3 {
            let sk = k ^ (((k >> 2) & 1) << 1);
            assert_eq!(s.calculate_offset([k, row]), 9 * (row + 1) + sk, "({k}, {row})");
        }
    }
}

#[test]
fn static_mixed_and_runtime_offset_remerge() {
    let s = shape_offset_remerge!(Number::<3>, Number::<4>, Number::<6>, Number::<100>);
    let m = shape_offset_remerge!(3usize, Number::<4>, 6usize, Number::<100>);
    let r = shape_offset_remerge!(3usize, 4usize, 6usize, 100usize);
    assert!(is_static(&s) && !is_static(&m) && !is_static(&r));
    let (rt, spec) = shape_offset_remerge_runtime(3, 4, 6, 100);
    assert_typed_2d(
        &s.descriptor(),
        |a, b| s.calculate_offset([a, b]),
        |a, b| s.coordinate_has_valid_offset([a, b]),
        &rt,
        &spec,
    );
    assert_typed_2d(
        &m.descriptor(),
        |a, b| m.calculate_offset([a, b]),
        |a, b| m.coordinate_has_valid_offset([a, b]),
        &rt,
        &spec,
    );
    assert_typed_2d(
        &r.descriptor(),
        |a, b| r.calculate_offset([a, b]),
        |a, b| r.coordinate_has_valid_offset([a, b]),
        &rt,
        &spec,
    );
    // The offset is not part of the element space: 1 + 2*6 + 3.
    assert_eq!(s.element_space_size(), 16);
    for p in 0..4 {
        for q in 0..3 {
            let flat = 3 * p + q;
            assert_eq!(s.calculate_offset([p, q]), 100 + 6 * (flat / 4) + flat % 4);
        }
    }
}

#[test]
fn runtime_ids_are_accepted() {
    // Id lists given as runtime usize tuples build the same descriptor.
    let d = make_naive_tensor_descriptor_packed((Number::<8>, Number::<4>)).unwrap();
    let a =
        transform_tensor_descriptor(d, (make_xor_transform((Number::<8>, Number::<4>)),), (ids![0, 1],), (ids![1, 0],))
            .unwrap();
    let b = transform_tensor_descriptor(
        d,
        (make_xor_transform((Number::<8>, Number::<4>)),),
        ((0usize, 1usize),),
        ((1usize, 0usize),),
    )
    .unwrap();
    assert_eq!(a.descriptor(), b.descriptor());
    assert_eq!(a.lengths().as_slice(), &[4, 8]);
    for c in 0..4 {
        for r in 0..8 {
            assert_eq!(a.calculate_offset([c, r]), 4 * r + (c ^ (r % 4)));
            assert_eq!(b.calculate_offset([c, r]), 4 * r + (c ^ (r % 4)));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn typed_runtime_xor_merge(a in 1usize..=8, p in 0u32..=3, s0 in 0usize..=12, s1 in 0usize..=3) {
        let b = 1usize << p;
        let t = shape_xor_merge!(a, b, s0, s1);
        let (rt, spec) = shape_xor_merge_runtime(a, b, s0, s1);
        prop_assert_eq!(&t.descriptor(), &rt);
        prop_assert_eq!(&cktile::spec::parse(&spec).unwrap(), &rt);
        prop_assert_eq!(&cktile::spec::parse(&rt.to_string()).unwrap(), &rt);
        for i in 0..(a * b) as Index {
            let (u0, u1) = (i / b as Index, i % b as Index);
            let expected = s0 as Index * u0 + s1 as Index * (u1 ^ (u0 % b as Index));
            prop_assert_eq!(t.calculate_offset([i]), expected);
            prop_assert_eq!(rt.calculate_offset(&[i]), expected);
        }
    }

    #[test]
    fn typed_runtime_unmerge_pad(a in 1usize..=5, b in 1usize..=4, c in 1usize..=4, l in 0usize..=2, r in 0usize..=2) {
        let t = shape_unmerge_pad!(a, b * c, b, c, l, r);
        let (rt, spec) = shape_unmerge_pad_runtime(a, b, c, l, r);
        assert_typed_2d(
            &t.descriptor(),
            |x, y| t.calculate_offset([x, y]),
            |x, y| t.coordinate_has_valid_offset([x, y]),
            &rt,
            &spec,
        );
    }

    #[test]
    fn typed_runtime_aligned_slice_swizzle(
        (a, s, e) in (1usize..=6)
            .prop_flat_map(|a| (Just(a), 0..a))
            .prop_flat_map(|(a, s)| (Just(a), Just(s), s + 1..=a)),
        q in 1usize..=3,
        align in 1usize..=6,
    ) {
        let b = 4 * q;
        let t = shape_aligned_slice_swizzle!(a, b, align, s, e);
        let (rt, spec) = shape_aligned_slice_swizzle_runtime(a, b, align, s, e);
        assert_typed_2d(
            &t.descriptor(),
            |x, y| t.calculate_offset([x, y]),
            |x, y| t.coordinate_has_valid_offset([x, y]),
            &rt,
            &spec,
        );
    }

    #[test]
    fn typed_runtime_offset_remerge(a in 1usize..=6, b in 1usize..=6, extra in 0usize..=3, off in 0usize..=1000) {
        let s0 = b + extra;
        let t = shape_offset_remerge!(a, b, s0, off);
        let (rt, spec) = shape_offset_remerge_runtime(a, b, s0, off);
        assert_typed_2d(
            &t.descriptor(),
            |x, y| t.calculate_offset([x, y]),
            |x, y| t.coordinate_has_valid_offset([x, y]),
            &rt,
            &spec,
        );
    }
}

#[test]
fn runtime_typed_errors_match_the_descriptor_api() {
    // The same invalid parameters, runtime in the typed API: the same error as the Descriptor API.
    let typed = make_naive_tensor_descriptor((4usize, 8usize), (8usize, 1usize)).unwrap();
    let e = transform_tensor_descriptor(typed, (make_merge_transform((4usize, 9usize)),), (ids![0, 1],), (ids![0],))
        .unwrap_err();
    let rt = Descriptor::naive(&[4, 8], &[8, 1])
        .unwrap()
        .transform(&[Item::new(Transform::merge(&[4, 9]).unwrap(), &[0, 1], &[0]).unwrap()])
        .unwrap_err();
    assert_eq!(e, rt);
    assert_eq!(
        e.to_string(),
        "merge: lower dimension 1 should have length 9 but the dimension it is applied to has length 8"
    );
    let e = transform_tensor_descriptor(typed, (make_xor_transform((4usize, 6usize)),), (ids![0, 1],), (ids![0, 1],))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "xor: L1 = 6 is not a power of two; up1 ^ (up0 % L1) stays in [0, L1) only for L1 = 1, 2, 4, 8, ..."
    );
    // Ids that are not a permutation: with compile-time ids a compile error
    // whatever the lengths (checks/tests/ui/mixed_ids_not_permutation.rs);
    // with runtime ids, the same error at run time.
    let e = transform_tensor_descriptor(
        typed,
        (make_pass_through_transform(4usize), make_pass_through_transform(8usize)),
        ((0usize,), (0usize,)),
        (ids![0], ids![1]),
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "lower ids are not a permutation: 0 appears more than once");
    assert!(make_naive_tensor_descriptor_packed((4usize, 0usize)).is_err());
}

// ---------------------------------------------------------------------------
// The kinds the shapes above leave out (packed, left_pad, right_pad,
// pass_through, modulo, embed, freeze, insert, replicate), in one 5-D chain,
// all static, mixed and runtime: the typed evaluation (by the chain's types)
// against the runtime descriptor and the spec text, over every coordinate.
// ---------------------------------------------------------------------------

/// packed((a, b, f)) | left_pad(a, l), right_pad(b, r), pass_through(f)
/// | modulo(a + l, n), embed((c, d), (s, 1)), freeze(k), insert(2), replicate((3))
macro_rules! shape_every_kind {
    ($a:expr, $b:expr, $f:expr, $l:expr, $r:expr, $al:expr, $n:expr, $c:expr, $d:expr, $s:expr, $k:expr) => {{
        let d = make_naive_tensor_descriptor_packed(($a, $b, $f)).unwrap();
        let d = transform_tensor_descriptor(
            d,
            (make_left_pad_transform($a, $l), make_right_pad_transform($b, $r), make_pass_through_transform($f)),
            (ids![0], ids![1], ids![2]),
            (ids![0], ids![1], ids![2]),
        )
        .unwrap();
        transform_tensor_descriptor(
            d,
            (
                make_modulo_transform($al, $n),
                make_embed_transform(($c, $d), ($s, Number::<1>)),
                make_freeze_transform($k),
                make_insert_transform(Number::<2>),
                make_replicate_transform((Number::<3>,)),
            ),
            (ids![0], ids![1], ids![2], ids![], ids![]),
            (ids![0], ids![1, 2], ids![], ids![3], ids![4]),
        )
        .unwrap()
    }};
}

#[allow(clippy::too_many_arguments)]
fn shape_every_kind_runtime(
    a: usize,
    b: usize,
    f: usize,
    l: usize,
    r: usize,
    n: usize,
    c: usize,
    d: usize,
    s: usize,
    k: usize,
) -> Descriptor {
    let t = |t: Result<Transform, cktile::transforms::Error>| t.unwrap();
    Descriptor::packed(&[a, b, f])
        .unwrap()
        .transform(&[
            Item::new(t(Transform::left_pad(a, l)), &[0], &[0]).unwrap(),
            Item::new(t(Transform::right_pad(b, r)), &[1], &[1]).unwrap(),
            Item::new(t(Transform::pass_through(f)), &[2], &[2]).unwrap(),
        ])
        .unwrap()
        .transform(&[
            Item::new(t(Transform::modulo(a + l, n)), &[0], &[0]).unwrap(),
            Item::new(t(Transform::embed(&[c, d], &[s, 1])), &[1], &[1, 2]).unwrap(),
            Item::new(t(Transform::freeze(k)), &[2], &[]).unwrap(),
            Item::new(t(Transform::insert(2)), &[], &[3]).unwrap(),
            Item::new(t(Transform::replicate(&[3])), &[], &[4]).unwrap(),
        ])
        .unwrap()
}

/// The typed descriptor's own evaluation against the runtime descriptor and
/// its spec text (written by the suite's model, `chain_text`), at every
/// coordinate inside the lengths and at coordinates outside them.
fn assert_typed_5d<C: Chain<NumTop = typenum::U5>>(t: &TensorDescriptor<C>, runtime: &Descriptor) {
    let spec = chain_text(runtime);
    let parsed = cktile::spec::parse(&spec).unwrap_or_else(|e| panic!("{spec}\n{e}"));
    assert_eq!(&t.descriptor(), runtime, "typed == runtime: {spec}");
    assert_eq!(&parsed, runtime, "spec == runtime: {spec}");
    assert_eq!(t.lengths().as_slice(), runtime.lengths().as_slice(), "{spec}");
    assert_eq!(t.lengths().as_slice(), &model_lengths(runtime)[..], "{spec}");
    let mut coords = coords(runtime);
    // Outside the lengths: validity must say no, offsets must still agree.
    let lens = runtime.lengths();
    coords.push((0..5).map(|i| lens.get(i)).collect());
    coords.push(vec![-1, 0, 0, 0, 0]);
    for c in coords {
        let top = [c[0], c[1], c[2], c[3], c[4]];
        assert_eq!(t.calculate_offset(top), runtime.calculate_offset(&c), "{spec} at {c:?}");
        assert_eq!(t.calculate_offset(top), parsed.calculate_offset(&c), "{spec} at {c:?}");
        assert_eq!(t.coordinate_has_valid_offset(top), runtime.coordinate_has_valid_offset(&c), "{spec} at {c:?}");
        assert_eq!(t.offset_if_valid(top), runtime.offset_if_valid(&c), "{spec} at {c:?}");
        assert_eq!(t.try_calculate_offset(top), runtime.try_calculate_offset(&c), "{spec} at {c:?}");
    }
}

#[test]
fn static_mixed_and_runtime_every_other_kind() {
    use cktile::Number as N;
    let s = shape_every_kind!(N::<3>, N::<5>, N::<2>, N::<1>, N::<2>, N::<4>, N::<8>, N::<3>, N::<2>, N::<2>, N::<1>);
    let m = shape_every_kind!(N::<3>, 5usize, N::<2>, 1usize, N::<2>, N::<4>, 8usize, N::<3>, 2usize, 2usize, N::<1>);
    let r = shape_every_kind!(3usize, 5usize, 2usize, 1usize, 2usize, 4usize, 8usize, 3usize, 2usize, 2usize, 1usize);
    assert!(is_static(&s) && !is_static(&m) && !is_static(&r));
    let rt = shape_every_kind_runtime(3, 5, 2, 1, 2, 8, 3, 2, 2, 1);
    assert_typed_5d(&s, &rt);
    assert_typed_5d(&m, &rt);
    assert_typed_5d(&r, &rt);
    // A padded position: left_pad(3, 1) makes row 0 padding.
    assert!(!s.coordinate_has_valid_offset([0, 0, 0, 0, 0]) && s.coordinate_has_valid_offset([1, 0, 0, 1, 2]));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn typed_runtime_every_other_kind(
        a in 1usize..=4, b in 1usize..=4, f in 1usize..=3, l in 0usize..=2, r in 0usize..=3,
        n in 1usize..=9, s in 1usize..=4, d in 1usize..=3, k in 0usize..3,
    ) {
        let k = k % f;
        let d = d.min(b + r);
        // The largest embed index (c-1)*s + (d-1) must stay below b + r.
        let c = 1 + (b + r - d) / s;
        let t = shape_every_kind!(a, b, f, l, r, a + l, n, c, d, s, k);
        assert_typed_5d(&t, &shape_every_kind_runtime(a, b, f, l, r, n, c, d, s, k));
    }
}

#[test]
fn typed_descriptors_store_only_runtime_values() {
    use cktile::Number as N;
    use core::mem::size_of_val;
    // All static: zero-sized, at every depth of the chain.
    let packed = make_naive_tensor_descriptor_packed((N::<4>, N::<8>)).unwrap();
    assert_eq!(size_of_val(&packed), 0);
    let s = shape_every_kind!(N::<3>, N::<5>, N::<2>, N::<1>, N::<2>, N::<4>, N::<8>, N::<3>, N::<2>, N::<2>, N::<1>);
    assert_eq!(size_of_val(&s), 0);
    let x = shape_xor_merge!(Number::<6>, Number::<4>, Number::<5>, Number::<1>);
    assert_eq!(size_of_val(&x), 0);
    // Mixed: exactly the runtime values the calls were given: b (twice, in
    // packed and right_pad, as the caller wrote it), l, n, and the embed's d and s.
    let m = shape_every_kind!(N::<3>, 5usize, N::<2>, 1usize, N::<2>, N::<4>, 8usize, N::<3>, 2usize, 2usize, N::<1>);
    assert_eq!(size_of_val(&m), 6 * core::mem::size_of::<usize>());
    let one = make_naive_tensor_descriptor((N::<4>, 8usize), (N::<8>, N::<1>)).unwrap();
    assert_eq!(size_of_val(&one), core::mem::size_of::<usize>());
    // The runtime descriptor is computed on demand, and is the same.
    assert_eq!(one.descriptor(), Descriptor::naive(&[4, 8], &[8, 1]).unwrap());
    assert!(core::mem::size_of::<Descriptor>() > 1000);
}

// ---------------------------------------------------------------------------
// Typed tensor coordinates (`cktile::typed::make_tensor_coordinate` and
// friends) against the runtime coordinates of the same chain's descriptor:
// random start points and walks of random steps (inside and outside the
// lengths), over the typed shapes above (every transform kind, affine and
// not, static, mixed and runtime) plus CK's GEMM A LDS block and an affine
// padded view.
// ---------------------------------------------------------------------------

use cktile::typed::{
    coordinate_has_valid_offset as typed_valid, coordinate_has_valid_offset_assuming_top_index_is_valid,
    make_tensor_coordinate as typed_make, move_tensor_coordinate as typed_move,
};
use generic_array::GenericArray;

/// Walks a typed coordinate and a runtime one (on `t.descriptor()`) from
/// `start` by `steps` (each step's entries, one per top dimension), checking
/// after every move that the typed coordinate equals a fresh one, that both
/// report the same top index, offset, offset change and validity, and that
/// the validity assuming an in-range top index is the runtime validity for
/// indices inside the lengths. Returns how many visited indices were valid.
fn assert_typed_walk<C: Chain>(t: &TensorDescriptor<C>, start: &[Index], steps: &[Vec<Index>]) -> usize {
    let rt = t.descriptor();
    let n = rt.num_dims();
    let arr = |v: &[Index]| GenericArray::<Index, C::NumTop>::from_slice(&v[..n]).clone();
    let lens = rt.lengths();
    let inside = |top: &[Index]| (0..n).all(|i| top[i] >= 0 && top[i] < lens.get(i));
    let mut c = typed_make(t, arr(start));
    let mut r = Coordinate::new(&rt, &start[..n]);
    let mut top = start[..n].to_vec();
    let mut valid = 0;
    for (k, step) in std::iter::once(&vec![0; n]).chain(steps).enumerate() {
        let (typed_diff, runtime_diff) = (typed_move(t, &mut c, arr(step)), r.move_by(&rt, &step[..n]));
        for i in 0..n {
            top[i] = top[i].wrapping_add(step[i]);
        }
        let what = format!("{rt} from {start:?}, move {k} by {step:?} to {top:?}");
        assert_eq!(c.top().as_ref(), &top[..], "{what}");
        assert_eq!(c, typed_make(t, arr(&top)), "moved == fresh: {what}");
        assert_eq!(c.offset(), t.calculate_offset(arr(&top)), "{what}");
        assert_eq!((c.offset(), typed_diff), (r.offset(), runtime_diff), "typed == runtime: {what}");
        assert_eq!(&r.top()[..n], &top[..], "{what}");
        let v = typed_valid(t, &c);
        assert_eq!(v, r.has_valid_offset(&rt), "{what}");
        assert_eq!(v, rt.coordinate_has_valid_offset(&top), "{what}");
        if inside(&top) {
            assert_eq!(coordinate_has_valid_offset_assuming_top_index_is_valid(t, &c), v, "{what}");
        }
        valid += usize::from(v);
    }
    valid
}

/// A start index (inside the lengths) and steps of up to twice each length
/// either way, from random seeds.
fn walk_of(lengths: &[Index], start: &[u64; 8], steps: &[([i64; 8], u8)]) -> (Vec<Index>, Vec<Vec<Index>>) {
    let start = lengths.iter().zip(start).map(|(&l, &s)| (s % l as u64) as Index).collect();
    let steps = steps
        .iter()
        .map(|(seed, mask)| {
            let step = |i: usize, l: Index| if mask & (1 << i) != 0 { seed[i] % (2 * l + 1) } else { 0 };
            lengths.iter().enumerate().map(|(i, &l)| step(i, l)).collect()
        })
        .collect();
    (start, steps)
}

/// CK's GEMM A LDS block (xor, MLdsLayer 2, 2025 unmerge order), K=32,
/// KPack=8, with `MPerBlock / 2` of any `Value` type.
macro_rules! shape_a_lds {
    ($ml:expr) => {{
        let ml = $ml;
        let d = make_naive_tensor_descriptor((Number::<8>, ml, Number::<8>), (Number::<8>, Number::<64>, Number::<1>))
            .unwrap();
        let d = transform_tensor_descriptor(
            d,
            (make_xor_transform((ml, Number::<8>)), make_pass_through_transform(Number::<8>)),
            (ids![1, 0], ids![2]),
            (ids![1, 0], ids![2]),
        )
        .unwrap();
        let d = transform_tensor_descriptor(
            d,
            (
                make_unmerge_transform((Number::<2>, Number::<4>)),
                make_pass_through_transform(ml),
                make_pass_through_transform(Number::<8>),
            ),
            (ids![0], ids![1], ids![2]),
            (ids![0, 2], ids![1], ids![3]),
        )
        .unwrap();
        transform_tensor_descriptor(
            d,
            (make_merge_transform((ml, Number::<2>)), make_merge_transform((Number::<4>, Number::<8>))),
            (ids![1, 0], ids![2, 3]),
            (ids![0], ids![1]),
        )
        .unwrap()
    }};
}

/// An affine chain: a base with an offset, right and left pads, then an
/// unmerge of the padded rows and a slice of the padded columns.
/// `p * q == a + r`, `s < e <= b + l`.
macro_rules! shape_affine {
    ($a:expr, $b:expr, $s0:expr, $off:expr, $r:expr, $l:expr, $p:expr, $q:expr, $s:expr, $e:expr, $bl:expr) => {{
        let d = make_naive_tensor_descriptor_with_offset(($a, $b), ($s0, Number::<1>), $off).unwrap();
        let d = transform_tensor_descriptor(
            d,
            (make_right_pad_transform($a, $r), make_left_pad_transform($b, $l)),
            (ids![0], ids![1]),
            (ids![0], ids![1]),
        )
        .unwrap();
        transform_tensor_descriptor(
            d,
            (make_unmerge_transform(($p, $q)), make_slice_transform($bl, $s, $e)),
            (ids![0], ids![1]),
            (ids![0, 1], ids![2]),
        )
        .unwrap()
    }};
}

#[test]
fn typed_k_loops_over_the_a_lds_block() {
    use cktile::Number as N;
    // Moves over the static and the runtime A LDS block: a K loop of every
    // row, the offsets those of the formula in the guide.
    let (s, r) = (shape_a_lds!(N::<64>), shape_a_lds!(64usize));
    for m in 0..128 {
        let (mut cs, mut cr) = (typed_make(&s, [m, 0]), typed_make(&r, [m, 0]));
        for k in (0..32).step_by(8) {
            let (mp, l) = (m / 2, m % 2);
            let want = ((l * 4 + k / 8) ^ (mp % 8)) * 8 + mp * 64 + k % 8;
            assert_eq!((cs.offset(), cr.offset()), (want, want), "({m}, {k})");
            typed_move(&s, &mut cs, [0, 8]);
            typed_move(&r, &mut cr, [0, 8]);
        }
    }
    // The coordinate holds the top index and the offset, nothing else.
    assert_eq!(core::mem::size_of_val(&typed_make(&r, [0, 0])), 3 * core::mem::size_of::<Index>());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn typed_moves_equal_runtime_moves(
        start in any::<[u64; 8]>(),
        steps in prop::collection::vec((any::<[i64; 8]>(), any::<u8>()), 1..12),
        (a, p) in (1usize..=8, 0u32..=3),
        (s0, s1) in (0usize..=12, 0usize..=3),
        (b, c, l, r) in (1usize..=4, 1usize..=4, 0usize..=2, 0usize..=2),
        (sa, ss, se, q, align) in (1usize..=6, 0usize..6, 1usize..=6, 1usize..=3, 1usize..=6),
        (ea, eb, ef, el, er, en, es, ed, ek) in (1usize..=4, 1usize..=4, 1usize..=3, 0usize..=2, 0usize..=3, 1usize..=9, 1usize..=4, 1usize..=3, 0usize..3),
        (off, ml) in (0usize..=1000, prop_oneof![Just(8usize), Just(16), Just(64)]),
    ) {
        use cktile::Number as N;
        let walk = |t_lengths: &[Index]| walk_of(t_lengths, &start, &steps);
        // xor + merge (1-D), static and runtime.
        let bx = 1usize << p;
        let x = shape_xor_merge!(a, bx, s0, s1);
        let (st, sp) = walk(x.lengths().as_slice());
        assert_typed_walk(&x, &st, &sp);
        assert_typed_walk(&shape_xor_merge!(N::<6>, N::<4>, N::<5>, N::<1>), &st, &sp);
        // unmerge + pad + merge.
        let u = shape_unmerge_pad!(a, b * c, b, c, l, r);
        let (st, sp) = walk(u.lengths().as_slice());
        assert_typed_walk(&u, &st, &sp);
        // aligned + slice + swizzle.
        let (ss, se) = (ss % sa, ss % sa + 1 + (se - 1) % (sa - ss % sa));
        let w = shape_aligned_slice_swizzle!(sa, 4 * q, align, ss, se);
        let (st, sp) = walk(w.lengths().as_slice());
        assert_typed_walk(&w, &st, &sp);
        // offset + merge + unmerge.
        let o = shape_offset_remerge!(a, b, b + r, off);
        let (st, sp) = walk(o.lengths().as_slice());
        assert_typed_walk(&o, &st, &sp);
        // every other kind (5-D: left/right pad, modulo, embed, freeze, insert, replicate).
        let (ek, ed) = (ek % ef, ed.min(eb + er));
        let ec = 1 + (eb + er - ed) / es;
        let e = shape_every_kind!(ea, eb, ef, el, er, ea + el, en, ec, ed, es, ek);
        let (st, sp) = walk(e.lengths().as_slice());
        assert_typed_walk(&e, &st, &sp);
        // CK's A LDS block, runtime MPerBlock / 2 and static.
        let lds = shape_a_lds!(ml);
        let (st, sp) = walk(lds.lengths().as_slice());
        assert_typed_walk(&lds, &st, &sp);
        assert_typed_walk(&shape_a_lds!(N::<64>), &st, &sp);
        // An affine chain: offsets move by the step's offset.
        let (rows, cols) = (a + r, b + l);
        let (p2, q2) = if rows % 2 == 0 { (2, rows / 2) } else { (1, rows) };
        let f = shape_affine!(a, b, b + s0, off, r, l, p2, q2, 0usize, cols, cols);
        let (st, sp) = walk(f.lengths().as_slice());
        assert_typed_walk(&f, &st, &sp);
    }
}

/// The walks reach valid and invalid (padded, out-of-range) coordinates,
/// so the validity comparisons above are not vacuous.
#[test]
fn typed_walks_visit_valid_and_invalid_coordinates() {
    let u = shape_unmerge_pad!(3usize, 8usize, 2usize, 4usize, 1usize, 2usize);
    let steps: Vec<Vec<Index>> = vec![vec![1, 0], vec![1, 1], vec![1, 0], vec![1, 0], vec![-5, 0], vec![0, 20]];
    let valid = assert_typed_walk(&u, &[0, 0], &steps);
    // Rows 0 (left pad), 1 and 2 (real), 3 and 4 (right pad), -1, then column 21 (outside).
    assert_eq!(valid, 2);
}

// ---------------------------------------------------------------------------
// Typed tensor views (`make_tensor_view`, `pad_tensor_view`): the padded
// view's descriptor is the runtime chain CK's pad_tensor_view builds, and
// every read and write through the view is the model's (the buffer at the
// runtime descriptor's offset when the coordinate is valid and inside the
// buffer, nothing otherwise).
// ---------------------------------------------------------------------------

use cktile::typed::{DoPad, TileLengths};

/// The runtime chain of `pad_tensor_view` over naive((m, k), (stride, 1)):
/// a right pad to the next multiple of each tile where `pads` says so.
fn padded_runtime(m: usize, k: usize, stride: usize, tiles: [usize; 2], pads: [bool; 2]) -> Descriptor {
    let item = |dim: usize, len: usize| {
        let t = if pads[dim] {
            Transform::right_pad(len, len.div_ceil(tiles[dim]) * tiles[dim] - len)
        } else {
            Transform::pass_through(len)
        };
        Item::new(t.unwrap(), &[dim], &[dim]).unwrap()
    };
    Descriptor::naive(&[m, k], &[stride, 1]).unwrap().transform(&[item(0, m), item(1, k)]).unwrap()
}

/// A typed coordinate from a slice, in code generic over the chain.
fn coordinate_of<C: Chain>(d: &TensorDescriptor<C>, top: &[Index]) -> cktile::typed::TensorCoordinate<C> {
    typed_make(d, GenericArray::<Index, C::NumTop>::from_slice(top).clone())
}

/// Checks a padded typed view against the model over every coordinate of
/// its lengths and one past them, reading (elements and 2-vectors) and
/// writing; returns how many coordinates were readable.
fn assert_padded_view<F: Copy>(
    (m, k, stride): (usize, usize, usize),
    tiles: [usize; 2],
    pads: [bool; 2],
    flags: F,
    buffer_len: usize,
) -> usize
where
    (usize, usize): TileLengths<F>,
{
    let data: Vec<i64> = (0..buffer_len as i64).map(|i| 1000 + i).collect();
    let d = make_naive_tensor_descriptor((m, k), (stride, Number::<1>)).unwrap();
    let view = pad_tensor_view(make_tensor_view(&data[..], d), (tiles[0], tiles[1]), flags).unwrap();
    let rt = padded_runtime(m, k, stride, tiles, pads);
    let what = format!("{rt}, buffer of {buffer_len}");
    assert_eq!(view.descriptor().descriptor(), rt, "{what}");
    let mut written = data.clone();
    let mut model = data.clone();
    let lens = rt.lengths();
    let mut readable = 0;
    for r in -1..=lens.get(0) {
        for c in -1..=lens.get(1) {
            let coord = coordinate_of(view.descriptor(), &[r, c]);
            let off = rt.offset_if_valid(&[r, c]).and_then(|o| usize::try_from(o).ok());
            let want = off.and_then(|o| data.get(o).copied());
            assert_eq!(view.get(&coord), want, "{what} at ({r}, {c})");
            let pair = off.and_then(|o| data.get(o..o + 2)).map(|s| [s[0], s[1]]);
            assert_eq!(view.get_vector::<2>(&coord), pair, "{what} at ({r}, {c})");
            let mut w = make_tensor_view(&mut written[..], *view.descriptor());
            let wrote = w.set(&coord, -r * 100 - c);
            assert_eq!(wrote, want.is_some(), "{what} at ({r}, {c})");
            if let (Some(o), true) = (off, wrote) {
                model[o] = -r * 100 - c;
            }
            readable += usize::from(want.is_some());
        }
    }
    assert_eq!(written, model, "{what}: writes");
    readable
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn typed_padded_views_read_and_write_as_the_model(
        m in 1usize..=9, k in 1usize..=9, extra in 0usize..=3,
        tiles in proptest::array::uniform2(1usize..=6),
        short in 0usize..=4,
    ) {
        let stride = k + extra;
        let space = (m - 1) * stride + k;
        // A buffer that covers the element space, or falls short of it.
        let len = space.saturating_sub(short);
        assert_padded_view((m, k, stride), tiles, [true, true], (DoPad::<true>, DoPad::<true>), len);
        assert_padded_view((m, k, stride), tiles, [true, false], (DoPad::<true>, DoPad::<false>), len);
        assert_padded_view((m, k, stride), tiles, [false, true], (DoPad::<false>, DoPad::<true>), len);
    }
}

#[test]
fn typed_padded_view_named_cases() {
    // 3 x 5 in tiles of 2 x 4: 15 real elements of 4 x 8 coordinates.
    let n = assert_padded_view((3, 5, 5), [2, 4], [true, true], (DoPad::<true>, DoPad::<true>), 15);
    assert_eq!(n, 15);
    // The same with the buffer two short: the last two elements unreadable.
    let n = assert_padded_view((3, 5, 5), [2, 4], [true, true], (DoPad::<true>, DoPad::<true>), 13);
    assert_eq!(n, 13);
    // A zero tile length and a padded length past i64 are errors naming the dimension.
    let d = make_naive_tensor_descriptor((3usize, 5usize), (5usize, Number::<1>)).unwrap();
    let data = [0u8; 15];
    let zero = pad_tensor_view(make_tensor_view(&data[..], d), (2usize, 0usize), (DoPad::<true>, DoPad::<true>));
    assert!(matches!(
        zero.unwrap_err().kind(),
        cktile_core::ErrorKind::Descriptor(cktile::DescriptorProblem::Transform {
            item: 1,
            source: cktile::transforms::Error::ZeroLength { .. }
        })
    ));
    let huge = pad_tensor_view(make_tensor_view(&data[..], d), (usize::MAX, 4usize), (DoPad::<true>, DoPad::<true>));
    let e = huge.unwrap_err();
    assert!(matches!(
        e.kind(),
        cktile_core::ErrorKind::Descriptor(cktile::DescriptorProblem::Transform {
            item: 0,
            source: cktile::transforms::Error::Overflow { .. }
        })
    ));
    assert!(e.to_string().contains("padded length"), "{e}");
}
