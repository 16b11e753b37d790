//! Planning: turning a layout into the loads that fill it.
//!
//! - [`dma`]: AMD's direct global-to-LDS loads (`global_load_lds`), which
//!   write each subgroup's data to consecutive LDS bytes, so a swizzled
//!   layout is honoured by gathering on the global side;
//! - [`hopper`]: Hopper and Blackwell tiles: the canonical layouts TMA
//!   writes and `wgmma` / `tcgen05.mma` reads, ranked by the bank conflicts
//!   of the kernel's other accesses (an epilogue's `stmatrix`).

pub mod dma;
pub mod hopper;
