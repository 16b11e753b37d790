//! The dispatch over the list of kinds: every operation a descriptor needs
//! on a [`Transform`], as a `const fn`, and [`Kind`]'s and
//! [`VectorRule::of_kind`]'s answers.
//!
//! A transform is its kind's struct (see [`kinds`](crate::kinds)) inside
//! [`Params`]; `Transform`, `Params` and the list itself (`kind_list!`) are
//! declared beneath, with the kinds and in the `list` module. Every method
//! here is one dispatch over the list (`kinds::each_kind!`) to that struct,
//! which holds the kind's checks, formulas and lowering. Nothing in this
//! file names a kind.

use crate::kinds::{each_kind, each_kind_type};
use crate::lowering::Lowering;
use crate::signature::Signature;
use crate::{Dims, Error, Family, Indices, Kind, MAX_DIMS, Params, Transform, Vector, VectorRule};
use core::fmt;

impl Kind {
    /// The name used in specs and CK Tile's `make_<name>_transform`.
    ///
    /// ```
    /// assert_eq!(cktile_transforms::Kind::PassThrough.name(), "pass_through");
    /// ```
    #[inline]
    pub const fn name(self) -> &'static str {
        table::row(self).signature.name
    }

    /// Whether every transform of the kind is linear
    /// ([`Transform::is_linear`]: its lower index moves by a fixed linear
    /// function of the upper step, whatever the parameters). Then
    /// `lower(a + b) = lower(a) + lower(b) - lower(0)` (wrapping) for any
    /// indices, and a chain of such transforms evaluates an offset from a
    /// fixed index plus a step as the two offsets' sum (a tile window's
    /// accesses). The pads' validity is not linear; it is tested apart.
    ///
    /// ```
    /// use cktile_transforms::Kind;
    /// assert!(Kind::Embed.is_linear() && Kind::RightPad.is_linear() && Kind::Unmerge.is_linear());
    /// assert!(!Kind::Merge.is_linear() && !Kind::Xor.is_linear());
    /// ```
    #[inline]
    pub const fn is_linear(self) -> bool {
        each_kind_type!(self, K => K::LINEAR)
    }

    /// The kind's spec signature: its name and its arguments, from the
    /// table of kinds that the parser, `Display` and
    /// [`Transform::from_args`] read.
    ///
    /// ```
    /// use cktile_transforms::Kind;
    /// assert_eq!(Kind::Embed.signature().to_string(), "embed((lengths), (coefficients))");
    /// assert_eq!(Kind::Xor.signature().to_string(), "xor((L0, L1))");
    /// ```
    pub const fn signature(self) -> Signature {
        table::row(self).signature
    }

    /// What the kind does, for grouping (the pictures' colours): from the
    /// table of kinds.
    ///
    /// ```
    /// use cktile_transforms::{Family, Kind};
    /// assert_eq!(Kind::CyclicShift.family(), Family::Permutation);
    /// assert_eq!(Kind::LeftPad.family(), Family::Pad);
    /// ```
    pub const fn family(self) -> Family {
        table::row(self).family
    }

    /// The kind with this spec name.
    ///
    /// ```
    /// use cktile_transforms::Kind;
    /// assert_eq!(Kind::from_name("xor"), Some(Kind::Xor));
    /// assert_eq!(Kind::from_name("mergee"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// The identity id map: position `j` reads and writes slot `j`.
const IDS: [u8; MAX_DIMS] = [0, 1, 2, 3, 4, 5, 6, 7];

impl Transform {
    /// Which transform this is.
    ///
    /// ```
    /// # use cktile_transforms::{Kind, Transform};
    /// assert_eq!(Transform::insert(2).unwrap().kind(), Kind::Insert);
    /// ```
    #[inline]
    pub const fn kind(&self) -> Kind {
        self.repr.kind()
    }

