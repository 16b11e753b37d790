//! Whether two tile distributions are the same map (`cktile equiv`): the
//! same X, P and Y lengths, and every (P..., Y...) index owning the same X
//! coordinate. CK's sources check such claims by tracing by hand; this
//! compares every index (at most [`MAX_ENUMERATED`]),
//! across either spelling (CK's C++ `tile_distribution_encoding<...>`,
//! cktile's, or a catalogue name), and names the first index that differs.
//!
//! The R structure is not compared: two encodings that replicate
//! differently but give every lane and register the same element are the
//! same map. Nor is the Y structure, when the thread buffers are the same
//! size: two encodings whose Y lengths differ (a length-1 Y dropped, one Y
//! split in two) are compared lane by lane and register by register, over
//! (P..., D) with D the thread-buffer index. That is the "lane/vector
//! register map" CK's comments mean when they call two encodings the same.

use crate::Error;
use crate::ErrorKind;
use crate::Index;
use crate::distribution::{Distribution, EncodingProblem, MAX_ENUMERATED};
use alloc::vec::Vec;

/// The verdict of [`equivalent`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DistributionEquivalence {
    /// The same map: every one of `indices` (P..., Y...) indices compared.
    Same {
        /// How many.
        indices: u64,
    },
    /// The same map of (P..., D): the Y lengths differ, the thread buffers
    /// are the same size, and every thread's register D holds the same X.
    SameRegisters {
        /// How many (P..., D) indices were compared.
        indices: u64,
        /// The first distribution's Y lengths.
        y_a: Vec<Index>,
        /// The second's.
        y_b: Vec<Index>,
    },
    /// The first (P..., D) index (row-major) whose X coordinates differ,
    /// when the Y lengths differ but the thread buffers do not.
    DifferRegister {
        /// Its P part (the thread).
        p: Vec<Index>,
        /// The thread-buffer index.
        d: Index,
        /// The first distribution's X coordinate there.
        a: Vec<Index>,
        /// The second's.
        b: Vec<Index>,
        /// How many indices were compared to find it.
        compared: u64,
    },
    /// Different X, P or thread-buffer lengths: the maps cannot be the same.
    Lengths {
        /// Which lengths: `X`, `P` or `Y`.
        what: &'static str,
        /// The first distribution's.
        a: Vec<Index>,
        /// The second's.
        b: Vec<Index>,
    },
    /// The first index (row-major, the last Y fastest) whose X coordinates differ.
    Differ {
        /// Its P part (the thread).
        p: Vec<Index>,
        /// Its Y part (the register).
        y: Vec<Index>,
        /// The first distribution's X coordinate there.
        a: Vec<Index>,
        /// The second's.
        b: Vec<Index>,
        /// How many indices were compared to find it.
        compared: u64,
    },
}

impl DistributionEquivalence {
    /// Whether the verdict is the same map, index by index or register by register.
    ///
    /// ```
    /// use cktile::lanes::equiv::equivalent;
    /// use cktile::spelling::resolve;
    /// use cktile::distribution::Distribution;
    /// let d = |t: &str| resolve(t).and_then(|e| Ok(Distribution::new(e)?));
    /// assert!(equivalent(&d("mfma16x16x16_a")?, &d("mfma16x16x16_b")?)?.is_same());
    /// assert!(!equivalent(&d("mfma16x16x16_c")?, &d("mfma16x16x16_c_transposed")?)?.is_same());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn is_same(&self) -> bool {
        matches!(self, DistributionEquivalence::Same { .. } | DistributionEquivalence::SameRegisters { .. })
    }
}

