//! Straight-line integer code: values (literals, variables, expressions),
//! constant folding of the trivial cases, named lines grouped under a
//! comment per transform, and pruning of lines no result needs.
//!
//! Folding follows the transforms' Rust semantics exactly (truncating
//! division and remainder, as C++); it only folds when the result cannot
//! overflow, so a folded literal equals what the Rust descriptor computes.

use super::bounds::IndexType;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// A value of the generated code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    /// A constant.
    Lit(i64),
    /// A named variable (a parameter or a bound line).
    Var(String),
    /// An expression not yet bound to a name, with the variables it reads.
    Expr { text: String, deps: Vec<String> },
}

impl Value {
    /// The variables the value reads.
    pub(crate) fn deps(&self) -> Vec<String> {
        match self {
            Value::Lit(_) => Vec::new(),
            Value::Var(v) => alloc::vec![v.clone()],
            Value::Expr { deps, .. } => deps.clone(),
        }
    }

    pub(crate) fn is_zero(&self) -> bool {
        matches!(self, Value::Lit(0))
    }
}

/// One `const T name = text;` line.
#[derive(Clone, Debug)]
struct Line {
    name: String,
    text: String,
    deps: Vec<String>,
}

/// The lines of one transform, under its comment.
#[derive(Clone, Debug)]
struct Group {
    comment: String,
    lines: Vec<Line>,
}

/// A function body under construction.
#[derive(Clone, Debug)]
pub(crate) struct Code {
    ty: IndexType,
    groups: Vec<Group>,
}

impl Code {
    pub(crate) fn new(ty: IndexType) -> Code {
        Code { ty, groups: Vec::new() }
    }

    /// Starts the lines of a new transform.
    pub(crate) fn group(&mut self, comment: String) {
        self.groups.push(Group { comment, lines: Vec::new() });
    }

    /// A literal in the code's type: plain decimal, `LL` beyond 32 bits,
    /// parenthesised when negative.
    pub(crate) fn lit(&self, v: i64) -> String {
        let digits =
            if i32::try_from(v).is_ok() || self.ty == IndexType::I32 { v.to_string() } else { format!("{v}LL") };
        if v < 0 { format!("({digits})") } else { digits }
    }

    /// The value as an operand: a literal, a name, or a parenthesised expression.
    pub(crate) fn operand(&self, v: &Value) -> String {
        match v {
            Value::Lit(k) => self.lit(*k),
            Value::Var(name) => name.clone(),
            Value::Expr { text, .. } => format!("({text})"),
        }
    }

    /// The value as a whole expression (no outer parentheses).
    pub(crate) fn expression(&self, v: &Value) -> String {
        match v {
            Value::Expr { text, .. } => text.clone(),
            other => self.operand(other),
        }
    }

    /// Binds an expression to `name` (a literal or a variable stays as it is,
    /// so no copy is emitted).
    pub(crate) fn bind(&mut self, name: String, v: Value) -> Value {
        match v {
            Value::Expr { text, deps } => {
                let line = Line { name: name.clone(), text, deps };
                match self.groups.last_mut() {
                    Some(g) => g.lines.push(line),
                    None => self.groups.push(Group { comment: String::new(), lines: alloc::vec![line] }),
                }
                Value::Var(name)
            }
            other => other,
        }
    }

    fn binary(&self, a: &Value, op: &str, b: &Value) -> Value {
        let mut deps = a.deps();
        deps.extend(b.deps());
        Value::Expr { text: format!("{} {op} {}", self.operand(a), self.operand(b)), deps }
    }

    /// `x + k`.
    pub(crate) fn add_const(&self, x: &Value, k: i64) -> Value {
        match x {
            Value::Lit(a) => match a.checked_add(k) {
                Some(s) => Value::Lit(s),
                None => self.binary(x, "+", &Value::Lit(k)),
            },
            _ if k == 0 => x.clone(),
            _ if k < 0 && k != i64::MIN => self.binary(x, "-", &Value::Lit(-k)),
            _ => self.binary(x, "+", &Value::Lit(k)),
        }
    }

    /// `x / k` for `k > 0` (truncating).
    pub(crate) fn div_const(&self, x: &Value, k: i64) -> Value {
        match x {
            _ if k == 1 => x.clone(),
            Value::Lit(a) => Value::Lit(a / k),
            _ => self.binary(x, "/", &Value::Lit(k)),
        }
    }

    /// `x % k` for `k > 0` (truncating, the sign of `x`).
    pub(crate) fn rem_const(&self, x: &Value, k: i64) -> Value {
        match x {
            _ if k == 1 => Value::Lit(0),
            Value::Lit(a) => Value::Lit(a % k),
            _ => self.binary(x, "%", &Value::Lit(k)),
        }
    }

