// Generic kernel code for 2-D descriptors, called with a 3-D one: a type
// error naming both ranks as array types, not as typenum integers.
use cktile_core::prelude::*;

fn corner<D: DescriptorOf<2>>(d: &D) -> i64 {
    let [m, n] = d.lengths();
    d.calculate_offset([m - 1, n - 1])
}

fn main() {
    let d = make_naive_tensor_descriptor_packed((Number::<2>, Number::<4>, Number::<8>)).unwrap();
    let _ = corner(&d);
}
