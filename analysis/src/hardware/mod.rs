//! The hardware's vocabulary: the chips cktile models ([`arch`]: vendor,
//! wave size, shared-memory capacity) and the shared-memory instructions
//! ([`op`]: names, widths, the bytes each lane moves), with their names as
//! the command line and the spec texts spell them.
//!
//! They sit at the bottom of the crate, beneath the messages, because every
//! layer speaks of them and messages quote them: an analyzer problem names
//! the instruction it refused. So they make no error: finding a chip or an
//! instruction by name and checking one, which can fail, are the
//! analyzer's ([`lookup`](crate::analyzer::lookup)), as is what each chip
//! does with each instruction (banks, lane groups:
//! [`rules`](crate::analyzer::rules)).
//! Both modules are re-exported as `cktile_analysis::analyzer::{arch, op}`, the paths
//! users know.
//!
//! ```
//! use cktile_analysis::analyzer::{arch, Op};
//! assert_eq!(arch::GFX942.wave(), 64);
//! assert_eq!(Op::DsRead { bits: 128 }.name(), "ds_read_b128");
//! ```

pub mod arch;
pub mod op;
