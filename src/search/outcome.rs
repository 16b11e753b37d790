//! What a search returns: every candidate with its cost, the Pareto front of
//! cycles against extra bytes, the family sizes, and why the best layout
//! still conflicts when it does.

use super::families::LayoutFamily;
use super::member::Member;
use super::problem::Problem;
use super::workload::PatternCost;
use crate::Descriptor;
use crate::Error;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// One evaluated layout.
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::search::{Problem, search};
/// let p = Problem::new(16, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
/// let r = search(&p)?;
/// let best = r.best();
/// assert_eq!(best.descriptor()?.lengths().as_slice(), [16, 64]);
/// assert_eq!(best.cycles, best.costs.iter().map(|c| c.cycles).sum::<u64>());
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The family it was found in.
    pub family: LayoutFamily,
    /// The catalogue entry that builds it (`cktile catalogue`): its member's
    /// text, `member.to_string()`.
    pub entry: String,
    /// The layout, typed: the entry and its parameters.
    pub member: Member,
    /// Each pattern's cost, writes first, in the problem's order.
    pub costs: Vec<PatternCost>,
    /// Total passes through the banks over every pattern.
    pub cycles: u64,
    /// Bytes of storage beyond `rows * cols * element_bytes`.
    pub extra_bytes: u64,
    /// Transforms in its descriptor, pass-throughs not counted: the simplicity tie-break.
    pub transforms: usize,
}

impl Candidate {
    /// Builds the layout (with the catalogue's builder, as its entry text would).
    ///
    /// ```
    /// use cktile::analyzer::{arch, Pattern};
    /// use cktile::search::{Problem, search};
    /// let p = Problem::new(2, 64, 2, arch::GFX942).read(Pattern::from_access("ds_read_b128:row")?);
    /// let r = search(&p)?;
    /// assert_eq!(r.naive.entry, "row-padded:rows=2,cols=64,pad=0,dtype=2");
    /// assert_eq!(r.naive.descriptor()?.calculate_offset(&[1, 0]), 64);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn descriptor(&self) -> Result<Descriptor, Error> {
        self.member.descriptor()
    }

    /// A short name: the entry, and for CuTe swizzles the byte-address form.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Pattern};
    /// use cktile::search::{Problem, search};
    /// let p = Problem::new(16, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
    /// let r = search(&p)?;
    /// let c = r.candidates.iter().find(|c| c.entry == "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64,dtype=2").unwrap();
    /// assert_eq!(c.label(2), "Swizzle<3,3,3> on elements = Swizzle<3,4,3> on bytes");
    /// assert_eq!(r.naive.label(2), r.naive.entry);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn label(&self, element_bytes: usize) -> String {
        let Some((b, m, s)) = self.member.cute_swizzle() else { return self.entry.clone() };
        let shift = element_bytes.max(1).trailing_zeros();
        format!("Swizzle<{b},{m},{s}> on elements = Swizzle<{b},{},{s}> on bytes", m + shift)
    }

    /// The order of preference: fewer cycles, then fewer extra bytes, then
    /// fewer transforms, then the family order, then the entry text.
    pub(crate) fn key(&self) -> (u64, u64, usize, LayoutFamily, &str) {
        (self.cycles, self.extra_bytes, self.transforms, self.family, &self.entry)
    }
}

impl fmt::Debug for Candidate {
    /// Every field but `member`, which `entry` already writes out in full
    /// (its text), so the debug form is the one recorded reports digest.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Candidate")
            .field("family", &self.family)
            .field("entry", &self.entry)
            .field("costs", &self.costs)
            .field("cycles", &self.cycles)
            .field("extra_bytes", &self.extra_bytes)
            .field("transforms", &self.transforms)
            .finish()
    }
}

/// How much of one family was searched.
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// let p = cktile::search::Problem::new(32, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
/// let r = cktile::search::search(&p)?;
/// assert!(r.families.iter().all(|f| f.valid <= f.members));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilySize {
    /// The family.
    pub family: LayoutFamily,
    /// Members enumerated (for the XOR-linear family: classes).
    pub members: u64,
    /// Members that built and fit the tile, the vector width and the padding limit.
    pub valid: u64,
    /// What was searched, and why any member was left out.
    pub note: String,
}

