//! The access plan of a tile window: which vector each access of a thread
//! moves and where it lands in the thread's registers, computed at compile
//! time from the distribution's encoding and the view's safe vectors, as CK
//! Tile's `tile_window_with_static_distribution::Traits` computes them.
//!
//! - The vector dimension and width (CK's `get_vector_dim_y_scalar_per_vector`):
//!   the view's top vectors ([`Chain::TOP_VECTORS`](crate::typed::Chain::TOP_VECTORS))
//!   are the bottom vectors of the distribution's `ps_ys_to_xs` adaptor,
//!   carried to its top ([`Adaptor::top_vectors`](crate::adaptor::Adaptor::top_vectors));
//!   the first Y of stride 1 with the longest length wins, and with none the
//!   width is 1.
//! - The order of the accesses: CK's space-filling curve over the Y lengths
//!   (the vector dimension counted in vectors), dimensions in order, snake
//!   ordered (each dimension runs backwards when the index of the
//!   dimensions before it is odd).
//! - For each access, the X offset of its first element from the thread's
//!   origin (the adaptor at P = 0, which is linear in Y: P and Y own
//!   disjoint H components) and its first element's place in the thread
//!   buffer (`ys_to_d`); the vector's other elements follow at a fixed
//!   register stride.
//!
//! ```
//! use cktile_core::distribution::{catalogue, Distribution};
//! use cktile_core::tile::plan::AccessPlan;
//! use cktile_core::transforms::{MAX_DIMS, Vector};
//! // CK's MFMA 32x32x8 A operand (fp16) read from an LDS block that guarantees 8 contiguous K.
//! let mut top = [Vector::UNKNOWN; MAX_DIMS];
//! top[1] = Vector::new(8, 1);
//! let p = AccessPlan::new(&catalogue::mfma_a(32, 8)?, &top, 2)?;
//! assert_eq!((p.accesses(), p.vector(), p.vector_dim_y()), (1, 4, Some(0)));
//! # Ok::<(), cktile_core::Error>(())
//! ```

use crate::Index;
use crate::descriptor::tri;
use crate::distribution::{Distribution, Encoding};
use crate::error::{Error, ParameterProblem};
use cktile_transforms::{MAX_DIMS, Vector};

/// The most accesses one tile window load or store makes (a thread buffer
/// of up to this many vectors): the plan is a compile-time table of this
/// size.
///
/// ```
/// assert_eq!(cktile_core::tile::plan::MAX_ACCESSES, 128);
/// ```
pub const MAX_ACCESSES: usize = 128;

/// The most elements one thread's share of a distributed tile may hold
/// (the product of the Y lengths).
///
/// ```
/// assert_eq!(cktile_core::tile::plan::MAX_THREAD_BUFFER, 1 << 20);
/// ```
pub const MAX_THREAD_BUFFER: usize = 1 << 20;

/// The compile-time plan of a tile window's accesses. See the
/// [module documentation](self).
///
/// ```
/// use cktile_core::distribution::{catalogue, Distribution};
/// use cktile_core::tile::plan::AccessPlan;
/// use cktile_core::transforms::{MAX_DIMS, Vector};
/// let mut top = [Vector::UNKNOWN; MAX_DIMS];
/// top[1] = Vector::new(8, 1);
/// // CK's GEMM A DRAM distribution for 256 threads, 128 x 32, 8 contiguous K per load.
/// let e = cktile_core::distribution::Encoding::new(&[1], &[&[2, 4, 16], &[4, 8]], &[&[1], &[1, 2]], &[&[1], &[2, 0]], &[1, 2], &[0, 1])?;
/// let p = AccessPlan::new(&e, &top, 2)?;
/// assert_eq!((p.accesses(), p.vector(), p.vector_dim_y()), (2, 8, Some(1)));
/// // The second access is Y0 = 1: M's first component, 4 warps x 16 rows = 64 rows further.
/// assert_eq!(p.x_delta(1)[..2], [64, 0]);
/// assert_eq!((p.d_start(1), p.d_stride()), (8, 1));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct AccessPlan {
    ndim_x: usize,
    ndim_y: usize,
    y_lengths: [Index; MAX_DIMS],
    vector_dim_y: Option<usize>,
    vector: usize,
    accesses: usize,
    thread_buffer: usize,
    d_stride: usize,
    ys_start: [[Index; MAX_DIMS]; MAX_ACCESSES],
    x_delta: [[Index; MAX_DIMS]; MAX_ACCESSES],
    x_last: [[Index; MAX_DIMS]; MAX_ACCESSES],
    d_start: [usize; MAX_ACCESSES],
}

