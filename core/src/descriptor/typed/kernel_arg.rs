//! [`KernelArg`]: a typed descriptor in a form a GPU kernel can take as an
//! argument.
//!
//! See [`KernelArg`] for the layout, the trust model and the lint it
//! avoids.

use super::Core;
use super::{Chain, TensorDescriptor};
use crate::Error;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;

/// The number of runtime values a [`KernelArg`] carries: 16 `u64`s, 128
/// bytes. Enough for CK Tile's global-memory descriptors (a naive
/// descriptor's runtime lengths and strides, then a padding stage and a
/// split or two); a chain with more runtime values is refused at compile
/// time by [`TensorDescriptor::to_kernel_arg`]. Compile-time values
/// ([`Number`](crate::Number)s) take no slot.
///
/// ```
/// assert_eq!(cktile_core::typed::KERNEL_ARG_SLOTS, 16);
/// ```
pub const KERNEL_ARG_SLOTS: usize = 16;

/// A typed descriptor as a GPU kernel argument: `#[repr(C, align(8))]`,
/// the chain's runtime values in `u64` slots and the chain itself in the
/// type. The same 128 bytes, aligned to 8, on every target.
///
/// A [`TensorDescriptor<C>`] is `Copy`, but its layout is Rust's: it holds
/// the chain's runtime values in nested tuples and structs, which have no
/// `#[repr(C)]`, so a kernel that takes one by value draws rustc's
/// `improper_ctypes_definitions` warning (the struct "has unspecified
/// layout"), and the host that launches the kernel cannot know where each
/// value lies. [`KernelArg<C>`] is `#[repr(C, align(8))]`: the chain's
/// runtime values in order as `u64`s in a fixed array of
/// [`KERNEL_ARG_SLOTS`] slots (the compile-time values are in the type
/// `C`, as in the descriptor), so its size and alignment are the same on
/// every target (checked by `const` assertions in this crate, so a target
/// where they differ fails to build) and the host writes it as plain bytes.
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::typed::KernelArg;
/// // On the host: build (and so validate) the descriptor, then pass its kernel argument.
/// let d = make_naive_tensor_descriptor((Number::<4>, 8usize), (16usize, Number::<1>))?;
/// let arg = d.to_kernel_arg();
/// assert_eq!(arg.slots()[..2], [8, 16]);
/// // In the kernel: the same descriptor back, each runtime value one load.
/// let back = arg.descriptor();
/// assert_eq!(back, d);
/// assert_eq!(back.calculate_offset([1, 2]), 18);
/// assert_eq!(core::mem::size_of_val(&arg), 8 * cktile_core::typed::KERNEL_ARG_SLOTS);
/// # Ok::<(), cktile_core::Error>(())
/// ```
///
/// Reading back ([`KernelArg::descriptor`]) trusts the values: they were
/// validated when the host built the descriptor, and a `KernelArg` is only
/// made from a descriptor ([`TensorDescriptor::to_kernel_arg`]; its fields
/// are private). What the launch code copies to the device is outside
/// Rust's view: [`KernelArg::try_descriptor`] validates every level of the
/// chain again ([`Chain::check_levels`]), in a few compares per level,
/// for a kernel that would rather not trust its host.
///
/// # The lints, seen on nvptx
///
/// A `#![no_std]` crate with `#![feature(abi_ptx, abi_gpu_kernel)]`,
/// depending on cktile without default features, built with
/// `RUSTFLAGS=-Ctarget-cpu=sm_90 cargo +nightly rustc --release
/// -Zbuild-std=core --target nvptx64-nvidia-cuda -- --emit=asm` (rustc
/// 1.101.0-nightly 2026-10-29; the flag in `RUSTFLAGS`, as
/// `scripts/target-icount.sh` passes it, since after `--` it mismatches
/// the dependencies' ABI), with kernels over the chain
/// `C = Naive<(usize, usize), (usize, Number<1>)>`:
///
/// - `extern "ptx-kernel" fn raw(d: TensorDescriptor<C>, out: *mut i64)`
///   draws "`extern` fn uses type `TensorDescriptor<...>`, which is not
///   FFI-safe ... this struct has unspecified layout"
///   (`improper_ctypes_definitions`);
/// - `extern "ptx-kernel" fn arg(d: KernelArg<C>, out: *mut i64)`,
///   computing `d.descriptor().calculate_offset([1, 2])`, draws no
///   warning; its parameter is `.param .align 8 .b8 arg_param_0[128]` and
///   its body the same five instructions as `raw`'s: one `ld.param.b64` of
///   the stride (slot 2, `[arg_param_0+16]`), an `add`, the store;
/// - with the unified `extern "gpu-kernel"` ABI, `TensorDescriptor<C>`
///   draws both `improper_ctypes_definitions` and `improper_gpu_kernel_arg`
///   ("passing type ... to a function with \"gpu-kernel\" ABI may have
///   unexpected behavior; use primitive types and raw pointers"), and
///   `KernelArg<C>` by value still draws `improper_gpu_kernel_arg`: that
///   lint accepts primitives and raw pointers only (it fires for
///   `[u64; 16]`, for a `#[repr(transparent)]` struct around one and for
///   `&KernelArg<C>` too). `*const KernelArg<C>` (the argument in device
///   memory, read with `(*d).descriptor()`) draws neither lint; a
///   `KernelArg<C>` by value is defined by its `repr(C)` layout, so
///   `#[allow(improper_gpu_kernel_arg)]` on such a kernel states a choice
///   rather than hides a bug.
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor_packed((Number::<4>, 8usize))?;
/// let d = transform_tensor_descriptor(d, (make_merge_transform((Number::<4>, 8usize)),), (ids![0, 1],), (ids![0],))?;
/// let arg = d.to_kernel_arg();
/// assert_eq!(arg.slots()[..3], [8, 8, 0]); // packed's 8, the merge's 8; the rest unused
/// assert_eq!(arg.descriptor().calculate_offset([13]), 13);
/// assert_eq!((core::mem::size_of_val(&arg), core::mem::align_of_val(&arg)), (128, 8));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[repr(C, align(8))]
pub struct KernelArg<C: Chain> {
    slots: [u64; KERNEL_ARG_SLOTS],
    chain: PhantomData<C>,
}

