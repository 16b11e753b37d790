//! What every subcommand shares: the failure type and its exit codes, the
//! arguments several subcommands take alike (a SPEC, `--dtype`, `--op`), and
//! reading a SPEC argument (text, `@file`, `-` or a catalogue entry).

use cktile::analyzer::{Arch, Op};
use cktile::reports::accesses::{Accesses, Unresolved};
use cktile::{Descriptor, Error, Visible, layouts};
use std::io::{Read, Write};

/// The help text of every SPEC argument.
const SPEC_HELP: &str = "A descriptor spec, a catalogue entry (`cktile catalogue`), `@path` to read one from a file, \
or `-` for stdin (files and stdin: at most 1 MiB). Examples: 'naive((4,8),(8,1)) | transform(merge((4,8)) on [0,1] -> [0])', \
'ck-universal-a:m=128,k=32,dtype=fp16'";

/// The SPEC argument: a descriptor's text, a catalogue entry, `@path` or `-`.
#[derive(clap::Args)]
pub struct Spec {
    #[arg(help = SPEC_HELP)]
    pub spec: String,
}

impl Spec {
    /// Reads the SPEC and builds its descriptor ([`load`]).
    pub fn load(&self) -> Result<(String, Descriptor), Failure> {
        load(&self.spec)
    }

    /// Reads the SPEC and builds its layout with its element type ([`load_typed`]).
    pub fn load_typed(&self, dtype: Option<&str>) -> Result<(String, layouts::Layout), Failure> {
        load_typed(&self.spec, dtype)
    }
}

/// `--arch` where it is required and any modelled chip will do (`analyze`, `search`).
#[derive(clap::Args)]
pub struct Chip {
    // The help lists every chip `Arch::by_name` takes, from the one list.
    #[arg(long, help = format!("The chip: {}", cktile::analyzer::arch::ARCH_NAMES))]
    pub arch: String,
}

impl Chip {
    /// The chip, or a refusal naming `--arch`.
    pub fn resolve(&self) -> Result<Arch, Failure> {
        chip(&self.arch)
    }
}

/// `--dtype` where a catalogue entry may carry its own element type
/// (`analyze`, `render`).
#[derive(clap::Args)]
pub struct LayoutDtype {
    #[arg(long, help = format!(
        "Element type: {}. Required for a spec or an entry without a dtype; a catalogue entry's own dtype is \
         used otherwise (and --dtype must agree with it)",
        cktile::layouts::DTYPE_LIST
    ))]
    pub dtype: Option<String>,
}

impl LayoutDtype {
    /// The element type given, if any.
    pub fn name(&self) -> Option<&str> {
        self.dtype.as_deref()
    }
}

/// `--op`, the instruction an access pattern issues (`analyze`, `render`).
#[derive(clap::Args)]
pub struct PatternOp {
    /// The instruction the pattern issues (e.g. ds_write_b128, ld.shared.b32, ldmatrix.x2.trans).
    #[arg(long)]
    pub op: Option<String>,
}

impl PatternOp {
    /// The instruction, if given, or a refusal naming `--op`.
    pub fn resolve(&self) -> Result<Option<Op>, Failure> {
        self.op.as_deref().map(Op::by_name).transpose().map_err(|e| bad(format!("--op: {e}")))
    }
}

/// The accesses `--pattern`, `--distribution` and `--op` name (`analyze`,
/// `render --view banks`), resolved by the library
/// ([`Accesses::resolve`]), with the distribution's text for messages that
/// point into it.
pub struct GivenAccesses {
    /// The accesses.
    pub accesses: Accesses,
    /// The text `--distribution` gave (a file's or stdin's for `@path` or
    /// `-`); empty for a pattern.
    encoding: String,
}

impl GivenAccesses {
    /// The accesses the three options name, or `None` when neither
    /// `--pattern` nor `--distribution` is given, for the caller to say
    /// what is missing; a refusal names the option at fault.
    pub fn resolve(
        pattern: Option<&str>,
        distribution: Option<&str>,
        op: Option<Op>,
    ) -> Result<Option<GivenAccesses>, Failure> {
        let encoding = distribution.map(read_spec).transpose()?;
        let accesses = Accesses::resolve(pattern, encoding.as_deref(), op).map_err(|e| match e {
            Unresolved::Pattern(e) => bad(format!("--pattern: {e}")),
            Unresolved::Distribution(e) => Failure::input(encoding.as_deref().unwrap_or_default(), e),
            Unresolved::NoOp(_) => bad("--distribution needs the instruction it issues (--op)".into()),
        })?;
        Ok(accesses.map(|accesses| GivenAccesses { accesses, encoding: encoding.unwrap_or_default() }))
    }

