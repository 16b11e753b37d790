//! The three functions' bodies: the forward walk (offset and validity) and
//! the inverse walk, transform by transform, with every parameter a literal.
//!
//! The forward walk mirrors [`Descriptor::calculate_offset`]: from the top
//! stage down, each item reads its upper values and writes its lower values
//! with the transform's `calculate_lower` formula. The inverse mirrors
//! [`Descriptor::calculate_top_index`]: from the bottom stage up, each item's
//! `calculate_upper` formula. Pass-throughs (and anything that folds to an
//! existing value) emit no line.

use super::code::{Code, Value};
use crate::Descriptor;
use crate::codegen::bounds::{IndexType, row_major_strides};
use crate::descriptor::{Item, Stage};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use cktile_transforms::{MAX_DIMS, Params, kinds::embed};

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

/// Splits `x` row-major over `lengths` (merge forward, unmerge inverse):
/// `low[i] = t % L[i]`, `t /= L[i]` from the last dimension, `low[0] = t`.
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
    out[0] = code.bind(name(0), t);
    out
}

/// Combines `x` row-major over `lengths` (unmerge forward, merge inverse).
fn combine(code: &Code, x: &[Value], lengths: &[i64]) -> Value {
    let strides = row_major_strides(lengths);
    let terms: Vec<(Value, i64)> =
        x.iter().cloned().zip(strides).map(|(v, s)| (v, i64::try_from(s).unwrap_or(i64::MAX))).collect();
    code.weighted_sum(&terms)
}

/// CuTe's swizzle as `o ^ (((o >> a) & mask) << b)`.
fn swizzle_value(code: &Code, o: &Value, bits: u32, base: u32, shift: i32) -> Value {
    if bits == 0 {
        return o.clone();
    }
    let mask = (1i64 << bits) - 1;
    let field = if shift >= 0 {
        code.field(o, base + shift.unsigned_abs(), mask, base)
    } else {
        code.field(o, base, mask, base + shift.unsigned_abs())
    };
    code.xor(o, &field)
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
            let name = |j: usize| names.get(j).cloned().unwrap_or_default();
            let u = |j: usize| up.get(j).cloned().unwrap_or(Value::Lit(0));
            let low: Vec<Value> = match item.transform().params() {
                Params::PassThrough { .. } => alloc::vec![u(0)],
                Params::RightPad { len, .. } => {
                    conditions.push(in_range(&code, &u(0), 0, len));
                    alloc::vec![u(0)]
                }
                Params::Pad { len, left, .. } | Params::LeftPad { len, left } => {
                    conditions.push(in_range(&code, &u(0), left, len));
                    let v = code.add_const(&u(0), -left);
                    alloc::vec![code.bind(name(0), v)]
                }
                Params::Slice { begin: k, .. } | Params::Offset { offset: k, .. } => {
                    let v = code.add_const(&u(0), k);
                    alloc::vec![code.bind(name(0), v)]
                }
                Params::Freeze { index } => alloc::vec![Value::Lit(index)],
                Params::Insert { .. } | Params::Replicate { .. } => Vec::new(),
                Params::Modulo { modulus, .. } => {
                    let v = code.rem_const(&u(0), modulus);
                    alloc::vec![code.bind(name(0), v)]
                }
                Params::Embed { coefficients, .. } => {
                    let terms: Vec<(Value, i64)> =
                        up.iter().cloned().zip(coefficients.as_slice().iter().copied()).collect();
                    let v = code.weighted_sum(&terms);
                    alloc::vec![code.bind(name(0), v)]
                }
                Params::Unmerge { lengths } => {
                    let v = combine(&code, &up, lengths.as_slice());
                    alloc::vec![code.bind(name(0), v)]
                }
                Params::Merge { lengths } => split(&mut code, &u(0), lengths.as_slice(), &name, &format!("x{s}_t{j}_")),
                Params::Xor { l1, .. } => {
                    let r = code.rem_const(&u(0), l1);
                    let v = code.xor(&u(1), &r);
                    alloc::vec![u(0), code.bind(name(1), v)]
                }
                Params::Swizzle { bits, base, shift, .. } => {
                    let v = swizzle_value(&code, &u(0), bits, base, shift);
                    alloc::vec![code.bind(name(0), v)]
                }
            };
            scatter(&mut lower, item.lower(), low);
        }
        values = lower;
    }
    let offset = values.first().cloned().unwrap_or(Value::Lit(0));
    Forward { code, offset, conditions }
}

