//! `functor(len, (bit targets), flip)`: CK Tile's `functor_transform`, one
//! upper dimension, one lower: `low = f(up)`, for the functors CK writes,
//! which move and flip the low bits of an index.
//!
//! CK Tile's `functor_transform<Functor, LowLength>` calls an
//! arbitrary C++ callable on the upper index; its upper length is the lower
//! length, every upper index is valid, a move recomputes `f(up)`, and
//! vector lengths and strides pass through. cktile cannot hold an arbitrary
//! callable (a spec is text, a descriptor a value), so it holds the family
//! CK's own functors belong to: a [`BitPermute`], which permutes the low
//! `n <= 8` bits of the index, then XORs them with a constant, and keeps
//! every higher bit:
//!
//! - `swap_warp_t` (CK's quantised GEMM async policy, `v ^ 1` over the
//!   `KWarps` groups): `functor(len, (0), 1)`, [`Transform::swap_warp`];
//! - `permute_bits_5` (CK's FMHA forward V3 kernel, on the key and value
//!   token index): output bits 4..0 are input bits 2, 1, 0, 4, 3, so input
//!   bit `i` goes to bit `(2, 3, 4, 0, 1)[i]`: `functor(len, (2,3,4,0,1), 0)`,
//!   [`Transform::permute_bits_5`]; its inverse `inverse_permute_bits_5` is
//!   `functor(len, (3,4,0,1,2), 0)`;
//! - CK's `swap_bit_positions(x, p, q)`: [`BitPermute::swap`].
//!
//! The list names, for each input bit `i` from bit 0 up, the output bit it
//! moves to ("where each bit goes"); `flip` is then XORed into the `n` low
//! bits. So `low = (up & !(2^n - 1)) | (P(up & (2^n - 1)) ^ flip)`.
//!
//! The map keeps every aligned block of `2^n` indices onto itself, so it is
//! a bijection of `[0, len)` exactly when the last, partial block (when
//! `len` is not a multiple of `2^n`) maps into itself too; cktile refuses
//! any other length, naming an index that would leave the dimension and
//! the nearest lengths that keep it. CK checks nothing: its FMHA kernel
//! applies `permute_bits_5` to a runtime `seqlen_k`, which for most lengths
//! maps some token past the end.
//!
//! Vector lengths and strides pass through, as CK's rule has them whatever
//! the functor does (CK's comment leaves it to the caller to keep vectors
//! valid): cktile ports that rule as it is, and `cktile check` verifies the
//! claim against the offsets (a functor that moves bit 0, as both of CK's
//! do, breaks every vector along its dimension; only runs of `2^k` whose
//! bits `0..k` neither move nor flip stay contiguous,
//! [`BitPermute::fixed_bits`]). The inverse is the same family: `P⁻¹`, with
//! flip `P⁻¹(flip)`. Linear over GF(2) when `flip` is 0.

use super::Draw;
use super::kit::{at, expect_len, length, one, put, single};
use super::row::{LEN, Row, sig};
use crate::lowering::Lowering;
use crate::signature::{Arg, Args, Param};
use crate::{Dims, Error, Family, Index, Indices, MAX_DIMS, Params, Transform, VectorRule};

pub use crate::arith::bits::{BitMoves, BitPermute, MAX_BITS};

/// `functor`'s name, for messages.
const NAME: &str = FunctorParams::ROW.signature.name;

impl BitPermute {
    /// The map that sends input bit `i` to output bit `targets[i]`, then
    /// XORs `flip`: `targets` must hold each of `0..targets.len()` once (at
    /// most [`MAX_BITS`] of them), and `flip` be below `2^targets.len()`.
    ///
    /// ```
    /// use cktile_transforms::{kinds::functor::BitPermute, Dims, Error};
    /// let p = BitPermute::new(Dims::from_slice(&[2, 3, 4, 0, 1])?, 0)?;
    /// assert_eq!(p, BitPermute::PERMUTE_BITS_5);
    /// let e = BitPermute::new(Dims::from_slice(&[0, 0])?, 0).unwrap_err();
    /// assert_eq!(e, Error::FunctorTarget { bits: 2, position: 1, value: 0 });
    /// assert_eq!(BitPermute::new(Dims::from_slice(&[0])?, 2), Err(Error::FunctorFlip { bits: 1, flip: 2 }));
    /// # Ok::<(), Error>(())
    /// ```
    pub const fn new(targets: Dims, flip: Index) -> Result<BitPermute, Error> {
        let n = targets.len();
        if n == 0 {
            return Err(Error::EmptyList { transform: NAME, parameter: "bit targets" });
        }
        let mut out = [0u8; MAX_BITS];
        let mut seen = 0u32;
        let mut i = 0;
        while i < n && i < MAX_BITS {
            let t = targets.get(i);
            if t < 0 || t >= n as Index || seen & (1 << t) != 0 {
                return Err(Error::FunctorTarget { bits: n as u8, position: i as u8, value: t });
            }
            seen |= 1 << t;
            out[i] = t as u8;
            i += 1;
        }
        if flip < 0 || flip >= 1 << n {
            return Err(Error::FunctorFlip { bits: n as u8, flip });
        }
        Ok(BitPermute { bits: n as u8, targets: out, flip: flip as u8 })
    }

