//! `block_window` ties the block encoding to the side by type: on a square
//! tile (A's and B's LDS blocks of one type), B's block window is not a
//! window of A's block distribution, so B's LDS block cannot be read with
//! `P::ABlock` (which read A's rows).
use cktile_core::ops::gemm::{BlockWindow, OperandA, OperandB, UniversalGemmPolicy, block_window};
use cktile_core::tile::{Partition, SharedMemory};

type P = UniversalGemmPolicy<256, 128, 128, 32>;

fn main() {
    let lds: [core::cell::Cell<u16>; 0] = [];
    let a_reads: Result<BlockWindow<'_, u16, P, OperandA>, _> =
        block_window::<u16, P, OperandB>(SharedMemory::new(&lds), Partition::default());
    let _ = a_reads;
}
