// The Y names H component (2, 1), but X 1 has a single H entry.
use cktile_core::prelude::*;

cktile_core::tile_distribution_encoding! {
    struct Bad {
        rs_lengths: [],
        hs_lengthss: [[16], [4]],
        ps_to_rhss_major: [[2, 1]],
        ps_to_rhss_minor: [[0, 0]],
        ys_to_rhs_major: [2],
        ys_to_rhs_minor: [1],
    }
}

fn main() {
    let _ = make_static_tile_distribution::<Bad>();
}
