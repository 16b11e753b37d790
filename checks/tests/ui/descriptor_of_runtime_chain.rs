// DESCRIPTOR is a compile-time constant: a chain with a runtime length has none.
use cktile_core::prelude::*;

type Tile = cktile_core::typed::Packed<(Number<4>, usize)>;
const OFFSET: i64 = TensorDescriptor::<Tile>::DESCRIPTOR.calculate_offset(&[1, 1]);

fn main() {
    let _ = OFFSET;
}
