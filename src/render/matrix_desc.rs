//! `cktile matrix-desc`'s text: the descriptor an instruction reads a layout
//! with, or where each mode breaks and the nearest canonical layout.

use crate::matrix_desc::{Readability, Readable, Unreadable};
use crate::{Error, Visible};
use alloc::format;
use alloc::string::String;
use core::fmt::Write;

/// The text of a verdict on the layout `source` (spec text or entry).
///
/// ```
/// use cktile::matrix_desc::{judge, Request, Target};
/// let tile = cktile::layouts::resolve("triton-nvmma:swizzle=64,bits=16,rows=64")?;
/// let text = cktile::render::matrix_desc::verdict(&judge(&Request::new(&tile, 2, Target::Sm90))?, "tile")?;
/// assert!(text.contains("64-Byte swizzle"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn verdict(v: &Readability, source: &str) -> Result<String, Error> {
    match v {
        Readability::Readable(r) => readable(r, source),
        Readability::Unreadable(u) => Ok(unreadable(u, source)),
    }
}

fn field_note(used: bool) -> &'static str {
    if used { "" } else { " (not read for this tile)" }
}

fn readable(r: &Readable, source: &str) -> Result<String, Error> {
    let [mn, k] = r.tile;
    let [imn, ik] = r.instruction;
    let [rows, steps] = r.grid();
    let mut out = format!(
        "{} ({}) reads `{}` as {}-major operand: {}\n",
        r.target.instruction(),
        r.target.name(),
        Visible(source),
        if r.major == crate::matrix_desc::OperandMajor::K { "a K" } else { "an MN" },
        r.swizzle.ptx_name()
    );
    let _ = writeln!(
        out,
        "  tile {mn} x {k} (MN x K) of {}-byte elements; each instruction reads {imn} x {ik}: {rows} x {steps} instructions",
        r.element_bytes
    );
    let code = r.swizzle.code(r.target).unwrap_or(0);
    let _ = writeln!(out, "  swizzle mode   {} (code {code})", r.swizzle.name());
    let _ = writeln!(out, "  LBO            {} bytes (field {}){}", r.lbo, r.lbo >> 4, field_note(r.lbo_used));
    let _ = writeln!(out, "  SBO            {} bytes (field {}){}", r.sbo, r.sbo >> 4, field_note(r.sbo_used));
    let _ = writeln!(
        out,
        "  base offset    0 (the tile's base {:#x} is a multiple of {} bytes)",
        r.base,
        r.swizzle.repeat()
    );
    if !r.also.is_empty() {
        let names: alloc::vec::Vec<&str> = r.also.iter().map(|s| s.name()).collect();
        let _ = writeln!(out, "  also read with {}", names.join(", "));
    }
    let _ = writeln!(out, "  start address of each instruction, bytes from the base (K steps across):");
    for row in 0..rows {
        let starts: alloc::vec::Vec<String> =
            r.starts[row * steps..(row + 1) * steps].iter().map(|s| format!("{s:>6}")).collect();
        let _ = writeln!(out, "    MN {:>4}..{:<4}{}", row * imn, (row + 1) * imn - 1, starts.join(""));
    }
    let _ = writeln!(out, "  descriptor of instruction (0, 0) at base {:#x}: {:#018x}", r.base, r.descriptor(0)?);
    let _ = write!(
        out,
        "Verified: the PTX ISA's canonical map, run on each instruction's descriptor, gives every one of the {} \
         elements the layout's byte.",
        r.elements
    );
    Ok(out)
}

fn unreadable(u: &Unreadable, source: &str) -> String {
    let mut out = format!(
        "{} ({}) cannot read `{}`: no canonical shared-memory layout matches it.\n",
        u.target.instruction(),
        u.target.name(),
        Visible(source)
    );
    for b in &u.breaks {
        let at = b.actual.map_or_else(|| String::from("a pad"), |x| format!("byte {x}"));
        let _ = writeln!(
            out,
            "  {}-major, {}: element {:?} is at {at}; {}",
            b.major.name().to_uppercase(),
            b.swizzle.name(),
            b.coordinate,
            b.rule
        );
    }
    match &u.nearest {
        Some((major, swizzle, text)) => {
            let _ = write!(
                out,
                "Nearest canonical layout ({}-major, {}), which it reads:\n  {text}",
                major.name().to_uppercase(),
                swizzle.name()
            );
        }
        None => out.push_str("No canonical layout has this tile's shape."),
    }
    out
}
