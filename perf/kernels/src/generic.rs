//! The guide's generic policy (docs/src/composing.md, "Generic tile sizes"):
//! CK's universal GEMM A LDS block for fp16, written once over MPerBlock and
//! KPerBlock as const generics, its derived lengths declared with
//! `derived_number!`, as a kernel author writes CK's templated policy. The
//! proof kernels instantiate it for two tile sizes.

use cktile::Number as N;
use cktile::layouts::ck::mlds_layer;
use cktile::prelude::*;
use cktile::transforms::typed::{Merge, PassThrough, Unmerge, Xor};
use cktile::typed::{Naive, Transformed};

/// CK's MLdsLayer for fp16 on 32 banks.
const fn layer(k: usize) -> usize {
    match mlds_layer(k, 2, 32) {
        Ok(l) => l,
        Err(_) => panic!("no MLdsLayer for this KPerBlock"),
    }
}

cktile::derived_number! {
    /// MLdsLayer.
    pub struct Layer<const K: usize> = layer(K);
    /// MPerBlock / MLdsLayer.
    pub struct MPerLayer<const M: usize, const K: usize> = M / layer(K);
    /// KPerBlock / KPack.
    pub struct K0<const K: usize> = K / 8;
    /// KPerBlock / KPack * MLdsLayer.
    pub struct K0Layers<const K: usize> = K / 8 * layer(K);
    /// KPerBlock * MLdsLayer, the row stride.
    pub struct RowStride<const K: usize> = K * layer(K);
}

/// The descriptor's type, spelled out once for every tile size.
pub type ALds<const M: usize, const K: usize> = TensorDescriptor<
    Transformed<
        Transformed<
            Transformed<
                Naive<(K0Layers<K>, MPerLayer<M, K>, N<8>), (N<8>, RowStride<K>, N<1>)>,
                (Xor<MPerLayer<M, K>, K0Layers<K>>, PassThrough<N<8>>),
                ((N<1>, N<0>), (N<2>,)),
                ((N<1>, N<0>), (N<2>,)),
            >,
            (Unmerge<(Layer<K>, K0<K>)>, PassThrough<MPerLayer<M, K>>, PassThrough<N<8>>),
            ((N<0>,), (N<1>,), (N<2>,)),
            ((N<0>, N<2>), (N<1>,), (N<3>,)),
        >,
        (Merge<(MPerLayer<M, K>, Layer<K>)>, Merge<(K0<K>, N<8>)>),
        ((N<1>, N<0>), (N<2>, N<3>)),
        ((N<0>,), (N<1>,)),
    >,
>;

/// CK Tile's `MakeALdsBlockDescriptor<MPerBlock, KPerBlock>()` for fp16.
#[inline(always)]
pub fn make_a_lds_desc<const M: usize, const K: usize>() -> Result<ALds<M, K>, Error> {
    let (ml, k0l) = (MPerLayer::<M, K>, K0Layers::<K>);
    let d = make_naive_tensor_descriptor((k0l, ml, N::<8>), (N::<8>, RowStride::<K>, N::<1>))?;
    let d = transform_tensor_descriptor(
        d,
        (make_xor_transform((ml, k0l)), make_pass_through_transform(N::<8>)),
        (ids![1, 0], ids![2]),
        (ids![1, 0], ids![2]),
    )?;
    let d = transform_tensor_descriptor(
        d,
        (
            make_unmerge_transform((Layer::<K>, K0::<K>)),
            make_pass_through_transform(ml),
            make_pass_through_transform(N::<8>),
        ),
        (ids![0], ids![1], ids![2]),
        (ids![0, 2], ids![1], ids![3]),
    )?;
    transform_tensor_descriptor(
        d,
        (make_merge_transform((ml, Layer::<K>)), make_merge_transform((K0::<K>, N::<8>))),
        (ids![1, 0], ids![2, 3]),
        (ids![0], ids![1]),
    )
}
