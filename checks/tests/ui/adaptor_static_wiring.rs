// The merge reads hidden dimension 5, which no transform produces.
use cktile_core::prelude::*;

fn main() {
    let a = make_tensor_adaptor(
        (Number::<32>,),
        (make_unmerge_transform((Number::<4>, Number::<8>)), make_merge_transform((Number::<4>, Number::<8>))),
        (ids![0], ids![1, 5]),
        (ids![1, 2], ids![3]),
        ids![0],
        ids![3],
    );
    let _ = a;
}
