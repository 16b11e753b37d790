//! Access patterns by name, as the command line writes them: a pattern name
//! (`rows`, `columns`, `mfma16`, `mfma32`, `ldmatrix`, `mma_sync_a`) and,
//! separately, the instruction it issues (`--pattern rows --op ds_write_b128`).

use super::AnalyzerProblem;
use super::op::Op;
use super::pattern::Pattern;
use crate::error::Error;
use cktile_core::Snippet;

const VECTOR_OPS: &str = "ds_read_u8|u16|b32|b64|b96|b128, ds_write_b8..b128, ds_read2_b32|b64, ds_write2_b32|b64, \
ds_read_b64_tr_b4|b8|b16, ld.shared.b8..b128, st.shared.b8..b128, cp.async.b32|b64|b128";
const MFMA_OPS: &str = "ds_read_b64, ds_read2_b32, ds_read2_b64 or ds_read_b128 (the default)";
const MATRIX_OPS: &str = "ldmatrix.x1|x2|x4[.trans] (default ldmatrix.x4) or stmatrix.x1|x2|x4[.trans]";
const MMA_SYNC_OPS: &str = "ld.shared.b32 (the default)";

/// One access pattern as the command line names it: its name, the other
/// names it answers to, the instructions it takes (for messages), and how
/// it is built from the instruction given (`None`: that instruction is not
/// one it takes).
struct Row {
    name: &'static str,
    aliases: &'static [&'static str],
    ops: &'static str,
    build: fn(Option<Op>) -> Option<Pattern>,
}

/// A walk of vectors (`rows`, `columns`: `walk` makes it) with `op`, which
/// must be one of the vector instructions.
fn vectors(op: Option<Op>, walk: fn(Op) -> Pattern) -> Option<Pattern> {
    op.filter(|&op| is_vector(op)).map(walk)
}

/// The vector instructions `rows` and `columns` walk with.
const fn is_vector(op: Op) -> bool {
    matches!(
        op,
        Op::DsRead { .. }
            | Op::DsWrite { .. }
            | Op::DsRead2 { .. }
            | Op::DsWrite2 { .. }
            | Op::DsReadTr { .. }
            | Op::DsLoadTr { .. }
            | Op::LdShared { .. }
            | Op::StShared { .. }
            | Op::CpAsync { .. }
    )
}

/// An MFMA operand read with M = `mdim`: `ds_read_b128` unless told.
const fn mfma(mdim: u32, op: Option<Op>) -> Option<Pattern> {
    match op {
        None => Some(Pattern::Mfma { mdim, op: Op::DsRead { bits: 128 } }),
        Some(op @ (Op::DsRead { bits: 64 | 128 } | Op::DsRead2 { .. })) => Some(Pattern::Mfma { mdim, op }),
        Some(_) => None,
    }
}

/// Every pattern, in the order the messages list them: the one table
/// [`Pattern::by_name`], [`PATTERN_NAMES`] and [`Pattern::from_access`]
/// read.
const ROWS: [Row; 6] = [
    Row { name: "rows", aliases: &[], ops: VECTOR_OPS, build: |op| vectors(op, |op| Pattern::Rows { op }) },
    Row { name: "columns", aliases: &[], ops: VECTOR_OPS, build: |op| vectors(op, |op| Pattern::Columns { op }) },
    // The MFMA shapes name the same reads: an operand read's lane map
    // depends on M and the read's width only (16x16x16 read with
    // ds_read_b128 is 16x16x32's for fp16, gfx950's native shape).
    Row { name: "mfma16", aliases: &["mfma16x16x16", "mfma16x16x32"], ops: MFMA_OPS, build: |op| mfma(16, op) },
    Row { name: "mfma32", aliases: &["mfma32x32x8", "mfma32x32x16"], ops: MFMA_OPS, build: |op| mfma(32, op) },
    Row {
        name: "ldmatrix",
        aliases: &[],
        ops: MATRIX_OPS,
        build: |op| match op {
            None => Some(Pattern::Ldmatrix { op: Op::Ldmatrix { matrices: 4, trans: false } }),
            Some(op @ (Op::Ldmatrix { .. } | Op::Stmatrix { .. })) => Some(Pattern::Ldmatrix { op }),
            Some(_) => None,
        },
    },
    Row {
        name: "mma_sync_a",
        aliases: &[],
        ops: MMA_SYNC_OPS,
        build: |op| match op {
            None | Some(Op::LdShared { bits: 32 }) => Some(Pattern::MmaSyncA),
            Some(_) => None,
        },
    },
];