    /// Number of lower dimensions (CK's `get_num_of_lower_dimension`).
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::merge(&[2, 3, 4]).unwrap().num_lower(), 3);
    /// ```
    #[inline]
    pub const fn num_lower(&self) -> usize {
        each_kind!(&self.repr, k => k.num_lower())
    }

    /// Number of upper dimensions (CK's `get_num_of_upper_dimension`).
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::unmerge(&[2, 3, 4]).unwrap().num_upper(), 3);
    /// ```
    #[inline]
    pub const fn num_upper(&self) -> usize {
        each_kind!(&self.repr, k => k.num_upper())
    }

    /// Lengths of the upper dimensions.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::xor(64, 8).unwrap().upper_lengths().as_slice(), &[64, 8]);
    /// ```
    #[inline]
    pub const fn upper_lengths(&self) -> Dims {
        each_kind!(&self.repr, k => k.upper_lengths())
    }

    /// Checks the transform against the lengths of the dimensions it is
    /// applied to, and completes it (a swizzle takes its length from there).
    ///
    /// Lengths must match exactly (`merge((4,8))` on dimensions of lengths 4
    /// and 8; `unmerge` on a dimension of the product length), except where a
    /// transform reads a sub-range (`embed`, `offset`, `freeze`), which must fit.
    ///
    /// ```
    /// # use cktile_transforms::{Dims, Transform};
    /// let m = Transform::merge(&[4, 8]).unwrap();
    /// assert!(m.bind(&Dims::from_slice(&[4, 8]).unwrap()).is_ok());
    /// assert!(m.bind(&Dims::from_slice(&[4, 16]).unwrap()).is_err());
    /// ```
    // Not inlined: inlined into every runtime builder (`Stage::new`,
    // `Adaptor::transform`, the typed chains), its match over every kind
    // drove LLVM's AMDGPU backend (nightly-2026-10-29, gfx942) into "Cannot
    // scavenge register in FI elimination" once a 16th kind was added.
    // Builders call it once per item, and the proof kernels
    // (`scripts/target-icount.sh`) stay at their twins' counts.
    #[inline(never)]
    pub const fn bind(self, lower_lengths: &Dims) -> Result<Transform, Error> {
        if lower_lengths.len() != self.num_lower() {
            let transform = self.kind().name();
            return Err(Error::LowerCount { transform, expected: self.num_lower(), found: lower_lengths.len() });
        }
        each_kind!(&self.repr, k => k.bind(lower_lengths))
    }

    /// The lower index for an upper index (CK's `calculate_lower_index`).
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// // CK Tile's test: merge [4, 5] maps 7 to (1, 2).
    /// let mut up = [0; MAX_DIMS];
    /// up[0] = 7;
    /// assert_eq!(&Transform::merge(&[4, 5]).unwrap().calculate_lower(&up)[..2], &[1, 2]);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn calculate_lower(&self, up: &Indices) -> Indices {
        let mut low = [0; MAX_DIMS];
        self.lower_at(up, &IDS, &mut low, &IDS);
        low
    }

    /// Whether the lower index moves by a fixed linear function of the upper
    /// step (so a coordinate move adds `calculate_lower(step)` instead of
    /// recomputing). Merge, xor, modulo, swizzle and cyclic shift are not
    /// linear.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(Transform::unmerge(&[4, 8]).unwrap().is_linear());
    /// assert!(!Transform::merge(&[4, 8]).unwrap().is_linear());
    /// ```
    #[inline]
    pub const fn is_linear(&self) -> bool {
        each_kind!(&self.repr, k => k.is_linear())
    }

    /// Whether the transform is linear over GF(2) on its indices' bits,
    /// given that every length it touches is a power of two: each lower
    /// index bit is then an XOR of upper index bits, with no carries and no
    /// constants. Pass-through, merge, unmerge, xor, swizzle, insert and
    /// replicate always are. An embed is when its coefficients are 0 or
    /// powers of two whose bit fields do not overlap (the sum is then an
    /// OR). A modulo is when its modulus is a power of two (it keeps low
    /// bits). A functor is when it flips nothing (a permutation of bits).
    /// Pads, slices, offsets and freezes are only when they add
    /// nothing. `cktile equiv` proves two such chains equal by their bases.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(Transform::swizzle(3, 3, 3).unwrap().is_xor_linear());
    /// assert!(Transform::embed(&[4, 8], &[8, 1]).unwrap().is_xor_linear());
    /// assert!(!Transform::embed(&[4, 8], &[4, 1]).unwrap().is_xor_linear()); // fields overlap: carries
    /// assert!(!Transform::offset(8, 1).unwrap().is_xor_linear());
    /// ```
    pub const fn is_xor_linear(&self) -> bool {
        each_kind!(&self.repr, k => k.is_xor_linear())
    }

    /// Incremental update for a coordinate move (CK's `update_lower_index`).
    ///
    /// `up_new` is the upper index after the move and `diff_up` the step that
    /// led there; `low` is the lower index before the move. Returns the new
    /// lower index and the lower step. Linear transforms add the transformed
    /// step (pad and offset move by the step itself, embed by the weighted
    /// step, freeze not at all); the others recompute from `up_new`. The
    /// result always equals `calculate_lower(up_new)`, including for modulo,
    /// where CK Tile counts the step twice.
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// let t = Transform::modulo(8, 32).unwrap();
    /// let (mut up, mut low, mut step) = ([0; MAX_DIMS], [0; MAX_DIMS], [0; MAX_DIMS]);
    /// up[0] = 6; low[0] = 6; step[0] = 5;
    /// up[0] += step[0];
    /// let (new_low, diff) = t.update_lower(&step, &low, &up);
    /// assert_eq!((new_low[0], diff[0]), (3, -3)); // 11 % 8; CK would give (11 + 5) % 8 = 0
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn update_lower(&self, diff_up: &Indices, low: &Indices, up_new: &Indices) -> (Indices, Indices) {
        let n = self.num_lower();
        let mut new_low = [0; MAX_DIMS];
        let mut diff_low = [0; MAX_DIMS];
        if self.is_linear() {
            // The affine part cancels in a difference: the step maps through
            // the same formula minus its value at zero.
            let at_step = self.calculate_lower(diff_up);
            let at_zero = self.calculate_lower(&[0; MAX_DIMS]);
            let mut i = 0;
            while i < n {
                diff_low[i] = at_step[i].wrapping_sub(at_zero[i]);
                new_low[i] = low[i].wrapping_add(diff_low[i]);
                i += 1;
            }
        } else {
            new_low = self.calculate_lower(up_new);
            let mut i = 0;
            while i < n {
                diff_low[i] = new_low[i].wrapping_sub(low[i]);
                i += 1;
            }
        }
        (new_low, diff_low)
    }

    /// True when every upper index in range maps to a valid lower index, so
    /// [`is_valid_upper`](Self::is_valid_upper) need not be asked (CK's
    /// `is_valid_upper_index_always_mapped_to_valid_lower_index`). Only the pad
    /// family can produce invalid positions. Read off the
    /// [`lowering`](Self::lowering): true when it has no check.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(!Transform::pad(10, 2, 3).unwrap().is_always_valid());
    /// assert!(Transform::slice(10, 2, 3).unwrap().is_always_valid());
    /// ```
    #[inline]
    pub const fn is_always_valid(&self) -> bool {
        self.lowering().check().is_none()
    }

    /// Whether an upper index maps to a real (non-padded) lower index.
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// let p = Transform::pad(10, 2, 3).unwrap();
    /// let at = |i| { let mut up = [0; MAX_DIMS]; up[0] = i; p.is_valid_upper(&up) };
    /// assert!(!at(1) && at(2) && at(11) && !at(12));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn is_valid_upper(&self, up: &Indices) -> bool {
        each_kind!(&self.repr, k => k.is_valid(up[0]))
    }

    /// The upper index for a lower index, for transforms that have an inverse
    /// (`None` for freeze, modulo, insert/replicate of more than one point,
    /// and an embed whose coefficients overlap, see [`kinds::embed`](crate::kinds::embed)).
    /// `inverse(forward(x)) == x` for every `x` in range; for pad,
    /// slice and offset, lower indices outside the upper range have no preimage
    /// and come back out of range.
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// let x = Transform::xor(128, 8).unwrap();
    /// let mut up = [0; MAX_DIMS];
    /// up[0] = 9;
    /// up[1] = 5;
    /// assert_eq!(x.calculate_upper(&x.calculate_lower(&up)), Some(up));
    /// assert_eq!(Transform::modulo(8, 32).unwrap().calculate_upper(&up), None);
    /// ```
    #[inline]
    pub const fn calculate_upper(&self, low: &Indices) -> Option<Indices> {
        each_kind!(&self.repr, k => k.calculate_upper(low))
    }

    /// The transform as a few integer operations, upper to lower: the form
    /// cktile's C++ emitter, interval analysis and compiled programs read
    /// (see [`lowering`](crate::lowering)). Running it gives
    /// [`calculate_lower`](Self::calculate_lower) for every input, and its
    /// check gives [`is_valid_upper`](Self::is_valid_upper).
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// let t = Transform::merge(&[4, 8]).unwrap();
    /// let mut up = [0; MAX_DIMS];
    /// up[0] = 29;
    /// assert_eq!(t.lowering().lower(&up), t.calculate_lower(&up));
    /// ```
    pub const fn lowering(&self) -> Lowering {
        each_kind!(&self.repr, k => k.lowering())
    }

    /// The inverse as integer operations, lower to upper, where
    /// [`calculate_upper`](Self::calculate_upper) has one (and gives the
    /// same values); `None` where it has none.
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// let t = Transform::embed(&[4, 8], &[100, 1]).unwrap();
    /// let mut low = [0; MAX_DIMS];
    /// low[0] = 305;
    /// assert_eq!(t.upper_lowering().map(|l| l.lower(&low)), t.calculate_upper(&low));
    /// assert!(Transform::modulo(8, 32).unwrap().upper_lowering().is_none());
    /// ```
    pub const fn upper_lowering(&self) -> Option<Lowering> {
        each_kind!(&self.repr, k => k.upper_lowering())
    }

    /// Safe vector length and stride of each upper dimension, from those of the
    /// lower dimensions (CK's `calculate_upper_dimension_safe_vector_length_strides`,
    /// with its per-transform rules: pass_through, left/right pad and xor pass
    /// through; merge takes its last lower dimension's; unmerge gives its last
    /// upper dimension `gcd(lower length, last length)` and the lower stride;
    /// pad, embed, slice, offset and modulo give nothing; swizzle keeps runs of
    /// `2^M`).
    ///
    /// ```
    /// # use cktile_transforms::{Transform, Vector, MAX_DIMS};
    /// let mut low = [Vector::UNKNOWN; MAX_DIMS];
    /// low[0] = Vector::new(24, 1);
    /// let up = Transform::unmerge(&[4, 8]).unwrap().upper_vectors(&low);
    /// assert_eq!((up[0], up[1]), (Vector::UNKNOWN, Vector::new(8, 1)));
    /// ```
    #[inline]
    pub const fn upper_vectors(&self, low: &[Vector; MAX_DIMS]) -> [Vector; MAX_DIMS] {
        self.vector_rule().upper(low)
    }

    /// The rule by which [`upper_vectors`](Self::upper_vectors) carries
    /// vectors through this transform: its kind's rule
    /// ([`VectorRule::of_kind`]) with its lengths known.
    ///
    /// ```
    /// use cktile_transforms::{Transform, VectorRule};
    /// assert_eq!(Transform::unmerge(&[4, 8]).unwrap().vector_rule(), VectorRule::Gcd { upper: 1, with: Some(8) });
    /// assert_eq!(Transform::swizzle(3, 3, 3).unwrap().vector_rule(), VectorRule::Gcd { upper: 0, with: Some(8) });
    /// ```
    #[inline]
    pub const fn vector_rule(&self) -> VectorRule {
        let with = each_kind!(&self.repr, k => k.vector_with());
        VectorRule::of_kind(self.kind(), self.num_lower(), self.num_upper(), with)
    }
}

