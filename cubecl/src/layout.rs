//! [`CkLayout`]: a compile-time cktile descriptor as a cubecl
//! [`Layout`], its shapes and strides comptime values of the kernel.

use crate::coords::TopCoordinates;
use crate::emit::{self, Int, Tests, Val};
use crate::error::Error;
use crate::reads::{Reads, Unchecked};
use alloc::vec::Vec;
use cktile_core::descriptor::bounds::forward_range;
use cktile_core::{Descriptor, StaticDescriptor};
use core::marker::PhantomData;
use cubecl::ir::ConstantValue;
use cubecl::prelude::*;
use cubecl::std::tensor::layout::{Coords1d, Layout, LayoutExpand};

/// The integer type a [`CkLayout`] computes its offsets in, chosen at
/// compile time from the values the descriptor's forward walk can take
/// ([`forward_range`]: every intermediate value, length and literal, for
/// coordinates inside the lengths).
///
/// ```
/// use cktile_cubecl::IndexType;
/// use cktile_core::Descriptor;
/// assert_eq!(IndexType::of(&Descriptor::naive(&[64, 64], &[72, 1]).unwrap()), Ok(IndexType::U32));
/// let padded = cktile_analysis::spec::parse("naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])").unwrap();
/// assert_eq!(IndexType::of(&padded), Ok(IndexType::I32));
/// let huge = Descriptor::naive(&[4, 4], &[1 << 40, 1]).unwrap();
/// assert!(matches!(IndexType::of(&huge), Err((0, high)) if high > u32::MAX as i128));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexType {
    /// Every value is in `0..2^32`: what hand-written cubecl layouts use.
    U32,
    /// A value may be negative (a pad, a negative offset), and every one
    /// fits `i32`: divisions truncate, as CK's do.
    I32,
}

impl IndexType {
    /// The type for `desc`, or the range of values that fits neither.
    pub const fn of(desc: &Descriptor) -> Result<IndexType, (i128, i128)> {
        let (low, high) = forward_range(desc);
        if low >= 0 && high <= u32::MAX as i128 {
            Ok(IndexType::U32)
        } else if low >= i32::MIN as i128 && high <= i32::MAX as i128 {
            Ok(IndexType::I32)
        } else {
            Err((low, high))
        }
    }
}

