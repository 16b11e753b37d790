// A static descriptor built and used: compiles, runs and checks its offsets.
use cktile_core::prelude::*;

type Tile = cktile_core::typed::Packed<(Number<4>, Number<8>)>;
const CORNER: i64 = TensorDescriptor::<Tile>::DESCRIPTOR.calculate_offset(&[3, 7]);

fn main() {
    let d = make_naive_tensor_descriptor(
        (Number::<8>, Number::<128>, Number::<8>),
        (Number::<8>, Number::<64>, Number::<1>),
    )
    .unwrap();
    let d = transform_tensor_descriptor(
        d,
        (make_xor_transform((Number::<128>, Number::<8>)), make_pass_through_transform(Number::<8>)),
        (ids![1, 0], ids![2]),
        (ids![1, 0], ids![2]),
    )
    .unwrap();
    let d = transform_tensor_descriptor(
        d,
        (make_pass_through_transform(Number::<128>), make_merge_transform((Number::<8>, Number::<8>))),
        (ids![1], ids![0, 2]),
        (ids![0], ids![1]),
    )
    .unwrap();
    for m in 0..128 {
        for k in 0..64 {
            assert_eq!(d.calculate_offset([m, k]), 64 * m + 8 * ((k / 8) ^ (m % 8)) + k % 8);
        }
    }
    assert_eq!(CORNER, 31);
}
