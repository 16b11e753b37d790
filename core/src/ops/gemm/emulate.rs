//! The universal GEMM on the host, its MFMAs emulated: what a GPU
//! computes, lane for lane, run on the CPU to check a policy before a GPU
//! runs it.
//!
//! - [`emulate_block_gemm`]: one policy warp's block GEMM, its 64 lanes
//!   together, each instruction computed from its vendor's lane map
//!   ([`MfmaInstruction`](super::MfmaInstruction): AMD's ISA;
//!   [`MmaSyncInstruction`](super::MmaSyncInstruction): the PTX ISA);
//! - [`emulate_gemm`] (with an allocator): a whole kernel, every block of
//!   C: each block's threads run the library's calls in the kernel's
//!   order (the DRAM loads and LDS stores of [`OperandPath`], the block
//!   GEMM's reads through [`block_window`], the block GEMM, and
//!   [`store_c_tile`]), one thread after another inside each stage, the
//!   stages standing for the kernel's barriers.
//!
//! ```
//! use cktile_core::ops::gemm::{Fp16, GemmProblem, MfmaElement, UniversalGemmPolicy, emulate_gemm};
//! type P = UniversalGemmPolicy<256, 128, 128, 32>;
//! // A 40 x 24 x 16 GEMM, padded to one block: A and B all ones.
//! let problem = GemmProblem::packed(40, 24, 16);
//! let (a, b) = (vec![Fp16::from_f32(1.0); 40 * 16], vec![Fp16::from_f32(1.0); 24 * 16]);
//! let mut c = vec![0f32; 40 * 24];
//! emulate_gemm::<P>(&a, &b, &mut c, problem)?;
//! assert!(c.iter().all(|&x| x == 16.0));
//! # Ok::<(), cktile_core::Error>(())
//! ```

use super::block::{ABlockTensor, AccOf, BBlockTensor, CBlockTensor, ElementOf, for_each_warp_gemm};
use super::layout::OperandStorage;
use super::mfma::{Accumulator, MfmaElement};
use super::policy::{GemmPolicy, WarpGemm};
use crate::distribution::typed::TileEncoding;
use crate::error::Error;
use crate::tile::StaticDistributedTensor;
#[cfg(feature = "alloc")]
use {
    super::block::{BitsOf, Matrices},
    super::cshuffle::{ShuffleSteps, check_lds, run_shuffle, shuffle_copy, shuffle_write},
    super::epilogue::{Default2D, Epilogue, c_window, store_c_tile},
    super::mfma::CElement,
    super::path::{BlockWindow, DramTensor, OperandA, OperandB, OperandPath, block_window},
    super::pipeline::{OneStage, Pipeline, Steps, run},
    crate::tile::Partition,
    crate::tile::{SharedMemory, load_tile},
    crate::typed::make_tensor_view,
    alloc::vec::Vec,
    core::cell::Cell,
};

