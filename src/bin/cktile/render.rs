//! `cktile render`: pictures of a descriptor as SVG (layout grid, bank heat map, transform chain) or of a
//! tile distribution (owner grid).

use crate::common::{Failure, GivenAccesses, LayoutDtype, PatternOp, Spec, bad, chip, element_bytes, write_file};
use cktile::render::svg::{banks, chain, grid, owners};

/// Draw a descriptor as SVG: its layout grid, a bank heat map of one instruction, or its transform chain.
#[derive(clap::Args)]
#[command(
    after_help = "Limits: grid: at most 65536 cells (use --rows/--cols); banks: a tile of at most 2^24 elements. SPEC files and \
stdin: at most 1 MiB.\n\nViews (--view):\n  \
grid    every (row, col) coordinate of a 1-D/2-D descriptor with its offset, coloured by bank (--arch, --dtype)\n  \
banks   one instruction of an access pattern or of a CK tile window over a distribution (the worst, or \
--instruction N), lanes x banks per phase, colliding lanes highlighted (--pattern or --distribution, --op, --arch, \
--dtype)\n  \
chain   the stages of transforms from the top coordinate down to the offset, with their id wiring\n  \
distribution   SPEC is a tile distribution (a catalogue name or CK's tile_distribution_encoding<...>): the owner \
grid of its 2-D X, each element's thread (P) and thread-buffer index (D), coloured by lane (--rows, --cols)\n\n\
Examples:\n  \
cktile render ck-universal-a:m=128,k=64 --view grid --rows 16 --cols 32 -o grid.svg\n  \
cktile render 'packed((128,64))' --view banks --arch gfx942 --pattern mfma16 --dtype fp16 -o banks.svg\n  \
cktile render ck-universal-a:m=128,k=32 --view banks --arch gfx950 --distribution mfma16x16x32_a --op ds_read_b128 \
-o window.svg\n  \
cktile render ck-xor-lds:m=128,k=32,kpack=8,mlds=2 --view chain -o chain.svg\n  \
cktile render mfma16x16x16_a --view distribution -o owners.svg"
)]
pub struct Args {
    #[command(flatten)]
    spec: Spec,
    /// What to draw: grid, banks, chain or distribution.
    #[arg(long, default_value = "grid", value_parser = ViewParser)]
    view: View,
    // The chips from the one list `--arch` is checked against.
    #[arg(long, default_value = "gfx942", help = format!(
        "The chip (its bank count colours the grid; its model analyses the banks view): {}",
        cktile::analyzer::arch::ARCH_NAMES
    ))]
    arch: String,
    #[arg(long, help = format!(
        "The access pattern of the banks view: {}",
        cktile::analyzer::pattern_name::PATTERN_NAMES
    ))]
    pattern: Option<String>,
    /// The banks view's tile distribution instead of a pattern: CK's or cktile's spelling, or a catalogue name;
    /// needs --op.
    #[arg(long, value_name = "ENCODING")]
    distribution: Option<String>,
    #[command(flatten)]
    op: PatternOp,
    #[command(flatten)]
    dtype: LayoutDtype,
    /// The banks view's instruction (from 0; default: the tile's worst).
    #[arg(long, value_parser = crate::common::non_negative::<usize>, allow_negative_numbers = true)]
    instruction: Option<usize>,
    /// The grid and distribution views show only the first ROWS rows (at least 1).
    #[arg(long, value_parser = crate::common::non_negative::<usize>, allow_negative_numbers = true)]
    rows: Option<usize>,
    /// The grid and distribution views show only the first COLS columns (at least 1).
    #[arg(long, value_parser = crate::common::non_negative::<usize>, allow_negative_numbers = true)]
    cols: Option<usize>,
    /// The picture's title (default: the SPEC argument).
    #[arg(long)]
    title: Option<String>,
    /// Write the SVG to this file instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,
}

/// What `render` draws (`--view`): the words it accepts are the variants'
/// names in lower case.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum View {
    /// The layout grid.
    Grid,
    /// The bank heat map of one instruction.
    Banks,
    /// The transform chain.
    Chain,
    /// The owner grid of a tile distribution.
    Distribution,
}

