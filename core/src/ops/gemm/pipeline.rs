//! CK's universal GEMM pipelines, each one order of the same five steps,
//! written once for the GPU's kernel body and the host's emulation:
//!
//! - [`OneStage`]: each K tile loaded, stored to LDS, read back and
//!   multiplied before the next is loaded (CK's one-stage pipeline, the
//!   kernel body's default);
//! - [`CompV3`]: CK's `GemmPipelineAgBgCrCompV3`: one LDS stage and one
//!   K tile prefetched in registers, so the next tile's DRAM loads are in
//!   flight while the block GEMM multiplies this one (the prologue loads
//!   two tiles, the hot loop stores, loads and multiplies, the tail
//!   multiplies the last).
//!
//! The steps are the kernel's calls: the DRAM loads of both
//! operands (`OperandPath::load`, then `next_k`), their LDS stores, the
//! block's barrier, the block GEMM's operand reads (`load_tile` of the
//! block windows: CK's `LocalPrefetch`) and the block GEMM. On a GPU one
//! thread runs them (`ops::gemm::universal_gemm_with`); on the host every
//! thread of a block runs each step in turn
//! ([`emulate_gemm_with`](super::emulate_gemm_with)), the barrier standing
//! between them.
//!
//! ```
//! use cktile_core::ops::gemm::{CompV3, OneStage, Pipeline, pipeline::schedule};
//! // Three K tiles: CK's CompV3 prologue, two hot iterations, the tail.
//! assert_eq!(schedule::<CompV3>(3), "LSLBR BSLGBR BSLGBR G");
//! assert_eq!(schedule::<OneStage>(2), "LBSBRG LBSBRG");
//! assert_eq!((OneStage::NAME, CompV3::NAME), ("one stage", "CompV3"));
//! ```

/// One of CK's universal GEMM pipelines: the order of the K loop's steps
/// ([`schedule`] spells it). Sealed: [`OneStage`] and [`CompV3`].
///
/// ```
/// use cktile_core::ops::gemm::{CompV3, Pipeline};
/// assert!(CompV3::PREFETCH);
/// ```
pub trait Pipeline: sealed::SealedPipeline {
    /// Its name in the guide.
    const NAME: &'static str;
    /// Whether the next K tile's DRAM loads are issued before this tile's
    /// block GEMM (held in registers across it).
    const PREFETCH: bool;
}

mod sealed {
    pub trait SealedPipeline {}
    impl SealedPipeline for super::OneStage {}
    impl SealedPipeline for super::CompV3 {}
}

/// The one-stage pipeline: per K tile, load, barrier, store, barrier,
/// read, multiply.
///
/// ```
/// use cktile_core::ops::gemm::{OneStage, Pipeline};
/// assert!(!OneStage::PREFETCH);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OneStage;

/// CK's `GemmPipelineAgBgCrCompV3`: one K tile prefetched in registers
/// and one LDS stage. The prologue loads tile 0, stores it, loads tile 1,
/// and reads tile 0 back; each hot iteration stores the loaded tile,
/// loads the next, multiplies the read one and reads the stored one; the
/// tail multiplies the last. Its loads run one tile past K, whose
/// elements lie past the DRAM views and load as zeros (nothing is read).
///
/// ```
/// use cktile_core::ops::gemm::{CompV3, Pipeline};
/// assert_eq!(CompV3::NAME, "CompV3");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CompV3;

impl Pipeline for OneStage {
    const NAME: &'static str = "one stage";
    const PREFETCH: bool = false;
}

impl Pipeline for CompV3 {
    const NAME: &'static str = "CompV3";
    const PREFETCH: bool = true;
}

/// The K loop's steps, as a pipeline orders them.
#[cfg(any(feature = "alloc", target_arch = "amdgpu", target_arch = "nvptx64"))]
pub(crate) trait Steps {
    /// Both operands' DRAM tiles into registers, their windows moved one
    /// K tile on.
    fn load(&mut self);
    /// The registers' tiles into LDS.
    fn store(&mut self);
    /// The block's barrier.
    fn sync(&mut self);
    /// The block GEMM's operands from LDS into registers (`LocalPrefetch`).
    fn read(&mut self);
    /// The block GEMM on the operand registers.
    fn gemm(&mut self);
    /// A loop iteration, or the tail, begins (nothing to do but for
    /// [`schedule`]).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn begin(&mut self) {}
}

/// Runs pipeline `L`'s K loop over `tiles` K tiles.
#[cfg(any(feature = "alloc", target_arch = "amdgpu", target_arch = "nvptx64"))]
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn run<L: Pipeline, S: Steps>(tiles: usize, s: &mut S) {
    if L::PREFETCH {
        // Each step written once (a step called from two places is not inlined, and its
        // registers go to scratch memory): iteration 0 is the prologue's first load,
        // iteration 1 the rest of the prologue, each one after it a hot iteration, and
        // the last the tail's block GEMM.
        for t in 0..tiles.saturating_add(2) {
            let (hot, tail) = (t >= 2 && t <= tiles, t == tiles + 1);
            if hot || tail {
                s.begin();
            }
            if hot {
                s.sync();
            }
            if t >= 1 && !tail {
                s.store();
            }
            if !tail {
                s.load();
            }
            if hot || tail {
                s.gemm();
            }
            if t >= 1 && !tail {
                s.sync();
                s.read();
            }
        }
    } else {
        for _ in 0..tiles {
            s.begin();
            s.load();
            s.sync();
            s.store();
            s.sync();
            s.read();
            s.gemm();
        }
    }
}

/// Pipeline `L`'s steps over `tiles` K tiles as letters (`L`oad,
/// `S`tore, `B`arrier, `R`ead, `G`EMM), one word a loop iteration: what
/// the K loop does, for the guide and the tests.
///
/// ```
/// use cktile_core::ops::gemm::{CompV3, pipeline::schedule};
/// // One K tile: the prologue's second load runs past K, and the tail multiplies tile 0.
/// assert_eq!(schedule::<CompV3>(1), "LSLBR G");
/// ```
#[cfg(feature = "alloc")]
pub fn schedule<L: Pipeline>(tiles: usize) -> alloc::string::String {
    struct Letters(alloc::string::String);
    impl Steps for Letters {
        fn load(&mut self) {
            self.0.push('L');
        }
        fn store(&mut self) {
            self.0.push('S');
        }
        fn sync(&mut self) {
            self.0.push('B');
        }
        fn read(&mut self) {
            self.0.push('R');
        }
        fn gemm(&mut self) {
            self.0.push('G');
        }
        fn begin(&mut self) {
            if !self.0.is_empty() {
                self.0.push(' ');
            }
        }
    }
    let mut letters = Letters(alloc::string::String::new());
    run::<L, _>(tiles, &mut letters);
    letters.0
}
