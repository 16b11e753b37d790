//! The decision: can one descriptor per instruction read a layout, and with
//! which fields.
//!
//! The tile (MN x K) is cut into the instructions that read it: K in steps
//! of 32 bytes (every dense `wgmma` and `tcgen05.mma` reads 32 bytes of K),
//! MN in the instruction's M or N. For each major-ness and swizzle mode the
//! target has, widest first, the fields are read off the layout where the
//! PTX ISA's canonical map shows them (the start address at each
//! instruction's first element; SBO and LBO between the atoms of the first
//! instruction), and then every element of every instruction is compared
//! with [`DescriptorFields::address`]: the verdict is that comparison, never a
//! pattern match. LBO, SBO and the mode are shared by all instructions,
//! only the start address moves (CuTe's `DescriptorIterator`, Triton's
//! lowering).

use super::canonical::canonical_spec;
use super::fields::DescriptorFields;
use super::mode::{Operand, OperandMajor, SwizzleMode, Target};
use crate::descriptor::Descriptor;
use crate::{Error, ParameterProblem};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// The most elements a tile may have: the judge stores one address each
/// and compares each once per mode.
///
/// ```
/// assert_eq!(cktile::matrix_desc::MAX_ELEMENTS, 1 << 20);
/// ```
pub const MAX_ELEMENTS: usize = 1 << 20;

const CONTEXT: &str = "matrix-desc";

fn bad(parameter: &'static str, value: usize, requirement: &'static str) -> Error {
    Error::parameter(ParameterProblem::invalid_usize(CONTEXT, parameter, value, requirement))
}

/// What to judge: a 2-D layout (offsets in elements) read as one operand.
///
/// ```
/// use cktile::matrix_desc::{OperandMajor, Request, Target};
/// let tile = cktile::Descriptor::packed(&[64, 64])?;
/// let r = Request { major: Some(OperandMajor::K), ..Request::new(&tile, 2, Target::Sm90) };
/// assert_eq!((r.k_dim, r.base), (1, 0));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// The layout: two top dimensions, MN and K.
    pub layout: &'a Descriptor,
    /// Bytes per element: 1, 2 or 4.
    pub element_bytes: usize,
    /// The instruction.
    pub target: Target,
    /// Which operand: sets the default instruction M or N.
    pub operand: Operand,
    /// The major-ness to try; `None` tries K, then MN where the target
    /// reads MN-major operands of this element size.
    pub major: Option<OperandMajor>,
    /// The swizzle mode to try; `None` tries every mode the target has,
    /// widest first.
    pub swizzle: Option<SwizzleMode>,
    /// Which top dimension is K (0 or 1); the other is M or N.
    pub k_dim: usize,
    /// The M or N one instruction reads; `None` takes the operand's
    /// ([`Operand::instruction_mn`]).
    pub instruction_mn: Option<usize>,
    /// The tile's first byte in shared memory: the start addresses are
    /// absolute, and a swizzle's pattern must start on its boundary.
    pub base: u64,
}

impl<'a> Request<'a> {
    /// Operand A, either major, K the second dimension, the operand's
    /// instruction extent, base 0.
    ///
    /// ```
    /// let tile = cktile::Descriptor::packed(&[8, 16])?;
    /// let r = cktile::matrix_desc::Request::new(&tile, 2, cktile::matrix_desc::Target::Sm100);
    /// assert_eq!(r.major, None);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(layout: &'a Descriptor, element_bytes: usize, target: Target) -> Request<'a> {
        Request {
            layout,
            element_bytes,
            target,
            operand: Operand::A,
            major: None,
            swizzle: None,
            k_dim: 1,
            instruction_mn: None,
            base: 0,
        }
    }
}

/// A layout the instruction reads: the fields and where each instruction
/// starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Readable {
    /// The instruction.
    pub target: Target,
    /// The operand's major-ness.
    pub major: OperandMajor,
    /// The swizzle mode (the widest that reads it).
    pub swizzle: SwizzleMode,
    /// Other modes of the same major-ness that read it too.
    pub also: Vec<SwizzleMode>,
    /// Bytes per element.
    pub element_bytes: usize,
    /// The tile, (MN, K).
    pub tile: [usize; 2],
    /// What one instruction reads, (MN, K).
    pub instruction: [usize; 2],
    /// The leading-dimension byte offset.
    pub lbo: u64,
    /// The stride-dimension byte offset.
    pub sbo: u64,
    /// Whether the hardware reads LBO for this tile (K-major swizzled modes
    /// never do: CuTe writes 1, i.e. 16 bytes; an extent of one atom
    /// neither).
    pub lbo_used: bool,
    /// Whether the hardware reads SBO for this tile.
    pub sbo_used: bool,
    /// The tile's first byte in shared memory.
    pub base: u64,
    /// Each instruction's start address, in bytes from `base`: MN blocks
    /// outer, K steps inner.
    pub starts: Vec<u64>,
    /// The elements compared (the whole tile).
    pub elements: usize,
}

