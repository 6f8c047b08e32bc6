package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit/python"
	"strobe/adapters/pytest"
	"strobe/internal/testutil"
	"strobe/report"
)

// BenchmarkPytestParser measures the Python adapters' event reader (the
// file strobe's pytest plugin and unittest runner write, decoded and
// recorded) on 100,000 tests: a start and an end event each, one test in a
// hundred failing with a rewritten assertion and its captured output, one
// in a hundred skipped with its reason. An event is one line.
func BenchmarkPytestParser(b *testing.B) {
	var buf bytes.Buffer
	failed := 0
	for i := range parserTests {
		id := fmt.Sprintf("tests/test_m%02d.py::test_%05d", i%50, i)
		fmt.Fprintf(&buf, `{"ev":"start","id":"%s","file":"tests/test_m%02d.py","line":%d}`+"\n", id, i%50, 3+i%400)
		switch i % 100 {
		case 7:
			failed++
			fmt.Fprintf(&buf, `{"ev":"end","id":"%s","status":"failed","dur":0.000412,"when":"call","msg":"assert 8 == 9\n +  where 8 = double(4)","type":"AssertionError","file":"tests/test_m%02d.py","line":%d,"out":"connecting\nretrying\n"}`+"\n", id, i%50, 4+i%400)
		case 9:
			fmt.Fprintf(&buf, `{"ev":"end","id":"%s","status":"skipped","dur":0.000101,"reason":"needs a GPU"}`+"\n", id)
		default:
			fmt.Fprintf(&buf, `{"ev":"end","id":"%s","status":"passed","dur":0.000254}`+"\n", id)
		}
	}
	events := 2 * parserTests
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var rec *adapters.Recorder
	for b.Loop() {
		rec = adapters.NewRecorder()
		m := &python.Mapper{Rec: rec, Rerun: func(id string) string { return "python3 -m pytest " + id }}
		python.Read(bytes.NewReader(data), m)
	}
	rate := float64(events) * float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(rate, "events/s")
	if got := rec.Progress(); got.Failed != failed || got.Passed+got.Failed+got.Skipped != parserTests {
		b.Errorf("recorded %+v, want %d tests, %d failed", got, parserTests, failed)
	}
	verdict := "met"
	if rate < parserTarget {
		verdict = "MISSED"
	}
	record(b, "%.0f events/s (%d events, %.1f MB; target >= %d: %s)", rate, events, float64(len(data))/1e6, parserTarget, verdict)
}

// BenchmarkPytestOverhead measures what strobe's pytest plugin and parser
// cost over `python3 -m pytest -q` on a generated suite of 2,000 passing
// tests (20 modules of 100), run alternately overheadRounds times after a
// warm-up, as the ratio of median wall times (and the median of each
// round's ratio). "plugin" runs the adapter's plan (python3 -m pytest -p
// strobe_plugin) with its output and events read by the parser in this
// process, as the runner reads them; the fixed cost of `strobe test` itself
// is BenchmarkOverhead's strobe-noop. (BenchmarkOverhead gets a pytest case
// once the adapter is in adapters/all.)
func BenchmarkPytestOverhead(b *testing.B) {
	py := testutil.RequireTool(b, "python3")
	if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
		b.Skip("python3 cannot import pytest")
	}
	dir := b.TempDir()
	for m := range 20 {
		var src strings.Builder
		for t := range 100 {
			fmt.Fprintf(&src, "def test_%03d():\n    assert sum(range(%d)) == %d\n\n\n", t, t, t*(t-1)/2)
		}
		writeFiles(b, dir, map[string]string{fmt.Sprintf("tests/test_mod%02d.py", m): src.String()})
	}
	writeFiles(b, dir, map[string]string{"pytest.ini": "[pytest]\n"})

	var rawCPU, pluginCPU, parserCPU []time.Duration
	raw := func() time.Duration {
		cmd := exec.Command(py, "-m", "pytest", "-q")
		cmd.Dir = dir
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("raw pytest: %v\n%s", err, tail(out, 2000))
		}
		d := time.Since(start)
		rawCPU = append(rawCPU, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		return d
	}
	plugin := func() time.Duration {
		self := selfCPU()
		start := time.Now()
		rec, child := runPythonPlan(b, pytest.New(), adapters.Request{ProjectRoot: dir})
		d := time.Since(start)
		own := selfCPU() - self
		pluginCPU, parserCPU = append(pluginCPU, child+own), append(parserCPU, own)
		if p := rec.Progress(); p.Passed != 2000 {
			b.Fatalf("the plugin's run recorded %+v, want 2000 passed", p)
		}
		return d
	}
	load := loadavg()
	raw()
	plugin()
	rawCPU, pluginCPU, parserCPU = nil, nil, nil
	var raws, plugins []time.Duration
	var ratios []float64
	for i := range overheadRounds {
		var r, p time.Duration
		if i%2 == 0 {
			r, p = raw(), plugin()
		} else {
			p, r = plugin(), raw()
		}
		raws, plugins = append(raws, r), append(plugins, p)
		ratios = append(ratios, float64(p)/float64(r))
	}
	ratio := float64(median(plugins)) / float64(median(raws))
	pair := medianFloat(ratios)
	b.ReportMetric(ms(median(raws)), "raw-ms")
	b.ReportMetric(ms(median(plugins)), "plugin-ms")
	b.ReportMetric(ratio, "ratio-of-medians")
	b.ReportMetric(pair, "median-pair-ratio")
	verdict := "met"
	if ratio > overheadTarget || pair > overheadTarget {
		verdict = "MISSED"
	}
	cpuRatio := float64(median(pluginCPU)) / float64(median(rawCPU))
	b.ReportMetric(cpuRatio, "cpu-ratio")
	b.ReportMetric(ms(median(parserCPU)), "parser-cpu-ms")
	b.Logf("raw %v\nplugin %v\nraw cpu %v\nplugin cpu (pytest and the parser) %v", raws, plugins, rawCPU, pluginCPU)
	record(b, "ratio %.3f of medians, %.3f median per pair (plugin and parser %.0f ms, raw pytest -q %.0f ms; cpu time ratio %.3f, pytest's and the parser's, the parser's %.0f ms; 2000 tests, %d rounds, load %s; target <= %.2f: %s)",
		ratio, pair, ms(median(plugins)), ms(median(raws)), cpuRatio, ms(median(parserCPU)), overheadRounds, load, overheadTarget, verdict)
}

// selfCPU is this process's user and system time: the parser's, in
// BenchmarkPytestOverhead, which does nothing else meanwhile.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// runPlan plans req and runs it as the runner does: its own process group,
// both streams read line by line into the parser, Finish, Close. It
// returns the recorder and the command's CPU time.
func runPythonPlan(b *testing.B, a adapters.Adapter, req adapters.Request) (*adapters.Recorder, time.Duration) {
	b.Helper()
	rec := adapters.NewRecorder()
	plan, err := a.Plan(context.Background(), req, rec)
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(plan.Argv[0], plan.Argv[1:]...)
	cmd.Dir, cmd.Env = plan.Dir, append(os.Environ(), plan.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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
	plan.Parser.(adapters.Closer).Close()
	return rec, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}
