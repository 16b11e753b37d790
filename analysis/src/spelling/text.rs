//! The text form of an [`Encoding`]: CK Tile's own C++ spelling, printed by
//! the port's `Display` and read by [`parse`].
//!
//! ```text
//! TEXT  := [ 'using' NAME '=' ] ( MAKE | ENC [ '{' '}' ] ) [ ';' ]
//! MAKE  := [ NS ] 'make_static_tile_distribution' '(' ENC [ '{' '}' ] ')'
//! ENC   := [ NS ] 'tile_distribution_encoding' '<' SEQ ',' TUPLE ',' TUPLE ',' TUPLE ',' SEQ ',' SEQ '>'
//! TUPLE := [ NS ] 'tuple' '<' [ SEQ ( ',' SEQ )* ] '>'
//! SEQ   := [ NS ] 'sequence' '<' [ INT ( ',' INT )* ] '>'
//! NS    := [ '::' ] 'ck_tile' '::'
//! ```
//!
//! Whitespace and newlines are free and `//` starts a comment, so an
//! encoding copied from a CK source file reads as it is once its template
//! parameters are numbers. Every error carries its line and column; a
//! malformed encoding is reported at the entry it names.

use crate::error::Error;
use crate::error::ErrorKind;
use crate::error::Position;
use crate::spec::lexer::{Cursor, Lexer, Tok, Token, syntax};
use crate::spec::parser::index;
use alloc::vec::Vec;
use cktile_core::distribution::encoding::{Encoding, EncodingEntry, EncodingProblem, List};

/// Reads CK Tile's C++ spelling of a `tile_distribution_encoding` (see the
/// grammar in the [module documentation](self)), with or without
/// `ck_tile::` prefixes, wrapped or not in `make_static_tile_distribution(...)`
/// or `using NAME = ...;`.
///
/// ```
/// use cktile_analysis::spelling::parse;
/// // CK's universal GEMM A DRAM distribution, M = 128, K = 32, 256 threads, K1 = 8.
/// let e = parse(
///     "ck_tile::tile_distribution_encoding<ck_tile::sequence<1>,
///          ck_tile::tuple<ck_tile::sequence<2, 4, 16>, ck_tile::sequence<4, 8>>,
///          ck_tile::tuple<ck_tile::sequence<1>, ck_tile::sequence<1, 2>>,
///          ck_tile::tuple<ck_tile::sequence<1>, ck_tile::sequence<2, 0>>,
///          ck_tile::sequence<1, 2>,
///          ck_tile::sequence<0, 1>>{}",
/// )?;
/// assert_eq!(e, cktile_core::distribution::catalogue::gemm_dram(256, 128, 32, 8)?);
/// let bad = parse("tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>,\n  tuple<sequence<2, 1>>, tuple<sequence<0, 3>>, sequence<2>, sequence<1>>");
/// assert_eq!(
///     bad.unwrap_err().to_string(),
///     "2:44: Ps2RHssMinor[0][1] is 3, but RH major 1 (HsLengthss[0]) has 1 entry, so its minors are 0..1"
/// );
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub fn parse(text: &str) -> Result<Encoding, Error> {
    let mut p = Parser { lexer: Lexer::cpp(text), current: None };
    let mut wrapped = false;
    if matches!(p.peek()?.tok, Tok::Ident("using")) {
        p.advance()?;
        p.ident("a name after `using`")?;
        p.expect(Tok::Equals, "`=`")?;
    }
    let (name, at) = p.name("tile_distribution_encoding or make_static_tile_distribution")?;
    let enc_at = match name {
        "make_static_tile_distribution" => {
            wrapped = true;
            p.expect(Tok::Open, "`(`")?;
            let (name, at) = p.name("tile_distribution_encoding")?;
            if name != "tile_distribution_encoding" {
                return Err(syntax(at, "tile_distribution_encoding", name));
            }
            at
        }
        "tile_distribution_encoding" => at,
        other => return Err(syntax(at, "tile_distribution_encoding or make_static_tile_distribution", other)),
    };
    let parsed = p.encoding()?;
    if p.peek()?.tok == Tok::OpenBrace {
        p.advance()?;
        p.expect(Tok::CloseBrace, "`}`")?;
    }
    if wrapped {
        p.expect(Tok::Close, "`)` closing make_static_tile_distribution")?;
    }
    if p.peek()?.tok == Tok::Semi {
        p.advance()?;
    }
    let end = p.advance()?;
    if end.tok != Tok::End {
        return Err(syntax(end.at, "the end of the encoding", end.tok.text()));
    }
    parsed.located(enc_at, |p| ErrorKind::Port(cktile_core::ErrorKind::Encoding(p)))
}

