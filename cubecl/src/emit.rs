//! The forward walk of a descriptor (top coordinate to offset) written into
//! a cubecl kernel as it is expanded.
//!
//! The walk reads each transform's
//! [`lowering`](cktile_transforms::Transform::lowering), the steps cktile's
//! C++ emitter, its interval analysis and its compiled `Program` read: it
//! never looks at a transform's kind, so a new transform reaches cubecl
//! kernels with nothing written here. Every step becomes the cubecl
//! operation a hand-written layout uses (`+`, `*`, `/`, `%`, `^`, `&`, `|`,
//! shifts), in the index type [`IndexType`] chose, and every value known
//! while the kernel is expanded (a literal, a product by zero, a comptime
//! coordinate) folds on the host, so the kernel holds only the arithmetic
//! that depends on runtime values.

use alloc::vec;
use alloc::vec::Vec;
use cktile_core::{Descriptor, Ids};
use cktile_transforms::kinds::{functor::BitMoves, swizzle::Fields};
use cktile_transforms::lowering::{Lowering, Step};
use cubecl::prelude::*;

/// The integer types the offsets are computed in: `u32` when every value
/// the forward walk takes is in `0..2^32`, `i32` when one may be negative
/// (a pad's, an offset's), as [`IndexType`](crate::IndexType) decides at
/// compile time. Arithmetic wraps in the type: the values that divisions,
/// remainders, shifts and comparisons read are the exact ones, since every
/// value fits the type.
pub trait Int:
    CubePrimitive
    + Scalar
    + Into<cubecl::ir::ConstantValue>
    + CubeAdd
    + CubeSub
    + CubeMul
    + CubeDiv
    + CubeRem
    + CubeBitXor
    + CubeBitAnd
    + CubeBitOr
    + CubeShl
    + CubeShr
    + CubePartialOrd
{
    /// Whether the type is signed (an unsigned index needs no `>= 0` test).
    const SIGNED: bool;

    /// A kernel `u32` in this type (a coordinate, inside the lengths,
    /// which fit the type).
    fn from_u32(scope: &Scope, v: NativeExpand<u32>) -> NativeExpand<Self>;

    /// An offset as cubecl's linear position.
    fn to_usize(scope: &Scope, v: NativeExpand<Self>) -> NativeExpand<usize> {
        <usize as Cast>::__expand_cast_from(scope, v)
    }

    /// `v` in this type (`v` fits it: [`IndexType`](crate::IndexType)
    /// checked every value and literal at compile time; wraps otherwise).
    fn wrap(v: i64) -> Self;
}

impl Int for u32 {
    const SIGNED: bool = false;

    fn from_u32(_: &Scope, v: NativeExpand<u32>) -> NativeExpand<Self> {
        v
    }

    fn wrap(v: i64) -> Self {
        v as u32
    }
}

impl Int for i32 {
    const SIGNED: bool = true;

    fn from_u32(scope: &Scope, v: NativeExpand<u32>) -> NativeExpand<Self> {
        <i32 as Cast>::__expand_cast_from(scope, v)
    }

    fn wrap(v: i64) -> Self {
        v as i32
    }
}

/// A value during expansion: known on the host, or computed by the kernel.
pub(crate) enum Val<T: CubePrimitive> {
    /// Known while expanding: folded into its readers.
    Lit(i64),
    /// A kernel value.
    Run(NativeExpand<T>),
}

impl<T: CubePrimitive> Clone for Val<T> {
    fn clone(&self) -> Self {
        match self {
            Val::Lit(v) => Val::Lit(*v),
            Val::Run(e) => Val::Run(*e),
        }
    }
}

/// The arithmetic of one expansion: each operation folds literals and
/// emits the rest into `scope`.
struct Emit<'a, T> {
    scope: &'a Scope,
    _t: core::marker::PhantomData<T>,
}

