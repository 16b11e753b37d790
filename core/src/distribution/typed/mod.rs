//! Typed tile distributions: CK Tile's `make_static_tile_distribution` for
//! kernel code, built on the typed adaptors.
//!
//! [`tile_distribution_encoding!`](crate::tile_distribution_encoding)
//! declares an encoding as a type: CK's six lists, checked by
//! [`Encoding::new`] at compile time (an invalid encoding does not compile,
//! and the message says what is wrong), and the types of its
//! `ps_ys_to_xs` adaptor (a [`HiddenAdaptor`](crate::typed::HiddenAdaptor): a
//! replicate for R, an unmerge per X, a merge per P, hidden ids numbered
//! by [`Encoding::rh_hidden`] and [`Encoding::p_hidden`], the numbering
//! [`Distribution::new`] uses) and of its `ys_to_d` descriptor (packed Y
//! lengths). [`make_static_tile_distribution`] makes the distribution: zero
//! sized, every length and id a constant, so
//! [`calculate_index`](TileDistribution::calculate_index) compiles to the
//! lane map's arithmetic (the proof kernels of `perf/kernels` check it on
//! amdgcn, nvptx and x86_64).
//!
//! ```
//! use cktile_core::prelude::*;
//!
//! cktile_core::tile_distribution_encoding! {
//!     /// CK's warp-GEMM A operand of the 32x32x8 MFMA: X = (M 32, K 8); the
//!     /// lane merges K's 2 with M's 32, the register walks K's 4.
//!     pub struct MfmaA32x8 {
//!         rs_lengths: [],
//!         hs_lengthss: [[32], [2, 4]],
//!         ps_to_rhss_major: [[2, 1]],
//!         ps_to_rhss_minor: [[0, 0]],
//!         ys_to_rhs_major: [2],
//!         ys_to_rhs_minor: [1],
//!     }
//! }
//!
//! let d = make_static_tile_distribution::<MfmaA32x8>();
//! let (lane, y) = (37, 3);
//! assert_eq!(d.calculate_index([lane, y]), [lane % 32, 4 * (lane / 32) + y]);
//! assert_eq!(d.d_index([y]), 3);
//! assert_eq!(size_of_val(&d), 0);
//! ```

pub mod registers;
pub mod shape;
pub mod unrolled;
pub mod values;

use self::shape::{EncodingCounts, ShapeCounts};
pub use self::unrolled::RegisterLength;
pub use self::values::{
    EncodingSource, PHidden, PRhHidden, PRhLength, RhHidden, RhLength, TopHidden, XLength, YRhLength,
};
use super::{Distribution, Encoding};
use crate::error::Error;
use crate::typed::{AdaptorChain, Built, Chain, CoordinateOf, TensorAdaptor, TensorDescriptor, static_failure};
use crate::{Descriptor, Index};
use cktile_transforms::{Count, MAX_DIMS};
use core::fmt;
use generic_array::GenericArray;

/// A tile distribution encoding as a type, declared by
/// [`tile_distribution_encoding!`](crate::tile_distribution_encoding):
/// the encoding, and the chains of its `ps_ys_to_xs` adaptor and `ys_to_d`
/// descriptor (all static).
///
/// ```
/// use cktile_core::distribution::typed::TileEncoding;
/// cktile_core::tile_distribution_encoding! {
///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
/// }
/// assert_eq!(Rows::ENCODING, cktile_core::distribution::Encoding::new(&[], &[&[4, 16]], &[&[1]], &[&[1]], &[1], &[0])?);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub trait TileEncoding: EncodingSource {
    /// The encoding, validated by [`Encoding::new`] (a compile error when
    /// it is malformed).
    const ENCODING: Encoding;
    /// The counts of the encoding's groups (R, the H of each X, the
    /// components of each P, Y), from which the adaptor's and descriptor's
    /// types are built ([`shape`]); checked against
    /// [`ENCODING`](Self::ENCODING) when a distribution is made.
    type Shape: ShapeCounts;
    /// The `ps_ys_to_xs` adaptor: top (P..., Y...), bottom X.
    type PsYsToXs: AdaptorChain + Default;
    /// The `ys_to_d` descriptor: Y to the thread-buffer index D.
    type YsToD: Chain + Default;
    /// How many registers a thread holds: one per Y index, the product of
    /// the Y lengths, as a type-level integer (`typenum`), which sizes the
    /// thread buffer ([`Registers`]) that CK's `static_distributed_tensor`
    /// holds. [`tile_distribution_encoding!`](crate::tile_distribution_encoding)
    /// and [`EmbedEncoding`](super::EmbedEncoding) compute it from the lengths
    /// ([`registers`]); no one writes it by hand.
    ///
    /// ```
    /// use cktile_core::distribution::typed::TileEncoding;
    /// use typenum::Unsigned;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16], [8]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 0] }
    /// }
    /// assert_eq!(<Rows as TileEncoding>::RegisterCount::USIZE, 4 * 8);
    /// ```
    type RegisterCount: RegisterLength;
}

