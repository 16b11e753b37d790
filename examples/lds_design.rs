//! Designing an LDS layout on the host, before any kernel: three layouts of
//! a GEMM's 128 x 64 fp16 A tile (rows of M, K contiguous), each checked by
//! brute force (every element stored once, or at least never twice) and
//! counted by the bank-conflict analyzer on gfx942 under the two accesses
//! the tile sees: the DRAM tile's `ds_write_b128` stores, one 8-element
//! vector a lane along the rows, and the MFMA operand reads
//! (`ds_read_b128`, CK's 16x16 A pattern). For the worst instruction of a
//! layout that conflicts it prints the phase that costs most and the
//! lanes that share a bank, which is why it conflicts.
//!
//! ```text
//! cargo run --example lds_design
//! ```
//!
//! Each layout is a catalogue entry, so any line it prints pastes into the
//! command line (`cktile analyze ENTRY --arch gfx942 --pattern rows --op
//! ds_write_b128`). The kernel-side half, which stores and reads such a
//! layout on the GPU, is `examples/gemm_kernels.rs`. The process exits 1
//! if CK's layout is not conflict-free under both accesses, or a layout
//! stores two elements in one place.

use cktile::analyzer::{Op, Pattern, arch};
use cktile::reports::analyze_tile_report;

fn main() -> Result<(), cktile::Error> {
    let layouts = [
        // Row-major and packed: every row starts in bank 0.
        "row-padded:rows=128,cols=64,pad=0",
        // The classic fix: 8 fp16 (16 bytes) of padding a row, 12.5 % more LDS.
        "row-padded:rows=128,cols=64,pad=8",
        // CK Tile's universal GEMM A block: an XOR of the K vector by the row, no padding.
        "ck-universal-a:m=128,k=64",
    ];
    let write = Pattern::by_name("rows", Some(Op::DsWrite { bits: 128 }))?;
    let read = Pattern::by_name("mfma16", None)?;
    let mut failed = false;
    for entry in layouts {
        let d = cktile::layouts::resolve(entry)?;
        // Brute force over every coordinate: each element once (bijective), or, with
        // padding, never two in one place (injective: the pad holds no element).
        let once = cktile::check::is_bijective(&d).is_ok();
        let injective = cktile::check::is_injective(&d).is_ok();
        failed |= !injective;
        let placed = match (once, injective) {
            (true, _) => "each element once",
            (false, true) => "no two elements in one place, with holes",
            (false, false) => "TWO ELEMENTS IN ONE PLACE",
        };
        println!("{entry} ({} elements of space): {placed}", d.element_space_size());
        for (what, pattern, op) in
            [("stores", write, "--pattern rows --op ds_write_b128"), ("MFMA reads", read, "--pattern mfma16")]
        {
            let r = analyze_tile_report(&d, 2, &arch::GFX942, pattern)?;
            let c = r.counts;
            println!(
                "  {what}: {} instructions, {} cycles, {} of them bank conflicts (rocprof-compute's \
                 conflict rate {:.2} %), at worst {}-way (cktile analyze {entry} --arch gfx942 {op} --dtype fp16)",
                r.instructions.len(),
                c.cycles,
                c.conflict_cycles,
                r.bank_conflict_rate_pct,
                c.max_ways,
            );
            if c.conflict_cycles > 0
                && let Some(phase) = r.worst().worst_phase()
            {
                let lanes: Vec<String> = phase.lanes.iter().map(u32::to_string).collect();
                println!(
                    "    worst phase {} (lanes {}): {} ways on bank {}",
                    phase.phase,
                    lanes.join(","),
                    phase.ways,
                    phase.busiest_bank
                );
            }
            failed |= entry.starts_with("ck-") && c.conflict_cycles > 0;
        }
    }
    if failed { std::process::exit(1) } else { Ok(()) }
}
