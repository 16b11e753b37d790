//! Reads cktile's own spelling of an [`Encoding`] (the port's
//! `Encoding::compact` prints it): every P and Y names the R or H component
//! it takes. The grammar is the port's (`cktile_analysis::spelling::compact`).
//!
//! Errors carry line:column, at the entry a malformed encoding gets wrong,
//! and name it in this spelling's terms ([`CompactProblem`]).

pub use crate::error::CompactProblem;
use crate::error::Error;
use crate::error::ErrorKind;
use crate::error::Position;
use crate::spec::lexer::{Cursor, Tok, syntax};
use crate::spec::parser::index;
use crate::spelling::text::{Parsed, Parser, Places, Seq, places_of, refs};
use alloc::vec::Vec;
use cktile_core::distribution::encoding::Encoding;

/// Reads cktile's spelling of an encoding (see the grammar in the
/// [module](self) documentation).
///
/// ```
/// use cktile_analysis::spelling::parse_compact;
/// use cktile_core::distribution::catalogue;
/// // CK's universal GEMM A DRAM distribution, M = 128, K = 32, 256 threads, K1 = 8.
/// let e = parse_compact("distribution(r(1), h((2, 4, 16), (4, 8)), p((h0[1]), (h0[2], h1[0])), y(h0[0], h1[1]))")?;
/// assert_eq!(e, catalogue::gemm_dram(256, 128, 32, 8)?);
/// let bad = parse_compact("distribution(r(), h((16), (4, 4)),\n  p((h1[0], h0[3])), y(h1[1]))");
/// assert_eq!(
///     bad.unwrap_err().to_string(),
///     "2:13: P0's reference 1 names h0[3], but h0 has 1 entry (h0[0])"
/// );
/// # Ok::<(), cktile_analysis::Error>(())
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
