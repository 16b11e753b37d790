//! The error type of the `cktile` crate.

use core::fmt;

/// A position in a spec text: 1-based line and column.
///
/// ```
/// let p = cktile::Position { line: 2, column: 7 };
/// assert_eq!(p.to_string(), "2:7");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Line, from 1.
    pub line: u32,
    /// Column (in characters), from 1.
    pub column: u32,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A short piece of the input quoted in an error (at most 24 bytes, cut at a
/// character boundary), kept inline so [`Error`] stays `Copy`.
///
/// ```
/// let s = cktile::Snippet::new("mergee");
/// assert_eq!(s.as_str(), "mergee");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Snippet {
    bytes: [u8; 24],
    len: u8,
}

impl Snippet {
    /// Quotes `text`, cut to at most 24 bytes.
    ///
    /// ```
    /// assert_eq!(cktile::Snippet::new(&"x".repeat(40)).as_str().len(), 24);
    /// ```
    pub fn new(text: &str) -> Snippet {
        let mut end = text.len().min(24);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let mut bytes = [0u8; 24];
        bytes[..end].copy_from_slice(&text.as_bytes()[..end]);
        Snippet { bytes, len: end as u8 }
    }

    /// The quoted text.
    ///
    /// ```
    /// assert_eq!(cktile::Snippet::new("ab").as_str(), "ab");
    /// ```
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("")
    }
}

impl fmt::Debug for Snippet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// What a name must be, for messages.
///
/// ```
/// assert!(cktile::codegen::IDENT_RULE.starts_with("a C++ identifier"));
/// ```
pub const IDENT_RULE: &str = "a C++ identifier for --name: ASCII letters, digits and `_`, starting with a letter, \
not ending with `_` and without `__` (names with `__`, or starting with `_`, are reserved), not a C++ keyword, \
at most 64 characters";

/// Which rule of [`IDENT_RULE`] a name breaks.
///
/// ```
/// use cktile::codegen::NameProblem;
/// assert_eq!(NameProblem::DoubleUnderscore.to_string(), "identifiers containing `__` are reserved in C++");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameProblem {
    /// Nothing was given.
    Empty,
    /// A character that is not an ASCII letter, digit or `_`.
    Character(char),
    /// It starts with a digit.
    LeadingDigit(char),
    /// It starts with `_` (reserved at global scope; `_` + capital everywhere).
    LeadingUnderscore,
    /// It contains `__`.
    DoubleUnderscore,
    /// It ends with `_`, which with the `_offset` suffix makes a `__`.
    TrailingUnderscore,
    /// A C++ keyword or alternative token.
    Keyword,
    /// Longer than 64 characters.
    TooLong(usize),
}

impl core::fmt::Display for NameProblem {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NameProblem::Empty => f.write_str("it is empty"),
            NameProblem::Character(c) => write!(f, "it contains {c:?}, which is not an ASCII letter, digit or `_`"),
            NameProblem::LeadingDigit(c) => write!(f, "it starts with `{c}`, not a letter"),
            NameProblem::LeadingUnderscore => {
                f.write_str("names starting with `_` are reserved at global scope in C and C++")
            }
            NameProblem::DoubleUnderscore => f.write_str("identifiers containing `__` are reserved in C++"),
            NameProblem::TrailingUnderscore => {
                f.write_str("it ends with `_`, so NAME_offset would contain `__`, which C++ reserves")
            }
            NameProblem::Keyword => f.write_str("it is a C++ keyword"),
            NameProblem::TooLong(n) => write!(f, "it has {n} characters; at most 64 are allowed"),
        }
    }
}

/// Which side of a transform an id list belongs to.
///
/// ```
/// use cktile::{ErrorKind, Side};
/// let e = cktile::spec::parse("packed((4,8)) | transform(pass_through(4) on [0] -> [0], pass_through(8) on [0] -> [1])").unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::IdRepeated { side: Side::Lower, .. }));
/// assert_eq!(Side::Upper.to_string(), "upper");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The lower ids: positions among the old top dimensions.
    Lower,
    /// The upper ids: positions among the new top dimensions.
    Upper,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Lower => "lower",
            Side::Upper => "upper",
        })
    }
}

