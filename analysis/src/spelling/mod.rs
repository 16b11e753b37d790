//! Which spelling a text is, and the encoding it names: a
//! [`catalogue`](cktile_core::distribution::catalogue) name, CK's C++ spelling
//! ([`parse`]) or cktile's compact one
//! ([`parse_compact`]): what the command line's
//! `--distribution`, `--read` and `--write` take. Above the spellings,
//! which do not know of each other.

pub mod compact;
pub mod text;

pub use self::compact::parse_compact;
pub use self::text::parse;
use crate::error::Error;
use alloc::vec::Vec;
use cktile_core::distribution::Encoding;

/// An encoding given as a [`catalogue`](cktile_core::distribution::catalogue) name
/// (`mfma16x16x32_a`, see [`catalogue::NAMES`](cktile_core::distribution::catalogue::NAMES)),
/// in CK's spelling ([`parse`]) or in cktile's
/// ([`parse_compact`], text starting with
/// `distribution`): what `cktile distribution`, `analyze --distribution` and
/// `search --read/--write` take.
///
/// ```
/// use cktile_analysis::spelling::resolve;
/// use cktile_core::distribution::catalogue;
/// assert_eq!(resolve("mfma32x32x8_a")?, catalogue::mfma_a(32, 8)?);
/// assert_eq!(resolve(&catalogue::mfma_c(16, 16)?.to_string())?, catalogue::mfma_c(16, 16)?);
/// assert_eq!(resolve("distribution(r(), h((32), (2, 4)), p((h1[0], h0[0])), y(h1[1]))")?, catalogue::mfma_a(32, 8)?);
/// assert!(resolve("mfma8x8x8_a").unwrap_err().to_string().contains("mfma16x16x16"));
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub fn resolve(text: &str) -> Result<Encoding, Error> {
    // `#` comments belong to cktile's spelling (CK's C++ has `//`): a name or
    // `distribution(...)` may follow comment lines and carry a trailing one.
    let trimmed = crate::comments::uncommented(text);
    if trimmed.starts_with("distribution") {
        return self::compact::parse_compact(text);
    }
    if is_name(trimmed) && trimmed != "tile_distribution_encoding" {
        Ok(cktile_core::distribution::catalogue::by_name(trimmed)?)
    } else {
        parse(text)
    }
}

/// A bare name: letters, digits and `_` (a catalogue name, or a misspelt one).
fn is_name(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `text` is written as an encoding, whether or not it is a valid
/// one: cktile's `distribution(...)`, CK's `tile_distribution_encoding<...>`
/// or a bare catalogue name, after any leading comment lines (`#`, `//`).
/// Tools that take a layout or a distribution (`cktile equiv`) read
/// anything else as a layout, and report a layout's own error for it.
///
/// ```
/// use cktile_analysis::spelling::is_encoding_text;
/// assert!(is_encoding_text("mfma16x16x16_a") && is_encoding_text("mfma_typo"));
/// assert!(is_encoding_text("// CK's\ntile_distribution_encoding<sequence<>, tuple<"));
/// assert!(is_encoding_text("distribution(r(), h((4)), p((h0[0])), y())"));
/// assert!(!is_encoding_text("packed((4,8)) | transform(merge((4,4)) on [0,1] -> [0])"));
/// assert!(!is_encoding_text("# a layout\nck-universal-a:m=128,k=32"));
/// ```
pub fn is_encoding_text(text: &str) -> bool {
    let body = text
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty() || l.starts_with('#') || l.starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let body = body.trim();
    body.starts_with("distribution") || body.starts_with("tile_distribution_encoding") || is_name(body)
}
