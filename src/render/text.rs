//! Plain-text rendering: offset grids, a coordinate's path through the
//! levels, and check reports.

use crate::Descriptor;
use crate::check::{Offsets, Report, Trace};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

/// A 2-D descriptor's offsets as a grid: one line per index of dimension 0,
/// one column per index of dimension 1. Padded (invalid) positions are shown
/// in brackets, explained by a legend line ([`INVALID_LEGEND`]) when there
/// are any. Other dimension counts print one `coordinate -> offset` line
/// per coordinate.
///
/// ```
/// let d = cktile::spec::parse("packed((2,3))")?;
/// let o = cktile::check::offsets(&d)?;
/// let text = cktile::render::text::offsets(&d, &o);
/// assert_eq!(text, "  d1: 0 1 2\nd0=0: 0 1 2\nd0=1: 3 4 5\n");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn offsets(desc: &Descriptor, offsets: &Offsets) -> String {
    let lengths = desc.lengths();
    let cell = |i: usize| {
        if offsets.valid[i] { format!("{}", offsets.offsets[i]) } else { format!("[{}]", offsets.offsets[i]) }
    };
    let mut out = String::new();
    if lengths.len() == 2 {
        let cols = lengths.get(1) as usize;
        let rows = lengths.get(0) as usize;
        let width =
            (0..offsets.offsets.len()).map(|i| cell(i).len()).chain([format!("{cols}").len()]).max().unwrap_or(1);
        let label = format!("d0={}:", rows.saturating_sub(1)).len();
        let _ = write!(out, "{:>label$}", "d1:");
        for c in 0..cols {
            let _ = write!(out, " {c:>width$}");
        }
        out.push('\n');
        for r in 0..rows {
            let _ = write!(out, "{:<label$}", format!("d0={r}:"));
            for c in 0..cols {
                let _ = write!(out, " {:>width$}", cell(r * cols + c));
            }
            out.push('\n');
        }
    } else {
        for i in 0..offsets.offsets.len() {
            let c = crate::check::coordinate(desc, i as u64);
            let _ = writeln!(out, "{c:?} -> {}", cell(i));
        }
    }
    if offsets.valid.contains(&false) {
        out.push_str(INVALID_LEGEND);
        out.push('\n');
    }
    out
}

/// The legend [`offsets`] prints under a grid with padded positions.
///
/// ```
/// let d = cktile::spec::parse("naive((3),(1)) | transform(pad(3,1,0) on [0] -> [0])")?;
/// let text = cktile::render::text::offsets(&d, &cktile::check::offsets(&d)?);
/// assert!(text.ends_with(&format!("{}\n", cktile::render::text::INVALID_LEGEND)));
/// assert!(text.starts_with("[0] -> [-1]\n"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub const INVALID_LEGEND: &str = "[x]: padding: the coordinate has no valid offset (CK Tile's \
                                  coordinate_has_valid_offset is false); x is the offset calculate_offset gives it, \
                                  not an element to access";

/// A coordinate's offset and validity, then its index at every level (as
/// `cktile offsets --at` prints it).
///
/// ```
/// let d = cktile::Descriptor::packed(&[4, 8])?;
/// let text = cktile::render::text::trace(&cktile::check::trace(&d, &[1, 2])?);
/// assert_eq!(text, "[1, 2] -> offset 10 (valid)\n  level 0: [1, 2]\n  level 1: [10]\n");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn trace(t: &Trace) -> String {
    let mut s = format!("{:?} -> offset {} ({})\n", t.coordinate, t.offset, if t.valid { "valid" } else { "padding" });
    for (i, level) in t.levels.iter().enumerate() {
        let _ = writeln!(s, "  level {i}: {level:?}");
    }
    s
}

/// Storage beyond the tile's elements, in percent of them (0 for an empty
/// tile): what the catalogue and the layout comparison print as overhead.
///
/// ```
/// assert_eq!(cktile::render::text::overhead_pct(64, 72), 12.5);
/// assert_eq!(cktile::render::text::overhead_pct(0, 8), 0.0);
/// ```
pub fn overhead_pct(elements: i64, element_space: i64) -> f64 {
    if elements > 0 { 100.0 * (element_space - elements) as f64 / elements as f64 } else { 0.0 }
}

