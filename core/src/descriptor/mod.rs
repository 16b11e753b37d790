//! [`Descriptor`]: a tensor descriptor as plain data, and CK Tile's
//! functions that build one.
//!
//! A descriptor is, as in CK, an adaptor ([`Adaptor`]) from its top
//! dimensions to one bottom dimension, the memory, plus the element space
//! size and the base's vector guarantee. It is built from a base (CK's
//! `make_naive_tensor_descriptor` family) and [`Stage`]s (CK's
//! `transform_tensor_descriptor` calls); it keeps where each stage begins,
//! so it prints back as written ([`Descriptor::stages`]). Its offsets are
//! the adaptor's one walk ([`adaptor::walk`](crate::adaptor::walk)). Every
//! method is a `const fn`: a descriptor built in a `const` item is checked at
//! compile time and its offsets are compile-time constants, and the same code
//! serves descriptors built at run time from a spec. The typed (static)
//! descriptors of [`typed`](crate::typed) evaluate through it too.
//!
//! Submodules: [`offset`] (offsets and validity), [`coordinate`] (tensor
//! coordinates and incremental moves), [`vector`] (safe vector lengths),
//! [`inverse`] (offset back to coordinate), [`display`] (spec text),
//! [`bijective`] (the compile-time bijectivity check), [`bounds`] (the
//! range of every value the offset computation produces).

pub mod bijective;
pub mod bounds;
pub mod coordinate;
pub mod display;
pub mod inverse;
pub mod offset;
pub mod static_descriptor;
pub mod typed;
pub mod vector;

use crate::adaptor::Adaptor;
use crate::error::{DescriptorProblem, Error, VectorFault};
pub use crate::stage;
pub(crate) use crate::stage::check_stage_count;
use crate::stage::lists::{IdArray, TransformArray};
pub use crate::stage::{Ids, Item, MAX_ITEMS, MAX_STAGES, Stage};
use cktile_transforms::{Dims, Index, Indices, Transform, Vector};

// `offset::static_offset!` writes out its stage and item slots with
// `static_for!`, which has eight.
const _: () = assert!(MAX_STAGES == 8 && MAX_ITEMS == 8, "static_for! writes out eight slots");

/// How a descriptor's base was made, kept so it prints back as written.
///
/// ```
/// use cktile_core::{Descriptor, Origin};
/// let d = Descriptor::packed(&[4, 8]).unwrap();
/// assert!(matches!(d.origin(), Origin::Packed { .. }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// `make_naive_tensor_descriptor(lengths, strides[, vector length, vector stride])`.
    Naive {
        /// Lengths.
        lengths: Dims,
        /// Strides.
        strides: Dims,
        /// Guaranteed vector length and stride of the last dimension.
        vector: Vector,
    },
    /// `make_naive_tensor_descriptor_with_offset(lengths, strides, offset)`.
    NaiveWithOffset {
        /// Lengths.
        lengths: Dims,
        /// Strides.
        strides: Dims,
        /// Offset added to every element (not part of the element space).
        offset: Index,
    },
    /// `make_naive_tensor_descriptor_packed(lengths[, vector length])`.
    Packed {
        /// Lengths.
        lengths: Dims,
        /// Guaranteed vector length of the last dimension.
        vector_length: Option<Index>,
    },
    /// `make_naive_tensor_descriptor_aligned(lengths, align)`.
    Aligned {
        /// Lengths.
        lengths: Dims,
        /// Alignment of the second-to-last stride.
        align: Index,
    },
}

/// A tensor descriptor: top lengths, the chain of transforms down to one
/// memory offset, the element space size and vector guarantees.
///
/// ```
/// use cktile_core::{Descriptor, Item};
/// use cktile_transforms::Transform;
///
/// // CK Tile's GEMM A LDS tile, M=128, K=64, KPack=8: a packed (8, 128, 8)
/// // block whose K0 index is XORed with the row.
/// const D: Descriptor = {
///     let Ok(d) = Descriptor::naive(&[8, 128, 8], &[8, 64, 1]) else { panic!() };
///     let Ok(xor) = Transform::xor(128, 8) else { panic!() };
///     let Ok(pt) = Transform::pass_through(8) else { panic!() };
///     let Ok(a) = Item::new(xor, &[1, 0], &[1, 0]) else { panic!() };
///     let Ok(b) = Item::new(pt, &[2], &[2]) else { panic!() };
///     let Ok(d) = d.transform(&[a, b]) else { panic!() };
///     let Ok(m) = Transform::merge(&[8, 8]) else { panic!() };
///     let Ok(pm) = Transform::pass_through(128) else { panic!() };
///     let Ok(c) = Item::new(pm, &[1], &[0]) else { panic!() };
///     let Ok(e) = Item::new(m, &[0, 2], &[1]) else { panic!() };
///     let Ok(d) = d.transform(&[c, e]) else { panic!() };
///     d
/// };
/// // A compile-time offset: 64*m + 8*((k/8) ^ (m%8)) + k%8 at (3, 9).
/// const OFFSET: i64 = D.calculate_offset(&[3, 9]);
/// assert_eq!(OFFSET, 64 * 3 + 8 * (1 ^ 3) + 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Descriptor {
    origin: Origin,
    /// The transforms from the top to the one bottom dimension (hidden id
    /// 0, the memory), numbered as CK numbers a descriptor's: each level of
    /// the chain is a run of consecutive hidden ids.
    adaptor: Adaptor,
    /// The first hidden id of each level: level 0 is the bottom, level
    /// `s + 1` the upper side of stage `s`.
    levels: [u8; MAX_STAGES + 1],
    /// One past each stage's last transform in the adaptor.
    stage_ends: [u8; MAX_STAGES],
    n_stages: u8,
    n_base: u8,
    /// The top lengths (the adaptor's, kept at hand).
    lengths: Dims,
    element_space_size: Index,
    guaranteed: Vector,
}

