package bench

import (
	"encoding/json"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/internal/shell"
	"strobe/report"
)

const (
	// fixedRounds is how many pairs BenchmarkFixedCost times.
	fixedRounds = 21
	// fixedTarget bounds strobe's own fixed cost on a small suite.
	fixedTarget = 10 * time.Millisecond
)

// BenchmarkFixedCost measures what strobe adds to a run whatever the suite:
// the CLI's start, the daemon round trip, the process setup, the sweep for
// the run's leftover processes, parsing and the details file. On the
// 20-test Go suite with go's test cache warm it alternates
// `strobe test DIR --json` through a warm daemon with strobe's own command
// run by hand (the adapter's Plan: the same go test command, -v=test2json
// for this one package, so the same cache entries), and reports the median of each pair's difference; and the
// same for `--framework generic --command true` against `true`.
func BenchmarkFixedCost(b *testing.B) {
	bin := strobeBin(b)
	home := daemonHome(b)
	dir := daemonSuite(b)
	env := []string{"STROBE_HOME=" + home}
	plan := planFor(b, "go", adapters.Request{ProjectRoot: dir, Level: adapters.LevelAll})
	suite := fixedCost(b, dir, env, plan.Env, plan.Argv, []string{bin, "test", dir, "--json"}, 20)
	noop := fixedCost(b, dir, env, nil, []string{"true"}, []string{bin, "test", dir, "--json", "--framework", "generic", "--command", "true"}, 0)
	b.ReportMetric(ms(suite), "fixed-ms")
	b.ReportMetric(ms(noop), "noop-fixed-ms")
	verdict := "met"
	if suite > fixedTarget {
		verdict = "MISSED"
	}
	record(b, "strobe through a warm daemon adds %.1f ms to its go test command on a 20-test suite (go cache warm) and %.1f ms to `true`, medians of %d pairs (load %s; target <= %.0f ms: %s)",
		ms(suite), ms(noop), fixedRounds, loadavg(), ms(fixedTarget), verdict)
}

// fixedCost warms up, then times raw and strobe alternately and returns
// the median of strobe's time minus raw's in each pair.
func fixedCost(b *testing.B, dir string, strobeEnv, rawEnv, raw, strobe []string, tests int) time.Duration {
	b.Helper()
	runRaw := func() time.Duration {
		r, err := timed(dir, rawEnv, false, raw...)
		if err != nil || r.exitCode != 0 {
			b.Fatalf("%s: %v, exit %d\n%s", shell.Join(raw), err, r.exitCode, tail(r.stderr, 2000))
		}
		return r.wall
	}
	runStrobe := func() time.Duration {
		r, err := timed(dir, strobeEnv, true, strobe...)
		if err != nil {
			b.Fatal(err)
		}
		var resp report.Response
		if err := json.Unmarshal(r.stdout, &resp); err != nil || resp.Status != report.Passed ||
			(tests > 0 && (resp.Summary == nil || resp.Summary.Passed != tests)) {
			b.Fatalf("%s: %v\n%s\n%s", shell.Join(strobe), err, tail(r.stdout, 2000), tail(r.stderr, 2000))
		}
		return r.wall
	}
	for range 2 {
		runRaw()
		runStrobe()
	}
	var raws, strobes, diffs []time.Duration
	for i := range fixedRounds {
		var r, s time.Duration
		if i%2 == 0 {
			r, s = runRaw(), runStrobe()
		} else {
			s, r = runStrobe(), runRaw()
		}
		raws, strobes, diffs = append(raws, r), append(strobes, s), append(diffs, s-r)
	}
	b.Logf("%s: raw %v\nstrobe %v", shell.Join(strobe), raws, strobes)
	b.Logf("medians: raw %.1f ms, strobe %.1f ms", ms(median(raws)), ms(median(strobes)))
	return median(diffs)
}
