//! A readable layout's shared-memory matrix descriptor as C++ constants
//! (`cktile matrix-desc --cxx`), for a CUDA kernel that issues `wgmma` or
//! `tcgen05.mma` itself.

use super::ident::check_name;
use crate::Error;
use crate::matrix_desc::Readable;
use alloc::format;
use alloc::string::String;
use core::fmt::Write;

/// The descriptor of a readable layout as C++ constants: the 64-bit value
/// with a start address of 0, the per-instruction start offsets, and how to
/// add the tile's shared-memory address. `name` must be a C identifier
/// ([`check_name`]).
///
/// ```
/// use cktile::matrix_desc::{judge, Request, Readability, Target};
/// let tile = cktile::layouts::resolve("triton-nvmma:swizzle=128,bits=16,rows=64")?;
/// let Readability::Readable(r) = judge(&Request::new(&tile, 2, Target::Sm90))? else { panic!() };
/// let code = cktile::codegen::matrix_desc::constants(&r, "kDescA")?;
/// assert!(code.contains("constexpr uint64_t kDescA = 0x4000004000010000ull;"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn constants(r: &Readable, name: &str) -> Result<String, Error> {
    check_name(name)?;
    let zero = crate::matrix_desc::DescriptorFields { start: 0, ..r.fields(0)? }.encode()?;
    let mut out = format!(
        "// {} {}-major operand, {} ({}-byte elements, LBO {} B, SBO {} B): OR in ((smem_address + start) >> 4) & 0x3FFF.\n",
        r.target.instruction(),
        r.major.name().to_uppercase(),
        r.swizzle.ptx_name(),
        r.element_bytes,
        r.lbo,
        r.sbo
    );
    let _ = writeln!(out, "constexpr uint64_t {name} = {zero:#018x}ull;");
    let starts: alloc::vec::Vec<String> = r.starts.iter().map(|s| format!("{s}u")).collect();
    let [rows, steps] = r.grid();
    let _ = writeln!(
        out,
        "// Start of each instruction's operand, bytes from the tile's base: [{rows}][{steps}] (MN block, K step)."
    );
    let _ = write!(out, "constexpr uint32_t {name}Starts[{}] = {{{}}};", r.starts.len(), starts.join(", "));
    Ok(out)
}
