//! The descriptor layer's problems: a transform's parameters, a stage's
//! id lists, a descriptor's size limits and the coordinates given to it.

use super::Numbers;
use core::fmt;

/// Which side of a transform an id list belongs to.
///
/// ```
/// use cktile_core::{Descriptor, DescriptorProblem, ErrorKind, Item, Side, Transform};
/// // Two items both read dimension 0.
/// let rows = Item::new(Transform::pass_through(4).unwrap(), &[0], &[0]).unwrap();
/// let cols = Item::new(Transform::pass_through(8).unwrap(), &[0], &[1]).unwrap();
/// let e = Descriptor::packed(&[4, 8]).unwrap().transform(&[rows, cols]).unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::Descriptor(DescriptorProblem::IdRepeated { side: Side::Lower, .. })));
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

/// Which part of a base's lengths and strides breaks its guaranteed
/// last-dimension vector: the `fault` of
/// [`DescriptorProblem::VectorGuarantee`].
///
/// With a guaranteed length `V > 1`, the indices `[j*V, (j+1)*V)` of the
/// last dimension are read as one vector of `V` elements, `S` apart in
/// memory (the guaranteed stride `S`), whatever the other indices. That
/// holds when the last length is a multiple of `V` (no vector runs past
/// the end of its row) and `S` is the last dimension's stride (the
/// elements are where the vector reads them). The other strides are free,
/// as in CK: the guarantee is contiguity, not where a vector starts.
///
/// ```
/// use cktile_core::{DescriptorProblem, ErrorKind, VectorFault};
/// let e = cktile_core::Descriptor::naive_with_vector(&[64, 70], &[72, 1], cktile_core::Vector::new(8, 1)).unwrap_err();
/// let ErrorKind::Descriptor(DescriptorProblem::VectorGuarantee { fault, .. }) = e.kind() else { unreachable!() };
/// assert_eq!(*fault, VectorFault::LastLength { dim: 1, length: 70 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum VectorFault {
    /// The guaranteed length is below 1 (a vector holds one element or
    /// more; `None`, CK's `-1`, guarantees nothing).
    Length,
    /// The guaranteed stride is negative (no dimension's stride is).
    NegativeStride {
        /// The guaranteed stride.
        stride: i64,
    },
    /// The last dimension's length is not a multiple of the vector length:
    /// the last vector of each row would read past the row's end.
    LastLength {
        /// The last dimension.
        dim: usize,
        /// Its length.
        length: i64,
    },
    /// The guaranteed stride is not the last dimension's stride: a vector
    /// would read other memory than the elements it holds.
    Stride {
        /// The last dimension.
        dim: usize,
        /// Its stride.
        stride: i64,
        /// The guaranteed stride.
        guaranteed: i64,
    },
}

