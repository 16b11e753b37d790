//! Whether one TMA copy (`cp.async.bulk.tensor`, Hopper and Blackwell)
//! writes a shared-memory layout exactly, and the tensor map that does it.
//!
//! A tensor map names a global tensor (rank up to 5, innermost dimension
//! first, the innermost contiguous) and a box of it. TMA writes the box to
//! shared memory densely, innermost dimension first, and applies the
//! swizzle mode to each shared-memory byte address. So the tile is the
//! box's image exactly when some order of its dimensions makes it dense
//! before the swizzle, the first of them is the global tensor's contiguous
//! dimension, and the map obeys the CUDA driver's rules
//! (`cuTensorMapEncodeTiled`):
//!
//! - each box dimension at most 256 elements, the inner one a multiple of
//!   16 bytes, and at most the swizzle's span when there is one;
//! - each global stride but the innermost a multiple of 16 bytes below
//!   2^40, each global dimension from 1 to 2^32;
//! - the shared-memory box 128-byte aligned, and aligned to the swizzle's
//!   pattern (1024 bytes for 128B) so that the pattern starts with it;
//! - the Blackwell modes (128B with 32- or 64-byte atoms) on sm100 only.
//!
//! [`judge`] tries every mode the target has, widest first, reads the
//! dimension order off the layout (the distance one step along each
//! dimension moves, before the swizzle), and compares every element with
//! the dense box; the verdict is that comparison. When no single copy
//! writes the tile, it looks for the fewest equal boxes along one dimension
//! that one map writes, each at its own shared-memory offset (CuTe's K-major
//! tiles wider than their swizzle's span, tiles of more than 256 rows). Element strides are 1 (a
//! tile that samples every other element of a dimension is written by a
//! map whose global stride says so) and the interleaved layouts
//! (`CU_TENSOR_MAP_INTERLEAVE_16B/32B`) are not modelled.
//!
//! ```
//! use cktile::tma::{judge, TmaRequest, TmaVerdict};
//! use cktile::matrix_desc::Target;
//! use cktile::layouts::cute::Tma;
//! // The NVMMA 128-byte A tile, loaded from a row-major M x 4096 fp16 matrix.
//! let tile = cktile::layouts::resolve("triton-nvmma:swizzle=128,bits=16,rows=128")?;
//! let req = TmaRequest::new(&tile, 2, vec![4096, 1], Target::Sm90);
//! let TmaVerdict::Writes(map) = judge(&req)? else { panic!() };
//! assert_eq!((map.swizzle, map.box_dim.clone(), map.global_strides_bytes.clone()), (Tma::B128, vec![64, 128], vec![8192]));
//! # Ok::<(), cktile::Error>(())
//! ```

mod judge;
mod modes;

pub use judge::{MAX_RANK, TensorMap, TmaBreak, TmaRequest, TmaVerdict, judge};
pub use modes::{TMA_MODE_NAMES, cuda_name, tma_by_name, tma_modes, tma_name};
