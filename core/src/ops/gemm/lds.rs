//! The universal GEMM's LDS block: CK's `MakeALdsBlockDescriptor` (and
//! `MakeBLdsBlockDescriptor`, N for M) for a row-major A (column-major B)
//! on 32 four-byte banks, the XOR preshuffle CK's gfx9 policy builds:
//! KPack = the warp GEMM's K values a lane, at most 16 bytes of elements
//! (8 fp16 or bf16, 16 of the 8-bit types: one
//! `ds_write_b128`/`ds_read_b128`), guaranteed contiguous, MLdsLayer =
//! max(1, 32 * 4 / KPerBlock / bytes) K tiles sharing one LDS row.
//!
//! The chain is spelled once, [`LdsChain`] (with [`descriptor_chain!`](crate::descriptor_chain):
//! its type, its typed builder and its runtime `const` builder), and
//! [`LdsChainOf`] gives it its lengths for every tile size: the
//! [`derived_number!`](crate::derived_number)s below, computed from
//! MPerBlock and KPerBlock as CK computes them.
//!
//! ```
//! use cktile_core::ops::gemm::make_lds_block;
//! // 64 x 64 fp16: KPack 8, K0 8, MLdsLayer 1; k = 63 is K0 7, element 7,
//! // XORed with row 9 (9 % 8 = 1): 9 * 64 + (7 ^ 1) * 8 + 7.
//! let d = make_lds_block::<64, 64, 2, 32, 16>()?.descriptor();
//! assert_eq!(d.calculate_offset(&[9, 63]), 9 * 64 + 6 * 8 + 7);
//! # Ok::<(), cktile_core::Error>(())
//! ```

use crate::error::{Error, ParameterProblem};
use crate::typed::TensorDescriptor;
use crate::typed::static_failure;
use cktile_transforms::tri;

/// CK Tile's `MLdsLayer`: how many M rows share one row of banks,
/// `max(1, (banks * 4 / K) / sizeof(T))` in integer division, left to right
/// (`banks` is 32 on gfx9 up to gfx942 and 64 on gfx950; any other count is
/// an error). A zero K or element size gives 1 rather than a division by zero.
///
/// ```
/// use cktile_core::ops::gemm::mlds_layer;
/// assert_eq!(mlds_layer(64, 2, 32), Ok(1));
/// assert_eq!(mlds_layer(32, 2, 32), Ok(2));
/// assert_eq!(mlds_layer(32, 2, 64), Ok(4));
/// assert_eq!(mlds_layer(256, 1, 32), Ok(1));
/// assert_eq!(mlds_layer(0, 2, 32), Ok(1));
/// assert!(mlds_layer(1, 1, usize::MAX).is_err());
/// ```
pub const fn mlds_layer(k_per_block: usize, element_bytes: usize, banks: usize) -> Result<usize, Error> {
    tri!(check_banks("ck-universal-a", banks));
    if k_per_block == 0 || element_bytes == 0 {
        return Ok(1);
    }
    let l = (banks * 4 / k_per_block) / element_bytes;
    Ok(if l > 1 { l } else { 1 })
}

/// Refuses a bank count other than 32 or 64, the LDS of every chip CK
/// Tile targets, naming `context` (what takes the count) in the message.
///
/// ```
/// use cktile_core::ops::gemm::check_banks;
/// assert!(check_banks("ck-kfold-mpair", 64).is_ok());
/// let e = check_banks("ck-kfold-mpair", 48).unwrap_err();
/// assert_eq!(e.to_string(), "ck-kfold-mpair: banks = 48; it must be 32 (gfx90a, gfx942) or 64 (gfx950)");
/// ```
pub const fn check_banks(context: &'static str, banks: usize) -> Result<(), Error> {
    if banks != 32 && banks != 64 {
        let must = "it must be 32 (gfx90a, gfx942) or 64 (gfx950)";
        return Err(Error::parameter(ParameterProblem::invalid_usize(context, "banks", banks, must)));
    }
    Ok(())
}

/// The KPack CK Tile's universal pipeline uses with 16-byte LDS reads
/// (`ds_read_b128`): the warp GEMM's K per lane, `16 / sizeof(T)` for the
/// MFMA instructions it selects for 1-, 2- and 4-byte types (8 for fp16).
///
/// ```
/// assert_eq!(cktile_core::ops::gemm::default_kpack(2), 8);
/// assert_eq!(cktile_core::ops::gemm::default_kpack(1), 16);
/// ```
pub const fn default_kpack(element_bytes: usize) -> usize {
    if element_bytes == 0 || element_bytes > 16 { 1 } else { 16 / element_bytes }
}

