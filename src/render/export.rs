//! A layout in a peer's terms, as text: what `cktile analyze --as` and
//! `cktile search --as` print for each layout (the peer's own text, checked
//! at every coordinate by the export, or the peer's refusal).

use crate::export::Peer;
use crate::{Descriptor, Error};
use alloc::format;
use alloc::string::String;

/// `desc` (or why there is none) in `peer`'s text, or `refused: ` and the
/// peer's reason.
///
/// ```
/// use cktile::export::Peer;
/// let packed = cktile::Descriptor::packed(&[4, 8])?;
/// assert_eq!(cktile::render::export::answer_text(Ok(packed), Peer::Cute), "(4,8):(8,1)");
/// let refused = cktile::render::export::answer_text(Err(cktile::spec::parse("packed((0))").unwrap_err()), Peer::Cute);
/// assert!(refused.starts_with("refused: "));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn answer_text(desc: Result<Descriptor, Error>, peer: Peer) -> String {
    match desc.and_then(|d| peer.export(&d).map(|e| e.text(&d))) {
        Ok(text) => text,
        Err(e) => format!("refused: {e}"),
    }
}

/// The analysed layout in `peer`'s terms, as `cktile analyze --as` ends
/// its report: a heading and [`answer_text`].
///
/// ```
/// use cktile::export::Peer;
/// let packed = cktile::Descriptor::packed(&[4, 8])?;
/// assert_eq!(cktile::render::export::answer(&packed, Peer::Cute), "As cute:\n  (4,8):(8,1)\n");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn answer(desc: &Descriptor, peer: Peer) -> String {
    format!("As {}:\n  {}\n", peer.name(), answer_text(Ok(*desc), peer))
}
