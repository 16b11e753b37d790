//! Whether two descriptors are the same map (`cktile equiv`): the same top
//! lengths, and at every coordinate the same validity and, where valid, the
//! same offset.
//!
//! [`equivalent`] decides it three ways, and says which it used:
//!
//! - a **difference**, found at the first probed coordinate where the two
//!   disagree: the origin, every single-bit coordinate, every dimension's
//!   last index, then (when it enumerates) every coordinate in row-major
//!   order. A difference is a proof, at any size;
//! - **linearity over GF(2)**: when every transform of both chains is linear
//!   on its indices' bits ([`Transform::is_xor_linear`]) and every length
//!   on the way is a power of two, each offset is the XOR of the offsets of
//!   the coordinate's single bits, so equal offsets on those (probed first)
//!   prove the maps equal, however large the tiles;
//! - **exhaustion**: every coordinate compared, up to the enumeration limit
//!   ([`enumeration_limit`] of either chain).
//!
//! Otherwise the answer is "undecided", with the size, the limit and why
//! each chain is not linear.
//!
//! [`Transform::is_xor_linear`]: crate::Transform::is_xor_linear

use super::{coordinate, enumeration_limit};
use crate::{Descriptor, Index};
use alloc::string::String;
use alloc::vec::Vec;

/// How two maps were proved equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Every one of `coordinates` top coordinates compared.
    Exhaustion {
        /// How many.
        coordinates: u64,
    },
    /// Both chains are linear over GF(2), and their offsets agree on the
    /// origin and on each of the `bits` single-bit coordinates.
    Linear {
        /// How many coordinate bits (the sum of log2 of the lengths).
        bits: u32,
        /// How many coordinates the probes compared (the origin, the single
        /// bits and each dimension's last index).
        probes: u64,
    },
}

/// One side's answer at a coordinate: its offset, or `None` where the
/// coordinate is invalid (padding).
pub type Answer = Option<Index>;

/// The verdict of [`equivalent`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Equivalence {
    /// The same map, and how that was proved.
    Same(Proof),
    /// Different top lengths: no coordinate to compare.
    Lengths {
        /// The first descriptor's lengths.
        a: Vec<Index>,
        /// The second's.
        b: Vec<Index>,
    },
    /// The first coordinate found (in probe order) where they differ.
    Differ {
        /// The coordinate.
        coordinate: Vec<Index>,
        /// The first descriptor's answer there.
        a: Answer,
        /// The second's.
        b: Answer,
        /// How many coordinates were compared to find it.
        compared: u64,
    },
    /// Too large to enumerate and not both linear: the probes found no
    /// difference, which proves nothing.
    Undecided {
        /// The number of top coordinates.
        size: u64,
        /// The most enumerated for these chains.
        limit: u64,
        /// Why the first is not linear over GF(2) (`None`: it is).
        a_not_linear: Option<String>,
        /// Why the second is not.
        b_not_linear: Option<String>,
        /// How many coordinates the probes compared.
        compared: u64,
    },
}

impl Equivalence {
    /// `Some(true)` for the same map, `Some(false)` for different maps,
    /// `None` when undecided.
    ///
    /// ```
    /// use cktile::{check::equiv::equivalent, layouts::resolve};
    /// let v = equivalent(&resolve("packed((4,8))")?, &resolve("naive((4,8),(8,1))")?);
    /// assert_eq!(v.same(), Some(true));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn same(&self) -> Option<bool> {
        match self {
            Equivalence::Same(_) => Some(true),
            Equivalence::Lengths { .. } | Equivalence::Differ { .. } => Some(false),
            Equivalence::Undecided { .. } => None,
        }
    }
}

