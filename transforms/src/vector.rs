//! [`Vector`]: the safe vector length and stride of one dimension.

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