/// CK's descriptor `D` as a cubecl [`Layout`] from the top coordinate `C`
/// (a `u32` or a tuple of two to four) to a linear element offset.
///
/// The layout has no runtime state: `D`'s shapes are comptime values, and
/// each offset expands to the index arithmetic of `D`'s transforms, literals
/// folded, in the [`IndexType`] `D` needs. Three things are checked while
/// the kernel crate compiles, each a compile error that names the values:
///
/// - `C` has one coordinate per top dimension of `D`;
/// - every value the offset computation takes fits a 32-bit index;
/// - `R`'s bank check ([`Reads`]) finds no conflict.
///
/// Read it like any cubecl layout, in a `#[cube]` function:
///
/// ```
/// use cktile_core::{Descriptor, StaticDescriptor};
/// use cktile_cubecl::CkLayout;
/// use cubecl::prelude::*;
/// use cubecl::std::tensor::layout::{Layout, LayoutExpand};
///
/// /// CK's A block in LDS: 128 x 64 fp16, XOR-preshuffled by 8-element vectors.
/// struct ABlock;
/// impl StaticDescriptor for ABlock {
///     const DESCRIPTOR: Descriptor = match cktile_analysis::layouts::ck::xor_preshuffle(128, 64, 8) {
///         Ok(d) => d,
///         Err(e) => panic!("{}", e.summary()),
///     };
/// }
///
/// /// Element (m, k) of a block stored in `tile`.
/// #[cube]
/// fn read_a(tile: &[f32], m: u32, k: u32) -> f32 {
///     let layout = CkLayout::<ABlock>::new();
///     tile[layout.to_source_pos((m, k))]
/// }
///
/// fn main() {
///     // On the host the layout answers with cktile's own evaluation.
///     let l = CkLayout::<ABlock>::new();
///     assert_eq!(l.to_source_pos((3, 9)), 3 * 64 + 8 * (1 ^ 3) + 1);
///     assert_eq!(l.shape(), (128, 64));
///     assert!(!l.is_in_bounds((128, 0)));
/// }
/// ```
///
/// # Refused at compile time
///
/// CK's XOR block with 32-element rows (`xor_preshuffle(64, 32, 8)`) is
/// conflict-free under the 16x16 MFMA's 128-bit operand reads on gfx942's
/// 32 banks, and 2-way on gfx950, whose `ds_read_b128` spans 64 banks:
///
/// ```
/// use cktile_analysis::analyzer::{arch, Op, Pattern};
/// use cktile_core::{Descriptor, StaticDescriptor};
/// use cktile_cubecl::{Access, Check, CkLayout, Reads};
///
/// struct Xor32;
/// impl StaticDescriptor for Xor32 {
///     const DESCRIPTOR: Descriptor = match cktile_analysis::layouts::ck::xor_preshuffle(64, 32, 8) {
///         Ok(d) => d,
///         Err(e) => panic!("{}", e.summary()),
///     };
/// }
/// struct Gfx942Mfma;
/// impl Reads for Gfx942Mfma {
///     const CHECK: Option<Check> = Some(Check {
///         arch: &arch::GFX942,
///         element_bytes: 2,
///         access: Access::Pattern(Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } }),
///     });
/// }
/// let a = CkLayout::<Xor32, (u32, u32), Gfx942Mfma>::new();
/// ```
///
/// The same layout checked for gfx950 does not build (the error names the
/// chip, the extra cycles, the worst instruction and phase):
///
/// ```compile_fail,E0080
/// # use cktile_analysis::analyzer::{arch, Op, Pattern};
/// # use cktile_core::{Descriptor, StaticDescriptor};
/// # use cktile_cubecl::{Access, Check, CkLayout, Reads};
/// # struct Xor32;
/// # impl StaticDescriptor for Xor32 {
/// #     const DESCRIPTOR: Descriptor = match cktile_analysis::layouts::ck::xor_preshuffle(64, 32, 8) {
/// #         Ok(d) => d,
/// #         Err(e) => panic!("{}", e.summary()),
/// #     };
/// # }
/// struct Gfx950Mfma;
/// impl Reads for Gfx950Mfma {
///     const CHECK: Option<Check> = Some(Check {
///         arch: &arch::GFX950,
///         element_bytes: 2,
///         access: Access::Pattern(Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } }),
///     });
/// }
/// let a = CkLayout::<Xor32, (u32, u32), Gfx950Mfma>::new();
/// ```
///
/// So does a coordinate type of another rank:
///
/// ```compile_fail,E0080
/// # use cktile_core::{Descriptor, StaticDescriptor};
/// # struct Xor32;
/// # impl StaticDescriptor for Xor32 {
/// #     const DESCRIPTOR: Descriptor = match cktile_analysis::layouts::ck::xor_preshuffle(64, 32, 8) {
/// #         Ok(d) => d,
/// #         Err(e) => panic!("{}", e.summary()),
/// #     };
/// # }
/// let a = cktile_cubecl::CkLayout::<Xor32, (u32, u32, u32)>::new();
/// ```
///
/// and a descriptor whose values fit no 32-bit index:
///
/// ```compile_fail,E0080
/// # use cktile_core::{Descriptor, StaticDescriptor};
/// struct Huge;
/// impl StaticDescriptor for Huge {
///     const DESCRIPTOR: Descriptor = match Descriptor::naive(&[4, 4], &[1 << 40, 1]) {
///         Ok(d) => d,
///         Err(e) => panic!("{}", e.summary()),
///     };
/// }
/// let a = cktile_cubecl::CkLayout::<Huge>::new();
/// ```
pub struct CkLayout<D, C = (u32, u32), R = Unchecked> {
    _of: Marker<D, C, R>,
}

