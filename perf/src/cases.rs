//! The four offset cases of the report, each as a hand-written closed form
//! and a spec (the runtime descriptor). `benches/offsets.rs` has the same
//! cases (with their typed, static forms); a check in `main` keeps the hand
//! forms and the specs in agreement.

/// One offset case: a `rows x cols` tile.
pub struct Case {
    /// Short name.
    pub name: &'static str,
    /// Rows (M).
    pub rows: i64,
    /// Columns (K).
    pub cols: i64,
    /// The descriptor as spec text.
    pub spec: &'static str,
    /// The closed form.
    pub hand: fn(i64, i64) -> i64,
}

fn gemm_k64(m: i64, k: i64) -> i64 {
    64 * m + 8 * ((k / 8) ^ (m % 8)) + k % 8
}

fn gemm_k32(m: i64, k: i64) -> i64 {
    let (mm, l, k0, kp) = (m / 2, m % 2, k / 8, k % 8);
    ((l * 4 + k0) ^ (mm % 8)) * 8 + mm * 64 + kp
}

fn swizzle(m: i64, k: i64) -> i64 {
    let o = 64 * m + k;
    o ^ (((o >> 6) & 7) << 3)
}

fn padded(m: i64, k: i64) -> i64 {
    72 * m + k
}

/// Every case.
pub const CASES: [Case; 4] = [
    Case {
        name: "gemm_k64",
        rows: 128,
        cols: 64,
        spec: "naive((8,128,8),(8,64,1))
            | transform(xor((128,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2])
            | transform(pass_through(128) on [1] -> [0], merge((8,8)) on [0,2] -> [1])",
        hand: gemm_k64,
    },
    Case {
        name: "gemm_k32_mlds2",
        rows: 128,
        cols: 32,
        spec: "naive((8,64,8),(8,64,1))
            | transform(xor((64,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2])
            | transform(unmerge((2,4)) on [0] -> [0,2], pass_through(64) on [1] -> [1], pass_through(8) on [2] -> [3])
            | transform(merge((64,2)) on [1,0] -> [0], merge((4,8)) on [2,3] -> [1])",
        hand: gemm_k32,
    },
    Case {
        name: "swizzle_333",
        rows: 128,
        cols: 64,
        spec: "packed((8192)) | transform(swizzle(3,3,3) on [0] -> [0]) | transform(unmerge((128,64)) on [0] -> [0,1])",
        hand: swizzle,
    },
    Case { name: "padded", rows: 128, cols: 64, spec: "naive((128,64),(72,1))", hand: padded },
];
