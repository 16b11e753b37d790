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
//! - [`descriptor`]: `cktile offsets`, `check` and `catalog`;
//! - [`distribution`]: `cktile distribution`;
//! - [`bank`]: one instruction (`cktile bank`) and a tile (`cktile analyze`);
//! - [`search`]: `cktile search`;
//! - [`dma`]: `cktile dma-plan`;
//! - [`gpu_cases`]: `cktile gpu-cases`;
//! - [`rules`]: `cktile rules`.
//!
//! ```
//! use cktile::json::{BankRequest, InstructionJson};
//! let req = BankRequest::from_json(r#"{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [0, 128]}"#)?;
//! let (arch, op) = req.resolve()?;
//! let r = cktile::analyzer::analyze_instruction(&arch, op, &req.addresses)?;
//! let out = serde_json::to_string(&InstructionJson::new(&r))?;
//! assert!(out.starts_with(r#"{"active_lanes":2,"arch":"gfx90a","#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod bank;
pub mod descriptor;
pub mod distribution;
pub mod dma;
pub mod gpu_cases;
pub mod request;
pub mod rules;
pub mod search;

pub use bank::{InstructionJson, TileJson};
pub use descriptor::{CatalogEntryJson, CheckJson, CoordinateJson, OffsetsJson};
pub use distribution::DistributionJson;
pub use dma::DmaPlanJson;
pub use gpu_cases::GpuCasesJson;
pub use request::{BankRequest, REQUEST_SHAPE};
pub use rules::RuleJson;
pub use search::SearchJson;
