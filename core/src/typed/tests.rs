//! The cheap validation of the typed builders ([`Built::check`] of a
//! descriptor's or an adaptor's chain, newest level only, on the chain's
//! values) against the full build it replaced ([`Built::build`] of the
//! whole chain):
//! for random runtime values, valid and invalid, over several chain shapes,
//! the two accept the same inputs and refuse the others with the same
//! error.
//!
//! A unit test, so the old path's chain can be assembled from the same
//! values without the builders (the chain types' fields are crate-private).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::ids;
use crate::transforms::typed::{
    Embed, Freeze, Insert, LeftPad, Merge, Modulo, Offset, Pad, PassThrough, Replicate, RightPad, Slice, Unmerge, Xor,
};
use crate::transforms::typed::{
    make_embed_transform, make_freeze_transform, make_insert_transform, make_left_pad_transform, make_merge_transform,
    make_modulo_transform, make_offset_transform, make_pad_transform, make_pass_through_transform,
    make_replicate_transform, make_right_pad_transform, make_slice_transform, make_unmerge_transform,
    make_xor_transform,
};
use crate::{DescriptorProblem, ErrorKind};
use crate::{Error, Index};
use cktile_transforms::{Indices, MAX_DIMS};
use proptest::prelude::*;
use proptest::strategy::ValueTree;

use crate::Number as N;

/// A runtime length: small values (which often coincide, so lengths match
/// between stages), zero, powers of two, and values at and past the limits
/// of the signed 64-bit index.
fn value() -> impl Strategy<Value = usize> {
    prop_oneof![
        4 => 1usize..=9,
        2 => Just(0usize),
        2 => (0u32..8).prop_map(|s| 1usize << s),
        1 => Just(1usize << 32),
        1 => Just(1usize << 62),
        1 => Just(i64::MAX as usize),
        1 => Just(i64::MAX as usize + 1),
        1 => Just(usize::MAX),
    ]
}

/// `valid` with up to three entries replaced by [`value`]s, or every
/// entry a [`value`]: mostly inputs one or two values away from a valid
/// chain, so both verdicts and every check are reached.
fn near<const K: usize>(valid: [usize; K]) -> impl Strategy<Value = [usize; K]> {
    let edited = proptest::collection::vec((0..K, value()), 0..4).prop_map(move |edits| {
        let mut v = valid;
        for (i, x) in edits {
            v[i] = x;
        }
        v
    });
    let any = proptest::collection::vec(value(), K).prop_map(move |all| {
        let mut v = valid;
        v.copy_from_slice(&all);
        v
    });
    prop_oneof![3 => edited, 1 => any]
}

/// Valid values of each shape's parameters (see the shapes' functions).
const A_LDS: [usize; 4] = [64; 4];
const GLOBAL: [usize; 7] = [100, 60, 64, 100, 28, 60, 4];
const EMBED_XOR: [usize; 12] = [64, 1, 0, 8, 8, 8, 1, 8, 4, 4, 16, 1];
const ALIGNED: [usize; 12] = [4, 8, 3, 8, 4, 0, 8, 2, 7, 1, 3, 1];
const RUNTIME: [usize; 6] = [4, 8, 4, 8, 1, 1];
const ADAPTOR: [usize; 10] = [24, 2, 3, 4, 4, 2, 3, 1, 8, 4];

/// The old path's verdict on a chain: its whole runtime descriptor built.
fn old<C: Chain>(chain: C) -> Result<(), Error> {
    chain.build().map(|_| ())
}

/// The builders' verdict, and (when it accepts) the same runtime
/// descriptor built on demand, which must not panic.
fn new<C: Chain>(built: Result<TensorDescriptor<C>, Error>) -> Result<(), Error> {
    built.map(|d| {
        let _ = d.descriptor();
    })
}

