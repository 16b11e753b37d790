//! The spec parser: reads tokens and builds the [`Descriptor`] stage by stage.

use super::lexer::{Cursor, Lexer, Tok, Token, syntax};
use crate::error::{DescriptorProblem, Error, ErrorKind, Position, Snippet, SpecProblem};
use crate::{Descriptor, Item};
use alloc::vec::Vec;
use cktile_transforms::{Dims, Kind, Transform, Vector};

/// A parsed argument: one integer or a parenthesised tuple of them.
enum Arg<'a> {
    Int(&'a str, Position),
    Tuple(Vec<(&'a str, Position)>, Position),
}

impl Arg<'_> {
    fn at(&self) -> Position {
        match self {
            Arg::Int(_, at) | Arg::Tuple(_, at) => *at,
        }
    }
}

const BASES: &str = "naive, naive_with_offset, packed, aligned";
/// The spec names of the transform kinds, in [`Kind::ALL`]'s order.
const KIND_NAMES: [&str; Kind::ALL.len()] = {
    let mut names = [""; Kind::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Kind::ALL[i].name();
        i += 1;
    }
    names
};
const TRANSFORMS: &str = crate::names::joined!(&KIND_NAMES);
const INDEX_RANGE: &str = "an integer in [0, 2^63)";

pub(crate) fn number_error(text: &str, at: Position, range: &'static str) -> Error {
    Error::spec(SpecProblem::NumberRange { number: Snippet::new(text), range }).at(at)
}

/// A non-negative integer that fits the index type.
pub(crate) fn index(text: &str, at: Position) -> Result<usize, Error> {
    match text.parse::<u64>() {
        Ok(v) if v <= i64::MAX as u64 && usize::try_from(v).is_ok() => Ok(v as usize),
        _ => Err(number_error(text, at, INDEX_RANGE)),
    }
}

fn int(arg: &Arg<'_>) -> Result<usize, Error> {
    match arg {
        Arg::Int(text, at) => index(text, *at),
        Arg::Tuple(_, at) => Err(syntax(*at, "a single number", "(")),
    }
}

fn tuple(arg: &Arg<'_>) -> Result<Vec<usize>, Error> {
    match arg {
        Arg::Int(text, at) => Ok(alloc::vec![index(text, *at)?]),
        Arg::Tuple(items, _) => items.iter().map(|(t, at)| index(t, *at)).collect(),
    }
}

fn small(arg: &Arg<'_>, range: &'static str, lo: i64, hi: i64) -> Result<i64, Error> {
    match arg {
        Arg::Int(text, at) => match text.parse::<i64>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => Err(number_error(text, *at, range)),
        },
        Arg::Tuple(_, at) => Err(syntax(*at, "a single number", "(")),
    }
}

fn lift(at: Position) -> impl Fn(cktile_transforms::Error) -> Error {
    move |source| Error::descriptor(DescriptorProblem::Transform { item: 0, source }).at(at)
}

fn dims(values: &[usize], at: Position) -> Result<Dims, Error> {
    Dims::from_usizes(values).map_err(lift(at))
}

