//! `cktile dma-plan`: the gathers that fill a layout with AMD's direct
//! global-to-LDS loads, verified by simulation.

use crate::common::{Failure, Spec, bad, chip, element_bytes, integers, shape, stream_json};
use cktile::json::DmaPlanJson;
use cktile::plan::dma::{DmaRequest, plan, verify};
use cktile::render;

/// Plan AMD direct global-to-LDS loads (global_load_lds) that fill a layout, verified by simulation.
#[derive(clap::Args)]
#[command(
    long_about = "Plan AMD direct global-to-LDS loads (global_load_lds on gfx942 / gfx950) that fill a layout. \
Each subgroup's load writes wave * width consecutive LDS bytes, so the layout is honoured by gathering on the global \
side: every (subgroup, lane, load) gets the tile coordinate and global byte it must read. The plan is simulated on a \
synthetic global tensor and checked byte for byte against the layout before it is printed. Padded layouts, widths \
the chip lacks, tiles that do not split into subgroup slices, and loads whose bytes are not consecutive in global \
memory are refused with the reason.",
    after_help = "Limits: the element space times the element size must fit the chip's LDS (64 KiB on gfx90a and gfx942, \
160 KiB on gfx950); --json streams the gathers. SPEC files and stdin: at most 1 MiB.\n\nExamples:\n  \
cktile dma-plan 'packed((16,64))' --global-strides 64,1 --workgroup 256 --wave 64 --width 4 --dtype i32\n  \
cktile dma-plan ck-universal-a:m=128,k=64 --global-strides 4096,1 --width 4 --dtype fp16\n  \
cktile dma-plan cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64 --global-strides 64,1 --arch gfx950 --width 16 --dtype fp16 --json"
)]
pub struct Args {
    #[command(flatten)]
    spec: Spec,
    /// The global tensor's stride along each top dimension, in elements (e.g. 4096,1).
    #[arg(long, allow_hyphen_values = true)]
    global_strides: String,
    /// Threads per workgroup.
    #[arg(long, default_value_t = 256, value_parser = crate::common::non_negative::<usize>, allow_negative_numbers = true)]
    workgroup: usize,
    /// Lanes per subgroup (the wave size).
    #[arg(long, default_value_t = 64, value_parser = crate::common::non_negative::<usize>, allow_negative_numbers = true)]
    wave: usize,
    /// Bytes per lane per load: 1, 2 or 4 (gfx942); also 12 or 16 (gfx950).
    #[arg(long, value_parser = crate::common::non_negative::<usize>, allow_negative_numbers = true)]
    width: usize,
    // The chips with global_load_lds, from the library's list.
    #[arg(long, default_value = "gfx942", help = format!("The chip: {}", cktile::plan::dma::DMA_ARCH_NAMES))]
    arch: String,
    #[arg(long, help = format!(
        "Element type: {}. Required for a spec or an entry without a dtype; a catalogue entry's own dtype is \
         used otherwise (and --dtype must agree with it)",
        cktile::layouts::DTYPE_LIST
    ))]
    dtype: Option<String>,
    /// Loads listed per subgroup in the text form.
    #[arg(long, default_value_t = 8, value_parser = crate::common::non_negative::<usize>, allow_negative_numbers = true)]
    loads: usize,
    /// Print one JSON object with every gather.
    #[arg(long)]
    json: bool,
}

/// Runs `cktile dma-plan`.
pub fn run(a: &Args) -> Result<String, Failure> {
    let (text, layout) = a.spec.load_typed(a.dtype.as_deref())?;
    let element_bytes = element_bytes(&layout)?;
    let desc = layout.descriptor;
    let strides = integers("--global-strides", &a.global_strides, "write one stride per dimension, e.g. 64,1")?;
    let arch = chip(&a.arch)?;
    let req = DmaRequest {
        lds: &desc,
        element_bytes,
        global_strides: strides,
        arch,
        workgroup: a.workgroup,
        wave: a.wave,
        width: a.width,
    };
    let p = plan(&req).map_err(|e| bad(format!("{e}")))?;
    verify(&req, &p).map_err(|e| bad(format!("internal: the plan failed its simulation: {e}")))?;
    if a.json {
        return stream_json(&DmaPlanJson::new(&text, &arch, element_bytes, &p));
    }
    Ok(format!(
        "Direct-to-LDS plan (global_load_lds on {}): {} tile of {element_bytes}-byte elements, {} LDS bytes\n{}\
         Verified: the loads, simulated on a synthetic global tensor, give the layout's LDS image byte for byte.\n",
        arch.name(),
        shape(&desc),
        p.lds_bytes,
        render::plan::plan(&p, a.loads)
    ))
}