/// What is wrong with a descriptor, its construction or a coordinate given
/// to it: [`ErrorKind::Descriptor`](crate::ErrorKind::Descriptor).
///
/// ```
/// use cktile_core::{DescriptorProblem, ErrorKind};
/// let e = cktile_core::Descriptor::packed(&[4, 8]).unwrap().try_calculate_offset(&[4, 0]).unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::Descriptor(DescriptorProblem::CoordinateOutOfRange { dim: 0, value: 4, length: 4 })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DescriptorProblem {
    /// A transform's parameters are invalid, or do not fit the dimensions it
    /// is applied to.
    Transform {
        /// The transform's position in its `transform(...)` stage (0 for base descriptors).
        item: usize,
        /// The transform-level error.
        source: cktile_transforms::Error,
    },
    /// A base's guaranteed last-dimension vector (CK's
    /// `GuaranteedLastDimensionVectorLength` and `...Stride`) that its
    /// lengths and strides do not keep: a tile window reading it would read
    /// past a row's end, or at the wrong stride.
    /// [`VectorFault`] says which value breaks it.
    ///
    /// ```
    /// use cktile_core::{Descriptor, DescriptorProblem, ErrorKind, Vector};
    /// let e = Descriptor::naive_with_vector(&[64, 70], &[72, 1], Vector::new(8, 1)).unwrap_err();
    /// assert!(matches!(e.kind(), ErrorKind::Descriptor(DescriptorProblem::VectorGuarantee { length: 8, keeps: 2, .. })));
    /// assert!(e.to_string().contains("length 70, not a multiple of the guaranteed vector length 8"), "{e}");
    /// ```
    VectorGuarantee {
        /// The base's function (`naive`, `packed`).
        function: &'static str,
        /// The guaranteed vector length (-1, CK's value, when none is
        /// guaranteed; the guaranteed stride is in `fault` when it is the
        /// problem).
        length: i64,
        /// What breaks it.
        fault: VectorFault,
        /// The largest power-of-two vector length these lengths keep: the
        /// largest power of two dividing the last length.
        keeps: i64,
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
    /// A typed descriptor (or padded view) or a typed adaptor built in a GPU
    /// kernel (amdgpu or nvptx) was refused. Its cause is not computed
    /// there: naming it takes hundreds of instructions, and a kernel prints
    /// no message. [`Built::check`](crate::typed::Built::check) on the same values
    /// (on the host, say) names it; on every other target the error names
    /// it itself.
    ///
    /// ```
    /// let p = cktile_core::DescriptorProblem::RefusedOnDevice;
    /// assert!(p.to_string().contains("Built::check"));
    /// ```
    RefusedOnDevice,
    /// A tile is too large to enumerate or analyse in bounded time and memory.
    TooLarge {
        /// Its number of coordinates.
        size: u64,
        /// The most that are enumerated for it.
        limit: u64,
    },
}

