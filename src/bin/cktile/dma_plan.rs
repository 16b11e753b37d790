//! `cktile dma-plan`: the gathers that fill a layout with AMD's direct
//! global-to-LDS loads, verified by simulation.

use crate::common::{Failure, bad, element_bytes, load_typed};
use cktile::analyzer::Arch;
use cktile::plan::dma::{DmaRequest, plan, verify};
use cktile::render;
use serde_json::json;

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
        return Ok(json!({
            "spec": text.trim(),
            "arch": arch.name,
            "element_bytes": element_bytes,
            "lds_bytes": p.lds_bytes,
            "subgroups": p.subgroups,
            "wave": p.wave,
            "width": p.width,
            "slice_bytes": p.slice_bytes,
            "loads_per_thread": p.loads_per_thread,
            "verified": true,
            "gathers": p.gathers.iter().enumerate().map(|(k, g)| {
                let lane = k % p.wave;
                let rest = k / p.wave;
                json!({
                    "subgroup": rest / p.loads_per_thread,
                    "load": rest % p.loads_per_thread,
                    "lane": lane,
                    "lds_byte": g.lds_byte,
                    "global_byte": g.global_byte,
                    "coordinate": g.coordinate,
                })
            }).collect::<Vec<_>>(),
        })
        .to_string());
    }
    let lengths: Vec<String> = desc.lengths().as_slice().iter().map(|l| l.to_string()).collect();
    Ok(format!(
        "Direct-to-LDS plan (global_load_lds on {}): {} tile of {element_bytes}-byte elements, {} LDS bytes\n{}\
         Verified: the loads, simulated on a synthetic global tensor, give the layout's LDS image byte for byte.\n",
        arch.name,
        lengths.join("x"),
        p.lds_bytes,
        render::plan::plan(&p, a.loads)
    ))
}