/// The block GEMM of one policy warp on the host, its instructions
/// emulated from their vendor's lane map
/// ([`WarpGemm::INSTRUCTION`]: an MFMA, from AMD's ISA, or `mma.sync`,
/// from the PTX ISA): `c[l] += a[l] b[l]` as the warp's 64 lanes run it
/// together, lane `l`'s block tensors at index `l`. Each warp GEMM issues
/// its [`INSTRUCTIONS`](WarpGemm::INSTRUCTIONS) on its registers
/// ([`WarpGemmStep::instruction`](super::WarpGemmStep::instruction)), each
/// issued by every group of the instruction's lanes (the whole wave for an
/// MFMA; each NVIDIA warp of the pair for `mma.sync`) on that group's
/// registers, and each instruction's products summed in the policy's
/// accumulator ([`AccOf`]: in `f32`, exactly for values
/// whose sums `f32` holds exactly; in `i32` for [`Int8`](super::Int8),
/// wrapping as the hardware's).
///
/// With the loads of [block windows](super::block_window) for `a` and `b`,
/// this is what the GPU's block GEMM computes, lane for lane: a whole
/// kernel runs on the host ([`store_c_tile`] for its epilogue).
///
/// Errors: a slice that does not hold one tensor per lane of the policy's
/// wave ([`GemmPolicy::WAVE`]).
///
/// ```
/// use cktile_core::ops::gemm::{ABlockTensor, BBlockTensor, CBlockTensor, Fp16, MfmaElement, UniversalGemmPolicy, emulate_block_gemm};
/// type P = UniversalGemmPolicy<256, 128, 128, 32>;
/// // Every A and B register 1.0: each C element sums 32 products of 1.
/// let a = vec![ABlockTensor::<P>::filled(Fp16::from_f32(1.0)); 64];
/// let b = vec![BBlockTensor::<P>::filled(Fp16::from_f32(1.0)); 64];
/// let mut c = vec![CBlockTensor::<P>::filled(0.0); 64];
/// emulate_block_gemm::<P>(&mut c, &a, &b)?;
/// assert!(c.iter().all(|t| t.thread_buffer().iter().all(|&x| x == 32.0)));
/// assert!(emulate_block_gemm::<P>(&mut c[..63], &a, &b).is_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn emulate_block_gemm<P: GemmPolicy>(
    c: &mut [CBlockTensor<P>],
    a: &[ABlockTensor<P>],
    b: &[BBlockTensor<P>],
) -> Result<(), Error> {
    let lanes = |what, n: usize| {
        if n == P::WAVE { Ok(()) } else { Err(Error::policy_size(what, "len", n)) }
    };
    lanes("the wave's C block tensors must be one a lane", c.len())?;
    lanes("the wave's A block tensors must be one a lane", a.len())?;
    lanes("the wave's B block tensors must be one a lane", b.len())?;
    let instruction = <P::Warp as WarpGemm>::INSTRUCTION;
    let group = instruction.lanes();
    for_each_warp_gemm::<P>(|s| {
        for q in 0..<P::Warp as WarpGemm>::INSTRUCTIONS {
            let (a0, b0, c0) = s.instruction::<P::Warp>(q);
            for (lane, acc) in c.iter_mut().enumerate() {
                // The lanes of this lane's group issue the instruction on their own registers.
                let (first, own) = (lane - lane % group, lane % group);
                let acc = acc.thread_buffer_mut().iter_mut().skip(c0);
                for (r, acc) in acc.take(instruction.c_registers()).enumerate() {
                    let (row, col) = instruction.c_element(own, r);
                    let sum = (0..instruction.k()).fold(AccOf::<P>::default(), |sum, k| {
                        let (la, ra) = instruction.a_register_for(own, row, k);
                        let (lb, rb) = instruction.b_register_for(own, col, k);
                        let product = register::<ElementOf<P>, _>(a, first + la, a0 + ra).mul(register::<
                            ElementOf<P>,
                            _,
                        >(
                            b, first + lb, b0 + rb
                        ));
                        sum.add(product)
                    });
                    *acc = acc.add(sum);
                }
            }
        }
    });
    Ok(())
}

/// Register `r` of lane `lane`'s tensor in `lanes`, as a number. The lane
/// maps name lanes inside the policy warp and registers inside the block
/// tensors (the policy's sizes), so the zero for anything else never
/// happens.
fn register<E: MfmaElement, D: TileEncoding>(
    lanes: &[StaticDistributedTensor<E::Bits, D>],
    lane: usize,
    r: usize,
) -> E::Acc {
    lanes.get(lane).and_then(|t| t.thread_buffer().get(r)).map_or(E::Acc::default(), |&x| E::to_acc(x))
}

/// A GEMM's sizes: `C (m x n) = A (m x k) * B (k x n)`, each matrix with
/// its leading dimension: the distance between two of its rows when
/// they are what is stored one after another (a row-major matrix), or
/// between two columns (a column-major one). A's layout and B's are the
/// policy's ([`layout`](super::layout)); C is row-major.
///
/// ```
/// use cktile_core::ops::gemm::GemmProblem;
/// let p = GemmProblem::packed(100, 50, 64);
/// assert_eq!((p.a_stride, p.b_stride, p.c_stride), (64, 64, 50));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmProblem {
    /// C's rows (A's).
    pub m: usize,
    /// C's columns (B's).
    pub n: usize,
    /// The reduction: A's columns, B's rows.
    pub k: usize,
    /// A's leading dimension (its row stride when row-major, K contiguous;
    /// its column stride when column-major).
    pub a_stride: usize,
    /// B's leading dimension (its column stride when column-major, K
    /// contiguous; its row stride when row-major).
    pub b_stride: usize,
    /// C's row stride.
    pub c_stride: usize,
}

