// Generic code for adaptors from 1 to 3 dimensions, called with one from
// 1 to 2: a type error naming the bottom ranks as array types.
use cktile_core::prelude::*;

fn first<A: AdaptorOf<1, 3>>(a: &A) -> [i64; 3] {
    a.calculate_bottom_index([0])
}

fn main() {
    let a = make_single_stage_tensor_adaptor(
        (Number::<4>, Number::<8>),
        (make_merge_transform((Number::<4>, Number::<8>)),),
        (ids![0, 1],),
        (ids![0],),
    )
    .unwrap();
    let _ = first(&a);
}
