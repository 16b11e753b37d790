//! Layout search and direct-to-LDS planning throughput: the search for the
//! CK Tile docs' 128x64 fp16 tile on gfx942 (row writes, MFMA reads), the
//! same problem on gfx950 at 128x64 and 256x128 bf16, and the planner for a
//! 256x64 fp16 CK Tile LDS block. With the `parallel` feature (on with the
//! default `cli`) the search uses every core.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::{Pattern, arch};
use cktile::plan::dma::{DmaRequest, plan, verify};
use cktile::search::{Problem, search};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let problem = Problem::new(128, 64, 2, arch::GFX942)
        .write(Pattern::from_access("ds_write_b128:row").unwrap())
        .read(Pattern::from_access("mfma16x16x16:a").unwrap());
    c.bench_function("search 128x64 fp16 gfx942 write+mfma16", |b| b.iter(|| search(black_box(&problem)).unwrap()));
    for (rows, cols) in [(128, 64), (256, 128)] {
        let problem = Problem::new(rows, cols, 2, arch::GFX950)
            .write(Pattern::from_access("ds_write_b128:row").unwrap())
            .read(Pattern::from_access("mfma16x16x16:a").unwrap());
        c.bench_function(&format!("search {rows}x{cols} bf16 gfx950 write+mfma16"), |b| {
            b.iter(|| search(black_box(&problem)).unwrap())
        });
    }

    let tile = cktile::layouts::resolve("ck-universal-a:m=256,k=64").unwrap();
    let req = DmaRequest {
        lds: &tile,
        element_bytes: 2,
        global_strides: vec![4096, 1],
        arch: arch::GFX942,
        workgroup: 256,
        wave: 64,
        width: 4,
    };
    c.bench_function("dma-plan 256x64 fp16 ck-universal-a width 4", |b| b.iter(|| plan(black_box(&req)).unwrap()));
    let p = plan(&req).unwrap();
    c.bench_function("dma-plan verify 256x64", |b| b.iter(|| verify(black_box(&req), black_box(&p)).unwrap()));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