impl Readable {
    /// The instructions along (MN, K).
    ///
    /// ```
    /// use cktile::matrix_desc::{judge, Request, Target, Readability};
    /// let tile = cktile::layouts::resolve("triton-nvmma:swizzle=128,bits=16,rows=128")?;
    /// let Readability::Readable(r) = judge(&Request::new(&tile, 2, Target::Sm90))? else { panic!() };
    /// assert_eq!(r.grid(), [2, 4]);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn grid(&self) -> [usize; 2] {
        [self.tile[0] / self.instruction[0].max(1), self.tile[1] / self.instruction[1].max(1)]
    }

    /// The fields of instruction `i` (in [`starts`](Self::starts) order).
    ///
    /// ```
    /// use cktile::matrix_desc::{judge, Request, Target, Readability};
    /// let tile = cktile::layouts::resolve("triton-nvmma:swizzle=128,bits=16,rows=64")?;
    /// let Readability::Readable(r) = judge(&Request::new(&tile, 2, Target::Sm90))? else { panic!() };
    /// assert_eq!(r.fields(1)?.start, 32);
    /// assert!(r.fields(4).is_err());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn fields(&self, i: usize) -> Result<DescriptorFields, Error> {
        let Some(&start) = self.starts.get(i) else {
            return Err(bad("instruction", i, "it must be below the number of instructions"));
        };
        Ok(DescriptorFields {
            target: self.target,
            swizzle: self.swizzle,
            start: self.base.saturating_add(start),
            lbo: self.lbo,
            sbo: self.sbo,
            base_offset: 0,
        })
    }

    /// The 64-bit descriptor of instruction `i`.
    ///
    /// ```
    /// use cktile::matrix_desc::{judge, Request, Target, Readability};
    /// let tile = cktile::layouts::resolve("triton-nvmma:swizzle=128,bits=16,rows=64")?;
    /// let Readability::Readable(r) = judge(&Request::new(&tile, 2, Target::Sm90))? else { panic!() };
    /// assert_eq!(r.descriptor(1)? - r.descriptor(0)?, 32 >> 4);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn descriptor(&self, i: usize) -> Result<u64, Error> {
        self.fields(i)?.encode()
    }
}

/// Where one (major-ness, mode) candidate breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Break {
    /// The major-ness tried.
    pub major: OperandMajor,
    /// The mode tried.
    pub swizzle: SwizzleMode,
    /// The element, as the layout's top coordinate.
    pub coordinate: [usize; 2],
    /// Its byte in the layout, from the tile's base (`None`: the layout
    /// stores no element there, a pad).
    pub actual: Option<u64>,
    /// Where the canonical layout of this mode puts it, from the tile's base
    /// (`None` where the fields could not be formed).
    pub expected: Option<u64>,
    /// The rule broken, in words and numbers.
    pub rule: String,
}

/// A layout the instruction cannot read: where each candidate breaks, and
/// the nearest canonical layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// The instruction.
    pub target: Target,
    /// One break per (major-ness, mode) tried, in the order tried.
    pub breaks: Vec<Break>,
    /// The canonical layout of the same tile the instruction reads, as
    /// cktile spec text (CuTe's atom of the widest mode whose span divides
    /// the contiguous extent, tiled MN first): its major-ness and mode, and
    /// the text. `None` when no mode divides the tile.
    pub nearest: Option<(OperandMajor, SwizzleMode, String)>,
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Readability {
    /// The instruction reads the layout.
    Readable(Readable),
    /// It does not.
    Unreadable(Unreadable),
}

/// The request's tile, checked: (MN, K), the instruction's (MN, K), and each
/// element's byte from the base (`None`: a pad), indexed `mn * K + k`.
struct Tile {
    tile: [usize; 2],
    instruction: [usize; 2],
    bytes: Vec<Option<u64>>,
}

