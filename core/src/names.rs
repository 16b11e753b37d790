//! Lists joined by a separator: names at compile time, and any items as
//! they are printed (`write_joined`).
//!
//! Error messages list what would have been valid ("valid: pass_through,
//! pad, ..."). Those lists are derived here, in `const` items, from the list
//! that owns the names (the transform kinds, the chips, the catalogue, an
//! entry's parameters), so adding a name to its list is the only edit: no
//! second, hand-kept string can fall out of step. The crates above the
//! port (the analysis' chips, instructions and catalogue) derive theirs
//! with the same macros.
//!
//! ```
//! struct Row { name: &'static str, wide: bool }
//! const ROWS: [Row; 3] = [Row { name: "b64", wide: false }, Row { name: "b128", wide: true }, Row { name: "b96", wide: true }];
//! const WIDE: [&str; 2] = cktile_core::names::names_of!(ROWS, |r| r.name, if r.wide);
//! const LIST: &str = cktile_core::names::joined!(&WIDE);
//! assert_eq!(LIST, "b128, b96");
//! ```

use core::fmt;

/// Writes `items` with `sep` between them (`a, b, c` for `", "`), each
/// by `item`: the lists of the `Display` impls (ids, lengths, stages'
/// items, CK's sequences).
///
/// ```
/// use core::fmt;
/// struct Ids<'a>(&'a [usize]);
/// impl fmt::Display for Ids<'_> {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
///         f.write_str("[")?;
///         cktile_core::names::write_joined(f, self.0, ",", |f, id| write!(f, "{id}"))?;
///         f.write_str("]")
///     }
/// }
/// assert_eq!(Ids(&[1, 0, 2]).to_string(), "[1,0,2]");
/// ```
pub fn write_joined<T>(
    f: &mut fmt::Formatter<'_>,
    items: impl IntoIterator<Item = T>,
    sep: &str,
    mut item: impl FnMut(&mut fmt::Formatter<'_>, T) -> fmt::Result,
) -> fmt::Result {
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        item(f, x)?;
    }
    Ok(())
}

/// Copies `text` into `buf` at byte `at` and returns the position after it
/// (bytes past the end of `buf` are dropped; the lengths computed by
/// [`joined_len`] make the buffers exactly large enough).
///
/// ```
/// let mut buf = [0u8; 5];
/// let at = cktile_core::names::put(&mut buf, 0, "ds_");
/// assert_eq!(cktile_core::names::put(&mut buf, at, "read_b64"), 11);
/// assert_eq!(&buf, b"ds_re"); // what does not fit is dropped
/// ```
pub const fn put(buf: &mut [u8], mut at: usize, text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if at < buf.len() {
            buf[at] = bytes[i];
        }
        at += 1;
        i += 1;
    }
    at
}

/// Length in bytes of `names` joined by `sep`.
///
/// ```
/// assert_eq!(cktile_core::names::joined_len(&["xor", "pad"], ", "), 8);
/// ```
pub const fn joined_len(names: &[&str], sep: &str) -> usize {
    let mut len = 0;
    let mut i = 0;
    while i < names.len() {
        if i > 0 {
            len += sep.len();
        }
        len += names[i].len();
        i += 1;
    }
    len
}

/// `names` joined by `sep`, as bytes (`N` is [`joined_len`]).
///
/// ```
/// use cktile_core::names::{join, joined_len};
/// const NAMES: &[&str] = &["xor", "pad"];
/// const BYTES: [u8; joined_len(NAMES, "|")] = join(NAMES, "|");
/// assert_eq!(&BYTES, b"xor|pad");
/// ```
pub const fn join<const N: usize>(names: &[&str], sep: &str) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut at = 0;
    let mut i = 0;
    while i < names.len() {
        if i > 0 {
            at = put(&mut buf, at, sep);
        }
        at = put(&mut buf, at, names[i]);
        i += 1;
    }
    buf
}

/// The text of bytes built from `&str` pieces (always UTF-8; an empty text
/// otherwise, which the tests of each list would catch).
///
/// ```
/// assert_eq!(cktile_core::names::text(b"b128, b96"), "b128, b96");
/// assert_eq!(cktile_core::names::text(&[0xff]), "");
/// ```
pub const fn text(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(_) => "",
    }
}