impl GemmProblem {
    /// The problem with every matrix packed, for a row-major A and a
    /// column-major B (strides `k`, `k`, `n`).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::GemmProblem::packed(4, 5, 8).c_stride, 5);
    /// ```
    pub const fn packed(m: usize, n: usize, k: usize) -> GemmProblem {
        GemmProblem { m, n, k, a_stride: k, b_stride: k, c_stride: n }
    }

    /// The problem with every matrix packed, laid out as policy `P` says:
    /// a K-contiguous operand's leading dimension is `k`, a
    /// rows-contiguous one's its rows.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{BlockWarps, ColumnMajor, GemmProblem, Mfma32x32x16, RowMajor, UniversalGemmPolicy};
    /// type Ccr = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma32x32x16, ColumnMajor, ColumnMajor>;
    /// let p = GemmProblem::packed_for::<Ccr>(100, 50, 64);
    /// assert_eq!((p.a_stride, p.b_stride, p.c_stride), (100, 64, 50));
    /// assert_eq!(GemmProblem::packed_for::<UniversalGemmPolicy<256, 128, 128, 32>>(4, 5, 8), GemmProblem::packed(4, 5, 8));
    /// ```
    pub fn packed_for<P: GemmPolicy>(m: usize, n: usize, k: usize) -> GemmProblem {
        GemmProblem {
            m,
            n,
            k,
            a_stride: P::AStorage::packed_stride(m, k),
            b_stride: P::BStorage::packed_stride(n, k),
            c_stride: n,
        }
    }
}

/// Every thread's K loop of one block on the host: each step (a
/// [`Steps`] of the pipeline's order) runs for all the block's threads in
/// turn, so a step's barrier is the host's sequence.
#[cfg(feature = "alloc")]
struct BlockLoop<'a, P: GemmPolicy> {
    a_paths: Vec<OperandPath<'a, BitsOf<P>, P, OperandA>>,
    b_paths: Vec<OperandPath<'a, BitsOf<P>, P, OperandB>>,
    a_tiles: Vec<DramTensor<BitsOf<P>, P, OperandA>>,
    b_tiles: Vec<DramTensor<BitsOf<P>, P, OperandB>>,
    a_blocks: Vec<BlockWindow<'a, BitsOf<P>, P, OperandA>>,
    b_blocks: Vec<BlockWindow<'a, BitsOf<P>, P, OperandB>>,
    a_regs: Vec<ABlockTensor<P>>,
    b_regs: Vec<BBlockTensor<P>>,
    acc: Vec<CBlockTensor<P>>,
    /// The first error of a wave's block GEMM.
    error: Option<Error>,
}

#[cfg(feature = "alloc")]
impl<P: GemmPolicy> Steps for BlockLoop<'_, P> {
    fn load(&mut self) {
        self.a_tiles = self.a_paths.iter_mut().map(|p| (p.load(), p.next_k()).0).collect();
        self.b_tiles = self.b_paths.iter_mut().map(|p| (p.load(), p.next_k()).0).collect();
    }

    fn store(&mut self) {
        for (p, t) in self.a_paths.iter_mut().zip(&self.a_tiles) {
            p.store(t);
        }
        for (p, t) in self.b_paths.iter_mut().zip(&self.b_tiles) {
            p.store(t);
        }
    }

    fn sync(&mut self) {}

    fn read(&mut self) {
        self.a_regs = self.a_blocks.iter().map(load_tile).collect();
        self.b_regs = self.b_blocks.iter().map(load_tile).collect();
    }

    fn gemm(&mut self) {
        let waves = self.acc.chunks_mut(P::WAVE).zip(self.a_regs.chunks(P::WAVE)).zip(self.b_regs.chunks(P::WAVE));
        for ((acc, a), b) in waves {
            if let Err(e) = emulate_block_gemm::<P>(acc, a, b) {
                self.error.get_or_insert(e);
            }
        }
    }
}

