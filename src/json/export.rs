//! The JSON of `cktile export`, and of a layout answered in a peer's terms
//! (`search --as`, `analyze --as`).

use crate::export::{Exported, Peer};
use crate::{Descriptor, Error};
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// A layout in a peer's terms, as JSON: the peer, the kind of layout, the
/// tile's shape, its Triton bases and padding where it has them, and the
/// peer's own text.
///
/// ```
/// let packed = cktile::Descriptor::packed(&[2, 4])?;
/// let e = cktile::export::triton(&packed)?;
/// let out = serde_json::to_string(&cktile::json::ExportJson::new(&packed, &e)).unwrap();
/// assert!(out.starts_with(r#"{"interval_padding_pairs":[],"kind":"linear","offset_bases":[[0,1],[0,2],[1,0]],"peer":"triton""#), "{out}");
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct ExportJson {
    interval_padding_pairs: Vec<[u64; 2]>,
    kind: &'static str,
    offset_bases: Vec<Vec<i64>>,
    peer: &'static str,
    shape: Vec<i64>,
    text: String,
}

impl ExportJson {
    /// The view of `e`, the export of `desc`.
    pub fn new(desc: &Descriptor, e: &Exported) -> ExportJson {
        let (peer, kind, bases, pairs) = match e {
            Exported::TritonLinear(b) => ("triton", "linear", b.clone(), Vec::new()),
            Exported::TritonPadded(p) => {
                ("triton", "padded", p.offset_bases.clone(), alloc::vec![[p.interval_padding.0, p.interval_padding.1]])
            }
            Exported::Cute(_) => ("cute", "layout", Vec::new(), Vec::new()),
        };
        ExportJson {
            interval_padding_pairs: pairs,
            kind,
            offset_bases: bases,
            peer,
            shape: desc.lengths().as_slice().to_vec(),
            text: e.text(desc),
        }
    }
}

/// A layout in a peer's terms (`search --as`, `analyze --as`): its export
/// ([`ExportJson`]), or the peer's refusal, naming what the peer lacks.
///
/// ```
/// use cktile::export::Peer;
/// let packed = cktile::Descriptor::packed(&[2, 4])?;
/// let out = serde_json::to_string(&cktile::json::AnswerJson::new(Ok(packed), Peer::Cute)).unwrap();
/// assert!(out.starts_with(r#"{"export":{"#) && out.ends_with(r#""peer":"cute"}"#), "{out}");
/// // A layout that is no map of its tile is refused by either peer, with the reason.
/// let refused = cktile::json::AnswerJson::new(Err(cktile::spec::parse("packed((0))").unwrap_err()), Peer::Triton);
/// assert!(serde_json::to_string(&refused).unwrap().contains(r#""refused":"#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct AnswerJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    export: Option<ExportJson>,
    peer: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    refused: Option<String>,
}

impl AnswerJson {
    /// `desc` (or why there is none) exported to `peer`.
    pub fn new(desc: Result<Descriptor, Error>, peer: Peer) -> AnswerJson {
        let answer = desc.and_then(|d| peer.export(&d).map(|e| ExportJson::new(&d, &e)));
        match answer {
            Ok(e) => AnswerJson { export: Some(e), peer: peer.name(), refused: None },
            Err(e) => AnswerJson { export: None, peer: peer.name(), refused: Some(e.to_string()) },
        }
    }
}
