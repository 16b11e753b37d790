//! The one core typed descriptors and typed adaptors share, as CK Tile's
//! `tensor_descriptor` is its `tensor_adaptor` plus an element space.
//!
//! Both are a chain of CK calls at the type level whose value holds only
//! the runtime parameters. What makes them safe to evaluate is the same
//! for both, and lives here once:
//!
//! - the contract, [`Built`]: the runtime object ([`Descriptor`](crate::Descriptor)
//!   or [`Adaptor`](crate::adaptor::Adaptor)) built at compile time when
//!   every parameter is static, the checks that read only types, the
//!   validation of the newest level on its values, and its verdict without
//!   branches;
//! - what the wrappers ([`TensorDescriptor`](crate::typed::TensorDescriptor),
//!   [`TensorAdaptor`](crate::typed::TensorAdaptor)) do with it: refuse an invalid
//!   all-static chain at compile time ([`static_failure`]), validate a
//!   runtime one, and build the runtime object on demand.
//!
//! The evaluation differs (a descriptor's chain ends in one offset, an
//! adaptor's in a bottom index), so it stays with [`Chain`](crate::typed::Chain)
//! and [`AdaptorChain`](crate::typed::AdaptorChain), both of which are `Built`.

use crate::error::{DescriptorProblem, Error, ErrorKind};
use core::marker::PhantomData;

/// A chain of CK calls at the type level (a typed descriptor's
/// [`Chain`](crate::typed::Chain) or a typed adaptor's
/// [`AdaptorChain`](crate::typed::AdaptorChain)) and how it is validated.
///
/// ```
/// use cktile_core::typed::{Built, Packed};
/// use cktile_core::Number;
/// type P = Packed<(Number<4>, Number<8>)>;
/// const D: cktile_core::Descriptor = match P::STATIC {
///     Some(Ok(d)) => d,
///     _ => panic!(),
/// };
/// assert_eq!(D.calculate_offset(&[1, 1]), 9);
/// assert_eq!(core::mem::size_of::<P>(), 0);
/// ```
pub trait Built: Copy {
    /// The runtime object the chain builds: a [`Descriptor`](crate::Descriptor)
    /// or an [`Adaptor`](crate::adaptor::Adaptor).
    ///
    /// ```
    /// use cktile_core::typed::Built;
    /// use cktile_core::prelude::*;
    /// fn runtime<B: Built>(chain: &B) -> Result<B::Runtime, Error> {
    ///     chain.build()
    /// }
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>, 8usize))?;
    /// let a = make_single_stage_tensor_adaptor((32usize,), (make_unmerge_transform((4usize, 8usize)),), (ids![0],), (ids![0, 1],))?;
    /// assert_eq!(runtime(d.chain())?, d.descriptor()); // a Descriptor
    /// assert_eq!(runtime(a.chain())?, a.adaptor()); // an Adaptor
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    type Runtime: Copy + 'static;
    /// The runtime object, when every parameter is static (an `Err` when
    /// they are invalid; turned into a compile error by the builders).
    ///
    /// ```
    /// use cktile_core::typed::{Built, Packed};
    /// use cktile_core::Number;
    /// assert!(<Packed<(Number<4>,)> as Built>::STATIC.is_some());
    /// assert!(<Packed<(usize,)> as Built>::STATIC.is_none());
    /// ```
    const STATIC: Option<Result<Self::Runtime, Error>>;
    /// The checks of the chain's newest level that read no runtime value
    /// (its id lists against its transforms' dimension counts, and for an
    /// adaptor its growth), when its ids are compile-time values: an `Err`
    /// is a compile error, even where lengths are runtime values. `None`
    /// when they cannot be known from the types (then
    /// [`check`](Self::check) runs them).
    ///
    /// ```
    /// use cktile_core::typed::{Built, Packed, Transformed};
    /// use cktile_core::transforms::typed::PassThrough;
    /// use cktile_core::Number;
    /// type Bad = Transformed<Packed<(usize, usize)>, (PassThrough<usize>,), ((Number<0>,),), ((Number<0>,),)>;
    /// assert!(matches!(<Bad as Built>::STRUCTURE, Some(Err(_)))); // dimension 1 is read by no transform
    /// assert_eq!(<Packed<(usize,)> as Built>::STRUCTURE, Some(Ok(())));
    /// ```
    const STRUCTURE: Option<Result<(), Error>>;
    /// The runtime object, built from the chain's values by the runtime
    /// constructors: every level's checks. Accepts and refuses exactly what
    /// the builders do, with the same errors ([`check`](Self::check) is
    /// their cheap form).
    ///
    /// ```
    /// use cktile_core::typed::Built;
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>, 8usize)).unwrap();
    /// assert_eq!(d.chain().build(), Descriptor::packed(&[4, 8]));
    /// ```
    fn build(&self) -> Result<Self::Runtime, Error>;
    /// The validation the builders run: the checks of the chain's newest
    /// level, assuming the levels below it valid (they are, in a chain a
    /// [`TensorDescriptor`](crate::typed::TensorDescriptor) or
    /// [`TensorAdaptor`](crate::typed::TensorAdaptor) holds), with the same
    /// functions and in the same order as [`build`](Self::build), on the
    /// chain's values where the form allows it (a typed descriptor never
    /// builds a runtime object for it). For a chain whose lower levels are
    /// valid, `check` and `build` agree: `Ok` together, or the same `Err`.
    ///
    /// ```
    /// use cktile_core::typed::Built;
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>, 8usize)).unwrap();
    /// assert_eq!(d.chain().check(), Ok(()));
    /// assert_eq!(d.chain().check(), d.chain().build().map(|_| ()));
    /// ```
    fn check(&self) -> Result<(), Error>;
    /// Whether [`check`](Self::check) accepts: the same verdict as a
    /// `bool`. The base chains and the stages of compile-time ids write it
    /// without branches, so a kernel that builds a descriptor from runtime
    /// values pays a few compares for it, and no error (nor its message) is
    /// made unless it refuses ([`check`](Self::check) then names the
    /// problem). Tests hold it equal to `check` on every chain kind.
    ///
    /// ```
    /// use cktile_core::typed::Built;
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor((4usize, 8usize), (8usize, Number::<1>)).unwrap();
    /// assert!(d.chain().accepts());
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn accepts(&self) -> bool {
        self.check().is_ok()
    }
}