pub(crate) use cktile_transforms::tri;

/// Converts `usize` parameters, naming a value too large for the index type.
#[inline]
pub(crate) const fn dims(values: &[usize]) -> Result<Dims, Error> {
    match Dims::from_usizes(values) {
        Ok(d) => Ok(d),
        Err(e) => Err(Error::transform(e)),
    }
}

const fn single(value: Index) -> Dims {
    Dims::splat(1, value)
}

const fn one_stage(lower: Index, transform: Result<Transform, cktile_transforms::Error>) -> Result<Stage, Error> {
    let t = match transform {
        Ok(t) => t,
        Err(e) => return Err(Error::transform(e)),
    };
    let item = Item::from_ids(t, Ids::first(t.num_lower()), Ids::first(t.num_upper()));
    Stage::new(single(lower), &[item])
}

/// CK's guaranteed last-dimension vector from two user values, refused
/// when either does not fit a signed 64-bit index. Inlined: with its
/// values compile-time constants (as CK's are), it folds away in a kernel.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn guaranteed(length: usize, stride: usize) -> Result<Vector, Error> {
    match Dims::from_usizes(&[length, stride]) {
        Ok(d) => Ok(Vector::new(d.get(0), d.get(1))),
        Err(e) => Err(Error::transform(e)),
    }
}

/// An aligned descriptor's stride that overflows.
#[inline]
const fn stride_overflow(value: i128) -> Error {
    Error::descriptor(DescriptorProblem::Overflow { quantity: "aligned strides", value })
}

/// Refuses a list from [`Dims`] with a negative entry, naming the first
/// (a `usize` list cannot hold one).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn non_negative(values: &Dims, transform: &'static str, parameter: &'static str) -> Result<(), Error> {
    match values.first_negative() {
        Some(position) => Err(Error::transform(cktile_transforms::Error::Negative {
            transform,
            parameter,
            position: Some(position),
            value: values.get(position),
        })),
        None => Ok(()),
    }
}

/// Refuses lengths with a negative or a zero entry, naming the first (as
/// `transform`'s `lengths`).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn positive_lengths(lengths: &Dims, transform: &'static str) -> Result<(), Error> {
    tri!(non_negative(lengths, transform, "lengths"));
    match lengths.first_zero() {
        Some(position) => Err(Error::transform(cktile_transforms::Error::ZeroLength {
            transform,
            parameter: "lengths",
            position: Some(position),
        })),
        None => Ok(()),
    }
}

/// `1 + sum((len - 1) * stride)`, CK Tile's element space of a naive descriptor.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn naive_space(lengths: &Dims, strides: &Dims) -> Result<Index, Error> {
    if lengths.len() != strides.len() {
        return Err(Error::descriptor(DescriptorProblem::LengthMismatch {
            function: "naive",
            first: lengths.len(),
            second: strides.len(),
        }));
    }
    tri!(positive_lengths(lengths, "naive"));
    tri!(non_negative(strides, "naive", "strides"));
    use cktile_transforms::kinds::embed;
    let (l, s) = (lengths.to_array(), strides.to_array());
    // Positive lengths and non-negative strides here: `None` is an overflow.
    match embed::non_negative_largest(&l, &s, lengths.len()) {
        Some(largest) if largest < Index::MAX => Ok(largest + 1),
        _ => {
            let value = embed::wide_largest(&l, &s, lengths.len()).saturating_add(1);
            Err(Error::descriptor(DescriptorProblem::Overflow { quantity: "element space size", value }))
        }
    }
}

/// A descriptor is its own descriptor: what the checks of
/// the tools crate's `check` take, so typed descriptors and runtime ones are
/// checked alike.
///
/// ```
/// let d = cktile_core::Descriptor::packed(&[4]).unwrap();
/// assert_eq!(AsRef::<cktile_core::Descriptor>::as_ref(&d), &d);
/// ```
impl AsRef<Descriptor> for Descriptor {
    fn as_ref(&self) -> &Descriptor {
        self
    }
}

impl Descriptor {
    /// A descriptor of the base stages `base` (the first reads one
    /// dimension, the memory), which then counts them as its base.
    const fn from_base(
        origin: Origin,
        base: &[Stage],
        element_space_size: Index,
        guaranteed: Vector,
    ) -> Result<Descriptor, Error> {
        let bottom = if base.is_empty() { element_space_size } else { base[0].lower_lengths().get(0) };
        let mut d = Descriptor {
            origin,
            adaptor: Adaptor::of_space(bottom),
            levels: [0; MAX_STAGES + 1],
            stage_ends: [0; MAX_STAGES],
            n_stages: 0,
            n_base: 0,
            lengths: Dims::splat(1, bottom),
            element_space_size,
            guaranteed,
        };
        let mut i = 0;
        while i < base.len() {
            d = tri!(d.pushed(&base[i]));
            i += 1;
        }
        d.n_base = d.n_stages;
        Ok(d)
    }

