//! CK's `ValidationTraits` and `TransposeTileDistributionTraits`: the
//! rules [`transpose`] checks a distribution against, lane group by lane
//! group, and the output encoding it builds (see the
//! [module](super) for the whole story). Needs `alloc`: a refusal lists
//! its reasons.

use crate::distribution::Encoding;
use crate::error::Error;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// The element size of a transposing read: `ds_read_b64_tr_b16`, `_b8` or
/// `_b4` (CK's `Quad16`, `Quad8`, `Quad4`: 2-byte types, 1-byte types, and
/// types packing two elements in a byte).
///
/// ```
/// use cktile_core::distribution::catalogue::transpose::TrElement;
/// assert_eq!(TrElement::from_bits(8), Some(TrElement::B8));
/// assert_eq!(TrElement::B4.per_lane(), 16);
/// assert_eq!(TrElement::from_bits(6), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrElement {
    /// 16-bit elements (fp16, bf16): 4 per lane.
    B16,
    /// 8-bit elements (fp8, int8): 8 per lane.
    B8,
    /// 4-bit elements (packed fp4, int4): 16 per lane.
    B4,
}

impl TrElement {
    /// The element for `bits` bits, if CK's default policy has a quad for it.
    ///
    /// ```
    /// assert!(cktile_core::distribution::catalogue::transpose::TrElement::from_bits(16).is_some());
    /// ```
    pub const fn from_bits(bits: u32) -> Option<TrElement> {
        match bits {
            16 => Some(TrElement::B16),
            8 => Some(TrElement::B8),
            4 => Some(TrElement::B4),
            _ => None,
        }
    }

    /// Its bits.
    ///
    /// ```
    /// assert_eq!(cktile_core::distribution::catalogue::transpose::TrElement::B8.bits(), 8);
    /// ```
    pub const fn bits(self) -> u32 {
        match self {
            TrElement::B16 => 16,
            TrElement::B8 => 8,
            TrElement::B4 => 4,
        }
    }

    /// Elements one lane reads: 8 bytes' worth.
    ///
    /// ```
    /// assert_eq!(cktile_core::distribution::catalogue::transpose::TrElement::B16.per_lane(), 4);
    /// ```
    pub const fn per_lane(self) -> usize {
        64 / self.bits() as usize
    }

    /// The instruction.
    ///
    /// ```
    /// assert_eq!(cktile_core::distribution::catalogue::transpose::TrElement::B4.op_name(), "ds_read_b64_tr_b4");
    /// ```
    pub const fn op_name(self) -> &'static str {
        match self {
            TrElement::B16 => "ds_read_b64_tr_b16",
            TrElement::B8 => "ds_read_b64_tr_b8",
            TrElement::B4 => "ds_read_b64_tr_b4",
        }
    }
}

/// The lane group sizes CK tries, in its order.
pub const LANE_GROUPS: [usize; 3] = [64, 32, 16];

/// An encoding's six lists, as plain vectors.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Lists {
    rs: Vec<usize>,
    hs: Vec<Vec<usize>>,
    ps_major: Vec<Vec<usize>>,
    ps_minor: Vec<Vec<usize>>,
    ys_major: Vec<usize>,
    ys_minor: Vec<usize>,
}

fn to_usizes(d: cktile_transforms::Dims) -> Vec<usize> {
    d.as_slice().iter().map(|&v| v as usize).collect()
}

impl Lists {
    fn of(e: &Encoding) -> Lists {
        let (ym, yn) = e.y_to_rh();
        Lists {
            rs: to_usizes(e.rs_lengths()),
            hs: (0..e.ndim_x()).map(|x| to_usizes(e.hs_lengths(x))).collect(),
            ps_major: (0..e.ndim_p()).map(|p| to_usizes(e.p_to_rh(p).0)).collect(),
            ps_minor: (0..e.ndim_p()).map(|p| to_usizes(e.p_to_rh(p).1)).collect(),
            ys_major: to_usizes(ym),
            ys_minor: to_usizes(yn),
        }
    }

