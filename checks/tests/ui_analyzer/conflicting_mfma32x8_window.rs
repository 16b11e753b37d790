// The reads of pass_mfma32x8_window.rs on the LDS block of
// checks/src/gemm.rs (KPack 8, MLdsLayer 2), made for 16-byte reads: the
// 8-byte reads are 2-way conflicted (lanes 0 and 9 of phase 0 share banks 0
// and 1). The build fails within rustc's default const-evaluation limit,
// naming the instruction, the phase, the ways and the lanes.
use cktile_analysis::analyzer::{Op, arch};
use cktile_core::distribution::{Encoding, embed_encoding};
use cktile_analysis::layouts::ck::{UnmergeOrder, universal_a};

/// CK's block GEMM outer encoding of A: per warp 2 x 4 warp tiles (M, K),
/// 2 x 2 warps, the warps along N copies of those along M (R).
const OUTER: Encoding = match Encoding::new(&[2], &[&[2, 2], &[4]], &[&[1, 0]], &[&[1, 0]], &[1, 2], &[0, 0]) {
    Ok(e) => e,
    Err(e) => panic!("{}", e.summary()),
};

/// The MFMA 32x32x8 fp16 A operand: lane = (K group, row), 4 K values a lane.
const WARP: Encoding = match Encoding::new(&[], &[&[32], &[2, 4]], &[&[2, 1]], &[&[0, 0]], &[2], &[1]) {
    Ok(e) => e,
    Err(e) => panic!("{}", e.summary()),
};

/// CK's make_embed_tile_distribution_encoding(outer, warp).
const BLOCK: Encoding = match embed_encoding(&OUTER, &WARP) {
    Ok(e) => e,
    Err(e) => panic!("{}", e.summary()),
};

const KPACK8: cktile_core::Descriptor = match universal_a(128, 32, 8, 2, 32, UnmergeOrder::Fixed2025) {
    Ok(d) => d,
    Err(e) => panic!("{}", e.summary()),
};

cktile_analysis::assert_conflict_free!(KPACK8, 2, arch::GFX942, BLOCK, Op::DsRead { bits: 64 });

fn main() {}
