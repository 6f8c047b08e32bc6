package runner

import (
	"bytes"
	"context"
	"flag"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/details"
	"strobe/report"
)

var misbehave string // path of the built testdata/misbehave

// cpuSlots bounds the parallel tests whose processes burn CPU to one at a
// time: the stuck detector judges a spinning test by its CPU share, and
// with two spins on CI's two cores beside the waiting tests' starting
// interpreters, a Python spin's verdict took 19 s (want under 7). Tests that mostly wait (a deadlock, a sleep, a promise that never
// settles) take no slot: they run beside the others, and the package's
// slowest tests, each waiting seconds for a verdict, overlap.
var cpuSlots = make(chan struct{}, 1)

// waitingParallel is the package's -test.parallel unless the command line
// sets it: room for the two busy tests and as many waiting ones.
const waitingParallel = 6

// parallel marks t parallel; a test whose processes spin or work (busy)
// holds a CPU slot until it and its subtests end.
func parallel(t *testing.T, busy bool) {
	t.Helper()
	t.Parallel()
	if busy {
		cpuSlots <- struct{}{}
		t.Cleanup(func() { <-cpuSlots })
	}
}

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(waitingParallel))
	}
	dir, err := os.MkdirTemp("", "strobe-runner-test")
	if err != nil {
		panic(err)
	}
	misbehave = filepath.Join(dir, "misbehave")
	out, err := exec.Command("go", "build", "-o", misbehave, "./testdata/misbehave").CombinedOutput()
	if err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// run runs misbehave with args through the generic adapter.
func run(t *testing.T, timeout time.Duration, args ...string) (*report.Response, *details.Record) {
	t.Helper()
	req := Request{ProjectRoot: t.TempDir(), Command: misbehave + " " + strings.Join(args, " "), Timeout: timeout}
	return runReq(t, req)
}

func runReq(t *testing.T, req Request) (*report.Response, *details.Record) {
	t.Helper()
	dir := t.TempDir()
	resp, err := Exec(context.Background(), req, Options{DetailsDir: dir})
	if err != nil {
		t.Fatalf("Exec: %v", err)
	}
	rec, err := details.Read(dir, resp.RunID)
	if err != nil {
		t.Fatalf("details: %v", err)
	}
	if leftovers := processesOf(resp.RunID); len(leftovers) > 0 {
		t.Errorf("processes of run %s still alive: %v", resp.RunID, leftovers)
	}
	return resp, rec
}

// processesOf lists live processes that carry the run id.
func processesOf(id string) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		env, err := os.ReadFile(d + "/environ")
		if err != nil || !bytes.Contains(env, []byte(RunIDEnv+"="+id)) {
			continue
		}
		if st, _ := os.ReadFile(d + "/stat"); bytes.Contains(st, []byte(") Z ")) {
			continue // a zombie is dead, only not yet reaped by its parent
		}
		pid, _ := strconv.Atoi(filepath.Base(d))
		pids = append(pids, pid)
	}
	return pids
}

func TestSignalsAreCrashes(t *testing.T) {
	for sig, want := range map[string]report.CrashType{
		"SEGV": report.CrashSegmentationFault, "ABRT": report.CrashAbort, "BUS": report.CrashBusError,
		"FPE": report.CrashFloatingPoint, "ILL": report.CrashIllegalInstruction, "KILL": report.CrashKilled,
	} {
		t.Run(sig, func(t *testing.T) {
			resp, rec := run(t, 0, "signal", sig)
			if resp.Status != report.Crashed {
				t.Fatalf("status = %s, want crashed", resp.Status)
			}
			if resp.Crash.Type != want || resp.Crash.SignalName != "SIG"+sig || resp.Crash.ExitCode != 128+resp.Crash.Signal {
				t.Errorf("crash = %+v, want type %s, SIG%s, exit 128+N", resp.Crash, want, sig)
			}
			if !rec.Exit.Signaled {
				t.Errorf("details exit = %+v, want signaled", rec.Exit)
			}
			if resp.Summary.Passed != 1 {
				t.Errorf("passed = %d, want the 1 test that passed before the crash", resp.Summary.Passed)
			}
		})
	}
}