/// The kernel's block at (`m0`, `n0`): pipeline `L`'s K loop, then
/// `epilogue`.
#[cfg(feature = "alloc")]
fn emulate_block<P: GemmPolicy, L: Pipeline, C: CElement<AccOf<P>>, E: Epilogue<C::Bits>>(
    (a, b, c): Matrices<'_, P, C>,
    problem: GemmProblem,
    (m0, n0): (usize, usize),
    epilogue: &E,
) -> Result<(), Error> {
    let GemmProblem { m, n, k, a_stride, b_stride, .. } = problem;
    let a_lds: Vec<Cell<BitsOf<P>>> = (0..P::M_PER_BLOCK * P::K_PER_BLOCK).map(|_| Cell::default()).collect();
    let b_lds: Vec<Cell<BitsOf<P>>> = (0..P::N_PER_BLOCK * P::K_PER_BLOCK).map(|_| Cell::default()).collect();
    let partitions = (0..P::BLOCK_SIZE)
        .map(|t| P::partition_of_thread(t).ok_or(Error::policy("every thread below the block size is in the block")))
        .collect::<Result<Vec<_>, _>>()?;
    let (a_desc, b_desc) =
        (*P::make_a_dram_view(a, m, k, a_stride)?.descriptor(), *P::make_b_dram_view(b, n, k, b_stride)?.descriptor());
    let (row0, col0) = (index(m0)?, index(n0)?);
    let (a_lds, b_lds) = (SharedMemory::new(&a_lds), SharedMemory::new(&b_lds));
    let mut block = BlockLoop::<P> {
        a_paths: partitions
            .iter()
            .map(|&p| OperandPath::with_partition(OperandA, a_desc, a, row0, a_lds, p))
            .collect::<Result<_, _>>()?,
        b_paths: partitions
            .iter()
            .map(|&p| OperandPath::with_partition(OperandB, b_desc, b, col0, b_lds, p))
            .collect::<Result<_, _>>()?,
        a_tiles: Vec::new(),
        b_tiles: Vec::new(),
        a_blocks: partitions.iter().map(|&p| block_window::<_, P, OperandA>(a_lds, p)).collect::<Result<_, _>>()?,
        b_blocks: partitions.iter().map(|&p| block_window::<_, P, OperandB>(b_lds, p)).collect::<Result<_, _>>()?,
        a_regs: Vec::new(),
        b_regs: Vec::new(),
        acc: alloc::vec![CBlockTensor::<P>::filled(AccOf::<P>::default()); P::BLOCK_SIZE],
        error: None,
    };
    run::<L, _>(k.div_ceil(P::K_PER_BLOCK), &mut block);
    if let Some(e) = block.error {
        return Err(e);
    }
    let threads = BlockC::<P> { problem, origin: (row0, col0), partitions: &partitions, acc: &block.acc };
    let Some(lds) = epilogue.shuffle_lds() else {
        return threads.each(c, |w, _, acc| store_c_tile::<C::Bits, P>(w, acc, C::from_acc));
    };
    let mut shuffle = BlockShuffle::<P, C> { threads, c, lds, error: None };
    run_shuffle::<P, C::Bits, _>(&mut shuffle);
    shuffle.error.map_or(Ok(()), Err)
}

/// The C side of one block on the host: its threads' partitions and
/// accumulators, and where its tile lies in C.
#[cfg(feature = "alloc")]
struct BlockC<'w, P: GemmPolicy> {
    problem: GemmProblem,
    origin: (crate::Index, crate::Index),
    partitions: &'w [Partition],
    acc: &'w [CBlockTensor<P>],
}

#[cfg(feature = "alloc")]
impl<P: GemmPolicy> BlockC<'_, P> {
    /// Runs `f` on each thread's C window over `c`, its partition and its
    /// accumulators, in thread order; stops at the first window refused.
    fn each<T: Copy>(
        &self,
        c: &mut [T],
        mut f: impl FnMut(&mut super::CWindow<'_, T, P>, Partition, &CBlockTensor<P>),
    ) -> Result<(), Error> {
        let GemmProblem { m, n, c_stride, .. } = self.problem;
        // C's descriptor, then each thread's view of C through it, as `universal_gemm_with` makes them.
        let desc = P::make_c_dram_descriptor(c.len(), m, n, c_stride)?;
        for (&p, acc) in self.partitions.iter().zip(self.acc) {
            f(&mut c_window::<T, P>(make_tensor_view(&mut *c, desc), self.origin, p)?, p, acc);
        }
        Ok(())
    }
}

