//! The analyzer and search workloads of the report: the CK Tile docs' 128x64
//! fp16 tile on gfx942, written by `ds_write_b128` rows and read by MFMA
//! 16x16x16 A fragments.

use cktile::Descriptor;
use cktile::analyzer::{Pattern, analyze_tile, arch};
use cktile::search::{Problem, SearchReport, search};

/// The layouts analyzed: naive (conflicting), row-padded and CK's XOR.
pub const LAYOUTS: [&str; 3] =
    ["packed((128,64))", "row-padded:rows=128,cols=64,pad=8", "ck-universal-a:m=128,k=64,dtype=fp16"];

/// The access patterns, by their command-line names.
pub const PATTERNS: [&str; 2] = ["ds_write_b128:row", "mfma16x16x16:a"];

/// The descriptors of [`LAYOUTS`].
pub fn layouts() -> Result<Vec<Descriptor>, cktile::Error> {
    LAYOUTS.iter().map(|l| cktile::layouts::resolve(l)).collect()
}

/// The patterns of [`PATTERNS`].
pub fn patterns() -> Result<Vec<Pattern>, cktile::Error> {
    PATTERNS.iter().map(|p| Pattern::from_access(p)).collect()
}

/// Analyzes every (layout, pattern) pair once; returns the lane accesses
/// counted and a checksum of the cycles.
pub fn analyze_all(layouts: &[Descriptor], patterns: &[Pattern]) -> Result<(u64, u64), cktile::Error> {
    let (mut lanes, mut cycles) = (0u64, 0u64);
    for d in layouts {
        for p in patterns {
            let c = analyze_tile(d, 2, &arch::GFX942, *p)?;
            cycles += u64::from(c.cycles);
            lanes += u64::from(c.instructions) * u64::from(arch::GFX942.wave());
        }
    }
    Ok((lanes, cycles))
}

/// The search problem.
pub fn problem() -> Result<Problem, cktile::Error> {
    Ok(Problem::new(128, 64, 2, arch::GFX942)
        .write(Pattern::from_access("ds_write_b128:row")?)
        .read(Pattern::from_access("mfma16x16x16:a")?))
}

/// The search problems by name: the gfx942 one above and the same writes
/// and reads of a bf16 tile on gfx950 at 128x64 and 256x128.
pub const PROBLEMS: [&str; 3] = ["gfx942-128x64", "gfx950-128x64", "gfx950-256x128"];

/// A problem of [`PROBLEMS`].
pub fn problem_named(name: &str) -> Result<Problem, cktile::Error> {
    let (arch, rows, cols) = match name {
        "gfx950-128x64" => (arch::GFX950, 128, 64),
        "gfx950-256x128" => (arch::GFX950, 256, 128),
        _ => return problem(),
    };
    Ok(Problem::new(rows, cols, 2, arch)
        .write(Pattern::from_access("ds_write_b128:row")?)
        .read(Pattern::from_access("mfma16x16x16:a")?))
}

/// Runs the search once.
pub fn run_search(p: &Problem) -> Result<SearchReport, cktile::Error> {
    search(p)
}
