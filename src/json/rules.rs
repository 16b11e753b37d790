//! The rule table of `cktile rules --json`.

use crate::render::rules::RuleRow;
use serde::Serialize;

/// One row of `cktile rules --json`: a (chip, instruction) pair with its
/// bank count, its phases (lanes as ranges, phases separated by ` | `), its
/// provenance (`sourced`, `assumption` or `disputed`) and the sources, the
/// assumption or the dispute behind it. The command prints one array of
/// these, in [`rows`](crate::render::rules::rows) order.
///
/// ```
/// use cktile::analyzer::arch;
/// use cktile::json::RuleJson;
/// use cktile::render::rules::rows;
/// let rows = rows(Some(&arch::GFX942));
/// let b64 = rows.iter().find(|r| r.op == "ds_read_b64").unwrap();
/// let json = serde_json::to_string(&RuleJson::new(b64))?;
/// assert!(json.starts_with(
///     r#"{"arch":"gfx942","banks":32,"op":"ds_read_b64","phases":"0-15 | 16-31 | 32-47 | 48-63","provenance":"sourced","source":"#
/// ));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct RuleJson<'a> {
    arch: &'static str,
    banks: u32,
    op: &'static str,
    phases: &'a str,
    provenance: &'static str,
    source: &'static str,
}

impl<'a> RuleJson<'a> {
    /// The view of one row of the table.
    ///
    /// ```
    /// let rows = cktile::render::rules::rows(None);
    /// let all: Vec<_> = rows.iter().map(cktile::json::RuleJson::new).collect();
    /// assert_eq!(all.len(), rows.len());
    /// ```
    pub fn new(row: &'a RuleRow) -> RuleJson<'a> {
        RuleJson {
            arch: row.arch,
            banks: row.banks,
            op: row.op,
            phases: &row.phases,
            provenance: row.kind,
            source: row.text,
        }
    }
}
