// A static naive descriptor whose element space passes 2^63.
use cktile_core::prelude::*;

fn main() {
    let d = make_naive_tensor_descriptor((Number::<{ 1 << 32 }>, Number::<4>), (Number::<{ 1 << 62 }>, Number::<1>));
    let _ = d;
}
