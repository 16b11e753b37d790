//! CK Tile's LDS layouts, built from the same transforms CK Tile uses.
//!
//! Sources: `gemm_universal_pipeline_ag_bg_cr_policy.hpp` (the XOR /
//! MLdsLayer blocks and the kfold / mpair variant),
//! `gemm_pipeline_agmem_bgmem_creg_v1_default_policy.hpp` (3-D + padding),
//! `block_fmha_pipeline_qx_ks_vs_custom_policy.hpp` (fmha V) and the CK Tile
//! docs page "LDS index swapping". Every builder is a `const fn`: in a
//! `const` item, invalid parameters fail the build; at run time they are an
//! `Err` naming the parameter.

use super::build::{bad, element_bytes, item, multiple, positive, power_of_two};
use crate::Error;
use crate::layouts::build::dims;
use cktile_core::Descriptor;
use cktile_core::Transform;
use cktile_core::Vector;
use cktile_transforms::tri;

/// Which CK Tile version's unmerge order an XOR / MLdsLayer block follows.
///
/// CK Tile PR #2007 ("Fix A/B lds transform", March 2025) swapped the order
/// of the unmerge that splits the XORed K0 into the layer index and K0, to
/// remove 2-way bank conflicts for fp16 tiles with K = 32 and K = 16.
///
/// ```
/// use cktile_analysis::layouts::ck::{xor_lds, UnmergeOrder};
/// let old = xor_lds(128, 32, 8, 2, UnmergeOrder::Original2024).unwrap();
/// let new = xor_lds(128, 32, 8, 2, UnmergeOrder::Fixed2025).unwrap();
/// assert_eq!((old.calculate_offset(&[1, 0]), new.calculate_offset(&[1, 0])), (8, 32));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnmergeOrder {
    /// `unmerge((K0, L))` (CK Tile up to early 2025; still the fmha backward `MakeXLdsBlockDescriptor`).
    Original2024,
    /// `unmerge((L, K0))` (CK Tile since PR #2007, 2025; what the index-swapping docs derive).
    Fixed2025,
}

use cktile_core::ops::gemm::{check_banks, lds_chain};
pub use cktile_core::ops::gemm::{default_kpack, mlds_layer};

/// The LDS index-swapping (XOR preshuffle) block of an M x K tile with an
/// explicit `MLdsLayer` `l`, as the CK Tile docs derive it: the naive
/// `(K0*L, M/L, KPack)` block with strides `(KPack, K*L, 1)`, then
/// `xor((M/L, K0*L))` so `K0' = K0 ^ (M % (K0*L))`, then the unmerge of
/// `K0'` into `(L, K0'')` ([`UnmergeOrder::Fixed2025`]) or `(K0'', L)`
/// ([`UnmergeOrder::Original2024`]), then the merges back to `(m, k)`.
///
/// Closed form (2025 order), with `m' = m / L`, `l = m % L`, `K0 = K / KPack`:
/// `offset = ((l*K0 + k/KPack) ^ (m' % (K0*L))) * KPack + m' * K * L + k % KPack`.
/// Bijective onto `[0, M*K)`. Top dimension `k` has vector length KPack.
///
/// Valid when `K % KPack == 0`, `M % L == 0` and `K0 * L` is a power of two.
///
/// ```
/// use cktile_analysis::layouts::ck::{xor_lds, UnmergeOrder};
/// let d = xor_lds(128, 32, 8, 2, UnmergeOrder::Fixed2025).unwrap();
/// assert_eq!(d.calculate_offset(&[3, 9]), 97);
/// assert!(xor_lds(128, 24, 8, 2, UnmergeOrder::Fixed2025).is_err()); // K0*L = 6
/// ```
pub const fn xor_lds(m: usize, k: usize, kpack: usize, l: usize, order: UnmergeOrder) -> Result<Descriptor, Error> {
    const NAME: &str = "ck-xor-lds";
    tri!(positive(NAME, "M", m));
    tri!(positive(NAME, "K", k));
    tri!(positive(NAME, "KPack", kpack));
    tri!(positive(NAME, "MLdsLayer", l));
    tri!(multiple(NAME, "K", k, kpack, "it must be a multiple of KPack"));
    tri!(multiple(NAME, "M", m, l, "it must be a multiple of MLdsLayer"));
    let k0 = k / kpack;
    let Some(k0l) = k0.checked_mul(l) else {
        return Err(bad(NAME, "MLdsLayer", l, "K/KPack * MLdsLayer overflows"));
    };
    tri!(power_of_two(NAME, "K/KPack * MLdsLayer", k0l, "it must be a power of two (the xor's modulus)"));
    let Some(row) = k.checked_mul(l) else {
        return Err(bad(NAME, "K", k, "K * MLdsLayer overflows"));
    };
    let ml = m / l;
    match order {
        // The port's GEMM block: one spelling for its type and both its builders.
        UnmergeOrder::Fixed2025 => crate::error::lift(lds_chain(ml, k0l, kpack, row, l, k0)),
        UnmergeOrder::Original2024 => original_2024(ml, k0l, kpack, row, l, k0),
    }
}

