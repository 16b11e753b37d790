//! Planning: turning a layout into the loads that fill it.
//!
//! - [`dma`]: AMD's direct global-to-LDS loads (`global_load_lds`), which
//!   write each subgroup's data to consecutive LDS bytes, so a swizzled
//!   layout is honoured by gathering on the global side.

pub mod dma;