/// A thread's registers for elements of type `T` under encoding `E`: a
/// [`GenericArray`] of one element per Y index (`repr(transparent)` over
/// an array of [`TileEncoding::RegisterCount`] elements: a kernel's
/// registers, nothing more).
///
/// ```
/// use cktile_core::distribution::typed::Registers;
/// cktile_core::tile_distribution_encoding! {
///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16], [8]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 0] }
/// }
/// assert_eq!(size_of::<Registers<u16, Rows>>(), 32 * 2);
/// ```
pub type Registers<T, E> = GenericArray<T, <E as TileEncoding>::RegisterCount>;

/// The storage of a thread's elements of a distributed tensor: an array
/// `[T; N]` or a [`GenericArray`] (what [`Registers`] is: its length a
/// type, for encodings generic over a policy's sizes), filled at
/// creation, read and written as a slice (with constant indices in a
/// kernel, so it stays in registers).
///
/// ```
/// use cktile_core::distribution::typed::ThreadBuffer;
/// use generic_array::GenericArray;
/// let mut r = <[u16; 4] as ThreadBuffer<u16>>::filled(7);
/// r.as_mut_slice()[2] = 1;
/// assert_eq!(r.as_slice(), &[7, 7, 1, 7]);
/// let g = <GenericArray<u16, typenum::U4> as ThreadBuffer<u16>>::from_fn(|i| i as u16);
/// assert_eq!(g.as_slice(), &[0, 1, 2, 3]);
/// ```
pub trait ThreadBuffer<T: Copy>: Clone {
    /// Every element `value`.
    fn filled(value: T) -> Self;
    /// Element `i` is `f(i)`, in order.
    ///
    /// ```
    /// use cktile_core::distribution::typed::ThreadBuffer;
    /// assert_eq!(<[usize; 3] as ThreadBuffer<usize>>::from_fn(|i| i * i).as_slice(), &[0, 1, 4]);
    /// ```
    fn from_fn(f: impl FnMut(usize) -> T) -> Self;
    /// The elements, D order.
    fn as_slice(&self) -> &[T];
    /// The elements, writable.
    fn as_mut_slice(&mut self) -> &mut [T];
}

