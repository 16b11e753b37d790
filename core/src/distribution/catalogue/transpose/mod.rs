//! CK Tile's transposing LDS load (`ck_tile/core/tensor/load_tile_transpose.hpp`):
//! which distributions `load_tile_transpose` accepts for gfx950's
//! `ds_read_b64_tr_b{16,8,4}`, and the distribution of the registers it
//! returns.
//!
//! CK's `DefaultTranspose` policy describes the instruction by a *quad*
//! pattern per lane group of 64, 32 or 16 lanes: an input encoding (what
//! each lane addresses: 8 bytes of one row, 4, 8 or 16 elements) and an
//! output encoding (what each lane holds after the exchange). A
//! distribution is accepted when, for one lane group size (tried 64, then
//! 32, then 16), its H lengths end with the quad's, its last P ends with
//! the quad's lane components (minors shifted past the outer components),
//! and its last Y is the last H component of X1 (`ValidationTraits`). The
//! result swaps the outer H components of X0 and X1, appends the quad's
//! output pattern, and renumbers the Ps and Ys to match
//! (`TransposeTileDistributionTraits`). `load_tile_transpose` then asserts
//! that the thread buffer keeps its size and its vector length.
//!
//! [`transpose`] answers with the lane group size and the output encoding,
//! or with the first rule each lane group size breaks.
//!
//! ```
//! use cktile_core::distribution::{Distribution, Encoding, catalogue::transpose::{transpose, TrElement, Verdict}};
//! // CK's transpose example: fp16, lane groups of 16, outer (2, 1), inner (1, 1):
//! // tile_distribution_encoding<sequence<>, tuple<sequence<2, 1, 4>, sequence<1, 1, 1, 4, 4>>,
//! //     tuple<sequence<1, 2, 2, 1, 2>>, tuple<sequence<0, 0, 2, 2, 3>>, sequence<2, 1, 2>, sequence<1, 1, 4>>
//! let (hs, ps_major, ps_minor): (&[&[usize]], &[&[usize]], &[&[usize]]) =
//!     (&[&[2, 1, 4], &[1, 1, 1, 4, 4]], &[&[1, 2, 2, 1, 2]], &[&[0, 0, 2, 2, 3]]);
//! let e = Encoding::new(&[], hs, ps_major, ps_minor, &[2, 1, 2], &[1, 1, 4])?;
//! let Verdict::Accepted { lane_group, output } = transpose(&e, TrElement::B16, false)? else { panic!() };
//! assert_eq!(lane_group, 16);
//! // X was (8, 16): 8 rows of 16 contiguous elements; the registers hold it as (16, 8).
//! assert_eq!(Distribution::new(output)?.x_lengths().as_slice(), &[16, 8]);
//! # Ok::<(), cktile_core::Error>(())
//! ```
//!
//! The rules and the transposed-B family's builder need `alloc` (a
//! refusal lists its reasons); the family's row, [`FAMILY`], is here
//! without it too, and then reads no name.

#[cfg(feature = "alloc")]
mod rules;
#[cfg(feature = "alloc")]
pub use rules::{LANE_GROUPS, Refusal, TrElement, TransposeRule, Verdict, transpose};

