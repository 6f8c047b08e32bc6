package bench

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// planCase is one adapter's overhead comparison: its plan run in process
// the way the runner runs it (both pipes read line by line into the
// parser, a reporter's events file tailed, then Finish and Close) against
// the command a user types. The runner's fixed cost is not in it (that is
// BenchmarkOverhead's strobe-noop and BenchmarkFixedCost): this is the
// share of the adapter's command, reporter and parser, which the strobe
// binary's timing would bury under start-up on suites this size.
type planCase struct {
	dir     string
	adapter adapters.Adapter
	raw     []string // the command a user types, run in dir
	tests   int      // how many tests pass in both
	// what names the adapter's side in the figures ("strobe" unless
	// said); ratio names the ratio of the medians ("ratio-of-medians"
	// unless said). Each benchmark keeps the names it has always reported.
	what, ratio string
}

// planOverhead runs c's raw command and the adapter's plan once each to
// warm up, then overheadRounds times alternately, swapping which goes
// first each round, and reports the ratio of the median wall times, the
// median of each round's ratio, and the CPU time ratio: the framework's
// tree for the raw command, the framework's tree and this process's (the
// parser's) for the plan.
func planOverhead(b *testing.B, c planCase) {
	b.Helper()
	what, ratioName := c.what, c.ratio
	if what == "" {
		what = "strobe"
	}
	if ratioName == "" {
		ratioName = "ratio-of-medians"
	}
	var rawCPU, planCPU, parserCPU []time.Duration
	runRaw := func() time.Duration {
		r, err := timed(c.dir, nil, false, c.raw...)
		if err != nil || r.exitCode != 0 {
			b.Fatalf("%s: exit %d, %v\n%s", strings.Join(c.raw, " "), r.exitCode, err, tail(r.stderr, 2000))
		}
		rawCPU = append(rawCPU, r.cpu)
		return r.wall
	}
	runPlan := func() time.Duration {
		self := cpuTime()
		start := time.Now()
		ran := adapterstest.Run(b, c.adapter, adapters.Request{ProjectRoot: c.dir})
		d := time.Since(start)
		own := cpuTime() - self
		planCPU, parserCPU = append(planCPU, ran.CPU+own), append(parserCPU, own)
		if p := ran.Rec.Progress(); p.Passed != c.tests || p.Failed != 0 || ran.Outcome.NoTests || ran.Exit.Code != 0 {
			b.Fatalf("the adapter recorded %+v, outcome %+v, exit %+v; want %d passed", p, ran.Outcome, ran.Exit, c.tests)
		}
		return d
	}
	load := loadavg()
	runRaw()
	runPlan()
	rawCPU, planCPU, parserCPU = nil, nil, nil
	var raws, plans []time.Duration
	var ratios []float64
	for i := range overheadRounds {
		var r, p time.Duration
		if i%2 == 0 {
			r, p = runRaw(), runPlan()
		} else {
			p, r = runPlan(), runRaw()
		}
		raws, plans = append(raws, r), append(plans, p)
		ratios = append(ratios, float64(p)/float64(r))
	}
	mr, mp := median(raws), median(plans)
	ratio, pair := float64(mp)/float64(mr), medianFloat(ratios)
	// On a shared machine the wall times swing with the others' load; CPU
	// time says what the reporter and the parser add.
	cpuRatio := float64(median(planCPU)) / float64(median(rawCPU))
	b.ReportMetric(ms(mr), "raw-ms")
	b.ReportMetric(ms(mp), what+"-ms")
	b.ReportMetric(ratio, ratioName)
	b.ReportMetric(pair, "median-pair-ratio")
	b.ReportMetric(cpuRatio, "cpu-ratio")
	b.ReportMetric(ms(median(parserCPU)), "parser-cpu-ms")
	verdict := "met"
	if ratio > overheadTarget || pair > overheadTarget {
		verdict = "MISSED"
	}
	b.Logf("raw %v cpu %v\n%s %v cpu %v (the parser's %v)", raws, rawCPU, what, plans, planCPU, parserCPU)
	record(b, "ratio %.3f of medians, %.3f median per pair (%s %.0f ms, raw %.0f ms; cpu time ratio %.3f, the framework's and the parser's, the parser's %.0f ms; %d tests, %d rounds, load %s; target <= %.2f: %s)",
		ratio, pair, what, ms(mp), ms(mr), cpuRatio, ms(median(parserCPU)), c.tests, overheadRounds, load, overheadTarget, verdict)
}

// cpuTime is the CPU time this process has used, user and system, its
// garbage collector's included.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
