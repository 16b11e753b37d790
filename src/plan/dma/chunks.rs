//! The runs of LDS one `global_load_lds` writes (*chunks*), found in a
//! layout's LDS image, and the order in which subgroups take them.
//!
//! One instruction writes `wave` lane slots from a wave-uniform base: a
//! chunk of `wave * slot` bytes whose first `width` bytes of every slot are
//! written. A layout is loadable when its stored bytes fall into such
//! chunks: padding may lie between chunks (CK's async fmha K layout pads
//! each warp's row this way) and must fill the rest of every slot past its
//! `width` bytes (bytes 12-15 for gfx950's 12-byte load, which leaves them
//! unwritten; bytes 1-3 or 2-3 of every dword for 1- and 2-byte loads,
//! which write zeros there); anywhere else it is refused with its offset.
//!
//! ```
//! use cktile::plan::dma::Order;
//! assert_eq!(Order::by_name("issue-major")?, Order::IssueMajor);
//! // 4 subgroups, 2 loads each: issue-major gives chunk 5 to subgroup 1's second load.
//! assert_eq!(Order::IssueMajor.chunk(1, 1, 4, 2), 5);
//! assert_eq!(Order::WaveMajor.chunk(1, 1, 4, 2), 3);
//! # Ok::<(), cktile::Error>(())
//! ```

use super::{bad, lane_slot_bytes, named, wide};

/// Why a tile element cannot lie in the part of a lane's slot past its
/// `width` bytes.
const fn slot_gap(width: usize) -> &'static str {
    match width {
        1 => {
            "a tile element is stored there, but a 1-byte global_load_lds writes one dword per lane, its byte then \
             3 zero bytes (ROCm/rocm-libraries PR #5084), so bytes 1-3 of every dword are overwritten; the layout \
             needs padding there (one byte stored in every 4, e.g. naive((R,C),(4*C,4)))"
        }
        2 => {
            "a tile element is stored there, but a 2-byte global_load_lds writes one dword per lane, its 2 bytes \
             then 2 zero bytes (ROCm/rocm-libraries PR #5084), so bytes 2-3 of every dword are overwritten; the \
             layout needs padding there (2 bytes stored in every 4)"
        }
        _ => {
            "a tile element is stored there, but gfx950's 12-byte global_load_lds writes each lane's 12 bytes at a \
             16-byte stride and leaves bytes 12-15 of every 16-byte slot unwritten (CK's lds_padding.hpp); the \
             layout needs padding there (e.g. 4 bytes after every 12)"
        }
    }
}
use crate::Error;
use alloc::vec::Vec;

/// The orders' names, comma-separated (`cktile dma-plan --help`).
pub const ORDER_NAMES: &str = "wave-major, issue-major";

/// Which chunk each (subgroup, load) fills, counting chunks in LDS order.
///
/// ```
/// use cktile::plan::dma::Order;
/// assert_eq!(Order::ALL.map(Order::name), ["wave-major", "issue-major"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// Subgroup `g`'s loads fill consecutive chunks: chunk `g * loads + i`.
    /// Without padding, each subgroup fills one contiguous slice.
    WaveMajor,
    /// Loads interleave over the subgroups: chunk `i * subgroups + g`, as
    /// CK's async copies lay out their LDS (issues, warps, lanes).
    IssueMajor,
}

impl Order {
    /// Both orders, in the order the CLI lists them.
    pub const ALL: [Order; 2] = [Order::WaveMajor, Order::IssueMajor];

    /// The order's name in every command (`--order`).
    ///
    /// ```
    /// assert_eq!(cktile::plan::dma::Order::WaveMajor.name(), "wave-major");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Order::WaveMajor => "wave-major",
            Order::IssueMajor => "issue-major",
        }
    }

    /// The order called `name`; the error lists the names.
    ///
    /// ```
    /// use cktile::plan::dma::Order;
    /// assert!(Order::by_name("diagonal").unwrap_err().to_string().contains("wave-major, issue-major"));
    /// ```
    pub fn by_name(name: &str) -> Result<Order, Error> {
        named(Order::ALL, Order::name, name, ORDER_NAMES)
    }

    /// The chunk (counted in LDS order) that load `load` of subgroup
    /// `subgroup` fills, for `subgroups` subgroups of `loads` loads each.
    /// Saturating, so any input gives an answer.
    ///
    /// ```
    /// use cktile::plan::dma::Order;
    /// assert_eq!(Order::WaveMajor.chunk(3, 0, 4, 4), 12);
    /// ```
    pub const fn chunk(self, subgroup: usize, load: usize, subgroups: usize, loads: usize) -> usize {
        match self {
            Order::WaveMajor => subgroup.saturating_mul(loads).saturating_add(load),
            Order::IssueMajor => load.saturating_mul(subgroups).saturating_add(subgroup),
        }
    }
}

/// The first LDS byte of every chunk, in LDS order, for a layout whose
/// element at offset `k` is stored (`stored[k]`), of `element_bytes`-byte
/// elements, loaded `width` bytes per lane by `wave` lanes. A chunk starts
/// at the first stored byte after the previous chunk; the errors name the
/// offset that breaks the rules in the module docs.
pub(super) fn chunk_starts(
    stored: &[bool],
    element_bytes: usize,
    width: usize,
    wave: usize,
) -> Result<Vec<u64>, Error> {
    let slot = lane_slot_bytes(width);
    let eb = element_bytes.max(1);
    let total = stored.len().saturating_mul(eb);
    let chunk = wave.saturating_mul(slot);
    let is_stored = |byte: usize| stored.get(byte / eb).copied().unwrap_or(false);
    let mut starts = Vec::new();
    let mut b = 0usize;
    while b < total {
        if !is_stored(b) {
            b += eb;
            continue;
        }
        if !b.is_multiple_of(4) {
            return Err(bad(
                "LDS offset",
                wide(b / eb),
                "a load's chunk would start there, but the LDS base of a global_load_lds (m0 plus its \
                 offset) must be dword-aligned; pad so that each run of wave * slot stored bytes starts on \
                 4 bytes",
            ));
        }
        for within in 0..chunk {
            let byte = b + within;
            if byte >= total {
                if within % slot < width {
                    return Err(bad(
                        "LDS bytes",
                        wide(total),
                        "the tile's stored bytes end inside the wave * slot bytes one global_load_lds writes; \
                         they must fill whole runs of wave * slot bytes (the slot is the width, or 16 bytes for \
                         a 12-byte load)",
                    ));
                }
                continue;
            }
            let written = within % slot < width;
            match (written, is_stored(byte)) {
                (true, false) => {
                    return Err(bad(
                        "LDS offset",
                        wide(byte / eb),
                        "no tile element is stored there (padding), but it lies inside the wave * slot bytes \
                         one global_load_lds writes from its base; padding may only lie between those runs, \
                         so this padded layout cannot be filled directly",
                    ));
                }
                (false, true) => return Err(bad("LDS offset", wide(byte / eb), slot_gap(width))),
                _ => {}
            }
        }
        starts.push(b as u64);
        b += chunk.max(1);
    }
    Ok(starts)
}
