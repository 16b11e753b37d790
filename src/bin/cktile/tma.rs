//! `cktile tma`: whether one TMA copy writes a shared tile, and its tensor map.

use crate::common::{Failure, LayoutDtype, Spec, bad, element_bytes, integers, to_json};
use cktile::json::TmaJson;
use cktile::matrix_desc::{TARGET_NAMES, Target};
use cktile::render;
use cktile::tma::{TMA_MODE_NAMES, TmaRequest, TmaVerdict, judge, tma_by_name};

/// Whether one TMA copy (cp.async.bulk.tensor) writes a shared tile, and the tensor map that does.
#[derive(clap::Args)]
#[command(
    long_about = "Whether one TMA copy (cp.async.bulk.tensor, sm90 and sm100) writes a shared-memory tile exactly, \
and the tensor map that does it. The tile's top coordinate is the box's coordinate in the global tensor, dimension \
for dimension (--global-strides gives the tensor's stride along each, in elements). TMA writes a box densely, \
innermost dimension first, and swizzles each shared-memory byte address; so for each swizzle mode the target has, \
widest first, the dimension order is read off the tile and every element compared with the dense, swizzled box. \
The map must then obey the CUDA driver's rules (cuTensorMapEncodeTiled): the innermost dimension is the tensor's \
contiguous one (a copy does not transpose), box dimensions of at most 256, an inner box of a multiple of 16 bytes and \
at most the swizzle's span, global strides of a multiple of 16 bytes, a base aligned to 128 bytes and to the \
swizzle's pattern. A refusal names, for every mode, the element or the rule that breaks it, with exit code 1. \
Element strides are 1; interleaved layouts are not modelled.",
    after_help = "Limits: at most 2^20 elements, 5 dimensions.\n\nExamples:\n  \
cktile tma triton-nvmma:swizzle=128,bits=16,rows=128 --dtype fp16 --global-strides 4096,1\n  \
cktile tma triton-nvmma:swizzle=64,bits=16,transposed=true,rows=64 --dtype fp16 --global-strides 1,8192 --json\n  \
cktile tma row-padded:rows=64,cols=64,pad=8 --dtype fp16 --global-strides 64,1\n  \
cktile tma cute-tma:mode=128b-atom-32b,rows=16,dtype=fp16 --global-strides 64,1 --target sm100"
)]
pub struct Args {
    #[command(flatten)]
    spec: Spec,
    #[command(flatten)]
    dtype: LayoutDtype,
    /// The global tensor's stride along each top dimension of the tile, in elements (e.g. 4096,1).
    #[arg(long, allow_hyphen_values = true)]
    global_strides: String,
    /// The global tensor's extent along each top dimension (default: the tile's own).
    #[arg(long)]
    global_shape: Option<String>,
    #[arg(long, default_value = "sm90", help = format!("The chip: {TARGET_NAMES}"))]
    target: String,
    #[arg(long, help = format!("The swizzle mode: {TMA_MODE_NAMES} (default: every mode the target has, widest first)"))]
    swizzle: Option<String>,
    /// The box's first shared-memory byte (a multiple of 128, and of the swizzle's pattern).
    #[arg(long, default_value_t = 0, value_parser = crate::common::non_negative::<u64>, allow_negative_numbers = true)]
    base: u64,
    /// Print the map's cuTensorMapEncodeTiled arguments as C++ constants named NAME... (a tile TMA writes only).
    #[arg(long, value_name = "NAME")]
    cxx: Option<String>,
    /// Print one JSON object: {"writes", "swizzle", "map", "breaks", ...}.
    #[arg(long, conflicts_with = "cxx")]
    json: bool,
}

/// Runs `cktile tma`: exit code 1 when no single copy writes the tile.
pub fn run(a: &Args) -> Result<String, Failure> {
    let (text, layout) = a.spec.load_typed(a.dtype.dtype.as_deref())?;
    let eb = element_bytes(&layout)?;
    let strides = integers("--global-strides", &a.global_strides, "write one stride per dimension, e.g. 4096,1")?;
    let global_shape = match &a.global_shape {
        Some(s) => {
            let values = integers("--global-shape", s, "write one extent per dimension, e.g. 4096,4096")?;
            let extents: Result<Vec<u64>, _> = values.iter().map(|&v| u64::try_from(v)).collect();
            Some(extents.map_err(|_| bad(format!("--global-shape: `{s}` has a negative extent")))?)
        }
        None => None,
    };
    let req = TmaRequest {
        layout: &layout.descriptor,
        element_bytes: eb,
        global_strides: strides,
        global_shape,
        target: Target::by_name(&a.target).map_err(|e| bad(format!("--target: {e}")))?,
        swizzle: a.swizzle.as_deref().map(tma_by_name).transpose().map_err(|e| bad(format!("--swizzle: {e}")))?,
        base: a.base,
    };
    let v = judge(&req).map_err(|e| Failure::input(&text, e))?;
    let out = match (&v, &a.cxx) {
        (TmaVerdict::Writes(m), Some(name)) => {
            cktile::codegen::tma::constants(m, name).map_err(|e| bad(format!("--cxx: {e}")))?
        }
        _ if a.json => to_json(&TmaJson::new(&text, &v))?,
        _ => render::tma::verdict(&v, &text),
    };
    match v {
        TmaVerdict::Writes(_) => Ok(out),
        TmaVerdict::Refused(_) => Err(Failure { message: out.trim_end().to_string(), code: 1, stdout: true }),
    }
}
