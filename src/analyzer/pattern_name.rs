//! Access patterns by name, as the command line writes them: a pattern name
//! (`rows`, `columns`, `mfma16`, `mfma32`, `ldmatrix`, `mma_sync_a`) and,
//! separately, the instruction it issues (`--pattern rows --op ds_write_b128`).

use super::op::Op;
use super::pattern::Pattern;
use crate::error::{Error, ErrorKind, Snippet};

/// Every pattern name, for messages.
///
/// ```
/// use cktile::analyzer::{pattern_name::PATTERN_NAMES, Op, Pattern};
/// for name in PATTERN_NAMES.split(", ") {
///     assert!(Pattern::by_name(name, Some(Op::DsRead { bits: 128 })).is_ok() || Pattern::by_name(name, None).is_ok());
/// }
/// ```
pub const PATTERN_NAMES: &str = "rows, columns, mfma16, mfma32, ldmatrix, mma_sync_a";

const VECTOR_OPS: &str = "ds_read_b32|b64|b128, ds_write_b32|b64|b128, ld.shared.b8..b128, st.shared.b8..b128";
const MFMA_OPS: &str = "ds_read_b64 or ds_read_b128 (the default)";
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
    /// | `mfma16`, `mfma32` | [`Pattern::Mfma`] with M = 16 / 32 | `ds_read_b128`, `ds_read_b64` |
    /// | `ldmatrix` | [`Pattern::Ldmatrix`] | `ldmatrix.x4`, any `ldmatrix` / `stmatrix` |
    /// | `mma_sync_a` | [`Pattern::MmaSyncA`] | `ld.shared.b32` |
    ///
    /// ```
    /// use cktile::analyzer::{Op, Pattern};
    /// let write = Pattern::by_name("rows", Some(Op::DsWrite { bits: 128 }))?;
    /// assert_eq!(write, Pattern::Rows { op: Op::DsWrite { bits: 128 } });
    /// assert_eq!(Pattern::by_name("mfma16", None)?, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } });
    /// let e = Pattern::by_name("diagonal", None).unwrap_err();
    /// assert!(e.to_string().contains("rows, columns, mfma16, mfma32, ldmatrix, mma_sync_a"));
    /// let e = Pattern::by_name("rows", None).unwrap_err();
    /// assert!(e.to_string().starts_with("the `rows` pattern needs an instruction (--op)"));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn by_name(name: &str, op: Option<Op>) -> Result<Pattern, Error> {
        let wrong = |pattern: &'static str, expected: &'static str| {
            Error::new(ErrorKind::PatternOp { pattern, given: op, expected })
        };
        match name {
            "rows" | "columns" => {
                let pattern = if name == "rows" { "rows" } else { "columns" };
                match op {
                    Some(op @ (Op::DsRead { .. } | Op::DsWrite { .. } | Op::LdShared { .. } | Op::StShared { .. })) => {
                        Ok(if name == "rows" { Pattern::Rows { op } } else { Pattern::Columns { op } })
                    }
                    _ => Err(wrong(pattern, VECTOR_OPS)),
                }
            }
            "mfma16" | "mfma32" => {
                let (pattern, mdim) = if name == "mfma16" { ("mfma16", 16) } else { ("mfma32", 32) };
                match op {
                    None => Ok(Pattern::Mfma { mdim, op: Op::DsRead { bits: 128 } }),
                    Some(op @ Op::DsRead { bits: 64 | 128 }) => Ok(Pattern::Mfma { mdim, op }),
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
            _ => Err(Error::new(ErrorKind::UnknownName { name: Snippet::new(name), valid: PATTERN_NAMES })),
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
