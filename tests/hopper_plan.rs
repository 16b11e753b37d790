//! `plan::hopper` against its own definition, recomputed here: the
//! candidates are exactly the canonical layouts (every major-ness and mode
//! the target has) that the MMA reads and TMA writes from the global
//! tensor, in the promised order, with the analyzer's counts.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::{Pattern, arch};
use cktile::matrix_desc::{OperandMajor, Readability, Request, Target, canonical_spec, judge};
use cktile::plan::hopper::{HopperRequest, plan};
use cktile::reports::analyze_tile_report;
use cktile::tma::{self, TmaRequest, TmaVerdict};

fn expected(req: &HopperRequest) -> Vec<(OperandMajor, cktile::matrix_desc::SwizzleMode)> {
    let mut out = Vec::new();
    for major in [OperandMajor::K, OperandMajor::Mn] {
        for &mode in req.target.swizzles() {
            let Ok(text) = canonical_spec(major, mode, req.element_bytes, req.mn, req.k, 1) else { continue };
            let d = cktile::spec::parse(&text).unwrap();
            let readable = !req.mma
                || matches!(
                    judge(&Request {
                        operand: req.operand,
                        major: Some(major),
                        swizzle: Some(mode),
                        ..Request::new(&d, req.element_bytes, req.target)
                    }),
                    Ok(Readability::Readable(_))
                );
            let t = TmaRequest {
                swizzle: Some(mode.tma()),
                ..TmaRequest::new(&d, req.element_bytes, req.global_strides.to_vec(), req.target)
            };
            if readable && matches!(tma::judge(&t).unwrap(), TmaVerdict::Writes(_)) {
                out.push((major, mode));
            }
        }
    }
    out
}

#[test]
fn the_plan_is_every_canonical_layout_both_sides_accept_in_order() {
    let mut seen_empty = false;
    for target in [Target::Sm90, Target::Sm100] {
        for e in [1usize, 2, 4] {
            for (mn, k) in [(64usize, 64usize), (128, 32), (64, 128), (256, 64)] {
                for strides in [[4096i64, 1], [1, 4096]] {
                    for mma in [true, false] {
                        let mut req = HopperRequest::new(mn, k, e, target, strides);
                        req.mma = mma;
                        req.accesses.push(Pattern::from_access("stmatrix.x4").unwrap());
                        let got = plan(&req).unwrap();
                        let mut want = expected(&req);
                        let mut have: Vec<_> = got.iter().map(|c| (c.major, c.swizzle)).collect();
                        have.sort_by_key(|(m, s)| (*m == OperandMajor::Mn, s.name()));
                        want.sort_by_key(|(m, s)| (*m == OperandMajor::Mn, s.name()));
                        assert_eq!(have, want, "{target:?} e{e} {mn}x{k} {strides:?} mma {mma}");
                        seen_empty |= got.is_empty();
                        for c in &got {
                            let d = cktile::spec::parse(&c.spec).unwrap();
                            match analyze_tile_report(&d, e, &arch::SM90, req.accesses[0]) {
                                Ok(r) => {
                                    assert_eq!(c.accesses[0].1.as_ref().unwrap().0, r.counts.conflict_cycles);
                                    assert_eq!(
                                        (c.conflict_cycles, c.unserved),
                                        (u64::from(r.counts.conflict_cycles), 0)
                                    );
                                }
                                Err(e) => assert_eq!((c.accesses[0].1.as_ref().unwrap_err(), c.unserved), (&e, 1)),
                            }
                            assert_eq!(c.mma.is_some(), mma);
                        }
                        // Served first, then fewest conflict cycles, then fewest TMA copies.
                        for w in got.windows(2) {
                            let key = |c: &cktile::plan::hopper::HopperCandidate| {
                                (c.unserved, c.conflict_cycles, c.tma.copies.len())
                            };
                            assert!(key(&w[0]) <= key(&w[1]));
                        }
                    }
                }
            }
        }
    }
    // sm90 reads MN-major 8-bit operands nowhere: a column-major fp8 operand has no plan.
    assert!(seen_empty);
    let req = HopperRequest::new(128, 64, 1, Target::Sm90, [1, 4096]);
    assert!(plan(&req).unwrap().is_empty());
}

#[test]
fn an_access_of_the_other_vendor_is_refused_for_the_plan() {
    let mut req = HopperRequest::new(128, 64, 2, Target::Sm90, [4096, 1]);
    req.accesses.push(Pattern::from_access("mfma16x16x16:a").unwrap());
    assert!(plan(&req).unwrap_err().to_string().contains("mfma16"));
    assert!(
        plan(&HopperRequest::new(128, 64, 8, Target::Sm90, [4096, 1]))
            .unwrap_err()
            .to_string()
            .contains("element bytes")
    );
}
