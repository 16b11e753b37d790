//! A lower bound on the passes of any layout that keeps the problem's
//! vectors contiguous and aligned, whatever its family.
//!
//! In such a layout a vector of `W` elements fills `V = W * element_bytes / 4`
//! consecutive words starting at a multiple of `V` (when it fills at least a
//! word), so the word at offset `o` within its vector lies in a bank `b` with
//! `b % V == o % V`: only `banks / V` banks are open to it. If a phase touches
//! `n` distinct words with the same offset, some bank serves at least
//! `ceil(n / (banks / V))` of them. Distinct elements of a layout are
//! distinct words unless they share a word of one vector, which the count
//! respects, so the bound holds for every such layout.

use super::workload::Workload;
use crate::analyzer::model::phase_cycles;
use crate::analyzer::rules::rule;
use alloc::collections::BTreeSet;
use alloc::vec;
use alloc::vec::Vec;

/// Each pattern's lower bound, in passes, for vectors of `unit` elements.
pub(crate) fn vector_bound(work: &Workload, unit: usize) -> Vec<u64> {
    let arch = &work.arch;
    let eb = work.element_bytes;
    let words_per_vector = (unit * eb / 4).max(1);
    let mut out = Vec::with_capacity(work.patterns.len());
    for w in &work.patterns {
        let op = w.op;
        let r = rule(arch, op);
        let open_banks = (r.banks as usize / words_per_vector).max(1);
        let lane_words = (op.access_bytes() as usize / 4).max(1);
        let mut total = 0u64;
        for lanes in &w.lanes {
            for access in 0..op.accesses() {
                // The patterns' accesses are contiguous: the second starts where the first ends.
                let first_word = op.access_offset(access) as usize / 4;
                for phase in 0..r.grouping.phases() {
                    // Distinct words (row, word of the row) by their offset in the vector.
                    let mut words: Vec<BTreeSet<(usize, usize)>> = vec![BTreeSet::new(); words_per_vector];
                    for &lane in r.grouping.phase(phase) {
                        if let Some(Some((row, c))) = lanes.get(lane as usize) {
                            for j in 0..lane_words {
                                let word = c * eb / 4 + first_word + j;
                                words[word % words_per_vector].insert((*row, word));
                            }
                        }
                    }
                    let ways = words.iter().map(|s| s.len().div_ceil(open_banks)).max().unwrap_or(0);
                    total += u64::from(phase_cycles(arch, u32::try_from(ways).unwrap_or(u32::MAX)));
                }
            }
        }
        out.push(total);
    }
    out
}
