//! Tile distributions: CK Tile's `tile_distribution_encoding` and
//! `make_static_tile_distribution` at run time, saying which thread and
//! which register own each element of a tile.
//!
//! A distribution maps a partition index P (the lane; or the warp, then the
//! lane) and a per-thread index Y to a tensor coordinate X. It is built from
//! an [`Encoding`] exactly as CK builds it:
//!
//! - the **ps_ys_to_xs adaptor** ([`Distribution::ps_ys_to_xs`]): bottom
//!   dimensions X; a `replicate` producing the R components (left out when
//!   there are none, where CK's has no dimensions); one `unmerge` per X into
//!   its H components; one `merge` per P over the R/H components it names;
//!   the top dimensions are the P merges' outputs followed by the H
//!   components the Ys name;
//! - the **ys_to_d descriptor** ([`Distribution::ys_to_d`]): the Y lengths
//!   packed row-major into the thread buffer index D.
//!
//! [`Distribution::calculate_index`] maps (P..., Y...) to X.
//!
//! The module has three rooms beside the encoding ([`encoding`]: the
//! validated encoding and what a malformed one gets wrong) and CK's
//! `make_embed_tile_distribution_encoding` ([`embed`](mod@embed)):
//!
//! - [`spelling`] (with the `alloc` feature): the encoding's texts as
//!   they print, CK's C++ spelling ([`spelling::text`]: `Display`) and
//!   cktile's compact one naming the component each P and Y takes
//!   ([`spelling::compact`]: [`Encoding::compact`]); their parsers are the
//!   analysis crate's;
//! - [`catalogue`]: CK's own encodings, one file per family
//!   ([`catalogue::mfma`], [`catalogue::wmma`], [`catalogue::mma`],
//!   [`catalogue::pattern`], `catalogue::transpose`), each family one row
//!   of [`catalogue::FAMILIES`], which reads their names;
//! - [`typed`]: the typed distributions for kernel code
//!   ([`tile_distribution_encoding!`](crate::tile_distribution_encoding),
//!   [`make_static_tile_distribution`](typed::make_static_tile_distribution)),
//!   checked by [`Encoding::new`] at compile time, with [`typed::values`]
//!   (their numbers as compile-time values), [`typed::registers`] (their
//!   thread buffers' sizes as types) and [`typed::shape`] (their adaptors'
//!   types).
//!
//! The encoding, the distribution, the catalogue and the typed forms need
//! no allocator. No two files or rooms import each other
//! (`tests/layering.rs`). The analyses of a distribution (what it covers
//! of a tile, whether two are the same map, every index enumerated) are
//! tools, in the `cktile` crate's module of the same name.
//!
//! ```
//! use cktile_core::distribution::{Distribution, catalogue};
//! // CK's warp-GEMM A operand of the 32x32x8 fp16 MFMA:
//! // lane l, register v hold A(m = l % 32, k = 4 * (l / 32) + v).
//! let d = Distribution::new(catalogue::mfma_a(32, 8)?)?;
//! assert_eq!(d.x_lengths().as_slice(), &[32, 8]);
//! assert_eq!((d.p_lengths().as_slice(), d.y_lengths().as_slice()), (&[64][..], &[4][..]));
//! assert_eq!(d.calculate_index(&[37, 2])?.as_slice(), &[5, 6]);
//! # Ok::<(), cktile_core::Error>(())
//! ```

pub mod catalogue;
pub mod compose;
pub mod embed;
pub mod encoding;
#[cfg(feature = "alloc")]
pub mod spelling;
pub mod typed;

pub use embed::{EmbedEncoding, embed_encoding};
pub use encoding::{Encoding, EncodingEntry, EncodingProblem, List};
#[cfg(feature = "alloc")]
pub use spelling::compact::Compact;

use crate::Descriptor;
use crate::adaptor::{Adaptor, MAX_HIDDEN, MAX_TRANSFORMS};
use crate::descriptor::tri;
use crate::error::{DescriptorProblem, Error, ErrorKind};
use crate::stage::in_item;
use crate::{Ids, Item};
use cktile_transforms::{Dims, Index, MAX_DIMS, Transform, Vector};

/// The most (P..., Y...) indices [`Distribution::for_each`] enumerates: 2^24.
///
/// ```
/// assert_eq!(cktile_core::distribution::MAX_ENUMERATED, 1 << 24);
/// ```
pub const MAX_ENUMERATED: u64 = 1 << 24;

