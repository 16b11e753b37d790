//! The bank heat map: one instruction, phase by phase, as a matrix of lanes
//! (rows) by banks (columns).
//!
//! A cell is filled when the lane's access covers a word of that bank: sky
//! blue when the bank serves only that word in the phase, orange with the
//! lane's id when the bank must serve several distinct words (the lanes
//! that collide). Under each phase, a row gives every bank's distinct words
//! (its ways), the number printed and the fill deepening from blue to
//! vermillion. The conflict marks are the analyzer's own
//! ([`PhaseReport::conflicts`]), so the picture always agrees with
//! `cktile analyze`.

use super::palette::{CONFLICT, FREE, ways_colour};
use super::writer::{Anchor, Svg, text_width};

/// The heat map's legend: a cell's fill, its label and what it means.
const LEGEND_ITEMS: [(&str, &str, &str); 2] = [
    (FREE, "", "the lane's access covers a word of this bank, and the bank serves no other word in the phase"),
    (CONFLICT, "7", "conflict: the bank serves several distinct words in the phase (the lane's id is printed)"),
];

/// The legend line beside the ways scale.
const WAYS_LEGEND: &str =
    "ways: distinct words the bank serves in the phase (4+ darkest); the phase costs its busiest bank's ways";
use crate::Descriptor;
use crate::analyzer::arch::Vendor;
use crate::analyzer::rules::MAX_LANES;
use crate::analyzer::window::{PatternAccess, WindowAccess};
use crate::analyzer::{Arch, Op, Pattern};
use crate::distribution::Distribution;
use crate::render::bank::{lane_ranges, phase_heading};
use crate::reports::accesses::Accesses;
use crate::reports::analyze_distribution;
use crate::reports::{
    InstructionReport, PhaseReport, TileReport, analyze_instruction, analyze_tile_report, pattern_lane_addresses,
    window_lane_addresses,
};
use crate::{Error, ParameterProblem};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// One instruction of a tile under an access pattern, ready to draw: its
/// lanes' byte addresses and the analyzer's report on them.
///
/// ```
/// use cktile::analyzer::{arch, Op, Pattern};
/// use cktile::render::svg::banks::tile_instruction;
/// let naive = cktile::Descriptor::packed(&[128, 64])?;
/// let read = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
/// let pick = tile_instruction(&naive, 2, &arch::GFX942, read, None)?; // the worst instruction
/// assert_eq!((pick.instruction, pick.instructions, pick.report.counts.max_ways), (0, 16, 4));
/// assert_eq!(pick.addresses[1], Some(128));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct InstructionPick {
    /// Which instruction of the pattern (from 0).
    pub instruction: usize,
    /// How many instructions the pattern issues over the tile.
    pub instructions: usize,
    /// Every lane's byte address (`None`: inactive).
    pub addresses: Vec<Option<u64>>,
    /// The analyzer's report on it.
    pub report: InstructionReport,
}

/// Picks instruction `instruction` of `pattern` over the 2-D `desc` (`None`:
/// the tile's worst instruction, as `cktile analyze` reports it) and
/// analyses it.
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::render::svg::banks::tile_instruction;
/// let d = cktile::Descriptor::packed(&[16, 64])?;
/// let p = Pattern::by_name("ldmatrix", None)?;
/// assert!(tile_instruction(&d, 2, &arch::SM90, p, Some(99)).is_err());
/// assert_eq!(tile_instruction(&d, 2, &arch::SM90, p, Some(1))?.instruction, 1);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn tile_instruction(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    pattern: Pattern,
    instruction: Option<usize>,
) -> Result<InstructionPick, Error> {
    let tile = analyze_tile_report(desc, element_bytes, arch, pattern)?;
    let i = pick(&tile, instruction)?;
    let access = PatternAccess::over(desc, pattern, element_bytes, arch)?;
    let addresses = pattern_lane_addresses(desc, element_bytes, arch, &access, i)?;
    picked(arch, pattern.op(), &tile, i, &addresses)
}