func TestTimeoutKillsTheGroup(t *testing.T) {
	start := time.Now()
	resp, rec := run(t, 500*time.Millisecond, "hang")
	if resp.Status != report.Timeout || resp.Crash.Type != report.CrashStopped || resp.Crash.StoppedBy != report.StoppedTimeout {
		t.Fatalf("status %s crash %+v, want timeout", resp.Status, resp.Crash)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("a process that obeys SIGTERM took %v to stop", d)
	}
	if !strings.Contains(rec.Stdout.Text, "started") {
		t.Errorf("partial output lost: %q", rec.Stdout.Text)
	}
}

func TestTimeoutEscalatesToSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("waits the 5 s grace period")
	}
	start := time.Now()
	resp, _ := run(t, 300*time.Millisecond, "ignore-term")
	if resp.Status != report.Timeout {
		t.Fatalf("status = %s, want timeout", resp.Status)
	}
	if d := time.Since(start); d < killGrace || d > killGrace+3*time.Second {
		t.Errorf("took %v, want the %v grace and then SIGKILL", d, killGrace)
	}
}

func TestGrandchildInNewSessionDoesNotOutliveTheRun(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	resp, _ := run(t, time.Second, "grandchild", pidFile)
	if resp.Status != report.Timeout {
		t.Fatalf("status = %s, want timeout", resp.Status)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the grandchild never started: %v", err)
	}
	pid, _ := strconv.Atoi(string(b))
	if err := syscall.Kill(pid, 0); err == nil {
		st, _ := os.ReadFile("/proc/" + string(b) + "/stat")
		if !bytes.Contains(st, []byte(") Z ")) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("grandchild %d outlived the run", pid)
		}
	}
}

// A process that left the run as nothing else can (its own session, no run
// id) and holds stdout cannot keep the run from ending: the drain gives up
// after drainTimeout and wakes its blocked readers.
func TestEscapedWriterDoesNotHoldTheRun(t *testing.T) {
	defer func(d time.Duration) { drainTimeout = d }(drainTimeout)
	drainTimeout = 200 * time.Millisecond
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, _ := strconv.Atoi(string(b)); pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	type answer struct {
		resp *report.Response
		err  error
	}
	done := make(chan answer, 1)
	start := time.Now()
	go func() {
		resp, err := Exec(context.Background(), Request{ProjectRoot: t.TempDir(), Command: misbehave + " escape " + pidFile}, Options{DetailsDir: t.TempDir()})
		done <- answer{resp, err}
	}()
	select {
	case a := <-done:
		if a.err != nil {
			t.Fatalf("Exec: %v", a.err)
		}
		if a.resp.Status != report.Passed || a.resp.Summary.Passed != 1 {
			t.Errorf("status %s, summary %+v; want passed, the 1 test", a.resp.Status, a.resp.Summary)
		}
		if d := time.Since(start); d < drainTimeout {
			t.Errorf("the run ended after %v, before the drain could have given up (%v): did the escaped process start?", d, drainTimeout)
		}
		if !strings.Contains(a.resp.Hint, "strobe stopped reading the command's output") {
			t.Errorf("hint %q, want it to say that the output was not read to its end", a.resp.Hint)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the run did not end 10 s after its command, with an escaped process holding its stdout")
	}
}

// TestDrainWaitsWhileTheReadersReadOn: readers still reading what the
// command wrote before it ended (a parser slower than the command: 3,000
// parallel Go tests once took the go parser seconds) are waited for, past
// drainTimeout; readers that read nothing for drainTimeout, or read on
// past drainCap, are given up. Before, the drain gave up drainTimeout
// after the command ended whatever the readers did, and a run of 3,000
// passing tests answered passed with none counted.
func TestDrainWaitsWhileTheReadersReadOn(t *testing.T) {
	defer func(d, c time.Duration) { drainTimeout, drainCap = d, c }(drainTimeout, drainCap)
	drainTimeout, drainCap = 100*time.Millisecond, 2*time.Second
	for _, tc := range []struct {
		name    string
		readFor time.Duration // how long the readers read on; 0: they read nothing
		want    bool
	}{
		{"reading on", 600 * time.Millisecond, true},
		{"reading nothing", 0, false},
		{"reading past the cap", time.Hour, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &proc{}
			drained, stop := make(chan struct{}), make(chan struct{})
			defer close(stop)
			go func() {
				if tc.readFor == 0 {
					return
				}
				end := time.After(tc.readFor)
				for {
					select {
					case <-end:
						close(drained)
						return
					case <-stop:
						return
					case <-time.After(20 * time.Millisecond):
						p.read.Add(100)
					}
				}
			}()
			start := time.Now()
			if got := p.drain(drained); got != tc.want {
				t.Fatalf("drain = %v after %v, want %v", got, time.Since(start), tc.want)
			}
			if d := time.Since(start); !tc.want && d > drainCap+time.Second {
				t.Errorf("gave up after %v, past the cap %v", d, drainCap)
			}
		})
	}
}