/// What went wrong. See [`Error`].
///
/// ```
/// use cktile::ErrorKind;
/// let e = cktile::Descriptor::packed(&[4, 8]).unwrap().try_calculate_offset(&[4, 0]).unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::CoordinateOutOfRange { dim: 0, value: 4, length: 4 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A transform's parameters are invalid, or do not fit the dimensions it
    /// is applied to.
    Transform {
        /// The transform's position in its `transform(...)` stage (0 for base descriptors).
        item: usize,
        /// The transform-level error.
        source: cktile_transforms::Error,
    },
    /// A descriptor has more stages than [`MAX_STAGES`](crate::MAX_STAGES).
    TooManyStages {
        /// The most allowed.
        max: usize,
    },
    /// A `transform(...)` stage has more transforms than [`MAX_ITEMS`](crate::MAX_ITEMS).
    TooManyItems {
        /// How many were given.
        given: usize,
        /// The most allowed.
        max: usize,
    },
    /// A stage produces more top dimensions than [`MAX_DIMS`](crate::MAX_DIMS).
    TooManyDims {
        /// How many it produces.
        given: usize,
        /// The most allowed.
        max: usize,
    },
    /// An id list's length differs from the transform's dimension count.
    IdCount {
        /// The transform's position in its stage.
        item: usize,
        /// The transform's name.
        transform: &'static str,
        /// Lower or upper ids.
        side: Side,
        /// Its number of dimensions on that side.
        expected: usize,
        /// The number of ids given.
        found: usize,
    },
    /// An id names a dimension that does not exist.
    IdOutOfRange {
        /// The transform's position in its stage.
        item: usize,
        /// Lower or upper ids.
        side: Side,
        /// The id.
        id: usize,
        /// How many dimensions there are on that side.
        count: usize,
    },
    /// An id appears twice across a stage's id lists.
    IdRepeated {
        /// Lower or upper ids.
        side: Side,
        /// The id.
        id: usize,
    },
    /// A dimension is named by no id list (every old top dimension must be
    /// consumed and every new one produced exactly once).
    IdMissing {
        /// Lower or upper ids.
        side: Side,
        /// The dimension nobody names.
        id: usize,
    },
    /// `transform_tensor_descriptor` got different numbers of transforms and id lists.
    ListCount {
        /// Number of transforms.
        transforms: usize,
        /// Number of lower id lists.
        lower: usize,
        /// Number of upper id lists.
        upper: usize,
    },
    /// Two lists that must have the same length do not.
    LengthMismatch {
        /// What takes them.
        function: &'static str,
        /// First list's length.
        first: usize,
        /// Second list's length.
        second: usize,
    },
    /// The element space (or a tile's element count) overflows 64 bits.
    Overflow {
        /// What was being computed.
        quantity: &'static str,
        /// Its value, computed in 128 bits (saturated at `i128::MAX` /
        /// `i128::MIN` when even that overflows).
        value: i128,
    },
    /// A coordinate has the wrong number of dimensions.
    CoordinateArity {
        /// The descriptor's number of top dimensions.
        expected: usize,
        /// The coordinate's.
        found: usize,
    },
    /// An access pattern needs a 2-D tile and the descriptor is not one.
    NotTwoDimensional {
        /// The descriptor's number of top dimensions.
        dims: usize,
    },
    /// A coordinate is outside the top lengths.
    CoordinateOutOfRange {
        /// Which dimension.
        dim: usize,
        /// The index given.
        value: i64,
        /// The dimension's length.
        length: i64,
    },
    /// A tile is too large to enumerate or analyse in bounded time and memory.
    TooLarge {
        /// Its number of coordinates.
        size: u64,
        /// The most that are enumerated for it.
        limit: u64,
    },
    /// A catalogue layout's parameters are outside their valid range.
    LayoutParameter {
        /// The layout.
        layout: &'static str,
        /// The parameter.
        parameter: &'static str,
        /// Its value.
        value: i64,
        /// What it must satisfy.
        requirement: &'static str,
    },
    /// A catalogue entry needs a parameter that was not given.
    MissingParameter {
        /// The entry.
        layout: &'static str,
        /// The parameter.
        parameter: &'static str,
    },
    /// A catalogue entry names its element type and a different one was asked for.
    ElementTypeConflict {
        /// The entry.
        layout: &'static str,
        /// The entry's element type, as written (`dtype=fp8`, `bits=16`).
        entry: Snippet,
        /// Its size in bytes.
        entry_bytes: usize,
        /// The element type asked for, as written.
        given: Snippet,
        /// Its size in bytes.
        given_bytes: usize,
    },
    /// A layout is used where its element size matters, and nothing names it.
    MissingElementType {
        /// The layout as written (cut short).
        layout: Snippet,
    },
    /// A name for generated code that C or C++ would not accept or reserves.
    InvalidName {
        /// The name (cut short).
        name: Snippet,
        /// The rule it breaks.
        problem: NameProblem,
    },
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
    /// An instruction the chip does not have.
    Unsupported {
        /// The instruction.
        op: crate::analyzer::Op,
        /// The chip.
        arch: &'static str,
    },
    /// An instruction built with a width or matrix count no chip has.
    InvalidOp {
        /// The instruction as built.
        op: crate::analyzer::Op,
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
        op: crate::analyzer::Op,
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
    /// An access pattern named without an instruction it can issue.
    PatternOp {
        /// The pattern's name.
        pattern: &'static str,
        /// The instruction given, if any.
        given: Option<crate::analyzer::Op>,
        /// The instructions it takes.
        expected: &'static str,
    },
    /// The spec text does not follow the grammar.
    Syntax {
        /// What the parser expected.
        expected: &'static str,
        /// What it found.
        found: Snippet,
    },
    /// A spec names a transform or stage that does not exist.
    UnknownName {
        /// The name.
        name: Snippet,
        /// The names that exist.
        valid: &'static str,
    },
    /// A spec gives a transform or stage the wrong number of arguments.
    Arity {
        /// The transform or stage.
        name: &'static str,
        /// Its argument forms.
        expected: &'static str,
        /// How many arguments were given.
        found: usize,
    },
    /// A tensor adaptor's hidden-dimension wiring is inconsistent.
    Adaptor {
        /// What is wrong.
        problem: crate::adaptor::AdaptorProblem,
    },
    /// A tile distribution encoding written in cktile's spelling
    /// ([`parse_compact`](crate::distribution::parse_compact)) is
    /// malformed; the message names the entries as that spelling writes
    /// them (`hX[i]`, P and Y references).
    #[cfg(feature = "alloc")]
    CompactEncoding {
        /// What is wrong, naming the entry.
        problem: crate::distribution::EncodingProblem,
    },
    /// A tile distribution encoding is malformed.
    Encoding {
        /// What is wrong, naming the entry.
        problem: crate::distribution::EncodingProblem,
    },
    /// A number in a spec does not fit the type it is used as.
    NumberRange {
        /// The number as written.
        number: Snippet,
        /// The range allowed there.
        range: &'static str,
    },
}