/// Writes the transform in spec syntax, e.g. `merge((4,8))` or `xor((64,8))`:
/// the kind's name and [`Transform::args`], lists in parentheses.
///
/// ```
/// # use cktile_transforms::Transform;
/// assert_eq!(Transform::pad(10, 2, 3).unwrap().to_string(), "pad(10,2,3)");
/// assert_eq!(Transform::xor(64, 8).unwrap().to_string(), "xor((64,8))");
/// assert_eq!(Transform::swizzle(3, 3, 3).unwrap().to_string(), "swizzle(3,3,3)");
/// assert_eq!(Transform::embed(&[4], &[2]).unwrap().to_string(), "embed((4),(2))");
/// ```
impl fmt::Display for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.kind().name())?;
        for (i, arg) in self.args().as_slice().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{arg}")?;
        }
        f.write_str(")")
    }
}

impl Transform {
    /// A random transform of `kind` over the dimension `d` offers (taking
    /// more of its free dimensions when the kind needs them), for
    /// cktile's random-chain generator; `None` when the kind does not fit
    /// there. Each kind draws itself (see [`Draw`](crate::kinds::Draw)).
    ///
    /// ```
    /// use cktile_transforms::{Index, Kind, Transform, kinds::Draw};
    /// // A dimension of length 12, nothing else free, random numbers 0.
    /// struct Alone;
    /// impl Draw for Alone {
    ///     fn length(&self) -> Index { 12 }
    ///     fn below(&mut self, _: u64) -> u64 { 0 }
    ///     fn take(&mut self, _: &dyn Fn(Index) -> bool) -> Option<Index> { None }
    /// }
    /// assert_eq!(Transform::draw(Kind::Unmerge, &mut Alone), Some(Transform::unmerge(&[2, 6]).unwrap()));
    /// assert_eq!(Transform::draw(Kind::Xor, &mut Alone), None);
    /// ```
    pub fn draw(kind: Kind, d: &mut dyn crate::kinds::Draw) -> Option<Transform> {
        each_kind_type!(kind, K => K::draw(d))
    }
}