/// A tile distribution: CK Tile's `tile_distribution` made by
/// `make_static_tile_distribution(encoding)`. See the
/// [module documentation](self).
///
/// ```
/// use cktile_core::distribution::{Distribution, Encoding};
/// // tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>,
/// //     tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<2>, sequence<1>>
/// let d = Distribution::new(Encoding::new(&[], &[&[16], &[4, 4]], &[&[2, 1]], &[&[0, 0]], &[2], &[1])?)?;
/// // 16x16x16 MFMA A: lane 21 holds row 21 % 16 = 5, k = 4 * (21 / 16) + v.
/// assert_eq!(d.calculate_index(&[21, 3])?.as_slice(), &[5, 7]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Distribution {
    encoding: Encoding,
    ps_ys_to_xs: Adaptor,
    ys_to_d: Descriptor,
}

/// The hidden ids of the first `count` R/H components of group `major`
/// (0 for R, `x + 1` for X's H).
const fn components(encoding: &Encoding, major: usize, count: usize) -> Result<Ids, Error> {
    let mut ids = [0usize; MAX_DIMS];
    let mut minor = 0;
    while minor < count && minor < MAX_DIMS {
        ids[minor] = encoding.rh_hidden(major, minor);
        minor += 1;
    }
    Ids::from_slice(ids.split_at(if count < MAX_DIMS { count } else { MAX_DIMS }).0)
}