/// Everything that can go wrong in `cktile`: a [`ErrorKind`] and, for
/// errors in a spec text, where.
///
/// Every message names the offending value and what would be valid.
///
/// ```
/// use cktile::{Descriptor, ErrorKind};
/// let e = Descriptor::naive(&[0, 4], &[4, 1]).unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::Transform { .. }));
/// assert!(e.to_string().contains("is 0"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    kind: ErrorKind,
    at: Option<Position>,
}

impl Error {
    /// An error without a position.
    ///
    /// ```
    /// let e = cktile::Error::new(cktile::ErrorKind::TooManyStages { max: 8 });
    /// assert_eq!(e.position(), None);
    /// ```
    pub const fn new(kind: ErrorKind) -> Error {
        Error { kind, at: None }
    }

    /// The same error at a position in a spec text (kept if it has one).
    ///
    /// ```
    /// use cktile::{Error, ErrorKind, Position};
    /// let e = Error::new(ErrorKind::TooManyStages { max: 8 }).at(Position { line: 1, column: 3 });
    /// assert_eq!(e.to_string(), "1:3: a descriptor has at most 8 stages");
    /// ```
    pub const fn at(self, position: Position) -> Error {
        match self.at {
            Some(_) => self,
            None => Error { kind: self.kind, at: Some(position) },
        }
    }

