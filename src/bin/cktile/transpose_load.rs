//! `cktile transpose-load`: whether CK's `load_tile_transpose` accepts a
//! distribution for gfx950's transposing LDS read, and the registers it gives.

use crate::common::{Failure, bad, to_json};
use crate::distribution::load_distribution;
use cktile::analyzer::op::Op;
use cktile::distribution::catalogue::transpose::{TrElement, Verdict, transpose};
use cktile::json::TransposeJson;
use cktile::render;

/// Whether CK's load_tile_transpose accepts a distribution (gfx950's ds_read_b64_tr_b*), and the registers it returns.
#[derive(clap::Args)]
#[command(
    long_about = "Whether CK Tile's load_tile_transpose accepts a tile distribution for gfx950's transposing LDS read \
(ds_read_b64_tr_b16, _b8 or _b4), as its DefaultTranspose policy decides: for lane groups of 64, then 32, then 16 \
lanes, the distribution's H lengths must end with the instruction's quad pattern, its last P with the quad's lane \
components and its last Y must be X1's last H component (ValidationTraits). If one lane group size passes, it prints \
that size and the distribution of the registers the load returns (TransposedDstrEncode: X transposed, the outer H \
components swapped, the quad's output pattern appended), with its lengths and coverage; otherwise the first rule each \
lane group size breaks, with exit code 1. --reverse asks the reverse direction (InputTileDistributionTraits): the \
distribution to read with, for the registers given. The distribution's banks: cktile analyze LAYOUT --distribution \
ENCODING --op ds_read_b64_tr_b16.",
    after_help = "ENCODING: as cktile distribution takes it (CK's C++ spelling, cktile's, a catalogue name, @path or -).\n\n\
Examples:\n  cktile transpose-load 'tile_distribution_encoding<sequence<>, tuple<sequence<2, 1, 4>, \
sequence<1, 1, 1, 4, 4>>, tuple<sequence<1, 2, 2, 1, 2>>, tuple<sequence<0, 0, 2, 2, 3>>, sequence<2, 1, 2>, \
sequence<1, 1, 4>>' --op ds_read_b64_tr_b16\n  cktile transpose-load mfma16x16x16_a --op ds_read_b64_tr_b16 --json"
)]
pub struct Args {
    /// The distribution the window loads with: CK's spelling, cktile's, a catalogue name, `@path` or `-`.
    encoding: String,
    /// The transposing read: ds_read_b64_tr_b16 (2-byte elements), ds_read_b64_tr_b8 (1-byte) or ds_read_b64_tr_b4
    /// (4-bit).
    #[arg(long)]
    op: String,
    /// The reverse direction: ENCODING is the registers, and the answer the distribution to read with.
    #[arg(long)]
    reverse: bool,
    /// Print one JSON object: {"accepted", "lane_group", "op", "output", "refusals", "reverse"}.
    #[arg(long)]
    json: bool,
}

/// Runs `cktile transpose-load`: exit code 1 when CK refuses the distribution.
pub fn run(a: &Args) -> Result<String, Failure> {
    let elem = match Op::by_name(&a.op) {
        Ok(Op::DsReadTr { element_bits }) => TrElement::from_bits(element_bits),
        Ok(op @ Op::DsLoadTr { .. }) => {
            return Err(bad(format!(
                "--op: `{op}` is gfx1250's transposing load, for which CK Tile has no load_tile_transpose policy (it \
                 is modelled for gfx950's ds_read_b64_tr_b16, _b8 and _b4). gfx1250's exchange across lanes is AMD's \
                 MI450 blog's: read B with wmma16x16x32_gfx1250_b_tr16 (ds_load_tr16_b128) or \
                 wmma16x16x64_gfx1250_b_tr8 (ds_load_tr8_b64); their banks: cktile analyze LAYOUT --arch gfx1250 \
                 --distribution wmma16x16x32_gfx1250_b_tr16 --op {op}"
            )));
        }
        Ok(_) => None,
        Err(e) => return Err(bad(format!("--op: {e}"))),
    }
    .ok_or_else(|| {
        bad(format!(
            "--op: `{}` is not a transposing read; give ds_read_b64_tr_b16, ds_read_b64_tr_b8 or ds_read_b64_tr_b4",
            cktile::Visible(&a.op)
        ))
    })?;
    let (text, d) = load_distribution(&a.encoding)?;
    let v = transpose(d.encoding(), elem, a.reverse).map_err(|e| Failure::input(&text, e.into()))?;
    let out = if a.json {
        to_json(&TransposeJson::new(&v, elem, a.reverse).map_err(|e| Failure::input(&text, e))?)?
    } else {
        render::distribution::transpose(&v, elem, a.reverse).map_err(|e| Failure::input(&text, e))?
    };
    match v {
        Verdict::Accepted { .. } => Ok(out),
        Verdict::Refused(_) => Err(Failure { message: out.trim_end().to_string(), code: 1, stdout: true }),
    }
}