/// [`xor_lds`] in CK's 2024 order, from its derived lengths (as the port's
/// `lds_chain` takes them): the unmerge of K0 * L into (K0, L), then the
/// merges of (K0, KPack) and (M / L, L).
const fn original_2024(
    ml: usize,
    k0l: usize,
    kpack: usize,
    row: usize,
    l: usize,
    k0: usize,
) -> Result<Descriptor, Error> {
    let d = crate::port!(Descriptor::naive_with_guaranteed(&[k0l, ml, kpack], &[kpack, row, 1], kpack, 1));
    let d = crate::port!(d.transform(&[
        tri!(item(Transform::xor(ml, k0l), &[1, 0], &[1, 0])),
        tri!(item(Transform::pass_through(kpack), &[2], &[2])),
    ]));
    let d = crate::port!(d.transform(&[
        tri!(item(Transform::unmerge(&[k0, l]), &[0], &[0, 2])),
        tri!(item(Transform::pass_through(ml), &[1], &[1])),
        tri!(item(Transform::pass_through(kpack), &[2], &[3])),
    ]));
    crate::error::lift(d.transform(&[
        tri!(item(Transform::merge(&[k0, kpack]), &[0, 3], &[1])),
        tri!(item(Transform::merge(&[ml, l]), &[1, 2], &[0])),
    ]))
}

