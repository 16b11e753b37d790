//! A direct-to-LDS load plan as text: the subgroups' slices and, per load,
//! its `m0` write and immediate and what each lane gathers (as a formula in
//! the lane `T` when it is affine, in `T / p` and `T % p` when a load spans
//! rows of `p` lanes).

use crate::plan::dma::{Addressing, DmaPlan, Gather, Issue, M0Write, Scheme};
use alloc::format;
use alloc::string::String;
use alloc::string::ToString;
use alloc::vec::Vec;
use core::fmt::Write;

/// One coordinate as a formula in the lane: `base + a (T / p) + b (T % p)`,
/// the quotient term left out when `p` is the whole wave (plain `T`).
fn term(base: i64, a: i64, b: i64, p: usize, whole: bool) -> String {
    let mut parts: Vec<String> = Vec::new();
    if base != 0 {
        parts.push(format!("{base}"));
    }
    let lane = if whole { String::from("T") } else { format!("(T % {p})") };
    for (k, x) in [(a, format!("(T / {p})")), (b, lane)] {
        match k {
            0 => {}
            1 => parts.push(x),
            k => parts.push(format!("{k}{x}")),
        }
    }
    if parts.is_empty() { "0".into() } else { parts.join(" + ") }
}

/// The lanes' coordinates as formulas in the lane `T`: affine in `T`, or
/// affine in `T / p` and `T % p` for the largest power of two `p` that
/// makes them so (a load spanning several rows), `None` when no split does.
fn affine(lanes: &[Gather]) -> Option<String> {
    let first = &lanes.first()?.coordinate;
    let mut p = lanes.len().next_power_of_two();
    while p >= 1 {
        let at = |t: usize| lanes.get(t).map(|g| &g.coordinate);
        // Steps along T % p (lane 1) and along T / p (lane p).
        let step = |t: usize| -> Vec<i64> {
            at(t).map_or_else(|| alloc::vec![0; first.len()], |c| c.iter().zip(first).map(|(x, y)| x - y).collect())
        };
        let (b, a) = (if p > 1 { step(1) } else { alloc::vec![0; first.len()] }, step(p));
        let fits = lanes.iter().enumerate().all(|(t, g)| {
            let (q, r) = ((t / p) as i64, (t % p) as i64);
            g.coordinate.iter().enumerate().all(|(d, &c)| c == first[d] + a[d] * q + b[d] * r)
        });
        if fits {
            let whole = p >= lanes.len();
            let terms: Vec<String> = (0..first.len()).map(|d| term(first[d], a[d], b[d], p, whole)).collect();
            return Some(format!("({})", terms.join(", ")));
        }
        p /= 2;
    }
    None
}

/// What a load's scalar write to `m0` is, as assembly.
fn m0_text(issue: &Issue) -> String {
    match issue.write {
        M0Write::Set(v) => format!("s_mov_b32 m0, {v}"),
        M0Write::Add(v) => format!("s_add_u32 m0, m0, {v}"),
        M0Write::Keep => format!("(m0 = {})", issue.m0),
    }
}

/// How the addressing sets `m0`, in a sentence.
fn scheme_text(a: &Addressing, p: &DmaPlan) -> String {
    match a.scheme {
        Scheme::Ck => {
            let step = a.issues.get(1).map_or(0, |i| match i.write {
                M0Write::Add(v) => v,
                _ => 0,
            });
            let wave = match (a.issue(0, 0), a.issue(1, 0)) {
                (Some(x), Some(y)) => y.m0.saturating_sub(x.m0),
                _ => 0,
            };
            format!(
                "m0 as CK's async_load_raw sets it: size_per_buf + size_per_wave * warp once (size_per_wave = \
                 {wave}), then s_add_u32 by size_per_issue = {step} between loads, immediate 0"
            )
        }
        Scheme::Immediate => {
            let (lo, hi) = a.form.offset_range();
            let most = (0..p.subgroups).map(|g| a.m0_writes(g)).max().unwrap_or(0);
            format!(
                "m0 once per window of loads, each load's distance in its immediate ({lo} to \
                 {hi}): at most {most} m0 write{} per subgroup",
                if most == 1 { "" } else { "s" }
            )
        }
    }
}

