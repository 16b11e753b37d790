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
//! h0 has 1 entry (h0[0])`; [`CompactProblem`]), where CK's spelling names
//! CK's lists (`Ps2RHssMinor[0][1] is 3, ...`).

use crate::distribution::encoding::Encoding;
use crate::distribution::spelling::text::{Parsed, Parser, Places, Seq, places_of, refs};
pub use crate::error::CompactProblem;
use crate::error::{Error, ErrorKind, Position};
use crate::names::write_joined;
use crate::spec::lexer::{Cursor, Tok, syntax};
use crate::spec::parser::index;
use alloc::vec::Vec;
use core::fmt;

/// An encoding printed in cktile's spelling (see the [module](self)
/// documentation); [`parse_compact`] reads it back.
///
/// ```
/// use cktile_core::distribution::{catalogue, parse_compact};
/// let a = catalogue::mfma_a(32, 8)?;
/// assert_eq!(a.compact().to_string(), "distribution(r(), h((32), (2, 4)), p((h1[0], h0[0])), y(h1[1]))");
/// assert_eq!(parse_compact(&a.compact().to_string())?, a);
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

/// Reads cktile's spelling of an encoding (see the grammar in the
/// [module](self) documentation).
///
/// ```
/// use cktile_core::distribution::{catalogue, parse_compact};
/// // CK's universal GEMM A DRAM distribution, M = 128, K = 32, 256 threads, K1 = 8.
/// let e = parse_compact("distribution(r(1), h((2, 4, 16), (4, 8)), p((h0[1]), (h0[2], h1[0])), y(h0[0], h1[1]))")?;
/// assert_eq!(e, catalogue::gemm_dram(256, 128, 32, 8)?);
/// let bad = parse_compact("distribution(r(), h((16), (4, 4)),\n  p((h1[0], h0[3])), y(h1[1]))");
/// assert_eq!(
///     bad.unwrap_err().to_string(),
///     "2:13: P0's reference 1 names h0[3], but h0 has 1 entry (h0[0])"
/// );
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn parse_compact(text: &str) -> Result<Encoding, Error> {
    let mut p = Parser::spec(text);
    let start = p.keyword("distribution")?;
    p.expect(Tok::Open, "`(` after distribution")?;
    let rs_at = p.keyword("r")?;
    let rs = p.ints()?;
    p.expect(Tok::Comma, "`,` after r(...)")?;
    let hs_at = p.keyword("h")?;
    let hs = p.group(Parser::ints)?;
    p.expect(Tok::Comma, "`,` after h(...)")?;
    let ps_at = p.keyword("p")?;
    let ps = p.group(|p| Ok((p.peek()?.at, p.refs()?)))?;
    p.expect(Tok::Comma, "`,` after p(...)")?;
    let ys_at = p.keyword("y")?;
    let ys = p.refs()?;
    p.expect(Tok::Close, "`)` closing distribution (it takes r, h, p and y)")?;
    let end = p.advance()?;
    if end.tok != Tok::End {
        return Err(syntax(end.at, "the end of the distribution", end.tok.text()));
    }
    let h: Vec<Vec<usize>> = hs.iter().map(|seq| seq.values.clone()).collect();
    let (pa, pi): (Vec<Vec<usize>>, Vec<Vec<usize>>) = ps.iter().map(|(_, r)| Reference::split(r)).unzip();
    let (ya, yi) = Reference::split(&ys);
    let encoding = Encoding::new(&rs.values, &refs(&h), &refs(&pa), &refs(&pi), &ya, &yi);
    let p_places: Vec<(Position, Vec<Position>)> = ps.iter().map(|(at, r)| (*at, Reference::places(r))).collect();
    let places = Places {
        lists: [Some(rs_at), Some(hs_at), Some(ps_at), Some(ps_at), Some(ys_at), Some(ys_at)],
        rs: rs.places,
        hs: places_of(hs),
        ps_major: p_places.clone(),
        ps_minor: p_places,
        ys_major: Reference::places(&ys),
        ys_minor: Reference::places(&ys),
    };
    Parsed { encoding, places }.located(start, ErrorKind::CompactEncoding)
}

/// A P or Y reference as written, `r[i]` or `hX[i]`: its R/H major (0 for
/// `r`, `X + 1` for `hX`), its minor `i`, and where it starts.
struct Reference {
    major: usize,
    minor: usize,
    at: Position,
}

impl Reference {
    /// The majors and the minors of `refs` (CK's `Ps2RHssMajor` and
    /// `Ps2RHssMinor` entries of one P, or the Ys').
    fn split(refs: &[Reference]) -> (Vec<usize>, Vec<usize>) {
        refs.iter().map(|r| (r.major, r.minor)).unzip()
    }

    /// Where each of `refs` was written.
    fn places(refs: &[Reference]) -> Vec<Position> {
        refs.iter().map(|r| r.at).collect()
    }
}

impl<'a> Parser<'a> {
    /// `'(' [ INT ( ',' INT )* ] ')'`: the values, where the list starts
    /// and where each value was written.
    fn ints(&mut self) -> Result<Seq, Error> {
        let mut out = Seq { at: self.peek()?.at, values: Vec::new(), places: Vec::new() };
        self.items(|p| {
            let t = p.advance()?;
            match t.tok {
                Tok::Int(text) => {
                    out.values.push(index(text, t.at)?);
                    out.places.push(t.at);
                    Ok(())
                }
                other => Err(syntax(t.at, "a number", other.text())),
            }
        })?;
        Ok(out)
    }

    /// `'(' [ REF ( ',' REF )* ] ')'`: each reference as written.
    fn refs(&mut self) -> Result<Vec<Reference>, Error> {
        let mut out = Vec::new();
        self.items(|p| {
            let (name, at) = p.ident("r[i] or hX[i]")?;
            // `r` is major 0; `hX` is major X + 1.
            let x_dim = name.strip_prefix('h').filter(|x| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit()));
            let major = match x_dim {
                _ if name == "r" => 0,
                Some(x) => index(x, at)?.checked_add(1).ok_or_else(|| syntax(at, "r[i] or hX[i]", name))?,
                None => return Err(syntax(at, "r[i] or hX[i] (X: an X dimension)", name)),
            };
            p.expect(Tok::OpenBracket, "`[`")?;
            let t = p.advance()?;
            let minor = match t.tok {
                Tok::Int(text) => index(text, t.at)?,
                other => return Err(syntax(t.at, "an entry number", other.text())),
            };
            p.expect(Tok::CloseBracket, "`]`")?;
            out.push(Reference { major, minor, at });
            Ok(())
        })?;
        Ok(out)
    }

    /// `'(' [ ITEM ( ',' ITEM )* ] ')'` with each ITEM read by `item`.
    fn group<T>(&mut self, mut item: impl FnMut(&mut Self) -> Result<T, Error>) -> Result<Vec<T>, Error> {
        let mut out = Vec::new();
        self.items(|p| {
            out.push(item(p)?);
            Ok(())
        })?;
        Ok(out)
    }

    /// `'(' [ ITEM ( ',' ITEM )* ] ')'`, calling `item` for each.
    fn items(&mut self, mut item: impl FnMut(&mut Self) -> Result<(), Error>) -> Result<(), Error> {
        self.expect(Tok::Open, "`(`")?;
        if self.peek()?.tok == Tok::Close {
            self.advance()?;
            return Ok(());
        }
        loop {
            item(self)?;
            let sep = self.advance()?;
            match sep.tok {
                Tok::Comma => {}
                Tok::Close => return Ok(()),
                other => return Err(syntax(sep.at, "`,` or `)`", other.text())),
            }
        }
    }
}
