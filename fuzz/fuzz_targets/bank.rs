//! The `cktile bank` request path (the CLI's own parser, compiled from its
//! file) and the analyzer on whatever it accepts: no panic; passes are at
//! least the phases that cost one; conflict cycles are the passes beyond
//! them; no bank serves more words than there are active lanes' words.

#![no_main]

use cktile::analyzer::analyze_instruction;
use libfuzzer_sys::fuzz_target;

#[path = "../../src/bin/cktile/request.rs"]
mod request;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok((arch, op, addresses)) = request::bank_request(text) else { return };
    let Ok(r) = analyze_instruction(&arch, op, &addresses) else { return };
    let c = r.counts;
    assert!(c.cycles >= c.phases, "{c:?}");
    assert_eq!(c.conflict_cycles, c.cycles - c.phases, "{c:?}");
    let active = addresses.iter().flatten().count() as u32;
    assert_eq!(c.active_lanes, active, "{c:?}");
    let words_per_lane = (op.bytes_per_lane() as u32).div_ceil(4).max(1) + 1;
    assert!(c.max_ways <= active * words_per_lane, "{c:?}");
    let per_phase: u32 = r.phase_detail.iter().map(|p| p.cycles).sum();
    assert_eq!(per_phase, c.cycles, "{c:?}");
});
