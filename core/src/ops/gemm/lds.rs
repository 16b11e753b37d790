//! The universal GEMM's LDS block: CK's `MakeALdsBlockDescriptor` (and
//! `MakeBLdsBlockDescriptor`, N for M) for a row-major A (column-major B)
//! of 16-bit elements (fp16, bf16) on 32 four-byte banks, the XOR
//! preshuffle CK's gfx9 policy builds: KPack = 8 elements (16 bytes, one
//! `ds_write_b128`/`ds_read_b128`) guaranteed contiguous, MLdsLayer =
//! max(1, 32 * 4 / KPerBlock / 2) K tiles sharing one LDS row.
//!
//! The chain's type is spelled once, [`LdsChainOf`], for every tile size:
//! its lengths are the [`derived_number!`](crate::derived_number)s below,
//! computed from MPerBlock and KPerBlock as CK computes them.
//!
//! ```
//! use cktile_core::layouts::ck::{universal_a, UnmergeOrder};
//! use cktile_core::ops::gemm::make_lds_block;
//! let d = make_lds_block::<64, 64>()?.descriptor();
//! let ck = universal_a(64, 64, 8, 2, 32, UnmergeOrder::Fixed2025)?;
//! assert_eq!(d.calculate_offset(&[9, 63]), ck.calculate_offset(&[9, 63]));
//! # Ok::<(), cktile_core::Error>(())
//! ```

use crate::error::Error;
use crate::typed::{
    NaiveVector, TensorDescriptor, Transformed, make_naive_tensor_descriptor_with_vector, transform_tensor_descriptor,
};
use cktile_transforms::Number as N;
use cktile_transforms::typed::{
    Merge, PassThrough, Unmerge, Xor, make_merge_transform, make_pass_through_transform, make_unmerge_transform,
    make_xor_transform,
};

/// KPack: the elements of one LDS vector (16 bytes of fp16).
///
/// ```
/// assert_eq!(cktile_core::ops::gemm::KPACK, 8);
/// ```
pub const KPACK: usize = 8;

/// CK's MLdsLayer for 16-bit elements on 32 four-byte banks: how many K
/// tiles share one LDS row of 64 elements (`32 * 4 / KPerBlock / 2`, at
/// least 1), or a compile error when KPerBlock is not a positive multiple
/// of KPack.
///
/// ```
/// assert_eq!((cktile_core::ops::gemm::mlds_layer(32), cktile_core::ops::gemm::mlds_layer(64)), (2, 1));
/// ```
pub const fn mlds_layer(k: usize) -> usize {
    if k == 0 || !k.is_multiple_of(KPACK) {
        panic!("cktile: KPerBlock must be a positive multiple of KPack 8 (the LDS block's vectors)");
    }
    match crate::layouts::ck::mlds_layer(k, 2, 32) {
        Ok(l) => l,
        Err(_) => panic!("cktile: no MLdsLayer for this KPerBlock"),
    }
}

crate::derived_number! {
    /// MLdsLayer for KPerBlock `K` ([`mlds_layer`]).
    ///
    /// ```
    /// use cktile_core::Value;
    /// assert_eq!(<cktile_core::ops::gemm::Layer<32> as Value>::STATIC, Some(2));
    /// ```
    pub struct Layer<const K: usize> = mlds_layer(K);
    /// MPerBlock / MLdsLayer (a compile error when it does not divide).
    ///
    /// ```
    /// use cktile_core::Value;
    /// assert_eq!(<cktile_core::ops::gemm::MPerLayer<128, 32> as Value>::STATIC, Some(64));
    /// ```
    pub struct MPerLayer<const M: usize, const K: usize> =
        if M.is_multiple_of(mlds_layer(K)) { M / mlds_layer(K) } else { panic!("cktile: MPerBlock must be a multiple of MLdsLayer") };
    /// KPerBlock / KPack.
    ///
    /// ```
    /// use cktile_core::Value;
    /// assert_eq!(<cktile_core::ops::gemm::KPacks<32> as Value>::STATIC, Some(4));
    /// ```
    pub struct KPacks<const K: usize> = K / KPACK;
    /// KPerBlock / KPack * MLdsLayer: the xor's modulus.
    ///
    /// ```
    /// use cktile_core::Value;
    /// assert_eq!(<cktile_core::ops::gemm::KPacksLayers<32> as Value>::STATIC, Some(8));
    /// ```
    pub struct KPacksLayers<const K: usize> = K / KPACK * mlds_layer(K);
    /// KPerBlock * MLdsLayer: the LDS row stride.
    ///
    /// ```
    /// use cktile_core::Value;
    /// assert_eq!(<cktile_core::ops::gemm::LdsRowStride<32> as Value>::STATIC, Some(64));
    /// ```
    pub struct LdsRowStride<const K: usize> = K * mlds_layer(K);
}