impl<T: Int> Emit<'_, T> {
    fn lit(&self, v: i64) -> NativeExpand<T> {
        NativeExpand::from_lit(self.scope, T::wrap(v))
    }

    fn get(&self, v: Val<T>) -> NativeExpand<T> {
        match v {
            Val::Lit(l) => self.lit(l),
            Val::Run(e) => e,
        }
    }

    fn add(&self, a: Val<T>, b: Val<T>) -> Val<T> {
        match (a, b) {
            (Val::Lit(x), Val::Lit(y)) => Val::Lit(x.wrapping_add(y)),
            (Val::Lit(0), v) | (v, Val::Lit(0)) => v,
            (a, b) => Val::Run(self.get(a).__expand_add_method(self.scope, self.get(b))),
        }
    }

    fn sub(&self, a: Val<T>, b: Val<T>) -> Val<T> {
        match (a, b) {
            (Val::Lit(x), Val::Lit(y)) => Val::Lit(x.wrapping_sub(y)),
            (v, Val::Lit(0)) => v,
            (a, b) => Val::Run(self.get(a).__expand_sub_method(self.scope, self.get(b))),
        }
    }

    /// `a * c` for a literal `c`.
    fn scale(&self, a: Val<T>, c: i64) -> Val<T> {
        match (a, c) {
            (_, 0) | (Val::Lit(0), _) => Val::Lit(0),
            (v, 1) => v,
            (Val::Lit(x), c) => Val::Lit(x.wrapping_mul(c)),
            (Val::Run(e), c) => Val::Run(e.__expand_mul_method(self.scope, self.lit(c))),
        }
    }

    fn div(&self, a: Val<T>, by: i64) -> Val<T> {
        match (a, by) {
            (v, 1) => v,
            (Val::Lit(x), by) => Val::Lit(cktile_transforms::kinds::div(x, by)),
            (Val::Run(e), by) => Val::Run(e.__expand_div_method(self.scope, self.lit(by))),
        }
    }

    fn rem(&self, a: Val<T>, by: i64) -> Val<T> {
        match (a, by) {
            (_, 1) => Val::Lit(0),
            (Val::Lit(x), by) => Val::Lit(cktile_transforms::kinds::rem(x, by)),
            (Val::Run(e), by) => Val::Run(e.__expand_rem_method(self.scope, self.lit(by))),
        }
    }

    fn xor(&self, a: Val<T>, b: Val<T>) -> Val<T> {
        match (a, b) {
            (Val::Lit(x), Val::Lit(y)) => Val::Lit(x ^ y),
            (Val::Lit(0), v) | (v, Val::Lit(0)) => v,
            (a, b) => Val::Run(self.get(a).__expand_bitxor_method(self.scope, self.get(b))),
        }
    }

    fn or(&self, a: Val<T>, b: Val<T>) -> Val<T> {
        match (a, b) {
            (Val::Lit(x), Val::Lit(y)) => Val::Lit(x | y),
            (Val::Lit(0), v) | (v, Val::Lit(0)) => v,
            (a, b) => Val::Run(self.get(a).__expand_bitor_method(self.scope, self.get(b))),
        }
    }

    fn and(&self, a: Val<T>, mask: i64) -> Val<T> {
        match (a, mask) {
            (_, 0) => Val::Lit(0),
            (Val::Lit(x), m) => Val::Lit(x & m),
            (Val::Run(e), m) => Val::Run(e.__expand_bitand_method(self.scope, self.lit(m))),
        }
    }

    fn shr(&self, a: Val<T>, s: u32) -> Val<T> {
        match (a, s) {
            (v, 0) => v,
            (Val::Lit(x), s) => Val::Lit(x.wrapping_shr(s)),
            (Val::Run(e), s) => Val::Run(e.__expand_shr_method(self.scope, self.lit(i64::from(s)))),
        }
    }

    fn shl(&self, a: Val<T>, s: u32) -> Val<T> {
        match (a, s) {
            (v, 0) => v,
            (Val::Lit(x), s) => Val::Lit(x.wrapping_shl(s)),
            (Val::Run(e), s) => Val::Run(e.__expand_shl_method(self.scope, self.lit(i64::from(s)))),
        }
    }

    /// `constant + sum(coef[j] * terms[j])`: positive terms first, the
    /// negative ones subtracted by their magnitude, so `u32` code holds no
    /// negative literal.
    fn affine(&self, terms: &[(Val<T>, i64)], constant: i64) -> Val<T> {
        let mut sum = Val::Lit(constant.max(0));
        for (v, c) in terms.iter().filter(|(_, c)| *c > 0) {
            sum = self.add(sum, self.scale(v.clone(), *c));
        }
        for (v, c) in terms.iter().filter(|(_, c)| *c < 0) {
            sum = self.sub(sum, self.scale(v.clone(), c.wrapping_neg()));
        }
        if constant < 0 { self.sub(sum, Val::Lit(constant.wrapping_neg())) } else { sum }
    }

    /// `((o >> right) & mask) << left`.
    fn field(&self, o: Val<T>, right: u32, mask: i64, left: u32) -> Val<T> {
        self.shl(self.and(self.shr(o, right), mask), left)
    }

    /// CuTe's swizzle, `o ^ (((o >> a) & mask) << b)`.
    fn swizzle(&self, o: Val<T>, bits: u32, base: u32, shift: i32) -> Val<T> {
        if bits == 0 {
            return o;
        }
        let f = Fields::new(bits, base, shift);
        let mask = 1i64.wrapping_shl(bits).wrapping_sub(1);
        let field = self.field(o.clone(), base.wrapping_add(f.right), mask, base.wrapping_add(f.left));
        self.xor(o, field)
    }

    /// A functor's bit permutation, `((o - (o & low)) | moved fields) ^
    /// flip`, a move by a negative distance written `(o >> s) & (m >> s)`.
    fn permute(&self, o: Val<T>, moves: &BitMoves) -> Val<T> {
        let low = self.and(o.clone(), !moves.keep);
        let mut out = self.sub(o.clone(), low);
        for (mask, shift) in moves.moves() {
            let field = match u32::try_from(shift) {
                Ok(left) => self.field(o.clone(), 0, mask, left),
                Err(_) => {
                    let right = shift.unsigned_abs();
                    self.field(o.clone(), right, mask >> right, 0)
                }
            };
            out = self.or(out, field);
        }
        self.xor(out, Val::Lit(moves.flip))
    }

    /// `low <= x < high`: the kernel condition, or its value when `x` is
    /// known while expanding.
    fn in_range(&self, x: Val<T>, low: i64, high: i64) -> Result<NativeExpand<bool>, bool> {
        match x {
            Val::Lit(v) => Err(v >= low && v < high),
            Val::Run(e) => {
                let below = self.lit(high);
                let lt = e.__expand_lt_method(self.scope, &below);
                if low <= 0 && !T::SIGNED {
                    return Ok(lt);
                }
                let above = self.lit(low);
                let ge = e.__expand_ge_method(self.scope, &above);
                Ok(ge.__expand_and_method(self.scope, lt))
            }
        }
    }

    /// One lowering's outputs from its inputs, and its validity test.
    fn lowered(&self, l: &Lowering, inputs: Vec<Val<T>>, tests: &mut Tests) -> Vec<Val<T>> {
        let mut vals = inputs;
        vals.resize(l.slots(), Val::Lit(0));
        let v = |vals: &[Val<T>], slot: u8| vals.get(usize::from(slot)).cloned().unwrap_or(Val::Lit(0));
        for step in l.steps() {
            let out = usize::from(step.out());
            let value = match *step {
                Step::Affine { n, ins, coef, constant, .. } => {
                    let n = usize::from(n).min(ins.len());
                    let terms: Vec<(Val<T>, i64)> = ins[..n].iter().zip(coef).map(|(&i, c)| (v(&vals, i), c)).collect();
                    self.affine(&terms, constant)
                }
                Step::Split { a, lengths, .. } => {
                    // Row-major: low[i] = t % L[i], t /= L[i] from the last.
                    let lengths = lengths.as_slice();
                    let mut t = v(&vals, a);
                    for i in (1..lengths.len()).rev() {
                        if let Some(slot) = vals.get_mut(out + i) {
                            *slot = self.rem(t.clone(), lengths[i]);
                        }
                        t = self.div(t, lengths[i]);
                    }
                    t
                }
                Step::Div { a, by, .. } => self.div(v(&vals, a), by),
                Step::Rem { a, by, .. } => self.rem(v(&vals, a), by),
                Step::Xor { a, b, .. } => self.xor(v(&vals, a), v(&vals, b)),
                Step::Swizzle { a, bits, base, shift, .. } => self.swizzle(v(&vals, a), bits, base, shift),
                Step::Permute { a, map, .. } => self.permute(v(&vals, a), &map.moves()),
            };
            if let Some(slot) = vals.get_mut(out) {
                *slot = value;
            }
        }
        if let Some(c) = l.check() {
            tests.add(self.in_range(v(&vals, c.slot), c.low, c.high));
        }
        l.outputs().iter().map(|&o| v(&vals, o)).collect()
    }
}

