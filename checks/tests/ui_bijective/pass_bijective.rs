// Bijective static layouts pass: CK Tile's GEMM A LDS block (2024 and 2025
// forms), a CuTe swizzle, and a typed descriptor's constant.
use cktile::layouts::{ck, cute};
use cktile::prelude::*;

const GEMM_A_2025: cktile::Descriptor = match ck::xor_lds(128, 32, 8, 2, ck::UnmergeOrder::Fixed2025) {
    Ok(d) => d,
    Err(e) => panic!("{}", e.summary()),
};
const GEMM_A_2024: cktile::Descriptor = match ck::xor_lds(128, 32, 8, 2, ck::UnmergeOrder::Original2024) {
    Ok(d) => d,
    Err(e) => panic!("{}", e.summary()),
};
const SWIZZLE: cktile::Descriptor = match cute::swizzled_tile(3, 3, 3, 8, 64, cute::Major::Row) {
    Ok(d) => d,
    Err(e) => panic!("{}", e.summary()),
};
type Packed = cktile::typed::Packed<(Number<4>, Number<8>)>;

cktile::assert_bijective!(GEMM_A_2025);
cktile::assert_bijective!(GEMM_A_2024);
cktile::assert_bijective!(SWIZZLE);
cktile::assert_bijective!(TensorDescriptor::<Packed>::DESCRIPTOR);

fn main() {}