    /// This descriptor with `stage` (validated against its top lengths)
    /// as its last stage.
    const fn pushed(&self, stage: &Stage) -> Result<Descriptor, Error> {
        tri!(check_stage_count(self.n_stages as usize));
        let s = self.n_stages as usize;
        let mut out = *self;
        out.adaptor = tri!(self.adaptor.stacked(stage));
        out.levels[(s + 1) % (MAX_STAGES + 1)] = self.adaptor.num_hidden() as u8;
        out.stage_ends[s % MAX_STAGES] = out.adaptor.items().len() as u8;
        out.n_stages += 1;
        out.lengths = stage.upper_lengths();
        Ok(out)
    }

    /// CK Tile's `make_naive_tensor_descriptor(lengths, strides)`: offset
    /// `sum(idx[i] * stride[i])`, element space `1 + sum((len - 1) * stride)`.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::naive(&[4, 8], &[100, 1]).unwrap();
    /// assert_eq!(d.element_space_size(), 308);
    /// assert_eq!(d.calculate_offset(&[2, 5]), 205);
    /// ```
    pub const fn naive(lengths: &[usize], strides: &[usize]) -> Result<Descriptor, Error> {
        Descriptor::naive_dims(tri!(dims(lengths)), tri!(dims(strides)), Vector::UNKNOWN)
    }

    /// [`naive`](Self::naive) with CK's guaranteed vector length and stride
    /// of the last dimension (its `GuaranteedLastDimensionVectorLength/Stride`;
    /// `None` is CK's `-1`, not guaranteed).
    ///
    /// A guarantee the lengths and strides do not keep is refused
    /// ([`DescriptorProblem::VectorGuarantee`]), where CK refuses it only in
    /// its kernels' host-side `IsSupportedArgument`, if at all: a length
    /// `V` above 1 needs the last length a multiple of `V` (no vector runs
    /// past its row's end), the guaranteed stride (when given) equal to
    /// the last stride. The other strides are free, as in CK: the
    /// guarantee says a vector's elements are contiguous, not that it
    /// starts aligned (row stride 44 with K = 40 keeps 8-element vectors).
    /// A length below 1 and a negative stride are refused too; a length of
    /// 1 (or none) promises nothing more.
    ///
    /// ```
    /// use cktile_transforms::Vector;
    /// let d = cktile_core::Descriptor::naive_with_vector(&[8, 128, 8], &[8, 64, 1], Vector::new(8, 1)).unwrap();
    /// assert_eq!(d.top_vectors()[2], Vector::new(8, 1));
    /// // K = 70 is no multiple of 8: the vector at k = 64 would read past the row.
    /// let e = cktile_core::Descriptor::naive_with_vector(&[128, 70], &[72, 1], Vector::new(8, 1)).unwrap_err();
    /// assert!(e.to_string().contains("length 70, not a multiple of the guaranteed vector length 8"), "{e}");
    /// // Row stride 44 with K = 40: every vector of 8 lies inside its row.
    /// assert!(cktile_core::Descriptor::naive_with_vector(&[128, 40], &[44, 1], Vector::new(8, 1)).is_ok());
    /// ```
    pub const fn naive_with_vector(lengths: &[usize], strides: &[usize], vector: Vector) -> Result<Descriptor, Error> {
        Descriptor::naive_dims(tri!(dims(lengths)), tri!(dims(strides)), vector)
    }

    /// CK Tile's `make_naive_tensor_descriptor(lengths, strides,
    /// number<VectorLength>, number<VectorStride>)` with the guaranteed
    /// vector as two numbers ([`naive_with_vector`](Self::naive_with_vector)
    /// takes a [`Vector`]), as the typed
    /// [`make_naive_tensor_descriptor_with_vector`](crate::typed::make_naive_tensor_descriptor_with_vector)
    /// takes it, with the same checks in the same order.
    ///
    /// ```
    /// use cktile_transforms::Vector;
    /// let d = cktile_core::Descriptor::naive_with_guaranteed(&[128, 64], &[72, 1], 8, 1)?;
    /// assert_eq!(d, cktile_core::Descriptor::naive_with_vector(&[128, 64], &[72, 1], Vector::new(8, 1))?);
    /// assert!(cktile_core::Descriptor::naive_with_guaranteed(&[128, 64], &[72, 1], usize::MAX, 1).is_err());
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn naive_with_guaranteed(
        lengths: &[usize],
        strides: &[usize],
        vector_length: usize,
        vector_stride: usize,
    ) -> Result<Descriptor, Error> {
        let vector = tri!(guaranteed(vector_length, vector_stride));
        Descriptor::naive_with_vector(lengths, strides, vector)
    }

    /// [`naive_with_vector`](Self::naive_with_vector) from [`Dims`].
    ///
    /// ```
    /// use cktile_transforms::{Dims, Vector};
    /// let l = Dims::from_slice(&[4, 4]).unwrap();
    /// let s = Dims::from_slice(&[4, -1]).unwrap();
    /// assert!(cktile_core::Descriptor::naive_dims(l, s, Vector::UNKNOWN).is_err());
    /// ```
    pub const fn naive_dims(lengths: Dims, strides: Dims, vector: Vector) -> Result<Descriptor, Error> {
        let (space, embed) = tri!(naive_base(&lengths, &strides));
        tri!(vector_fits("naive", &lengths, Some(&strides), vector));
        let stage = tri!(one_stage(space, Ok(embed)));
        Descriptor::from_base(Origin::Naive { lengths, strides, vector }, &[stage], space, vector)
    }