fn arity(
    name: &'static str,
    expected: &'static str,
    args: &[Arg<'_>],
    allowed: &[usize],
    at: Position,
) -> Result<(), Error> {
    if allowed.contains(&args.len()) {
        Ok(())
    } else {
        Err(Error::spec(SpecProblem::Arity { name, expected, found: args.len() }).at(at))
    }
}

/// Builds one transform from its name and arguments.
fn transform(kind: Kind, args: &[Arg<'_>], at: Position) -> Result<Transform, Error> {
    let (expected, count) = match kind {
        Kind::PassThrough => ("1 argument: pass_through(len)", 1),
        Kind::Pad => ("3 arguments: pad(len, left, right)", 3),
        Kind::LeftPad => ("2 arguments: left_pad(len, left)", 2),
        Kind::RightPad => ("2 arguments: right_pad(len, right)", 2),
        Kind::Embed => ("2 arguments: embed((lengths), (coefficients))", 2),
        Kind::Merge => ("1 argument: merge((lower lengths))", 1),
        Kind::Unmerge => ("1 argument: unmerge((upper lengths))", 1),
        Kind::Xor => ("1 argument: xor((L0, L1))", 1),
        Kind::Slice => ("3 arguments: slice(len, begin, end)", 3),
        Kind::Freeze => ("1 argument: freeze(index)", 1),
        Kind::Insert => ("1 argument: insert(len)", 1),
        Kind::Replicate => ("1 argument: replicate((lengths))", 1),
        Kind::Offset => ("2 arguments: offset(len, off)", 2),
        Kind::Modulo => ("2 arguments: modulo(modulus, len)", 2),
        Kind::Swizzle => ("3 arguments: swizzle(B, M, S)", 3),
        Kind::CyclicShift => ("1 argument: cyclic_shift((L0, L1))", 1),
    };
    arity(kind.name(), expected, args, &[count], at)?;
    let built = match kind {
        Kind::PassThrough => Transform::pass_through(int(&args[0])?),
        Kind::Pad => Transform::pad(int(&args[0])?, int(&args[1])?, int(&args[2])?),
        Kind::LeftPad => Transform::left_pad(int(&args[0])?, int(&args[1])?),
        Kind::RightPad => Transform::right_pad(int(&args[0])?, int(&args[1])?),
        Kind::Embed => Transform::embed(&tuple(&args[0])?, &tuple(&args[1])?),
        Kind::Merge => Transform::merge(&tuple(&args[0])?),
        Kind::Unmerge => Transform::unmerge(&tuple(&args[0])?),
        Kind::Xor => {
            let (l0, l1) = pair(&args[0])?;
            Transform::xor(l0, l1)
        }
        Kind::CyclicShift => {
            let (l0, l1) = pair(&args[0])?;
            Transform::cyclic_shift(l0, l1)
        }
        Kind::Slice => Transform::slice(int(&args[0])?, int(&args[1])?, int(&args[2])?),
        Kind::Freeze => Transform::freeze(int(&args[0])?),
        Kind::Insert => Transform::insert(int(&args[0])?),
        Kind::Replicate => Transform::replicate(&tuple(&args[0])?),
        Kind::Offset => Transform::offset(int(&args[0])?, int(&args[1])?),
        Kind::Modulo => Transform::modulo(int(&args[0])?, int(&args[1])?),
        Kind::Swizzle => {
            let bits = small(&args[0], "an integer in [0, 62]", 0, 62)? as u32;
            let base = small(&args[1], "an integer in [0, 62]", 0, 62)? as u32;
            let shift = small(&args[2], "an integer in [-62, 62]", -62, 62)? as i32;
            Transform::swizzle(bits, base, shift)
        }
    };
    built.map_err(lift(at))
}

/// A tuple argument of exactly two lengths, `(L0, L1)`.
fn pair(arg: &Arg<'_>) -> Result<(usize, usize), Error> {
    match tuple(arg)?.as_slice() {
        [l0, l1] => Ok((*l0, *l1)),
        _ => Err(syntax(arg.at(), "a pair (L0, L1)", "a tuple of another size")),
    }
}

/// `naive`'s optional vector argument: `-1` (unknown) or a non-negative value.
fn guaranteed(arg: &Arg<'_>) -> Result<Option<i64>, Error> {
    let v = small(arg, "-1 (not guaranteed) or an integer in [0, 2^63)", -1, i64::MAX)?;
    Ok(if v < 0 { None } else { Some(v) })
}

/// Builds a base descriptor from its name and arguments.
fn base(name: &str, args: &[Arg<'_>], at: Position) -> Result<Descriptor, Error> {
    let built = match name {
        "naive" => {
            arity(
                "naive",
                "2 or 4 arguments: naive((lengths), (strides)[, vector length, vector stride])",
                args,
                &[2, 4],
                at,
            )?;
            let vector = if args.len() == 4 {
                Vector { length: guaranteed(&args[2])?, stride: guaranteed(&args[3])? }
            } else {
                Vector::UNKNOWN
            };
            Descriptor::naive_dims(dims(&tuple(&args[0])?, at)?, dims(&tuple(&args[1])?, at)?, vector)
        }
        "naive_with_offset" => {
            arity("naive_with_offset", "3 arguments: naive_with_offset((lengths), (strides), offset)", args, &[3], at)?;
            Descriptor::naive_with_offset(&tuple(&args[0])?, &tuple(&args[1])?, int(&args[2])?)
        }
        "packed" => {
            arity("packed", "1 or 2 arguments: packed((lengths)[, vector length])", args, &[1, 2], at)?;
            let vector = match args.get(1) {
                Some(a) => Some(int(a)? as i64),
                None => None,
            };
            Descriptor::packed_dims(dims(&tuple(&args[0])?, at)?, vector)
        }
        "aligned" => {
            arity("aligned", "2 arguments: aligned((lengths), align)", args, &[2], at)?;
            Descriptor::aligned(&tuple(&args[0])?, int(&args[1])?)
        }
        _ => unreachable_base(name, at),
    };
    built.map_err(|e| e.at(at))
}

fn unreachable_base(name: &str, at: Position) -> Result<Descriptor, Error> {
    Err(Error::spec(SpecProblem::UnknownName { name: Snippet::new(name), valid: BASES }).at(at))
}

/// A recursive-descent parser over the token stream (one token of lookahead).
pub(crate) struct Parser<'a> {
    lexer: Lexer<'a>,
    current: Token<'a>,
    started: bool,
}

impl<'a> Cursor<'a> for Parser<'a> {
    fn advance(&mut self) -> Result<Token<'a>, Error> {
        let t = self.peek()?;
        self.current = self.lexer.next_token()?;
        Ok(t)
    }
}

impl<'a> Parser<'a> {
    pub(crate) fn new(text: &'a str) -> Parser<'a> {
        Parser {
            lexer: Lexer::new(text),
            current: Token { tok: Tok::End, at: Position { line: 1, column: 1 } },
            started: false,
        }
    }

    fn peek(&mut self) -> Result<Token<'a>, Error> {
        if !self.started {
            self.current = self.lexer.next_token()?;
            self.started = true;
        }
        Ok(self.current)
    }

