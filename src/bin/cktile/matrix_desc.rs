//! `cktile matrix-desc`: whether Hopper's `wgmma` or Blackwell's
//! `tcgen05.mma` reads a layout from shared memory, and the descriptor.

use crate::common::{Failure, LayoutDtype, Spec, bad, element_bytes, to_json};
use cktile::json::MatrixDescJson;
use cktile::matrix_desc::{
    MAJOR_NAMES, OPERAND_NAMES, Operand, OperandMajor, Readability, Request, SWIZZLE_NAMES, SwizzleMode, TARGET_NAMES,
    Target, judge,
};
use cktile::{codegen, render};

/// Whether wgmma (sm90) or tcgen05.mma (sm100) reads a layout through a shared-memory matrix descriptor, and its fields.
#[derive(clap::Args)]
#[command(
    long_about = "Whether Hopper's wgmma.mma_async (sm90) or Blackwell's tcgen05.mma (sm100) can read a layout as an \
operand straight from shared memory, through the 64-bit matrix descriptor (start address, leading and stride byte \
offsets, base offset, swizzle mode). The layout's two dimensions are MN and K (--k-dim says which is K); the tile is \
cut into the instructions that read it (32 bytes of K each; M = 64 for wgmma's A, 128 for tcgen05's, N up to 256 for \
B), and for each major-ness (K, then MN where the instruction transposes this element size) and swizzle mode, widest \
first, the fields are read off the layout and every element of every instruction is compared with the element-to-address \
map the PTX ISA defines for them. LBO, SBO and the mode are shared, only the start address moves from instruction to \
instruction (as CuTe and Triton issue them). If a mode reads the layout it prints the fields, each instruction's start \
and the 64-bit descriptor; otherwise, for every mode, the first element that breaks it, and the nearest canonical \
layout (CuTe's atom tiled over the tile, MN first) as spec text, with exit code 1. The tile's base must be aligned to \
the swizzle's pattern (1024 bytes for 128B): cktile models a base offset of 0.",
    after_help = "Limits: at most 2^20 elements.\n\nExamples:\n  \
cktile matrix-desc triton-nvmma:swizzle=128,bits=16,rows=128 --dtype fp16\n  \
cktile matrix-desc ck-universal-a:m=128,k=64 --target sm100 --json\n  \
cktile matrix-desc 'packed((64,64))' --dtype fp16\n  \
cktile matrix-desc triton-nvmma:swizzle=64,bits=16,transposed=true,rows=64 --dtype fp16 --operand b --major mn\n  \
cktile matrix-desc cute-gmma:atom=sw128,major=k,dtype=fp8 --cxx kDescA"
)]
pub struct Args {
    #[command(flatten)]
    spec: Spec,
    #[command(flatten)]
    dtype: LayoutDtype,
    #[arg(long, default_value = "sm90", help = format!("The instruction: {TARGET_NAMES}"))]
    target: String,
    #[arg(long, default_value = "a", help = format!("The operand: {OPERAND_NAMES} (sets the instruction's M or N)"))]
    operand: String,
    #[arg(long, help = format!("The operand's major-ness: {MAJOR_NAMES} (default: K, then MN)"))]
    major: Option<String>,
    #[arg(long, help = format!("The swizzle mode: {SWIZZLE_NAMES} (default: every mode the target has, widest first)"))]
    swizzle: Option<String>,
    /// Which top dimension of the layout is K: 0 or 1.
    #[arg(long, default_value_t = 1, value_parser = crate::common::non_negative::<usize>, allow_negative_numbers = true)]
    k_dim: usize,
    /// The M or N one instruction reads (a multiple of 8, at most 256); default: the operand's.
    #[arg(long, value_parser = crate::common::non_negative::<usize>, allow_negative_numbers = true)]
    instruction_mn: Option<usize>,
    /// The tile's first byte in shared memory (a multiple of 16): the start addresses are absolute.
    #[arg(long, default_value_t = 0, value_parser = crate::common::non_negative::<u64>, allow_negative_numbers = true)]
    base: u64,
    /// Print the descriptor as C++ constants named NAME (a readable layout only).
    #[arg(long, value_name = "NAME")]
    cxx: Option<String>,
    /// Print one JSON object: {"readable", "swizzle", "lbo", "sbo", "starts", "descriptors", "breaks", "nearest", ...}.
    #[arg(long, conflicts_with = "cxx")]
    json: bool,
}

/// Runs `cktile matrix-desc`: exit code 1 when no descriptor reads the layout.
pub fn run(a: &Args) -> Result<String, Failure> {
    let (text, layout) = a.spec.load_typed(a.dtype.dtype.as_deref())?;
    let eb = element_bytes(&layout)?;
    let named = |flag: &str, e: cktile::Error| bad(format!("{flag}: {e}"));
    let req = Request {
        layout: &layout.descriptor,
        element_bytes: eb,
        target: Target::by_name(&a.target).map_err(|e| named("--target", e))?,
        operand: Operand::by_name(&a.operand).map_err(|e| named("--operand", e))?,
        major: a.major.as_deref().map(OperandMajor::by_name).transpose().map_err(|e| named("--major", e))?,
        swizzle: a.swizzle.as_deref().map(SwizzleMode::by_name).transpose().map_err(|e| named("--swizzle", e))?,
        k_dim: a.k_dim,
        instruction_mn: a.instruction_mn,
        base: a.base,
    };
    let v = judge(&req).map_err(|e| Failure::input(&text, e))?;
    let out = match (&v, &a.cxx) {
        (Readability::Readable(r), Some(name)) => {
            codegen::matrix_desc::constants(r, name).map_err(|e| bad(format!("--cxx: {e}")))?
        }
        _ if a.json => to_json(&MatrixDescJson::new(&text, &v).map_err(|e| Failure::input(&text, e))?)?,
        _ => render::matrix_desc::verdict(&v, &text).map_err(|e| Failure::input(&text, e))?,
    };
    match v {
        Readability::Readable(_) => Ok(out),
        Readability::Unreadable(_) => Err(Failure { message: out.trim_end().to_string(), code: 1, stdout: true }),
    }
}