/// The CShuffle epilogue of one block on the host: each step (a
/// [`ShuffleSteps`]) for all the block's threads in turn, each through its
/// own C window, so the barrier is the host's sequence.
#[cfg(feature = "alloc")]
struct BlockShuffle<'w, P: GemmPolicy, C: CElement<AccOf<P>>> {
    threads: BlockC<'w, P>,
    c: &'w mut [C::Bits],
    lds: SharedMemory<'w, C::Bits>,
    /// The first error of a thread's C window.
    error: Option<Error>,
}

#[cfg(feature = "alloc")]
impl<P: GemmPolicy, C: CElement<AccOf<P>>> ShuffleSteps for BlockShuffle<'_, P, C> {
    fn sync(&mut self) {}

    fn write(&mut self, access: usize) {
        let lds = self.lds;
        let written =
            self.threads.each(self.c, |w, _, acc| shuffle_write::<C::Bits, P>(w, lds, acc, access, C::from_acc));
        if let Err(e) = written {
            self.error.get_or_insert(e);
        }
    }

    fn copy(&mut self, access: usize) {
        let lds = self.lds;
        if let Err(e) = self.threads.each(self.c, |w, p, _| shuffle_copy::<C::Bits, P>(w, lds, p, access)) {
            self.error.get_or_insert(e);
        }
    }
}

/// A block origin as an index (every origin lies inside a view whose
/// sizes fit one; refused otherwise).
#[cfg(feature = "alloc")]
fn index(origin: usize) -> Result<crate::Index, Error> {
    crate::Index::try_from(origin).map_err(|_| Error::policy("a block's origin must fit a 64-bit index"))
}

/// CK's universal GEMM kernel of policy `P` run on the host: `C = A *
/// B^T` over `problem`, A and B elements of the policy's warp GEMM type
/// (as their bits, [`BitsOf`]), C in its accumulator
/// ([`AccOf`]: `f32`, `i32` for int8), every block of CK's
/// 2-D tile partition run as its threads and waves would run it
/// ([module](self)). Only the elements inside C are written.
///
/// Errors: what the kernel's views refuse (K not a multiple of the
/// policy's vector where K is contiguous, a stride below its row, a
/// buffer too short for its matrix, sizes past 64 bits).
///
/// An int8 GEMM sums in `i32`:
///
/// ```
/// use cktile_core::ops::gemm::{BlockWarps, GemmProblem, Int8, MfmaElement, Mfma, UniversalGemmPolicy, emulate_gemm};
/// type P = UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Mfma<32, 32, 32, Int8>>;
/// let (a, b) = (vec![Int8::from_f32(-7.0); 50 * 48], vec![Int8::from_f32(9.0); 20 * 48]);
/// let mut c = vec![0i32; 50 * 20];
/// emulate_gemm::<P>(&a, &b, &mut c, GemmProblem::packed(50, 20, 48))?;
/// assert!(c.iter().all(|&x| x == -7 * 9 * 48));
/// # Ok::<(), cktile_core::Error>(())
/// ```
///
/// ```
/// use cktile_core::ops::gemm::{Bf16, BlockWarps, GemmProblem, Mfma, MfmaElement, UniversalGemmPolicy, emulate_gemm};
/// // 64 x 64 x 32 on 128 threads, 2 x 1 warps of the bf16 16x16x32 MFMA.
/// type P = UniversalGemmPolicy<128, 64, 64, 32, BlockWarps<2, 1>, Mfma<16, 16, 32, Bf16>>;
/// let problem = GemmProblem { m: 70, n: 30, k: 40, a_stride: 41, b_stride: 40, c_stride: 30 };
/// // A(i, q) = q % 3, B(j, q) = 2: C(i, j) = 2 * (sum of q % 3 over q < 40) = 2 * 39.
/// let a: Vec<u16> = (0..70 * 41).map(|x| Bf16::from_f32((x % 41 % 3) as f32)).collect();
/// let b = vec![Bf16::from_f32(2.0); 30 * 40];
/// let mut c = vec![0f32; 70 * 30];
/// emulate_gemm::<P>(&a, &b, &mut c, problem)?;
/// assert!(c.iter().all(|&x| x == 78.0));
/// assert!(emulate_gemm::<P>(&a, &b, &mut c, GemmProblem { k: 36, ..problem }).is_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg(feature = "alloc")]
pub fn emulate_gemm<P: GemmPolicy>(
    a: &[BitsOf<P>],
    b: &[BitsOf<P>],
    c: &mut [AccOf<P>],
    problem: GemmProblem,
) -> Result<(), Error> {
    emulate_gemm_with::<P, OneStage, AccOf<P>, _>(a, b, c, problem, Default2D)
}

