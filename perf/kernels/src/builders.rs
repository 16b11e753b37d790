//! The descriptors of the proof kernels, each built by one function
//! (`make_*`, inlined into the kernels as CK Tile's device functions are).
//! On x86_64, `build_*` wrap them in functions that are not inlined
//! (`#[inline(never)]`, exported by name), so the table shows what returning
//! a typed descriptor by value costs (identical ones may be merged by LLVM).
//! `gpu/kernel` (the kernels run on a GPU) compiles this file too
//! (`#[path]`), so both crates use one definition of each descriptor.

use cktile_core::ops::gemm::{LdsChain, make_lds_chain};
use cktile_core::prelude::*;
use cktile_core::transforms::Value;
use cktile_core::transforms::typed::{Merge, PassThrough, RightPad, Xor};
use cktile_core::typed::{Naive, Transformed};

use cktile_core::Number as N;

/// CK's A LDS block chain (the port's [`LdsChain`], xor / MLdsLayer, 2025
/// unmerge order) with `MPerBlock / MLdsLayer` of type `M`: K=32,
/// KPack=8, MLdsLayer=2.
pub type ALds<M> = TensorDescriptor<LdsChain<M, N<8>, N<8>, N<64>, N<2>, N<4>>>;

/// [`ALds`] with a runtime MPerBlock.
pub type ALdsRt = ALds<usize>;

/// CK's universal GEMM A LDS block, `ml = MPerBlock / MLdsLayer`, built by
/// the port's one spelling of it ([`make_lds_chain`]).
#[inline(always)]
fn a_lds<M: Value>(ml: M) -> Result<ALds<M>, Error> {
    make_lds_chain(ml, N::<8>, N::<8>, N::<64>, N::<2>, N::<4>)
}

/// The all-static A block (M=128).
#[inline(always)]
pub fn make_a_lds() -> Result<ALds<N<64>>, Error> {
    a_lds(N::<64>)
}

/// The A block with a runtime MPerBlock.
#[inline(always)]
pub fn make_a_lds_rt(m_per_block: usize) -> Result<ALdsRt, Error> {
    a_lds(m_per_block / 2)
}

/// CK's B LDS block with MLdsLayer 1 (the typed module's example): N=256,
/// K=64, KPack=8.
#[inline(always)]
pub fn make_b_lds() -> Result<
    TensorDescriptor<
        Transformed<
            Transformed<
                Naive<(N<8>, N<256>, N<8>), (N<8>, N<64>, N<1>)>,
                (Xor<N<256>, N<8>>, PassThrough<N<8>>),
                ((N<1>, N<0>), (N<2>,)),
                ((N<1>, N<0>), (N<2>,)),
            >,
            (PassThrough<N<256>>, Merge<(N<8>, N<8>)>),
            ((N<1>,), (N<0>, N<2>)),
            ((N<0>,), (N<1>,)),
        >,
    >,
    Error,
> {
    let d = make_naive_tensor_descriptor((N::<8>, N::<256>, N::<8>), (N::<8>, N::<64>, N::<1>))?;
    let d = transform_tensor_descriptor(
        d,
        (make_xor_transform((N::<256>, N::<8>)), make_pass_through_transform(N::<8>)),
        (ids![1, 0], ids![2]),
        (ids![1, 0], ids![2]),
    )?;
    transform_tensor_descriptor(
        d,
        (make_pass_through_transform(N::<256>), make_merge_transform((N::<8>, N::<8>))),
        (ids![1], ids![0, 2]),
        (ids![0], ids![1]),
    )
}

/// CK's fmha V LDS block: N=128, K=32, KPack=8, fp16 (64 elements a row
/// plus 8 of padding), two prefetch buffers.
#[inline(always)]
pub fn make_fmha_v() -> Result<
    TensorDescriptor<
        Transformed<
            Naive<(N<2>, N<4>, N<16>, N<8>, N<8>), (N<4608>, N<1152>, N<72>, N<8>, N<1>)>,
            (Merge<(N<2>, N<16>, N<8>)>, Merge<(N<4>, N<8>)>),
            ((N<0>, N<2>, N<3>), (N<1>, N<4>)),
            ((N<0>,), (N<1>,)),
        >,
    >,
    Error,
> {
    let d = make_naive_tensor_descriptor(
        (N::<2>, N::<4>, N::<16>, N::<8>, N::<8>),
        (N::<4608>, N::<1152>, N::<72>, N::<8>, N::<1>),
    )?;
    transform_tensor_descriptor(
        d,
        (make_merge_transform((N::<2>, N::<16>, N::<8>)), make_merge_transform((N::<4>, N::<8>))),
        (ids![0, 2, 3], ids![1, 4]),
        (ids![0], ids![1]),
    )
}

/// CK's global A view: `(M, K)` with row stride `stride`, right-padded by
/// `(pad_m, pad_k)` (`pad_tensor_view`), every length a runtime value.
pub type GlobalA = TensorDescriptor<
    Transformed<
        Naive<(usize, usize), (usize, N<1>)>,
        (RightPad<usize, usize>, RightPad<usize, usize>),
        ((N<0>,), (N<1>,)),
        ((N<0>,), (N<1>,)),
    >,
>;

/// Builds [`GlobalA`].
#[inline(always)]
pub fn make_global_a(m: usize, k: usize, stride: usize, pad_m: usize, pad_k: usize) -> Result<GlobalA, Error> {
    let d = make_naive_tensor_descriptor((m, k), (stride, N::<1>))?;
    transform_tensor_descriptor(
        d,
        (make_right_pad_transform(m, pad_m), make_right_pad_transform(k, pad_k)),
        (ids![0], ids![1]),
        (ids![0], ids![1]),
    )
}

/// Not-inlined builders returning typed descriptors by value (x86_64 rows):
/// `build_*` for all-static chains (checked: no call, no copy),
/// `validate_*` for chains with runtime lengths (reported: they validate).
#[cfg(target_arch = "x86_64")]
pub mod by_value {
    use super::*;

    /// [`make_a_lds`], not inlined.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub fn build_a_lds() -> Result<ALds<N<64>>, Error> {
        make_a_lds()
    }

    /// [`make_a_lds_rt`], not inlined.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub fn validate_a_lds_rt(m_per_block: usize) -> Result<ALdsRt, Error> {
        make_a_lds_rt(m_per_block)
    }

    /// [`make_global_a`], not inlined.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub fn validate_global_a(m: usize, k: usize, stride: usize, pad_m: usize, pad_k: usize) -> Result<GlobalA, Error> {
        make_global_a(m, k, stride, pad_m, pad_k)
    }
}
