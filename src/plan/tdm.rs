//! gfx1250's Tensor Data Mover (`tensor_load_to_lds`, waited on with
//! `s_wait_tensorcnt`): which LDS layouts one descriptor can fill, and the
//! descriptor's padding fields.
//!
//! The TDM copies a tile of up to 5 dimensions, innermost dimension
//! contiguous in global memory (stride 1), and writes it to LDS as one
//! linear stream of elements in the tile's row-major order; with padding
//! enabled it leaves `amount` dwords empty after every `interval` dwords of
//! data (Triton's `TDMUtility.cpp`: group 1, dword 0 holds the data size as
//! log2 of the element bytes at bit 16, pad enable at bit 20, log2 of the
//! interval in dwords minus 1 in 3 bits at bit 22, so 2 to 256 dwords, and
//! the amount in dwords minus 1 in 7 bits at bit 25, so 1 to 128 dwords;
//! each tile dimension is 16 bits). Triton's `padded_shared<[I:+A]>`
//! layouts are these images; hipblaslt PRs #7393 and #8211 use them.
//!
//! So a layout is a TDM image when the element at row-major index `n`
//! (byte `s = n * element_bytes` of the stream) sits at LDS byte
//! `s + (s / I) * A`. [`plan`] finds `I` and `A` from the layout's first
//! gap, checks every element against them, and refuses with the first that
//! breaks the rule; [`image`] replays the stream and [`verify`] compares it
//! with the layout's byte for byte.
//!
//! ```
//! use cktile::analyzer::arch;
//! use cktile::plan::tdm::{plan, verify};
//! // 64 x 64 fp16 rows padded by 4 elements: Triton's padded_shared<[64:+4]>.
//! let tile = cktile::layouts::resolve("row-padded:rows=64,cols=64,pad=4")?;
//! let p = plan(&tile, 2, &[4096, 1], &arch::GFX1250)?;
//! assert_eq!(p.padding.map(|q| (q.interval_bytes, q.amount_bytes)), Some((128, 8)));
//! assert_eq!(p.group1_dword0, 1 << 16 | 1 << 20 | 4 << 22 | 1 << 25);
//! verify(&tile, 2, &p)?;
//! # Ok::<(), cktile::Error>(())
//! ```

use crate::analyzer::AnalyzerProblem;
use crate::analyzer::arch::{Arch, Chip};
use crate::check;
use crate::descriptor::Descriptor;
use crate::{Error, ParameterProblem};
use alloc::vec;
use alloc::vec::Vec;

const NAME: &str = "dma-plan (tensor_load_to_lds)";

fn bad(parameter: &'static str, value: i64, requirement: &'static str) -> Error {
    Error::parameter(ParameterProblem::Invalid { context: NAME, parameter, value, requirement })
}

fn wide(x: u64) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

/// The TDM's LDS padding: `amount_bytes` left empty after every
/// `interval_bytes` of the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TdmPadding {
    /// Bytes of data between paddings: 2 to 256 dwords, a power of two.
    pub interval_bytes: u64,
    /// Bytes of padding: 1 to 128 dwords.
    pub amount_bytes: u64,
}

/// One `tensor_load_to_lds` that fills a layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TdmPlan {
    /// The tile's lengths, outermost first (the descriptor's `tile_dim`s
    /// in reverse).
    pub shape: Vec<i64>,
    /// Bytes per element.
    pub element_bytes: usize,
    /// The padding, `None` for a packed tile.
    pub padding: Option<TdmPadding>,
    /// Elements of the tile.
    pub elements: u64,
    /// LDS bytes the tile spans, padding included.
    pub lds_bytes: u64,
    /// Group 1, dword 0 of the descriptor: data size, pad enable, interval
    /// and amount (the multicast mask and barrier bits left 0).
    pub group1_dword0: u32,
}

/// Where the stream puts byte `s`.
const fn placed(s: u64, padding: Option<TdmPadding>) -> u64 {
    match padding {
        Some(p) => s + (s / p.interval_bytes) * p.amount_bytes,
        None => s,
    }
}

