// merge((4, 9)) applied to dimensions of lengths (4, 8).
use cktile_core::prelude::*;

fn main() {
    let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
    let d =
        transform_tensor_descriptor(d, (make_merge_transform((Number::<4>, Number::<9>)),), (ids![0, 1],), (ids![0],));
    let _ = d;
}