/// CK Tile's universal GEMM A LDS block (row-major A; the column-major B
/// block is the same with N for M): [`xor_lds`] with `MLdsLayer` chosen by
/// CK's rule ([`mlds_layer`]) from K, the element size and the bank count.
///
/// ```
/// use cktile_analysis::layouts::ck::{universal_a, UnmergeOrder};
/// // fp16, M=128, K=64, KPack=8: 64*m + 8*((k/8) ^ (m%8)) + k%8.
/// let d = universal_a(128, 64, 8, 2, 32, UnmergeOrder::Fixed2025).unwrap();
/// assert_eq!(d.calculate_offset(&[9, 63]), 631);
/// ```
///
/// It is the block the port's typed GEMM policy builds
/// (`cktile_core::ops::gemm::make_lds_block`), offset for offset:
///
/// ```
/// use cktile_analysis::layouts::ck::{universal_a, UnmergeOrder};
/// use cktile_core::ops::gemm::make_lds_block;
/// // fp16 128 x 32 under the 32x32x16 MFMA (KPack 8, MLdsLayer 2), fp16 128 x 32 under the 32x32x8
/// // (KPack 4), fp16 256 x 64 (MLdsLayer 1) and fp8 128 x 64 under the 32x32x32 (KPack 16, MLdsLayer 2).
/// let blocks = [
///     (make_lds_block::<128, 32, 2, 32, 16>()?.descriptor(), 128, 32, 2, 8),
///     (make_lds_block::<128, 32, 2, 32, 8>()?.descriptor(), 128, 32, 2, 4),
///     (make_lds_block::<256, 64, 2, 32, 16>()?.descriptor(), 256, 64, 2, 8),
///     (make_lds_block::<128, 64, 1, 32, 32>()?.descriptor(), 128, 64, 1, 16),
/// ];
/// for (d, m, k, bytes, pack) in blocks {
///     let ck = universal_a(m, k, pack, bytes, 32, UnmergeOrder::Fixed2025)?;
///     assert_eq!(d.element_space_size(), ck.element_space_size());
///     for (mi, ki) in (0..m as i64).flat_map(|mi| (0..k as i64).map(move |ki| (mi, ki))) {
///         assert_eq!(d.calculate_offset(&[mi, ki]), ck.calculate_offset(&[mi, ki]));
///     }
/// }
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub const fn universal_a(
    m: usize,
    k: usize,
    kpack: usize,
    element_bytes_: usize,
    banks: usize,
    order: UnmergeOrder,
) -> Result<Descriptor, Error> {
    const NAME: &str = "ck-universal-a";
    tri!(element_bytes(NAME, element_bytes_));
    // MLdsLayer is derived, not given (its check of the banks comes first).
    let l = crate::port!(mlds_layer(k, element_bytes_, banks));
    tri!(positive(NAME, "M", m));
    tri!(positive(NAME, "K", k));
    tri!(positive(NAME, "KPack", kpack));
    tri!(multiple(NAME, "K", k, kpack, "it must be a multiple of KPack"));
    // Say so where it decides the answer.
    tri!(multiple(
        NAME,
        "M",
        m,
        l,
        "it must be a multiple of MLdsLayer = max(1, banks*4/K/sizeof(T)), which CK derives from K, the element type \
         and the bank count"
    ));
    if !(k / kpack).saturating_mul(l).is_power_of_two() {
        return Err(bad(
            NAME,
            "K",
            k,
            "K/KPack * MLdsLayer must be a power of two (the xor's modulus), with MLdsLayer = \
             max(1, banks*4/K/sizeof(T)) as CK derives it",
        ));
    }
    match xor_lds(m, k, kpack, l, order) {
        Ok(d) => Ok(d),
        Err(e) => Err(match *e.kind() {
            crate::ErrorKind::Port(cktile_core::ErrorKind::Parameter(p)) => match p.parameter() {
                Some(parameter) => crate::Error::parameter(p.renamed(NAME, parameter)),
                None => e,
            },
            _ => e,
        }),
    }
}

/// The plain XOR preshuffle of the CK Tile docs on KPack-wide vectors: row
/// `y` stores its vector `x` at vector slot `x' = (y % (K/KPack)) ^ x`:
/// `offset = y*K + ((y % K0) ^ (k / KPack)) * KPack + k % KPack`.
///
/// Valid when `K % KPack == 0` and `K / KPack` is a power of two.
///
/// ```
/// let d = cktile_analysis::layouts::ck::xor_preshuffle(64, 64, 8).unwrap();
/// assert_eq!(d.calculate_offset(&[1, 0]), 64 + 8);
/// ```
pub const fn xor_preshuffle(m: usize, k: usize, kpack: usize) -> Result<Descriptor, Error> {
    const NAME: &str = "ck-xor-preshuffle";
    tri!(positive(NAME, "M", m));
    tri!(positive(NAME, "K", k));
    tri!(positive(NAME, "KPack", kpack));
    tri!(multiple(NAME, "K", k, kpack, "it must be a multiple of KPack"));
    let k0 = k / kpack;
    tri!(power_of_two(NAME, "K/KPack", k0, "it must be a power of two (the xor's modulus)"));
    let d = crate::port!(Descriptor::packed_dims(tri!(dims(&[m, k0, kpack])), Some(kpack as i64)));
    let d = crate::port!(d.transform(&[
        tri!(item(Transform::xor(m, k0), &[0, 1], &[0, 1])),
        tri!(item(Transform::pass_through(kpack), &[2], &[2])),
    ]));
    crate::error::lift(d.transform(&[
        tri!(item(Transform::pass_through(m), &[0], &[0])),
        tri!(item(Transform::merge(&[k0, kpack]), &[1, 2], &[1])),
    ]))
}