/// The padding fields of group 1, dword 0.
fn dword0(element_bytes: usize, padding: Option<TdmPadding>) -> u32 {
    let size = element_bytes.trailing_zeros() << 16;
    match padding {
        Some(p) => {
            let interval = (p.interval_bytes / 4).trailing_zeros() - 1;
            let amount = (p.amount_bytes / 4 - 1) as u32;
            size | 1 << 20 | interval << 22 | amount << 25
        }
        None => size,
    }
}

/// The one `tensor_load_to_lds` that fills `lds` (elements of
/// `element_bytes`, the global tensor's strides `global_strides` along the
/// tile's dimensions) on `arch`, or why none can: the chip has no TDM, the
/// innermost dimension is not contiguous in global memory, a dimension is
/// over 16 bits, or the layout is not one padded stream (the error names
/// the first element out of place).
///
/// ```
/// use cktile::analyzer::arch;
/// let swizzled = cktile::layouts::resolve("cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64")?;
/// let e = cktile::plan::tdm::plan(&swizzled, 2, &[64, 1], &arch::GFX1250).unwrap_err();
/// assert!(e.to_string().contains("one stream"), "{e}");
/// let e = cktile::plan::tdm::plan(&swizzled, 2, &[64, 1], &arch::GFX950).unwrap_err();
/// assert!(e.to_string().contains("gfx1250"), "{e}");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn plan(lds: &Descriptor, element_bytes: usize, global_strides: &[i64], arch: &Arch) -> Result<TdmPlan, Error> {
    if arch.chip() != Chip::Gfx1250 {
        return Err(Error::analyzer(AnalyzerProblem::NotOnArch {
            what: "tensor_load_to_lds (the Tensor Data Mover)",
            arch: arch.name(),
            valid: "it is gfx1250's; give --arch gfx1250, or plan global_load_lds on gfx942 or gfx950",
        }));
    }
    if !matches!(element_bytes, 1 | 2 | 4 | 8) {
        return Err(bad("element bytes", wide(element_bytes as u64), "the TDM moves elements of 1, 2, 4 or 8 bytes"));
    }
    let lengths = lds.lengths();
    let shape: Vec<i64> = lengths.as_slice().to_vec();
    if shape.is_empty() || shape.len() > 5 {
        return Err(bad("dimensions", wide(shape.len() as u64), "a TDM tile has 1 to 5 dimensions"));
    }
    if let Some(&len) = shape.iter().find(|&&l| !(1..=65535).contains(&l)) {
        return Err(bad("tile length", len, "each TDM tile dimension is 1 to 65535 (16 bits)"));
    }
    if global_strides.len() != shape.len() {
        return Err(bad(
            "global strides",
            wide(global_strides.len() as u64),
            "give one global stride per tile dimension",
        ));
    }
    if global_strides.last() != Some(&1) {
        return Err(bad(
            "innermost global stride",
            global_strides.last().copied().unwrap_or(0),
            "the TDM reads the tile's last dimension contiguously: its global stride must be 1",
        ));
    }
    let o = check::offsets(lds)?;
    let eb = element_bytes as u64;
    // The padding, from the first element not at its packed byte.
    let mut padding = None;
    for (n, (&off, &valid)) in o.offsets.iter().zip(&o.valid).enumerate() {
        if !valid {
            return Err(bad(
                "element",
                wide(n as u64),
                "the TDM writes every element of the tile; this one is padding",
            ));
        }
        let s = n as u64 * eb;
        let at = u64::try_from(off)
            .ok()
            .and_then(|o| o.checked_mul(eb))
            .ok_or_else(|| bad("LDS offset", off, "it must not be negative, and its byte must fit 64 bits"))?;
        if at != s && padding.is_none() {
            if at < s || s == 0 {
                return Err(bad(
                    "element",
                    wide(n as u64),
                    "the TDM writes the tile as one stream in row-major order; this element comes before the \
                     stream's byte for it",
                ));
            }
            padding = Some(TdmPadding { interval_bytes: s, amount_bytes: at - s });
        }
    }
    if let Some(p) = padding {
        let dwords = p.interval_bytes / 4;
        if p.interval_bytes % 4 != 0 || !dwords.is_power_of_two() || !(2..=256).contains(&dwords) {
            return Err(bad(
                "padding interval (bytes)",
                wide(p.interval_bytes),
                "the TDM pads after 2, 4, ..., 256 dwords (a power of two) of data",
            ));
        }
        if p.amount_bytes % 4 != 0 || !(1..=128).contains(&(p.amount_bytes / 4)) {
            return Err(bad("padding amount (bytes)", wide(p.amount_bytes), "the TDM pads by 1 to 128 whole dwords"));
        }
    }
    for (n, &off) in o.offsets.iter().enumerate() {
        if u64::try_from(off).ok().and_then(|o| o.checked_mul(eb)) != Some(placed(n as u64 * eb, padding)) {
            return Err(bad(
                "element",
                wide(n as u64),
                "the TDM writes the tile as one stream padded by a fixed amount after every fixed interval (found \
                 at the layout's first gap); this element (its row-major index) is not where that stream puts it",
            ));
        }
    }
    let count = o.offsets.len() as u64;
    let lds_bytes = if count == 0 { 0 } else { placed((count - 1) * eb, padding) + eb };
    if lds_bytes > u64::from(arch.shared_bytes()) {
        return Err(bad("LDS bytes", wide(lds_bytes), "the tile must fit gfx1250's 327680 bytes of LDS"));
    }
    Ok(TdmPlan {
        shape,
        element_bytes,
        padding,
        elements: count,
        lds_bytes,
        group1_dword0: dword0(element_bytes, padding),
    })
}

