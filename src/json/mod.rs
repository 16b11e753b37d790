//! Typed JSON for the command line and for library users (the `serde`
//! feature): the request `cktile bank` reads ([`BankRequest`]) and the reports
//! every `--json` flag prints, each a [`serde::Serialize`] view of the
//! library's own report.
//!
//! Every report serializes with its keys in alphabetical order, the order the
//! CLI has always printed them in, so `serde_json::to_string` of a view is
//! the CLI's output byte for byte. Large lists (every offset, every gather)
//! are borrowed from the report and written element by element, never copied
//! into an intermediate JSON tree, so [`serde_json::to_writer`] streams them.
//!
//! - [`request`]: [`BankRequest`], `cktile bank`'s stdin;
//! - [`descriptor`]: `cktile offsets`, `check` and `catalogue`;
//! - [`distribution`]: `cktile distribution`;
//! - [`bank`]: one instruction (`cktile bank`) and a tile (`cktile analyze`);
//! - [`search`]: `cktile search`;
//! - [`dma`]: `cktile dma-plan`;
//! - [`equiv`]: `cktile equiv`;
//! - [`gpu_cases`]: `cktile gpu-cases`;
//! - [`hopper`]: `cktile hopper-plan`;
//! - [`matrix_desc`]: `cktile matrix-desc`;
//! - [`tma`]: `cktile tma`;
//! - [`rules`]: `cktile rules`.
//!
//! ```
//! use cktile::json::{BankRequest, InstructionJson};
//! let req = BankRequest::from_json(r#"{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [0, 128]}"#)?;
//! let (arch, op) = req.resolve()?;
//! let r = cktile::reports::analyze_instruction(&arch, op, &req.addresses)?;
//! let out = serde_json::to_string(&InstructionJson::new(&r))?;
//! assert!(out.starts_with(r#"{"active_lanes":2,"arch":"gfx90a","#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod bank;
pub mod descriptor;
pub mod distribution;
pub mod dma;
pub mod equiv;
pub mod export;
pub mod gpu_cases;
pub mod hopper;
pub mod matrix_desc;
pub mod request;
pub mod rules;
pub mod search;
pub mod tma;

pub use bank::{InstructionJson, PartitionJson, TileJson};
pub use descriptor::{CatalogueEntryJson, CheckJson, CoordinateJson, OffsetsJson};
pub use distribution::{CoverageJson, DistributionJson, TransposeJson};
pub use dma::{AsyncPlanJson, DmaPlanJson, TdmPlanJson};
pub use equiv::EquivJson;
pub use export::{AnswerJson, ExportJson};
pub use gpu_cases::GpuCasesJson;
pub use hopper::HopperPlanJson;
pub use matrix_desc::MatrixDescJson;
pub use request::{BankRequest, REQUEST_SHAPE};
pub use rules::{DisagreementJson, FindingsJson, ModelAnswerJson, RuleJson};
pub use search::SearchJson;
pub use tma::TmaJson;

/// A report as one line of JSON text, exactly as the CLI's `--json` prints
/// it: [`serde_json::to_string`] of the view, with every character that
/// would act on a terminal ([`crate::is_hidden`]) written as a `\uXXXX`
/// escape (serde escapes C0 but writes DEL, C1 and the bidirectional
/// controls raw). Such a character can only stand inside a JSON string,
/// where the escape reads back as the same character, so the document's
/// value is unchanged. The Python package returns this text as its
/// reports' `to_json()`.
///
/// ```
/// let text = cktile::json::to_text(&serde_json::json!({"spec": "a\u{202e}b", "n": 1}))?;
/// assert_eq!(text, r#"{"n":1,"spec":"a\u202eb"}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn to_text<T: serde::Serialize + ?Sized>(view: &T) -> Result<alloc::string::String, serde_json::Error> {
    Ok(escape_hidden(&serde_json::to_string(view)?))
}

/// JSON text with every hidden character ([`crate::is_hidden`]) written as
/// a `\uXXXX` escape ([`to_text`]'s second step, for text serialized by
/// other means, such as a stream).
///
/// ```
/// assert_eq!(cktile::json::escape_hidden("\"x\u{7f}\""), r#""x\u007f""#);
/// ```
pub fn escape_hidden(json: &str) -> alloc::string::String {
    // Printable ASCII is never hidden: most reports are only that.
    if json.bytes().all(|b| (b' '..=b'~').contains(&b)) {
        return alloc::string::String::from(json);
    }
    let mut out = alloc::string::String::with_capacity(json.len());
    for c in json.chars() {
        if crate::is_hidden(c) {
            out.push_str(&alloc::format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}
