//! A descriptor's spec text (the analysis crate's `spec` module holds the grammar and the parser).
//!
//! The analysis crate's spec parser reads it back: `parse(d.to_string()) == d`.

use super::{Descriptor, Origin};
use crate::names::write_joined;
use core::fmt;

/// The base call, e.g. `naive((4,8),(8,1))`.
///
/// ```
/// let d = cktile_core::Descriptor::aligned(&[4, 6], 8).unwrap();
/// assert_eq!(d.origin().to_string(), "aligned((4,6),8)");
/// ```
impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Origin::Naive { lengths, strides, vector } => {
                write!(f, "naive({lengths},{strides}")?;
                match (vector.length, vector.stride) {
                    (None, None) => {}
                    (l, s) => write!(f, ",{},{}", l.unwrap_or(-1), s.unwrap_or(-1))?,
                }
                f.write_str(")")
            }
            Origin::NaiveWithOffset { lengths, strides, offset } => {
                write!(f, "naive_with_offset({lengths},{strides},{offset})")
            }
            Origin::Packed { lengths, vector_length } => match vector_length {
                Some(v) => write!(f, "packed({lengths},{v})"),
                None => write!(f, "packed({lengths})"),
            },
            Origin::Aligned { lengths, align } => write!(f, "aligned({lengths},{align})"),
        }
    }
}

/// The whole chain, one stage per line.
///
/// ```
/// use cktile_core::{Descriptor, Item, Transform};
/// let d = Descriptor::packed(&[4, 8])?.transform(&[Item::new(Transform::merge(&[4, 8])?, &[0, 1], &[0])?])?;
/// assert_eq!(d.to_string(), "packed((4,8))\n| transform(merge((4,8)) on [0,1] -> [0])");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl fmt::Display for Descriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.origin())?;
        for stage in self.transform_stages() {
            f.write_str("\n| transform(")?;
            write_joined(f, stage.items(), ", ", |f, item| write!(f, "{item}"))?;
            f.write_str(")")?;
        }
        Ok(())
    }
}