func TestFloodKeepsTheNewestBytes(t *testing.T) {
	resp, rec := run(t, 0, "flood", "50")
	if resp.Status != report.Passed || resp.Summary.Passed != 1 {
		t.Fatalf("status %s summary %+v, want passed from the summary line", resp.Status, resp.Summary)
	}
	if !resp.Truncated || !rec.Stdout.Truncated {
		t.Errorf("truncated not set")
	}
	if len(rec.Stdout.Text) != tailCap || rec.Stdout.Bytes < 50<<20 {
		t.Errorf("kept %d of %d bytes, want the newest %d", len(rec.Stdout.Text), rec.Stdout.Bytes, tailCap)
	}
	if !strings.HasSuffix(rec.Stdout.Text, "1 passed, 0 failed\n") {
		t.Errorf("newest bytes not kept: ends with %q", rec.Stdout.Text[len(rec.Stdout.Text)-40:])
	}
}

func TestLongLineIsCutNotFatal(t *testing.T) {
	resp, _ := run(t, 0, "longline", "20")
	if resp.Status != report.Passed || resp.Summary.Passed != 1 {
		t.Fatalf("status %s summary %+v: the line after a 20 MB line was lost", resp.Status, resp.Summary)
	}
}

func TestSilentFailure(t *testing.T) {
	resp, _ := run(t, 0, "silent", "3")
	if resp.Status != report.Crashed || !resp.Crash.SilentFailure || resp.Crash.ExitCode != 3 {
		t.Fatalf("status %s crash %+v, want a silent failure with exit 3", resp.Status, resp.Crash)
	}
}

// A run that printed one line is no run "without output": the hint
// quotes the line.
func TestSilentFailureSaysWhatItPrinted(t *testing.T) {
	resp, _ := run(t, 0, "fewwords")
	if resp.Status != report.Crashed || !resp.Crash.SilentFailure {
		t.Fatalf("status %s crash %+v, want a silent failure", resp.Status, resp.Crash)
	}
	if strings.Contains(resp.Hint, "without output") || !strings.Contains(resp.Hint, "lint: 3 problems in src/a.js") {
		t.Errorf("hint %q, want the line it printed", resp.Hint)
	}
}

func TestTAP(t *testing.T) {
	resp, rec := run(t, 0, "tap")
	if resp.Status != report.Failed {
		t.Fatalf("status = %s, want failed", resp.Status)
	}
	want := report.Summary{Passed: 1, Failed: 1, Skipped: 1, DurationMS: resp.Summary.DurationMS}
	if *resp.Summary != want {
		t.Errorf("summary = %+v, want %+v", *resp.Summary, want)
	}
	if len(resp.Failures) != 1 || resp.Failures[0].Name != "divides" || resp.Failures[0].File != "src/div.c" || resp.Failures[0].Line != 42 {
		t.Errorf("failures = %+v, want divides at src/div.c:42", resp.Failures)
	}
	if len(rec.Tests) != 3 {
		t.Errorf("details has %d tests, want 3", len(rec.Tests))
	}
}

func TestEnvironment(t *testing.T) {
	req := Request{ProjectRoot: t.TempDir(), Command: misbehave + " env",
		BaseEnv: []string{"PATH=" + os.Getenv("PATH"), "FROM_CLIENT=1", "OVERRIDDEN=old"},
		Env:     map[string]string{"OVERRIDDEN": "new"}}
	resp, rec := runReq(t, req)
	out := rec.Stdout.Text
	for _, want := range []string{"FROM_CLIENT=1\n", "OVERRIDDEN=new\n", RunIDEnv + "=" + resp.RunID + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("environment lacks %q", want)
		}
	}
	if strings.Contains(out, "OVERRIDDEN=old") || strings.Contains(out, "HOME=") {
		t.Errorf("environment is not the client's: %s", out)
	}
}

