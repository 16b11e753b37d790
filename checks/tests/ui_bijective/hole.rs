// A padded tile (4 x 4, rows padded by one element) is injective but has
// holes: the static check fails the build with the first one.
const PADDED: cktile_core::Descriptor = match cktile_analysis::layouts::padding::row_padded(4, 4, 1) {
    Ok(d) => d,
    Err(e) => panic!("{}", e.summary()),
};

cktile_core::assert_bijective!(PADDED);

fn main() {}
