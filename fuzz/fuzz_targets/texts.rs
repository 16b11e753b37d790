//! The `texts` fuzz target: its properties live in `fuzz/properties/texts.rs`,
//! shared with `tests/fuzz_corpus.rs`, which replays the committed corpus.

#![no_main]

#[path = "../properties/texts.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    properties::check(data);
});