    /// What went wrong.
    ///
    /// ```
    /// # use cktile::{Error, ErrorKind};
    /// let e = Error::new(ErrorKind::TooManyStages { max: 8 });
    /// assert!(matches!(e.kind(), ErrorKind::TooManyStages { .. }));
    /// ```
    pub const fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// Where in the spec text, for errors found while reading one.
    ///
    /// ```
    /// let e = cktile::spec::parse("naive((4),(1)) | bogus()").unwrap_err();
    /// assert_eq!(e.position().map(|p| p.column), Some(18));
    /// ```
    pub const fn position(&self) -> Option<Position> {
        self.at
    }

    /// A fixed sentence for `const` panics (which cannot format numbers);
    /// [`Display`](fmt::Display) gives the values.
    ///
    /// ```
    /// let e = cktile::Error::new(cktile::ErrorKind::TooManyStages { max: 8 });
    /// assert!(e.summary().starts_with("cktile: "));
    /// ```
    pub const fn summary(&self) -> &'static str {
        match &self.kind {
            ErrorKind::Transform { source, .. } => source.summary(),
            ErrorKind::TooManyStages { .. } => "cktile: a descriptor has at most MAX_STAGES (8) stages",
            ErrorKind::TooManyItems { .. } => {
                "cktile: a transform_tensor_descriptor call has at most MAX_ITEMS (8) transforms"
            }
            ErrorKind::TooManyDims { .. } => "cktile: a descriptor has at most MAX_DIMS (8) top dimensions",
            ErrorKind::IdCount { .. } => {
                "cktile: an id list's length differs from its transform's number of dimensions on that side"
            }
            ErrorKind::IdOutOfRange { .. } => "cktile: an id names a dimension that does not exist",
            ErrorKind::IdRepeated { .. } => "cktile: the id lists are not a permutation: an id appears twice",
            ErrorKind::IdMissing { .. } => {
                "cktile: the id lists are not a permutation: a dimension is named by no id list"
            }
            ErrorKind::ListCount { .. } => {
                "cktile: transform_tensor_descriptor needs one lower and one upper id list per transform"
            }
            ErrorKind::LengthMismatch { .. } => "cktile: lengths and strides differ in number",
            ErrorKind::Overflow { .. } => "cktile: the element space overflows a signed 64-bit index",
            ErrorKind::CoordinateArity { .. } => "cktile: the coordinate has the wrong number of dimensions",
            ErrorKind::NotTwoDimensional { .. } => "cktile: access patterns address a 2-D (rows, cols) tile",
            ErrorKind::CoordinateOutOfRange { .. } => "cktile: the coordinate is outside the top lengths",
            ErrorKind::TooLarge { .. } => "cktile: the tile is too large to enumerate",
            ErrorKind::LayoutParameter { .. } => "cktile: a layout parameter is outside its valid range",
            ErrorKind::MissingParameter { .. } => "cktile: a catalogue entry needs a parameter that was not given",
            ErrorKind::ElementTypeConflict { .. } => {
                "cktile: a catalogue entry's element type differs from the one asked for"
            }
            ErrorKind::MissingElementType { .. } => "cktile: the layout carries no element type and none was given",
            ErrorKind::InvalidName { .. } => "cktile: the name cannot prefix generated C++ functions",
            ErrorKind::NotOnArch { .. } => "cktile: this does not run on the chip named",
            ErrorKind::Unsupported { .. } => "cktile: the chip does not have this instruction",
            ErrorKind::InvalidOp { .. } => "cktile: no chip has this instruction",
            ErrorKind::SharedCapacity { .. } => "cktile: the layout does not fit the chip's shared memory",
            ErrorKind::TooManyLanes { .. } => "cktile: more lane addresses than the chip has lanes",
            ErrorKind::Misaligned { .. } => "cktile: a lane's address is not aligned to its access",
            ErrorKind::OutsideTile { .. } => "cktile: an access pattern leaves the tile",
            ErrorKind::VectorNotContiguous { .. } => "cktile: a lane's vector is not contiguous in the layout",
            ErrorKind::PatternOp { .. } => "cktile: the access pattern cannot issue this instruction",
            ErrorKind::Syntax { .. } => "cktile: spec syntax error",
            ErrorKind::UnknownName { .. } => "cktile: unknown name in spec",
            ErrorKind::Arity { .. } => "cktile: wrong number of arguments in spec",
            ErrorKind::NumberRange { .. } => "cktile: number out of range in spec",
            ErrorKind::Adaptor { problem } => problem.summary(),
            ErrorKind::Encoding { problem } => problem.summary(),
            #[cfg(feature = "alloc")]
            ErrorKind::CompactEncoding { problem } => problem.summary(),
        }
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Error {
        Error::new(kind)
    }
}