/// CK's A LDS block (gpu/kernel's and perf/kernels' `a_lds`) with every
/// occurrence of MPerBlock / MLdsLayer its own runtime value.
fn a_lds(m: [usize; 4]) -> (Result<(), Error>, Result<(), Error>) {
    type Base = Naive<(N<8>, usize, N<8>), (N<8>, N<64>, N<1>)>;
    type S1 =
        Transformed<Base, (Xor<usize, N<8>>, PassThrough<N<8>>), ((N<1>, N<0>), (N<2>,)), ((N<1>, N<0>), (N<2>,))>;
    type S2 = Transformed<
        S1,
        (Unmerge<(N<2>, N<4>)>, PassThrough<usize>, PassThrough<N<8>>),
        ((N<0>,), (N<1>,), (N<2>,)),
        ((N<0>, N<2>), (N<1>,), (N<3>,)),
    >;
    type S3 =
        Transformed<S2, (Merge<(usize, N<2>)>, Merge<(N<4>, N<8>)>), ((N<1>, N<0>), (N<2>, N<3>)), ((N<0>,), (N<1>,))>;
    let x1 = (make_xor_transform((m[1], N::<8>)), make_pass_through_transform(N::<8>));
    let x2 = (
        make_unmerge_transform((N::<2>, N::<4>)),
        make_pass_through_transform(m[2]),
        make_pass_through_transform(N::<8>),
    );
    let x3 = (make_merge_transform((m[3], N::<2>)), make_merge_transform((N::<4>, N::<8>)));
    let built = (|| -> Result<TensorDescriptor<S3>, Error> {
        let d = make_naive_tensor_descriptor((N::<8>, m[0], N::<8>), (N::<8>, N::<64>, N::<1>))?;
        let d = transform_tensor_descriptor(d, x1, (ids![1, 0], ids![2]), (ids![1, 0], ids![2]))?;
        let d = transform_tensor_descriptor(d, x2, (ids![0], ids![1], ids![2]), (ids![0, 2], ids![1], ids![3]))?;
        transform_tensor_descriptor(d, x3, (ids![1, 0], ids![2, 3]), (ids![0], ids![1]))
    })();
    let base: Base = Naive { lengths: (N, m[0], N), strides: (N, N, N) };
    let s1: S1 = Transformed { prev: base, transforms: x1, lower: Default::default(), upper: Default::default() };
    let s2: S2 = Transformed { prev: s1, transforms: x2, lower: Default::default(), upper: Default::default() };
    let s3: S3 = Transformed { prev: s2, transforms: x3, lower: Default::default(), upper: Default::default() };
    (new(built), old(s3))
}

/// CK's padded global view (`GlobalA`): runtime lengths, row stride and
/// padding, the pads' lengths given separately from the base's.
fn global(v: [usize; 7]) -> (Result<(), Error>, Result<(), Error>) {
    type Base = Naive<(usize, usize), (usize, N<1>)>;
    type S1 =
        Transformed<Base, (RightPad<usize, usize>, RightPad<usize, usize>), ((N<0>,), (N<1>,)), ((N<0>,), (N<1>,))>;
    let x = (make_right_pad_transform(v[3], v[4]), make_right_pad_transform(v[5], v[6]));
    let built = (|| -> Result<TensorDescriptor<S1>, Error> {
        let d = make_naive_tensor_descriptor((v[0], v[1]), (v[2], N::<1>))?;
        transform_tensor_descriptor(d, x, (ids![0], ids![1]), (ids![0], ids![1]))
    })();
    let base: Base = Naive { lengths: (v[0], v[1]), strides: (v[2], N) };
    let s1: S1 = Transformed { prev: base, transforms: x, lower: Default::default(), upper: Default::default() };
    (new(built), old(s1))
}

