package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
	"strobe/stuck"
)

// The stuck detector's figures (issue 4):
//
//   - BenchmarkStuckVerdictLatency: from the moment a fixture blocks or
//     starts spinning (it writes a timestamped marker) to strobe's answer,
//     median over a few runs, for a deadlock and a busy loop in C++, Rust
//     and Go, and a JavaScript busy loop on node's main thread, a worker
//     thread and a child process (target: at most 3 s). The answer comes after the stacks are
//     captured and the group is killed, so this is an upper bound of the
//     verdict's own latency.
//   - BenchmarkStuckSamplingPass: one /proc pass over a 20-process tree,
//     beside gopsutil's recursive Children() for the same tree.
//   - BenchmarkStuckFalsePositives: the not-stuck fixtures (a silent 9 s
//     sleep, 12 s of silent CPU work, a wait on a working child, Go and
//     Rust sleeps, a node timer of 9 s and 10 s of silent JavaScript
//     work) beside CPU hogs, repeated (target: 0 verdicts).
//   - BenchmarkStuckFalsePositivesJS: the node ones alone, 50 runs each
//     beside two CPU hogs.
//   - BenchmarkStuckOwnCPU: the detector's CPU (its sampling and the
//     stack tools it runs) while a silent, CPU-bound test works for 60 s,
//     the case where it samples stacks most (target: under 1 % of a core).
//
// STROBE_BENCH_STUCK_RUNS, _REPS and _SECONDS shorten them for a quick look.

func stuckEnvInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

var stuckHang = sync.OnceValues(func() (string, error) {
	out := filepath.Join(tmp, "hang")
	src := filepath.Join(testutil.Root(), "stuck", "testdata", "native", "hang.cpp")
	if msg, err := exec.Command("g++", "-g", "-O1", "-pthread", "-o", out, src).CombinedOutput(); err != nil {
		return "", fmt.Errorf("building hang.cpp: %v\n%s", err, msg)
	}
	return out, nil
})

// stuckFixture is one fixture run as strobe would run it.
type stuckFixture struct {
	name string
	req  func(b *testing.B) runner.Request
}

func stuckNative(mode string, args ...string) func(b *testing.B) runner.Request {
	return func(b *testing.B) runner.Request {
		testutil.RequireTool(b, "g++")
		bin, err := stuckHang()
		if err != nil {
			b.Fatal(err)
		}
		return runner.Request{ProjectRoot: filepath.Join(testutil.Root(), "stuck", "testdata", "native"),
			Command: strings.Join(append([]string{bin, mode}, args...), " ")}
	}
}

func stuckNode(args ...string) func(b *testing.B) runner.Request {
	return func(b *testing.B) runner.Request {
		testutil.RequireTool(b, "node")
		return runner.Request{ProjectRoot: filepath.Join(testutil.Root(), "stuck", "testdata", "node"),
			Command: strings.Join(append([]string{"node", "hang.js"}, args...), " ")}
	}
}

func stuckCargo(test string) func(b *testing.B) runner.Request {
	return func(b *testing.B) runner.Request {
		testutil.RequireTool(b, "cargo")
		return runner.Request{ProjectRoot: filepath.Join(testutil.Root(), "stuck", "testdata", "rustdeadlock"),
			Framework: "cargo", Test: test,
			Env: map[string]string{"CARGO_TARGET_DIR": filepath.Join(os.TempDir(), "strobe-stuck-cargo-target")}}
	}
}

func stuckGo(test string) func(b *testing.B) runner.Request {
	return func(b *testing.B) runner.Request {
		// -count=1: a cached pass would not exercise the detector.
		return runner.Request{ProjectRoot: filepath.Join(testutil.Root(), "stuck", "testdata", "godeadlock"),
			Framework: "go", Command: "go test -count=1 ./...", Test: test}
	}
}

// stuckRun runs req with a marker file and answers the response, when it
// came and when the fixture wrote its marker (zero if it did not).
func stuckRun(b *testing.B, req runner.Request) (*report.Response, time.Time, time.Time) {
	b.Helper()
	mark := filepath.Join(b.TempDir(), "mark")
	env := map[string]string{"STROBE_MARK_FILE": mark}
	for k, v := range req.Env {
		env[k] = v
	}
	req.Env = env
	if req.Timeout == 0 {
		req.Timeout = 90 * time.Second
	}
	resp, err := runner.Exec(context.Background(), req, runner.Options{DetailsDir: b.TempDir()})
	done := time.Now()
	if err != nil {
		b.Fatal(err)
	}
	var marked time.Time
	if data, err := os.ReadFile(mark); err == nil {
		f := strings.Fields(string(data))
		if len(f) >= 3 {
			if sec, err := strconv.ParseFloat(f[2], 64); err == nil {
				marked = time.Unix(0, int64(sec*1e9))
			}
		}
	}
	return resp, done, marked
}