/// [`tile_instruction`] for a CK tile window over the distribution `d`
/// issuing `op` (what `cktile analyze --distribution` counts).
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::distribution::{catalogue, Distribution};
/// use cktile::render::svg::banks::distribution_instruction;
/// let d = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8)?)?;
/// let lds = cktile::Descriptor::packed(&[128, 32])?;
/// let pick = distribution_instruction(&lds, 2, &arch::GFX942, &d, Op::DsWrite { bits: 128 }, Some(3))?;
/// assert_eq!((pick.instruction, pick.instructions, pick.report.counts.conflict_cycles), (3, 8, 0));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn distribution_instruction(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    d: &Distribution,
    op: Op,
    instruction: Option<usize>,
) -> Result<InstructionPick, Error> {
    let tile = analyze_distribution(desc, element_bytes, arch, d, op)?;
    let i = pick(&tile, instruction)?;
    let window = WindowAccess::new(d, op, element_bytes, arch.wave() as usize)?;
    let addresses = window_lane_addresses(desc, element_bytes, arch, &window, i)?;
    picked(arch, op, &tile, i, &addresses)
}

/// The instruction to draw: `instruction`, or the tile's worst; refused
/// past the tile's instructions.
fn pick(tile: &TileReport, instruction: Option<usize>) -> Result<usize, Error> {
    let i = instruction.unwrap_or(tile.counts.worst_instruction as usize);
    if i >= tile.instructions.len() {
        return Err(Error::parameter(ParameterProblem::invalid_usize(
            "banks view",
            "instruction",
            i,
            "it must be below the number of instructions the pattern issues over the tile",
        )));
    }
    Ok(i)
}

/// Instruction `i` of `tile`, with its lanes' addresses, analysed alone.
fn picked(
    arch: &Arch,
    op: Op,
    tile: &TileReport,
    i: usize,
    addresses: &[Option<u64>; MAX_LANES],
) -> Result<InstructionPick, Error> {
    let addresses = addresses[..(arch.wave() as usize).min(MAX_LANES)].to_vec();
    let report = analyze_instruction(arch, op, &addresses)?;
    Ok(InstructionPick { instruction: i, instructions: tile.instructions.len(), addresses, report })
}

const LEFT: u32 = 74;
const CELL_W: u32 = 22;
const CELL_H: u32 = 18;

/// Whether `lane` collides in phase `p`: it touches a word of a bank that
/// serves several words in that phase.
fn collides(p: &PhaseReport, lane: u32, bank: u32) -> bool {
    p.conflicts.iter().any(|c| c.bank == bank && c.words.iter().any(|w| w.lanes.contains(&lane)))
}

/// Distinct words bank `bank` serves in phase `p` (the analyzer counts them).
fn ways(p: &PhaseReport, bank: u32) -> u32 {
    if let Some(c) = p.conflicts.iter().find(|c| c.bank == bank) {
        return c.words.len() as u32;
    }
    // Not conflicting: one word if any lane touches the bank.
    u32::from(p.lane_banks.iter().any(|banks| banks.contains(&bank)))
}

/// Draws one instruction's phases as an SVG document.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::analyze_instruction;
/// use cktile::render::svg::banks::heat_map;
/// // Three lanes on bank 0: lanes 0 and 2 share word 0, lane 1 reads word 32.
/// let addrs = [Some(0), Some(128), Some(0)];
/// let r = analyze_instruction(&arch::SM80, Op::LdShared { bits: 32 }, &addrs)?;
/// let svg = heat_map(&r, "example");
/// assert_eq!(svg.matches("class=\"lane conflict\"").count(), 3);
/// assert!(svg.contains("data-phase=\"0\" data-bank=\"0\" data-ways=\"2\""));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn heat_map(report: &InstructionReport, title: &str) -> String {
    let banks = report.banks;
    let grid_w = LEFT + banks * CELL_W;
    let subtitle = format!(
        "{} on {} ({}, {} banks of 4 bytes): {}",
        report.op,
        report.arch.name(),
        report.arch.description(),
        banks,
        metrics_summary(report)
    );
    // The legend's lines count too: the picture is as wide as its widest line.
    let legend_widths = LEGEND_ITEMS.iter().map(|(_, _, what)| 24 + CELL_W + text_width(what, 11) + 16);
    let ways_line = 24 + 4 * (CELL_W + 4) + text_width(WAYS_LEGEND, 11) + 16;
    let width = (grid_w + 16)
        .max(text_width(title, 16) + 32)
        .max(text_width(&subtitle, 11) + 32)
        .max(legend_widths.max().unwrap_or(0))
        .max(ways_line)
        .max(620);
    let mut svg = Svg::new(width, 100, &format!("Bank heat map: {title}"));
    svg.describe(&format!(
        "{subtitle}. One panel per phase: rows are lanes, columns are banks; orange cells with lane ids are lanes \
         whose bank serves several words in the phase."
    ));
    svg.text(16, 24, title, 16, Anchor::Start, &[("font-weight", "bold"), ("class", "title")]);
    svg.text(16, 44, &subtitle, 11, Anchor::Start, &[]);
    let mut y = 62u32;
    if let Some((kind, why)) = report.provenance.caveat() {
        let note = format!("Note ({kind}): bank count and phase grouping: {why}.");
        // Long notes wrap at roughly the picture's width.
        let per_line = ((width - 32) * 10 / 66).max(40) as usize;
        let chars: Vec<char> = note.chars().collect();
        for chunk in chars.chunks(per_line) {
            let line: String = chunk.iter().collect();
            svg.text(16, y as i64, &line, 11, Anchor::Start, &[("fill", "#444444")]);
            y += 14;
        }
        y += 4;
    }
    for p in &report.phase_detail {
        y = phase_panel(&mut svg, report, p, y);
    }
    y = legend(&mut svg, y);
    y += 20;
    svg.set_height(y);
    svg.finish()
}