/// A base with an offset, an embed, an xor and a merge, plus an unmerge and
/// a pad: every length and parameter a runtime value.
fn embed_xor(v: [usize; 12]) -> (Result<(), Error>, Result<(), Error>) {
    type Base = NaiveWithOffset<(usize,), (usize,), usize>;
    type S1 = Transformed<Base, (Embed<(usize, usize), (usize, usize)>,), ((N<0>,),), ((N<0>, N<1>),)>;
    type S2 = Transformed<S1, (Xor<usize, usize>,), ((N<0>, N<1>),), ((N<0>, N<1>),)>;
    type S3 = Transformed<S2, (Merge<(usize, usize)>, Insert<usize>), ((N<0>, N<1>), ()), ((N<1>,), (N<0>,))>;
    type S4 = Transformed<
        S3,
        (Unmerge<(usize, usize)>, Pad<usize, usize, usize>),
        ((N<1>,), (N<0>,)),
        ((N<0>, N<1>), (N<2>,)),
    >;
    let x1 = (make_embed_transform((v[3], v[4]), (v[5], v[6])),);
    let x2 = (make_xor_transform((v[3], v[7])),);
    let x3 = (make_merge_transform((v[3], v[7])), make_insert_transform(v[8]));
    let x4 = (make_unmerge_transform((v[9], v[10])), make_pad_transform(v[8], v[11], v[0]));
    let built = (|| -> Result<TensorDescriptor<S4>, Error> {
        let d = make_naive_tensor_descriptor_with_offset((v[0],), (v[1],), v[2])?;
        let d = transform_tensor_descriptor(d, x1, (ids![0],), (ids![0, 1],))?;
        let d = transform_tensor_descriptor(d, x2, (ids![0, 1],), (ids![0, 1],))?;
        let d = transform_tensor_descriptor(d, x3, (ids![0, 1], ids![]), (ids![1], ids![0]))?;
        transform_tensor_descriptor(d, x4, (ids![1], ids![0]), (ids![0, 1], ids![2]))
    })();
    let base: Base = NaiveWithOffset { lengths: (v[0],), strides: (v[1],), offset: v[2] };
    let s1: S1 = Transformed { prev: base, transforms: x1, lower: Default::default(), upper: Default::default() };
    let s2: S2 = Transformed { prev: s1, transforms: x2, lower: Default::default(), upper: Default::default() };
    let s3: S3 = Transformed { prev: s2, transforms: x3, lower: Default::default(), upper: Default::default() };
    let s4: S4 = Transformed { prev: s3, transforms: x4, lower: Default::default(), upper: Default::default() };
    (new(built), old(s4))
}

/// An aligned base, then the rest of the transform kinds: left pad,
/// slice, freeze, offset, modulo and replicate.
fn aligned_kinds(v: [usize; 12]) -> (Result<(), Error>, Result<(), Error>) {
    type Base = Aligned<(usize, usize, usize), usize>;
    type S1 = Transformed<
        Base,
        (LeftPad<usize, usize>, Slice<usize, usize, usize>, Freeze<usize>),
        ((N<0>,), (N<1>,), (N<2>,)),
        ((N<0>,), (N<1>,), ()),
    >;
    type S2 = Transformed<
        S1,
        (Offset<usize, usize>, Modulo<usize, usize>, Replicate<(usize,)>),
        ((N<1>,), (N<0>,), ()),
        ((N<0>,), (N<2>,), (N<1>,)),
    >;
    let x1 = (make_left_pad_transform(v[4], v[5]), make_slice_transform(v[6], v[7], v[8]), make_freeze_transform(v[9]));
    let x2 =
        (make_offset_transform(v[10], v[11]), make_modulo_transform(v[4], v[1]), make_replicate_transform((v[2],)));
    let built = (|| -> Result<TensorDescriptor<S2>, Error> {
        let d = make_naive_tensor_descriptor_aligned((v[0], v[1], v[2]), v[3])?;
        let d = transform_tensor_descriptor(d, x1, (ids![0], ids![1], ids![2]), (ids![0], ids![1], ids![]))?;
        transform_tensor_descriptor(d, x2, (ids![1], ids![0], ids![]), (ids![0], ids![2], ids![1]))
    })();
    let base: Base = Aligned { lengths: (v[0], v[1], v[2]), align: v[3] };
    let s1: S1 = Transformed { prev: base, transforms: x1, lower: Default::default(), upper: Default::default() };
    let s2: S2 = Transformed { prev: s1, transforms: x2, lower: Default::default(), upper: Default::default() };
    (new(built), old(s2))
}