use super::NameFamily;
use crate::distribution::Encoding;
use crate::error::Error;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// CK's gfx950 GEMM path for a row-major B (`UniversalGemmBasePolicy::is_b_load_tr`):
/// B sits in LDS as K x N with N contiguous, and the block GEMM reads it
/// with `load_tile_transpose` through the distribution
/// `InputTileDistributionTraits<MakeBBlockDistributionEncode(), BDataType>`
/// gives (`block_universal_gemm_as_bs_cr.hpp`). The block's B encoding
/// embeds the warp GEMM's B operand in `R = <MWarp>`,
/// `H = (<NIterPerWarp, NWarp>, <KIterPerWarp>)`. The warp GEMM splits a
/// lane's K values into one access per 8 bytes (the policy's
/// `wg_attr_num_access`: K per lane over `DS_READ_TR_SIZE() / sizeof(T)`,
/// 1, 2 or 4): [`mfma_b`](crate::distribution::catalogue::mfma::mfma_b) for one, else
/// `WarpGemmAttributeMfma`'s `H1 = <NumAccess, kABKLane, kABKPerLane / NumAccess>`.
/// Returns `(block B encoding, the encoding the transposing read uses)`;
/// the read's X is (K, N).
///
/// ```
/// use cktile_core::distribution::{Distribution, catalogue::transpose::{gemm_b_transposed_read, TrElement}};
/// // 2 x 2 warps, a 128 x 32 (N x K) B block, 32x32x8 fp16 MFMA.
/// let (block, read) = gemm_b_transposed_read(2, 2, 128, 32, (32, 8), TrElement::B16)?;
/// assert_eq!(Distribution::new(block)?.x_lengths().as_slice(), &[128, 32]);
/// assert_eq!(Distribution::new(read)?.x_lengths().as_slice(), &[32, 128]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg(feature = "alloc")]
pub fn gemm_b_transposed_read(
    m_warps: usize,
    n_warps: usize,
    n_per_block: usize,
    k_per_block: usize,
    mfma: (usize, usize),
    elem: TrElement,
) -> Result<(Encoding, Encoding), Error> {
    use crate::error::ParameterProblem;
    let bad = |parameter, value: usize, requirement| {
        Error::parameter(ParameterProblem::invalid_usize("gemm_b_transposed_read", parameter, value, requirement))
    };
    let single = crate::distribution::catalogue::mfma::mfma_b(mfma.0, mfma.1)?;
    let k_lane = single.hs_lengths(1).get(0) as usize;
    let k_per_lane = single.hs_lengths(1).get(1) as usize;
    let num_access = k_per_lane / elem.per_lane();
    let warp = match (num_access, k_per_lane % elem.per_lane()) {
        (1, 0) => single,
        (2 | 4, 0) => Encoding::new(
            &[],
            &[&[mfma.0], &[num_access, k_lane, k_per_lane / num_access]],
            &[&[2, 1]],
            &[&[1, 0]],
            &[2, 2],
            &[0, 2],
        )?,
        _ => {
            return Err(bad(
                "MFMA K",
                mfma.1,
                "a lane's K values must be 1, 2 or 4 transposing reads of 8 bytes (CK's WGAttrNumAccessEnum)",
            ));
        }
    };
    let n_per_warp = n_warps
        .checked_mul(mfma.0)
        .filter(|&n| n > 0)
        .ok_or_else(|| bad("N warps", n_warps, "at least one warp along N"))?;
    if m_warps == 0 {
        return Err(bad("M warps", m_warps, "at least one warp along M"));
    }
    if n_per_block == 0 || !n_per_block.is_multiple_of(n_per_warp) {
        return Err(bad("N per block", n_per_block, "a multiple of N warps times the MFMA's N"));
    }
    if k_per_block == 0 || !k_per_block.is_multiple_of(mfma.1) {
        return Err(bad("K per block", k_per_block, "a multiple of the MFMA's K"));
    }
    let (n_iter, k_iter) = (n_per_block / n_per_warp, k_per_block / mfma.1);
    let outer = Encoding::new(&[m_warps], &[&[n_iter, n_warps], &[k_iter]], &[&[0, 1]], &[&[0, 1]], &[1, 2], &[0, 0])?;
    let block = crate::distribution::embed::embed_encoding(&outer, &warp)?;
    match transpose(&block, elem, true)? {
        Verdict::Accepted { output, .. } => Ok((block, output)),
        Verdict::Refused(_) => Err(bad(
            "MFMA M",
            mfma.0,
            "CK's load_tile_transpose must accept the block's B distribution for this element size \
             (cktile transpose-load ENCODING --reverse says why not)",
        )),
    }
}

