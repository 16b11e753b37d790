//! The `spec` target's properties, shared by the fuzz target and by
//! `tests/fuzz_corpus.rs` (which replays the committed corpus on stable).
//!
//! On arbitrary text: no panic; a descriptor that builds prints to a spec
//! that parses back to the same offsets, validity and element space; without
//! padding every offset lies inside the element space (but for CK's
//! `*_with_offset` descriptors, whose offset CK leaves out of the element
//! space).

use cktile::check;
use cktile::transforms::Kind;

/// Enumerate at most this many coordinates per input.
const LIMIT: u64 = 4096;

/// Checks one input; returns whether it built a descriptor.
pub fn check(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else { return false };
    let Ok(d) = cktile::layouts::resolve(text) else { return false };
    let printed = d.to_string();
    let again = cktile::spec::parse(&printed).unwrap_or_else(|e| panic!("printed spec does not parse: {e}\n{printed}"));
    assert_eq!(again.lengths(), d.lengths(), "{printed}");
    assert_eq!(again.element_space_size(), d.element_space_size(), "{printed}");
    if d.element_size().is_none_or(|n| n as u64 > LIMIT) {
        return true;
    }
    let (Ok(a), Ok(b)) = (check::offsets(&d), check::offsets(&again)) else {
        panic!("enumeration failed below the limit: {printed}");
    };
    assert_eq!(a, b, "{printed}");
    // CK leaves a `*_with_offset` descriptor's offset out of its element space
    // (an `offset` transform below the top), so those offsets start past it.
    let shifted = d.stages().iter().flat_map(|s| s.items()).any(|i| i.transform().kind() == Kind::Offset);
    if a.valid.iter().all(|&v| v) && !shifted {
        let space = d.element_space_size();
        for (n, &o) in a.offsets.iter().enumerate() {
            assert!((0..space.max(1)).contains(&o), "coordinate #{n}: offset {o} outside [0, {space}) in {printed}");
        }
    }
    for (n, (&o, &v)) in a.offsets.iter().zip(&a.valid).enumerate() {
        let c = check::coordinate(&d, n as u64);
        assert_eq!(d.try_calculate_offset(&c), Ok(o), "{printed}");
        assert_eq!(d.coordinate_has_valid_offset(&c), v, "{printed}");
    }
    true
}