impl Distribution {
    /// CK Tile's `make_static_tile_distribution(encoding)`: builds the
    /// ps_ys_to_xs adaptor and the ys_to_d descriptor.
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue};
    /// let d = Distribution::new(catalogue::mfma_c(16, 16)?)?;
    /// assert_eq!(d.ps_ys_to_xs().items().len(), 3); // unmerge M, unmerge N, merge the lane
    /// assert_eq!(d.ys_to_d().lengths().as_slice(), &[1, 4]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    // On amdgcn, `inline` leaves it uncompiled in this crate: a kernel
    // builds its distributions at compile time, and compiled, its 44 KB
    // frame can stop LLVM's AMDGPU backend ("Cannot scavenge register in
    // FI elimination", LLVM 21, gfx942) wherever the crate's partition into
    // codegen units leaves one of its helpers out of line (16 units after
    // issue 65's split, 32 and 64 before it).
    #[cfg_attr(target_arch = "amdgpu", inline)]
    pub const fn new(encoding: Encoding) -> Result<Distribution, Error> {
        let ndim_x = encoding.ndim_x();
        let mut items = [crate::stage::FILLER; 2 * MAX_DIMS + 1];
        let mut n_items = 0;
        // replicate () -> R components
        let rs = encoding.rs_lengths();
        if !rs.is_empty() {
            let t = tri!(in_item(n_items, Transform::replicate_dims(rs)));
            items[n_items] = Item::from_ids(t, Ids::EMPTY, tri!(components(&encoding, 0, rs.len())));
            n_items += 1;
        }
        // unmerge X_x -> its H components
        let mut x_lengths = Dims::EMPTY;
        let mut x = 0;
        while x < ndim_x {
            let hs = encoding.hs_lengths(x);
            let t = tri!(in_item(n_items, Transform::unmerge_dims(hs)));
            let Some(length) = hs.product() else {
                return Err(Error::descriptor(DescriptorProblem::Overflow {
                    quantity: "length of an X dimension",
                    value: hs.wide_product(),
                }));
            };
            x_lengths = tri!(in_item(n_items, x_lengths.push(length)));
            let lower = tri!(Ids::from_slice(&[x]));
            items[n_items] = Item::from_ids(t, lower, tri!(components(&encoding, x + 1, hs.len())));
            n_items += 1;
            x += 1;
        }
        // merge (R/H components) -> P
        let mut top = [0usize; MAX_DIMS];
        let mut p = 0;
        while p < encoding.ndim_p() {
            let (major, minor) = encoding.p_to_rh(p);
            let mut lower = [0usize; MAX_DIMS];
            let mut lengths = Dims::EMPTY;
            let mut i = 0;
            while i < major.len() {
                let (ma, mi) = (major.get(i) as usize, minor.get(i) as usize);
                lower[i] = encoding.rh_hidden(ma, mi);
                lengths = tri!(in_item(n_items, lengths.push(encoding.rh_lengths(ma).get(mi))));
                i += 1;
            }
            let t = tri!(in_item(n_items, Transform::merge_dims(lengths)));
            top[p] = encoding.p_hidden(p);
            let (lower, upper) =
                (tri!(Ids::from_slice(lower.split_at(major.len()).0)), tri!(Ids::from_slice(&[top[p]])));
            items[n_items] = Item::from_ids(t, lower, upper);
            n_items += 1;
            p += 1;
        }
        // Y -> the H components they name, directly
        let (ys_major, ys_minor) = encoding.y_to_rh();
        let mut y_lengths = [0usize; MAX_DIMS];
        let mut i = 0;
        while i < encoding.ndim_y() {
            let (ma, mi) = (ys_major.get(i) as usize, ys_minor.get(i) as usize);
            top[encoding.ndim_p() + i] = encoding.rh_hidden(ma, mi);
            y_lengths[i] = encoding.rh_length(ma, mi);
            i += 1;
        }
        let bottom = [0, 1, 2, 3, 4, 5, 6, 7];
        let ndim_top = encoding.ndim_p() + encoding.ndim_y();
        let ps_ys_to_xs = tri!(Adaptor::new(
            x_lengths,
            items.split_at(n_items).0,
            bottom.split_at(ndim_x).0,
            top.split_at(ndim_top).0
        ));
        let ys_to_d = tri!(Descriptor::packed(y_lengths.split_at(encoding.ndim_y()).0));
        Ok(Distribution { encoding, ps_ys_to_xs, ys_to_d })
    }

    /// The encoding.
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue};
    /// let e = catalogue::mfma_b(16, 16)?;
    /// assert_eq!(Distribution::new(e)?.encoding(), &e);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn encoding(&self) -> &Encoding {
        &self.encoding
    }

    /// The ps_ys_to_xs adaptor: top (P..., Y...), bottom X.
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue};
    /// let d = Distribution::new(catalogue::mfma_a(32, 8)?)?;
    /// assert_eq!(
    ///     d.ps_ys_to_xs().to_string(),
    ///     "bottom [0,1] (32,8) | unmerge((32)) on [0] -> [2] | unmerge((2,4)) on [1] -> [3,4] | merge((2,32)) on [3,2] -> [5] | top [5,4]"
    /// );
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn ps_ys_to_xs(&self) -> &Adaptor {
        &self.ps_ys_to_xs
    }

    /// The distribution composed with a layout of its X, typically an LDS
    /// layout: one adaptor from (P..., Y...) to the element offset, so
    /// `calculate_bottom_index(&[p..., y...])` is the offset of the element
    /// that lane (P) holds at Y. It is CK Tile's
    /// `chain_tensor_adaptors(layout, ps_ys_to_xs)`, the layout's own
    /// adaptor ([`Descriptor::adaptor`]); CuTe and Triton call it
    /// composition. `layout`'s top lengths must be the distribution's X
    /// lengths, and a padded layout's padding stays invalid through it.
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue};
    /// let a = Distribution::new(catalogue::mfma_a(16, 16)?)?;
    /// // An LDS tile of 16 x 16 whose rows are padded to 24 elements.
    /// let lds = cktile_core::Descriptor::naive(&[16, 16], &[24, 1])?;
    /// let lanes_to_lds = a.compose(&lds)?;
    /// // Lane 17 (P), element Y = 3: its X, then that element's offset.
    /// let x = a.ps_ys_to_xs().calculate_bottom_index(&[17, 3])?;
    /// let offset = lds.calculate_offset(x.as_slice());
    /// assert_eq!(lanes_to_lds.calculate_bottom_index(&[17, 3])?.as_slice(), [offset]);
    /// // An LDS layout of another shape does not compose.
    /// assert!(a.compose(&cktile_core::Descriptor::packed(&[16, 32])?).is_err());
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn compose(&self, layout: &Descriptor) -> Result<Adaptor, Error> {
        layout.adaptor().chain(&self.ps_ys_to_xs)
    }

    /// [`compose`](Self::compose) as a descriptor over (P..., Y...) (CK's
    /// `make_tensor_descriptor_from_adaptor` of it, with the layout's
    /// element space): the offset each lane's element has in `layout`, as
    /// one object that prints as a spec and that every descriptor tool
    /// takes (offsets, checks, the code generator: a lane's address
    /// function). Padding stays invalid.
    ///
    /// It is `layout` with two more stages, the distribution's two levels
    /// ([`compose`](mod@compose)): X split into the R and H components,
    /// then the P merges with each Y passed through.
    ///
    /// # Errors
    ///
    /// [`compose`](Self::compose)'s, and a descriptor's limits where the
    /// composed transforms exceed them ([`MAX_STAGES`](crate::MAX_STAGES),
    /// [`MAX_TRANSFORMS`]).
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue};
    /// let a = Distribution::new(catalogue::mfma_a(16, 16)?)?;
    /// // An LDS tile of 16 x 16 whose rows are padded to 24 elements.
    /// let lds = cktile_core::Descriptor::naive(&[16, 16], &[24, 1])?;
    /// let lanes = a.compose_descriptor(&lds)?;
    /// assert_eq!(lanes.lengths().as_slice(), &[64, 4]); // (lane, Y)
    /// let x = a.ps_ys_to_xs().calculate_bottom_index(&[17, 3])?;
    /// assert_eq!(lanes.calculate_offset(&[17, 3]), lds.calculate_offset(x.as_slice()));
    /// // It prints as a spec (which the analysis crate's parser reads back):
    /// // the layout, X split into CK's H components, the lane merged from them.
    /// assert_eq!(
    ///     lanes.to_string(),
    ///     "naive((16,16),(24,1))\n| transform(unmerge((16)) on [0] -> [0], unmerge((4,4)) on [1] -> [1,2])\n\
    ///      | transform(merge((4,16)) on [1,0] -> [0], pass_through(4) on [2] -> [1])"
    /// );
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn compose_descriptor(&self, layout: &Descriptor) -> Result<Descriptor, Error> {
        compose::stage_wise(&self.ps_ys_to_xs, layout)
    }

    /// The inverse of [`ps_ys_to_xs`](Self::ps_ys_to_xs): an adaptor from X
    /// to the (P..., Y...) that holds each element, with every R
    /// (replication) component 0, so `calculate_index` of its answer is the
    /// X it was given. Each X splits into its H components (a `merge`), each
    /// P is put together from its R and H components (an `unmerge`), an R
    /// component is frozen at 0 (`freeze(0)`), and each Y is its
    /// component. Where the distribution replicates, the copy at R = 0
    /// answers.
    ///
    /// ```
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::mfma_a(32, 8)?)?;
    /// let owner = a.inverse()?;
    /// // A(m = 5, k = 6) is held by lane 37 at Y = 2.
    /// assert_eq!(owner.calculate_bottom_index(&[5, 6])?.as_slice(), &[37, 2]);
    /// assert_eq!(a.calculate_index(&[37, 2])?.as_slice(), &[5, 6]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn inverse(&self) -> Result<Adaptor, Error> {
        let e = &self.encoding;
        let mut items = [crate::stage::FILLER; MAX_TRANSFORMS];
        let mut n = 0;
        // Which R/H components a P or a Y names (by hidden id).
        let mut named = [false; MAX_HIDDEN];
        let (ys_major, ys_minor) = e.y_to_rh();
        let mut i = 0;
        while i < e.ndim_y() {
            named[e.rh_hidden(ys_major.get(i) as usize, ys_minor.get(i) as usize) % MAX_HIDDEN] = true;
            i += 1;
        }
        // P -> its R/H components (an unmerge: the P merge read backwards).
        let mut p = 0;
        while p < e.ndim_p() {
            let (major, minor) = e.p_to_rh(p);
            let (mut upper, mut lengths) = ([0usize; MAX_DIMS], Dims::EMPTY);
            i = 0;
            while i < major.len() {
                let (ma, mi) = (major.get(i) as usize, minor.get(i) as usize);
                upper[i] = e.rh_hidden(ma, mi);
                named[upper[i] % MAX_HIDDEN] = true;
                lengths = tri!(in_item(n, lengths.push(e.rh_lengths(ma).get(mi))));
                i += 1;
            }
            let t = tri!(in_item(n, Transform::unmerge_dims(lengths)));
            let (lower, upper) =
                (tri!(Ids::from_slice(&[e.p_hidden(p)])), tri!(Ids::from_slice(upper.split_at(major.len()).0)));
            items[n % MAX_TRANSFORMS] = Item::from_ids(t, lower, upper);
            n += 1;
            p += 1;
        }
        // The R components a P names: replica 0.
        let mut r = 0;
        while r < e.ndim_r() {
            let id = e.rh_hidden(0, r);
            if named[id % MAX_HIDDEN] {
                let t = tri!(in_item(n, Transform::freeze(0)));
                items[n % MAX_TRANSFORMS] = Item::from_ids(t, tri!(Ids::from_slice(&[id])), Ids::EMPTY);
                n += 1;
            }
            r += 1;
        }
        // H components nobody names (of length 1) come from nothing; then
        // each X merges its H components.
        let mut x = 0;
        while x < e.ndim_x() {
            let hs = e.hs_lengths(x);
            let mut h = 0;
            while h < hs.len() {
                let id = e.rh_hidden(x + 1, h);
                if !named[id % MAX_HIDDEN] {
                    let t = tri!(in_item(n, Transform::replicate_dims(tri!(in_item(n, Dims::from_slice(&[1]))))));
                    items[n % MAX_TRANSFORMS] = Item::from_ids(t, Ids::EMPTY, tri!(Ids::from_slice(&[id])));
                    n += 1;
                }
                h += 1;
            }
            x += 1;
        }
        x = 0;
        while x < e.ndim_x() {
            let t = tri!(in_item(n, Transform::merge_dims(e.hs_lengths(x))));
            let hs = tri!(components(e, x + 1, e.hs_lengths(x).len()));
            items[n % MAX_TRANSFORMS] = Item::from_ids(t, hs, tri!(Ids::from_slice(&[x])));
            n += 1;
            x += 1;
        }
        // Bottom: the Ps, then the Ys' components.
        let (mut bottom, mut lengths) = ([0usize; MAX_DIMS], Dims::EMPTY);
        let top = self.ps_ys_to_xs.top_ids();
        let top_lengths = self.ps_ys_to_xs.top_lengths();
        i = 0;
        while i < top.len() && i < MAX_DIMS {
            bottom[i] = top.get(i);
            lengths = tri!(in_item(n, lengths.push(top_lengths.get(i))));
            i += 1;
        }
        let xs = [0, 1, 2, 3, 4, 5, 6, 7];
        Adaptor::new(lengths, items.split_at(n).0, bottom.split_at(top.len()).0, xs.split_at(e.ndim_x()).0)
    }

    /// Triton's `invertAndCompose`: `other`'s inverse after this
    /// distribution, one adaptor from this distribution's (P..., Y...) to
    /// the (P..., Y...) of `other` that holds the same element (R
    /// components 0, as [`inverse`](Self::inverse) picks). It answers a
    /// layout conversion: which lane and register of `other` must receive
    /// what each lane and register of this one holds. The two X lengths
    /// must be equal.
    ///
    /// ```
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// // The 16x16 MFMA accumulator and its transposed layout.
    /// let c = Distribution::new(catalogue::mfma_c(16, 16)?)?;
    /// let t = Distribution::new(catalogue::mfma_c_transposed(16, 16)?)?;
    /// let to_t = c.invert_and_compose(&t)?;
    /// let there = to_t.calculate_bottom_index(&[17, 0, 2])?;
    /// assert_eq!(t.calculate_index(there.as_slice())?, c.calculate_index(&[17, 0, 2])?);
    /// // Into itself: the identity.
    /// assert_eq!(c.invert_and_compose(&c)?.calculate_bottom_index(&[17, 0, 2])?.as_slice(), &[17, 0, 2]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn invert_and_compose(&self, other: &Distribution) -> Result<Adaptor, Error> {
        let inverse = tri!(other.inverse());
        inverse.chain(&self.ps_ys_to_xs)
    }

    /// The ys_to_d descriptor: Y index to thread-buffer index D.
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue};
    /// let d = Distribution::new(catalogue::mfma_c(32, 8)?)?;
    /// assert_eq!(d.ys_to_d().calculate_offset(&[2, 3]), 11);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn ys_to_d(&self) -> &Descriptor {
        &self.ys_to_d
    }

    /// Lengths of the X dimensions (products of the H lengths).
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue};
    /// assert_eq!(Distribution::new(catalogue::mfma_c(32, 8)?)?.x_lengths().as_slice(), &[32, 32]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn x_lengths(&self) -> Dims {
        self.ps_ys_to_xs.bottom_lengths()
    }

    /// Lengths of the P dimensions.
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue};
    /// assert_eq!(Distribution::new(catalogue::mfma_c(32, 8)?)?.p_lengths().as_slice(), &[64]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn p_lengths(&self) -> Dims {
        let top = self.ps_ys_to_xs.top_lengths();
        match Dims::from_slice(top.as_slice().split_at(self.encoding.ndim_p()).0) {
            Ok(d) => d,
            Err(_) => Dims::EMPTY,
        }
    }

    /// Lengths of the Y dimensions.
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue};
    /// assert_eq!(Distribution::new(catalogue::mfma_c(32, 8)?)?.y_lengths().as_slice(), &[4, 4]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn y_lengths(&self) -> Dims {
        self.ys_to_d.lengths()
    }

    /// CK Tile's `get_vector_dim_y_scalar_per_vector`: the Y dimension a
    /// tile window moves as vectors, and their length, when the X
    /// dimensions carry `x_vectors` (a view's top vectors, one per X): the
    /// vectors carried up through `ps_ys_to_xs`, then the first Y of stride
    /// 1 with the longest length above 1. `None` when no Y has one. The one
    /// rule of the tile windows' access plans and of the analyzer's
    /// windows.
    ///
    /// ```
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// let a = Distribution::new(catalogue::mfma_a(32, 8)?)?;
    /// let mut x = [Vector::UNKNOWN; MAX_DIMS];
    /// x[1] = Vector::new(8, 1); // K: 8 contiguous elements
    /// // Y0 walks K's 4 contiguous values of a lane.
    /// assert_eq!(a.vector_dim_y(&x), Some((0, 4)));
    /// assert_eq!(a.vector_dim_y(&[Vector::UNKNOWN; MAX_DIMS]), None);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn vector_dim_y(&self, x_vectors: &[Vector; MAX_DIMS]) -> Option<(usize, Index)> {
        let (ndim_x, ndim_p, ndim_y) = (self.encoding.ndim_x(), self.encoding.ndim_p(), self.encoding.ndim_y());
        // The X vectors are the adaptor's bottom vectors.
        let mut bottom = [Vector::UNKNOWN; MAX_DIMS];
        let mut i = 0;
        while i < ndim_x && i < MAX_DIMS {
            bottom[i] = x_vectors[i];
            i += 1;
        }
        let top = self.ps_ys_to_xs.top_vectors(&bottom);
        let mut found = None;
        let mut longest: Index = 1;
        i = 0;
        while i < ndim_y {
            let v = top[(ndim_p + i) % MAX_DIMS];
            if let (Some(1), Some(len)) = (v.stride, v.length)
                && len > longest
            {
                longest = len;
                found = Some((i, len));
            }
            i += 1;
        }
        found
    }

    /// The thread buffer's length: the product of the Y lengths.
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue};
    /// assert_eq!(Distribution::new(catalogue::mfma_c(32, 8)?)?.d_length(), 16);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn d_length(&self) -> Index {
        self.ys_to_d.element_space_size()
    }

    /// The X coordinate of (P..., Y...): the ps_ys_to_xs adaptor's
    /// `calculate_bottom_index`, checking the index's arity and ranges.
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue};
    /// let c = Distribution::new(catalogue::mfma_c(32, 8)?)?;
    /// // 32x32 C: lane 40, register block 1, register 2 -> row 8 * 1 + 4 * (40 / 32) + 2, col 40 % 32.
    /// assert_eq!(c.calculate_index(&[40, 1, 2])?.as_slice(), &[14, 8]);
    /// assert!(c.calculate_index(&[64, 0, 0]).is_err());
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn calculate_index(&self, ps_ys: &[Index]) -> Result<Dims, Error> {
        self.ps_ys_to_xs.calculate_bottom_index(ps_ys)
    }

    /// CK Tile's `tile_distribution::calculate_index(ps)`: the X coordinate
    /// of a thread's first element (all Y = 0).
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue};
    /// let a = Distribution::new(catalogue::mfma_a(16, 16)?)?;
    /// assert_eq!(a.thread_origin(&[37])?.as_slice(), &[5, 8]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn thread_origin(&self, ps: &[Index]) -> Result<Dims, Error> {
        let mut ps_ys = [0 as Index; MAX_DIMS];
        if ps.len() != self.encoding.ndim_p() {
            return Err(Error::descriptor(DescriptorProblem::CoordinateArity {
                expected: self.encoding.ndim_p(),
                found: ps.len(),
            }));
        }
        ps_ys[..ps.len()].copy_from_slice(ps);
        self.calculate_index(&ps_ys[..self.encoding.ndim_p() + self.encoding.ndim_y()])
    }

    /// CK Tile's `calculate_rs_index_from_ps_index`: the R (replication)
    /// index a partition index selects.
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, Encoding};
    /// // 2 warps holding the same 64-element row: R = warp.
    /// let e = Encoding::new(&[2], &[&[64]], &[&[0], &[1]], &[&[0], &[0]], &[], &[]);
    /// assert!(e.is_err()); // a Y is needed
    /// let e = Encoding::new(&[2], &[&[16, 4]], &[&[0], &[1]], &[&[0], &[0]], &[1], &[1])?;
    /// let d = Distribution::new(e)?;
    /// assert_eq!(d.rs_index(&[1, 7])?.as_slice(), &[1]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn rs_index(&self, ps: &[Index]) -> Result<Dims, Error> {
        // Checks the arity and ranges.
        self.thread_origin(ps)?;
        let mut top = [0 as Index; MAX_DIMS];
        top[..ps.len()].copy_from_slice(ps);
        let hidden = self.ps_ys_to_xs.hidden_index_unchecked(&top[..self.encoding.ndim_p() + self.encoding.ndim_y()]);
        let mut rs = Dims::EMPTY;
        for minor in 0..self.encoding.ndim_r() {
            rs = rs.push(hidden[self.encoding.rh_hidden(0, minor) % MAX_HIDDEN]).unwrap_or(rs);
        }
        Ok(rs)
    }

    /// The thread-buffer index D of a Y index (the ys_to_d descriptor's offset).
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue};
    /// let c = Distribution::new(catalogue::mfma_c(32, 8)?)?;
    /// assert_eq!(c.d_index(&[3, 1])?, 13);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn d_index(&self, ys: &[Index]) -> Result<Index, Error> {
        self.ys_to_d.try_calculate_offset(ys)
    }

    /// The number of (P..., Y...) indices, or `None` past 64 bits.
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue};
    /// assert_eq!(Distribution::new(catalogue::mfma_c(32, 8)?)?.index_count(), Some(64 * 16));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn index_count(&self) -> Option<u64> {
        self.ps_ys_to_xs.top_lengths().product().map(|n| n as u64)
    }

    /// Calls `f(ps_ys, xs, d)` for every (P..., Y...) index in row-major
    /// order (the last Y fastest), with its X coordinate and thread-buffer
    /// index; refuses, naming the limit, a distribution with more than
    /// `limit` indices (at most [`MAX_ENUMERATED`] is the usual bound).
    ///
    /// ```
    /// use cktile_core::distribution::{Distribution, catalogue, MAX_ENUMERATED};
    /// let a = Distribution::new(catalogue::mfma_a(32, 8)?)?;
    /// let mut seen = std::collections::HashSet::new();
    /// a.for_each(MAX_ENUMERATED, |_, xs, _| { seen.insert((xs[0], xs[1])); })?;
    /// assert_eq!(seen.len(), 32 * 8); // every element owned exactly once
    /// assert!(a.for_each(100, |_, _, _| {}).is_err());
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn for_each(&self, limit: u64, mut f: impl FnMut(&[Index], &[Index], Index)) -> Result<(), Error> {
        let lengths = self.ps_ys_to_xs.top_lengths();
        let count = self.index_count();
        match count {
            Some(n) if n <= limit => {}
            _ => {
                let problem = EncodingProblem::TooManyIndices { count: count.unwrap_or(u64::MAX), limit };
                return Err(Error::new(ErrorKind::Encoding(problem)));
            }
        }
        let n = lengths.len();
        let ndim_p = self.encoding.ndim_p();
        let mut index = [0 as Index; MAX_DIMS];
        loop {
            let xs = self.ps_ys_to_xs.bottom_index_unchecked(&index[..n]);
            let d = self.ys_to_d.calculate_offset(&index[ndim_p..n]);
            f(&index[..n], xs.as_slice(), d);
            let mut dim = n;
            loop {
                if dim == 0 {
                    return Ok(());
                }
                dim -= 1;
                index[dim] += 1;
                if index[dim] < lengths.get(dim) {
                    break;
                }
                index[dim] = 0;
            }
        }
    }
}