/// CK's KPack (`GetSmemPackA`): the elements of one LDS vector, the
/// smaller of the warp GEMM's K values a lane (`per_lane`, its
/// `kAKPack`) and a 16-byte vector of `bytes`-byte elements (8 for the
/// 16-bit types, 16 for the 8-bit ones). Errors, naming the value: an
/// element of another size, or no K value a lane.
///
/// ```
/// use cktile_core::ops::gemm::kpack;
/// // fp16 32x32x16 (8 a lane): 8; fp16 32x32x8 (4 a lane): 4; fp8 32x32x32 (16 a lane): 16.
/// assert_eq!((kpack(2, 8)?, kpack(2, 4)?, kpack(1, 16)?, kpack(1, 8)?), (8, 4, 16, 8));
/// assert!(kpack(4, 8).unwrap_err().to_string().contains("bytes = 4"));
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub const fn kpack(bytes: usize, per_lane: usize) -> Result<usize, Error> {
    let vector = match bytes {
        1 | 2 => default_kpack(bytes),
        _ => return Err(Error::policy_size("the GEMM's elements are 1 or 2 bytes", "bytes", bytes)),
    };
    match per_lane {
        0 => Err(Error::policy_value("the warp GEMM holds at least one K value a lane", "K values a lane", 0)),
        _ if per_lane < vector => Ok(per_lane),
        _ => Ok(vector),
    }
}

/// The KPack of `bytes`-byte elements under a warp GEMM of `wm` rows and
/// `wk` K values (`wm * wk / 64` a lane); a compile error where [`kpack`]
/// refuses.
const fn pack_of(bytes: usize, wm: usize, wk: usize) -> usize {
    match kpack(bytes, wm * wk / 64) {
        Ok(p) => p,
        Err(e) => static_failure(&e),
    }
}

/// CK's MLdsLayer for KPerBlock `k` and `bytes`-byte elements on 32 banks
/// ([`mlds_layer`], the one definition),
/// a compile error when KPerBlock is not a positive multiple of the KPack
/// `pack`.
const fn layer_of(k: usize, bytes: usize, pack: usize) -> usize {
    if k == 0 || pack == 0 || !k.is_multiple_of(pack) {
        static_failure(&Error::policy_size(
            "KPerBlock must be a positive multiple of KPack (the LDS block's vectors)",
            "KPerBlock",
            k,
        ));
    }
    match mlds_layer(k, bytes, 32) {
        Ok(l) => l,
        Err(e) => static_failure(&e),
    }
}

crate::derived_number! {
    /// KPack for `B`-byte elements under a `WM x WK` warp GEMM ([`kpack`]).
    ///
    /// ```
    /// use cktile_core::Value;
    /// assert_eq!(<cktile_core::ops::gemm::Pack<1, 32, 32> as Value>::STATIC, Some(16));
    /// assert_eq!(<cktile_core::ops::gemm::Pack<2, 32, 8> as Value>::STATIC, Some(4));
    /// ```
    pub struct Pack<const B: usize, const WM: usize, const WK: usize> = pack_of(B, WM, WK);
    /// MLdsLayer for KPerBlock `K` ([`mlds_layer`]).
    ///
    /// ```
    /// use cktile_core::Value;
    /// assert_eq!(<cktile_core::ops::gemm::Layer<32, 2, 32, 16> as Value>::STATIC, Some(2));
    /// ```
    pub struct Layer<const K: usize, const B: usize, const WM: usize, const WK: usize> =
        layer_of(K, B, pack_of(B, WM, WK));
    /// MPerBlock / MLdsLayer (a compile error when it does not divide).
    ///
    /// ```
    /// use cktile_core::Value;
    /// assert_eq!(<cktile_core::ops::gemm::MPerLayer<128, 32, 2, 32, 16> as Value>::STATIC, Some(64));
    /// ```
    pub struct MPerLayer<const M: usize, const K: usize, const B: usize, const WM: usize, const WK: usize> =
        if M.is_multiple_of(layer_of(K, B, pack_of(B, WM, WK))) {
            M / layer_of(K, B, pack_of(B, WM, WK))
        } else {
            panic!("cktile: MPerBlock must be a multiple of MLdsLayer")
        };
    /// KPerBlock / KPack.
    ///
    /// ```
    /// use cktile_core::Value;
    /// assert_eq!(<cktile_core::ops::gemm::KPacks<32, 2, 32, 16> as Value>::STATIC, Some(4));
    /// ```
    pub struct KPacks<const K: usize, const B: usize, const WM: usize, const WK: usize> = K / pack_of(B, WM, WK);
    /// KPerBlock / KPack * MLdsLayer: the xor's modulus.
    ///
    /// ```
    /// use cktile_core::Value;
    /// assert_eq!(<cktile_core::ops::gemm::KPacksLayers<32, 2, 32, 16> as Value>::STATIC, Some(8));
    /// ```
    pub struct KPacksLayers<const K: usize, const B: usize, const WM: usize, const WK: usize> =
        K / pack_of(B, WM, WK) * layer_of(K, B, pack_of(B, WM, WK));
    /// KPerBlock * MLdsLayer: the LDS row stride.
    ///
    /// ```
    /// use cktile_core::Value;
    /// assert_eq!(<cktile_core::ops::gemm::LdsRowStride<32, 2, 32, 16> as Value>::STATIC, Some(64));
    /// ```
    pub struct LdsRowStride<const K: usize, const B: usize, const WM: usize, const WK: usize> =
        K * layer_of(K, B, pack_of(B, WM, WK));
}

