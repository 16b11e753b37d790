// A broken GEMM A LDS block (M=128, K=64, KPack=8, the XOR form of the
// typed API's docs) whose base gives a row a stride of 32 elements where a
// row holds K = 64: rows overlap. The static check fails the build with the
// first two coordinates that share an offset.
use cktile_core::{Descriptor, Item, Transform};

const BROKEN: Descriptor = {
    let Ok(d) = Descriptor::naive(&[8, 128, 8], &[8, 32, 1]) else { panic!() };
    let Ok(xor) = Transform::xor(128, 8) else { panic!() };
    let Ok(pass) = Transform::pass_through(8) else { panic!() };
    let Ok(a) = Item::new(xor, &[1, 0], &[1, 0]) else { panic!() };
    let Ok(b) = Item::new(pass, &[2], &[2]) else { panic!() };
    let Ok(d) = d.transform(&[a, b]) else { panic!() };
    let Ok(rows) = Transform::pass_through(128) else { panic!() };
    let Ok(k) = Transform::merge(&[8, 8]) else { panic!() };
    let Ok(c) = Item::new(rows, &[1], &[0]) else { panic!() };
    let Ok(e) = Item::new(k, &[0, 2], &[1]) else { panic!() };
    let Ok(d) = d.transform(&[c, e]) else { panic!() };
    d
};

cktile_core::assert_bijective!(BROKEN);

fn main() {}