/// `--view`'s parser: [`View`]'s words, with cktile's own message for any
/// other word (exit code 2, as for every bad request).
#[derive(Clone)]
struct ViewParser;

impl clap::builder::TypedValueParser for ViewParser {
    type Value = View;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<View, clap::Error> {
        clap::builder::EnumValueParser::<View>::new().parse_ref(cmd, arg, value).map_err(|_| {
            clap::Error::raw(
                clap::error::ErrorKind::InvalidValue,
                format!(
                    "--view: `{}` is not a view; expected grid, banks or chain for a descriptor, or distribution \
                     for a tile distribution\n",
                    cktile::Visible(&value.to_string_lossy())
                ),
            )
        })
    }
}

/// The default title: the SPEC argument when it is a one-line spec or entry.
fn default_title(spec: &str, text: &str) -> String {
    cktile::render::svg::title_of(if spec.starts_with('@') || spec == "-" { text } else { spec })
}

/// Runs `cktile render`.
pub fn run(a: &Args) -> Result<String, Failure> {
    let svg = match a.view {
        View::Distribution => owners_view(a)?,
        View::Grid => grid_view(a, &Loaded::new(a)?)?,
        View::Banks => banks_view(a, &Loaded::new(a)?)?,
        View::Chain => {
            let l = Loaded::new(a)?;
            chain::chain(&l.layout.descriptor, &l.title)
        }
    };
    write_out(a.output.as_deref(), svg)
}

/// What the descriptor views start from: the SPEC's text and layout, the
/// chip and the title.
struct Loaded {
    text: String,
    layout: cktile::layouts::Layout,
    arch: cktile::analyzer::Arch,
    title: String,
}

impl Loaded {
    /// Reads the SPEC, then `--arch`, then the title (refusing in that order).
    fn new(a: &Args) -> Result<Loaded, Failure> {
        let (text, layout) = a.spec.load_typed(a.dtype.name())?;
        let arch = chip(&a.arch)?;
        let title = title(a, &text);
        Ok(Loaded { text, layout, arch, title })
    }
}

/// `--title`, or the default title of the SPEC whose text is `text`.
fn title(a: &Args, text: &str) -> String {
    a.title.as_deref().map_or_else(|| default_title(&a.spec.spec, text), str::to_string)
}

/// `--view distribution`: SPEC is a distribution here (a catalogue name or
/// CK's spelling), drawn as its owner grid.
fn owners_view(a: &Args) -> Result<String, Failure> {
    let (text, d) = crate::distribution::load_distribution(&a.spec.spec)?;
    owners::owners(&d, &title(a, &text), a.rows, a.cols).map_err(|e| Failure::input(&text, e))
}

/// `--view grid`: the layout grid.
fn grid_view(a: &Args, l: &Loaded) -> Result<String, Failure> {
    let op = a.op.resolve()?;
    let mut o = grid::GridOptions::for_chip(&l.title, element_bytes(&l.layout)?, &l.arch, op);
    o.rows = a.rows;
    o.cols = a.cols;
    grid::grid(&l.layout.descriptor, &o).map_err(|e| Failure::input(&l.text, e))
}

/// `--view banks`: the heat map of one instruction of the accesses
/// `--pattern` or `--distribution` name.
fn banks_view(a: &Args, l: &Loaded) -> Result<String, Failure> {
    let desc = &l.layout.descriptor;
    let op = a.op.resolve()?;
    let eb = element_bytes(&l.layout)?;
    let given = GivenAccesses::resolve(a.pattern.as_deref(), a.distribution.as_deref(), op)?.ok_or_else(|| {
        bad("--view banks needs --pattern (e.g. --pattern mfma16) or --distribution with --op".into())
    })?;
    let svg = banks::accesses_heat_map(desc, eb, &l.arch, &given.accesses, a.instruction, &l.title);
    svg.map_err(|e| given.failure(&l.text, e))
}

/// Writes the picture to `output` (a file, or stdout for `None` / `-`).
fn write_out(output: Option<&str>, svg: String) -> Result<String, Failure> {
    match output {
        Some(path) if path != "-" => {
            write_file(path, &svg)?;
            Ok(format!("wrote {} ({} bytes)", cktile::Visible(path), svg.len()))
        }
        _ => Ok(svg),
    }
}
