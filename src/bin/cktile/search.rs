//! `cktile search`: the layouts of a tile that cost the fewest bank passes
//! for its writes and reads, searched over the catalogue's families.

use crate::common::{Chip, Failure, bad, to_json};
use cktile::export::Peer;
use cktile::json::SearchJson;
use cktile::layouts;
use cktile::render;
use cktile::reports::models::Model;
use cktile::search::{Access, Problem, Role, search_with_progress, under_model};

/// Search the catalogue's layout families for the tile layouts with the fewest bank passes.
#[derive(clap::Args)]
#[command(
    long_about = "Search the layout families (CK Tile XOR layouts, CuTe swizzles, Triton swizzled encodings, row \
padding, every GF(2)-linear swizzle of the column's vectors by the row bits) for the layouts of a row-major tile that \
cost the fewest passes through the banks over all its writes and reads; ties go to fewer extra bytes, then fewer \
transforms. Prints the best layouts with their catalogue entries and specs, the Pareto front of cycles against extra \
bytes, the size of each family searched, and, when nothing is conflict-free, the proved lower bound and why.",
    after_help = "Limits: a tile of at most 2^20 elements; the patterns together make at most 2^24 lane accesses; \
the search takes at most 2^28 (268435456) work units: every candidate layout costs its lane accesses plus the tile's \
elements, every xor-linear class its instruction shapes. The work is computed before anything is counted: a larger \
problem is refused with the numbers (use a smaller tile or fewer accesses), except that when the xor-linear family \
alone would take it past the bound, that family is left out (its row in the report says so, with its numbers) and \
the others are searched; 2^28 units take about half a minute. On a terminal a progress bar shows the work done.\n\n\
Accesses (--write / --read, repeatable):\n  \
OP:row, OP:column   vector walks along rows or down columns (OP: ds_write_b128, st.shared.b64, ...)\n  \
mfma16x16x16:a      MFMA operand read (also mfma32x32x8; :ds_read_b64 for 8-byte reads)\n  \
ldmatrix.x4[.trans], stmatrix.x4, mma_sync_a\n  \
DIST:OP             a CK tile window over a distribution (a catalogue name such as mfma16x16x32_a, CK's \
tile_distribution_encoding<...> or cktile's distribution(...)) issuing OP, repeated over the tile as CK's block GEMM iterates warp tiles\n\n\
Examples:\n  \
cktile search --tile 128x64 --dtype fp16 --arch gfx942 --write ds_write_b128:row --read mfma16x16x16:a\n  \
cktile search --tile 128x64 --dtype fp16 --arch gfx942 --write ds_write_b128:row --read mfma16x16x32_a:ds_read_b128\n  \
cktile search --tile 64x64 --dtype fp16 --arch sm90 --write st.shared.b128:row --read ldmatrix.x4 --json\n  \
cktile search --tile 64x32 --dtype fp32 --arch sm80 --write st.shared.b32:row --read ld.shared.b32:column --max-padding-bytes 0\n  \
cktile search --tile 64x64 --dtype fp16 --arch gfx942 --write ds_write_b128:row --read mfma16x16x16:a --as triton"
)]
pub struct Args {
    /// The tile: ROWSxCOLS (row-major; vectors run along rows).
    #[arg(long)]
    tile: String,
    #[arg(long, help = format!("Element type: {} (every layout printed carries it)", cktile::layouts::DTYPE_LIST))]
    dtype: String,
    #[command(flatten)]
    arch: Chip,
    /// A write access (repeatable), e.g. ds_write_b128:row.
    #[arg(long = "write", value_name = "ACCESS")]
    writes: Vec<String>,
    /// A read access (repeatable), e.g. mfma16x16x16:a or mfma16x16x32_a:ds_read_b128.
    #[arg(long = "read", value_name = "ACCESS")]
    reads: Vec<String>,
    /// The most padding a layout may add, in bytes.
    #[arg(long, value_name = "BYTES", value_parser = crate::common::non_negative::<u64>, allow_negative_numbers = true)]
    max_padding_bytes: Option<u64>,
    /// Elements that must stay contiguous along a row: a power of two (1, 2, 4, ...), raised to the widest
    /// access's width when narrower (default: the widest access).
    #[arg(long, value_name = "ELEMENTS", value_parser = crate::common::non_negative::<usize>, allow_negative_numbers = true)]
    vector: Option<usize>,
    /// How many of the equally good layouts to list.
    #[arg(long, default_value_t = cktile::search::DEFAULT_LISTED, value_parser = crate::common::non_negative::<usize>, allow_negative_numbers = true)]
    top: usize,
    /// Print one JSON object instead of the text report.
    #[arg(long)]
    json: bool,
    // The models, from the library's list.
    #[arg(long, help = format!(
        "Also judge the listed layouts (up to --top) under this public model of AMD's LDS: {}; each access's worst \
         ways by the model, or its refusal where its source is silent (the ranking stays cktile's table)",
        cktile::reports::models::MODEL_NAMES
    ))]
    model: Option<String>,
    /// Also give the best layout and the listed equally good ones (up to --top) in a peer's own terms:
    /// triton (Gluon's SharedLinearLayout or PaddedSharedLayout) or cute (CuTe's text), each checked at every
    /// coordinate, or the peer's refusal. With --json, each listed layout gets an "answer".
    #[arg(long = "as", value_name = "PEER")]
    peer: Option<String>,
}