// The layout every target sees (the proof kernels build this crate for
// amdgcn, nvptx and x86_64, so a target where it differs fails to build).
const _: () = {
    use crate::Number;
    use core::mem::{align_of, size_of};
    type Runtime = super::Naive<(usize, usize), (usize, Number<1>)>;
    type Static = super::Packed<(Number<4>, Number<8>)>;
    assert!(size_of::<KernelArg<Runtime>>() == 8 * KERNEL_ARG_SLOTS);
    assert!(align_of::<KernelArg<Runtime>>() == 8);
    assert!(size_of::<KernelArg<Static>>() == 8 * KERNEL_ARG_SLOTS);
    assert!(align_of::<KernelArg<Static>>() == 8);
};

impl<C: Chain> KernelArg<C> {
    /// Refuses, at compile time, a chain with more runtime values than a
    /// kernel argument has slots.
    const FITS: () = if C::RUNTIME > KERNEL_ARG_SLOTS {
        const_panic::concat_panic!(
            "cktile: the chain holds ",
            C::RUNTIME,
            " runtime values; a KernelArg carries at most KERNEL_ARG_SLOTS (",
            KERNEL_ARG_SLOTS,
            "): make some lengths compile-time Numbers, or pass two descriptors"
        )
    };

    /// The descriptor, read back from the slots: each runtime value one
    /// load, each compile-time value nothing. Not validated again: the host
    /// validated the values when it built the descriptor this argument was
    /// made from (see [`try_descriptor`](Self::try_descriptor) for a kernel
    /// that re-checks).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_with_offset((4usize,), (Number::<2>,), 100usize)?;
    /// assert_eq!(d.to_kernel_arg().descriptor(), d);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn descriptor(&self) -> TensorDescriptor<C> {
        let () = Core::<C>::CHECK;
        TensorDescriptor::from_valid(C::read_runtime(&self.slots, 0))
    }

    /// The descriptor, its every level validated again
    /// ([`Chain::check_levels`]: the builders' checks, building nothing);
    /// the builders' error when a value is not what a descriptor accepts.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>, 8usize))?;
    /// assert_eq!(d.to_kernel_arg().try_descriptor(), Ok(d));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn try_descriptor(&self) -> Result<TensorDescriptor<C>, Error> {
        let d = self.descriptor();
        d.chain().check_levels()?;
        Ok(d)
    }

    /// The slots: the chain's runtime values in order
    /// ([`Chain::write_runtime`]), then zeros.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor((3usize, Number::<5>), (Number::<5>, 1usize))?;
    /// assert_eq!(d.to_kernel_arg().slots()[..3], [3, 1, 0]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn slots(&self) -> &[u64; KERNEL_ARG_SLOTS] {
        &self.slots
    }
}

