package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"strobe/daemon"
	"strobe/internal/testutil"
	"strobe/report"
)

// rssTarget bounds strobe's own peak RSS while a test prints 200 MB.
const rssTarget = 64 << 20

// BenchmarkFloodRSS measures strobe's own peak resident memory while a test
// prints 200 MB, running `strobe test FIXTURE --test NAME --json` on the
// stress fixtures:
//
//   - go: TestFlood prints 200 MB and passes; go test -json turns each line
//     into an output event, so strobe reads about 2 million events. GOFLAGS=
//     -count=1 is set for this run only, so that the test really runs
//     instead of go replaying (and first storing) 200 MB from its cache.
//   - cargo: flood_then_fail prints 200 MB, which libtest captures and then
//     prints as the "stdout" of its failed event: one JSON line of 200 MB.
//
// How strobe's own peak is known: the Maxrss in the rusage that wait4
// returns for a child is NOT the child's own peak on Linux. The kernel fills
// it with getrusage(child, RUSAGE_BOTH) (kernel/exit.c, wait_task_zombie),
// whose maxrss is the larger of the child's own high-water mark and cmaxrss,
// the largest Maxrss of the children it reaped; strobe reaps go or cargo,
// which reaped the test binary. So Maxrss is the peak of the biggest process
// in strobe's tree: in the cargo case the test binary, which holds the 200 MB
// it captured. (A shell that runs a 300 MB python and exits reports about
// 313 MiB of Maxrss; the cargo case below shows the same.) This benchmark
// reports that figure as tree-maxrss and measures strobe's own peak apart:
// it polls VmHWM in /proc/PID/status, the high-water mark of strobe's own
// address space (its children have their own), every millisecond while
// strobe runs, once the process is named strobe (before the exec it shares
// the benchmark's memory). VmHWM only grows, so the last reading is the peak
// up to that moment; what strobe allocates in the last millisecond before it
// exits could be missed, and the log says how long before the exit the last
// reading was.
func BenchmarkFloodRSS(b *testing.B) {
	b.Run("go", func(b *testing.B) {
		testutil.RequireTool(b, "go")
		dir := testutil.Fixture("go", "stress")
		warmUp(b, dir, "go", "test", "-count=1", "-run", "^$", "./...")
		flood(b, dir, "TestFlood", report.Passed, []string{"GOFLAGS=-count=1"})
	})
	b.Run("cargo", func(b *testing.B) {
		testutil.RequireTool(b, "cargo")
		dir := testutil.Fixture("cargo", "stress")
		warmUp(b, dir, "cargo", "test", "--tests", "--no-run")
		flood(b, dir, "flood_then_fail", report.Failed, nil)
	})
}

// warmUp builds the fixture's tests, so that strobe's run does not compile.
func warmUp(b *testing.B, dir string, argv ...string) {
	b.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
}

