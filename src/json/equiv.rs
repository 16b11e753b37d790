//! The report of `cktile equiv --json`: one object for two descriptors or
//! two distributions, keys in alphabetical order.

use crate::Index;
use crate::check::equiv::{Answer, Equivalence, Proof};
use crate::lanes::equiv::DistributionEquivalence;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// One side's answer at a coordinate: its offset and validity (layouts), or
/// its X coordinate (distributions).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideJson {
    /// The offset where the coordinate is valid (layouts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<Index>,
    /// Whether the coordinate is valid (layouts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valid: Option<bool>,
    /// The X coordinate (distributions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<Vec<Index>>,
}

impl SideJson {
    fn layout(a: Answer) -> SideJson {
        SideJson { offset: a, valid: Some(a.is_some()), x: None }
    }

    fn distribution(x: &[Index]) -> SideJson {
        SideJson { offset: None, valid: None, x: Some(x.to_vec()) }
    }
}

/// Where the two first differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DifferenceJson {
    /// The first's answer.
    pub a: SideJson,
    /// The second's.
    pub b: SideJson,
    /// The top coordinate (layouts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coordinate: Option<Vec<Index>>,
    /// The thread index P (distributions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p: Option<Vec<Index>>,
    /// The register index Y (distributions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<Vec<Index>>,
    /// The thread-buffer index D (distributions whose Y lengths differ).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub d: Option<Index>,
}

/// Lengths that differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LengthsJson {
    /// The first's.
    pub a: Vec<Index>,
    /// The second's.
    pub b: Vec<Index>,
    /// Which: `top` (layouts), `X`, `P` or `Y` (distributions).
    pub what: &'static str,
}

/// Why no answer: too large to enumerate, and not both linear.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UndecidedJson {
    /// Why the first is not linear over GF(2) (`null`: it is).
    pub a_not_linear: Option<String>,
    /// Why the second is not.
    pub b_not_linear: Option<String>,
    /// The most coordinates enumerated for them.
    pub limit: u64,
    /// Their number of top coordinates.
    pub size: u64,
}

/// `cktile equiv --json`.
///
/// ```
/// use cktile::{check::equiv::equivalent, json::EquivJson, layouts::resolve};
/// let v = equivalent(&resolve("packed((4,8))")?, &resolve("naive((4,8),(8,1))")?);
/// let text = serde_json::to_string(&EquivJson::layouts(&v)).unwrap();
/// assert_eq!(text, r#"{"compared":8,"difference":null,"kind":"layout","lengths":null,"proof":"linear","same":true,"undecided":null}"#);
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EquivJson {
    /// How many coordinates (layouts) or indices (distributions) were
    /// compared; for a linearity proof, the probes.
    pub compared: u64,
    /// The first difference, if one was found.
    pub difference: Option<DifferenceJson>,
    /// `layout` or `distribution`.
    pub kind: &'static str,
    /// The lengths, when they differ.
    pub lengths: Option<LengthsJson>,
    /// `exhaustion` or `linear` when the maps are the same.
    pub proof: Option<&'static str>,
    /// `true`, `false`, or `null` when undecided.
    pub same: Option<bool>,
    /// Why undecided.
    pub undecided: Option<UndecidedJson>,
}

impl EquivJson {
    fn empty(kind: &'static str, same: Option<bool>) -> EquivJson {
        EquivJson { compared: 0, difference: None, kind, lengths: None, proof: None, same, undecided: None }
    }

    /// The view of two layouts' verdict.
    pub fn layouts(v: &Equivalence) -> EquivJson {
        let mut out = EquivJson::empty("layout", v.same());
        match v {
            Equivalence::Same(Proof::Exhaustion { coordinates }) => {
                out.proof = Some("exhaustion");
                out.compared = *coordinates;
            }
            Equivalence::Same(Proof::Linear { probes, .. }) => {
                out.proof = Some("linear");
                out.compared = *probes;
            }
            Equivalence::Lengths { a, b } => {
                out.lengths = Some(LengthsJson { a: a.clone(), b: b.clone(), what: "top" });
            }
            Equivalence::Differ { coordinate, a, b, compared } => {
                out.compared = *compared;
                out.difference = Some(DifferenceJson {
                    a: SideJson::layout(*a),
                    b: SideJson::layout(*b),
                    coordinate: Some(coordinate.clone()),
                    p: None,
                    y: None,
                    d: None,
                });
            }
            Equivalence::Undecided { size, limit, a_not_linear, b_not_linear, compared } => {
                out.compared = *compared;
                out.undecided = Some(UndecidedJson {
                    a_not_linear: a_not_linear.clone(),
                    b_not_linear: b_not_linear.clone(),
                    limit: *limit,
                    size: *size,
                });
            }
        }
        out
    }

    /// The view of two distributions' verdict.
    pub fn distributions(v: &DistributionEquivalence) -> EquivJson {
        match v {
            DistributionEquivalence::Same { indices } => EquivJson {
                compared: *indices,
                proof: Some("exhaustion"),
                ..EquivJson::empty("distribution", Some(true))
            },
            DistributionEquivalence::SameRegisters { indices, .. } => EquivJson {
                compared: *indices,
                proof: Some("exhaustion by register"),
                ..EquivJson::empty("distribution", Some(true))
            },
            DistributionEquivalence::Lengths { what, a, b } => EquivJson {
                lengths: Some(LengthsJson { a: a.clone(), b: b.clone(), what }),
                ..EquivJson::empty("distribution", Some(false))
            },
            DistributionEquivalence::DifferRegister { p, d, a, b, compared } => {
                Self::distributions_differ(*compared, p, (None, Some(*d)), (a, b))
            }
            DistributionEquivalence::Differ { p, y, a, b, compared } => {
                Self::distributions_differ(*compared, p, (Some(y.clone()), None), (a, b))
            }
        }
    }

    /// Two distributions' first difference at thread `p`, register
    /// `(y, d)` (a Y index, or a thread-buffer index), where they give `xs`.
    fn distributions_differ(
        compared: u64,
        p: &[Index],
        (y, d): (Option<Vec<Index>>, Option<Index>),
        xs: (&[Index], &[Index]),
    ) -> EquivJson {
        EquivJson {
            compared,
            difference: Some(DifferenceJson {
                a: SideJson::distribution(xs.0),
                b: SideJson::distribution(xs.1),
                coordinate: None,
                p: Some(p.to_vec()),
                y,
                d,
            }),
            ..EquivJson::empty("distribution", Some(false))
        }
    }
}