    fn build(&self) -> Result<Encoding, Error> {
        let hs: Vec<&[usize]> = self.hs.iter().map(Vec::as_slice).collect();
        let pm: Vec<&[usize]> = self.ps_major.iter().map(Vec::as_slice).collect();
        let pn: Vec<&[usize]> = self.ps_minor.iter().map(Vec::as_slice).collect();
        Encoding::new(&self.rs, &hs, &pm, &pn, &self.ys_major, &self.ys_minor)
    }
}

/// CK's quad encodings for `elem` and lane group `g`: `(input, output)`.
fn quads(elem: TrElement, g: usize) -> (Lists, Lists) {
    let n = elem.per_lane();
    // The input's X1 splits the lane group into 16-lane blocks, the rows a
    // block reads at once (16 / n), and the n elements of a lane.
    let input = Lists {
        rs: vec![],
        hs: vec![vec![n], vec![g / 16, 16 / n, n]],
        ps_major: vec![vec![2, 1, 2]],
        ps_minor: vec![vec![0, 0, 1]],
        ys_major: vec![2],
        ys_minor: vec![2],
    };
    let output = Lists {
        rs: vec![],
        hs: vec![vec![g], vec![n]],
        ps_major: vec![vec![1]],
        ps_minor: vec![vec![0]],
        ys_major: vec![2],
        ys_minor: vec![0],
    };
    (input, output)
}

/// One of `ValidationTraits`' rules (and `load_tile_transpose`'s two
/// checks) that a distribution breaks.
///
/// ```
/// use cktile_core::distribution::{catalogue, catalogue::transpose::{transpose, TrElement, Verdict}};
/// let Verdict::Refused(why) = transpose(&catalogue::mfma_c(16, 16)?, TrElement::B16, false)? else { panic!() };
/// assert_eq!(why.len(), 3);
/// assert_eq!(why[2].to_string(), "lane groups of 16: the H lengths of X1, (16), do not end with the quad's (1, 4, 4)");
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TransposeRule {
    /// The distribution is not 2-D.
    NotTwoDimensional {
        /// Its X dimensions.
        ndim_x: usize,
    },
    /// The distribution has no P.
    NoP,
    /// X's H lengths do not end with the quad's.
    HSuffix {
        /// The X dimension.
        x: usize,
        /// Its H lengths.
        input: Vec<usize>,
        /// The quad's.
        quad: Vec<usize>,
    },
    /// The last P's majors do not end with the quad's lane majors.
    PMajor {
        /// The last P's majors.
        input: Vec<usize>,
        /// The quad's.
        quad: Vec<usize>,
    },
    /// The last P's minors do not end with the quad's lane minors, shifted
    /// past the outer H components.
    PMinor {
        /// The last P's minors.
        input: Vec<usize>,
        /// The quad's, shifted.
        quad: Vec<usize>,
    },
    /// The last Y is not the last H component of X1.
    LastY {
        /// Its major.
        major: usize,
        /// Its minor.
        minor: usize,
        /// The last minor of X1.
        want_minor: usize,
    },
    /// The transposed thread buffer's size differs (`load_tile_transpose`'s
    /// "the element space size is not the same").
    BufferSize {
        /// The input's.
        input: usize,
        /// The output's.
        output: usize,
    },
    /// The transposed vector length differs (`load_tile_transpose`'s "the
    /// vector length is not the same").
    VectorLength {
        /// The input's last Y length.
        input: usize,
        /// The output's.
        output: usize,
    },
}

/// The broken rule for one lane group size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The lane group size tried.
    pub lane_group: usize,
    /// The first rule broken.
    pub rule: TransposeRule,
}

/// Writes `(a, b, c)`.
struct Tuple<'a>(&'a [usize]);