/// The plan and its instructions as the command line prints them; `loads`
/// caps the loads listed per subgroup. LDS bytes are the tile's; `m0` holds
/// absolute addresses (the tile starting at `a.lds_base`).
///
/// ```
/// use cktile::plan::dma::{DmaRequest, Form, Scheme, address, plan};
/// let tile = cktile::Descriptor::packed(&[16, 64]).unwrap();
/// let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![64, 1], arch: cktile::analyzer::arch::GFX942, workgroup: 256, wave: 64, width: 4 };
/// let p = plan(&req)?;
/// let a = address(&p, &req.arch, Form::Buffer, Scheme::Ck, 0)?;
/// let text = cktile::render::plan::plan(&p, &a, 8);
/// assert!(text.contains("load 2: s_add_u32 m0, m0, 256; buffer_load_dword ... lds offset:0 -> LDS bytes [512, 768), lane T gathers (2, T)"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn plan(p: &DmaPlan, a: &Addressing, loads: usize) -> String {
    let slot = crate::plan::dma::lane_slot_bytes(p.width);
    let gap = slot - p.width;
    let slots = match (gap, p.width < 4) {
        (0, _) => String::new(),
        // 1- and 2-byte loads write the rest of their dword with zeros; the 12-byte load leaves it.
        (_, true) => format!(
            ", each lane's in a {slot}-byte slot whose last {gap} byte{} get zeros (padding in the layout)",
            plural(gap)
        ),
        (_, false) => format!(", each lane's in a {slot}-byte slot whose last {gap} byte{} stay padding", plural(gap)),
    };
    let mut s = format!(
        "{} subgroup{} of {} lanes take{} the chunks {}; each writes {} LDS bytes with {} loads of {} byte{} per \
         lane{slots}\n\
         Instructions: {}, {}; the tile starts at LDS byte {}\n",
        p.subgroups,
        if p.subgroups == 1 { "" } else { "s" },
        p.wave,
        if p.subgroups == 1 { "s" } else { "" },
        p.order.name(),
        p.slice_bytes,
        p.loads_per_thread,
        p.width,
        plural(p.width),
        a.form.mnemonic(p.width),
        scheme_text(a, p),
        a.lds_base
    );
    for g in 0..p.subgroups {
        match p.slice(g) {
            Some(r) => s.push_str(&format!("subgroup {g}: LDS bytes [{}, {})\n", r.start, r.end)),
            None => s.push_str(&format!("subgroup {g}:\n")),
        }
        for i in 0..p.loads_per_thread.min(loads) {
            let (Some(lanes), Some(issue)) = (p.instruction(g, i), a.issue(g, i)) else { continue };
            let at = lanes.first().map_or(0, |l| l.lds_byte);
            let what = affine(lanes).unwrap_or_else(|| {
                let some: Vec<String> =
                    lanes.iter().take(4).enumerate().map(|(t, l)| format!("lane {t}: {:?}", l.coordinate)).collect();
                format!("{}, ... (not affine in T; --json lists every lane)", some.join(", "))
            });
            s.push_str(&format!(
                "  load {i}: {}; {} offset:{} -> LDS bytes [{at}, {}), lane T gathers {what}\n",
                m0_text(issue),
                a.form.mnemonic(p.width),
                issue.offset,
                at + (p.wave * slot) as u64
            ));
        }
        if p.loads_per_thread > loads {
            s.push_str(&format!("  ... {} more loads (--json lists them)\n", p.loads_per_thread - loads));
        }
    }
    s
}

/// `"s"` unless `n` is 1.
const fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `cktile hopper-plan`'s text: the first `top` candidates of a Hopper or
/// Blackwell tile plan, each with its swizzle, TMA box and copies, MMA
/// descriptor fields, access conflicts and spec.
///
/// ```
/// use cktile::matrix_desc::Target;
/// use cktile::plan::hopper::{plan, HopperRequest};
/// let c = plan(&HopperRequest::new(128, 64, 2, Target::Sm90, [4096, 1]))?;
/// assert!(cktile::render::plan::hopper(&c, 3).starts_with("1. K-major, 128b"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn hopper(candidates: &[crate::plan::hopper::HopperCandidate], top: usize) -> String {
    use crate::tma::tma_name;
    if candidates.is_empty() {
        return String::from(
            "No canonical layout of this tile is both written by TMA from this global tensor and read by the MMA \
             (a copy does not transpose: the tile's contiguous dimension must be the tensor's).",
        );
    }
    let mut out = String::new();
    for (i, c) in candidates.iter().take(top.max(1)).enumerate() {
        let box_dim: Vec<String> = c.tma.box_dim.iter().map(|b| b.to_string()).collect();
        let _ = write!(
            out,
            "{}. {}-major, {}: TMA {} cop{} of box {{{}}} ({})",
            i + 1,
            c.major.name().to_uppercase(),
            c.swizzle.name(),
            c.tma.copies.len(),
            if c.tma.copies.len() == 1 { "y" } else { "ies" },
            box_dim.join(", "),
            tma_name(c.tma.swizzle)
        );
        if let Some(r) = &c.mma {
            let _ = write!(out, "; {} LBO {} SBO {}", r.target.instruction(), r.lbo, r.sbo);
        }
        out.push('\n');
        for (p, counted) in &c.accesses {
            let _ = match counted {
                Ok((cycles, ways)) => {
                    writeln!(out, "   {}: {cycles} conflict cycles, worst {ways}-way", p.access_name())
                }
                Err(e) => writeln!(out, "   {}: cannot be issued on this layout: {e}", p.access_name()),
            };
        }
        let _ = writeln!(out, "   {}", c.spec);
    }
    if candidates.len() > top {
        let _ = write!(out, "({} more)", candidates.len() - top);
    }
    out.truncate(out.trim_end().len());
    out
}
