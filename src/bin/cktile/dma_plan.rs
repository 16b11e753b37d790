//! `cktile dma-plan`: the gathers that fill a layout with AMD's direct
//! global-to-LDS loads, verified by simulation.

use crate::common::{Failure, Spec, bad, chip, element_bytes, integers, shape, stream_json, to_json};
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
whose bytes are not consecutive in global memory are refused with the reason.\n\nOn gfx1250 the plan is one Tensor Data \
Mover load (tensor_load_to_lds): it writes the tile as one row-major stream, with the hardware's padding of A dwords \
after every I dwords (I a power of two from 2 to 256, A from 1 to 128), so a layout is loadable exactly when it is \
that padded stream; the plan gives the padding and the descriptor's group 1 dword 0, replayed and checked byte for \
byte, or the first element out of place. --width, --order, --form, --m0 and --lds-base do not apply there. With \
--path async it is gfx1250's global_load_async_to_lds_b8/b32/b64/b128 instead: every lane gives its own LDS address, \
so any layout whose lane vectors (--width bytes) are consecutive in LDS and in global memory loads; the plan gives each \
thread's vectors and its LDS writes' bank ways, replayed and checked byte for byte.",
    after_help = "Limits: the element space times the element size must fit the chip's LDS (64 KiB on gfx90a and gfx942, \
160 KiB on gfx950); --json streams the gathers. SPEC files and stdin: at most 1 MiB.\n\nExamples:\n  \
cktile dma-plan 'packed((16,64))' --global-strides 64,1 --workgroup 256 --wave 64 --width 4 --dtype i32\n  \
cktile dma-plan ck-universal-a:m=128,k=64 --global-strides 4096,1 --width 4 --dtype fp16\n  \
cktile dma-plan cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64 --global-strides 64,1 --arch gfx950 --width 16 --dtype fp16 --json\n  \
cktile dma-plan row-padded:rows=32,cols=64,pad=4 --global-strides 64,1 --width 4 --dtype fp32 --order issue-major --form buffer --m0 ck\n  \
cktile dma-plan row-padded:rows=64,cols=64,pad=4 --global-strides 4096,1 --arch gfx1250 --dtype fp16"
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
    /// Bytes per lane per load: 1, 2 or 4 (gfx942); also 12 or 16 (gfx950); 1, 4, 8 or 16 for gfx1250's --path
    /// async. Not for gfx1250's TDM.
    #[arg(long, value_parser = crate::common::non_negative::<usize>, allow_negative_numbers = true)]
    width: Option<usize>,
    // The chips with global_load_lds, from the library's list.
    #[arg(long, default_value = "gfx942", help = format!("The chip: {} (global_load_lds), or gfx1250 (tensor_load_to_lds)", cktile::plan::dma::DMA_ARCH_NAMES))]
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
    /// gfx1250's path: tdm (one tensor_load_to_lds, the default) or async (global_load_async_to_lds_b8/b32/b64/b128,
    /// with --width 1, 4, 8 or 16: each lane its own LDS address).
    #[arg(long, value_name = "PATH")]
    path: Option<String>,
}

/// Runs `cktile dma-plan`.
pub fn run(a: &Args) -> Result<String, Failure> {
    let (text, layout) = a.spec.load_typed(a.dtype.as_deref())?;
    let element_bytes = element_bytes(&layout)?;
    let desc = layout.descriptor;
    let strides = integers("--global-strides", &a.global_strides, "write one stride per dimension, e.g. 64,1")?;
    let arch = chip(&a.arch)?;
    match (arch.chip() == cktile::analyzer::arch::Chip::Gfx1250, a.path.as_deref()) {
        (true, None | Some("tdm")) => return tdm(a, &text, &desc, element_bytes, &strides, &arch),
        (true, Some("async")) => return async_loads(a, &text, &desc, element_bytes, strides, &arch),
        (true, Some(other)) => {
            return Err(bad(format!("--path: `{}` is not a gfx1250 path; give tdm or async", cktile::Visible(other))));
        }
        (false, Some(_)) => {
            return Err(bad(format!(
                "--path: {} has one path (global_load_lds); --path chooses among gfx1250's (tdm, async)",
                arch.name()
            )));
        }
        (false, None) => {}
    }
    let width = a.width.ok_or_else(|| {
        bad(format!(
            "--width: give the bytes each lane loads, as {} takes them (1, 2 or 4 on gfx942; also 12 or 16 on gfx950)",
            arch.name()
        ))
    })?;
    let req = DmaRequest {
        lds: &desc,
        element_bytes,
        global_strides: strides,
        arch,
        workgroup: a.workgroup,
        wave: a.wave,
        width,
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
        form.mnemonic(width),
        arch.name(),
        shape(&desc),
        p.lds_bytes,
        render::plan::plan(&p, &addressing, a.loads)
    ))
}