    /// CK Tile's `make_naive_tensor_descriptor_with_offset`: a naive
    /// descriptor whose every offset is shifted by `offset` (which is not
    /// counted in the element space).
    ///
    /// ```
    /// let d = cktile_core::Descriptor::naive_with_offset(&[4, 8], &[8, 1], 100).unwrap();
    /// assert_eq!((d.calculate_offset(&[1, 2]), d.element_space_size()), (110, 32));
    /// ```
    pub const fn naive_with_offset(lengths: &[usize], strides: &[usize], offset: usize) -> Result<Descriptor, Error> {
        let offset = match Dims::from_usizes(&[offset]) {
            Ok(d) => d.get(0),
            Err(e) => return Err(Error::transform(e)),
        };
        Descriptor::naive_with_offset_dims(tri!(dims(lengths)), tri!(dims(strides)), offset)
    }

    /// [`naive_with_offset`](Self::naive_with_offset) from [`Dims`].
    ///
    /// ```
    /// use cktile_transforms::Dims;
    /// let l = Dims::from_slice(&[4]).unwrap();
    /// assert!(cktile_core::Descriptor::naive_with_offset_dims(l, l, -1).is_err());
    /// ```
    pub const fn naive_with_offset_dims(lengths: Dims, strides: Dims, offset: Index) -> Result<Descriptor, Error> {
        let (space, bottom, shift, embed) = tri!(with_offset_base(&lengths, &strides, offset));
        let shift = tri!(one_stage(bottom, Ok(shift)));
        let embed = tri!(one_stage(space, Ok(embed)));
        Descriptor::from_base(
            Origin::NaiveWithOffset { lengths, strides, offset },
            &[shift, embed],
            space,
            Vector::UNKNOWN,
        )
    }

    /// CK Tile's `make_naive_tensor_descriptor_packed(lengths)`: row-major,
    /// contiguous; element space is the product of the lengths.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert_eq!((d.calculate_offset(&[1, 2]), d.element_space_size()), (10, 32));
    /// ```
    pub const fn packed(lengths: &[usize]) -> Result<Descriptor, Error> {
        Descriptor::packed_dims(tri!(dims(lengths)), None)
    }

    /// [`packed`](Self::packed) from [`Dims`], with CK's optional guaranteed
    /// vector length of the last dimension (the last stride is always 1).
    /// A guaranteed length must be at least 1 and divide the last length
    /// (as [`naive_with_vector`](Self::naive_with_vector)'s; the other
    /// strides are multiples of the last length).
    ///
    /// ```
    /// use cktile_transforms::{Dims, Vector};
    /// let d = cktile_core::Descriptor::packed_dims(Dims::from_slice(&[4, 8]).unwrap(), Some(4)).unwrap();
    /// assert_eq!(d.top_vectors()[1], Vector::new(4, 1));
    /// assert!(cktile_core::Descriptor::packed_dims(Dims::from_slice(&[4, 6]).unwrap(), Some(4)).is_err());
    /// ```
    pub const fn packed_dims(lengths: Dims, vector_length: Option<Index>) -> Result<Descriptor, Error> {
        let (space, t) = tri!(packed_base(&lengths));
        let guaranteed = Vector { length: vector_length, stride: Some(1) };
        // Packed strides: the last is 1, every other a multiple of the last length.
        tri!(vector_fits("packed", &lengths, None, guaranteed));
        let stage = tri!(one_stage(space, Ok(t)));
        Descriptor::from_base(Origin::Packed { lengths, vector_length }, &[stage], space, guaranteed)
    }

    /// CK Tile's `make_naive_tensor_descriptor_aligned(lengths, align)`: the
    /// second-to-last stride is the last length rounded up to a multiple of
    /// `align`; the last stride is 1; the others are products of that.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::aligned(&[4, 6], 8).unwrap();
    /// assert_eq!(d.calculate_offset(&[1, 0]), 8);
    /// assert_eq!(d.element_space_size(), 1 + 3 * 8 + 5);
    /// ```
    pub const fn aligned(lengths: &[usize], align: usize) -> Result<Descriptor, Error> {
        Descriptor::aligned_dims(tri!(dims(lengths)), align)
    }

    /// [`aligned`](Self::aligned) from [`Dims`].
    ///
    /// ```
    /// use cktile_transforms::Dims;
    /// assert!(cktile_core::Descriptor::aligned_dims(Dims::from_slice(&[4, 6]).unwrap(), 0).is_err());
    /// ```
    pub const fn aligned_dims(lengths: Dims, align: usize) -> Result<Descriptor, Error> {
        let strides = tri!(aligned_strides(&lengths, align));
        let d = tri!(Descriptor::naive_dims(lengths, strides, Vector::UNKNOWN));
        Ok(Descriptor { origin: Origin::Aligned { lengths, align: align as Index }, ..d })
    }

    /// CK Tile's `transform_tensor_descriptor`: a new descriptor whose top
    /// dimensions are produced by `items` from this one's top dimensions.
    /// Each item's lower ids index this descriptor's top dimensions and its
    /// upper ids name the new top dimensions; over all items both must be
    /// permutations. The element space size is unchanged.
    ///
    /// ```
    /// use cktile_core::{Descriptor, Item};
    /// use cktile_transforms::Transform;
    /// let d = Descriptor::naive(&[4, 8], &[100, 1]).unwrap();
    /// let merged = d
    ///     .transform(&[Item::new(Transform::merge(&[4, 8]).unwrap(), &[0, 1], &[0]).unwrap()])
    ///     .unwrap();
    /// // CK Tile on the host: i = 0..31 -> 0..7, 100..107, 200..207, 300..307.
    /// assert_eq!(merged.calculate_offset(&[9]), 101);
    /// ```
    pub const fn transform(&self, items: &[Item]) -> Result<Descriptor, Error> {
        tri!(check_stage_count(self.n_stages as usize));
        let stage = tri!(Stage::new(self.lengths, items));
        self.pushed(&stage)
    }

