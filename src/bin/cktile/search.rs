//! `cktile search`: the layouts of a tile that cost the fewest bank passes
//! for its writes and reads, searched over the catalogue's families.

use crate::common::{Failure, bad, to_json};
use cktile::analyzer::Arch;
use cktile::json::SearchJson;
use cktile::layouts;
use cktile::render;
use cktile::search::{Access, Problem, Role, search_with_progress};

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

/// Runs `cktile search`.
pub fn search_layouts(a: &SearchArgs<'_>) -> Result<String, Failure> {
    let (rows, cols) = tile(a.tile)?;
    let element_bytes = layouts::dtype_bytes(a.dtype).map_err(|e| bad(format!("--dtype: {e}")))?;
    let arch = Arch::by_name(a.arch).map_err(|e| bad(format!("--arch: {e}")))?;
    let mut problem = Problem::new(rows, cols, element_bytes, arch);
    for w in a.writes {
        problem = problem.access(Role::Write, Access::parse(w).map_err(|e| bad(format!("--write: {e}")))?);
    }
    for r in a.reads {
        problem = problem.access(Role::Read, Access::parse(r).map_err(|e| bad(format!("--read: {e}")))?);
    }
    if let Some(m) = a.max_padding_bytes {
        problem = problem.max_padding_bytes(m);
    }
    if let Some(v) = a.vector {
        problem = problem.vector(v);
    }
    let r = crate::common::with_progress("searching", |progress| search_with_progress(&problem, progress));
    let r = r.map_err(|e| bad(format!("{e}")))?;
    if a.json { to_json(&SearchJson::new(&r)) } else { Ok(render::search::report(&r, a.top)) }
}
