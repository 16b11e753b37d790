//! `cktile dma-plan`: the gathers that fill a layout with AMD's direct
//! global-to-LDS loads, verified by simulation.

use crate::common::{Failure, bad, element_bytes, load_typed, stream_json};
use cktile::analyzer::Arch;
use cktile::json::DmaPlanJson;
use cktile::plan::dma::{DmaRequest, plan, verify};
use cktile::render;

/// The arguments of `cktile dma-plan`.
pub struct DmaArgs<'a> {
    /// The layout.
    pub spec: &'a str,
    /// Global strides, comma-separated.
    pub global_strides: &'a str,
    /// Threads per workgroup.
    pub workgroup: usize,
    /// Lanes per subgroup.
    pub wave: usize,
    /// Bytes per lane per load.
    pub width: usize,
    /// Chip.
    pub arch: &'a str,
    /// Element type.
    pub dtype: Option<&'a str>,
    /// Loads listed per subgroup.
    pub loads: usize,
    /// JSON output.
    pub json: bool,
}

/// Runs `cktile dma-plan`.
pub fn dma_plan(a: &DmaArgs<'_>) -> Result<String, Failure> {
    let (text, layout) = load_typed(a.spec, a.dtype)?;
    let element_bytes = element_bytes(&layout)?;
    let desc = layout.descriptor;
    let strides = a
        .global_strides
        .split(',')
        .map(|s| {
            s.trim().parse::<i64>().map_err(|_| {
                bad(format!(
                    "--global-strides: `{}` is not an integer; write one stride per dimension, e.g. 64,1",
                    s.trim()
                ))
            })
        })
        .collect::<Result<Vec<i64>, Failure>>()?;
    let arch = Arch::by_name(a.arch).map_err(|e| bad(format!("--arch: {e}")))?;
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
    let lengths: Vec<String> = desc.lengths().as_slice().iter().map(|l| l.to_string()).collect();
    Ok(format!(
        "Direct-to-LDS plan (global_load_lds on {}): {} tile of {element_bytes}-byte elements, {} LDS bytes\n{}\
         Verified: the loads, simulated on a synthetic global tensor, give the layout's LDS image byte for byte.\n",
        arch.name(),
        lengths.join("x"),
        p.lds_bytes,
        render::plan::plan(&p, a.loads)
    ))
}
