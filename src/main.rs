//! The `cktile` command: explore, check and query tensor descriptors written
//! in the spec language, without writing Rust. A thin shell over the library.

use cktile::analyzer::report::{InstructionReport, TileReport, analyze_instruction, analyze_tile_report};
use cktile::analyzer::{Arch, Op, Pattern, arch};
use cktile::render::bank::LayoutColumn;
use cktile::{Descriptor, Error, check, layouts, render};
use clap::{Parser, Subcommand};
use serde_json::{Value, json};
use std::io::Read;
use std::process::ExitCode;

const SPEC_HELP: &str = "A descriptor spec, a catalogue entry (`cktile catalog`), `@path` to read one from a file, \
or `-` for stdin. Examples: 'naive((4,8),(8,1)) | transform(merge((4,8)) on [0,1] -> [0])', \
'ck-universal-a:m=128,k=32,dtype=fp16'";

#[derive(Parser)]
#[command(
    name = "cktile",
    version,
    about = "Explore CK Tile-style tensor descriptors (LDS layouts): offsets, bijectivity, holes, bank conflicts.",
    long_about = "Explore CK Tile-style tensor descriptors (LDS layouts): offsets, bijectivity, holes, bank conflicts.\n\n\
Without a subcommand, compares the LDS bank conflicts of an fp16 128x64 GEMM A tile on gfx942 (MFMA 16x16x16 \
reads with ds_read_b128, ds_write_b128 row writes) for the naive, padded and XOR-preshuffled CK Tile layouts.",
    after_help = "Examples:\n  cktile\n  cktile offsets 'packed((4,8))'\n  cktile check 'naive((4,8),(10,1))' --json\n  \
cktile analyze 'packed((128,64))' --arch gfx942 --pattern mfma16\n  \
echo '{\"arch\": \"gfx90a\", \"op\": \"ds_read_b32\", \"addresses\": [0, 128]}' | cktile bank"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Offset and validity of every top coordinate (row-major, last dimension fastest).
    #[command(after_help = "Examples:\n  cktile offsets 'packed((4,8))'\n  \
cktile offsets 'naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])' --json\n  \
cktile offsets 'naive((8,128,8),(8,64,1)) | transform(xor((128,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2]) | transform(pass_through(128) on [1] -> [0], merge((8,8)) on [0,2] -> [1])' --at 3,9")]
    Offsets {
        #[arg(help = SPEC_HELP)]
        spec: String,
        /// Print one JSON object: {"lengths", "element_space_size", "offsets", "valid"}.
        #[arg(long)]
        json: bool,
        /// Only this coordinate (comma-separated), with the index at every stage.
        #[arg(long, value_name = "COORD", allow_hyphen_values = true)]
        at: Option<String>,
    },
    /// The layout catalogue: every entry with its parameters, source and footprint.
    #[command(after_help = "Examples:\n  cktile catalog\n  cktile catalog ck-universal-a\n  cktile catalog --json")]
    Catalog {
        /// Show only this entry, with its spec.
        name: Option<String>,
        /// Print the catalogue as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Injective? Surjective onto [0, element_space_size)? Holes, collisions, vector lengths.
    #[command(after_help = "Examples:\n  cktile check 'naive((4,8),(10,1))'\n  cktile check @layout.spec --json")]
    Check {
        #[arg(help = SPEC_HELP)]
        spec: String,
        /// Print the report as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Bank conflicts of one shared-memory instruction: reads one JSON request on stdin, prints one JSON object.
    #[command(
        long_about = "Bank conflicts of one shared-memory instruction.\n\n\
Reads one JSON object on stdin: {\"arch\": ARCH, \"op\": OP, \"addresses\": [...]}, one byte address per lane \
(null: the lane is inactive; lanes past the list are inactive). Prints one JSON object: phases, cycles \
(rocprof-compute's index accesses, Nsight's wavefronts), conflict_cycles, max_ways, bank_conflict_rate_pct, \
theoretical_bytes, active_lanes, worst_phase, assumption (null, or why the phase grouping is assumed) and \
phase_detail (per phase: lanes, active lanes, cycles, ways, and each conflicting bank's words with their lanes).\n\n\
ARCH: gfx90a, gfx942, gfx950, sm80, sm90.\n\
OP: ds_read_b32|b64|b128, ds_write_b32|b64|b128 (AMD); ld.shared.b8|b16|b32|b64|b128, \
st.shared.b8|b16|b32|b64|b128, ldmatrix.x1|x2|x4[.trans], stmatrix.x1|x2|x4[.trans] (NVIDIA; stmatrix on sm90).",
        after_help = "Examples:\n  \
echo '{\"arch\": \"gfx90a\", \"op\": \"ds_read_b32\", \"addresses\": [0, 128, null, 256]}' | cktile bank\n  \
cktile bank < request.json"
    )]
    Bank,
    /// Bank conflicts of a tile layout under an access pattern: every instruction, then the worst phase.
    #[command(after_help = "Patterns (--pattern NAME, with --op for the instruction):\n  \
