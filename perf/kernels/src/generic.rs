//! The generic policy: CK's universal GEMM A LDS block for fp16, written
//! once over MPerBlock and KPerBlock as const generics (its derived lengths
//! declared with `derived_number!`), as a kernel author writes CK's
//! templated policy. It is the worked example's
//! (`cktile_checks::gemm::make_lds_block`, the block the CPU lane
//! simulator checks); the proof kernels instantiate it for two tile sizes.

pub use cktile_checks::gemm::make_lds_block as make_a_lds_desc;
