//! `cktile gpu-cases`: the hardware-truth cases for the NVIDIA harness in `gpu/`.

use crate::common::{Failure, analysis, to_json};
use cktile::json::GpuCasesJson;
use cktile::reports::gpu_cases::{self, case_file};

/// The NVIDIA hardware-truth cases for gpu/harness.cu: lane addresses and sm90 predictions.
#[derive(clap::Args)]
#[command(
    long_about = "The hardware-truth cases for the NVIDIA measurement harness (gpu/harness.cu, run by gpu/run.sh): \
for every catalogue layout family and every NVIDIA shared-memory instruction cktile models, one warp's byte address \
per lane and instruction, and cktile's sm90 prediction (wavefronts, ideal wavefronts, conflicts = excess wavefronts, \
as Nsight Compute counts them per kernel). Without --json: the plain-text case file the harness reads.",
    after_help = "Limits: none needed; the case list is fixed (each case at most 64 instructions).\n\nExamples:\n  cktile gpu-cases > cases.txt\n  cktile gpu-cases --json > cases.json\n  gpu/run.sh"
)]
pub struct Args {
    /// Print the cases (with per-instruction predictions) as one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `cktile gpu-cases`: the case file `gpu/harness.cu` reads, or JSON.
pub fn run(a: &Args) -> Result<String, Failure> {
    let cases = gpu_cases::cases().map_err(analysis)?;
    if a.json { to_json(&GpuCasesJson::new(&cases)) } else { Ok(case_file(&cases)) }
}
