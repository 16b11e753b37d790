//! The `cktile` command: explore, check and query tensor descriptors written
//! in the spec language, without writing Rust. A thin shell over the library.

use cktile::{Descriptor, Error, check, layouts, render};
use clap::{Parser, Subcommand};
use serde_json::json;
use std::io::Read;
use std::process::ExitCode;

/// CK Tile's GEMM A-tile LDS descriptor, M=128, K=32, KPack=8, MLdsLayer=2
/// (current form): the layout `cktile` summarises when run without arguments.
const DEFAULT_SPEC: &str = "\
# CK Tile universal GEMM A LDS block: M=128, K=32, KPack=8, MLdsLayer=2 (2025 form)
naive((8,64,8),(8,64,1),8,1)
| transform(xor((64,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2])
| transform(unmerge((2,4)) on [0] -> [0,2], pass_through(64) on [1] -> [1], pass_through(8) on [2] -> [3])
| transform(merge((64,2)) on [1,0] -> [0], merge((4,8)) on [2,3] -> [1])";

const SPEC_HELP: &str = "A descriptor spec, a catalogue entry (`cktile catalog`), `@path` to read one from a file, \
or `-` for stdin. Examples: 'naive((4,8),(8,1)) | transform(merge((4,8)) on [0,1] -> [0])', \
'ck-universal-a:m=128,k=32,dtype=fp16'";

#[derive(Parser)]
#[command(
    name = "cktile",
    version,
    about = "Explore CK Tile-style tensor descriptors (LDS layouts): offsets, bijectivity, holes.",
    long_about = "Explore CK Tile-style tensor descriptors (LDS layouts): offsets, bijectivity, holes.\n\n\
Without a subcommand, summarises CK Tile's GEMM A-tile LDS descriptor (M=128, K=32, KPack=8, MLdsLayer=2).",
    after_help = "Examples:\n  cktile offsets 'packed((4,8))'\n  cktile check 'naive((4,8),(10,1))' --json\n  cktile offsets @layout.spec --at 3,9"
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

fn summary() -> Result<String, Failure> {
    let desc = layouts::resolve(DEFAULT_SPEC).map_err(|e| Failure::input(DEFAULT_SPEC, e))?;
    let r = check::check(&desc).map_err(|e| Failure::input(DEFAULT_SPEC, e))?;
    let o = check::offsets(&desc).map_err(|e| Failure::input(DEFAULT_SPEC, e))?;
    let mut s = String::from("cktile: CK Tile GEMM A-tile LDS descriptor, M=128, K=32, KPack=8, MLdsLayer=2\n\n");
    s.push_str(&format!("{desc}\n\n"));
    s.push_str(&render::text::report(&r));
    s.push_str("\nOffsets of rows m = 0..8 (k = 0..32):\n");
    let grid = render::text::offsets(&desc, &o);
    let lines: Vec<&str> = grid.lines().take(9).map(str::trim_end).collect();
    s.push_str(&lines.join("\n"));
    s.push_str("\n\nTry: cktile offsets SPEC, cktile check SPEC (cktile --help for the spec syntax).\n");
    Ok(s)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        None => summary(),
        Some(Command::Offsets { spec, json, at }) => offsets(spec, *json, at.as_deref()),
        Some(Command::Check { spec, json }) => check_report(spec, *json),
        Some(Command::Catalog { name, json }) => catalog(name.as_deref(), *json),
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
