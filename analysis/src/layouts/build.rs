//! Small `const fn` helpers the catalogue's builders share: items from
//! transform constructors, and parameter checks with layout-level messages.

use crate::error::Error;
use cktile_core::{Dims, Item, ParameterProblem, Transform};

/// An item from a transform constructor's result and its id lists.
pub(crate) const fn item(
    transform: Result<Transform, cktile_transforms::Error>,
    lower: &[usize],
    upper: &[usize],
) -> Result<Item, Error> {
    match transform {
        Ok(t) => Ok(crate::port!(Item::new(t, lower, upper))),
        Err(source) => Err(Error::port(cktile_core::Error::transform(source))),
    }
}

/// `usize` parameters as lengths, naming a value too large for the index
/// type (as the port's own builders name it).
pub(crate) const fn dims(values: &[usize]) -> Result<Dims, Error> {
    match Dims::from_usizes(values) {
        Ok(d) => Ok(d),
        Err(source) => Err(Error::port(cktile_core::Error::transform(source))),
    }
}

/// A parameter error of `layout`.
pub(crate) const fn bad(
    layout: &'static str,
    parameter: &'static str,
    value: usize,
    requirement: &'static str,
) -> Error {
    Error::parameter(ParameterProblem::invalid_usize(layout, parameter, value, requirement))
}

/// `value` must be at least 1.
pub(crate) const fn positive(layout: &'static str, parameter: &'static str, value: usize) -> Result<(), Error> {
    if value == 0 { Err(bad(layout, parameter, value, "it must be at least 1")) } else { Ok(()) }
}

/// `value` must be a multiple of `of` (which is at least 1).
pub(crate) const fn multiple(
    layout: &'static str,
    parameter: &'static str,
    value: usize,
    of: usize,
    requirement: &'static str,
) -> Result<(), Error> {
    if of == 0 || !value.is_multiple_of(of) { Err(bad(layout, parameter, value, requirement)) } else { Ok(()) }
}

/// `value` must be a power of two.
pub(crate) const fn power_of_two(
    layout: &'static str,
    parameter: &'static str,
    value: usize,
    requirement: &'static str,
) -> Result<(), Error> {
    if value.is_power_of_two() { Ok(()) } else { Err(bad(layout, parameter, value, requirement)) }
}

/// Element sizes in bytes that the catalogue accepts: 1, 2, 4 or 8.
pub(crate) const fn element_bytes(layout: &'static str, bytes: usize) -> Result<(), Error> {
    match bytes {
        1 | 2 | 4 | 8 => Ok(()),
        _ => Err(bad(layout, "element bytes", bytes, "it must be 1, 2, 4 or 8")),
    }
}

/// `log2` of a power of two.
pub(crate) const fn log2(value: usize) -> u32 {
    value.trailing_zeros()
}
