package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/vitest"
	"strobe/internal/testutil"
	"strobe/report"
)

// BenchmarkVitestOverhead measures what strobe's vitest reporter, its
// worker setup file and the adapter's parser cost over `vitest run` as a
// user types it, on a generated suite of 2,000 passing tests (40 files of
// 50), alternating the two, ratio of the medians (target: at most 1.05).
// "raw" is node_modules/.bin/vitest run with vitest's default reporter,
// its output to /dev/null; "strobe" is the adapter's plan, its output
// read line by line into the parser and the events file tailed, as the
// runner does, in this process (the vitest adapter is not yet in
// adapters/all, so `strobe test` cannot select it; once it is, this
// becomes a case of BenchmarkOverhead).
func BenchmarkVitestOverhead(b *testing.B) {
	testutil.RequireTool(b, "node")
	testutil.RequireTool(b, "npm")
	modules := vitestModules(b)
	files := map[string]string{"package.json": `{"name":"bench2000","private":true,"type":"module","devDependencies":{"vitest":"3.2.4"}}` + "\n"}
	for f := range 40 {
		var s strings.Builder
		fmt.Fprintf(&s, "import { describe, expect, test } from 'vitest'\n\ndescribe('module %d', () => {\n", f)
		for i := range 50 {
			fmt.Fprintf(&s, "  test('case %d', () => {\n    expect(%d + 1).toBe(%d)\n  })\n", i, i, i+1)
		}
		s.WriteString("})\n")
		files[fmt.Sprintf("test/m%02d.test.js", f)] = s.String()
	}
	dir := cacheDir(b, "vitest-2000", files)
	link := filepath.Join(dir, "node_modules")
	if _, err := os.Lstat(link); err != nil {
		if err := os.Symlink(modules, link); err != nil {
			b.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "node_modules", ".bin", "vitest")
	var rawCPU, strobeCPU []time.Duration
	raw := func() time.Duration {
		r, err := timed(dir, nil, false, bin, "run")
		if err != nil || r.exitCode != 0 {
			b.Fatalf("vitest run: %v, exit %d: %s", err, r.exitCode, tail(r.stderr, 2000))
		}
		rawCPU = append(rawCPU, r.cpu)
		return r.wall
	}
	strobe := func() time.Duration {
		d, cpu, passed := vitestRun(b, dir)
		if passed != 2000 {
			b.Fatalf("strobe recorded %d passed tests, want 2000", passed)
		}
		strobeCPU = append(strobeCPU, cpu)
		return d
	}
	load := loadavg()
	raw()
	strobe()
	rawCPU, strobeCPU = nil, nil
	var raws, strobes []time.Duration
	var ratios []float64
	for i := range overheadRounds {
		var r, s time.Duration
		if i%2 == 0 {
			r, s = raw(), strobe()
		} else {
			s, r = strobe(), raw()
		}
		raws, strobes = append(raws, r), append(strobes, s)
		ratios = append(ratios, float64(s)/float64(r))
	}
	mr, ms_ := median(raws), median(strobes)
	ratio, pair := float64(ms_)/float64(mr), medianFloat(ratios)
	b.ReportMetric(ms(mr), "raw-ms")
	b.ReportMetric(ms(ms_), "strobe-ms")
	b.ReportMetric(ratio, "ratio-of-medians")
	b.ReportMetric(pair, "median-pair-ratio")
	// CPU time of vitest's process tree (wait4's rusage): steadier than
	// wall time on a loaded machine; the parser's in-process CPU is not in it.
	cpuRatio := float64(median(strobeCPU)) / float64(median(rawCPU))
	b.ReportMetric(cpuRatio, "cpu-ratio")
	verdict := "met"
	if ratio > overheadTarget || pair > overheadTarget {
		verdict = "MISSED"
	}
	b.Logf("raw %v cpu %v\nstrobe %v cpu %v", raws, rawCPU, strobes, strobeCPU)
	record(b, "ratio %.3f of medians, %.3f median per pair (strobe %.0f ms, raw %.0f ms; vitest's cpu time ratio %.3f; 2000 tests, %d rounds, load %s; target <= %.2f: %s)",
		ratio, pair, ms(ms_), ms(mr), cpuRatio, overheadRounds, load, overheadTarget, verdict)
}

// vitestModules is the vitest adapter's fixture workspace's node_modules
// (vitest 3.2.4 from its lockfile), installed with npm ci when missing.
func vitestModules(b *testing.B) string {
	ws := filepath.Join(testutil.Root(), "adapters", "vitest", "testdata", "js")
	if _, err := os.Stat(filepath.Join(ws, "node_modules", ".bin", "vitest")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("npm ci in %s: %v\n%s", ws, err, out)
		}
	}
	return filepath.Join(ws, "node_modules")
}

// vitestRun runs the adapter's plan for dir as the runner does (both
// streams read line by line into the parser, never concurrently), and
// returns its wall time, from just before the fork to Finish, the CPU
// time of vitest's tree, and the tests recorded as passed.
func vitestRun(b *testing.B, dir string) (time.Duration, time.Duration, int) {
	rec := adapters.NewRecorder()
	start := time.Now()
	plan, err := vitest.New().Plan(context.Background(), adapters.Request{ProjectRoot: dir}, rec)
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(plan.Argv[0], plan.Argv[1:]...)
	cmd.Dir = plan.Dir
	cmd.Env = append(os.Environ(), plan.Env...)
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	read := func(s adapters.Stream, r io.Reader) {
		defer wg.Done()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			mu.Lock()
			plan.Parser.Line(s, sc.Bytes(), false)
			mu.Unlock()
		}
	}
	wg.Add(2)
	go read(adapters.Stdout, stdout)
	go read(adapters.Stderr, stderr)
	wg.Wait()
	cmd.Wait()
	plan.Parser.Finish(report.Exit{Exited: true, Code: cmd.ProcessState.ExitCode()})
	d := time.Since(start)
	plan.Parser.(adapters.Closer).Close()
	return d, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), rec.Progress().Passed
}
