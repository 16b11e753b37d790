//! Typed tensor adaptors (`cktile::typed`'s `make_single_stage_tensor_adaptor`,
//! `transform_tensor_adaptor`, `chain_tensor_adaptors`, `make_tensor_adaptor`)
//! against the runtime [`Adaptor`] built by its own constructors:
//!
//! - the `ps_ys_to_xs` adaptors of four catalogue distributions, written as
//!   typed general adaptors, are the runtime distribution's adaptor field for
//!   field, and give its bottom index at every top index (and, for the MFMA
//!   A operand, the lane map written out by hand);
//! - staged adaptors with random runtime lengths (and a compile-time one)
//!   equal the runtime constructors' adaptor, index for index;
//! - wrong runtime lengths are refused with the runtime constructors' own
//!   error.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::adaptor::Adaptor;
use cktile::distribution::{Distribution, catalogue};
use cktile::prelude::*;
use cktile::random::Rng;
use cktile::transforms::{Dims, Transform};
use cktile::typed::AdaptorChain;

/// Every top index of `lengths`, row-major.
fn every_index(lengths: &[i64]) -> Vec<Vec<i64>> {
    let mut all = vec![vec![]];
    for &n in lengths {
        all = all.into_iter().flat_map(|prefix| (0..n).map(move |i| [prefix.clone(), vec![i]].concat())).collect();
    }
    all
}

/// The typed adaptor equals the runtime one field for field, and gives its
/// bottom index at every top index; returns how many indices were compared.
fn same<A: AdaptorChain>(typed: &TensorAdaptor<A>, runtime: &Adaptor) -> usize {
    assert_eq!(&typed.adaptor(), runtime);
    let lengths = runtime.top_lengths();
    let tops = every_index(lengths.as_slice());
    for top in &tops {
        let mut padded = [0; 8];
        padded[..top.len()].copy_from_slice(top);
        let bottom = typed.chain().bottom_index(&padded);
        let expected = runtime.calculate_bottom_index(top).unwrap();
        assert_eq!(&bottom[..expected.len()], expected.as_slice(), "top {top:?}");
    }
    assert_eq!(&typed.chain().top_lengths()[..lengths.len()], lengths.as_slice());
    tops.len()
}

#[test]
fn distribution_adaptors_written_as_typed_general_adaptors_are_the_runtime_ones() {
    // mfma_a(32, 8): distribution(r(), h((32), (2, 4)), p((h1[0], h0[0])), y(h1[1])).
    let a = make_tensor_adaptor(
        (Number::<32>, Number::<8>),
        (
            make_unmerge_transform((Number::<32>,)),
            make_unmerge_transform((Number::<2>, Number::<4>)),
            make_merge_transform((Number::<2>, Number::<32>)),
        ),
        (ids![0], ids![1], ids![3, 2]),
        (ids![2], ids![3, 4], ids![5]),
        ids![0, 1],
        ids![5, 4],
    )
    .unwrap();
    let runtime = Distribution::new(catalogue::mfma_a(32, 8).unwrap()).unwrap();
    assert_eq!(same(&a, runtime.ps_ys_to_xs()), 64 * 4);
    // The lane map of the 32x32x8 MFMA's A operand: M = lane % 32, K = 4 * (lane / 32) + register.
    for lane in 0..64 {
        for y in 0..4 {
            assert_eq!(a.calculate_bottom_index([lane, y]), [lane % 32, 4 * (lane / 32) + y]);
        }
    }

    // mfma_c(16, 16): a length-1 H component.
    let c = make_tensor_adaptor(
        (Number::<16>, Number::<16>),
        (
            make_unmerge_transform((Number::<1>, Number::<4>, Number::<4>)),
            make_unmerge_transform((Number::<16>,)),
            make_merge_transform((Number::<4>, Number::<16>)),
        ),
        (ids![0], ids![1], ids![3, 5]),
        (ids![2, 3, 4], ids![5], ids![6]),
        ids![0, 1],
        ids![6, 2, 4],
    )
    .unwrap();
    let runtime = Distribution::new(catalogue::mfma_c(16, 16).unwrap()).unwrap();
    assert_eq!(same(&c, runtime.ps_ys_to_xs()), 64 * 4);

    // gemm_dram(256, 128, 32, 8): a replicate, two P dimensions, five transforms.
    let g = make_tensor_adaptor(
        (Number::<128>, Number::<32>),
        (
            make_replicate_transform((Number::<1>,)),
            make_unmerge_transform((Number::<2>, Number::<4>, Number::<16>)),
            make_unmerge_transform((Number::<4>, Number::<8>)),
            make_merge_transform((Number::<4>,)),
            make_merge_transform((Number::<16>, Number::<4>)),
        ),
        (ids![], ids![0], ids![1], ids![4], ids![5, 6]),
        (ids![2], ids![3, 4, 5], ids![6, 7], ids![8], ids![9]),
        ids![0, 1],
        ids![8, 9, 3, 7],
    )
    .unwrap();
    let runtime = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8).unwrap()).unwrap();
    assert_eq!(same(&g, runtime.ps_ys_to_xs()), 4 * 64 * 2 * 8);

    // fmha_lse_d_dram(64, 4, 1): P dimensions that merge R components.
    let l = make_tensor_adaptor(
        (Number::<256>,),
        (
            make_replicate_transform((Number::<1>, Number::<1>)),
            make_unmerge_transform((Number::<4>, Number::<64>, Number::<1>)),
            make_merge_transform((Number::<1>, Number::<4>)),
            make_merge_transform((Number::<1>, Number::<64>)),
        ),
        (ids![], ids![0], ids![1, 3], ids![2, 4]),
        (ids![1, 2], ids![3, 4, 5], ids![6], ids![7]),
        ids![0],
        ids![6, 7, 5],
    )
    .unwrap();
    let runtime = Distribution::new(catalogue::fmha_lse_d_dram(64, 4, 1).unwrap()).unwrap();
    assert_eq!(same(&l, runtime.ps_ys_to_xs()), 4 * 64);
    // All four are all static: no runtime value is stored.
    assert_eq!(size_of_val(&a) + size_of_val(&c) + size_of_val(&g) + size_of_val(&l), 0);
}