func flood(b *testing.B, dir, test string, want report.Status, env []string) {
	bin := strobeBin(b)
	cmd := exec.Command(bin, "test", dir, "--no-daemon", "--test", test, "--json")
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	peak := make(chan hwm, 1)
	go func() { peak <- pollHWM(cmd.Process.Pid, done) }()
	err := cmd.Wait()
	wall := time.Since(start)
	exited := time.Now()
	close(done)
	own := <-peak
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		b.Fatal(err)
	}
	tree := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux

	var resp report.Response
	if err := json.Unmarshal(stdout.Bytes(), &resp); err != nil {
		b.Fatalf("strobe's response: %v\n%s\n%s", err, tail(stdout.Bytes(), 2000), tail(stderr.Bytes(), 2000))
	}
	if resp.Status != want {
		b.Errorf("strobe answered %s, want %s:\n%s", resp.Status, want, tail(stdout.Bytes(), 2000))
	}
	if !resp.Truncated {
		b.Errorf("truncated not set after 200 MB of output")
	}
	var read int64
	var detailsSize int64
	if resp.Details != "" {
		if fi, err := os.Stat(resp.Details); err == nil {
			detailsSize = fi.Size()
		}
		var rec struct {
			Stdout, Stderr struct{ Bytes int64 }
		}
		if f, err := os.Open(resp.Details); err == nil {
			if err := json.NewDecoder(bufio.NewReader(f)).Decode(&rec); err == nil {
				read = rec.Stdout.Bytes + rec.Stderr.Bytes
			}
			f.Close()
		}
	}
	if own.samples == 0 {
		b.Fatalf("no reading of /proc/%d/status while strobe ran", cmd.Process.Pid)
	}

	b.ReportMetric(mib(own.peak), "strobe-peak-MiB")
	b.ReportMetric(mib(tree), "tree-maxrss-MiB")
	b.ReportMetric(wall.Seconds(), "wall-s")
	b.ReportMetric(float64(read)/1e6, "read-MB")
	b.ReportMetric(float64(detailsSize)/1e6, "details-MB")
	var growth []string
	for _, st := range own.steps {
		growth = append(growth, fmt.Sprintf("%.0f MiB at %.2fs", mib(st.peak), st.at.Sub(start).Seconds()))
	}
	b.Logf("%d readings of VmHWM, the last %v before strobe was reaped at %.2fs; VmHWM grew: %s, peak at %.2fs; details file %s",
		own.samples, exited.Sub(own.last).Round(time.Microsecond), wall.Seconds(), strings.Join(growth, ", "), own.peakAt.Sub(start).Seconds(), resp.Details)
	verdict := "met"
	if own.peak > rssTarget {
		verdict = "MISSED"
	}
	record(b, "strobe's own peak RSS %.1f MiB (tree Maxrss from wait4, test processes included: %.0f MiB; read %.0f MB in %.1fs, %.0f MB/s; status %s; details file %.1f MB; target <= %d MiB: %s)",
		mib(own.peak), mib(tree), float64(read)/1e6, wall.Seconds(), float64(read)/1e6/wall.Seconds(), resp.Status, float64(detailsSize)/1e6, rssTarget>>20, verdict)
}

// hwm is what pollHWM saw.
type hwm struct {
	peak    int64 // bytes
	samples int
	last    time.Time
	peakAt  time.Time
	steps   []step // when the peak first passed each multiple of 8 MiB
}

type step struct {
	at   time.Time
	peak int64
}

// pollHWM reads VmHWM from /proc/pid/status every millisecond until done is
// closed, counting only readings taken once the process runs strobe.
func pollHWM(pid int, done <-chan struct{}) hwm {
	var h hwm
	path := fmt.Sprintf("/proc/%d/status", pid)
	for {
		select {
		case <-done:
			return h
		default:
		}
		if b, err := os.ReadFile(path); err == nil {
			if v, ok := statusField(b, "Name"); ok && v == "strobe" {
				if v, ok := statusField(b, "VmHWM"); ok {
					kb, err := strconv.ParseInt(strings.TrimSuffix(v, " kB"), 10, 64)
					if err == nil {
						now, v := time.Now(), kb<<10
						if v > h.peak {
							if v>>23 > h.peak>>23 { // a new multiple of 8 MiB
								h.steps = append(h.steps, step{now, v})
							}
							h.peak, h.peakAt = v, now
						}
						h.samples++
						h.last = now
					}
				}
			}
		}
		time.Sleep(time.Millisecond)
	}
}

// statusField returns a field of /proc/PID/status, trimmed.
func statusField(status []byte, name string) (string, bool) {
	for l := range bytes.SplitSeq(status, []byte("\n")) {
		if k, v, ok := bytes.Cut(l, []byte(":")); ok && string(k) == name {
			return strings.TrimSpace(string(v)), true
		}
	}
	return "", false
}

