//! The TMA swizzle modes by name: the names every command takes, the CUDA
//! driver's enumerators, and which target has which.

use crate::Error;
use crate::layouts::cute::Tma;
use crate::matrix_desc::Target;
use crate::matrix_desc::mode::named;

/// The modes' names, for messages and help.
pub const TMA_MODE_NAMES: &str = "none, 32b, 64b, 128b, 128b-atom-32b, 128b-atom-64b (the last two sm100 only)";

const ALL: [Tma; 6] = [Tma::None, Tma::B32, Tma::B64, Tma::B128, Tma::B128Atom32, Tma::B128Atom64];

/// The name every command takes for a mode.
///
/// ```
/// use cktile::layouts::cute::Tma;
/// assert_eq!(cktile::tma::tma_name(Tma::B128Atom32), "128b-atom-32b");
/// ```
pub const fn tma_name(mode: Tma) -> &'static str {
    match mode {
        Tma::None => "none",
        Tma::B32 => "32b",
        Tma::B64 => "64b",
        Tma::B128 => "128b",
        Tma::B128Atom32 => "128b-atom-32b",
        Tma::B128Atom64 => "128b-atom-64b",
    }
}

/// The CUDA driver's `CUtensorMapSwizzle` enumerator.
///
/// ```
/// use cktile::layouts::cute::Tma;
/// assert_eq!(cktile::tma::cuda_name(Tma::B64), "CU_TENSOR_MAP_SWIZZLE_64B");
/// ```
pub const fn cuda_name(mode: Tma) -> &'static str {
    match mode {
        Tma::None => "CU_TENSOR_MAP_SWIZZLE_NONE",
        Tma::B32 => "CU_TENSOR_MAP_SWIZZLE_32B",
        Tma::B64 => "CU_TENSOR_MAP_SWIZZLE_64B",
        Tma::B128 => "CU_TENSOR_MAP_SWIZZLE_128B",
        Tma::B128Atom32 => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
        Tma::B128Atom64 => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B",
    }
}

/// The mode called `name`; the error lists the names.
///
/// ```
/// use cktile::layouts::cute::Tma;
/// assert_eq!(cktile::tma::tma_by_name("64b")?, Tma::B64);
/// assert!(cktile::tma::tma_by_name("256b").is_err());
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn tma_by_name(name: &str) -> Result<Tma, Error> {
    named(&ALL, tma_name, name, TMA_MODE_NAMES)
}

/// The modes `target` has, widest first (the order [`judge`](super::judge) tries them).
///
/// ```
/// use cktile::matrix_desc::Target;
/// assert_eq!((cktile::tma::tma_modes(Target::Sm90).len(), cktile::tma::tma_modes(Target::Sm100).len()), (4, 6));
/// ```
pub const fn tma_modes(target: Target) -> &'static [Tma] {
    match target {
        Target::Sm90 => &[Tma::B128, Tma::B64, Tma::B32, Tma::None],
        Target::Sm100 => &[Tma::B128, Tma::B128Atom32, Tma::B128Atom64, Tma::B64, Tma::B32, Tma::None],
    }
}
