//! `embed(lengths, coefficients)`: N upper dimensions, one lower,
//! `low = sum(up[i] * coef[i])`.
//!
//! This is what a naive (strided) descriptor is: `make_naive_tensor_descriptor`
//! is one embed with the strides as coefficients. Linear; no vector
//! information (CK's default). It is injective, and cktile inverts it, when
//! the coefficients, sorted, never overlap: each is larger than the largest
//! index the smaller ones reach together (a packed or row-padded layout).
//! Then a lower index has at most one decomposition, found by peeling
//! dimensions off from the largest coefficient down.

use crate::Indices;

/// `low = sum(up[i] * coef[i])` over the first `n` dimensions.
///
/// ```
/// // CK Tile's test: lengths (4, 5), coefficients (2, 3): (2, 2) -> 10.
/// let mut up = [0; cktile_transforms::MAX_DIMS];
/// up[0] = 2;
/// up[1] = 2;
/// let coef = [2, 3, 0, 0, 0, 0, 0, 0];
/// assert_eq!(cktile_transforms::kinds::embed::lower(&up, &coef, 2), 10);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn lower(up: &Indices, coefficients: &Indices, n: usize) -> i64 {
    let n = super::arity(n);
    let mut low: i64 = 0;
    let mut i = 0;
    while i < n {
        low = low.wrapping_add(up[i].wrapping_mul(coefficients[i]));
        i += 1;
    }
    low
}

/// The largest lower index over all upper indices in range:
/// `sum((len[i] - 1) * coef[i])`, or `None` on overflow.
///
/// ```
/// let lens = [4, 5, 0, 0, 0, 0, 0, 0];
/// let coef = [2, 3, 0, 0, 0, 0, 0, 0];
/// assert_eq!(cktile_transforms::kinds::embed::largest(&lens, &coef, 2), Some(18));
/// ```
#[inline]
pub const fn largest(lengths: &Indices, coefficients: &Indices, n: usize) -> Option<i64> {
    let sum = wide_largest(lengths, coefficients, n);
    if sum >= i64::MIN as i128 && sum <= i64::MAX as i128 { Some(sum as i64) } else { None }
}

/// [`largest`] for lengths of at least 1 and coefficients of at least 0
/// (what a valid embed has), in 64-bit arithmetic without branches: what a
/// kernel that builds an embed, or a naive descriptor, pays to check it. Every
/// term is then non-negative, so a partial sum that overflows means the
/// whole does: exact. `None` on overflow, and when an entry breaks that
/// precondition.
///
/// ```
/// use cktile_transforms::kinds::embed::{largest, non_negative_largest};
/// let lens = [4, 5, 0, 0, 0, 0, 0, 0];
/// let coef = [2, 3, 0, 0, 0, 0, 0, 0];
/// assert_eq!(non_negative_largest(&lens, &coef, 2), largest(&lens, &coef, 2));
/// let big = [1 << 40, 1 << 30, 0, 0, 0, 0, 0, 0];
/// assert_eq!(non_negative_largest(&big, &[1 << 30, 1, 0, 0, 0, 0, 0, 0], 2), None);
/// assert_eq!(non_negative_largest(&[0, 0, 0, 0, 0, 0, 0, 0], &coef, 1), None);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn non_negative_largest(lengths: &Indices, coefficients: &Indices, n: usize) -> Option<i64> {
    let (mut sum, mut bad) = (0u64, false);
    crate::static_for!(n, |i| {
        let (l, c) = (lengths[i], coefficients[i]);
        bad |= l < 1 || c < 0;
        // `l - 1`, saturating at zero: the same for every length the test
        // above accepts, and for lengths known below 2^32 (a kernel's `u32`
        // arguments) a product the compiler sees cannot overflow (a
        // wrapped `l - 1` kept a high multiply and its test per dimension).
        let top = (l as u64).saturating_sub(1);
        let (term, o1) = top.overflowing_mul(c as u64);
        let (s, o2) = sum.overflowing_add(term);
        sum = s;
        bad |= o1 | o2;
    });
    if bad || sum > i64::MAX as u64 { None } else { Some(sum as i64) }
}

