// merge takes two lower dimensions but is given one lower id.
use cktile_core::prelude::*;

fn main() {
    let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
    let d = transform_tensor_descriptor(d, (make_merge_transform((Number::<4>, Number::<8>)),), (ids![0],), (ids![0],));
    let _ = d;
}
