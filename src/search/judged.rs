//! The layouts a search lists, judged under one public model of AMD's LDS
//! ([`models`](crate::reports::models)): the search ranks by cktile's
//! table, and a user who trusts rocRoller, Triton or IREE sees what that
//! model says of each listed layout, access by access, or where its
//! source is silent.

use super::access::Access;
use super::outcome::SearchReport;
use crate::analyzer::tile::program_address;
use crate::reports::models::{Model, answer};
use crate::{Error, Program};
use alloc::string::String;
use alloc::vec::Vec;

/// How many of the equally good layouts a report lists (and judges under
/// a model) unless told otherwise: `cktile search --top`'s default.
///
/// ```
/// assert_eq!(cktile::search::DEFAULT_LISTED, 12);
/// ```
pub const DEFAULT_LISTED: usize = 12;

/// One listed layout under a model: its entry and, for each access of the
/// problem (writes first, as [`Problem::accesses`](super::Problem::accesses)
/// lists them), the access's name and the model's worst ways over all its
/// instructions, or the model's refusal.
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::reports::models::Model;
/// use cktile::search::{Problem, search, under_model};
/// let p = Problem::new(128, 64, 2, arch::GFX942)
///     .write(Pattern::from_access("ds_write_b128:row")?)
///     .read(Pattern::from_access("mfma16x16x16:a")?);
/// let judged = under_model(&search(&p)?, Model::Rocke, 1)?;
/// assert_eq!(judged[0].answers.iter().map(|(_, w)| w.clone().ok()).collect::<Vec<_>>(), [Some(1), Some(1)]);
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The layout's catalogue entry.
    pub entry: String,
    /// Its cycles by cktile's table (the search's rank).
    pub cycles: u64,
    /// Each access's name and the model's worst ways, or its refusal.
    pub answers: Vec<(String, Result<u32, Error>)>,
}

/// The first `count` of the search's equally good layouts
/// ([`SearchReport::optimal`], the ones its report lists) under `model`. An error only when a listed layout's descriptor or an access
/// over the tile cannot be built, which the search itself has already
/// done for every layout it lists.
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::reports::models::Model;
/// use cktile::search::{Problem, search, under_model};
/// let p = Problem::new(128, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
/// let judged = under_model(&search(&p)?, Model::Iree, 2)?;
/// assert_eq!(judged.len(), 2);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn under_model(report: &SearchReport, model: Model, count: usize) -> Result<Vec<Judged>, Error> {
    let p = &report.problem;
    let wave = p.arch.wave() as usize;
    let accesses: Vec<Access> = p.accesses().into_iter().map(|(_, a)| a).collect();
    let mut out = Vec::new();
    for c in report.optimal.iter().take(count) {
        let program = Program::of(&c.member.descriptor()?);
        let mut answers = Vec::with_capacity(accesses.len());
        for access in &accesses {
            let tiled = access.tiled(p.rows, p.cols, p.element_bytes, wave)?;
            let mut worst: Result<u32, Error> = Ok(0);
            for i in 0..tiled.instructions() {
                let mut lanes = Vec::with_capacity(wave);
                for lane in 0..wave {
                    let address = match tiled.coordinate(i, lane) {
                        Some(x) => Some(program_address(&program, p.element_bytes, i, lane, x)?),
                        None => None,
                    };
                    lanes.push(address);
                }
                match answer(model, &p.arch, access.op(), &lanes) {
                    Ok(w) => worst = worst.map(|m| m.max(w)),
                    Err(e) => {
                        worst = Err(e);
                        break;
                    }
                }
            }
            answers.push((access.name(), worst));
        }
        out.push(Judged { entry: c.entry.clone(), cycles: c.cycles, answers });
    }
    Ok(out)
}