const NAME_LIST: [&str; ROWS.len()] = cktile_core::names::names_of!(ROWS, |r| r.name);

/// Every pattern name, for messages.
///
/// ```
/// use cktile_analysis::analyzer::{pattern_name::PATTERN_NAMES, Op, Pattern};
/// assert_eq!(PATTERN_NAMES, "rows, columns, mfma16, mfma32, ldmatrix, mma_sync_a");
/// for name in PATTERN_NAMES.split(", ") {
///     let op = Some(Op::DsRead { bits: 128 });
///     assert_eq!(Pattern::by_name(name, op).or_else(|_| Pattern::by_name(name, None))?.name(), name);
/// }
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub const PATTERN_NAMES: &str = cktile_core::names::joined!(&NAME_LIST);

/// The row called `name` (or one of its aliases).
fn row(name: &str) -> Option<&'static Row> {
    ROWS.iter().find(|r| r.name == name || r.aliases.contains(&name))
}

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
    /// use cktile_analysis::analyzer::{Op, Pattern};
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
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub fn by_name(name: &str, op: Option<Op>) -> Result<Pattern, Error> {
        let Some(row) = row(name) else {
            return Err(Error::parameter(cktile_core::ParameterProblem::UnknownName {
                name: Snippet::new(name),
                valid: PATTERN_NAMES,
            }));
        };
        (row.build)(op).ok_or_else(|| {
            Error::analyzer(AnalyzerProblem::PatternOp { pattern: row.name, given: op, expected: row.ops })
        })
    }

    /// The pattern's command-line name (see [`Pattern::by_name`]).
    ///
    /// ```
    /// use cktile_analysis::analyzer::{Op, Pattern};
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
    /// use cktile_analysis::analyzer::{Op, Pattern};
    /// assert_eq!(Pattern::from_access("ds_write_b128:row")?, Pattern::Rows { op: Op::DsWrite { bits: 128 } });
    /// assert_eq!(Pattern::from_access("mfma16x16x16:a")?, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } });
    /// assert_eq!(Pattern::from_access("mfma16x16x32:a")?, Pattern::from_access("mfma16x16x16:a")?);
    /// assert_eq!(
    ///     Pattern::from_access("ldmatrix.x2.trans")?,
    ///     Pattern::Ldmatrix { op: Op::Ldmatrix { matrices: 2, trans: true } }
    /// );
    /// assert!(Pattern::from_access("ds_write_b128:diagonal").unwrap_err().to_string().contains("OP:row"));
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub fn from_access(text: &str) -> Result<Pattern, Error> {
        let text = text.trim();
        let unknown = || {
            Error::parameter(cktile_core::ParameterProblem::UnknownName {
                name: Snippet::new(text),
                valid: ACCESS_FORMS,
            })
        };
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
        if head == "mma_sync_a" && rest.is_empty() {
            return Ok(Pattern::MmaSyncA);
        }
        // An MFMA shape (or its pattern name), with an optional operand and read.
        let name = match row(head) {
            Some(row) if row.name.starts_with("mfma") => row.name,
            _ => return Err(unknown()),
        };
        match rest.as_slice() {
            [] | ["a" | "b"] => Pattern::by_name(name, None),
            [op] | ["a" | "b", op] => Pattern::by_name(name, Some(Op::by_name(op)?)),
            _ => Err(unknown()),
        }
    }

    /// The pattern as [`Pattern::from_access`] writes it.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{Op, Pattern};
    /// for text in ["ds_write_b128:row", "ld.shared.b32:column", "mfma32x32x8:ds_read_b64", "stmatrix.x4", "mma_sync_a"] {
    ///     assert_eq!(Pattern::from_access(text)?.access_name(), text);
    /// }
    /// # Ok::<(), cktile_analysis::Error>(())
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
