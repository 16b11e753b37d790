// A static zero length.
use cktile_core::prelude::*;

fn main() {
    let d = make_naive_tensor_descriptor((Number::<4>, Number::<0>), (Number::<1>, Number::<1>));
    let _ = d;
}
