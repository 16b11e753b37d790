//! `cktile hopper-plan`: the canonical layouts of a Hopper or Blackwell tile
//! that TMA writes and the MMA reads, ranked by the kernel's other accesses.

use crate::common::{Failure, bad, to_json};
use crate::search::tile;
use cktile::analyzer::Pattern;
use cktile::json::HopperPlanJson;
use cktile::layouts;
use cktile::matrix_desc::{OPERAND_NAMES, Operand, TARGET_NAMES, Target};
use cktile::plan::hopper::{HopperRequest, plan};
use cktile::render;

/// The layouts of a Hopper/Blackwell tile that TMA writes and wgmma/tcgen05 reads, ranked by other accesses' conflicts.
#[derive(clap::Args)]
#[command(
    long_about = "The shared-memory layouts of a Hopper (sm90) or Blackwell (sm100) tile that one or more TMA copies \
write from the given global tensor and, for an MMA operand, wgmma.mma_async or tcgen05.mma reads through a \
descriptor: the PTX ISA's canonical layouts (every major-ness and swizzle mode; CuTe's atoms tiled MN first), each \
judged as cktile matrix-desc and cktile tma judge it. They are ranked by the bank conflicts of the other \
shared-memory accesses given with --access (an epilogue's stmatrix.x4, an ldmatrix read), counted on sm90's model, \
then by fewer TMA copies, then by the wider swizzle; exit code 1 when none works. --epilogue plans a tile no MMA reads (a C tile that stmatrix \
writes and a TMA store reads). The tile's second dimension is K (for an epilogue tile, its columns).",
    after_help = "Examples:\n  \
cktile hopper-plan --tile 128x64 --dtype fp16 --global-strides 4096,1\n  \
cktile hopper-plan --tile 64x64 --dtype fp16 --global-strides 4096,1 --epilogue --access stmatrix.x4\n  \
cktile hopper-plan --tile 128x32 --dtype fp8 --global-strides 1,4096 --target sm100 --operand b --json"
)]
pub struct Args {
    /// The tile: MNxK (rows x columns, K the second dimension).
    #[arg(long)]
    tile: String,
    #[arg(long, help = format!("Element type: {}", layouts::DTYPE_LIST))]
    dtype: String,
    /// The global tensor's stride along the tile's rows and columns, in elements (e.g. 4096,1).
    #[arg(long, allow_hyphen_values = true)]
    global_strides: String,
    #[arg(long, default_value = "sm90", help = format!("The chip: {TARGET_NAMES}"))]
    target: String,
    #[arg(long, default_value = "a", help = format!("The operand: {OPERAND_NAMES}"))]
    operand: String,
    /// A tile no MMA reads (an epilogue's C tile): TMA alone.
    #[arg(long)]
    epilogue: bool,
    /// Another shared-memory access whose conflicts rank the layouts (repeatable), e.g. stmatrix.x4.
    #[arg(long = "access")]
    accesses: Vec<String>,
    /// How many layouts to list.
    #[arg(long, default_value_t = 4, value_parser = crate::common::non_negative::<usize>, allow_negative_numbers = true)]
    top: usize,
    /// Print one JSON object with every candidate.
    #[arg(long)]
    json: bool,
}

/// Runs `cktile hopper-plan`: exit code 1 when no canonical layout works.
pub fn run(a: &Args) -> Result<String, Failure> {
    let (mn, k) = tile(&a.tile)?;
    let element_bytes = layouts::dtype_bytes(&a.dtype).map_err(|e| bad(format!("--dtype: {e}")))?;
    let strides = crate::common::integers("--global-strides", &a.global_strides, "write two strides, e.g. 4096,1")?;
    let [row, col] = strides[..] else {
        return Err(bad(format!(
            "--global-strides: {} strides; give two, for the rows and the columns",
            strides.len()
        )));
    };
    let mut req = HopperRequest::new(
        mn,
        k,
        element_bytes,
        Target::by_name(&a.target).map_err(|e| bad(format!("--target: {e}")))?,
        [row, col],
    );
    req.operand = Operand::by_name(&a.operand).map_err(|e| bad(format!("--operand: {e}")))?;
    req.mma = !a.epilogue;
    for access in &a.accesses {
        req.accesses.push(Pattern::from_access(access).map_err(|e| bad(format!("--access: {e}")))?);
    }
    let candidates = plan(&req).map_err(|e| bad(format!("{e}")))?;
    let out =
        if a.json { to_json(&HopperPlanJson::new(&candidates))? } else { render::plan::hopper(&candidates, a.top) };
    if candidates.is_empty() {
        return Err(Failure { message: out.trim_end().to_string(), code: 1, stdout: true });
    }
    Ok(out)
}
