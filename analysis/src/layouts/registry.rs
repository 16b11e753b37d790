//! The catalogue's entries by name, and `name:key=value,...` parsing:
//! [`CATALOGUE`], one row ([`Entry`]) per layout family with its
//! parameters and builder, read by [`resolve`], the
//! command line's help and the search; [`write`](mod@write) writes an entry's text
//! the other way.
//!
//! ```
//! use cktile_analysis::layouts::registry::{CATALOGUE, CK_XOR_LDS};
//! assert!(CATALOGUE.iter().any(|e| e.name == CK_XOR_LDS.name));
//! let d = CK_XOR_LDS.build("m=128,k=32,kpack=8,mlds=2")?;
//! assert_eq!(d.calculate_offset(&[3, 9]), 97);
//! # Ok::<(), cktile_analysis::Error>(())
//! ```

use super::xor_linear::{self, MAX_ROW_BITS};
use super::{ck, cute, padding, triton};
use crate::error::Error;
use crate::error::ErrorKind;
use crate::error::SpecProblem;
use cktile_core::Descriptor;
use cktile_core::ParameterProblem;
use cktile_core::Snippet;

/// The values a catalogue parameter ranges over: what the builder accepts
/// for it alone (the builder then checks the parameters together, e.g. K a
/// multiple of KPack), bounded to sizes worth testing. The `proptest`
/// feature's strategies draw from it (the tools crate's `strategy::member`), and the
/// builders read their integer ranges from it.
///
/// ```
/// use cktile_analysis::layouts::{CATALOGUE, Domain};
/// let e = CATALOGUE.iter().find(|e| e.name == "cute-swizzle").unwrap();
/// assert_eq!(e.params[2].domain, Domain::Bits { min: -62, max: 62 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    /// A tile extent: a power of two from 1 to [`Domain::MAX_EXTENT`] (the
    /// builders accept any positive integer their other parameters allow).
    Extent,
    /// A power of two from `min` to `max` (vector widths, thread counts).
    Powers {
        /// The smallest.
        min: u64,
        /// The largest.
        max: u64,
    },
    /// An integer from `min` to `max`.
    Range {
        /// The smallest.
        min: i64,
        /// The largest.
        max: i64,
    },
    /// A bit count (or a signed shift) from `min` to `max`; useful values
    /// are at most log2 of the tile's size.
    Bits {
        /// The smallest.
        min: i64,
        /// The largest.
        max: i64,
    },
    /// One of these words.
    Words(&'static [&'static str]),
    /// Dot-separated row-bit masks, each below `cols / vec` (xor-linear).
    Masks,
}

impl Domain {
    /// The largest tile extent strategies draw.
    ///
    /// ```
    /// assert_eq!(cktile_analysis::layouts::Domain::MAX_EXTENT, 256);
    /// ```
    pub const MAX_EXTENT: u64 = 256;
}

/// One parameter of a catalogue entry.
///
/// ```
/// let e = cktile_analysis::layouts::CATALOGUE.iter().find(|e| e.name == "row-padded").unwrap();
/// assert_eq!(e.params[2].name, "pad");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryParam {
    /// Its key.
    pub name: &'static str,
    /// What it is and its valid values.
    pub help: &'static str,
    /// Its default, if it has one.
    pub default: Option<&'static str>,
    /// The values it ranges over.
    pub domain: Domain,
}

/// A catalogue entry.
///
/// ```
/// let e = cktile_analysis::layouts::CATALOGUE.iter().find(|e| e.name == "cute-swizzle").unwrap();
/// assert!(e.bijective);
/// assert!(e.example.starts_with("cute-swizzle:"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The name used in specs and on the command line.
    pub name: &'static str,
    /// One line on what the layout is.
    pub summary: &'static str,
    /// Where it comes from.
    pub source: &'static str,
    /// Its parameters.
    pub params: &'static [EntryParam],
    /// Whether it is a bijection onto its element space (otherwise it is
    /// injective with holes: padding).
    pub bijective: bool,
    /// A complete example, usable as a spec.
    pub example: &'static str,
    build: fn(&Args<'_>) -> Result<Descriptor, Error>,
}

const fn p(name: &'static str, help: &'static str, default: Option<&'static str>, domain: Domain) -> EntryParam {
    EntryParam { name, help, default, domain }
}

const EXTENT: Domain = Domain::Extent;
const VECTOR: Domain = Domain::Powers { min: 1, max: 16 };
const DTYPES: Domain = Domain::Words(&["fp8", "int8", "fp16", "bf16", "fp32", "tf32", "fp64"]);
const BANKS: Domain = Domain::Words(&["32", "64"]);
/// The `form` parameter's words and the CK versions they name: what the
/// parser reads and what [`write::word`] writes.
///
/// ```
/// use cktile_analysis::layouts::{ck::UnmergeOrder, registry::FORM_WORDS};
/// assert_eq!(FORM_WORDS[0], ("2025", UnmergeOrder::Fixed2025));
/// ```
pub const FORM_WORDS: [(&str, ck::UnmergeOrder); 2] =
    [("2025", ck::UnmergeOrder::Fixed2025), ("2024", ck::UnmergeOrder::Original2024)];
const FORMS: Domain = Domain::Words(&[FORM_WORDS[0].0, FORM_WORDS[1].0]);
/// The `order` parameter's words (Triton's `order`) and whether each is
/// row-major: what the parser reads and what [`write::word`] writes.
///
/// ```
/// assert_eq!(cktile_analysis::layouts::registry::ORDER_WORDS[0], ("10", true));
/// ```
pub const ORDER_WORDS: [(&str, bool); 2] = [("10", true), ("01", false)];
/// The `bits` parameter's words (Triton's `elementBitWidth`) and the element
/// sizes in bytes they name: what the parser reads and what `--dtype` fills
/// in.
const BITS_WORDS: [(&str, usize); 4] = [("8", 1), ("16", 2), ("32", 4), ("64", 8)];

const DTYPE: &str = "element type: fp8/int8 (1 byte), fp16/bf16 (2), fp32/tf32 (4), fp64 (8), or a byte count";
const DTYPE_TAG: &str = "element type the layout is meant for (fp8/int8, fp16/bf16, fp32/tf32, fp64 or a byte \
                         count); the offsets are in elements and do not depend on it, but the bank analysis, the \
                         pictures and the DMA planner need it";
const FORM: &str = "CK version: 2025 (unmerge (L, K0), since PR #2007) or 2024 (unmerge (K0, L))";