/// The validity tests of one walk: the kernel's conditions, and whether a
/// test known while expanding failed.
#[derive(Default)]
pub(crate) struct Tests {
    pub(crate) conditions: Vec<NativeExpand<bool>>,
    pub(crate) never: bool,
}

impl Tests {
    fn add(&mut self, t: Result<NativeExpand<bool>, bool>) {
        match t {
            Ok(c) => self.conditions.push(c),
            Err(true) => {}
            Err(false) => self.never = true,
        }
    }
}

/// The values of `ids` in `values`.
fn gather<T: CubePrimitive>(values: &[Val<T>], ids: Ids) -> Vec<Val<T>> {
    let (ids, n) = ids.to_array();
    ids[..n].iter().map(|&i| values.get(i).cloned().unwrap_or(Val::Lit(0))).collect()
}

/// Writes `values` at `ids` of `into`.
fn scatter<T: CubePrimitive>(into: &mut [Val<T>], ids: Ids, values: Vec<Val<T>>) {
    let (ids, n) = ids.to_array();
    for (&i, v) in ids[..n].iter().zip(values) {
        if let Some(slot) = into.get_mut(i) {
            *slot = v;
        }
    }
}

/// The offset of `top` in `desc`, emitted into `scope` in type `T`, with
/// the pad family's validity tests when `tests` is given.
pub(crate) fn offset<T: Int>(scope: &Scope, desc: &Descriptor, top: Vec<Val<T>>, tests: Option<&mut Tests>) -> Val<T> {
    let e = Emit::<T> { scope, _t: core::marker::PhantomData };
    let mut ignored = Tests::default();
    let tests = tests.unwrap_or(&mut ignored);
    let mut values = top;
    for stage in desc.stages().iter().rev() {
        let mut lower = vec![Val::Lit(0); stage.lower_lengths().len()];
        for item in stage.items() {
            let up = gather(&values, item.upper());
            let low = e.lowered(&item.transform().lowering(), up, tests);
            scatter(&mut lower, item.lower(), low);
        }
        values = lower;
    }
    values.into_iter().next().unwrap_or(Val::Lit(0))
}

/// `top[d] < lengths[d]` for each runtime coordinate (and the `>= 0` half
/// for a signed one), into `tests`.
pub(crate) fn top_in_bounds<T: Int>(scope: &Scope, desc: &Descriptor, top: &[Val<T>], tests: &mut Tests) {
    let e = Emit::<T> { scope, _t: core::marker::PhantomData };
    for (v, &len) in top.iter().zip(desc.lengths().as_slice()) {
        tests.add(e.in_range(v.clone(), 0, len));
    }
}

/// A value as a kernel value of type `T`.
pub(crate) fn value<T: Int>(scope: &Scope, v: Val<T>) -> NativeExpand<T> {
    Emit::<T> { scope, _t: core::marker::PhantomData }.get(v)
}