/// The metrics the subtitle names, by their JSON key, in the report's
/// metric order, each with the words before and after its value.
const SUBTITLE_METRICS: [(&str, &str, &str); 3] =
    [("cycles", "", " cycles"), ("conflict_cycles", "", " conflict cycles"), ("max_ways", "max ", "-way")];

/// The subtitle's counts, read from the report's one metrics list
/// ([`InstructionReport::metrics`]): `5 cycles, 1 conflict cycles, max 2-way`.
fn metrics_summary(report: &InstructionReport) -> String {
    let metrics = report.metrics();
    let parts: Vec<String> = SUBTITLE_METRICS
        .iter()
        .filter_map(|&(key, before, after)| {
            metrics.iter().find(|m| m.key == key).map(|m| format!("{before}{}{after}", m.value))
        })
        .collect();
    parts.join(", ")
}

/// One phase's panel from height `y`: its heading, the bank numbers, a row
/// per lane (conflicting cells orange with the lane id) and the ways per
/// bank; returns the height below it.
fn phase_panel(svg: &mut Svg, report: &InstructionReport, p: &PhaseReport, mut y: u32) -> u32 {
    let phase = p.phase.to_string();
    y += 14;
    svg.group(&[("class", "phase"), ("data-phase", &phase)]);
    svg.text(16, y as i64, &panel_heading(report, p), 12, Anchor::Start, &[("font-weight", "bold")]);
    y += 6;
    if p.active_lanes == 0 {
        svg.end_group();
        return y + 6;
    }
    let banks = report.banks;
    y = bank_numbers(svg, banks, y);
    y = lane_rows(svg, p, banks, &phase, y);
    y = ways_row(svg, p, banks, &phase, y);
    svg.end_group();
    y
}

/// A phase's heading: [`phase_heading`], or for a phase with no active
/// lane what it costs on the chip's vendor.
fn panel_heading(report: &InstructionReport, p: &PhaseReport) -> String {
    if p.active_lanes == 0 {
        let cost = if report.arch.vendor() == Vendor::Amd { "still one pass on AMD" } else { "no cost on NVIDIA" };
        format!("phase {}: lanes {}: no active lane ({cost})", p.phase, lane_ranges(&p.lanes))
    } else {
        phase_heading(p)
    }
}

/// The row of bank numbers above a panel's cells, from height `y`; returns
/// the height below it.
fn bank_numbers(svg: &mut Svg, banks: u32, mut y: u32) -> u32 {
    y += 12;
    svg.text((LEFT - 6) as i64, y as i64, "bank", 9, Anchor::End, &[("fill", "#444444")]);
    for b in 0..banks {
        let x = (LEFT + b * CELL_W + CELL_W / 2) as i64;
        svg.text(x, y as i64, &b.to_string(), 9, Anchor::Middle, &[("fill", "#444444")]);
    }
    y + 4
}

