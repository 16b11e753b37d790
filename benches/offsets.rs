//! Offset computation over every coordinate of a tile, for four layouts:
//! CK Tile's GEMM A LDS descriptors (K=64, and K=32 with MLdsLayer=2), a
//! CuTe `Swizzle<3,3,3>` tile and a row-padded tile. Every offset of the
//! tile is computed and stored into one buffer, by
//!
//! - `hand`: the hand-written closed form;
//! - `static`: the typed (static) descriptor, every length a `Number`;
//! - `runtime`: the descriptor built at run time from its spec text,
//!   `Descriptor::calculate_offset`;
//! - `program`: the same runtime descriptor compiled once (`Program::of`);
//! - `batch`: the program on the whole tile's coordinates in one call
//!   (`Program::offsets_if_valid`, [`LANES`](cktile::program::LANES) at a time);
//! - `columns`: the same with the coordinates as two columns and the
//!   offsets as plain integers with a validity mask (`Program::offsets_columns`);
//! - `move_k`: `move_tensor_coordinate` one step along K from the row start.
//!
//! Run with `cargo bench --bench offsets`; `scripts/perf-report.sh` turns the
//! samples into min/median/max ratios to `hand`.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use cktile::Coordinate;
use cktile::prelude::*;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// Computes `f(m, k)` for every coordinate of the tile into `tile` (row
/// by row) and hands the tile to `black_box`, so every offset is computed
/// and stored as a kernel would use it. The bounds are read through
/// `black_box` so the loops are not specialised to one shape. (Summing the
/// offsets instead let the compiler replace a row of affine offsets by the
/// closed form of their sum: the padded case's hand-written loop then cost
/// 0.017 ns a coordinate, computing none of them.)
#[inline(always)]
fn all_lanes(cols: i64, tile: &mut [i64], mut f: impl FnMut(i64, i64) -> i64) {
    for (m, row) in (0..).zip(tile.chunks_mut(black_box(cols) as usize)) {
        for (k, o) in (0..).zip(row) {
            *o = f(m, k);
        }
    }
    black_box(tile);
}

/// The tile's coordinates in row-major order, written into `coords`.
#[inline(always)]
fn tile_coordinates(rows: i64, cols: i64, coords: &mut Vec<[i64; 2]>) {
    coords.clear();
    for m in 0..black_box(rows) {
        coords.extend((0..black_box(cols)).map(|k| [m, k]));
    }
}

/// The seven variants of one case.
fn case(
    c: &mut Criterion,
    name: &str,
    (rows, cols): (i64, i64),
    hand: impl Fn(i64, i64) -> i64,
    typed: impl Fn(i64, i64) -> i64,
    spec: &str,
) {
    let runtime = cktile::spec::parse(spec).unwrap();
    let program = cktile::Program::of(&runtime);
    // Every variant computes the same offsets.
    for m in 0..rows {
        for k in 0..cols {
            let want = hand(m, k);
            assert_eq!(typed(m, k), want, "{name} static at ({m}, {k})");
            assert_eq!(runtime.calculate_offset(&[m, k]), want, "{name} runtime at ({m}, {k})");
            assert_eq!(program.calculate_offset(&[m, k]), want, "{name} program at ({m}, {k})");
        }
        let coords: Vec<[i64; 2]> = (0..cols).map(|k| [m, k]).collect();
        let mut out = vec![None; coords.len()];
        assert_eq!(program.offsets_if_valid(&coords, &mut out), coords.len());
        assert!(out.iter().zip(0..).all(|(o, k)| *o == Some(hand(m, k))), "{name} batch at row {m}");
        let (ms, ks): (Vec<i64>, Vec<i64>) = coords.iter().map(|&[m, k]| (m, k)).unzip();
        let (mut out, mut valid) = (vec![0; coords.len()], vec![0u64; coords.len().div_ceil(64)]);
        assert_eq!(program.offsets_columns(&[&ms, &ks], &mut out, &mut valid), coords.len());
        assert!(
            valid.iter().map(|w| w.count_ones() as usize).sum::<usize>() == coords.len(),
            "{name} columns at row {m}"
        );
        assert!(out.iter().zip(0..).all(|(&o, k)| o == hand(m, k)), "{name} columns at row {m}");
    }
    let n = (rows * cols) as usize;
    let mut tile = vec![0i64; n];
    let mut group = c.benchmark_group(name);
    group.bench_function("hand", |b| b.iter(|| all_lanes(cols, &mut tile, &hand)));
    group.bench_function("static", |b| b.iter(|| all_lanes(cols, &mut tile, &typed)));
    group.bench_function("runtime", |b| {
        b.iter(|| all_lanes(cols, &mut tile, |m, k| black_box(&runtime).calculate_offset(&[m, k])))
    });
    group.bench_function("program", |b| {
        b.iter(|| all_lanes(cols, &mut tile, |m, k| black_box(&program).calculate_offset(&[m, k])))
    });
    // The batches are given the whole tile's coordinates in one call,
    // made in the timed loop as the other variants make theirs.
    let (mut coords, mut out) = (Vec::with_capacity(n), vec![None; n]);
    group.bench_function("batch", |b| {
        b.iter(|| {
            tile_coordinates(rows, cols, &mut coords);
            black_box(&program).offsets_if_valid(&coords, &mut out);
            black_box(&mut out);
        })
    });
    let (mut ms, mut ks, mut valid) = (vec![0; n], vec![0; n], vec![0u64; n.div_ceil(64)]);
    group.bench_function("columns", |b| {
        b.iter(|| {
            let cols = black_box(cols) as usize;
            for ((m, ms), ks) in (0..).zip(ms.chunks_mut(cols)).zip(ks.chunks_mut(cols)) {
                ms.fill(m);
                for (k, x) in (0..).zip(ks) {
                    *x = k;
                }
            }
            black_box(&program).offsets_columns(&[&ms, &ks], &mut tile, &mut valid);
            black_box((&mut tile, &mut valid));
        })
    });
    group.bench_function("move_k", |b| {
        b.iter(|| {
            for (m, row) in (0..).zip(tile.chunks_mut(black_box(cols) as usize)) {
                let mut coord = Coordinate::new(&runtime, &[m, 0]);
                row[0] = coord.offset();
                for o in &mut row[1..] {
                    coord.move_by(black_box(&runtime), &[0, 1]);
                    *o = coord.offset();
                }
            }
            black_box(&mut tile);
        })
    });
    group.finish();
}

