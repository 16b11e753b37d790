//! `cktile analyze`: a tile layout under an access pattern, instruction by instruction.

use crate::common::{Chip, Failure, GivenAccesses, LayoutDtype, PatternOp, Spec, bad, element_bytes, shape, to_json};
use cktile::export::Peer;
use cktile::json::TileJson;
use cktile::render;

/// Bank conflicts of a tile layout under an access pattern: every instruction, then the worst phase.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("accesses").required(true).args(["pattern", "distribution"])))]
#[command(
    after_help = "Limits: a tile of at most 2^24 (16777216) elements (rows x cols); a larger one is refused, so analyse a slice \
of it. SPEC files and stdin: at most 1 MiB.\n\nPatterns (--pattern NAME, with --op for the instruction):\n  \
rows        each lane accesses one --op-wide vector along a row, lanes walk the tile row by row (needs --op)\n  \
columns     as rows, but lanes walk down a column of vectors first (needs --op)\n  \
mfma16      AMD MFMA 16x16 operand read (--op ds_read_b128 by default, or ds_read_b64); also named mfma16x16x16, mfma16x16x32\n  \
mfma32      AMD MFMA 32x32 operand read (--op ds_read_b128 by default, or ds_read_b64); also named mfma32x32x8, mfma32x32x16\n  \
ldmatrix    NVIDIA ldmatrix fragments (--op ldmatrix.x4 by default; ldmatrix/stmatrix .x1|.x2|.x4[.trans])\n  \
mma_sync_a  NVIDIA mma.sync m16n8k16 A fragment with ld.shared.b32\n\n\
Examples:\n  \
cktile analyze 'packed((128,64))' --arch gfx942 --pattern mfma16 --dtype fp16\n  \
cktile analyze ck-universal-a:m=128,k=64 --arch gfx942 --pattern rows --op ds_write_b128\n  \
cktile analyze 'cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64' --arch sm90 --pattern ldmatrix --json --dtype fp16\n  \
cktile analyze 'packed((64,64))' --arch sm80 --pattern columns --op ld.shared.b32 --dtype fp32\n  \
cktile analyze ck-universal-a:m=128,k=32 --arch gfx942 --distribution mfma16x16x32_a --op ds_read_b128\n  \
cktile analyze 'cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64' --arch sm90 --pattern ldmatrix --dtype fp16 --as cute"
)]
pub struct Args {
    #[command(flatten)]
    spec: Spec,
    #[command(flatten)]
    arch: Chip,
    #[arg(long, help = format!("The access pattern: {} (see below)", cktile::analyzer::pattern_name::PATTERN_NAMES))]
    pattern: Option<String>,
    /// Instead of a pattern, the accesses of a CK tile window over this tile distribution (CK's
    /// tile_distribution_encoding<...> or a catalogue name, as `cktile distribution` takes): per warp, one
    /// --op instruction per access of the Y space, --op's width along the vector Y.
    #[arg(long, value_name = "ENCODING")]
    distribution: Option<String>,
    #[command(flatten)]
    op: PatternOp,
    #[command(flatten)]
    dtype: LayoutDtype,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    // The models, from the library's list.
    #[arg(long, help = format!(
        "Answer with this public model of AMD's LDS instead of cktile's table (a --pattern's or a --distribution window's instructions): {}; prints the worst \
         ways over the tile's instructions beside cktile's, or the model's refusal where its source is silent",
        cktile::reports::models::MODEL_NAMES
    ))]
    model: Option<String>,
    /// Also give the analysed layout in a peer's own terms: triton (Gluon's SharedLinearLayout or
    /// PaddedSharedLayout) or cute (CuTe's text), checked at every coordinate, or the peer's refusal naming what
    /// it lacks. With --json, under "answer".
    #[arg(long = "as", value_name = "PEER")]
    peer: Option<String>,
    /// gfx1250 with --distribution: the LDS byte address of the layout's offset 0, for the partition check
    /// (which 64 KiB LDS partitions the even and the odd warps reach; AMD's MI450 blog). Default 0.
    #[arg(long, value_name = "BYTES")]
    lds_base: Option<u64>,
}