/// A packed base and a guaranteed-vector base under a stage whose ids are
/// runtime values, so its structure (id ranges, repeats, coverage) is
/// checked at run time.
fn runtime_ids(v: [usize; 6], ids: [usize; 4]) -> (Result<(), Error>, Result<(), Error>) {
    type Base = Packed<(usize, usize)>;
    type S1 = Transformed<Base, (PassThrough<usize>, PassThrough<usize>), ((usize,), (usize,)), ((usize,), (usize,))>;
    type VBase = NaiveVector<(usize, usize), (usize, N<1>), usize, usize>;
    let x = (make_pass_through_transform(v[2]), make_pass_through_transform(v[3]));
    let (lo, up) = (((ids[0],), (ids[1],)), ((ids[2],), (ids[3],)));
    let built =
        make_naive_tensor_descriptor_packed((v[0], v[1])).and_then(|d| transform_tensor_descriptor(d, x, lo, up));
    let base: Base = Packed { lengths: (v[0], v[1]) };
    let s1: S1 = Transformed { prev: base, transforms: x, lower: lo, upper: up };
    let (n, o) = (new(built), old(s1));
    let vb = make_naive_tensor_descriptor_with_vector((v[0], v[1]), (v[2], N::<1>), v[4], v[5]);
    let vbase: VBase =
        NaiveVector { lengths: (v[0], v[1]), strides: (v[2], N), vector_length: v[4], vector_stride: v[5] };
    assert_eq!(new(vb), old(vbase), "naive with vector {v:?}");
    (n, o)
}

/// A typed adaptor: a single stage (an unmerge), a stage with a merge and a
/// right pad (the pad's ids runtime values), then an xor, every length a
/// runtime value. The builders check each new stage on its values
/// ([`Built::check`]); the old path builds the runtime adaptor.
fn adaptor(v: [usize; 10], ids: [usize; 2]) -> (Result<(), Error>, Result<(), Error>) {
    type S0 = SingleStageAdaptor<(usize,), (Unmerge<(usize, usize, usize)>,), ((N<0>,),), ((N<0>, N<1>, N<2>),)>;
    type S1 = TransformedAdaptor<
        S0,
        (Merge<(usize, usize)>, RightPad<usize, usize>),
        ((N<2>, N<0>), (usize,)),
        ((N<0>,), (usize,)),
    >;
    type S2 = TransformedAdaptor<S1, (Xor<usize, usize>,), ((N<0>, N<1>),), ((N<1>, N<0>),)>;
    let x0 = (make_unmerge_transform((v[1], v[2], v[3])),);
    let x1 = (make_merge_transform((v[4], v[5])), make_right_pad_transform(v[6], v[7]));
    let x2 = (make_xor_transform((v[8], v[9])),);
    let (lo, up) = ((ids![2, 0], (ids[0],)), (ids![0], (ids[1],)));
    let built = (|| -> Result<TensorAdaptor<S2>, Error> {
        let a = make_single_stage_tensor_adaptor((v[0],), x0, (ids![0],), (ids![0, 1, 2],))?;
        let a = transform_tensor_adaptor(a, x1, lo, up)?;
        transform_tensor_adaptor(a, x2, (ids![0, 1],), (ids![1, 0],))
    })();
    let s0: S0 =
        SingleStageAdaptor { lengths: (v[0],), transforms: x0, lower: Default::default(), upper: Default::default() };
    let s1: S1 = TransformedAdaptor { prev: s0, transforms: x1, lower: lo, upper: up };
    let s2: S2 = TransformedAdaptor { prev: s1, transforms: x2, lower: Default::default(), upper: Default::default() };
    let new = built.map(|a| {
        let _ = a.adaptor();
    });
    (new, s2.build().map(|_| ()))
}

/// How many of the cases each shape accepts and refuses, so a shape whose
/// strategy only ever produced errors (or never one) shows up.
#[derive(Default)]
struct Tally {
    ok: u32,
    err: u32,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn a_lds_block_with_runtime_m(m in near(A_LDS)) {
        let (n, o) = a_lds(m);
        prop_assert_eq!(n, o, "{:?}", m);
    }

