package bench

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/nextest"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
)

// BenchmarkNextest measures what `strobe test DIR --framework nextest`
// costs over `cargo nextest run` as a user types it, on the cargo
// benchmark's generated crate of 2,000 passing tests (doctests off, so
// that neither side has doctests to leave out): the ratio of the median
// wall times of the two run alternately, and the median of each round's
// ratio. "raw-json" is strobe's own command run by hand (the adapter's
// Plan: --no-fail-fast --message-format libtest-json-plus, with its
// variable), which separates the cost of the format from strobe's own;
// "parse" is the adapter's parser alone over that command's output, timed
// in process. nextest runs each test in a process of its own, so the run
// is thousands of fork/execs: strobe's share is reading 4,000 JSON lines
// and 2,000 status lines.
func BenchmarkNextest(b *testing.B) {
	testutil.RequireTool(b, "cargo")
	testutil.RequireTool(b, "cargo-nextest")
	dir := cargoCrate(b, 20, 100)
	bin := strobeBin(b)
	req := adapters.Request{ProjectRoot: dir}
	plan, err := nextest.New().Plan(context.Background(), req, adapters.NewRecorder())
	if err != nil {
		b.Fatal(err)
	}
	vs := []variant{
		{name: "raw", argv: []string{"cargo", "nextest", "run"}},
		{name: "strobe", argv: []string{bin, "test", dir, "--no-daemon", "--json", "--framework", "nextest"}, strobe: true},
		{name: "raw-json", argv: plan.Argv, env: plan.Env},
	}
	const tests = 2000
	run := func(v variant) (time.Duration, time.Duration) {
		r, err := timed(dir, v.env, v.strobe, v.argv...)
		if err != nil {
			b.Fatalf("%s: %v", v.name, err)
		}
		if bytes.Contains(r.stderr, []byte("Compiling ")) {
			b.Logf("%s (%s) compiled", v.name, shell.Join(v.argv))
		}
		checkPassed(b, v, r, tests)
		return r.wall, r.cpu
	}
	load := loadavg()
	for _, v := range vs { // warm: build once, each command once
		run(v)
	}
	parse := nextestParseCost(b, dir, plan, req)
	walls := make([][]time.Duration, len(vs))
	cpus := make([][]time.Duration, len(vs))
	var ratios []float64
	for i := range overheadRounds {
		round := make([]time.Duration, len(vs))
		for k := range vs {
			j := (i + k) % len(vs)
			var cpu time.Duration
			round[j], cpu = run(vs[j])
			walls[j], cpus[j] = append(walls[j], round[j]), append(cpus[j], cpu)
		}
		ratios = append(ratios, float64(round[1])/float64(round[0]))
	}
	med := make([]time.Duration, len(vs))
	for j := range vs {
		med[j] = median(walls[j])
	}
	ratio := float64(med[1]) / float64(med[0])
	pairRatio := medianFloat(ratios)
	cpuRatio := float64(median(cpus[1])) / float64(median(cpus[0]))
	b.ReportMetric(ms(med[0]), "raw-ms")
	b.ReportMetric(ms(med[1]), "strobe-ms")
	b.ReportMetric(ms(med[2]), "raw-json-ms")
	b.ReportMetric(ratio, "ratio-of-medians")
	b.ReportMetric(pairRatio, "median-pair-ratio")
	b.ReportMetric(cpuRatio, "cpu-ratio")
	b.ReportMetric(ms(parse), "parse-ms")
	verdict := "met"
	if ratio > overheadTarget || pairRatio > overheadTarget {
		verdict = "MISSED"
	}
	for j, v := range vs {
		b.Logf("%-8s %s: wall %v, cpu %v", v.name, shell.Join(v.argv), walls[j], cpus[j])
	}
	record(b, "ratio %.3f of medians, %.3f median per pair (strobe %.0f ms, raw cargo nextest run %.0f ms, +%.0f ms; raw-json %.0f ms, parser alone %.1f ms; cpu time ratio %.2f; %d tests, %d rounds, load %s; target <= %.2f: %s)",
		ratio, pairRatio, ms(med[1]), ms(med[0]), ms(med[1]-med[0]), ms(med[2]), ms(parse), cpuRatio, tests, overheadRounds, load, overheadTarget, verdict)
}

// nextestParseCost runs strobe's nextest command once, keeping its output,
// and times a fresh parser over it in process (median of five).
func nextestParseCost(b *testing.B, dir string, plan *adapters.Plan, req adapters.Request) time.Duration {
	cmd := exec.Command(plan.Argv[0], plan.Argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), plan.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v\n%s", strings.Join(plan.Argv, " "), err, tail(stderr.Bytes(), 2000))
	}
	var ds []time.Duration
	for range 5 {
		p, err := nextest.New().Plan(context.Background(), req, adapters.NewRecorder())
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		for _, l := range bytes.Split(stderr.Bytes(), []byte("\n")) {
			p.Parser.Line(adapters.Stderr, l, false)
		}
		for _, l := range bytes.Split(stdout.Bytes(), []byte("\n")) {
			p.Parser.Line(adapters.Stdout, l, false)
		}
		if out := p.Parser.Finish(report.Exit{Exited: true}); out.NoTests || out.BuildFailed {
			b.Fatalf("parser: %+v", out)
		}
		ds = append(ds, time.Since(start))
	}
	return median(ds)
}