fn tile(req: &Request<'_>) -> Result<Tile, Error> {
    let eb = req.element_bytes;
    if !matches!(eb, 1 | 2 | 4) {
        return Err(bad("element bytes", eb, "it must be 1, 2 or 4 (8-, 16- and 32-bit operands)"));
    }
    let lengths = req.layout.lengths();
    if lengths.len() != 2 {
        return Err(bad("layout dimensions", lengths.len(), "an operand tile has 2 (MN and K)"));
    }
    if req.k_dim > 1 {
        return Err(bad("k dimension", req.k_dim, "it must be 0 or 1"));
    }
    let len = |d: usize| usize::try_from(lengths.as_slice()[d]).unwrap_or(0);
    let (mn, k) = (len(1 - req.k_dim), len(req.k_dim));
    let k_step = 32 / eb;
    if k == 0 || k % k_step != 0 {
        return Err(bad("K", k, "it must be a positive multiple of the 32 bytes of K one instruction reads"));
    }
    if mn == 0 || mn % 8 != 0 {
        return Err(bad("M or N", mn, "it must be a positive multiple of 8"));
    }
    if mn.checked_mul(k).is_none_or(|n| n > MAX_ELEMENTS) {
        return Err(bad("tile elements", mn.saturating_mul(k), "at most 1048576 (2^20)"));
    }
    let imn = req.instruction_mn.unwrap_or_else(|| req.operand.instruction_mn(req.target, mn));
    if imn == 0 || !imn.is_multiple_of(8) || imn > 256 || mn % imn != 0 {
        return Err(bad(
            "instruction M or N",
            imn,
            "it must be a multiple of 8, at most 256, dividing the tile's M or N",
        ));
    }
    if !req.base.is_multiple_of(16) || req.base >= 1 << 18 {
        return Err(bad("base", usize::try_from(req.base).unwrap_or(usize::MAX), "a multiple of 16 below 262144"));
    }
    let mut bytes = Vec::with_capacity(mn * k);
    for m in 0..mn {
        for kk in 0..k {
            let top = coordinate(req.k_dim, m, kk);
            let off = req.layout.offset_if_valid(&[top[0] as i64, top[1] as i64]);
            bytes.push(off.and_then(|o| u64::try_from(o).ok()).and_then(|o| o.checked_mul(eb as u64)));
        }
    }
    Ok(Tile { tile: [mn, k], instruction: [imn, k_step], bytes })
}

/// The layout's top coordinate of element (mn, k).
fn coordinate(k_dim: usize, mn: usize, k: usize) -> [usize; 2] {
    if k_dim == 1 { [mn, k] } else { [k, mn] }
}

/// The fields a candidate reads off the first instruction.
struct Candidate {
    lbo: u64,
    sbo: u64,
    lbo_used: bool,
    sbo_used: bool,
    starts: Vec<u64>,
}

/// The canonical map's formula for element (mn, k) of an instruction with
/// `f`'s fields, written out with its values, then in symbols, for messages.
fn instantiated(f: &DescriptorFields, major: OperandMajor, e: usize, mn: usize, k: usize) -> String {
    let terms = f.terms(major, e, mn, k).unwrap_or_default();
    let values: Vec<String> = terms
        .iter()
        .map(|t| match t.field {
            Some(name) => format!("{}*{name} {}", t.count, t.stride),
            None if t.stride == 1 => format!("{}", t.count),
            None => format!("{}*{}", t.count, t.stride),
        })
        .collect();
    let symbols: Vec<&str> = terms.iter().map(|t| t.symbol.as_str()).collect();
    let (values, symbols) =
        (format!("{} + {}", f.start, values.join(" + ")), format!("start + {}", symbols.join(" + ")));
    if f.swizzle == SwizzleMode::None {
        format!("{values} ({symbols})")
    } else {
        format!("swizzle({values}) (swizzle({symbols}))")
    }
}