func TestCancel(t *testing.T) {
	dir := t.TempDir()
	r, err := Start(context.Background(), Request{ProjectRoot: t.TempDir(), Command: misbehave + " hang"}, Options{DetailsDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	r.Cancel()
	<-r.Done()
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("cancel took %v", d)
	}
	if got := r.Result().Status; got != report.Cancelled {
		t.Errorf("status = %s, want cancelled", got)
	}
	if left := processesOf(r.ID); len(left) > 0 {
		t.Errorf("processes left after cancel: %v", left)
	}
}

// TestScriptWithoutShebang runs an executable script with no "#!" line,
// as a shell would.
func TestScriptWithoutShebang(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "check.sh"), []byte("echo 'ok 1 - from a bare script'\n"), 0o755)
	resp, _ := runReq(t, Request{ProjectRoot: root, Command: "./check.sh"})
	if resp.Status != report.Passed || resp.Summary.Passed != 1 {
		t.Fatalf("status %s summary %+v, want the script's one test passed", resp.Status, resp.Summary)
	}
}

func TestBadRequests(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "file")
	os.WriteFile(file, nil, 0o644)
	notExec := filepath.Join(root, "script.sh")
	os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644)
	type testCase struct {
		name string
		req  Request
		want string // in the message
	}
	for _, tc := range []testCase{
		{"missing root", Request{}, "projectRoot is required"},
		{"relative root", Request{ProjectRoot: "some/dir"}, "not absolute"},
		{"no such dir", Request{ProjectRoot: filepath.Join(root, "nope")}, "does not exist"},
		{"file not dir", Request{ProjectRoot: file}, "is a file"},
		{"unknown framework", Request{ProjectRoot: root, Framework: "nose"}, "use one of "},
		{"negative timeout", Request{ProjectRoot: root, Command: "true", Timeout: -time.Second}, "negative"},
		{"absurd timeout", Request{ProjectRoot: root, Command: "true", Timeout: 1000 * time.Hour}, "longer than"},
		{"unknown level", Request{ProjectRoot: root, Command: "true", Level: "smoke"}, "unknown level"},
		{"command not found", Request{ProjectRoot: root, Command: "no-such-tool-xyz --all"}, "not found on PATH"},
		{"command path not found", Request{ProjectRoot: root, Command: "./missing"}, "not found"},
		{"command not executable", Request{ProjectRoot: root, Command: "./script.sh"}, "not executable"},
		{"empty project", Request{ProjectRoot: root}, "no test framework found"},
		{"generic level without command", Request{ProjectRoot: root, Framework: "generic", Level: "unit"}, "needs a command"},
		{"bad env name", Request{ProjectRoot: root, Command: "true", Env: map[string]string{"A=B": "c"}}, "not valid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Start(context.Background(), tc.req, Options{DetailsDir: t.TempDir()})
			if err == nil {
				t.Fatal("no error")
			}
			if !adapters.IsUsage(err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q (usage %v), want a usage error containing %q", err, adapters.IsUsage(err), tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

// TestHintsJoinAsSentences replays a real xcodebuild console in which the
// test host crashed: the adapter's hint and the runner's must read as
// separate sentences, not one run-on.
func TestHintsJoinAsSentences(t *testing.T) {
	root, _ := filepath.Abs("..")
	standin := filepath.Join(root, "testdata", "xcodebuild-standin")
	log := filepath.Join(root, "adapters", "xcodebuild", "testdata", "corpus", "fastlane-non-parallel-testing-failure-xcode10.log")
	req := Request{ProjectRoot: t.TempDir(), Framework: "xcodebuild",
		Command: "xcodebuild test -project TestingTest.xcodeproj -scheme TestingTest -destination platform=macOS",
		Env:     map[string]string{"PATH": standin + ":" + os.Getenv("PATH"), "HOME": t.TempDir(), "STANDIN_LOG": log, "STANDIN_EXIT": "65"}}
	resp, _ := runReq(t, req)
	if resp.Status != report.Crashed {
		t.Fatalf("status %s, want crashed", resp.Status)
	}
	for _, bad := range []string{"test runner the process", " the process crashed", ".."} {
		if strings.Contains(resp.Hint, bad) {
			t.Errorf("hint %q holds %q", resp.Hint, bad)
		}
	}
	if !strings.Contains(resp.Hint, ". A test process crashed while") || !strings.HasSuffix(resp.Hint, ".") {
		t.Errorf("hint %q: the runner's sentence does not stand on its own", resp.Hint)
	}
}

// TestInfrastructureHintStandsAlone: when the test runner itself failed
// (a registration timeout), the adapter's hint says so and what to do; the
// runner's "the process crashed" would contradict it.
func TestInfrastructureHintStandsAlone(t *testing.T) {
	root, _ := filepath.Abs("..")
	standin := filepath.Join(root, "testdata", "xcodebuild-standin")
	log := filepath.Join(root, "adapters", "xcodebuild", "testdata", "samples", "bitrise-timed-out-registering-xcode8.txt")
	req := Request{ProjectRoot: t.TempDir(), Framework: "xcodebuild",
		Command: "xcodebuild test -project TestingTest.xcodeproj -scheme TestingTest -destination platform=macOS",
		Env:     map[string]string{"PATH": standin + ":" + os.Getenv("PATH"), "HOME": t.TempDir(), "STANDIN_LOG": log, "STANDIN_EXIT": "65"}}
	resp, _ := runReq(t, req)
	if resp.Crash == nil || !slices.Contains(resp.Crash.Indicators, "test_runner_infrastructure_error") {
		t.Fatalf("crash %+v, want the infrastructure indicator", resp.Crash)
	}
	if strings.Contains(strings.ToLower(resp.Hint), "the process crashed") || !strings.Contains(resp.Hint, "Timed out registering") {
		t.Errorf("hint %q: want the adapter's account of the infrastructure error alone", resp.Hint)
	}
}

func TestJoinHints(t *testing.T) {
	for _, tc := range []struct{ adapter, runner, want string }{
		{"", "the process crashed: see the details file", "the process crashed: see the details file"},
		{"rerun it alone", "", "rerun it alone"},
		{"rerun it alone", "the process crashed", "rerun it alone. The process crashed."},
		{"rerun it alone.", "the process crashed.", "rerun it alone. The process crashed."},
		{"is it missing?", "run it by hand (a missing library?)", "is it missing? Run it by hand (a missing library?)."},
		{"  ", "", ""},
		// An import path or a file opening the second stays as written.
		{"strobe picked go", "github.com/spf13/cobra's test binary died", "strobe picked go. github.com/spf13/cobra's test binary died."},
		{"strobe picked go", "go.mod names no module", "strobe picked go. go.mod names no module."},
		{"strobe picked go", "the test's binary died", "strobe picked go. The test's binary died."},
		// strobe's own name stays lowercase, as everywhere.
		{"cargo test was stopped at what hung", "strobe stopped the run", "cargo test was stopped at what hung. strobe stopped the run."},
		// A command's path that ends with a dot is not a full stop.
		{"to run the rest: go test -skip '^TestHang$' ./...", "strobe stopped the run", "to run the rest: go test -skip '^TestHang$' ./...; strobe stopped the run."},
		{"rerun: go test -run '^TestHang$' .", "the process crashed", "rerun: go test -run '^TestHang$' .; the process crashed."},
	} {
		if got := joinHints(tc.adapter, tc.runner); got != tc.want {
			t.Errorf("joinHints(%q, %q) = %q, want %q", tc.adapter, tc.runner, got, tc.want)
		}
	}
}

// TestHintSaysWhatIsThere: the runner's hint names only what the answer
// holds (suggested_traces), tells one running test from several, and
// does not let a selection of skipped tests read as a pass of them.
func TestHintSaysWhatIsThere(t *testing.T) {
	r := &Run{timeout: 30 * time.Second}
	crash := func(running ...string) *report.Crash {
		return &report.Crash{Type: report.CrashSegmentationFault, RunningTests: running}
	}
	for _, tc := range []struct {
		name       string
		resp       report.Response
		want, lack string
	}{
		{"stuck with traces", report.Response{Status: report.Stuck, Stuck: []report.StuckTest{{Name: "a", SuggestedTraces: []string{"pkg.f"}}}},
			"suggested_traces names", ""},
		{"stuck without traces", report.Response{Status: report.Stuck, Stuck: []report.StuckTest{{Name: "a"}}},
			"where it waits or spins", "suggested_traces"},
		{"one crashed", report.Response{Status: report.Crashed, Crash: crash("a")}, "rerun that test alone", "each"},
		{"two crashed", report.Response{Status: report.Crashed, Crash: crash("a", "b")}, "rerun each of them alone", "that test"},
		{"two timed out", report.Response{Status: report.Timeout, Crash: crash("a", "b")}, "rerun each of them alone", "that test"},
		// Each in a process of its own (CTest, nextest): each crashed.
		{"two crashed, each in its own process", report.Response{Status: report.Crashed, Crash: &report.Crash{Type: report.CrashSegmentationFault,
			RunningTests: []string{"a", "b"}, Died: []string{"died of SIGSEGV", "died of SIGABRT"}}},
			"each of a, b crashed, each in a test process of its own (a died of SIGSEGV; b died of SIGABRT): rerun each alone", "one of them"},
		{"one crashed in its own process", report.Response{Status: report.Crashed, Crash: &report.Crash{Type: report.CrashSegmentationFault,
			RunningTests: []string{"a"}, Died: []string{"died of SIGSEGV"}}},
			"a crashed in a test process of its own (it died of SIGSEGV): rerun it alone", "each"},
		{"only skipped", report.Response{Status: report.Passed, Summary: &report.Summary{Skipped: 1}}, "no test ran: the 1 selected were skipped", ""},
		{"passed", report.Response{Status: report.Passed, Summary: &report.Summary{Passed: 3, Skipped: 1}}, "", "skipped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := r.hint(&tc.resp)
			if !strings.Contains(got, tc.want) || tc.lack != "" && strings.Contains(got, tc.lack) {
				t.Errorf("hint %q, want %q without %q", got, tc.want, tc.lack)
			}
		})
	}
}

// TestRerunKeepsTheEnvironment: a test that fails only with the run's
// environment overrides fails again when its rerun is pasted in a shell
// without them.
func TestRerunKeepsTheEnvironment(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module envfail\n\ngo 1.21\n",
		"env_test.go": `package envfail

import (
	"os"
	"testing"
)

func TestNeedsEnv(t *testing.T) {
	if os.Getenv("ENVFAIL_MODE") == "broken value" {
		t.Fatal("broken by its environment")
	}
}
`,
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "go", Env: map[string]string{"ENVFAIL_MODE": "broken value", "OTHER": "1"}})
	if len(resp.Failures) != 1 {
		t.Fatalf("failures %+v, want TestNeedsEnv's", resp.Failures)
	}
	rerun := resp.Failures[0].Rerun
	if !strings.HasPrefix(rerun, "ENVFAIL_MODE='broken value' OTHER=1 ") {
		t.Errorf("rerun %q does not set the run's environment first", rerun)
	}
	cmd := exec.Command("/bin/sh", "-c", rerun)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "broken by its environment") {
		t.Errorf("the rerun pasted in a shell: %v, want the failure again:\n%s", err, out)
	}
}