impl<T: Copy, const N: usize> ThreadBuffer<T> for [T; N] {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn filled(value: T) -> Self {
        [value; N]
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn from_fn(f: impl FnMut(usize) -> T) -> Self {
        core::array::from_fn(f)
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn as_slice(&self) -> &[T] {
        self
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}

impl<T: Copy, N: RegisterLength> ThreadBuffer<T> for GenericArray<T, N> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn filled(value: T) -> Self {
        N::generate_from(0, &mut |_| value)
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn from_fn(mut f: impl FnMut(usize) -> T) -> Self {
        N::generate_from(0, &mut f)
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn as_slice(&self) -> &[T] {
        GenericArray::as_slice(self)
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        GenericArray::as_mut_slice(self)
    }
}

/// The encoding of a typed encoding's constant, or a compile error naming
/// the problem (what [`tile_distribution_encoding!`](crate::tile_distribution_encoding)
/// puts in [`TileEncoding::ENCODING`]).
///
/// ```
/// use cktile_core::distribution::Encoding;
/// const E: Encoding = cktile_core::distribution::typed::encoding_or_fail(Encoding::new(&[], &[&[4, 8]], &[&[1]], &[&[1]], &[1], &[0]));
/// assert_eq!(E.ndim_y(), 1);
/// ```
///
/// ```compile_fail
/// use cktile_core::distribution::Encoding;
/// // No Y: the encoding needs at least one.
/// const E: Encoding = cktile_core::distribution::typed::encoding_or_fail(Encoding::new(&[], &[&[8]], &[&[1]], &[&[0]], &[], &[]));
/// let _ = E;
/// ```
pub const fn encoding_or_fail(encoding: Result<Encoding, Error>) -> Encoding {
    match encoding {
        Ok(e) => e,
        Err(e) => static_failure(&e),
    }
}

/// The encoding, when its thread buffer has `registers` elements (the
/// product of its Y lengths), or a compile error naming the product: the
/// check of a typed encoding's [`TileEncoding::RegisterCount`], which
/// [`tile_distribution_encoding!`](crate::tile_distribution_encoding) and
/// [`EmbedEncoding`](super::EmbedEncoding) compute as a type from the lengths
/// ([`registers`]) and put through this in
/// [`TileEncoding::ENCODING`]. It fails only where the type-level count
/// cannot follow the lengths: a concrete encoding's buffer of 2^30
/// elements or more.
///
/// ```
/// use cktile_core::distribution::Encoding;
/// use cktile_core::distribution::typed::{encoding_or_fail, registers_or_fail};
/// const E: Encoding = registers_or_fail(encoding_or_fail(Encoding::new(&[], &[&[4, 8]], &[&[1]], &[&[1]], &[1], &[0])), 4);
/// assert_eq!(E.y_elements(), 4);
/// ```
///
/// ```compile_fail
/// use cktile_core::distribution::Encoding;
/// use cktile_core::distribution::typed::{encoding_or_fail, registers_or_fail};
/// // The Y has length 4: 4 registers, not 8.
/// const E: Encoding = registers_or_fail(encoding_or_fail(Encoding::new(&[], &[&[4, 8]], &[&[1]], &[&[1]], &[1], &[0])), 8);
/// let _ = E;
/// ```
pub const fn registers_or_fail(encoding: Encoding, registers: usize) -> Encoding {
    let needed = encoding.y_elements();
    if needed != registers {
        static_failure(&Error::policy_size(
            "a typed encoding's thread buffer (its RegisterCount, computed as a type) must hold the product of its Y \
             lengths; a concrete encoding's holds fewer than 2^30 elements",
            "product of the Y lengths",
            needed,
        ));
    }
    encoding
}

/// A tile distribution whose encoding `E` is a type: CK Tile's
/// `tile_distribution` as [`make_static_tile_distribution`] makes it.
/// Zero-sized; every method is compile-time arithmetic on the indices.
///
/// ```
/// use cktile_core::prelude::*;
/// cktile_core::tile_distribution_encoding! {
///     /// 64 lanes over a 4 x 64 tile, 4 rows per lane group of 16.
///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16], [4]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 0] }
/// }
/// let d = make_static_tile_distribution::<Rows>();
/// assert_eq!(d.calculate_index([5, 2, 3]), [2 * 16 + 5, 3]);
/// assert_eq!((d.ps_ys_to_xs().top_lengths(), d.ys_to_d().lengths().as_slice()), ([16, 4, 4], &[4, 4][..]));
/// ```
pub struct TileDistribution<E: TileEncoding> {
    ps_ys_to_xs: TensorAdaptor<E::PsYsToXs>,
    ys_to_d: TensorDescriptor<E::YsToD>,
}

impl<E: TileEncoding> Clone for TileDistribution<E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E: TileEncoding> Copy for TileDistribution<E> {}

impl<E: TileEncoding> fmt::Debug for TileDistribution<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TileDistribution").field("encoding", &E::ENCODING).finish()
    }
}

/// The coordinate types: (P..., Y...), X and Y.
type PsYs<E> = <<<E as TileEncoding>::PsYsToXs as AdaptorChain>::NumTop as Count>::Coordinate;
type Xs<E> = <<<E as TileEncoding>::PsYsToXs as AdaptorChain>::NumBottom as Count>::Coordinate;
type Ys<E> = <<<E as TileEncoding>::YsToD as Chain>::NumTop as Count>::Coordinate;

/// Refuses a typed encoding whose chains are not all static or are
/// invalid: the macro's chains always are static and valid for a valid
/// encoding; a hand-written [`TileEncoding`] may not be.
const fn check_static(
    adaptor: &Option<Result<crate::adaptor::Adaptor, Error>>,
    ys: &Option<Result<Descriptor, Error>>,
) {
    match (adaptor, ys) {
        (Some(Ok(_)), Some(Ok(_))) => {}
        (Some(Err(e)), _) | (_, Some(Err(e))) => static_failure(e),
        _ => panic!("cktile: a TileEncoding's adaptor and ys_to_d descriptor must be all static"),
    }
}

/// Whether a shape counts an encoding's groups.
const fn counts_match(e: &Encoding, c: &EncodingCounts) -> bool {
    let mut ok = c.rs == e.ndim_r() && c.xs == e.ndim_x() && c.ps == e.ndim_p() && c.ys == e.ndim_y();
    let mut i = 0;
    while ok && i < MAX_DIMS {
        ok =
            (i >= c.xs || c.hs[i] == e.hs_lengths(i).len()) && (i >= c.ps || c.p_components[i] == e.p_to_rh(i).0.len());
        i += 1;
    }
    ok
}

impl<E: TileEncoding> TileDistribution<E> {
    /// The compile-time checks: the encoding (by evaluating it), its shape,
    /// and its adaptor and descriptor, built by the runtime constructors.
    const CHECK: () = {
        if !counts_match(&E::ENCODING, &E::Shape::COUNTS) {
            panic!("cktile: a TileEncoding's Shape must count its encoding's R, H, P and Y groups");
        }
        check_static(&E::PsYsToXs::STATIC, &E::YsToD::STATIC)
    };

