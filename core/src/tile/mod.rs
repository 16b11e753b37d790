//! CK Tile's kernel half: tile windows, distributed tensors and the
//! functions that move tiles between memory and a thread's registers.
//!
//! - [`window`]: [`make_tile_window`] (a window of fixed lengths at an
//!   origin of a [`TensorView`](crate::typed::TensorView)),
//!   [`make_tile_window_with_distribution`] (with a tile distribution: which
//!   elements this thread moves), [`load_tile`], [`store_tile`] (and
//!   [`store_tile_with`], converting as it stores),
//!   [`move_tile_window`].
//! - [`tensor`]: [`StaticDistributedTensor`] (a thread's elements, in
//!   registers) with [`set_tile`], [`sweep_tile`] and the elementwise maps.
//! - [`plan`]: the compile-time [`AccessPlan`](plan::AccessPlan) of a
//!   window: CK's vector dimension and width
//!   (`get_vector_dim_y_scalar_per_vector`, from the distribution and the
//!   view's guaranteed vectors, never passed by hand), its access order and
//!   where each access lands.
//! - [`memory`]: what windows read and write ([`TileMemory`],
//!   [`TileMemoryMut`]): slices, arrays, `Vec`s, and [`SharedMemory`] for
//!   shared memory several windows write.
//! - [`buffer`]: [`GlobalMemory`], global memory as CK's buffer view
//!   reads it: on amdgcn through AMD buffer loads, whose hardware range
//!   check reads an access outside as zeros with no compare and branch.
//! - `gpu` (amdgcn and nvptx only): the block's shared memory
//!   (`workgroup_memory`, in the shared address space) and CK's
//!   `block_sync_lds`; with `cells` (a shared memory's cells, whose
//!   aligned base lets nvptx move a vector in one instruction) and
//!   `buffer`'s loads on amdgcn, the library's only `unsafe` code.
//!
//! Everything is `no_std`, and zero-sized where CK's is `constexpr`: a
//! distributed tensor is its elements, a window its view, its origin and
//! the thread's origin.
//!
//! ```
//! use cktile_core::prelude::*;
//! use cktile_core::tile::*;
//! use core::cell::Cell;
//! cktile_core::tile_distribution_encoding! {
//!     /// 8 lanes copy an 8 x 8 tile, one row each, 4 elements a vector.
//!     struct Rows { rs_lengths: [], hs_lengthss: [[8], [2, 4]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[0]], ys_to_rhs_major: [2, 2], ys_to_rhs_minor: [0, 1] }
//! }
//! // A 10 x 12 global matrix (4 contiguous elements guaranteed along rows) and an 8 x 8 shared tile.
//! let global: Vec<u32> = (0..120).collect();
//! let src = make_tensor_view(&global[..], make_naive_tensor_descriptor_with_vector((10usize, 12usize), (12usize, Number::<1>), Number::<4>, Number::<1>)?);
//! let lds = [const { Cell::new(0u32) }; 64];
//! let dst = make_tensor_view(SharedMemory::new(&lds), make_naive_tensor_descriptor_with_vector((Number::<8>, Number::<8>), (Number::<8>, Number::<1>), Number::<4>, Number::<1>)?);
//! for lane in 0..8 {
//!     let from = make_tile_window_with_distribution(src, (Number::<8>, Number::<8>), [2, 4], make_static_tile_distribution::<Rows>(), Partition::lane(lane))?;
//!     let mut to = make_tile_window_with_distribution(dst, (Number::<8>, Number::<8>), [0, 0], make_static_tile_distribution::<Rows>(), Partition::lane(lane))?;
//!     assert_eq!(from.plan().vector(), 4);
//!     store_tile(&mut to, &load_tile(&from));
//! }
//! // Shared element (m, k) is global (2 + m, 4 + k).
//! assert_eq!((lds[0].get(), lds[9].get()), (28, 41));
//! # Ok::<(), cktile_core::Error>(())
//! ```

pub mod buffer;
mod cells;
pub mod example;
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
pub mod gpu;
pub mod memory;
pub mod partition;
pub mod plan;
pub mod tensor;
pub mod transfer;
pub mod window;

pub use buffer::{BufferElement, BufferGfx9, BufferGfx10, BufferGfx11, GlobalAccess, GlobalMemory, Plain, Vectors};
pub use memory::{SharedMemory, TileMemory, TileMemoryMut};
pub use partition::Partition;
pub use tensor::{
    StaticDistributedTensor, YIndex, make_static_distributed_tensor, set_tile, sweep_tile, tile_elementwise_in,
    tile_elementwise_inout,
};
pub use transfer::{load_tile, load_tile_into, store_tile, store_tile_with};
pub use window::{
    MoveTileWindow, TileWindowWithStaticDistribution, TileWindowWithStaticLengths, TopIndex, make_tile_window,
    make_tile_window_with_distribution, move_tile_window,
};
