//! [`Op`]: the shared-memory instructions the analyzer models, their names
//! and the bytes each lane moves.
//!
//! Every function here is total: an `Op` built by hand with a width the
//! instruction does not have (`Op::DsRead { bits: 7 }`) is reported by
//! [`Op::check`], which the analyzer calls before counting, and is never
//! divided by or indexed with. The functions that can fail (by name, the
//! check) return the crate's error, which quotes this vocabulary: they are
//! written in [`analyzer::lookup`](crate::analyzer::lookup), above it.

use super::arch::{Arch, Vendor};

/// A shared-memory instruction.
///
/// ```
/// use cktile_analysis::analyzer::Op;
/// let op = Op::by_name("ds_read_b128")?;
/// assert_eq!((op.name(), op.bytes_per_lane(), op.is_read()), ("ds_read_b128", 16, true));
/// assert_eq!(Op::by_name("ldmatrix.x4.trans")?, Op::Ldmatrix { matrices: 4, trans: true });
/// // Two addresses per lane: the base plus offset0 and offset1 elements of 8 bytes.
/// let read2 = Op::by_name("ds_read2_b64(0,8)")?;
/// assert_eq!(read2, Op::DsRead2 { bits: 64, offsets: [0, 8], st64: false });
/// assert_eq!((read2.accesses(), read2.access_offset(1)), (2, 64));
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// AMD `ds_read_u8` (bits 8), `ds_read_u16` (16), `ds_read_b32`,
    /// `ds_read_b64`, `ds_read_b96`, `ds_read_b128`.
    DsRead {
        /// Bits per lane.
        bits: u32,
    },
    /// AMD `ds_write_b8`, `ds_write_b16`, `ds_write_b32`, `ds_write_b64`,
    /// `ds_write_b96`, `ds_write_b128`.
    DsWrite {
        /// Bits per lane.
        bits: u32,
    },
    /// AMD `ds_read2_b{32,64}` and `ds_read2st64_b{32,64}`: each lane reads
    /// two elements of `bits`, at `base + offsets[i] * bits / 8` (times 64
    /// for the `st64` forms).
    DsRead2 {
        /// Bits per element (32 or 64).
        bits: u32,
        /// `offset0` and `offset1`, in elements (times 64 with `st64`).
        offsets: [u8; 2],
        /// The `st64` form.
        st64: bool,
    },
    /// AMD `ds_write2_b{32,64}` and `ds_write2st64_b{32,64}`, addressed as
    /// [`Op::DsRead2`].
    DsWrite2 {
        /// Bits per element (32 or 64).
        bits: u32,
        /// `offset0` and `offset1`, in elements (times 64 with `st64`).
        offsets: [u8; 2],
        /// The `st64` form.
        st64: bool,
    },
    /// gfx950's transposing `ds_read_b64_tr_b{4,8,16}`: 8 bytes per lane.
    DsReadTr {
        /// Bits of the transposed elements (4, 8 or 16).
        element_bits: u32,
    },
    /// gfx1250's transposing `ds_load_tr4_b64`, `ds_load_tr8_b64`,
    /// `ds_load_tr6_b96` and `ds_load_tr16_b128`: 8, 8, 12 and 16 bytes per
    /// lane (LLVM's gfx1250 instruction definitions).
    DsLoadTr {
        /// Bits of the transposed elements (4, 6, 8 or 16).
        element_bits: u32,
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
    /// NVIDIA `cp.async` (sm80+, SASS `LDGSTS`): a global-to-shared copy of
    /// `bits / 8` bytes per lane (`cp.async.ca.shared.global` with cp-size
    /// 4 or 8, `cp.async.cg.shared.global` with 16); only its shared-memory
    /// write is modelled.
    CpAsync {
        /// Bits per lane (32, 64 or 128).
        bits: u32,
    },
}

/// Every instruction name, for messages: [`all_ops`]' names, then how the
/// read2/write2 forms take their offsets.
///
/// ```
/// use cktile_analysis::analyzer::{op::{all_ops, OP_NAMES}, Op};
/// let (names, note) = OP_NAMES.split_once("; ").unwrap();
/// let names: Vec<&str> = names.split(", ").collect();
/// assert_eq!(names.len(), all_ops().count());
/// assert!(names.iter().zip(all_ops()).all(|(name, op)| Op::by_name(name) == Ok(op)));
/// assert!(note.contains("NAME(offset0,offset1)"));
/// ```
pub const OP_NAMES: &str = cktile_core::names::joined!(
    &[
        cktile_core::names::joined!(&NAME_LIST),
        "; the read2/write2 forms take offsets as NAME(offset0,offset1), 0 to 255, default (0,1)"
    ],
    ""
);