/// Items of a runtime stage.
fn item(t: Transform, lower: &[usize], upper: &[usize]) -> cktile::Item {
    cktile::Item::new(t, lower, upper).unwrap()
}

#[test]
fn staged_adaptors_with_runtime_lengths_are_the_runtime_constructors_adaptors() {
    let mut rng = Rng::new(0xada);
    let mut compared = 0;
    for _ in 0..200 {
        let [a, b, c] = [0; 3].map(|_| 1 + rng.below(6) as usize);
        let d = 1 + rng.below(4) as usize;
        // (a*b*c) split into (a, b, c).
        let split = make_single_stage_tensor_adaptor(
            (a * b * c,),
            (make_unmerge_transform((a, b, c)),),
            (ids![0],),
            (ids![0, 1, 2],),
        )
        .unwrap();
        // (c, a) merged, b padded on the right by d.
        let merged = transform_tensor_adaptor(
            split,
            (make_merge_transform((c, a)), make_right_pad_transform(b, d)),
            (ids![2, 0], ids![1]),
            (ids![0], ids![1]),
        )
        .unwrap();
        // An adaptor from (c*a, b + d) swapping the two, chained on top.
        let swap = make_single_stage_tensor_adaptor(
            (c * a, b + d),
            (make_pass_through_transform(c * a), make_pass_through_transform(b + d)),
            (ids![0], ids![1]),
            (ids![1], ids![0]),
        )
        .unwrap();
        let chained = chain_tensor_adaptors(merged, swap).unwrap();

        let i = |v: usize| v as i64;
        let r_split = Adaptor::single_stage(
            Dims::from_slice(&[i(a * b * c)]).unwrap(),
            &[item(Transform::unmerge(&[a, b, c]).unwrap(), &[0], &[0, 1, 2])],
        )
        .unwrap();
        let r_merged = r_split
            .transform(&[
                item(Transform::merge(&[c, a]).unwrap(), &[2, 0], &[0]),
                item(Transform::right_pad(b, d).unwrap(), &[1], &[1]),
            ])
            .unwrap();
        let r_swap = Adaptor::single_stage(
            Dims::from_slice(&[i(c * a), i(b + d)]).unwrap(),
            &[
                item(Transform::pass_through(c * a).unwrap(), &[0], &[1]),
                item(Transform::pass_through(b + d).unwrap(), &[1], &[0]),
            ],
        )
        .unwrap();
        compared += same(&split, &r_split);
        compared += same(&merged, &r_merged);
        compared += same(&swap, &r_swap);
        compared += same(&chained, &r_merged.chain(&r_swap).unwrap());
        if b == 4 {
            // The same with b a compile-time 4.
            let split4 = make_single_stage_tensor_adaptor(
                (a * 4 * c,),
                (make_unmerge_transform((a, Number::<4>, c)),),
                (ids![0],),
                (ids![0, 1, 2],),
            )
            .unwrap();
            let merged4 = transform_tensor_adaptor(
                split4,
                (make_merge_transform((c, a)), make_right_pad_transform(Number::<4>, d)),
                (ids![2, 0], ids![1]),
                (ids![0], ids![1]),
            )
            .unwrap();
            compared += same(&merged4, &r_merged);
        }
        assert_eq!(size_of_val(&chained), size_of::<usize>() * (4 + 4 + 2 + 2));
    }
    assert!(compared > 10_000, "{compared}");
}

