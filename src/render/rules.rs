//! The rule table for people: every (chip, instruction) with its bank
//! count, phases and provenance, as `cktile rules` prints it and the banks
//! chapter of the guide includes it.

use crate::analyzer::op::all_ops;
use crate::analyzer::rules::{Grouping, rule};
use crate::analyzer::{ARCHS, Arch, Op};
use crate::render::bank::lane_ranges;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// One row of the table.
///
/// ```
/// use cktile::analyzer::arch;
/// let rows = cktile::render::rules::rows(Some(&arch::GFX950));
/// let b128 = rows.iter().find(|r| r.op == "ds_read_b128").unwrap();
/// assert_eq!((b128.banks, b128.phases.as_str()), (64, "0-3, 12-15, 20-27 | 32-35, 44-47, 52-59 | 4-11, 16-19, 28-31 | 36-43, 48-51, 60-63"));
/// assert_eq!(b128.kind, "sourced");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleRow {
    /// The chip's name.
    pub arch: &'static str,
    /// The instruction's name.
    pub op: &'static str,
    /// Banks resolving its conflicts.
    pub banks: u32,
    /// Its phases, lanes as ranges, phases separated by ` | `
    /// (read2/write2 serve their second addresses in the same phases again).
    pub phases: String,
    /// `sourced`, `assumption` or `disputed`.
    pub kind: &'static str,
    /// The sources, the assumption or the dispute.
    pub text: &'static str,
}

fn phases(g: &Grouping) -> String {
    let parts: Vec<String> = (0..g.phases())
        .map(|p| {
            let lanes: Vec<u32> = g.phase(p).iter().map(|&l| u32::from(l)).collect();
            lane_ranges(&lanes)
        })
        .collect();
    parts.join(" | ")
}

/// The rows for one chip (`None`: every chip), instructions in [`all_ops`]
/// order; read2/write2 with their default offsets.
///
/// ```
/// let rows = cktile::render::rules::rows(None);
/// assert!(rows.iter().any(|r| r.arch == "gfx1201" && r.op == "ds_read_b128" && r.phases == "0-7 | 8-15 | 16-23 | 24-31"));
/// assert!(rows.iter().all(|r| !r.text.is_empty()));
/// ```
pub fn rows(arch: Option<&Arch>) -> Vec<RuleRow> {
    let archs: Vec<&Arch> = match arch {
        Some(a) => alloc::vec![a],
        None => ARCHS.iter().collect(),
    };
    let mut out = Vec::new();
    for a in archs {
        for op in all_ops().filter(|op| op.runs_on(a)) {
            let r = rule(a, op);
            out.push(RuleRow {
                arch: a.name(),
                op: Op::name(&op),
                banks: r.banks,
                phases: phases(&r.grouping),
                kind: r.provenance.kind(),
                text: r.provenance.text(),
            });
        }
    }
    out
}

/// The table as plain text (`markdown: false`) or a Markdown table.
///
/// ```
/// use cktile::analyzer::arch;
/// let md = cktile::render::rules::table(&cktile::render::rules::rows(Some(&arch::GFX942)), true);
/// assert!(md.starts_with("| chip | instruction | banks | phases (lanes) | provenance | source |"));
/// assert!(md.contains("| gfx942 | ds_write_b128 | 32 | 0-7 \\| 8-15 \\| 16-23"));
/// ```
pub fn table(rows: &[RuleRow], markdown: bool) -> String {
    let mut out = String::new();
    if markdown {
        out.push_str("| chip | instruction | banks | phases (lanes) | provenance | source |\n");
        out.push_str("|---|---|---|---|---|---|\n");
        for r in rows {
            // A `|` inside a cell would split it: the phase separator is escaped.
            let phases = r.phases.replace('|', "\\|");
            out.push_str(&format!("| {} | {} | {} | {} | {} | {} |\n", r.arch, r.op, r.banks, phases, r.kind, r.text));
        }
        return out;
    }
    for r in rows {
        out.push_str(&format!("{} {} ({} banks, {}): {}\n  {}\n", r.arch, r.op, r.banks, r.kind, r.phases, r.text));
    }
    out
}
