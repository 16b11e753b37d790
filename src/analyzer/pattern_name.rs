//! Access patterns by name, as the command line writes them: a pattern name
//! (`rows`, `columns`, `mfma16`, `mfma32`, `ldmatrix`, `mma_sync_a`) and,
//! separately, the instruction it issues (`--pattern rows --op ds_write_b128`).

use super::AnalyzerProblem;
use super::op::Op;
use super::pattern::Pattern;
use crate::error::{Error, Snippet, SpecProblem};

/// Every pattern name, for messages.
///
/// ```
/// use cktile::analyzer::{pattern_name::PATTERN_NAMES, Op, Pattern};
/// for name in PATTERN_NAMES.split(", ") {
///     assert!(Pattern::by_name(name, Some(Op::DsRead { bits: 128 })).is_ok() || Pattern::by_name(name, None).is_ok());
/// }
/// ```
pub const PATTERN_NAMES: &str = "rows, columns, mfma16, mfma32, ldmatrix, mma_sync_a";

const VECTOR_OPS: &str = "ds_read_u8|u16|b32|b64|b96|b128, ds_write_b8..b128, ds_read2_b32|b64, ds_write2_b32|b64, \
ds_read_b64_tr_b4|b8|b16, ld.shared.b8..b128, st.shared.b8..b128, cp.async.b32|b64|b128";
const MFMA_OPS: &str = "ds_read_b64, ds_read2_b32, ds_read2_b64 or ds_read_b128 (the default)";
const MATRIX_OPS: &str = "ldmatrix.x1|x2|x4[.trans] (default ldmatrix.x4) or stmatrix.x1|x2|x4[.trans]";
const MMA_SYNC_OPS: &str = "ld.shared.b32 (the default)";