rows        each lane accesses one --op-wide vector along a row, lanes walk the tile row by row (needs --op)\n  \
columns     as rows, but lanes walk down a column of vectors first (needs --op)\n  \
mfma16      AMD MFMA 16x16x16 operand read (--op ds_read_b128 by default, or ds_read_b64)\n  \
mfma32      AMD MFMA 32x32x8 operand read (--op ds_read_b128 by default, or ds_read_b64)\n  \
ldmatrix    NVIDIA ldmatrix fragments (--op ldmatrix.x4 by default; ldmatrix/stmatrix .x1|.x2|.x4[.trans])\n  \
mma_sync_a  NVIDIA mma.sync m16n8k16 A fragment with ld.shared.b32\n\n\
Examples:\n  \
cktile analyze 'packed((128,64))' --arch gfx942 --pattern mfma16\n  \
cktile analyze ck-universal-a:m=128,k=64 --arch gfx942 --pattern rows --op ds_write_b128\n  \
cktile analyze 'cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64' --arch sm90 --pattern ldmatrix --json\n  \
cktile analyze 'packed((64,64))' --arch sm80 --pattern columns --op ld.shared.b32 --dtype fp32")]
    Analyze {
        #[arg(help = SPEC_HELP)]
        spec: String,
        /// The chip: gfx90a, gfx942, gfx950, sm80 or sm90.
        #[arg(long)]
        arch: String,
        /// The access pattern: rows, columns, mfma16, mfma32, ldmatrix or mma_sync_a (see below).
        #[arg(long)]
        pattern: String,
        /// The instruction the pattern issues (e.g. ds_write_b128, ld.shared.b32, ldmatrix.x2.trans).
        #[arg(long)]
        op: Option<String>,
        /// Element type: fp8/int8, fp16/bf16, fp32/tf32, fp64, or a byte count.
        #[arg(long, default_value = "fp16")]
        dtype: String,
        /// Print one JSON object instead of the table.
        #[arg(long)]
        json: bool,
    },
}

/// A failure and the exit code it maps to: 2 for bad input, 1 for I/O.
struct Failure {
    message: String,
    code: u8,
}

impl Failure {
    fn input(source: &str, e: Error) -> Failure {
        let mut message = format!("error: {e}");
        if let Some(at) = e.position() {
            if let Some(line) = source.lines().nth(at.line.saturating_sub(1) as usize) {
                let caret = " ".repeat(at.column.saturating_sub(1) as usize);
                message.push_str(&format!("\n  |\n  | {line}\n  | {caret}^"));
            }
        }
        Failure { message, code: 2 }
    }
}

fn read_spec(arg: &str) -> Result<String, Failure> {
    let io = |what: String, e: std::io::Error| Failure { message: format!("error: cannot read {what}: {e}"), code: 1 };
    if arg == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map_err(|e| io("stdin".into(), e))?;
        Ok(text)
    } else if let Some(path) = arg.strip_prefix('@') {
        std::fs::read_to_string(path).map_err(|e| io(format!("`{path}`"), e))
    } else {
        Ok(arg.to_string())
    }
}

fn load(arg: &str) -> Result<(String, Descriptor), Failure> {
    let text = read_spec(arg)?;
    let desc = layouts::resolve(&text).map_err(|e| Failure::input(&text, e))?;
    Ok((text, desc))
}

fn parse_coordinate(text: &str) -> Result<Vec<i64>, Failure> {
    text.split(',')
        .map(|s| {
            s.trim().parse::<i64>().map_err(|_| Failure {
                message: format!("error: --at: `{}` is not an integer; write the coordinate as e.g. 3,9", s.trim()),
                code: 2,
            })
        })
        .collect()
}