/// The plan's numbers and its accesses (only the ones it makes).
impl core::fmt::Debug for AccessPlan {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let n = self.accesses.min(MAX_ACCESSES);
        f.debug_struct("AccessPlan")
            .field("vector_dim_y", &self.vector_dim_y)
            .field("vector", &self.vector)
            .field("accesses", &self.accesses)
            .field("thread_buffer", &self.thread_buffer)
            .field("y_lengths", &&self.y_lengths[..self.ndim_y.min(MAX_DIMS)])
            .field("ys_start", &&self.ys_start[..n])
            .field("x_delta", &&self.x_delta[..n])
            .field("d_start", &&self.d_start[..n])
            .field("d_stride", &self.d_stride)
            .finish()
    }
}

const fn plan_error(parameter: &'static str, value: usize, requirement: &'static str) -> Error {
    Error::parameter(ParameterProblem::invalid_usize("tile window", parameter, value, requirement))
}

impl AccessPlan {
    /// The plan of a window over a view of `view_dims` top dimensions whose
    /// top vectors are `view_vectors`, for the distribution of `encoding`.
    /// Refused: a distribution whose X has another number of dimensions
    /// than the view, one or more than two Ps (CK's windows partition by
    /// the lane, or by the warp and the lane), more than [`MAX_ACCESSES`]
    /// accesses.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue;
    /// use cktile_core::tile::plan::AccessPlan;
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// let e = AccessPlan::new(&catalogue::mfma_a(32, 8)?, &[Vector::UNKNOWN; MAX_DIMS], 3).unwrap_err();
    /// assert!(e.to_string().contains("X dimensions"));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[inline]
    pub const fn new(
        encoding: &Encoding,
        view_vectors: &[Vector; MAX_DIMS],
        view_dims: usize,
    ) -> Result<AccessPlan, Error> {
        let d = tri!(Distribution::new(*encoding));
        let ndim_x = encoding.ndim_x();
        if ndim_x != view_dims {
            return Err(plan_error(
                "X dimensions",
                ndim_x,
                "a distributed tile window's distribution has one X dimension per top dimension of its view",
            ));
        }
        let ndim_p = encoding.ndim_p();
        if ndim_p != 1 && ndim_p != 2 {
            return Err(plan_error(
                "P dimensions",
                ndim_p,
                "a tile window partitions by the lane (one P) or by the warp and the lane (two Ps), as CK's get_partition_index",
            ));
        }
        let ndim_y = encoding.ndim_y();
        let adaptor = d.ps_ys_to_xs();
        // CK's get_vector_dim_y_scalar_per_vector, the one rule.
        let (vector_dim_y, vector) = match d.vector_dim_y(view_vectors) {
            Some((y, len)) => (Some(y), len),
            None => (None, 1),
        };
        let y = d.y_lengths();
        let mut y_lengths = [1; MAX_DIMS];
        let mut per = [1; MAX_DIMS];
        let mut accesses: usize = 1;
        let mut thread_buffer: usize = 1;
        let mut i = 0;
        while i < ndim_y {
            y_lengths[i] = y.get(i);
            per[i] = y.get(i);
            if let Some(v) = vector_dim_y
                && v == i
            {
                // CK's window asserts the width divides the length; its rule makes it so (a gcd).
                per[i] = y.get(i) / vector;
            }
            accesses = accesses.saturating_mul(per[i] as usize);
            thread_buffer = thread_buffer.saturating_mul(y.get(i) as usize);
            i += 1;
        }
        if accesses > MAX_ACCESSES {
            return Err(plan_error(
                "accesses",
                accesses,
                "a tile window load or store makes at most 128 accesses (MAX_ACCESSES)",
            ));
        }
        if thread_buffer > MAX_THREAD_BUFFER {
            return Err(plan_error(
                "elements per thread",
                thread_buffer,
                "a thread holds at most 2^20 elements of a distributed tile (MAX_THREAD_BUFFER)",
            ));
        }
        // The thread buffer index of a Y index: ys_to_d, packed Y lengths, row-major.
        let mut d_strides = [0usize; MAX_DIMS];
        let mut stride = 1usize;
        i = ndim_y;
        while i > 0 {
            i -= 1;
            d_strides[i] = stride;
            stride *= y.get(i) as usize;
        }
        let d_stride = match vector_dim_y {
            Some(v) => d_strides[v],
            None => 1,
        };
        let mut plan = AccessPlan {
            ndim_x,
            ndim_y,
            y_lengths,
            vector_dim_y,
            vector: vector as usize,
            accesses,
            thread_buffer,
            d_stride,
            ys_start: [[0; MAX_DIMS]; MAX_ACCESSES],
            x_delta: [[0; MAX_DIMS]; MAX_ACCESSES],
            x_last: [[0; MAX_DIMS]; MAX_ACCESSES],
            d_start: [0; MAX_ACCESSES],
        };
        let mut a = 0;
        while a < accesses {
            let ys = snake_index(a, &per, ndim_y, vector_dim_y, vector);
            // (P = 0, Y): the offset of this access from the thread's origin.
            let mut ps_ys = [0; MAX_DIMS];
            i = 0;
            while i < ndim_y {
                ps_ys[(ndim_p + i) % MAX_DIMS] = ys[i];
                i += 1;
            }
            let x = adaptor.bottom_index_unchecked(ps_ys.split_at(ndim_p + ndim_y).0);
            // The vector's last element: its Y further along the vector's dimension.
            if let Some(v) = vector_dim_y {
                ps_ys[(ndim_p + v) % MAX_DIMS] += vector - 1;
            }
            let last = adaptor.bottom_index_unchecked(ps_ys.split_at(ndim_p + ndim_y).0);
            let (mut dx, mut dl) = ([0; MAX_DIMS], [0; MAX_DIMS]);
            i = 0;
            while i < ndim_x {
                dx[i] = x.get(i);
                dl[i] = last.get(i);
                i += 1;
            }
            let mut d_start = 0;
            i = 0;
            while i < ndim_y {
                d_start += ys[i] as usize * d_strides[i];
                i += 1;
            }
            plan.ys_start[a] = ys;
            plan.x_delta[a] = dx;
            plan.x_last[a] = dl;
            plan.d_start[a] = d_start;
            a += 1;
        }
        Ok(plan)
    }

