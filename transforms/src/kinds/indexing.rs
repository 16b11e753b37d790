//! `indexing(len, index)`: one upper dimension, one lower: every upper
//! index maps to the lower index `index`.
//!
//! CK Tile's `indexing` transform (2025), built by
//! `make_indexing_transform(up_length, indices)` with its default adaptor,
//! `indexing_adaptor_onshot_cached`: the adaptor holds the lower index a
//! gather read (a row of a MoE token list, say) and `calculate_lower_index`
//! answers it whatever the upper index, so a thread's window over a
//! gathered tensor reads its own row. cktile's `index` is that cached
//! value.
//!
//! Valid everywhere; linear (a constant); no vector information (CK's
//! default, `-1`); no inverse. One difference from CK, as for `modulo`:
//! CK's one-shot adaptor answers a coordinate move with the upper step as
//! the lower step while keeping the lower index, so after a move CK's
//! offset has moved although the index it holds has not; cktile's moves
//! always equal recomputing (`Transform::update_lower`), so the lower
//! index and the offset stay at `index`.

use super::Draw;
use super::kit::{fits, length, put, single};
use super::row::{LEN, Row, sig};
use crate::dims::to_index;
use crate::lowering::Lowering;
use crate::signature::{Arg, Args, Param};
use crate::{Dims, Error, Family, Index, MAX_DIMS, Params, Transform};

/// The cached lower index, whatever the upper index.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::indexing::lower(5), 5);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn lower(index: i64) -> i64 {
    index
}

/// The lowering: one constant (the upper index is not read).
///
/// ```
/// let l = cktile_transforms::kinds::indexing::lowering(5);
/// assert_eq!((l.inputs(), l.lower(&[3])[0]), (1, 5));
/// ```
pub const fn lowering(index: i64) -> Lowering {
    let mut l = Lowering::new(1);
    let s = l.affine(&[], &[], index);
    l.output(s);
    l
}

/// The parameters of `indexing(len, index)`.
///
/// ```
/// use cktile_transforms::{kinds::IndexingParams, Params, Transform};
/// assert_eq!(Transform::indexing(16, 5)?.params(), Params::Indexing(IndexingParams { len: 16, index: 5 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IndexingParams {
    /// Upper length.
    pub len: Index,
    /// The lower index every upper index maps to (CK's cached index).
    pub index: Index,
}

impl Transform {
    /// `indexing(len, index)`: CK Tile's `make_indexing_transform(len,
    /// indices)` with its default one-shot cached adaptor; `low = index`
    /// for every upper index.
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// let t = Transform::indexing(16, 5).unwrap();
    /// let mut up = [0; MAX_DIMS];
    /// up[0] = 11;
    /// assert_eq!((t.upper_lengths().as_slice(), t.calculate_lower(&up)[0]), (&[16][..], 5));
    /// assert!(Transform::indexing(0, 5).is_err());
    /// ```
    #[inline]
    pub const fn indexing(len: usize, index: usize) -> Result<Transform, Error> {
        const NAME: &str = IndexingParams::ROW.signature.name;
        let len = crate::tri!(length(len, NAME, "len"));
        let index = crate::tri!(to_index(index));
        Ok(Transform::wrap(Params::Indexing(IndexingParams { len, index })))
    }
}

// A move leaves the lower index where it is (`constant`); CK's one-shot
// adaptor passes the step on instead (see the module documentation).
super::kit::kind_defaults!(IndexingParams: one_lower, one_upper, always_valid, no_vector, no_inverse, constant);

impl IndexingParams {
    pub(crate) const ROW: Row = Row {
        family: Family::Index,
        signature: sig("indexing", const { &[LEN, Param::index("index")] }),
        build: |a| Transform::indexing(a.index(0)?, a.index(1)?),
    };
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::Int(self.len), Arg::Int(self.index), Args::Z], 2)
    }
    pub(crate) const fn upper_lengths(&self) -> Dims {
        single(self.len)
    }
    /// The index must lie inside the dimension it reads.
    pub(crate) const fn bind(&self, lower: &Dims) -> Result<Transform, Error> {
        crate::tri!(fits(Self::ROW.signature.name, self.index, lower.get(0)));
        Ok(Transform::wrap(Params::Indexing(*self)))
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn lower_at<const U: usize, const L: usize>(
        &self,
        _: &[Index; U],
        _: &[u8; MAX_DIMS],
        low: &mut [Index; L],
        low_ids: &[u8; MAX_DIMS],
    ) {
        put(low, low_ids, 0, lower(self.index));
    }
    pub(crate) const fn is_xor_linear(&self) -> bool {
        self.index == 0
    }
    pub(crate) const fn lowering(&self) -> Lowering {
        lowering(self.index)
    }
    /// A random row of the offered dimension, read over a random upper
    /// length.
    pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
        let index = d.index(d.offered());
        Transform::indexing(1 + d.index(4), index).ok()
    }
}

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::kinds::forms::*;

    scalar_transform!(
        /// `indexing(len, index)`: CK Tile's `make_indexing_transform(len,
        /// indices)` with its one-shot cached adaptor, `low = index` (a row a
        /// gather read, a runtime value in a kernel).
        Indexing, make_indexing_transform, indexing, U1, U1; len: L, index: I;
        |t, up, low| lower = one(super::lower(ix(t.index))), valid = true, lengths = one(ix(t.len))
    );
}
