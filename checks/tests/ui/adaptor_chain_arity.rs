// The first adaptor has 2 top dimensions; the second has 1 bottom dimension.
use cktile_core::prelude::*;

fn main() {
    let split = make_single_stage_tensor_adaptor(
        (Number::<32>,),
        (make_unmerge_transform((Number::<4>, Number::<8>)),),
        (ids![0],),
        (ids![0, 1],),
    )
    .unwrap();
    let _ = chain_tensor_adaptors(split, split);
}
