//! The `bank` target's properties, shared by the fuzz target and by
//! `tests/fuzz_corpus.rs` (which replays the committed corpus on stable).
//!
//! The `cktile bank` request path (the CLI's own parser, compiled from its
//! file) and the analyzer on whatever it accepts: no panic; passes are at
//! least the phases that cost one; conflict cycles are the passes beyond
//! them; no bank serves more words than there are active lanes' words.

use cktile::analyzer::analyze_instruction;

#[path = "../../src/bin/cktile/request.rs"]
mod request;

/// Checks one input; returns whether the analyzer produced a report.
pub fn check(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else { return false };
    let Ok((arch, op, addresses)) = request::bank_request(text) else { return false };
    let Ok(r) = analyze_instruction(&arch, op, &addresses) else { return false };
    let c = r.counts;
    assert!(c.cycles >= c.phases, "{c:?}");
    assert_eq!(c.conflict_cycles, c.cycles - c.phases, "{c:?}");
    let active = addresses.iter().flatten().count() as u32;
    assert_eq!(c.active_lanes, active, "{c:?}");
    let words_per_lane = (op.bytes_per_lane() as u32).div_ceil(4).max(1) + 1;
    assert!(c.max_ways <= active * words_per_lane, "{c:?}");
    let per_phase: u32 = r.phase_detail.iter().map(|p| p.cycles).sum();
    assert_eq!(per_phase, c.cycles, "{c:?}");
    true
}
