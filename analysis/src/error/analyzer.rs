//! The analyzer layer's problems: chips and their instructions, lanes and
//! their addresses, and the access patterns and tile windows that issue
//! instructions over a tile.

use super::{Error, ErrorKind};
use crate::hardware::op::Op;
use core::fmt;

/// What is wrong with an analysis: an instruction, a chip, a lane's address
/// or an access pattern: [`ErrorKind::Analyzer`].
///
/// ```
/// use cktile_analysis::analyzer::{AnalyzerProblem, Op, arch};
/// use cktile_analysis::ErrorKind;
/// let e = cktile_analysis::analyzer::count(&arch::SM80, Op::DsRead { bits: 32 }, &[Some(0)]).unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::Analyzer(AnalyzerProblem::Unsupported { arch: "sm80", .. })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AnalyzerProblem {
    /// Something (an access pattern, the DMA planner) that does not run on
    /// the chip named.
    NotOnArch {
        /// What it is, e.g. "the mfma16 pattern (an AMD MFMA operand read)".
        what: &'static str,
        /// The chip, as named.
        arch: &'static str,
        /// What would work instead.
        valid: &'static str,
    },
    /// A public model of the banks whose source says nothing of this
    /// (chip, instruction) or of this access (cktile's `reports::models`).
    ModelSilent {
        /// The model's name.
        model: &'static str,
        /// The chip.
        arch: &'static str,
        /// The instruction.
        op: Op,
        /// What the model's source does cover, or what it leaves unsaid.
        why: &'static str,
    },
    /// An instruction whose exchange across lanes cktile does not model
    /// ([`exchange`](crate::analyzer::exchange)): not one of gfx1250's
    /// transposing loads a public source describes.
    NoExchange {
        /// The instruction.
        op: Op,
    },
    /// An instruction the chip does not have.
    Unsupported {
        /// The instruction.
        op: Op,
        /// The chip.
        arch: &'static str,
    },
    /// An instruction built with a width or matrix count no chip has.
    InvalidOp {
        /// The instruction as built.
        op: Op,
        /// The instructions that exist.
        valid: &'static str,
    },
    /// A layout needs more shared memory than the chip gives a workgroup.
    SharedCapacity {
        /// The chip.
        arch: &'static str,
        /// Bytes the layout spans.
        bytes: u64,
        /// Bytes one workgroup (block) can use.
        capacity: u32,
    },
    /// More lane addresses than the chip has lanes.
    TooManyLanes {
        /// How many were given.
        given: usize,
        /// The wave size.
        wave: u32,
    },
    /// A lane's address is not aligned to its access.
    Misaligned {
        /// The lane.
        lane: usize,
        /// Its byte address.
        address: u64,
        /// The alignment the instruction needs.
        alignment: u64,
    },
    /// A lane's access reaches past the last byte address the model takes
    /// (2^64 - 1): its end does not fit 64 bits.
    AccessPastEnd {
        /// The lane.
        lane: usize,
        /// Its byte address (of the access's first byte).
        address: u64,
        /// The bytes the access moves from there.
        bytes: u64,
    },
    /// A lane's access at a byte address of the chip's shared memory ends
    /// past it (the address-taking entries: `cktile bank`, Python's `bank`).
    AccessPastShared {
        /// The lane.
        lane: usize,
        /// Its byte address (of the access's first byte).
        address: u64,
        /// The bytes the access spans from there (read2/write2: to the end of the second access).
        bytes: u64,
        /// The chip.
        arch: &'static str,
        /// Bytes of shared memory the chip has.
        capacity: u32,
    },
    /// A lane's coordinate has a valid element offset whose byte address
    /// (offset times element size) does not fit 64 bits.
    AddressOverflow {
        /// The instruction number within the pattern.
        instruction: usize,
        /// The lane.
        lane: usize,
        /// The coordinate's first two dimensions.
        coordinate: [i64; 2],
        /// The element offset.
        offset: i64,
        /// Bytes per element.
        element_bytes: usize,
    },
    /// A pattern maps a lane outside the tile or onto a padded position.
    OutsideTile {
        /// The instruction number within the pattern.
        instruction: usize,
        /// The lane.
        lane: usize,
        /// The coordinate's first two dimensions.
        coordinate: [i64; 2],
    },
    /// A tile window's lane would move a vector whose elements are not
    /// contiguous in the layout, so one instruction of that width cannot
    /// access them (CK's tile window would issue narrower accesses).
    VectorNotContiguous {
        /// The instruction.
        op: Op,
        /// Elements each lane moves.
        width: usize,
        /// The instruction number within the window.
        instruction: usize,
        /// The lane.
        lane: usize,
        /// The first element's coordinate.
        coordinate: [i64; 2],
        /// How many of the vector's elements, from the first, are contiguous.
        run: usize,
        /// The widest vector (a power of two dividing `width`) contiguous for
        /// every lane.
        widest: usize,
    },
    /// A transposing instruction (`ldmatrix`/`stmatrix` `.trans`, the AMD
    /// transposing reads) over a transposed view: each lane's vector runs
    /// along the rows of the layout it is given, which are not contiguous,
    /// while the rows of the view's transpose, the stored layout, are.
    TransposedView {
        /// The instruction.
        op: Op,
        /// The view's rows.
        rows: i64,
        /// The view's columns.
        cols: i64,
    },
    /// An access pattern named without an instruction it can issue.
    PatternOp {
        /// The pattern's name.
        pattern: &'static str,
        /// The instruction given, if any.
        given: Option<Op>,
        /// The instructions it takes.
        expected: &'static str,
    },
}