/// `&'static str`: the names of a `const` `&[&str]` joined by `", "` (or by
/// the separator given), computed at compile time. Its public path is
/// [`names::joined!`](joined).
#[doc(hidden)]
#[macro_export]
macro_rules! __cktile_joined {
    ($names:expr) => {
        $crate::names::joined!($names, ", ")
    };
    ($names:expr, $sep:expr) => {{
        const NAMES: &[&str] = $names;
        const BYTES: [u8; $crate::names::joined_len(NAMES, $sep)] = $crate::names::join(NAMES, $sep);
        $crate::names::text(&BYTES)
    }};
}
/// `&'static str`: the names of a `const` `&[&str]` joined by `", "` (or by
/// the separator given), computed at compile time.
///
/// ```
/// const KINDS: &[&str] = &["xor", "pad", "merge"];
/// assert_eq!(cktile_core::names::joined!(KINDS), "xor, pad, merge");
/// assert_eq!(cktile_core::names::joined!(KINDS, " | "), "xor | pad | merge");
/// ```
pub use __cktile_joined as joined;

/// `[&str; N]`: the name of each row of a `const` table, in order, where
/// `|row| name` reads a row's name (`names_of!(ARCHS, |a| a.name)`), for
/// [`joined!`] and the lists that messages quote; `names_of!(ROWS, |r|
/// name, if test)` keeps the rows where `test` holds. Its public path is
/// [`names::names_of!`](names_of).
#[doc(hidden)]
#[macro_export]
macro_rules! __cktile_names_of {
    // Only the rows where `$keep` holds: the array's length is
    // `count_where!` of the same rows and test.
    ($rows:expr, |$row:ident| $name:expr, if $keep:expr) => {{
        const N: usize = $crate::names::count_where!($rows, |$row| $keep);
        let mut names = [""; N];
        let (mut n, mut i) = (0, 0);
        while i < $rows.len() {
            let $row = &$rows[i];
            if $keep {
                names[n] = $name;
                n += 1;
            }
            i += 1;
        }
        names
    }};
    ($rows:expr, |$row:ident| $name:expr) => {{
        const N: usize = $rows.len();
        let mut names = [""; N];
        let mut i = 0;
        while i < N {
            let $row = &$rows[i];
            names[i] = $name;
            i += 1;
        }
        names
    }};
}
/// `[&str; N]`: the name of each row of a `const` table, in order
/// (`names_of!(ROWS, |r| r.name)`), or of the rows where a test holds
/// (`names_of!(ROWS, |r| r.name, if test)`).
///
/// ```
/// struct Chip { name: &'static str, banks: u32 }
/// const CHIPS: [Chip; 2] = [Chip { name: "gfx942", banks: 32 }, Chip { name: "gfx950", banks: 64 }];
/// const ALL: [&str; 2] = cktile_core::names::names_of!(CHIPS, |c| c.name);
/// const WIDE: [&str; 1] = cktile_core::names::names_of!(CHIPS, |c| c.name, if c.banks == 64);
/// assert_eq!((ALL, WIDE), (["gfx942", "gfx950"], ["gfx950"]));
/// ```
pub use __cktile_names_of as names_of;

/// How many rows of a `const` table satisfy `|row| test`, at compile time
/// (the length of a [`names_of!`] with `if`). Its public path is
/// [`names::count_where!`](count_where).
#[doc(hidden)]
#[macro_export]
macro_rules! __cktile_count_where {
    ($rows:expr, |$row:ident| $keep:expr) => {{
        let (mut n, mut i) = (0usize, 0);
        while i < $rows.len() {
            let $row = &$rows[i];
            if $keep {
                n += 1;
            }
            i += 1;
        }
        n
    }};
}
/// How many rows of a `const` table satisfy `|row| test`, at compile time.
///
/// ```
/// const BANKS: [u32; 4] = [32, 64, 32, 64];
/// const WIDE: usize = cktile_core::names::count_where!(BANKS, |b| *b == 64);
/// assert_eq!(WIDE, 2);
/// ```
pub use __cktile_count_where as count_where;

#[cfg(test)]
mod tests {
    use super::{count_where, joined, names_of};

    #[test]
    fn joins_with_the_separator_and_nothing_around_it() {
        const ABC: &str = joined!(&["a", "bc", "def"]);
        const ONE: &str = joined!(&["only"]);
        const NONE: &str = joined!(&[]);
        const LINES: &str = joined!(&["x, y", "z"], "\n");
        assert_eq!((ABC, ONE, NONE, LINES), ("a, bc, def", "only", "", "x, y\nz"));
    }

    #[test]
    fn names_of_reads_each_row_in_order() {
        const ROWS: [(u8, &str); 3] = [(1, "a"), (2, "bc"), (3, "d")];
        const NAMES: [&str; 3] = names_of!(ROWS, |r| r.1);
        const EMPTY: [(u8, &str); 0] = [];
        const NONE: [&str; 0] = names_of!(EMPTY, |r| r.1);
        assert_eq!((NAMES, NONE), (["a", "bc", "d"], []));
        const ODD: [&str; count_where!(ROWS, |r| r.0 % 2 == 1)] = names_of!(ROWS, |r| r.1, if r.0 % 2 == 1);
        assert_eq!(ODD, ["a", "d"]);
    }
}