/// Every entry.
///
/// ```
/// let names: Vec<&str> = cktile_analysis::layouts::CATALOGUE.iter().map(|e| e.name).collect();
/// assert!(names.contains(&"ck-universal-a") && names.contains(&"cute-swizzle"));
/// ```
pub const CATALOGUE: &[Entry] = &[
    *CK_UNIVERSAL_A,
    *CK_XOR_LDS,
    *CK_XOR_PRESHUFFLE,
    *CK_KFOLD_MPAIR,
    *CK_V1_PADDED,
    *CK_FMHA_V,
    *CUTE_SWIZZLE,
    *CUTE_GMMA,
    *CUTE_TMA,
    *TRITON_SWIZZLED,
    *TRITON_NVMMA,
    *TRITON_ROTATING,
    *ROW_PADDED,
    *XOR_LINEAR,
];

/// The `ck-universal-a` entry (one row of [`CATALOGUE`], which the search's
/// families name directly).
///
/// ```
/// use cktile_analysis::layouts::{build_entry, registry::CK_UNIVERSAL_A};
/// assert_eq!(CK_UNIVERSAL_A.name, "ck-universal-a");
/// assert!(build_entry(CK_UNIVERSAL_A.example).is_ok());
/// ```
pub const CK_UNIVERSAL_A: &Entry = &Entry {
    name: "ck-universal-a",
    summary: "CK Tile universal GEMM A (row-major) / B (column-major) LDS block: XOR with MLdsLayer chosen by CK's rule",
    source: "composable_kernel gemm_universal_pipeline_ag_bg_cr_policy.hpp",
    params: &[
        p("m", "M (or N) per block", None, EXTENT),
        p("k", "K per block", None, EXTENT),
        p("kpack", "K elements per vector (default 16 / element bytes)", None, VECTOR),
        p("dtype", DTYPE, Some("fp16"), DTYPES),
        p("banks", "LDS banks: 32 (gfx90a, gfx942) or 64 (gfx950)", Some("32"), BANKS),
        p("form", FORM, Some("2025"), FORMS),
    ],
    bijective: true,
    example: "ck-universal-a:m=128,k=32,kpack=8,dtype=fp16",
    build: |a| {
        let bytes = a.dtype("dtype")?;
        let kpack = a.usize_or("kpack", ck::default_kpack(bytes))?;
        ck::universal_a(a.usize("m")?, a.usize("k")?, kpack, bytes, a.usize("banks")?, a.form()?)
    },
};

/// The `ck-xor-lds` entry (one row of [`CATALOGUE`], which the search's
/// families name directly).
///
/// ```
/// use cktile_analysis::layouts::{build_entry, registry::CK_XOR_LDS};
/// assert_eq!(CK_XOR_LDS.name, "ck-xor-lds");
/// assert!(build_entry(CK_XOR_LDS.example).is_ok());
/// ```
pub const CK_XOR_LDS: &Entry = &Entry {
    name: "ck-xor-lds",
    summary: "CK Tile LDS index swapping (xor -> unmerge -> merge) with an explicit MLdsLayer",
    source: "composable_kernel docs, conceptual/ck_tile/lds_index_swapping",
    params: &[
        p("m", "MPerBlock", None, EXTENT),
        p("k", "KPerBlock", None, EXTENT),
        p("kpack", "KPack", Some("8"), VECTOR),
        p("mlds", "MLdsLayer (rows sharing one row of banks)", Some("1"), VECTOR),
        p("form", FORM, Some("2025"), FORMS),
        p("dtype", DTYPE_TAG, None, DTYPES),
    ],
    bijective: true,
    example: "ck-xor-lds:m=128,k=32,kpack=8,mlds=2",
    build: |a| ck::xor_lds(a.usize("m")?, a.usize("k")?, a.usize("kpack")?, a.usize("mlds")?, a.form()?),
};

/// The `ck-xor-preshuffle` entry (one row of [`CATALOGUE`], which the search's
/// families name directly).
///
/// ```
/// use cktile_analysis::layouts::{build_entry, registry::CK_XOR_PRESHUFFLE};
/// assert_eq!(CK_XOR_PRESHUFFLE.name, "ck-xor-preshuffle");
/// assert!(build_entry(CK_XOR_PRESHUFFLE.example).is_ok());
/// ```
pub const CK_XOR_PRESHUFFLE: &Entry = &Entry {
    name: "ck-xor-preshuffle",
    summary: "plain XOR preshuffle on KPack-wide vectors: x' = (y % (K/KPack)) ^ x",
    source: "composable_kernel docs, conceptual/ck_tile/lds_index_swapping",
    params: &[
        p("m", "rows", None, EXTENT),
        p("k", "columns", None, EXTENT),
        p("kpack", "vector width", Some("8"), VECTOR),
        p("dtype", DTYPE_TAG, None, DTYPES),
    ],
    bijective: true,
    example: "ck-xor-preshuffle:m=128,k=64,kpack=8",
    build: |a| ck::xor_preshuffle(a.usize("m")?, a.usize("k")?, a.usize("kpack")?),
};

/// The `ck-kfold-mpair` entry.
pub(crate) const CK_KFOLD_MPAIR: &Entry = &Entry {
    name: "ck-kfold-mpair",
    summary: "CK Tile column-major A / row-major B LDS block (kfold / mpair)",
    source: "composable_kernel gemm_universal_pipeline_ag_bg_cr_policy.hpp",
    params: &[
        p("m", "M per block", None, EXTENT),
        p("k", "K per block", None, EXTENT),
        p("ak1", "AK1: K elements per vector", Some("8"), VECTOR),
        p("m0", "M0: threads along M when writing", None, Domain::Powers { min: 1, max: 64 }),
        p("kthreadwrite", "KThreadWrite: threads along K when writing", None, Domain::Powers { min: 1, max: 64 }),
        p("mperxdl", "MPerXdl: the MFMA's M, 16 or 32", Some("32"), Domain::Words(&["16", "32"])),
        p("dtype", DTYPE, Some("fp16"), DTYPES),
        p("banks", "LDS banks: 32 or 64", Some("32"), BANKS),
    ],
    bijective: true,
    example: "ck-kfold-mpair:m=128,k=32,ak1=8,m0=32,kthreadwrite=4",
    build: |a| {
        ck::kfold_mpair(&ck::KfoldParams {
            m: a.usize("m")?,
            k: a.usize("k")?,
            ak1: a.usize("ak1")?,
            m0: a.usize("m0")?,
            k_thread_write: a.usize("kthreadwrite")?,
            m_per_xdl: a.usize("mperxdl")?,
            element_bytes: a.dtype("dtype")?,
            banks: a.usize("banks")?,
        })
    },
};