/// The lanes' rows of phase `p` from height `y`: a white band with a grid,
/// then per lane its label and the cells of the banks it touches; returns
/// the height below them.
fn lane_rows(svg: &mut Svg, p: &PhaseReport, banks: u32, phase: &str, mut y: u32) -> u32 {
    let rows_h = CELL_H * p.lanes.len() as u32;
    svg.rect(LEFT as i64, y as i64, banks * CELL_W, rows_h, "#ffffff", &[]);
    let mut grid = String::new();
    for b in 1..banks {
        grid.push_str(&format!("M {} {} v {} ", LEFT + b * CELL_W, y, rows_h));
    }
    for r in 1..p.lanes.len() as u32 {
        grid.push_str(&format!("M {} {} h {} ", LEFT, y + r * CELL_H, banks * CELL_W));
    }
    svg.path(grid.trim_end(), "#bbbbbb");
    for (&lane, touched) in p.lanes.iter().zip(&p.lane_banks) {
        let label = if touched.is_empty() { format!("lane {lane} -") } else { format!("lane {lane}") };
        svg.text((LEFT - 6) as i64, (y + 13) as i64, &label, 10, Anchor::End, &[]);
        for &b in touched.iter().filter(|&&b| b < banks) {
            lane_cell(svg, p, phase, lane, b, y);
        }
        y += CELL_H;
    }
    y
}

/// Lane `lane`'s cell of bank `bank` at height `y`: orange with the lane id
/// when the bank serves several words in the phase, sky blue otherwise.
fn lane_cell(svg: &mut Svg, p: &PhaseReport, phase: &str, lane: u32, bank: u32, y: u32) {
    let x = (LEFT + bank * CELL_W) as i64;
    let (lane_s, bank_s) = (lane.to_string(), bank.to_string());
    let conflict = collides(p, lane, bank);
    let (fill, class) = if conflict { (CONFLICT, "lane conflict") } else { (FREE, "lane free") };
    let attributes = [("class", class), ("data-phase", phase), ("data-lane", &lane_s), ("data-bank", &bank_s)];
    svg.rect(x, y as i64, CELL_W, CELL_H, fill, &attributes);
    if conflict {
        svg.text(x + (CELL_W / 2) as i64, (y + 13) as i64, &lane_s, 9, Anchor::Middle, &[("font-weight", "bold")]);
    }
}

/// The row of every bank's ways in phase `p`, from height `y`; returns the
/// height below it.
fn ways_row(svg: &mut Svg, p: &PhaseReport, banks: u32, phase: &str, mut y: u32) -> u32 {
    y += 3;
    svg.text((LEFT - 6) as i64, (y + 13) as i64, "ways", 10, Anchor::End, &[("font-weight", "bold")]);
    for b in 0..banks {
        let x = (LEFT + b * CELL_W) as i64;
        let w = ways(p, b);
        let (bank_s, ways_s) = (b.to_string(), w.to_string());
        svg.rect(
            x,
            y as i64,
            CELL_W,
            CELL_H,
            ways_colour(w),
            &[("class", "ways"), ("data-phase", phase), ("data-bank", &bank_s), ("data-ways", &ways_s)],
        );
        if w > 0 {
            let ink = if w >= 4 { "#ffffff" } else { "#000000" };
            svg.text(x + (CELL_W / 2) as i64, (y + 13) as i64, &ways_s, 10, Anchor::Middle, &[("fill", ink)]);
        }
    }
    y + CELL_H + 8
}

/// The legend from height `y`: the cell colours, then the ways' scale;
/// returns the height below it.
fn legend(svg: &mut Svg, mut y: u32) -> u32 {
    // Legend.
    y += 16;
    svg.text(16, y as i64, "Legend", 12, Anchor::Start, &[("font-weight", "bold")]);
    for (fill, text, what) in LEGEND_ITEMS {
        y += 22;
        svg.rect(16, (y - 14) as i64, CELL_W, CELL_H, fill, &[("class", "legend")]);
        if !text.is_empty() {
            svg.text((16 + CELL_W / 2) as i64, (y - 1) as i64, text, 9, Anchor::Middle, &[("font-weight", "bold")]);
        }
        svg.text((24 + CELL_W) as i64, y as i64, what, 11, Anchor::Start, &[]);
    }
    y += 22;
    for (i, w) in [1u32, 2, 3, 4].iter().enumerate() {
        let x = 16 + i as u32 * (CELL_W + 4);
        svg.rect(x as i64, (y - 14) as i64, CELL_W, CELL_H, ways_colour(*w), &[("class", "legend")]);
        let ink = if *w >= 4 { "#ffffff" } else { "#000000" };
        svg.text((x + CELL_W / 2) as i64, (y - 1) as i64, &w.to_string(), 10, Anchor::Middle, &[("fill", ink)]);
    }
    svg.text((24 + 4 * (CELL_W + 4)) as i64, y as i64, WAYS_LEGEND, 11, Anchor::Start, &[]);
    y
}