impl fmt::Display for Error {
    /// The position, if any, then the message of the kind's group.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(at) = self.at {
            write!(f, "{at}: ")?;
        }
        match self.kind {
            ErrorKind::Transform { source, .. } => write!(f, "{source}"),
            ErrorKind::Adaptor { problem } => write!(f, "{problem}"),
            ErrorKind::Encoding { problem } => write!(f, "{problem}"),
            #[cfg(feature = "alloc")]
            ErrorKind::CompactEncoding { problem } => {
                write!(f, "{}", crate::distribution::compact::CompactProblem(problem))
            }
            ErrorKind::TooManyStages { .. }
            | ErrorKind::TooManyItems { .. }
            | ErrorKind::TooManyDims { .. }
            | ErrorKind::LengthMismatch { .. }
            | ErrorKind::Overflow { .. } => size_message(f, &self.kind),
            ErrorKind::IdCount { .. }
            | ErrorKind::IdOutOfRange { .. }
            | ErrorKind::IdRepeated { .. }
            | ErrorKind::IdMissing { .. }
            | ErrorKind::ListCount { .. } => id_message(f, &self.kind),
            ErrorKind::CoordinateArity { .. }
            | ErrorKind::CoordinateOutOfRange { .. }
            | ErrorKind::TooLarge { .. }
            | ErrorKind::NotTwoDimensional { .. } => coordinate_message(f, &self.kind),
            ErrorKind::LayoutParameter { .. }
            | ErrorKind::MissingParameter { .. }
            | ErrorKind::ElementTypeConflict { .. }
            | ErrorKind::MissingElementType { .. }
            | ErrorKind::InvalidName { .. } => layout_message(f, &self.kind),
            ErrorKind::NotOnArch { .. }
            | ErrorKind::Unsupported { .. }
            | ErrorKind::InvalidOp { .. }
            | ErrorKind::SharedCapacity { .. }
            | ErrorKind::TooManyLanes { .. }
            | ErrorKind::Misaligned { .. } => chip_message(f, &self.kind),
            ErrorKind::OutsideTile { .. } | ErrorKind::VectorNotContiguous { .. } | ErrorKind::PatternOp { .. } => {
                pattern_message(f, &self.kind)
            }
            ErrorKind::Syntax { .. }
            | ErrorKind::UnknownName { .. }
            | ErrorKind::Arity { .. }
            | ErrorKind::NumberRange { .. } => spec_message(f, &self.kind),
        }
    }
}

/// A kind that [`Error`]'s `Display` sends to another group (never passed
/// to a group's function): its fixed [`summary`](Error::summary).
fn other_group(f: &mut fmt::Formatter<'_>, kind: &ErrorKind) -> fmt::Result {
    f.write_str(Error::new(*kind).summary())
}

/// Limits on a descriptor's size: stages, transforms, dimensions, lengths
/// and strides, the element space.
fn size_message(f: &mut fmt::Formatter<'_>, kind: &ErrorKind) -> fmt::Result {
    match *kind {
        ErrorKind::TooManyStages { max } => write!(f, "a descriptor has at most {max} stages"),
        ErrorKind::TooManyItems { given, max } => {
            write!(f, "a transform stage has {given} transforms; at most {max} are supported")
        }
        ErrorKind::TooManyDims { given, max } => {
            write!(f, "the stage produces {given} top dimensions; at most {max} are supported")
        }
        ErrorKind::LengthMismatch { function, first, second } => {
            write!(f, "{function}: {first} lengths but {second} strides; give one stride per length")
        }
        ErrorKind::Overflow { quantity, value } => write!(
            f,
            "the {quantity} is {}, past the largest signed 64-bit index {}; use smaller lengths",
            cktile_transforms::Wide(value),
            i64::MAX
        ),
        _ => other_group(f, kind),
    }
}