// BenchmarkDaemonRSS measures the daemon's own resident memory, the process
// that lives for hours:
//
//   - flood-generic, flood-go, flood-cargo: its peak (VmHWM) while one run
//     through it prints 200 MB (a shell loop, TestFlood, flood_then_fail),
//     each in a fresh daemon (target: at most 64 MiB).
//   - burst: 1,000 connections that say hello, initialize an MCP session
//     and sit idle, all open at once, then closed; its RSS before, at the
//     peak, just after, and after a minute idle (target: back within 10%
//     of its size before the burst within that minute), and its open file
//     descriptors after (target: as before).
//
// STROBE_BENCH_HEAP_DIR=dir has the daemon write heap profiles there, each
// with the runtime's memory statistics beside it (see cmd/strobe/heapprofile.go):
// at the end of a flood, and in the burst when idle, with the connections
// open, once closed and at the end; the burst then logs the statistics
// that grew from idle to the end.
func BenchmarkDaemonRSS(b *testing.B) {
	b.Run("flood-generic", func(b *testing.B) {
		dir := b.TempDir()
		script := filepath.Join(dir, "flood.sh")
		line := strings.Repeat("flood ", 16)
		body := fmt.Sprintf("#!/bin/sh\nyes '%s' | head -c %d\n", line, 200<<20)
		if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
			b.Fatal(err)
		}
		daemonFlood(b, dir, []string{"--framework", "generic", "--command", script}, "", nil)
	})
	b.Run("flood-go", func(b *testing.B) {
		testutil.RequireTool(b, "go")
		dir := testutil.Fixture("go", "stress")
		warmUp(b, dir, "go", "test", "-count=1", "-run", "^$", "./...")
		daemonFlood(b, dir, []string{"--test", "TestFlood"}, report.Passed, []string{"GOFLAGS=-count=1"})
	})
	b.Run("flood-cargo", func(b *testing.B) {
		testutil.RequireTool(b, "cargo")
		dir := testutil.Fixture("cargo", "stress")
		warmUp(b, dir, "cargo", "test", "--tests", "--no-run")
		daemonFlood(b, dir, []string{"--test", "flood_then_fail"}, report.Failed, nil)
	})
	b.Run("burst", daemonBurst)
}

// benchDaemon is a `strobe daemon` started for one benchmark.
type benchDaemon struct {
	home string
	pid  int
	heap string // where it writes heap profiles, or ""
}

// startDaemon starts `strobe daemon --idle 0` in a fresh STROBE_HOME and
// waits until it answers; the benchmark's cleanup stops it.
func startDaemon(b *testing.B, env ...string) *benchDaemon {
	b.Helper()
	cmd := exec.Command(strobeBin(b), "daemon", "--idle", "0")
	// Registered before daemonHome's stop, so it runs after it.
	b.Cleanup(func() {
		if cmd.Process != nil {
			cmd.Wait()
		}
	})
	d := &benchDaemon{home: daemonHome(b), heap: os.Getenv("STROBE_BENCH_HEAP_DIR")}
	cmd.Env = append(append(os.Environ(), "STROBE_HOME="+d.home), env...)
	if d.heap != "" {
		cmd.Env = append(cmd.Env, "STROBE_HEAP_PROFILE_DIR="+d.heap)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	d.pid = cmd.Process.Pid
	p, err := daemon.PathsIn(d.home)
	if err != nil {
		b.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		c, err := daemon.Dial(p, daemon.Hello{Strobe: 1, Version: "bench", PID: os.Getpid()})
		if err == nil {
			c.Close()
			return d
		}
		if time.Now().After(deadline) {
			b.Fatalf("the daemon did not answer: %v", err)
		}
	}
}

// heapProfile has the daemon write a heap profile named after the
// benchmark, when profiles were asked for.
func (d *benchDaemon) heapProfile(b *testing.B, what string) {
	if d.heap == "" {
		return
	}
	before, _ := filepath.Glob(filepath.Join(d.heap, "heap-*.pprof"))
	syscall.Kill(d.pid, syscall.SIGUSR1)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		after, _ := filepath.Glob(filepath.Join(d.heap, "heap-*.pprof"))
		if len(after) > len(before) {
			for _, f := range after {
				if !slices.Contains(before, f) {
					name := filepath.Join(d.heap, strings.ReplaceAll(b.Name(), "/", "-")+"-"+what+".pprof")
					os.Rename(f, name)
					os.Rename(strings.TrimSuffix(f, ".pprof")+".txt", strings.TrimSuffix(name, ".pprof")+".txt")
					b.Logf("heap profile: %s", name)
				}
			}
			return
		}
	}
	b.Logf("no heap profile from the daemon")
}