/// The type parameters, held by nothing (the layout is `Send`, `Sync` and
/// `Copy` whatever they are).
type Marker<D, C, R> = PhantomData<fn() -> (D, C, R)>;

impl<D, C, R> Clone for CkLayout<D, C, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D, C, R> Copy for CkLayout<D, C, R> {}

impl<D, C, R> core::fmt::Debug for CkLayout<D, C, R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("CkLayout")
    }
}

impl<D: StaticDescriptor, C: TopCoordinates, R: Reads> CkLayout<D, C, R> {
    /// The index type, chosen and every check passed at compile time.
    pub const INDEX_TYPE: IndexType = {
        let d = &D::DESCRIPTOR;
        if d.num_dims() != C::RANK {
            const_panic::concat_panic!(
                "\ncktile-cubecl: the descriptor has ",
                d.num_dims(),
                " top dimensions, the coordinates ",
                C::RANK,
                "; use u32 for one, a tuple of u32 for two to four"
            );
        }
        if let Some(check) = R::CHECK {
            check.require(d);
        }
        match IndexType::of(d) {
            Ok(t) => t,
            Err((low, high)) => const_panic::concat_panic!(
                "\ncktile-cubecl: the offset computation reaches values from ",
                low,
                " to ",
                high,
                ", beyond a 32-bit index (0..=4294967295 unsigned, or -2147483648..=2147483647)"
            ),
        }
    };

    /// The layout (zero-sized), on the host.
    ///
    /// ```
    /// use cktile_cubecl::CkLayout;
    /// struct Row;
    /// impl cktile_core::StaticDescriptor for Row {
    ///     const DESCRIPTOR: cktile_core::Descriptor = match cktile_core::Descriptor::packed(&[32]) {
    ///         Ok(d) => d,
    ///         Err(e) => panic!("{}", e.summary()),
    ///     };
    /// }
    /// assert_eq!(core::mem::size_of::<CkLayout<Row, u32>>(), 0);
    /// ```
    pub fn new() -> Self {
        let _ = Self::INDEX_TYPE;
        CkLayout { _of: PhantomData }
    }

    /// [`new`](Self::new) in a kernel.
    pub fn __expand_new(_scope: &Scope) -> CkLayoutExpand<C> {
        CkLayoutExpand { desc: D::DESCRIPTOR, index: Self::INDEX_TYPE, _c: PhantomData }
    }
}

impl<D: StaticDescriptor, C: TopCoordinates, R: Reads> Default for CkLayout<D, C, R> {
    fn default() -> Self {
        Self::new()
    }
}

/// The kernel-side form of [`CkLayout`] and [`DescriptorLayout`] (what
/// `#[cube]` code holds): the descriptor and its index type, both comptime.
pub struct CkLayoutExpand<C> {
    desc: Descriptor,
    index: IndexType,
    _c: PhantomData<fn() -> C>,
}

impl<C> Clone for CkLayoutExpand<C> {
    fn clone(&self) -> Self {
        CkLayoutExpand { desc: self.desc, index: self.index, _c: PhantomData }
    }
}

impl<D, C, R> CubeType for CkLayout<D, C, R> {
    type ExpandType = CkLayoutExpand<C>;
}

impl<C> ExpandTypeClone for CkLayoutExpand<C> {
    fn clone_unchecked(&self) -> Self {
        self.clone()
    }
}

impl<C> IntoExpand for CkLayoutExpand<C> {
    type Expand = Self;
    fn into_expand(self, _: &Scope) -> Self {
        self
    }
}

impl<C> IntoMut for CkLayoutExpand<C> {
    fn into_mut(self, _: &Scope) -> Self {
        self
    }
}

impl<C> CubeDebug for CkLayoutExpand<C> {}

impl<C> AsRefExpand for CkLayoutExpand<C> {
    fn __expand_ref_method(&self, _: &Scope) -> &Self {
        self
    }
}

