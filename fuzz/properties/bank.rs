//! The `bank` target's properties, shared by the fuzz target and by
//! `tests/fuzz_corpus.rs` (which replays the committed corpus on stable).
//!
//! The `cktile bank` request path (the library's [`BankRequest`], which the
//! CLI reads its stdin with) and the analyzer on whatever it accepts: no panic; passes are at
//! least the phases that cost one; conflict cycles are the passes beyond
//! them; the active lanes are the given addresses less those of lanes the
//! instruction does not read (which the report names); no bank serves more
//! words than there are active lanes' words; and
//! every phase's detail equals an independent recount from the lane
//! addresses (distinct 4-byte words per bank, in maps rather than the
//! analyzer's fixed tables).

use cktile::analyzer::arch::Vendor;
use cktile::json::BankRequest;
use cktile::reports::analyze_instruction;
use cktile::reports::{InstructionReport, PhaseReport};
use std::collections::BTreeMap;

/// Checks one input; returns whether the analyzer produced a report.
pub fn check(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else { return false };
    let Ok(req) = BankRequest::from_json(text) else { return false };
    let Ok((arch, op)) = req.resolve() else { return false };
    let addresses = req.addresses;
    let Ok(r) = analyze_instruction(&arch, op, &addresses) else { return false };
    let c = r.counts;
    assert!(c.cycles >= c.phases, "{c:?}");
    assert_eq!(c.conflict_cycles, c.cycles - c.phases, "{c:?}");
    // The lanes the instruction reads are its phases' lanes; an address given to
    // any other lane is named in `unread_lanes` and counted nowhere.
    let read: std::collections::BTreeSet<u32> = r.phase_detail.iter().flat_map(|p| p.lanes.iter().copied()).collect();
    let unread: Vec<u32> =
        (0..addresses.len() as u32).filter(|l| addresses[*l as usize].is_some() && !read.contains(l)).collect();
    assert_eq!(r.unread_lanes, unread, "{c:?}");
    let active = addresses.iter().flatten().count() as u32 - unread.len() as u32;
    assert_eq!(c.active_lanes, active, "{c:?}");
    let words_per_lane = (op.bytes_per_lane() as u32).div_ceil(4).max(1) + 1;
    assert!(c.max_ways <= active * words_per_lane, "{c:?}");
    let per_phase: u32 = r.phase_detail.iter().map(|p| p.cycles).sum();
    assert_eq!(per_phase, c.cycles, "{c:?}");
    recount(&r, &addresses);
    true
}

/// A bank's distinct words (byte address or word index) in first-touch
/// order, each with the lanes that touch it.
type Words = Vec<(u64, Vec<u32>)>;

/// Recounts every phase from the addresses: each active lane's access (the
/// phase's first or second address of read2/write2) covers 4-byte words, a
/// word lives in bank `word % banks` (the instruction's banks on the chip), a
/// bank serves its distinct words one per pass (lanes sharing a word are one
/// broadcast), and an idle phase costs a pass on AMD only. Every active lane
/// is in exactly one phase per address, but for the lanes the report names
/// as not read (in no phase).
fn recount(r: &InstructionReport, addresses: &[Option<u64>]) {
    let bytes = r.op.access_bytes();
    let mut seen = vec![0u32; addresses.len()];
    for ph in &r.phase_detail {
        let at = |lane: u32| addresses.get(lane as usize).copied().flatten().map(|a| a + r.op.access_offset(ph.access));
        let active: Vec<u32> = ph.lanes.iter().copied().filter(|&l| at(l).is_some()).collect();
        // bank -> its distinct words in first-touch order, each with its lanes.
        let mut banks: BTreeMap<u32, Words> = BTreeMap::new();
        for &lane in &active {
            seen[lane as usize] += 1;
            let a = at(lane).unwrap_or(0);
            for word in a / 4..=(a + bytes - 1) / 4 {
                let words = banks.entry((word % u64::from(r.banks)) as u32).or_default();
                match words.iter_mut().find(|(w, _)| *w == word) {
                    Some((_, lanes)) => lanes.push(lane),
                    None => words.push((word, vec![lane])),
                }
            }
        }
        let ways = banks.values().map(Vec::len).max().unwrap_or(0) as u32;
        let cycles = match r.arch.vendor() {
            Vendor::Amd => ways.max(1),
            Vendor::Nvidia => ways,
        };
        let what = |ph: &PhaseReport| format!("{} {:?} phase {}: {ph:?}", r.arch.name(), r.op, ph.phase);
        assert_eq!((ph.active_lanes, ph.ways, ph.cycles), (active.len() as u32, ways, cycles), "{}", what(ph));
        if ways > 0 {
            let busiest = banks.iter().find(|(_, w)| w.len() as u32 == ways).map(|(&b, _)| b);
            assert_eq!(Some(ph.busiest_bank), busiest, "{}", what(ph));
        }
        let conflicts: Vec<(u32, Words)> = banks
            .into_iter()
            .filter(|(_, w)| w.len() > 1)
            .map(|(b, w)| (b, w.into_iter().map(|(w, l)| (w * 4, l)).collect()))
            .collect();
        let reported: Vec<(u32, Words)> = ph
            .conflicts
            .iter()
            .map(|b| (b.bank, b.words.iter().map(|w| (w.address, w.lanes.clone())).collect()))
            .collect();
        assert_eq!(reported, conflicts, "{}", what(ph));
    }
    for (lane, &n) in seen.iter().enumerate() {
        let read = !r.unread_lanes.contains(&(lane as u32));
        let expected = u32::from(addresses[lane].is_some() && read) * r.op.accesses();
        assert_eq!(n, expected, "{} {:?}: active lane {lane} is in {n} phases", r.arch.name(), r.op);
    }
}