/// The `ck-v1-padded` entry.
pub(crate) const CK_V1_PADDED: &Entry = &Entry {
    name: "ck-v1-padded",
    summary: "CK Tile v1 pipeline 3-D + padding block: K/KPack slabs of M rows, each padded by KPack",
    source: "composable_kernel gemm_pipeline_agmem_bgmem_creg_v1_default_policy.hpp",
    params: &[
        p("m", "M per block", None, EXTENT),
        p("k", "K per block", None, EXTENT),
        p("kpack", "KPack", Some("8"), VECTOR),
        p("dtype", DTYPE_TAG, None, DTYPES),
    ],
    bijective: false,
    example: "ck-v1-padded:m=128,k=32,kpack=8",
    build: |a| ck::v1_padded(a.usize("m")?, a.usize("k")?, a.usize("kpack")?),
};

/// The `ck-fmha-v` entry.
pub(crate) const CK_FMHA_V: &Entry = &Entry {
    name: "ck-fmha-v",
    summary: "CK Tile fmha V LDS block: 128-byte rows padded by KPack elements, buffers spaced by max(K buffer, V block)",
    source: "composable_kernel block_fmha_pipeline_qx_ks_vs_custom_policy.hpp",
    params: &[
        p("n", "N per block", None, EXTENT),
        p("k", "K per block", None, EXTENT),
        p("kpack", "KPack", Some("8"), VECTOR),
        p("dtype", DTYPE, Some("fp16"), DTYPES),
        p("prefetch", "NumPrefetchV buffers", Some("1"), Domain::Range { min: 1, max: 3 }),
        p("n0", "kN0: K tile rows (spaces buffers when prefetch > 1)", Some("128"), EXTENT),
        p("warps", "NumWarps (spaces buffers when prefetch > 1)", Some("4"), Domain::Powers { min: 1, max: 16 }),
    ],
    bijective: false,
    example: "ck-fmha-v:n=128,k=32,kpack=8,dtype=fp16",
    build: |a| {
        let k_tile = ck::FmhaKTile { n0: a.usize("n0")?, warps: a.usize("warps")? };
        ck::fmha_v(a.usize("n")?, a.usize("k")?, a.usize("kpack")?, a.dtype("dtype")?, a.usize("prefetch")?, k_tile)
    },
};

/// The `cute-swizzle` entry (one row of [`CATALOGUE`], which the search's
/// families name directly).
///
/// ```
/// use cktile_analysis::layouts::{build_entry, registry::CUTE_SWIZZLE};
/// assert_eq!(CUTE_SWIZZLE.name, "cute-swizzle");
/// assert!(build_entry(CUTE_SWIZZLE.example).is_ok());
/// ```
pub const CUTE_SWIZZLE: &Entry = &Entry {
    name: "cute-swizzle",
    summary: "CuTe Swizzle<B,M,S> composed with a row- or column-major tile, on element indices (SM80 atoms)",
    source: "cutlass include/cute/swizzle.hpp",
    params: &[
        p("b", "B: mask bits", None, Domain::Bits { min: 0, max: 62 }),
        p("mbase", "M: constant low bits", None, Domain::Bits { min: 0, max: 62 }),
        p("s", "S: shift (|S| >= B; negative shifts left)", None, Domain::Bits { min: -62, max: 62 }),
        p("rows", "rows", None, EXTENT),
        p("cols", "columns", None, EXTENT),
        p("major", "row or col", Some("row"), Domain::Words(&["row", "col"])),
        p("dtype", DTYPE_TAG, None, DTYPES),
    ],
    bijective: true,
    example: "cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64",
    build: |a| {
        cute::swizzled_tile(
            a.small("b")? as u32,
            a.small("mbase")? as u32,
            a.small("s")? as i32,
            a.usize("rows")?,
            a.usize("cols")?,
            a.major()?,
        )
    },
};

/// The `cute-gmma` entry.
pub(crate) const CUTE_GMMA: &Entry = &Entry {
    name: "cute-gmma",
    summary: "SM90 GMMA shared-memory atom: Swizzle<B,4,3> on byte addresses over 8 rows",
    source: "cutlass include/cute/atom/mma_traits_sm90_gmma.hpp",
    params: &[
        p("atom", "inter, sw32, sw64 or sw128", Some("sw128"), Domain::Words(&["inter", "sw32", "sw64", "sw128"])),
        p("major", "k (row) or mn (col)", Some("k"), Domain::Words(&["k", "mn"])),
        p("dtype", DTYPE, Some("fp16"), DTYPES),
    ],
    bijective: true,
    example: "cute-gmma:atom=sw128,major=k,dtype=fp16",
    build: |a| {
        let atom = match a.get("atom").unwrap_or("sw128") {
            "inter" => cute::Gmma::Interleave,
            "sw32" => cute::Gmma::Sw32,
            "sw64" => cute::Gmma::Sw64,
            "sw128" => cute::Gmma::Sw128,
            other => return Err(a.invalid(other, "inter, sw32, sw64 or sw128")),
        };
        cute::gmma_atom(atom, a.major()?, a.dtype("dtype")?)
    },
};

/// The `cute-tma` entry.
pub(crate) const CUTE_TMA: &Entry = &Entry {
    name: "cute-tma",
    summary: "TMA swizzle mode as a byte-address swizzle over rows of one swizzle span",
    source: "cutlass include/cute/atom/copy_traits_sm90_tma_swizzle.hpp; CUDA CUtensorMapSwizzle",
    params: &[
        p(
            "mode",
            "none, 32b, 64b, 128b, 128b-atom-32b or 128b-atom-64b",
            Some("128b"),
            Domain::Words(&["none", "32b", "64b", "128b", "128b-atom-32b", "128b-atom-64b"]),
        ),
        p("rows", "rows of the box", Some("8"), EXTENT),
        p("dtype", DTYPE, Some("fp16"), DTYPES),
    ],
    bijective: true,
    example: "cute-tma:mode=128b,rows=8,dtype=fp16",
    build: |a| {
        let mode = match a.get("mode").unwrap_or("128b") {
            "none" => cute::Tma::None,
            "32b" => cute::Tma::B32,
            "64b" => cute::Tma::B64,
            "128b" => cute::Tma::B128,
            "128b-atom-32b" => cute::Tma::B128Atom32,
            "128b-atom-64b" => cute::Tma::B128Atom64,
            other => return Err(a.invalid(other, "none, 32b, 64b, 128b, 128b-atom-32b or 128b-atom-64b")),
        };
        cute::tma_box(mode, a.usize("rows")?, a.dtype("dtype")?)
    },
};

/// The parameters of Triton's swizzled and rotating encodings: theirs,
/// then the tile.
const TRITON_PARAMS: [EntryParam; 7] = [
    p("vec", "vec", None, VECTOR),
    p("perphase", "perPhase", None, VECTOR),
    p("maxphase", "maxPhase", None, VECTOR),
    p(
        "order",
        "10 (order [1,0], row-major) or 01 (order [0,1])",
        Some(ORDER_WORDS[0].0),
        Domain::Words(&[ORDER_WORDS[0].0, ORDER_WORDS[1].0]),
    ),
    p("rows", "rows", None, EXTENT),
    p("cols", "columns", None, EXTENT),
    p("dtype", DTYPE_TAG, None, DTYPES),
];