    /// A failure of the accesses over a layout whose spec is `spec`: an
    /// error with a position points into the encoding, any other into the
    /// spec.
    pub fn failure(&self, spec: &str, e: Error) -> Failure {
        match self.accesses {
            Accesses::Window { .. } if e.position().is_some() => Failure::input(&self.encoding, e),
            _ => Failure::input(spec, e),
        }
    }
}

/// A descriptor's lengths as `ROWSxCOLS` (any number of dimensions).
pub fn shape(desc: &Descriptor) -> String {
    lengths_text(desc.lengths().as_slice())
}

/// Lengths as `ROWSxCOLS` (any number of them).
pub fn lengths_text(lengths: &[i64]) -> String {
    let lengths: Vec<String> = lengths.iter().map(|l| l.to_string()).collect();
    lengths.join("x")
}

/// `--arch` parsed, or a refusal naming it.
pub fn chip(name: &str) -> Result<Arch, Failure> {
    Arch::by_name(name).map_err(|e| bad(format!("--arch: {e}")))
}

/// A failure and the exit code it maps to: 2 for bad input, 1 for I/O; or
/// (`stdout`) an answer that exits non-zero, such as `cktile equiv`'s
/// "different maps".
pub struct Failure {
    /// The message printed on stderr (on stdout for an answer).
    pub message: String,
    /// The exit code.
    pub code: u8,
    /// Whether the message is the command's answer, printed on stdout.
    pub stdout: bool,
}

impl Failure {
    /// A bad input: the error, and the line it points at with a caret.
    pub fn input(source: &str, e: Error) -> Failure {
        let mut message = format!("error: {e}");
        if let Some(at) = e.position()
            && !source.is_empty()
        {
            message.push('\n');
            message.push_str(&cktile::spec::excerpt(source, at));
        }
        Failure { message, code: 2, stdout: false }
    }
}

/// The most bytes read from a file or stdin (a spec, or `cktile bank`'s
/// request): far more than any spec or request needs, and refused beyond.
pub const MAX_INPUT_BYTES: u64 = 1 << 20;

/// Reads at most [`MAX_INPUT_BYTES`] of UTF-8 text from `source` (named
/// `what` in messages): a longer input is refused, never read to its end.
pub fn read_bounded(source: impl Read, what: &str) -> Result<String, Failure> {
    read_limited(
        source,
        what,
        (MAX_INPUT_BYTES, "1 MiB"),
        "the most cktile reads; a spec or request is a few kilobytes at most",
    )
}

/// Reads at most `limit.0` bytes (`limit.1` in words) of UTF-8 text from
/// `source`; `why` follows the size in the refusal of a longer input.
pub fn read_limited(source: impl Read, what: &str, limit: (u64, &str), why: &str) -> Result<String, Failure> {
    let (max, words) = limit;
    let mut bytes = Vec::new();
    source.take(max + 1).read_to_end(&mut bytes).map_err(|e| io(format!("cannot read {what}: {e}")))?;
    if bytes.len() as u64 > max {
        return Err(bad(format!("{what} is longer than {max} bytes ({words}), {why}")));
    }
    String::from_utf8(bytes).map_err(|e| bad(format!("{what} is not UTF-8 text ({e})")))
}

