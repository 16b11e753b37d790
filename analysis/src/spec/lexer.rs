//! Tokens of the spec language, with their positions.

use crate::error::Error;
use crate::error::Position;
use crate::error::SpecProblem;
use cktile_core::Snippet;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok<'a> {
    Ident(&'a str),
    /// An integer as written (sign included), parsed when its use is known.
    Int(&'a str),
    Open,
    Close,
    OpenBracket,
    CloseBracket,
    Comma,
    Pipe,
    Arrow,
    /// `<` (C++ mode only).
    Less,
    /// `>` (C++ mode only).
    Greater,
    /// `::` (C++ mode only).
    Scope,
    /// `{` (C++ mode only).
    OpenBrace,
    /// `}` (C++ mode only).
    CloseBrace,
    /// `;` (C++ mode only).
    Semi,
    /// `=` (C++ mode only).
    Equals,
    End,
}

impl Tok<'_> {
    /// The token as it appears in the text (empty for the end).
    pub(crate) fn text(&self) -> &str {
        match self {
            Tok::Ident(s) | Tok::Int(s) => s,
            Tok::Open => "(",
            Tok::Close => ")",
            Tok::OpenBracket => "[",
            Tok::CloseBracket => "]",
            Tok::Comma => ",",
            Tok::Pipe => "|",
            Tok::Arrow => "->",
            Tok::Less => "<",
            Tok::Greater => ">",
            Tok::Scope => "::",
            Tok::OpenBrace => "{",
            Tok::CloseBrace => "}",
            Tok::Semi => ";",
            Tok::Equals => "=",
            Tok::End => "",
        }
    }
}

/// A token and where it starts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token<'a> {
    pub(crate) tok: Tok<'a>,
    pub(crate) at: Position,
}

/// Splits a spec into tokens.
pub(crate) struct Lexer<'a> {
    text: &'a str,
    offset: usize,
    line: u32,
    column: u32,
    /// C++ mode (CK's spelling of tile distribution encodings): `< > :: { } ; =`
    /// are tokens and `//` starts a comment; `#` is not a comment.
    cpp: bool,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(text: &'a str) -> Lexer<'a> {
        Lexer { text, offset: 0, line: 1, column: 1, cpp: false }
    }

    /// A lexer for C++ text (see the `cpp` field).
    pub(crate) fn cpp(text: &'a str) -> Lexer<'a> {
        Lexer { cpp: true, ..Lexer::new(text) }
    }

    fn peek_char(&self) -> Option<char> {
        self.text[self.offset..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek_char()?;
        self.offset += c.len_utf8();
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.column = 1;
        } else {
            self.column = self.column.saturating_add(1);
        }
        Some(c)
    }

    fn here(&self) -> Position {
        Position { line: self.line, column: self.column }
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> &'a str {
        let start = self.offset;
        while self.peek_char().is_some_and(&keep) {
            self.bump();
        }
        &self.text[start..self.offset]
    }

    /// The next token, skipping whitespace and comments.
    pub(crate) fn next_token(&mut self) -> Result<Token<'a>, Error> {
        loop {
            self.take_while(char::is_whitespace);
            // `#` starts a comment in every text cktile reads; CK's C++
            // spelling also has `//` (and `#` begins only preprocessor lines there).
            let comment = self.peek_char() == Some(crate::comments::COMMENT)
                || self.cpp && self.text[self.offset..].starts_with("//");
            if comment {
                self.take_while(|c| c != '\n');
            } else {
                break;
            }
        }
        let at = self.here();
        let Some(c) = self.peek_char() else {
            return Ok(Token { tok: Tok::End, at });
        };
        if self.cpp {
            let tok = match c {
                '<' => Some(Tok::Less),
                '>' => Some(Tok::Greater),
                '{' => Some(Tok::OpenBrace),
                '}' => Some(Tok::CloseBrace),
                ';' => Some(Tok::Semi),
                '=' => Some(Tok::Equals),
                ':' if self.text[self.offset..].starts_with("::") => {
                    self.bump();
                    Some(Tok::Scope)
                }
                _ => None,
            };
            if let Some(tok) = tok {
                self.bump();
                return Ok(Token { tok, at });
            }
        }
        let tok = match c {
            '(' | ')' | '[' | ']' | ',' | '|' => {
                self.bump();
                match c {
                    '(' => Tok::Open,
                    ')' => Tok::Close,
                    '[' => Tok::OpenBracket,
                    ']' => Tok::CloseBracket,
                    ',' => Tok::Comma,
                    _ => Tok::Pipe,
                }
            }
            '-' if self.text[self.offset..].starts_with("->") => {
                self.bump();
                self.bump();
                Tok::Arrow
            }
            '-' | '0'..='9' => {
                let start = self.offset;
                self.bump();
                self.take_while(|c| c.is_ascii_digit());
                let text = &self.text[start..self.offset];
                if text == "-" {
                    return Err(syntax(at, "a number after `-`", "-"));
                }
                Tok::Int(text)
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                Tok::Ident(self.take_while(|c| c.is_ascii_alphanumeric() || c == '_'))
            }
            other => {
                let mut buf = [0u8; 4];
                let expected = if self.cpp {
                    "a name, a number or one of < > , :: ( ) { } ; ="
                } else {
                    "a name, a number or one of ( ) [ ] , | ->"
                };
                return Err(syntax(at, expected, other.encode_utf8(&mut buf)));
            }
        };
        Ok(Token { tok, at })
    }
}

/// A parser's view of its tokens: the next one, and the two checks every
/// parser of cktile's text forms makes on it (the spec and CK's C++
/// spelling of distributions).
pub(crate) trait Cursor<'a> {
    /// The next token, consumed.
    fn advance(&mut self) -> Result<Token<'a>, Error>;

    /// Consumes `want`, or fails naming what was `expected` and found.
    fn expect(&mut self, want: Tok<'static>, expected: &'static str) -> Result<Position, Error> {
        let t = self.advance()?;
        if t.tok == want { Ok(t.at) } else { Err(syntax(t.at, expected, t.tok.text())) }
    }

    /// Consumes a name, or fails naming what was `expected` and found.
    fn ident(&mut self, expected: &'static str) -> Result<(&'a str, Position), Error> {
        let t = self.advance()?;
        match t.tok {
            Tok::Ident(name) => Ok((name, t.at)),
            other => Err(syntax(t.at, expected, other.text())),
        }
    }
}

/// A syntax error at `at`.
pub(crate) fn syntax(at: Position, expected: &'static str, found: &str) -> Error {
    Error::spec(SpecProblem::Syntax { expected, found: Snippet::new(found) }).at(at)
}
