//! [`Reads`]: how a kernel reads a layout, so that the layout's bank
//! conflicts are counted while the kernel crate compiles.
//!
//! A [`CkLayout`](crate::CkLayout) carries a `Reads` type. [`Unchecked`]
//! counts nothing; any other names a chip, the element size and the access
//! (a lane pattern such as an MFMA's operand reads, or a CK tile
//! distribution with its instruction), and the layout then fails to compile
//! when cktile's bank model counts a conflict: the same
//! [`require_conflict_free`](cktile_analysis::analyzer::tile::require_conflict_free)
//! as `assert_conflict_free!`, with the chip's own banks and lane phases
//! per instruction (64 banks for gfx950's `ds_read_b64` and `ds_read_b128`,
//! 32 on gfx942 and NVIDIA), not the 32 banks cubecl's swizzles assume.

use cktile_analysis::analyzer::{Arch, Op, Pattern, TileCounts, analyze_tile, tile, window};
use cktile_core::Descriptor;
use cktile_core::distribution::{Distribution, Encoding};

/// The access a kernel makes, counted lane by lane.
///
/// ```
/// use cktile_cubecl::Access;
/// use cktile_analysis::analyzer::{Op, Pattern};
/// let a = Access::Pattern(Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } });
/// assert!(matches!(a, Access::Pattern(_)));
/// ```
// A value of `const` items only (checks run while compiling), so its
// size costs nothing at run time, and a box could not be built in a const.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// A lane pattern over the layout's top dimensions (an MFMA's or an
    /// `ldmatrix`'s operand reads, a row of vectors, ...).
    Pattern(Pattern),
    /// A CK tile distribution's accesses through a tile window, each warp's
    /// with one instruction.
    Window(Encoding, Op),
}

/// One compile-time bank check: the chip, the element size in bytes, and
/// the access.
///
/// ```
/// use cktile_cubecl::{Access, Check};
/// use cktile_analysis::analyzer::{arch, Op, Pattern};
/// const MFMA_READS: Check = Check {
///     arch: &arch::GFX950,
///     element_bytes: 2,
///     access: Access::Pattern(Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } }),
/// };
/// assert_eq!(MFMA_READS.arch.max_banks(), 64);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// The chip whose banks count.
    pub arch: &'static Arch,
    /// Bytes per element.
    pub element_bytes: usize,
    /// What the kernel does with the layout.
    pub access: Access,
}

impl Check {
    /// The bank counts of `desc` under this check, at run time: what
    /// [`require`](Self::require) refuses at compile time when
    /// `conflict_cycles` is not 0, and an error when the access does not
    /// fit the layout or the chip (the analyzer's, naming the values).
    ///
    /// ```
    /// use cktile_cubecl::{Access, Check};
    /// use cktile_analysis::analyzer::{arch, Op, Pattern};
    /// let xor32 = cktile_analysis::layouts::ck::xor_preshuffle(64, 32, 8)?;
    /// let reads = Access::Pattern(Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } });
    /// let on = |arch| Check { arch, element_bytes: 2, access: reads }.counts(&xor32);
    /// assert_eq!(on(&arch::GFX942)?.conflict_cycles, 0);
    /// let gfx950 = on(&arch::GFX950)?;
    /// assert_eq!((gfx950.conflict_cycles, gfx950.max_ways), (16, 2));
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub fn counts(&self, desc: &Descriptor) -> Result<TileCounts, cktile_analysis::Error> {
        match self.access {
            Access::Pattern(p) => analyze_tile(desc, self.element_bytes, self.arch, p),
            Access::Window(e, op) => {
                window::analyze_window(desc, self.element_bytes, self.arch, &Distribution::new(e)?, op)
            }
        }
    }

    /// Panics, which in a `const` is a compile error naming the chip, the
    /// worst instruction and phase, when `desc` conflicts under this check.
    ///
    /// ```
    /// use cktile_cubecl::{Access, Check};
    /// use cktile_analysis::analyzer::{arch, Op, Pattern};
    /// const XOR: cktile_core::Descriptor = match cktile_analysis::layouts::ck::xor_preshuffle(64, 64, 8) {
    ///     Ok(d) => d,
    ///     Err(e) => panic!("{}", e.summary()),
    /// };
    /// const CHECK: Check = Check {
    ///     arch: &arch::GFX942,
    ///     element_bytes: 2,
    ///     access: Access::Pattern(Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } }),
    /// };
    /// const _: () = CHECK.require(&XOR);
    /// ```
    pub const fn require(&self, desc: &Descriptor) {
        match self.access {
            Access::Pattern(p) => tile::require_conflict_free(desc, self.element_bytes, self.arch, p),
            Access::Window(e, op) => {
                window::require_conflict_free_distribution(desc, self.element_bytes, self.arch, e, op)
            }
        }
    }
}

/// How a kernel reads a layout: `None` for no check, or the [`Check`] a
/// [`CkLayout`](crate::CkLayout) must pass to compile.
///
/// ```
/// use cktile_cubecl::{Access, Check, Reads};
/// use cktile_analysis::analyzer::{arch, Op, Pattern};
/// /// gfx950's MFMA 16x16 operand reads of 16-bit elements, 128 bits a lane.
/// struct MfmaReads;
/// impl Reads for MfmaReads {
///     const CHECK: Option<Check> = Some(Check {
///         arch: &arch::GFX950,
///         element_bytes: 2,
///         access: Access::Pattern(Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } }),
///     });
/// }
/// assert!(MfmaReads::CHECK.is_some());
/// ```
pub trait Reads {
    /// The check, if any.
    const CHECK: Option<Check>;
}

/// No bank check.
///
/// ```
/// use cktile_cubecl::{Reads, Unchecked};
/// assert!(Unchecked::CHECK.is_none());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unchecked;

impl Reads for Unchecked {
    const CHECK: Option<Check> = None;
}