/// `left <= x < left + len`, CK Tile's pad validity.
fn in_range(code: &Code, x: &Value, left: i64, len: i64) -> Condition {
    let end = left.saturating_add(len);
    match x {
        Value::Lit(v) => Condition::Always(*v >= left && *v < end),
        _ => Condition::Test {
            text: format!("{0} >= {1} && {0} < {2}", code.operand(x), code.lit(left), code.lit(end)),
            deps: x.deps(),
        },
    }
}

/// Whether every transform of `desc` has an inverse (`calculate_upper` is
/// `Some` for it: the answer does not depend on the index); the first that
/// has none otherwise.
pub(crate) fn first_without_inverse(desc: &Descriptor) -> Option<Item> {
    desc.stages()
        .iter()
        .flat_map(|s| s.items().iter())
        .find(|item| item.transform().calculate_upper(&[0; MAX_DIMS]).is_none())
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
            let name = |j: usize| names.get(j).cloned().unwrap_or_default();
            let l = |j: usize| low.get(j).cloned().unwrap_or(Value::Lit(0));
            let up: Vec<Value> = match item.transform().params() {
                Params::PassThrough { .. } | Params::RightPad { .. } => alloc::vec![l(0)],
                Params::Pad { left, .. } | Params::LeftPad { left, .. } => {
                    let v = code.add_const(&l(0), left);
                    alloc::vec![code.bind(name(0), v)]
                }
                Params::Slice { begin: k, .. } | Params::Offset { offset: k, .. } => {
                    let v = code.add_const(&l(0), -k);
                    alloc::vec![code.bind(name(0), v)]
                }
                Params::Embed { lengths, coefficients } => {
                    let (ls, cs) = (lengths.to_array(), coefficients.to_array());
                    let n = lengths.len();
                    let order = embed::radix_order(&ls, &cs, n).unwrap_or([0; MAX_DIMS]);
                    let mut out = alloc::vec![Value::Lit(0); n];
                    let mut rest = l(0);
                    for (i, &d) in order[..n].iter().enumerate() {
                        let d = d as usize % MAX_DIMS;
                        if ls[d] > 1 && cs[d] > 0 {
                            let q = code.div_const(&rest, cs[d]);
                            out[d] = code.bind(name(d), q);
                            let r = code.rem_const(&rest, cs[d]);
                            rest = code.bind(format!("y{}_t{j}_{i}", s + 1), r);
                        }
                    }
                    out
                }
                Params::Merge { lengths } => {
                    let v = combine(&code, &low, lengths.as_slice());
                    alloc::vec![code.bind(name(0), v)]
                }
                Params::Unmerge { lengths } => {
                    split(&mut code, &l(0), lengths.as_slice(), &name, &format!("y{}_t{j}_", s + 1))
                }
                Params::Xor { l1, .. } => {
                    let r = code.rem_const(&l(0), l1);
                    let v = code.xor(&l(1), &r);
                    alloc::vec![l(0), code.bind(name(1), v)]
                }
                Params::Swizzle { bits, base, shift, .. } => {
                    let v = swizzle_value(&code, &l(0), bits, base, shift);
                    alloc::vec![code.bind(name(0), v)]
                }
                // A single point (every length 1): every upper index is 0.
                Params::Insert { .. } | Params::Replicate { .. } => alloc::vec![Value::Lit(0); nu],
                // No inverse: excluded by `first_without_inverse`.
                Params::Freeze { .. } | Params::Modulo { .. } => Vec::new(),
            };
            scatter(&mut upper, item.upper(), up);
        }
        values = upper;
    }
    Inverse { code, top: values }
}
