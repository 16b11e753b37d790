// One pass-through over a 2-D descriptor: old top dimension 1 is named by no id list.
use cktile_core::prelude::*;

fn main() {
    let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
    let d = transform_tensor_descriptor(d, (make_pass_through_transform(Number::<4>),), (ids![0],), (ids![0],));
    let _ = d;
}
