//! Planning: turning a layout into the loads that fill it.
//!
//! - [`async_lds`]: gfx1250's asynchronous global-to-LDS loads, whose lanes
//!   each give their own LDS address, so any layout with contiguous lane
//!   vectors loads;
//! - [`dma`]: AMD's direct global-to-LDS loads (`global_load_lds`), which
//!   write each subgroup's data to consecutive LDS bytes, so a swizzled
//!   layout is honoured by gathering on the global side;
//! - [`hopper`]: Hopper and Blackwell tiles: the canonical layouts TMA
//!   writes and `wgmma` / `tcgen05.mma` reads, ranked by the bank conflicts
//!   of the kernel's other accesses (an epilogue's `stmatrix`);
//! - [`tdm`]: gfx1250's Tensor Data Mover (`tensor_load_to_lds`), which
//!   writes a tile as one stream with hardware row padding, so a layout is
//!   loadable exactly when it is that padded stream.

pub mod async_lds;
pub mod dma;
pub mod hopper;
pub mod tdm;
