// Two lengths and one stride: not a naive descriptor.
use cktile_core::prelude::*;

fn main() {
    let d = make_naive_tensor_descriptor((Number::<4>, Number::<8>), (Number::<8>,));
    let _ = d;
}
