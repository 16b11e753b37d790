//! [`Dims`]: a fixed-capacity list of lengths, usable in `const fn`s.

use crate::{Error, Index, MAX_DIMS};
use core::fmt;

/// CK's `static_for`: runs `$body` with `$i` bound to each of
/// `0, 1, .., 7` below `$n` (at most [`MAX_DIMS`] times; `rev` counts
/// down), or to each literal of a list given after a `;`, written out: no
/// loop. `$n` is evaluated once. With a compile-time `$n` every index is a
/// constant before LLVM's first scalar-replacement pass, so code over a
/// few values folds to their arithmetic on every target (GPU backends
/// leave a small array read by a loop in local memory when they do not
/// unroll the loop fully). It works in `const fn`s, and a `return` in
/// `$body` returns from the enclosing function. The one unrolling
/// primitive of cktile and cktile-transforms.
///
/// With `const` before the count (`static_for!(const N, |i| ...)`,
/// `const rev`), the count is a constant expression (it may name
/// associated constants of generic parameters) tested in an inline `const`
/// block, and `$i` is a `const` item: a slot at or past the count is never
/// compiled, even without optimisation, and an inner count may be a
/// constant expression of `$i` (a descriptor's stage `s` has
/// `stages()[s].items().len()` items). Each count is evaluated for every
/// slot, whether or not the slot is taken, so guard an inner count that
/// indexes by `$i` (`if s < len { ... } else { 0 }`).
///
/// Nested, the copies multiply: each level writes its body once per
/// literal, 8 by default, whatever `$n` is, so a body under four levels is
/// written 4,096 times before the compiler folds the tests away, and the
/// compiler's time grows with it. Give a list as long as the count
/// (`; 0 1` for 2) where loops nest: a hand-written GEMM twin of
/// `perf/kernels` took 45 s of rustc's MIR passes with the default lists
/// and well under a second with exact ones, the same PTX.
///
/// ```
/// let mut seen = Vec::new();
/// cktile_transforms::static_for!(3, |i| seen.push(i));
/// cktile_transforms::static_for!(rev 2, |i| seen.push(10 + i));
/// cktile_transforms::static_for!(20, |i| seen.push(i); 9 19 29);
/// assert_eq!(seen, [0, 1, 2, 11, 10, 9, 19]);
///
/// // A constant count: only slots 2, 1 and 0 are compiled.
/// const ROWS: [usize; 3] = [1, 3, 2];
/// let mut cells = 0;
/// cktile_transforms::static_for!(const rev ROWS.len(), |r| {
///     cktile_transforms::static_for!(const if r < ROWS.len() { ROWS[r] } else { 0 }, |_c| cells += 1)
/// });
/// assert_eq!(cells, 6);
/// ```
#[macro_export]
macro_rules! static_for {
    // The compile-time forms first: `const` can start an expression, so
    // the `$n:expr` arms below would take it and fail.
    (const rev $n:expr, |$i:ident| $body:expr) => {
        $crate::static_for!(@const $n, $i, $body; 7 6 5 4 3 2 1 0)
    };
    (const $n:expr, |$i:ident| $body:expr) => {
        $crate::static_for!(@const $n, $i, $body; 0 1 2 3 4 5 6 7)
    };
    (@const $n:expr, $i:ident, $body:expr; $($k:literal)*) => {{
        $(if const { $k < $n } {
            #[allow(non_upper_case_globals)]
            const $i: usize = $k;
            $body;
        })*
    }};
    (rev $n:expr, |$i:ident| $body:expr) => {
        $crate::static_for!(@ $n, $i, $body; 7 6 5 4 3 2 1 0)
    };
    ($n:expr, |$i:ident| $body:expr; $($k:literal)*) => {
        $crate::static_for!(@ $n, $i, $body; $($k)*)
    };
    ($n:expr, |$i:ident| $body:expr) => {
        $crate::static_for!(@ $n, $i, $body; 0 1 2 3 4 5 6 7)
    };
    (@ $n:expr, $i:ident, $body:expr; $($k:literal)*) => {{
        let n: usize = $n;
        $(if $k < n {
            let $i: usize = $k;
            $body;
        })*
    }};
}