/// The `triton-swizzled` entry (one row of [`CATALOGUE`], which the search's
/// families name directly).
///
/// ```
/// use cktile_analysis::layouts::{build_entry, registry::TRITON_SWIZZLED};
/// assert_eq!(TRITON_SWIZZLED.name, "triton-swizzled");
/// assert!(build_entry(TRITON_SWIZZLED.example).is_ok());
/// ```
pub const TRITON_SWIZZLED: &Entry = &Entry {
    name: "triton-swizzled",
    summary: "Triton #ttg.swizzled_shared<{vec, perPhase, maxPhase, order}>",
    source: "triton lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp",
    params: &TRITON_PARAMS,
    bijective: true,
    example: "triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows=64,cols=64",
    build: |a| a.triton(triton::swizzled_shared),
};

/// The `triton-nvmma` entry.
pub(crate) const TRITON_NVMMA: &Entry = &Entry {
    name: "triton-nvmma",
    summary: "Triton #ttg.nvmma_shared<{swizzlingByteWidth, elementBitWidth, transposed}>",
    source: "triton lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp",
    params: &[
        p("swizzle", "swizzlingByteWidth: 0, 32, 64 or 128", Some("128"), Domain::Words(&["0", "32", "64", "128"])),
        p(
            "bits",
            "elementBitWidth: 8, 16, 32 or 64",
            Some("16"),
            Domain::Words(&[BITS_WORDS[0].0, BITS_WORDS[1].0, BITS_WORDS[2].0, BITS_WORDS[3].0]),
        ),
        p("transposed", "true or false", Some("false"), Domain::Words(&["true", "false"])),
        p("rows", "length of the strided dimension", None, EXTENT),
    ],
    bijective: true,
    example: "triton-nvmma:swizzle=128,bits=16,rows=64",
    build: |a| {
        let transposed = match a.get("transposed").unwrap_or("false") {
            "true" => true,
            "false" => false,
            other => return Err(a.invalid(other, "true or false")),
        };
        triton::nvmma_shared(a.usize("swizzle")?, a.usize("bits")?, transposed, a.usize("rows")?)
    },
};

/// The `triton-rotating` entry (one row of [`CATALOGUE`], which the search's
/// families name directly).
///
/// ```
/// use cktile_analysis::layouts::{build_entry, registry::TRITON_ROTATING};
/// assert_eq!(TRITON_ROTATING.name, "triton-rotating");
/// assert!(build_entry(TRITON_ROTATING.example).is_ok());
/// ```
pub const TRITON_ROTATING: &Entry = &Entry {
    name: "triton-rotating",
    summary: "Triton #ttg.amd_rotating_shared<{vec, perPhase, maxPhase, order}> on a power-of-two tile (tl.dot's N-contiguous B operand on gfx942 and RDNA3/4)",
    source: "triton lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp (sharedToLinearLayoutAMDRotating)",
    params: &TRITON_PARAMS,
    bijective: true,
    example: "triton-rotating:vec=4,perphase=1,maxphase=16,order=10,rows=64,cols=128",
    build: |a| a.triton(triton::rotating_shared),
};

/// The `row-padded` entry (one row of [`CATALOGUE`], which the search's
/// families name directly).
///
/// ```
/// use cktile_analysis::layouts::{build_entry, registry::ROW_PADDED};
/// assert_eq!(ROW_PADDED.name, "row-padded");
/// assert!(build_entry(ROW_PADDED.example).is_ok());
/// ```
pub const ROW_PADDED: &Entry = &Entry {
    name: "row-padded",
    summary: "row-major tile whose rows are padded by `pad` elements",
    source: "the classic alternative to swizzling",
    params: &[
        p("rows", "rows", None, EXTENT),
        p("cols", "columns", None, EXTENT),
        p("pad", "padding elements per row", None, Domain::Range { min: 0, max: 64 }),
        p("dtype", DTYPE_TAG, None, DTYPES),
    ],
    bijective: false,
    example: "row-padded:rows=128,cols=64,pad=8",
    build: |a| padding::row_padded(a.usize("rows")?, a.usize("cols")?, a.usize("pad")?),
};

/// The `xor-linear` entry (one row of [`CATALOGUE`], which the search's
/// families name directly).
///
/// ```
/// use cktile_analysis::layouts::{build_entry, registry::XOR_LINEAR};
/// assert_eq!(XOR_LINEAR.name, "xor-linear");
/// assert!(build_entry(XOR_LINEAR.example).is_ok());
/// ```
pub const XOR_LINEAR: &Entry = &Entry {
    name: "xor-linear",
    summary: "general XOR-linear swizzle: vector col/vec XORed with masks[j] for every set bit j of the row (or, column-major, the transpose)",
    source: "cktile's layout search (GF(2)-linear swizzles; CuTe, Triton and CK XORs are special cases)",
    params: &[
        p("rows", "rows", None, EXTENT),
        p("cols", "columns", None, EXTENT),
        p("vec", "elements per vector (the unit the XOR moves)", None, VECTOR),
        p(
            "masks",
            "mask of row bit 0, 1, ..., dot-separated (e.g. 1.2.4); missing bits have mask 0",
            Some(""),
            Domain::Masks,
        ),
        p(
            "major",
            "row (row-major: rows' bits move the columns' vectors) or col (column-major: columns' bits move the rows' vectors)",
            Some("row"),
            Domain::Words(&["row", "col"]),
        ),
        p("dtype", DTYPE_TAG, None, DTYPES),
    ],
    bijective: true,
    example: "xor-linear:rows=128,cols=64,vec=8,masks=1.2.4",
    build: |a| {
        let mut masks = [0usize; MAX_ROW_BITS];
        let mut n = 0;
        for m in a.get("masks").unwrap_or("").split(MASK_SEPARATOR).map(str::trim).filter(|m| !m.is_empty()) {
            if n == MAX_ROW_BITS {
                return Err(a.invalid(m, "at most 62 masks"));
            }
            masks[n] = m.parse::<usize>().map_err(|_| a.invalid(m, "a mask: an integer below cols / vec"))?;
            n += 1;
        }
        xor_linear::xor_linear_tile(a.usize("rows")?, a.usize("cols")?, a.usize("vec")?, &masks[..n], a.major()?)
    },
};

/// What separates the `masks` parameter's masks (xor-linear).
const MASK_SEPARATOR: char = '.';

