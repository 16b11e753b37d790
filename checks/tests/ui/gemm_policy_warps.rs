// The universal GEMM policy's default 2 x 2 warps are 256 threads: a
// 128-thread block cannot hold them (CK: kBlockSize = NumWarps * 64).
use cktile_core::ops::gemm::{OperandA, OperandPath, UniversalGemmPolicy};
use cktile_core::tile::SharedMemory;
use core::cell::Cell;

type P = UniversalGemmPolicy<128, 64, 64, 32>;

fn main() {
    let a = [0u16; 64 * 32];
    let lds = [const { Cell::new(0u16) }; 64 * 32];
    let _ = OperandPath::<u16, P, OperandA>::new(OperandA, &a, 64, 32, 32, 0, SharedMemory::new(&lds), 0);
}
