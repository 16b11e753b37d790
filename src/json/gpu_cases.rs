//! The case list of `cktile gpu-cases --json`.

use crate::Index;
use crate::analyzer::Counts;
use crate::reports::gpu_cases::{CASE_FAMILIES, GpuCase, MAX_INSTRUCTIONS, WARP, kernel_name, nvidia_ops};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;

/// The format tag of the case file.
const FORMAT: &str = "cktile-gpu-cases/2";

#[derive(Clone, Debug, Serialize)]
struct WavefrontsJson {
    active_lanes: u32,
    conflicts: u32,
    ideal_wavefronts: u32,
    max_ways: u32,
    wavefronts: u32,
}

fn wavefronts(c: &Counts) -> WavefrontsJson {
    WavefrontsJson {
        active_lanes: c.active_lanes,
        conflicts: c.conflict_cycles,
        ideal_wavefronts: c.phases,
        max_ways: c.max_ways,
        wavefronts: c.cycles,
    }
}

#[derive(Clone, Debug, Serialize)]
struct PredictedJson {
    conflicted_instructions: u32,
    conflicts: u32,
    ideal_wavefronts: u32,
    max_ways: u32,
    wavefronts: u32,
}

#[derive(Clone, Debug, Serialize)]
struct CaseJson<'a> {
    addresses: &'a [[Option<u64>; WARP]],
    sources: &'a [[Option<u64>; WARP]],
    element_bytes: usize,
    family: &'static str,
    id: usize,
    instructions: usize,
    is_load: bool,
    kernel: String,
    layout: &'a str,
    lengths: Vec<Index>,
    name: &'a str,
    op: &'static str,
    pattern: &'static str,
    per_instruction: Vec<WavefrontsJson>,
    predicted: PredictedJson,
    shared_bytes: u64,
    spec: String,
}

fn case(c: &GpuCase) -> CaseJson<'_> {
    CaseJson {
        addresses: &c.addresses,
        sources: &c.sources,
        element_bytes: c.element_bytes,
        family: c.family,
        id: c.id,
        instructions: c.instructions(),
        is_load: c.op.is_read(),
        kernel: kernel_name(c.op),
        layout: &c.layout,
        lengths: c.desc.lengths().as_slice().to_vec(),
        name: &c.name,
        op: c.op.name(),
        pattern: c.pattern.name(),
        per_instruction: c.predicted.iter().map(wavefronts).collect(),
        predicted: PredictedJson {
            conflicted_instructions: c.totals.conflicted_instructions,
            conflicts: c.totals.conflict_cycles,
            ideal_wavefronts: c.totals.phases,
            max_ways: c.totals.max_ways,
            wavefronts: c.totals.cycles,
        },
        shared_bytes: c.shared_bytes,
        spec: c.desc.to_string(),
    }
}

/// `cktile gpu-cases --json`: every hardware-truth case with its lane
/// addresses and sm90 prediction, and the lists the harness checks against.
///
/// ```
/// let cases = cktile::reports::gpu_cases::cases()?;
/// let out = serde_json::to_string(&cktile::json::GpuCasesJson::new(&cases)).unwrap();
/// assert!(out.starts_with(r#"{"arch":"sm90","cases":[{"addresses":"#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct GpuCasesJson<'a> {
    arch: &'static str,
    cases: Vec<CaseJson<'a>>,
    families: &'static [&'static str],
    format: &'static str,
    max_instructions: usize,
    ops: Vec<&'static str>,
    patterns: [&'static str; 4],
}

impl<'a> GpuCasesJson<'a> {
    /// The view of `cases`.
    ///
    /// ```
    /// let cases = cktile::reports::gpu_cases::cases()?;
    /// let _ = cktile::json::GpuCasesJson::new(&cases);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(cases: &'a [GpuCase]) -> GpuCasesJson<'a> {
        GpuCasesJson {
            arch: "sm90",
            cases: cases.iter().map(case).collect(),
            families: CASE_FAMILIES,
            format: FORMAT,
            max_instructions: MAX_INSTRUCTIONS,
            ops: nvidia_ops(),
            patterns: ["rows", "columns", "ldmatrix", "mma_sync_a"],
        }
    }
}
