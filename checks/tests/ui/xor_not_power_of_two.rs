// xor((L0, L1)) with L1 = 6, not a power of two.
use cktile_core::prelude::*;

fn main() {
    let d = make_naive_tensor_descriptor_packed((Number::<8>, Number::<6>)).unwrap();
    let d =
        transform_tensor_descriptor(d, (make_xor_transform((Number::<8>, Number::<6>)),), (ids![0, 1],), (ids![0, 1],));
    let _ = d;
}
