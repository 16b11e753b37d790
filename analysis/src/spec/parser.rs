//! The spec parser: reads tokens and builds the [`Descriptor`] stage by stage.

use super::lexer::{Cursor, Lexer, Tok, Token, syntax};
use crate::error::{Error, Position, SpecProblem};
use alloc::vec::Vec;
use cktile_core::{Descriptor, DescriptorProblem, ErrorKind as PortKind, Item, Snippet};
use cktile_transforms::{Arg as Value, Dims, INDEX_RANGE, Kind, Param, ParamShape, Signature, Transform, Vector};

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

const BASE_NAMES: [&str; super::BASES.len()] = cktile_core::names::names_of!(super::BASES, |r| r.name);
const BASES: &str = cktile_core::names::joined!(&BASE_NAMES);
/// The spec names of the transform kinds, in [`Kind::ALL`]'s order.
const KIND_NAMES: [&str; Kind::ALL.len()] = cktile_core::names::names_of!(Kind::ALL, |r| r.name());
const TRANSFORMS: &str = cktile_core::names::joined!(&KIND_NAMES);

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

fn arity(expected: Signature, args: &[Arg<'_>], at: Position) -> Result<(), Error> {
    if expected.takes(args.len()) {
        Ok(())
    } else {
        Err(Error::spec(SpecProblem::Arity { expected, found: args.len() }).at(at))
    }
}

/// The value of one argument, read as its parameter's shape says.
fn value(arg: &Arg<'_>, param: Param) -> Result<Value, Error> {
    Ok(match param.shape {
        ParamShape::Int { min, max, range } => Value::Int(small(arg, range, min, max)?),
        ParamShape::List => Value::List(dims(&tuple(arg)?, arg.at())?),
        ParamShape::Pair => {
            let (l0, l1) = pair(arg)?;
            Value::List(dims(&[l0, l1], arg.at())?)
        }
    })
}

/// The values of a call's arguments, by its signature.
fn values(signature: Signature, args: &[Arg<'_>], at: Position) -> Result<Vec<Value>, Error> {
    arity(signature, args, at)?;
    let params = signature.params.iter().chain(signature.optional);
    args.iter().zip(params).map(|(a, p)| value(a, *p)).collect()
}

/// Builds one transform from its kind and arguments.
fn transform(kind: Kind, args: &[Arg<'_>], at: Position) -> Result<Transform, Error> {
    let values = values(kind.signature(), args, at)?;
    Transform::from_args(kind, &values).map_err(lift(at))
}

/// A tuple argument of exactly two lengths, `(L0, L1)`.
fn pair(arg: &Arg<'_>) -> Result<(usize, usize), Error> {
    match tuple(arg)?.as_slice() {
        [l0, l1] => Ok((*l0, *l1)),
        _ => Err(syntax(arg.at(), "a pair (L0, L1)", "a tuple of another size")),
    }
}

/// Builds a base descriptor from its name and arguments.
fn base(name: &str, args: &[Arg<'_>], at: Position) -> Result<Descriptor, Error> {
    let Some(signature) = super::BASES.into_iter().find(|s| s.name == name) else {
        return unreachable_base(name, at);
    };
    let values = values(signature, args, at)?;
    let list = |i: usize| match values.get(i) {
        Some(Value::List(d)) => *d,
        _ => Dims::EMPTY,
    };
    let int = |i: usize| match values.get(i) {
        Some(Value::Int(v)) => Some(*v),
        _ => None,
    };
    // The values have their parameters' shapes (`values` read them so), and
    // an index parameter's range is [0, 2^63): the fallbacks are never taken.
    let built = match name {
        "naive" => {
            let known = |i: usize| int(i).filter(|v| *v >= 0);
            let vector = Vector { length: known(2), stride: known(3) };
            Descriptor::naive_dims(list(0), list(1), vector)
        }
        "naive_with_offset" => Descriptor::naive_with_offset_dims(list(0), list(1), int(2).unwrap_or(0)),
        "packed" => Descriptor::packed_dims(list(0), int(1)),
        _ => {
            // A 32-bit target's `usize` holds less than the index range.
            let align = int(1).unwrap_or(0);
            let Ok(align) = usize::try_from(align) else {
                return Err(lift(at)(cktile_transforms::Error::ValueTooLarge { value: align as u64 }));
            };
            Descriptor::aligned_dims(list(0), align)
        }
    };
    built.map_err(|e| Error::port(e).at(at))
}

fn unreachable_base(name: &str, at: Position) -> Result<Descriptor, Error> {
    Err(Error::parameter(cktile_core::ParameterProblem::UnknownName { name: Snippet::new(name), valid: BASES }).at(at))
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
                return Err(Error::parameter(cktile_core::ParameterProblem::UnknownName {
                    name: Snippet::new(xname),
                    valid: TRANSFORMS,
                })
                .at(xat));
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
            items.push(Item::new(t, &lower, &upper).map_err(|e| Error::port(e).at(xat))?);
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
                PortKind::Descriptor(DescriptorProblem::Transform { item, .. })
                | PortKind::Descriptor(DescriptorProblem::IdCount { item, .. })
                | PortKind::Descriptor(DescriptorProblem::IdOutOfRange { item, .. }) => Some(item),
                _ => None,
            };
            Error::port(e).at(item.and_then(|i| positions.get(i).copied()).unwrap_or(at))
        })
    }
}
