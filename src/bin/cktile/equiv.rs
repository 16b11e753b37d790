//! `cktile equiv`: whether two layouts, or two tile distributions, are the same map.

use crate::common::{Failure, bad, read_spec, to_json};
use cktile::check::equiv::equivalent;
use cktile::distribution::Distribution;
use cktile::json::EquivJson;
use cktile::lanes::equiv;
use cktile::spelling::{is_encoding_text, resolve};
use cktile::{layouts, render};

/// Whether two layouts (or two distributions) are the same map, proved, or where they first differ.
#[derive(clap::Args)]
#[command(
    long_about = "Whether two layouts are the same map (the same lengths, and at every coordinate the same validity \
and offset), or two tile distributions (the same X and P lengths, and every thread and register owning the same element; \
registers are Y indices, or thread-buffer indices D when the Y lengths differ and the buffers do not). The answer is proved: by comparing every coordinate (up to the enumeration limit, 2^24 at most), or for \
layouts whose chains are both linear over GF(2) on the coordinate bits (every transform linear, every length a power \
of two) by comparing the offsets of the single-bit coordinates, at any size. Otherwise it names the first coordinate \
where they differ with both answers, or says it is undecided and why. Exit code 0 for the same map, 1 for different \
maps, 3 for undecided, 2 for bad input or an unreadable file.",
    after_help = "Both A and B are spec text, catalogue entries, `@path` or `-` (one of them), as every command \
takes them; distributions are CK's tile_distribution_encoding<...>, cktile's distribution(...) or catalogue names, \
in either spelling. --kind picks which (by default: distributions when A is written as one, CK's tile_distribution_encoding<...>, cktile's distribution(...) or a catalogue name; else layouts, so a malformed layout gets its own error).\n\n\
Examples:\n  \
cktile equiv ck-universal-a:m=128,k=64 cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=64\n  \
cktile equiv ck-xor-lds:m=128,k=32,kpack=8,mlds=2,form=2024 cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=32\n  \
cktile equiv 'packed((8192,4096))' 'naive((8192,4096),(4096,1))' --json\n  \
cktile equiv mfma16x16x16_a 'distribution(r(), h((16), (4,4)), p((h1[0], h0[0])), y(h1[1]))'"
)]
pub struct Args {
    /// The first layout or distribution.
    a: String,
    /// The second.
    b: String,
    /// What A and B are: layout or distribution (default: a layout when A reads as one).
    #[arg(long, value_parser = ["layout", "distribution"])]
    kind: Option<String>,
    /// Print one JSON object instead of the text.
    #[arg(long)]
    json: bool,
}

/// The exit code of an undecided answer (0 is the same map, 1 different, 2 bad input).
const UNDECIDED: u8 = 3;

/// Runs `cktile equiv`; a different map or an undecided answer prints its
/// report and exits 1 or 3.
pub fn run(a: &Args) -> Result<String, Failure> {
    if a.a == "-" && a.b == "-" {
        return Err(bad("A and B cannot both be `-` (stdin)".into()));
    }
    // A file that cannot be read is trouble (2), as for diff and cmp: 1 means different maps here.
    let read = |arg: &str| read_spec(arg).map_err(|f| Failure { code: 2, ..f });
    let (ta, tb) = (read(&a.a)?, read(&a.b)?);
    let as_layout = match a.kind.as_deref() {
        Some(kind) => kind == "layout",
        // A layout when A reads as one, or when it is not written as an
        // encoding: then a malformed A gets its own layout error.
        None => layouts::resolve(&ta).is_ok() || !is_encoding_text(&ta),
    };
    let (json, text, same) = if as_layout {
        let da = layouts::resolve(&ta).map_err(|e| named("A", &ta, e))?;
        let db = layouts::resolve(&tb).map_err(|e| named("B", &tb, e))?;
        let v = equivalent(&da, &db);
        (EquivJson::layouts(&v), render::equiv::layouts(&a.a, &a.b, &v), v.same())
    } else {
        let load = |name: &str, text: &str| {
            resolve(text).and_then(|e| Ok(Distribution::new(e)?)).map_err(|e| named(name, text, e))
        };
        let (da, db) = (load("A", &ta)?, load("B", &tb)?);
        let v = equiv::equivalent(&da, &db).map_err(|e| named("A", "", e))?;
        let same = Some(v.is_same());
        (EquivJson::distributions(&v), render::equiv::distributions(&v), same)
    };
    let out = if a.json { to_json(&json)? } else { text };
    match same {
        Some(true) => Ok(out),
        Some(false) => Err(Failure { message: out.trim_end().to_string(), code: 1, stdout: true }),
        None => Err(Failure { message: out.trim_end().to_string(), code: UNDECIDED, stdout: true }),
    }
}

/// An input error, its message naming the argument (A or B).
fn named(name: &str, text: &str, e: cktile::Error) -> Failure {
    let mut f = Failure::input(text, e);
    f.message = f.message.replacen("error: ", &format!("error: {name}: "), 1);
    f
}
