//! The `search_plan` fuzz target: its properties live in `fuzz/properties/search_plan.rs`,
//! shared with `tests/fuzz_corpus.rs`, which replays the committed corpus.

#![no_main]

#[path = "../properties/search_plan.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    properties::check_bytes(data);
});
