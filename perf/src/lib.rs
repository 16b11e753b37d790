//! Performance tooling for cktile: the report's offset cases and workloads,
//! shared by the instruction-count driver and the timing driver.

pub mod cases;
pub mod workloads;