/// The LDS image the plan's stream writes: for each LDS byte, the tile
/// element (row-major index) whose byte lands there, `None` for padding.
///
/// ```
/// use cktile::analyzer::arch;
/// let tile = cktile::layouts::resolve("row-padded:rows=2,cols=2,pad=1")?;
/// let p = cktile::plan::tdm::plan(&tile, 4, &[2, 1], &arch::GFX1250)?;
/// assert_eq!(cktile::plan::tdm::image(&p), [0, 0, 0, 0, 1, 1, 1, 1].map(Some).into_iter().chain([None; 4]).chain([2, 2, 2, 2, 3, 3, 3, 3].map(Some)).collect::<Vec<_>>());
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn image(p: &TdmPlan) -> Vec<Option<u64>> {
    let eb = p.element_bytes as u64;
    let mut out = vec![None; usize::try_from(p.lds_bytes).unwrap_or(0)];
    let count = p.elements;
    let mut n = 0u64;
    // Replay the stream: data `interval` bytes at a time, then the padding.
    let mut at = 0u64;
    let mut written_in_interval = 0u64;
    while n < count && at < p.lds_bytes {
        for b in 0..eb {
            if let Some(slot) = usize::try_from(at + b).ok().and_then(|i| out.get_mut(i)) {
                *slot = Some(n);
            }
        }
        at += eb;
        n += 1;
        written_in_interval += eb;
        if let Some(q) = p.padding.filter(|q| written_in_interval == q.interval_bytes) {
            at += q.amount_bytes;
            written_in_interval = 0;
        }
    }
    out
}

/// Replays the plan's stream ([`image`]) and checks it puts every element
/// of `lds` where the layout does, byte for byte.
pub fn verify(lds: &Descriptor, element_bytes: usize, p: &TdmPlan) -> Result<(), Error> {
    let img = image(p);
    let o = check::offsets(lds)?;
    let eb = element_bytes as u64;
    let mut expected = vec![None; img.len()];
    for (n, &off) in o.offsets.iter().enumerate() {
        for b in 0..eb {
            let byte = u64::try_from(off).ok().and_then(|o| o.checked_mul(eb)).and_then(|x| x.checked_add(b));
            match byte.and_then(|x| usize::try_from(x).ok()).and_then(|i| expected.get_mut(i)) {
                Some(slot) => *slot = Some(n as u64),
                None => return Err(bad("LDS offset", off, "the element lies past the plan's LDS bytes")),
            }
        }
    }
    match img.iter().zip(&expected).position(|(a, b)| a != b) {
        None => Ok(()),
        Some(k) => Err(bad("LDS byte", wide(k as u64), "the replayed stream does not put the layout's element there")),
    }
}