/// Entries written as text: the parser's keys, words and separators, the
/// other way (the search's members print with these), so that what is
/// written reads back as the same entry.
///
/// ```
/// use cktile_analysis::layouts::{build_entry, registry::{ROW_PADDED, write::write_entry}};
/// use core::fmt;
/// struct Text;
/// impl fmt::Display for Text {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
///         // Every parameter given but the last, which keeps its default.
///         let (rows, cols, pad) = (64, 32, 4);
///         let mut values: Vec<Option<&dyn fmt::Display>> = vec![Some(&rows), Some(&cols), Some(&pad)];
///         values.resize(ROW_PADDED.params.len(), None);
///         write_entry(f, ROW_PADDED, &values)
///     }
/// }
/// let text = Text.to_string();
/// assert!(text.starts_with("row-padded:"), "{text}");
/// assert!(build_entry(&text).is_ok(), "{text}");
/// ```
#[cfg(feature = "alloc")]
pub mod write {
    use super::{Entry, MASK_SEPARATOR};
    use core::fmt::{self, Write as _};

    /// Masks as the `masks` parameter writes them: `1.2.4`.
    ///
    /// ```
    /// use cktile_analysis::layouts::registry::write::Masks;
    /// assert_eq!(Masks(&[1, 2, 4]).to_string(), "1.2.4");
    /// ```
    pub struct Masks<'m>(pub &'m [usize]);

    impl fmt::Display for Masks<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            for (k, m) in self.0.iter().enumerate() {
                if k > 0 {
                    f.write_char(MASK_SEPARATOR)?;
                }
                write!(f, "{m}")?;
            }
            Ok(())
        }
    }

    /// The word `words` spell `value` with (the first, if several do; `""` if none).
    ///
    /// ```
    /// use cktile_analysis::layouts::registry::{ORDER_WORDS, write::word};
    /// assert_eq!((word(&ORDER_WORDS, &true), word(&ORDER_WORDS, &false)), ("10", "01"));
    /// ```
    pub fn word<T: PartialEq>(words: &[(&'static str, T)], value: &T) -> &'static str {
        words.iter().find(|(_, v)| v == value).map_or("", |(w, _)| w)
    }

    /// Writes `entry`'s text, `name:key=value,...`, with `values` in the
    /// order of its parameters (`None` leaves a parameter out, so the parser
    /// takes its default): the keys are the entry's own
    /// [`EntryParam::name`](super::EntryParam::name)s, the ones the parser reads.
    /// Values past the entry's parameters are not written; parameters past
    /// the values are left out. (See the [module](self) for an example.)
    pub fn write_entry(f: &mut fmt::Formatter<'_>, entry: &Entry, values: &[Option<&dyn fmt::Display>]) -> fmt::Result {
        f.write_str(entry.name)?;
        let mut separator = ':';
        for (param, value) in entry.params.iter().zip(values) {
            if let Some(value) = value {
                write!(f, "{separator}{}={value}", param.name)?;
                separator = ',';
            }
        }
        Ok(())
    }
}

/// Parsed `key=value` parameters of one entry.
struct Args<'a> {
    entry: &'static Entry,
    pairs: [(&'a str, &'a str); 16],
    len: usize,
}

impl<'a> Args<'a> {
    /// One of Triton's swizzled encodings ([`TRITON_PARAMS`]) built by `f`
    /// from (vec, perPhase, maxPhase, row-major, rows, cols).
    fn triton(
        &self,
        f: fn(usize, usize, usize, bool, usize, usize) -> Result<Descriptor, Error>,
    ) -> Result<Descriptor, Error> {
        let row_major = self.word("order", &ORDER_WORDS, "10 or 01")?;
        f(
            self.usize("vec")?,
            self.usize("perphase")?,
            self.usize("maxphase")?,
            row_major,
            self.usize("rows")?,
            self.usize("cols")?,
        )
    }

    fn parse(entry: &'static Entry, text: &'a str) -> Result<Args<'a>, Error> {
        let mut args = Args { entry, pairs: [("", ""); 16], len: 0 };
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| Error::spec(SpecProblem::Syntax { expected: "key=value", found: Snippet::new(pair) }))?;
            let (key, value) = (key.trim(), value.trim());
            let Some(param) = entry.params.iter().find(|p| p.name == key) else {
                return Err(Error::parameter(cktile_core::ParameterProblem::UnknownName {
                    name: Snippet::new(key),
                    valid: entry.param_names(),
                }));
            };
            if args.pairs[..args.len].iter().any(|(k, _)| *k == param.name) {
                return Err(Error::spec(SpecProblem::Syntax {
                    expected: "each parameter once",
                    found: Snippet::new(key),
                }));
            }
            if args.len == args.pairs.len() {
                return Err(Error::spec(SpecProblem::Syntax {
                    expected: "fewer parameters",
                    found: Snippet::new(pair),
                }));
            }
            if param.name == "dtype" {
                dtype_bytes(value)?;
            }
            args.pairs[args.len] = (param.name, value);
            args.len += 1;
        }
        Ok(args)
    }

    /// The value written for `key` (not its default).
    fn explicit(&self, key: &str) -> Option<&'a str> {
        self.pairs[..self.len].iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// The size in bytes of the element type these parameters give
    /// (explicitly or by default); `None` when the entry names none.
    fn element_bytes(&self) -> Result<Option<usize>, Error> {
        let Some(key) = self.entry.element_key() else { return Ok(None) };
        let Some(value) = self.get(key) else { return Ok(None) };
        let bytes = if key == "bits" { self.word(key, &BITS_WORDS, "8, 16, 32 or 64")? } else { dtype_bytes(value)? };
        Ok(Some(bytes))
    }

    /// Applies an element type asked for from outside the entry (`--dtype`):
    /// fills the entry's element parameter when the text leaves it out, and
    /// refuses one that differs in size from what the text names.
    fn ask_element(&mut self, given: &'a str) -> Result<(), Error> {
        let given_bytes = dtype_bytes(given)?;
        let Some(key) = self.entry.element_key() else { return Ok(()) };
        if let Some(written) = self.explicit(key) {
            if let Some(entry_bytes) = self.element_bytes()?
                && entry_bytes != given_bytes
            {
                let mut entry = [0u8; 24];
                let text = tag(&mut entry, key, written);
                return Err(Error::parameter(ParameterProblem::ElementTypeConflict {
                    layout: self.entry.name,
                    entry: Snippet::new(text),
                    entry_bytes,
                    given: Snippet::new(given),
                    given_bytes,
                }));
            }
            return Ok(());
        }
        // `bits` takes the width in bits of the size `given` names (always one of BITS_WORDS').
        let bits = BITS_WORDS.iter().find(|&&(_, bytes)| bytes == given_bytes).map(|&(bits, _)| bits);
        let value = if key == "bits" { bits.unwrap_or(given) } else { given };
        if self.len == self.pairs.len() {
            return Err(Error::spec(SpecProblem::Syntax { expected: "fewer parameters", found: Snippet::new(given) }));
        }
        self.pairs[self.len] = (key, value);
        self.len += 1;
        Ok(())
    }

    /// The value given for `key`, or its default.
    fn get(&self, key: &str) -> Option<&'a str> {
        self.pairs[..self.len]
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
            .or_else(|| self.entry.params.iter().find(|p| p.name == key).and_then(|p| p.default))
    }

    fn param(&self, key: &str) -> &'static str {
        self.entry.params.iter().find(|p| p.name == key).map_or("parameter", |p| p.name)
    }

    fn required(&self, key: &str) -> Result<&'a str, Error> {
        self.get(key).ok_or_else(|| {
            Error::parameter(ParameterProblem::Missing { layout: self.entry.name, parameter: self.param(key) })
        })
    }

    fn invalid(&self, value: &str, range: &'static str) -> Error {
        Error::spec(SpecProblem::NumberRange { number: Snippet::new(value), range })
    }

    fn usize(&self, key: &str) -> Result<usize, Error> {
        let v = self.required(key)?;
        match v.parse::<u64>() {
            Ok(n) if n <= i64::MAX as u64 && usize::try_from(n).is_ok() => Ok(n as usize),
            _ => Err(self.invalid(v, "an integer in [0, 2^63)")),
        }
    }

    fn usize_or(&self, key: &str, default: usize) -> Result<usize, Error> {
        if self.get(key).is_some() { self.usize(key) } else { Ok(default) }
    }

    /// An integer inside the parameter's [`Domain::Bits`] or [`Domain::Range`].
    fn small(&self, key: &str) -> Result<i64, Error> {
        let (lo, hi) = match self.entry.params.iter().find(|p| p.name == key).map(|p| p.domain) {
            Some(Domain::Bits { min, max } | Domain::Range { min, max }) => (min, max),
            _ => (i64::MIN, i64::MAX),
        };
        let v = self.required(key)?;
        match v.parse::<i64>() {
            Ok(n) if (lo..=hi).contains(&n) => Ok(n),
            _ => Err(self.invalid(v, "a small integer (see `cktile catalogue` for the range)")),
        }
    }

    fn dtype(&self, key: &str) -> Result<usize, Error> {
        dtype_bytes(self.required(key)?)
    }

    fn form(&self) -> Result<ck::UnmergeOrder, Error> {
        self.word("form", &FORM_WORDS, "2024 or 2025")
    }

    /// The value of `key` (given or its default) read through `words`.
    fn word<T: Copy>(&self, key: &str, words: &[(&str, T)], range: &'static str) -> Result<T, Error> {
        let given = self.required(key)?;
        words.iter().find(|(w, _)| *w == given).map(|&(_, value)| value).ok_or_else(|| self.invalid(given, range))
    }

    fn major(&self) -> Result<cute::Major, Error> {
        match self.required("major")? {
            "row" | "k" => Ok(cute::Major::Row),
            "col" | "column" | "mn" => Ok(cute::Major::Column),
            other => Err(self.invalid(other, "row (k) or col (mn)")),
        }
    }
}

