//! Timing driver for the report: runs each workload several times on one
//! thread and prints one JSON line per workload with every run's seconds.
//!
//! `timing [RUNS]`: the analyzer on the gfx942 workload (3 layouts x 2
//! patterns, the pycute comparison's), the analyzer on the sm90 store
//! workload (Triton's comparison), and the layout searches of
//! `workloads::PROBLEMS` (128x64 fp16 on gfx942, 128x64 and 256x128 bf16 on
//! gfx950).

use cktile::analyzer::{Op, Pattern, analyze_tile, arch};
use cktile_perf::workloads;
use std::hint::black_box;
use std::time::Instant;

fn runs<T>(n: usize, mut f: impl FnMut() -> Result<T, cktile::Error>) -> Result<(T, Vec<f64>), cktile::Error> {
    let mut last = f()?; // warm-up
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        last = black_box(f()?);
        times.push(t.elapsed().as_secs_f64());
    }
    Ok((last, times))
}

fn line(tool: &str, workload: &str, times: &[f64], lane_accesses: u64, result: &str) {
    let t: Vec<String> = times.iter().map(|s| format!("{s:.9}")).collect();
    println!(
        "{{\"tool\": \"{tool}\", \"workload\": \"{workload}\", \"runs_s\": [{}], \"lane_accesses\": {lane_accesses}, \"result\": {result}}}",
        t.join(", ")
    );
}

fn run(n: usize) -> Result<(), cktile::Error> {
    // gfx942: 3 layouts x 2 patterns, each call analyzing all six pairs 10 times.
    let (layouts, patterns) = (workloads::layouts()?, workloads::patterns()?);
    let reps = 10u64;
    let ((lanes, cycles), times) = runs(n, || {
        let mut t = (0, 0);
        for _ in 0..reps {
            let (a, b) = workloads::analyze_all(black_box(&layouts), &patterns)?;
            t = (t.0 + a, t.1 + b);
        }
        Ok(t)
    })?;
    let per_call: Vec<f64> = times.iter().map(|t| t / reps as f64).collect();
    line(
        "cktile analyze_tile",
        "analyze 3 layouts x 2 patterns, gfx942",
        &per_call,
        lanes / reps,
        &format!("{{\"total cycles\": {}}}", cycles / reps),
    );

    // sm90: naive and Triton-swizzled 128x64 fp16 tiles, 128-bit row and column stores.
    let tiles = [
        ("naive", cktile::layouts::resolve("packed((128,64))")?),
        (
            "swizzled (vec 8, perPhase 1, maxPhase 8)",
            cktile::layouts::resolve("triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows=128,cols=64")?,
        ),
    ];
    let stores = [
        ("st.shared.b128:row", Pattern::Rows { op: Op::StShared { bits: 128 } }),
        ("st.shared.b128:column", Pattern::Columns { op: Op::StShared { bits: 128 } }),
    ];
    let reps = 100u64;
    let (res, times) = runs(n, || {
        let mut out = Vec::new();
        for _ in 0..reps {
            out.clear();
            for (tn, d) in &tiles {
                for (pn, p) in &stores {
                    let c = analyze_tile(black_box(d), 2, &arch::SM90, *p)?;
                    out.push((format!("{tn} / {pn}"), c));
                }
            }
        }
        Ok(out)
    })?;
    let lanes: u64 = res.iter().map(|(_, c)| u64::from(c.instructions) * 32).sum();
    let fields: Vec<String> = res
        .iter()
        .map(|(k, c)| {
            format!(
                "\"{k}\": {{\"conflict_cycles\": {}, \"instructions\": {}, \"max_ways\": {}}}",
                c.conflict_cycles, c.instructions, c.max_ways
            )
        })
        .collect();
    let per_call: Vec<f64> = times.iter().map(|t| t / reps as f64).collect();
    line(
        "cktile analyze_tile",
        "2 layouts x 2 store patterns, sm90",
        &per_call,
        lanes,
        &format!("{{{}}}", fields.join(", ")),
    );

    // The searches.
    for name in workloads::PROBLEMS {
        let p = workloads::problem_named(name)?;
        let (r, times) = runs(n.min(7), || workloads::run_search(black_box(&p)))?;
        line(
            "cktile search",
            &format!("search {name}, ds_write_b128 rows + mfma16x16x16 A"),
            &times,
            0,
            &format!("{{\"candidates\": {}, \"best cycles\": {}}}", r.evaluated, r.best().cycles),
        );
    }
    Ok(())
}

fn main() {
    let n = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(7);
    if let Err(e) = run(n) {
        eprintln!("timing: {e}");
        std::process::exit(2);
    }
}
