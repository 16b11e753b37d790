// Both pass-throughs read old top dimension 0: the lower ids are not a permutation.
use cktile_core::prelude::*;

fn main() {
    let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
    let d = transform_tensor_descriptor(
        d,
        (make_pass_through_transform(Number::<4>), make_pass_through_transform(Number::<4>)),
        (ids![0], ids![0]),
        (ids![0], ids![1]),
    );
    let _ = d;
}