    #[test]
    fn padded_global_view(v in near(GLOBAL)) {
        let (n, o) = global(v);
        prop_assert_eq!(n, o, "{:?}", v);
    }

    #[test]
    fn embed_xor_merge_unmerge_pad(v in near(EMBED_XOR)) {
        let (n, o) = embed_xor(v);
        prop_assert_eq!(n, o, "{:?}", v);
    }

    #[test]
    fn aligned_pad_slice_freeze_offset_modulo_replicate(v in near(ALIGNED)) {
        let (n, o) = aligned_kinds(v);
        prop_assert_eq!(n, o, "{:?}", v);
    }

    #[test]
    fn runtime_id_lists(v in near(RUNTIME), ids in proptest::array::uniform4(0usize..3)) {
        let (n, o) = runtime_ids(v, ids);
        prop_assert_eq!(n, o, "{:?} {:?}", v, ids);
    }

    #[test]
    fn adaptor_stages(v in near(ADAPTOR), ids in proptest::array::uniform2(0usize..3)) {
        let (n, o) = adaptor(v, ids);
        prop_assert_eq!(n, o, "{:?} {:?}", v, ids);
    }
}

/// Every shape's strategy reaches both verdicts (so no shape is tested
/// only on inputs that all fail, or all pass), agreeing on each.
#[test]
fn each_shape_accepts_and_refuses() {
    fn sample<S: Strategy>(s: S, runner: &mut proptest::test_runner::TestRunner) -> S::Value {
        s.new_tree(runner).expect("the strategies always generate").current()
    }
    let mut tallies: [Tally; 6] = Default::default();
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..2000 {
        let cases = [
            a_lds(sample(near(A_LDS), &mut runner)),
            global(sample(near(GLOBAL), &mut runner)),
            embed_xor(sample(near(EMBED_XOR), &mut runner)),
            aligned_kinds(sample(near(ALIGNED), &mut runner)),
            runtime_ids(sample(near(RUNTIME), &mut runner), sample(proptest::array::uniform4(0usize..3), &mut runner)),
            adaptor(sample(near(ADAPTOR), &mut runner), sample(proptest::array::uniform2(0usize..3), &mut runner)),
        ];
        for (tally, (n, o)) in tallies.iter_mut().zip(cases) {
            assert_eq!(n, o);
            if n.is_ok() {
                tally.ok += 1;
            } else {
                tally.err += 1;
            }
        }
    }
    for (i, t) in tallies.iter().enumerate() {
        assert!(t.ok > 0 && t.err > 0, "shape {i}: {} accepted, {} refused", t.ok, t.err);
    }
}