/// A phase of the best layout that still conflicts although all its lanes
/// access one row: no layout that moves whole rows (row padding) or XORs a
/// row's vectors by a function of the row (the XOR families) can separate
/// them, because it treats every lane of the phase alike.
///
/// ```
/// let s = cktile::search::StuckPhase { pattern: 0, instruction: 3, phase: 1, row: 7, lanes: vec![4, 5], cycles: 2 };
/// assert_eq!(s.lanes.len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StuckPhase {
    /// The pattern (writes first).
    pub pattern: usize,
    /// The instruction.
    pub instruction: u32,
    /// The phase.
    pub phase: u32,
    /// The row all its lanes access.
    pub row: usize,
    /// Its active lanes.
    pub lanes: Vec<u32>,
    /// Its passes through the banks.
    pub cycles: u32,
}

/// The result of [`search`](super::search).
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::search::{Problem, search};
/// let p = Problem::new(128, 64, 2, arch::GFX942)
///     .write(Pattern::from_access("ds_write_b128:row")?)
///     .read(Pattern::from_access("mfma16x16x16:a")?);
/// let r = search(&p)?;
/// assert!(r.conflict_free());
/// assert_eq!(r.best().extra_bytes, 0);
/// assert!(r.front.len() >= 1);
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    /// The problem searched.
    pub problem: Problem,
    /// The vector width every candidate keeps contiguous, in elements.
    pub vector: usize,
    /// Each pattern's conflict-free minimum (one pass per phase).
    pub minimum: Vec<u64>,
    /// The unswizzled, unpadded tile.
    pub naive: Candidate,
    /// Each family's size.
    pub families: Vec<FamilySize>,
    /// Layouts whose cost was counted (descriptors plus XOR-linear classes).
    pub evaluated: u64,
    /// Every valid candidate, best first, the row-major tile included (the
    /// XOR-linear family contributes its simplest member for each total cost).
    pub candidates: Vec<Candidate>,
    /// The Pareto front of cycles against extra bytes, fewest cycles first.
    pub front: Vec<Candidate>,
    /// Every candidate as good as the best in cycles and extra bytes.
    pub optimal: Vec<Candidate>,
    /// XOR-linear classes as good as the best (each a set of masks matrices).
    pub xor_linear_optimal_classes: u64,
    /// Each pattern's fewest cycles over all candidates, alone.
    pub pattern_best: Vec<u64>,
    /// Each pattern's proved lower bound over every layout (of any family)
    /// that keeps vectors of [`vector`](Self::vector) elements contiguous and
    /// aligned: a word at offset `o` of its vector can only sit in the banks
    /// `b` with `b % V == o % V`, `V` the vector's words.
    pub vector_bound: Vec<u64>,
    /// Conflicting phases of the best layout whose lanes share one row.
    pub stuck: Vec<StuckPhase>,
}

impl SearchReport {
    /// The best candidate.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Pattern};
    /// let p = cktile::search::Problem::new(16, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
    /// let r = cktile::search::search(&p)?;
    /// assert_eq!(r.best(), &r.candidates[0]);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn best(&self) -> &Candidate {
        self.candidates.first().unwrap_or(&self.naive)
    }

    /// The conflict-free minimum over every pattern.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Pattern};
    /// let p = cktile::search::Problem::new(16, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
    /// assert_eq!(cktile::search::search(&p)?.minimum_cycles(), 16); // 2 instructions of 8 phases
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn minimum_cycles(&self) -> u64 {
        self.minimum.iter().sum()
    }

    /// Whether the best candidate is conflict-free.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Pattern};
    /// let p = cktile::search::Problem::new(16, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
    /// assert!(cktile::search::search(&p)?.conflict_free());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn conflict_free(&self) -> bool {
        self.best().cycles == self.minimum_cycles()
    }
}