/// The form of the family's names, written once for [`NAME_FORM`] with
/// and without `alloc`.
macro_rules! form {
    () => {
        "gemm_b_tr_{N}x{K}_w{MWARPS}x{NWARPS}_mfma{M}x{M}x{K}_{fp16,bf16,fp8}"
    };
}

/// The names [`by_name`] reads.
#[cfg(feature = "alloc")]
pub const NAME_FORM: &str = concat!(form!(), ", e.g. gemm_b_tr_128x32_w2x2_mfma32x32x8_fp16");

/// The transposing read of [`gemm_b_transposed_read`] by name,
/// `gemm_b_tr_{N}x{K}_w{MWARPS}x{NWARPS}_mfma{M}x{M}x{K}_{fp16,bf16,fp8}`;
/// `Ok(None)` for a name without the `gemm_b_tr_` prefix.
///
/// ```
/// use cktile_core::distribution::catalogue::transpose::{by_name, gemm_b_transposed_read, TrElement};
/// let e = by_name("gemm_b_tr_128x32_w2x2_mfma32x32x8_fp16")?.unwrap();
/// assert_eq!(e, gemm_b_transposed_read(2, 2, 128, 32, (32, 8), TrElement::B16)?.1);
/// assert_eq!(by_name("mfma32x32x8_b")?, None);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg(feature = "alloc")]
pub fn by_name(name: &str) -> Result<Option<Encoding>, Error> {
    let Some(rest) = name.strip_prefix("gemm_b_tr_") else { return Ok(None) };
    let unknown = || {
        Error::parameter(crate::error::ParameterProblem::UnknownName {
            name: crate::error::Snippet::new(name),
            valid: NAME_FORM,
        })
    };
    let numbers = |s: &str| -> Option<Vec<usize>> { s.split('x').map(|n| n.parse().ok()).collect() };
    let parts: Vec<&str> = rest.split('_').collect();
    let [block, warps, mfma, dtype] = parts.as_slice() else { return Err(unknown()) };
    let (Some(block), Some(warps), Some(mfma)) =
        (numbers(block), warps.strip_prefix('w').and_then(numbers), mfma.strip_prefix("mfma").and_then(numbers))
    else {
        return Err(unknown());
    };
    let elem = match *dtype {
        "fp16" | "bf16" => TrElement::B16,
        "fp8" | "bf8" => TrElement::B8,
        _ => return Err(unknown()),
    };
    match (block.as_slice(), warps.as_slice(), mfma.as_slice()) {
        (&[n, k], &[mw, nw], &[m, m2, mk]) if m == m2 => {
            gemm_b_transposed_read(mw, nw, n, k, (m, mk), elem).map(|(_, read)| Some(read))
        }
        _ => Err(unknown()),
    }
}

/// The names of the form of [`by_name`], without the `alloc` feature that
/// reads them.
#[cfg(not(feature = "alloc"))]
const NAME_FORM: &str = concat!(form!(), " (with the alloc feature)");

/// The transposed-B family's row of [`FAMILIES`](super::FAMILIES): its
/// form, its listed members and its reader ([`by_name`] with `alloc`;
/// without it no name is the family's).
///
/// ```
/// use cktile_core::distribution::catalogue::transpose::FAMILY;
/// assert!(FAMILY.names.iter().all(|n| n.starts_with("gemm_b_tr_")));
/// ```
pub const FAMILY: NameFamily = NameFamily {
    form: NAME_FORM,
    names: &[
        "gemm_b_tr_128x32_w2x2_mfma32x32x8_fp16",
        "gemm_b_tr_128x64_w2x2_mfma16x16x32_fp16",
        "gemm_b_tr_128x64_w2x2_mfma32x32x16_fp8",
    ],
    read,
};

/// [`FAMILY`]'s reader.
fn read(name: &str) -> Result<Option<Encoding>, Error> {
    #[cfg(feature = "alloc")]
    return by_name(name);
    #[cfg(not(feature = "alloc"))]
    {
        let _ = name;
        Ok(None)
    }
}