/// [`emulate_gemm`] with the K loop of pipeline `L`, in its order, C in
/// type `C` ([`CElement`]: the accumulator's, or from an `f32` one a
/// 16-bit or 8-bit float, each accumulator rounded once) and `epilogue`
/// ([`Default2D`] or [`CShuffle`](super::CShuffle) over a host buffer of
/// C's type), as `ops::gemm::universal_gemm_with` runs them on a GPU: the
/// same C for every pipeline and epilogue.
///
/// Errors: [`emulate_gemm`]'s, and a CShuffle LDS tile shorter than
/// [`CShuffle::lds_elements`](super::CShuffle::lds_elements).
///
/// ```
/// use cktile_core::ops::gemm::{CShuffle, CompV3, Default2D, Fp16, GemmProblem, MfmaElement, UniversalGemmPolicy, emulate_gemm_with};
/// use cktile_core::tile::SharedMemory;
/// type P = UniversalGemmPolicy<256, 128, 128, 32>;
/// // Three K tiles: CompV3's prologue, one hot iteration and its tail.
/// let (a, b) = (vec![Fp16::from_f32(1.0); 40 * 96], vec![Fp16::from_f32(2.0); 24 * 96]);
/// let mut c = vec![0f32; 40 * 24];
/// emulate_gemm_with::<P, CompV3, f32, _>(&a, &b, &mut c, GemmProblem::packed(40, 24, 96), Default2D)?;
/// assert!(c.iter().all(|&x| x == 192.0));
/// // The same through CK's CShuffle epilogue and its LDS tile.
/// let mut lds = vec![0f32; CShuffle::<f32>::lds_elements::<P>()];
/// let mut shuffled = vec![0f32; 40 * 24];
/// let epilogue = CShuffle::new(SharedMemory::from_mut(&mut lds));
/// emulate_gemm_with::<P, CompV3, f32, _>(&a, &b, &mut shuffled, GemmProblem::packed(40, 24, 96), epilogue)?;
/// assert_eq!(shuffled, c);
/// // C in fp16, through an fp16 LDS tile: 192 rounded once.
/// let mut lds = vec![0u16; CShuffle::<u16>::lds_elements::<P>()];
/// let mut half = vec![0u16; 40 * 24];
/// let epilogue = CShuffle::new(SharedMemory::from_mut(&mut lds));
/// emulate_gemm_with::<P, CompV3, Fp16, _>(&a, &b, &mut half, GemmProblem::packed(40, 24, 96), epilogue)?;
/// assert!(half.iter().all(|&x| x == Fp16::from_f32(192.0)));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg(feature = "alloc")]
pub fn emulate_gemm_with<P: GemmPolicy, L: Pipeline, C: CElement<AccOf<P>>, E: Epilogue<C::Bits>>(
    a: &[BitsOf<P>],
    b: &[BitsOf<P>],
    c: &mut [C::Bits],
    problem: GemmProblem,
    epilogue: E,
) -> Result<(), Error> {
    let () = P::CHECK;
    if let Some(lds) = epilogue.shuffle_lds() {
        check_lds::<P, C::Bits>(lds.len())?;
    }
    for m0 in (0..problem.m).step_by(P::M_PER_BLOCK) {
        for n0 in (0..problem.n).step_by(P::N_PER_BLOCK) {
            emulate_block::<P, L, C, E>((a, b, c), problem, (m0, n0), &epilogue)?;
        }
    }
    Ok(())
}
