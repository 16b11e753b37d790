//! Whether a tensor-core instruction can read a layout straight from shared
//! memory, and the descriptor that tells it how: Hopper's `wgmma.mma_async`
//! (sm90, the PTX ISA's *matrix descriptor*) and Blackwell's `tcgen05.mma`
//! (sm100, its *shared memory descriptor*).
//!
//! Both instructions read an operand tile through a 64-bit descriptor: a
//! start address, a leading- and a stride-dimension byte offset (LBO, SBO),
//! a base offset and a swizzle mode. The descriptor names one of the PTX
//! ISA's *canonical* layouts (no swizzle, 32-, 64- or 128-byte swizzle, and
//! on sm100 the 128-byte swizzle with 32-byte atoms); a layout that is none
//! of them is silently misread. [`judge()`] decides, for any layout cktile
//! reads, whether one descriptor per instruction (the same LBO, SBO and mode,
//! only the start address moving, as CuTe's `DescriptorIterator` and
//! Triton's lowering do) reads every element where the layout stores it,
//! and either gives the fields and the 64-bit values or names, for every
//! mode, the first element that breaks it and the canonical layout nearest
//! to the one given.
//!
//! - [`mode`]: the vocabulary: targets, operand major-ness, swizzle modes and
//!   their field codes;
//! - [`fields`]: the descriptor's fields, their 64-bit encoding and decoding,
//!   and the element-to-address map the PTX ISA defines for them (the one
//!   definition every verdict is checked against);
//! - [`judge`](mod@judge): the decision, element by element;
//! - [`canonical`]: the canonical layouts themselves, as cktile spec text
//!   (CuTe's GMMA atoms tiled over a tile, MN first), which the refusals
//!   offer and the tests read.
//!
//! Sources: the PTX ISA ("Matrix Descriptor Format" of `wgmma`, "Shared
//! Memory Descriptor" of `tcgen05`, and their shared-memory layout sections);
//! CUTLASS `include/cute/arch/mma_sm90_desc.hpp` and `mma_sm100_desc.hpp`
//! (the bit fields), `include/cute/atom/mma_traits_sm90_gmma.hpp` and
//! `mma_traits_sm100.hpp` (`make_gmma_desc` / `make_umma_desc`: the canonical
//! forms and how LBO and SBO are read off them).
//!
//! ```
//! use cktile::matrix_desc::{judge, OperandMajor, Request, SwizzleMode, Target, Readability};
//! // Triton's NVMMA 128-byte layout of a 64 x 64 fp16 A tile.
//! let tile = cktile::layouts::resolve("triton-nvmma:swizzle=128,bits=16,rows=64")?;
//! let Readability::Readable(r) = judge(&Request::new(&tile, 2, Target::Sm90))? else { panic!() };
//! assert_eq!((r.major, r.swizzle, r.sbo, r.starts[..4].to_vec()), (OperandMajor::K, SwizzleMode::B128, 1024, vec![0, 32, 64, 96]));
//! assert_eq!(r.descriptor(0)?, 0x4000_0040_0001_0000);
//! # Ok::<(), cktile::Error>(())
//! ```

pub mod canonical;
pub mod fields;
pub mod judge;
pub mod mode;

pub use canonical::canonical_spec;
pub use fields::DescriptorFields;
pub use judge::{Break, MAX_ELEMENTS, Readability, Readable, Request, Unreadable, judge};
pub use mode::{MAJOR_NAMES, OPERAND_NAMES, Operand, OperandMajor, SWIZZLE_NAMES, SwizzleMode, TARGET_NAMES, Target};