/// What the wrappers derive from a [`Built`] chain's types, once.
pub(crate) struct Core<B>(PhantomData<B>);

impl<B: Built> Core<B> {
    /// Rejects at compile time an invalid all-static chain, and a chain
    /// whose newest level's structure is invalid whatever its runtime
    /// lengths ([`Built::STRUCTURE`]). The wrappers' public builders
    /// reference it, so the compile error points at their caller.
    pub(crate) const CHECK: () = if let Some(Err(e)) = B::STATIC {
        static_failure(&e)
    } else if let Some(Err(e)) = B::STRUCTURE {
        static_failure(&e)
    };

    /// Whether the chain is all static, as a compile-time `bool` (not a
    /// comparison of a `&'static` runtime object's address with null,
    /// which LLVM does not fold on amdgcn, where null and a global's
    /// generic address need not differ).
    pub(crate) const IS_STATIC: bool = matches!(B::STATIC, Some(Ok(_)));

    /// Validates a chain: at compile time when it is all static
    /// ([`CHECK`](Self::CHECK)), otherwise its newest level, on its values.
    /// [`Built::accepts`] decides, without branches; only a refusal runs
    /// [`Built::check`] for the error that names the problem (on GPU
    /// targets, [`DescriptorProblem::RefusedOnDevice`]).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) fn validate(chain: B) -> Result<B, Error> {
        let () = Self::CHECK;
        if const { Self::IS_STATIC } || chain.accepts() {
            return Ok(chain);
        }
        Err(refusal(&chain))
    }

    /// The runtime object of a validated chain: the constant for an
    /// all-static chain, otherwise built from its values.
    pub(crate) fn runtime(chain: &B) -> B::Runtime {
        if let Some(Ok(r)) = B::STATIC {
            return r;
        }
        match chain.build() {
            Ok(r) => r,
            // `validate` accepted the same values, and `check` agrees with `build`.
            Err(e) => unreachable!("cktile: a validated typed chain no longer builds: {e}"),
        }
    }
}

/// The error of a chain [`Built::accepts`] refused: its
/// [`check`](Built::check)'s, which names the problem (were the two
/// verdicts ever to differ, which tests rule out, it still refuses).
#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
#[cold]
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn refusal<B: Built>(chain: &B) -> Error {
    match chain.check() {
        Err(e) => e,
        Ok(()) => Error::descriptor(DescriptorProblem::RefusedOnDevice),
    }
}

/// In a GPU kernel, [`DescriptorProblem::RefusedOnDevice`]: naming the
/// cause would keep [`Built::check`]'s code (hundreds of instructions, its
/// error values) in every kernel that builds a descriptor or an adaptor,
/// even one that drops the error.
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn refusal<B: Built>(_: &B) -> Error {
    Error::descriptor(DescriptorProblem::RefusedOnDevice)
}