impl Entry {
    /// The parameter names, comma-separated (for messages).
    ///
    /// ```
    /// let e = cktile_analysis::layouts::CATALOGUE.iter().find(|e| e.name == "row-padded").unwrap();
    /// assert_eq!(e.param_names(), "rows, cols, pad, dtype");
    /// ```
    pub fn param_names(&self) -> &'static str {
        let index = CATALOGUE.iter().position(|e| e.name == self.name).unwrap_or(usize::MAX);
        ENTRY_KEYS.split('\n').nth(index).unwrap_or("")
    }

    /// Builds the layout from `key=value,...` parameters (defaults fill the rest).
    ///
    /// ```
    /// let e = cktile_analysis::layouts::CATALOGUE.iter().find(|e| e.name == "row-padded").unwrap();
    /// let d = e.build("rows=4,cols=4,pad=1").unwrap();
    /// assert_eq!(d.calculate_offset(&[1, 0]), 5);
    /// ```
    pub fn build(&'static self, params: &str) -> Result<Descriptor, Error> {
        (self.build)(&Args::parse(self, params)?).map_err(|e| self.own_error(e))
    }

    /// A builder's error in this entry's words: errors raised by a shared
    /// builder (`ck-universal-a` builds through `ck-xor-lds`'s) name this
    /// entry, and a parameter the entry takes is named by its key here
    /// (`m`, not `M`; `mlds`, not `MLdsLayer`). Derived quantities keep
    /// their CK names.
    ///
    /// ```
    /// use cktile_analysis::layouts::{ck, registry::CK_UNIVERSAL_A};
    /// // ck-universal-a builds through ck::xor_lds, whose error names ck-xor-lds and M.
    /// let shared = ck::xor_lds(100, 32, 8, 3, ck::UnmergeOrder::Fixed2025).unwrap_err();
    /// let own = CK_UNIVERSAL_A.own_error(shared).to_string();
    /// assert!(own.contains("ck-universal-a") && !own.contains("ck-xor-lds"), "{own}");
    /// ```
    pub fn own_error(&'static self, e: Error) -> Error {
        let ErrorKind::Port(cktile_core::ErrorKind::Parameter(problem)) = *e.kind() else {
            return e;
        };
        let Some(parameter) = problem.parameter() else {
            return e;
        };
        fn squash(s: &str) -> impl Iterator<Item = u8> + '_ {
            s.bytes().filter(u8::is_ascii_alphanumeric).map(|b| b.to_ascii_lowercase())
        }
        let same = |key: &str| {
            squash(key).eq(squash(parameter))
                || (key == "mlds" && parameter == "MLdsLayer")
                || (key == "dtype" && parameter == "element bytes")
        };
        let parameter = self.params.iter().find(|p| same(p.name)).map_or(parameter, |p| p.name);
        Error::parameter(problem.renamed(self.name, parameter))
    }

    /// The parameter that names the entry's element type: `dtype`, or
    /// `bits` for `triton-nvmma`.
    ///
    /// ```
    /// let e = cktile_analysis::layouts::CATALOGUE.iter().find(|e| e.name == "triton-nvmma").unwrap();
    /// assert_eq!(e.element_key(), Some("bits"));
    /// ```
    pub fn element_key(&self) -> Option<&'static str> {
        self.params.iter().map(|p| p.name).find(|&n| n == "dtype" || n == "bits")
    }

    /// Builds the layout with its element type: the entry's own (written
    /// or by default), or `dtype` when the parameters leave it out. A
    /// `dtype` whose size differs from the one the parameters write is
    /// refused, naming both.
    ///
    /// ```
    /// let e = cktile_analysis::layouts::CATALOGUE.iter().find(|e| e.name == "ck-universal-a").unwrap();
    /// // --dtype fills the entry's dtype: fp8 gives MLdsLayer 2 at K = 64.
    /// assert_eq!(e.build_typed("m=128,k=64", Some("fp8"))?.element_bytes, Some(1));
    /// assert_eq!(e.build_typed("m=128,k=64", None)?.element_bytes, Some(2)); // the default, fp16
    /// let clash = e.build_typed("m=128,k=64,dtype=fp8", Some("fp16")).unwrap_err();
    /// assert!(clash.to_string().contains("dtype=fp8 (1-byte elements)"));
    /// assert!(clash.to_string().contains("fp16 (2-byte elements)"));
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub fn build_typed(&'static self, params: &str, dtype: Option<&str>) -> Result<Layout, Error> {
        let mut args = Args::parse(self, params)?;
        if let Some(given) = dtype {
            args.ask_element(given)?;
        }
        let element_bytes = args.element_bytes()?;
        let descriptor = (self.build)(&args).map_err(|e| self.own_error(e))?;
        Ok(Layout { descriptor, element_bytes, name: Snippet::new(self.name) })
    }
}