crate::descriptor_chain! {
    /// CK's XOR-preshuffled LDS block in its derived lengths, spelled once
    /// (its type, [`make_lds_chain`] and [`lds_chain`] are this one
    /// spelling): `ML` = MPerBlock / MLdsLayer, `K0L` = KPerBlock / KPack *
    /// MLdsLayer (the xor's modulus), `KP` = KPack, `RS` = KPerBlock *
    /// MLdsLayer (the row stride), `L` = MLdsLayer, `K0` = KPerBlock /
    /// KPack. The naive `(K0L, ML, KP)` block with KPack guaranteed
    /// contiguous, the xor of `(ML, K0L)`, the unmerge of `K0L` into `(L,
    /// K0)` (CK's order since 2025), the merges back to `(M, K)`.
    /// [`LdsChainOf`] derives the lengths from the tile, as CK does.
    ///
    /// ```
    /// use cktile_core::Number as N;
    /// use cktile_core::ops::gemm::{LdsChain, make_lds_block, make_lds_chain};
    /// use cktile_core::typed::TensorDescriptor;
    /// // 128 x 32 fp16 under the 32x32x16 MFMA: ML 64, K0L 8, KPack 8, row stride 64, MLdsLayer 2, K0 4.
    /// let d: TensorDescriptor<LdsChain<N<64>, N<8>, N<8>, N<64>, N<2>, N<4>>> =
    ///     make_lds_chain(N::<64>, N::<8>, N::<8>, N::<64>, N::<2>, N::<4>)?;
    /// assert_eq!(d.descriptor(), make_lds_block::<128, 32, 2, 32, 16>()?.descriptor());
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub type LdsChain<ML, K0L, KP, RS, L, K0>;
    /// Builds an [`LdsChain`], each length a compile-time
    /// [`Number`](crate::Number) or a runtime `usize`.
    ///
    /// ```
    /// use cktile_core::Number as N;
    /// use cktile_core::ops::gemm::make_lds_chain;
    /// // MPerBlock a runtime value (ML = 128 / 2), the rest compile-time.
    /// let d = make_lds_chain(64usize, N::<8>, N::<8>, N::<64>, N::<2>, N::<4>)?;
    /// assert_eq!(d.calculate_offset([3, 9]), 97);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn make_lds_chain;
    /// [`make_lds_chain`]'s descriptor from `usize`s, a `const fn`.
    ///
    /// ```
    /// use cktile_core::ops::gemm::lds_chain;
    /// const D: cktile_core::Descriptor = match lds_chain(64, 8, 8, 64, 2, 4) { Ok(d) => d, Err(_) => panic!() };
    /// assert_eq!(D.calculate_offset(&[3, 9]), 97);
    /// assert!(lds_chain(64, 6, 8, 48, 2, 3).is_err()); // a xor modulus of 6
    /// ```
    pub const fn lds_chain;
    naive((K0L, ML, KP), (KP, RS, 1), KP, 1)
    | transform(xor((ML, K0L)) on [1, 0] -> [1, 0], pass_through(KP) on [2] -> [2])
    | transform(unmerge((L, K0)) on [0] -> [0, 2], pass_through(ML) on [1] -> [1], pass_through(KP) on [2] -> [3])
    | transform(merge((ML, L)) on [1, 0] -> [0], merge((K0, KP)) on [2, 3] -> [1])
}

