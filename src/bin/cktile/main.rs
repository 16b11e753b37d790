//! The `cktile` command: explore, check and query tensor descriptors written
//! in the spec language, without writing Rust. A thin shell over the library.

mod analyze;
mod bank;
mod catalogue;
mod check;
mod codegen;
mod common;
mod distribution;
mod dma_plan;
mod equiv;
mod export;
mod gpu_cases;
mod hopper_plan;
mod matrix_desc;
mod offsets;
mod render;
mod rules;
mod search;
mod summary;
mod tma;
mod transpose_load;

use clap::{CommandFactory, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "cktile",
    version,
    about = "Explore CK Tile-style tensor descriptors (LDS layouts): offsets, bijectivity, holes, bank conflicts.",
    long_about = "Explore CK Tile-style tensor descriptors (LDS layouts): offsets, bijectivity, holes, bank conflicts.\n\n\
Without a subcommand, compares the LDS bank conflicts of an fp16 128x64 GEMM A tile on gfx942 (MFMA 16x16x16 \
reads with ds_read_b128, ds_write_b128 row writes) for the naive, padded and XOR-preshuffled CK Tile layouts.",
    after_help = "Examples:\n  cktile\n  cktile offsets 'packed((4,8))'\n  cktile check 'naive((4,8),(10,1))' --json\n  \
cktile analyze 'packed((128,64))' --arch gfx942 --pattern mfma16 --dtype fp16\n  \
echo '{\"arch\": \"gfx90a\", \"op\": \"ds_read_b32\", \"addresses\": [0, 128]}' | cktile bank"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// The subcommands: each one's arguments, help and code live in its module.
#[derive(Subcommand)]
enum Command {
    Offsets(offsets::Args),
    Distribution(distribution::Args),
    #[command(alias = "catalog")]
    Catalogue(catalogue::Args),
    Check(check::Args),
    Bank(bank::Args),
    Analyze(analyze::Args),
    Search(search::Args),
    DmaPlan(dma_plan::Args),
    Equiv(equiv::Args),
    TransposeLoad(transpose_load::Args),
    MatrixDesc(matrix_desc::Args),
    Tma(tma::Args),
    HopperPlan(hopper_plan::Args),
    Codegen(codegen::Args),
    Export(export::Args),
    GpuCases(gpu_cases::Args),
    Rules(rules::Args),
    Render(render::Args),
}

/// `text` with its line breaks kept and every other character that would
/// act on a terminal written as [`cktile::Visible`] writes it.
fn visible_lines(text: &str) -> String {
    let lines: Vec<String> = text.split('\n').map(|line| cktile::Visible(line).to_string()).collect();
    lines.join("\n")
}

/// Writes a message to stderr. A closed or failing stderr loses the message
/// but not the exit code: the status says what happened (`eprintln!` would
/// panic and exit 101 instead).
fn to_stderr(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and the version go to stdout as clap writes them.
        Err(e) if !e.use_stderr() => e.exit(),
        // clap's message quotes the bad argument: parsed again without
        // clap's colours (whose plain rendering would drop the argument's
        // escape sequences along with its own), and printed with the
        // argument's control characters spelled out.
        Err(e) => {
            let plain = Cli::command().styles(clap::builder::Styles::plain()).try_get_matches();
            let message = plain.err().map_or_else(|| e.render().to_string(), |e| e.render().ansi().to_string());
            to_stderr(&visible_lines(&message));
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let result = match &cli.command {
        None => summary::summary(),
        Some(Command::Offsets(a)) => offsets::run(a),
        Some(Command::Distribution(a)) => distribution::run(a),
        Some(Command::Catalogue(a)) => catalogue::run(a),
        Some(Command::Check(a)) => check::run(a),
        Some(Command::Bank(a)) => bank::run(a),
        Some(Command::Analyze(a)) => analyze::run(a),
        Some(Command::Search(a)) => search::run(a),
        Some(Command::DmaPlan(a)) => dma_plan::run(a),
        Some(Command::Equiv(a)) => equiv::run(a),
        Some(Command::TransposeLoad(a)) => transpose_load::run(a),
        Some(Command::MatrixDesc(a)) => matrix_desc::run(a),
        Some(Command::Tma(a)) => tma::run(a),
        Some(Command::HopperPlan(a)) => hopper_plan::run(a),
        Some(Command::Codegen(a)) => codegen::run(a),
        Some(Command::Export(a)) => export::run(a),
        Some(Command::GpuCases(a)) => gpu_cases::run(a),
        Some(Command::Rules(a)) => rules::run(a),
        Some(Command::Render(a)) => render::run(a),
    };
    match result {
        Ok(mut out) => {
            if !out.ends_with('\n') {
                out.push('\n');
            }
            // A closed pipe (`cktile ... | head`) is the reader's choice, not an error.
            match std::io::stdout().lock().write_all(out.as_bytes()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    to_stderr(&format!("error: cannot write the output: {e}\n"));
                    ExitCode::from(1)
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(f) if f.stdout => {
            // An answer with a non-zero exit code (cktile equiv's different maps).
            let _ = writeln!(std::io::stdout().lock(), "{}", f.message);
            ExitCode::from(f.code)
        }
        Err(f) => {
            to_stderr(&format!("{}\n", f.message));
            ExitCode::from(f.code)
        }
    }
}