func TestWithAssignments(t *testing.T) {
	for rerun, want := range map[string]string{
		"go test -run '^TestX$' ./pkg":                    "A=1 go test -run '^TestX$' ./pkg",
		"cd packages/web && npx vitest run a.test.ts":     "cd packages/web && A=1 npx vitest run a.test.ts",
		"cd 'my dir' && npx jest a.test.js -t '^x && y$'": "cd 'my dir' && A=1 npx jest a.test.js -t '^x && y$'",
	} {
		if got := withAssignments(rerun, "A=1 "); got != want {
			t.Errorf("withAssignments(%q) = %q, want %q", rerun, got, want)
		}
	}
}

// TestEnvironmentKeepsAdapterPath: a request's PYTHONPATH (pluggy's
// PYTHONPATH=src) that the adapter already put behind its own directory is
// not set again over it, which dropped strobe's pytest plugin.
func TestEnvironmentKeepsAdapterPath(t *testing.T) {
	r := &Run{ID: "id", req: Request{BaseEnv: []string{"PATH=/bin"}, Env: map[string]string{"PYTHONPATH": "src", "OTHER": "x"}},
		plan: &adapters.Plan{Env: []string{"PYTHONPATH=/strobe/py" + string(os.PathListSeparator) + "src", "OTHER=y"}}}
	env := r.environ()
	last := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		last[k] = v
	}
	if want := "/strobe/py" + string(os.PathListSeparator) + "src"; last["PYTHONPATH"] != want {
		t.Errorf("PYTHONPATH = %q, want %q", last["PYTHONPATH"], want)
	}
	if last["OTHER"] != "x" {
		t.Errorf("OTHER = %q: the request's override must still win", last["OTHER"])
	}
}

