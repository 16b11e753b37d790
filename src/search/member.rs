//! One member of a search family as a typed value: the catalogue entry it
//! is and that entry's parameters. A member builds its descriptor with the
//! catalogue's own builder (the function the entry's text resolves to), and
//! prints (`Display`) as that entry's text, which
//! [`layouts::resolve`](crate::layouts::resolve) and the command line build
//! into the same layout; the keys and words it prints are the registry's.

use super::problem::Problem;
use crate::Descriptor;
use crate::Error;
use crate::layouts::ck::{self, UnmergeOrder};
use crate::layouts::registry::write::{Masks, word, write_entry};
use crate::layouts::registry::{self, FORM_WORDS, ORDER_WORDS};
use crate::layouts::{Entry, cute, padding, triton, xor_linear};
use alloc::vec::Vec;
use core::fmt;

/// A layout the search evaluates: a catalogue entry with its parameters,
/// for the problem's tile and element size.
///
/// It prints as the entry's text (`name:key=value,...`, the problem's
/// element size as its `dtype`), and [`descriptor`](Member::descriptor)
/// builds the same layout as that text does, errors included.
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::search::{Problem, search};
/// let p = Problem::new(16, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
/// let r = search(&p)?;
/// let best = &r.best().member;
/// assert_eq!(best.to_string(), r.best().entry);
/// assert_eq!(best.descriptor()?, cktile::layouts::resolve(&best.to_string())?);
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Member {
    rows: usize,
    cols: usize,
    element_bytes: usize,
    shape: Shape,
}

/// The entry and its own parameters (the tile's extents and element size
/// are the member's).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Shape {
    /// `row-padded`: rows padded by `pad` elements.
    RowPadded { pad: usize },
    /// `ck-universal-a` with CK's default KPack and the 2025 form.
    CkUniversalA { banks: u32 },
    /// `ck-xor-lds`.
    CkXorLds { kpack: usize, mlds: usize, form: UnmergeOrder },
    /// `ck-xor-preshuffle`.
    CkXorPreshuffle { kpack: usize },
    /// `cute-swizzle`, row-major: `Swizzle<b, mbase, s>` on element indices.
    CuteSwizzle { b: u32, mbase: u32, s: i32 },
    /// `triton-swizzled` with order `[1, 0]`.
    TritonSwizzled { vec: usize, per_phase: usize, max_phase: usize },
    /// `xor-linear`: the masks of row bits 0, 1, ... (trailing zero masks left out).
    XorLinear { vec: usize, masks: Vec<usize> },
}

impl Member {
    /// `shape` on `problem`'s tile, with its element size.
    pub(crate) fn new(problem: &Problem, shape: Shape) -> Member {
        Member { rows: problem.rows, cols: problem.cols, element_bytes: problem.element_bytes, shape }
    }

    /// The catalogue entry it is.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Pattern};
    /// use cktile::search::{Problem, search};
    /// let p = Problem::new(16, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
    /// let r = search(&p)?;
    /// assert_eq!(r.naive.member.entry().name, "row-padded");
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn entry(&self) -> &'static Entry {
        match self.shape {
            Shape::RowPadded { .. } => registry::ROW_PADDED,
            Shape::CkUniversalA { .. } => registry::CK_UNIVERSAL_A,
            Shape::CkXorLds { .. } => registry::CK_XOR_LDS,
            Shape::CkXorPreshuffle { .. } => registry::CK_XOR_PRESHUFFLE,
            Shape::CuteSwizzle { .. } => registry::CUTE_SWIZZLE,
            Shape::TritonSwizzled { .. } => registry::TRITON_SWIZZLED,
            Shape::XorLinear { .. } => registry::XOR_LINEAR,
        }
    }

    /// Builds the layout with the entry's builder; an error is the one the
    /// entry's text gives (in the entry's words).
    ///
    /// ```
    /// use cktile::analyzer::{arch, Pattern};
    /// use cktile::search::{Problem, search};
    /// let p = Problem::new(16, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
    /// let naive = search(&p)?.naive.member.descriptor()?;
    /// assert_eq!(naive.calculate_offset(&[1, 0]), 64);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn descriptor(&self) -> Result<Descriptor, Error> {
        let (rows, cols, bytes) = (self.rows, self.cols, self.element_bytes);
        let built = match &self.shape {
            Shape::RowPadded { pad } => padding::row_padded(rows, cols, *pad),
            Shape::CkUniversalA { banks } => {
                ck::universal_a(rows, cols, ck::default_kpack(bytes), bytes, *banks as usize, UnmergeOrder::Fixed2025)
            }
            Shape::CkXorLds { kpack, mlds, form } => ck::xor_lds(rows, cols, *kpack, *mlds, *form),
            Shape::CkXorPreshuffle { kpack } => ck::xor_preshuffle(rows, cols, *kpack),
            Shape::CuteSwizzle { b, mbase, s } => cute::swizzled_tile(*b, *mbase, *s, rows, cols, cute::Major::Row),
            Shape::TritonSwizzled { vec, per_phase, max_phase } => {
                triton::swizzled_shared(*vec, *per_phase, *max_phase, true, rows, cols)
            }
            Shape::XorLinear { vec, masks } => xor_linear::xor_linear(rows, cols, *vec, masks),
        };
        built.map_err(|e| self.entry().own_error(e))
    }

    /// A CuTe swizzle's `(B, M, S)` on element indices; `None` for the
    /// other entries.
    pub(crate) fn cute_swizzle(&self) -> Option<(u32, u32, i32)> {
        match self.shape {
            Shape::CuteSwizzle { b, mbase, s } => Some((b, mbase, s)),
            _ => None,
        }
    }
}