impl<C: Chain> TensorDescriptor<C> {
    /// The descriptor as a GPU kernel argument ([`KernelArg`]): its runtime
    /// values written to fixed `u64` slots. A compile error when the chain
    /// holds more than [`KERNEL_ARG_SLOTS`] runtime values.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor((Number::<4>, 8usize), (16usize, Number::<1>))?;
    /// assert_eq!(d.to_kernel_arg().descriptor(), d);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn to_kernel_arg(&self) -> KernelArg<C> {
        let () = KernelArg::<C>::FITS;
        let mut slots = [0; KERNEL_ARG_SLOTS];
        self.chain().write_runtime(&mut slots, 0);
        KernelArg { slots, chain: PhantomData }
    }
}

impl<C: Chain> Clone for KernelArg<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C: Chain> Copy for KernelArg<C> {}

impl<C: Chain> PartialEq for KernelArg<C> {
    fn eq(&self, other: &Self) -> bool {
        self.slots == other.slots
    }
}

impl<C: Chain> Eq for KernelArg<C> {}

impl<C: Chain> Hash for KernelArg<C> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.slots.hash(state);
    }
}

impl<C: Chain> fmt::Debug for KernelArg<C> {
    /// The slots that hold the chain's runtime values.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let used = self.slots.split_at(C::RUNTIME.min(KERNEL_ARG_SLOTS)).0;
        f.debug_struct("KernelArg").field("runtime", &used).finish()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::{KERNEL_ARG_SLOTS, KernelArg};
    use crate::transforms::typed::{
        make_embed_transform, make_merge_transform, make_pad_transform, make_pass_through_transform,
        make_unmerge_transform, make_xor_transform,
    };
    use crate::typed::{
        Built, Chain, TensorDescriptor, make_naive_tensor_descriptor, make_naive_tensor_descriptor_aligned,
        make_naive_tensor_descriptor_packed, make_naive_tensor_descriptor_with_vector, transform_tensor_descriptor,
    };
    use crate::{Number, ids};
    use core::marker::PhantomData;

    /// The slots a descriptor writes, after checking that the descriptor
    /// read back from them (trusted and re-checked) equals it.
    fn round_trip<C: Chain + PartialEq + core::fmt::Debug>(d: TensorDescriptor<C>) -> [u64; KERNEL_ARG_SLOTS] {
        let arg = d.to_kernel_arg();
        assert_eq!(arg.descriptor(), d);
        assert_eq!(arg.try_descriptor(), Ok(d));
        assert_eq!(arg.descriptor().descriptor(), d.descriptor());
        *arg.slots()
    }

    fn first<const N: usize>(slots: [u64; KERNEL_ARG_SLOTS]) -> ([u64; N], bool) {
        let (head, rest) = slots.split_at(N);
        (head.try_into().unwrap(), rest.iter().all(|&s| s == 0))
    }

    #[test]
    fn base_chains_round_trip() {
        let all_static = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
        assert_eq!(first::<0>(round_trip(all_static)), ([], true));

        let naive = make_naive_tensor_descriptor((Number::<4>, 8usize), (16usize, Number::<1>)).unwrap();
        assert_eq!(first::<2>(round_trip(naive)), ([8, 16], true));

        let aligned = make_naive_tensor_descriptor_aligned((3usize, Number::<6>), 8usize).unwrap();
        assert_eq!(first::<2>(round_trip(aligned)), ([3, 8], true));
        assert_eq!(aligned.to_kernel_arg().descriptor().calculate_offset([2, 5]), 21);

        let vector =
            make_naive_tensor_descriptor_with_vector((4usize, 64usize), (72usize, Number::<1>), 8usize, Number::<1>)
                .unwrap();
        assert_eq!(first::<4>(round_trip(vector)), ([4, 64, 72, 8], true));
    }