// TestCommandFromNodeModules: a command that is not on PATH is the
// project's own tool in node_modules/.bin, here or in a directory above (a
// workspace's hoisted tools), as npm run finds it: `--command "mocha
// spec"` was refused with "not found on PATH" where mocha was installed.
func TestCommandFromNodeModules(t *testing.T) {
	ws := t.TempDir()
	root := filepath.Join(ws, "packages", "app")
	bin := filepath.Join(ws, "node_modules", ".bin")
	for _, d := range []string{root, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tool := filepath.Join(bin, "strobe-fixture-tool")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\necho \"ran with $1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	resp, rec := runReq(t, Request{ProjectRoot: root, Framework: "generic", Command: "strobe-fixture-tool spec"})
	if resp.Status != report.Passed || !strings.Contains(rec.Stdout.Text, "ran with spec") {
		t.Errorf("status %s, stdout %q, hint %q: want the tool in node_modules/.bin run with its argument", resp.Status, rec.Stdout.Text, resp.Hint)
	}
	if argv, err := commandArgv(root, "strobe-fixture-tool spec", nil, nil); err != nil || len(argv) != 2 || argv[0] != tool {
		t.Errorf("argv %q (%v), want %s spec", argv, err, tool)
	}
}

// TestCommandAssignments: a command's leading assignments (`TZ=UTC npx
// jest`, `env NODE_OPTIONS=… npx jest`, as jest's snapshot update command
// reads for a script that sets them) are the run's environment, and the
// command after them runs as itself: through a shell, the project's tools
// in node_modules/.bin were not found, and the framework's command was
// not recognised.
func TestCommandAssignments(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "node_modules", ".bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "strobe-fixture-tool"), []byte("#!/bin/sh\necho \"$GREETING, $NAME: $1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"GREETING=hello NAME='a b' strobe-fixture-tool spec", "env GREETING=hello 'NAME=a b' strobe-fixture-tool spec"} {
		resp, rec := runReq(t, Request{ProjectRoot: root, Framework: "generic", Command: cmd})
		if resp.Status != report.Passed || !strings.Contains(rec.Stdout.Text, "hello, a b: spec") {
			t.Errorf("%s: status %s, stdout %q, hint %q: want the tool run with the variables", cmd, resp.Status, rec.Stdout.Text, resp.Hint)
		}
	}
	for _, c := range []struct{ in, cmd, env string }{
		{"TZ=UTC npx jest -u", "npx jest -u", "TZ=UTC,X=1"},
		{"env NODE_OPTIONS=--experimental-vm-modules npx jest", "npx jest", "NODE_OPTIONS=--experimental-vm-modules,X=1"},
		// The command's own assignment wins over the request's.
		{"X=2 make check", "make check", "X=2"},
		// Left to the shell: assignments alone, an expansion, env's
		// options.
		{"X=2", "X=2", "X=1"},
		{"X=$HOME make", "X=$HOME make", "X=1"},
		{"env -i X=2 make", "env -i X=2 make", "X=1"},
		{"make X=2", "make X=2", "X=1"},
	} {
		req := map[string]string{"X": "1"}
		cmd, env := commandEnv(c.in, req)
		var kv []string
		for _, k := range slices.Sorted(maps.Keys(env)) {
			kv = append(kv, k+"="+env[k])
		}
		if cmd != c.cmd || strings.Join(kv, ",") != c.env || req["X"] != "1" {
			t.Errorf("commandEnv(%q) = %q, %v; want %q, %s (the request's map untouched: %v)", c.in, cmd, kv, c.cmd, c.env, req)
		}
	}
}

// TestWithStuck: a stuck test the run has no record of (named from its
// process's stacks) goes into the history as running, so that it is
// failing there; one recorded, and an entry named after the command, do
// not.
func TestWithStuck(t *testing.T) {
	tests := []report.Test{{Suite: "a", Name: "A#quick", Status: report.TestPassed}, {Suite: "b", Name: "B#hangs", Status: report.TestRunning}}
	stuck := []report.StuckTest{{Name: "B#hangs"}, {Name: "C#waits"}, {Name: "mvn test"}, {Name: "mvn -q", AfterTests: true}}
	got := withStuck(tests, stuck, "mvn test")
	if len(got) != 3 || got[2].Name != "C#waits" || got[2].Status != report.TestStuck || len(tests) != 2 {
		t.Errorf("withStuck = %+v, want C#waits added as stuck, tests unchanged", got)
	}
}
