// The same tile in CK Tile's XOR-preshuffled layout passes the static check,
// for the MFMA reads and the ds_write_b128 row writes, and for the
// ds_write_b128 stores of CK's block DRAM distribution (a typed encoding).
use cktile_analysis::analyzer::{Op, Pattern, arch};
use cktile_analysis::layouts::ck::{UnmergeOrder, universal_a};

const GEMM_A: cktile_core::Descriptor = match universal_a(128, 64, 8, 2, 32, UnmergeOrder::Fixed2025) {
    Ok(d) => d,
    Err(e) => panic!("{}", e.summary()),
};

cktile_analysis::assert_conflict_free!(GEMM_A, 2, arch::GFX942, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } });
cktile_analysis::assert_conflict_free!(GEMM_A, 2, arch::GFX942, Pattern::Rows { op: Op::DsWrite { bits: 128 } });

cktile_core::tile_distribution_encoding! {
    /// CK's universal GEMM block DRAM distribution: 256 threads, 128 x 64, K1 = 8.
    struct GemmDram {
        rs_lengths: [1],
        hs_lengthss: [[4, 4, 8], [8, 8]],
        ps_to_rhss_major: [[1], [1, 2]],
        ps_to_rhss_minor: [[1], [2, 0]],
        ys_to_rhs_major: [1, 2],
        ys_to_rhs_minor: [0, 1],
    }
}

cktile_analysis::assert_conflict_free!(
    GEMM_A,
    2,
    arch::GFX942,
    <GemmDram as cktile_core::distribution::typed::TileEncoding>::ENCODING,
    Op::DsWrite { bits: 128 }
);

fn main() {}