    /// CK's `swap_bit_positions(x, p, q)`: bits `p` and `q` (below
    /// [`MAX_BITS`]) trade places, over the `max(p, q) + 1` low bits.
    ///
    /// ```
    /// use cktile_transforms::kinds::functor::BitPermute;
    /// let s = BitPermute::swap(1, 2)?; // CK's swap_bit1_bit2
    /// assert_eq!(s.targets(), &[0, 2, 1]);
    /// assert_eq!(s, BitPermute::new(cktile_transforms::Dims::from_slice(&[0, 2, 1])?, 0)?);
    /// assert_eq!((s.apply(0b010), s.apply(0b100), s.apply(0b111)), (0b100, 0b010, 0b111));
    /// assert!(BitPermute::swap(0, 8).is_err());
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    pub const fn swap(p: u8, q: u8) -> Result<BitPermute, Error> {
        let top = if p > q { p } else { q };
        if top as usize >= MAX_BITS {
            return Err(Error::FunctorTarget { bits: MAX_BITS as u8, position: 0, value: top as Index });
        }
        // Entries past the bits stay 0, as `new` leaves them.
        let mut targets = [0u8; MAX_BITS];
        let mut i = 0;
        while i <= top as usize {
            targets[i] = if i == p as usize {
                q
            } else if i == q as usize {
                p
            } else {
                i as u8
            };
            i += 1;
        }
        Ok(BitPermute { bits: top + 1, targets, flip: 0 })
    }

    /// The map as one `u64` (a typed form's runtime slot): `bits`, then
    /// `flip` from bit 8, then the targets three bits each from bit 16.
    const fn pack(&self) -> u64 {
        let mut v = self.bits as u64 | (self.flip as u64) << 8;
        let mut i = 0;
        while i < MAX_BITS {
            v |= ((self.targets[i] & 7) as u64) << (16 + 3 * i);
            i += 1;
        }
        v
    }

    /// What [`pack`](Self::pack) wrote, validated (the identity on one bit
    /// when the slot holds no valid map).
    fn unpack(v: u64) -> BitPermute {
        let bits = (v & 0xff) as usize;
        let flip = ((v >> 8) & 0xff) as Index;
        let targets: [Index; MAX_BITS] = core::array::from_fn(|i| ((v >> (16 + 3 * i)) & 7) as Index);
        let identity = BitPermute { bits: 1, targets: [0; MAX_BITS], flip: 0 };
        match Dims::from_slice(&targets[..bits.min(MAX_BITS)]) {
            Ok(d) => BitPermute::new(d, flip).unwrap_or(identity),
            Err(_) => identity,
        }
    }
}

/// The lowering: one permute step.
///
/// ```
/// use cktile_transforms::kinds::functor::{lowering, BitPermute};
/// assert_eq!(lowering(BitPermute::PERMUTE_BITS_5).lower(&[11])[0], 13);
/// ```
pub const fn lowering(map: BitPermute) -> Lowering {
    let mut l = Lowering::new(1);
    let s = l.permute(0, map);
    l.output(s);
    l
}

/// The parameters of `functor(len, (bit targets), flip)`.
///
/// ```
/// use cktile_transforms::{kinds::{functor::BitPermute, FunctorParams}, Params, Transform};
/// let p = Transform::permute_bits_5(64)?.params();
/// assert_eq!(p, Params::Functor(FunctorParams { len: 64, map: BitPermute::PERMUTE_BITS_5 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FunctorParams {
    /// The length (upper and lower).
    pub len: Index,
    /// The functor.
    pub map: BitPermute,
}

/// `flip`'s range as a spec argument: at most eight bits.
const FLIP: &str = "an integer in [0, 255]";