/// Why `desc` is not linear over GF(2) on its coordinate bits, or `None`
/// when it is: every length of every stage a power of two, and every
/// transform linear ([`Transform::is_xor_linear`](crate::Transform::is_xor_linear)).
///
/// ```
/// use cktile::{check::equiv::not_xor_linear, layouts::resolve};
/// assert_eq!(not_xor_linear(&resolve("ck-universal-a:m=128,k=64")?), None);
/// assert_eq!(
///     not_xor_linear(&resolve("row-padded:rows=4,cols=8,pad=1")?).as_deref(),
///     Some("stage 1 (embed((4,8),(9,1))): embed is not linear over GF(2) with these parameters")
/// );
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn not_xor_linear(desc: &Descriptor) -> Option<String> {
    for (s, stage) in desc.stages().iter().enumerate() {
        if let Some(item) = stage.items().iter().find(|i| !i.transform().is_xor_linear()) {
            let t = item.transform();
            return Some(alloc::format!(
                "stage {} ({t}): {} is not linear over GF(2) with these parameters",
                s + 1,
                t.kind().name()
            ));
        }
        for (side, lengths) in [("lower", stage.lower_lengths()), ("upper", stage.upper_lengths())] {
            if let Some(&len) = lengths.as_slice().iter().find(|&&l| l <= 0 || l & (l - 1) != 0) {
                return Some(alloc::format!("stage {} has {side} length {len}, not a power of two", s + 1));
            }
        }
    }
    None
}

/// Whether `a` and `b` are the same map (see the [module](self)).
///
/// ```
/// use cktile::{check::equiv::{equivalent, Equivalence, Proof}, layouts::resolve};
/// // CK's 2025 XOR block is CuTe's Swizzle<3,3,3> of the row-major index: proved by linearity.
/// let ck = resolve("ck-universal-a:m=128,k=64")?;
/// let cute = resolve("cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=64")?;
/// assert_eq!(equivalent(&ck, &cute), Equivalence::Same(Proof::Linear { bits: 13, probes: 16 }));
/// // The 2024 order is not: the first coordinate that shows it.
/// let old = resolve("ck-xor-lds:m=128,k=32,kpack=8,mlds=2,form=2024")?;
/// let v = equivalent(&old, &resolve("cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=32")?);
/// assert!(matches!(v, Equivalence::Differ { ref coordinate, .. } if coordinate == &[1, 0]));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn equivalent(a: &Descriptor, b: &Descriptor) -> Equivalence {
    let (la, lb) = (a.lengths(), b.lengths());
    if la != lb {
        return Equivalence::Lengths { a: la.as_slice().to_vec(), b: lb.as_slice().to_vec() };
    }
    let lengths = la.as_slice();
    let mut compared = 0u64;
    // The probes: the origin, every single-bit coordinate, every last index.
    let mut probes: Vec<Vec<Index>> = alloc::vec![alloc::vec![0; lengths.len()]];
    for (d, &len) in lengths.iter().enumerate() {
        let mut bit = 1;
        while bit < len {
            let mut c = alloc::vec![0; lengths.len()];
            c[d] = bit;
            probes.push(c);
            bit = bit.saturating_mul(2);
        }
        // The last index, unless it is a single bit already probed.
        if len > 2 && (len - 1) & (len - 2) != 0 {
            let mut c = alloc::vec![0; lengths.len()];
            c[d] = len - 1;
            probes.push(c);
        }
    }
    if lengths.contains(&0) {
        probes.clear();
    }
    for c in &probes {
        if let Some(d) = compare(a, b, c, &mut compared) {
            return d;
        }
    }
    let (a_not_linear, b_not_linear) = (not_xor_linear(a), not_xor_linear(b));
    if a_not_linear.is_none() && b_not_linear.is_none() {
        let bits = lengths.iter().map(|&l| if l > 1 { l.trailing_zeros() } else { 0 }).sum();
        return Equivalence::Same(Proof::Linear { bits, probes: compared });
    }
    let size = a.element_size().map_or(u64::MAX, |s| s as u64);
    let limit = enumeration_limit(a).min(enumeration_limit(b));
    if size > limit {
        return Equivalence::Undecided { size, limit, a_not_linear, b_not_linear, compared };
    }
    for n in 0..size {
        if let Some(d) = compare(a, b, &coordinate(a, n), &mut compared) {
            return d;
        }
    }
    Equivalence::Same(Proof::Exhaustion { coordinates: size })
}

/// The difference at `c`, if the two answers differ; counts the comparison.
fn compare(a: &Descriptor, b: &Descriptor, c: &[Index], compared: &mut u64) -> Option<Equivalence> {
    *compared += 1;
    let (x, y) = (a.offset_if_valid(c), b.offset_if_valid(c));
    (x != y).then(|| Equivalence::Differ { coordinate: c.to_vec(), a: x, b: y, compared: *compared })
}
