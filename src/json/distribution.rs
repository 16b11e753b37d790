//! The report of `cktile distribution --json`.

use crate::Index;
use crate::distribution::Distribution;
use crate::distribution::catalogue::transpose::{TrElement, Verdict};
use crate::lanes::Table;
use crate::lanes::coverage::Coverage;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};

/// A flat list of coordinates written as an array of arrays.
#[derive(Clone, Debug)]
struct Coordinates<'a> {
    flat: &'a [Index],
    width: usize,
}

impl Serialize for Coordinates<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let chunks = self.flat.chunks(self.width.max(1));
        let mut seq = s.serialize_seq(Some(chunks.len()))?;
        for c in chunks {
            seq.serialize_element(c)?;
        }
        seq.end()
    }
}

/// `cktile distribution --json`: the encoding (CK's spelling, and cktile's
/// as `compact`), its coverage of a tile ([`CoverageJson`]), the X, P, Y
/// and R lengths, and for every (P..., Y...) index in row-major order (last
/// Y fastest) its X coordinate (`xs`) and its Y's thread-buffer index
/// (`ys_to_d`).
///
/// ```
/// use cktile::distribution::{catalogue, Distribution};
/// use cktile::lanes::{coverage::Coverage, Table};
/// let d = Distribution::new(catalogue::mfma_a(16, 16)?)?;
/// let t = Table::new(&d)?;
/// let json = serde_json::to_string(&cktile::json::DistributionJson::new(&d, &t, &Coverage::new(&d, None)?)).unwrap();
/// assert!(json.contains(r#""p_lengths":[64],"r_lengths":[],"x_lengths":[16,16],"xs":[[0,0],[0,1],[0,2],[0,3],[1,0]"#));
/// let tail = format!(r#""y_lengths":[4],"ys_to_d":[{}]}}"#, vec!["0,1,2,3"; 64].join(","));
/// assert!(json.ends_with(&tail));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct DistributionJson<'a> {
    compact: String,
    /// With `--compose`: the distribution composed with a layout.
    #[serde(skip_serializing_if = "Option::is_none")]
    composed: Option<ComposedJson>,
    coverage: CoverageJson,
    encoding: String,
    p_lengths: Vec<Index>,
    r_lengths: Vec<Index>,
    x_lengths: Vec<Index>,
    xs: Coordinates<'a>,
    y_lengths: Vec<Index>,
    ys_to_d: &'a [Index],
}

impl<'a> DistributionJson<'a> {
    /// The view of `d`, its enumeration `t` and its coverage `c`.
    ///
    /// ```
    /// use cktile::distribution::{catalogue, Distribution};
    /// use cktile::lanes::{coverage::Coverage, Table};
    /// let d = Distribution::new(catalogue::mfma_c(16, 16)?)?;
    /// let _ = cktile::json::DistributionJson::new(&d, &Table::new(&d)?, &Coverage::new(&d, None)?);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(d: &Distribution, t: &'a Table, c: &Coverage) -> DistributionJson<'a> {
        DistributionJson {
            compact: d.encoding().compact().to_string(),
            composed: None,
            coverage: CoverageJson::new(c),
            encoding: d.encoding().to_string(),
            p_lengths: d.p_lengths().as_slice().to_vec(),
            r_lengths: d.encoding().rs_lengths().as_slice().to_vec(),
            x_lengths: d.x_lengths().as_slice().to_vec(),
            xs: Coordinates { flat: t.xs_flat(), width: t.ndim_x() },
            y_lengths: d.y_lengths().as_slice().to_vec(),
            ys_to_d: t.ds(),
        }
    }
}

impl DistributionJson<'_> {
    /// The report with the distribution composed with a layout
    /// ([`Distribution::compose_descriptor`]): `"composed": {"layout",
    /// "descriptor"}`, the layout as given and the composition's spec, a
    /// descriptor over (P..., Y...).
    ///
    /// ```
    /// use cktile::distribution::{catalogue, Distribution};
    /// use cktile::lanes::{coverage::Coverage, Table};
    /// let d = Distribution::new(catalogue::mfma_a(16, 16)?)?;
    /// let (t, c) = (Table::new(&d)?, Coverage::new(&d, None)?);
    /// let lanes = d.compose_descriptor(&cktile::Descriptor::packed(&[16, 16])?)?;
    /// let view = cktile::json::DistributionJson::new(&d, &t, &c).composed("packed((16,16))", &lanes);
    /// let json = serde_json::to_string(&view).unwrap();
    /// assert!(json.contains(r#""composed":{"descriptor":"packed((16,16))\n| transform("#), "{json}");
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn composed(mut self, layout: &str, descriptor: &crate::Descriptor) -> Self {
        self.composed = Some(ComposedJson { descriptor: descriptor.to_string(), layout: layout.to_string() });
        self
    }
}

/// `"composed"` in `cktile distribution --json --compose LAYOUT`.
#[derive(Clone, Debug, Serialize)]
struct ComposedJson {
    descriptor: String,
    layout: String,
}

/// One replicating R component of a [`CoverageJson`].
#[derive(Clone, Debug, Serialize)]
struct ReplicaJson {
    length: Index,
    p: usize,
    r: usize,
    stride: Index,
}

