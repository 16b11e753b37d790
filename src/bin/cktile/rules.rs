//! `cktile rules`: the analyzer's rule table.

use crate::common::{Failure, chip, io, read_limited, to_json};
use cktile::json::{FindingsJson, RuleJson};
use cktile::render::rules::{disagreements, findings, rows, table};
use cktile::reports::probe::{ingest, parse};

/// The analyzer's rule table: banks, phases and sources per chip and instruction.
#[derive(clap::Args)]
#[command(
    long_about = "The analyzer's rule table: for every chip and every instruction it has, the 4-byte banks that \
resolve the instruction's conflicts, the lanes served together in each phase, and where that comes from (the \
measurement or documentation, or the assumption cktile makes where no source gives it, or the dispute where \
sources disagree).\n\n--ingest reads the output of cktile's AMD LDS probe (gpu/amd/run.sh, run on your own GPU) and sets each \
measured bank count, phase grouping and stride count beside cktile's table, printing the measurements as a rules \
table whose source is the run (chip, device, date); exit code 1 when any measurement disagrees.\n\n--disagreements \
sets every public model of AMD's LDS (cktile, rocKE, rocRoller, Triton #9662 and #11365, IREE, amd-shark, HipKittens) \
side by side: for every AMD chip and ds_read/ds_write b32-b128, it answers a corpus of access patterns (strides, \
blocks, XOR swizzles, shared words, partial waves, two-lane probes, the catalogue's GEMM layouts under their natural \
reads and writes) with every model, and prints the patterns on which two models that answer disagree: one per \
distinct set of answers, each model's answer in ways (or silent, where its source says nothing), the evidence behind \
each model, and cktile's choice with who agrees.",
    after_help = "Examples:\n  cktile rules --arch gfx950\n  cktile rules --markdown > rules.md\n  cktile rules --json\n  \
cktile rules --ingest target/amd-probe/probe.txt\n  cktile rules --disagreements --arch gfx942 --op ds_read_b128"
)]
pub struct Args {
    // The chips from the one list `--arch` is checked against.
    #[arg(long, help = format!("Only this chip ({})", cktile::analyzer::arch::ARCH_NAMES))]
    arch: Option<String>,
    /// A Markdown table.
    #[arg(long, conflicts_with = "json")]
    markdown: bool,
    /// One JSON array of rows (with --ingest: one object of findings; with --disagreements: one array of every
    /// disagreeing pattern, its addresses and each model's answer).
    #[arg(long)]
    json: bool,
    /// A probe file (gpu/amd/run.sh's output, `@path` or a path, `-` for stdin): compare its measurements with the
    /// table.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["arch", "markdown"])]
    ingest: Option<String>,
    /// The access patterns on which the public models of AMD's LDS disagree (all AMD chips, or --arch's).
    #[arg(long, conflicts_with_all = ["ingest", "markdown"])]
    disagreements: bool,
    /// With --disagreements: only this instruction (ds_read_b32 ... ds_write_b128).
    #[arg(long, requires = "disagreements")]
    op: Option<String>,
}

/// Runs `cktile rules`.
pub fn run(a: &Args) -> Result<String, Failure> {
    if let Some(arg) = &a.ingest {
        let text = read_probe(arg)?;
        let f = parse(&text).and_then(|run| ingest(&run)).map_err(|e| Failure::input(&text, e))?;
        let out = if a.json { to_json(&FindingsJson::new(&f))? } else { findings(&f) };
        if !f.all_agree() {
            return Err(Failure { message: out.trim_end().to_string(), code: 1, stdout: true });
        }
        return Ok(out);
    }
    let arch = a.arch.as_deref().map(chip).transpose()?;
    if a.disagreements {
        if let Some(x) = arch.filter(|x| x.vendor() != cktile::analyzer::arch::Vendor::Amd) {
            return Err(crate::common::bad(format!(
                "--arch: {} is an NVIDIA chip; the models compared are AMD's LDS models: give an AMD chip",
                x.name()
            )));
        }
        let mut found = cktile::reports::disagreements::disagreements(arch.as_ref());
        if let Some(name) = &a.op {
            let op = cktile::analyzer::Op::by_name(name).map_err(|e| crate::common::bad(format!("--op: {e}")))?;
            if !cktile::reports::disagreements::OPS.contains(&op) {
                return Err(crate::common::bad(format!(
                    "--op: the models are compared on ds_read_b32, ds_read_b64, ds_read_b96, ds_read_b128, \
                     ds_write_b32, ds_write_b64, ds_write_b96 and ds_write_b128, not {op}"
                )));
            }
            found.retain(|d| d.op == op);
        }
        if a.json {
            return to_json(&found.iter().map(cktile::json::DisagreementJson::new).collect::<Vec<_>>());
        }
        return Ok(disagreements(&found));
    }
    let rows = rows(arch.as_ref());
    if a.json {
        return to_json(&rows.iter().map(RuleJson::new).collect::<Vec<_>>());
    }
    Ok(table(&rows, a.markdown))
}

/// The most bytes of a probe file: a full gfx950 run is about 1.1 MB.
const MAX_PROBE_BYTES: u64 = 16 << 20;

/// A probe file's text: the file at `arg` (a leading `@` allowed), or stdin for `-`.
fn read_probe(arg: &str) -> Result<String, Failure> {
    let why = "the most cktile reads of a probe file; a full run is about 1 MB";
    let limit = (MAX_PROBE_BYTES, "16 MiB");
    if arg == "-" {
        return read_limited(std::io::stdin().lock(), "stdin", limit, why);
    }
    let path = arg.strip_prefix('@').unwrap_or(arg);
    let file = std::fs::File::open(path).map_err(|e| io(format!("cannot read `{}`: {e}", cktile::Visible(path))))?;
    read_limited(file, &format!("`{}`", cktile::Visible(path)), limit, why)
}
