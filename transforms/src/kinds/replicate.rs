//! `insert(len)` and `replicate(lengths)`: upper dimensions with no lower
//! dimension. Their indices do not reach memory at all (broadcast), so every
//! upper index maps to the same offset. Not invertible unless every length is 1.
//!
//! Both have nothing to compute; this module states the one property they
//! have, for the descriptor-level analysis.

/// Whether the upper side is a single point, so the transform is invertible.
///
/// ```
/// use cktile_transforms::kinds::replicate::is_single_point;
/// assert!(is_single_point(&[1, 1, 0, 0, 0, 0, 0, 0], 2));
/// assert!(!is_single_point(&[4, 0, 0, 0, 0, 0, 0, 0], 1));
/// ```
#[inline]
pub const fn is_single_point(lengths: &crate::Indices, n: usize) -> bool {
    let n = super::arity(n);
    let mut i = 0;
    while i < n {
        if lengths[i] != 1 {
            return false;
        }
        i += 1;
    }
    true
}

/// The lowering of `insert`/`replicate` with `n` upper dimensions: nothing
/// (no lower index).
///
/// ```
/// let l = cktile_transforms::kinds::replicate::lowering(2);
/// assert!(l.steps().is_empty() && l.outputs().is_empty());
/// ```
pub const fn lowering(n: usize) -> crate::lowering::Lowering {
    crate::lowering::Lowering::new(n)
}

/// The inverse's lowering, for a single point: every one of the `n` upper
/// indices is 0.
///
/// ```
/// let l = cktile_transforms::kinds::replicate::upper_lowering(2);
/// assert_eq!((l.inputs(), &l.lower(&[])[..2]), (0, &[0, 0][..]));
/// ```
pub const fn upper_lowering(n: usize) -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(0);
    let zero = l.affine(&[], &[], 0);
    let mut i = 0;
    while i < n && i < crate::MAX_DIMS {
        l.output(zero);
        i += 1;
    }
    l
}

use super::Draw;
use super::kit::{length, lengths as checked_lengths, single};
use super::row::{LEN, Row, sig};
use crate::lowering::Lowering;
use crate::signature::{Arg, Args, Param};
use crate::{Dims, Error, Family, Index, Indices, MAX_DIMS, Params, Transform, VectorRule};

/// The parameters of `insert(len)`.
///
/// ```
/// use cktile_transforms::{kinds::InsertParams, Params, Transform};
/// assert_eq!(Transform::insert(4)?.params(), Params::Insert(InsertParams { len: 4 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InsertParams {
    /// Upper length.
    pub len: Index,
}

/// The parameters of `replicate(lengths)`.
///
/// ```
/// use cktile_transforms::{kinds::ReplicateParams, Dims, Params, Transform};
/// let lengths = Dims::from_slice(&[2, 3])?;
/// assert_eq!(Transform::replicate(&[2, 3])?.params(), Params::Replicate(ReplicateParams { lengths }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReplicateParams {
    /// Upper lengths.
    pub lengths: Dims,
}

impl Transform {
    /// `insert(len)`: a new upper dimension that does not reach memory.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::insert(4).unwrap().num_lower(), 0);
    /// ```
    #[inline]
    pub const fn insert(len: usize) -> Result<Transform, Error> {
        const NAME: &str = InsertParams::ROW.signature.name;
        Ok(Transform::wrap(Params::Insert(InsertParams { len: crate::tri!(length(len, NAME, "len")) })))
    }

    /// `replicate(lengths)`: broadcast upper dimensions with no lower dimension.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::replicate(&[2, 3]).unwrap().num_upper(), 2);
    /// ```
    #[inline]
    pub const fn replicate(upper_lengths: &[usize]) -> Result<Transform, Error> {
        Transform::replicate_dims(crate::tri!(Dims::from_usizes(upper_lengths)))
    }

    /// [`replicate`](Self::replicate) from [`Dims`].
    ///
    /// ```
    /// # use cktile_transforms::{Dims, Transform};
    /// assert!(Transform::replicate_dims(Dims::from_slice(&[4, -1]).unwrap()).is_err());
    /// ```
    #[inline]
    pub const fn replicate_dims(upper_lengths: Dims) -> Result<Transform, Error> {
        const NAME: &str = ReplicateParams::ROW.signature.name;
        let lengths = crate::tri!(checked_lengths(upper_lengths, NAME, "lengths"));
        Ok(Transform::wrap(Params::Replicate(ReplicateParams { lengths })))
    }
}