/// Writes `key=value` into `buf` (cut to fit) for a message.
fn tag<'b>(buf: &'b mut [u8; 24], key: &str, value: &str) -> &'b str {
    let mut n = 0;
    for part in [key, "=", value] {
        for &byte in part.as_bytes() {
            if n < buf.len() {
                buf[n] = byte;
                n += 1;
            }
        }
    }
    let mut end = n;
    while core::str::from_utf8(&buf[..end]).is_err() {
        end -= 1;
    }
    core::str::from_utf8(&buf[..end]).unwrap_or("")
}

/// A layout with the element type it is written for, when its text names one.
///
/// ```
/// let l = cktile_analysis::layouts::resolve_typed("ck-fmha-v:n=128,k=32,dtype=fp32", None)?;
/// assert_eq!(l.element_bytes, Some(4));
/// let plain = cktile_analysis::layouts::resolve_typed("packed((4,8))", None)?;
/// assert_eq!(plain.element_bytes, None);
/// assert!(plain.require_element_bytes().is_err());
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The descriptor.
    pub descriptor: Descriptor,
    /// The element size in bytes: the entry's element type (written or its
    /// default), or the one asked for; `None` when nothing names one.
    pub element_bytes: Option<usize>,
    /// The entry's name or the start of the spec (for messages).
    name: Snippet,
}

impl Layout {
    /// The element size, or an error naming the layout when nothing gives one.
    ///
    /// ```
    /// let l = cktile_analysis::layouts::resolve_typed("row-padded:rows=4,cols=4,pad=1", None)?;
    /// let e = l.require_element_bytes().unwrap_err();
    /// assert!(e.to_string().starts_with("`row-padded` carries no element type"));
    /// let l = cktile_analysis::layouts::resolve_typed("row-padded:rows=4,cols=4,pad=1,dtype=fp32", None)?;
    /// assert_eq!(l.require_element_bytes()?, 4);
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub fn require_element_bytes(&self) -> Result<usize, Error> {
        self.element_bytes.ok_or(Error::parameter(ParameterProblem::MissingElementType { layout: self.name }))
    }
}

/// The element type names [`dtype_bytes`] takes, with their sizes in
/// bytes: the catalogue's words (CK's and CUTLASS's names), then the usual
/// aliases (C's, Rust's, and the names numpy, PyTorch and Triton give their
/// dtypes).
///
/// ```
/// use cktile_analysis::layouts::DTYPE_NAMES;
/// assert!(DTYPE_NAMES.contains(&("bfloat16", 2)) && DTYPE_NAMES.contains(&("float", 4)));
/// ```
pub const DTYPE_NAMES: [(&str, usize); 38] = [
    ("fp8", 1),
    ("int8", 1),
    ("fp16", 2),
    ("bf16", 2),
    ("fp32", 4),
    ("tf32", 4),
    ("fp64", 8),
    ("bf8", 1),
    ("e4m3", 1),
    ("e5m2", 1),
    ("i8", 1),
    ("u8", 1),
    ("half", 2),
    ("f16", 2),
    ("bfloat16", 2),
    ("i16", 2),
    ("float", 4),
    ("f32", 4),
    ("i32", 4),
    ("double", 8),
    ("f64", 8),
    ("i64", 8),
    ("float16", 2),
    ("float32", 4),
    ("float64", 8),
    ("int16", 2),
    ("int32", 4),
    ("int64", 8),
    ("uint8", 1),
    ("uint16", 2),
    ("uint32", 4),
    ("uint64", 8),
    ("float8_e4m3fn", 1),
    ("float8_e4m3fnuz", 1),
    ("float8_e5m2", 1),
    ("float8_e5m2fnuz", 1),
    ("fp8e4nv", 1),
    ("fp8e5", 1),
];

/// [`DTYPE_NAMES`] for messages and help texts (a test holds the two equal).
///
/// ```
/// assert!(cktile_analysis::layouts::DTYPE_LIST.starts_with("fp8, int8, fp16, bf16"));
/// ```
pub const DTYPE_LIST: &str = "fp8, int8, fp16, bf16, fp32, tf32, fp64 (aliases: bf8, e4m3, e5m2, i8, u8, half, f16, \
                          bfloat16, i16, float, f32, i32, double, f64, i64, float16, float32, float64, int16, int32, \
                          int64, uint8, uint16, uint32, uint64, float8_e4m3fn, float8_e4m3fnuz, float8_e5m2, \
                          float8_e5m2fnuz, fp8e4nv, fp8e5) or a byte count 1, 2, 4 or 8";

/// The size in bytes of an element type named as the catalogue's `dtype`
/// parameters take it ([`DTYPE_NAMES`]: fp8/int8 1, fp16/bf16 2, fp32/tf32
/// 4, fp64 8, and their aliases), or the byte count itself (1, 2, 4 or 8).
///
/// ```
/// use cktile_analysis::layouts::dtype_bytes;
/// assert_eq!((dtype_bytes("bf16"), dtype_bytes("bfloat16"), dtype_bytes("4")), (Ok(2), Ok(2), Ok(4)));
/// let e = dtype_bytes("fp12").unwrap_err().to_string();
/// assert!(e.contains("unknown name `fp12`; expected one of: fp8, int8, fp16"), "{e}");
/// assert!(dtype_bytes("3").unwrap_err().to_string().contains("number 3 is out of range; expected 1, 2, 4 or 8"));
/// ```
pub fn dtype_bytes(name: &str) -> Result<usize, Error> {
    if let Some(&(_, bytes)) = DTYPE_NAMES.iter().find(|(n, _)| *n == name) {
        return Ok(bytes);
    }
    match name.parse::<usize>() {
        Ok(n @ (1 | 2 | 4 | 8)) => Ok(n),
        Ok(_) => Err(Error::spec(SpecProblem::NumberRange { number: Snippet::new(name), range: "1, 2, 4 or 8 bytes" })),
        Err(_) => Err(Error::parameter(cktile_core::ParameterProblem::UnknownName {
            name: Snippet::new(name),
            valid: DTYPE_LIST,
        })),
    }
}

