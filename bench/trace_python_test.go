package bench

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/pytest"
	"strobe/internal/testutil"
	"strobe/trace"
)

// pyTraceTarget is issue 11's bound on a traced Python test with at most
// 1,000 matched calls: its wall time over the untraced run's.
const pyTraceTarget = 1.5

// BenchmarkPythonTrace measures strobe's Python tracer (kit/python's
// strobe_trace, here through the pytest plugin) on the pytest adapter's
// trace fixture, each run the adapter's plan run as the runner runs it:
//
//   - overhead: test_loop calling the matched calc.evaluate.step 500
//     times (1,000 events), traced and untraced alternately
//     overheadRounds times, ratio of the median wall times (target: at
//     most 1.5) and of the median CPU times, and the same with a pattern that matches no function the
//     test calls (what every unmatched call costs);
//   - events/s: the loop of 100,000 calls, every one recorded (FullCalls
//     raised to it), events written over the traced run's extra time.
func BenchmarkPythonTrace(b *testing.B) {
	testutil.RequireTool(b, "python3")
	src := filepath.Join(testutil.Root(), "adapters", "pytest", "testdata", "fixtures", "trace")
	root := filepath.Join(b.TempDir(), "trace")
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		b.Fatal(err)
	}
	req := adapters.Request{ProjectRoot: root, Test: "tests/test_calc.py::test_loop"}
	_, matched := adapterstest.TraceSpecFile(b, root, []string{"calc.evaluate.step"}, nil, nil)
	_, none := adapterstest.TraceSpecFile(b, root, []string{"calc.tokens.parse_int"}, nil, nil)
	const loop = 100_000
	bigSpec, big := adapterstest.TraceSpecFile(b, root, []string{"calc.evaluate.step"}, nil, func(s *trace.Spec) {
		s.FullCalls, s.MaxEvents = loop, 2*loop
	})

	cpu := map[string][]time.Duration{}
	run := func(spec string, calls int) time.Duration {
		os.Setenv("CALC_LOOP", strconv.Itoa(calls))
		if spec == "" {
			os.Unsetenv(trace.SpecEnv)
		} else {
			os.Setenv(trace.SpecEnv, spec)
		}
		defer os.Unsetenv(trace.SpecEnv)
		start := time.Now()
		ran := adapterstest.Run(b, pytest.New(), req)
		d := time.Since(start)
		if p := ran.Rec.Progress(); p.Passed != 1 || ran.Exit.Code != 0 {
			b.Fatalf("test_loop: %+v, exit %+v", p, ran.Exit)
		}
		if calls == 500 {
			cpu[spec] = append(cpu[spec], ran.CPU)
		}
		return d
	}
	load := loadavg()
	run("", 500)
	run(matched, 500)
	clear(cpu)
	var raws, traced, unmatched []time.Duration
	for i := range overheadRounds {
		if i%2 == 0 {
			raws, traced, unmatched = append(raws, run("", 500)), append(traced, run(matched, 500)), append(unmatched, run(none, 500))
		} else {
			unmatched, traced, raws = append(unmatched, run(none, 500)), append(traced, run(matched, 500)), append(raws, run("", 500))
		}
	}
	ratio := float64(median(traced)) / float64(median(raws))
	// On a shared machine the wall times swing with the others' load;
	// the CPU time of pytest's process says what the tracer adds.
	cpuRatio := float64(median(cpu[matched])) / float64(median(cpu[""]))
	unmatchedRatio := float64(median(unmatched)) / float64(median(raws))

	var bigRaw, bigTraced []time.Duration
	for range 3 {
		bigRaw, bigTraced = append(bigRaw, run("", loop)), append(bigTraced, run(big, loop))
	}
	events := 0
	for _, f := range adapterstest.TraceFiles(b, bigSpec.Out) {
		events += len(f.Events)
	}
	events /= 3 // three runs wrote into the same directory
	extra := median(bigTraced) - median(bigRaw)
	rate := float64(events) / extra.Seconds()

	b.ReportMetric(ratio, "traced-ratio")
	b.ReportMetric(cpuRatio, "cpu-ratio")
	b.ReportMetric(unmatchedRatio, "unmatched-ratio")
	b.ReportMetric(rate, "events/s")
	verdict := "met"
	if ratio > pyTraceTarget {
		verdict = "MISSED"
	}
	record(b, "500 matched calls: traced %.0f ms / untraced %.0f ms = %.2fx (target <= %.1fx: %s; CPU %.2fx); a pattern the test never calls: %.2fx; %d events of a 100,000-call loop in %.0f ms more than untraced (%.0f ms): %.0f events/s (load %s)",
		ms(median(traced)), ms(median(raws)), ratio, pyTraceTarget, verdict, cpuRatio, unmatchedRatio, events, ms(extra), ms(median(bigRaw)), rate, load)
}