// memoryGrowth logs the runtime's memory statistics (written beside the
// heap profiles) that grew from one profile to another: what the daemon
// kept.
func (d *benchDaemon) memoryGrowth(b *testing.B, from, to string) {
	if d.heap == "" {
		return
	}
	read := func(what string) map[string]int64 {
		data, err := os.ReadFile(filepath.Join(d.heap, strings.ReplaceAll(b.Name(), "/", "-")+"-"+what+".txt"))
		if err != nil {
			return nil
		}
		m := map[string]int64{}
		for _, l := range strings.Split(string(data), "\n") {
			if name, v, ok := strings.Cut(l, " "); ok {
				m[name], _ = strconv.ParseInt(v, 10, 64)
			}
		}
		return m
	}
	before, after := read(from), read(to)
	if before == nil || after == nil {
		b.Logf("no memory statistics beside the heap profiles %q and %q", from, to)
		return
	}
	// Held: in use, or idle and not given back; Sys and HeapReleased
	// count what the runtime mapped, not what is resident.
	after["HeapIdle"] -= after["HeapReleased"]
	before["HeapIdle"] -= before["HeapReleased"]
	var grew []string
	for name, v := range after {
		if name == "Sys" || name == "HeapReleased" || name == "Goroutines" {
			continue
		}
		if more := v - before[name]; more >= 64<<10 {
			grew = append(grew, fmt.Sprintf("%s +%.2f MiB", name, mib(more)))
		}
	}
	slices.Sort(grew)
	b.Logf("runtime memory grown from %s to %s (runtime.MemStats, held and not given back): %s", from, to, strings.Join(grew, ", "))
}

// procStatus reads a field of /proc/PID/status in bytes (kB fields).
func procStatus(pid int, name string) int64 {
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	v, _ := statusField(st, name)
	kb, _ := strconv.ParseInt(strings.TrimSuffix(v, " kB"), 10, 64)
	return kb << 10
}

// procCount is a plain number of /proc/PID/status (Threads), 0 when unread.
func procCount(pid int, name string) int64 {
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	v, _ := statusField(st, name)
	n, _ := strconv.ParseInt(v, 10, 64)
	return n
}

func openFDs(pid int) int {
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return len(fds)
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// daemonFlood runs `strobe test DIR ARGS --json` through a fresh daemon
// and measures the daemon's peak RSS meanwhile.
func daemonFlood(b *testing.B, dir string, args []string, want report.Status, env []string) {
	d := startDaemon(b)
	idle := procStatus(d.pid, "VmRSS")
	cmd := exec.Command(strobeBin(b), append([]string{"test", dir, "--json"}, args...)...)
	cmd.Env = append(append(os.Environ(), "STROBE_HOME="+d.home), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan struct{})
	peak := make(chan hwm, 1)
	go func() { peak <- pollHWM(d.pid, done) }()
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	close(done)
	own := <-peak
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		b.Fatal(err)
	}
	var resp report.Response
	if err := json.Unmarshal(stdout.Bytes(), &resp); err != nil {
		b.Fatalf("strobe's response: %v\n%s\n%s", err, tail(stdout.Bytes(), 2000), tail(stderr.Bytes(), 2000))
	}
	if want != "" && resp.Status != want {
		b.Errorf("strobe answered %s, want %s:\n%s", resp.Status, want, tail(stdout.Bytes(), 2000))
	}
	if !resp.Truncated {
		b.Errorf("truncated not set after 200 MB of output")
	}
	d.heapProfile(b, "after")
	after := procStatus(d.pid, "VmRSS")
	b.ReportMetric(mib(own.peak), "daemon-peak-MiB")
	b.ReportMetric(mib(after), "daemon-after-MiB")
	verdict := "met"
	if own.peak > rssTarget {
		verdict = "MISSED"
	}
	record(b, "daemon peak RSS %.1f MiB during the run (idle before %.1f MiB, %.1f MiB just after; status %s in %.1fs; target <= %d MiB: %s)",
		mib(own.peak), mib(idle), mib(after), resp.Status, wall.Seconds(), rssTarget>>20, verdict)
}

const (
	// burstConns is how many connections the burst opens at once.
	burstConns = 1000
	// burstIdle is how long the daemon has to return to its size.
	burstIdle = time.Minute
)