impl Transform {
    /// `functor(len, (bit targets), flip)`: CK Tile's `functor_transform`
    /// with a functor that sends input bit `i` (of the `targets.len()` low
    /// bits) to bit `targets[i]`, then XORs `flip` (see [`functor`](self)).
    /// Refused unless the map keeps `[0, len)`.
    ///
    /// ```
    /// # use cktile_transforms::{Error, Transform};
    /// let t = Transform::functor(64, &[2, 3, 4, 0, 1], 0)?;
    /// assert_eq!(t, Transform::permute_bits_5(64)?);
    /// assert_eq!(t.to_string(), "functor(64,(2,3,4,0,1),0)");
    /// assert!(matches!(Transform::functor(100, &[2, 3, 4, 0, 1], 0), Err(Error::FunctorLength { len: 100, .. })));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub const fn functor(len: usize, targets: &[usize], flip: usize) -> Result<Transform, Error> {
        let targets = crate::tri!(Dims::from_usizes(targets));
        let flip = crate::tri!(crate::dims::to_index(flip));
        let map = crate::tri!(BitPermute::new(targets, flip));
        Transform::functor_map(len, map)
    }

    /// `functor` with its map already built.
    ///
    /// ```
    /// use cktile_transforms::{kinds::functor::BitPermute, Transform};
    /// assert_eq!(Transform::functor_map(8, BitPermute::SWAP_WARP)?, Transform::swap_warp(8)?);
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    #[inline]
    pub const fn functor_map(len: usize, map: BitPermute) -> Result<Transform, Error> {
        let len = crate::tri!(length(len, NAME, "len"));
        if map.escape(len).is_some() {
            return Err(Error::FunctorLength { len, map });
        }
        Ok(Transform::wrap(Params::Functor(FunctorParams { len, map })))
    }

    /// CK's `make_functor_transform(swap_warp_t{}, KWarps)`: `low = up ^ 1`
    /// (`functor(len, (0), 1)`); `len` must be even.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::swap_warp(4)?.to_string(), "functor(4,(0),1)");
    /// assert!(Transform::swap_warp(3).is_err());
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    #[inline]
    pub const fn swap_warp(len: usize) -> Result<Transform, Error> {
        Transform::functor_map(len, BitPermute::SWAP_WARP)
    }

    /// CK's `make_functor_transform` over `permute_bits_5` (its FMHA
    /// forward V3 kernel's token remap): `functor(len, (2,3,4,0,1), 0)`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::permute_bits_5(128)?.calculate_lower(&[1, 0, 0, 0, 0, 0, 0, 0])[0], 4);
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    #[inline]
    pub const fn permute_bits_5(len: usize) -> Result<Transform, Error> {
        Transform::functor_map(len, BitPermute::PERMUTE_BITS_5)
    }

    /// Over CK's `inverse_permute_bits_5`: `functor(len, (3,4,0,1,2), 0)`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::inverse_permute_bits_5(128)?.calculate_lower(&[4, 0, 0, 0, 0, 0, 0, 0])[0], 1);
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    #[inline]
    pub const fn inverse_permute_bits_5(len: usize) -> Result<Transform, Error> {
        Transform::functor_map(len, BitPermute::INVERSE_PERMUTE_BITS_5)
    }
}

super::kit::kind_defaults!(FunctorParams: one_lower, one_upper, always_valid, recomputed);