/// The gfx1250 plan: one `tensor_load_to_lds`, its padding and descriptor
/// bits, replayed and checked against the layout.
fn tdm(
    a: &Args,
    text: &str,
    desc: &cktile::Descriptor,
    element_bytes: usize,
    strides: &[i64],
    arch: &cktile::analyzer::Arch,
) -> Result<String, Failure> {
    use cktile::plan::tdm::{plan, verify};
    if a.width.is_some() {
        return Err(bad(String::from(
            "--width: gfx1250's Tensor Data Mover copies the whole tile; --width is global_load_lds's (gfx942, gfx950)",
        )));
    }
    let p = plan(desc, element_bytes, strides, arch).map_err(|e| Failure::input(text, e))?;
    verify(desc, element_bytes, &p).map_err(|e| bad(format!("internal: the plan failed its replay: {e}")))?;
    let dims: Vec<String> = p.shape.iter().rev().enumerate().map(|(i, l)| format!("tile_dim{i} {l}")).collect();
    let strides_text: Vec<String> = strides.iter().map(i64::to_string).collect();
    if a.json {
        return to_json(&cktile::json::TdmPlanJson::new(arch, &p, strides));
    }
    let padding = match p.padding {
        Some(q) => format!(
            "padding: {} bytes ({} dwords) after every {} bytes ({} dwords) of data (Triton's padded_shared<[{}:+{}]>)",
            q.amount_bytes,
            q.amount_bytes / 4,
            q.interval_bytes,
            q.interval_bytes / 4,
            q.interval_bytes / element_bytes as u64,
            q.amount_bytes / element_bytes as u64
        ),
        None => String::from("padding: none (the tile is packed)"),
    };
    Ok(format!(
        "TDM plan (tensor_load_to_lds on {}): {} tile of {element_bytes}-byte elements, {} LDS bytes\n  \
         {}; global strides {}\n  {padding}\n  group 1, dword 0: {:#010x} (data size, pad enable, interval, amount)\n\
         Verified: the stream, replayed with its padding, gives the layout's LDS image byte for byte.\n",
        arch.name(),
        shape(desc),
        p.lds_bytes,
        dims.join(", "),
        strides_text.join(", "),
        p.group1_dword0
    ))
}

/// The gfx1250 async plan: each lane's vector, its LDS writes' bank ways,
/// replayed and checked against the layout.
fn async_loads(
    a: &Args,
    text: &str,
    desc: &cktile::Descriptor,
    element_bytes: usize,
    strides: Vec<i64>,
    arch: &cktile::analyzer::Arch,
) -> Result<String, Failure> {
    use cktile::plan::async_lds::{AsyncRequest, plan, verify};
    let width = a.width.ok_or_else(|| {
        bad(String::from(
            "--width: give the bytes each lane loads: 1, 4, 8 or 16 (global_load_async_to_lds_b8 ... b128)",
        ))
    })?;
    let req =
        AsyncRequest { lds: desc, element_bytes, global_strides: strides, arch: *arch, workgroup: a.workgroup, width };
    let p = plan(&req).map_err(|e| Failure::input(text, e))?;
    verify(&req, &p).map_err(|e| bad(format!("internal: the plan failed its replay: {e}")))?;
    let op = p.write_op();
    let rule = cktile::analyzer::rules::rule(arch, op);
    if a.json {
        return to_json(&cktile::json::AsyncPlanJson::new(arch, element_bytes, &p));
    }
    let mut listed = String::new();
    for t in 0..a.workgroup.min(a.loads.max(1)) {
        let mine: Vec<String> = p
            .loads
            .iter()
            .filter(|l| l.thread == t)
            .map(|l| {
                let x: Vec<String> = l.coordinate.iter().map(i64::to_string).collect();
                format!("({}) global byte {} -> LDS byte {}", x.join(","), l.global_byte, l.lds_byte)
            })
            .collect();
        listed.push_str(&format!("  thread {t}: {}\n", mine.join("; ")));
    }
    Ok(format!(
        "Async plan ({} on {}): {} tile of {element_bytes}-byte elements, {} LDS bytes\n  \
         {} threads ({} waves of {}), {} load(s) each; every lane gives its own LDS address and global address\n\
         {listed}  LDS writes: worst {}-way (load {}, wave {}), counted as {}'s rule (an assumption: no source gives \
         the async writes' own grouping; {})\n\
         Verified: the loads, replayed on a synthetic global tensor, give the layout's LDS image byte for byte.\n",
        p.mnemonic(),
        arch.name(),
        shape(desc),
        p.lds_bytes,
        p.workgroup,
        p.workgroup / arch.wave() as usize,
        arch.wave(),
        p.loads_per_thread,
        p.worst_ways,
        p.worst.0,
        p.worst.1,
        op.name(),
        rule.provenance.text()
    ))
}
