//! Whether two tile distributions are the same map (`cktile equiv`): the
//! same X, P and Y lengths, and every (P..., Y...) index owning the same X
//! coordinate. CK's sources check such claims by tracing by hand; this
//! compares every index (at most [`MAX_ENUMERATED`]),
//! across either spelling (CK's C++ `tile_distribution_encoding<...>`,
//! cktile's, or a catalogue name), and names the first index that differs.
//!
//! The R structure is not compared: two encodings that replicate
//! differently but give every lane and register the same element are the
//! same map.

use super::{Distribution, MAX_ENUMERATED};
use crate::Index;
use crate::error::Error;
use alloc::vec::Vec;

/// The verdict of [`equivalent`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DistributionEquivalence {
    /// The same map: every one of `indices` (P..., Y...) indices compared.
    Same {
        /// How many.
        indices: u64,
    },
    /// Different X, P or Y lengths: the maps cannot be the same.
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

/// Whether `a` and `b` are the same map (see the [module](self)); an
/// error when they have more than [`MAX_ENUMERATED`] indices.
///
/// ```
/// use cktile::distribution::{equiv::{equivalent, DistributionEquivalence}, resolve, Distribution};
/// let d = |text: &str| resolve(text).and_then(Distribution::new);
/// // A catalogue name and its C++ spelling.
/// let ck = "tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>, \
///           tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<2>, sequence<1>>";
/// assert_eq!(equivalent(&d("mfma16x16x16_a")?, &d(ck)?)?, DistributionEquivalence::Same { indices: 256 });
/// // The B operand's distribution is the A operand's map, K contiguous in each lane.
/// assert!(matches!(equivalent(&d("mfma16x16x16_a")?, &d("mfma16x16x16_b")?)?, DistributionEquivalence::Same { .. }));
/// // The transposed accumulator is not the accumulator.
/// let v = equivalent(&d("mfma16x16x16_c")?, &d("mfma16x16x16_c_transposed")?)?;
/// assert!(matches!(v, DistributionEquivalence::Differ { ref p, ref y, .. } if p == &[0] && y == &[0, 1]));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn equivalent(a: &Distribution, b: &Distribution) -> Result<DistributionEquivalence, Error> {
    for (what, la, lb) in
        [("X", a.x_lengths(), b.x_lengths()), ("P", a.p_lengths(), b.p_lengths()), ("Y", a.y_lengths(), b.y_lengths())]
    {
        if la != lb {
            return Ok(DistributionEquivalence::Lengths { what, a: la.as_slice().to_vec(), b: lb.as_slice().to_vec() });
        }
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
