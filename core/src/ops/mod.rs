//! CK Tile's operators (`ck_tile/ops`) written with cktile's descriptors,
//! distributions and tile windows, as CK's policies write them and generic
//! over the same sizes: [`gemm`], the universal GEMM's policy (its DRAM
//! and warp distributions, its XOR LDS blocks, its block GEMM's embedded
//! operand distributions) and its operands' data paths.
//!
//! ```
//! use cktile_core::distribution::typed::TileEncoding;
//! use cktile_core::ops::gemm::{GemmPolicy, UniversalGemmPolicy};
//! // CK's universal GEMM for a 128 x 128 x 32 block tile on 256 threads, in one line.
//! type P = UniversalGemmPolicy<256, 128, 128, 32>;
//! let dram = <P as GemmPolicy>::ADram::ENCODING;
//! assert_eq!(dram, cktile_core::distribution::catalogue::gemm_dram(256, 128, 32, 8)?);
//! # Ok::<(), cktile_core::Error>(())
//! ```

pub mod gemm;