/// CK Tile's v1 pipeline "3-D + padding" A block
/// (`GemmPipelineAGmemBGmemCRegV1DefaultPolicy`): K split into `K/KPack`
/// slabs of `M` rows of KPack elements, each slab padded by KPack elements:
/// `offset = (k/KPack) * (M+1) * KPack + KPack*m + k % KPack`.
/// The fmha forward Q/K blocks use the same pattern with `KPack = 16/sizeof(T)`.
///
/// Injective; the holes are the last KPack elements of every slab but the last.
///
/// ```
/// // CK Tile, M=32, K=16: 264*(k/8) + 8*m + k%8, element space 520.
/// let d = cktile_analysis::layouts::ck::v1_padded(32, 16, 8).unwrap();
/// assert_eq!((d.calculate_offset(&[1, 8]), d.element_space_size()), (272, 520));
/// ```
pub const fn v1_padded(m: usize, k: usize, kpack: usize) -> Result<Descriptor, Error> {
    const NAME: &str = "ck-v1-padded";
    tri!(positive(NAME, "M", m));
    tri!(positive(NAME, "K", k));
    tri!(positive(NAME, "KPack", kpack));
    tri!(multiple(NAME, "K", k, kpack, "it must be a multiple of KPack"));
    let rows = match m.checked_add(1) {
        Some(rows) => rows.checked_mul(kpack),
        None => None,
    };
    let Some(slab) = rows else {
        return Err(bad(NAME, "M", m, "(M+1) * KPack overflows"));
    };
    let d = crate::port!(Descriptor::naive_with_vector(
        &[k / kpack, m, kpack],
        &[slab, kpack, 1],
        Vector::new(kpack as i64, 1)
    ));
    crate::error::lift(d.transform(&[
        tri!(item(Transform::pass_through(m), &[1], &[0])),
        tri!(item(Transform::merge(&[k / kpack, kpack]), &[0, 2], &[1])),
    ]))
}

/// The K tile of CK Tile's asynchronous fmha forward pipeline
/// (`qr_ks_vs_async`, the only CK policy with more than one prefetch
/// buffer): K's LDS buffers and V's share one spacing, so the K tile decides
/// where V's second and third buffers start.
///
/// ```
/// use cktile_analysis::layouts::ck::FmhaKTile;
/// assert_eq!(FmhaKTile::CK_DEFAULT, FmhaKTile { n0: 128, warps: 4 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FmhaKTile {
    /// `kN0`: the sequence rows of one K tile.
    pub n0: usize,
    /// `NumWarps` of the block (64 lanes each).
    pub warps: usize,
}

impl FmhaKTile {
    /// CK Tile's usual forward tile: `kN0 = 128` with 4 warps.
    pub const CK_DEFAULT: FmhaKTile = FmhaKTile { n0: 128, warps: 4 };
}

