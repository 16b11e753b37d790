//! Replays every committed fuzz corpus input (`fuzz/corpus/TARGET`) through
//! the fuzz targets' own property checks (`fuzz/properties/TARGET.rs`), on
//! stable and in the normal test suite: whatever the fuzzers reached, and any
//! crash they ever found (its input goes into the corpus), stays checked at
//! every commit.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../fuzz/properties/bank.rs"]
mod bank;
#[path = "../fuzz/properties/search_plan.rs"]
mod search_plan;
#[path = "../fuzz/properties/spec.rs"]
mod spec;
#[path = "../fuzz/properties/texts.rs"]
mod texts;

use std::path::PathBuf;

/// Runs `check` on every input of `target`'s corpus; returns (inputs, how
/// many reached the properties). Prints both (`--nocapture` shows them).
fn replay(target: &str, check: fn(&[u8]) -> bool) -> (usize, usize) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut reached = 0;
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let outcome = std::panic::catch_unwind(|| check(&data));
        match outcome {
            Ok(true) => reached += 1,
            Ok(false) => {}
            Err(_) => panic!("{target}: the corpus input {} breaks a property", f.display()),
        }
    }
    println!("{target}: {reached} of {} inputs reach the properties", files.len());
    (files.len(), reached)
}

// Most corpus inputs cover the rejecting paths (parse errors, invalid
// requests), which only have to not panic. The floors below, about half of
// what the committed corpora reach, catch a change that turns the corpus
// into inputs rejected early.

#[test]
fn spec_corpus_keeps_its_properties() {
    let (n, built) = replay("spec", spec::check);
    assert!(built >= 120, "only {built} of {n} spec inputs build a descriptor");
}

#[test]
fn bank_corpus_keeps_its_properties() {
    let (n, analysed) = replay("bank", bank::check);
    assert!(analysed >= 65, "only {analysed} of {n} bank inputs reach the analyzer");
}

#[test]
fn search_plan_corpus_keeps_its_properties() {
    let (n, searched) = replay("search_plan", search_plan::check_bytes);
    assert!(searched >= 190, "only {searched} of {n} search_plan inputs run a search");
}

#[test]
fn texts_corpus_keeps_its_properties() {
    let (n, built) = replay("texts", texts::check);
    assert!(built >= 12, "only {built} of {n} texts inputs build a layout or a distribution");
}