fn try_candidate(req: &Request<'_>, t: &Tile, major: OperandMajor, swizzle: SwizzleMode) -> Result<Candidate, Break> {
    let eb = req.element_bytes;
    let [mn, k] = t.tile;
    let [imn, ik] = t.instruction;
    let brk = |m: usize, kk: usize, expected: Option<u64>, rule: String| Break {
        major,
        swizzle,
        coordinate: coordinate(req.k_dim, m, kk),
        actual: t.bytes[m * k + kk],
        expected,
        rule,
    };
    if !req.base.is_multiple_of(swizzle.repeat()) {
        return Err(brk(
            0,
            0,
            None,
            format!(
                "the tile's base {} is not a multiple of {} bytes, where this mode's pattern starts; cktile \
                 models a base offset of 0 only",
                req.base,
                swizzle.repeat()
            ),
        ));
    }
    // The unswizzled absolute address of element (m, kk).
    let unswizzled = |m: usize, kk: usize| t.bytes[m * k + kk].map(|b| swizzle.apply(req.base + b));
    let missing = |m: usize, kk: usize| brk(m, kk, None, String::from("the layout stores no element there (a pad)"));
    let at = |m: usize, kk: usize| unswizzled(m, kk).ok_or_else(|| missing(m, kk));
    let origin = at(0, 0)?;
    // A field read off the first instruction: the distance from its first
    // element to (m, kk), or `dense` where the tile does not reach it.
    let read = |name: &str, reach: bool, m: usize, kk: usize, dense: u64| -> Result<(u64, bool), Break> {
        if !reach {
            return Ok((dense, false));
        }
        let to = at(m, kk)?;
        match to.checked_sub(origin) {
            Some(d) if d % 16 == 0 && d < 1 << 18 => Ok((d, true)),
            _ => Err(brk(
                m,
                kk,
                None,
                format!(
                    "{name} would be {} bytes (the distance from element (0, 0) to this one), not a multiple of 16 \
                     in [0, 262144)",
                    i128::from(to) - i128::from(origin)
                ),
            )),
        }
    };
    let span = swizzle.span();
    let elems_per_chunk = 16 / eb;
    let ((lbo, lbo_used), (sbo, sbo_used)) = match (major, swizzle) {
        (OperandMajor::K, SwizzleMode::None) => {
            (read("LBO", true, 0, elems_per_chunk, 128)?, read("SBO", imn > 8, 8, 0, 128)?)
        }
        (OperandMajor::K, _) => ((16, false), read("SBO", imn > 8, 8, 0, 8 * span as u64)?),
        (OperandMajor::Mn, SwizzleMode::None) => (
            read("LBO", ik > 8, 0, 8, 128 * (imn / elems_per_chunk) as u64)?,
            read("SBO", imn > elems_per_chunk, elems_per_chunk, 0, 128)?,
        ),
        (OperandMajor::Mn, s) => {
            let atom_mn = span / eb;
            let g = s.k_group();
            (
                read("LBO", imn > atom_mn, atom_mn, 0, (span * g) as u64)?,
                read("SBO", ik > g, 0, g, (span * g * imn.div_ceil(atom_mn)) as u64)?,
            )
        }
    };
    let mut starts = Vec::with_capacity((mn / imn) * (k / ik));
    for m0 in (0..mn).step_by(imn) {
        for k0 in (0..k).step_by(ik) {
            let start = at(m0, k0)?;
            if start % 16 != 0 {
                return Err(brk(
                    m0,
                    k0,
                    None,
                    format!("an instruction's first element must start a 16-byte chunk; it is at byte {start}"),
                ));
            }
            let fields = DescriptorFields { target: req.target, swizzle, start, lbo, sbo, base_offset: 0 };
            for m in m0..m0 + imn {
                for kk in k0..k0 + ik {
                    let expected = fields.address(major, eb, m - m0, kk - k0);
                    let actual = t.bytes[m * k + kk].map(|b| req.base + b);
                    if expected != actual {
                        let relative = expected.map(|e| e.wrapping_sub(req.base));
                        let at =
                            relative.map_or_else(|| String::from("an address past 64 bits"), |b| format!("byte {b}"));
                        return Err(brk(
                            m,
                            kk,
                            relative,
                            format!(
                                "the instruction at (mn {m0}, k {k0}) reads it from {at} = {}",
                                instantiated(&fields, major, eb, m - m0, kk - k0)
                            ),
                        ));
                    }
                }
            }
            starts.push(start - req.base);
        }
    }
    Ok(Candidate { lbo, sbo, lbo_used, sbo_used, starts })
}

/// The modes and major-nesses the request tries, in order.
fn candidates(req: &Request<'_>, t: &Tile) -> Result<Vec<(OperandMajor, SwizzleMode)>, Error> {
    // An MN-major instruction's M or N must fill whole 16-byte chunks: the
    // next instruction starts a chunk.
    let whole_chunks = (t.instruction[0] * req.element_bytes).is_multiple_of(16);
    if req.major == Some(OperandMajor::Mn) && !whole_chunks {
        return Err(bad(
            "instruction M or N",
            t.instruction[0],
            "an MN-major operand's M or N must fill whole 16-byte chunks",
        ));
    }
    let majors: Vec<OperandMajor> = match req.major {
        Some(OperandMajor::Mn) if !req.target.reads_mn_major(req.element_bytes) => {
            return Err(bad(
                "element bytes",
                req.element_bytes,
                "wgmma reads MN-major operands of 16-bit elements only (tcgen05.mma: 1, 2 and 4 bytes)",
            ));
        }
        Some(m) => Vec::from([m]),
        None => OperandMajor::ALL
            .into_iter()
            .filter(|&m| m == OperandMajor::K || req.target.reads_mn_major(req.element_bytes))
            .collect(),
    };
    if let Some(s) = req.swizzle {
        if !req.target.swizzles().contains(&s) {
            return Err(bad("swizzle", s.span(), "128b-base32b exists on sm100 only"));
        }
        if s == SwizzleMode::B128Base32 && req.major == Some(OperandMajor::K) {
            return Err(bad("swizzle", s.span(), "128b-base32b reads MN-major operands only"));
        }
    }
    let wanted = |s: SwizzleMode| req.swizzle.is_none_or(|w| w == s);
    Ok(majors
        .into_iter()
        .flat_map(|m| {
            req.target
                .swizzles()
                .iter()
                .filter(move |&&s| !(m == OperandMajor::K && s == SwizzleMode::B128Base32) && wanted(s))
                .map(move |&s| (m, s))
        })
        .collect())
}

