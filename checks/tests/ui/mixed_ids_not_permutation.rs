// The lengths are runtime values, but the ids are not: both pass-throughs
// read old top dimension 0, whatever the lengths, so this does not compile
// either (the structure of a chain is checked from its types).
use cktile_core::prelude::*;

fn main() {
    let (m, n) = (std::env::args().count(), 8usize);
    let d = make_naive_tensor_descriptor_packed((m, n)).unwrap();
    let d = transform_tensor_descriptor(
        d,
        (make_pass_through_transform(m), make_pass_through_transform(m)),
        (ids![0], ids![0]),
        (ids![0], ids![1]),
    );
    let _ = d;
}