impl DescriptorProblem {
    /// A fixed sentence for `const` panics; [`Display`](fmt::Display) gives
    /// the values.
    ///
    /// ```
    /// use cktile_core::DescriptorProblem;
    /// let p = DescriptorProblem::TooManyStages { max: 8 };
    /// assert_eq!(p.summary(), "cktile: a descriptor has at most MAX_STAGES (8) stages");
    /// ```
    pub const fn summary(&self) -> &'static str {
        match self {
            DescriptorProblem::Transform { source, .. } => source.summary(),
            DescriptorProblem::VectorGuarantee { fault, .. } => match fault {
                VectorFault::Length => "cktile: the guaranteed vector length must be at least 1",
                VectorFault::NegativeStride { .. } => "cktile: the guaranteed vector stride is negative",
                VectorFault::LastLength { .. } => {
                    "cktile: the last dimension's length is not a multiple of the guaranteed vector length"
                }
                VectorFault::Stride { .. } => "cktile: the guaranteed vector stride is not the last dimension's stride",
            },
            DescriptorProblem::TooManyStages { .. } => "cktile: a descriptor has at most MAX_STAGES (8) stages",
            DescriptorProblem::TooManyItems { .. } => {
                "cktile: a transform_tensor_descriptor call has at most MAX_ITEMS (8) transforms"
            }
            DescriptorProblem::TooManyDims { .. } => "cktile: a descriptor has at most MAX_DIMS (8) top dimensions",
            DescriptorProblem::IdCount { .. } => {
                "cktile: an id list's length differs from its transform's number of dimensions on that side"
            }
            DescriptorProblem::IdOutOfRange { .. } => "cktile: an id names a dimension that does not exist",
            DescriptorProblem::IdRepeated { .. } => "cktile: the id lists are not a permutation: an id appears twice",
            DescriptorProblem::IdMissing { .. } => {
                "cktile: the id lists are not a permutation: a dimension is named by no id list"
            }
            DescriptorProblem::ListCount { .. } => {
                "cktile: transform_tensor_descriptor needs one lower and one upper id list per transform"
            }
            DescriptorProblem::LengthMismatch { .. } => "cktile: lengths and strides differ in number",
            DescriptorProblem::Overflow { .. } => "cktile: the element space overflows a signed 64-bit index",
            DescriptorProblem::CoordinateArity { .. } => "cktile: the coordinate has the wrong number of dimensions",
            DescriptorProblem::NotTwoDimensional { .. } => "cktile: access patterns address a 2-D (rows, cols) tile",
            DescriptorProblem::CoordinateOutOfRange { .. } => "cktile: the coordinate is outside the top lengths",
            DescriptorProblem::TooLarge { .. } => "cktile: the tile is too large to enumerate",
            DescriptorProblem::RefusedOnDevice => {
                "cktile: a typed descriptor or adaptor was refused without its cause, as in a GPU kernel; \
                 call Built::check on the same values (on the host) for it"
            }
        }
    }

    /// Limits on a descriptor's size: stages, transforms, dimensions, lengths
    /// and strides, the element space.
    fn size_message(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DescriptorProblem::TooManyStages { max } => write!(f, "a descriptor has at most {max} stages"),
            DescriptorProblem::TooManyItems { given, max } => {
                write!(f, "a transform stage has {given} transforms; at most {max} are supported")
            }
            DescriptorProblem::TooManyDims { given, max } => {
                write!(f, "the stage produces {given} top dimensions; at most {max} are supported")
            }
            DescriptorProblem::LengthMismatch { function, first, second } => {
                write!(f, "{function}: {first} lengths but {second} strides; give one stride per length")
            }
            DescriptorProblem::Overflow { quantity, value } if value < 0 => write!(
                f,
                "the {quantity} reaches {}, below -{}, the most negative signed 64-bit index it may use; use smaller lengths, strides or pads",
                cktile_transforms::Wide(value),
                i64::MAX
            ),
            DescriptorProblem::Overflow { quantity, value } => write!(
                f,
                "the {quantity} is {}, past the largest signed 64-bit index {}; use smaller lengths",
                cktile_transforms::Wide(value),
                i64::MAX
            ),
            _ => f.write_str(self.summary()),
        }
    }

    /// A stage's id lists: their lengths, ranges, and whether they are a permutation.
    fn id_message(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DescriptorProblem::IdCount { item, transform, side, expected, found } => write!(
                f,
                "transform {item} ({transform}) has {expected} {side} dimension(s) but its {side} id list has {found}"
            ),
            DescriptorProblem::IdOutOfRange { item, side, id, count } => write!(
                f,
                "transform {item}: {side} id {id} is out of range; there are {count} {}s (ids 0..{count})",
                top_dimension(side)
            ),
            DescriptorProblem::IdRepeated { side, id } => {
                write!(f, "{side} ids are not a permutation: {id} appears more than once")
            }
            DescriptorProblem::IdMissing { side, id } => write!(
                f,
                "{side} ids are not a permutation: {} {id} is not named (each must appear exactly once)",
                top_dimension(side)
            ),
            DescriptorProblem::ListCount { transforms, lower, upper } => write!(
                f,
                "{transforms} transform(s) but {lower} lower and {upper} upper id list(s); give one of each per transform"
            ),
            _ => f.write_str(self.summary()),
        }
    }

    /// Coordinates given to a descriptor, and descriptors too large or of the
    /// wrong rank for what is asked of them.
    fn coordinate_message(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DescriptorProblem::NotTwoDimensional { dims } => write!(
                f,
                "access patterns address a 2-D tile (rows, cols); this descriptor has {dims} top dimension(s) \
                 (merge or slice it down to two)"
            ),
            DescriptorProblem::CoordinateArity { expected, found } => {
                write!(f, "the coordinate has {found} dimension(s); the descriptor has {expected}")
            }
            DescriptorProblem::CoordinateOutOfRange { dim, value, length } => {
                write!(f, "coordinate dimension {dim} is {value}; it must be in [0, {length})")
            }
            DescriptorProblem::TooLarge { size, limit } => write!(
                f,
                "the descriptor has {size} coordinates, more than the {limit} that cktile enumerates for it; \
                 check a slice of it instead (wrap it in a slice transform) or a smaller tile"
            ),
            _ => f.write_str(self.summary()),
        }
    }
}

