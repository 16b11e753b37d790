//! The report of `cktile hopper-plan --json`: the canonical layouts of a
//! Hopper or Blackwell tile that TMA writes (and the MMA reads), ranked.

use crate::plan::hopper::HopperCandidate;
use crate::tma::tma_name;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// One access's count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AccessCountJson {
    /// The access, as `cktile search` writes it.
    pub access: String,
    /// Its conflict cycles over the tile (`null`: it cannot be issued on this layout).
    pub conflict_cycles: Option<u32>,
    /// Its worst ways.
    pub max_ways: Option<u32>,
    /// Why it cannot be issued on this layout.
    pub refused: Option<String>,
}

/// One candidate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HopperCandidateJson {
    /// Each access's count.
    pub accesses: Vec<AccessCountJson>,
    /// The conflict cycles of every access together.
    pub conflict_cycles: u64,
    /// The MMA's LBO (`null` without an MMA).
    pub lbo: Option<u64>,
    /// `k` or `mn`.
    pub major: &'static str,
    /// The MMA's SBO (`null` without an MMA).
    pub sbo: Option<u64>,
    /// The layout's spec text.
    pub spec: String,
    /// The mode.
    pub swizzle: &'static str,
    /// The TMA box, innermost first.
    pub tma_box: Vec<usize>,
    /// How many TMA copies of the box write the tile.
    pub tma_copies: usize,
    /// The TMA mode.
    pub tma_swizzle: &'static str,
    /// The accesses it cannot serve.
    pub unserved: usize,
}

/// The ranked candidates.
///
/// ```
/// use cktile::json::HopperPlanJson;
/// use cktile::matrix_desc::Target;
/// use cktile::plan::hopper::{plan, HopperRequest};
/// let c = plan(&HopperRequest::new(128, 64, 2, Target::Sm90, [4096, 1]))?;
/// let text = serde_json::to_string(&HopperPlanJson::new(&c)).unwrap();
/// assert!(text.starts_with(r#"{"candidates":[{"accesses":[],"conflict_cycles":0,"lbo":16,"major":"k""#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HopperPlanJson {
    /// Best first.
    pub candidates: Vec<HopperCandidateJson>,
}

impl HopperPlanJson {
    /// The view of a plan.
    pub fn new(candidates: &[HopperCandidate]) -> HopperPlanJson {
        HopperPlanJson {
            candidates: candidates
                .iter()
                .map(|c| HopperCandidateJson {
                    accesses: c
                        .accesses
                        .iter()
                        .map(|(p, counted)| AccessCountJson {
                            access: p.access_name(),
                            conflict_cycles: counted.as_ref().ok().map(|c| c.0),
                            max_ways: counted.as_ref().ok().map(|c| c.1),
                            refused: counted.as_ref().err().map(|e| alloc::format!("{e}")),
                        })
                        .collect(),
                    conflict_cycles: c.conflict_cycles,
                    lbo: c.mma.as_ref().map(|r| r.lbo),
                    major: c.major.name(),
                    sbo: c.mma.as_ref().map(|r| r.sbo),
                    spec: c.spec.clone(),
                    swizzle: c.swizzle.name(),
                    tma_box: c.tma.box_dim.clone(),
                    tma_copies: c.tma.copies.len(),
                    tma_swizzle: tma_name(c.tma.swizzle),
                    unserved: c.unserved,
                })
                .collect(),
        }
    }
}