impl FunctorParams {
    pub(crate) const ROW: Row = Row {
        family: Family::Permutation,
        signature: sig("functor", const { &[LEN, Param::list("bit targets"), Param::int("flip", 0, 255, FLIP)] }),
        build: |a| {
            let map = BitPermute::new(a.list(1)?, a.int(2)?)?;
            Transform::functor_map(a.index(0)?, map)
        },
    };
    pub(crate) const fn args(&self) -> Args {
        let mut targets = Dims::EMPTY;
        let mut i = 0;
        while i < self.map.bits as usize && i < MAX_BITS {
            // At most MAX_DIMS entries: the push never fails.
            if let Ok(d) = targets.push(self.map.targets[i] as Index) {
                targets = d;
            }
            i += 1;
        }
        Args::new([Arg::Int(self.len), Arg::List(targets), Arg::Int(self.map.flip as Index)], 3)
    }
    pub(crate) const fn upper_lengths(&self) -> Dims {
        single(self.len)
    }
    pub(crate) const fn bind(&self, lower: &Dims) -> Result<Transform, Error> {
        crate::tri!(expect_len(Self::ROW.signature.name, 0, self.len, lower.get(0)));
        Ok(Transform::wrap(Params::Functor(*self)))
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
        put(low, low_ids, 0, self.map.apply(at(up, up_ids, 0)));
    }
    /// A permutation of bits is linear; a flip adds a constant.
    pub(crate) const fn is_xor_linear(&self) -> bool {
        self.map.flip == 0
    }
    pub(crate) const fn calculate_upper(&self, low: &Indices) -> Option<Indices> {
        Some(one(self.map.inverse().apply(low[0])))
    }
    pub(crate) const fn lowering(&self) -> Lowering {
        lowering(self.map)
    }
    pub(crate) const fn upper_lowering(&self) -> Option<Lowering> {
        Some(lowering(self.map.inverse()))
    }
    /// CK's rule: the vector passes through (see the module's note).
    pub(crate) const fn vector(_num_lower: usize, _num_upper: usize, _with: Option<i64>) -> VectorRule {
        VectorRule::Pass { dims: 1 }
    }
    pub(crate) const fn vector_with(&self) -> Option<i64> {
        None
    }
    /// A random map of the offered length: CK's `permute_bits_5` or
    /// `swap_warp_t` when the length takes them, else a random permutation
    /// of the low bits the length's blocks allow (and a random flip), one
    /// bit more when that happens to keep the length.
    pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
        let la = d.offered();
        match d.below(4) {
            0 => {
                if let Ok(t) = Transform::permute_bits_5(la) {
                    return Some(t);
                }
            }
            1 => {
                if let Ok(t) = Transform::swap_warp(la) {
                    return Some(t);
                }
            }
            _ => {}
        }
        let room = (la.trailing_zeros() as usize).min(5);
        let n = 1 + d.index(room + 1);
        let mut targets = [0usize; MAX_BITS];
        for (i, t) in targets.iter_mut().enumerate() {
            *t = i;
        }
        for i in (1..n).rev() {
            targets.swap(i, d.index(i + 1));
        }
        let flip = d.index(1 << n);
        Transform::functor(la, &targets[..n], flip)
            .or_else(|_| Transform::functor(la, &targets[..n], 0))
            .or_else(|_| Transform::functor(la, &[0], 0))
            .ok()
    }
}

/// The typed form, for kernel code: the functor as a [`FunctorMap`](typed::FunctorMap) (CK's
/// two as zero-sized types, or a runtime [`BitPermute`]) and the length as
/// a [`Value`](crate::Value), with CK Tile's builder, evaluated by this
/// module's formulas. Re-exported in [`typed`](crate::typed).
pub mod typed {
    use super::BitPermute;
    use crate::kinds::forms::*;

    /// A functor for [`Functor`]: its map known at compile time (CK's
    /// [`SwapWarp`], [`PermuteBits5`], [`InversePermuteBits5`]) or at run
    /// time (a [`BitPermute`], one runtime slot).
    ///
    /// ```
    /// use cktile_transforms::typed::{FunctorMap, PermuteBits5};
    /// use cktile_transforms::kinds::functor::BitPermute;
    /// assert_eq!(<PermuteBits5 as FunctorMap>::STATIC, Some(BitPermute::PERMUTE_BITS_5));
    /// assert_eq!(<BitPermute as FunctorMap>::RUNTIME, 1);
    /// ```
    pub trait FunctorMap: Copy {
        /// The map, when it is known at compile time.
        const STATIC: Option<BitPermute>;
        /// How many runtime slots it fills (0 or 1).
        const RUNTIME: usize = if Self::STATIC.is_some() { 0 } else { 1 };
        /// The map.
        fn map(&self) -> BitPermute;
        /// Writes a runtime map to `out[at]`.
        fn write_runtime(&self, out: &mut [u64], at: usize);
        /// Reads back what [`write_runtime`](Self::write_runtime) wrote.
        fn read_runtime(slots: &[u64], at: usize) -> Self;
    }