#[test]
fn named_cases_agree_with_the_full_build() {
    // The valid values of each shape are valid.
    assert_eq!(a_lds(A_LDS), (Ok(()), Ok(())));
    assert_eq!(global(GLOBAL), (Ok(()), Ok(())));
    assert_eq!(embed_xor(EMBED_XOR), (Ok(()), Ok(())));
    assert_eq!(aligned_kinds(ALIGNED), (Ok(()), Ok(())));
    assert_eq!(runtime_ids(RUNTIME, [0, 1, 0, 1]), (Ok(()), Ok(())));
    assert_eq!(adaptor(ADAPTOR, [1, 1]), (Ok(()), Ok(())));
    // An adaptor whose merge does not fit the unmerge's outputs, and one whose pad reads a merged dimension.
    let merge = adaptor([24, 2, 3, 4, 4, 3, 3, 1, 8, 4], [1, 1]);
    assert_eq!(merge.0, merge.1);
    assert!(matches!(merge.0.unwrap_err().kind(), ErrorKind::Descriptor(DescriptorProblem::Transform { item: 0, .. })));
    let read = adaptor(ADAPTOR, [0, 1]);
    assert_eq!(read.0, read.1);
    assert!(matches!(read.0.unwrap_err().kind(), ErrorKind::Descriptor(DescriptorProblem::IdRepeated { .. })));
    // CK's block with M = 0, a mismatch and an overflow are not.
    let zero = a_lds([0; 4]);
    assert_eq!(zero.0, zero.1);
    assert!(matches!(
        zero.0.unwrap_err().kind(),
        ErrorKind::Descriptor(DescriptorProblem::Transform {
            item: 0,
            source: cktile_transforms::Error::ZeroLength { .. }
        })
    ));
    let mismatch = a_lds([64, 64, 32, 64]);
    assert_eq!(mismatch.0, mismatch.1);
    assert!(matches!(
        mismatch.0.unwrap_err().kind(),
        ErrorKind::Descriptor(DescriptorProblem::Transform { item: 1, .. })
    ));
    let huge = a_lds([usize::MAX; 4]);
    assert_eq!(huge.0, huge.1);
    assert!(huge.0.is_err());
    // The global view: valid, then a padded length that is not the base's.
    assert_eq!(global([100, 60, 64, 100, 28, 60, 4]), (Ok(()), Ok(())));
    let pad = global([100, 60, 64, 100, 28, 61, 4]);
    assert_eq!(pad.0, pad.1);
    assert!(matches!(pad.0.unwrap_err().kind(), ErrorKind::Descriptor(DescriptorProblem::Transform { item: 1, .. })));
    // Element space overflow of the base.
    let space = global([1 << 32, 2, 1 << 32, 1, 1, 1, 1]);
    assert_eq!(space.0, space.1);
    assert!(matches!(space.0.unwrap_err().kind(), ErrorKind::Descriptor(DescriptorProblem::Overflow { .. })));
    // Runtime ids: a repeated lower id.
    let repeated = runtime_ids([4, 8, 4, 8, 1, 1], [0, 0, 0, 1]);
    assert_eq!(repeated.0, repeated.1);
    assert!(matches!(repeated.0.unwrap_err().kind(), ErrorKind::Descriptor(DescriptorProblem::IdRepeated { .. })));
}

/// [`Built::accepts`] against [`Built::check`] and the full build, for
/// the base chains that write it as a few compares.
fn base_verdicts(v: [usize; 6]) -> [(bool, bool, bool); 3] {
    let naive = Naive { lengths: (v[0], v[1]), strides: (v[2], v[3]) };
    let vector = NaiveVector { lengths: (v[0], v[1]), strides: (v[2], v[3]), vector_length: v[4], vector_stride: v[5] };
    let packed = Packed { lengths: (v[0], v[1], v[2]) };
    fn verdicts<C: Chain>(c: C) -> (bool, bool, bool) {
        (c.accepts(), c.check().is_ok(), c.build().is_ok())
    }
    [verdicts(naive), verdicts(vector), verdicts(packed)]
}