/// A list of up to [`MAX_DIMS`] signed 64-bit values (lengths, strides,
/// coefficients), stored inline so it can be built and read in `const fn`s.
///
/// Unused slots are always zero, so the derived equality compares only the
/// entries that are there.
///
/// ```
/// use cktile_transforms::Dims;
/// const D: Dims = match Dims::from_slice(&[4, 8]) {
///     Ok(d) => d,
///     Err(_) => panic!("at most 8 entries"),
/// };
/// assert_eq!(D.as_slice(), &[4, 8]);
/// assert_eq!(D.product(), Some(32));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Dims {
    len: u8,
    values: [Index; MAX_DIMS],
}

impl Dims {
    /// The empty list.
    ///
    /// ```
    /// assert!(cktile_transforms::Dims::EMPTY.is_empty());
    /// ```
    pub const EMPTY: Dims = Dims { len: 0, values: [0; MAX_DIMS] };

    /// Copies a slice, or fails if it has more than [`MAX_DIMS`] entries.
    ///
    /// ```
    /// use cktile_transforms::{Dims, Error};
    /// assert!(Dims::from_slice(&[1; 9]).is_err());
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn from_slice(values: &[Index]) -> Result<Dims, Error> {
        if values.len() > MAX_DIMS {
            return Err(Error::TooManyDims { given: values.len(), max: MAX_DIMS });
        }
        let mut out = Dims::EMPTY;
        crate::static_for!(values.len(), |i| {
            out.values[i] = values[i];
        });
        out.len = values.len() as u8;
        Ok(out)
    }

    /// Converts unsigned values, failing on any value above `i64::MAX`.
    ///
    /// ```
    /// use cktile_transforms::Dims;
    /// assert_eq!(Dims::from_usizes(&[3, 5]).unwrap().as_slice(), &[3, 5]);
    /// assert!(Dims::from_usizes(&[usize::MAX]).is_err());
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn from_usizes(values: &[usize]) -> Result<Dims, Error> {
        if values.len() > MAX_DIMS {
            return Err(Error::TooManyDims { given: values.len(), max: MAX_DIMS });
        }
        let mut out = Dims::EMPTY;
        crate::static_for!(values.len(), |i| {
            out.values[i] = tri!(to_index(values[i]));
        });
        out.len = values.len() as u8;
        Ok(out)
    }

    /// A list of `n` copies of `value` (`n` is clamped to [`MAX_DIMS`]).
    ///
    /// ```
    /// use cktile_transforms::Dims;
    /// assert_eq!(Dims::splat(2, 7).as_slice(), &[7, 7]);
    /// ```
    #[inline]
    pub const fn splat(n: usize, value: Index) -> Dims {
        let n = if n > MAX_DIMS { MAX_DIMS } else { n };
        let mut out = Dims::EMPTY;
        let mut i = 0;
        while i < n {
            out.values[i] = value;
            i += 1;
        }
        out.len = n as u8;
        out
    }