impl Pattern {
    /// The pattern called `name`, issuing `op` (`None`: the pattern's usual
    /// instruction; `rows` and `columns` have none and need one).
    ///
    /// | name | pattern | instructions (default first) |
    /// |---|---|---|
    /// | `rows` | [`Pattern::Rows`] | any `ds_*`, `ld.shared.*`, `st.shared.*` (required) |
    /// | `columns` | [`Pattern::Columns`] | as `rows` |
    /// | `mfma16`, `mfma32` | [`Pattern::Mfma`] with M = 16 / 32 | `ds_read_b128`, `ds_read_b64`, `ds_read2_b64`, `ds_read2_b32` |
    /// | `ldmatrix` | [`Pattern::Ldmatrix`] | `ldmatrix.x4`, any `ldmatrix` / `stmatrix` |
    /// | `mma_sync_a` | [`Pattern::MmaSyncA`] | `ld.shared.b32` |
    ///
    /// ```
    /// use cktile::analyzer::{Op, Pattern};
    /// let write = Pattern::by_name("rows", Some(Op::DsWrite { bits: 128 }))?;
    /// assert_eq!(write, Pattern::Rows { op: Op::DsWrite { bits: 128 } });
    /// assert_eq!(Pattern::by_name("mfma16", None)?, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } });
    /// // The MFMA shapes, gfx950's native 16x16x32 and 32x32x16 among them, name the same reads.
    /// assert_eq!(Pattern::by_name("mfma16x16x32", None)?, Pattern::by_name("mfma16", None)?);
    /// assert_eq!(Pattern::by_name("mfma32x32x16", None)?, Pattern::by_name("mfma32", None)?);
    /// let e = Pattern::by_name("diagonal", None).unwrap_err();
    /// assert!(e.to_string().contains("rows, columns, mfma16, mfma32, ldmatrix, mma_sync_a"));
    /// let e = Pattern::by_name("rows", None).unwrap_err();
    /// assert!(e.to_string().starts_with("the `rows` pattern needs an instruction (--op)"));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn by_name(name: &str, op: Option<Op>) -> Result<Pattern, Error> {
        let wrong = |pattern: &'static str, expected: &'static str| {
            Error::analyzer(AnalyzerProblem::PatternOp { pattern, given: op, expected })
        };
        match name {
            "rows" | "columns" => {
                let pattern = if name == "rows" { "rows" } else { "columns" };
                match op {
                    Some(
                        op @ (Op::DsRead { .. }
                        | Op::DsWrite { .. }
                        | Op::DsRead2 { .. }
                        | Op::DsWrite2 { .. }
                        | Op::DsReadTr { .. }
                        | Op::LdShared { .. }
                        | Op::StShared { .. }
                        | Op::CpAsync { .. }),
                    ) => Ok(if name == "rows" { Pattern::Rows { op } } else { Pattern::Columns { op } }),
                    _ => Err(wrong(pattern, VECTOR_OPS)),
                }
            }
            // The MFMA shapes name the same reads: an operand read's lane map
            // depends on M and the read's width only (16x16x16 read with
            // ds_read_b128 is 16x16x32's for fp16, gfx950's native shape).
            "mfma16" | "mfma16x16x16" | "mfma16x16x32" | "mfma32" | "mfma32x32x8" | "mfma32x32x16" => {
                let (pattern, mdim) = if name.starts_with("mfma16") { ("mfma16", 16) } else { ("mfma32", 32) };
                match op {
                    None => Ok(Pattern::Mfma { mdim, op: Op::DsRead { bits: 128 } }),
                    Some(op @ (Op::DsRead { bits: 64 | 128 } | Op::DsRead2 { .. })) => Ok(Pattern::Mfma { mdim, op }),
                    Some(_) => Err(wrong(pattern, MFMA_OPS)),
                }
            }
            "ldmatrix" => match op {
                None => Ok(Pattern::Ldmatrix { op: Op::Ldmatrix { matrices: 4, trans: false } }),
                Some(op @ (Op::Ldmatrix { .. } | Op::Stmatrix { .. })) => Ok(Pattern::Ldmatrix { op }),
                Some(_) => Err(wrong("ldmatrix", MATRIX_OPS)),
            },
            "mma_sync_a" => match op {
                None | Some(Op::LdShared { bits: 32 }) => Ok(Pattern::MmaSyncA),
                Some(_) => Err(wrong("mma_sync_a", MMA_SYNC_OPS)),
            },
            _ => Err(Error::spec(SpecProblem::UnknownName { name: Snippet::new(name), valid: PATTERN_NAMES })),
        }
    }

    /// The pattern's command-line name (see [`Pattern::by_name`]).
    ///
    /// ```
    /// use cktile::analyzer::{Op, Pattern};
    /// assert_eq!(Pattern::Mfma { mdim: 32, op: Op::DsRead { bits: 64 } }.name(), "mfma32");
    /// assert_eq!(Pattern::MmaSyncA.name(), "mma_sync_a");
    /// ```
    pub const fn name(&self) -> &'static str {
        match self {
            Pattern::Rows { .. } => "rows",
            Pattern::Columns { .. } => "columns",
            Pattern::Mfma { mdim: 16, .. } => "mfma16",
            Pattern::Mfma { mdim: 32, .. } => "mfma32",
            Pattern::Mfma { .. } => "mfma (M must be 16 or 32)",
            Pattern::Ldmatrix { .. } => "ldmatrix",
            Pattern::MmaSyncA => "mma_sync_a",
        }
    }
}

/// The forms [`Pattern::from_access`] takes, for messages.
pub const ACCESS_FORMS: &str = "OP:row, OP:column (OP: ds_read_u8..b128, ds_write_b8..b128, ds_read2_b32|b64, \
ds_write2_b32|b64, ds_read_b64_tr_b4|b8|b16, ld.shared.b8..b128, st.shared.b8..b128), \
mfma16x16x16|mfma16x16x32[:a|:b][:ds_read_b64|:ds_read2_b64|:ds_read2_b32], \
mfma32x32x8|mfma32x32x16[:a|:b][:OP as for mfma16x16x16], \
ldmatrix.x1|x2|x4[.trans], stmatrix.x1|x2|x4[.trans], mma_sync_a";

