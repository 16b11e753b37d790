//! The three functions' bodies: the forward walk (offset and validity) and
//! the inverse walk, transform by transform, with every parameter a literal.
//!
//! The forward walk mirrors [`Descriptor::calculate_offset`]: from the top
//! stage down, each item's upper values go through the steps of its
//! transform's [`lowering`](cktile_transforms::Transform::lowering). The
//! inverse mirrors [`Descriptor::calculate_top_index`]: from the bottom
//! stage up, each item's
//! [`upper_lowering`](cktile_transforms::Transform::upper_lowering). Nothing
//! here knows a transform's kind: a step becomes an expression, and an
//! expression gets a line of its own when it is one of the item's results
//! or is read twice. Pass-throughs (and anything that folds to an existing
//! value) emit no line.

use super::code::{Code, Value};
use crate::Descriptor;
use crate::codegen::bounds::IndexType;
use crate::descriptor::{Item, Stage};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use cktile_transforms::kinds::functor::BitMoves;
use cktile_transforms::kinds::swizzle::Fields;
use cktile_transforms::lowering::{Lowering, Step};

/// A validity condition: a constant, or an expression over variables.
#[derive(Clone, Debug)]
pub(crate) enum Condition {
    /// Known at generation time.
    Always(bool),
    /// `text` (reads `deps`).
    Test { text: String, deps: Vec<String> },
}

/// The forward walk: the offset, and the pad-family conditions.
pub(crate) struct Forward {
    pub(crate) code: Code,
    pub(crate) offset: Value,
    pub(crate) conditions: Vec<Condition>,
}

/// The inverse walk: the top coordinate's values.
pub(crate) struct Inverse {
    pub(crate) code: Code,
    pub(crate) top: Vec<Value>,
}

/// The name of the parameter for top dimension `d`.
pub(crate) fn coordinate_name(d: usize) -> String {
    format!("c{d}")
}

/// The item's values on one side, gathered by its ids.
fn gather(values: &[Value], ids: crate::Ids) -> Vec<Value> {
    let (ids, n) = ids.to_array();
    ids[..n].iter().map(|&i| values.get(i).cloned().unwrap_or(Value::Lit(0))).collect()
}

fn scatter(into: &mut [Value], ids: crate::Ids, values: Vec<Value>) {
    let (ids, n) = ids.to_array();
    for (&i, v) in ids[..n].iter().zip(values) {
        if let Some(slot) = into.get_mut(i) {
            *slot = v;
        }
    }
}

/// Splits `x` row-major over `lengths` (a [`Step::Split`]):
/// `low[i] = t % L[i]`, `t /= L[i]` from the last dimension, `low[0] = t`;
/// component `i` is bound to `name(i)`, each intermediate quotient to
/// `{temp}{i}`.
fn split(code: &mut Code, x: &Value, lengths: &[i64], name: &dyn Fn(usize) -> String, temp: &str) -> Vec<Value> {
    let n = lengths.len();
    let mut out = alloc::vec![Value::Lit(0); n];
    let mut t = x.clone();
    for i in (1..n).rev() {
        let r = code.rem_const(&t, lengths[i]);
        out[i] = code.bind(name(i), r);
        let q = code.div_const(&t, lengths[i]);
        t = if i == 1 { q } else { code.bind(format!("{temp}{i}"), q) };
    }
    if let Some(first) = out.first_mut() {
        *first = code.bind(name(0), t);
    }
    out
}

/// CuTe's swizzle as `o ^ (((o >> a) & mask) << b)`.
fn swizzle_value(code: &Code, o: &Value, bits: u32, base: u32, shift: i32) -> Value {
    if bits == 0 {
        return o.clone();
    }
    let f = Fields::new(bits, base, shift);
    let field = code.field(o, base + f.right, (1i64 << bits) - 1, base + f.left);
    code.xor(o, &field)
}

/// A functor's map as its moves: `((o - (o & mask)) | ((o & m) << s) |
/// ...) ^ flip`, a move by a negative distance written `(o >> s) & (m >>
/// s)`. The kept high bits are `o` less its low ones (`o & ~mask` with no
/// negative literal, and no shift of a negative value).
fn permute_value(code: &Code, o: &Value, moves: &BitMoves) -> Value {
    let low = code.field(o, 0, !moves.keep, 0);
    let mut out = code.weighted_sum(&[(o.clone(), 1), (low, -1)], 0);
    for (mask, shift) in moves.moves() {
        let field = match u32::try_from(shift) {
            Ok(left) => code.field(o, 0, mask, left),
            Err(_) => code.field(o, shift.unsigned_abs(), mask >> shift.unsigned_abs(), 0),
        };
        out = code.or(&out, &field);
    }
    code.xor(&out, &Value::Lit(moves.flip))
}

