//! `cktile distribution`: a tile distribution's lengths and every thread's coordinates.

use crate::common::{Failure, bad, integers, lengths_text, load, read_spec, shape, to_json};
use cktile::distribution::Distribution;
use cktile::json::DistributionJson;
use cktile::lanes::{Table, coverage::Coverage};
use cktile::render;
use cktile::spelling::resolve;

/// A tile distribution (CK's tile_distribution_encoding): lengths, and the X coordinate of every (P..., Y...).
#[derive(clap::Args)]
#[command(
    long_about = "A tile distribution: CK Tile's tile_distribution_encoding<R, H, P2RH major, P2RH minor, \
Y2RH major, Y2RH minor>, built as make_static_tile_distribution builds it. Prints the X, P, Y and R lengths, the X \
coordinate of every (P..., Y...) index (one line per P, its Ys in thread-buffer order) and, for a 2-D X, the owner \
(P:D) of every element. The coverage line says whether every element of the tile (--tile, else X itself) is held, \
how many times (replication through R, and which P steps hold the copies), and the first element missing or \
outside. Encodings with more than 2^24 (P..., Y...) indices are refused. Exit code 1 when --tile is given and the \
tile is not exactly covered.",
    after_help = "ENCODING: CK's C++ spelling (with or without ck_tile::, make_static_tile_distribution(...) or \
`using NAME = ...;`), cktile's spelling (distribution(r(...), h((...), ...), p((REFS), ...), y(REFS)), where a REF is \
r[i] or hX[i], the i-th R or H component of X dimension X), a catalogue name (mfma32x32x8_a, mfma16x16x16_c, \
mfma32x32x16_b_swizzled, wmma16x16x16_gfx11_a, ...), one of CK's 2-D access patterns \
({thread,warp,block}_raked_{BLOCK}x{Y}x{X}_v{VEC}[_w32][_g{GROUPS}][_packed|_shuffled]), `@path` or `-`. The report \
prints both spellings.\n\n\
Examples:\n  cktile distribution mfma32x32x8_a\n  \
cktile distribution 'distribution(r(), h((32), (2, 4)), p((h1[0], h0[0])), y(h1[1]))'\n  \
cktile distribution 'tile_distribution_encoding<sequence<1>, tuple<sequence<2, 4, 16>, sequence<4, 8>>, \
tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>, sequence<1, 2>, sequence<0, 1>>'\n  \
cktile distribution warp_raked_256x128x32_v8 --tile 128,32 --brief\n  \
cktile distribution mfma16x16x16_a --brief --compose 'packed((16,16))'\n  \
cktile distribution @encoding.txt --json"
)]
pub struct Args {
    /// The encoding: CK's C++ spelling, cktile's `distribution(...)`, a catalogue name, `@path` or `-`.
    encoding: String,
    /// The tile the distribution should cover, one length per X dimension (e.g. 128,32); X's own lengths if not
    /// given.
    #[arg(long, value_name = "LENGTHS")]
    tile: Option<String>,
    /// Also print the distribution composed with this layout of its X (a spec, a catalogue name, `@path` or
    /// `-`): the descriptor over (P..., Y...) that gives the offset of every lane's elements, as a spec for `cktile
    /// offsets`, `check` or `codegen`.
    #[arg(long, value_name = "LAYOUT")]
    compose: Option<String>,
    /// Print only the encoding, the lengths and the coverage line (not every thread's coordinates).
    #[arg(long, conflicts_with = "json")]
    brief: bool,
    /// Print one JSON object: {"compact", "composed" (with --compose: {"descriptor", "layout"}), "coverage",
    /// "encoding", "p_lengths", "r_lengths", "x_lengths", "xs", "y_lengths", "ys_to_d"}.
    #[arg(long)]
    json: bool,
}

/// Reads an ENCODING argument (CK's spelling, a catalogue name, `@path` or
/// `-`) and builds its distribution.
pub fn load_distribution(arg: &str) -> Result<(String, Distribution), Failure> {
    let text = read_spec(arg)?;
    let d = resolve(&text).and_then(|e| Ok(Distribution::new(e)?)).map_err(|e| Failure::input(&text, e))?;
    Ok((text, d))
}

/// Runs `cktile distribution`.
pub fn run(a: &Args) -> Result<String, Failure> {
    if a.encoding == "-" && a.compose.as_deref() == Some("-") {
        return Err(bad("ENCODING and --compose both read stdin (`-`); give one of them as text or `@path`".into()));
    }
    let (text, d) = load_distribution(&a.encoding)?;
    let table = Table::new(&d).map_err(|e| Failure::input(&text, e))?;
    let tile =
        a.tile.as_deref().map(|t| integers("--tile", t, "write the tile's lengths as e.g. 128,32")).transpose()?;
    let coverage = Coverage::new(&d, tile.as_deref()).map_err(|e| bad(format!("--tile: {e}")))?;
    let composed = match &a.compose {
        Some(arg) if arg == "-" && a.encoding == "-" => {
            return Err(
                bad("ENCODING and --compose both read stdin (`-`); give one of them as text or `@path`".into()),
            );
        }
        Some(arg) => {
            let (layout, desc) = load(arg)?;
            let want = d.x_lengths();
            if desc.lengths() != want {
                return Err(bad(format!(
                    "--compose {layout}: the layout is {}, and a layout of this distribution's X is {} (its X \
                     lengths)",
                    shape(&desc),
                    lengths_text(want.as_slice())
                )));
            }
            let lanes = d.compose_descriptor(&desc).map_err(|e| bad(format!("--compose {layout}: {e}")))?;
            Some((layout, lanes))
        }
        None => None,
    };
    let out = if a.json {
        let view = DistributionJson::new(&d, &table, &coverage);
        to_json(&match &composed {
            Some((layout, lanes)) => view.composed(layout, lanes),
            None => view,
        })?
    } else {
        let mut out = if a.brief {
            render::distribution::summary(&d, &coverage)
        } else {
            render::distribution::distribution(&d, &table, &coverage)
        };
        if let Some((layout, lanes)) = &composed {
            out.push_str(&render::distribution::composed(layout, lanes));
        }
        out
    };
    if tile.is_some() && !coverage.is_complete() {
        return Err(Failure { message: out.trim_end().to_string(), code: 1, stdout: true });
    }
    Ok(out)
}
