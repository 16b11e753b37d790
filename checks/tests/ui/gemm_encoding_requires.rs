// A generic encoding's requirement (CK's static_assert), at an
// instantiation that breaks it: MPerBlock 100 is not a multiple of 16 lanes
// times 4 warps. Its thread buffer's size is computed, not written.
use cktile_core::ops::gemm::ADramDistribution;
use cktile_core::prelude::*;

fn main() {
    let _ = make_static_tile_distribution::<ADramDistribution<256, 100, 32, 8>>();
}