/// Whether `a` and `b` are the same map (see the [module](self)); an
/// error when they have more than [`MAX_ENUMERATED`] indices.
///
/// ```
/// use cktile::lanes::{equiv::{equivalent, DistributionEquivalence}};
/// use cktile::spelling::resolve;
/// use cktile::distribution::Distribution;
/// let d = |text: &str| resolve(text).and_then(|e| Ok(Distribution::new(e)?));
/// // A catalogue name and its C++ spelling.
/// let ck = "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>, \
///           tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<2>, sequence<1>>";
/// assert_eq!(equivalent(&d("mfma16x16x16_a")?, &d(ck)?)?, DistributionEquivalence::Same { indices: 256 });
/// // The B operand's distribution is the A operand's map, K contiguous in each lane.
/// assert!(matches!(equivalent(&d("mfma16x16x16_a")?, &d("mfma16x16x16_b")?)?, DistributionEquivalence::Same { .. }));
/// // The transposed accumulator is not the accumulator.
/// let v = equivalent(&d("mfma16x16x16_c")?, &d("mfma16x16x16_c_transposed")?)?;
/// assert!(matches!(v, DistributionEquivalence::Differ { ref p, ref y, .. } if p == &[0] && y == &[0, 1]));
/// // A length-1 Y dropped: the same registers, different Y lengths.
/// let one_y = "distribution(r(), h((16), (4, 4)), p((h1[0], h0[0])), y(h1[1]))";
/// let two_ys = "distribution(r(), h((16), (1, 4, 4)), p((h1[1], h0[0])), y(h1[0], h1[2]))";
/// assert!(matches!(equivalent(&d(one_y)?, &d(two_ys)?)?, DistributionEquivalence::SameRegisters { indices: 256, .. }));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn equivalent(a: &Distribution, b: &Distribution) -> Result<DistributionEquivalence, Error> {
    for (what, la, lb) in [("X", a.x_lengths(), b.x_lengths()), ("P", a.p_lengths(), b.p_lengths())] {
        if la != lb {
            return Ok(DistributionEquivalence::Lengths { what, a: la.as_slice().to_vec(), b: lb.as_slice().to_vec() });
        }
    }
    if a.y_lengths() != b.y_lengths() {
        if a.d_length() == b.d_length() {
            return by_register(a, b);
        }
        let (ya, yb) = (a.y_lengths().as_slice().to_vec(), b.y_lengths().as_slice().to_vec());
        return Ok(DistributionEquivalence::Lengths { what: "Y", a: ya, b: yb });
    }
    let ndim_p = a.p_lengths().len();
    let mut compared = 0u64;
    let mut first = None;
    a.for_each(MAX_ENUMERATED, |ps_ys, xa, _| {
        if first.is_some() {
            return;
        }
        compared += 1;
        // Same top lengths: the index is in range for both.
        let xb = b.calculate_index(ps_ys).map(|x| x.as_slice().to_vec()).unwrap_or_default();
        if xa != xb.as_slice() {
            first = Some(DistributionEquivalence::Differ {
                p: ps_ys[..ndim_p].to_vec(),
                y: ps_ys[ndim_p..].to_vec(),
                a: xa.to_vec(),
                b: xb,
                compared,
            });
        }
    })?;
    Ok(first.unwrap_or(DistributionEquivalence::Same { indices: compared }))
}

/// `index` unravelled row-major over `lengths` into `out`.
fn unravel(mut index: Index, lengths: &[Index], out: &mut [Index]) {
    for (o, &l) in out.iter_mut().zip(lengths).rev() {
        *o = index % l;
        index /= l;
    }
}

/// [`equivalent`] over (P..., D) for distributions with the same P lengths
/// and thread-buffer size but different Y lengths: each D is unravelled into
/// each distribution's Y (CK's `ys_to_d` packs the Ys row-major).
fn by_register(a: &Distribution, b: &Distribution) -> Result<DistributionEquivalence, Error> {
    let p = a.p_lengths();
    let d_len = a.d_length();
    let count = p.product().and_then(|n| n.checked_mul(d_len)).map(|n| n as u64);
    let count = match count {
        Some(n) if n <= MAX_ENUMERATED => n,
        _ => {
            let problem = EncodingProblem::TooManyIndices { count: count.unwrap_or(u64::MAX), limit: MAX_ENUMERATED };
            return Err(Error::new(ErrorKind::Port(cktile_core::ErrorKind::Encoding(problem))));
        }
    };
    let (ya, yb) = (a.y_lengths(), b.y_lengths());
    let (np, na, nb) = (p.len(), ya.len(), yb.len());
    let mut index_a = [0 as Index; cktile_transforms::MAX_DIMS];
    let mut index_b = [0 as Index; cktile_transforms::MAX_DIMS];
    let per_p = d_len.max(1);
    for i in 0..count as Index {
        let (p_flat, d) = (i / per_p, i % per_p);
        unravel(p_flat, p.as_slice(), &mut index_a[..np]);
        index_b[..np].copy_from_slice(&index_a[..np]);
        unravel(d, ya.as_slice(), &mut index_a[np..np + na]);
        unravel(d, yb.as_slice(), &mut index_b[np..np + nb]);
        let xa = a.calculate_index(&index_a[..np + na])?;
        let xb = b.calculate_index(&index_b[..np + nb])?;
        if xa != xb {
            return Ok(DistributionEquivalence::DifferRegister {
                p: index_a[..np].to_vec(),
                d,
                a: xa.as_slice().to_vec(),
                b: xb.as_slice().to_vec(),
                compared: i as u64 + 1,
            });
        }
    }
    Ok(DistributionEquivalence::SameRegisters {
        indices: count,
        y_a: ya.as_slice().to_vec(),
        y_b: yb.as_slice().to_vec(),
    })
}