/// [`largest`] in 128-bit arithmetic, saturating at `i128::MIN` /
/// `i128::MAX`: the value an overflow error reports.
///
/// ```
/// let lens = [1 << 40, 0, 0, 0, 0, 0, 0, 0];
/// let coef = [1 << 40, 0, 0, 0, 0, 0, 0, 0];
/// let wide = cktile_transforms::kinds::embed::wide_largest(&lens, &coef, 1);
/// assert_eq!(wide, ((1i128 << 40) - 1) << 40);
/// assert_eq!(cktile_transforms::kinds::embed::largest(&lens, &coef, 1), None);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub const fn wide_largest(lengths: &Indices, coefficients: &Indices, n: usize) -> i128 {
    let mut sum: i128 = 0;
    crate::static_for!(n, |i| {
        let term = (lengths[i] as i128 - 1).saturating_mul(coefficients[i] as i128);
        sum = sum.saturating_add(term);
    });
    sum
}

/// The order in which to peel dimensions off a lower index to invert the
/// embed (largest coefficient first), or `None` when the coefficients
/// overlap, so a lower index may have several decompositions.
///
/// ```
/// use cktile_transforms::kinds::embed::radix_order;
/// // strides (8, 64, 1) with lengths (8, 128, 8): dims 1, 0, 2.
/// let lens = [8, 128, 8, 0, 0, 0, 0, 0];
/// let coef = [8, 64, 1, 0, 0, 0, 0, 0];
/// assert_eq!(radix_order(&lens, &coef, 3), Some([1, 0, 2, 0, 0, 0, 0, 0]));
/// // strides (100, 1) with lengths (4, 8): a padded row pitch, still invertible.
/// assert!(radix_order(&[4, 8, 0, 0, 0, 0, 0, 0], &[100, 1, 0, 0, 0, 0, 0, 0], 2).is_some());
/// let overlapping = [2, 1, 0, 0, 0, 0, 0, 0];
/// assert_eq!(radix_order(&[3, 4, 0, 0, 0, 0, 0, 0], &overlapping, 2), None);
/// ```
#[inline]
pub const fn radix_order(lengths: &Indices, coefficients: &Indices, n: usize) -> Option<Indices> {
    let n = super::arity(n);
    // Selection sort of dimension numbers by coefficient, ascending.
    let mut order = [0i64; crate::MAX_DIMS];
    let mut i = 0;
    while i < n {
        order[i] = i as i64;
        i += 1;
    }
    i = 0;
    while i < n {
        let mut best = i;
        let mut j = i + 1;
        while j < n {
            if coefficients[order[j] as usize] < coefficients[order[best] as usize] {
                best = j;
            }
            j += 1;
        }
        let t = order[i];
        order[i] = order[best];
        order[best] = t;
        i += 1;
    }
    // Ascending, each coefficient must exceed the largest index the smaller
    // ones can reach together, so every lower index has at most one
    // decomposition and peeling from the largest coefficient finds it.
    let mut reach: i64 = 0;
    i = 0;
    while i < n {
        let d = order[i] as usize;
        if lengths[d] == 1 {
            i += 1;
            continue;
        }
        if coefficients[d] <= reach {
            return None;
        }
        let top = match lengths[d].checked_sub(1) {
            Some(t) => t,
            None => return None,
        };
        reach = match top.checked_mul(coefficients[d]) {
            Some(t) => match reach.checked_add(t) {
                Some(r) => r,
                None => return None,
            },
            None => return None,
        };
        i += 1;
    }
    // Peel from the largest coefficient down.
    let mut out = [0i64; crate::MAX_DIMS];
    i = 0;
    while i < n {
        out[i] = order[n - 1 - i];
        i += 1;
    }
    Some(out)
}

/// Inverse for a non-overlapping embed: the upper index whose lower index is
/// `low`, peeling dimensions in `order` (from [`radix_order`]). When `low` is
/// a hole the result is out of range (callers check by mapping it back).
///
/// ```
/// use cktile_transforms::kinds::embed::{lower, radix_order, upper};
/// let lens = [8, 128, 8, 0, 0, 0, 0, 0];
/// let coef = [8, 64, 1, 0, 0, 0, 0, 0];
/// let order = radix_order(&lens, &coef, 3).unwrap();
/// let up = upper(1234, &lens, &coef, &order, 3);
/// assert_eq!(lower(&up, &coef, 3), 1234);
/// ```
#[inline]
pub const fn upper(low: i64, lengths: &Indices, coefficients: &Indices, order: &Indices, n: usize) -> Indices {
    let n = super::arity(n);
    let mut up = [0i64; crate::MAX_DIMS];
    let mut rest = low;
    let mut i = 0;
    while i < n {
        let d = order[i] as usize;
        // An order entry past the arrays (not one `radix_order` makes) is skipped.
        if d >= crate::MAX_DIMS {
            i += 1;
            continue;
        }
        let c = coefficients[d];
        if lengths[d] > 1 && c > 0 {
            up[d] = super::div(rest, c);
            rest = super::rem(rest, c);
        }
        i += 1;
    }
    up
}