/// A distribution's coverage of a tile (`"coverage"` in `cktile
/// distribution --json`): whether it is `complete`, the tile's `elements`,
/// the `missing` ones and the first (`first_missing`, or null), the held
/// ones `outside` the tile and the first, how many times each held element
/// is held (`replication`) and through which R components (`replicas`:
/// the R index, its length, the P naming it and its step in that P), the
/// `tile`, the `x_lengths`, and the sentence `cktile distribution` prints
/// (`summary`).
///
/// ```
/// use cktile::distribution::{catalogue, Distribution};
/// use cktile::lanes::coverage::Coverage;
/// let d = Distribution::new(catalogue::by_name("wmma16x16x16_gfx11_b")?)?;
/// let json = serde_json::to_string(&cktile::json::CoverageJson::new(&Coverage::new(&d, Some(&[16, 32]))?)).unwrap();
/// assert!(json.starts_with(r#"{"complete":false,"elements":512,"first_missing":[0,16],"first_outside":null,"missing":256,"#));
/// assert!(json.contains(r#""replicas":[{"length":2,"p":0,"r":0,"stride":16}],"replication":2,"#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct CoverageJson {
    complete: bool,
    elements: u128,
    first_missing: Option<Vec<Index>>,
    first_outside: Option<Vec<Index>>,
    missing: u128,
    outside: u128,
    replicas: Vec<ReplicaJson>,
    replication: u128,
    summary: String,
    tile: Vec<Index>,
    x_lengths: Vec<Index>,
}

impl CoverageJson {
    /// The view of `c`.
    ///
    /// ```
    /// use cktile::distribution::{catalogue, Distribution};
    /// use cktile::lanes::coverage::Coverage;
    /// let d = Distribution::new(catalogue::mfma_c(16, 16)?)?;
    /// let _ = cktile::json::CoverageJson::new(&Coverage::new(&d, None)?);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(c: &Coverage) -> CoverageJson {
        CoverageJson {
            complete: c.is_complete(),
            elements: c.elements(),
            first_missing: c.first_missing().map(<[Index]>::to_vec),
            first_outside: c.first_outside().map(<[Index]>::to_vec),
            missing: c.missing(),
            outside: c.outside(),
            replicas: c
                .replicas()
                .iter()
                .map(|r| ReplicaJson { length: r.length, p: r.p, r: r.r, stride: r.stride })
                .collect(),
            replication: c.replication(),
            summary: crate::render::distribution::coverage(c),
            tile: c.tile().to_vec(),
            x_lengths: c.x_lengths().to_vec(),
        }
    }
}

/// `cktile transpose-load --json`: whether CK accepts the distribution
/// (`accepted`), the instruction (`op`) and direction (`reverse`), the lane
/// group size CK picks (`lane_group`, null when refused), the resulting
/// distribution in both spellings with its X lengths (`output`, null when
/// refused), and each lane group size's broken rule (`refusals`: lane
/// group and message).
///
/// ```
/// use cktile::distribution::{catalogue, catalogue::transpose::{transpose, TrElement}};
/// let v = transpose(&catalogue::mfma_c(16, 16)?, TrElement::B16, false)?;
/// let json = serde_json::to_string(&cktile::json::TransposeJson::new(&v, TrElement::B16, false)?).unwrap();
/// assert!(json.starts_with(r#"{"accepted":false,"lane_group":null,"op":"ds_read_b64_tr_b16","output":null,"refusals":[{"lane_group":64,"#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct TransposeJson {
    accepted: bool,
    lane_group: Option<usize>,
    op: &'static str,
    output: Option<TransposedJson>,
    refusals: Vec<RefusalJson>,
    reverse: bool,
}

/// The distribution a transposing load gives.
#[derive(Clone, Debug, Serialize)]
struct TransposedJson {
    compact: String,
    encoding: String,
    x_lengths: Vec<Index>,
}

/// One lane group size's broken rule.
#[derive(Clone, Debug, Serialize)]
struct RefusalJson {
    lane_group: usize,
    message: String,
}

impl TransposeJson {
    /// The view of `v`, CK's answer for `elem`'s read in direction `reverse`.
    ///
    /// ```
    /// use cktile::distribution::{catalogue, catalogue::transpose::{transpose, TrElement}};
    /// let v = transpose(&catalogue::mfma_c(16, 16)?, TrElement::B8, true)?;
    /// let _ = cktile::json::TransposeJson::new(&v, TrElement::B8, true)?;
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(v: &Verdict, elem: TrElement, reverse: bool) -> Result<TransposeJson, crate::Error> {
        let (lane_group, output, refusals) = match v {
            Verdict::Accepted { lane_group, output } => {
                let d = Distribution::new(*output)?;
                let out = TransposedJson {
                    compact: output.compact().to_string(),
                    encoding: output.to_string(),
                    x_lengths: d.x_lengths().as_slice().to_vec(),
                };
                (Some(*lane_group), Some(out), Vec::new())
            }
            Verdict::Refused(why) => (
                None,
                None,
                why.iter().map(|r| RefusalJson { lane_group: r.lane_group, message: r.to_string() }).collect(),
            ),
        };
        Ok(TransposeJson { accepted: lane_group.is_some(), lane_group, op: elem.op_name(), output, refusals, reverse })
    }
}