/// The top dimensions on `side` of a stage's transforms: the old ones
/// below it, the new ones above.
const fn top_dimension(side: Side) -> &'static str {
    match side {
        Side::Lower => "old top dimension",
        Side::Upper => "new top dimension",
    }
}

/// A stage's id lists: their lengths, ranges, and whether they are a permutation.
fn id_message(f: &mut fmt::Formatter<'_>, kind: &ErrorKind) -> fmt::Result {
    match *kind {
        ErrorKind::IdCount { item, transform, side, expected, found } => write!(
            f,
            "transform {item} ({transform}) has {expected} {side} dimension(s) but its {side} id list has {found}"
        ),
        ErrorKind::IdOutOfRange { item, side, id, count } => write!(
            f,
            "transform {item}: {side} id {id} is out of range; there are {count} {}s (ids 0..{count})",
            top_dimension(side)
        ),
        ErrorKind::IdRepeated { side, id } => {
            write!(f, "{side} ids are not a permutation: {id} appears more than once")
        }
        ErrorKind::IdMissing { side, id } => write!(
            f,
            "{side} ids are not a permutation: {} {id} is not named (each must appear exactly once)",
            top_dimension(side)
        ),
        ErrorKind::ListCount { transforms, lower, upper } => write!(
            f,
            "{transforms} transform(s) but {lower} lower and {upper} upper id list(s); give one of each per transform"
        ),
        _ => other_group(f, kind),
    }
}

/// Coordinates given to a descriptor, and descriptors too large or of the
/// wrong rank for what is asked of them.
fn coordinate_message(f: &mut fmt::Formatter<'_>, kind: &ErrorKind) -> fmt::Result {
    match *kind {
        ErrorKind::NotTwoDimensional { dims } => write!(
            f,
            "access patterns address a 2-D tile (rows, cols); this descriptor has {dims} top dimension(s) \
             (merge or slice it down to two)"
        ),
        ErrorKind::CoordinateArity { expected, found } => {
            write!(f, "the coordinate has {found} dimension(s); the descriptor has {expected}")
        }
        ErrorKind::CoordinateOutOfRange { dim, value, length } => {
            write!(f, "coordinate dimension {dim} is {value}; it must be in [0, {length})")
        }
        ErrorKind::TooLarge { size, limit } => write!(
            f,
            "the descriptor has {size} coordinates, more than the {limit} that cktile enumerates for it; \
             check a slice of it instead (wrap it in a slice transform) or a smaller tile"
        ),
        _ => other_group(f, kind),
    }
}

/// Catalogue entries' parameters and element types, and the names of
/// generated code.
fn layout_message(f: &mut fmt::Formatter<'_>, kind: &ErrorKind) -> fmt::Result {
    match *kind {
        ErrorKind::LayoutParameter { layout, parameter, value, requirement } => {
            write!(f, "{layout}: {parameter} = {value}; {requirement}")
        }
        ErrorKind::MissingParameter { layout, parameter } => {
            write!(f, "{layout} needs the parameter `{parameter}` (write {layout}:{parameter}=VALUE,...)")
        }
        ErrorKind::ElementTypeConflict { layout, entry, entry_bytes, given, given_bytes } => write!(
            f,
            "{layout} is written with {} ({entry_bytes}-byte elements) but the element type asked for is {} \
             ({given_bytes}-byte elements); drop one or make them agree",
            entry.as_str(),
            given.as_str()
        ),
        ErrorKind::MissingElementType { layout } => write!(
            f,
            "`{}` carries no element type, and the element size decides the byte addresses; name one \
             (fp8/int8, fp16/bf16, fp32/tf32, fp64 or a byte count: --dtype on the command line, or dtype=... \
             in a catalogue entry)",
            layout.as_str()
        ),
        ErrorKind::InvalidName { problem: NameProblem::Empty, .. } => {
            write!(f, "the name of the generated functions is empty; expected {IDENT_RULE}")
        }
        ErrorKind::InvalidName { name, problem } => {
            write!(f, "`{}` cannot name the generated functions: {problem}; expected {}", name.as_str(), IDENT_RULE)
        }
        _ => other_group(f, kind),
    }
}

