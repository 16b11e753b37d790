//! The guide's table of Triton's gfx1250 GEMM layouts (docs/src/amd-models.md,
//! between `<!-- table: triton-gfx1250-gemm -->` and `<!-- end of table -->`),
//! every cell recomputed: the layouts from the block shape (Triton's
//! `create_shared_layouts`: A `padded_shared<[BLOCK_K:+8]>`, B
//! `padded_shared<[BLOCK_N:+16]>`, or `[BLOCK_K:+8]` over `BLOCK_N x BLOCK_K`
//! with `TRANSPOSE_B`), the TDM padding by `cktile::plan::tdm`, and each
//! operand read's worst ways by brute force over the whole tile, with
//! gfx1250's rule restated here (`ds_read_b128`: two 16-lane phases,
//! 64 banks) and the WMMA 16x16x32 lanes (lane l: row l % 16, K runs at
//! 8 (l / 16) and 16 + 8 (l / 16)); the non-transposed B's
//! `ds_load_tr16_b128` reads from the exchange of AMD's MI450 blog restated
//! (source lane l reads K 16 p + 8 (l / 16) + l % 8, N 8 (l / 8 % 2) ..+ 8
//! of each 32 x 16 warp tile); the window at the origin also through
//! `cktile analyze --json`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::arch;
use cktile::plan::tdm::plan;
use std::collections::{HashMap, HashSet};
use std::process::Command;

/// Worst ways of one 32-lane 16-byte read on gfx1250 (two 16-lane phases,
/// 64 banks, distinct words per bank), lane `l` at byte `addr(l)`.
fn instruction_ways(addr: impl Fn(u64) -> u64) -> u64 {
    let mut worst = 0;
    for phase in 0..2u64 {
        let mut banks: HashMap<u64, HashSet<u64>> = HashMap::new();
        for l in phase * 16..phase * 16 + 16 {
            for w in 0..4 {
                let word = addr(l) / 4 + w;
                banks.entry(word % 64).or_default().insert(word);
            }
        }
        worst = worst.max(banks.values().map(HashSet::len).max().unwrap() as u64);
    }
    worst
}

/// Worst ways of the operand read over a `rows x cols` fp16 tile of row
/// pitch `pitch` elements: every 16-row x 32-K window, both reads.
fn brute_ways(rows: u64, cols: u64, pitch: u64) -> u64 {
    let mut worst = 0;
    for r0 in (0..rows).step_by(16) {
        for k0 in (0..cols).step_by(32) {
            for run in [0u64, 16] {
                worst = worst.max(instruction_ways(|l| ((r0 + l % 16) * pitch + k0 + run + 8 * (l / 16)) * 2));
            }
        }
    }
    worst
}

/// Worst ways of the non-transposed B's `ds_load_tr16_b128` reads over a
/// `rows x cols` (K x N) fp16 tile of row pitch `pitch`: every 32-K x 16-N
/// warp tile, both instructions.
fn brute_ways_tr(rows: u64, cols: u64, pitch: u64) -> u64 {
    let mut worst = 0;
    for k0 in (0..rows).step_by(32) {
        for n0 in (0..cols).step_by(16) {
            for p in 0..2u64 {
                let addr = |l: u64| ((k0 + 16 * p + 8 * (l / 16) + l % 8) * pitch + n0 + 8 * (l / 8 % 2)) * 2;
                worst = worst.max(instruction_ways(addr));
            }
        }
    }
    worst
}

fn analyze_origin(entry: &str, distribution: &str, op: &str) -> u64 {
    let o = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(["analyze", &format!("{entry},dtype=fp16"), "--arch", "gfx1250"])
        .args(["--distribution", distribution, "--op", op, "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{entry}: {}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["max_ways"].as_u64().unwrap()
}

fn tdm_pad(entry: &str, rows: i64, cols: i64, pad: i64) -> String {
    let d = cktile::layouts::resolve(entry).unwrap();
    let p = plan(&d, 2, &[cols + pad, 1], &arch::GFX1250).unwrap();
    let q = p.padding.unwrap();
    assert_eq!((q.interval_bytes, q.amount_bytes), ((cols * 2) as u64, (pad * 2) as u64), "{entry} ({rows} rows)");
    format!("{}:+{}", q.interval_bytes, q.amount_bytes)
}

fn read_cell(rows: i64, cols: i64, pad: i64, entry: &str) -> String {
    let ways = brute_ways(rows as u64, cols as u64, (cols + pad) as u64);
    let origin = analyze_origin(entry, "wmma16x16x32_gfx1250_a", "ds_read_b128");
    assert_eq!(origin, brute_ways(16, 32, (cols + pad) as u64), "{entry}");
    format!("{ways}-way")
}

fn transposing_read_cell(rows: i64, cols: i64, pad: i64, entry: &str) -> String {
    let ways = brute_ways_tr(rows as u64, cols as u64, (cols + pad) as u64);
    let origin = analyze_origin(entry, "wmma16x16x32_gfx1250_b_tr16", "ds_load_tr16_b128");
    assert_eq!(origin, brute_ways_tr(32, 16, (cols + pad) as u64), "{entry}");
    format!("{ways}-way (ds_load_tr16_b128)")
}

#[test]
fn the_guides_triton_gfx1250_table_is_what_cktile_finds() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/amd-models.md")).unwrap();
    let start = text.find("<!-- table: triton-gfx1250-gemm -->").unwrap();
    let end = start + text[start..].find("<!-- end of table -->").unwrap();
    let rows: Vec<Vec<String>> = text[start..end]
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| BLOCK"))
        .map(|l| l.trim_matches('|').split(" | ").map(|c| c.trim().trim_matches('`').to_string()).collect())
        .collect();
    assert_eq!(rows.len(), 10, "ten configurations");
    let mut zero = 0;
    for row in &rows {
        let dims: Vec<i64> = row[0].split('x').map(|d| d.trim().parse().unwrap()).collect();
        let (bm, bn, bk) = (dims[0], dims[1], dims[2]);
        let transpose_b = row[1] == "yes";
        let a = format!("row-padded:rows={bm},cols={bk},pad=8");
        let (b, b_rows, b_cols, b_pad) = if transpose_b {
            (format!("row-padded:rows={bn},cols={bk},pad=8"), bn, bk, 8)
        } else {
            (format!("row-padded:rows={bk},cols={bn},pad=16"), bk, bn, 16)
        };
        let b_read = if transpose_b {
            read_cell(b_rows, b_cols, b_pad, &b)
        } else {
            transposing_read_cell(b_rows, b_cols, b_pad, &b)
        };
        let want = [
            row[0].clone(),
            row[1].clone(),
            a.clone(),
            tdm_pad(&a, bm, bk, 8),
            read_cell(bm, bk, 8, &a),
            b.clone(),
            tdm_pad(&b, b_rows, b_cols, b_pad),
            b_read,
        ];
        assert_eq!(row.as_slice(), want.as_slice());
        zero += row.iter().filter(|c| c.starts_with("1-way")).count();
    }
    // Every read is conflict-free, as Triton #9741 reports.
    assert_eq!(zero, 20);
    // The brute force finds conflicts where they are: an unpadded B (pitch 64 bytes) is 2-way.
    assert_eq!(brute_ways_tr(64, 32, 32), 2);
    assert_eq!(
        analyze_origin("row-padded:rows=64,cols=32,pad=0", "wmma16x16x32_gfx1250_b_tr16", "ds_load_tr16_b128"),
        2
    );
}
