//! Errors name the value the caller gave, exactly (the class
//! "element bytes = -1"): a `usize` parameter's problem is
//! `ParameterProblem::invalid_usize`, which keeps a value above `i64::MAX`
//! in `InvalidUnsigned`, where a cast to `i64` printed `usize::MAX` as -1
//! and a saturating one as `i64::MAX`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::{Op, Pattern, arch};
use cktile::random::chain::ChainConfig;
use cktile::reports::analyze_tile_report;
use cktile::{Descriptor, ErrorKind, ParameterProblem};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

const MFMA16: Pattern = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };

#[test]
fn element_bytes_past_i64_are_named_as_given() {
    let d = Descriptor::packed(&[64, 64]).unwrap();
    for bytes in [usize::MAX, usize::MAX - 6, 1usize << 63, 3] {
        let e = analyze_tile_report(&d, bytes, &arch::GFX942, MFMA16).unwrap_err();
        let ErrorKind::Port(cktile_core::ErrorKind::Parameter(problem)) = *e.kind() else { panic!("{bytes}: {e}") };
        // The value as given: above i64::MAX in the unsigned variant, else in `Invalid`.
        match problem {
            ParameterProblem::Invalid { parameter, value, .. } => {
                assert_eq!((parameter, value as u64), ("element bytes", bytes as u64));
                assert!(bytes as u64 <= i64::MAX as u64);
            }
            ParameterProblem::InvalidUnsigned { parameter, value, .. } => {
                assert_eq!((parameter, value), ("element bytes", bytes as u64));
                assert!(bytes as u64 > i64::MAX as u64);
            }
            _ => panic!("{e}"),
        }
        assert!(e.to_string().contains(&format!("element bytes = {bytes};")), "{e}");
    }
}

proptest! {
    #[test]
    fn any_usize_element_size_that_is_refused_is_named(bytes in prop_oneof![any::<usize>(), (i64::MAX as usize)..]) {
        let d = Descriptor::packed(&[64, 64]).unwrap();
        if let Err(e) = analyze_tile_report(&d, bytes, &arch::GFX942, MFMA16) {
            prop_assert!(e.to_string().contains(&format!("= {bytes};")), "{}", e);
        }
    }
}

#[test]
fn a_chain_strategy_with_its_bounds_crossed_draws_chains() {
    // Public fields: a minimum above the maximum is taken as the maximum, and a maximum past what a
    // chain holds is capped, as `with_stages` does; neither panics.
    let mut runner = TestRunner::deterministic();
    for (min, max, most) in
        [(5, 2, 2), (0, usize::MAX, cktile::MAX_STAGES - 2), (usize::MAX, usize::MAX, cktile::MAX_STAGES - 2)]
    {
        let strategy =
            cktile::strategy::chain(ChainConfig { min_stages: min, max_stages: max, ..ChainConfig::default() });
        for _ in 0..16 {
            let d = strategy.new_tree(&mut runner).unwrap().current();
            assert!(d.transform_stages().len() <= most, "({min}, {max}): {} stages", d.transform_stages().len());
        }
    }
}
