// A static merge of lengths 2^32 and 2^32: their product passes 2^63.
use cktile_core::prelude::*;

fn main() {
    let d = make_naive_tensor_descriptor((Number::<{ 1 << 32 }>, Number::<{ 1 << 32 }>), (Number::<1>, Number::<1>))
        .unwrap();
    let d = transform_tensor_descriptor(
        d,
        (make_merge_transform((Number::<{ 1 << 32 }>, Number::<{ 1 << 32 }>)),),
        (ids![0, 1],),
        (ids![0],),
    );
    let _ = d;
}