/// Runs `cktile analyze`.
pub fn run(a: &Args) -> Result<String, Failure> {
    let (text, layout) = a.spec.load_typed(a.dtype.name())?;
    let element_bytes = element_bytes(&layout)?;
    let desc = layout.descriptor;
    let arch = a.arch.resolve()?;
    let op = a.op.resolve()?;
    let given = GivenAccesses::resolve(a.pattern.as_deref(), a.distribution.as_deref(), op)?
        .ok_or_else(|| bad("give --pattern or --distribution".into()))?;
    let peer = a.peer.as_deref().map(Peer::by_name).transpose().map_err(|e| bad(format!("--as: {e}")))?;
    if let Some(name) = &a.model {
        return model_answer(name, &text, &desc, element_bytes, &arch, &given.accesses, a.json);
    }
    let r = crate::common::with_progress("analysing", |progress| {
        given.accesses.analyze(&desc, element_bytes, &arch, progress)
    });
    let r = r.map_err(|e| given.failure(&text, e))?;
    let partitions = given.accesses.partitions(&desc, element_bytes, &arch, a.lds_base);
    let partitions = partitions.map_err(|e| bad(format!("--lds-base: {e}")))?;
    if a.json {
        let mut json = TileJson::new(&desc, &r);
        if let Some(p) = &partitions {
            json = json.with_partitions(p);
        }
        if let Some(peer) = peer {
            json = json.with_answer(&desc, peer);
        }
        return to_json(&json);
    }
    // The partition check is printed where it has two pairs to compare, or was asked for.
    let partitions = match partitions {
        Some(p) if p.warps > 1 || a.lds_base.is_some() => render::partitions::partitions(&p),
        _ => String::new(),
    };
    // What a window counts, against what `cktile search` counts for the same access.
    let window = match &given.accesses {
        cktile::reports::accesses::Accesses::Window { distribution, .. } => {
            let x = distribution.x_lengths();
            let lengths: Vec<String> = x.as_slice().iter().map(|l| l.to_string()).collect();
            format!(
                "Accesses: one tile window of the distribution ({} elements, its X lengths) at the tile's origin; \
                 `cktile search` repeats it over the whole tile\n",
                lengths.join("x")
            )
        }
        cktile::reports::accesses::Accesses::Pattern(_) => String::new(),
    };
    let answer = peer.map(|p| render::export::answer(&desc, p)).unwrap_or_default();
    Ok(format!(
        "{} tile, {} elements of storage\n{window}{}{partitions}{answer}",
        shape(&desc),
        desc.element_space_size(),
        render::bank::tile(&r)
    ))
}

/// `analyze --model`: the model's worst ways over the tile's instructions (a pattern's, or a window's), beside
/// cktile's.
fn model_answer(
    name: &str,
    text: &str,
    desc: &cktile::Descriptor,
    element_bytes: usize,
    arch: &cktile::analyzer::Arch,
    accesses: &cktile::reports::accesses::Accesses,
    json: bool,
) -> Result<String, Failure> {
    use cktile::reports::accesses::Accesses;
    use cktile::reports::models::{Model, answer_tile, answer_window, model_rule};
    let model = Model::by_name(name).map_err(|e| bad(format!("--model: {e}")))?;
    let tile = |m: Model| match accesses {
        Accesses::Pattern(p) => answer_tile(m, desc, element_bytes, arch, *p),
        Accesses::Window { distribution, op } => answer_window(m, desc, element_bytes, arch, distribution, *op),
    };
    let theirs = tile(model).map_err(|e| Failure::input(text, e))?;
    let ours = tile(Model::Cktile).map_err(|e| Failure::input(text, e))?;
    let op = match accesses {
        Accesses::Pattern(p) => p.op(),
        Accesses::Window { op, .. } => *op,
    };
    let source = model_rule(model, arch, op).map_err(|e| Failure::input(text, e))?.text;
    if json {
        return to_json(&serde_json::json!({
            "model": model.name(),
            "arch": arch.name(),
            "op": op.name(),
            "instructions": theirs.instructions,
            "max_ways": theirs.max_ways,
            "worst_instruction": theirs.worst_instruction,
            "cktile_max_ways": ours.max_ways,
            "evidence": model.evidence().word(),
            "source": source,
        }));
    }
    Ok(format!(
        "{} tile, {} on {}, {} instructions\n  {} ({}): worst {}-way (instruction {})\n  cktile: worst {}-way \
         (instruction {})\n  {} says: {}\n",
        shape(desc),
        op.name(),
        arch.name(),
        theirs.instructions,
        model.name(),
        model.evidence().word(),
        theirs.max_ways,
        theirs.worst_instruction,
        ours.max_ways,
        ours.worst_instruction,
        model.name(),
        source
    ))
}