fn list<T: core::fmt::Debug>(items: &[T]) -> String {
    items.iter().map(|x| format!("{x:?}")).collect::<Vec<_>>().join(", ")
}

/// A check report as readable text.
///
/// ```
/// let d = cktile::Descriptor::naive(&[2, 2], &[3, 1])?;
/// let r = cktile::check::check(&d)?;
/// let text = cktile::render::text::report(&r);
/// assert!(text.contains("injective:   yes"));
/// assert!(text.contains("surjective:  no (1 hole: 2)"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn report(r: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "lengths:     {:?} ({} coordinates, {} valid)", r.lengths, r.element_size, r.valid_count);
    let _ = writeln!(out, "element space size: {}", r.element_space_size);
    if r.injective {
        let _ = writeln!(out, "injective:   yes");
    } else {
        let _ =
            writeln!(out, "injective:   no ({} coordinates share an offset with an earlier one)", r.collision_count);
        for c in &r.collisions {
            let _ = writeln!(out, "  offset {}: {:?} and {:?}", c.offset, c.first, c.second);
        }
    }
    if r.surjective {
        let _ = writeln!(out, "surjective:  yes");
    } else {
        let s = if r.hole_count == 1 { "" } else { "s" };
        let more = if (r.holes.len() as u64) < r.hole_count { ", ..." } else { "" };
        let _ = writeln!(out, "surjective:  no ({} hole{s}: {}{more})", r.hole_count, list(&r.holes));
    }
    if r.outside_count > 0 {
        let (s, verb) = if r.outside_count == 1 { ("", "maps") } else { ("s", "map") };
        let more = if (r.outside.len() as u64) < r.outside_count { " (first listed)" } else { "" };
        let _ = writeln!(
            out,
            "outside the element space: {} valid coordinate{s} {verb} to offsets outside [0, {}){more}",
            r.outside_count, r.element_space_size
        );
        for (c, o) in &r.outside {
            let _ = writeln!(out, "  {c:?} -> {o}");
        }
    }
    let _ = writeln!(out, "bijective:   {}", if r.is_bijective() { "yes" } else { "no" });
    for (d, v) in r.vectors.iter().enumerate() {
        let show = |x: Option<i64>| x.map_or(String::from("unknown"), |x| format!("{x}"));
        let verified = r.verified.get(d).copied().unwrap_or(1);
        let _ = writeln!(
            out,
            "dim {d}: CK's guarantee: vector length {}, stride {}; verified contiguous: {verified}",
            show(v.length),
            show(v.stride)
        );
        let claim_break = r.claim_breaks.get(d).cloned().flatten();
        match (v.length, r.vector_unknown.get(d).copied().flatten(), claim_break) {
            (Some(ck), _, Some(b)) => {
                let at = |o: Option<i64>| o.map_or(String::from("padding"), |o| format!("offset {o}"));
                let why = match (b.offsets, v.stride) {
                    ((Some(_), Some(_)), Some(s)) => format!("not {s} apart"),
                    ((Some(_), Some(_)), None) => String::from("not as far apart as the run's first two"),
                    _ => String::from("padding and data in one vector"),
                };
                let _ = writeln!(
                    out,
                    "  CK's claim of {ck} is false for these offsets: {:?} ({}) and {:?} ({}) lie in one aligned run of \
                     {ck} along dim {d}, {why}; the widest power-of-two vector contiguous everywhere is {verified}",
                    b.first,
                    at(b.offsets.0),
                    b.second,
                    at(b.offsets.1)
                );
            }
            (Some(ck), _, None) if ck > verified => {
                let _ = writeln!(
                    out,
                    "  CK's claim of {ck} holds for these offsets (the verified length counts only contiguous runs whose length is a power of two \
                     dividing the dimension)"
                );
            }
            (None, Some(why), _) => {
                let _ = writeln!(out, "  CK's length is unknown: {}", why.explain());
            }
            _ => {}
        }
    }
    out
}