/// A `--tile ROWSxCOLS` argument.
pub fn tile(text: &str) -> Result<(usize, usize), Failure> {
    let parsed = text.split_once(['x', 'X']).and_then(|(r, c)| Some((r.trim().parse().ok()?, c.trim().parse().ok()?)));
    parsed.ok_or_else(|| bad(format!("--tile: `{}` is not ROWSxCOLS; write e.g. --tile 128x64", cktile::Visible(text))))
}

/// Runs `cktile search`.
pub fn run(a: &Args) -> Result<String, Failure> {
    let (rows, cols) = tile(&a.tile)?;
    let element_bytes = layouts::dtype_bytes(&a.dtype).map_err(|e| bad(format!("--dtype: {e}")))?;
    let arch = a.arch.resolve()?;
    let mut problem = Problem::new(rows, cols, element_bytes, arch);
    for w in &a.writes {
        problem = problem.access(Role::Write, Access::parse(w).map_err(|e| bad(format!("--write: {e}")))?);
    }
    for r in &a.reads {
        problem = problem.access(Role::Read, Access::parse(r).map_err(|e| bad(format!("--read: {e}")))?);
    }
    if let Some(m) = a.max_padding_bytes {
        problem = problem.max_padding_bytes(m);
    }
    if let Some(v) = a.vector {
        problem = problem.vector(v);
    }
    let model = a.model.as_deref().map(Model::by_name).transpose().map_err(|e| bad(format!("--model: {e}")))?;
    let peer = a.peer.as_deref().map(Peer::by_name).transpose().map_err(|e| bad(format!("--as: {e}")))?;
    let r = crate::common::with_progress("searching", |progress| search_with_progress(&problem, progress));
    let r = r.map_err(|e| bad(format!("{e}")))?;
    let judged = match model {
        Some(m) => Some((m, under_model(&r, m, a.top.max(1)).map_err(|e| bad(format!("--model: {e}")))?)),
        None => None,
    };
    if a.json {
        let mut json = SearchJson::new(&r);
        if let Some((m, j)) = &judged {
            json = json.with_model(*m, j);
        }
        if let Some(p) = peer {
            json = json.with_answers(&r, p);
        }
        return to_json(&json);
    }
    let mut out = render::search::report(&r, a.top);
    if let Some((m, j)) = &judged {
        out.push_str(&render::search::under_model(*m, j));
    }
    if let Some(p) = peer {
        out.push_str(&render::search::answers(&r, a.top, p));
    }
    Ok(out)
}