    impl FunctorMap for BitPermute {
        const STATIC: Option<BitPermute> = None;
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn map(&self) -> BitPermute {
            *self
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn write_runtime(&self, out: &mut [u64], at: usize) {
            if let Some(slot) = out.get_mut(at) {
                *slot = self.pack();
            }
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn read_runtime(slots: &[u64], at: usize) -> Self {
            BitPermute::unpack(slots.get(at).copied().unwrap_or(0))
        }
    }

    macro_rules! static_functor {
        ($(#[$doc:meta])* $name:ident = $map:expr) => {
            $(#[$doc])*
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub struct $name;

            impl FunctorMap for $name {
                const STATIC: Option<BitPermute> = Some($map);
                #[cfg_attr(always_inline, inline(always))]
                #[cfg_attr(not(always_inline), inline)]
                fn map(&self) -> BitPermute {
                    $map
                }
                #[cfg_attr(always_inline, inline(always))]
                #[cfg_attr(not(always_inline), inline)]
                fn write_runtime(&self, _: &mut [u64], _: usize) {}
                #[cfg_attr(always_inline, inline(always))]
                #[cfg_attr(not(always_inline), inline)]
                fn read_runtime(_: &[u64], _: usize) -> Self {
                    $name
                }
            }
        };
    }

    static_functor!(
        /// CK's `swap_warp_t`: `v ^ 1`.
        ///
        /// ```
        /// use cktile_transforms::typed::{make_functor_transform, SwapWarp, TypedTransform};
        /// use cktile_transforms::Number;
        /// assert_eq!(make_functor_transform(SwapWarp, Number::<4>).lower(&[2, 0, 0, 0, 0, 0, 0, 0])[0], 3);
        /// ```
        SwapWarp = BitPermute::SWAP_WARP
    );
    static_functor!(
        /// CK's `permute_bits_5`.
        ///
        /// ```
        /// use cktile_transforms::typed::{make_functor_transform, PermuteBits5, TypedTransform};
        /// assert_eq!(make_functor_transform(PermuteBits5, 64usize).lower(&[1, 0, 0, 0, 0, 0, 0, 0])[0], 4);
        /// ```
        PermuteBits5 = BitPermute::PERMUTE_BITS_5
    );
    static_functor!(
        /// CK's `inverse_permute_bits_5`.
        ///
        /// ```
        /// use cktile_transforms::typed::{make_functor_transform, InversePermuteBits5, TypedTransform};
        /// assert_eq!(make_functor_transform(InversePermuteBits5, 64usize).lower(&[4, 0, 0, 0, 0, 0, 0, 0])[0], 1);
        /// ```
        InversePermuteBits5 = BitPermute::INVERSE_PERMUTE_BITS_5
    );

    /// CK Tile's `functor_transform<Functor, LowLength>`, for the functors
    /// of the [`functor`](super) family.
    ///
    /// ```
    /// use cktile_transforms::typed::{Functor, PermuteBits5, TypedTransform};
    /// use cktile_transforms::Number;
    /// let f = Functor { functor: PermuteBits5, len: Number::<64> };
    /// assert_eq!(f.to_transform().unwrap().to_string(), "functor(64,(2,3,4,0,1),0)");
    /// ```
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Functor<F: FunctorMap, L: Value> {
        /// The functor.
        pub functor: F,
        /// The length (upper and lower).
        pub len: L,
    }

    impl<F: FunctorMap, L: Value> TypedTransform for Functor<F, L> {
        type NumLower = U1;
        type NumUpper = U1;
        const KIND: Kind = Kind::Functor;
        const STATIC: Option<Result<Transform, Error>> = match (F::STATIC, L::STATIC) {
            (Some(map), Some(len)) => Some(Transform::functor_map(len, map)),
            _ => None,
        };
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn to_transform(self) -> Result<Transform, Error> {
            Transform::functor_map(self.len.get(), self.functor.map())
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn accepts(self, lower_lengths: &Indices) -> bool {
            length_is(self.len, lower_lengths[0]) && self.functor.map().escape(ix(self.len)).is_none()
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn lower(&self, up: &Indices) -> Indices {
            one(self.functor.map().apply(up[0]))
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn is_valid(&self, _: &Indices) -> bool {
            true
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn upper_lengths(&self, _: &Indices) -> Indices {
            one(ix(self.len))
        }
        const RUNTIME: usize = F::RUNTIME + L::RUNTIME;
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn write_runtime(&self, out: &mut [u64], at: usize) {
            self.functor.write_runtime(out, at);
            self.len.write_runtime(out, at + F::RUNTIME);
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn read_runtime(slots: &[u64], at: usize) -> Self {
            Functor { functor: F::read_runtime(slots, at), len: L::read_runtime(slots, at + F::RUNTIME) }
        }
    }

    /// CK Tile's `make_functor_transform(functor, low_length)`: builds a
    /// [`Functor`].
    ///
    /// ```
    /// use cktile_transforms::typed::*;
    /// use cktile_transforms::Number;
    /// assert!(make_functor_transform(SwapWarp, Number::<4>).to_transform().is_ok());
    /// assert!(make_functor_transform(SwapWarp, Number::<3>).to_transform().is_err());
    /// ```
    pub const fn make_functor_transform<F: FunctorMap, L: Value>(functor: F, len: L) -> Functor<F, L> {
        Functor { functor, len }
    }
}
