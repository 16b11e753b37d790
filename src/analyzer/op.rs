//! [`Op`]: the shared-memory instructions the analyzer models.

use super::arch::{Arch, Vendor};
use crate::error::{Error, ErrorKind, Snippet};

/// A shared-memory instruction.
///
/// ```
/// use cktile::analyzer::Op;
/// let op = Op::by_name("ds_read_b128").unwrap();
/// assert_eq!((op.name(), op.bytes_per_lane(), op.is_read()), ("ds_read_b128", 16, true));
/// assert_eq!(Op::by_name("ldmatrix.x4.trans").unwrap(), Op::Ldmatrix { matrices: 4, trans: true });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// AMD `ds_read_b{bits}` (32, 64, 128).
    DsRead {
        /// Bits per lane.
        bits: u32,
    },
    /// AMD `ds_write_b{bits}` (32, 64, 128).
    DsWrite {
        /// Bits per lane.
        bits: u32,
    },
    /// NVIDIA `ld.shared.b{bits}` (8, 16, 32, 64, 128).
    LdShared {
        /// Bits per lane.
        bits: u32,
    },
    /// NVIDIA `st.shared.b{bits}` (8, 16, 32, 64, 128).
    StShared {
        /// Bits per lane.
        bits: u32,
    },
    /// NVIDIA `ldmatrix.x{1,2,4}[.trans]`: each 8x8 b16 matrix is eight
    /// 16-byte rows whose addresses come from lanes `8i..8i+7`.
    Ldmatrix {
        /// Number of matrices (1, 2 or 4).
        matrices: u32,
        /// `.trans` (changes the registers, not the shared-memory accesses).
        trans: bool,
    },
    /// NVIDIA `stmatrix.x{1,2,4}[.trans]` (sm90+), addressed as `ldmatrix`.
    Stmatrix {
        /// Number of matrices (1, 2 or 4).
        matrices: u32,
        /// `.trans`.
        trans: bool,
    },
}

/// Every instruction name, for messages.
///
/// ```
/// use cktile::analyzer::{op::OP_NAMES, Op};
/// assert!(OP_NAMES.split(", ").take(16).all(|name| Op::by_name(name).is_ok()));
/// assert!(OP_NAMES.contains("ldmatrix.x4"));
/// ```
pub const OP_NAMES: &str = "ds_read_b32, ds_read_b64, ds_read_b128, ds_write_b32, ds_write_b64, ds_write_b128, \
ld.shared.b8, ld.shared.b16, ld.shared.b32, ld.shared.b64, ld.shared.b128, st.shared.b8, st.shared.b16, \
st.shared.b32, st.shared.b64, st.shared.b128, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 (each with an optional .trans), \
stmatrix.x1, stmatrix.x2, stmatrix.x4 (each with an optional .trans)";

impl Op {
    /// The instruction with this name (see [`OP_NAMES`]).
    ///
    /// ```
    /// assert!(cktile::analyzer::Op::by_name("ds_read_b96").is_err());
    /// ```
    pub fn by_name(name: &str) -> Result<Op, Error> {
        let unknown = || Error::new(ErrorKind::UnknownName { name: Snippet::new(name), valid: OP_NAMES });
        let bits = |rest: &str, allowed: &[u32]| -> Result<u32, Error> {
            rest.parse::<u32>().ok().filter(|b| allowed.contains(b)).ok_or_else(unknown)
        };
        if let Some(rest) = name.strip_prefix("ds_read_b") {
            return Ok(Op::DsRead { bits: bits(rest, &[32, 64, 128])? });
        }
        if let Some(rest) = name.strip_prefix("ds_write_b") {
            return Ok(Op::DsWrite { bits: bits(rest, &[32, 64, 128])? });
        }
        if let Some(rest) = name.strip_prefix("ld.shared.b") {
            return Ok(Op::LdShared { bits: bits(rest, &[8, 16, 32, 64, 128])? });
        }
        if let Some(rest) = name.strip_prefix("st.shared.b") {
            return Ok(Op::StShared { bits: bits(rest, &[8, 16, 32, 64, 128])? });
        }
        for (prefix, load) in [("ldmatrix.x", true), ("stmatrix.x", false)] {
            if let Some(rest) = name.strip_prefix(prefix) {
                let (count, trans) = match rest.strip_suffix(".trans") {
                    Some(c) => (c, true),
                    None => (rest, false),
                };
                let matrices = bits(count, &[1, 2, 4])?;
                return Ok(if load { Op::Ldmatrix { matrices, trans } } else { Op::Stmatrix { matrices, trans } });
            }
        }
        Err(unknown())
    }

