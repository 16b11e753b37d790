//! A direct-to-LDS load plan as text: the subgroups' slices and, per load,
//! what each lane gathers (as a formula in the lane `T` when it is affine).

use crate::plan::dma::{DmaPlan, Gather};
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

/// The plan as the command line prints it; `loads` caps the loads listed per
/// subgroup.
///
/// ```
/// use cktile::plan::dma::{DmaRequest, plan};
/// let tile = cktile::Descriptor::packed(&[16, 64]).unwrap();
/// let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![64, 1], arch: cktile::analyzer::arch::GFX942, workgroup: 256, wave: 64, width: 4 };
/// let text = cktile::render::plan::plan(&plan(&req)?, 8);
/// assert!(text.contains("load 2: LDS bytes [512, 768) lane T gathers (2, T)"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn plan(p: &DmaPlan, loads: usize) -> String {
    let slot = crate::plan::dma::lane_slot_bytes(p.width);
    let slots = if slot == p.width {
        String::new()
    } else {
        format!(", each lane's in a {slot}-byte slot whose last {} bytes stay padding", slot - p.width)
    };
    let mut s = format!(
        "{} subgroups of {} lanes; each fills {} contiguous LDS bytes with {} loads of {} bytes per lane{slots}\n",
        p.subgroups, p.wave, p.slice_bytes, p.loads_per_thread, p.width
    );
    for g in 0..p.subgroups {
        let r = p.slice(g);
        s.push_str(&format!("subgroup {g}: LDS bytes [{}, {})\n", r.start, r.end));
        for i in 0..p.loads_per_thread.min(loads) {
            let Some(lanes) = p.instruction(g, i) else { continue };
            let at = lanes.first().map_or(0, |l| l.lds_byte);
            let what = affine(lanes).unwrap_or_else(|| {
                let some: Vec<String> =
                    lanes.iter().take(4).enumerate().map(|(t, l)| format!("lane {t}: {:?}", l.coordinate)).collect();
                format!("{}, ... (not affine in T; --json lists every lane)", some.join(", "))
            });
            s.push_str(&format!(
                "  load {i}: LDS bytes [{at}, {}) lane T gathers {what}\n",
                at + (p.wave * slot) as u64
            ));
        }
        if p.loads_per_thread > loads {
            s.push_str(&format!("  ... {} more loads (--json lists them)\n", p.loads_per_thread - loads));
        }
    }
    s
}