/// [`TypedTransform::accepts`](cktile_transforms::typed::TypedTransform::accepts)
/// against `check_lower_lengths`, for the kinds that write it as a few
/// compares: (quick, checked) for pass-through, pad, left pad, right pad,
/// merge, unmerge and xor; `v` is (len, left, right, lower 0, lower 1).
fn scalar_verdicts(v: [usize; 5]) -> [(bool, bool); 7] {
    use cktile_transforms::typed::TypedTransform;
    let mut lower = [0; MAX_DIMS];
    lower[0] = v[3] as Index;
    lower[1] = v[4] as Index;
    fn verdicts<T: TypedTransform>(t: T, lower: &Indices) -> (bool, bool) {
        (t.accepts(lower), t.check_lower_lengths(lower).is_ok())
    }
    [
        verdicts(make_pass_through_transform(v[0]), &lower),
        verdicts(make_pad_transform(v[0], v[1], v[2]), &lower),
        verdicts(make_left_pad_transform(v[0], v[1]), &lower),
        verdicts(make_right_pad_transform(v[0], v[2]), &lower),
        verdicts(make_merge_transform((v[0], v[1])), &lower),
        verdicts(make_unmerge_transform((v[1], v[2])), &lower),
        verdicts(make_xor_transform((v[0], v[1])), &lower),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn quick_verdicts_of_the_base_chains(v in near([4, 8, 8, 1, 8, 1])) {
        for (quick, checked, built) in base_verdicts(v) {
            prop_assert_eq!((quick, checked), (built, built), "{:?}", v);
        }
    }

    #[test]
    fn quick_verdicts_of_the_scalar_transforms(v in near([8, 2, 4, 8, 2])) {
        for (quick, checked) in scalar_verdicts(v) {
            prop_assert_eq!(quick, checked, "{:?}", v);
        }
    }
}

/// The quick verdicts' strategies reach both answers on every chain and
/// kind, and the boundaries are named: the largest element space and
/// product that fit, and one past them.
#[test]
fn quick_verdicts_reach_both_answers_and_their_boundaries() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut base, mut scalar) = ([[0u32; 2]; 3], [[0u32; 2]; 7]);
    for _ in 0..4000 {
        let v = near([4, 8, 8, 1, 8, 1]).new_tree(&mut runner).expect("generates").current();
        for (tally, (quick, _, _)) in base.iter_mut().zip(base_verdicts(v)) {
            tally[usize::from(quick)] += 1;
        }
        let v = near([8, 2, 4, 8, 2]).new_tree(&mut runner).expect("generates").current();
        for (tally, (quick, _)) in scalar.iter_mut().zip(scalar_verdicts(v)) {
            tally[usize::from(quick)] += 1;
        }
    }
    assert!(base.iter().chain(&scalar).all(|t| t[0] > 0 && t[1] > 0), "{base:?} {scalar:?}");
    let max = i64::MAX as usize;
    // Lengths (2, cols), strides (stride, 1): the element space is stride + cols. With
    // stride 2^62 and cols 2^62 - 1 it is exactly i64::MAX and fits; with stride 2^62 + 1 it
    // does not, while the product of the lengths (2^63 - 2) still does.
    let half = 1usize << 62;
    assert_eq!(base_verdicts([2, half - 1, half, 1, 1, 1])[0], (true, true, true));
    assert_eq!(base_verdicts([2, half - 1, half + 1, 1, 1, 1])[0], (false, false, false));
    // The product of the lengths (the embed's) must fit even where the space does: stride 0.
    assert_eq!(base_verdicts([1 << 32, 1 << 31, 0, 1, 1, 1])[0], (false, false, false));
    assert_eq!(base_verdicts([1 << 32, (1 << 31) - 1, 0, 1, 1, 1])[0], (true, true, true));
    // The pads: len + left + right = i64::MAX fits, + 1 does not.
    assert_eq!(scalar_verdicts([max - 3, 1, 2, max - 3, 1])[1], (true, true));
    assert_eq!(scalar_verdicts([max - 3, 2, 2, max - 3, 2])[1], (false, false));
    // Merge (len, left) of lower (len, left); unmerge (left, right) of lower left * right; xor's L1 a power of two.
    assert_eq!(scalar_verdicts([8, 2, 4, 8, 2])[4..], [(true, true), (true, true), (true, true)]);
    assert_eq!(scalar_verdicts([8, 3, 4, 8, 3])[6], (false, false));
    assert_eq!(scalar_verdicts([1 << 32, 1 << 31, 4, 1 << 32, 1 << 31])[4], (false, false)); // product 2^63
}