    #[test]
    fn transformed_chains_round_trip() {
        // CK's padded global A: runtime M, K and stride, right-padded to the tile.
        let d = make_naive_tensor_descriptor((100usize, 60usize), (64usize, Number::<1>)).unwrap();
        let d = transform_tensor_descriptor(
            d,
            (make_pad_transform(100usize, Number::<0>, 28usize), make_pad_transform(60usize, Number::<0>, 4usize)),
            (ids![0], ids![1]),
            (ids![0], ids![1]),
        )
        .unwrap();
        assert_eq!(first::<7>(round_trip(d)), ([100, 60, 64, 100, 28, 60, 4], true));
        let back = d.to_kernel_arg().descriptor();
        assert_eq!(back.lengths().as_slice(), &[128, 64]);
        assert_eq!((back.offset_if_valid([99, 59]), back.offset_if_valid([100, 0])), (Some(99 * 64 + 59), None));

        // Runtime ids, an xor with a runtime length, an unmerge, a merge, an embed.
        let d = make_naive_tensor_descriptor_packed((Number::<8>, 16usize)).unwrap();
        let d = transform_tensor_descriptor(
            d,
            (make_xor_transform((Number::<8>, 16usize)),),
            ((Number::<0>, 1usize),),
            ((0usize, Number::<1>),),
        )
        .unwrap();
        let d = transform_tensor_descriptor(
            d,
            (make_unmerge_transform((2usize, Number::<4>)), make_pass_through_transform(16usize)),
            (ids![0], ids![1]),
            (ids![0, 1], ids![2]),
        )
        .unwrap();
        let d = transform_tensor_descriptor(
            d,
            (make_merge_transform((2usize, Number::<4>, 16usize)),),
            (ids![0, 1, 2],),
            (ids![0],),
        )
        .unwrap();
        // packed 16; xor 16, ids 1 and 0; unmerge 2, pass-through 16; merge 2 and 16.
        assert_eq!(first::<8>(round_trip(d)), ([16, 16, 1, 0, 2, 16, 2, 16], true));
        let back = d.to_kernel_arg().descriptor();
        assert_eq!((0..128).map(|i| back.calculate_offset([i])).sum::<i64>(), (0..128).sum::<i64>());
        assert_eq!(back.calculate_offset([17]), d.calculate_offset([17]));

        let e = make_naive_tensor_descriptor_packed((Number::<64>,)).unwrap();
        let e = transform_tensor_descriptor(
            e,
            (make_embed_transform((4usize, Number::<8>), (Number::<16>, 2usize)),),
            (ids![0],),
            (ids![0, 1],),
        )
        .unwrap();
        assert_eq!(first::<2>(round_trip(e)), ([4, 2], true));
    }

    #[test]
    fn try_descriptor_refuses_what_the_builders_refuse() {
        type C = crate::typed::Naive<(usize, usize), (usize, Number<1>)>;
        let mut slots = [0; KERNEL_ARG_SLOTS];
        slots[..3].copy_from_slice(&[4, 0, 8]);
        let arg: KernelArg<C> = KernelArg { slots, chain: PhantomData };
        let e = arg.try_descriptor().unwrap_err();
        let built = make_naive_tensor_descriptor((4usize, 0usize), (8usize, Number::<1>)).unwrap_err();
        assert_eq!(e, built);

        // A transformed chain whose lower level is bad: every level is checked.
        let good = make_naive_tensor_descriptor_packed((4usize, 8usize)).unwrap();
        let good =
            transform_tensor_descriptor(good, (make_merge_transform((4usize, 8usize)),), (ids![0, 1],), (ids![0],))
                .unwrap();
        let mut bad = good.to_kernel_arg();
        bad.slots[1] = 9; // the packed length 8 -> 9; the merge still says 8
        assert!(bad.try_descriptor().is_err());
        assert_eq!(bad.try_descriptor().map(|_| ()), bad.descriptor().chain().build().map(|_| ()));
        assert_eq!(good.to_kernel_arg().try_descriptor(), Ok(good));
    }

    #[test]
    fn layout_and_debug() {
        type C = crate::typed::Packed<(usize, Number<8>)>;
        assert_eq!((core::mem::size_of::<KernelArg<C>>(), core::mem::align_of::<KernelArg<C>>()), (128, 8));
        let d = make_naive_tensor_descriptor_packed((5usize, Number::<8>)).unwrap();
        assert_eq!(format!("{:?}", d.to_kernel_arg()), "KernelArg { runtime: [5] }");
    }
}