/// The code of one lowering: its outputs' values from its inputs', each
/// step an expression. A step's value is bound to `names[j]` when it is
/// output `j`, to `{temp}s{slot}` when two steps read it, and stays inline
/// otherwise. The validity test, if any, comes back as a condition.
fn lowered(
    code: &mut Code,
    l: &Lowering,
    inputs: Vec<Value>,
    names: &[String],
    temp: &str,
) -> (Vec<Value>, Option<Condition>) {
    let mut vals = inputs;
    vals.resize(l.slots(), Value::Lit(0));
    let mut reads = alloc::vec![0usize; l.slots()];
    for step in l.steps() {
        let read: &[u8] = match step {
            Step::Affine { n, ins, .. } => &ins[..usize::from(*n).min(ins.len())],
            Step::Split { a, .. }
            | Step::Div { a, .. }
            | Step::Rem { a, .. }
            | Step::Swizzle { a, .. }
            | Step::Permute { a, .. } => core::slice::from_ref(a),
            Step::Xor { a, b, .. } => &[*a, *b],
        };
        for &r in read {
            if let Some(c) = reads.get_mut(usize::from(r)) {
                *c += 1;
            }
        }
    }
    let output_of = |slot: usize| l.outputs().iter().position(|&o| usize::from(o) == slot);
    let name_of = |slot: usize| match output_of(slot) {
        Some(j) => names.get(j).cloned().unwrap_or_default(),
        None => format!("{temp}s{slot}"),
    };
    let v = |vals: &[Value], slot: u8| vals.get(usize::from(slot)).cloned().unwrap_or(Value::Lit(0));
    for step in l.steps() {
        let out = usize::from(step.out());
        let value = match *step {
            Step::Affine { n, ins, coef, constant, .. } => {
                let terms: Vec<(Value, i64)> =
                    ins[..usize::from(n).min(ins.len())].iter().zip(coef).map(|(&i, c)| (v(&vals, i), c)).collect();
                code.weighted_sum(&terms, constant)
            }
            Step::Split { a, lengths, .. } => {
                let parts = split(code, &v(&vals, a), lengths.as_slice(), &|i| name_of(out + i), temp);
                for (i, p) in parts.into_iter().enumerate() {
                    if let Some(slot) = vals.get_mut(out + i) {
                        *slot = p;
                    }
                }
                continue;
            }
            Step::Div { a, by, .. } => code.div_const(&v(&vals, a), by),
            Step::Rem { a, by, .. } => code.rem_const(&v(&vals, a), by),
            Step::Xor { a, b, .. } => code.xor(&v(&vals, a), &v(&vals, b)),
            Step::Swizzle { a, bits, base, shift, .. } => swizzle_value(code, &v(&vals, a), bits, base, shift),
            Step::Permute { a, map, .. } => permute_value(code, &v(&vals, a), &map.moves()),
        };
        let value = if output_of(out).is_some() || reads.get(out).is_some_and(|&r| r > 1) {
            code.bind(name_of(out), value)
        } else {
            value
        };
        if let Some(slot) = vals.get_mut(out) {
            *slot = value;
        }
    }
    let condition = l.check().map(|c| in_range(code, &v(&vals, c.slot), c.low, c.high));
    (l.outputs().iter().map(|&o| v(&vals, o)).collect(), condition)
}

fn comment(s: usize, item: &Item) -> String {
    format!("stage {s}: {item}")
}

/// The forward walk of `desc`.
pub(crate) fn forward(desc: &Descriptor, ty: IndexType) -> Forward {
    let mut code = Code::new(ty);
    let mut values: Vec<Value> = (0..desc.num_dims()).map(|d| Value::Var(coordinate_name(d))).collect();
    let mut conditions = Vec::new();
    let stages = desc.stages();
    for s in (0..stages.len()).rev() {
        let stage: &Stage = &stages[s];
        let mut lower = alloc::vec![Value::Lit(0); stage.lower_lengths().len()];
        for (j, item) in stage.items().iter().enumerate() {
            code.group(comment(s, item));
            let up = gather(&values, item.upper());
            let (low_ids, nl) = item.lower().to_array();
            let names: Vec<String> = low_ids[..nl].iter().map(|d| format!("x{s}_{d}")).collect();
            let (low, condition) = lowered(&mut code, &item.transform().lowering(), up, &names, &format!("x{s}_t{j}_"));
            conditions.extend(condition);
            scatter(&mut lower, item.lower(), low);
        }
        values = lower;
    }
    let offset = values.first().cloned().unwrap_or(Value::Lit(0));
    Forward { code, offset, conditions }
}

/// `low <= x < high`, a lowering's validity test.
fn in_range(code: &Code, x: &Value, low: i64, high: i64) -> Condition {
    match x {
        Value::Lit(v) => Condition::Always(*v >= low && *v < high),
        _ => Condition::Test {
            text: format!("{0} >= {1} && {0} < {2}", code.operand(x), code.lit(low), code.lit(high)),
            deps: x.deps(),
        },
    }
}

/// Whether every transform of `desc` has an inverse (an
/// [`upper_lowering`](cktile_transforms::Transform::upper_lowering)); the
/// first that has none otherwise.
pub(crate) fn first_without_inverse(desc: &Descriptor) -> Option<Item> {
    desc.stages()
        .iter()
        .flat_map(|s| s.items().iter())
        .find(|item| item.transform().upper_lowering().is_none())
        .copied()
}

/// The inverse walk of `desc` (every transform must have an inverse, see
/// [`first_without_inverse`]).
pub(crate) fn inverse(desc: &Descriptor, ty: IndexType) -> Inverse {
    let mut code = Code::new(ty);
    let mut values: Vec<Value> = alloc::vec![Value::Var(String::from("offset"))];
    for (s, stage) in desc.stages().iter().enumerate() {
        let mut upper = alloc::vec![Value::Lit(0); stage.upper_lengths().len()];
        for (j, item) in stage.items().iter().enumerate() {
            code.group(comment(s, item));
            let low = gather(&values, item.lower());
            let (up_ids, nu) = item.upper().to_array();
            let names: Vec<String> = up_ids[..nu].iter().map(|d| format!("y{}_{d}", s + 1)).collect();
            let Some(lowering) = item.transform().upper_lowering() else {
                continue; // excluded by `first_without_inverse`
            };
            let (up, _) = lowered(&mut code, &lowering, low, &names, &format!("y{}_t{j}_", s + 1));
            scatter(&mut upper, item.upper(), up);
        }
        values = upper;
    }
    Inverse { code, top: values }
}
