//! `cktile codegen`: a descriptor as a CUDA or HIP `__device__` offset function.

use crate::common::{Failure, Spec, bad, write_file};
use cktile::Visible;
use cktile::codegen::{self, Lang, Options};

/// CUDA or HIP C++ for a descriptor: a __device__ offset function, its validity and its inverse.
#[derive(clap::Args)]
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
pub struct Args {
    #[command(flatten)]
    spec: Spec,
    /// The language: cuda or hip.
    #[arg(long)]
    lang: String,
    /// Prefix of the generated names (default: the catalogue entry's name with `_`, or `layout`).
    #[arg(long)]
    name: Option<String>,
    /// Write the code to this file instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<String>,
}

/// Runs `cktile codegen`: the code on stdout, or written to `--output`
/// (then a one-line summary on stdout).
pub fn run(a: &Args) -> Result<String, Failure> {
    let lang = Lang::by_name(&a.lang).map_err(|e| bad(format!("--lang: {e}")))?;
    let (text, desc) = a.spec.load()?;
    let options = Options::for_layout(&text, lang, a.name.as_deref());
    codegen::check_name(&options.name).map_err(|e| bad(format!("--name: {e}")))?;
    let g = codegen::generate(&desc, &options).map_err(|e| Failure::input(&text, e))?;
    match a.output.as_deref() {
        None => Ok(g.code),
        Some(path) => {
            write_file(path, &g.code)?;
            Ok(format!("wrote {}: {} ({})", Visible(path), g.functions().join(", "), g.index_type))
        }
    }
}
