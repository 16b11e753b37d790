//! [`Vector`]: the safe vector length and stride of one dimension, and
//! [`VectorRule`]: how a transform carries them to its upper dimensions,
//! which each kind states (beneath the kinds: this module reads none;
//! [`VectorRule::of_kind`], which asks the kinds, is their dispatch, in
//! the crate's `transform` module).

/// How many consecutive indices of a dimension may be accessed as one vector,
/// and the memory stride between them, as CK Tile's
/// `calculate_upper_dimension_safe_vector_length_strides` propagates them.
///
/// `None` is CK Tile's `-1`: nothing is known.
///
/// ```
/// use cktile_transforms::Vector;
/// let v = Vector::new(8, 1);
/// assert_eq!((v.length, v.stride), (Some(8), Some(1)));
/// assert_eq!(Vector::UNKNOWN.length, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Vector {
    /// Number of consecutive indices that are contiguous in memory.
    pub length: Option<i64>,
    /// Distance in elements between consecutive indices.
    pub stride: Option<i64>,
}

impl Vector {
    /// Nothing known (CK Tile's `(-1, -1)`).
    ///
    /// ```
    /// assert_eq!(cktile_transforms::Vector::UNKNOWN.length, None);
    /// ```
    pub const UNKNOWN: Vector = Vector { length: None, stride: None };

    /// A known length and stride.
    ///
    /// ```
    /// # use cktile_transforms::Vector;
    /// assert_eq!(Vector::new(4, 2).length, Some(4));
    /// ```
    pub const fn new(length: i64, stride: i64) -> Vector {
        Vector { length: Some(length), stride: Some(stride) }
    }

    /// Replaces each field that `guaranteed` knows, as CK Tile's guaranteed
    /// vector arrays override computed values.
    ///
    /// ```
    /// # use cktile_transforms::Vector;
    /// let g = Vector { length: None, stride: Some(1) };
    /// assert_eq!(Vector::new(4, 8).overridden_by(g), Vector::new(4, 1));
    /// ```
    pub const fn overridden_by(self, guaranteed: Vector) -> Vector {
        Vector {
            length: match guaranteed.length {
                Some(l) => Some(l),
                None => self.length,
            },
            stride: match guaranteed.stride {
                Some(s) => Some(s),
                None => self.stride,
            },
        }
    }
}

/// How one transform carries safe vector lengths and strides from its lower
/// dimensions to its upper ones: CK Tile's per-transform
/// `calculate_upper_dimension_safe_vector_length_strides`, as data.
///
/// [`Transform::upper_vectors`](crate::Transform::upper_vectors) applies the
/// rule of a transform whose parameters are all known; a typed transform
/// with runtime parameters has the rule of its kind with those parameters
/// unknown ([`TypedTransform::VECTOR_RULE`](crate::typed::TypedTransform::VECTOR_RULE)),
/// as CK Tile, which reads only compile-time lengths, knows it.
///
/// ```
/// use cktile_transforms::{MAX_DIMS, Vector, VectorRule};
/// let mut low = [Vector::UNKNOWN; MAX_DIMS];
/// low[0] = Vector::new(24, 1);
/// // An unmerge into (4, 8): the last upper dimension keeps gcd(24, 8) = 8.
/// let up = VectorRule::Gcd { upper: 1, with: Some(8) }.upper(&low);
/// assert_eq!((up[0], up[1]), (Vector::UNKNOWN, Vector::new(8, 1)));
/// // The same unmerge with its last length a runtime value: the stride only.
/// let up = VectorRule::Gcd { upper: 1, with: None }.upper(&low);
/// assert_eq!(up[1], Vector { length: None, stride: Some(1) });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VectorRule {
    /// Nothing is carried (CK's default: embed, slice, offset, ...).
    Nothing,
    /// The first `dims` upper dimensions take their lower dimensions'
    /// (pass-through and the pads: 1; xor and cyclic shift: 2).
    Pass {
        /// How many dimensions pass.
        dims: usize,
    },
    /// The one upper dimension takes lower dimension `lower`'s (merge: its
    /// last lower dimension).
    Last {
        /// The lower dimension whose vector passes.
        lower: usize,
    },
    /// Upper dimension `upper` takes `gcd(lower 0's length, with)` and lower
    /// 0's stride; the others know nothing (unmerge: its last upper
    /// dimension and length; swizzle: dimension 0 and `2^base`). A `with`
    /// of `None` (a runtime length) leaves the length unknown.
    Gcd {
        /// The upper dimension that receives the vector.
        upper: usize,
        /// The length the lower vector length is reduced against.
        with: Option<i64>,
    },
}

impl VectorRule {
    /// The upper dimensions' vectors for the lower dimensions' `low`.
    ///
    /// ```
    /// use cktile_transforms::{MAX_DIMS, Vector, VectorRule};
    /// let mut low = [Vector::UNKNOWN; MAX_DIMS];
    /// low[2] = Vector::new(8, 1);
    /// assert_eq!(VectorRule::Last { lower: 2 }.upper(&low)[0], Vector::new(8, 1));
    /// assert_eq!(VectorRule::Nothing.upper(&low), [Vector::UNKNOWN; MAX_DIMS]);
    /// ```
    #[inline]
    pub const fn upper(self, low: &[Vector; crate::MAX_DIMS]) -> [Vector; crate::MAX_DIMS] {
        let mut up = [Vector::UNKNOWN; crate::MAX_DIMS];
        match self {
            VectorRule::Nothing => {}
            VectorRule::Pass { dims } => {
                let mut i = 0;
                while i < dims && i < crate::MAX_DIMS {
                    up[i] = low[i];
                    i += 1;
                }
            }
            VectorRule::Last { lower } => up[0] = low[lower % crate::MAX_DIMS],
            VectorRule::Gcd { upper, with } => {
                up[upper % crate::MAX_DIMS] = Vector {
                    length: match (low[0].length, with) {
                        (Some(l), Some(w)) => Some(crate::arith::gcd(l, w)),
                        _ => None,
                    },
                    stride: low[0].stride,
                };
            }
        }
        up
    }
}
