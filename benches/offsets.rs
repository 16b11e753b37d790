//! Offset computation over every coordinate of a 128x64 tile: CK Tile's GEMM
//! A LDS descriptor (M=128, K=64, KPack=8) computed by the hand-written
//! expression, the static (typed) descriptor, the runtime descriptor built
//! from its spec, and incremental coordinate moves along K.
//!
//! Run with `cargo bench --bench offsets`; compare each line to `hand`.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use cktile::prelude::*;
use cktile::{make_tensor_coordinate, move_tensor_coordinate};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const M: i64 = 128;
const K: i64 = 64;
const SPEC: &str = "naive((8,128,8),(8,64,1))
    | transform(xor((128,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2])
    | transform(pass_through(128) on [1] -> [0], merge((8,8)) on [0,2] -> [1])";

fn offsets(c: &mut Criterion) {
    let d = make_naive_tensor_descriptor(
        (Number::<8>, Number::<128>, Number::<8>),
        (Number::<8>, Number::<64>, Number::<1>),
    )
    .unwrap();
    let d = transform_tensor_descriptor(
        d,
        (make_xor_transform((Number::<128>, Number::<8>)), make_pass_through_transform(Number::<8>)),
        (ids![1, 0], ids![2]),
        (ids![1, 0], ids![2]),
    )
    .unwrap();
    let typed = transform_tensor_descriptor(
        d,
        (make_pass_through_transform(Number::<128>), make_merge_transform((Number::<8>, Number::<8>))),
        (ids![1], ids![0, 2]),
        (ids![0], ids![1]),
    )
    .unwrap();
    let runtime = cktile::spec::parse(SPEC).unwrap();

    let mut group = c.benchmark_group("gemm_a_lds_k64_all_lanes");
    group.bench_function("hand", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for m in 0..black_box(M) {
                for k in 0..black_box(K) {
                    sum = sum.wrapping_add(64 * m + 8 * ((k / 8) ^ (m % 8)) + k % 8);
                }
            }
            sum
        })
    });
    group.bench_function("static", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for m in 0..black_box(M) {
                for k in 0..black_box(K) {
                    sum = sum.wrapping_add(typed.calculate_offset([m, k]));
                }
            }
            sum
        })
    });
    group.bench_function("runtime_spec", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for m in 0..black_box(M) {
                for k in 0..black_box(K) {
                    sum = sum.wrapping_add(black_box(&runtime).calculate_offset(&[m, k]));
                }
            }
            sum
        })
    });
    group.bench_function("move_along_k", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for m in 0..black_box(M) {
                let mut coord = make_tensor_coordinate(&runtime, &[m, 0]);
                sum = sum.wrapping_add(coord.offset());
                for _ in 1..black_box(K) {
                    move_tensor_coordinate(&runtime, &mut coord, &[0, 1]);
                    sum = sum.wrapping_add(coord.offset());
                }
            }
            sum
        })
    });
    group.finish();
}

criterion_group!(benches, offsets);
criterion_main!(benches);
