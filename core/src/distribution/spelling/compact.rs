//! cktile's own spelling of an [`Encoding`]: every P and Y names the R or H
//! component it takes, instead of CK's parallel major and minor lists.
//!
//! ```text
//! COMPACT := 'distribution' '(' 'r' '(' INTS ')' ',' 'h' '(' [ '(' INTS ')' ( ',' '(' INTS ')' )* ] ')'
//!            ',' 'p' '(' [ '(' REFS ')' ( ',' '(' REFS ')' )* ] ')' ',' 'y' '(' REFS ')' ')'
//! INTS    := [ INT ( ',' INT )* ]
//! REFS    := [ REF ( ',' REF )* ]
//! REF     := 'r' '[' INT ']'  |  'h' X '[' INT ']'
//! ```
//!
//! `h` lists one sequence of H lengths per X dimension; `hX[i]` is entry `i`
//! of X dimension `X`'s (CK: major `X + 1`, minor `i`) and `r[i]` entry `i` of
//! the R lengths (major 0). CK's warp-GEMM A operand of the 32x32x8 MFMA,
//! `tile_distribution_encoding<sequence<>, tuple<sequence<32>, sequence<2, 4>>,
//! tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<2>, sequence<1>>`,
//! reads `distribution(r(), h((32), (2, 4)), p((h1[0], h0[0])), y(h1[1]))`:
//! the lane merges K's 2 and M's 32, and the register walks K's 4.
//!
//! Whitespace and newlines are free and `#` starts a comment, as in specs.
//! Errors carry line:column, at the entry a malformed encoding gets wrong,
//! and name it in this spelling's terms (`P0's reference 1 names h0[3], but
//! h0 has 1 entry (h0[0])`; the analysis crate's `CompactProblem`), where CK's spelling names
//! CK's lists (`Ps2RHssMinor[0][1] is 3, ...`).

use crate::distribution::encoding::Encoding;
use crate::names::write_joined;
use alloc::vec::Vec;
use core::fmt;

/// An encoding printed in cktile's spelling (see the [module](self)
/// documentation); the analysis crate's `spelling::parse_compact` reads it back.
///
/// ```
/// use cktile_core::distribution::catalogue;
/// let a = catalogue::mfma_a(32, 8)?;
/// assert_eq!(a.compact().to_string(), "distribution(r(), h((32), (2, 4)), p((h1[0], h0[0])), y(h1[1]))");
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Compact<'a>(pub &'a Encoding);

impl Encoding {
    /// This encoding in cktile's spelling (see [`Compact`]).
    ///
    /// ```
    /// let c = cktile_core::distribution::catalogue::mfma_c(16, 16)?;
    /// assert!(c.compact().to_string().starts_with("distribution(r(), h("));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn compact(&self) -> Compact<'_> {
        Compact(self)
    }
}

/// `a, b, c` of any displayable items.
fn list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: impl Iterator<Item = T>) -> fmt::Result {
    write_joined(f, items, ", ", |f, item| write!(f, "{item}"))
}

/// One reference: `r[i]` (major 0) or `hX[i]` (major X + 1).
struct Ref(i64, i64);

impl fmt::Display for Ref {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => write!(f, "r[{}]", self.1),
            major => write!(f, "h{}[{}]", major - 1, self.1),
        }
    }
}

/// `(a, b, c)`.
struct Paren<'a, T>(&'a [T]);

impl<T: fmt::Display> fmt::Display for Paren<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        list(f, self.0.iter())?;
        f.write_str(")")
    }
}

fn refs_of(major: &[i64], minor: &[i64]) -> Vec<Ref> {
    major.iter().zip(minor).map(|(&a, &i)| Ref(a, i)).collect()
}

impl fmt::Display for Compact<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.0;
        write!(f, "distribution(r{}, h(", Paren(e.rs_lengths().as_slice()))?;
        let hs: Vec<_> = (0..e.ndim_x()).map(|x| e.hs_lengths(x)).collect();
        list(f, hs.iter().map(|h| Paren(h.as_slice())))?;
        f.write_str("), p(")?;
        let ps: Vec<Vec<Ref>> = (0..e.ndim_p())
            .map(|p| {
                let (major, minor) = e.p_to_rh(p);
                refs_of(major.as_slice(), minor.as_slice())
            })
            .collect();
        list(f, ps.iter().map(|p| Paren(p)))?;
        let (major, minor) = e.y_to_rh();
        write!(f, "), y{})", Paren(&refs_of(major.as_slice(), minor.as_slice())))
    }
}