/// The elements of one K buffer of CK Tile's asynchronous fmha pipeline
/// (`GetSingleSmemElementSpaceSize`, its `AsyncCopyK` branch), with `k`
/// the K block's `kK1`: lanes load `KVector = 4/sizeof(T)` elements each,
/// `LanesPerK = k/KVector` lanes cover a row, `LaneGroups = 64/LanesPerK`
/// rows per warp and issue, `NumIssues = n0/(LaneGroups*warps)`, and each
/// warp's slice of `64*KVector` elements is padded by `KPack = 16/sizeof(T)`:
/// `NumIssues * warps * (64*KVector + KPack)`.
///
/// Errors name what CK's `static_assert`s require: `64*KVector` a multiple
/// of `k`, and `n0` a positive multiple of `LaneGroups*warps`; the element
/// type 1, 2 or 4 bytes (the 4-byte loads this pipeline issues).
///
/// ```
/// use cktile_analysis::layouts::ck::{fmha_k_buffer, FmhaKTile};
/// // fp16, K = 32, 128 rows, 4 warps: 16 lanes per row, 4 rows per warp,
/// // 8 issues of 4 warps, each 64*2 elements + 8 of padding.
/// assert_eq!(fmha_k_buffer(32, 2, FmhaKTile::CK_DEFAULT), Ok(8 * 4 * 136));
/// ```
pub const fn fmha_k_buffer(k: usize, element_bytes_: usize, tile: FmhaKTile) -> Result<usize, Error> {
    const NAME: &str = "ck-fmha-v";
    tri!(element_bytes(NAME, element_bytes_));
    if element_bytes_ > 4 {
        return Err(bad(
            NAME,
            "dtype",
            element_bytes_,
            "with prefetch > 1 CK's K buffer is loaded 4 bytes per lane (KVector = 4/sizeof(T)): 1, 2 or 4 bytes",
        ));
    }
    tri!(positive(NAME, "K", k));
    tri!(positive(NAME, "warps", tile.warps));
    let k_vector = 4 / element_bytes_;
    let row = 64 * k_vector;
    if k > row || !row.is_multiple_of(k) {
        return Err(bad(
            NAME,
            "K",
            k,
            "with prefetch > 1 it must divide 64*KVector = 256/sizeof(T) (CK's async K load)",
        ));
    }
    let lane_groups = 64 / (k / k_vector);
    let Some(per_issue) = lane_groups.checked_mul(tile.warps) else {
        return Err(bad(NAME, "warps", tile.warps, "the rows per issue overflow"));
    };
    if tile.n0 == 0 || !tile.n0.is_multiple_of(per_issue) {
        return Err(bad(
            NAME,
            "n0",
            tile.n0,
            "it must be a positive multiple of LaneGroups*warps = 64/(K/KVector)*warps (CK's async K load)",
        ));
    }
    let issues = tile.n0 / per_issue;
    let slice = row + 16 / element_bytes_;
    match issues.checked_mul(tile.warps) {
        Some(n) => match n.checked_mul(slice) {
            Some(elements) => Ok(elements),
            None => Err(bad(NAME, "n0", tile.n0, "the K buffer size overflows")),
        },
        None => Err(bad(NAME, "n0", tile.n0, "the K buffer size overflows")),
    }
}