// The table of kinds: each kind's signature and builder, and the argument
// values of a transform.
pub(crate) mod table;

// The runtime hot paths: the formulas on index positions and register files.
mod fast;

// The read-only parameter view.
mod params;

impl VectorRule {
    /// The rule of a transform of `kind` with `num_lower` lower and
    /// `num_upper` upper dimensions, where `with` is the length the kind
    /// reduces against when known (an unmerge's last upper length, a
    /// swizzle's `2^base`).
    ///
    /// ```
    /// use cktile_transforms::{Kind, VectorRule};
    /// assert_eq!(VectorRule::of_kind(Kind::Merge, 3, 1, None), VectorRule::Last { lower: 2 });
    /// assert_eq!(VectorRule::of_kind(Kind::Unmerge, 1, 2, Some(8)), VectorRule::Gcd { upper: 1, with: Some(8) });
    /// assert_eq!(VectorRule::of_kind(Kind::Pad, 1, 1, None), VectorRule::Pass { dims: 1 });
    /// assert_eq!(VectorRule::of_kind(Kind::Embed, 1, 2, None), VectorRule::Nothing);
    /// ```
    pub const fn of_kind(kind: Kind, num_lower: usize, num_upper: usize, with: Option<i64>) -> VectorRule {
        each_kind_type!(kind, K => K::vector(num_lower, num_upper, with))
    }
}