fn offsets(c: &mut Criterion) {
    // CK Tile GEMM A LDS, M=128, K=64, KPack=8 (MLdsLayer 1).
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
    let k64 = transform_tensor_descriptor(
        d,
        (make_pass_through_transform(Number::<128>), make_merge_transform((Number::<8>, Number::<8>))),
        (ids![1], ids![0, 2]),
        (ids![0], ids![1]),
    )
    .unwrap();
    case(
        c,
        "gemm_k64",
        (128, 64),
        |m, k| 64 * m + 8 * ((k / 8) ^ (m % 8)) + k % 8,
        move |m, k| k64.calculate_offset([m, k]),
        "naive((8,128,8),(8,64,1))
         | transform(xor((128,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2])
         | transform(pass_through(128) on [1] -> [0], merge((8,8)) on [0,2] -> [1])",
    );

    // CK Tile GEMM A LDS, M=128, K=32, KPack=8, MLdsLayer=2 (current form).
    let d = make_naive_tensor_descriptor(
        (Number::<8>, Number::<64>, Number::<8>),
        (Number::<8>, Number::<64>, Number::<1>),
    )
    .unwrap();
    let d = transform_tensor_descriptor(
        d,
        (make_xor_transform((Number::<64>, Number::<8>)), make_pass_through_transform(Number::<8>)),
        (ids![1, 0], ids![2]),
        (ids![1, 0], ids![2]),
    )
    .unwrap();
    let d = transform_tensor_descriptor(
        d,
        (
            make_unmerge_transform((Number::<2>, Number::<4>)),
            make_pass_through_transform(Number::<64>),
            make_pass_through_transform(Number::<8>),
        ),
        (ids![0], ids![1], ids![2]),
        (ids![0, 2], ids![1], ids![3]),
    )
    .unwrap();
    let k32 = transform_tensor_descriptor(
        d,
        (make_merge_transform((Number::<64>, Number::<2>)), make_merge_transform((Number::<4>, Number::<8>))),
        (ids![1, 0], ids![2, 3]),
        (ids![0], ids![1]),
    )
    .unwrap();
    case(
        c,
        "gemm_k32_mlds2",
        (128, 32),
        |m, k| {
            let (mm, l, k0, kp) = (m / 2, m % 2, k / 8, k % 8);
            ((l * 4 + k0) ^ (mm % 8)) * 8 + mm * 64 + kp
        },
        move |m, k| k32.calculate_offset([m, k]),
        "naive((8,64,8),(8,64,1))
         | transform(xor((64,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2])
         | transform(unmerge((2,4)) on [0] -> [0,2], pass_through(64) on [1] -> [1], pass_through(8) on [2] -> [3])
         | transform(merge((64,2)) on [1,0] -> [0], merge((4,8)) on [2,3] -> [1])",
    );

    // CuTe Swizzle<3,3,3> over a row-major 128x64 fp16 tile.
    let d = make_naive_tensor_descriptor_packed((Number::<8192>,)).unwrap();
    let d = transform_tensor_descriptor(d, (make_swizzle_transform::<3, 3, 3>(),), (ids![0],), (ids![0],)).unwrap();
    let swz = transform_tensor_descriptor(
        d,
        (make_unmerge_transform((Number::<128>, Number::<64>)),),
        (ids![0],),
        (ids![0, 1],),
    )
    .unwrap();
    case(
        c,
        "swizzle_333",
        (128, 64),
        |m, k| {
            let o = 64 * m + k;
            o ^ (((o >> 6) & 7) << 3)
        },
        move |m, k| swz.calculate_offset([m, k]),
        "packed((8192)) | transform(swizzle(3,3,3) on [0] -> [0]) | transform(unmerge((128,64)) on [0] -> [0,1])",
    );

    // A 128x64 tile with each row padded by 8 elements.
    let padded = make_naive_tensor_descriptor((Number::<128>, Number::<64>), (Number::<72>, Number::<1>)).unwrap();
    case(
        c,
        "padded",
        (128, 64),
        |m, k| 72 * m + k,
        move |m, k| padded.calculate_offset([m, k]),
        "naive((128,64),(72,1))",
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = offsets
}
criterion_main!(benches);