/// The guaranteed vector's rule in [`NaiveVector`]'s quick verdict (no
/// branches) and in its check agree at the rule's edges; `v` is (rows,
/// cols, row stride, col stride, vector length, vector stride). The
/// quick verdicts' strategy reaches every fault a typed vector can have.
#[test]
fn vector_guarantee_verdicts_agree_at_their_edges() {
    let huge = i64::MAX as usize + 1;
    for (v, want) in [
        ([4, 64, 72, 1, 8, 1], true),
        ([4, 70, 72, 1, 8, 1], false),   // the last length is no multiple of 8
        ([4, 64, 70, 1, 8, 1], true),    // any row stride: the vectors are contiguous, as in CK
        ([4, 64, 77, 1, 8, 1], true),    // an odd one too
        ([4, 68, 72, 1, 4, 1], true),    // a length that is no power of two, a multiple of 4
        ([4, 68, 72, 1, 3, 1], false),   // 68 is no multiple of 3
        ([4, 64, 0, 1, 8, 1], true),     // stride 0 is a multiple of 8
        ([4, 64, 72, 2, 8, 1], false),   // the guaranteed stride is not the last stride
        ([4, 64, 144, 2, 8, 2], true),   // 8 elements 2 apart
        ([4, 70, 70, 3, 1, 5], true),    // one element promises nothing
        ([4, 64, 72, 1, 0, 1], false),   // no vector of 0 elements
        ([4, 64, 72, 1, 128, 1], false), // longer than the row
        ([4, 64, 72, 1, huge, 1], false),
        ([4, 64, 72, 1, 8, huge], false),
    ] {
        assert_eq!(base_verdicts(v)[1], (want, want, want), "{v:?}");
    }
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut faults = [0u32; 3];
    for _ in 0..4000 {
        let v = near([4, 8, 8, 1, 8, 1]).new_tree(&mut runner).expect("generates").current();
        let vector =
            NaiveVector { lengths: (v[0], v[1]), strides: (v[2], v[3]), vector_length: v[4], vector_stride: v[5] };
        if let Err(e) = vector.check()
            && let ErrorKind::Descriptor(DescriptorProblem::VectorGuarantee { fault, .. }) = e.kind()
        {
            faults[match fault {
                crate::VectorFault::Length => 0,
                crate::VectorFault::LastLength { .. } => 1,
                crate::VectorFault::Stride { .. } => 2,
                other => panic!("the strategy drew {other:?}"),
            }] += 1;
        }
    }
    assert!(faults.iter().all(|&n| n > 0), "{faults:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// [`PadFlag::quick`](super::PadFlag::quick) decides as
    /// `transform` does and, where both accept, builds the same transform.
    #[test]
    fn pad_flags_quick_verdicts(length in value(), tile in value()) {
        use super::{DoPad, PadFlag};
        let length = length as Index; // a value past i64::MAX arrives negative, as no validated length does
        let (pad, ok) = <DoPad<true> as PadFlag>::quick(length, tile);
        let checked = <DoPad<true> as PadFlag>::transform(3, length, tile);
        prop_assert_eq!(ok, checked.is_ok(), "{} {}", length, tile);
        if let Ok(t) = checked {
            prop_assert_eq!(pad, t);
        }
        let (through, ok) = <DoPad<false> as PadFlag>::quick(length, tile);
        prop_assert_eq!(Ok(through), <DoPad<false> as PadFlag>::transform(3, length, tile));
        prop_assert!(ok);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// `pad_tensor_view` builds its pad stage without checking it again,
    /// on the strength of the quick verdicts: every view it returns has a
    /// chain that [`Built::accepts`], [`Built::check`] and builds, and it
    /// refuses exactly what padding the same lengths by hand refuses.
    #[test]
    fn pad_stages_are_valid_when_quick_accepts(v in near([100, 60, 64, 64, 32])) {
        use super::{DoPad, pad_tensor_view};
        let Ok(d) = make_naive_tensor_descriptor((v[0], v[1]), (v[2], N::<1>)) else {
            return Ok(());
        };
        let view = make_tensor_view(&[] as &[u8], d);
        let padded = pad_tensor_view(view, (v[3], v[4]), (DoPad::<true>, DoPad::<false>));
        let by_hand = match (v[3] as u64).checked_mul((v[0] as u64).div_ceil((v[3] as u64).max(1))) {
            Some(p) if v[3] != 0 && p <= i64::MAX as u64 => Some(p as usize - v[0]),
            _ => None,
        };
        match padded {
            Ok(p) => {
                let chain = p.descriptor().chain();
                prop_assert!(chain.accepts() && chain.check().is_ok() && chain.build().is_ok(), "{:?}", v);
                prop_assert_eq!(Some(chain.lengths()[0] as usize - v[0]), by_hand, "{:?}", v);
            }
            Err(_) => prop_assert_eq!(by_hand, None, "{:?}", v),
        }
    }
}