// daemonBurst opens burstConns MCP sessions at once, closes them, and
// follows the daemon's RSS for burstIdle.
func daemonBurst(b *testing.B) {
	d := startDaemon(b)
	p, err := daemon.PathsIn(d.home)
	if err != nil {
		b.Fatal(err)
	}
	// Its idle size is after one session: what the first one sets up for
	// good (the tools' schemas) is not the burst's.
	c, err := daemon.Dial(p, daemon.NewHello("bench"))
	if err != nil {
		b.Fatal(err)
	}
	if cs, err := mcp.NewClient(&mcp.Implementation{Name: "burst", Version: "1"}, nil).Connect(context.Background(), c.Transport(), nil); err == nil {
		cs.Close()
	}
	c.Close()
	time.Sleep(10 * time.Second) // the daemon's trim after it
	idle, idleFDs := procStatus(d.pid, "VmRSS"), openFDs(d.pid)
	idleAnon, idleFile, idleThreads := procStatus(d.pid, "RssAnon"), procStatus(d.pid, "RssFile"), procCount(d.pid, "Threads")
	d.heapProfile(b, "idle") // after the measures: it collects garbage

	var (
		mu       sync.Mutex
		sessions []*mcp.ClientSession
		refused  []string
	)
	h := daemon.NewHello("bench")
	sem := make(chan struct{}, 32)
	var wg sync.WaitGroup
	start := time.Now()
	for range burstConns {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c, err := daemon.Dial(p, h)
			if err != nil {
				mu.Lock()
				refused = append(refused, err.Error())
				mu.Unlock()
				return
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "burst", Version: "1"}, nil).Connect(context.Background(), c.Transport(), nil)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				c.Close()
				refused = append(refused, err.Error())
				return
			}
			sessions = append(sessions, cs)
		}()
	}
	wg.Wait()
	opened := time.Since(start)
	open := procStatus(d.pid, "VmRSS")
	peak := procStatus(d.pid, "VmHWM") // now: a restart in place starts the count again
	openFD := openFDs(d.pid)
	d.heapProfile(b, "open")
	for _, cs := range sessions {
		cs.Close()
	}
	// The daemon notices each close on its next read.
	var fds int
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if fds = openFDs(d.pid); fds <= idleFDs || time.Now().After(deadline) {
			break
		}
	}
	time.Sleep(time.Second)
	after := procStatus(d.pid, "VmRSS")
	d.heapProfile(b, "closed")
	var back time.Duration
	rss := after
	for t0 := time.Now(); time.Since(t0) < burstIdle; time.Sleep(time.Second) {
		rss = procStatus(d.pid, "VmRSS")
		if back == 0 && rss <= idle+idle/10 {
			back = time.Since(t0)
		}
	}
	// What the RSS is made of: the heap and stacks (anonymous) and the
	// binary's own pages that the burst's code paths touched (file-backed,
	// shared and clean: the kernel takes them back under pressure).
	b.Logf("RssAnon %.1f MiB idle, %.1f MiB after; RssFile %.1f MiB idle, %.1f MiB after; threads %d idle, %d after",
		mib(idleAnon), mib(procStatus(d.pid, "RssAnon")), mib(idleFile), mib(procStatus(d.pid, "RssFile")), idleThreads, procCount(d.pid, "Threads"))
	d.heapProfile(b, "end")
	d.memoryGrowth(b, "idle", "end")
	for i, r := range refused {
		if i < 3 {
			b.Logf("refused: %s", r)
		}
	}
	b.ReportMetric(mib(idle), "idle-MiB")
	b.ReportMetric(mib(peak), "peak-MiB")
	b.ReportMetric(mib(after), "closed-MiB")
	b.ReportMetric(mib(rss), "after-idle-MiB")
	verdict := "met"
	if back == 0 || fds > idleFDs {
		verdict = "MISSED"
	}
	backText := "not within " + burstIdle.String()
	if back > 0 {
		backText = "back after " + back.Round(time.Second).String()
	}
	record(b, "%d connections (%d served, %d refused) in %.1fs: daemon RSS idle %.1f MiB, %.1f MiB with them open (peak %.1f), %.1f MiB once closed, %.1f MiB after %v idle (%s); fds %d idle, %d open, %d after; target: within 10%% of idle in %v, no fd left: %s",
		burstConns, len(sessions), len(refused), opened.Seconds(), mib(idle), mib(open), mib(peak), mib(after), mib(rss), burstIdle, backText, idleFDs, openFD, fds, burstIdle, verdict)
}