/// Draws instruction `instruction` (`None`: the worst) of `pattern` over the
/// 2-D `desc` as an SVG document, titled with `title` and the instruction's
/// number.
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::render::svg::banks::tile_heat_map;
/// let naive = cktile::Descriptor::packed(&[128, 64])?;
/// let svg = tile_heat_map(&naive, 2, &arch::GFX942, Pattern::by_name("mfma16", None)?, None, "naive")?;
/// // Phase 0 of the worst instruction: lanes 0-3 and 20-23 each collide on 4 banks.
/// assert!(svg.contains("phase 0: lanes 0-3, 20-23 (8 active), 4 cycles, 4-way"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn tile_heat_map(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    pattern: Pattern,
    instruction: Option<usize>,
    title: &str,
) -> Result<String, Error> {
    let pick = tile_instruction(desc, element_bytes, arch, pattern, instruction)?;
    Ok(picked_heat_map(&pick, instruction, &format!("{title}: {} pattern", pattern.name())))
}

/// [`tile_heat_map`] for a CK tile window over the distribution `d`
/// issuing `op`: the per-phase lanes and banks of one of its instructions
/// (`None`: the worst, as `cktile analyze --distribution` reports it).
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::distribution::{catalogue, Distribution};
/// use cktile::render::svg::banks::distribution_heat_map;
/// // The 32x32x8 MFMA A operand read with ds_read_b64 from a row-major 32x8 fp16 tile.
/// let d = Distribution::new(catalogue::mfma_a(32, 8)?)?;
/// let lds = cktile::Descriptor::packed(&[32, 8])?;
/// let svg = distribution_heat_map(&lds, 2, &arch::GFX942, &d, Op::DsRead { bits: 64 }, None, "mfma a")?;
/// assert!(svg.contains("mfma a: distribution, worst instruction 0 of 1"));
/// assert!(svg.contains("class=\"lane "));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn distribution_heat_map(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    d: &Distribution,
    op: Op,
    instruction: Option<usize>,
    title: &str,
) -> Result<String, Error> {
    let pick = distribution_instruction(desc, element_bytes, arch, d, op, instruction)?;
    Ok(picked_heat_map(&pick, instruction, &format!("{title}: distribution")))
}

/// [`tile_heat_map`] or [`distribution_heat_map`], as `accesses` is a
/// pattern or a window: what `cktile render --view banks` and the explorer
/// draw.
///
/// ```
/// use cktile::reports::accesses::Accesses;
/// use cktile::analyzer::{arch, Op};
/// use cktile::render::svg::banks::accesses_heat_map;
/// let naive = cktile::Descriptor::packed(&[128, 64])?;
/// let read = Accesses::resolve(Some("mfma16"), None, None)?.ok_or("no accesses")?;
/// let svg = accesses_heat_map(&naive, 2, &arch::GFX942, &read, None, "naive")?;
/// assert!(svg.contains("naive: mfma16 pattern, worst instruction 0 of 16"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn accesses_heat_map(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    accesses: &Accesses,
    instruction: Option<usize>,
    title: &str,
) -> Result<String, Error> {
    match accesses {
        &Accesses::Pattern(pattern) => tile_heat_map(desc, element_bytes, arch, pattern, instruction, title),
        Accesses::Window { distribution, op } => {
            distribution_heat_map(desc, element_bytes, arch, distribution, *op, instruction, title)
        }
    }
}

/// The heat map of a picked instruction, titled `what` and which
/// instruction it is (the worst, when none was asked for).
fn picked_heat_map(pick: &InstructionPick, instruction: Option<usize>, what: &str) -> String {
    let which = if instruction.is_none() { "worst instruction" } else { "instruction" };
    let full = format!("{what}, {which} {} of {}", pick.instruction, pick.instructions);
    heat_map(&pick.report, &full)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyzer::arch;

    #[test]
    fn the_subtitle_names_its_metrics_from_the_reports_list() -> Result<(), Error> {
        let r = analyze_instruction(&arch::GFX90A, Op::DsRead { bits: 32 }, &[Some(0), Some(128), Some(0)])?;
        let keys: Vec<&str> = r.metrics().iter().map(|m| m.key).collect();
        assert!(SUBTITLE_METRICS.iter().all(|(key, _, _)| keys.contains(key)));
        assert_eq!(metrics_summary(&r), "3 cycles, 1 conflict cycles, max 2-way");
        Ok(())
    }
}