func BenchmarkStuckVerdictLatency(b *testing.B) {
	testutil.RequireTool(b, "eu-stack")
	runs := stuckEnvInt("STROBE_BENCH_STUCK_RUNS", 5)
	for _, fx := range []stuckFixture{
		{"cxx-deadlock", stuckNative("deadlock")},
		{"cxx-busy", stuckNative("busy")},
		{"rust-deadlock", stuckCargo("tests::deadlock")},
		{"rust-busy", stuckCargo("tests::busy_loop")},
		{"go-deadlock", stuckGo("TestDeadlock")},
		{"go-busy", stuckGo("TestBusyLoop")},
		{"js-busy", stuckNode("busy")},
		{"js-worker-thread-busy", stuckNode("workerbusy")},
		{"js-child-process-busy", stuckNode("forkbusy")},
	} {
		b.Run(fx.name, func(b *testing.B) {
			req := fx.req(b)
			stuckRun(b, req) // warm the build
			for i := 0; i < b.N; i++ {
				var lat []time.Duration
				for r := 0; r < runs; r++ {
					resp, done, marked := stuckRun(b, req)
					if resp.Status != report.Stuck {
						b.Fatalf("status %s, want stuck (%+v)", resp.Status, resp.Crash)
					}
					if marked.IsZero() {
						b.Fatal("the fixture wrote no marker")
					}
					lat = append(lat, done.Sub(marked))
				}
				m := median(lat)
				b.ReportMetric(m.Seconds(), "s-median")
				record(b, "verdict latency median %.2f s over %d runs (min %.2f, max %.2f; marker to answer)",
					m.Seconds(), runs, minDur(lat).Seconds(), maxDur(lat).Seconds())
			}
		})
	}
}

// stuckTree starts sh with 19 sleeping children: a 20-process tree.
func stuckTree(b *testing.B) *exec.Cmd {
	b.Helper()
	cmd := exec.Command("sh", "-c", "for i in $(seq 19); do sleep 300 & done; wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	view := stuck.NewProcView()
	for deadline := time.Now().Add(5 * time.Second); ; {
		snap, _ := view.Sample(cmd.Process.Pid)
		if len(snap.Procs) == 20 {
			return cmd
		}
		if time.Now().After(deadline) {
			b.Fatalf("the tree has %d processes, want 20", len(snap.Procs))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func BenchmarkStuckSamplingPass(b *testing.B) {
	cmd := stuckTree(b)
	view := stuck.NewProcView()
	for i := 0; i < b.N; i++ {
		var passes []time.Duration
		for j := 0; j < 200; j++ {
			start := time.Now()
			if _, err := view.Sample(cmd.Process.Pid); err != nil {
				b.Fatal(err)
			}
			passes = append(passes, time.Since(start))
		}
		var gops []time.Duration
		for j := 0; j < 5; j++ {
			start := time.Now()
			n := stuckGopsutilTree(cmd.Process.Pid)
			gops = append(gops, time.Since(start))
			if n != 20 {
				b.Logf("gopsutil found %d processes", n)
			}
		}
		m := median(passes)
		b.ReportMetric(ms(m), "ms/pass")
		record(b, "one /proc pass over a 20-process tree: median %.2f ms (max %.2f ms); a /proc rescan per Children() call, as gopsutil does: %.1f ms",
			ms(m), ms(maxDur(passes)), ms(median(gops)))
	}
}

// stuckGopsutilTree walks the tree as gopsutil's recursive Children()
// does on Linux: every call rescans all of /proc for the processes whose
// parent is the given one.
func stuckGopsutilTree(pid int) int {
	n := 1
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(d + "/stat")
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(b), ')')
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			child, _ := strconv.Atoi(filepath.Base(d))
			n += stuckGopsutilTree(child)
		}
	}
	return n
}

// stuckHogs keeps n cores busy outside the runs.
func stuckHogs(b *testing.B, n int) int {
	for i := 0; i < n; i++ {
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
		})
	}
	return n
}

// falseVerdicts runs each named request reps times, the requests of a
// round at once, and returns a line for every run that did not pass.
func falseVerdicts(b *testing.B, names []string, reqs []runner.Request, reps int) []string {
	var mu sync.Mutex
	var wrong []string
	for r := 0; r < reps; r++ {
		var wg sync.WaitGroup
		for j, req := range reqs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, _, _ := stuckRun(b, req)
				if resp.Status == report.Passed {
					return
				}
				diag := ""
				if len(resp.Stuck) > 0 {
					diag = ": " + resp.Stuck[0].Diagnosis
				}
				mu.Lock()
				wrong = append(wrong, fmt.Sprintf("%s run %d %s%s", names[j], r+1, resp.Status, diag))
				mu.Unlock()
			}()
		}
		wg.Wait()
	}
	for _, w := range wrong {
		b.Log(w)
	}
	b.ReportMetric(float64(len(wrong)), "false-verdicts")
	return wrong
}