    /// CK Tile's `transform_tensor_descriptor(desc, transforms, lower_ids,
    /// upper_ids)` in CK's own shape: three lists, the transforms as their
    /// constructors returned them, so the first one that failed is named by
    /// its place in the stage (as [`Item`]s it is [`transform`](Self::transform)).
    /// The typed [`transform_tensor_descriptor`](crate::typed::transform_tensor_descriptor)
    /// gives the same descriptor, or the same error, for the same values;
    /// [`descriptor_chain!`](crate::descriptor_chain)'s runtime builders
    /// call it.
    ///
    /// # Errors
    ///
    /// [`DescriptorProblem::Transform`] naming the first transform that
    /// failed; [`DescriptorProblem::TooManyItems`] past [`MAX_ITEMS`] lists;
    /// [`DescriptorProblem::ListCount`] when the three lists differ in
    /// length; then [`transform`](Self::transform)'s.
    ///
    /// ```
    /// use cktile_core::{Descriptor, DescriptorProblem, ErrorKind};
    /// use cktile_transforms::Transform;
    /// let d = Descriptor::naive(&[4, 8], &[100, 1])?;
    /// let merged = d.transform_lists(&[Transform::merge(&[4, 8])], &[&[0, 1]], &[&[0]])?;
    /// assert_eq!(merged.calculate_offset(&[9]), 101);
    /// // The second transform is refused, by its place: xor's L1 is no power of two.
    /// let e = d.transform_lists(&[Transform::pass_through(4), Transform::xor(8, 6)], &[&[0], &[1]], &[&[0], &[1]]);
    /// let e = e.unwrap_err();
    /// assert!(matches!(e.kind(), ErrorKind::Descriptor(DescriptorProblem::Transform { item: 1, .. })), "{e:?}");
    /// assert!(e.to_string().starts_with("xor: L1 = 6 is not a power of two"), "{e}");
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn transform_lists(
        &self,
        transforms: &[Result<Transform, cktile_transforms::Error>],
        lower: &[&[usize]],
        upper: &[&[usize]],
    ) -> Result<Descriptor, Error> {
        let (items, n) = tri!(crate::stage::typed::stage_items(
            TransformArray::collect(transforms),
            IdArray::of_slices(lower),
            IdArray::of_slices(upper),
        ));
        self.transform(items.split_at(n).0)
    }

    /// Lengths of the top dimensions.
    ///
    /// ```
    /// assert_eq!(cktile_core::Descriptor::packed(&[4, 8]).unwrap().lengths().as_slice(), &[4, 8]);
    /// ```
    pub const fn lengths(&self) -> Dims {
        self.lengths
    }

    /// Number of top dimensions.
    ///
    /// ```
    /// assert_eq!(cktile_core::Descriptor::packed(&[4, 8, 2]).unwrap().num_dims(), 3);
    /// ```
    pub const fn num_dims(&self) -> usize {
        self.lengths().len()
    }

    /// Number of top coordinates (CK's `get_element_size`), or `None` if it
    /// overflows 64 bits.
    ///
    /// ```
    /// assert_eq!(cktile_core::Descriptor::naive(&[4, 8], &[100, 1]).unwrap().element_size(), Some(32));
    /// ```
    pub const fn element_size(&self) -> Option<Index> {
        self.lengths().product()
    }

    /// Size of the memory the descriptor addresses (CK's
    /// `get_element_space_size`); kept unchanged by transforms.
    ///
    /// ```
    /// assert_eq!(cktile_core::Descriptor::naive(&[4, 8], &[100, 1]).unwrap().element_space_size(), 308);
    /// ```
    pub const fn element_space_size(&self) -> Index {
        self.element_space_size
    }

    /// How the base was made.
    ///
    /// ```
    /// use cktile_core::{Descriptor, Origin};
    /// assert!(matches!(Descriptor::aligned(&[4, 6], 8).unwrap().origin(), Origin::Aligned { .. }));
    /// ```
    pub const fn origin(&self) -> &Origin {
        &self.origin
    }