impl AnalyzerProblem {
    /// A fixed sentence for `const` panics; [`Display`](fmt::Display) gives
    /// the values.
    ///
    /// ```
    /// use cktile_analysis::analyzer::AnalyzerProblem;
    /// let p = AnalyzerProblem::TooManyLanes { given: 65, wave: 64 };
    /// assert_eq!(p.summary(), "cktile: more lane addresses than the chip has lanes");
    /// ```
    pub const fn summary(&self) -> &'static str {
        match self {
            AnalyzerProblem::NotOnArch { .. } => "cktile: this does not run on the chip named",
            AnalyzerProblem::ModelSilent { .. } => "cktile: the model's source says nothing of this",
            AnalyzerProblem::NoExchange { .. } => "cktile: no exchange across lanes is modelled for this instruction",
            AnalyzerProblem::Unsupported { .. } => "cktile: the chip does not have this instruction",
            AnalyzerProblem::InvalidOp { .. } => "cktile: no chip has this instruction",
            AnalyzerProblem::SharedCapacity { .. } => "cktile: the layout does not fit the chip's shared memory",
            AnalyzerProblem::TooManyLanes { .. } => "cktile: more lane addresses than the chip has lanes",
            AnalyzerProblem::Misaligned { .. } => "cktile: a lane's address is not aligned to its access",
            AnalyzerProblem::AccessPastEnd { .. } => "cktile: a lane's access runs past the last byte address",
            AnalyzerProblem::AccessPastShared { .. } => "cktile: a lane's access runs past the chip's shared memory",
            AnalyzerProblem::AddressOverflow { .. } => "cktile: a lane's byte address does not fit 64 bits",
            AnalyzerProblem::OutsideTile { .. } => "cktile: an access pattern leaves the tile",
            AnalyzerProblem::VectorNotContiguous { .. } => "cktile: a lane's vector is not contiguous in the layout",
            AnalyzerProblem::TransposedView { .. } => "cktile: a transposing instruction over a transposed view",
            AnalyzerProblem::PatternOp { .. } => "cktile: the access pattern cannot issue this instruction",
        }
    }

    /// Chips and their instructions: what runs where, shared-memory capacity,
    /// lanes and alignment.
    fn chip_message(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AnalyzerProblem::NotOnArch { what, arch, valid } => write!(f, "{what} does not run on {arch}; {valid}"),
            AnalyzerProblem::ModelSilent { model, arch, op, why } => {
                write!(f, "the {model} model says nothing of {op} on {arch}: {why}")
            }
            AnalyzerProblem::NoExchange { op } => write!(
                f,
                "{op} has no exchange across lanes that cktile models: it models gfx1250's ds_load_tr16_b128 and \
                 ds_load_tr8_b64 (AMD's MI450 blog); no public source gives ds_load_tr4_b64's or ds_load_tr6_b96's"
            ),
            AnalyzerProblem::Unsupported { op, arch } => write!(
                f,
                "{arch} has no {op} instruction; use ds_* on the AMD chips (ds_read_b64_tr_* on gfx950 only, \
                 ds_load_tr* on gfx1250 only) and \
                 ld/st.shared, ldmatrix, cp.async (and stmatrix on sm90) on sm80/sm90"
            ),
            AnalyzerProblem::InvalidOp { op, valid } => {
                write!(f, "no chip has the instruction {op:?}; the instructions are: {valid}")
            }
            AnalyzerProblem::SharedCapacity { arch, bytes, capacity } => write!(
                f,
                "the layout spans {bytes} bytes, more than the {capacity} bytes of shared memory one workgroup can \
                 use on {arch}; use a smaller tile or fewer buffers"
            ),
            AnalyzerProblem::TooManyLanes { given, wave } => {
                write!(f, "{given} lane addresses given; the chip has {wave} lanes per wave")
            }
            AnalyzerProblem::Misaligned { lane, address, alignment } => {
                write!(f, "lane {lane}: address {address} is not a multiple of {alignment}, the access's alignment")
            }
            AnalyzerProblem::AccessPastEnd { lane, address, bytes } => write!(
                f,
                "lane {lane}: the {bytes}-byte access at address {address} ends at {} (exclusive), which does not \
                 fit 64 bits; give addresses whose accesses end below 2^64",
                address as u128 + bytes as u128
            ),
            AnalyzerProblem::AccessPastShared { lane, address, bytes, arch, capacity } => write!(
                f,
                "lane {lane}: the {bytes}-byte access at address {address} ends at {} (exclusive), past the {capacity} \
                 bytes of shared memory on {arch}; give addresses whose accesses end by byte {capacity}",
                address as u128 + bytes as u128
            ),
            AnalyzerProblem::AddressOverflow { instruction, lane, coordinate, offset, element_bytes } => write!(
                f,
                "instruction {instruction}, lane {lane}: coordinate {coordinate:?} is at element offset {offset}, \
                 whose byte address {offset} x {element_bytes} = {} does not fit 64 bits; use smaller strides",
                offset as i128 * element_bytes as i128
            ),
            _ => f.write_str(self.summary()),
        }
    }

    /// Access patterns: the tile they address, the vectors they move, the
    /// instructions they issue.
    fn pattern_message(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AnalyzerProblem::OutsideTile { instruction, lane, coordinate } => write!(
                f,
                "instruction {instruction}, lane {lane}: the pattern's coordinate {coordinate:?} is outside the tile (or padding)"
            ),
            AnalyzerProblem::VectorNotContiguous { op, width, instruction, lane, coordinate: [r, c], run, widest } => {
                write!(
                    f,
                    "{op} moves {width} contiguous elements per lane, but lane {lane} of instruction {instruction} reads \
                     ({r}, {c}..={}), whose offsets in this layout are contiguous for {run} element(s) only; a CK tile \
                     window would issue narrower accesses: the widest that is contiguous for every lane is {widest} \
                     element(s) ({} bytes)",
                    c.saturating_add(width as i64 - 1),
                    op.bytes_per_lane() * widest as u64 / width.max(1) as u64
                )
            }
            AnalyzerProblem::TransposedView { op, rows, cols } => write!(
                f,
                "{op} reads each lane's vector along a row of the layout it is given and transposes in registers; this \
                 layout's rows are not contiguous, but its transpose's are: it is a transposed view of the stored \
                 layout. Give the stored layout instead, this spec followed by \
                 `| transform(pass_through({cols}) on [1] -> [0], pass_through({rows}) on [0] -> [1])`"
            ),
            AnalyzerProblem::PatternOp { pattern, given: None, expected } => {
                write!(f, "the `{pattern}` pattern needs an instruction (--op); give one of: {expected}")
            }
            AnalyzerProblem::PatternOp { pattern, given: Some(op), expected } => {
                write!(f, "the `{pattern}` pattern cannot issue {op}; it takes {expected}")
            }
            _ => f.write_str(self.summary()),
        }
    }
}

