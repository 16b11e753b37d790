//! What a search is asked: the tile, its element type, the chip, how the tile
//! is written and read, and the limits a layout must respect.

use super::access::{Access, DistributionAccess};
use crate::Error;
use crate::analyzer::AnalyzerProblem;
use crate::analyzer::{Arch, Pattern};
use alloc::vec::Vec;

/// The largest tile a search takes, in elements (every candidate is counted
/// over every access of the tile).
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// let p = cktile::search::Problem::new(2048, 1024, 2, arch::GFX942).read(Pattern::from_access("ds_read_b128:row")?);
/// assert!(2048 * 1024 > cktile::search::MAX_SEARCH_TILE_ELEMENTS && p.validate().is_err());
/// # Ok::<(), cktile::Error>(())
/// ```
pub const MAX_SEARCH_TILE_ELEMENTS: usize = 1 << 20;

/// Whether a pattern writes or reads the tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Stores into shared memory.
    Write,
    /// Loads from shared memory.
    Read,
}

/// A layout search problem: a `rows x cols` row-major tile of
/// `element_bytes`-byte elements on `arch`, written by `writes` and read by
/// `reads` (each pattern covers the whole tile once).
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::search::Problem;
/// let p = Problem::new(128, 64, 2, arch::GFX942)
///     .write(Pattern::from_access("ds_write_b128:row")?)
///     .read(Pattern::from_access("mfma16x16x16:a")?);
/// assert_eq!(p.vector_elements()?, 8); // the 16-byte accesses' width, in fp16 elements
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Rows of the tile (the first top dimension).
    pub rows: usize,
    /// Columns (the second, contiguous within a vector).
    pub cols: usize,
    /// Bytes per element: 1, 2, 4 or 8.
    pub element_bytes: usize,
    /// The chip.
    pub arch: Arch,
    /// The patterns that store the tile.
    pub writes: Vec<Pattern>,
    /// The patterns that load it.
    pub reads: Vec<Pattern>,
    /// Accesses through tile windows over distributions, with their roles
    /// (counted after the patterns of the same role).
    pub distributions: Vec<(Role, DistributionAccess)>,
    /// The most padding a layout may add, in bytes (`None`: no limit; the
    /// padding family is still finite, see [`search`](super::search)).
    pub max_padding_bytes: Option<u64>,
    /// Elements that must stay contiguous and aligned along a row (`None`:
    /// the widest access of the patterns): a power of two, raised to that
    /// width if smaller ([`Problem::vector_elements`] refuses any other).
    pub vector: Option<usize>,
}

impl Problem {
    /// The widest bank period of the problem's instructions, in bytes
    /// (`banks * 4` of each pattern's instruction on the chip; 128 with no
    /// pattern): rows padded by a multiple of it meet the same banks.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op, Pattern};
    /// use cktile::search::Problem;
    /// let write = Pattern::Rows { op: Op::DsWrite { bits: 128 } };
    /// let read = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
    /// assert_eq!(Problem::new(64, 64, 2, arch::GFX950).write(write).bank_period_bytes(), 128);
    /// assert_eq!(Problem::new(64, 64, 2, arch::GFX950).write(write).read(read).bank_period_bytes(), 256);
    /// ```
    pub fn bank_period_bytes(&self) -> usize {
        let period = |(_, a): &(Role, Access)| crate::analyzer::rules::rule(&self.arch, a.op()).banks as usize * 4;
        self.accesses().iter().map(period).max().unwrap_or(128)
    }

    /// A problem with no patterns and no limits yet.
    ///
    /// ```
    /// let p = cktile::search::Problem::new(64, 64, 4, cktile::analyzer::arch::SM90);
    /// assert!(p.writes.is_empty() && p.max_padding_bytes.is_none());
    /// ```
    pub fn new(rows: usize, cols: usize, element_bytes: usize, arch: Arch) -> Problem {
        Problem {
            rows,
            cols,
            element_bytes,
            arch,
            writes: Vec::new(),
            reads: Vec::new(),
            distributions: Vec::new(),
            max_padding_bytes: None,
            vector: None,
        }
    }

    /// Adds a write pattern.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op, Pattern};
    /// let p = cktile::search::Problem::new(64, 64, 2, arch::GFX942).write(Pattern::Rows { op: Op::DsWrite { bits: 64 } });
    /// assert_eq!(p.writes.len(), 1);
    /// ```
    pub fn write(mut self, pattern: Pattern) -> Problem {
        self.writes.push(pattern);
        self
    }