    /// How many accesses a load or store makes (CK's `NumAccess`).
    ///
    /// ```
    /// use cktile_core::distribution::catalogue;
    /// use cktile_core::tile::plan::AccessPlan;
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// // Nothing known of the view: one element per access, 4 registers.
    /// let p = AccessPlan::new(&catalogue::mfma_a(32, 8)?, &[Vector::UNKNOWN; MAX_DIMS], 2)?;
    /// assert_eq!((p.accesses(), p.vector(), p.vector_dim_y()), (4, 1, None));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn accesses(&self) -> usize {
        self.accesses
    }

    /// The elements each access moves (CK's `ScalarPerVector`).
    ///
    /// ```
    /// use cktile_core::distribution::catalogue;
    /// use cktile_core::tile::plan::AccessPlan;
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// let mut top = [Vector::UNKNOWN; MAX_DIMS];
    /// top[1] = Vector::new(2, 1); // only pairs are contiguous
    /// assert_eq!(AccessPlan::new(&catalogue::mfma_a(32, 8)?, &top, 2)?.vector(), 2);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn vector(&self) -> usize {
        self.vector
    }

    /// The Y dimension the vector runs along (CK's `VectorDimY`); `None`
    /// when no Y has a safe vector longer than one element (CK then reads
    /// Y0 one element at a time).
    ///
    /// ```
    /// use cktile_core::distribution::catalogue;
    /// use cktile_core::tile::plan::AccessPlan;
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// assert_eq!(AccessPlan::new(&catalogue::mfma_a(32, 8)?, &[Vector::UNKNOWN; MAX_DIMS], 2)?.vector_dim_y(), None);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn vector_dim_y(&self) -> Option<usize> {
        self.vector_dim_y
    }

    /// The number of elements a thread holds (the Y lengths' product, the
    /// thread buffer's size).
    ///
    /// ```
    /// use cktile_core::distribution::catalogue;
    /// use cktile_core::tile::plan::AccessPlan;
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// assert_eq!(AccessPlan::new(&catalogue::mfma_a(32, 8)?, &[Vector::UNKNOWN; MAX_DIMS], 2)?.thread_buffer_size(), 4);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn thread_buffer_size(&self) -> usize {
        self.thread_buffer
    }

    /// The number of X dimensions (the view's top dimensions).
    ///
    /// ```
    /// use cktile_core::distribution::catalogue;
    /// use cktile_core::tile::plan::AccessPlan;
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// assert_eq!(AccessPlan::new(&catalogue::mfma_a(32, 8)?, &[Vector::UNKNOWN; MAX_DIMS], 2)?.ndim_x(), 2);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn ndim_x(&self) -> usize {
        self.ndim_x
    }

    /// The Y index of access `a`'s first element (CK's `SFC_Ys::get_index`);
    /// entries past the number of Ys are 0.
    ///
    /// ```
    /// use cktile_core::distribution::Encoding;
    /// use cktile_core::tile::plan::AccessPlan;
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// // Two Ys of 2 and 3, nothing vectorised: the snake runs (0,0) (0,1) (0,2) (1,2) (1,1) (1,0).
    /// let e = Encoding::new(&[], &[&[2, 64], &[3]], &[&[1]], &[&[1]], &[1, 2], &[0, 0])?;
    /// let p = AccessPlan::new(&e, &[Vector::UNKNOWN; MAX_DIMS], 2)?;
    /// let order: Vec<_> = (0..p.accesses()).map(|a| (p.ys_start(a)[0], p.ys_start(a)[1])).collect();
    /// assert_eq!(order, [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0)]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn ys_start(&self, a: usize) -> [Index; MAX_DIMS] {
        self.ys_start[a % MAX_ACCESSES]
    }

    /// The X offset of access `a`'s first element from the thread's origin
    /// (the X of the thread at Y = 0); entries past [`ndim_x`](Self::ndim_x) are 0.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue;
    /// use cktile_core::tile::plan::AccessPlan;
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// let p = AccessPlan::new(&catalogue::mfma_a(32, 8)?, &[Vector::UNKNOWN; MAX_DIMS], 2)?;
    /// assert_eq!(p.x_delta(3)[..2], [0, 3]); // register 3: three K further
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn x_delta(&self, a: usize) -> [Index; MAX_DIMS] {
        self.x_delta[a % MAX_ACCESSES]
    }

    /// The X offset of access `a`'s last element from the thread's origin
    /// (its first element's, [`x_delta`](Self::x_delta), moved
    /// `vector - 1` along the vector's Y).
    ///
    /// ```
    /// use cktile_core::tile::plan::AccessPlan;
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// let mut top = [Vector::UNKNOWN; MAX_DIMS];
    /// top[1] = Vector::new(8, 1);
    /// let e = cktile_core::distribution::Encoding::new(&[1], &[&[2, 4, 16], &[4, 8]], &[&[1], &[1, 2]], &[&[1], &[2, 0]], &[1, 2], &[0, 1])?;
    /// let p = AccessPlan::new(&e, &top, 2)?;
    /// // The second access reads 8 elements of row 64 from column 0: its last is column 7.
    /// assert_eq!(p.x_last(1)[..2], [64, 7]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn x_last(&self, a: usize) -> [Index; MAX_DIMS] {
        self.x_last[a % MAX_ACCESSES]
    }

    /// The thread buffer index of access `a`'s first element.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue;
    /// use cktile_core::tile::plan::AccessPlan;
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// let p = AccessPlan::new(&catalogue::mfma_a(32, 8)?, &[Vector::UNKNOWN; MAX_DIMS], 2)?;
    /// assert_eq!(p.d_start(2), 2);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn d_start(&self, a: usize) -> usize {
        self.d_start[a % MAX_ACCESSES]
    }

    /// The distance in the thread buffer between two elements of one
    /// vector (the vector Y's stride in `ys_to_d`).
    ///
    /// ```
    /// use cktile_core::distribution::catalogue;
    /// use cktile_core::tile::plan::AccessPlan;
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// let mut top = [Vector::UNKNOWN; MAX_DIMS];
    /// top[1] = Vector::new(4, 1);
    /// assert_eq!(AccessPlan::new(&catalogue::mfma_a(32, 8)?, &top, 2)?.d_stride(), 1);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn d_stride(&self) -> usize {
        self.d_stride
    }

    /// The Y lengths (entries past the number of Ys are 1).
    ///
    /// ```
    /// use cktile_core::distribution::catalogue;
    /// use cktile_core::tile::plan::AccessPlan;
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// let p = AccessPlan::new(&catalogue::mfma_a(32, 8)?, &[Vector::UNKNOWN; MAX_DIMS], 2)?;
    /// assert_eq!((p.ndim_y(), p.y_lengths()[0]), (1, 4));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn y_lengths(&self) -> [Index; MAX_DIMS] {
        self.y_lengths
    }

    /// The number of Y dimensions.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue;
    /// use cktile_core::tile::plan::AccessPlan;
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// assert_eq!(AccessPlan::new(&catalogue::mfma_a(32, 8)?, &[Vector::UNKNOWN; MAX_DIMS], 2)?.ndim_y(), 1);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn ndim_y(&self) -> usize {
        self.ndim_y
    }
}

/// CK's snake-curved space-filling curve: the Y index of access `a` over
/// `per` accesses per Y dimension (dimension order 0..n), scaled by the
/// vector width along the vector dimension.
const fn snake_index(
    a: usize,
    per: &[Index; MAX_DIMS],
    n: usize,
    vector_dim: Option<usize>,
    vector: Index,
) -> [Index; MAX_DIMS] {
    // The row-major digits of `a`.
    let mut digits = [0; MAX_DIMS];
    let mut rest = a as Index;
    let mut i = n;
    while i > 0 {
        i -= 1;
        digits[i] = rest % per[i];
        rest /= per[i];
    }
    let mut out = [0; MAX_DIMS];
    // Dimension i runs forwards when the index of dimensions 0..i is even.
    let mut prefix: Index = 0;
    i = 0;
    while i < n {
        let forward = prefix % 2 == 0;
        let v = if forward { digits[i] } else { per[i] - 1 - digits[i] };
        out[i] = match vector_dim {
            Some(d) if d == i => v * vector,
            _ => v,
        };
        prefix = prefix * per[i] + digits[i];
        i += 1;
    }
    out
}
