//! [`Arch`]: the shared-memory geometry of each modelled chip.

use crate::error::{Error, ErrorKind, Snippet};

/// Who made the chip: decides the instruction set and whether an idle phase
/// still costs a pass.
///
/// ```
/// use cktile::analyzer::arch::{Vendor, GFX942, SM90};
/// assert_eq!((GFX942.vendor, SM90.vendor), (Vendor::Amd, Vendor::Nvidia));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vendor {
    /// AMD (LDS, `ds_*` instructions, wave64).
    Amd,
    /// NVIDIA (shared memory, `ld/st.shared`, `ldmatrix`, warp32).
    Nvidia,
}

/// A chip's shared-memory model: 4-byte banks, bank count, wave size.
///
/// ```
/// use cktile::analyzer::Arch;
/// let a = Arch::by_name("gfx950").unwrap();
/// assert_eq!((a.banks, a.wave, a.bytes_per_cycle()), (64, 64, 256));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arch {
    /// The name used on the command line.
    pub name: &'static str,
    /// The chip it models.
    pub description: &'static str,
    /// The vendor.
    pub vendor: Vendor,
    /// Number of 4-byte banks.
    pub banks: u32,
    /// Lanes per wave (AMD) or warp (NVIDIA).
    pub wave: u32,
    /// Shared memory per workgroup / block, in bytes.
    pub shared_bytes: u32,
    /// Whether the chip has `stmatrix` (sm90 and later).
    pub has_stmatrix: bool,
}

/// AMD CDNA2 (MI200): 32 banks, wave64, 64 KB LDS.
///
/// ```
/// assert_eq!(cktile::analyzer::arch::GFX90A.banks, 32);
/// ```
pub const GFX90A: Arch = Arch {
    name: "gfx90a",
    description: "AMD CDNA2 (MI200)",
    vendor: Vendor::Amd,
    banks: 32,
    wave: 64,
    shared_bytes: 65536,
    has_stmatrix: false,
};
/// AMD CDNA3 (MI300): 32 banks, wave64, 64 KB LDS.
///
/// ```
/// assert_eq!(cktile::analyzer::arch::GFX942.wave, 64);
/// ```
pub const GFX942: Arch = Arch {
    name: "gfx942",
    description: "AMD CDNA3 (MI300)",
    vendor: Vendor::Amd,
    banks: 32,
    wave: 64,
    shared_bytes: 65536,
    has_stmatrix: false,
};
/// AMD CDNA4 (MI350): 64 banks, wave64, 160 KB LDS.
///
/// ```
/// assert_eq!(cktile::analyzer::arch::GFX950.banks, 64);
/// ```
pub const GFX950: Arch = Arch {
    name: "gfx950",
    description: "AMD CDNA4 (MI350)",
    vendor: Vendor::Amd,
    banks: 64,
    wave: 64,
    shared_bytes: 163840,
    has_stmatrix: false,
};
/// NVIDIA Ampere (A100): 32 banks, warp32, up to 164 KB shared memory.
///
/// ```
/// assert_eq!((cktile::analyzer::arch::SM80.wave, cktile::analyzer::arch::SM80.has_stmatrix), (32, false));
/// ```
pub const SM80: Arch = Arch {
    name: "sm80",
    description: "NVIDIA Ampere (A100)",
    vendor: Vendor::Nvidia,
    banks: 32,
    wave: 32,
    shared_bytes: 167936,
    has_stmatrix: false,
};
/// NVIDIA Hopper (H100): 32 banks, warp32, up to 228 KB shared memory.
///
/// ```
/// assert!(cktile::analyzer::arch::SM90.has_stmatrix);
/// ```
pub const SM90: Arch = Arch {
    name: "sm90",
    description: "NVIDIA Hopper (H100)",
    vendor: Vendor::Nvidia,
    banks: 32,
    wave: 32,
    shared_bytes: 233472,
    has_stmatrix: true,
};

/// Every modelled chip.
///
/// ```
/// let names: Vec<&str> = cktile::analyzer::ARCHS.iter().map(|a| a.name).collect();
/// assert_eq!(names, ["gfx90a", "gfx942", "gfx950", "sm80", "sm90"]);
/// ```
pub const ARCHS: [Arch; 5] = [GFX90A, GFX942, GFX950, SM80, SM90];

const NAMES: &str = "gfx90a, gfx942, gfx950, sm80, sm90";

impl Arch {
    /// The chip with this name.
    ///
    /// ```
    /// let e = cktile::analyzer::Arch::by_name("gfx1100").unwrap_err();
    /// assert!(e.to_string().contains("gfx90a, gfx942, gfx950, sm80, sm90"));
    /// ```
    pub fn by_name(name: &str) -> Result<Arch, Error> {
        ARCHS
            .iter()
            .find(|a| a.name == name)
            .copied()
            .ok_or_else(|| Error::new(ErrorKind::UnknownName { name: Snippet::new(name), valid: NAMES }))
    }

    /// Bytes the banks deliver per cycle (one pass): `banks * 4`.
    ///
    /// ```
    /// assert_eq!(cktile::analyzer::arch::GFX942.bytes_per_cycle(), 128);
    /// ```
    pub const fn bytes_per_cycle(&self) -> u64 {
        self.banks as u64 * 4
    }
}