/// CK Tile's fmha V LDS block (`MakeVLdsBlockDescriptor`): each 128-byte
/// row of 32 banks (`PixelsPerRow = 32*4/sizeof(T)` elements) is padded by
/// KPack elements, over `prefetch` buffers:
/// naive `(prefetch, K/KPack, N/NPerRow, NPerRow, KPack)` with strides
/// `(buffer, (N/NPerRow)*(PixelsPerRow+KPack), PixelsPerRow+KPack, KPack, 1)`
/// where `NPerRow = PixelsPerRow/KPack`,
/// then `merge(prefetch, N/NPerRow, NPerRow)` -> n and `merge(K/KPack, KPack)` -> k.
///
/// Valid when `PixelsPerRow % KPack == 0`, `N % NPerRow == 0`, `K % KPack == 0`.
///
/// The buffers are spaced as CK spaces them (`GetSingleSmemElementSpaceSize`):
/// K and V share each buffer, so `buffer = max(K buffer, V block)`, with the
/// K buffer of [`fmha_k_buffer`] for the K tile `k_tile`. One buffer
/// (`prefetch = 1`, every synchronous CK policy) does not depend on it. CK's
/// only multi-buffer policy is the asynchronous one, whose V KPack is
/// `16/sizeof(T)`: with `prefetch > 1` any other KPack is refused.
///
/// ```
/// use cktile_analysis::layouts::ck::{fmha_v, FmhaKTile};
/// // fp16: 64 elements per row + 8 of padding.
/// let d = fmha_v(128, 32, 8, 2, 1, FmhaKTile::CK_DEFAULT).unwrap();
/// assert_eq!(d.calculate_offset(&[8, 0]), 72);
/// // A small head dimension (N = 32) with three buffers on 2 warps: the K
/// // buffer (4352 elements) is larger than the V block (1152), and spaces them.
/// let d = fmha_v(32, 32, 8, 2, 3, FmhaKTile { n0: 128, warps: 2 }).unwrap();
/// assert_eq!(d.calculate_offset(&[32, 0]), 4352);
/// ```
pub const fn fmha_v(
    n: usize,
    k: usize,
    kpack: usize,
    element_bytes_: usize,
    prefetch: usize,
    k_tile: FmhaKTile,
) -> Result<Descriptor, Error> {
    const NAME: &str = "ck-fmha-v";
    tri!(element_bytes(NAME, element_bytes_));
    tri!(positive(NAME, "N", n));
    tri!(positive(NAME, "K", k));
    tri!(positive(NAME, "KPack", kpack));
    tri!(positive(NAME, "prefetch", prefetch));
    let pixels = 32 * 4 / element_bytes_;
    if !pixels.is_multiple_of(kpack) {
        return Err(bad(NAME, "KPack", kpack, "it must divide the 128-byte row (32*4/sizeof(T) elements)"));
    }
    let n_per_row = pixels / kpack;
    tri!(multiple(NAME, "N", n, n_per_row, "it must be a multiple of NPerRow = 32*4/sizeof(T)/KPack"));
    tri!(multiple(NAME, "K", k, kpack, "it must be a multiple of KPack"));
    let rows = n / n_per_row;
    let pitch = pixels + kpack;
    let Some(per_k) = rows.checked_mul(pitch) else {
        return Err(bad(NAME, "N", n, "the buffer size overflows"));
    };
    let Some(v_block) = per_k.checked_mul(k / kpack) else {
        return Err(bad(NAME, "K", k, "the buffer size overflows"));
    };
    let buffer = if prefetch == 1 {
        v_block
    } else {
        if kpack != 16 / element_bytes_ {
            return Err(bad(
                NAME,
                "KPack",
                kpack,
                "with prefetch > 1 (CK's async pipeline) it is CK's GetSmemKPackV = 16/sizeof(T)",
            ));
        }
        let k_buffer = tri!(fmha_k_buffer(k, element_bytes_, k_tile));
        if k_buffer > v_block { k_buffer } else { v_block }
    };
    // CK guarantees KPack contiguous elements with stride 1 along the last dimension.
    let d = crate::port!(Descriptor::naive_with_vector(
        &[prefetch, k / kpack, rows, n_per_row, kpack],
        &[buffer, per_k, pitch, kpack, 1],
        Vector::new(kpack as i64, 1)
    ));
    crate::error::lift(d.transform(&[
        tri!(item(Transform::merge(&[prefetch, rows, n_per_row]), &[0, 2, 3], &[0])),
        tri!(item(Transform::merge(&[k / kpack, kpack]), &[1, 4], &[1])),
    ]))
}

/// Parameters of CK Tile's column-major A (row-major B) LDS block.
///
/// ```
/// let p = cktile_analysis::layouts::ck::KfoldParams { m: 128, k: 32, ak1: 8, m0: 32, k_thread_write: 4, m_per_xdl: 32, element_bytes: 2, banks: 32 };
/// assert_eq!(p.kfold(), Ok(1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KfoldParams {
    /// M per block.
    pub m: usize,
    /// K per block.
    pub k: usize,
    /// AK1: elements per thread along K in one vector.
    pub ak1: usize,
    /// M0: threads along M when writing.
    pub m0: usize,
    /// KThreadWrite: threads along K when writing.
    pub k_thread_write: usize,
    /// MPerXdl: the MFMA's M (16 or 32).
    pub m_per_xdl: usize,
    /// Element size in bytes.
    pub element_bytes: usize,
    /// LDS banks (32, or 64 on gfx950).
    pub banks: usize,
}

impl KfoldParams {
    /// `kfold = (AK1*M0*sz > banks*4) ? 1 : banks*4 / (AK1*M0*sz)`; an error
    /// unless `banks` is 32 or 64. A product past `usize` is above
    /// `banks*4`, so it gives 1, as CK's formula does.
    ///
    /// ```
    /// let mut p = cktile_analysis::layouts::ck::KfoldParams { m: 64, k: 32, ak1: 4, m0: 16, k_thread_write: 8, m_per_xdl: 16, element_bytes: 2, banks: 32 };
    /// assert_eq!(p.kfold(), Ok(1));
    /// p.m0 = 8;
    /// assert_eq!(p.kfold(), Ok(2));
    /// p.ak1 = usize::MAX;
    /// assert_eq!(p.kfold(), Ok(1));
    /// ```
    pub const fn kfold(&self) -> Result<usize, Error> {
        crate::port!(check_banks("ck-kfold-mpair", self.banks));
        Ok(fold(self.banks * 4, self.ak1, self.m0, self.element_bytes, usize::MAX))
    }

    /// `mpair = (AK1*MPerXdl*sz > banks*4) ? 1 : min(M0, banks*4 / (AK1*MPerXdl*sz))`;
    /// an error unless `banks` is 32 or 64.
    ///
    /// ```
    /// let p = cktile_analysis::layouts::ck::KfoldParams { m: 64, k: 32, ak1: 4, m0: 16, k_thread_write: 8, m_per_xdl: 16, element_bytes: 2, banks: 32 };
    /// assert_eq!(p.mpair(), Ok(1));
    /// ```
    pub const fn mpair(&self) -> Result<usize, Error> {
        crate::port!(check_banks("ck-kfold-mpair", self.banks));
        Ok(fold(self.banks * 4, self.ak1, self.m_per_xdl, self.element_bytes, self.m0))
    }
}

/// `(a*b*c > row) ? 1 : min(cap, row / (a*b*c))`, a zero product counted as
/// `> row` (CK never forms one), an overflowing product too.
const fn fold(row: usize, a: usize, b: usize, c: usize, cap: usize) -> usize {
    let w = match a.checked_mul(b) {
        Some(ab) => ab.checked_mul(c),
        None => None,
    };
    match w {
        Some(w) if w > 0 && w <= row => {
            let n = row / w;
            if n < cap { n } else { cap }
        }
        _ => 1,
    }
}