fn offsets(arg: &str, json: bool, at: Option<&str>) -> Result<String, Failure> {
    let (text, desc) = load(arg)?;
    if let Some(at) = at {
        let coord = parse_coordinate(at)?;
        let offset = desc.try_calculate_offset(&coord).map_err(|e| Failure::input(&text, e))?;
        let valid = desc.coordinate_has_valid_offset(&coord);
        let c = cktile::make_tensor_coordinate(&desc, &coord);
        let levels: Vec<Vec<i64>> = (0..=desc.stages().len())
            .rev()
            .map(|k| {
                let n = if k == 0 { 1 } else { desc.stages()[k - 1].upper_lengths().len() };
                c.level(k)[..n].to_vec()
            })
            .collect();
        return Ok(if json {
            json!({"coordinate": coord, "offset": offset, "valid": valid, "levels": levels}).to_string()
        } else {
            let mut s = format!("{coord:?} -> offset {offset} ({})\n", if valid { "valid" } else { "padding" });
            for (i, level) in levels.iter().enumerate() {
                s.push_str(&format!("  level {i}: {level:?}\n"));
            }
            s
        });
    }
    let o = check::offsets(&desc).map_err(|e| Failure::input(&text, e))?;
    Ok(if json {
        json!({
            "lengths": desc.lengths().as_slice(),
            "element_space_size": desc.element_space_size(),
            "offsets": o.offsets,
            "valid": o.valid,
        })
        .to_string()
    } else {
        render::text::offsets(&desc, &o)
    })
}

fn check_report(arg: &str, json: bool) -> Result<String, Failure> {
    let (text, desc) = load(arg)?;
    let r = check::check(&desc).map_err(|e| Failure::input(&text, e))?;
    Ok(if json {
        let opt = |x: Option<i64>| x.map_or(json!(null), |v| json!(v));
        json!({
            "lengths": r.lengths,
            "element_size": r.element_size,
            "valid_count": r.valid_count,
            "element_space_size": r.element_space_size,
            "injective": r.injective,
            "surjective": r.surjective,
            "bijective": r.is_bijective(),
            "hole_count": r.hole_count,
            "holes": r.holes,
            "collision_count": r.collision_count,
            "collisions": r.collisions.iter().map(|c| json!({"offset": c.offset, "first": c.first, "second": c.second})).collect::<Vec<_>>(),
            "outside_count": r.outside_count,
            "outside": r.outside.iter().map(|(c, o)| json!({"coordinate": c, "offset": o})).collect::<Vec<_>>(),
            "vectors": r.vectors.iter().map(|v| json!({"length": opt(v.length), "stride": opt(v.stride)})).collect::<Vec<_>>(),
        })
        .to_string()
    } else {
        render::text::report(&r)
    })
}

fn catalog(name: Option<&str>, json: bool) -> Result<String, Failure> {
    let entries: Vec<&layouts::Entry> = match name {
        Some(n) => {
            let found: Vec<_> = layouts::CATALOG.iter().filter(|e| e.name == n).collect();
            if found.is_empty() {
                let names: Vec<_> = layouts::CATALOG.iter().map(|e| e.name).collect();
                return Err(Failure {
                    message: format!("error: unknown catalogue entry `{n}`; expected one of: {}", names.join(", ")),
                    code: 2,
                });
            }
            found
        }
        None => layouts::CATALOG.iter().collect(),
    };
    let mut items = Vec::new();
    let mut text = String::new();
    for e in entries {
        let example = layouts::resolve(e.example).map_err(|err| Failure::input(e.example, err))?;
        let tile = example.element_size().unwrap_or(0);
        let space = example.element_space_size();
        let overhead = if tile > 0 { 100.0 * (space - tile) as f64 / tile as f64 } else { 0.0 };
        if json {
            items.push(json!({
                "name": e.name,
                "summary": e.summary,
                "source": e.source,
                "bijective": e.bijective,
                "params": e.params.iter().map(|p| json!({"name": p.name, "help": p.help, "default": p.default})).collect::<Vec<_>>(),
                "example": e.example,
                "example_element_size": tile,
                "example_element_space_size": space,
                "example_spec": example.to_string(),
            }));
            continue;
        }
        text.push_str(&format!("{}\n  {}\n  source: {}\n", e.name, e.summary, e.source));
        for p in e.params {
            let default = p.default.map_or(String::new(), |d| format!(" (default {d})"));
            text.push_str(&format!("  {:>13}: {}{default}\n", p.name, p.help));
        }
        text.push_str(&format!(
            "  example: {}\n           {tile} elements in {space} ({overhead:.1}% extra), {}\n",
            e.example,
            if e.bijective { "bijective" } else { "injective, padded" }
        ));
        if name.is_some() {
            text.push_str(&format!(
                "  spec:\n{}\n",
                example.to_string().lines().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n")
            ));
        }
        text.push('\n');
    }
    Ok(if json { serde_json::Value::Array(items).to_string() } else { text })
}