#[cfg(feature = "alloc")]
impl Pattern {
    /// A pattern written as one access, the way `cktile search` takes its
    /// `--write` and `--read` arguments: `OP:row` / `OP:column` for the
    /// vector walks, `mfma16x16x16:a` (or `mfma32x32x8`, `mfma16`, `mfma32`,
    /// operand `a` or `b`, optionally `:ds_read_b64`) for MFMA operand reads,
    /// an `ldmatrix`/`stmatrix` instruction name for matrix fragments, and
    /// `mma_sync_a`. See [`ACCESS_FORMS`].
    ///
    /// ```
    /// use cktile::analyzer::{Op, Pattern};
    /// assert_eq!(Pattern::from_access("ds_write_b128:row")?, Pattern::Rows { op: Op::DsWrite { bits: 128 } });
    /// assert_eq!(Pattern::from_access("mfma16x16x16:a")?, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } });
    /// assert_eq!(Pattern::from_access("mfma16x16x32:a")?, Pattern::from_access("mfma16x16x16:a")?);
    /// assert_eq!(
    ///     Pattern::from_access("ldmatrix.x2.trans")?,
    ///     Pattern::Ldmatrix { op: Op::Ldmatrix { matrices: 2, trans: true } }
    /// );
    /// assert!(Pattern::from_access("ds_write_b128:diagonal").unwrap_err().to_string().contains("OP:row"));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn from_access(text: &str) -> Result<Pattern, Error> {
        let text = text.trim();
        let unknown = || Error::spec(SpecProblem::UnknownName { name: Snippet::new(text), valid: ACCESS_FORMS });
        let mut parts = text.split(':').map(str::trim);
        let head = parts.next().unwrap_or("");
        let rest: alloc::vec::Vec<&str> = parts.collect();
        if let Ok(op) = Op::by_name(head) {
            return match (op, rest.as_slice()) {
                (Op::Ldmatrix { .. } | Op::Stmatrix { .. }, [] | ["fragments"]) => Ok(Pattern::Ldmatrix { op }),
                (Op::LdShared { bits: 32 }, ["mma_sync_a"]) => Ok(Pattern::MmaSyncA),
                (_, ["row" | "rows"]) => Pattern::by_name("rows", Some(op)),
                (_, ["col" | "column" | "columns"]) => Pattern::by_name("columns", Some(op)),
                _ => Err(unknown()),
            };
        }
        let mdim = match head {
            "mfma16x16x16" | "mfma16x16x32" | "mfma16" => 16,
            "mfma32x32x8" | "mfma32x32x16" | "mfma32" => 32,
            "mma_sync_a" if rest.is_empty() => return Ok(Pattern::MmaSyncA),
            _ => return Err(unknown()),
        };
        let name = if mdim == 16 { "mfma16" } else { "mfma32" };
        match rest.as_slice() {
            [] | ["a" | "b"] => Pattern::by_name(name, None),
            [op] | ["a" | "b", op] => Pattern::by_name(name, Some(Op::by_name(op)?)),
            _ => Err(unknown()),
        }
    }

    /// The pattern as [`Pattern::from_access`] writes it.
    ///
    /// ```
    /// use cktile::analyzer::{Op, Pattern};
    /// for text in ["ds_write_b128:row", "ld.shared.b32:column", "mfma32x32x8:ds_read_b64", "stmatrix.x4", "mma_sync_a"] {
    ///     assert_eq!(Pattern::from_access(text)?.access_name(), text);
    /// }
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn access_name(&self) -> alloc::string::String {
        use alloc::format;
        match self {
            Pattern::Rows { op } => format!("{op}:row"),
            Pattern::Columns { op } => format!("{op}:column"),
            Pattern::Mfma { mdim, op } => {
                let shape = if *mdim == 32 { "mfma32x32x8" } else { "mfma16x16x16" };
                if *op == (Op::DsRead { bits: 128 }) { shape.into() } else { format!("{shape}:{op}") }
            }
            Pattern::Ldmatrix { op } => format!("{op}"),
            Pattern::MmaSyncA => "mma_sync_a".into(),
        }
    }
}