/// Chips and their instructions: what runs where, shared-memory capacity,
/// lanes and alignment.
fn chip_message(f: &mut fmt::Formatter<'_>, kind: &ErrorKind) -> fmt::Result {
    match *kind {
        ErrorKind::NotOnArch { what, arch, valid } => write!(f, "{what} does not run on {arch}; {valid}"),
        ErrorKind::Unsupported { op, arch } => write!(
            f,
            "{arch} has no {op} instruction; use ds_* on the AMD chips (ds_read_b64_tr_* on gfx950 only) and \
             ld/st.shared, ldmatrix, cp.async (and stmatrix on sm90) on sm80/sm90"
        ),
        ErrorKind::InvalidOp { op, valid } => {
            write!(f, "no chip has the instruction {op:?}; the instructions are: {valid}")
        }
        ErrorKind::SharedCapacity { arch, bytes, capacity } => write!(
            f,
            "the layout spans {bytes} bytes, more than the {capacity} bytes of shared memory one workgroup can \
             use on {arch}; use a smaller tile or fewer buffers"
        ),
        ErrorKind::TooManyLanes { given, wave } => {
            write!(f, "{given} lane addresses given; the chip has {wave} lanes per wave")
        }
        ErrorKind::Misaligned { lane, address, alignment } => {
            write!(f, "lane {lane}: address {address} is not a multiple of {alignment}, the access's alignment")
        }
        _ => other_group(f, kind),
    }
}

/// Access patterns: the tile they address, the vectors they move, the
/// instructions they issue.
fn pattern_message(f: &mut fmt::Formatter<'_>, kind: &ErrorKind) -> fmt::Result {
    match *kind {
        ErrorKind::OutsideTile { instruction, lane, coordinate } => write!(
            f,
            "instruction {instruction}, lane {lane}: the pattern's coordinate {coordinate:?} is outside the tile (or padding)"
        ),
        ErrorKind::VectorNotContiguous { op, width, instruction, lane, coordinate: [r, c], run, widest } => write!(
            f,
            "{op} moves {width} contiguous elements per lane, but lane {lane} of instruction {instruction} reads \
             ({r}, {c}..={}), whose offsets in this layout are contiguous for {run} element(s) only; a CK tile \
             window would issue narrower accesses: the widest that is contiguous for every lane is {widest} \
             element(s) ({} bytes)",
            c.saturating_add(width as i64 - 1),
            op.bytes_per_lane() * widest as u64 / width.max(1) as u64
        ),
        ErrorKind::PatternOp { pattern, given: None, expected } => {
            write!(f, "the `{pattern}` pattern needs an instruction (--op); give one of: {expected}")
        }
        ErrorKind::PatternOp { pattern, given: Some(op), expected } => {
            write!(f, "the `{pattern}` pattern cannot issue {op}; it takes {expected}")
        }
        _ => other_group(f, kind),
    }
}

/// Reading a spec text: its syntax, names, argument counts and numbers.
fn spec_message(f: &mut fmt::Formatter<'_>, kind: &ErrorKind) -> fmt::Result {
    match *kind {
        ErrorKind::Syntax { expected, found } if found.as_str().is_empty() => {
            write!(f, "expected {expected}, found the end of the spec")
        }
        ErrorKind::Syntax { expected, found } => write!(f, "expected {expected}, found `{}`", found.as_str()),
        ErrorKind::UnknownName { name, valid } => {
            write!(f, "unknown name `{}`; expected one of: {valid}", name.as_str())
        }
        ErrorKind::Arity { name, expected, found } => {
            write!(f, "{name} takes {expected}, but {found} argument(s) were given")
        }
        ErrorKind::NumberRange { number, range } => {
            write!(f, "number {} is out of range; expected {range}", number.as_str())
        }
        _ => other_group(f, kind),
    }
}

impl core::error::Error for Error {}
