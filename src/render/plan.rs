//! A direct-to-LDS load plan as text: the subgroups' slices and, per load,
//! its `m0` write and immediate and what each lane gathers (as a formula in
//! the lane `T` when it is affine).

use crate::plan::dma::{Addressing, DmaPlan, Gather, Issue, M0Write, Scheme};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// One term of an affine coordinate: `base + step * T`.
fn term(base: i64, step: i64) -> String {
    match (base, step) {
        (b, 0) => format!("{b}"),
        (0, 1) => "T".into(),
        (0, s) => format!("{s}T"),
        (b, 1) => format!("{b} + T"),
        (b, s) => format!("{b} + {s}T"),
    }
}

/// The lanes' coordinates as `(a + bT, ...)` when they are affine in the lane.
fn affine(lanes: &[Gather]) -> Option<String> {
    let first = &lanes.first()?.coordinate;
    let step: Vec<i64> = match lanes.get(1) {
        Some(g) => g.coordinate.iter().zip(first).map(|(a, b)| a - b).collect(),
        None => alloc::vec![0; first.len()],
    };
    let fits = lanes
        .iter()
        .enumerate()
        .all(|(t, g)| g.coordinate.iter().zip(first).zip(&step).all(|((&c, &b), &s)| c == b + s * t as i64));
    fits.then(|| {
        let terms: Vec<String> = first.iter().zip(&step).map(|(&b, &s)| term(b, s)).collect();
        format!("({})", terms.join(", "))
    })
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
    let slots = if slot == p.width {
        String::new()
    } else {
        format!(", each lane's in a {slot}-byte slot whose last {} bytes stay padding", slot - p.width)
    };
    let mut s = format!(
        "{} subgroup{} of {} lanes take{} the chunks {}; each writes {} LDS bytes with {} loads of {} bytes per \
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