/// An encoding as read: built (or why it is malformed) and where its parts
/// were written. Syntax errors stop the reading; a malformed encoding is
/// reported after it, at the entry its error names.
pub(super) struct Parsed {
    pub(super) encoding: Result<Encoding, cktile_core::Error>,
    pub(super) places: Places,
}

impl Parsed {
    /// The encoding, or its error (of the kind `kind` makes of an encoding
    /// problem) at the entry or list it names, else at `fallback`.
    pub(super) fn located(
        self,
        fallback: Position,
        kind: impl FnOnce(EncodingProblem) -> ErrorKind,
    ) -> Result<Encoding, Error> {
        self.encoding.map_err(|e| {
            let at = self.places.of(&e).unwrap_or(fallback);
            match *e.kind() {
                cktile_core::ErrorKind::Encoding(problem) => Error::new(kind(problem)).at(at),
                _ => Error::port(e).at(at),
            }
        })
    }
}

/// Where each list and entry of a parsed encoding was written (CK's six
/// lists, in order; the compact form fills them from its own places).
#[derive(Default)]
pub(super) struct Places {
    pub(super) lists: [Option<Position>; 6],
    pub(super) rs: Vec<Position>,
    pub(super) hs: Vec<(Position, Vec<Position>)>,
    pub(super) ps_major: Vec<(Position, Vec<Position>)>,
    pub(super) ps_minor: Vec<(Position, Vec<Position>)>,
    pub(super) ys_major: Vec<Position>,
    pub(super) ys_minor: Vec<Position>,
}

impl Places {
    /// The position an encoding error points at.
    pub(super) fn of(&self, e: &cktile_core::Error) -> Option<Position> {
        let cktile_core::ErrorKind::Encoding(problem) = *e.kind() else { return None };
        let entry = |entry: EncodingEntry, minor: bool| -> Option<Position> {
            match entry {
                EncodingEntry::R(i) => self.rs.get(i as usize).copied(),
                EncodingEntry::H(x, i) => self.hs.get(x as usize)?.1.get(i as usize).copied(),
                EncodingEntry::P(p, i) => {
                    let lists = if minor { &self.ps_minor } else { &self.ps_major };
                    lists.get(p as usize)?.1.get(i as usize).copied()
                }
                EncodingEntry::Y(i) => (if minor { &self.ys_minor } else { &self.ys_major }).get(i as usize).copied(),
            }
        };
        let list = |list: List| -> Option<Position> {
            match list {
                List::Rs => self.lists[0],
                List::Xs => self.lists[1],
                List::Hs(x) => self.hs.get(x as usize).map(|h| h.0),
                List::Ps | List::Top => self.lists[2],
                List::P(p) => self.ps_major.get(p as usize).map(|h| h.0),
                List::Ys => self.lists[4],
            }
        };
        match problem {
            EncodingProblem::TooMany { list: l, .. }
            | EncodingProblem::Empty { list: l }
            | EncodingProblem::CountMismatch { list: l, .. } => list(l),
            EncodingProblem::ZeroLength { entry: e } | EncodingProblem::Unowned { entry: e, .. } => entry(e, false),
            EncodingProblem::MajorOutOfRange { entry: e, .. } => entry(e, false),
            EncodingProblem::MinorOutOfRange { entry: e, .. } => entry(e, true),
            EncodingProblem::Shared { second, .. } => entry(second, false),
            EncodingProblem::TooManyHidden { .. }
            | EncodingProblem::TooManyIndices { .. }
            | EncodingProblem::TileArity { .. }
            | EncodingProblem::TileLength { .. }
            | EncodingProblem::NoVectorY { .. }
            | EncodingProblem::VectorWidth { .. } => None,
        }
    }
}

/// A list of numbers as written (CK's `sequence<...>`, cktile's `(...)`):
/// where it starts, its values, and where each value was written.
pub(super) struct Seq {
    pub(super) at: Position,
    pub(super) values: Vec<usize>,
    pub(super) places: Vec<Position>,
}

/// A list of [`Seq`]s as written (CK's `tuple<...>`): where it starts, and
/// its sequences.
struct Tuple {
    at: Position,
    seqs: Vec<Seq>,
}

impl Tuple {
    /// Each sequence's values.
    fn values(&self) -> Vec<Vec<usize>> {
        self.seqs.iter().map(|s| s.values.clone()).collect()
    }
}

/// Where each sequence of `seqs` starts, and where each of its values was
/// written (a list's entry in [`Places`]).
pub(super) fn places_of(seqs: Vec<Seq>) -> Vec<(Position, Vec<Position>)> {
    seqs.into_iter().map(|s| (s.at, s.places)).collect()
}

pub(super) fn refs(v: &[Vec<usize>]) -> Vec<&[usize]> {
    v.iter().map(|s| s.as_slice()).collect()
}

/// The token reader of both spellings (CK's here, cktile's in
/// [`compact`](crate::spelling::compact)).
pub(super) struct Parser<'a> {
    lexer: Lexer<'a>,
    current: Option<Token<'a>>,
}