func BenchmarkStuckFalsePositives(b *testing.B) {
	testutil.RequireTool(b, "eu-stack")
	reps := stuckEnvInt("STROBE_BENCH_STUCK_REPS", 10)
	fixtures := []stuckFixture{
		{"cxx-sleep-9s", stuckNative("sleep", "9")},
		{"cxx-work-12s", stuckNative("work", "12")},
		{"cxx-working-child-12s", stuckNative("workchild", "12")},
		{"rust-sleep-9s", stuckCargo("tests::sleep_then_pass")},
		{"go-sleep-9s", stuckGo("TestSleepThenPass")},
		{"go-parallel-one-slow", stuckGo("TestParallelOneSlow")},
		{"go-poll-ticker-5s", stuckGo("TestPollTicker")},
		{"js-sleep-9s", stuckNode("sleep", "9")},
		{"js-work-10s", stuckNode("work", "10")},
	}
	reqs := make([]runner.Request, len(fixtures))
	for i, fx := range fixtures {
		reqs[i] = fx.req(b)
	}
	// Build first, then load the machine.
	for _, req := range []runner.Request{stuckCargo("tests::quick")(b), stuckGo("TestQuick")(b)} {
		stuckRun(b, req)
	}
	hogs := stuckHogs(b, runtime.NumCPU())
	names := make([]string, len(fixtures))
	for i, fx := range fixtures {
		names[i] = fx.name
	}
	for i := 0; i < b.N; i++ {
		wrong := falseVerdicts(b, names, reqs, reps)
		record(b, "false verdicts: %d of %d runs (%d not-stuck fixtures × %d, beside %d CPU hogs; load %s)",
			len(wrong), reps*len(reqs), len(reqs), reps, hogs, loadavg())
	}
}

// BenchmarkStuckFalsePositivesJS runs the node not-stuck fixtures 50
// times each (STROBE_BENCH_STUCK_JS_REPS), two at a time, beside two CPU
// hogs: every run must pass.
func BenchmarkStuckFalsePositivesJS(b *testing.B) {
	reps := stuckEnvInt("STROBE_BENCH_STUCK_JS_REPS", 50)
	fixtures := []stuckFixture{
		{"js-sleep-9s", stuckNode("sleep", "9")},
		{"js-work-10s", stuckNode("work", "10")},
	}
	reqs := make([]runner.Request, len(fixtures))
	for i, fx := range fixtures {
		reqs[i] = fx.req(b)
	}
	hogs := stuckHogs(b, 2)
	names := make([]string, len(fixtures))
	for i, fx := range fixtures {
		names[i] = fx.name
	}
	for i := 0; i < b.N; i++ {
		wrong := falseVerdicts(b, names, reqs, reps)
		record(b, "false verdicts: %d of %d runs (%d node fixtures × %d, beside %d CPU hogs; load %s)",
			len(wrong), reps*len(reqs), len(reqs), reps, hogs, loadavg())
	}
}

func BenchmarkStuckOwnCPU(b *testing.B) {
	testutil.RequireTool(b, "g++")
	testutil.RequireTool(b, "eu-stack")
	secs := stuckEnvInt("STROBE_BENCH_STUCK_SECONDS", 60)
	bin, err := stuckHang()
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin, "work", strconv.Itoa(secs+5))
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		det := stuck.New(stuck.Config{Root: cmd.Process.Pid, LastOutput: func() time.Time { return start }})
		var self0, kids0 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &self0)
		syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids0)
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(secs)*time.Second)
		v := det.Run(ctx)
		cancel()
		elapsed := time.Since(start)
		var self1, kids1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &self1)
		syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids1) // the stack tools, reaped; not yet the worker
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		if v != nil {
			b.Fatalf("a working test was called %s: %s", v.Kind, v.Diagnosis)
		}
		own := stuckCPU(self1) - stuckCPU(self0)
		tools := stuckCPU(kids1) - stuckCPU(kids0)
		share := (own + tools).Seconds() / elapsed.Seconds() * 100
		b.ReportMetric(share, "%core")
		record(b, "detector CPU over %ds of silent CPU-bound work: %.2f%% of a core (sampling %.2f%%, stack tools %.2f%%)",
			secs, share, own.Seconds()/elapsed.Seconds()*100, tools.Seconds()/elapsed.Seconds()*100)
	}
}

func stuckCPU(r syscall.Rusage) time.Duration {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
