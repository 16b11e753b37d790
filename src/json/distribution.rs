//! The report of `cktile distribution --json`.

use crate::Index;
use crate::distribution::{Distribution, Table};
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
/// as `compact`), the X, P, Y
/// and R lengths, and for every (P..., Y...) index in row-major order (last
/// Y fastest) its X coordinate (`xs`) and its Y's thread-buffer index
/// (`ys_to_d`).
///
/// ```
/// use cktile::distribution::{catalogue, Distribution, Table};
/// let d = Distribution::new(catalogue::mfma_a(16, 16)?)?;
/// let t = Table::new(&d)?;
/// let json = serde_json::to_string(&cktile::json::DistributionJson::new(&d, &t)).unwrap();
/// assert!(json.contains(r#""p_lengths":[64],"r_lengths":[],"x_lengths":[16,16],"xs":[[0,0],[0,1],[0,2],[0,3],[1,0]"#));
/// let tail = format!(r#""y_lengths":[4],"ys_to_d":[{}]}}"#, vec!["0,1,2,3"; 64].join(","));
/// assert!(json.ends_with(&tail));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct DistributionJson<'a> {
    compact: String,
    encoding: String,
    p_lengths: Vec<Index>,
    r_lengths: Vec<Index>,
    x_lengths: Vec<Index>,
    xs: Coordinates<'a>,
    y_lengths: Vec<Index>,
    ys_to_d: &'a [Index],
}

impl<'a> DistributionJson<'a> {
    /// The view of `d` and its enumeration `t`.
    ///
    /// ```
    /// use cktile::distribution::{catalogue, Distribution, Table};
    /// let d = Distribution::new(catalogue::mfma_c(16, 16)?)?;
    /// let _ = cktile::json::DistributionJson::new(&d, &Table::new(&d)?);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(d: &Distribution, t: &'a Table) -> DistributionJson<'a> {
        DistributionJson {
            compact: d.encoding().compact().to_string(),
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
