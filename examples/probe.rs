use cktile::prelude::*;

#[inline(never)]
pub fn probe_static(m: i64, k: i64) -> i64 {
    let d = make_naive_tensor_descriptor((Number::<8>, Number::<128>, Number::<8>), (Number::<8>, Number::<64>, Number::<1>)).unwrap();
    let d = transform_tensor_descriptor(
        d,
        (make_xor_transform((Number::<128>, Number::<8>)), make_pass_through_transform(Number::<8>)),
        (ids![1, 0], ids![2]),
        (ids![1, 0], ids![2]),
    ).unwrap();
    let d = transform_tensor_descriptor(
        d,
        (make_pass_through_transform(Number::<128>), make_merge_transform((Number::<8>, Number::<8>))),
        (ids![1], ids![0, 2]),
        (ids![0], ids![1]),
    ).unwrap();
    d.calculate_offset([m, k])
}

#[inline(never)]
pub fn probe_hand(m: i64, k: i64) -> i64 {
    64 * m + 8 * ((k / 8) ^ (m % 8)) + k % 8
}

fn main() {
    let a = std::hint::black_box(3);
    println!("{} {}", probe_static(a, 9), probe_hand(a, 9));
}
