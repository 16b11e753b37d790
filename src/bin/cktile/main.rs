//! The `cktile` command: explore, check and query tensor descriptors written
//! in the spec language, without writing Rust. A thin shell over the library.

mod analyze;
mod bank;
mod catalog;
mod check;
mod codegen;
mod common;
mod distribution;
mod dma_plan;
mod gpu_cases;
mod offsets;
mod render;
mod rules;
mod search;
mod summary;

use clap::{Parser, Subcommand};
use common::SPEC_HELP;
use std::io::Write;
use std::process::ExitCode;
use std::str::FromStr;

/// A count or size option: a non-negative integer. A negative value is
/// refused as negative (the plain unsigned parser would call its `-` an
/// invalid digit); any other bad value gets the parser's own message.
fn non_negative<T: FromStr<Err = std::num::ParseIntError>>(text: &str) -> Result<T, String> {
    text.parse::<T>().map_err(|e| match text.parse::<i128>() {
        Ok(value) if value < 0 => format!("{value} is negative; it must be a non-negative integer"),
        _ => e.to_string(),
    })
}

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

#[derive(Subcommand)]
enum Command {
    /// Offset and validity of every top coordinate (row-major, last dimension fastest).
    #[command(
        after_help = "Limits: every top coordinate is enumerated: at most 2^24 (16777216) of them, and at most 2^27 coordinates x \
transforms in the chain (a 15-transform chain: 8947848 coordinates); a larger descriptor is refused, so check a slice \
of it. SPEC files and stdin: at most 1 MiB.\n\nExamples:\n  cktile offsets 'packed((4,8))'\n  \
cktile offsets 'naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])' --json\n  \
cktile offsets 'naive((8,128,8),(8,64,1)) | transform(xor((128,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2]) | transform(pass_through(128) on [1] -> [0], merge((8,8)) on [0,2] -> [1])' --at 3,9"
    )]
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
    /// A tile distribution (CK's tile_distribution_encoding): lengths, and the X coordinate of every (P..., Y...).
    #[command(
        long_about = "A tile distribution: CK Tile's tile_distribution_encoding<R, H, P2RH major, P2RH minor, \
Y2RH major, Y2RH minor>, built as make_static_tile_distribution builds it. Prints the X, P, Y and R lengths, the X \
coordinate of every (P..., Y...) index (one line per P, its Ys in thread-buffer order) and, for a 2-D X, the owner \
(P:D) of every element. Encodings with more than 2^24 (P..., Y...) indices are refused.",
        after_help = "ENCODING: CK's C++ spelling (with or without ck_tile::, make_static_tile_distribution(...) or \
`using NAME = ...;`), cktile's spelling (distribution(r(...), h((...), ...), p((REFS), ...), y(REFS)), where a REF is \
r[i] or hX[i], the i-th R or H component of X dimension X), a catalogue name (mfma32x32x8_a, mfma16x16x16_c, \
mfma32x32x16_b_swizzled, ...), `@path` or `-`. The report prints both spellings.\n\n\
Examples:\n  cktile distribution mfma32x32x8_a\n  \
cktile distribution 'distribution(r(), h((32), (2, 4)), p((h1[0], h0[0])), y(h1[1]))'\n  \
cktile distribution 'tile_distribution_encoding<sequence<1>, tuple<sequence<2, 4, 16>, sequence<4, 8>>, \
tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>, sequence<1, 2>, sequence<0, 1>>'\n  \
cktile distribution @encoding.txt --json"
    )]
    Distribution {
        /// The encoding: CK's C++ spelling, cktile's `distribution(...)`, a catalogue name, `@path` or `-`.
        encoding: String,
        /// Print one JSON object: {"compact", "encoding", "p_lengths", "r_lengths", "x_lengths", "xs", "y_lengths",
        /// "ys_to_d"}.
        #[arg(long)]
        json: bool,
    },
    /// The layout catalogue: every entry with its parameters, source and footprint.
    #[command(
        after_help = "Limits: none needed; the catalogue and its examples are fixed and small.\n\nExamples:\n  cktile catalog\n  cktile catalog ck-universal-a\n  cktile catalog --json"
    )]
    Catalog {
        /// Show only this entry, with its spec.
        name: Option<String>,
        /// Print the catalogue as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Injective? Surjective onto [0, element_space_size)? Holes, collisions, vector lengths.
    #[command(
        after_help = "Limits: every top coordinate is enumerated: at most 2^24 (16777216) of them, and at most 2^27 coordinates x \
transforms in the chain (a 15-transform chain: 8947848 coordinates); a larger descriptor is refused, so check a slice \
of it. SPEC files and stdin: at most 1 MiB.\n\nExamples:\n  cktile check 'naive((4,8),(10,1))'\n  cktile check @layout.spec --json"
    )]
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
        after_help = "Limits: stdin is read up to 1 MiB; at most one address per lane of the chip's wave (32 or 64).\n\nExamples:\n  \
echo '{\"arch\": \"gfx90a\", \"op\": \"ds_read_b32\", \"addresses\": [0, 128, null, 256]}' | cktile bank\n  \
cktile bank < request.json"
    )]
    Bank,
    /// Bank conflicts of a tile layout under an access pattern: every instruction, then the worst phase.
    #[command(
        after_help = "Limits: a tile of at most 2^24 (16777216) elements (rows x cols); a larger one is refused, so analyse a slice \
of it. SPEC files and stdin: at most 1 MiB.\n\nPatterns (--pattern NAME, with --op for the instruction):\n  \
rows        each lane accesses one --op-wide vector along a row, lanes walk the tile row by row (needs --op)\n  \
columns     as rows, but lanes walk down a column of vectors first (needs --op)\n  \
mfma16      AMD MFMA 16x16x16 operand read (--op ds_read_b128 by default, or ds_read_b64)\n  \
mfma32      AMD MFMA 32x32x8 operand read (--op ds_read_b128 by default, or ds_read_b64)\n  \
ldmatrix    NVIDIA ldmatrix fragments (--op ldmatrix.x4 by default; ldmatrix/stmatrix .x1|.x2|.x4[.trans])\n  \
mma_sync_a  NVIDIA mma.sync m16n8k16 A fragment with ld.shared.b32\n\n\
Examples:\n  \
cktile analyze 'packed((128,64))' --arch gfx942 --pattern mfma16 --dtype fp16\n  \
cktile analyze ck-universal-a:m=128,k=64 --arch gfx942 --pattern rows --op ds_write_b128\n  \
cktile analyze 'cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64' --arch sm90 --pattern ldmatrix --json --dtype fp16\n  \
cktile analyze 'packed((64,64))' --arch sm80 --pattern columns --op ld.shared.b32 --dtype fp32\n  \
cktile analyze ck-universal-a:m=128,k=32 --arch gfx942 --distribution mfma16x16x32_a --op ds_read_b128"
    )]
    Analyze {
        #[arg(help = SPEC_HELP)]
        spec: String,
        /// The chip: gfx90a, gfx942, gfx950, sm80 or sm90.
        #[arg(long)]
        arch: String,
        /// The access pattern: rows, columns, mfma16, mfma32, ldmatrix or mma_sync_a (see below).
        #[arg(long, required_unless_present = "distribution", conflicts_with = "distribution")]
        pattern: Option<String>,
        /// Instead of a pattern, the accesses of a CK tile window over this tile distribution (CK's
        /// tile_distribution_encoding<...> or a catalogue name, as `cktile distribution` takes): per warp, one
        /// --op instruction per access of the Y space, --op's width along the vector Y.
        #[arg(long, value_name = "ENCODING")]
        distribution: Option<String>,
        /// The instruction the pattern issues (e.g. ds_write_b128, ld.shared.b32, ldmatrix.x2.trans).
        #[arg(long)]
        op: Option<String>,
        /// Element type: fp8/int8, fp16/bf16, fp32/tf32, fp64, or a byte count. Required for a spec or an entry
        /// without a dtype; a catalogue entry's own dtype is used otherwise (and --dtype must agree with it).
        #[arg(long)]
        dtype: Option<String>,
        /// Print one JSON object instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// Search the catalogue's layout families for the tile layouts with the fewest bank passes.
    #[command(
        long_about = "Search the layout families (CK Tile XOR layouts, CuTe swizzles, Triton swizzled encodings, row \
padding, every GF(2)-linear swizzle of the column's vectors by the row bits) for the layouts of a row-major tile that \
cost the fewest passes through the banks over all its writes and reads; ties go to fewer extra bytes, then fewer \
transforms. Prints the best layouts with their catalogue entries and specs, the Pareto front of cycles against extra \
bytes, the size of each family searched, and, when nothing is conflict-free, the proved lower bound and why.",
        after_help = "Limits: a tile of at most 2^20 elements; the patterns together make at most 2^24 lane accesses; \
the search takes at most 2^28 (268435456) work units: every candidate layout costs its lane accesses plus the tile's \
elements, every xor-linear class its instruction shapes. The work is computed before anything is counted and a larger \
problem is refused with the numbers (use a smaller tile, a wider --vector or fewer accesses); 2^28 units take about \
half a minute. On a terminal a progress bar shows the work done.\n\n\
Accesses (--write / --read, repeatable):\n  \
OP:row, OP:column   vector walks along rows or down columns (OP: ds_write_b128, st.shared.b64, ...)\n  \
mfma16x16x16:a      MFMA operand read (also mfma32x32x8; :ds_read_b64 for 8-byte reads)\n  \
ldmatrix.x4[.trans], stmatrix.x4, mma_sync_a\n  \
DIST:OP             a CK tile window over a distribution (a catalogue name such as mfma16x16x32_a, CK's \
tile_distribution_encoding<...> or cktile's distribution(...)) issuing OP, repeated over the tile as CK's block GEMM iterates warp tiles\n\n\
Examples:\n  \
cktile search --tile 128x64 --dtype fp16 --arch gfx942 --write ds_write_b128:row --read mfma16x16x16:a\n  \
cktile search --tile 128x64 --dtype fp16 --arch gfx942 --write ds_write_b128:row --read mfma16x16x32_a:ds_read_b128\n  \
cktile search --tile 64x64 --dtype fp16 --arch sm90 --write st.shared.b128:row --read ldmatrix.x4 --json\n  \
cktile search --tile 64x32 --dtype fp32 --arch sm80 --write st.shared.b32:row --read ld.shared.b32:column --max-padding-bytes 0"
    )]
    Search {
        /// The tile: ROWSxCOLS (row-major; vectors run along rows).
        #[arg(long)]
        tile: String,
        /// Element type: fp8/int8, fp16/bf16, fp32/tf32, fp64, or a byte count (every layout printed carries it).
        #[arg(long)]
        dtype: String,
        /// The chip: gfx90a, gfx942, gfx950, sm80 or sm90.
        #[arg(long)]
        arch: String,
        /// A write access (repeatable), e.g. ds_write_b128:row.
        #[arg(long = "write", value_name = "ACCESS")]
        writes: Vec<String>,
        /// A read access (repeatable), e.g. mfma16x16x16:a or mfma16x16x32_a:ds_read_b128.
        #[arg(long = "read", value_name = "ACCESS")]
        reads: Vec<String>,
        /// The most padding a layout may add, in bytes.
        #[arg(long, value_name = "BYTES", value_parser = non_negative::<u64>, allow_negative_numbers = true)]
        max_padding_bytes: Option<u64>,
        /// Elements that must stay contiguous along a row (default: the widest access).
        #[arg(long, value_name = "ELEMENTS", value_parser = non_negative::<usize>, allow_negative_numbers = true)]
        vector: Option<usize>,
        /// How many of the equally good layouts to list.
        #[arg(long, default_value_t = 12, value_parser = non_negative::<usize>, allow_negative_numbers = true)]
        top: usize,
        /// Print one JSON object instead of the text report.
        #[arg(long)]
        json: bool,
    },
    /// Plan AMD direct global-to-LDS loads (global_load_lds) that fill a layout, verified by simulation.
    #[command(
        long_about = "Plan AMD direct global-to-LDS loads (global_load_lds on gfx942 / gfx950) that fill a layout. \
Each subgroup's load writes wave * width consecutive LDS bytes, so the layout is honoured by gathering on the global \
side: every (subgroup, lane, load) gets the tile coordinate and global byte it must read. The plan is simulated on a \
synthetic global tensor and checked byte for byte against the layout before it is printed. Padded layouts, widths \
the chip lacks, tiles that do not split into subgroup slices, and loads whose bytes are not consecutive in global \
memory are refused with the reason.",
        after_help = "Limits: the element space times the element size must fit the chip's LDS (64 KiB on gfx90a and gfx942, \
160 KiB on gfx950); --json streams the gathers. SPEC files and stdin: at most 1 MiB.\n\nExamples:\n  \
cktile dma-plan 'packed((16,64))' --global-strides 64,1 --workgroup 256 --wave 64 --width 4 --dtype i32\n  \
cktile dma-plan ck-universal-a:m=128,k=64 --global-strides 4096,1 --width 4 --dtype fp16\n  \
cktile dma-plan cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64 --global-strides 64,1 --arch gfx950 --width 16 --dtype fp16 --json"
    )]
    DmaPlan {
        #[arg(help = SPEC_HELP)]
        spec: String,
        /// The global tensor's stride along each top dimension, in elements (e.g. 4096,1).
        #[arg(long, allow_hyphen_values = true)]
        global_strides: String,
        /// Threads per workgroup.
        #[arg(long, default_value_t = 256, value_parser = non_negative::<usize>, allow_negative_numbers = true)]
        workgroup: usize,
        /// Lanes per subgroup (the wave size).
        #[arg(long, default_value_t = 64, value_parser = non_negative::<usize>, allow_negative_numbers = true)]
        wave: usize,
        /// Bytes per lane per load: 1, 2 or 4 (gfx942); also 12 or 16 (gfx950).
        #[arg(long, value_parser = non_negative::<usize>, allow_negative_numbers = true)]
        width: usize,
        /// The chip: gfx942 or gfx950.
        #[arg(long, default_value = "gfx942")]
        arch: String,
        /// Element type: fp8/int8, fp16/bf16, fp32/i32, fp64, or a byte count. Required for a spec or an entry
        /// without a dtype; a catalogue entry's own dtype is used otherwise (and --dtype must agree with it).
        #[arg(long)]
        dtype: Option<String>,
        /// Loads listed per subgroup in the text form.
        #[arg(long, default_value_t = 8, value_parser = non_negative::<usize>, allow_negative_numbers = true)]
        loads: usize,
        /// Print one JSON object with every gather.
        #[arg(long)]
        json: bool,
    },
    /// CUDA or HIP C++ for a descriptor: a __device__ offset function, its validity and its inverse.
    #[command(
        long_about = "CUDA or HIP C++ for a descriptor: a self-contained __device__ __forceinline__ NAME_offset(c0, ..) \
of straight-line integer code with every shape folded in, NAME_is_valid(c0, ..) when the descriptor has padding, and \
NAME_coordinate(offset, c0, ..) (the inverse) when it is a bijection onto its element space. A leading comment holds \
the spec, the catalogue entry and the integer type (std::int32_t when every intermediate value fits, else std::int64_t).",
        after_help = "Limits: the inverse and the bijectivity check enumerate the descriptor: at most 2^24 coordinates and 2^27 \
coordinates x transforms; past that the inverse is left out with a note. SPEC files and stdin: at most 1 MiB.\n\nExamples:\n  cktile codegen 'naive((4,8),(10,1))' --lang cuda\n  \
cktile codegen ck-universal-a:m=128,k=32 --lang hip --name gemm_a_lds\n  \
cktile codegen 'cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64' --lang cuda -o swizzle.cuh"
    )]
    Codegen {
        #[arg(help = SPEC_HELP)]
        spec: String,
        /// The language: cuda or hip.
        #[arg(long)]
        lang: String,
        /// Prefix of the generated names (default: the catalogue entry's name with `_`, or `layout`).
        #[arg(long)]
        name: Option<String>,
        /// Write the code to this file instead of stdout.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<String>,
    },
    /// The NVIDIA hardware-truth cases for gpu/harness.cu: lane addresses and sm90 predictions.
    #[command(
        long_about = "The hardware-truth cases for the NVIDIA measurement harness (gpu/harness.cu, run by gpu/run.sh): \
for every catalogue layout family and every NVIDIA shared-memory instruction cktile models, one warp's byte address \
per lane and instruction, and cktile's sm90 prediction (wavefronts, ideal wavefronts, conflicts = excess wavefronts, \
as Nsight Compute counts them per kernel). Without --json: the plain-text case file the harness reads.",
        after_help = "Limits: none needed; the case list is fixed (each case at most 64 instructions).\n\nExamples:\n  cktile gpu-cases > cases.txt\n  cktile gpu-cases --json > cases.json\n  gpu/run.sh"
    )]
    GpuCases {
        /// Print the cases (with per-instruction predictions) as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// The analyzer's rule table: banks, phases and sources per chip and instruction.
    #[command(
        long_about = "The analyzer's rule table: for every chip and every instruction it has, the 4-byte banks that \
resolve the instruction's conflicts, the lanes served together in each phase, and where that comes from (the \
measurement or documentation, or the assumption cktile makes where no source gives it, or the dispute where \
sources disagree).",
        after_help = "Examples:\n  cktile rules --arch gfx950\n  cktile rules --markdown > rules.md\n  cktile rules --json"
    )]
    Rules {
        /// Only this chip (gfx90a, gfx942, gfx950, gfx950-b32x64, gfx1100, gfx1201, sm80, sm90).
        #[arg(long)]
        arch: Option<String>,
        /// A Markdown table.
        #[arg(long, conflicts_with = "json")]
        markdown: bool,
        /// One JSON array of rows.
        #[arg(long)]
        json: bool,
    },
    /// Draw a descriptor as SVG: its layout grid, a bank heat map of one instruction, or its transform chain.
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
    Render {
        #[arg(help = SPEC_HELP)]
        spec: String,
        /// What to draw: grid, banks, chain or distribution.
        #[arg(long, default_value = "grid")]
        view: String,
        /// The chip (its bank count colours the grid; its model analyses the banks view).
        #[arg(long, default_value = "gfx942")]
        arch: String,
        /// The access pattern of the banks view: rows, columns, mfma16, mfma32, ldmatrix or mma_sync_a.
        #[arg(long)]
        pattern: Option<String>,
        /// The banks view's tile distribution instead of a pattern: CK's or cktile's spelling, or a catalogue name;
        /// needs --op.
        #[arg(long, value_name = "ENCODING")]
        distribution: Option<String>,
        /// The instruction the pattern issues (e.g. ds_write_b128, ld.shared.b32, ldmatrix.x2.trans).
        #[arg(long)]
        op: Option<String>,
        /// Element type: fp8/int8, fp16/bf16, fp32/tf32, fp64, or a byte count. Required for a spec or an entry
        /// without a dtype; a catalogue entry's own dtype is used otherwise (and --dtype must agree with it).
        #[arg(long)]
        dtype: Option<String>,
        /// The banks view's instruction (from 0; default: the tile's worst).
        #[arg(long, value_parser = non_negative::<usize>, allow_negative_numbers = true)]
        instruction: Option<usize>,
        /// The grid and distribution views show only the first ROWS rows.
        #[arg(long, value_parser = non_negative::<usize>, allow_negative_numbers = true)]
        rows: Option<usize>,
        /// The grid and distribution views show only the first COLS columns.
        #[arg(long, value_parser = non_negative::<usize>, allow_negative_numbers = true)]
        cols: Option<usize>,
        /// The picture's title (default: the SPEC argument).
        #[arg(long)]
        title: Option<String>,
        /// Write the SVG to this file instead of stdout.
        #[arg(short, long, value_name = "FILE")]
        output: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        None => summary::summary(),
        Some(Command::Offsets { spec, json, at }) => offsets::offsets(spec, *json, at.as_deref()),
        Some(Command::Check { spec, json }) => check::check_report(spec, *json),
        Some(Command::Distribution { encoding, json }) => distribution::distribution(encoding, *json),
        Some(Command::Catalog { name, json }) => catalog::catalog(name.as_deref(), *json),
        Some(Command::Bank) => bank::bank(),
        Some(Command::Search { tile, dtype, arch, writes, reads, max_padding_bytes, vector, top, json }) => {
            search::search_layouts(&search::SearchArgs {
                tile,
                dtype,
                arch,
                writes,
                reads,
                max_padding_bytes: *max_padding_bytes,
                vector: *vector,
                top: *top,
                json: *json,
            })
        }
        Some(Command::DmaPlan { spec, global_strides, workgroup, wave, width, arch, dtype, loads, json }) => {
            dma_plan::dma_plan(&dma_plan::DmaArgs {
                spec,
                global_strides,
                workgroup: *workgroup,
                wave: *wave,
                width: *width,
                arch,
                dtype: dtype.as_deref(),
                loads: *loads,
                json: *json,
            })
        }
        Some(Command::Analyze { spec, arch, pattern, distribution, op, dtype, json }) => {
            analyze::analyze(&analyze::AnalyzeArgs {
                spec,
                arch,
                pattern: pattern.as_deref(),
                distribution: distribution.as_deref(),
                op: op.as_deref(),
                dtype: dtype.as_deref(),
                json: *json,
            })
        }
        Some(Command::Codegen { spec, lang, name, output }) => {
            codegen::codegen(&codegen::CodegenArgs { spec, lang, name: name.as_deref(), output: output.as_deref() })
        }
        Some(Command::GpuCases { json }) => gpu_cases::gpu_cases(*json),
        Some(Command::Rules { arch, markdown, json }) => rules::rules(arch.as_deref(), *markdown, *json),
        Some(Command::Render {
            spec,
            view,
            arch,
            pattern,
            distribution,
            op,
            dtype,
            instruction,
            rows,
            cols,
            title,
            output,
        }) => render::render(&render::RenderArgs {
            spec,
            view,
            arch,
            pattern: pattern.as_deref(),
            distribution: distribution.as_deref(),
            op: op.as_deref(),
            dtype: dtype.as_deref(),
            instruction: *instruction,
            rows: *rows,
            cols: *cols,
            title: title.as_deref(),
            output: output.as_deref(),
        }),
    };
    match result {
        Ok(mut out) => {
            if !out.ends_with('\n') {
                out.push('\n');
            }
            // A closed pipe (`cktile ... | head`) is the reader's choice, not an error.
            match std::io::stdout().lock().write_all(out.as_bytes()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    eprintln!("error: cannot write the output: {e}");
                    ExitCode::from(1)
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(f) => {
            eprintln!("{}", f.message);
            ExitCode::from(f.code)
        }
    }
}
