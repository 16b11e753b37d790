/work/main/perf/target-base/release/deps/cktile_perf-821b08c2023141b8.d: src/lib.rs src/cases.rs src/workloads.rs

/work/main/perf/target-base/release/deps/libcktile_perf-821b08c2023141b8.rlib: src/lib.rs src/cases.rs src/workloads.rs

/work/main/perf/target-base/release/deps/libcktile_perf-821b08c2023141b8.rmeta: src/lib.rs src/cases.rs src/workloads.rs

src/lib.rs:
src/cases.rs:
src/workloads.rs:
