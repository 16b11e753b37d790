//! What each kernel computes for one element: `typed_*` builds its
//! descriptor once (per thread, from the kernel's arguments when they are
//! runtime values) and returns the offset function of `(m, k)`; `hand_*` is
//! its twin, the same offsets written out by hand (the formulas of
//! `perf/kernels`' `hand_*` twins, per element).
//!
//! ```
//! use cktile_gpu_kernel::tiles;
//! let (typed, hand) = (tiles::typed_b_lds(), tiles::hand_b_lds());
//! assert_eq!(typed(3, 17), hand(3, 17));
//! ```

use crate::builders::{make_a_lds, make_a_lds_rt, make_b_lds, make_fmha_v, make_global_a};
use crate::{Index, PADDING, REFUSED};

/// Rows and columns of the all-static A block ([`typed_a_lds`]).
pub const A_LDS: (u64, u64) = (128, 32);
/// Columns of the runtime-length A block ([`typed_a_lds_rt`]; its rows are MPerBlock).
pub const A_LDS_RT_COLS: u64 = 32;
/// Rows and columns of the B block ([`typed_b_lds`]).
pub const B_LDS: (u64, u64) = (256, 64);
/// Rows and columns of the fmha V block, both prefetch buffers ([`typed_fmha_v`]).
pub const FMHA_V: (u64, u64) = (256, 32);

/// CK's GEMM A LDS block, M=128, K=32, KPack=8, MLdsLayer=2 (fp16), all static.
///
/// ```
/// assert_eq!(cktile_gpu_kernel::tiles::typed_a_lds()(1, 0), 32);
/// ```
#[inline(always)]
pub fn typed_a_lds() -> impl Fn(Index, Index) -> Index {
    let d = make_a_lds();
    move |m, k| match &d {
        Ok(d) => d.calculate_offset([m, k]),
        Err(_) => REFUSED,
    }
}

/// Twin of [`typed_a_lds`] (and of [`typed_a_lds_rt`], whose M does not
/// enter the formula): `((l*K0 + k/KPack) ^ (m' % (K0*L))) * KPack + m'*K*L + k%KPack`
/// with `m' = m / 2`, `l = m % 2`.
///
/// ```
/// assert_eq!(cktile_gpu_kernel::tiles::hand_a_lds()(1, 0), 32);
/// ```
#[inline(always)]
pub fn hand_a_lds() -> impl Fn(Index, Index) -> Index {
    |m, k| {
        let (mp, l) = (m / 2, m % 2);
        ((l * 4 + k / 8) ^ (mp % 8)) * 8 + mp * 64 + k % 8
    }
}

/// The A block with MPerBlock a kernel argument: the descriptor is built
/// (and validated) on the device.
///
/// ```
/// assert_eq!(cktile_gpu_kernel::tiles::typed_a_lds_rt(256)(255, 31), 8191 - 8 * 7);
/// ```
#[inline(always)]
pub fn typed_a_lds_rt(m_per_block: u64) -> impl Fn(Index, Index) -> Index {
    let d = make_a_lds_rt(m_per_block as usize);
    move |m, k| match &d {
        Ok(d) => d.calculate_offset([m, k]),
        Err(_) => REFUSED,
    }
}

/// CK's GEMM B LDS block, N=256, K=64, KPack=8, MLdsLayer=1 (fp16), all static.
///
/// ```
/// assert_eq!(cktile_gpu_kernel::tiles::typed_b_lds()(1, 0), 72);
/// ```
#[inline(always)]
pub fn typed_b_lds() -> impl Fn(Index, Index) -> Index {
    let d = make_b_lds();
    move |n, k| match &d {
        Ok(d) => d.calculate_offset([n, k]),
        Err(_) => REFUSED,
    }
}

/// Twin of [`typed_b_lds`]: `64*n + 8*((k/8) ^ (n%8)) + k%8`.
///
/// ```
/// assert_eq!(cktile_gpu_kernel::tiles::hand_b_lds()(1, 0), 72);
/// ```
#[inline(always)]
pub fn hand_b_lds() -> impl Fn(Index, Index) -> Index {
    |n, k| 64 * n + 8 * ((k / 8) ^ (n % 8)) + k % 8
}

/// CK's fmha V LDS block, N=128, K=32, KPack=8, fp16, two prefetch buffers.
///
/// ```
/// assert_eq!(cktile_gpu_kernel::tiles::typed_fmha_v()(128, 0), 4608);
/// ```
#[inline(always)]
pub fn typed_fmha_v() -> impl Fn(Index, Index) -> Index {
    let d = make_fmha_v();
    move |n, k| match &d {
        Ok(d) => d.calculate_offset([n, k]),
        Err(_) => REFUSED,
    }
}

/// Twin of [`typed_fmha_v`]: rows of 64 elements padded by 8, buffers 4608 apart.
///
/// ```
/// assert_eq!(cktile_gpu_kernel::tiles::hand_fmha_v()(128, 0), 4608);
/// ```
#[inline(always)]
pub fn hand_fmha_v() -> impl Fn(Index, Index) -> Index {
    |n, k| {
        let (p, r, c) = (n / 128, (n / 8) % 16, n % 8);
        p * 4608 + (k / 8) * 1152 + r * 72 + c * 8 + k % 8
    }
}

/// The runtime values of the global A view, as the kernel receives them:
/// `(M, K, row stride, M padding, K padding)`.
pub type GlobalArgs = (u64, u64, u64, u64, u64);

/// Rows and columns of the global A view's padded tile: `(M + pad_m, K + pad_k)`,
/// `None` when a sum overflows.
///
/// ```
/// assert_eq!(cktile_gpu_kernel::tiles::global_a_shape((100, 60, 72, 28, 4)), Some((128, 64)));
/// ```
#[inline(always)]
pub fn global_a_shape((m, k, _, pad_m, pad_k): GlobalArgs) -> Option<(u64, u64)> {
    Some((m.checked_add(pad_m)?, k.checked_add(pad_k)?))
}

/// CK's global A view: runtime M, K and row stride, right-padded; the
/// descriptor is built (and validated) on the device from the kernel's
/// arguments. The offset of a valid coordinate, [`PADDING`] otherwise.
///
/// ```
/// let f = cktile_gpu_kernel::tiles::typed_global_a((100, 60, 72, 28, 4));
/// assert_eq!((f(2, 3), f(2, 60), f(100, 0)), (147, -1, -1));
/// ```
#[inline(always)]
pub fn typed_global_a((m, k, stride, pad_m, pad_k): GlobalArgs) -> impl Fn(Index, Index) -> Index {
    let d = make_global_a(m as usize, k as usize, stride as usize, pad_m as usize, pad_k as usize);
    move |m, k| match &d {
        Ok(d) => d.offset_if_valid([m, k]).unwrap_or(PADDING),
        Err(_) => REFUSED,
    }
}

/// Twin of [`typed_global_a`]: `m * stride + k` inside `M x K`, [`PADDING`]
/// in the padding.
///
/// ```
/// let f = cktile_gpu_kernel::tiles::hand_global_a((100, 60, 72, 28, 4));
/// assert_eq!((f(2, 3), f(2, 60), f(100, 0)), (147, -1, -1));
/// ```
#[inline(always)]
pub fn hand_global_a((m_len, k_len, stride, _, _): GlobalArgs) -> impl Fn(Index, Index) -> Index {
    let (ml, kl, s) = (m_len as Index, k_len as Index, stride as Index);
    move |m, k| if m < ml && k < kl { m * s + k } else { PADDING }
}
