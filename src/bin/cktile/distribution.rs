//! `cktile distribution`: a tile distribution's lengths and every thread's coordinates.

use crate::common::{Failure, read_spec, to_json};
use cktile::distribution::{Distribution, Table, resolve};
use cktile::json::DistributionJson;
use cktile::render;

/// A tile distribution (CK's tile_distribution_encoding): lengths, and the X coordinate of every (P..., Y...).
#[derive(clap::Args)]
#[command(
    long_about = "A tile distribution: CK Tile's tile_distribution_encoding<R, H, P2RH major, P2RH minor, \
Y2RH major, Y2RH minor>, built as make_static_tile_distribution builds it. Prints the X, P, Y and R lengths, the X \
coordinate of every (P..., Y...) index (one line per P, its Ys in thread-buffer order) and, for a 2-D X, the owner \
(P:D) of every element. Encodings with more than 2^24 (P..., Y...) indices are refused.",
    after_help = "ENCODING: CK's C++ spelling (with or without ck_tile::, make_static_tile_distribution(...) or \
`using NAME = ...;`), cktile's spelling (distribution(r(...), h((...), ...), p((REFS), ...), y(REFS)), where a REF is \
r[i] or hX[i], the i-th R or H component of X dimension X), a catalogue name (mfma32x32x8_a, mfma16x16x16_c, \
mfma32x32x16_b_swizzled, ...), `@path` or `-`. The report prints both spellings.\n\n\
Examples:\n  cktile distribution mfma32x32x8_a\n  \
cktile distribution 'distribution(r(), h((32), (2, 4)), p((h1[0], h0[0])), y(h1[1]))'\n  \
cktile distribution 'tile_distribution_encoding<sequence<1>, tuple<sequence<2, 4, 16>, sequence<4, 8>>, \
tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>, sequence<1, 2>, sequence<0, 1>>'\n  \
cktile distribution @encoding.txt --json"
)]
pub struct Args {
    /// The encoding: CK's C++ spelling, cktile's `distribution(...)`, a catalogue name, `@path` or `-`.
    encoding: String,
    /// Print one JSON object: {"compact", "encoding", "p_lengths", "r_lengths", "x_lengths", "xs", "y_lengths",
    /// "ys_to_d"}.
    #[arg(long)]
    json: bool,
}

/// Reads an ENCODING argument (CK's spelling, a catalogue name, `@path` or
/// `-`) and builds its distribution.
pub fn load_distribution(arg: &str) -> Result<(String, Distribution), Failure> {
    let text = read_spec(arg)?;
    let d = resolve(&text).and_then(Distribution::new).map_err(|e| Failure::input(&text, e))?;
    Ok((text, d))
}

/// Runs `cktile distribution`.
pub fn run(a: &Args) -> Result<String, Failure> {
    let (text, d) = load_distribution(&a.encoding)?;
    let table = Table::new(&d).map_err(|e| Failure::input(&text, e))?;
    if a.json {
        return to_json(&DistributionJson::new(&d, &table));
    }
    Ok(render::distribution::distribution(&d, &table))
}
