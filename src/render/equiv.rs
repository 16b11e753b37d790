//! `cktile equiv`'s text: the verdict, how it was reached, and for a
//! difference the commands that show each side at that coordinate.

use crate::Index;
use crate::Visible;
use crate::check::equiv::{Equivalence, Proof};
use crate::lanes::equiv::DistributionEquivalence;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// `text` as one shell word: single-quoted, any `'` closed and escaped,
/// control characters spelled out ([`Visible`]).
fn shell_word(text: &str) -> String {
    format!("'{}'", Visible(text).to_string().replace('\'', r"'\''"))
}

/// A coordinate as `(1, 2)` and as `1,2` for `--at`.
fn tuple(c: &[Index]) -> (String, String) {
    let parts: Vec<String> = c.iter().map(|v| v.to_string()).collect();
    (format!("({})", parts.join(", ")), parts.join(","))
}

fn answer(a: Option<Index>) -> String {
    a.map_or_else(|| "padding (invalid)".into(), |o| format!("offset {o}"))
}

/// The verdict on two layouts written as `a` and `b`.
///
/// ```
/// use cktile::{check::equiv::equivalent, layouts::resolve, render::equiv::layouts};
/// let (a, b) = ("packed((4,8))", "naive((4,8),(1,4))");
/// let text = layouts(a, b, &equivalent(&resolve(a)?, &resolve(b)?));
/// assert!(text.starts_with("different maps: at (1, 0), A gives offset 8 and B offset 1"));
/// assert!(text.contains("cktile offsets 'naive((4,8),(1,4))' --at 1,0"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn layouts(a: &str, b: &str, v: &Equivalence) -> String {
    match v {
        Equivalence::Same(Proof::Exhaustion { coordinates }) => format!(
            "the same map: all {coordinates} coordinates have the same validity and offset (compared one by one)\n"
        ),
        Equivalence::Same(Proof::Linear { bits, probes }) => format!(
            "the same map, proved by linearity over GF(2): both chains are linear on the coordinate bits \
             (every transform, every length a power of two),\n\
             so each offset is the XOR of the offsets of the coordinate's bits; the two agree at the origin \
             and at all {bits} single-bit coordinates\n\
             ({probes} coordinates compared), so at all {} coordinates\n",
            1u128 << bits.min(&127)
        ),
        Equivalence::Lengths { a: la, b: lb } => {
            format!("different maps: the lengths differ, {la:?} against {lb:?}\n")
        }
        Equivalence::Differ { coordinate, a: x, b: y, compared } => {
            let (shown, at) = tuple(coordinate);
            format!(
                "different maps: at {shown}, A gives {} and B {} (found after {compared} comparisons)\n\
                 see each: cktile offsets {} --at {at}\n          cktile offsets {} --at {at}\n",
                answer(*x),
                answer(*y),
                shell_word(a),
                shell_word(b)
            )
        }
        Equivalence::Undecided { size, limit, a_not_linear, b_not_linear, compared } => {
            let mut s = format!(
                "undecided: {size} coordinates, more than the {limit} compared one by one, and not both linear \
                 over GF(2); {compared} probes (the origin, single bits, last indices) found no difference\n"
            );
            for (name, why) in [("A", a_not_linear), ("B", b_not_linear)] {
                if let Some(why) = why {
                    s.push_str(&format!("  {name} is not linear: {why}\n"));
                }
            }
            s.push_str("  compare slices of them (a slice transform on each) to decide\n");
            s
        }
    }
}

/// The verdict on two distributions.
///
/// ```
/// use cktile::lanes::equiv::equivalent;
/// use cktile::spelling::resolve;
/// use cktile::distribution::Distribution;
/// let d = |t: &str| resolve(t).and_then(|e| Ok(Distribution::new(e)?));
/// let v = equivalent(&d("mfma16x16x16_c")?, &d("mfma16x16x16_c_transposed")?)?;
/// assert!(cktile::render::equiv::distributions(&v).starts_with("different maps: thread P = (0), register Y = (0, 1)"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn distributions(v: &DistributionEquivalence) -> String {
    match v {
        DistributionEquivalence::Same { indices } => {
            format!("the same map: all {indices} (P, Y) indices own the same X coordinate (compared one by one)\n")
        }
        DistributionEquivalence::SameRegisters { indices, y_a, y_b } => format!(
            "the same map: all {indices} (P, D) indices, each thread and register of the thread buffer D, own the \
             same X coordinate (compared one by one; the Y lengths {} and {} differ, the thread buffers do not)\n",
            tuple(y_a).0,
            tuple(y_b).0
        ),
        DistributionEquivalence::Lengths { what, a, b } => {
            format!("different maps: the {what} lengths differ, {a:?} against {b:?}\n")
        }
        DistributionEquivalence::DifferRegister { p, d, a, b, compared } => format!(
            "different maps: thread P = {}, register D = {d}: A gives X = {} and B X = {} (found after {compared} \
             indices; the Y lengths differ, so threads and registers are compared)\n",
            tuple(p).0,
            tuple(a).0,
            tuple(b).0
        ),
        DistributionEquivalence::Differ { p, y, a, b, compared } => format!(
            "different maps: thread P = {}, register Y = {}: A gives X = {} and B X = {} \
             (found after {compared} indices)\n",
            tuple(p).0,
            tuple(y).0,
            tuple(a).0,
            tuple(b).0
        ),
    }
}