    /// The encoding.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// assert_eq!(make_static_tile_distribution::<Rows>().encoding().ndim_p(), 1);
    /// ```
    pub const fn encoding(&self) -> Encoding {
        E::ENCODING
    }

    /// The runtime distribution of the same encoding
    /// ([`Distribution::new`]), for the analyzer, printing and the tables.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// let d = make_static_tile_distribution::<Rows>();
    /// assert_eq!(&d.ps_ys_to_xs().adaptor(), d.distribution()?.ps_ys_to_xs());
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn distribution(&self) -> Result<Distribution, Error> {
        Distribution::new(E::ENCODING)
    }

    /// The `ps_ys_to_xs` adaptor.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// assert_eq!(make_static_tile_distribution::<Rows>().ps_ys_to_xs().bottom_lengths(), [64]);
    /// ```
    pub fn ps_ys_to_xs(&self) -> &TensorAdaptor<E::PsYsToXs> {
        &self.ps_ys_to_xs
    }

    /// The `ys_to_d` descriptor.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// assert_eq!(make_static_tile_distribution::<Rows>().ys_to_d().element_space_size(), 4);
    /// ```
    pub fn ys_to_d(&self) -> &TensorDescriptor<E::YsToD> {
        &self.ys_to_d
    }

    /// CK's `calculate_index` over (P..., Y...): the X coordinate a
    /// thread's element lands on (no range checks, as in CK Tile).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// assert_eq!(make_static_tile_distribution::<Rows>().calculate_index([5, 2]), [2 * 16 + 5]);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn calculate_index(&self, ps_ys: impl CoordinateOf<PsYs<E>>) -> Xs<E> {
        self.ps_ys_to_xs.calculate_bottom_index(ps_ys)
    }

    /// The thread-buffer index of a Y index (`ys_to_d`'s offset).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16], [2]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 0] }
    /// }
    /// assert_eq!(make_static_tile_distribution::<Rows>().d_index([3, 1]), 7);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn d_index(&self, ys: impl CoordinateOf<Ys<E>>) -> Index {
        self.ys_to_d.calculate_offset(ys)
    }
}

