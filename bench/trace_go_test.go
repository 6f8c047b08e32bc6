package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
)

// goTraceTarget is issue 11's bound on a traced Go test with at most
// 1,000 matched calls: the time it adds to the untraced run.
const goTraceTarget = 2 * time.Second

// goTraceRounds is how many runs of each kind the medians are over.
const goTraceRounds = 3

// BenchmarkGoTrace measures the Go tracer (Delve, driven by the gotest
// adapter's companion) through the runner, as strobe test --trace runs
// it, on the gotest adapter's trace fixture: TestLoop calls shop.Step
// 1,000 times (2,000 events). Alternately: the untraced run, the run
// tracing shop.Step, and a traced run whose pattern matches nothing
// (the build without optimisations and Delve's start, no stop). It
// reports the time tracing adds (target: at most 2 s) and the events
// written per second of the stops' time (over the run that traces
// nothing).
func BenchmarkGoTrace(b *testing.B) {
	testutil.RequireTool(b, "go")
	src := filepath.Join(testutil.Root(), "adapters", "gotest", "testdata", "trace")
	root := filepath.Join(b.TempDir(), "trace")
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		b.Fatal(err)
	}
	opts := runner.Options{DetailsDir: b.TempDir()}
	events := 0
	run := func(patterns ...string) time.Duration {
		req := runner.Request{ProjectRoot: root, Framework: "go", Test: "TestLoop", Timeout: 5 * time.Minute}
		if len(patterns) > 0 {
			req.Trace = &runner.Trace{Patterns: patterns}
		} else {
			req.Env = map[string]string{"GOFLAGS": "-count=1"} // a run, not go test's cached result
		}
		start := time.Now()
		resp, err := runner.Exec(context.Background(), req, opts)
		d := time.Since(start)
		if err != nil || resp.Status != report.Passed {
			b.Fatalf("TestLoop traced by %v: %v %+v", patterns, err, resp)
		}
		if len(patterns) > 0 && patterns[0] == "shop.Step" {
			if resp.Trace == nil || resp.Trace.Events < 2000 {
				b.Fatalf("trace %+v, want 2,000 events", resp.Trace)
			}
			events = resp.Trace.Events
		}
		return d
	}
	load := loadavg()
	run() // the build cache
	var raws, traced, idle []time.Duration
	for range goTraceRounds {
		raws = append(raws, run())
		traced = append(traced, run("shop.Step"))
		idle = append(idle, run("shop.NoSuchFunction"))
	}
	added := median(traced) - median(raws)
	stops := median(traced) - median(idle)
	rate := float64(events) / stops.Seconds()
	b.ReportMetric(ms(added), "added-ms")
	b.ReportMetric(float64(median(traced))/float64(median(raws)), "traced-ratio")
	b.ReportMetric(rate, "events/s")
	verdict := "met"
	if added > goTraceTarget {
		verdict = "MISSED"
	}
	record(b, "1,000 matched calls: traced %.0f ms / untraced %.0f ms: %.0f ms added (target <= %v: %s); traced matching nothing %.0f ms; %d events in %.0f ms of stops: %.0f events/s (load %s)",
		ms(median(traced)), ms(median(raws)), ms(added), goTraceTarget, verdict, ms(median(idle)), events, ms(stops), rate, load)
}
