// DESCRIPTOR is a compile-time constant: a chain with a runtime length has none.
use cktile::prelude::*;

type Tile = cktile::typed::Packed<(Number<4>, usize)>;
const OFFSET: i64 = TensorDescriptor::<Tile>::DESCRIPTOR.calculate_offset(&[1, 1]);

fn main() {
    let _ = OFFSET;
}
