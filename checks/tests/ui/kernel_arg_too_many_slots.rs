// A chain with 18 runtime values (16 lengths and strides, 2 merge lengths) does not fit a KernelArg's 16 slots.
use cktile_core::prelude::*;

fn main() {
    let d = make_naive_tensor_descriptor(
        (1usize, 1usize, 1usize, 1usize, 1usize, 1usize, 1usize, 1usize),
        (1usize, 1usize, 1usize, 1usize, 1usize, 1usize, 1usize, 1usize),
    )
    .unwrap();
    let d = transform_tensor_descriptor(
        d,
        (
            make_merge_transform((1usize, 1usize)),
            make_pass_through_transform(Number::<1>),
            make_pass_through_transform(Number::<1>),
            make_pass_through_transform(Number::<1>),
            make_pass_through_transform(Number::<1>),
            make_pass_through_transform(Number::<1>),
            make_pass_through_transform(Number::<1>),
        ),
        (ids![0, 1], ids![2], ids![3], ids![4], ids![5], ids![6], ids![7]),
        (ids![0], ids![1], ids![2], ids![3], ids![4], ids![5], ids![6]),
    )
    .unwrap();
    let _ = d.to_kernel_arg();
}
