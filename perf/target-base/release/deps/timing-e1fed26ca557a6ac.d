/work/main/perf/target-base/release/deps/timing-e1fed26ca557a6ac.d: src/bin/timing.rs

/work/main/perf/target-base/release/deps/timing-e1fed26ca557a6ac: src/bin/timing.rs

src/bin/timing.rs:
