// A naive row-major 128 x 64 fp16 tile read by MFMA 16x16x16 with
// ds_read_b128 on gfx942: 4-way bank conflicts in every phase (the CK Tile
// docs' example). The static check fails the build and names the worst
// instruction and phase.
use cktile_analysis::analyzer::{Op, Pattern, arch};

const NAIVE: cktile_core::Descriptor = match cktile_core::Descriptor::packed(&[128, 64]) {
    Ok(d) => d,
    Err(e) => panic!("{}", e.summary()),
};

cktile_analysis::assert_conflict_free!(NAIVE, 2, arch::GFX942, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } });

fn main() {}