/// CK Tile's `make_static_tile_distribution(encoding)` for an encoding
/// declared by [`tile_distribution_encoding!`](crate::tile_distribution_encoding):
/// checked at compile time, built from constants.
///
/// ```
/// use cktile_core::prelude::*;
/// cktile_core::tile_distribution_encoding! {
///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
/// }
/// let d = make_static_tile_distribution::<Rows>();
/// assert_eq!(d.calculate_index([15, 3]), [63]);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_static_tile_distribution<E: TileEncoding>() -> TileDistribution<E> {
    // Referenced here, in the public function, so a compile error points at the caller.
    let () = TileDistribution::<E>::CHECK;
    TileDistribution {
        ps_ys_to_xs: TensorAdaptor::from_valid(E::PsYsToXs::default()),
        ys_to_d: TensorDescriptor::from_valid(E::YsToD::default()),
    }
}

/// Declares a tile distribution encoding as a type implementing
/// [`TileEncoding`]: CK Tile's
/// `tile_distribution_encoding<RsLengths, HsLengthss, Ps2RHssMajor,
/// Ps2RHssMinor, Ys2RHsMajor, Ys2RHsMinor>` with each `sequence<...>` a
/// bracketed list and each `tuple<...>` a list of lists, in CK's order.
/// [`make_static_tile_distribution`]
/// makes the distribution.
///
/// The encoding is checked by [`Encoding::new`](crate::distribution::Encoding::new)
/// when it is used (a compile error naming the problem); a P's major and
/// minor lists of different lengths do not expand.
///
/// ```
/// cktile_core::tile_distribution_encoding! {
///     /// CK's universal GEMM block DRAM distribution: 256 threads, a
///     /// 128 x 32 tile, K1 = 8.
///     pub struct GemmDram {
///         rs_lengths: [1],
///         hs_lengthss: [[2, 4, 16], [4, 8]],
///         ps_to_rhss_major: [[1], [1, 2]],
///         ps_to_rhss_minor: [[1], [2, 0]],
///         ys_to_rhs_major: [1, 2],
///         ys_to_rhs_minor: [0, 1],
///     }
/// }
/// use cktile_core::prelude::*;
/// let d = make_static_tile_distribution::<GemmDram>();
/// // warp 1, lane 9, Y = (1, 3): M = 64 + 16 + 9 / 4, K = 8 * (9 % 4) + 3
/// assert_eq!(d.calculate_index([1, 9, 1, 3]), [82, 11]);
/// ```
///
/// **A policy written once.** The struct may take const parameters, and
/// the R and H lengths are then expressions of them, as CK computes
/// `M0 = MPerBlock / (M2 * M1)` in its policies. The thread buffer's size,
/// the product of the lengths the Ys name, is computed by the macro as a
/// type ([`TileEncoding::RegisterCount`], through
/// [`registers`](crate::distribution::typed::registers)): nothing to write, and
/// every instantiation gets its own. The lengths a Y names are therefore
/// written with `+`, `-`, `*`, `/` and `%` over the const parameters,
/// integer literals and parentheses (the other lengths may be any
/// constant expression). An optional `requires: [condition => "message",
/// ...]` states the policy's own requirements (CK's `static_assert`s): the
/// first that does not hold is a compile error with its message.
///
/// ```
/// cktile_core::tile_distribution_encoding! {
///     /// CK's `MakeADramTileDistribution` for 256 threads with K1 = 8, over
///     /// MPerBlock and KPerBlock: M = (M0, 4 waves, 16 lanes), K = (K/8 lanes, 8).
///     pub struct ADram<const M: usize, const K: usize> {
///         requires: [K % 8 == 0 && 64 % (K / 8) == 0 => "K / 8 must divide the wave size 64"],
///         rs_lengths: [1],
///         hs_lengthss: [[M / 64, 4, 16], [K / 8, 8]],
///         ps_to_rhss_major: [[1], [1, 2]],
///         ps_to_rhss_minor: [[1], [2, 0]],
///         ys_to_rhs_major: [1, 2],
///         ys_to_rhs_minor: [0, 1],
///     }
/// }
/// use cktile_core::prelude::*;
/// use cktile_core::tile::StaticDistributedTensor;
/// let d = make_static_tile_distribution::<ADram<128, 32>>();
/// assert_eq!(d.calculate_index([1, 9, 1, 3]), [82, 11]);
/// let wide = make_static_tile_distribution::<ADram<256, 32>>();
/// assert_eq!(wide.calculate_index([1, 9, 3, 3]), [3 * 64 + 16 + 9 / 4, 8 * (9 % 4) + 3]);
/// // M / 64 * 8 registers a thread: 16 and 32, an array of each size.
/// assert_eq!(StaticDistributedTensor::<u16, ADram<128, 32>>::filled(0).thread_buffer().len(), 16);
/// assert_eq!(size_of::<StaticDistributedTensor<u16, ADram<256, 32>>>(), 32 * 2);
/// ```
///
/// ```compile_fail
/// cktile_core::tile_distribution_encoding! {
///     // The Y names H component (2, 1), but X 1 has one H entry.
///     struct Bad { rs_lengths: [], hs_lengthss: [[16], [4]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[0, 0]], ys_to_rhs_major: [2], ys_to_rhs_minor: [1] }
/// }
/// let _ = cktile_core::distribution::typed::make_static_tile_distribution::<Bad>();
/// ```
///
/// ```compile_fail
/// cktile_core::tile_distribution_encoding! {
///     // A policy's requirement: M = 100 is not a multiple of 64.
///     struct Rows<const M: usize> {
///         requires: [M % 64 == 0 => "MPerBlock must be a multiple of 64"],
///         rs_lengths: [], hs_lengthss: [[M / 64, 64], [8]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 0]
///     }
/// }
/// let _ = cktile_core::distribution::typed::make_static_tile_distribution::<Rows<100>>();
/// ```
///
/// ```compile_fail
/// cktile_core::tile_distribution_encoding! {
///     // A Y's length must be arithmetic the macro can compute as a type: no function calls.
///     struct Rows<const M: usize> { rs_lengths: [], hs_lengthss: [[M.min(2), 64], [8]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 0] }
/// }
/// let _ = cktile_core::distribution::typed::make_static_tile_distribution::<Rows<128>>();
/// ```
#[macro_export]
macro_rules! tile_distribution_encoding {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            rs_lengths: $rs:tt,
            hs_lengthss: [$($hs:tt),+ $(,)?],
            ps_to_rhss_major: [$([$($pa:literal),+ $(,)?]),* $(,)?],
            ps_to_rhss_minor: [$([$($pi:literal),+ $(,)?]),* $(,)?],
            ys_to_rhs_major: [$($ya:literal),* $(,)?],
            ys_to_rhs_minor: [$($yi:literal),* $(,)?] $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        $vis struct $name;

        $crate::tile_distribution_encoding!(@impls [] ($name)
            ($crate::distribution::typed::encoding_or_fail(
                $crate::tile_distribution_encoding!(@new $rs [$($hs)+] [$([$($pa),+])*] [$([$($pi),+])*] [$($ya),*] [$($yi),*]),
            ))
            // A concrete encoding's size is a constant: named as a type chunk by chunk.
            ($crate::distribution::typed::registers::FromChunks<
                { $crate::distribution::typed::registers::chunk(<$name as $crate::distribution::typed::EncodingSource>::SOURCE.y_elements(), 2) },
                { $crate::distribution::typed::registers::chunk(<$name as $crate::distribution::typed::EncodingSource>::SOURCE.y_elements(), 1) },
                { $crate::distribution::typed::registers::chunk(<$name as $crate::distribution::typed::EncodingSource>::SOURCE.y_elements(), 0) },
            >)
            ()
            $rs [$($hs)+] [$([$($pa),+] [$($pi),+])*] [$($ya),*] [$($yi),*]);
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident<$(const $param:ident: usize),+ $(,)?> {
            $(requires: [$($cond:expr => $why:literal),+ $(,)?],)?
            rs_lengths: $rs:tt,
            hs_lengthss: [$($hs:tt),+ $(,)?],
            ps_to_rhss_major: [$([$($pa:literal),+ $(,)?]),* $(,)?],
            ps_to_rhss_minor: [$([$($pi:literal),+ $(,)?]),* $(,)?],
            ys_to_rhs_major: [$($ya:tt),* $(,)?],
            ys_to_rhs_minor: [$($yi:tt),* $(,)?] $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        $vis struct $name<$(const $param: usize),+>;

        $crate::tile_distribution_encoding!(@impls [$(const $param: usize),+] ($name<$($param),+>)
            ($crate::distribution::typed::encoding_or_fail({
                // The policy's own requirements first, as CK's static_asserts.
                $($(if !$cond {
                    $crate::typed::static_failure(&$crate::Error::policy($why));
                })+)?
                $crate::tile_distribution_encoding!(@new $rs [$($hs)+] [$([$($pa),+])*] [$([$($pi),+])*] [$($ya),*] [$($yi),*])
            }))
            // The size as a type computed from the const parameters: the product of the entries the Ys name.
            (<$crate::__cktile_registers!(@product [$rs $($hs)+] [$($ya)*] [$($yi)*]) as $crate::distribution::typed::registers::Evaluate>::Value)
            ($crate::__cktile_registers!(@product [$rs $($hs)+] [$($ya)*] [$($yi)*]): $crate::distribution::typed::registers::Evaluate)
            $rs [$($hs)+] [$([$($pa),+] [$($pi),+])*] [$($ya),*] [$($yi),*]);
    };
    // The two impls of type `$ty` (generic over `$gen`): its encoding
    // `$source`, and the types built from its lists; `$count` registers,
    // a type-level integer provable under `$bound`.
    (@impls [$($gen:tt)*] ($ty:ty) ($source:expr) ($count:ty) ($($bound:tt)*) $rs:tt $xs:tt $ps:tt $ya:tt $yi:tt) => {
        impl<$($gen)*> $crate::distribution::typed::EncodingSource for $ty {
            const SOURCE: $crate::distribution::Encoding = $source;
        }

        impl<$($gen)*> $crate::distribution::typed::TileEncoding for $ty where $($bound)* {
            const ENCODING: $crate::distribution::Encoding = $crate::distribution::typed::registers_or_fail(
                <Self as $crate::distribution::typed::EncodingSource>::SOURCE,
                <<Self as $crate::distribution::typed::TileEncoding>::RegisterCount as $crate::typenum::Unsigned>::USIZE,
            );
            $crate::tile_distribution_encoding!(@types ($ty) $rs $xs $ps $ya $yi);
            type RegisterCount = $count;
        }
    };
    // The encoding from CK's six lists.
    (@new [$($r:expr),* $(,)?] [$([$($h:expr),+ $(,)?])+] [$([$($pa:literal),+])*] [$([$($pi:literal),+])*] [$($ya:expr),*] [$($yi:expr),*]) => {
        $crate::distribution::Encoding::new(
            &[$($r),*],
            &[$(&[$($h),+]),+],
            &[$(&[$($pa),+]),*],
            &[$(&[$($pi),+]),*],
            &[$($ya),*],
            &[$($yi),*],
        )
    };
    // The shape (the groups' counts) and the adaptor and descriptor types
    // built from it, every length and id read off the encoding `$e`.
    (@types ($e:ty) [$($r:expr),* $(,)?] [$([$($h:expr),+ $(,)?])+] [$([$($pa:literal),+] [$($pi:literal),+])*] [$($ya:tt),*] [$($yi:tt),*]) => {
        type Shape = $crate::distribution::typed::shape::Shape<
            $crate::tile_distribution_encoding!(@count $($r)*),
            ($($crate::tile_distribution_encoding!(@count $($h)+),)+),
            ($($crate::tile_distribution_encoding!(@count $($pa)+),)*),
            $crate::tile_distribution_encoding!(@count $($ya)*),
        >;
        type PsYsToXs = <Self::Shape as $crate::distribution::typed::shape::AdaptorShape<$e>>::PsYsToXs;
        type YsToD = <Self::Shape as $crate::distribution::typed::shape::AdaptorShape<$e>>::YsToD;
    };
    // A type-level integer: how many tokens.
    (@count) => { $crate::typenum::U0 };
    (@count $head:tt $($rest:tt)*) => { $crate::typenum::Add1<$crate::tile_distribution_encoding!(@count $($rest)*)> };
}
