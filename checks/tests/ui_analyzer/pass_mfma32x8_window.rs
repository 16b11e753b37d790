// CK's universal GEMM block reading its A operand for the fp16 MFMA 32x32x8
// (4 K values a lane, one ds_read_b64 each): 2 x 2 warps, each reading 2 x 4
// warp tiles of the 128 x 32 LDS block, 32 instructions. With KPack 4 (CK's
// MakeALdsBlockDescriptor, MLdsLayer 2) the reads are conflict-free, and the
// check of all 32 instructions fits rustc's default const-evaluation limit:
// no `long_running_const_eval` to allow (docs/src/performance.md, "Compile
// cost").
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

const KPACK4: cktile_core::Descriptor = match universal_a(128, 32, 4, 2, 32, UnmergeOrder::Fixed2025) {
    Ok(d) => d,
    Err(e) => panic!("{}", e.summary()),
};

cktile_analysis::assert_conflict_free!(KPACK4, 2, arch::GFX942, BLOCK, Op::DsRead { bits: 64 });

fn main() {}
