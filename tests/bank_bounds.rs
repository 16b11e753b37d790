//! The address-taking entries refuse an access that ends past the chip's
//! shared memory: `validate_shared` for every chip and every
//! instruction it has, against a brute-force walk of the aligned addresses
//! near the end (the CLI's `cktile bank` on the example is in
//! `tests/cli_analyzer.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::ErrorKind;
use cktile::analyzer::AnalyzerProblem;
use cktile::analyzer::model::{validate, validate_shared};
use cktile::analyzer::{ARCHS, op::all_ops};

#[test]
fn every_instruction_on_every_chip_stops_at_the_last_byte_of_shared_memory() {
    let mut checked = 0;
    for arch in &ARCHS {
        let capacity = arch.shared_bytes() as u64;
        for op in all_ops().filter(|op| op.runs_on(arch)) {
            // The bytes one lane's accesses span (read2/write2: to the end of the second).
            let span = (0..op.accesses()).map(|i| op.access_offset(i) + op.access_bytes()).max().unwrap();
            let align = op.alignment();
            // Every aligned address from a few alignments before the last fitting one to past the end.
            let first = (capacity.saturating_sub(span + 4 * align) / align) * align;
            for address in (first..capacity + 4 * align).step_by(align as usize) {
                assert!(validate(arch, op, &[Some(address)]).is_ok(), "{op} at {address}");
                let fits = address + span <= capacity;
                match validate_shared(arch, op, &[None, Some(address)]) {
                    Ok(()) => assert!(fits, "{} {op} at {address}: accepted past {capacity}", arch.name()),
                    Err(e) => {
                        assert!(!fits, "{} {op} at {address}: refused inside: {e}", arch.name());
                        let ErrorKind::Analyzer(AnalyzerProblem::AccessPastShared {
                            lane,
                            address: a,
                            bytes,
                            capacity: c,
                            ..
                        }) = *e.kind()
                        else {
                            panic!("{e}");
                        };
                        // The first of the lane's accesses (read2/write2: two) that leaves, to its end.
                        let leaving = (0..op.accesses())
                            .map(|i| op.access_offset(i) + op.access_bytes())
                            .find(|end| address + end > capacity);
                        assert_eq!((lane, a, Some(bytes), c as u64), (1, address, leaving, capacity));
                        assert!(e.to_string().contains(&format!("address {address} ")), "{e}");
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "{checked}");
}