/// The lowering: one affine step, the coefficients as they are.
///
/// ```
/// use cktile_transforms::{kinds::embed::lowering, Dims};
/// let l = lowering(Dims::from_slice(&[2, 3])?);
/// assert_eq!(l.lower(&[2, 2])[0], 10); // CK Tile's test
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
pub const fn lowering(coefficients: crate::Dims) -> crate::lowering::Lowering {
    let n = coefficients.len();
    let mut ins = [0u8; crate::MAX_DIMS];
    let mut i = 0;
    while i < n && i < crate::MAX_DIMS {
        ins[i] = i as u8;
        i += 1;
    }
    let mut l = crate::lowering::Lowering::new(n);
    let s = l.affine(ins.split_at(n % (crate::MAX_DIMS + 1)).0, coefficients.as_slice(), 0);
    l.output(s);
    l
}

/// The inverse's lowering, when [`radix_order`] finds one: peels each
/// dimension off with a division and a remainder by its coefficient, the
/// largest first, as [`upper`] does; a dimension of length 1 or
/// coefficient 0 is 0.
///
/// ```
/// use cktile_transforms::{kinds::embed::upper_lowering, Dims};
/// let (lens, coef) = (Dims::from_slice(&[4, 8])?, Dims::from_slice(&[100, 1])?);
/// let l = upper_lowering(lens, coef).unwrap();
/// assert_eq!(&l.lower(&[305])[..2], &[3, 5]);
/// assert!(upper_lowering(Dims::from_slice(&[3, 4])?, Dims::from_slice(&[2, 1])?).is_none());
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
pub const fn upper_lowering(lengths: crate::Dims, coefficients: crate::Dims) -> Option<crate::lowering::Lowering> {
    let n = super::arity(lengths.len());
    let (ls, cs) = (lengths.to_array(), coefficients.to_array());
    let Some(order) = radix_order(&ls, &cs, n) else {
        return None;
    };
    let mut l = crate::lowering::Lowering::new(1);
    let mut slot: [Option<crate::lowering::Slot>; crate::MAX_DIMS] = [None; crate::MAX_DIMS];
    let mut rest = 0;
    let mut i = 0;
    while i < n {
        let d = order[i] as usize % crate::MAX_DIMS;
        if ls[d] > 1 && cs[d] > 0 {
            slot[d] = Some(l.div(rest, cs[d]));
            rest = l.rem(rest, cs[d]);
        }
        i += 1;
    }
    let mut zero = None;
    i = 0;
    while i < n {
        let s = match (slot[i], zero) {
            (Some(s), _) | (None, Some(s)) => s,
            (None, None) => {
                let z = l.affine(&[], &[], 0);
                zero = Some(z);
                z
            }
        };
        l.output(s);
        i += 1;
    }
    Some(l)
}

use super::Draw;
use super::kit::{at, fits, lengths as checked_lengths, non_negative, put};
use super::row::{Row, sig};
use crate::lowering::Lowering;
use crate::signature::{Arg, Args, Param};
use crate::{Dims, Error, Family, Index, MAX_DIMS, Params, Transform};

/// The parameters of `embed(lengths, coefficients)`.
///
/// ```
/// use cktile_transforms::{kinds::EmbedParams, Dims, Params, Transform};
/// let e = Transform::embed(&[4, 8], &[8, 1])?;
/// let (lengths, coefficients) = (Dims::from_slice(&[4, 8])?, Dims::from_slice(&[8, 1])?);
/// assert_eq!(e.params(), Params::Embed(EmbedParams { lengths, coefficients }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EmbedParams {
    /// Upper lengths.
    pub lengths: Dims,
    /// Coefficients, one per upper dimension.
    pub coefficients: Dims,
}

impl Transform {
    /// `embed(lengths, coefficients)`: `low = sum(up[i] * coef[i])`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(Transform::embed(&[4, 5], &[2]).is_err());
    /// assert_eq!(Transform::embed(&[4, 5], &[2, 3]).unwrap().num_upper(), 2);
    /// ```
    #[inline]
    pub const fn embed(lengths: &[usize], coefficients: &[usize]) -> Result<Transform, Error> {
        Transform::embed_dims(crate::tri!(Dims::from_usizes(lengths)), crate::tri!(Dims::from_usizes(coefficients)))
    }

