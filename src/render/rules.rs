//! The rule table for people: every (chip, instruction) with its bank
//! count, phases and provenance, as `cktile rules` prints it and the banks
//! chapter of the guide includes it.

use crate::analyzer::op::all_ops;
use crate::analyzer::rules::{Grouping, UNCOUNTED, rule};
use crate::analyzer::{ARCHS, Arch, Op};
use crate::render::bank::lane_ranges;
use crate::reports::disagreements::Disagreement;
use crate::reports::models::{MODELS, Model, model_rule};
use crate::reports::probe::{Findings, OpFinding, PhaseProblem};
use alloc::format;
use alloc::string::{String, ToString};
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
    /// `sourced`, `assumption` or `disputed`; `not counted` for an access
    /// no source gives a rule for ([`UNCOUNTED`]), whose phases are `-`.
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
        // What no source gives a rule for: said, not invented (no phases).
        for &(_, access, why) in UNCOUNTED.iter().filter(|(c, _, _)| *c == a.chip()) {
            out.push(RuleRow {
                arch: a.name(),
                op: access,
                banks: a.max_banks(),
                phases: String::from("-"),
                kind: "not counted",
                text: why,
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

/// Which public models a measurement supports (those counting `measured`
/// cycles), what the others count, and which are silent, on one indented
/// line.
fn model_support(measured: u64, models: &[(Model, Option<u32>)]) -> String {
    let supports: Vec<&str> =
        models.iter().filter(|(_, c)| c.map(u64::from) == Some(measured)).map(|(m, _)| m.name()).collect();
    let others: Vec<String> = models
        .iter()
        .filter_map(|(m, c)| c.filter(|&c| u64::from(c) != measured).map(|c| format!("{} {c}", m.name())))
        .collect();
    let silent: Vec<&str> = models.iter().filter(|(_, c)| c.is_none()).map(|(m, _)| m.name()).collect();
    let list = |v: &[&str]| if v.is_empty() { String::from("none") } else { v.join(", ") };
    let mut line = format!("  supports: {}", list(&supports));
    if !others.is_empty() {
        line.push_str(&format!("; not: {}", others.join(", ")));
    }
    if !silent.is_empty() {
        line.push_str(&format!("; silent: {}", silent.join(", ")));
    }
    line.push('\n');
    line
}

/// Lanes of each phase as ranges, phases separated by ` | `.
fn phase_list(phases: &[Vec<u8>]) -> String {
    let parts: Vec<String> =
        phases.iter().map(|p| lane_ranges(&p.iter().map(|&l| u32::from(l)).collect::<Vec<_>>())).collect();
    parts.join(" | ")
}

/// Why a run gives no phases, in words.
///
/// ```
/// use cktile::reports::probe::PhaseProblem;
/// let p = PhaseProblem::Unpaired(vec![2, 3, 4, 9]);
/// assert_eq!(cktile::render::rules::phase_problem(&p), "lanes 2-4, 9 were never paired, so the phases are not derived");
/// ```
pub fn phase_problem(p: &PhaseProblem) -> String {
    match p {
        PhaseProblem::Unpaired(lanes) => format!(
            "lanes {} were never paired, so the phases are not derived",
            lane_ranges(&lanes.iter().map(|&l| u32::from(l)).collect::<Vec<_>>())
        ),
        PhaseProblem::NotPartition { a, b, line } => format!(
            "lanes {a} and {b} do not conflict (line {line}), yet chains of conflicts join them: the measurements \
             do not split the lanes into phases (noise, or hardware the phase model does not fit)"
        ),
    }
}

/// One instruction's finding: what was measured beside cktile's rule.
fn op_finding(f: &OpFinding) -> String {
    let name = Op::name(&f.op);
    let Some(banks) = f.banks else {
        return format!("{name}: no bank count measured (lanes 0 and 1 at 128 or 256 bytes never conflicted)\n");
    };
    let mut s = format!("{name}: measured {banks} banks");
    if f.banks_agree() == Some(false) {
        s.push_str(&format!(" (cktile has {}: DISAGREES)", f.cktile.banks));
    }
    match (&f.problem, f.phases_agree()) {
        (Some(why), _) => s.push_str(&format!("; phases not derived: {}", phase_problem(why))),
        (None, Some(true)) => s.push_str(&format!("; phases {}", phase_list(&f.phases))),
        (None, Some(false)) => s.push_str(&format!(
            "; phases {} (cktile has {}: DISAGREES)",
            phase_list(&f.phases),
            phase_list(&f.cktile_phases())
        )),
        (None, None) => {}
    }
    let agrees = f.agrees();
    s.push_str(if agrees { " -- agrees with cktile\n" } else { "\n" });
    if !agrees {
        s.push_str(&format!("  cktile's rule ({}): {}\n", f.cktile.provenance.kind(), f.cktile.provenance.text()));
    }
    s
}

/// The report of `cktile rules --ingest`: the run, each instruction's
/// measured banks and phases beside cktile's rule, each stride's measured
/// cycles beside the analyzer's count, the measured rules as a table with
/// the run as their source, and a count of agreements.
///
/// ```
/// use cktile::reports::probe::{ingest, parse};
/// let run = parse("chip gfx942\ndevice MI300X\ndate 2026-11-25\nstride ds_read_b128 - - 32 8\n")?;
/// let text = cktile::render::rules::findings(&ingest(&run)?);
/// assert!(text.contains("stride ds_read_b128, 32 bytes: measured 8 extra cycles, cktile 8 -- agrees"));
/// assert!(text.ends_with("1 of 1 measurements agree with cktile\n"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn findings(f: &Findings) -> String {
    let device = if f.device.is_empty() { "a device not named" } else { f.device.as_str() };
    let date = if f.date.is_empty() { "an undated run" } else { f.date.as_str() };
    let mut s = format!("Probe run: {} ({device}), {date}\n", f.arch.name());
    let (mut total, mut agree) = (0, 0);
    for o in &f.ops {
        s.push_str(&op_finding(o));
        // An instruction without a bank count was not measured: it neither agrees nor disagrees.
        if o.banks.is_some() {
            total += 1;
            agree += usize::from(o.agrees());
        }
    }
    for st in &f.strides {
        s.push_str(&format!(
            "stride {}, {} bytes: measured {} extra cycles, cktile {}{}\n",
            Op::name(&st.op),
            st.stride,
            st.measured,
            st.cktile,
            if st.agrees() { " -- agrees" } else { ": DISAGREES" }
        ));
        s.push_str(&model_support(st.measured, &st.models));
        total += 1;
        agree += usize::from(st.agrees());
    }
    for p in &f.patterns {
        s.push_str(&format!(
            "disagreement {} #{} ({}): measured {} extra cycles, cktile {}{}\n",
            Op::name(&p.op),
            p.index,
            p.description,
            p.measured,
            p.models
                .iter()
                .find(|(m, _)| *m == Model::Cktile)
                .and_then(|(_, c)| *c)
                .map_or(String::from("silent"), |c| c.to_string()),
            if p.agrees() { " -- agrees" } else { ": DISAGREES" }
        ));
        s.push_str(&model_support(p.measured, &p.models));
        total += 1;
        agree += usize::from(p.agrees());
    }
    let measured: Vec<&OpFinding> = f.ops.iter().filter(|o| o.banks.is_some() && !o.phases.is_empty()).collect();
    if !measured.is_empty() {
        s.push_str(&format!(
            "\nAs a rules table (source: measured on {device}, {}, {date}, by cktile's AMD LDS probe):\n",
            f.arch.name()
        ));
        for o in measured {
            s.push_str(&format!(
                "{} {} ({} banks, measured): {}\n",
                f.arch.name(),
                Op::name(&o.op),
                o.banks.unwrap_or(0),
                phase_list(&o.phases)
            ));
        }
    }
    s.push_str(&format!("\n{agree} of {total} measurements agree with cktile\n"));
    s
}

/// One model's evidence for an instruction on a chip, in words: what its
/// answers rest on and its source's words, or why it is silent.
fn evidence(model: Model, arch: &Arch, op: Op) -> String {
    match model_rule(model, arch, op) {
        Ok(r) if model == Model::Cktile => format!("cktile's table, {}: {}", rule(arch, op).provenance.kind(), r.text),
        Ok(r) => format!("{}: {}", model.evidence().word(), r.text),
        Err(e) => format!("silent: {e}"),
    }
}

/// The patterns shown for each distinct set of answers.
const WITNESSES: usize = 3;

/// `cktile rules --disagreements`: per (chip, instruction), how many of the
/// corpus' patterns the models disagree on, each model's evidence, and for
/// each distinct set of answers its first three patterns, every model's
/// answer and cktile's choice.
///
/// ```
/// use cktile::analyzer::arch;
/// use cktile::reports::disagreements::disagreements;
/// let text = cktile::render::rules::disagreements(&disagreements(Some(&arch::GFX942)));
/// assert!(text.contains("lane L at byte 16*(L%4) + 128*(L/4)"));
/// ```
pub fn disagreements(found: &[Disagreement]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < found.len() {
        let (name, op) = (found[i].arch, found[i].op);
        let group: Vec<&Disagreement> = found[i..].iter().take_while(|d| d.arch == name && d.op == op).collect();
        i += group.len();
        let Ok(arch) = Arch::by_name(name) else { continue };
        let total = crate::reports::disagreements::corpus(&arch, op).len();
        out.push_str(&format!("{name} {op}: the models disagree on {} of {total} access patterns\n", group.len()));
        out.push_str("  evidence:\n");
        for m in MODELS {
            out.push_str(&format!("    {:<13} {}\n", m.name(), evidence(m, &arch, op)));
        }
        // The patterns of each distinct set of answers, in corpus order.
        let mut signatures: Vec<(Vec<Option<u32>>, Vec<&Disagreement>)> = Vec::new();
        for d in &group {
            let s = d.signature();
            match signatures.iter_mut().find(|(x, _)| *x == s) {
                Some(entry) => entry.1.push(d),
                None => signatures.push((s, alloc::vec![*d])),
            }
        }
        for (k, (_, ds)) in signatures.iter().enumerate() {
            let d = ds[0];
            let shown: Vec<&str> = ds.iter().take(WITNESSES).map(|d| d.case.description.as_str()).collect();
            let more = match ds.len().saturating_sub(WITNESSES) {
                0 => String::new(),
                1 => String::from(" (and 1 more pattern with these answers)"),
                n => format!(" (and {n} more patterns with these answers)"),
            };
            out.push_str(&format!("  {}. {}{more}\n", k + 1, shown.join("; ")));
            let answers: Vec<String> = d
                .answers
                .iter()
                .map(|(m, a)| match a {
                    Ok(w) => format!("{} {w}-way", m.name()),
                    Err(_) => format!("{} silent", m.name()),
                })
                .collect();
            out.push_str(&format!("     {}\n", answers.join(", ")));
            out.push_str(&format!("     {}\n", choice(d)));
        }
    }
    if out.is_empty() {
        out.push_str("no disagreement: on every pattern of the corpus, the models that answer agree\n");
    }
    out
}

/// cktile's answer on a disagreement, who agrees and who does not.
fn choice(d: &Disagreement) -> String {
    let Some(mine) = d.cktile() else { return String::from("cktile's choice: none (cktile refuses the access)") };
    let name = |m: &Model| format!("{} ({})", m.name(), m.evidence().word());
    let with: Vec<String> = d
        .answers
        .iter()
        .filter(|(m, a)| *m != Model::Cktile && a.as_ref().ok() == Some(&mine))
        .map(|(m, _)| name(m))
        .collect();
    let against: Vec<String> = d
        .answers
        .iter()
        .filter(|(_, a)| a.as_ref().is_ok_and(|&w| w != mine))
        .map(|(m, _)| m.name().to_string())
        .collect();
    let why = match Arch::by_name(d.arch).map(|a| rule(&a, d.op).provenance) {
        Ok(p) => p.kind(),
        Err(_) => "unknown",
    };
    let with = if with.is_empty() { String::from("no other model") } else { with.join(", ") };
    format!("cktile's choice: {mine}-way, by its {why} rule, as {with}; against {}", against.join(", "))
}