/// The LDS block's chain for MPerBlock `M` and KPerBlock `K` (see
/// [`make_lds_block`]), spelled once for every tile size: naive (K0 * L,
/// M / L, KPack), the xor of (M / L, K0 * L), the unmerge of K0 * L into
/// (L, K0), the merges back to (M, K).
///
/// ```
/// use cktile_core::ops::gemm::{LdsChainOf, make_lds_block};
/// use cktile_core::typed::TensorDescriptor;
/// let d: TensorDescriptor<LdsChainOf<256, 64>> = make_lds_block::<256, 64>()?;
/// assert_eq!(d.element_space_size(), 256 * 64);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub type LdsChainOf<const M: usize, const K: usize> = Transformed<
    Transformed<
        Transformed<
            NaiveVector<
                (KPacksLayers<K>, MPerLayer<M, K>, N<KPACK>),
                (N<KPACK>, LdsRowStride<K>, N<1>),
                N<KPACK>,
                N<1>,
            >,
            (Xor<MPerLayer<M, K>, KPacksLayers<K>>, PassThrough<N<KPACK>>),
            ((N<1>, N<0>), (N<2>,)),
            ((N<1>, N<0>), (N<2>,)),
        >,
        (Unmerge<(Layer<K>, KPacks<K>)>, PassThrough<MPerLayer<M, K>>, PassThrough<N<KPACK>>),
        ((N<0>,), (N<1>,), (N<2>,)),
        ((N<0>, N<2>), (N<1>,), (N<3>,)),
    >,
    (Merge<(MPerLayer<M, K>, Layer<K>)>, Merge<(KPacks<K>, N<KPACK>)>),
    ((N<1>, N<0>), (N<2>, N<3>)),
    ((N<0>,), (N<1>,)),
>;

/// CK's `MakeALdsBlockDescriptor` (and `MakeBLdsBlockDescriptor`, N for
/// M) for 16-bit elements, over MPerBlock `M` and KPerBlock `K`: KPack 8
/// guaranteed contiguous, `naive((K0 * L, M / L, KPack), (KPack, K * L,
/// 1))` with L = MLdsLayer, the xor preshuffle of (M / L, K0 * L), then
/// the unmerge and merges back to (M, K). Every length is a constant:
/// the offsets compile to CK's arithmetic. A size CK's policy refuses
/// (K not a multiple of 8, M not a multiple of MLdsLayer, a xor modulus
/// K / 8 * MLdsLayer that is not a power of two) is a compile error.
///
/// ```
/// use cktile_core::layouts::ck::{universal_a, UnmergeOrder};
/// use cktile_core::ops::gemm::make_lds_block;
/// // 128 x 32 (MLdsLayer 2) and 256 x 64 (MLdsLayer 1): every offset is the catalogue's CK block's.
/// let blocks = [(make_lds_block::<128, 32>()?.descriptor(), 128, 32), (make_lds_block::<256, 64>()?.descriptor(), 256, 64)];
/// for (d, m, k) in blocks {
///     let ck = universal_a(m, k, 8, 2, 32, UnmergeOrder::Fixed2025)?;
///     for (mi, ki) in (0..m as i64).flat_map(|mi| (0..k as i64).map(move |ki| (mi, ki))) {
///         assert_eq!(d.calculate_offset(&[mi, ki]), ck.calculate_offset(&[mi, ki]));
///     }
/// }
/// # Ok::<(), cktile_core::Error>(())
/// ```
///
/// ```compile_fail
/// // KPerBlock 20 is not a multiple of KPack 8.
/// let _ = cktile_core::ops::gemm::make_lds_block::<128, 20>();
/// ```
#[inline(always)]
pub fn make_lds_block<const M: usize, const K: usize>() -> Result<TensorDescriptor<LdsChainOf<M, K>>, Error> {
    let (ml, k0l) = (MPerLayer::<M, K>, KPacksLayers::<K>);
    let d = make_naive_tensor_descriptor_with_vector(
        (k0l, ml, N::<KPACK>),
        (N::<KPACK>, LdsRowStride::<K>, N::<1>),
        N::<KPACK>,
        N::<1>,
    )?;
    let d = transform_tensor_descriptor(
        d,
        (make_xor_transform((ml, k0l)), make_pass_through_transform(N::<KPACK>)),
        (crate::ids![1, 0], crate::ids![2]),
        (crate::ids![1, 0], crate::ids![2]),
    )?;
    let d = transform_tensor_descriptor(
        d,
        (
            make_unmerge_transform((Layer::<K>, KPacks::<K>)),
            make_pass_through_transform(ml),
            make_pass_through_transform(N::<KPACK>),
        ),
        (crate::ids![0], crate::ids![1], crate::ids![2]),
        (crate::ids![0, 2], crate::ids![1], crate::ids![3]),
    )?;
    transform_tensor_descriptor(
        d,
        (make_merge_transform((ml, Layer::<K>)), make_merge_transform((KPacks::<K>, N::<KPACK>))),
        (crate::ids![1, 0], crate::ids![2, 3]),
        (crate::ids![0], crate::ids![1]),
    )
}
