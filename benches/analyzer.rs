//! Bank-analyzer throughput in lane accesses per second:
//!
//! - the CK Tile docs' 128x64 fp16 tile on gfx942 (naive, row-padded and
//!   CK's XOR layout), written by `ds_write_b128` rows and read by MFMA
//!   16x16x16 A fragments, every instruction of every (layout, pattern)
//!   pair counted by `analyze_tile` (lane addresses and bank count);
//! - the sm90 store workload of the guide's Triton comparison: naive and
//!   Triton-swizzled 128x64 fp16 tiles, `st.shared.b128` rows and columns;
//! - the bank count alone (`count_in`) over the gfx942 workload's lane
//!   addresses, computed once.
//!
//! Run with `cargo bench --bench analyzer`; `scripts/perf-report.sh` runs the
//! same workloads next to the Python alternatives.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use cktile::Descriptor;
use cktile::analyzer::model::{PhaseTable, count_in};
use cktile::analyzer::tile::lane_addresses;
use cktile::analyzer::{Arch, Pattern, analyze_tile, arch};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn resolve(names: &[&str]) -> Vec<Descriptor> {
    names.iter().map(|l| cktile::layouts::resolve(l).unwrap()).collect()
}

fn patterns(names: &[&str]) -> Vec<Pattern> {
    names.iter().map(|p| Pattern::from_access(p).unwrap()).collect()
}

/// Lane accesses of every (layout, pattern) pair.
fn lanes(layouts: &[Descriptor], patterns: &[Pattern], a: &Arch) -> u64 {
    let mut lanes = 0u64;
    for d in layouts {
        for p in patterns {
            lanes += u64::from(analyze_tile(d, 2, a, *p).unwrap().instructions) * u64::from(a.wave());
        }
    }
    lanes
}

fn tiles(c: &mut Criterion, name: &str, layouts: &[Descriptor], patterns: &[Pattern], a: &Arch) {
    let mut group = c.benchmark_group("analyzer");
    group.throughput(Throughput::Elements(lanes(layouts, patterns, a)));
    group.bench_function(name, |b| {
        b.iter(|| {
            let mut cycles = 0u32;
            for d in layouts {
                for p in patterns {
                    cycles += analyze_tile(black_box(d), 2, a, *p).unwrap().cycles;
                }
            }
            cycles
        })
    });
    group.finish();
}

fn bench(c: &mut Criterion) {
    let gfx942 =
        resolve(&["packed((128,64))", "row-padded:rows=128,cols=64,pad=8", "ck-universal-a:m=128,k=64,dtype=fp16"]);
    let reads_writes = patterns(&["ds_write_b128:row", "mfma16x16x16:a"]);
    tiles(c, "gfx942 128x64 fp16: 3 layouts x 2 patterns", &gfx942, &reads_writes, &arch::GFX942);

    let sm90 = resolve(&["packed((128,64))", "triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows=128,cols=64"]);
    let stores = patterns(&["st.shared.b128:row", "st.shared.b128:column"]);
    tiles(c, "sm90 128x64 fp16: 2 layouts x 2 store patterns", &sm90, &stores, &arch::SM90);

    // The bank count alone, over addresses computed once.
    let mut work = Vec::new();
    for d in &gfx942 {
        for p in &reads_writes {
            let n = analyze_tile(d, 2, &arch::GFX942, *p).unwrap().instructions as usize;
            for i in 0..n {
                work.push((p.op(), lane_addresses(d, 2, &arch::GFX942, *p, i).unwrap()));
            }
        }
    }
    let mut group = c.benchmark_group("analyzer");
    group.throughput(Throughput::Elements(work.len() as u64 * 64));
    group.bench_function("gfx942 bank count alone (count_in), same instructions", |b| {
        let mut t = PhaseTable::EMPTY;
        b.iter(|| {
            let mut cycles = 0u32;
            for (op, addrs) in &work {
                cycles += count_in(&mut t, &arch::GFX942, *op, black_box(addrs)).unwrap().cycles;
            }
            cycles
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
