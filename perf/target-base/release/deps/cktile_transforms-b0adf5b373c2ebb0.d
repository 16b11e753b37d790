/work/main/perf/target-base/release/deps/cktile_transforms-b0adf5b373c2ebb0.d: /tmp/base/transforms/src/lib.rs /tmp/base/transforms/src/count.rs /tmp/base/transforms/src/dims.rs /tmp/base/transforms/src/error.rs /tmp/base/transforms/src/kinds/mod.rs /tmp/base/transforms/src/kinds/embed.rs /tmp/base/transforms/src/kinds/freeze.rs /tmp/base/transforms/src/kinds/merge.rs /tmp/base/transforms/src/kinds/modulo.rs /tmp/base/transforms/src/kinds/offset.rs /tmp/base/transforms/src/kinds/pad.rs /tmp/base/transforms/src/kinds/pass_through.rs /tmp/base/transforms/src/kinds/replicate.rs /tmp/base/transforms/src/kinds/slice.rs /tmp/base/transforms/src/kinds/swizzle.rs /tmp/base/transforms/src/kinds/unmerge.rs /tmp/base/transforms/src/kinds/xor.rs /tmp/base/transforms/src/transform.rs /tmp/base/transforms/src/params.rs /tmp/base/transforms/src/transform/fast.rs /tmp/base/transforms/src/typed.rs /tmp/base/transforms/src/value.rs /tmp/base/transforms/src/values.rs /tmp/base/transforms/src/vector.rs

/work/main/perf/target-base/release/deps/libcktile_transforms-b0adf5b373c2ebb0.rlib: /tmp/base/transforms/src/lib.rs /tmp/base/transforms/src/count.rs /tmp/base/transforms/src/dims.rs /tmp/base/transforms/src/error.rs /tmp/base/transforms/src/kinds/mod.rs /tmp/base/transforms/src/kinds/embed.rs /tmp/base/transforms/src/kinds/freeze.rs /tmp/base/transforms/src/kinds/merge.rs /tmp/base/transforms/src/kinds/modulo.rs /tmp/base/transforms/src/kinds/offset.rs /tmp/base/transforms/src/kinds/pad.rs /tmp/base/transforms/src/kinds/pass_through.rs /tmp/base/transforms/src/kinds/replicate.rs /tmp/base/transforms/src/kinds/slice.rs /tmp/base/transforms/src/kinds/swizzle.rs /tmp/base/transforms/src/kinds/unmerge.rs /tmp/base/transforms/src/kinds/xor.rs /tmp/base/transforms/src/transform.rs /tmp/base/transforms/src/params.rs /tmp/base/transforms/src/transform/fast.rs /tmp/base/transforms/src/typed.rs /tmp/base/transforms/src/value.rs /tmp/base/transforms/src/values.rs /tmp/base/transforms/src/vector.rs

/work/main/perf/target-base/release/deps/libcktile_transforms-b0adf5b373c2ebb0.rmeta: /tmp/base/transforms/src/lib.rs /tmp/base/transforms/src/count.rs /tmp/base/transforms/src/dims.rs /tmp/base/transforms/src/error.rs /tmp/base/transforms/src/kinds/mod.rs /tmp/base/transforms/src/kinds/embed.rs /tmp/base/transforms/src/kinds/freeze.rs /tmp/base/transforms/src/kinds/merge.rs /tmp/base/transforms/src/kinds/modulo.rs /tmp/base/transforms/src/kinds/offset.rs /tmp/base/transforms/src/kinds/pad.rs /tmp/base/transforms/src/kinds/pass_through.rs /tmp/base/transforms/src/kinds/replicate.rs /tmp/base/transforms/src/kinds/slice.rs /tmp/base/transforms/src/kinds/swizzle.rs /tmp/base/transforms/src/kinds/unmerge.rs /tmp/base/transforms/src/kinds/xor.rs /tmp/base/transforms/src/transform.rs /tmp/base/transforms/src/params.rs /tmp/base/transforms/src/transform/fast.rs /tmp/base/transforms/src/typed.rs /tmp/base/transforms/src/value.rs /tmp/base/transforms/src/values.rs /tmp/base/transforms/src/vector.rs

/tmp/base/transforms/src/lib.rs:
/tmp/base/transforms/src/count.rs:
/tmp/base/transforms/src/dims.rs:
/tmp/base/transforms/src/error.rs:
/tmp/base/transforms/src/kinds/mod.rs:
/tmp/base/transforms/src/kinds/embed.rs:
/tmp/base/transforms/src/kinds/freeze.rs:
/tmp/base/transforms/src/kinds/merge.rs:
/tmp/base/transforms/src/kinds/modulo.rs:
/tmp/base/transforms/src/kinds/offset.rs:
/tmp/base/transforms/src/kinds/pad.rs:
/tmp/base/transforms/src/kinds/pass_through.rs:
/tmp/base/transforms/src/kinds/replicate.rs:
/tmp/base/transforms/src/kinds/slice.rs:
/tmp/base/transforms/src/kinds/swizzle.rs:
/tmp/base/transforms/src/kinds/unmerge.rs:
/tmp/base/transforms/src/kinds/xor.rs:
/tmp/base/transforms/src/transform.rs:
/tmp/base/transforms/src/params.rs:
/tmp/base/transforms/src/transform/fast.rs:
/tmp/base/transforms/src/typed.rs:
/tmp/base/transforms/src/value.rs:
/tmp/base/transforms/src/values.rs:
/tmp/base/transforms/src/vector.rs:
