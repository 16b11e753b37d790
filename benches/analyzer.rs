//! Bank-analyzer throughput in lane accesses per second: the CK Tile docs'
//! 128x64 fp16 tile on gfx942 (naive, row-padded and CK's XOR layout),
//! written by `ds_write_b128` rows and read by MFMA 16x16x16 A fragments,
//! every instruction of every (layout, pattern) pair counted.
//!
//! Run with `cargo bench --bench analyzer`; `scripts/perf-report.sh` runs the
//! same workload next to the Python alternatives.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::{Pattern, analyze_tile, arch};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let layouts: Vec<_> =
        ["packed((128,64))", "row-padded:rows=128,cols=64,pad=8", "ck-universal-a:m=128,k=64,dtype=fp16"]
            .iter()
            .map(|l| cktile::layouts::resolve(l).unwrap())
            .collect();
    let patterns: Vec<_> =
        ["ds_write_b128:row", "mfma16x16x16:a"].iter().map(|p| Pattern::from_access(p).unwrap()).collect();
    let mut lanes = 0u64;
    for d in &layouts {
        for p in &patterns {
            lanes += u64::from(analyze_tile(d, 2, &arch::GFX942, *p).unwrap().instructions) * 64;
        }
    }
    let mut group = c.benchmark_group("analyzer");
    group.throughput(Throughput::Elements(lanes));
    group.bench_function("gfx942 128x64 fp16: 3 layouts x 2 patterns", |b| {
        b.iter(|| {
            let mut cycles = 0u32;
            for d in &layouts {
                for p in &patterns {
                    cycles += analyze_tile(black_box(d), 2, &arch::GFX942, *p).unwrap().cycles;
                }
            }
            cycles
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
