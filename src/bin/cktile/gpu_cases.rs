//! `cktile gpu-cases`: the hardware-truth cases for the NVIDIA harness in `gpu/`.

use crate::common::{Failure, analysis, to_json};
use cktile::codegen::gpu_cases::{self, case_file};
use cktile::json::GpuCasesJson;

/// Runs `cktile gpu-cases`: the case file `gpu/harness.cu` reads, or JSON.
pub fn gpu_cases(json: bool) -> Result<String, Failure> {
    let cases = gpu_cases::cases().map_err(analysis)?;
    if json { to_json(&GpuCasesJson::new(&cases)) } else { Ok(case_file(&cases)) }
}