impl<'a> Cursor<'a> for Parser<'a> {
    fn advance(&mut self) -> Result<Token<'a>, Error> {
        let t = self.peek()?;
        self.current = None;
        Ok(t)
    }
}

impl<'a> Parser<'a> {
    /// A reader of text in the spec language's tokens (cktile's spelling).
    pub(super) fn spec(text: &'a str) -> Parser<'a> {
        Parser { lexer: Lexer::new(text), current: None }
    }

    pub(super) fn peek(&mut self) -> Result<Token<'a>, Error> {
        match self.current {
            Some(t) => Ok(t),
            None => {
                let t = self.lexer.next_token()?;
                self.current = Some(t);
                Ok(t)
            }
        }
    }

    /// `[ '::' ] [ 'ck_tile' '::' ] NAME`: the name and where the whole starts.
    fn name(&mut self, expected: &'static str) -> Result<(&'a str, Position), Error> {
        let first = self.peek()?.at;
        if self.peek()?.tok == Tok::Scope {
            self.advance()?;
        }
        let (mut name, _) = self.ident(expected)?;
        if name == "ck_tile" {
            self.expect(Tok::Scope, "`::` after ck_tile")?;
            name = self.ident(expected)?.0;
        }
        Ok((name, first))
    }

    /// A name that must be `want`.
    pub(super) fn keyword(&mut self, want: &'static str) -> Result<Position, Error> {
        let (name, at) = self.name(want)?;
        if name == want { Ok(at) } else { Err(syntax(at, want, name)) }
    }

    /// `SEQ`.
    fn seq(&mut self) -> Result<Seq, Error> {
        let at = self.keyword("sequence")?;
        self.expect(Tok::Less, "`<` after sequence")?;
        let (mut values, mut places) = (Vec::new(), Vec::new());
        if self.peek()?.tok == Tok::Greater {
            self.advance()?;
            return Ok(Seq { at, values, places });
        }
        loop {
            let t = self.advance()?;
            match t.tok {
                Tok::Int(text) => {
                    values.push(index(text, t.at)?);
                    places.push(t.at);
                }
                other => return Err(syntax(t.at, "a number", other.text())),
            }
            let sep = self.advance()?;
            match sep.tok {
                Tok::Comma => {}
                Tok::Greater => return Ok(Seq { at, values, places }),
                other => return Err(syntax(sep.at, "`,` or `>`", other.text())),
            }
        }
    }

    /// `TUPLE`.
    fn tuple(&mut self) -> Result<Tuple, Error> {
        let at = self.keyword("tuple")?;
        self.expect(Tok::Less, "`<` after tuple")?;
        let mut seqs = Vec::new();
        if self.peek()?.tok == Tok::Greater {
            self.advance()?;
            return Ok(Tuple { at, seqs });
        }
        loop {
            seqs.push(self.seq()?);
            let sep = self.advance()?;
            match sep.tok {
                Tok::Comma => {}
                Tok::Greater => return Ok(Tuple { at, seqs }),
                other => return Err(syntax(sep.at, "`,` or `>`", other.text())),
            }
        }
    }

    fn comma(&mut self) -> Result<(), Error> {
        self.expect(Tok::Comma, "`,` between tile_distribution_encoding's six arguments").map(|_| ())
    }

    /// `'<' SEQ ',' TUPLE ',' TUPLE ',' TUPLE ',' SEQ ',' SEQ '>'`: the
    /// encoding (or why it is malformed) and where its parts were written.
    fn encoding(&mut self) -> Result<Parsed, Error> {
        self.expect(Tok::Less, "`<` after tile_distribution_encoding")?;
        let rs = self.seq()?;
        self.comma()?;
        let hs = self.tuple()?;
        self.comma()?;
        let pmaj = self.tuple()?;
        self.comma()?;
        let pmin = self.tuple()?;
        self.comma()?;
        let ymaj = self.seq()?;
        self.comma()?;
        let ymin = self.seq()?;
        self.expect(Tok::Greater, "`>` closing tile_distribution_encoding (it takes six arguments)")?;
        let (h, pa, pi) = (hs.values(), pmaj.values(), pmin.values());
        let encoding = Encoding::new(&rs.values, &refs(&h), &refs(&pa), &refs(&pi), &ymaj.values, &ymin.values);
        let places = Places {
            lists: [Some(rs.at), Some(hs.at), Some(pmaj.at), Some(pmin.at), Some(ymaj.at), Some(ymin.at)],
            rs: rs.places,
            hs: places_of(hs.seqs),
            ps_major: places_of(pmaj.seqs),
            ps_minor: places_of(pmin.seqs),
            ys_major: ymaj.places,
            ys_minor: ymin.places,
        };
        Ok(Parsed { encoding, places })
    }
}