impl fmt::Display for Member {
    /// The entry's text, one value per parameter in the entry's order
    /// (`None`: left to the parameter's default, which is what
    /// [`Member::descriptor`] builds with).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (rows, cols, bytes) = (&self.rows, &self.cols, &self.element_bytes);
        let entry = self.entry();
        match &self.shape {
            Shape::RowPadded { pad } => write_entry(f, entry, &[Some(rows), Some(cols), Some(pad), Some(bytes)]),
            // m, k, kpack (default), dtype, banks, form (default).
            Shape::CkUniversalA { banks } => {
                write_entry(f, entry, &[Some(rows), Some(cols), None, Some(bytes), Some(banks), None])
            }
            Shape::CkXorLds { kpack, mlds, form } => {
                let form = word(&FORM_WORDS, form);
                write_entry(f, entry, &[Some(rows), Some(cols), Some(kpack), Some(mlds), Some(&form), Some(bytes)])
            }
            Shape::CkXorPreshuffle { kpack } => {
                write_entry(f, entry, &[Some(rows), Some(cols), Some(kpack), Some(bytes)])
            }
            // b, mbase, s, rows, cols, major (default: row), dtype.
            Shape::CuteSwizzle { b, mbase, s } => {
                write_entry(f, entry, &[Some(b), Some(mbase), Some(s), Some(rows), Some(cols), None, Some(bytes)])
            }
            Shape::TritonSwizzled { vec, per_phase, max_phase } => {
                let order = word(&ORDER_WORDS, &true);
                write_entry(
                    f,
                    entry,
                    &[Some(vec), Some(per_phase), Some(max_phase), Some(&order), Some(rows), Some(cols), Some(bytes)],
                )
            }
            Shape::XorLinear { vec, masks } => {
                write_entry(f, entry, &[Some(rows), Some(cols), Some(vec), Some(&Masks(masks)), None, Some(bytes)])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Member, Shape};
    use crate::analyzer::arch;
    use crate::layouts;
    use crate::search::Problem;
    use crate::search::families::{LayoutFamily, members};
    use alloc::string::ToString;
    use alloc::vec::Vec;

    /// The typed path and the text path build the same thing, errors included.
    fn same_both_ways(m: &Member) -> bool {
        let text = m.to_string();
        assert_eq!(m.descriptor(), layouts::resolve(&text), "{text}");
        m.descriptor().is_ok()
    }

    #[test]
    fn every_family_member_builds_as_its_entry_text_does() {
        let mut built = [(0usize, 0usize); LayoutFamily::ALL.len()];
        for a in [arch::GFX942, arch::GFX950, arch::SM90] {
            for rows in [1, 2, 8, 24, 64] {
                for cols in [1, 4, 16, 48, 64] {
                    for bytes in [1, 2, 4, 8] {
                        let p = Problem::new(rows, cols, bytes, a);
                        for unit in [1, 2, 8] {
                            for (k, family) in LayoutFamily::ALL.into_iter().enumerate() {
                                for m in members(family, &p, unit) {
                                    assert_eq!(m.entry().name, family.entry());
                                    let ok = same_both_ways(&m);
                                    built[k].0 += usize::from(ok);
                                    built[k].1 += usize::from(!ok);
                                }
                            }
                        }
                    }
                }
            }
        }
        // Every family but xor-linear (whose members come from its class
        // count, below) builds some, and the builders refuse some.
        for (family, (ok, _)) in LayoutFamily::ALL.into_iter().zip(built) {
            assert_eq!(ok > 0, family != LayoutFamily::XorLinear, "{family:?}: {ok} built");
        }
        assert!(built.iter().map(|&(_, refused)| refused).sum::<usize>() > 0);
    }

    #[test]
    fn xor_linear_members_build_as_their_entry_text_does() {
        let (mut ok, mut refused) = (0, 0);
        for (rows, cols, vec) in [(8, 64, 8), (16, 32, 4), (4, 64, 2), (8, 48, 8)] {
            let p = Problem::new(rows, cols, 2, arch::GFX942);
            let chunks = cols / vec;
            // Every list of up to three masks, each up to one past the largest valid one.
            let mut lists: Vec<Vec<usize>> = alloc::vec![Vec::new()];
            for len in 1..=3 {
                for code in 0..(chunks + 1).pow(len) {
                    lists.push((0..len).map(|j| code / (chunks + 1).pow(j) % (chunks + 1)).collect());
                }
            }
            for masks in lists {
                let m = Member::new(&p, Shape::XorLinear { vec, masks: masks.clone() });
                assert_eq!(m.entry().name, "xor-linear");
                if same_both_ways(&m) {
                    ok += 1;
                } else {
                    refused += 1;
                }
            }
        }
        assert!(ok > 1000 && refused > 1000, "{ok} built, {refused} refused");
        let p = Problem::new(8, 64, 2, arch::GFX942);
        let m = Member::new(&p, Shape::XorLinear { vec: 8, masks: alloc::vec![1, 2, 4] });
        assert_eq!(m.to_string(), "xor-linear:rows=8,cols=64,vec=8,masks=1.2.4,dtype=2");
        let none = Member::new(&p, Shape::XorLinear { vec: 8, masks: Vec::new() });
        assert_eq!(none.to_string().as_str(), "xor-linear:rows=8,cols=64,vec=8,masks=,dtype=2");
    }
}