impl fmt::Display for AnalyzerProblem {
    /// The message of the problem's group.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyzerProblem::NotOnArch { .. }
            | AnalyzerProblem::ModelSilent { .. }
            | AnalyzerProblem::NoExchange { .. }
            | AnalyzerProblem::Unsupported { .. }
            | AnalyzerProblem::InvalidOp { .. }
            | AnalyzerProblem::SharedCapacity { .. }
            | AnalyzerProblem::TooManyLanes { .. }
            | AnalyzerProblem::Misaligned { .. }
            | AnalyzerProblem::AccessPastEnd { .. }
            | AnalyzerProblem::AccessPastShared { .. }
            | AnalyzerProblem::AddressOverflow { .. } => self.chip_message(f),
            AnalyzerProblem::OutsideTile { .. }
            | AnalyzerProblem::VectorNotContiguous { .. }
            | AnalyzerProblem::TransposedView { .. }
            | AnalyzerProblem::PatternOp { .. } => self.pattern_message(f),
        }
    }
}

impl From<AnalyzerProblem> for ErrorKind {
    fn from(problem: AnalyzerProblem) -> ErrorKind {
        ErrorKind::Analyzer(problem)
    }
}

impl From<AnalyzerProblem> for Error {
    fn from(problem: AnalyzerProblem) -> Error {
        Error::analyzer(problem)
    }
}

impl Error {
    /// An analyzer-layer error without a position (`const`, unlike `From`).
    ///
    /// ```
    /// use cktile_analysis::analyzer::{Op, arch};
    /// use cktile_analysis::{AnalyzerProblem, Error};
    /// let e = Error::analyzer(AnalyzerProblem::Unsupported { op: Op::DsReadTr { element_bits: 16 }, arch: arch::GFX942.name() });
    /// assert!(e.to_string().contains("gfx942"), "{e}");
    /// ```
    pub const fn analyzer(problem: AnalyzerProblem) -> Error {
        Error::new(ErrorKind::Analyzer(problem))
    }
}