    /// [`embed`](Self::embed) from [`Dims`] (coefficients must not be negative).
    ///
    /// ```
    /// # use cktile_transforms::{Dims, Transform};
    /// let d = |v: &[i64]| Dims::from_slice(v).unwrap();
    /// assert!(Transform::embed_dims(d(&[4, 5]), d(&[2, -3])).is_err());
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn embed_dims(lengths: Dims, coefficients: Dims) -> Result<Transform, Error> {
        const NAME: &str = EmbedParams::ROW.signature.name;
        let lengths = crate::tri!(checked_lengths(lengths, NAME, "lengths"));
        crate::tri!(non_negative(&coefficients, NAME, "coefficients"));
        if coefficients.len() != lengths.len() {
            return Err(Error::ListLengthMismatch {
                transform: NAME,
                first: lengths.len(),
                second: coefficients.len(),
            });
        }
        let (l, c) = (lengths.to_array(), coefficients.to_array());
        // Lengths of at least 1 and coefficients of at least 0 here: `None` is an overflow.
        if non_negative_largest(&l, &c, lengths.len()).is_none() {
            let value = wide_largest(&l, &c, lengths.len());
            return Err(Error::Overflow { transform: NAME, quantity: "largest lower index", value });
        }
        Ok(Transform::wrap(Params::Embed(EmbedParams { lengths, coefficients })))
    }
}

super::kit::kind_defaults!(EmbedParams: one_lower, always_valid, no_vector);