const NAME_LIST: [&str; TABLE.len()] = cktile_core::names::names_of!(TABLE, |r| r.1);

/// Every instruction with its name: the one list `by_name`, `name` and the
/// tests read (read2/write2 with their default offsets).
const TABLE: [(Op, &str); 52] = [
    (Op::DsRead { bits: 8 }, "ds_read_u8"),
    (Op::DsRead { bits: 16 }, "ds_read_u16"),
    (Op::DsRead { bits: 32 }, "ds_read_b32"),
    (Op::DsRead { bits: 64 }, "ds_read_b64"),
    (Op::DsRead { bits: 96 }, "ds_read_b96"),
    (Op::DsRead { bits: 128 }, "ds_read_b128"),
    (Op::DsWrite { bits: 8 }, "ds_write_b8"),
    (Op::DsWrite { bits: 16 }, "ds_write_b16"),
    (Op::DsWrite { bits: 32 }, "ds_write_b32"),
    (Op::DsWrite { bits: 64 }, "ds_write_b64"),
    (Op::DsWrite { bits: 96 }, "ds_write_b96"),
    (Op::DsWrite { bits: 128 }, "ds_write_b128"),
    (Op::DsRead2 { bits: 32, offsets: [0, 1], st64: false }, "ds_read2_b32"),
    (Op::DsRead2 { bits: 64, offsets: [0, 1], st64: false }, "ds_read2_b64"),
    (Op::DsRead2 { bits: 32, offsets: [0, 1], st64: true }, "ds_read2st64_b32"),
    (Op::DsRead2 { bits: 64, offsets: [0, 1], st64: true }, "ds_read2st64_b64"),
    (Op::DsWrite2 { bits: 32, offsets: [0, 1], st64: false }, "ds_write2_b32"),
    (Op::DsWrite2 { bits: 64, offsets: [0, 1], st64: false }, "ds_write2_b64"),
    (Op::DsWrite2 { bits: 32, offsets: [0, 1], st64: true }, "ds_write2st64_b32"),
    (Op::DsWrite2 { bits: 64, offsets: [0, 1], st64: true }, "ds_write2st64_b64"),
    (Op::DsReadTr { element_bits: 4 }, "ds_read_b64_tr_b4"),
    (Op::DsReadTr { element_bits: 8 }, "ds_read_b64_tr_b8"),
    (Op::DsReadTr { element_bits: 16 }, "ds_read_b64_tr_b16"),
    (Op::DsLoadTr { element_bits: 4 }, "ds_load_tr4_b64"),
    (Op::DsLoadTr { element_bits: 8 }, "ds_load_tr8_b64"),
    (Op::DsLoadTr { element_bits: 6 }, "ds_load_tr6_b96"),
    (Op::DsLoadTr { element_bits: 16 }, "ds_load_tr16_b128"),
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
    (Op::Ldmatrix { matrices: 1, trans: true }, "ldmatrix.x1.trans"),
    (Op::Ldmatrix { matrices: 2, trans: true }, "ldmatrix.x2.trans"),
    (Op::Ldmatrix { matrices: 4, trans: true }, "ldmatrix.x4.trans"),
    (Op::Stmatrix { matrices: 1, trans: true }, "stmatrix.x1.trans"),
    (Op::Stmatrix { matrices: 2, trans: true }, "stmatrix.x2.trans"),
    (Op::Stmatrix { matrices: 4, trans: true }, "stmatrix.x4.trans"),
    (Op::CpAsync { bits: 32 }, "cp.async.b32"),
    (Op::CpAsync { bits: 64 }, "cp.async.b64"),
    (Op::CpAsync { bits: 128 }, "cp.async.b128"),
];

/// Every instruction cktile models, read2/write2 with offsets (0, 1).
///
/// ```
/// use cktile_analysis::analyzer::op::{all_ops, Op};
/// let ops: Vec<Op> = all_ops().collect();
/// assert_eq!(ops.len(), 52);
/// assert!(ops.iter().all(|op| op.check().is_ok() && Op::by_name(&op.to_string()) == Ok(*op)));
/// ```
pub fn all_ops() -> impl Iterator<Item = Op> {
    TABLE.iter().map(|(op, _)| *op)
}

