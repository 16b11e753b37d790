// The row-major 16 x 32 fp16 tile under the 16x16x32 MFMA's A reads, issued
// by CK's tile window over the warp distribution with ds_read_b128: rows r
// and r + 2 share their banks, so the build fails.
use cktile_analysis::analyzer::{Op, arch};
use cktile_core::distribution::typed::TileEncoding;

cktile_core::tile_distribution_encoding! {
    struct MfmaA16x32 {
        rs_lengths: [],
        hs_lengthss: [[16], [4, 8]],
        ps_to_rhss_major: [[2, 1]],
        ps_to_rhss_minor: [[0, 0]],
        ys_to_rhs_major: [2],
        ys_to_rhs_minor: [1],
    }
}

const ROW_MAJOR: cktile_core::Descriptor = match cktile_core::Descriptor::packed(&[16, 32]) {
    Ok(d) => d,
    Err(e) => panic!("{}", e.summary()),
};

cktile_analysis::assert_conflict_free!(ROW_MAJOR, 2, arch::GFX942, MfmaA16x32::ENCODING, Op::DsRead { bits: 128 });

fn main() {}