    /// CK Tile's view of a descriptor: the adaptor from its top to its one
    /// bottom dimension, the memory (hidden id 0, of the bottom length).
    /// Each level of the chain is a run of consecutive hidden ids, as CK
    /// numbers them: the base's top dimensions follow the bottom, and each
    /// stage's new top dimensions follow the last.
    ///
    /// ```
    /// use cktile_core::{Descriptor, Item, Transform};
    /// let d = Descriptor::packed(&[4, 8])?.transform(&[Item::new(Transform::merge(&[4, 8])?, &[0, 1], &[0])?])?;
    /// assert_eq!(d.adaptor().to_string(), "bottom [0] (32) | unmerge((4,8)) on [0] -> [1,2] | merge((4,8)) on [1,2] -> [3] | top [3]");
    /// assert_eq!(d.adaptor().calculate_bottom_index(&[9])?.get(0), d.calculate_offset(&[9]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn adaptor(&self) -> &Adaptor {
        &self.adaptor
    }

    /// Number of stages, base stages included.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::naive_with_offset(&[4], &[1], 3).unwrap();
    /// assert_eq!(d.num_stages(), 2);
    /// ```
    pub const fn num_stages(&self) -> usize {
        self.n_stages as usize
    }

    /// The adaptor's transforms of stage `s` (`start..end` of
    /// [`Adaptor::items`]; empty past the last stage).
    ///
    /// ```
    /// let d = cktile_core::Descriptor::naive_with_offset(&[4], &[1], 3).unwrap();
    /// assert_eq!((d.stage_items(0), d.stage_items(1), d.stage_items(5)), (0..1, 1..2, 2..2));
    /// ```
    pub const fn stage_items(&self, s: usize) -> core::ops::Range<usize> {
        self.stage_start(s)..self.stage_end(s)
    }

    /// The first transform of stage `s` in the adaptor.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn stage_start(&self, s: usize) -> usize {
        if s == 0 { 0 } else { self.stage_end(s - 1) }
    }

    /// One past the last transform of stage `s` (of the last stage when
    /// `s` is past it).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn stage_end(&self, s: usize) -> usize {
        let n = self.n_stages as usize;
        let last = if s < n { s + 1 } else { n };
        if last == 0 { 0 } else { self.stage_ends[(last - 1) % MAX_STAGES] as usize }
    }

    /// The hidden ids of level `k` (0 the bottom, `k` the upper side of
    /// stage `k - 1`): `first..first + count`.
    pub(crate) const fn level(&self, k: usize) -> (usize, usize) {
        let n = self.n_stages as usize;
        let first = self.levels[k % (MAX_STAGES + 1)] as usize;
        if k >= n {
            (first, self.lengths.len())
        } else {
            (first, self.levels[(k + 1) % (MAX_STAGES + 1)] as usize - first)
        }
    }

    /// The lengths of level `k`.
    const fn level_lengths(&self, k: usize) -> Dims {
        let (first, count) = self.level(k);
        let mut out = Dims::EMPTY;
        let mut p = 0;
        while p < count {
            // At most MAX_DIMS dimensions on a level: the push cannot fail.
            out = match out.push(self.adaptor.hidden_length(first + p)) {
                Ok(d) => d,
                Err(_) => out,
            };
            p += 1;
        }
        out
    }

    /// Stage `s` as it was given to [`transform`](Self::transform) (or
    /// made by a base constructor): its transforms, with positions for
    /// ids, and its lengths, read back from the adaptor.
    const fn stage_at(&self, s: usize) -> Stage {
        let range = self.stage_items(s);
        let (lower, upper) = (self.level(s).0, self.level(s + 1).0);
        let mut items = [stage::FILLER; MAX_ITEMS];
        let mut i = 0;
        while i < range.end - range.start && i < MAX_ITEMS {
            let item = &self.adaptor.items()[range.start + i];
            items[i] = Item::from_ids(*item.transform(), item.lower().less(lower), item.upper().less(upper));
            i += 1;
        }
        let n = if i < MAX_ITEMS { i } else { MAX_ITEMS };
        Stage::from_bound(self.level_lengths(s), self.level_lengths(s + 1), items.split_at(n).0)
    }

    /// Every stage, base stages first, as [`transform`](Self::transform)
    /// took them: the spec's and the code generator's view of the chain
    /// (the adaptor holds the transforms; these are rebuilt from it).
    ///
    /// ```
    /// let d = cktile_core::Descriptor::naive_with_offset(&[4], &[1], 3).unwrap();
    /// assert_eq!(d.stages().len(), 2);
    /// assert_eq!(d.stages()[1].items()[0].to_string(), "embed((4),(1)) on [0] -> [0]");
    /// ```
    pub const fn stages(&self) -> Stages {
        self.stages_from(0)
    }

    /// The stages added by [`transform`](Self::transform) (the base excluded).
    ///
    /// ```
    /// let d = cktile_core::Descriptor::naive_with_offset(&[4], &[1], 3).unwrap();
    /// assert!(d.transform_stages().is_empty());
    /// ```
    pub const fn transform_stages(&self) -> Stages {
        self.stages_from(self.n_base as usize)
    }

    const fn stages_from(&self, first: usize) -> Stages {
        let mut out = Stages { stages: [stage::EMPTY_STAGE; MAX_STAGES], len: 0 };
        let mut s = first;
        while s < self.n_stages as usize && s < MAX_STAGES {
            out.stages[out.len as usize % MAX_STAGES] = self.stage_at(s);
            out.len += 1;
            s += 1;
        }
        out
    }
}

/// A descriptor's stages, rebuilt from its adaptor
/// ([`Descriptor::stages`]): a list of [`Stage`]s (it dereferences to a
/// slice).
///
/// ```
/// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
/// let stages = d.stages();
/// assert_eq!((stages.len(), stages.as_slice()[0].upper_lengths().as_slice()), (1, &[4, 8][..]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stages {
    stages: [Stage; MAX_STAGES],
    len: u8,
}

impl Stages {
    /// The stages as a slice.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4]).unwrap();
    /// assert_eq!(d.stages().as_slice().len(), 1);
    /// ```
    pub const fn as_slice(&self) -> &[Stage] {
        self.stages.split_at(self.len as usize % (MAX_STAGES + 1)).0
    }
}

/// The stages as a slice, so `d.stages()[k]` and `d.stages().iter()` read
/// as on a list.
///
/// ```
/// let d = cktile_core::Descriptor::packed(&[4]).unwrap();
/// assert_eq!(d.stages().iter().count(), 1);
/// ```
impl core::ops::Deref for Stages {
    type Target = [Stage];
    fn deref(&self) -> &[Stage] {
        self.as_slice()
    }
}