/// CK Tile's column-major A / row-major B LDS block ("kfold / mpair"), from
/// `gemm_universal_pipeline_ag_bg_cr_policy.hpp` (wave64):
/// packed `(KThreadWrite/kfold/KThreadReadPerm, K0PerThreadWrite,
/// KThreadReadPerm*M1, kfold*M0/mpair, mpair, AK1)`, an xor of dims 2 and 3,
/// unmerges of both, and merges to `k` (`KThreadReadPerm,
/// KThreadWrite/kfold/KThreadReadPerm, kfold, K0PerThreadWrite, AK1`) and `m`
/// (`M0/mpair, mpair, M1`), with `M1 = M/M0`, `AK0 = K/AK1`,
/// `K0PerThreadWrite = AK0/KThreadWrite`, `KThreadRead = 64/MPerXdl`,
/// `K0PerThreadRead = AK0/KThreadRead` and `KThreadReadPerm` as CK computes it.
///
/// The offsets follow from CK's chain by the transform formulas; no CK run
/// confirmed them (unlike the row-major blocks).
///
/// ```
/// use cktile_analysis::layouts::ck::{kfold_mpair, KfoldParams};
/// const P: KfoldParams = KfoldParams { m: 128, k: 32, ak1: 8, m0: 32, k_thread_write: 4, m_per_xdl: 32, element_bytes: 2, banks: 32 };
/// const D: cktile_core::Descriptor = match kfold_mpair(&P) {
///     Ok(d) => d,
///     Err(e) => panic!("{}", e.summary()),
/// };
/// assert_eq!(D.lengths().as_slice(), &[128, 32]);
/// cktile_core::assert_bijective!(D);
/// ```
pub const fn kfold_mpair(p: &KfoldParams) -> Result<Descriptor, Error> {
    const NAME: &str = "ck-kfold-mpair";
    tri!(element_bytes(NAME, p.element_bytes));
    tri!(positive(NAME, "M", p.m));
    tri!(positive(NAME, "K", p.k));
    tri!(positive(NAME, "AK1", p.ak1));
    tri!(positive(NAME, "M0", p.m0));
    tri!(positive(NAME, "KThreadWrite", p.k_thread_write));
    crate::port!(check_banks(NAME, p.banks));
    if p.m_per_xdl != 16 && p.m_per_xdl != 32 {
        return Err(bad(NAME, "MPerXdl", p.m_per_xdl, "it must be 16 or 32"));
    }
    tri!(multiple(NAME, "M", p.m, p.m0, "it must be a multiple of M0"));
    tri!(multiple(NAME, "K", p.k, p.ak1, "it must be a multiple of AK1"));
    let m1 = p.m / p.m0;
    let ak0 = p.k / p.ak1;
    tri!(multiple(NAME, "AK0 = K/AK1", ak0, p.k_thread_write, "it must be a multiple of KThreadWrite"));
    let k0_write = ak0 / p.k_thread_write;
    let k_thread_read = 64 / p.m_per_xdl;
    tri!(multiple(NAME, "AK0 = K/AK1", ak0, k_thread_read, "it must be a multiple of KThreadRead = 64/MPerXdl"));
    let k0_read = ak0 / k_thread_read;
    let kfold = tri!(p.kfold());
    let mpair = tri!(p.mpair());
    let Some(folded) = kfold.checked_mul(k0_write) else {
        return Err(bad(NAME, "K", p.k, "kfold * K0PerThreadWrite overflows"));
    };
    let ratio = folded / k0_read;
    let k_read_perm = if ratio > 1 { k_thread_read / ratio } else { k_thread_read };
    if k_read_perm == 0 {
        return Err(bad(NAME, "KThreadReadPerm", 0, "it must be at least 1 (reduce kfold or K0PerThreadWrite)"));
    }
    let Some(per_write) = kfold.checked_mul(k_read_perm) else {
        return Err(bad(NAME, "KThreadWrite", p.k_thread_write, "kfold * KThreadReadPerm overflows"));
    };
    tri!(multiple(
        NAME,
        "KThreadWrite",
        p.k_thread_write,
        per_write,
        "it must be a multiple of kfold * KThreadReadPerm"
    ));
    tri!(multiple(NAME, "M0", p.m0, mpair, "it must be a multiple of mpair"));
    let k_outer = p.k_thread_write / kfold / k_read_perm;
    let Some(x0) = k_read_perm.checked_mul(m1) else {
        return Err(bad(NAME, "M", p.m, "KThreadReadPerm * M/M0 overflows"));
    };
    let Some(x1) = kfold.checked_mul(p.m0) else {
        return Err(bad(NAME, "M0", p.m0, "kfold * M0 overflows"));
    };
    let x1 = x1 / mpair;
    tri!(power_of_two(NAME, "kfold*M0/mpair", x1, "it must be a power of two (the xor's modulus)"));
    let d = crate::port!(Descriptor::packed_dims(tri!(dims(&[k_outer, k0_write, x0, x1, mpair, p.ak1])), None));
    let d = crate::port!(d.transform(&[
        tri!(item(Transform::pass_through(k_outer), &[0], &[0])),
        tri!(item(Transform::pass_through(k0_write), &[1], &[1])),
        tri!(item(Transform::xor(x0, x1), &[2, 3], &[2, 3])),
        tri!(item(Transform::pass_through(mpair), &[4], &[4])),
        tri!(item(Transform::pass_through(p.ak1), &[5], &[5])),
    ]));
    let d = crate::port!(d.transform(&[
        tri!(item(Transform::pass_through(k_outer), &[0], &[1])),
        tri!(item(Transform::pass_through(k0_write), &[1], &[2])),
        tri!(item(Transform::unmerge(&[k_read_perm, m1]), &[2], &[0, 3])),
        tri!(item(Transform::unmerge(&[kfold, p.m0 / mpair]), &[3], &[4, 5])),
        tri!(item(Transform::pass_through(mpair), &[4], &[6])),
        tri!(item(Transform::pass_through(p.ak1), &[5], &[7])),
    ]));
    crate::error::lift(d.transform(&[
        tri!(item(Transform::merge(&[p.m0 / mpair, mpair, m1]), &[5, 6, 3], &[0])),
        tri!(item(Transform::merge(&[k_read_perm, k_outer, kfold, k0_write, p.ak1]), &[0, 1, 4, 2, 7], &[1])),
    ]))
}
