package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/all"
	"strobe/report"
)

// parserTests is the size of the generated suites.
const parserTests = 100_000

// parserTarget is the throughput the parsers must reach, in events/s.
const parserTarget = 300_000

// line is one line of a command's output, on its stream.
type line struct {
	s adapters.Stream
	b []byte
}

// BenchmarkCargoParser measures the cargo adapter's parser on the output of
// `cargo test --message-format=json ... -- --format json` for 100,000 tests:
// cargo's build messages (stdout JSON, stderr text), then four test binaries,
// each a "Running" line on stderr and a libtest suite on stdout. One test in
// a hundred fails with the panic message libtest captures in "stdout" (the
// format of Rust 1.95), one in a hundred is ignored; the others pass with
// their exec_time. An event is one line of either stream.
func BenchmarkCargoParser(b *testing.B) {
	root := b.TempDir()
	adapterstest.WriteFiles(b, root, map[string]string{
		"Cargo.toml": "[package]\nname = \"bench\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
		"src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a + b }\n",
	})
	lines, failed := cargoStream(root, parserTests)
	benchParser(b, "cargo", root, lines, report.Exit{Exited: true, Code: 101}, parserTests, failed)
}

// BenchmarkGoParser measures the go adapter's parser on `go test -json ./...`
// for 100,000 tests in ten packages, as test2json prints them (Go 1.26): per
// test run, "=== RUN", "--- PASS", pass. One test in a hundred fails with a
// t.Errorf line, one in a hundred skips with a message. An event is one JSON
// line.
func BenchmarkGoParser(b *testing.B) {
	root := b.TempDir()
	adapterstest.WriteFiles(b, root, map[string]string{"go.mod": "module example.com/bench\n\ngo 1.22\n"})
	for i := range 10 {
		adapterstest.WriteFiles(b, root, map[string]string{fmt.Sprintf("p%02d/p_test.go", i): "package p\n"})
	}
	lines, failed := goStream(parserTests, 10)
	benchParser(b, "go", root, lines, report.Exit{Exited: true, Code: 1}, parserTests, failed)
}

// BenchmarkGoParserParallel measures the go adapter's parser on one package
// of 3,000 top-level tests that all call t.Parallel, as test2json prints
// them: each runs and pauses, then each goes on and passes. Every start
// used to ask whether another top-level test was running and not paused
// by searching the paused tests for each running one: cubic, 13 s of
// strobe's CPU for what `go test` ran in 0.3 s, and the drain gave up on
// the output that was left.
func BenchmarkGoParserParallel(b *testing.B) {
	root := b.TempDir()
	adapterstest.WriteFiles(b, root, map[string]string{"go.mod": "module example.com/bench\n\ngo 1.22\n", "p/p_test.go": "package p\n",
		// A second package: with one, strobe runs -v=test2json and reads
		// the framed lines instead of -json's events.
		"q/q_test.go": "package q\n"})
	benchParser(b, "go", root, goParallelStream(3000), report.Exit{Exited: true}, 3000, 0)
}

// goParallelStream is `go test -json` of one package whose n top-level
// tests all call t.Parallel and pass.
func goParallelStream(n int) []line {
	g := newGoEvents()
	emit := g.emit
	zero := 0.0
	const pkg = "example.com/bench/p"
	emit(goEvent{Action: "start", Package: pkg})
	for i := range n {
		name := fmt.Sprintf("TestPar%05d", i)
		emit(goEvent{Action: "run", Package: pkg, Test: name})
		emit(goEvent{Action: "output", Package: pkg, Test: name, Output: "=== RUN   " + name + "\n"})
		emit(goEvent{Action: "output", Package: pkg, Test: name, Output: "=== PAUSE " + name + "\n"})
		emit(goEvent{Action: "pause", Package: pkg, Test: name})
	}
	for i := range n {
		name := fmt.Sprintf("TestPar%05d", i)
		emit(goEvent{Action: "cont", Package: pkg, Test: name})
		emit(goEvent{Action: "output", Package: pkg, Test: name, Output: "=== CONT  " + name + "\n"})
		emit(goEvent{Action: "output", Package: pkg, Test: name, Output: "--- PASS: " + name + " (0.00s)\n"})
		emit(goEvent{Action: "pass", Package: pkg, Test: name, Elapsed: &zero})
	}
	emit(goEvent{Action: "output", Package: pkg, Output: "PASS\n"})
	emit(goEvent{Action: "output", Package: pkg, Output: "ok  \t" + pkg + "\t0.300s\n"})
	emit(goEvent{Action: "pass", Package: pkg, Elapsed: &zero})
	return g.out
}