#[test]
fn wrong_runtime_lengths_are_refused_with_the_runtime_constructors_errors() {
    // A merge of (4, 8) over bottom lengths (4, 9).
    let e = make_single_stage_tensor_adaptor(
        (4usize, 9usize),
        (make_merge_transform((4usize, 8usize)),),
        (ids![0, 1],),
        (ids![0],),
    )
    .unwrap_err();
    let r = Adaptor::single_stage(
        Dims::from_slice(&[4, 9]).unwrap(),
        &[item(Transform::merge(&[4, 8]).unwrap(), &[0, 1], &[0])],
    )
    .unwrap_err();
    assert_eq!(e, r);
    assert!(e.to_string().contains("merge"), "{e}");

    // A transform stage whose pass-through does not fit the top length 8.
    let split = make_single_stage_tensor_adaptor(
        (32usize,),
        (make_unmerge_transform((4usize, 8usize)),),
        (ids![0],),
        (ids![0, 1],),
    )
    .unwrap();
    let e = transform_tensor_adaptor(
        split,
        (make_pass_through_transform(4usize), make_pass_through_transform(7usize)),
        (ids![0], ids![1]),
        (ids![0], ids![1]),
    )
    .unwrap_err();
    let r = split
        .adaptor()
        .transform(&[
            item(Transform::pass_through(4).unwrap(), &[0], &[0]),
            item(Transform::pass_through(7).unwrap(), &[1], &[1]),
        ])
        .unwrap_err();
    assert_eq!(e, r);

    // Chaining lengths that differ.
    let other = make_single_stage_tensor_adaptor(
        (8usize, 4usize),
        (make_merge_transform((8usize, 4usize)),),
        (ids![0, 1],),
        (ids![0],),
    )
    .unwrap();
    let e = chain_tensor_adaptors(split, other).unwrap_err();
    assert_eq!(e, split.adaptor().chain(&other.adaptor()).unwrap_err());
    assert_eq!(
        e.to_string(),
        "cannot chain: dimension 0 has length 4 as the first adaptor's top and 8 as the second's bottom"
    );

    // A general adaptor whose top names a dimension a transform reads.
    let e = make_tensor_adaptor(
        (32usize,),
        (make_unmerge_transform((4usize, 8usize)),),
        (ids![0],),
        (ids![1, 2],),
        ids![0],
        ids![0, 1],
    )
    .unwrap_err();
    let r = Adaptor::new(
        Dims::from_slice(&[32]).unwrap(),
        &[item(Transform::unmerge(&[4, 8]).unwrap(), &[0], &[1, 2])],
        &[0],
        &[0, 1],
    )
    .unwrap_err();
    assert_eq!(e, r);
    assert_eq!(
        e.to_string(),
        "top dimension (hidden id 0) is also read by adaptor transform 0; a top dimension must be an output only"
    );
}

#[test]
fn a_typed_adaptor_checks_top_indices_when_asked_and_prints_as_the_runtime_one() {
    let a = make_single_stage_tensor_adaptor(
        (Number::<4>, 8usize),
        (make_merge_transform((Number::<4>, 8usize)),),
        (ids![0, 1],),
        (ids![0],),
    )
    .unwrap();
    assert_eq!(a.try_calculate_bottom_index([31]).unwrap(), [3, 7]);
    assert_eq!(
        a.try_calculate_bottom_index([32]).unwrap_err().to_string(),
        "coordinate dimension 0 is 32; it must be in [0, 32)"
    );
    assert_eq!(
        a.try_calculate_bottom_index([-1]).unwrap_err().to_string(),
        "coordinate dimension 0 is -1; it must be in [0, 32)"
    );
    assert_eq!(a.to_string(), a.adaptor().to_string());
    assert_eq!((a.top_lengths(), a.bottom_lengths()), ([32], [4, 8]));
    assert_eq!(size_of_val(&a), size_of::<usize>() * 2); // the runtime 8, in the bottom lengths and the merge
}
