//! What every subcommand shares: the failure type and its exit codes, and
//! reading a SPEC argument (text, `@file`, `-` or a catalogue entry).

use cktile::{Descriptor, Error, layouts};
use std::io::Read;

/// The help text of every SPEC argument.
pub const SPEC_HELP: &str = "A descriptor spec, a catalogue entry (`cktile catalog`), `@path` to read one from a file, \
or `-` for stdin. Examples: 'naive((4,8),(8,1)) | transform(merge((4,8)) on [0,1] -> [0])', \
'ck-universal-a:m=128,k=32,dtype=fp16'";

/// A failure and the exit code it maps to: 2 for bad input, 1 for I/O.
pub struct Failure {
    /// The message printed on stderr.
    pub message: String,
    /// The exit code.
    pub code: u8,
}

impl Failure {
    /// A bad input: the error, and the line it points at with a caret.
    pub fn input(source: &str, e: Error) -> Failure {
        let mut message = format!("error: {e}");
        if let Some(at) = e.position() {
            if let Some(line) = source.lines().nth(at.line.saturating_sub(1) as usize) {
                let caret = " ".repeat(at.column.saturating_sub(1) as usize);
                message.push_str(&format!("\n  |\n  | {line}\n  | {caret}^"));
            }
        }
        Failure { message, code: 2 }
    }
}

/// The text of a SPEC argument: itself, `@path`'s contents, or stdin for `-`.
pub fn read_spec(arg: &str) -> Result<String, Failure> {
    let io = |what: String, e: std::io::Error| Failure { message: format!("error: cannot read {what}: {e}"), code: 1 };
    if arg == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map_err(|e| io("stdin".into(), e))?;
        Ok(text)
    } else if let Some(path) = arg.strip_prefix('@') {
        std::fs::read_to_string(path).map_err(|e| io(format!("`{path}`"), e))
    } else {
        Ok(arg.to_string())
    }
}

/// Reads a SPEC argument and builds its descriptor.
pub fn load(arg: &str) -> Result<(String, Descriptor), Failure> {
    let text = read_spec(arg)?;
    let desc = layouts::resolve(&text).map_err(|e| Failure::input(&text, e))?;
    Ok((text, desc))
}

/// A report as one line of JSON (the library's typed view of it).
pub fn to_json<T: serde::Serialize>(view: &T) -> Result<String, Failure> {
    serde_json::to_string(view)
        .map_err(|e| Failure { message: format!("error: cannot write the JSON report: {e}"), code: 1 })
}

/// Reads a SPEC argument and builds its layout with its element type: the
/// catalogue entry's own, or `--dtype` (which must agree with an entry's).
pub fn load_typed(arg: &str, dtype: Option<&str>) -> Result<(String, layouts::Layout), Failure> {
    if let Some(d) = dtype {
        layouts::dtype_bytes(d).map_err(|e| bad(format!("--dtype: {e}")))?;
    }
    let text = read_spec(arg)?;
    let layout = layouts::resolve_typed(&text, dtype).map_err(|e| Failure::input(&text, e))?;
    Ok((text, layout))
}

/// The element size of a layout, or a refusal naming it when neither its
/// text nor `--dtype` gives one.
pub fn element_bytes(layout: &layouts::Layout) -> Result<usize, Failure> {
    layout.require_element_bytes().map_err(|e| bad(format!("{e}")))
}

/// A bad request: exit code 2.
pub fn bad(message: String) -> Failure {
    Failure { message: format!("error: {message}"), code: 2 }
}

/// An analyzer error (no source text to point into).
pub fn analysis(e: Error) -> Failure {
    Failure::input("", e)
}
