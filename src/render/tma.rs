//! `cktile tma`'s text: the tensor map that writes a tile, or where each
//! swizzle mode breaks.

use crate::Visible;
use crate::tma::{TensorMap, TmaBreak, TmaVerdict, cuda_name, tma_name};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

/// The text of a verdict on the tile `source`.
///
/// ```
/// use cktile::tma::{judge, TmaRequest};
/// let tile = cktile::layouts::resolve("triton-nvmma:swizzle=64,bits=16,rows=64")?;
/// let v = judge(&TmaRequest::new(&tile, 2, vec![4096, 1], cktile::matrix_desc::Target::Sm90))?;
/// assert!(cktile::render::tma::verdict(&v, "tile").contains("CU_TENSOR_MAP_SWIZZLE_64B"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn verdict(v: &TmaVerdict, source: &str) -> String {
    match v {
        TmaVerdict::Writes(m) => writes(m, source),
        TmaVerdict::Refused(b) => refused(b, source),
    }
}

fn list<T: core::fmt::Display>(xs: &[T]) -> String {
    let items: Vec<String> = xs.iter().map(|x| format!("{x}")).collect();
    format!("{{{}}}", items.join(", "))
}

fn writes(m: &TensorMap, source: &str) -> String {
    let how = match m.copies.len() {
        1 => String::from("One cp.async.bulk.tensor writes"),
        n => format!("{n} cp.async.bulk.tensor copies of one box write"),
    };
    let mut out = format!("{how} `{}`: {} ({})\n", Visible(source), tma_name(m.swizzle), cuda_name(m.swizzle));
    let _ = writeln!(out, "  tensorRank        {}", m.dims.len());
    let _ = writeln!(out, "  tile dimensions   {} (innermost first)", list(&m.dims));
    let _ = writeln!(out, "  globalDim         {}", list(&m.global_dim));
    let _ = writeln!(out, "  globalStrides     {} bytes (dimensions 1 and up)", list(&m.global_strides_bytes));
    let _ = writeln!(out, "  boxDim            {} ({} bytes inner)", list(&m.box_dim), m.box_dim[0] * m.element_bytes);
    let _ = writeln!(out, "  elementStrides    {}", list(&m.element_strides));
    let _ = writeln!(out, "  interleave        CU_TENSOR_MAP_INTERLEAVE_NONE");
    let _ = writeln!(out, "  swizzle           {}", cuda_name(m.swizzle));
    let align = (m.swizzle.alignment() as u64).max(128);
    let _ = writeln!(out, "  shared box        {} bytes at base {:#x} (a multiple of {align})", m.bytes, m.base);
    if m.copies.len() > 1 {
        for (origin, offset) in &m.copies {
            let _ = writeln!(out, "  copy at tile {}  to shared byte {offset}", list(origin));
        }
    }
    if !m.also.is_empty() {
        let names: Vec<&str> = m.also.iter().map(|&s| tma_name(s)).collect();
        let _ = writeln!(out, "  also written with {}", names.join(", "));
    }
    let _ = write!(
        out,
        "Verified: the box{}, written densely in that order and swizzled on each shared-memory address, puts every \
         one of the {} elements at the tile's byte.",
        if m.copies.len() > 1 { "es" } else { "" },
        m.elements
    );
    out
}

fn refused(breaks: &[TmaBreak], source: &str) -> String {
    let mut out = format!("No single cp.async.bulk.tensor writes `{}`:\n", Visible(source));
    for b in breaks {
        let what = if b.coordinate.is_empty() {
            String::new()
        } else {
            let at = b.actual.map_or_else(|| String::from("a pad"), |x| format!("byte {x}"));
            format!("element {:?} is at {at}; ", b.coordinate)
        };
        let _ = writeln!(out, "  {}: {what}{}", tma_name(b.swizzle), b.rule);
    }
    out.truncate(out.trim_end().len());
    out
}