impl<C> AsMutExpand for CkLayoutExpand<C> {
    fn __expand_ref_mut_method(&mut self, _: &Scope) -> &mut Self {
        self
    }
}

impl<C> DerefExpand for CkLayoutExpand<C> {
    type Target = Self;
    fn __expand_deref_method(&self, _: &Scope) -> Self {
        self.clone()
    }
}

/// A typed CK chain (a [`Chain`](cktile_core::typed::Chain) whose
/// parameters are all `Number`s: what `make_naive_tensor_descriptor` and
/// `transform_tensor_descriptor` build from compile-time lengths, or the
/// GEMM's `ops::gemm::LdsChainOf`) as a [`StaticDescriptor`], so that it
/// can be a [`CkLayout`]. A chain with a runtime length, or an invalid
/// one, does not compile.
///
/// ```
/// use cktile_core::ops::gemm::LdsChainOf;
/// use cktile_core::StaticDescriptor;
/// use cktile_cubecl::{CkLayout, Typed};
/// use cubecl::std::tensor::layout::Layout;
/// // The A block the library's universal GEMM stages in LDS (128 x 32, KPack 8, MLdsLayer 2).
/// type ABlock = Typed<LdsChainOf<128, 32>>;
/// let l = CkLayout::<ABlock>::new();
/// assert_eq!(l.to_source_pos((3, 9)) as i64, ABlock::DESCRIPTOR.calculate_offset(&[3, 9]));
/// assert_eq!(l.shape(), (128, 32));
/// ```
pub struct Typed<C>(PhantomData<fn() -> C>);

impl<C: cktile_core::typed::Chain> StaticDescriptor for Typed<C> {
    const DESCRIPTOR: Descriptor = match C::STATIC {
        Some(Ok(d)) => d,
        Some(Err(e)) => panic!("{}", e.summary()),
        None => {
            panic!("cktile-cubecl: the chain has a runtime length; a CkLayout's chain takes Number<N> lengths only")
        }
    };
}

/// A descriptor built on the host at run time (parsed from spec text, a
/// layout search's answer, a catalogue entry chosen by parameters), as a
/// cubecl [`Layout`]: passed to a kernel as a `#[comptime]` argument, it
/// expands to the same arithmetic as a [`CkLayout`] of the same
/// descriptor. [`new`](Self::new) makes the checks `CkLayout` makes at
/// compile time (its bank check is the analyzer's, run by the caller).
///
/// ```
/// use cktile_cubecl::DescriptorLayout;
/// use cubecl::prelude::*;
/// use cubecl::std::tensor::layout::{Layout, LayoutExpand};
///
/// /// Element (m, k) of a tile stored in `tile` with `layout`.
/// #[cube]
/// fn read(tile: &[f32], m: u32, k: u32, #[comptime] layout: DescriptorLayout) -> f32 {
///     let l = DescriptorLayout::<(u32, u32)>::comptime(layout);
///     tile[l.to_source_pos((m, k))]
/// }
///
/// fn main() -> Result<(), Box<dyn std::error::Error>> {
///     let d = cktile_analysis::spec::parse("packed((64,8)) | transform(xor((64,8)) on [0,1] -> [0,1])")?;
///     let layout = DescriptorLayout::<(u32, u32)>::new(d)?;
///     assert_eq!(layout.to_source_pos((1, 0)), 8 + (0 ^ 1));
///     Ok(())
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DescriptorLayout<C = (u32, u32)> {
    desc: Descriptor,
    index: IndexType,
    _c: PhantomData<fn() -> C>,
}

impl<C: TopCoordinates> DescriptorLayout<C> {
    /// `desc` as a layout read with coordinates `C`; an error when `C` has
    /// another rank or a value of the offset computation fits no 32-bit
    /// index.
    pub fn new(desc: Descriptor) -> Result<Self, Error> {
        if desc.num_dims() != C::RANK {
            return Err(Error::Rank { descriptor: desc.num_dims(), coordinates: C::RANK });
        }
        let index = IndexType::of(&desc).map_err(|(low, high)| Error::Range { low, high })?;
        Ok(DescriptorLayout { desc, index, _c: PhantomData })
    }

    /// The layout, after cktile's bank model counted no conflict under
    /// `check` (the run-time form of a [`CkLayout`]'s [`Reads`] check); an
    /// error with the counts otherwise, or the analyzer's when the access
    /// does not fit.
    ///
    /// ```
    /// use cktile_cubecl::{Access, Check, DescriptorLayout, Error};
    /// use cktile_analysis::analyzer::{arch, Op, Pattern};
    /// let xor32 = cktile_analysis::layouts::ck::xor_preshuffle(64, 32, 8)?;
    /// let reads = Access::Pattern(Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } });
    /// let layout = DescriptorLayout::<(u32, u32)>::new(xor32)?;
    /// assert!(layout.checked(&Check { arch: &arch::GFX942, element_bytes: 2, access: reads }).is_ok());
    /// let e = layout.checked(&Check { arch: &arch::GFX950, element_bytes: 2, access: reads }).unwrap_err();
    /// assert_eq!(e, Error::Conflicts { chip: "gfx950", conflict_cycles: 16, cycles: 32, max_ways: 2 });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn checked(self, check: &crate::reads::Check) -> Result<Self, Error> {
        let c = check.counts(&self.desc).map_err(Error::Analysis)?;
        if c.conflict_cycles > 0 {
            return Err(Error::Conflicts {
                chip: check.arch.name(),
                conflict_cycles: c.conflict_cycles,
                cycles: c.cycles,
                max_ways: c.max_ways,
            });
        }
        Ok(self)
    }

    /// The descriptor.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[8])?;
    /// assert_eq!(cktile_cubecl::DescriptorLayout::<u32>::new(d)?.descriptor(), d);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn descriptor(&self) -> Descriptor {
        self.desc
    }

    /// The index type the offsets are computed in.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[8])?;
    /// assert_eq!(cktile_cubecl::DescriptorLayout::<u32>::new(d)?.index_type(), cktile_cubecl::IndexType::U32);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn index_type(&self) -> IndexType {
        self.index
    }

    /// The layout itself, in a `#[cube]` function that received it as a
    /// `#[comptime]` argument (on the host, a copy).
    pub fn comptime(layout: Self) -> Self {
        layout
    }

    /// [`comptime`](Self::comptime) in a kernel.
    pub fn __expand_comptime(_scope: &Scope, layout: Self) -> CkLayoutExpand<C> {
        CkLayoutExpand { desc: layout.desc, index: layout.index, _c: PhantomData }
    }
}

impl<C> CubeType for DescriptorLayout<C> {
    type ExpandType = CkLayoutExpand<C>;
}

impl<C: TopCoordinates> Layout for DescriptorLayout<C> {
    type Coordinates = C;
    type SourceCoordinates = Coords1d;

    /// The offset (CK's for a padded coordinate, which may be negative,
    /// then wrapped to `usize` as the kernel's cast wraps it).
    fn to_source_pos(&self, pos: C) -> usize {
        host(&self.desc, pos).0 as usize
    }

    fn to_source_pos_checked(&self, pos: C) -> (usize, bool) {
        let (offset, valid) = host(&self.desc, pos);
        (offset as usize, valid)
    }

    fn shape(&self) -> C {
        C::from_lengths(self.desc.lengths().as_slice())
    }

    fn is_in_bounds(&self, pos: C) -> bool {
        host(&self.desc, pos).1
    }
}

/// The offset of `pos` as cktile evaluates it (CK's, possibly negative, for
/// a padded coordinate), and whether `pos` is inside the lengths and maps
/// to no padding.
fn host<C: TopCoordinates>(desc: &Descriptor, pos: C) -> (i64, bool) {
    let top = pos.to_indices();
    (desc.calculate_offset(&top), desc.offset_if_valid(&top).is_some())
}

/// A kernel `u32`: a literal when the kernel fixed it at expansion.
fn top_value<T: Int>(scope: &Scope, v: NativeExpand<u32>) -> Val<T> {
    match v.constant() {
        Some(ConstantValue::UInt(x)) => Val::Lit(x as i64),
        Some(ConstantValue::Int(x)) => Val::Lit(x),
        _ => Val::Run(T::from_u32(scope, v)),
    }
}

impl<C: TopCoordinates> CkLayoutExpand<C> {
    /// The walk in type `T`: the offset, and the validity tests when asked.
    fn walk<T: Int>(&self, scope: &Scope, pos: C::ExpandType, tests: Option<&mut Tests>) -> NativeExpand<usize> {
        let top: Vec<Val<T>> = C::expand_values(pos).into_iter().map(|v| top_value(scope, v)).collect();
        let offset = match tests {
            Some(t) => {
                emit::top_in_bounds(scope, &self.desc, &top, t);
                emit::offset(scope, &self.desc, top, Some(t))
            }
            None => emit::offset(scope, &self.desc, top, None),
        };
        T::to_usize(scope, emit::value(scope, offset))
    }

    /// The offset and, when asked, the validity tests, in the layout's type.
    fn offset(&self, scope: &Scope, pos: C::ExpandType, tests: Option<&mut Tests>) -> NativeExpand<usize> {
        match self.index {
            IndexType::U32 => self.walk::<u32>(scope, pos, tests),
            IndexType::I32 => self.walk::<i32>(scope, pos, tests),
        }
    }
}

/// The conjunction of `tests`, as a kernel boolean.
fn all(scope: &Scope, tests: Tests) -> NativeExpand<bool> {
    if tests.never {
        return NativeExpand::from_lit(scope, false);
    }
    let mut conditions = tests.conditions.into_iter();
    match conditions.next() {
        None => NativeExpand::from_lit(scope, true),
        Some(first) => conditions.fold(first, |acc, c| acc.__expand_and_method(scope, c)),
    }
}

impl<D: StaticDescriptor, C: TopCoordinates, R: Reads> Layout for CkLayout<D, C, R> {
    type Coordinates = C;
    type SourceCoordinates = Coords1d;

    /// The offset (CK's for a padded coordinate, which may be negative,
    /// then wrapped to `usize` as the kernel's cast wraps it).
    fn to_source_pos(&self, pos: C) -> usize {
        host(&D::DESCRIPTOR, pos).0 as usize
    }

    fn to_source_pos_checked(&self, pos: C) -> (usize, bool) {
        let (offset, valid) = host(&D::DESCRIPTOR, pos);
        (offset as usize, valid)
    }

    fn shape(&self) -> C {
        C::from_lengths(D::DESCRIPTOR.lengths().as_slice())
    }

    fn is_in_bounds(&self, pos: C) -> bool {
        host(&D::DESCRIPTOR, pos).1
    }
}

impl<C: TopCoordinates> LayoutExpand for CkLayoutExpand<C> {
    type Coordinates = C;
    type SourceCoordinates = Coords1d;

    fn __expand_to_source_pos_method(&self, scope: &Scope, pos: C::ExpandType) -> NativeExpand<usize> {
        self.offset(scope, pos, None)
    }

    fn __expand_to_source_pos_checked_method(
        &self,
        scope: &Scope,
        pos: C::ExpandType,
    ) -> (NativeExpand<usize>, NativeExpand<bool>) {
        let mut tests = Tests::default();
        let offset = self.offset(scope, pos, Some(&mut tests));
        (offset, all(scope, tests))
    }

    fn __expand_shape_method(&self, scope: &Scope) -> C::ExpandType {
        C::expand_lengths(scope, self.desc.lengths().as_slice())
    }

    fn __expand_is_in_bounds_method(&self, scope: &Scope, pos: C::ExpandType) -> NativeExpand<bool> {
        let mut tests = Tests::default();
        let _ = self.offset(scope, pos, Some(&mut tests));
        all(scope, tests)
    }
}
