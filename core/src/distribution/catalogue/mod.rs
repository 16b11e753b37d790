//! CK Tile's own tile distribution encodings, each built as its CK source
//! builds it (the source is named on each function), one file per family,
//! and the one table of the names they go by.
//!
//! - [`mfma`]: the warp-GEMM MFMA operands
//!   (`ck_tile/ops/gemm/warp/warp_gemm_attribute_mfma.hpp`, lane counts
//!   from `warp_gemm_attribute_mfma_impl.hpp`), re-exported here:
//!   [`mfma_a`] (its shape for any K per lane: [`mfma_a_per_lane`]),
//!   [`mfma_b`], [`mfma_c`], [`mfma_c_transposed`], and the swizzled-B
//!   transposed-C pair [`mfma_b_swizzled`], [`mfma_c_swizzled`]. fp16 and
//!   bf16 share their encodings; the fp8 32x32x16 MFMA has those of the
//!   32x32x16 (two 32x32x8) family.
//! - [`gemm`]: the universal GEMM pipeline's block DRAM distribution for A
//!   or B, [`gemm_dram`].
//! - [`fmha`]: the fmha pipelines' Q, K, V and LSE/D distributions
//!   ([`fmha_q_load_once`], [`fmha_k_dram_async`], [`fmha_v_dram`],
//!   [`fmha_v_shuffled`], [`fmha_lse_d_dram`]).
//! - [`wmma`]: RDNA's WMMA operands; [`mma`]: the warp GEMMs of CK's MMA
//!   calculator; [`pattern`]: CK's raked 2-D access patterns;
//!   `transpose` (with the `alloc` feature): gfx950's transposed-B reads.
//!
//! [`by_name`] reads a name of any family. A family's file holds its
//! builders, the form of its names and their reader; its row of
//! [`FAMILIES`] (the family's `FAMILY`) is what adds it to [`by_name`] and
//! [`NAMES`].
//!
//! ```
//! use cktile_core::distribution::{catalogue, Distribution};
//! let c = Distribution::new(catalogue::mfma_c(16, 16)?)?;
//! // 16x16 C: lane l, register i hold C(4 * (l / 16) + i, l % 16).
//! assert_eq!(c.calculate_index(&[37, 0, 3])?.as_slice(), &[11, 5]);
//! # Ok::<(), cktile_core::Error>(())
//! ```

pub mod fmha;
pub mod gemm;
pub mod mfma;
pub mod mma;
pub mod pattern;
pub mod transpose;
pub mod wmma;

use super::Encoding;
use crate::error::{Error, ParameterProblem, Snippet};

pub use self::fmha::{VLayout, fmha_k_dram_async, fmha_lse_d_dram, fmha_q_load_once, fmha_v_dram, fmha_v_shuffled};
pub use self::gemm::gemm_dram;
pub use self::mfma::{mfma_a, mfma_a_per_lane, mfma_b, mfma_b_swizzled, mfma_c, mfma_c_swizzled, mfma_c_transposed};

/// One family of catalogue names: the form its names take, CK's common
/// members (as [`NAMES`] lists them; `{a,b}` stands for each choice), and
/// its reader.
///
/// ```
/// use cktile_core::distribution::catalogue::FAMILIES;
/// let wmma = FAMILIES.iter().find(|f| f.form.starts_with("wmma")).unwrap();
/// assert!(wmma.read("wmma16x16x16_gfx12_b")?.is_some());
/// assert!(wmma.read("wmma16x16x64_gfx1250_c_transposed")?.is_some());
/// assert!(wmma.read("mfma16x16x16_b")?.is_none(), "another family's name");
/// assert!(wmma.read("wmma16x16x16_gfx10_b").is_err(), "this family's, malformed");
/// assert!(wmma.read("wmma16x16x32_gfx12_a").is_err(), "no such K on gfx12");
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct NameFamily {
    /// The form of the family's names.
    pub form: &'static str,
    /// CK's common members.
    pub names: &'static [&'static str],
    read: fn(&str) -> Result<Option<Encoding>, Error>,
}

impl NameFamily {
    /// The encoding `name` gives: `Ok(None)` when it is not this family's
    /// name, an error naming the form when it is one malformed.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::{self, FAMILIES};
    /// assert_eq!(FAMILIES[0].read("mfma32x32x8_c")?, Some(catalogue::mfma_c(32, 8)?));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn read(&self, name: &str) -> Result<Option<Encoding>, Error> {
        (self.read)(name)
    }
}