    /// `SPEC := STAGE ( '|' STAGE )*`
    pub(crate) fn spec(&mut self) -> Result<Descriptor, Error> {
        let (name, at) = self.ident("a base descriptor (naive, naive_with_offset, packed or aligned)")?;
        if name == "transform" {
            return Err(syntax(at, "a base descriptor before the first transform stage", name));
        }
        if !BASES.split(", ").any(|b| b == name) {
            return unreachable_base(name, at);
        }
        self.expect(Tok::Open, "`(`")?;
        let args = self.args(Tok::Close)?;
        let mut desc = base(name, &args, at)?;
        loop {
            let t = self.advance()?;
            match t.tok {
                Tok::End => return Ok(desc),
                Tok::Pipe => desc = self.transform_stage(&desc)?,
                other => return Err(syntax(t.at, "`|` or the end of the spec", other.text())),
            }
        }
    }

    /// Comma-separated arguments up to `close` (consumed).
    fn args(&mut self, close: Tok<'static>) -> Result<Vec<Arg<'a>>, Error> {
        let mut args = Vec::new();
        if self.peek()?.tok == close {
            self.advance()?;
            return Ok(args);
        }
        loop {
            let t = self.advance()?;
            args.push(match t.tok {
                Tok::Int(text) => Arg::Int(text, t.at),
                Tok::Open => {
                    let mut items = Vec::new();
                    loop {
                        let n = self.advance()?;
                        match n.tok {
                            Tok::Int(text) => items.push((text, n.at)),
                            other => return Err(syntax(n.at, "a number", other.text())),
                        }
                        let sep = self.advance()?;
                        match sep.tok {
                            Tok::Comma => {}
                            Tok::Close => break,
                            other => return Err(syntax(sep.at, "`,` or `)`", other.text())),
                        }
                    }
                    Arg::Tuple(items, t.at)
                }
                other => return Err(syntax(t.at, "a number or a tuple `(a, b, ...)`", other.text())),
            });
            let sep = self.advance()?;
            match sep.tok {
                Tok::Comma => {}
                tok if tok == close => return Ok(args),
                other => return Err(syntax(sep.at, "`,` or `)`", other.text())),
            }
        }
    }

    /// `IDS := '[' ( INT ( ',' INT )* )? ']'`
    fn ids(&mut self) -> Result<Vec<usize>, Error> {
        self.expect(Tok::OpenBracket, "`[` starting an id list")?;
        let mut ids = Vec::new();
        if self.peek()?.tok == Tok::CloseBracket {
            self.advance()?;
            return Ok(ids);
        }
        loop {
            let t = self.advance()?;
            match t.tok {
                Tok::Int(text) => ids.push(index(text, t.at)?),
                other => return Err(syntax(t.at, "a dimension id", other.text())),
            }
            let sep = self.advance()?;
            match sep.tok {
                Tok::Comma => {}
                Tok::CloseBracket => return Ok(ids),
                other => return Err(syntax(sep.at, "`,` or `]`", other.text())),
            }
        }
    }

    /// `'transform' '(' ITEM ( ',' ITEM )* ')'`, applied to `desc`.
    fn transform_stage(&mut self, desc: &Descriptor) -> Result<Descriptor, Error> {
        let (name, at) = self.ident("`transform`")?;
        if name != "transform" {
            return Err(syntax(at, "`transform` (only the first stage is a base descriptor)", name));
        }
        self.expect(Tok::Open, "`(`")?;
        let mut items = Vec::new();
        let mut positions = Vec::new();
        loop {
            let (xname, xat) = self.ident("a transform name")?;
            let Some(kind) = Kind::from_name(xname) else {
                return Err(
                    Error::spec(SpecProblem::UnknownName { name: Snippet::new(xname), valid: TRANSFORMS }).at(xat)
                );
            };
            self.expect(Tok::Open, "`(`")?;
            let args = self.args(Tok::Close)?;
            let t = transform(kind, &args, xat)?;
            let (on, on_at) = self.ident("`on`")?;
            if on != "on" {
                return Err(syntax(on_at, "`on`", on));
            }
            let lower = self.ids()?;
            self.expect(Tok::Arrow, "`->`")?;
            let upper = self.ids()?;
            items.push(Item::new(t, &lower, &upper).map_err(|e| e.at(xat))?);
            positions.push(xat);
            let sep = self.advance()?;
            match sep.tok {
                Tok::Comma => {}
                Tok::Close => break,
                other => return Err(syntax(sep.at, "`,` or `)`", other.text())),
            }
        }
        desc.transform(&items).map_err(|e| {
            let item = match *e.kind() {
                ErrorKind::Descriptor(DescriptorProblem::Transform { item, .. })
                | ErrorKind::Descriptor(DescriptorProblem::IdCount { item, .. })
                | ErrorKind::Descriptor(DescriptorProblem::IdOutOfRange { item, .. }) => Some(item),
                _ => None,
            };
            e.at(item.and_then(|i| positions.get(i).copied()).unwrap_or(at))
        })
    }
}