    /// The instruction's name.
    ///
    /// ```
    /// use cktile::analyzer::Op;
    /// assert_eq!(Op::StShared { bits: 64 }.name(), "st.shared.b64");
    /// ```
    pub fn name(&self) -> &'static str {
        const NAMES: [(Op, &str); 22] = [
            (Op::DsRead { bits: 32 }, "ds_read_b32"),
            (Op::DsRead { bits: 64 }, "ds_read_b64"),
            (Op::DsRead { bits: 128 }, "ds_read_b128"),
            (Op::DsWrite { bits: 32 }, "ds_write_b32"),
            (Op::DsWrite { bits: 64 }, "ds_write_b64"),
            (Op::DsWrite { bits: 128 }, "ds_write_b128"),
            (Op::LdShared { bits: 8 }, "ld.shared.b8"),
            (Op::LdShared { bits: 16 }, "ld.shared.b16"),
            (Op::LdShared { bits: 32 }, "ld.shared.b32"),
            (Op::LdShared { bits: 64 }, "ld.shared.b64"),
            (Op::LdShared { bits: 128 }, "ld.shared.b128"),
            (Op::StShared { bits: 8 }, "st.shared.b8"),
            (Op::StShared { bits: 16 }, "st.shared.b16"),
            (Op::StShared { bits: 32 }, "st.shared.b32"),
            (Op::StShared { bits: 64 }, "st.shared.b64"),
            (Op::StShared { bits: 128 }, "st.shared.b128"),
            (Op::Ldmatrix { matrices: 1, trans: false }, "ldmatrix.x1"),
            (Op::Ldmatrix { matrices: 2, trans: false }, "ldmatrix.x2"),
            (Op::Ldmatrix { matrices: 4, trans: false }, "ldmatrix.x4"),
            (Op::Stmatrix { matrices: 1, trans: false }, "stmatrix.x1"),
            (Op::Stmatrix { matrices: 2, trans: false }, "stmatrix.x2"),
            (Op::Stmatrix { matrices: 4, trans: false }, "stmatrix.x4"),
        ];
        const TRANS: [(Op, &str); 6] = [
            (Op::Ldmatrix { matrices: 1, trans: true }, "ldmatrix.x1.trans"),
            (Op::Ldmatrix { matrices: 2, trans: true }, "ldmatrix.x2.trans"),
            (Op::Ldmatrix { matrices: 4, trans: true }, "ldmatrix.x4.trans"),
            (Op::Stmatrix { matrices: 1, trans: true }, "stmatrix.x1.trans"),
            (Op::Stmatrix { matrices: 2, trans: true }, "stmatrix.x2.trans"),
            (Op::Stmatrix { matrices: 4, trans: true }, "stmatrix.x4.trans"),
        ];
        NAMES.iter().chain(TRANS.iter()).find(|(o, _)| o == self).map_or("invalid instruction", |(_, n)| n)
    }

    /// Bytes one lane accesses (for `ldmatrix`/`stmatrix`: one 16-byte row per address lane).
    ///
    /// ```
    /// assert_eq!(cktile::analyzer::Op::LdShared { bits: 8 }.bytes_per_lane(), 1);
    /// ```
    pub const fn bytes_per_lane(&self) -> u64 {
        match *self {
            Op::DsRead { bits } | Op::DsWrite { bits } | Op::LdShared { bits } | Op::StShared { bits } => {
                bits as u64 / 8
            }
            Op::Ldmatrix { .. } | Op::Stmatrix { .. } => 16,
        }
    }

    /// Whether it reads shared memory.
    ///
    /// ```
    /// assert!(!cktile::analyzer::Op::DsWrite { bits: 32 }.is_read());
    /// ```
    pub const fn is_read(&self) -> bool {
        matches!(self, Op::DsRead { .. } | Op::LdShared { .. } | Op::Ldmatrix { .. })
    }

    /// The vendor whose chips have it.
    ///
    /// ```
    /// use cktile::analyzer::{Op, arch::Vendor};
    /// assert_eq!(Op::Ldmatrix { matrices: 4, trans: false }.vendor(), Vendor::Nvidia);
    /// ```
    pub const fn vendor(&self) -> Vendor {
        match self {
            Op::DsRead { .. } | Op::DsWrite { .. } => Vendor::Amd,
            _ => Vendor::Nvidia,
        }
    }

    /// Whether `arch` has this instruction (`stmatrix` needs sm90).
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op};
    /// assert!(Op::DsRead { bits: 128 }.runs_on(&arch::GFX942));
    /// assert!(!Op::Stmatrix { matrices: 1, trans: false }.runs_on(&arch::SM80));
    /// ```
    pub const fn runs_on(&self, arch: &Arch) -> bool {
        let vendor_ok =
            matches!((self.vendor(), arch.vendor), (Vendor::Amd, Vendor::Amd) | (Vendor::Nvidia, Vendor::Nvidia));
        vendor_ok && (arch.has_stmatrix || !matches!(self, Op::Stmatrix { .. }))
    }
}
