// Package bench holds strobe's benchmarks, the figures its closing note
// quotes. Each one measures strobe beside what it wraps, in the same run, so
// that the machine's speed cancels out:
//
//   - BenchmarkCargoParser and BenchmarkGoParser: parser throughput, in
//     events (JSON lines) per second, on generated streams of 100,000 tests
//     fed through the public adapter API (target: at least 300,000 events/s).
//   - BenchmarkOverhead: wall time of `strobe test DIR --no-daemon --json`
//     (the runner in one process; the daemon's own cost is
//     BenchmarkDaemonOverhead's) over the raw
//     command on warm builds (a generated 2,000-test crate, a 500-test Go
//     module with go's test cache on and with -count=1, and a Go test that
//     prints a million lines), alternating them, ratio of the medians
//     (target: at most 1.05, 1.1 for the printing test, and below the
//     peer's ratio: gotestsum, installed into this run's own GOBIN when
//     missing, and cargo-nextest when it is installed). Each case also
//     times the pieces that make up the difference.
//   - BenchmarkNodeEventsParser and BenchmarkMochaEventsParser: the parser
//     of strobe's JavaScript reporters (adapters/kit/node) on the lines its
//     node:test and mocha reporters write for 100,000 tests, in events per
//     second of wall time and of CPU time (target: at least 300,000/s).
//   - BenchmarkJSOverhead, BenchmarkJestOverhead, BenchmarkVitestOverhead
//     and BenchmarkPytestOverhead: an adapter's plan run in process as the
//     runner runs it (its command, its reporter, its parser, without the
//     runner's fixed cost) over `node --test`, `mocha`, `jest --ci`,
//     `vitest run` and `pytest -q` on generated suites of 2,000 tests,
//     alternating, ratio of the medians and CPU time ratio (target: at
//     most 1.05).
//   - BenchmarkFixedCost: what strobe adds through a warm daemon to its
//     own command run by hand on a 20-test Go suite, median of alternating
//     pairs (target: at most 10 ms).
//   - BenchmarkFloodRSS: strobe's own peak resident memory while a test
//     prints 200 MB, runner in process (--no-daemon), so the one process
//     measured holds everything (target: at most 64 MiB).
//   - BenchmarkDaemonRSS: the daemon's peak RSS while a run through it
//     prints 200 MB (generic, go, cargo; target: at most 64 MiB), and its
//     RSS around 1,000 MCP sessions opened at once and closed (target: back
//     within 10% of its idle size within a minute, no fd left).
//   - BenchmarkHistory: what the run history adds to a 2,000-test run
//     (lock, read the project's file of 49 earlier runs, compare, advance
//     the failure streaks, write), median wall time and mean CPU time,
//     beside the details file and JUnit report written for the same run
//     (target: the history at most 5 ms).
//   - BenchmarkTraceQuery: debug_query over a session of 200,000 events
//     ingested from four tracer files: median of queries as an agent asks
//     them from the daemon's cache and cold from disk, and the ingest's
//     time (target: median at most 50 ms).
//   - BenchmarkGoTrace: the Go tracer (Delve) through the runner on the
//     gotest trace fixture's TestLoop, 1,000 calls of shop.Step traced
//     (2,000 events): the time tracing adds to the untraced run (target:
//     at most 2 s) and the events written per second of Delve's stops.
//
// Run them with `make bench`. They do not use bin/strobe: they build strobe
// into a temporary directory, so the binary measured is the current source. Every benchmark reports its figures with b.ReportMetric and a
// one-line log, and the whole set is printed again at the end of the run.
// A benchmark that needs cargo skips without it, unless CI=true.
//
// Generated projects live under $TMPDIR/strobe-bench-<uid>/, named by a hash
// of their content, so a second run reuses their builds.
package bench