/// A bad request: exit code 2.
fn bad(message: String) -> Failure {
    Failure { message: format!("error: {message}"), code: 2 }
}

fn analysis(e: Error) -> Failure {
    Failure::input("", e)
}

const REQUEST_SHAPE: &str = r#"{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [0, 128, null]}"#;

/// Reads `cktile bank`'s request: the chip, the instruction and each lane's address.
fn bank_request(text: &str) -> Result<(Arch, Op, Vec<Option<u64>>), Failure> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| bad(format!("malformed JSON request ({e}); expected one object such as {REQUEST_SHAPE}")))?;
    let Value::Object(fields) = value else {
        return Err(bad(format!("the request must be one JSON object such as {REQUEST_SHAPE}")));
    };
    if let Some(key) = fields.keys().find(|k| !matches!(k.as_str(), "arch" | "op" | "addresses")) {
        return Err(bad(format!("unknown key `{key}` in the request; expected arch, op and addresses")));
    }
    let string = |key: &str| -> Result<&str, Failure> {
        match fields.get(key) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(bad(format!("`{key}` must be a string, found {other}"))),
            None => Err(bad(format!("the request has no `{key}`; expected an object such as {REQUEST_SHAPE}"))),
        }
    };
    let arch = Arch::by_name(string("arch")?).map_err(|e| bad(format!("arch: {e}")))?;
    let op = Op::by_name(string("op")?).map_err(|e| bad(format!("op: {e}")))?;
    let Some(Value::Array(items)) = fields.get("addresses") else {
        return Err(bad(format!(
            "`addresses` must be an array with one byte address (or null) per lane; expected an object such as {REQUEST_SHAPE}"
        )));
    };
    let addresses = items
        .iter()
        .enumerate()
        .map(|(lane, v)| match v {
            Value::Null => Ok(None),
            v => v.as_u64().map(Some).ok_or_else(|| {
                bad(format!(
                    "addresses[{lane}] is {v}; expected a byte address (a non-negative integer) or null for an inactive lane"
                ))
            }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((arch, op, addresses))
}

fn instruction_json(r: &InstructionReport) -> Value {
    let c = &r.counts;
    json!({
        "arch": r.arch.name,
        "op": r.op.name(),
        "phases": c.phases,
        "cycles": c.cycles,
        "conflict_cycles": c.conflict_cycles,
        "max_ways": c.max_ways,
        "bank_conflict_rate_pct": r.bank_conflict_rate_pct,
        "theoretical_bytes": r.theoretical_bytes,
        "active_lanes": c.active_lanes,
        "worst_phase": c.worst_phase,
        "assumption": r.assumption,
        "phase_detail": r.phase_detail.iter().map(|p| json!({
            "phase": p.phase,
            "lanes": p.lanes,
            "active_lanes": p.active_lanes,
            "cycles": p.cycles,
            "ways": p.ways,
            "busiest_bank": p.busiest_bank,
            "conflicts": p.conflicts.iter().map(|b| json!({
                "bank": b.bank,
                "ways": b.words.len(),
                "words": b.words.iter().map(|w| json!({"address": w.address, "lanes": w.lanes})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

fn bank() -> Result<String, Failure> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| Failure { message: format!("error: cannot read stdin: {e}"), code: 1 })?;
    let (arch, op, addresses) = bank_request(&text)?;
    let r = analyze_instruction(&arch, op, &addresses).map_err(analysis)?;
    Ok(instruction_json(&r).to_string())
}

struct AnalyzeArgs<'a> {
    spec: &'a str,
    arch: &'a str,
    pattern: &'a str,
    op: Option<&'a str>,
    dtype: &'a str,
    json: bool,
}

fn analyze(a: &AnalyzeArgs<'_>) -> Result<String, Failure> {
    let (text, desc) = load(a.spec)?;
    let arch = Arch::by_name(a.arch).map_err(|e| bad(format!("--arch: {e}")))?;
    let op = a.op.map(Op::by_name).transpose().map_err(|e| bad(format!("--op: {e}")))?;
    let pattern = Pattern::by_name(a.pattern, op).map_err(|e| bad(format!("--pattern: {e}")))?;
    let element_bytes = layouts::dtype_bytes(a.dtype).map_err(|e| bad(format!("--dtype: {e}")))?;
    let r = analyze_tile_report(&desc, element_bytes, &arch, pattern).map_err(|e| Failure::input(&text, e))?;
    if a.json {
        let c = &r.counts;
        return Ok(json!({
            "arch": arch.name,
            "op": r.op.name(),
            "pattern": pattern.name(),
            "element_bytes": element_bytes,
            "lengths": desc.lengths().as_slice(),
            "element_space_size": desc.element_space_size(),
            "instructions": c.instructions,
            "phases": c.phases,
            "cycles": c.cycles,
            "conflict_cycles": c.conflict_cycles,
            "max_ways": c.max_ways,
            "conflicted_instructions": c.conflicted_instructions,
            "bank_conflict_rate_pct": r.bank_conflict_rate_pct,
            "theoretical_bytes": r.theoretical_bytes,
            "worst_instruction": c.worst_instruction,
            "per_instruction": r.instructions.iter().map(|i| json!({
                "phases": i.phases,
                "cycles": i.cycles,
                "conflict_cycles": i.conflict_cycles,
                "max_ways": i.max_ways,
                "worst_phase": i.worst_phase,
            })).collect::<Vec<_>>(),
            "worst": instruction_json(&r.worst),
        })
        .to_string());
    }
    let lengths: Vec<String> = desc.lengths().as_slice().iter().map(|l| l.to_string()).collect();
    Ok(format!(
        "{} tile, {} elements of storage\n{}",
        lengths.join("x"),
        desc.element_space_size(),
        render::bank::tile(&r)
    ))
}

/// The main job: the analysis the CK Tile docs walk through.
fn summary() -> Result<String, Failure> {
    // Each layout is named by the text that builds it (a spec or catalogue entry).
    let layouts: [(&str, &str, &str); 3] = [
        ("naive", "packed((128,64))", "row-major, 128-byte rows"),
        ("padded", "row-padded:rows=128,cols=64,pad=8", "rows padded by 8 elements"),
        ("XOR (CK)", "ck-universal-a:m=128,k=64", "CK Tile's XOR-preshuffled LDS block"),
    ];
    let gfx942 = arch::GFX942;
    let read = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
    let write = Pattern::Rows { op: Op::DsWrite { bits: 128 } };
    let mut columns = Vec::new();
    for (name, text, _) in &layouts {
        let desc = layouts::resolve(text).map_err(|e| Failure::input(text, e))?;
        let reports = [read, write]
            .iter()
            .map(|&p| analyze_tile_report(&desc, 2, &gfx942, p))
            .collect::<Result<Vec<TileReport>, Error>>()
            .map_err(analysis)?;
        columns.push(LayoutColumn {
            name,
            elements: desc.element_size().unwrap_or(0),
            element_space: desc.element_space_size(),
            reports,
        });
    }
    let mut s = format!(
        "cktile: LDS bank conflicts of an fp16 128x64 GEMM A tile on {} ({}, {} banks of 4 bytes),\n\
         read by MFMA 16x16x16 with ds_read_b128 and written row by row with ds_write_b128\n\
         (the CK Tile docs' \"Understanding AMD GPU LDS and Bank Conflicts\").\n\n",
        gfx942.name, gfx942.description, gfx942.banks
    );
    s.push_str(&render::bank::comparison(&columns));
    s.push('\n');
    for (name, text, what) in &layouts {
        s.push_str(&format!("{name:>8}: {text}: {what}\n"));
    }
    if let Some(naive_read) = columns.first().and_then(|c| c.reports.first()) {
        let w = &naive_read.worst;
        if let Some(p) = w.phase_detail.get(w.counts.worst_phase as usize) {
            s.push_str(&format!(
                "\nWhy the naive read conflicts: instruction {}, ",
                naive_read.counts.worst_instruction
            ));
            s.push_str(&render::bank::phase(p));
        }
    }
    s.push_str(
        "\nTry: cktile analyze SPEC --arch gfx942 --pattern mfma16, or a JSON request on stdin to cktile bank \
         (cktile --help).\n",
    );
    Ok(s)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        None => summary(),
        Some(Command::Offsets { spec, json, at }) => offsets(spec, *json, at.as_deref()),
        Some(Command::Check { spec, json }) => check_report(spec, *json),
        Some(Command::Catalog { name, json }) => catalog(name.as_deref(), *json),
        Some(Command::Bank) => bank(),
        Some(Command::Analyze { spec, arch, pattern, op, dtype, json }) => {
            analyze(&AnalyzeArgs { spec, arch, pattern, op: op.as_deref(), dtype, json: *json })
        }
    };
    match result {
        Ok(out) => {
            print!("{out}");
            if !out.ends_with('\n') {
                println!();
            }
            ExitCode::SUCCESS
        }
        Err(f) => {
            eprintln!("{}", f.message);
            ExitCode::from(f.code)
        }
    }
}
