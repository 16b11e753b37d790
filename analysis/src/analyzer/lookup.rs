//! The fallible half of the hardware vocabulary: chips and instructions
//! by name ([`Arch::by_name`], [`Op::by_name`]) and the checks that refuse
//! an instruction no chip has ([`Op::check`]) or a layout too large for a
//! chip's shared memory ([`Arch::check_fits`]).
//!
//! The vocabulary itself (the types `Arch` and `Op`, in the crate's
//! `hardware` module) sits beneath the error type, whose messages quote
//! it; these functions make errors, so they are written here, above both,
//! as more methods of the same types.
//!
//! ```
//! use cktile_analysis::analyzer::{Arch, Op};
//! assert_eq!(Arch::by_name("gfx942")?.wave(), 64);
//! assert!(Op::by_name("ds_read_b128")?.check().is_ok());
//! # Ok::<(), cktile_analysis::Error>(())
//! ```

use super::arch::{ARCH_NAMES, ARCHS, Arch};
use super::op::{OP_NAMES, Op};
use crate::error::AnalyzerProblem;
use crate::error::Error;
use cktile_core::Snippet;

impl Op {
    /// The instruction with this name (see [`OP_NAMES`]). `ds_read_i8` and
    /// `ds_read_i16` are accepted as `ds_read_u8` / `ds_read_u16`: they
    /// touch the same bytes. read2/write2 names take their offsets as
    /// `ds_read2_b64(0,8)`; without them the offsets are 0 and 1.
    ///
    /// ```
    /// use cktile_analysis::analyzer::Op;
    /// assert_eq!(Op::by_name("ds_read_i16")?, Op::DsRead { bits: 16 });
    /// assert_eq!(Op::by_name("ds_write2st64_b32(2, 3)")?, Op::DsWrite2 { bits: 32, offsets: [2, 3], st64: true });
    /// assert!(Op::by_name("ds_read_b48").is_err());
    /// assert!(Op::by_name("ds_read_b64(0,1)").is_err()); // offsets only on read2/write2
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub fn by_name(name: &str) -> Result<Op, Error> {
        Op::from_name(name).ok_or_else(|| {
            Error::parameter(cktile_core::ParameterProblem::UnknownName { name: Snippet::new(name), valid: OP_NAMES })
        })
    }

    /// `Ok` when some chip has this instruction (a width and matrix count
    /// from [`OP_NAMES`]); the error names the instruction and the valid ones.
    ///
    /// ```
    /// use cktile_analysis::analyzer::Op;
    /// assert!(Op::DsRead2 { bits: 64, offsets: [3, 200], st64: true }.check().is_ok());
    /// let e = Op::DsRead { bits: 7 }.check().unwrap_err();
    /// assert!(e.to_string().contains("DsRead { bits: 7 }"), "{e}");
    /// ```
    pub fn check(&self) -> Result<(), Error> {
        if self.is_valid() {
            Ok(())
        } else {
            Err(Error::analyzer(AnalyzerProblem::InvalidOp { op: *self, valid: OP_NAMES }))
        }
    }
}

impl Arch {
    /// The chip with this name (see [`ARCHS`]).
    ///
    /// ```
    /// let e = cktile_analysis::analyzer::Arch::by_name("gfx1030").unwrap_err();
    /// assert!(e.to_string().contains("gfx90a, gfx942, gfx950, gfx950-b32x64, gfx1100, gfx1201, gfx1250, sm80, sm90"));
    /// ```
    pub fn by_name(name: &str) -> Result<Arch, Error> {
        ARCHS.iter().find(|a| a.name() == name).copied().ok_or_else(|| {
            Error::parameter(cktile_core::ParameterProblem::UnknownName { name: Snippet::new(name), valid: ARCH_NAMES })
        })
    }

    /// `Ok` when a layout spanning `bytes` fits the shared memory one
    /// workgroup can use; the error names both sizes.
    ///
    /// ```
    /// use cktile_analysis::analyzer::arch;
    /// assert!(arch::GFX950.check_fits(160 * 1024).is_ok());
    /// let e = arch::GFX942.check_fits(65537).unwrap_err();
    /// assert!(e.to_string().contains("65537 bytes, more than the 65536 bytes"), "{e}");
    /// ```
    pub const fn check_fits(&self, bytes: u64) -> Result<(), Error> {
        if bytes > self.shared_bytes() as u64 {
            Err(Error::analyzer(AnalyzerProblem::SharedCapacity {
                arch: self.name(),
                bytes,
                capacity: self.shared_bytes(),
            }))
        } else {
            Ok(())
        }
    }
}
