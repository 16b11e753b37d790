//! What gfx1250's transposing loads do across lanes: which lane's read
//! each destination register comes from.
//!
//! A `ds_load_tr16_b128` or `ds_load_tr8_b64` lane reads 8 contiguous
//! elements (16 or 8 bytes) at its own address; the hardware then exchanges
//! them within independent groups of lanes, so that each lane's 8 result
//! elements come from 8 different reads. AMD's ROCm blog "A Deep Dive into
//! LDS Optimizations on AMD Instinct MI450 GPUs" (28 August 2026) gives the
//! exchange as the bases of Triton's instruction tile; in cktile's terms,
//! element `e` (0..8) of destination lane `d` (0..32) is element `d % 8` of
//! source lane
//!
//! - `ds_load_tr16_b128`: `8 (d / 8) + e`: each 8-lane group transposes an
//!   8 x 8 block of 16-bit elements;
//! - `ds_load_tr8_b64`: `(e % 4) + 8 (e / 4) + 4 (d / 8 % 2) + 16 (d / 16)`:
//!   destination lanes 0-7 draw on source lanes 0-3 and 8-11.
//!
//! The exchange does not depend on the addresses, and the banks see the
//! source lanes' own reads (the rule table's rows for these loads). No
//! public source gives `ds_load_tr4_b64`'s or `ds_load_tr6_b96`'s exchange:
//! both are refused.
//!
//! ```
//! use cktile_analysis::analyzer::{exchange::{source, Source}, Op};
//! let tr16 = Op::DsLoadTr { element_bits: 16 };
//! // Lane 9's element 3 is the second element (9 % 8) of lane 8 + 3's read.
//! assert_eq!(source(tr16, 9, 3)?, Source { lane: 11, element: 1 });
//! let tr8 = Op::DsLoadTr { element_bits: 8 };
//! assert_eq!(source(tr8, 2, 4)?, Source { lane: 8, element: 2 });
//! # Ok::<(), cktile_analysis::Error>(())
//! ```

use super::AnalyzerProblem;
use crate::error::Error;
use crate::hardware::op::Op;
use cktile_core::ParameterProblem;

/// Lanes one exchange spans: gfx1250's wave.
pub const EXCHANGE_LANES: u32 = 32;

/// Elements each lane reads, and receives.
pub const EXCHANGE_ELEMENTS: u32 = 8;

/// One element of one lane's read: where a destination element comes
/// from, or where a source element goes.
///
/// ```
/// use cktile_analysis::analyzer::exchange::Source;
/// let s = Source { lane: 3, element: 7 };
/// assert_eq!((s.lane, s.element), (3, 7));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Source {
    /// The lane (0..32).
    pub lane: u32,
    /// The element of its 8 (0..8).
    pub element: u32,
}

/// The exchange of `op`: 16 for `ds_load_tr16_b128`, 8 for
/// `ds_load_tr8_b64`, or an error naming the instruction.
fn element_bits(op: Op) -> Result<u32, Error> {
    match op {
        Op::DsLoadTr { element_bits: bits @ (8 | 16) } => Ok(bits),
        _ => Err(Error::analyzer(AnalyzerProblem::NoExchange { op })),
    }
}

fn check(what: &'static str, value: u32, below: u32, requirement: &'static str) -> Result<(), Error> {
    if value < below {
        Ok(())
    } else {
        Err(Error::parameter(ParameterProblem::invalid_usize("ds_load_tr", what, value as usize, requirement)))
    }
}

/// Where element `element` of destination lane `lane` comes from under
/// `op`'s exchange; an error for an instruction cktile does not model
/// ([`AnalyzerProblem::NoExchange`]) or a lane or element out of range.
///
/// ```
/// use cktile_analysis::analyzer::{exchange::source, Op};
/// let tr16 = Op::DsLoadTr { element_bits: 16 };
/// assert_eq!(source(tr16, 0, 5)?.lane, 5);
/// assert!(source(tr16, 32, 0).unwrap_err().to_string().contains("32"));
/// assert!(source(Op::DsLoadTr { element_bits: 4 }, 0, 0).unwrap_err().to_string().contains("ds_load_tr4_b64"));
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub fn source(op: Op, lane: u32, element: u32) -> Result<Source, Error> {
    let bits = element_bits(op)?;
    check("lane", lane, EXCHANGE_LANES, "a lane of gfx1250's 32-lane wave: 0 to 31")?;
    check("element", element, EXCHANGE_ELEMENTS, "one of the 8 elements a lane receives: 0 to 7")?;
    let group = if bits == 16 {
        lane & !7 | element
    } else {
        (element & 3) | (element & 4) << 1 | (lane & 8) >> 1 | (lane & 16)
    };
    Ok(Source { lane: group, element: lane & 7 })
}

/// The inverse of [`source`]: which destination lane and element receive
/// element `element` of source lane `lane`'s read.
///
/// ```
/// use cktile_analysis::analyzer::{exchange::{destination, source}, Op};
/// let tr8 = Op::DsLoadTr { element_bits: 8 };
/// let s = source(tr8, 21, 6)?;
/// assert_eq!(destination(tr8, s.lane, s.element)?, cktile_analysis::analyzer::exchange::Source { lane: 21, element: 6 });
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub fn destination(op: Op, lane: u32, element: u32) -> Result<Source, Error> {
    let bits = element_bits(op)?;
    check("lane", lane, EXCHANGE_LANES, "a lane of gfx1250's 32-lane wave: 0 to 31")?;
    check("element", element, EXCHANGE_ELEMENTS, "one of the 8 elements a lane reads: 0 to 7")?;
    Ok(if bits == 16 {
        Source { lane: lane & !7 | element, element: lane & 7 }
    } else {
        Source { lane: element | (lane & 4) << 1 | (lane & 16), element: (lane & 3) | (lane & 8) >> 1 }
    })
}