impl fmt::Display for Tuple<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{v}")?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "lane groups of {}: ", self.lane_group)?;
        match &self.rule {
            TransposeRule::NotTwoDimensional { ndim_x } => {
                write!(f, "the distribution has {ndim_x} X dimension(s); a transposing load needs 2")
            }
            TransposeRule::NoP => f.write_str("the distribution has no P (lane) dimension"),
            TransposeRule::HSuffix { x, input, quad } => {
                write!(f, "the H lengths of X{x}, {}, do not end with the quad's {}", Tuple(input), Tuple(quad))
            }
            TransposeRule::PMajor { input, quad } => {
                write!(f, "the last P's majors {} do not end with the quad's lane majors {}", Tuple(input), Tuple(quad))
            }
            TransposeRule::PMinor { input, quad } => write!(
                f,
                "the last P's minors {} do not end with the quad's lane minors, shifted past the outer H \
                 components, {}",
                Tuple(input),
                Tuple(quad)
            ),
            TransposeRule::LastY { major, minor, want_minor } => write!(
                f,
                "the last Y names RH component ({major}, {minor}); it must be X1's last H component (2, {want_minor})"
            ),
            TransposeRule::BufferSize { input, output } => {
                write!(f, "the thread buffer would change size, from {input} to {output} elements")
            }
            TransposeRule::VectorLength { input, output } => {
                write!(f, "the vector length would change, from {input} to {output} elements")
            }
        }
    }
}

fn ends_with(seq: &[usize], suffix: &[usize]) -> bool {
    seq.len() >= suffix.len() && seq[seq.len() - suffix.len()..] == *suffix
}

/// `ValidationTraitsImpl<input, reverse, g>`: `Ok` or the first rule broken.
fn check(input: &Lists, elem: TrElement, reverse: bool, g: usize) -> Result<(), TransposeRule> {
    let (qi, qo) = quads(elem, g);
    let quad = if reverse { qo } else { qi };
    if input.hs.len() != 2 {
        return Err(TransposeRule::NotTwoDimensional { ndim_x: input.hs.len() });
    }
    for x in 0..2 {
        if !ends_with(&input.hs[x], &quad.hs[x]) {
            return Err(TransposeRule::HSuffix { x, input: input.hs[x].clone(), quad: quad.hs[x].clone() });
        }
    }
    let (Some(last_major), Some(last_minor)) = (input.ps_major.last(), input.ps_minor.last()) else {
        return Err(TransposeRule::NoP);
    };
    if !ends_with(last_major, &quad.ps_major[0]) {
        return Err(TransposeRule::PMajor { input: last_major.clone(), quad: quad.ps_major[0].clone() });
    }
    let offset = [input.hs[0].len() - quad.hs[0].len(), input.hs[1].len() - quad.hs[1].len()];
    let shifted: Vec<usize> =
        quad.ps_minor[0].iter().zip(&quad.ps_major[0]).map(|(&minor, &major)| minor + offset[major - 1]).collect();
    if !ends_with(last_minor, &shifted) {
        return Err(TransposeRule::PMinor { input: last_minor.clone(), quad: shifted });
    }
    let want_minor = input.hs[1].len() - 1;
    match (input.ys_major.last(), input.ys_minor.last()) {
        (Some(&2), Some(&minor)) if minor == want_minor => Ok(()),
        (major, minor) => Err(TransposeRule::LastY {
            major: major.copied().unwrap_or(0),
            minor: minor.copied().unwrap_or(0),
            want_minor,
        }),
    }
}

/// 1 and 2 swapped (X0's and X1's majors), R (0) kept.
fn swap_x(major: usize) -> usize {
    match major {
        1 => 2,
        2 => 1,
        m => m,
    }
}