/// The offsets a read2/write2 name carries: `(a,b)` after the mnemonic.
fn split_offsets(name: &str) -> Result<(&str, Option<[u8; 2]>), ()> {
    let Some(open) = name.find('(') else { return Ok((name, None)) };
    let inner = name[open..].strip_prefix('(').and_then(|s| s.strip_suffix(')')).ok_or(())?;
    let mut parts = inner.split(',').map(str::trim);
    let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else { return Err(()) };
    let (a, b) = (a.parse::<u8>().map_err(|_| ())?, b.parse::<u8>().map_err(|_| ())?);
    Ok((name[..open].trim_end(), Some([a, b])))
}

impl Op {
    /// The instruction with this name, as [`Op::by_name`] reads it, or
    /// `None` (the vocabulary's half: the error naming the valid ones is
    /// the caller's).
    pub(crate) fn from_name(name: &str) -> Option<Op> {
        let (mnemonic, offsets) = split_offsets(name.trim()).ok()?;
        let mnemonic = match mnemonic {
            "ds_read_i8" => "ds_read_u8",
            "ds_read_i16" => "ds_read_u16",
            m => m,
        };
        let op = TABLE.iter().find(|(_, n)| *n == mnemonic).map(|(op, _)| *op)?;
        match (op, offsets) {
            (op, None) => Some(op),
            (Op::DsRead2 { bits, st64, .. }, Some(offsets)) => Some(Op::DsRead2 { bits, offsets, st64 }),
            (Op::DsWrite2 { bits, st64, .. }, Some(offsets)) => Some(Op::DsWrite2 { bits, offsets, st64 }),
            (_, Some(_)) => None,
        }
    }

