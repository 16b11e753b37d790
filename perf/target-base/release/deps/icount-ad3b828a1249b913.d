/work/main/perf/target-base/release/deps/icount-ad3b828a1249b913.d: src/bin/icount.rs

/work/main/perf/target-base/release/deps/icount-ad3b828a1249b913: src/bin/icount.rs

src/bin/icount.rs:
