//! [`Arch`]: the modelled chips: vendor, wave size, shared-memory capacity.
//!
//! A chip's bank count is not a property of the chip alone: on gfx950 only
//! `ds_read_b64` and `ds_read_b128` resolve conflicts over 64 banks, every
//! other instruction over 32. The bank count and lane grouping of each
//! (chip, instruction) live in one table, [`rules`](crate::analyzer::rules).
//!
//! `Arch` values come only from the constants below and [`Arch::by_name`]:
//! its fields are private, so no caller can build a chip with no banks or a
//! wave the model cannot hold. The functions that can fail (by name, the
//! capacity check) are written in
//! [`analyzer::lookup`](crate::analyzer::lookup), above the error type that
//! quotes this vocabulary.

/// Who made the chip: decides the instruction set and whether an idle phase
/// still costs a pass.
///
/// ```
/// use cktile_analysis::analyzer::arch::{Vendor, GFX942, SM90};
/// assert_eq!((GFX942.vendor(), SM90.vendor()), (Vendor::Amd, Vendor::Nvidia));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vendor {
    /// AMD (LDS, `ds_*` instructions).
    Amd,
    /// NVIDIA (shared memory, `ld/st.shared`, `ldmatrix`, warp32).
    Nvidia,
}

/// Which chip (or model variant of a chip) an [`Arch`] is: the key of the
/// rule table.
///
/// ```
/// use cktile_analysis::analyzer::arch::{Chip, GFX950, GFX950_B32X64};
/// assert_eq!((GFX950.chip(), GFX950_B32X64.chip()), (Chip::Gfx950, Chip::Gfx950B32x64));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chip {
    /// AMD CDNA2, MI200.
    Gfx90a,
    /// AMD CDNA3, MI300.
    Gfx942,
    /// AMD CDNA4, MI350/MI355, with AMD's rule for `ds_read_b32` (2 x 32
    /// lanes on 32 banks; rocKE, rocRoller).
    Gfx950,
    /// gfx950 with nod-ai's latency measurement for `ds_read_b32` (one
    /// 64-lane phase on 64 banks); otherwise as [`Chip::Gfx950`].
    Gfx950B32x64,
    /// AMD RDNA3 (W7900, RX 7900), wave32.
    Gfx1100,
    /// AMD RDNA4 (RX 9070), wave32.
    Gfx1201,
    /// AMD gfx1250 (MI400 series), wave32, 320 KiB LDS, the Tensor Data
    /// Mover and the `ds_load_tr*` transposing loads.
    Gfx1250,
    /// NVIDIA Ampere, A100.
    Sm80,
    /// NVIDIA Hopper, H100.
    Sm90,
}

/// A chip's shared-memory model: who made it, its wave size and its
/// shared-memory capacity. Bank counts and lane groupings are per
/// instruction: see [`rules::rule`](crate::analyzer::rules::rule).
///
/// ```
/// use cktile_analysis::analyzer::Arch;
/// let a = Arch::by_name("gfx950")?;
/// assert_eq!((a.wave(), a.shared_bytes(), a.max_banks()), (64, 163840, 64));
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arch {
    name: &'static str,
    description: &'static str,
    chip: Chip,
    vendor: Vendor,
    wave: u32,
    shared_bytes: u32,
    max_banks: u32,
    has_stmatrix: bool,
    has_transposed_reads: bool,
    ck_lds_banks: Option<u32>,
    lds_load_widths: &'static [usize],
    has_load_tr: bool,
    lds_granule: Option<u32>,
}

/// AMD CDNA2 (MI200): wave64, 32 banks, 64 KB LDS.
///
/// ```
/// assert_eq!(cktile_analysis::analyzer::arch::GFX90A.shared_bytes(), 65536);
/// ```
pub const GFX90A: Arch = Arch {
    name: "gfx90a",
    description: "AMD CDNA2 (MI200)",
    chip: Chip::Gfx90a,
    vendor: Vendor::Amd,
    wave: 64,
    shared_bytes: 65536,
    max_banks: 32,
    has_stmatrix: false,
    has_transposed_reads: false,
    ck_lds_banks: Some(32),
    lds_load_widths: &[],
    has_load_tr: false,
    lds_granule: None,
};
/// AMD CDNA3 (MI300): wave64, 32 banks, 64 KB LDS.
///
/// ```
/// assert_eq!(cktile_analysis::analyzer::arch::GFX942.wave(), 64);
/// ```
pub const GFX942: Arch = Arch {
    name: "gfx942",
    description: "AMD CDNA3 (MI300)",
    chip: Chip::Gfx942,
    vendor: Vendor::Amd,
    wave: 64,
    shared_bytes: 65536,
    max_banks: 32,
    has_stmatrix: false,
    has_transposed_reads: false,
    ck_lds_banks: Some(32),
    lds_load_widths: &[1, 2, 4],
    has_load_tr: false,
    lds_granule: None,
};
/// AMD CDNA4 (MI350): wave64, 160 KB LDS; 64 banks for `ds_read_b64` and
/// `ds_read_b128`, 32 for every other instruction.
///
/// ```
/// assert_eq!(cktile_analysis::analyzer::arch::GFX950.max_banks(), 64);
/// ```
pub const GFX950: Arch = Arch {
    name: "gfx950",
    description: "AMD CDNA4 (MI350)",
    chip: Chip::Gfx950,
    vendor: Vendor::Amd,
    wave: 64,
    shared_bytes: 163840,
    max_banks: 64,
    has_stmatrix: false,
    has_transposed_reads: true,
    ck_lds_banks: Some(64),
    lds_load_widths: &[1, 2, 4, 12, 16],
    has_load_tr: false,
    lds_granule: None,
};
/// gfx950 with the disputed `ds_read_b32` rule of nod-ai's latency
/// measurement: one 64-lane phase on 64 banks (see
/// [`rules`](crate::analyzer::rules) for why it is not the default).
///
/// ```
/// assert_eq!(cktile_analysis::analyzer::arch::GFX950_B32X64.name(), "gfx950-b32x64");
/// ```
pub const GFX950_B32X64: Arch = Arch {
    name: "gfx950-b32x64",
    description: "AMD CDNA4 (MI350), ds_read_b32 as one 64-lane phase on 64 banks (nod-ai, disputed)",
    chip: Chip::Gfx950B32x64,
    ..GFX950
};
/// AMD RDNA3 (W7900): wave32, 32 banks, 64 KB LDS per workgroup.
///
/// ```
/// assert_eq!(cktile_analysis::analyzer::arch::GFX1100.wave(), 32);
/// ```
pub const GFX1100: Arch = Arch {
    name: "gfx1100",
    description: "AMD RDNA3 (W7900, RX 7900)",
    chip: Chip::Gfx1100,
    vendor: Vendor::Amd,
    wave: 32,
    shared_bytes: 65536,
    max_banks: 32,
    has_stmatrix: false,
    has_transposed_reads: false,
    ck_lds_banks: Some(32),
    lds_load_widths: &[],
    has_load_tr: false,
    lds_granule: None,
};
/// AMD RDNA4 (RX 9070): wave32, 32 banks, 64 KB LDS per workgroup.
///
/// ```
/// assert_eq!(cktile_analysis::analyzer::arch::GFX1201.max_banks(), 32);
/// ```
pub const GFX1201: Arch = Arch { name: "gfx1201", description: "AMD RDNA4 (RX 9070)", chip: Chip::Gfx1201, ..GFX1100 };
/// AMD gfx1250 (MI400 series): wave32, 320 KiB of LDS allocated in 2 KiB
/// blocks, 64 banks (CK Tile's `get_n_lds_banks(gfx125_t)`, Triton's
/// `getSharedMemoryBanks`), the `ds_load_tr*` transposing loads. No
/// measurement of its LDS is public: see
/// [`rules`](crate::analyzer::rules) for which of its rules are sourced and
/// which assumed.
///
/// ```
/// use cktile_analysis::analyzer::arch::GFX1250;
/// assert_eq!((GFX1250.wave(), GFX1250.shared_bytes(), GFX1250.max_banks()), (32, 327680, 64));
/// assert_eq!(GFX1250.lds_granule(), Some(2048));
/// ```
pub const GFX1250: Arch = Arch {
    name: "gfx1250",
    description: "AMD gfx1250 (MI400 series)",
    chip: Chip::Gfx1250,
    vendor: Vendor::Amd,
    wave: 32,
    shared_bytes: 327680,
    max_banks: 64,
    has_stmatrix: false,
    has_transposed_reads: false,
    ck_lds_banks: Some(64),
    lds_load_widths: &[],
    has_load_tr: true,
    lds_granule: Some(2048),
};
/// NVIDIA Ampere (A100): 32 banks, warp32, up to 163 KB shared memory per
/// block (with the opt-in; 48 KB without).
///
/// ```
/// assert_eq!((cktile_analysis::analyzer::arch::SM80.wave(), cktile_analysis::analyzer::arch::SM80.has_stmatrix()), (32, false));
/// ```
pub const SM80: Arch = Arch {
    name: "sm80",
    description: "NVIDIA Ampere (A100)",
    chip: Chip::Sm80,
    vendor: Vendor::Nvidia,
    wave: 32,
    shared_bytes: 166912,
    max_banks: 32,
    has_stmatrix: false,
    has_transposed_reads: false,
    ck_lds_banks: None,
    lds_load_widths: &[],
    has_load_tr: false,
    lds_granule: None,
};
/// NVIDIA Hopper (H100): 32 banks, warp32, up to 227 KB shared memory per
/// block (with the opt-in; 48 KB without).
///
/// ```
/// assert!(cktile_analysis::analyzer::arch::SM90.has_stmatrix());
/// ```
pub const SM90: Arch = Arch {
    name: "sm90",
    description: "NVIDIA Hopper (H100)",
    chip: Chip::Sm90,
    vendor: Vendor::Nvidia,
    wave: 32,
    shared_bytes: 232448,
    max_banks: 32,
    has_stmatrix: true,
    has_transposed_reads: false,
    ck_lds_banks: None,
    lds_load_widths: &[],
    has_load_tr: false,
    lds_granule: None,
};

/// Every modelled chip.
///
/// ```
/// let names: Vec<&str> = cktile_analysis::analyzer::ARCHS.iter().map(|a| a.name()).collect();
/// assert_eq!(names, ["gfx90a", "gfx942", "gfx950", "gfx950-b32x64", "gfx1100", "gfx1201", "gfx1250", "sm80", "sm90"]);
/// ```
pub const ARCHS: [Arch; 9] = [GFX90A, GFX942, GFX950, GFX950_B32X64, GFX1100, GFX1201, GFX1250, SM80, SM90];

/// The chips' names, in [`ARCHS`]' order.
const NAME_LIST: [&str; ARCHS.len()] = cktile_core::names::names_of!(ARCHS, |r| r.name);
/// The chips' names, comma-separated, derived from [`ARCHS`]: the list
/// every message and the command line's help give, so that none can leave
/// out a chip [`Arch::by_name`] takes.
///
/// ```
/// use cktile_analysis::analyzer::arch::{ARCH_NAMES, ARCHS};
/// assert_eq!(ARCH_NAMES, "gfx90a, gfx942, gfx950, gfx950-b32x64, gfx1100, gfx1201, gfx1250, sm80, sm90");
/// assert_eq!(ARCH_NAMES.split(", ").count(), ARCHS.len());
/// ```
pub const ARCH_NAMES: &str = cktile_core::names::joined!(&NAME_LIST);

impl Arch {
    /// The name used on the command line.
    ///
    /// ```
    /// assert_eq!(cktile_analysis::analyzer::arch::GFX1201.name(), "gfx1201");
    /// ```
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The chip it models, in words.
    ///
    /// ```
    /// assert_eq!(cktile_analysis::analyzer::arch::GFX942.description(), "AMD CDNA3 (MI300)");
    /// ```
    pub const fn description(&self) -> &'static str {
        self.description
    }

    /// Which chip (or model variant) this is.
    ///
    /// ```
    /// use cktile_analysis::analyzer::arch::{Chip, SM80};
    /// assert_eq!(SM80.chip(), Chip::Sm80);
    /// ```
    pub const fn chip(&self) -> Chip {
        self.chip
    }

    /// The vendor.
    ///
    /// ```
    /// use cktile_analysis::analyzer::arch::{Vendor, GFX1100};
    /// assert_eq!(GFX1100.vendor(), Vendor::Amd);
    /// ```
    pub const fn vendor(&self) -> Vendor {
        self.vendor
    }

    /// Lanes per wave (AMD) or warp (NVIDIA).
    ///
    /// ```
    /// assert_eq!(cktile_analysis::analyzer::arch::SM90.wave(), 32);
    /// ```
    pub const fn wave(&self) -> u32 {
        self.wave
    }

    /// The most shared memory one workgroup (block) can use, in bytes:
    /// 64 KB on gfx90a, gfx942 and RDNA, 160 KB on gfx950 (rocKE's
    /// `lds_capacity_bytes`, the CDNA4 whitepaper), 320 KiB on gfx1250
    /// (LLVM's `FeatureAddressableLocalMemorySize327680`, CK Tile's
    /// `get_lds_size(gfx125_t)`); on NVIDIA the opt-in
    /// maximum per block of the CUDA programming guide (163 KB on sm80,
    /// 227 KB on sm90; 48 KB without the opt-in).
    ///
    /// ```
    /// assert_eq!(cktile_analysis::analyzer::arch::SM90.shared_bytes(), 227 * 1024);
    /// ```
    pub const fn shared_bytes(&self) -> u32 {
        self.shared_bytes
    }

    /// The most banks any instruction sees on this chip (64 on gfx950 and gfx1250, 32
    /// elsewhere): the period of pictures that colour offsets by bank
    /// without naming an instruction.
    ///
    /// ```
    /// assert_eq!(cktile_analysis::analyzer::arch::GFX942.max_banks(), 32);
    /// ```
    pub const fn max_banks(&self) -> u32 {
        self.max_banks
    }

    /// The bank count CK Tile's own policies assume on this chip
    /// (`get_n_lds_banks()`: 64 on gfx950 and gfx1250, 32 on every other AMD chip), the
    /// value CK's `MLdsLayer` and `KPack` rules are computed with. `None`
    /// on NVIDIA.
    ///
    /// ```
    /// use cktile_analysis::analyzer::arch;
    /// assert_eq!((arch::GFX950.ck_lds_banks(), arch::GFX1201.ck_lds_banks(), arch::SM90.ck_lds_banks()), (Some(64), Some(32), None));
    /// assert_eq!(arch::GFX1250.ck_lds_banks(), Some(64));
    /// ```
    pub const fn ck_lds_banks(&self) -> Option<u32> {
        self.ck_lds_banks
    }

    /// Whether the chip has `stmatrix` (sm90 and later).
    ///
    /// ```
    /// assert!(!cktile_analysis::analyzer::arch::SM80.has_stmatrix());
    /// ```
    pub const fn has_stmatrix(&self) -> bool {
        self.has_stmatrix
    }

    /// Whether the chip has the transposing LDS reads `ds_read_b64_tr_b4`,
    /// `_b8` and `_b16` (gfx950).
    ///
    /// ```
    /// use cktile_analysis::analyzer::arch;
    /// assert!(arch::GFX950.has_transposed_reads() && !arch::GFX942.has_transposed_reads());
    /// ```
    pub const fn has_transposed_reads(&self) -> bool {
        self.has_transposed_reads
    }

    /// The widths in bytes a direct-to-LDS load (`global_load_lds_*`,
    /// `buffer_load_* ... lds`) takes on the chip, empty where cktile does
    /// not model one: 1, 2 or 4 on gfx942, also 12 and 16 on gfx950 (LLVM
    /// PR #92962, CK PR #2576).
    ///
    /// ```
    /// use cktile_analysis::analyzer::arch;
    /// assert_eq!(arch::GFX950.lds_load_widths(), [1, 2, 4, 12, 16]);
    /// assert!(arch::SM90.lds_load_widths().is_empty());
    /// ```
    pub const fn lds_load_widths(&self) -> &'static [usize] {
        self.lds_load_widths
    }

    /// Whether the chip has gfx1250's transposing LDS loads
    /// `ds_load_tr4_b64`, `ds_load_tr8_b64`, `ds_load_tr6_b96` and
    /// `ds_load_tr16_b128` (LLVM's gfx1250 instruction definitions).
    ///
    /// ```
    /// use cktile_analysis::analyzer::arch;
    /// assert!(arch::GFX1250.has_load_tr() && !arch::GFX950.has_load_tr());
    /// ```
    pub const fn has_load_tr(&self) -> bool {
        self.has_load_tr
    }

    /// The block LDS is allocated in, in bytes, where a source gives it:
    /// 2 KiB on gfx1250 (LLVM PR #167614); `None` on the chips cktile does
    /// not model it for. A workgroup's LDS use is rounded up to it.
    ///
    /// ```
    /// use cktile_analysis::analyzer::arch;
    /// assert_eq!((arch::GFX1250.lds_granule(), arch::GFX942.lds_granule()), (Some(2048), None));
    /// ```
    pub const fn lds_granule(&self) -> Option<u32> {
        self.lds_granule
    }

    /// Whether the chip is CDNA4 (gfx950 or its model variant).
    ///
    /// ```
    /// use cktile_analysis::analyzer::arch;
    /// assert!(arch::GFX950_B32X64.is_gfx950() && !arch::GFX942.is_gfx950());
    /// ```
    pub const fn is_gfx950(&self) -> bool {
        matches!(self.chip, Chip::Gfx950 | Chip::Gfx950B32x64)
    }
}