/// The LDS block's chain for MPerBlock `M`, KPerBlock `K`, `B`-byte
/// elements and a `WM x WK` warp GEMM (by default fp16 under the 32x32x16
/// MFMA: KPack 8; see [`make_lds_block`]): [`LdsChain`] with the lengths
/// the tile derives.
///
/// ```
/// use cktile_core::ops::gemm::{LdsChainOf, make_lds_block};
/// use cktile_core::typed::TensorDescriptor;
/// let d: TensorDescriptor<LdsChainOf<256, 64>> = make_lds_block::<256, 64, 2, 32, 16>()?;
/// assert_eq!(d.element_space_size(), 256 * 64);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub type LdsChainOf<const M: usize, const K: usize, const B: usize = 2, const WM: usize = 32, const WK: usize = 16> =
    LdsChain<
        MPerLayer<M, K, B, WM, WK>,
        KPacksLayers<K, B, WM, WK>,
        Pack<B, WM, WK>,
        LdsRowStride<K, B, WM, WK>,
        Layer<K, B, WM, WK>,
        KPacks<K, B, WM, WK>,
    >;

/// CK's `MakeALdsBlockDescriptor` (and `MakeBLdsBlockDescriptor`, N for
/// M) over MPerBlock `M`, KPerBlock `K`, elements of `B` bytes (2: fp16,
/// bf16; 1: the 8-bit types) and a `WM x WK` warp GEMM: KPack (CK's
/// `GetSmemPackA`: the warp GEMM's K values a lane, at most 16 bytes of
/// elements, [`kpack`]) guaranteed contiguous, `naive((K0 * L, M / L,
/// KPack), (KPack, K * L, 1))` with L = MLdsLayer, the xor preshuffle of
/// (M / L, K0 * L), then the unmerge and merges back to (M, K). Every
/// length is a constant: the offsets compile to CK's arithmetic. A size
/// CK's policy refuses (K not a multiple of KPack, M not a multiple of
/// MLdsLayer, a xor modulus K / KPack * MLdsLayer that is not a power of
/// two) is a compile error.
///
/// ```
/// use cktile_core::ops::gemm::make_lds_block;
/// // fp16 128 x 32 under the 32x32x16 MFMA (KPack 8, MLdsLayer 2), fp16 128 x 32 under the 32x32x8
/// // (KPack 4), fp16 256 x 64 (MLdsLayer 1) and fp8 128 x 64 under the 32x32x32 (KPack 16, MLdsLayer 2):
/// // every offset is CK's closed form, with m' = m / L, l = m % L, K0 = K / KPack:
/// // ((l * K0 + k / KPack) ^ (m' % (K0 * L))) * KPack + m' * K * L + k % KPack.
/// let blocks = [
///     (make_lds_block::<128, 32, 2, 32, 16>()?.descriptor(), 128, 32, 8, 2),
///     (make_lds_block::<128, 32, 2, 32, 8>()?.descriptor(), 128, 32, 4, 2),
///     (make_lds_block::<256, 64, 2, 32, 16>()?.descriptor(), 256, 64, 8, 1),
///     (make_lds_block::<128, 64, 1, 32, 32>()?.descriptor(), 128, 64, 16, 2),
/// ];
/// for (d, m, k, pack, layer) in blocks {
///     let k0 = k / pack;
///     for (mi, ki) in (0..m as i64).flat_map(|mi| (0..k as i64).map(move |ki| (mi, ki))) {
///         let (row, l) = (mi / layer, mi % layer);
///         let ck = ((l * k0 + ki / pack) ^ (row % (k0 * layer))) * pack + row * k * layer + ki % pack;
///         assert_eq!(d.calculate_offset(&[mi, ki]), ck);
///     }
/// }
/// # Ok::<(), cktile_core::Error>(())
/// ```
///
/// ```compile_fail
/// // KPerBlock 20 is not a multiple of KPack 8.
/// let _ = cktile_core::ops::gemm::make_lds_block::<128, 20, 2, 32, 16>();
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_lds_block<const M: usize, const K: usize, const B: usize, const WM: usize, const WK: usize>()
-> Result<TensorDescriptor<LdsChainOf<M, K, B, WM, WK>>, Error> {
    make_lds_chain(
        MPerLayer::<M, K, B, WM, WK>,
        KPacksLayers::<K, B, WM, WK>,
        Pack::<B, WM, WK>,
        LdsRowStride::<K, B, WM, WK>,
        Layer::<K, B, WM, WK>,
        KPacks::<K, B, WM, WK>,
    )
}