/// The text of a SPEC argument: itself, `@path`'s contents, or stdin for `-`.
pub fn read_spec(arg: &str) -> Result<String, Failure> {
    if arg == "-" {
        read_bounded(std::io::stdin().lock(), "stdin")
    } else if let Some(path) = arg.strip_prefix('@') {
        let file = std::fs::File::open(path).map_err(|e| io(format!("cannot read `{}`: {e}", Visible(path))))?;
        read_bounded(file, &format!("`{}`", Visible(path)))
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

/// A report as one line of JSON (the library's typed view of it), with
/// hidden characters escaped ([`cktile::json::to_text`]).
pub fn to_json<T: serde::Serialize>(view: &T) -> Result<String, Failure> {
    cktile::json::to_text(view).map_err(|e| io(format!("cannot write the JSON report: {e}")))
}

/// A writer of JSON text that passes it through [`cktile::json::escape_hidden`] (for
/// [`stream_json`], under its buffer); a character split between two
/// writes is held until its last byte comes.
struct VisibleJson<W: Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: Write> VisibleJson<W> {
    /// Writes whole characters, escaped where they need it.
    fn put(&mut self, text: &str) -> std::io::Result<()> {
        if text.contains(cktile::is_hidden) {
            self.inner.write_all(cktile::json::escape_hidden(text).as_bytes())
        } else {
            self.inner.write_all(text.as_bytes())
        }
    }
}

impl<W: Write> Write for VisibleJson<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.pending.is_empty()
            && let Ok(text) = std::str::from_utf8(buf)
        {
            self.put(text)?;
            return Ok(buf.len());
        }
        let mut bytes = std::mem::take(&mut self.pending);
        bytes.extend_from_slice(buf);
        let whole = match std::str::from_utf8(&bytes) {
            Ok(text) => text.len(),
            // An incomplete character at the end waits for its next bytes.
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "the JSON is not UTF-8")),
        };
        self.put(std::str::from_utf8(&bytes[..whole]).unwrap_or_default())?;
        self.pending = bytes.split_off(whole);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
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

/// Writes a large report as JSON straight to stdout, element by element,
/// without building it in memory; returns the empty text for `main` to
/// finish with the newline. A closed pipe ends the output quietly.
pub fn stream_json<T: serde::Serialize>(view: &T) -> Result<String, Failure> {
    let mut out = std::io::BufWriter::new(VisibleJson { inner: std::io::stdout().lock(), pending: Vec::new() });
    let written = serde_json::to_writer(&mut out, view).map_err(std::io::Error::from).and_then(|()| out.flush());
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(io(format!("cannot write the output: {e}"))),
        _ => Ok(String::new()),
    }
}

/// Runs `work`, which reports `(done, total)`, with a progress bar on stderr
/// when stderr is a terminal (never on a pipe, a file or in tests).
pub fn with_progress<T>(what: &'static str, work: impl FnOnce(&mut dyn FnMut(u64, u64)) -> T) -> T {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return work(&mut |_, _| {});
    }
    let bar = indicatif::ProgressBar::new(0).with_message(what);
    let style = indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {percent:>3}% {elapsed}/{duration}")
        .map(|s| s.progress_chars("=> "));
    if let Ok(style) = style {
        bar.set_style(style);
    }
    let out = work(&mut |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    });
    bar.finish_and_clear();
    out
}

/// An input or output failure: exit code 1.
pub fn io(message: String) -> Failure {
    Failure { message: format!("error: {message}"), code: 1, stdout: false }
}

/// Writes `text` to the file `path` (`--output`).
pub fn write_file(path: &str, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text).map_err(|e| io(format!("cannot write `{}`: {e}", Visible(path))))
}

/// A comma-separated list of integers given to `flag`; `hint` (such as
/// "write the coordinate as e.g. 3,9") ends the message for a bad one.
pub fn integers(flag: &str, text: &str, hint: &str) -> Result<Vec<i64>, Failure> {
    text.split(',')
        .map(|s| {
            let s = s.trim();
            s.parse::<i64>().map_err(|_| bad(format!("{flag}: `{}` is not an integer; {hint}", Visible(s))))
        })
        .collect()
}

/// A bad request: exit code 2.
pub fn bad(message: String) -> Failure {
    Failure { message: format!("error: {message}"), code: 2, stdout: false }
}

/// An analyzer error (no source text to point into).
pub fn analysis(e: Error) -> Failure {
    Failure::input("", e)
}

/// The parser of a count or size option: a non-negative integer. A negative
/// value is refused as negative (the plain unsigned parser would call its
/// `-` an invalid digit); any other bad value gets the parser's own message.
pub fn non_negative<T: std::str::FromStr<Err = std::num::ParseIntError>>(text: &str) -> Result<T, String> {
    text.parse::<T>().map_err(|e| match text.parse::<i128>() {
        Ok(value) if value < 0 => format!("{value} is negative; it must be a non-negative integer"),
        _ => e.to_string(),
    })
}
