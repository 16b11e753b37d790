// The same tile in CK Tile's XOR-preshuffled layout passes the static check,
// for the MFMA reads and the ds_write_b128 row writes.
use cktile::analyzer::{Op, Pattern, arch};
use cktile::layouts::ck::{UnmergeOrder, universal_a};

const GEMM_A: cktile::Descriptor = match universal_a(128, 64, 8, 2, 32, UnmergeOrder::Fixed2025) {
    Ok(d) => d,
    Err(e) => panic!("{}", e.summary()),
};

cktile::assert_conflict_free!(GEMM_A, 2, arch::GFX942, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } });
cktile::assert_conflict_free!(GEMM_A, 2, arch::GFX942, Pattern::Rows { op: Op::DsWrite { bits: 128 } });

fn main() {}
