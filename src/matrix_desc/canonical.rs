//! The canonical layouts as cktile spec text: CuTe's GMMA / UMMA atom of a
//! mode (`GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom`, sm100's
//! `Layout_MN_SW128_32B_Atom`) tiled over an MN x K tile MN first, as
//! `tile_to_shape(atom, (MN, K))` does by default.
//!
//! A K-major atom is 8 rows of one swizzle span (`span / e` elements of K);
//! an MN-major atom is `G` rows of K (8; 4 for the 32-byte-atom mode) of one
//! span of MN. The element swizzle is the byte swizzle with its base lowered
//! by `log2 e` (CuTe's `upcast`).

use super::mode::{OperandMajor, SwizzleMode};
use crate::{Error, ParameterProblem};
use alloc::format;
use alloc::string::String;

fn bad(parameter: &'static str, value: usize, requirement: &'static str) -> Error {
    Error::parameter(ParameterProblem::invalid_usize("canonical layout", parameter, value, requirement))
}

/// The spec text of the canonical `major` / `swizzle` layout of an `mn` x
/// `k` tile of `element_bytes`-byte elements, with K as top dimension
/// `k_dim`. Refused: an element size other than 1, 2 or 4, a `k_dim` other
/// than 0 or 1, the 32-byte-atom mode K-major (CuTe: "invalid for
/// Major-K"), a tile that is not a whole number of atoms.
///
/// ```
/// use cktile::matrix_desc::{canonical_spec, OperandMajor, SwizzleMode};
/// let text = canonical_spec(OperandMajor::K, SwizzleMode::B128, 2, 16, 128, 1)?;
/// let d = cktile::spec::parse(&text)?;
/// // Row 1 starts 128 bytes on, its first 16-byte chunk swizzled to chunk 1.
/// assert_eq!(d.calculate_offset(&[1, 0]), (128 + 16) / 2);
/// // The second 64-element atom of K follows all 16 rows of the first.
/// assert_eq!(d.calculate_offset(&[0, 64]), 16 * 64);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn canonical_spec(
    major: OperandMajor,
    swizzle: SwizzleMode,
    element_bytes: usize,
    mn: usize,
    k: usize,
    k_dim: usize,
) -> Result<String, Error> {
    let log_e = match element_bytes {
        1 => 0,
        2 => 1,
        4 => 2,
        _ => return Err(bad("element bytes", element_bytes, "it must be 1, 2 or 4")),
    };
    if k_dim > 1 {
        return Err(bad("k dimension", k_dim, "it must be 0 or 1"));
    }
    if major == OperandMajor::K && swizzle == SwizzleMode::B128Base32 {
        return Err(bad("swizzle", 128, "the 32-byte-atom 128-byte swizzle is MN-major only"));
    }
    let run = swizzle.span() / element_bytes;
    // (MN, K) of one atom.
    let (atom_mn, atom_k) = match major {
        OperandMajor::K => (8, run),
        OperandMajor::Mn => (run, swizzle.k_group()),
    };
    if mn == 0 || !mn.is_multiple_of(atom_mn) {
        return Err(bad("M or N", mn, "it must be a positive multiple of the atom's M or N"));
    }
    if k == 0 || !k.is_multiple_of(atom_k) {
        return Err(bad("K", k, "it must be a positive multiple of the atom's K"));
    }
    let Some(elements) = mn.checked_mul(k) else {
        return Err(bad("M or N", mn, "the tile's size overflows"));
    };
    let (mn_id, k_id) = if k_dim == 1 { (0, 1) } else { (1, 0) };
    let mut text = format!("packed({elements})");
    if swizzle != SwizzleMode::None {
        let (b, m, s) = swizzle.xor();
        text += &format!(" | transform(swizzle({b},{},{s}) on [0] -> [0])", m - log_e);
    }
    // Offset digits, slowest first: the K atom, the MN atom, then inside the
    // atom its slow and its contiguous index.
    let (inner_slow, inner_fast) = match major {
        OperandMajor::K => (atom_mn, atom_k),
        OperandMajor::Mn => (atom_k, atom_mn),
    };
    text += &format!(
        " | transform(unmerge(({},{},{inner_slow},{inner_fast})) on [0] -> [0,1,2,3])",
        k / atom_k,
        mn / atom_mn
    );
    let (mn_inner, k_inner) = match major {
        OperandMajor::K => (2, 3),
        OperandMajor::Mn => (3, 2),
    };
    text += &format!(
        " | transform(merge(({},{atom_mn})) on [1,{mn_inner}] -> [{mn_id}], merge(({},{atom_k})) on [0,{k_inner}] -> [{k_id}])",
        mn / atom_mn,
        k / atom_k
    );
    Ok(text)
}
