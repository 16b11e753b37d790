// A block GEMM step unrolls at most MAX_WARP_GEMMS (256) warp GEMMs: 256 x
// 256 x 128 over 2 x 2 warps of the 16x16x16 MFMA is 8 x 8 warp tiles at 8
// K iterations, 512 of them.
use cktile_core::ops::gemm::{BlockWarps, Mfma16x16x16, UniversalGemmPolicy, for_each_warp_gemm};

type P = UniversalGemmPolicy<256, 256, 256, 128, BlockWarps<2, 2>, Mfma16x16x16>;

fn main() {
    let mut steps = 0;
    for_each_warp_gemm::<P>(|_| steps += 1);
    let _ = steps;
}