    /// Adds a read pattern.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Pattern};
    /// let p = cktile::search::Problem::new(64, 64, 2, arch::SM90).read(Pattern::MmaSyncA);
    /// assert_eq!(p.reads.len(), 1);
    /// ```
    pub fn read(mut self, pattern: Pattern) -> Problem {
        self.reads.push(pattern);
        self
    }

    /// Adds an access in `role`: a ready pattern (as [`Problem::write`] /
    /// [`Problem::read`]) or a tile window over a distribution.
    ///
    /// ```
    /// use cktile::analyzer::arch;
    /// use cktile::search::{Access, Problem, Role};
    /// let p = Problem::new(128, 64, 2, arch::GFX942)
    ///     .access(Role::Write, Access::parse("ds_write_b128:row")?)
    ///     .access(Role::Read, Access::parse("mfma16x16x32_a:ds_read_b128")?);
    /// assert_eq!((p.writes.len(), p.distributions.len()), (1, 1));
    /// assert_eq!(p.accesses()[1].1.name(), "mfma16x16x32_a:ds_read_b128");
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn access(mut self, role: Role, access: Access) -> Problem {
        match (role, access) {
            (Role::Write, Access::Pattern(p)) => self.writes.push(p),
            (Role::Read, Access::Pattern(p)) => self.reads.push(p),
            (role, Access::Distribution(d)) => self.distributions.push((role, *d)),
        }
        self
    }

    /// Every access with its role, in the order the search reports them:
    /// the write patterns, the write distributions, the read patterns, the
    /// read distributions.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Pattern};
    /// use cktile::search::{Access, Problem, Role};
    /// let p = Problem::new(16, 16, 2, arch::SM90).read(Pattern::MmaSyncA);
    /// assert_eq!(p.accesses(), [(Role::Read, Access::Pattern(Pattern::MmaSyncA))]);
    /// ```
    pub fn accesses(&self) -> Vec<(Role, Access)> {
        let mut out = Vec::new();
        for role in [Role::Write, Role::Read] {
            let patterns = if role == Role::Write { &self.writes } else { &self.reads };
            out.extend(patterns.iter().map(|&p| (role, Access::Pattern(p))));
            let windows = self.distributions.iter().filter(|(r, _)| *r == role);
            out.extend(windows.map(|(_, d)| (role, Access::Distribution(alloc::boxed::Box::new(d.clone())))));
        }
        out
    }

    /// Sets the padding limit in bytes.
    ///
    /// ```
    /// let p = cktile::search::Problem::new(8, 8, 4, cktile::analyzer::arch::SM80).max_padding_bytes(0);
    /// assert_eq!(p.max_padding_bytes, Some(0));
    /// ```
    pub fn max_padding_bytes(mut self, bytes: u64) -> Problem {
        self.max_padding_bytes = Some(bytes);
        self
    }

    /// Requires vectors of `elements` to stay contiguous along rows.
    ///
    /// ```
    /// let p = cktile::search::Problem::new(8, 64, 2, cktile::analyzer::arch::SM80).vector(16);
    /// assert_eq!(p.vector_elements(), Ok(16));
    /// ```
    pub fn vector(mut self, elements: usize) -> Problem {
        self.vector = Some(elements);
        self
    }