    /// `x ^ y`.
    pub(crate) fn xor(&self, x: &Value, y: &Value) -> Value {
        match (x, y) {
            (Value::Lit(a), Value::Lit(b)) => Value::Lit(a ^ b),
            (v, z) | (z, v) if z.is_zero() => v.clone(),
            _ => self.binary(x, "^", y),
        }
    }

    /// `x | y`.
    pub(crate) fn or(&self, x: &Value, y: &Value) -> Value {
        match (x, y) {
            (Value::Lit(a), Value::Lit(b)) => Value::Lit(a | b),
            (v, z) | (z, v) if z.is_zero() => v.clone(),
            _ => self.binary(x, "|", y),
        }
    }

    /// `((x >> right) & mask) << left`: a bit field moved (the swizzle's term).
    pub(crate) fn field(&self, x: &Value, right: u32, mask: i64, left: u32) -> Value {
        if let Value::Lit(a) = x {
            return Value::Lit(((a >> right) & mask) << left);
        }
        let shifted = if right == 0 { self.operand(x) } else { format!("({} >> {right})", self.operand(x)) };
        let masked = format!("({shifted} & {})", self.lit(mask));
        let text = if left == 0 { masked } else { format!("{masked} << {left}") };
        Value::Expr { text, deps: x.deps() }
    }

    /// `constant + sum(x[i] * k[i])` (terms with `k == 0` dropped, constant
    /// parts folded, a negative coefficient written as a subtraction of its
    /// magnitude: `a - b`, `a - b * 2`).
    pub(crate) fn weighted_sum(&self, terms: &[(Value, i64)], constant: i64) -> Value {
        let mut constant = constant;
        // (subtracted, text) per term.
        let mut parts: Vec<(bool, String)> = Vec::new();
        let mut deps = Vec::new();
        let mut single: Option<Value> = None;
        for (x, k) in terms {
            if *k == 0 {
                continue;
            }
            if let Value::Lit(a) = x
                && let Some(c) = a.checked_mul(*k).and_then(|p| constant.checked_add(p))
            {
                constant = c;
                continue;
            }
            deps.extend(x.deps());
            single = if parts.is_empty() && *k == 1 { Some(x.clone()) } else { None };
            let (minus, k) = if *k < 0 && *k != i64::MIN { (true, -*k) } else { (false, *k) };
            let term = if k == 1 { self.operand(x) } else { format!("{} * {}", self.operand(x), self.lit(k)) };
            parts.push((minus, term));
        }
        if parts.is_empty() {
            return Value::Lit(constant);
        }
        if parts.len() == 1
            && let Some(v) = single
        {
            return self.add_const(&v, constant);
        }
        let mut text = String::new();
        for (i, (minus, term)) in parts.iter().enumerate() {
            let sign = match (i, minus) {
                (0, false) => "",
                (0, true) => "-",
                (_, false) => " + ",
                (_, true) => " - ",
            };
            text.push_str(sign);
            text.push_str(term);
        }
        if constant > 0 {
            text = format!("{text} + {}", self.lit(constant));
        } else if constant < 0 {
            text = format!("{text} - {}", self.lit(constant.saturating_neg()));
        }
        Value::Expr { text, deps }
    }

    /// The body's lines needed by `roots` (and what they read), with the
    /// comment of every transform that keeps a line, indented by `indent`.
    pub(crate) fn render(&self, roots: &[String], indent: &str) -> (String, BTreeSet<String>) {
        let mut needed: BTreeSet<String> = roots.iter().cloned().collect();
        let mut keep: Vec<Vec<bool>> = self.groups.iter().map(|g| alloc::vec![false; g.lines.len()]).collect();
        for (gi, g) in self.groups.iter().enumerate().rev() {
            for (li, line) in g.lines.iter().enumerate().rev() {
                if needed.contains(&line.name) {
                    keep[gi][li] = true;
                    needed.extend(line.deps.iter().cloned());
                }
            }
        }
        let mut out = String::new();
        for (g, kept) in self.groups.iter().zip(&keep) {
            if !kept.iter().any(|&k| k) {
                continue;
            }
            if !g.comment.is_empty() {
                out.push_str(&format!("{indent}// {}\n", g.comment));
            }
            for (line, _) in g.lines.iter().zip(kept).filter(|(_, k)| **k) {
                out.push_str(&format!("{indent}const {} {} = {};\n", self.ty.c_name(), line.name, line.text));
            }
        }
        (out, needed)
    }
}
