//! The reports' cost, issue 50's targets: `analyze_tile_report` (what
//! `cktile analyze` and Python's `Layout.analyze` compute) on a 128x64
//! fp16 tile (the Python target, 100 µs a call with the crossing) and on a
//! 1024x1024 one (the CLI target, 15 ms for the whole process), under the
//! MFMA 16x16 A reads on gfx942, for a packed tile and CK's universal A
//! layout; and one instruction analysed in detail (`analyze_instruction`,
//! `cktile bank`).
//!
//! Run with `cargo bench --bench report`. No timing here is a pass/fail
//! test; the numbers go to the performance chapter.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::{Op, Pattern, arch};
use cktile::reports::{analyze_instruction, analyze_tile_report};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mfma16 = Pattern::by_name("mfma16", None).unwrap();
    let mut group = c.benchmark_group("report");
    for (name, text, lanes) in [
        ("128x64 packed mfma16", "packed((128,64))", 16 * 64),
        ("128x64 ck-universal-a mfma16", "ck-universal-a:m=128,k=64", 16 * 64),
        ("1024x1024 packed mfma16", "packed((1024,1024))", 2048 * 64),
        ("1024x1024 ck-universal-a mfma16", "ck-universal-a:m=1024,k=1024", 2048 * 64),
    ] {
        let d = cktile::layouts::resolve(text).unwrap();
        group.throughput(Throughput::Elements(lanes));
        group
            .bench_function(name, |b| b.iter(|| analyze_tile_report(black_box(&d), 2, &arch::GFX942, mfma16).unwrap()));
    }
    let addrs: Vec<Option<u64>> = (0..64).map(|l| Some(l * 128)).collect();
    group.throughput(Throughput::Elements(64));
    group.bench_function("one ds_read_b128 in detail", |b| {
        b.iter(|| analyze_instruction(&arch::GFX942, Op::DsRead { bits: 128 }, black_box(&addrs)).unwrap())
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2)).sample_size(20);
    targets = bench
}
criterion_main!(benches);