// benchParser feeds lines to a fresh plan's parser per iteration, through
// the public API: Lookup, Plan (outside the timer: the cargo adapter runs
// cargo metadata there), Line per line, Finish.
func benchParser(b *testing.B, framework, root string, lines []line, exit report.Exit, tests, wantFailed int) {
	a, err := all.Lookup(framework)
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, l := range lines {
		size += int64(len(l.b)) + 1
	}
	b.SetBytes(size)
	b.ReportAllocs()
	var rec *adapters.Recorder
	var retained uint64
	for b.Loop() {
		b.StopTimer()
		rec = adapters.NewRecorder()
		plan, err := a.Plan(context.Background(), adapters.Request{ProjectRoot: root, Level: adapters.LevelAll}, rec)
		if err != nil {
			b.Fatal(err)
		}
		before := heapInUse()
		b.StartTimer()
		for _, l := range lines {
			plan.Parser.Line(l.s, l.b, false)
		}
		plan.Parser.Finish(exit)
		b.StopTimer()
		if after := heapInUse(); after > before {
			retained = after - before
		}
		runtime.KeepAlive(plan)
		b.StartTimer()
	}
	elapsed := b.Elapsed()
	events := len(lines)
	rate := float64(events) * float64(b.N) / elapsed.Seconds()
	b.ReportMetric(rate, "events/s")
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(events*b.N), "ns/event")
	b.ReportMetric(float64(retained)/(1<<20), "retained-MiB")

	var passed, failed, skipped int
	for _, t := range rec.Tests() {
		switch t.Status {
		case report.TestPassed:
			passed++
		case report.TestFailed:
			failed++
		case report.TestSkipped:
			skipped++
		}
	}
	if passed+failed+skipped != tests || failed != wantFailed {
		b.Errorf("parser recorded %d passed, %d failed, %d skipped; want %d tests, %d failed", passed, failed, skipped, tests, wantFailed)
	}
	verdict := "met"
	if rate < parserTarget {
		verdict = "MISSED"
	}
	record(b, "%.0f events/s (%d events, %.1f MB, %.0f ns/event, %.1f MiB retained for %d tests; target >= %d: %s)",
		rate, events, float64(size)/1e6, float64(elapsed.Nanoseconds())/float64(events*b.N), float64(retained)/(1<<20), tests, parserTarget, verdict)
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// libtestEscape escapes a string the way libtest's JSON formatter does.
var libtestEscape = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`)

// cargoStream is the output of strobe's cargo command for n tests in four
// test binaries, and the number of failing tests.
func cargoStream(root string, n int) ([]line, int) {
	var out []line
	stdout := func(format string, args ...any) {
		out = append(out, line{adapters.Stdout, fmt.Appendf(nil, format, args...)})
	}
	stderr := func(format string, args ...any) {
		out = append(out, line{adapters.Stderr, fmt.Appendf(nil, format, args...)})
	}

	bins := []struct{ target, kind, src, running, flag string }{
		{"bench", "lib", "src/lib.rs", "unittests src/lib.rs", "--lib"},
		{"api", "test", "tests/api.rs", "tests/api.rs", "--test api"},
		{"store", "test", "tests/store.rs", "tests/store.rs", "--test store"},
		{"e2e_flow", "test", "tests/e2e_flow.rs", "tests/e2e_flow.rs", "--test e2e_flow"},
	}
	stderr("   Compiling bench v0.1.0 (%s)", root)
	for i, bin := range bins {
		exe := fmt.Sprintf("%s/target/debug/deps/%s-%016x", root, bin.target, 0x9e3779b97f4a7c15*uint64(i+1))
		stdout(`{"reason":"compiler-artifact","package_id":"path+file://%s#0.1.0","manifest_path":"%s/Cargo.toml","target":{"kind":["%s"],"crate_types":["%s"],"name":"%s","src_path":"%s/%s","edition":"2021","doc":%t,"doctest":%t,"test":true},"profile":{"opt_level":"0","debuginfo":2,"debug_assertions":true,"overflow_checks":true,"test":true},"features":[],"filenames":["%s"],"executable":"%s","fresh":false}`,
			root, root, bin.kind, map[bool]string{true: "lib", false: "bin"}[bin.kind == "lib"], bin.target, root, bin.src, bin.kind == "lib", bin.kind == "lib", exe, exe)
	}
	stdout(`{"reason":"build-finished","success":true}`)
	stderr("    Finished `test` profile [unoptimized + debuginfo] target(s) in 41.07s")

	failedTotal := 0
	per := n / len(bins)
	var failedFlags []string
	for bi, bin := range bins {
		count := per
		if bi == len(bins)-1 {
			count = n - per*(len(bins)-1)
		}
		stderr("     Running %s (target/debug/deps/%s-%016x)", bin.running, bin.target, 0x9e3779b97f4a7c15*uint64(bi+1))
		stdout(`{ "type": "suite", "event": "started", "test_count": %d }`, count)
		name := func(i int) string { return fmt.Sprintf("m%02d::t_%05d", i%50, i) }
		var passed, failed, ignored int
		var total float64
		// Two test threads: a test starts before the one before it ends.
		for i := 0; i <= count; i++ {
			if i < count {
				stdout(`{ "type": "test", "event": "started", "name": "%s" }`, name(i))
			}
			if i == 0 {
				continue
			}
			j := i - 1
			exec := 0.000001*float64(j%997) + 0.000000123
			total += exec
			switch {
			case j%100 == 37:
				failed++
				msg := fmt.Sprintf("\nthread '%s' (%d) panicked at src/%s.rs:%d:5:\nassertion `left == right` failed\n  left: %d\n right: %d\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
					name(j), 4000+j%30000, bin.target, 10+j%400, j, j+1)
				stdout(`{ "type": "test", "name": "%s", "event": "failed", "exec_time": %s, "stdout": "%s" }`, name(j), strconv.FormatFloat(exec, 'f', -1, 64), libtestEscape.Replace(msg))
			case j%100 == 71:
				ignored++
				stdout(`{ "type": "test", "name": "%s", "event": "ignored" }`, name(j))
			default:
				passed++
				stdout(`{ "type": "test", "name": "%s", "event": "ok", "exec_time": %s }`, name(j), strconv.FormatFloat(exec, 'f', -1, 64))
			}
		}
		event := "ok"
		if failed > 0 {
			event = "failed"
			failedFlags = append(failedFlags, bin.flag)
			stderr("error: test failed, to rerun pass `%s`", bin.flag)
		}
		stdout(`{ "type": "suite", "event": "%s", "passed": %d, "failed": %d, "ignored": %d, "measured": 0, "filtered_out": 0, "exec_time": %s }`,
			event, passed, failed, ignored, strconv.FormatFloat(total, 'f', -1, 64))
		failedTotal += failed
	}
	if len(failedFlags) > 0 {
		stderr("error: %d targets failed:", len(failedFlags))
		for _, f := range failedFlags {
			stderr("    `%s`", f)
		}
	}
	return out, failedTotal
}

// goEvent is a test2json event, its fields in test2json's order.
type goEvent struct {
	Time    time.Time
	Action  string
	Package string
	Test    string   `json:",omitempty"`
	Elapsed *float64 `json:",omitempty"`
	Output  string   `json:",omitempty"`
}

// goStream is `go test -json ./...` output for n tests in pkgs packages,
// and the number of failing tests.
func goStream(n, pkgs int) ([]line, int) {
	g := newGoEvents()
	emit := g.emit
	f := func(x float64) *float64 { return &x }
	failedTotal := 0
	per := n / pkgs
	for p := range pkgs {
		pkg := fmt.Sprintf("example.com/bench/p%02d", p)
		count := per
		if p == pkgs-1 {
			count = n - per*(pkgs-1)
		}
		emit(goEvent{Action: "start", Package: pkg})
		failed := 0
		for i := range count {
			name := fmt.Sprintf("TestCase%05d", i)
			emit(goEvent{Action: "run", Package: pkg, Test: name})
			emit(goEvent{Action: "output", Package: pkg, Test: name, Output: "=== RUN   " + name + "\n"})
			switch {
			case i%100 == 37:
				failed++
				emit(goEvent{Action: "output", Package: pkg, Test: name, Output: fmt.Sprintf("    p_test.go:%d: Add(%d, 1) = %d, want %d\n", 10+i%500, i, i, i+1)})
				emit(goEvent{Action: "output", Package: pkg, Test: name, Output: "--- FAIL: " + name + " (0.00s)\n"})
				emit(goEvent{Action: "fail", Package: pkg, Test: name, Elapsed: f(0)})
			case i%100 == 71:
				emit(goEvent{Action: "output", Package: pkg, Test: name, Output: fmt.Sprintf("    p_test.go:%d: not on this platform\n", 10+i%500)})
				emit(goEvent{Action: "output", Package: pkg, Test: name, Output: "--- SKIP: " + name + " (0.00s)\n"})
				emit(goEvent{Action: "skip", Package: pkg, Test: name, Elapsed: f(0)})
			default:
				emit(goEvent{Action: "output", Package: pkg, Test: name, Output: "--- PASS: " + name + " (0.00s)\n"})
				emit(goEvent{Action: "pass", Package: pkg, Test: name, Elapsed: f(0)})
			}
		}
		if failed > 0 {
			emit(goEvent{Action: "output", Package: pkg, Output: "FAIL\n"})
			emit(goEvent{Action: "output", Package: pkg, Output: "FAIL\t" + pkg + "\t1.234s\n"})
			emit(goEvent{Action: "fail", Package: pkg, Elapsed: f(1.234)})
		} else {
			emit(goEvent{Action: "output", Package: pkg, Output: "PASS\n"})
			emit(goEvent{Action: "output", Package: pkg, Output: "ok  \t" + pkg + "\t1.234s\n"})
			emit(goEvent{Action: "pass", Package: pkg, Elapsed: f(1.234)})
		}
		failedTotal += failed
	}
	return g.out, failedTotal
}

// goEvents collects `go test -json` lines, each event 1.357 µs after the
// one before.
type goEvents struct {
	out []line
	now time.Time
}

func newGoEvents() *goEvents {
	return &goEvents{now: time.Date(2026, 3, 21, 14, 45, 54, 660514560, time.UTC)}
}

func (g *goEvents) emit(e goEvent) {
	g.now = g.now.Add(1357 * time.Nanosecond)
	e.Time = g.now
	b, err := json.Marshal(e)
	if err != nil {
		panic(err)
	}
	g.out = append(g.out, line{adapters.Stdout, b})
}
