//! The guide's table of Triton's gfx1250 GEMM layouts (docs/src/amd-models.md,
//! between `<!-- table: triton-gfx1250-gemm -->` and `<!-- end of table -->`),
//! every cell recomputed: the layouts from the block shape (Triton's
//! `create_shared_layouts`: A `padded_shared<[BLOCK_K:+8]>`, B
//! `padded_shared<[BLOCK_N:+16]>`, or `[BLOCK_K:+8]` over `BLOCK_N x BLOCK_K`
//! with `TRANSPOSE_B`), the TDM padding by `cktile::plan::tdm`, and each
//! operand read's worst ways by brute force over the whole tile, with
//! gfx1250's rule restated here (`ds_read_b128`: two 16-lane phases,
//! 64 banks) and the WMMA 16x16x32 lanes (lane l: row l % 16, K runs at
//! 8 (l / 16) and 16 + 8 (l / 16)); the window at the origin also through
//! `cktile analyze --json`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::arch;
use cktile::plan::tdm::plan;
use std::collections::{HashMap, HashSet};
use std::process::Command;

/// Worst ways of the operand read over a `rows x cols` fp16 tile of row
/// pitch `pitch` elements: every 16-row x 32-K window, both reads.
fn brute_ways(rows: u64, cols: u64, pitch: u64) -> u64 {
    let mut worst = 0;
    for r0 in (0..rows).step_by(16) {
        for k0 in (0..cols).step_by(32) {
            for run in [0u64, 16] {
                let addr = |l: u64| ((r0 + l % 16) * pitch + k0 + run + 8 * (l / 16)) * 2;
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
            }
        }
    }
    worst
}

fn analyze_origin(entry: &str) -> u64 {
    let o = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(["analyze", &format!("{entry},dtype=fp16"), "--arch", "gfx1250"])
        .args(["--distribution", "wmma16x16x32_gfx1250_a", "--op", "ds_read_b128", "--json"])
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
    assert_eq!(analyze_origin(entry), brute_ways(16, 32, (cols + pad) as u64), "{entry}");
    format!("{ways}-way")
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
        let b_read = if transpose_b { read_cell(b_rows, b_cols, b_pad, &b) } else { String::from("not modelled") };
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
        zero += row.iter().filter(|c| *c == "1-way").count();
    }
    // Every counted read is conflict-free, as Triton #9741 reports.
    assert_eq!(zero, 15);
}