    /// The instruction's mnemonic (without read2/write2 offsets; its
    /// [`Display`](core::fmt::Display) form adds them), or
    /// `"invalid instruction"` for an `Op` no chip has.
    ///
    /// ```
    /// use cktile_analysis::analyzer::Op;
    /// assert_eq!(Op::StShared { bits: 64 }.name(), "st.shared.b64");
    /// assert_eq!(Op::DsRead2 { bits: 64, offsets: [0, 8], st64: false }.name(), "ds_read2_b64");
    /// assert_eq!(Op::DsRead { bits: 7 }.name(), "invalid instruction");
    /// ```
    pub fn name(&self) -> &'static str {
        let canonical = match *self {
            Op::DsRead2 { bits, st64, .. } => Op::DsRead2 { bits, offsets: [0, 1], st64 },
            Op::DsWrite2 { bits, st64, .. } => Op::DsWrite2 { bits, offsets: [0, 1], st64 },
            op => op,
        };
        TABLE.iter().find(|(o, _)| *o == canonical).map_or("invalid instruction", |(_, n)| n)
    }

    /// Whether some chip has this instruction (what [`check`](Self::check)
    /// tests, usable in `const` code).
    ///
    /// ```
    /// use cktile_analysis::analyzer::Op;
    /// assert!(Op::DsRead { bits: 96 }.is_valid() && !Op::LdShared { bits: 96 }.is_valid());
    /// ```
    pub const fn is_valid(&self) -> bool {
        match *self {
            Op::DsRead { bits } | Op::DsWrite { bits } => matches!(bits, 8 | 16 | 32 | 64 | 96 | 128),
            Op::DsRead2 { bits, .. } | Op::DsWrite2 { bits, .. } => matches!(bits, 32 | 64),
            Op::DsReadTr { element_bits } => matches!(element_bits, 4 | 8 | 16),
            Op::DsLoadTr { element_bits } => matches!(element_bits, 4 | 6 | 8 | 16),
            Op::LdShared { bits } | Op::StShared { bits } => matches!(bits, 8 | 16 | 32 | 64 | 128),
            Op::Ldmatrix { matrices, .. } | Op::Stmatrix { matrices, .. } => matches!(matrices, 1 | 2 | 4),
            Op::CpAsync { bits } => matches!(bits, 32 | 64 | 128),
        }
    }

    /// Addresses per lane: 2 for read2/write2, 1 otherwise.
    ///
    /// ```
    /// use cktile_analysis::analyzer::Op;
    /// assert_eq!((Op::DsWrite2 { bits: 32, offsets: [0, 1], st64: false }.accesses(), Op::DsRead { bits: 64 }.accesses()), (2, 1));
    /// ```
    pub const fn accesses(&self) -> u32 {
        match self {
            Op::DsRead2 { .. } | Op::DsWrite2 { .. } => 2,
            _ => 1,
        }
    }

    /// Bytes one of a lane's accesses covers (for `ldmatrix`/`stmatrix`:
    /// one 16-byte row per address lane; 0 for an invalid `Op`).
    ///
    /// ```
    /// use cktile_analysis::analyzer::Op;
    /// assert_eq!(Op::DsRead2 { bits: 64, offsets: [0, 1], st64: false }.access_bytes(), 8);
    /// assert_eq!(Op::DsReadTr { element_bits: 16 }.access_bytes(), 8);
    /// ```
    pub const fn access_bytes(&self) -> u64 {
        if !self.is_valid() {
            return 0;
        }
        match *self {
            Op::DsRead { bits }
            | Op::DsWrite { bits }
            | Op::DsRead2 { bits, .. }
            | Op::DsWrite2 { bits, .. }
            | Op::LdShared { bits }
            | Op::StShared { bits }
            | Op::CpAsync { bits } => bits as u64 / 8,
            Op::DsReadTr { .. } | Op::DsLoadTr { element_bits: 4 | 8 } => 8,
            Op::DsLoadTr { element_bits: 6 } => 12,
            Op::DsLoadTr { .. } => 16,
            Op::Ldmatrix { .. } | Op::Stmatrix { .. } => 16,
        }
    }

    /// Bytes one lane moves: [`access_bytes`](Self::access_bytes) times
    /// [`accesses`](Self::accesses).
    ///
    /// ```
    /// use cktile_analysis::analyzer::Op;
    /// assert_eq!(Op::LdShared { bits: 8 }.bytes_per_lane(), 1);
    /// assert_eq!(Op::DsRead2 { bits: 64, offsets: [0, 1], st64: false }.bytes_per_lane(), 16);
    /// ```
    pub const fn bytes_per_lane(&self) -> u64 {
        self.access_bytes() * self.accesses() as u64
    }

    /// The alignment every access needs, in bytes: its own size, except
    /// `ds_read_b96`/`ds_write_b96`, which need a dword (the LDS model of
    /// rocKE and rocRoller takes dword-aligned addresses; 16-byte alignment
    /// is only needed without the unaligned access mode ROCm enables).
    ///
    /// ```
    /// use cktile_analysis::analyzer::Op;
    /// assert_eq!((Op::DsRead { bits: 96 }.alignment(), Op::DsRead { bits: 128 }.alignment()), (4, 16));
    /// assert_eq!(Op::DsLoadTr { element_bits: 6 }.alignment(), 4);
    /// ```
    pub const fn alignment(&self) -> u64 {
        match *self {
            Op::DsRead { bits: 96 } | Op::DsWrite { bits: 96 } | Op::DsLoadTr { element_bits: 6 } => 4,
            _ => self.access_bytes(),
        }
    }

    /// The byte offset of access `i` (0 or 1) from the lane's address: for
    /// read2/write2 `offsets[i] * bits / 8`, times 64 for `st64`; 0 otherwise.
    ///
    /// ```
    /// use cktile_analysis::analyzer::Op;
    /// let op = Op::DsRead2 { bits: 32, offsets: [1, 3], st64: true };
    /// assert_eq!((op.access_offset(0), op.access_offset(1)), (256, 768));
    /// ```
    pub const fn access_offset(&self, i: u32) -> u64 {
        match *self {
            Op::DsRead2 { bits, offsets, st64 } | Op::DsWrite2 { bits, offsets, st64 } => {
                let element = offsets[(i & 1) as usize] as u64 * (bits as u64 / 8);
                if st64 { element * 64 } else { element }
            }
            _ => 0,
        }
    }

    /// Whether a lane's bytes form one contiguous vector starting at its
    /// address: every instruction but read2/write2 with offsets other than
    /// (0, 1) or an `st64` form. The access patterns, which give each lane
    /// one vector of the tile, take only these.
    ///
    /// ```
    /// use cktile_analysis::analyzer::Op;
    /// assert!(Op::DsRead2 { bits: 64, offsets: [0, 1], st64: false }.is_contiguous());
    /// assert!(!Op::DsRead2 { bits: 64, offsets: [0, 2], st64: false }.is_contiguous());
    /// ```
    pub const fn is_contiguous(&self) -> bool {
        match *self {
            Op::DsRead2 { offsets, st64, .. } | Op::DsWrite2 { offsets, st64, .. } => {
                !st64 && offsets[0] == 0 && offsets[1] == 1
            }
            _ => true,
        }
    }

    /// Whether lanes touching the same 4-byte word share one access (a
    /// broadcast for reads; for writes one value lands). Every instruction
    /// does except `cp.async`: an H100 serves each lane's copy separately,
    /// 32 wavefronts for 32 lanes writing one word (docs/gpu-measurements.md).
    ///
    /// ```
    /// use cktile_analysis::analyzer::Op;
    /// assert!(Op::StShared { bits: 32 }.shares_words());
    /// assert!(!Op::CpAsync { bits: 32 }.shares_words());
    /// ```
    pub const fn shares_words(&self) -> bool {
        !matches!(self, Op::CpAsync { .. })
    }

    /// Whether it reads shared memory.
    ///
    /// ```
    /// assert!(!cktile_analysis::analyzer::Op::DsWrite { bits: 32 }.is_read());
    /// ```
    pub const fn is_read(&self) -> bool {
        matches!(
            self,
            Op::DsRead { .. }
                | Op::DsRead2 { .. }
                | Op::DsReadTr { .. }
                | Op::DsLoadTr { .. }
                | Op::LdShared { .. }
                | Op::Ldmatrix { .. }
        )
    }

    /// The vendor whose chips have it.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{Op, arch::Vendor};
    /// assert_eq!(Op::Ldmatrix { matrices: 4, trans: false }.vendor(), Vendor::Nvidia);
    /// ```
    pub const fn vendor(&self) -> Vendor {
        match self {
            Op::DsRead { .. }
            | Op::DsWrite { .. }
            | Op::DsRead2 { .. }
            | Op::DsWrite2 { .. }
            | Op::DsReadTr { .. }
            | Op::DsLoadTr { .. } => Vendor::Amd,
            Op::LdShared { .. }
            | Op::StShared { .. }
            | Op::Ldmatrix { .. }
            | Op::Stmatrix { .. }
            | Op::CpAsync { .. } => Vendor::Nvidia,
        }
    }

    /// Whether `arch` has this instruction: the vendor's, `stmatrix` from
    /// sm90, the transposing reads on gfx950 only, the transposing loads
    /// (`ds_load_tr*`) on gfx1250 only.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, Op};
    /// assert!(Op::DsRead { bits: 128 }.runs_on(&arch::GFX942));
    /// assert!(!Op::Stmatrix { matrices: 1, trans: false }.runs_on(&arch::SM80));
    /// assert!(!Op::DsReadTr { element_bits: 16 }.runs_on(&arch::GFX942));
    /// assert!(Op::DsLoadTr { element_bits: 16 }.runs_on(&arch::GFX1250));
    /// ```
    pub const fn runs_on(&self, arch: &Arch) -> bool {
        let vendor_ok =
            matches!((self.vendor(), arch.vendor()), (Vendor::Amd, Vendor::Amd) | (Vendor::Nvidia, Vendor::Nvidia));
        let feature_ok = match self {
            Op::Stmatrix { .. } => arch.has_stmatrix(),
            Op::DsReadTr { .. } => arch.has_transposed_reads(),
            Op::DsLoadTr { .. } => arch.has_load_tr(),
            _ => true,
        };
        self.is_valid() && vendor_ok && feature_ok
    }
}

/// The instruction as `by_name` reads it: the mnemonic, and the offsets of
/// read2/write2 forms unless they are the default (0, 1).
///
/// ```
/// use cktile_analysis::analyzer::Op;
/// assert_eq!(Op::DsRead2 { bits: 64, offsets: [0, 8], st64: false }.to_string(), "ds_read2_b64(0,8)");
/// assert_eq!(Op::DsRead { bits: 128 }.to_string(), "ds_read_b128");
/// ```
impl core::fmt::Display for Op {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())?;
        match *self {
            Op::DsRead2 { offsets, .. } | Op::DsWrite2 { offsets, .. } if offsets != [0, 1] => {
                write!(f, "({},{})", offsets[0], offsets[1])
            }
            _ => Ok(()),
        }
    }
}
