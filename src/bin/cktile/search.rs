//! `cktile search`: the layouts of a tile that cost the fewest bank passes
//! for its writes and reads, searched over the catalogue's families.

use crate::common::{Failure, bad};
use cktile::analyzer::{Arch, Pattern};
use cktile::layouts;
use cktile::render;
use cktile::search::{Candidate, Problem, SearchReport, search};
use serde_json::{Value, json};

/// The arguments of `cktile search`.
pub struct SearchArgs<'a> {
    /// `ROWSxCOLS`.
    pub tile: &'a str,
    /// Element type.
    pub dtype: &'a str,
    /// Chip.
    pub arch: &'a str,
    /// Write patterns.
    pub writes: &'a [String],
    /// Read patterns.
    pub reads: &'a [String],
    /// Padding limit in bytes.
    pub max_padding_bytes: Option<u64>,
    /// Required vector width in elements.
    pub vector: Option<usize>,
    /// Optimal candidates listed in the text form.
    pub top: usize,
    /// JSON output.
    pub json: bool,
}

fn tile(text: &str) -> Result<(usize, usize), Failure> {
    let parsed = text.split_once(['x', 'X']).and_then(|(r, c)| Some((r.trim().parse().ok()?, c.trim().parse().ok()?)));
    parsed.ok_or_else(|| bad(format!("--tile: `{text}` is not ROWSxCOLS; write e.g. --tile 128x64")))
}

fn candidate_json(c: &Candidate, element_bytes: usize) -> Value {
    json!({
        "family": c.family.entry(),
        "entry": c.entry,
        "label": c.label(element_bytes),
        "spec": c.descriptor().map(|d| d.to_string()).unwrap_or_default(),
        "cycles": c.cycles,
        "per_pattern_cycles": c.costs.iter().map(|k| k.cycles).collect::<Vec<_>>(),
        "max_ways": c.costs.iter().map(|k| k.max_ways).collect::<Vec<_>>(),
        "extra_bytes": c.extra_bytes,
        "transforms": c.transforms,
    })
}

fn report_json(r: &SearchReport) -> Value {
    let p = &r.problem;
    let eb = p.element_bytes;
    json!({
        "rows": p.rows,
        "cols": p.cols,
        "element_bytes": eb,
        "arch": p.arch.name(),
        "patterns": p.patterns().map(|(role, pat)| json!({
            "role": if role == cktile::search::Role::Write { "write" } else { "read" },
            "access": pat.access_name(),
        })).collect::<Vec<_>>(),
        "vector_elements": r.vector,
        "minimum_cycles": r.minimum_cycles(),
        "minimum_per_pattern": r.minimum,
        "conflict_free": r.conflict_free(),
        "naive": candidate_json(&r.naive, eb),
        "best": candidate_json(r.best(), eb),
        "optimal": r.optimal.iter().map(|c| candidate_json(c, eb)).collect::<Vec<_>>(),
        "xor_linear_optimal_classes": r.xor_linear_optimal_classes,
        "front": r.front.iter().map(|c| candidate_json(c, eb)).collect::<Vec<_>>(),
        "families": r.families.iter().map(|f| json!({
            "family": f.family.entry(),
            "members": f.members,
            "valid": f.valid,
            "note": f.note,
        })).collect::<Vec<_>>(),
        "evaluated": r.evaluated,
        "lower_bound_cycles": r.best().cycles,
        "pattern_best": r.pattern_best,
        "stuck_phases": r.stuck.iter().map(|s| json!({
            "pattern": s.pattern,
            "instruction": s.instruction,
            "phase": s.phase,
            "row": s.row,
            "lanes": s.lanes,
            "cycles": s.cycles,
        })).collect::<Vec<_>>(),
    })
}

/// Runs `cktile search`.
pub fn search_layouts(a: &SearchArgs<'_>) -> Result<String, Failure> {
    let (rows, cols) = tile(a.tile)?;
    let element_bytes = layouts::dtype_bytes(a.dtype).map_err(|e| bad(format!("--dtype: {e}")))?;
    let arch = Arch::by_name(a.arch).map_err(|e| bad(format!("--arch: {e}")))?;
    let mut problem = Problem::new(rows, cols, element_bytes, arch);
    for w in a.writes {
        problem = problem.write(Pattern::from_access(w).map_err(|e| bad(format!("--write: {e}")))?);
    }
    for r in a.reads {
        problem = problem.read(Pattern::from_access(r).map_err(|e| bad(format!("--read: {e}")))?);
    }
    if let Some(m) = a.max_padding_bytes {
        problem = problem.max_padding_bytes(m);
    }
    if let Some(v) = a.vector {
        problem = problem.vector(v);
    }
    let r = search(&problem).map_err(|e| bad(format!("{e}")))?;
    Ok(if a.json { report_json(&r).to_string() } else { render::search::report(&r, a.top) })
}