/// The entries' names, in catalogue order.
const ENTRY_NAME_LIST: [&str; CATALOGUE.len()] = cktile_core::names::names_of!(CATALOGUE, |r| r.name);
/// The entries' names, comma-separated (for messages), derived from [`CATALOGUE`].
///
/// ```
/// assert!(cktile_analysis::layouts::ENTRY_NAMES.starts_with("ck-universal-a, ck-xor-lds, "));
/// assert_eq!(cktile_analysis::layouts::ENTRY_NAMES.split(", ").count(), cktile_analysis::layouts::CATALOGUE.len());
/// ```
pub const ENTRY_NAMES: &str = cktile_core::names::joined!(&ENTRY_NAME_LIST);

/// Bytes of every entry's parameter names, `", "`-separated, one line per
/// entry in catalogue order (`param_names` reads its line).
const fn entry_keys_len() -> usize {
    let mut len = 0;
    let mut e = 0;
    while e < CATALOGUE.len() {
        if e > 0 {
            len += 1;
        }
        let params = CATALOGUE[e].params;
        let mut k = 0;
        while k < params.len() {
            if k > 0 {
                len += 2;
            }
            len += params[k].name.len();
            k += 1;
        }
        e += 1;
    }
    len
}
const ENTRY_KEY_BYTES: [u8; entry_keys_len()] = {
    let mut buf = [0u8; entry_keys_len()];
    let mut at = 0;
    let mut e = 0;
    while e < CATALOGUE.len() {
        if e > 0 {
            at = cktile_core::names::put(&mut buf, at, "\n");
        }
        let params = CATALOGUE[e].params;
        let mut k = 0;
        while k < params.len() {
            if k > 0 {
                at = cktile_core::names::put(&mut buf, at, ", ");
            }
            at = cktile_core::names::put(&mut buf, at, params[k].name);
            k += 1;
        }
        e += 1;
    }
    buf
};
/// Every entry's parameter names, derived from its `params` (see [`entry_keys_len`]).
const ENTRY_KEYS: &str = cktile_core::names::text(&ENTRY_KEY_BYTES);

/// Builds a catalogue entry written `name:key=value,...` (or just `name`
/// when every parameter has a default).
///
/// ```
/// let d = cktile_analysis::layouts::build_entry("row-padded:rows=4,cols=4,pad=1")?;
/// assert_eq!(d.element_space_size(), 19);
/// let e = cktile_analysis::layouts::build_entry("row-padded:rows=4,cols=4").unwrap_err();
/// assert_eq!(e.to_string(), "row-padded needs the parameter `pad` (write row-padded:pad=VALUE,...)");
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub fn build_entry(text: &str) -> Result<Descriptor, Error> {
    let text = crate::comments::uncommented(text);
    let (name, params) = text.split_once(':').unwrap_or((text, ""));
    find_entry(name)?.build(params)
}

/// [`resolve`] with the element type: a catalogue entry's own (see
/// [`Entry::build_typed`]; `dtype` fills it when the entry leaves it out, and
/// must agree with it otherwise), or `dtype` for a spec, which has none.
///
/// ```
/// use cktile_analysis::layouts::resolve_typed;
/// // The entry's dtype decides MLdsLayer: fp8 at K = 64 shares bank rows between 2 rows.
/// let fp8 = resolve_typed("ck-universal-a:m=128,k=64,dtype=fp8", None)?;
/// let also = resolve_typed("ck-universal-a:m=128,k=64", Some("fp8"))?;
/// assert_eq!((fp8.element_bytes, &fp8.descriptor), (Some(1), &also.descriptor));
/// assert!(resolve_typed("ck-universal-a:m=128,k=64,dtype=fp8", Some("fp16")).is_err());
/// assert_eq!(resolve_typed("packed((4,8))", Some("fp32"))?.element_bytes, Some(4));
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
#[cfg(feature = "alloc")]
pub fn resolve_typed(text: &str, dtype: Option<&str>) -> Result<Layout, Error> {
    if let Some(text) = entry_text(text) {
        let (name, params) = text.split_once(':').unwrap_or((text, ""));
        return find_entry(name)?.build_typed(params, dtype);
    }
    let descriptor = crate::spec::parse(text)?;
    let element_bytes = dtype.map(dtype_bytes).transpose()?;
    let first = text.trim_start();
    Ok(Layout { descriptor, element_bytes, name: Snippet::new(first.lines().next().unwrap_or(first)) })
}

/// The catalogue entry a layout text names (the text itself, trimmed), or
/// `None` for a spec: the one rule by which [`resolve`], the code generator
/// and the CLI tell the two apart. An entry's leading name has a `-`, which
/// no spec stage name has. Comments around an entry are read as every
/// text's are ([`uncommented`](crate::comments::uncommented)).
///
/// ```
/// use cktile_analysis::layouts::entry_text;
/// assert_eq!(entry_text(" row-padded:rows=4,cols=4,pad=1 "), Some("row-padded:rows=4,cols=4,pad=1"));
/// assert_eq!(entry_text("# padded\nrow-padded:rows=4,cols=4,pad=1 # one"), Some("row-padded:rows=4,cols=4,pad=1"));
/// assert_eq!(entry_text("ck-universal-a"), Some("ck-universal-a"));
/// assert_eq!(entry_text("packed((4,8))"), None);
/// ```
pub fn entry_text(text: &str) -> Option<&str> {
    let head = crate::comments::uncommented(text);
    let name_end = head.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(head.len());
    head[..name_end].contains('-').then_some(head)
}

/// The catalogue entry called `name`.
fn find_entry(name: &str) -> Result<&'static Entry, Error> {
    CATALOGUE.iter().find(|e| e.name == name.trim()).ok_or_else(|| {
        Error::parameter(cktile_core::ParameterProblem::UnknownName {
            name: Snippet::new(name.trim()),
            valid: ENTRY_NAMES,
        })
    })
}

/// A spec (see [`spec`](crate::spec)) or a catalogue entry with parameters:
/// what the command line accepts wherever it takes a SPEC. Entry names
/// contain a `-`, which no spec stage name does.
///
/// ```
/// let a = cktile_analysis::layouts::resolve("row-padded:rows=2,cols=2,pad=1")?;
/// let b = cktile_analysis::layouts::resolve("naive((2,2),(3,1))")?;
/// assert_eq!(a, b);
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
#[cfg(feature = "alloc")]
pub fn resolve(text: &str) -> Result<Descriptor, Error> {
    if entry_text(text).is_some() { build_entry(text) } else { crate::spec::parse(text) }
}