    /// Every ready pattern with its role, writes first (the distribution
    /// accesses are in [`Problem::accesses`]).
    ///
    /// ```
    /// use cktile::analyzer::{arch, Pattern};
    /// use cktile::search::{Problem, Role};
    /// let p = Problem::new(16, 16, 2, arch::SM90).read(Pattern::MmaSyncA);
    /// assert_eq!(p.patterns().collect::<Vec<_>>(), [(Role::Read, Pattern::MmaSyncA)]);
    /// ```
    pub fn patterns(&self) -> impl Iterator<Item = (Role, Pattern)> + '_ {
        let writes = self.writes.iter().map(|&p| (Role::Write, p));
        writes.chain(self.reads.iter().map(|&p| (Role::Read, p)))
    }

    /// The unit every layout of the search keeps contiguous and aligned: the
    /// widest access in elements, or [`Problem::vector`] when wider. A power
    /// of two dividing `cols`. A [`Problem::vector`] of 0 or other than a
    /// power of two is refused, even where the access is wider.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op, Pattern};
    /// let p = cktile::search::Problem::new(8, 64, 4, arch::SM90).read(Pattern::Rows { op: Op::LdShared { bits: 64 } });
    /// assert_eq!((p.vector_elements(), p.clone().vector(1).vector_elements()), (Ok(2), Ok(2)));
    /// assert_eq!(p.clone().vector(8).vector_elements(), Ok(8));
    /// let e = p.clone().vector(3).vector_elements().unwrap_err();
    /// assert_eq!(e.to_string(), "search: vector = 3; it must be a power of two (1, 2, 4, ...) of elements");
    /// let e = p.vector(0).vector_elements().unwrap_err();
    /// assert_eq!(e.to_string(), "search: vector = 0; it must be a power of two (1, 2, 4, ...) of elements");
    /// ```
    pub fn vector_elements(&self) -> Result<usize, Error> {
        if let Some(v) = self.vector.filter(|v| !v.is_power_of_two()) {
            return Err(bad("vector", v, "it must be a power of two (1, 2, 4, ...) of elements"));
        }
        let widest = self.accesses().iter().map(|(_, a)| a.op().bytes_per_lane() as usize).max().unwrap_or(1);
        let access = widest.div_ceil(self.element_bytes.max(1)).max(1);
        let unit = self.vector.map_or(access, |v| v.max(access));
        if !unit.is_power_of_two() {
            // Only the widest access can be other than a power of two here.
            return Err(bad(
                "the widest access, in elements,",
                unit,
                "the vector unit must be a power of two; give a wider vector (a power of two)",
            ));
        }
        if !self.cols.is_multiple_of(unit) {
            return Err(bad("cols", self.cols, "it must be a multiple of the vector width"));
        }
        Ok(unit)
    }

    /// Checks the problem: a tile with elements of 1, 2, 4 or 8 bytes, at
    /// least one pattern, each on an instruction the chip has, in its role,
    /// covering the tile exactly.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op, Pattern};
    /// use cktile::search::Problem;
    /// let p = Problem::new(128, 64, 2, arch::GFX942).write(Pattern::Rows { op: Op::DsRead { bits: 128 } });
    /// assert!(p.validate().unwrap_err().to_string().contains("a write instruction"));
    /// // 256 x 256 fp16 is 128 KB: more than gfx942's 64 KB of LDS, within gfx950's 160 KB.
    /// let write = Pattern::Rows { op: Op::DsWrite { bits: 128 } };
    /// let e = Problem::new(256, 256, 2, arch::GFX942).write(write).validate().unwrap_err();
    /// assert!(e.to_string().contains("131072 bytes, more than the 65536 bytes"), "{e}");
    /// assert!(Problem::new(256, 256, 2, arch::GFX950).write(write).validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        if self.rows == 0 || self.cols == 0 {
            return Err(bad(if self.rows == 0 { "rows" } else { "cols" }, 0, "it must be at least 1"));
        }
        if self.rows.checked_mul(self.cols).is_none_or(|n| n > MAX_SEARCH_TILE_ELEMENTS) {
            return Err(bad(
                "rows * cols",
                self.rows.saturating_mul(self.cols),
                "the search counts every access of the tile: at most 2^20 elements",
            ));
        }
        if !matches!(self.element_bytes, 1 | 2 | 4 | 8) {
            return Err(bad("element bytes", self.element_bytes, "it must be 1, 2, 4 or 8"));
        }
        let bytes = (self.rows * self.cols * self.element_bytes) as u64;
        self.arch.check_fits(bytes)?;
        if self.writes.is_empty() && self.reads.is_empty() && self.distributions.is_empty() {
            return Err(bad("patterns", 0, "give at least one write or read pattern"));
        }
        for (role, p) in self.accesses() {
            let op = p.op();
            if op.is_read() != (role == Role::Read) {
                let expected = match role {
                    Role::Write => "a write instruction (ds_write_*, st.shared.*, stmatrix.*) for a write pattern",
                    Role::Read => "a read instruction (ds_read_*, ld.shared.*, ldmatrix.*) for a read pattern",
                };
                return Err(Error::analyzer(AnalyzerProblem::PatternOp {
                    pattern: p.kind(),
                    given: Some(op),
                    expected,
                }));
            }
            if !op.runs_on(&self.arch) {
                return Err(Error::analyzer(AnalyzerProblem::Unsupported { op, arch: self.arch.name() }));
            }
            p.check_arch(&self.arch)?;
            p.tiled(self.rows, self.cols, self.element_bytes, self.arch.wave() as usize)?;
        }
        self.vector_elements()?;
        Ok(())
    }
}

/// A search parameter error.
pub(crate) const fn bad(parameter: &'static str, value: usize, requirement: &'static str) -> Error {
    Error::parameter(crate::ParameterProblem::invalid_usize("search", parameter, value, requirement))
}
