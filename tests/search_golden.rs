//! Search reports recorded before the search was made fast (batched over
//! the cores, the xor-linear family's shapes counted up front) and replayed:
//! every problem must give the same report, candidates, front, optimal set,
//! family sizes and stuck phases included (`tests/data/search_golden.tsv`;
//! `CKTILE_BLESS=1` rewrites it, review the diff before committing one).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::{Pattern, arch};
use cktile::search::{Problem, search};

/// FNV-1a over a report's debug text.
fn digest(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

fn problems() -> Vec<(&'static str, Problem)> {
    let p = |s: &str| Pattern::from_access(s).unwrap();
    vec![
        (
            "128x64 fp16 gfx942 rows + mfma16 a",
            Problem::new(128, 64, 2, arch::GFX942).write(p("ds_write_b128:row")).read(p("mfma16x16x16:a")),
        ),
        (
            "64x64 bf16 gfx950 rows + mfma16 a",
            Problem::new(64, 64, 2, arch::GFX950).write(p("ds_write_b128:row")).read(p("mfma16x16x16:a")),
        ),
        (
            "64x64 fp16 sm90 rows + ldmatrix.x4",
            Problem::new(64, 64, 2, arch::SM90).write(p("st.shared.b128:row")).read(p("ldmatrix.x4")),
        ),
        (
            "64x32 fp32 gfx942 b128 rows + b64 row writes",
            Problem::new(64, 32, 4, arch::GFX942).read(p("ds_read_b128:row")).write(p("ds_write_b64:row")),
        ),
        (
            "64x64 fp16 gfx90a mfma32 b + b32 columns",
            Problem::new(64, 64, 2, arch::GFX90A).read(p("mfma32x32x8:b")).write(p("ds_write_b32:column")),
        ),
        ("64x64 fp8 gfx1201 b64 rows", Problem::new(64, 64, 1, arch::GFX1201).read(p("ds_read_b64:row"))),
    ]
}

#[test]
fn searches_reproduce_the_recorded_reports() {
    let lines: Vec<String> = problems()
        .into_iter()
        .map(|(name, problem)| {
            let r = search(&problem).unwrap_or_else(|e| panic!("{name}: {e}"));
            let best = r.best();
            format!(
                "{name}\t{} {} {} {} {}\t{}\t{:016x}",
                r.evaluated,
                r.candidates.len(),
                r.front.len(),
                r.optimal.len(),
                r.xor_linear_optimal_classes,
                best.entry,
                digest(&format!("{r:?}"))
            )
        })
        .collect();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/search_golden.tsv");
    if std::env::var_os("CKTILE_BLESS").is_some() {
        std::fs::write(path, lines.join("\n") + "\n").unwrap();
    }
    let recorded = std::fs::read_to_string(path).unwrap();
    let recorded: Vec<&str> = recorded.lines().collect();
    assert_eq!(lines.len(), recorded.len());
    for (got, want) in lines.iter().zip(&recorded) {
        assert_eq!(got, want);
    }
}