/// `TransposeTileDistributionTraits<input, elem, DefaultTranspose, reverse>::TransposedDstrEncode`
/// for lane group `g` (which passes `check`).
fn transposed(input: &Lists, elem: TrElement, reverse: bool, g: usize) -> Lists {
    let (qi, qo) = quads(elem, g);
    let (quad_in, quad_out) = if reverse { (qo, qi) } else { (qi, qo) };
    // The outer H components of each X, the two Xs swapped.
    let outer: Vec<Vec<usize>> =
        (0..2).map(|x| input.hs[x][..input.hs[x].len() - quad_in.hs[x].len()].to_vec()).rev().collect();
    let hs: Vec<Vec<usize>> = (0..2).map(|x| [outer[x].as_slice(), &quad_out.hs[x]].concat()).collect();
    // Where the quad's output components start in each X.
    let offset = [outer[0].len(), outer[1].len()];
    let last = input.ps_major.len() - 1;
    let mut ps_major = Vec::with_capacity(input.ps_major.len());
    let mut ps_minor = Vec::with_capacity(input.ps_minor.len());
    for (p, (major, minor)) in input.ps_major.iter().zip(&input.ps_minor).enumerate() {
        if p == last {
            let keep = major.len() - quad_in.ps_major[0].len();
            let mut m: Vec<usize> = major[..keep].iter().map(|&v| swap_x(v)).collect();
            m.extend_from_slice(&quad_out.ps_major[0]);
            let mut n: Vec<usize> = minor[..minor.len() - quad_in.ps_minor[0].len()].to_vec();
            n.extend(quad_out.ps_major[0].iter().zip(&quad_out.ps_minor[0]).map(|(&qm, &qn)| offset[qm - 1] + qn));
            ps_major.push(m);
            ps_minor.push(n);
        } else {
            ps_major.push(major.iter().map(|&v| swap_x(v)).collect());
            ps_minor.push(minor.clone());
        }
    }
    let keep = input.ys_major.len() - 1;
    let mut ys_major: Vec<usize> = input.ys_major[..keep].iter().map(|&v| swap_x(v)).collect();
    ys_major.push(2);
    let mut ys_minor: Vec<usize> = input.ys_minor[..keep].to_vec();
    ys_minor.push(offset[quad_out.ys_major[0] - 1] + quad_out.ys_minor[0]);
    Lists { rs: input.rs.clone(), hs, ps_major, ps_minor, ys_major, ys_minor }
}

/// Whether CK's `load_tile_transpose` accepts a distribution.
// An `Encoding` is a fixed-capacity value (about 2 KB) passed by value
// everywhere in the crate; a verdict is made once per question.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Accepted: the lane group size CK picks and the distribution of the
    /// registers the load returns.
    Accepted {
        /// 64, 32 or 16.
        lane_group: usize,
        /// CK's `TransposedDstrEncode`.
        output: Encoding,
    },
    /// Refused: the first rule each lane group size breaks, in CK's order
    /// (64, 32, 16), or the one `load_tile_transpose` check the result breaks.
    Refused(Vec<Refusal>),
}

/// CK's answer for `input` read with the transposing load of `elem`:
/// `reverse` is CK's `ReverseDirection` (`InputTileDistributionTraits`,
/// from the registers back to the addresses). An error only where the
/// output cannot be built as an encoding.
///
/// ```
/// use cktile_core::distribution::{catalogue, catalogue::transpose::{transpose, TrElement, Verdict}};
/// // The MFMA A operand is not a transposed-load input.
/// assert!(matches!(transpose(&catalogue::mfma_a(16, 16)?, TrElement::B16, false)?, Verdict::Refused(_)));
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn transpose(input: &Encoding, elem: TrElement, reverse: bool) -> Result<Verdict, Error> {
    let lists = Lists::of(input);
    let mut refusals = Vec::new();
    for g in LANE_GROUPS {
        match check(&lists, elem, reverse, g) {
            Ok(()) => {
                let output = transposed(&lists, elem, reverse, g).build()?;
                let (yi, yo) = (input.y_elements(), output.y_elements());
                let (vi, vo) = (last_y(input), last_y(&output));
                if yi != yo {
                    return Ok(Verdict::Refused(vec![Refusal {
                        lane_group: g,
                        rule: TransposeRule::BufferSize { input: yi, output: yo },
                    }]));
                }
                if vi != vo {
                    let rule = TransposeRule::VectorLength { input: vi, output: vo };
                    return Ok(Verdict::Refused(vec![Refusal { lane_group: g, rule }]));
                }
                return Ok(Verdict::Accepted { lane_group: g, output });
            }
            Err(rule) => refusals.push(Refusal { lane_group: g, rule }),
        }
    }
    Ok(Verdict::Refused(refusals))
}

/// The length of the last Y of `e`.
fn last_y(e: &Encoding) -> usize {
    let (major, minor) = e.y_to_rh();
    match (major.as_slice().last(), minor.as_slice().last()) {
        (Some(&m), Some(&n)) => e.rh_length(m as usize, n as usize),
        _ => 0,
    }
}