/// Stops compilation with the error's summary, and with the value that
/// overflowed, the ids an adaptor's wiring got wrong, or the value a
/// kernel author's policy named ([`Error::policy_value`]), when that is
/// what went wrong: what the builders of typed descriptors, adaptors and
/// distributions call when an all-static chain is invalid, public so that
/// a `const` item built from a policy function stops the build the same
/// way.
///
/// # Panics
///
/// Always: it is meant for `const` items, where the panic is a compile
/// error whose text is the error's message. Outside a `const` context,
/// return the `Err` instead.
///
/// ```
/// use cktile_core::Error;
/// use cktile_core::typed::static_failure;
/// const fn warps_m<const M_PER_BLOCK: usize>() -> Result<usize, Error> {
///     if M_PER_BLOCK % 64 != 0 {
///         return Err(Error::policy_value("MPerBlock must be a multiple of MWarp * MPerXdl (64)", "MPerBlock", M_PER_BLOCK as i64));
///     }
///     Ok(M_PER_BLOCK / 64)
/// }
/// const WARPS_M: usize = match warps_m::<128>() {
///     Ok(w) => w,
///     Err(e) => static_failure(&e),
/// };
/// assert_eq!(WARPS_M, 2);
/// ```
///
/// With `warps_m::<96>()`, the build stops with "MPerBlock must be a
/// multiple of MWarp * MPerXdl (64) (MPerBlock = 96)":
///
/// ```compile_fail
/// # use cktile_core::Error;
/// # const fn warps_m<const M_PER_BLOCK: usize>() -> Result<usize, Error> {
/// #     if M_PER_BLOCK % 64 != 0 {
/// #         return Err(Error::policy_value("MPerBlock must be a multiple of MWarp * MPerXdl (64)", "MPerBlock", M_PER_BLOCK as i64));
/// #     }
/// #     Ok(M_PER_BLOCK / 64)
/// # }
/// const WARPS_M: usize = match warps_m::<96>() {
///     Ok(w) => w,
///     Err(e) => cktile_core::typed::static_failure(&e),
/// };
/// ```
pub const fn static_failure(e: &Error) -> ! {
    if let ErrorKind::Policy(problem) = e.kind() {
        match (problem.value(), problem.minimum()) {
            (Some((name, value)), Some(least)) => const_panic::concat_panic!(
                display: problem.message(), " (", display: name, " = ", value, "; at least ", least, ")"
            ),
            (Some((name, value)), None) => {
                const_panic::concat_panic!(display: problem.message(), " (", display: name, " = ", value, ")")
            }
            (None, _) => panic!("{}", problem.message()),
        }
    }
    let numbers = match e.kind() {
        ErrorKind::Adaptor(problem) => problem.numbers(),
        ErrorKind::Descriptor(problem) => problem.numbers(),
        ErrorKind::Encoding(problem) => problem.numbers(),
        _ => crate::error::Numbers::EMPTY,
    };
    if numbers.len > 0 {
        // `display:` prints the labels without quotes.
        let [(a, x), (b, y), (c, z), (d, w), (g, u), (h, v)] = numbers.pairs;
        match numbers.len {
            1 => const_panic::concat_panic!(display: e.summary(), " (", display: a, " ", x, ")"),
            2 => {
                const_panic::concat_panic!(display: e.summary(), " (", display: a, " ", x, ", ", display: b, " ", y, ")")
            }
            3 => const_panic::concat_panic!(
                display: e.summary(), " (", display: a, " ", x, ", ", display: b, " ", y, ", ", display: c, " ", z, ")"
            ),
            4 => const_panic::concat_panic!(
                display: e.summary(), " (", display: a, " ", x, ", ", display: b, " ", y, ", ", display: c, " ", z,
                ", ", display: d, " ", w, ")"
            ),
            5 => const_panic::concat_panic!(
                display: e.summary(), " (", display: a, " ", x, ", ", display: b, " ", y, ", ", display: c, " ", z,
                ", ", display: d, " ", w, ", ", display: g, " ", u, ")"
            ),
            _ => const_panic::concat_panic!(
                display: e.summary(), " (", display: a, " ", x, ", ", display: b, " ", y, ", ", display: c, " ", z,
                ", ", display: d, " ", w, ", ", display: g, " ", u, ", ", display: h, " ", v, ")"
            ),
        }
    }
    let value = match e.kind() {
        ErrorKind::Descriptor(DescriptorProblem::Overflow { value, .. }) => Some(*value),
        ErrorKind::Descriptor(DescriptorProblem::Transform {
            source: cktile_transforms::Error::Overflow { value, .. },
            ..
        }) => Some(*value),
        _ => None,
    };
    match value {
        Some(v) => const_panic::concat_panic!(display: e.summary(), " (the value is ", v, ")"),
        None => panic!("{}", e.summary()),
    }
}