/// Iterates over the stages.
///
/// ```
/// let d = cktile_core::Descriptor::packed(&[4]).unwrap();
/// for stage in d.stages() {
///     assert_eq!(stage.items().len(), 1);
/// }
/// ```
impl IntoIterator for Stages {
    type Item = Stage;
    type IntoIter = core::iter::Take<core::array::IntoIter<Stage, MAX_STAGES>>;
    fn into_iter(self) -> Self::IntoIter {
        let n = self.len as usize;
        self.stages.into_iter().take(n)
    }
}

/// Iterates over the stages by reference.
///
/// ```
/// let d = cktile_core::Descriptor::packed(&[4]).unwrap();
/// let stages = d.stages();
/// assert_eq!((&stages).into_iter().count(), 1);
/// ```
impl<'a> IntoIterator for &'a Stages {
    type Item = &'a Stage;
    type IntoIter = core::slice::Iter<'a, Stage>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// The strides of CK Tile's `make_naive_tensor_descriptor_aligned`: the
/// second-to-last stride is the last length rounded up to a multiple of
/// `align`, the last is 1, the others products of that (checked).
#[inline]
pub(crate) const fn aligned_strides(lengths: &Dims, align: usize) -> Result<Dims, Error> {
    if align == 0 || align as u64 > Index::MAX as u64 {
        return Err(Error::transform(cktile_transforms::Error::ZeroLength {
            transform: "aligned",
            parameter: "align",
            position: None,
        }));
    }
    if lengths.is_empty() {
        return Err(Error::transform(cktile_transforms::Error::EmptyList {
            transform: "aligned",
            parameter: "lengths",
        }));
    }
    tri!(positive_lengths(lengths, "aligned"));
    let align = align as Index;
    let n = lengths.len();
    let mut strides = [0 as Index; cktile_transforms::MAX_DIMS];
    strides[n - 1] = 1;
    if n >= 2 {
        let last = lengths.get(n - 1);
        // integer_least_multiple(last, align)
        strides[n - 2] = match last.checked_add(align - 1) {
            Some(v) => (v / align) * align,
            None => return Err(stride_overflow(last as i128 + align as i128 - 1)),
        };
        let mut i = n - 2;
        while i > 0 {
            i -= 1;
            strides[i] = match strides[i + 1].checked_mul(lengths.get(i + 1)) {
                Some(v) => v,
                None => return Err(stride_overflow(strides[i + 1] as i128 * lengths.get(i + 1) as i128)),
            };
        }
    }
    match Dims::from_slice(strides.split_at(n).0) {
        Ok(d) => Ok(d),
        Err(e) => Err(Error::transform(e)),
    }
}

// The checks of the base descriptors, apart from the structs they fill:
// [`Descriptor`]'s constructors call them, and so does a typed descriptor's
// construction ([`typed`](crate::typed)), which builds no descriptor. What
// they return (the element space, the base's transforms) is all the
// constructors need to make the base stages, which then cannot fail: each
// is one transform on all dimensions, whose lower side is exactly the
// element space it reads (the embed's largest index plus one, the unmerge's
// product, the offset's shifted space).

/// The checks of [`Descriptor::naive_dims`]: the element space and the
/// base's embed.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn naive_base(lengths: &Dims, strides: &Dims) -> Result<(Index, Transform), Error> {
    let space = tri!(naive_space(lengths, strides));
    match Transform::embed_dims(*lengths, *strides) {
        Ok(t) => Ok((space, t)),
        Err(e) => Err(Error::transform(e)),
    }
}

/// The checks of [`Descriptor::naive_with_offset_dims`]: the element
/// space, the bottom (space plus offset), the shift and the embed.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn with_offset_base(
    lengths: &Dims,
    strides: &Dims,
    offset: Index,
) -> Result<(Index, Index, Transform, Transform), Error> {
    if offset < 0 {
        return Err(Error::transform(cktile_transforms::Error::Negative {
            transform: "naive_with_offset",
            parameter: "offset",
            position: None,
            value: offset,
        }));
    }
    let space = tri!(naive_space(lengths, strides));
    let bottom = match space.checked_add(offset) {
        Some(b) => b,
        None => {
            return Err(Error::descriptor(DescriptorProblem::Overflow {
                quantity: "offset plus element space",
                value: space as i128 + offset as i128,
            }));
        }
    };
    let shift = match Transform::offset(space as usize, offset as usize) {
        Ok(t) => t,
        Err(e) => return Err(Error::transform(e)),
    };
    match Transform::embed_dims(*lengths, *strides) {
        Ok(embed) => Ok((space, bottom, shift, embed)),
        Err(e) => Err(Error::transform(e)),
    }
}

/// [`naive_base`]'s verdict as a `bool`, on the lengths and strides as
/// index arrays (a runtime value past `i64::MAX` arrives as a negative
/// index, which both refuse): positive lengths whose product fits (the
/// embed's lengths), non-negative strides, and an element space that
/// fits. Two multiply-and-flag chains and no branch: what a kernel that
/// builds a naive descriptor from runtime values pays for validation.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn naive_accepts(lengths: &Indices, strides: &Indices, n: usize) -> bool {
    use cktile_transforms::kinds::{embed, unmerge};
    let product = unmerge::positive_product(lengths, n).is_some();
    let space = matches!(embed::non_negative_largest(lengths, strides, n), Some(l) if l < Index::MAX);
    product & space
}