impl DescriptorProblem {
    /// The numbers the problem names, each with what it is, for messages
    /// that cannot format (a failed compile-time check prints them after
    /// [`summary`](Self::summary)); none for the problems whose summary
    /// or overflowing value says it all.
    ///
    /// ```
    /// use cktile_core::{DescriptorProblem, VectorFault};
    /// let p = DescriptorProblem::VectorGuarantee {
    ///     function: "naive",
    ///     length: 8,
    ///     fault: VectorFault::LastLength { dim: 1, length: 70 },
    ///     keeps: 2,
    /// };
    /// assert_eq!(p.numbers().as_slice(), &[("vector length", 8), ("dimension", 1), ("length", 70)]);
    /// assert!(DescriptorProblem::TooManyStages { max: 8 }.numbers().as_slice().is_empty());
    /// ```
    pub const fn numbers(&self) -> Numbers {
        let n = Numbers::EMPTY;
        match *self {
            DescriptorProblem::VectorGuarantee { length, fault, .. } => {
                let n = n.with("vector length", length);
                match fault {
                    VectorFault::Length => n,
                    VectorFault::NegativeStride { stride } => n.with("vector stride", stride),
                    VectorFault::LastLength { dim, length } => n.with("dimension", dim as i64).with("length", length),
                    VectorFault::Stride { dim, stride, guaranteed } => {
                        n.with("vector stride", guaranteed).with("dimension", dim as i64).with("stride", stride)
                    }
                }
            }
            _ => n,
        }
    }

    /// A guaranteed vector its base's lengths and strides do not keep:
    /// the value that breaks it, why, and what would be valid.
    fn vector_message(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let DescriptorProblem::VectorGuarantee { function, length: v, fault, keeps } = *self else {
            return f.write_str(self.summary());
        };
        match fault {
            VectorFault::Length => write!(
                f,
                "{function}: the guaranteed vector length is {v}; it must be at least 1 (a vector holds one element \
                 or more; the largest power of two these lengths keep is {keeps})"
            ),
            VectorFault::NegativeStride { stride } => write!(
                f,
                "{function}: the guaranteed vector stride is {stride}; it must be non-negative: the last dimension's stride"
            ),
            VectorFault::LastLength { dim, length } => {
                // A last length is positive and `v` above 1 here, so neither wraps.
                let rest = length.checked_rem(v).unwrap_or(0);
                write!(
                    f,
                    "{function}: the last dimension ({dim}) has length {length}, not a multiple of the guaranteed vector \
                     length {v}: the vector at index {} would read {} element(s) past the end of its row",
                    length - rest,
                    v.saturating_sub(rest)
                )?;
                write!(f, "; make it a multiple of {v}, or guarantee a vector length that divides {length}")?;
                if keeps > 1 {
                    write!(f, " (the largest power of two that does is {keeps})")
                } else {
                    write!(f, " (no power of two above 1 does)")
                }
            }
            VectorFault::Stride { dim, stride, guaranteed } => write!(
                f,
                "{function}: the guaranteed vector stride is {guaranteed} but the last dimension ({dim}) has stride \
                 {stride}: the {v} elements of a vector lie {stride} apart, not {guaranteed}; guarantee stride {stride} \
                 (or a vector length of 1)"
            ),
        }
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

impl fmt::Display for DescriptorProblem {
    /// The transform's own message, or that of the problem's group.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DescriptorProblem::Transform { source, .. } => write!(f, "{source}"),
            DescriptorProblem::TooManyStages { .. }
            | DescriptorProblem::TooManyItems { .. }
            | DescriptorProblem::TooManyDims { .. }
            | DescriptorProblem::LengthMismatch { .. }
            | DescriptorProblem::Overflow { .. } => self.size_message(f),
            DescriptorProblem::IdCount { .. }
            | DescriptorProblem::IdOutOfRange { .. }
            | DescriptorProblem::IdRepeated { .. }
            | DescriptorProblem::IdMissing { .. }
            | DescriptorProblem::ListCount { .. } => self.id_message(f),
            DescriptorProblem::CoordinateArity { .. }
            | DescriptorProblem::CoordinateOutOfRange { .. }
            | DescriptorProblem::TooLarge { .. }
            | DescriptorProblem::NotTwoDimensional { .. } => self.coordinate_message(f),
            DescriptorProblem::RefusedOnDevice => f.write_str(self.summary()),
            DescriptorProblem::VectorGuarantee { .. } => self.vector_message(f),
        }
    }
}
