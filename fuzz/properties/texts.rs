//! The `texts` target's properties, shared by the fuzz target and by
//! `tests/fuzz_corpus.rs` (which replays the committed corpus on stable).
//!
//! The inputs are the texts cktile reads where a layout or a distribution is
//! written, as an `@file` holds them and as the Python importers write them:
//! specs, catalogue entries (CuTe's and Triton's among them: `cute-swizzle`,
//! `cute-gmma`, `cute-tma`, `triton-swizzled`, `triton-nvmma`, `xor-linear`),
//! CK's `tile_distribution_encoding<...>`, cktile's `distribution(...)` and
//! the distribution catalogue's names. On arbitrary text: no panic, with and
//! without an element type; and a text reads the same between comment lines
//! as alone (one comment reader for every kind of text): the same layout,
//! element size and distribution, or an error both ways.

/// The text between a leading and a trailing comment line, as a file would
/// hold it.
fn commented(text: &str) -> String {
    format!("# written by hand\n{text}\n# the end\n")
}

/// Checks one input; returns whether it built a layout or a distribution.
pub fn check(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else { return false };
    let wrapped = commented(text);
    let mut built = false;
    for dtype in [None, Some("fp16"), Some("float8_e4m3fn")] {
        let alone = cktile::layouts::resolve_typed(text, dtype);
        let between = cktile::layouts::resolve_typed(&wrapped, dtype);
        match (&alone, &between) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.descriptor, b.descriptor, "comments change the layout of {text:?}");
                assert_eq!(a.element_bytes, b.element_bytes, "comments change the element size of {text:?}");
                built = true;
            }
            (Err(_), Err(_)) => {}
            _ => panic!("{text:?} reads {} alone but {} between comments", ok(&alone), ok(&between)),
        }
    }
    let alone = cktile::spelling::resolve(text);
    let between = cktile::spelling::resolve(&wrapped);
    match (&alone, &between) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "comments change the distribution of {text:?}");
            built = true;
        }
        (Err(_), Err(_)) => {}
        _ => panic!("{text:?} reads {} alone but {} between comments", ok(&alone), ok(&between)),
    }
    let _ = cktile::spelling::is_encoding_text(text);
    built
}

fn ok<T, E>(r: &Result<T, E>) -> &'static str {
    if r.is_ok() { "well" } else { "as an error" }
}
