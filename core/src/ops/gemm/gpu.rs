//! The policy's partition read from the hardware ids, in a GPU kernel
//! (compiled for `amdgcn-amd-amdhsa` and `nvptx64-nvidia-cuda` only, as
//! [`tile::gpu`](crate::tile::gpu)).

use super::policy::GemmPolicy;
use crate::tile::Partition;

/// The calling thread's partition as policy `P`'s encodings count lanes
/// ([`GemmPolicy::WAVE`] lanes a warp), `None` in a thread past
/// [`GemmPolicy::BLOCK_SIZE`]: what a GEMM kernel passes to its windows
/// ([`OperandPath::with_partition`](super::OperandPath::with_partition),
/// [`block_window`](super::block_window)). On gfx942 it is the hardware's
/// warp (wave-uniform, a scalar register) and lane; on an NVIDIA GPU,
/// whose warps are 32 lanes, a 64-lane policy's partition is computed from
/// the thread id, so the block's threads cover the whole tile
/// ([`GemmPolicy::partition_of_thread`] on the host computes the same).
///
/// ```ignore
/// type P = cktile_core::ops::gemm::UniversalGemmPolicy<256, 128, 128, 32>;
/// let Some(p) = cktile_core::ops::gemm::get_policy_partition::<P>() else { return }; // launched with 256 threads
/// ```
#[inline(always)]
pub fn get_policy_partition<P: GemmPolicy>() -> Option<Partition> {
    let () = P::CHECK;
    crate::tile::gpu::partition_in_block(P::BLOCK_SIZE, P::WAVE)
}
