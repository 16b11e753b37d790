// Bijective static layouts pass: CK Tile's GEMM A LDS block (2024 and 2025
// forms), a CuTe swizzle, and a typed descriptor's constant.
use cktile_analysis::layouts::{ck, cute};
use cktile_core::prelude::*;

const GEMM_A_2025: cktile_core::Descriptor = match ck::xor_lds(128, 32, 8, 2, ck::UnmergeOrder::Fixed2025) {
    Ok(d) => d,
    Err(e) => panic!("{}", e.summary()),
};
const GEMM_A_2024: cktile_core::Descriptor = match ck::xor_lds(128, 32, 8, 2, ck::UnmergeOrder::Original2024) {
    Ok(d) => d,
    Err(e) => panic!("{}", e.summary()),
};
const SWIZZLE: cktile_core::Descriptor = match cute::swizzled_tile(3, 3, 3, 8, 64, cute::Major::Row) {
    Ok(d) => d,
    Err(e) => panic!("{}", e.summary()),
};
type Packed = cktile_core::typed::Packed<(Number<4>, Number<8>)>;

cktile_core::assert_bijective!(GEMM_A_2025);
cktile_core::assert_bijective!(GEMM_A_2024);
cktile_core::assert_bijective!(SWIZZLE);
cktile_core::assert_bijective!(TensorDescriptor::<Packed>::DESCRIPTOR);

fn main() {}
