//! `cktile dma-plan`: the gathers that fill a layout with AMD's direct
//! global-to-LDS loads, verified by simulation.

use crate::common::{Failure, Spec, bad, chip, element_bytes, integers, shape, stream_json};
use cktile::json::DmaPlanJson;
use cktile::plan::dma::{
    DmaRequest, FORM_NAMES, Form, ORDER_NAMES, Order, SCHEME_NAMES, Scheme, address, plan_ordered, verify,
    verify_addressing,
};
use cktile::render;

/// Plan AMD direct global-to-LDS loads (global_load_lds) that fill a layout, verified by simulation.
#[derive(clap::Args)]
#[command(
    long_about = "Plan AMD direct global-to-LDS loads (global_load_lds or buffer_load ... lds on gfx942 / gfx950) \
that fill a layout. Each load writes wave * slot consecutive LDS bytes (a chunk; the slot is the width, or 16 bytes \
for gfx950's 12-byte load) from m0 plus its immediate offset, so the layout is honoured by gathering on the global \
side: every (subgroup, lane, load) gets the tile coordinate and global byte it must read. Padding may lie between \
chunks (as in CK's async copies), never inside one. --order says which chunk each (subgroup, load) fills; --m0 how m0 \
is set: as CK's async_load_raw does (once per wave, s_add_u32 per load, immediate 0) or folded into the immediate \
(13 bits signed for global, 12 bits unsigned for buffer). The plan, and then its instructions by the hardware's \
address rule, are simulated on a synthetic global tensor and checked byte for byte against the layout before they \
are printed. Padding inside a chunk, widths the chip lacks, chunks that do not split among the subgroups, and loads \
whose bytes are not consecutive in global memory are refused with the reason.",
    after_help = "Limits: the element space times the element size must fit the chip's LDS (64 KiB on gfx90a and gfx942, \
160 KiB on gfx950); --json streams the gathers. SPEC files and stdin: at most 1 MiB.\n\nExamples:\n  \
cktile dma-plan 'packed((16,64))' --global-strides 64,1 --workgroup 256 --wave 64 --width 4 --dtype i32\n  \
cktile dma-plan ck-universal-a:m=128,k=64 --global-strides 4096,1 --width 4 --dtype fp16\n  \
cktile dma-plan cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64 --global-strides 64,1 --arch gfx950 --width 16 --dtype fp16 --json\n  \
cktile dma-plan row-padded:rows=32,cols=64,pad=4 --global-strides 64,1 --width 4 --dtype fp32 --order issue-major --form buffer --m0 ck"
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
    // Which chunk each (subgroup, load) fills.
    #[arg(long, default_value = "wave-major", help = format!("Which chunk each (subgroup, load) fills, chunks counted in LDS order: {ORDER_NAMES} (CK's async copies)"))]
    order: String,
    #[arg(long, default_value = "global", help = format!("The instruction: {FORM_NAMES} (global_load_lds_*, immediate -4096..4095; buffer_load_* ... lds, immediate 0..4095)"))]
    form: String,
    #[arg(long, default_value = "immediate", help = format!("How m0 is set: {SCHEME_NAMES} (ck: CK's async_load_raw, once per wave then s_add_u32 per load; immediate: each load's distance from m0 in its immediate)"))]
    m0: String,
    /// The tile's first LDS byte (CK's size_per_buf), a multiple of 4: m0 holds absolute LDS addresses.
    #[arg(long, default_value_t = 0, value_parser = crate::common::non_negative::<u64>, allow_negative_numbers = true)]
    lds_base: u64,
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
    let order = Order::by_name(&a.order).map_err(|e| bad(format!("--order: {e}")))?;
    let form = Form::by_name(&a.form).map_err(|e| bad(format!("--form: {e}")))?;
    let scheme = Scheme::by_name(&a.m0).map_err(|e| bad(format!("--m0: {e}")))?;
    let p = plan_ordered(&req, order).map_err(|e| bad(format!("{e}")))?;
    verify(&req, &p).map_err(|e| bad(format!("internal: the plan failed its simulation: {e}")))?;
    let addressing = address(&p, &arch, form, scheme, a.lds_base).map_err(|e| bad(format!("{e}")))?;
    verify_addressing(&req, &p, &addressing)
        .map_err(|e| bad(format!("internal: the instructions failed their simulation: {e}")))?;
    if a.json {
        return stream_json(&DmaPlanJson::new(&text, &arch, element_bytes, &p, &addressing));
    }
    Ok(format!(
        "Direct-to-LDS plan ({} on {}): {} tile of {element_bytes}-byte elements, {} LDS bytes\n{}\
         Verified: the loads, simulated on a synthetic global tensor, give the layout's LDS image byte for byte, \
         and so do their instructions run by the hardware's rule (lane T writes m0 + offset + T * slot).\n",
        form.mnemonic(a.width),
        arch.name(),
        shape(&desc),
        p.lds_bytes,
        render::plan::plan(&p, &addressing, a.loads)
    ))
}