/// [`packed_base`]'s verdict as a `bool`, as [`naive_accepts`] is
/// [`naive_base`]'s: positive lengths whose product fits.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn packed_accepts(lengths: &Indices, n: usize) -> bool {
    cktile_transforms::kinds::unmerge::positive_product(lengths, n).is_some()
}

/// The largest power-of-two vector length a base's lengths keep
/// ([`vector_fits`]'s rule): the largest power of two dividing the last
/// length (CK's vectors are powers of two; any divisor of the last length
/// is kept).
const fn kept_vector_length(lengths: &Dims) -> Index {
    let n = lengths.len();
    if n == 0 {
        return 1;
    }
    let last = lengths.get(n - 1);
    if last <= 0 { 1 } else { 1 << last.trailing_zeros() }
}

/// Refuses CK's guaranteed last-dimension vector `vector` on a base of
/// `lengths` and `strides` (validated by [`naive_base`] or
/// [`packed_base`]; `strides` `None` for a packed base) that would read
/// wrong data. A known length `V` must be at least 1, a known stride
/// non-negative, and with `V > 1`:
///
/// - the last length a multiple of `V`: the vectors `[j*V, (j+1)*V)` of a
///   row end where it ends (CK's `IsSupportedArgument` "K is not a
///   multiple of vector load size");
/// - the guaranteed stride, when known, the last dimension's stride: the
///   vector's elements lie where it reads them.
///
/// The other strides are free, as in CK: the guarantee is that a vector's
/// elements are contiguous, not where in memory it starts. A vector
/// instruction that needs alignment checks the addresses it is given (the
/// analyzer's `Misaligned`), and a kernel's loads are element loads that
/// LLVM merges only where the alignment it can prove allows (see
/// [`ops::gemm::make_dram_view`](crate::ops::gemm::make_dram_view)).
///
/// Checked in that order; the first fault is named, with
/// [`kept_vector_length`]. What [`vector_accepts`] decides without
/// branches.
#[inline]
pub(crate) const fn vector_fits(
    function: &'static str,
    lengths: &Dims,
    strides: Option<&Dims>,
    vector: Vector,
) -> Result<(), Error> {
    let fail = VectorFail { function, lengths, vector };
    if let Some(v) = vector.length
        && v < 1
    {
        return Err(fail.with(VectorFault::Length));
    }
    if let Some(stride) = vector.stride
        && stride < 0
    {
        return Err(fail.with(VectorFault::NegativeStride { stride }));
    }
    let n = lengths.len();
    let v = match vector.length {
        Some(v) if v > 1 && n > 0 => v,
        // No length, or one element: nothing read together, nothing to check.
        _ => return Ok(()),
    };
    let last = n - 1;
    let length = lengths.get(last);
    if length % v != 0 {
        return Err(fail.with(VectorFault::LastLength { dim: last, length }));
    }
    let last_stride = match strides {
        Some(s) => s.get(last),
        None => 1,
    };
    if let Some(guaranteed) = vector.stride
        && guaranteed != last_stride
    {
        return Err(fail.with(VectorFault::Stride { dim: last, stride: last_stride, guaranteed }));
    }
    Ok(())
}

/// The base a [`vector_fits`] refusal is about.
struct VectorFail<'a> {
    function: &'static str,
    lengths: &'a Dims,
    vector: Vector,
}

impl VectorFail<'_> {
    /// The error for `fault`, with what the base keeps (computed only here,
    /// on a refusal).
    #[cold]
    const fn with(&self, fault: VectorFault) -> Error {
        Error::descriptor(DescriptorProblem::VectorGuarantee {
            function: self.function,
            length: match self.vector.length {
                Some(v) => v,
                None => -1,
            },
            fault,
            keeps: kept_vector_length(self.lengths),
        })
    }
}

/// [`vector_fits`]'s verdict as a `bool`, for a naive base's `n` lengths
/// and strides as index arrays (accepted by [`naive_accepts`]) and a
/// guaranteed `length` and `stride` that are both known (a typed base's
/// `usize`s, which past `i64::MAX` arrive negative and are refused):
/// without branches, and with a compile-time `length` (CK's `number<8>`)
/// every test folds to a bit test of the low bits (`len & 7 == 0`).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn vector_accepts(
    lengths: &Indices,
    strides: &Indices,
    n: usize,
    length: Index,
    stride: Index,
) -> bool {
    let wide = length > 1;
    // The modulus: the length when it is above 1, else 1 (every value is a multiple).
    let m = if wide { length } else { 1 };
    let last = (n + cktile_transforms::MAX_DIMS - 1) % cktile_transforms::MAX_DIMS;
    // For a power of two (CK's vectors; a compile-time Number in a kernel)
    // the last length's low bits; else its remainder.
    let multiple = if m & (m - 1) == 0 { lengths[last] & (m - 1) == 0 } else { lengths[last] % m == 0 };
    let ok = multiple & (!wide | (strides[last] == stride));
    (length >= 1) & (stride >= 0) & ((n == 0) | ok)
}

/// The checks of [`Descriptor::packed_dims`]: the element space and the
/// base's unmerge.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn packed_base(lengths: &Dims) -> Result<(Index, Transform), Error> {
    tri!(positive_lengths(lengths, "packed"));
    let space = match lengths.product() {
        Some(p) => p,
        None => {
            return Err(Error::descriptor(DescriptorProblem::Overflow {
                quantity: "element space size",
                value: lengths.wide_product(),
            }));
        }
    };
    match Transform::unmerge_dims(*lengths) {
        Ok(t) => Ok((space, t)),
        Err(e) => Err(Error::transform(e)),
    }
}
