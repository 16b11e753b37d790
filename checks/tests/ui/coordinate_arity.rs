// A 3-D coordinate for a 2-D descriptor: a type error.
use cktile_core::prelude::*;

fn main() {
    let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
    let _ = d.calculate_offset([1, 2, 3]);
}