/// Whether `req.target` reads `req.layout` through a descriptor per
/// instruction, and how: see the [module docs](self). Errors are requests
/// no descriptor could serve (element size, dimensions, a tile that does
/// not split into instructions, MN-major where the target has none); a
/// layout that is simply not canonical is [`Readability::Unreadable`].
///
/// ```
/// use cktile::matrix_desc::{judge, Request, SwizzleMode, Target, Readability};
/// // A plain row-major 64 x 64 fp16 tile: rows 128 bytes apart, no swizzle.
/// let plain = cktile::Descriptor::packed(&[64, 64])?;
/// let Readability::Unreadable(u) = judge(&Request::new(&plain, 2, Target::Sm90))? else { panic!() };
/// assert_eq!(u.breaks[0].coordinate, [1, 0]); // 128B swizzle: row 1's first chunk is not swizzled
/// let (_, mode, nearest) = u.nearest.unwrap();
/// assert_eq!(mode, SwizzleMode::B128);
/// let fixed = cktile::spec::parse(&nearest)?;
/// assert!(matches!(judge(&Request::new(&fixed, 2, Target::Sm90))?, Readability::Readable(_)));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn judge(req: &Request<'_>) -> Result<Readability, Error> {
    let t = tile(req)?;
    let tried = candidates(req, &t)?;
    let mut breaks = Vec::new();
    let mut found: Option<(OperandMajor, SwizzleMode, Candidate)> = None;
    let mut also = Vec::new();
    for (major, swizzle) in tried.iter().copied() {
        if let Some((m, _, _)) = &found
            && *m != major
        {
            break;
        }
        match try_candidate(req, &t, major, swizzle) {
            Ok(c) if found.is_none() => found = Some((major, swizzle, c)),
            Ok(_) => also.push(swizzle),
            Err(b) if found.is_none() => breaks.push(b),
            Err(_) => {}
        }
    }
    if let Some((major, swizzle, c)) = found {
        return Ok(Readability::Readable(Readable {
            target: req.target,
            major,
            swizzle,
            also,
            element_bytes: req.element_bytes,
            tile: t.tile,
            instruction: t.instruction,
            lbo: c.lbo,
            sbo: c.sbo,
            lbo_used: c.lbo_used,
            sbo_used: c.sbo_used,
            base: req.base,
            starts: c.starts,
            elements: t.bytes.len(),
        }));
    }
    Ok(Readability::Unreadable(Unreadable { target: req.target, breaks, nearest: nearest(req, &t, &tried) }))
}

/// The canonical layout closest to the request's: the major-ness whose
/// dimension the layout keeps contiguous (K unless MN is, and allowed), and
/// CuTe's `ss_smem_selector` rule for the mode (the widest whose span
/// divides the contiguous extent in bytes).
fn nearest(
    req: &Request<'_>,
    t: &Tile,
    tried: &[(OperandMajor, SwizzleMode)],
) -> Option<(OperandMajor, SwizzleMode, String)> {
    let [mn, k] = t.tile;
    let eb = req.element_bytes as u64;
    let mn_contiguous = mn > 1
        && matches!((t.bytes[0], t.bytes[k]), (Some(a), Some(b)) if b.checked_sub(a) == Some(eb))
        && tried.iter().any(|&(m, _)| m == OperandMajor::Mn);
    let major = if mn_contiguous || !tried.iter().any(|&(m, _)| m == OperandMajor::K) {
        OperandMajor::Mn
    } else {
        OperandMajor::K
    };
    let extent = if major == OperandMajor::K { k } else { mn } * req.element_bytes;
    tried
        .iter()
        .filter(|&&(m, s)| m == major && s != SwizzleMode::B128Base32 && extent.is_multiple_of(s.span()))
        .find_map(|&(m, s)| canonical_spec(m, s, req.element_bytes, mn, k, req.k_dim).ok().map(|text| (m, s, text)))
}