impl EmbedParams {
    pub(crate) const ROW: Row = Row {
        family: Family::Embed,
        signature: sig("embed", const { &[Param::list("lengths"), Param::list("coefficients")] }),
        build: |a| Transform::embed_dims(a.list(0)?, a.list(1)?),
    };
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::List(self.lengths), Arg::List(self.coefficients), Args::Z], 2)
    }
    pub(crate) const fn num_upper(&self) -> usize {
        self.lengths.len()
    }
    pub(crate) const fn upper_lengths(&self) -> Dims {
        self.lengths
    }
    pub(crate) const fn bind(&self, lower: &Dims) -> Result<Transform, Error> {
        let name = Self::ROW.signature.name;
        let largest = wide_largest(&self.lengths.to_array(), &self.coefficients.to_array(), self.lengths.len());
        if largest > Index::MAX as i128 {
            return Err(Error::Overflow { transform: name, quantity: "largest lower index", value: largest });
        }
        crate::tri!(fits(name, largest as Index, lower.get(0)));
        Ok(Transform::wrap(Params::Embed(*self)))
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn lower_at<const U: usize, const L: usize>(
        &self,
        up: &[Index; U],
        up_ids: &[u8; MAX_DIMS],
        low: &mut [Index; L],
        low_ids: &[u8; MAX_DIMS],
    ) {
        self.step_at(up, up_ids, low, low_ids);
    }
    /// The weighted sum, the same for an index and for a step (an embed
    /// has no constant).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn step_at<const U: usize, const L: usize>(
        &self,
        d_up: &[Index; U],
        up_ids: &[u8; MAX_DIMS],
        d_low: &mut [Index; L],
        low_ids: &[u8; MAX_DIMS],
    ) {
        let c = self.coefficients.slots();
        let mut sum: Index = 0;
        let mut j = 0;
        while j < self.lengths.len() && j < MAX_DIMS {
            sum = sum.wrapping_add(at(d_up, up_ids, j).wrapping_mul(c[j]));
            j += 1;
        }
        put(d_low, low_ids, 0, sum);
    }
    /// Whether every transform of the kind is linear ([`Kind::is_linear`](crate::Kind::is_linear)).
    pub(crate) const LINEAR: bool = true;
    pub(crate) const fn is_linear(&self) -> bool {
        Self::LINEAR
    }
    /// Linear over GF(2) when the sum is an OR of disjoint bit fields:
    /// every coefficient 0 or a power of two, every length with a
    /// coefficient a power of two, and the fields `[log2 c, log2 c + log2
    /// len)` apart.
    pub(crate) const fn is_xor_linear(&self) -> bool {
        let mut taken: u128 = 0;
        let mut i = 0;
        while i < self.lengths.len() {
            let (len, c) = (self.lengths.get(i), self.coefficients.get(i));
            if len > 1 && c != 0 {
                if c < 0 || c & (c - 1) != 0 || len & (len - 1) != 0 {
                    return false;
                }
                let field = ((len - 1) as u128) << c.trailing_zeros();
                if taken & field != 0 {
                    return false;
                }
                taken |= field;
            }
            i += 1;
        }
        true
    }
    pub(crate) const fn calculate_upper(&self, low: &Indices) -> Option<Indices> {
        let (l, c) = (self.lengths.to_array(), self.coefficients.to_array());
        match radix_order(&l, &c, self.lengths.len()) {
            Some(order) => Some(upper(low[0], &l, &c, &order, self.lengths.len())),
            None => None,
        }
    }
    pub(crate) const fn lowering(&self) -> Lowering {
        lowering(self.coefficients)
    }
    pub(crate) const fn upper_lowering(&self) -> Option<Lowering> {
        upper_lowering(self.lengths, self.coefficients)
    }
    /// Two upper dimensions whose largest offset stays inside the offered
    /// one, or the identity embed.
    pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
        let la = d.offered();
        let (u0, u1) = (1 + d.index(3), 1 + d.index(3));
        let (c0, c1) = (d.index(4), d.index(4));
        if (u0 - 1) * c0 + (u1 - 1) * c1 < la {
            Transform::embed(&[u0, u1], &[c0, c1]).ok()
        } else {
            Transform::embed(&[la], &[1]).ok()
        }
    }
}

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::kinds::forms::*;

    /// `embed(lengths, coefficients)`: `low = sum(up[i] * coef[i])`.
    ///
    /// ```
    /// use cktile_transforms::typed::{Embed, TypedTransform};
    /// use cktile_transforms::Number;
    /// let e: Embed<_, _> = Embed { lengths: (Number::<3>, Number::<4>), coefficients: (Number::<2>, Number::<1>) };
    /// assert_eq!(e.to_transform().unwrap().to_string(), "embed((3,4),(2,1))");
    /// ```
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Embed<Ls: Values, Cs: Values<Len = Ls::Len>> {
        /// Upper lengths.
        pub lengths: Ls,
        /// Coefficients (strides).
        pub coefficients: Cs,
    }

    impl<Ls: Values, Cs: Values<Len = Ls::Len>> TypedTransform for Embed<Ls, Cs> {
        type NumLower = U1;
        type NumUpper = Ls::Len;
        const KIND: Kind = Kind::Embed;
        const STATIC: Option<Result<Transform, Error>> = match (Ls::STATIC, Cs::STATIC) {
            (Some(Ok(l)), Some(Ok(c))) => Some(Transform::embed_dims(l, c)),
            (Some(Err(e)), _) | (_, Some(Err(e))) => Some(Err(e)),
            _ => None,
        };
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn to_transform(self) -> Result<Transform, Error> {
            match (self.lengths.dims(), self.coefficients.dims()) {
                (Ok(l), Ok(c)) => Transform::embed_dims(l, c),
                (Err(e), _) | (_, Err(e)) => Err(e),
            }
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn lower(&self, up: &Indices) -> Indices {
            one(super::lower(up, &self.coefficients.indices(), len_of::<Ls>()))
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn is_valid(&self, _: &Indices) -> bool {
            true
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn upper_lengths(&self, _: &Indices) -> Indices {
            self.lengths.indices()
        }
        const RUNTIME: usize = Ls::RUNTIME + Cs::RUNTIME;
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn write_runtime(&self, out: &mut [u64], at: usize) {
            self.lengths.write_runtime(out, at);
            self.coefficients.write_runtime(out, at + Ls::RUNTIME);
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn read_runtime(slots: &[u64], at: usize) -> Self {
            Embed { lengths: Ls::read_runtime(slots, at), coefficients: Cs::read_runtime(slots, at + Ls::RUNTIME) }
        }
    }

    /// CK Tile's `make_embed_transform`: builds an [`Embed`].
    ///
    /// ```
    /// use cktile_transforms::typed::*;
    /// use cktile_transforms::Number;
    /// let t = make_embed_transform((Number::<4>, Number::<5>), (Number::<2>, 3usize));
    /// assert!(t.to_transform().is_ok());
    /// ```
    pub const fn make_embed_transform<Ls: Values, Cs: Values<Len = Ls::Len>>(
        lengths: Ls,
        coefficients: Cs,
    ) -> Embed<Ls, Cs> {
        Embed { lengths, coefficients }
    }
}