    /// Number of entries.
    ///
    /// ```
    /// # use cktile_transforms::Dims;
    /// assert_eq!(Dims::from_slice(&[1, 2]).unwrap().len(), 2);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// True when there are no entries.
    ///
    /// ```
    /// # use cktile_transforms::Dims;
    /// assert!(Dims::EMPTY.is_empty());
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Entry `i`, or 0 past the end.
    ///
    /// ```
    /// # use cktile_transforms::Dims;
    /// let d = Dims::from_slice(&[5]).unwrap();
    /// assert_eq!((d.get(0), d.get(3)), (5, 0));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn get(&self, i: usize) -> Index {
        if i < MAX_DIMS { self.values[i] } else { 0 }
    }

    /// The entries as a slice.
    ///
    /// ```
    /// # use cktile_transforms::Dims;
    /// assert_eq!(Dims::from_slice(&[2, 3]).unwrap().as_slice(), &[2, 3]);
    /// ```
    #[inline]
    pub const fn as_slice(&self) -> &[Index] {
        self.values.split_at(self.len()).0
    }

    /// All [`MAX_DIMS`] slots by reference (unused ones are zero), for the
    /// evaluation paths that must not copy them.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn slots(&self) -> &[Index; MAX_DIMS] {
        &self.values
    }

    /// All [`MAX_DIMS`] slots (unused ones are zero).
    ///
    /// ```
    /// # use cktile_transforms::Dims;
    /// assert_eq!(Dims::from_slice(&[2]).unwrap().to_array()[..2], [2, 0]);
    /// ```
    #[inline]
    pub const fn to_array(&self) -> [Index; MAX_DIMS] {
        self.values
    }

    /// Appends a value, or fails when the list is full.
    ///
    /// ```
    /// # use cktile_transforms::Dims;
    /// assert_eq!(Dims::EMPTY.push(4).unwrap().as_slice(), &[4]);
    /// ```
    #[inline]
    pub const fn push(self, value: Index) -> Result<Dims, Error> {
        if self.len() >= MAX_DIMS {
            return Err(Error::TooManyDims { given: MAX_DIMS + 1, max: MAX_DIMS });
        }
        let mut out = self;
        out.values[self.len()] = value;
        out.len += 1;
        Ok(out)
    }

    /// Product of the entries (1 for an empty list), or `None` on overflow.
    ///
    /// ```
    /// # use cktile_transforms::Dims;
    /// assert_eq!(Dims::from_slice(&[i64::MAX, 2]).unwrap().product(), None);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn product(&self) -> Option<Index> {
        // Magnitudes in 64 bits, without branches (a kernel that builds a
        // descriptor pays a multiply and a flag per entry). With no zero
        // entry, each partial magnitude is at most the final one, so a
        // partial overflow means the product does not fit: exact.
        let (mut magnitude, mut overflow, mut zero, mut negative) = (1u64, false, false, false);
        crate::static_for!(self.len(), |i| {
            let v = self.values[i];
            let (m, o) = magnitude.overflowing_mul(v.unsigned_abs());
            magnitude = m;
            overflow |= o;
            zero |= v == 0;
            negative ^= v < 0;
        });
        if zero {
            Some(0)
        } else if overflow {
            None
        } else if negative {
            // -2^63 fits; `magnitude as i64` is then i64::MIN, its own negation.
            if magnitude <= 1u64 << 63 { Some((magnitude as i64).wrapping_neg()) } else { None }
        } else if magnitude <= Index::MAX as u64 {
            Some(magnitude as Index)
        } else {
            None
        }
    }

    /// Product of the entries in 128-bit arithmetic, saturating at
    /// `i128::MIN` / `i128::MAX`: the value an overflow error reports. It is
    /// exact unless a partial product's magnitude passes `i128::MAX`, which
    /// takes at least three 64-bit factors.
    ///
    /// ```
    /// # use cktile_transforms::Dims;
    /// let d = Dims::from_slice(&[1 << 40, 1 << 30]).unwrap();
    /// assert_eq!(d.wide_product(), 1i128 << 70);
    /// assert_eq!(d.product(), None);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn wide_product(&self) -> i128 {
        let mut p: i128 = 1;
        crate::static_for!(self.len(), |i| {
            p = p.saturating_mul(self.values[i] as i128);
        });
        p
    }

    /// Position of the first zero entry, if any.
    ///
    /// ```
    /// # use cktile_transforms::Dims;
    /// assert_eq!(Dims::from_slice(&[3, 0]).unwrap().first_zero(), Some(1));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn first_zero(&self) -> Option<usize> {
        crate::static_for!(self.len(), |i| {
            if self.values[i] == 0 {
                return Some(i);
            }
        });
        None
    }

    /// Position of the first negative entry, if any.
    ///
    /// ```
    /// # use cktile_transforms::Dims;
    /// assert_eq!(Dims::from_slice(&[3, -1, -2]).unwrap().first_negative(), Some(1));
    /// assert_eq!(Dims::from_slice(&[3, 0]).unwrap().first_negative(), None);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn first_negative(&self) -> Option<usize> {
        crate::static_for!(self.len(), |i| {
            if self.values[i] < 0 {
                return Some(i);
            }
        });
        None
    }
}

/// Converts a `usize` parameter to the index type, failing above `i64::MAX`.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn to_index(value: usize) -> Result<Index, Error> {
    if value as u64 > Index::MAX as u64 {
        Err(Error::ValueTooLarge { value: value as u64 })
    } else {
        Ok(value as Index)
    }
}

impl fmt::Debug for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Writes the list in spec syntax: a bare integer for one entry, `(a,b,..)` otherwise.
impl fmt::Display for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.len() == 1 {
            return write!(f, "{}", self.values[0]);
        }
        write!(f, "({})", Bare(*self))
    }
}

/// A list without its parentheses: `4,8`.
pub(crate) struct Bare(pub(crate) Dims);

impl fmt::Display for Bare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.0.as_slice().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}
