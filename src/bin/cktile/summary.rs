//! The main job (`cktile` with no subcommand): the CK Tile docs' LDS analysis.

use crate::common::{Failure, analysis};
use cktile::analyzer::{Op, Pattern, arch, rules};
use cktile::render::bank::LayoutColumn;
use cktile::reports::{TileReport, analyze_tile_report};
use cktile::{Error, Index, layouts, render};

/// The main job: the analysis the CK Tile docs walk through.
pub fn summary() -> Result<String, Failure> {
    // Each layout is named by the text that builds it (a spec or catalogue entry).
    let layouts: [(&str, &str, &str); 3] = [
        ("naive", "packed((128,64))", "row-major, 128-byte rows"),
        ("padded", "row-padded:rows=128,cols=64,pad=8", "rows padded by 8 elements"),
        ("XOR (CK)", "ck-universal-a:m=128,k=64", "CK Tile's XOR-preshuffled LDS block"),
    ];
    let gfx942 = arch::GFX942;
    let read = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
    let write = Pattern::Rows { op: Op::DsWrite { bits: 128 } };
    let (mut columns, mut descriptors) = (Vec::new(), Vec::new());
    for (name, text, _) in &layouts {
        // Every layout here is the fp16 tile (refused if an entry said otherwise).
        let typed = layouts::resolve_typed(text, Some("fp16")).map_err(|e| Failure::input(text, e))?;
        let element_bytes = typed.require_element_bytes().map_err(analysis)?;
        let desc = typed.descriptor;
        let reports = [read, write]
            .iter()
            .map(|&p| analyze_tile_report(&desc, element_bytes, &gfx942, p))
            .collect::<Result<Vec<TileReport>, Error>>()
            .map_err(analysis)?;
        columns.push(LayoutColumn {
            name,
            elements: desc.element_size().unwrap_or(0),
            element_space: desc.element_space_size(),
            reports,
        });
        descriptors.push((desc, element_bytes as u64));
    }
    let mut s = format!(
        "cktile: LDS bank conflicts of an fp16 128x64 GEMM A tile on {} ({}, {} banks of 4 bytes),\n\
         read by MFMA 16x16x16 with ds_read_b128 and written row by row with ds_write_b128\n\
         (the CK Tile docs' \"Understanding AMD GPU LDS and Bank Conflicts\").\n\n",
        gfx942.name(),
        gfx942.description(),
        gfx942.max_banks()
    );
    s.push_str(&render::bank::comparison(&columns));
    s.push('\n');
    for (name, text, what) in &layouts {
        s.push_str(&format!("{name:>8}: {text}: {what}\n"));
    }
    // Why each conflicting read conflicts: its worst phase's busiest bank,
    // each word with its lane and the element the layout stores there.
    let banks = rules::rule(&gfx942, Op::DsRead { bits: 128 }).banks;
    let mut reasons = String::new();
    for (((name, _, _), column), (desc, element_bytes)) in layouts.iter().zip(&columns).zip(&descriptors) {
        let Some(r) = column.reports.first() else { continue };
        let worst = r.worst();
        let Some(p) = worst.worst_phase().filter(|p| p.ways > 1) else { continue };
        let element = |address: u64| {
            let offset = Index::try_from(address / element_bytes).ok()?;
            let c = desc.calculate_top_index(offset)?;
            let c: Vec<String> = c.as_slice().iter().map(Index::to_string).collect();
            Some(format!("element ({})", c.join(", ")))
        };
        if let Some(reason) = render::bank::conflict_reason(p, banks, &element) {
            reasons.push_str(&format!(
                "{name:>8}: instruction {}, phase {}, {}-way: {reason}\n",
                r.counts.worst_instruction, p.phase, p.ways
            ));
        }
    }
    if !reasons.is_empty() {
        s.push_str("\nWhy the reads conflict (each layout's worst phase):\n");
        s.push_str(&reasons);
    }
    s.push_str(concat!(
        "\nThe rows: index accesses, the passes over the banks (rocprof-compute's Index Accesses, Nsight Compute's\n",
        "wavefronts); bank conflict, the passes past one a phase (rocprof-compute's Bank Conflict, Nsight Compute's\n",
        "bank conflicts); max ways, the most distinct 4-byte words one bank serves in one phase (1: no conflict;\n",
        "Triton's and Gluon's bank-conflict count is max ways - 1, the extra passes); conflict rate, rocprof-compute's\n",
        "Bank Conflict Rate, 100 x (bank conflict / 32) / (index accesses - bank conflict).\n",
    ));
    s.push_str(
        "\nTry: cktile analyze SPEC --arch gfx942 --pattern mfma16, or a JSON request on stdin to cktile bank \
         (cktile --help).\n",
    );
    Ok(s)
}
