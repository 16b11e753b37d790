//! `cktile export`: a layout in Triton's or CuTe's own terms, exact or refused.

use crate::common::{Failure, Spec, bad, to_json};

/// A layout as Triton's or CuTe's own layout, checked at every coordinate, or refused.
#[derive(clap::Args)]
#[command(
    long_about = "A layout as its peers write it, checked at every coordinate: --as triton gives Gluon's \
SharedLinearLayout (a bijective layout linear over GF(2): every swizzle of a power-of-two tile, the packed layouts) or \
PaddedSharedLayout (a linear layout over the elements in offset order with one [interval:+padding] pair); --as cute \
gives CuTe's text for a strided layout (a dimension of several modes as their tuple) or a Swizzle<B,M,S> of one. A layout the peer cannot \
express is refused, naming what it lacks and the first coordinate that shows it. from_triton / from_cute read the \
answers back.",
    after_help = "Limits: tiles of up to 2^20 elements. SPEC files and stdin: at most 1 MiB.\n\nExamples:\n  \
cktile export cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64 --as triton\n  \
cktile export row-padded:rows=64,cols=64,pad=8 --as triton --json\n  \
cktile export cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64 --as cute"
)]
pub struct Args {
    #[command(flatten)]
    spec: Spec,
    /// The peer: triton or cute.
    #[arg(long = "as", value_name = "PEER")]
    peer: String,
    /// Print one JSON object: {"peer", "kind", "shape", "offset_bases", "interval_padding_pairs", "text"}.
    #[arg(long)]
    json: bool,
}

/// Runs `cktile export`.
pub fn run(a: &Args) -> Result<String, Failure> {
    let (text, desc) = a.spec.load()?;
    let peer = cktile::export::Peer::by_name(&a.peer).map_err(|e| bad(format!("--as: {e}")))?;
    let e = peer.export(&desc).map_err(|e| Failure::input(&text, e))?;
    if a.json {
        return to_json(&cktile::json::ExportJson::new(&desc, &e));
    }
    Ok(format!("{}\n", e.text(&desc)))
}
