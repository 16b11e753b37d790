//! `cktile._native`: the Rust half of cktile's Python package.
//!
//! The package's public API is written in Python (`python/cktile/`); this
//! module gives it the library's own calls, the same ones `cktile`'s
//! subcommands make, so every answer from Python is the CLI's answer:
//!
//! - [`layout`]: [`layout::NativeLayout`], a layout (spec text or catalogue
//!   entry, with its element type) and everything asked of one layout:
//!   offsets, `check`, `analyze`, `dma-plan`, `codegen` and the pictures;
//! - [`queries`]: the questions that start from something else: one
//!   instruction's banks (`cktile bank`), the layout search, tile
//!   distributions, the catalogue and the names the library accepts.
//!
//! Reports cross as the exact JSON text `--json` prints
//! ([`cktile::json::to_text`]); arrays cross as little-endian bytes that the
//! Python side wraps in numpy arrays without a copy per element. Every
//! failure is a `cktile.Error` (a `ValueError`) carrying cktile's message,
//! with the offending line of a spec and a caret under the fault. Long
//! analyses and searches run with the GIL released.

use pyo3::prelude::*;

mod layout;
mod queries;
mod reports;

pyo3::create_exception!(
    cktile,
    Error,
    pyo3::exceptions::PyValueError,
    "A bad input to cktile: the message names the value at fault and what would be valid."
);

/// A library error as a `cktile.Error`: the message, then, when it points
/// into `source`, that line with a caret under the fault.
fn error(source: &str, e: &cktile::Error) -> PyErr {
    Error::new_err(message(source, e))
}

/// A library error's message, with the line of `source` it points at.
fn message(source: &str, e: &cktile::Error) -> String {
    let mut message = e.to_string();
    if let Some(at) = e.position()
        && !source.is_empty()
    {
        message.push('\n');
        message.push_str(&cktile::spec::excerpt(source, at));
    }
    message
}

/// A refusal of the argument `name`: `cktile.Error("name: message")`.
fn refuse(name: &str, message: impl std::fmt::Display) -> PyErr {
    let message = message.to_string();
    // The library's message may start with its own context, the same word
    // (`dma-plan: ...` under `dma_plan`): name it once.
    let own = [name.to_string(), name.replace('_', "-")];
    let rest = own.iter().find_map(|p| message.strip_prefix(p.as_str()).and_then(|r| r.strip_prefix(": ")));
    Error::new_err(format!("{name}: {}", rest.unwrap_or(&message)))
}

/// A report's JSON text, as the CLI prints it.
fn json<T: serde::Serialize>(view: &T) -> PyResult<String> {
    cktile::json::to_text(view).map_err(|e| Error::new_err(format!("cannot write the JSON report: {e}")))
}

/// The module: the error type, the layout class and the query functions.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<layout::NativeLayout>()?;
    m.add_class::<reports::Instruction>()?;
    m.add_class::<reports::Tile>()?;
    queries::register(m)
}