/// An error naming `form`, for a malformed member called `name`.
fn malformed(form: &'static str, name: &str) -> Error {
    Error::parameter(ParameterProblem::UnknownName { name: Snippet::new(name), valid: form })
}

/// Every family of names [`by_name`] reads, in the order it tries them:
/// the one table [`NAMES`] and [`by_name`] derive from.
///
/// ```
/// use cktile_core::distribution::catalogue::{by_name, FAMILIES};
/// // Every listed member is read, by its own family.
/// for family in FAMILIES {
///     for name in family.names.iter().filter(|n| !n.contains('{')) {
///         assert_eq!(family.read(name)?, Some(by_name(name)?));
///     }
/// }
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub const FAMILIES: [NameFamily; 5] = [mfma::FAMILY, gemm::FAMILY, wmma::FAMILY, pattern::FAMILY, transpose::FAMILY];

/// How many members [`FAMILIES`] list.
const NAME_COUNT: usize = {
    let (mut n, mut i) = (0, 0);
    while i < FAMILIES.len() {
        n += FAMILIES[i].names.len();
        i += 1;
    }
    n
};

/// The members of every family, in order.
const NAME_LIST: [&str; NAME_COUNT] = {
    let mut names = [""; NAME_COUNT];
    let (mut n, mut i) = (0, 0);
    while i < FAMILIES.len() {
        let mut j = 0;
        while j < FAMILIES[i].names.len() {
            names[n] = FAMILIES[i].names[j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    names
};

/// Every name [`by_name`] knows.
///
/// ```
/// assert!(cktile_core::distribution::catalogue::NAMES.contains("mfma32x32x8_{a,b,c,c_transposed}"));
/// ```
pub const NAMES: &str = crate::names::joined!(&NAME_LIST);

/// An encoding by name: a warp GEMM's, `mfma{M}x{M}x{K}_{a,b,c,c_transposed}`
/// for the four MFMA families, `mfma32x32x16_b_swizzled` and
/// `mfma32x32x16_c_swizzled`; or the universal GEMM pipeline's A/B DRAM
/// distribution, `gemm_dram_{BLOCK}x{MN}x{K}_k{K1}` ([`gemm_dram`] with
/// those sizes: [`NAMES`] lists CK's common ones, any it accepts works);
/// RDNA's WMMA operands, `wmma16x16x16_{gfx11,gfx12}_{a,b,c,c_transposed}`
/// and gfx1250's `wmma16x16x{32,64}_gfx1250_{a,b,c,c_transposed}`
/// ([`wmma`]); or one of CK's 2-D access patterns,
/// `{thread,warp,block}_raked_{BLOCK}x{Y}x{X}_v{VEC}` with optional
/// suffixes ([`pattern::by_name`]; [`NAMES`] shows
/// a few, any CK accepts works); or CK's gfx950 transposed-B GEMM read,
/// `gemm_b_tr_{N}x{K}_w{MWARPS}x{NWARPS}_mfma{M}x{M}x{K}_{fp16,bf16,fp8}`
/// (`transpose::by_name`, with the `alloc` feature).
///
/// ```
/// use cktile_core::distribution::catalogue;
/// assert_eq!(catalogue::by_name("mfma32x32x8_c")?, catalogue::mfma_c(32, 8)?);
/// assert_eq!(catalogue::by_name("gemm_dram_256x128x32_k8")?, catalogue::gemm_dram(256, 128, 32, 8)?);
/// assert_eq!(catalogue::by_name("gemm_dram_64x32x16_k4")?, catalogue::gemm_dram(64, 32, 16, 4)?);
/// assert!(catalogue::by_name("mfma8x8x8_a").is_err());
/// // gemm_dram's own refusal, naming the value.
/// assert!(catalogue::by_name("gemm_dram_256x100x32_k8").unwrap_err().to_string().contains("100"));
/// use cktile_core::distribution::catalogue::wmma::{self, Rdna};
/// assert_eq!(catalogue::by_name("wmma16x16x16_gfx11_c")?, wmma::wmma_c(Rdna::Gfx11)?);
/// assert_eq!(catalogue::by_name("wmma16x16x32_gfx1250_a")?, wmma::wmma_a(Rdna::Gfx1250, 32)?);
/// assert_eq!(catalogue::by_name("block_raked_256x32x64_v16")?.to_string().len() > 0, true);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn by_name(name: &str) -> Result<Encoding, Error> {
    for family in FAMILIES {
        if let Some(encoding) = family.read(name)? {
            return Ok(encoding);
        }
    }
    Err(Error::parameter(ParameterProblem::UnknownName { name: Snippet::new(name), valid: NAMES }))
}
