//! A tensor map's fields as C++ constants (`cktile tma --cxx`), ready for
//! the CUDA driver's `cuTensorMapEncodeTiled`.

use super::ident::check_name;
use crate::Error;
use crate::tma::{TensorMap, cuda_name};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

fn list<T: core::fmt::Display>(xs: &[T]) -> String {
    let items: Vec<String> = xs.iter().map(|x| format!("{x}u")).collect();
    items.join(", ")
}

/// The map's arrays, innermost dimension first, as `std::uint64_t` and
/// `std::uint32_t` constants (the driver's `cuuint64_t` and `cuuint32_t`),
/// the swizzle and interleave enumerators in a comment beside the call they
/// go into, and each copy's box origin (as coordinates of the tile, innermost
/// first) and shared-memory offset. `name` must be a C identifier
/// ([`check_name`]).
///
/// ```
/// use cktile::tma::{judge, TmaRequest, TmaVerdict};
/// let tile = cktile::layouts::resolve("triton-nvmma:swizzle=128,bits=16,rows=128")?;
/// let TmaVerdict::Writes(m) = judge(&TmaRequest::new(&tile, 2, vec![4096, 1], cktile::matrix_desc::Target::Sm90))? else {
///     panic!()
/// };
/// let code = cktile::codegen::tma::constants(&m, "kTmaA")?;
/// assert!(code.contains("constexpr std::uint32_t kTmaABoxDim[2] = {64u, 128u};"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn constants(m: &TensorMap, name: &str) -> Result<String, Error> {
    check_name(name)?;
    let rank = m.dims.len();
    let mut out = format!(
        "// cuTensorMapEncodeTiled(&map, <{}-byte type>, {name}Rank, global_address, {name}GlobalDim, \
         {name}GlobalStrides, {name}BoxDim, {name}ElementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, {}, ...);\n",
        m.element_bytes,
        cuda_name(m.swizzle)
    );
    let _ = writeln!(out, "constexpr std::uint32_t {name}Rank = {rank}u;");
    let _ = writeln!(out, "constexpr std::uint64_t {name}GlobalDim[{rank}] = {{{}}};", list(&m.global_dim));
    let strides = if m.global_strides_bytes.is_empty() { String::from("0u") } else { list(&m.global_strides_bytes) };
    let _ = writeln!(out, "constexpr std::uint64_t {name}GlobalStrides[{}] = {{{strides}}};", rank.max(2) - 1);
    let _ = writeln!(out, "constexpr std::uint32_t {name}BoxDim[{rank}] = {{{}}};", list(&m.box_dim));
    let _ = writeln!(out, "constexpr std::uint32_t {name}ElementStrides[{rank}] = {{{}}};", list(&m.element_strides));
    let _ = writeln!(
        out,
        "// {} cop{}: each one's box origin (tile coordinates, innermost first) and shared-memory byte offset.",
        m.copies.len(),
        if m.copies.len() == 1 { "y" } else { "ies" }
    );
    let origins: Vec<String> = m
        .copies
        .iter()
        .map(|(origin, _)| format!("{{{}}}", list(&m.dims.iter().map(|&d| origin[d]).collect::<Vec<_>>())))
        .collect();
    let offsets: Vec<u64> = m.copies.iter().map(|c| c.1).collect();
    let n = m.copies.len();
    let _ = writeln!(out, "constexpr std::uint32_t {name}CopyOrigin[{n}][{rank}] = {{{}}};", origins.join(", "));
    let _ = write!(out, "constexpr std::uint32_t {name}CopyOffset[{n}] = {{{}}};", list(&offsets));
    Ok(out)
}