/// What `insert` and `replicate` share: upper dimensions that read
/// nothing, over the upper lengths `|s| lengths` gives.
macro_rules! broadcast_kind {
    ($name:ident, $variant:ident, |$s:ident| $lengths:expr, $row:expr, $args:expr, $draw:expr) => {
        impl $name {
            pub(crate) const ROW: Row = $row;
            pub(crate) const fn args(&self) -> Args {
                let $s = self;
                $args
            }
            pub(crate) const fn num_lower(&self) -> usize {
                0
            }
            pub(crate) const fn num_upper(&self) -> usize {
                self.upper_lengths().len()
            }
            pub(crate) const fn upper_lengths(&self) -> Dims {
                let $s = self;
                $lengths
            }
            pub(crate) const fn bind(&self, _lower: &Dims) -> Result<Transform, Error> {
                Ok(Transform::wrap(Params::$variant(*self)))
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            pub(crate) const fn lower_at<const U: usize, const L: usize>(
                &self,
                _: &[Index; U],
                _: &[u8; MAX_DIMS],
                _: &mut [Index; L],
                _: &[u8; MAX_DIMS],
            ) {
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            pub(crate) const fn step_at<const U: usize, const L: usize>(
                &self,
                _: &[Index; U],
                _: &[u8; MAX_DIMS],
                _: &mut [Index; L],
                _: &[u8; MAX_DIMS],
            ) {
            }
            /// Whether every transform of the kind is linear ([`Kind::is_linear`](crate::Kind::is_linear)).
            pub(crate) const LINEAR: bool = true;
            pub(crate) const fn is_linear(&self) -> bool {
                Self::LINEAR
            }
            pub(crate) const fn is_xor_linear(&self) -> bool {
                true
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            pub(crate) const fn is_valid(&self, _up0: Index) -> bool {
                true
            }
            /// Only a single point has an inverse.
            pub(crate) const fn calculate_upper(&self, _low: &Indices) -> Option<Indices> {
                let l = self.upper_lengths();
                if is_single_point(&l.to_array(), l.len()) { Some([0; MAX_DIMS]) } else { None }
            }
            pub(crate) const fn lowering(&self) -> Lowering {
                lowering(self.num_upper())
            }
            pub(crate) const fn upper_lowering(&self) -> Option<Lowering> {
                let l = self.upper_lengths();
                if is_single_point(&l.to_array(), l.len()) { Some(upper_lowering(l.len())) } else { None }
            }
            pub(crate) const fn vector(_num_lower: usize, _num_upper: usize, _with: Option<i64>) -> VectorRule {
                VectorRule::Nothing
            }
            pub(crate) const fn vector_with(&self) -> Option<i64> {
                None
            }
            /// Drawn beside the offered dimension, which stays as it is.
            pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
                let draw: fn(&mut dyn Draw) -> Option<Transform> = $draw;
                draw(d)
            }
        }
    };
}

broadcast_kind!(
    InsertParams,
    Insert,
    |s| single(s.len),
    Row {
        family: Family::Index,
        signature: sig("insert", const { &[LEN] }),
        build: |a| Transform::insert(a.index(0)?),
    },
    Args::new([Arg::Int(s.len), Args::Z, Args::Z], 1),
    |d| Transform::insert(1 + d.index(3)).ok()
);
broadcast_kind!(
    ReplicateParams,
    Replicate,
    |s| s.lengths,
    Row {
        family: Family::Index,
        signature: sig("replicate", const { &[Param::list("lengths")] }),
        build: |a| Transform::replicate_dims(a.list(0)?),
    },
    Args::new([Arg::List(s.lengths), Args::Z, Args::Z], 1),
    |d| Transform::replicate(&[1 + d.index(2), 2]).ok()
);

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::kinds::forms::*;

    scalar_transform!(
        /// `insert(len)`: an upper dimension that does not reach memory.
        Insert, make_insert_transform, insert, U0, U1; len: L;
        |t, up, low| lower = [0; MAX_DIMS], valid = true, lengths = one(ix(t.len))
    );

    list_transform!(
        /// `replicate(lengths)`: broadcast upper dimensions.
        Replicate, make_replicate_transform, replicate_dims, U0, Ls::Len, "(Number::<4>,)";
        |t, up, low| lower = [0; MAX_DIMS], lengths = t.lengths.indices()
    );
}
