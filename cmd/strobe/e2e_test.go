package main

// End-to-end tests: build the real strobe binary once and run it, as a person
// or an agent would, on real fixture projects with the real frameworks.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
)

var strobeBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "strobe-e2e")
	if err != nil {
		panic(err)
	}
	strobeBin = filepath.Join(dir, "strobe")
	build := exec.Command("go", "build", "-o", strobeBin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // the binary make build ships
	if out, err := build.CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is one strobe invocation.
type result struct {
	resp   report.Response
	code   int
	stdout string
	stderr string
	maxRSS int64 // bytes, strobe's own peak (VmHWM), not its children's
	took   time.Duration
}

// strobe runs the binary with args (plus --json when asJSON) and an isolated
// details directory, and checks that no process of the run is left.
func strobe(t *testing.T, asJSON bool, args ...string) result {
	t.Helper()
	if asJSON {
		args = append(args, "--json")
	}
	cmd := exec.Command(strobeBin, args...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmpdir(t), "STROBE_HOME="+strobeHome(t))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("strobe %v: %v", args, err)
	}
	// The rusage of a reaped child counts its own children too (the test
	// processes), so strobe's peak comes from its VmHWM, read until it exits.
	hwm := make(chan int64)
	go func() { hwm <- watchHWM(cmd.Process.Pid) }()
	err := cmd.Wait()
	var r result
	r.took = time.Since(start)
	r.maxRSS = <-hwm
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("strobe %v: %v", args, err)
		}
	}
	r.code = cmd.ProcessState.ExitCode()
	r.stdout, r.stderr = stdout.String(), stderr.String()
	// Through the daemon the run's memory is the daemon's (one per test).
	r.maxRSS = max(r.maxRSS, daemonHWM(t))
	if asJSON {
		if err := json.Unmarshal(stdout.Bytes(), &r.resp); err != nil {
			t.Fatalf("strobe %v: stdout is not the JSON response: %v\n%s\nstderr: %s", args, err, stdout.String(), stderr.String())
		}
		if left := processesOf(r.resp.RunID); len(left) > 0 {
			t.Errorf("processes of run %s outlived it: %v", r.resp.RunID, left)
		}
	}
	return r
}

// tmpdir is one TMPDIR per test, so details files don't mix; cargo and go
// keep their caches elsewhere.
func tmpdir(t *testing.T) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), "tmp")
	os.MkdirAll(d, 0o700)
	return d
}

// watchHWM polls a process's peak resident set size until it is gone.
func watchHWM(pid int) int64 {
	var peak int64
	for {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			return peak
		}
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				peak = max(peak, kb*1024)
			}
		}
		if len(b) > 0 && strings.Contains(string(b), "State:\tZ") {
			return peak
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func processesOf(id string) []string {
	if id == "" {
		return nil
	}
	return processesWith(runner.RunIDEnv + "=" + id)
}

// processesWith lists the live processes whose environment holds entry
// (NAME=value), each as its pid and command line.
func processesWith(entry string) []string {
	var out []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		env, err := os.ReadFile(d + "/environ")
		if err != nil || !bytes.Contains(append([]byte{0}, env...), []byte("\x00"+entry+"\x00")) {
			continue
		}
		if st, _ := os.ReadFile(d + "/stat"); bytes.Contains(st, []byte(") Z ")) {
			continue
		}
		cmdline, _ := os.ReadFile(d + "/cmdline")
		out = append(out, filepath.Base(d)+" "+strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	return out
}

func example(name string) string { return filepath.Join(testutil.Root(), "examples", name) }

func findFailure(t *testing.T, r report.Response, name string) report.Failure {
	t.Helper()
	for _, f := range r.Failures {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no failure named %q in %+v", name, r.Failures)
	return report.Failure{}
}

func wantStatus(t *testing.T, r result, status report.Status, code int) {
	t.Helper()
	if r.resp.Status != status || r.code != code {
		t.Fatalf("status %s exit %d, want %s exit %d\nresponse: %s\nstderr: %s", r.resp.Status, r.code, status, code, r.stdout, r.stderr)
	}
}

// rerun runs a failure's rerun command in dir through a shell, as a person
// pasting it would, and returns its combined output.
func rerun(t *testing.T, dir, command string) string {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	return string(out)
}

func TestGoExample(t *testing.T) {
	testutil.RequireTool(t, "go")
	dir := example("go-demo")
	r := strobe(t, true, "test", dir)
	wantStatus(t, r, report.Failed, 1)
	if s := r.resp.Summary; s.Passed != 1 || s.Failed != 2 {
		t.Errorf("summary = %+v, want 1 passed, 2 failed", *s)
	}
	avg := findFailure(t, r.resp, "TestAverage")
	if avg.File != "calc/calc_test.go" || avg.Line != 13 || !strings.Contains(avg.Message, "Average([1 2]) = 1, want 2") {
		t.Errorf("TestAverage failure = %+v, want calc/calc_test.go:13 with the t.Errorf text", avg)
	}
	max := findFailure(t, r.resp, "TestMaxEmpty")
	if max.File != "calc/calc.go" || max.Line != 20 || !strings.Contains(max.Message, "index out of range") {
		t.Errorf("TestMaxEmpty failure = %+v, want the panic at calc/calc.go:20", max)
	}
	out := rerun(t, dir, avg.Rerun+" -v")
	if !strings.Contains(out, "=== RUN   TestAverage") || strings.Contains(out, "TestAdd") {
		t.Errorf("rerun %q did not run exactly TestAverage:\n%s", avg.Rerun, out)
	}
	if r.resp.Details == "" {
		t.Fatal("no details file")
	}
}

func TestRustExample(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	dir := example("rust-demo")
	r := strobe(t, true, "test", dir)
	wantStatus(t, r, report.Failed, 1)
	if s := r.resp.Summary; s.Passed != 1 || s.Failed != 2 {
		t.Errorf("summary = %+v, want 1 passed, 2 failed", *s)
	}
	top := findFailure(t, r.resp, "tests::peek_sees_the_top")
	if top.File != "src/lib.rs" || top.Line != 43 || !strings.Contains(top.Message, "left: 1") || !strings.Contains(top.Message, "right: 2") {
		t.Errorf("peek_sees_the_top failure = %+v, want src/lib.rs:43 with left/right", top)
	}
	empty := findFailure(t, r.resp, "tests::peek_on_empty")
	if empty.File != "src/lib.rs" || empty.Line != 18 || !strings.Contains(empty.Message, "index out of bounds") {
		t.Errorf("peek_on_empty failure = %+v, want the panic at src/lib.rs:18", empty)
	}
	out := rerun(t, dir, top.Rerun)
	if !strings.Contains(out, "1 failed") || !strings.Contains(out, "peek_sees_the_top") || strings.Contains(out, "push_counts") {
		t.Errorf("rerun %q did not run exactly that test:\n%s", top.Rerun, out)
	}

	// A user who alternates strobe and plain cargo test pays no rebuild.
	// The first plain run may compile the library once more for doctests
	// (strobe does not run them); from then on neither compiles anything.
	plainCargo(t, dir)
	if out := plainCargo(t, dir); strings.Contains(out, "Compiling") {
		t.Errorf("plain cargo test compiled again:\n%s", out)
	}
	r2 := strobe(t, true, "test", dir)
	if stderr := readDetails(t, r2).Stderr.Text; strings.Contains(stderr, "Compiling") || r2.resp.Status != report.Failed {
		t.Errorf("strobe after plain cargo test: status %s, compiled:\n%s", r2.resp.Status, stderr)
	}
	if out := plainCargo(t, dir); strings.Contains(out, "Compiling") {
		t.Errorf("plain cargo test after strobe rebuilt:\n%s", out)
	}
}

func plainCargo(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("cargo", "test", "--no-run")
	cmd.Dir = dir
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("cargo test --no-run: %v\n%s", err, b)
	}
	return string(b)
}

func TestSingleTest(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	testutil.RequireTool(t, "go")
	for _, tc := range []struct{ dir, test string }{
		{example("rust-demo"), "tests::push_counts"},
		{example("go-demo"), "TestAdd"},
	} {
		r := strobe(t, true, "test", tc.dir, "--test", tc.test)
		wantStatus(t, r, report.Passed, 0)
		if s := r.resp.Summary; s.Passed != 1 || s.Failed != 0 {
			t.Errorf("%s: summary = %+v, want exactly one test run", tc.test, *s)
		}
	}
}

func TestHangIsKilledByTheTimeout(t *testing.T) {
	for _, tc := range []struct{ tool, dir, test string }{
		{"go", testutil.Fixture("go", "stress"), "TestHang"},
		{"cargo", testutil.Fixture("cargo", "stress"), "hang"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			testutil.RequireTool(t, tc.tool)
			r := strobe(t, true, "test", tc.dir, "--test", tc.test, "--timeout", "2s")
			wantStatus(t, r, report.Timeout, 1)
			if c := r.resp.Crash; c == nil || c.Type != report.CrashStopped || c.StoppedBy != report.StoppedTimeout || !contains(c.RunningTests, tc.test) {
				t.Errorf("crash = %+v, want timeout naming %s", c, tc.test)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("prints 200 MB")
	}
	t.Run("go", func(t *testing.T) {
		testutil.RequireTool(t, "go")
		r := strobe(t, true, "test", testutil.Fixture("go", "stress"), "--test", "TestFlood")
		wantStatus(t, r, report.Passed, 0)
		if !r.resp.Truncated {
			t.Error("truncated not set after 200 MB of output")
		}
		checkRSS(t, r)
	})
	t.Run("cargo", func(t *testing.T) {
		testutil.RequireTool(t, "cargo")
		r := strobe(t, true, "test", testutil.Fixture("cargo", "stress"), "--test", "flood_then_fail")
		wantStatus(t, r, report.Failed, 1)
		f := findFailure(t, r.resp, "flood_then_fail")
		if f.File != "tests/flood.rs" || !strings.Contains(f.Message, "failed after the flood") {
			t.Errorf("failure = %+v, want the assertion at the end of 200 MB of output", f)
		}
		if !r.resp.Truncated {
			t.Error("truncated not set after 200 MB of output")
		}
		checkRSS(t, r)
	})
}

// checkRSS is a guard, not the benchmark: `make bench` measures the figure
// against its 64 MiB target; this catches memory that grows with output.
func checkRSS(t *testing.T, r result) {
	t.Helper()
	if r.maxRSS > 128<<20 {
		t.Errorf("strobe's peak RSS was %d MiB while a test printed 200 MB", r.maxRSS>>20)
	}
}

func TestCrashes(t *testing.T) {
	// The go crash fixture has a package per way to die (some in TestMain,
	// whatever -run says), so its command names the package.
	for _, tc := range []struct {
		tool, dir, command, test string
		crash                    report.CrashType
		// The signal a test binary died of (cargo's), none when the Go
		// runtime caught it; the exit code is always the launcher's.
		signal, exitCode int
	}{
		{"cargo", testutil.Fixture("cargo", "crash"), "", "writes_through_null", report.CrashSegmentationFault, 11, 101},
		{"cargo", testutil.Fixture("cargo", "crash"), "", "aborts", report.CrashAbort, 6, 101},
		{"go", testutil.Fixture("go", "crash"), "go test ./segv", "TestNilConfig", report.CrashSegmentationFault, 0, 1},
		{"go", testutil.Fixture("go", "crash"), "go test ./abort", "TestAbort", report.CrashAbort, 0, 1},
	} {
		t.Run(tc.tool+"/"+tc.test, func(t *testing.T) {
			testutil.RequireTool(t, tc.tool)
			args := []string{"test", tc.dir, "--test", tc.test}
			if tc.command != "" {
				args = append(args, "--command", tc.command)
			}
			r := strobe(t, true, args...)
			wantStatus(t, r, report.Crashed, 1)
			c := r.resp.Crash
			if c.Type != tc.crash || !contains(c.RunningTests, tc.test) || c.Signal != tc.signal || c.ExitCode != tc.exitCode {
				t.Errorf("crash = %+v, want %s naming %s, signal %d, exit code %d", c, tc.crash, tc.test, tc.signal, tc.exitCode)
			}
			// The test that was running ran and did not pass: counted
			// failed, listed with its rerun, whichever framework.
			if s := r.resp.Summary; s == nil || s.Failed != 1 || len(r.resp.Failures) != 1 ||
				r.resp.Failures[0].Name != tc.test || r.resp.Failures[0].Rerun == "" {
				t.Errorf("summary %+v, failures %+v; want %s failed, with its rerun", s, r.resp.Failures, tc.test)
			}
		})
	}
}

func TestBuildFailures(t *testing.T) {
	for _, tc := range []struct {
		tool, dir, file string
		line            int
	}{
		{"cargo", testutil.Fixture("cargo", "broken"), "src/lib.rs", 6},
		{"go", testutil.Fixture("go", "broken"), "lib/lib.go", 5},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			testutil.RequireTool(t, tc.tool)
			r := strobe(t, true, "test", tc.dir)
			wantStatus(t, r, report.BuildFailed, 1)
			found := false
			for _, b := range r.resp.BuildErrors {
				found = found || (b.File == tc.file && b.Line == tc.line && b.Message != "")
			}
			if !found {
				t.Errorf("build_errors = %+v, want one at %s:%d", r.resp.BuildErrors, tc.file, tc.line)
			}
		})
	}
}

func TestNoTests(t *testing.T) {
	for _, tool := range []string{"cargo", "go"} {
		t.Run(tool, func(t *testing.T) {
			testutil.RequireTool(t, tool)
			r := strobe(t, true, "test", testutil.Fixture(tool, "empty"))
			wantStatus(t, r, report.NoTests, 1)
			if r.resp.Project == nil || r.resp.Hint == "" {
				t.Errorf("no_tests without project info and hint: %s", r.stdout)
			}
		})
	}
}

func TestLevels(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	r := strobe(t, true, "test", testutil.Fixture("cargo", "basic"), "--level", "integration")
	if r.resp.Summary == nil || r.resp.Summary.Passed+r.resp.Summary.Failed == 0 {
		t.Fatalf("integration level ran nothing: %s", r.stdout)
	}
	rec := readDetails(t, r)
	for _, tt := range rec.Tests {
		if strings.Contains(tt.Suite, "lib") || strings.Contains(tt.Suite, "e2e") {
			t.Errorf("integration level ran %s from %s", tt.Name, tt.Suite)
		}
	}
}

// TestIgnoredByName: an #[ignore] test asked for by name is skipped, and
// nothing ran: no_tests (exit 1), with how cargo runs it. It was passed,
// exit 0, which an agent reads as the test's pass.
func TestIgnoredByName(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	r := strobe(t, true, "test", testutil.Fixture("cargo", "basic"), "--test", "tests::slow")
	wantStatus(t, r, report.NoTests, 1)
	if s := r.resp.Summary; s == nil || s.Skipped != 1 || !strings.Contains(r.resp.Hint, "cargo test -- --ignored") {
		t.Errorf("summary %+v, hint %q: want the one test skipped, and how to run it", s, r.resp.Hint)
	}
}

type detailsFile struct {
	Tests  []report.Test `json:"tests"`
	Stderr struct {
		Text string `json:"text"`
	} `json:"stderr"`
}

func readDetails(t *testing.T, r result) detailsFile {
	t.Helper()
	b, err := os.ReadFile(r.resp.Details)
	if err != nil {
		t.Fatalf("details file: %v", err)
	}
	var d detailsFile
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// Ctrl+C, and a closed terminal's SIGHUP, stop the run: swept, answered
// cancelled.
func TestCtrlC(t *testing.T) {
	testutil.RequireTool(t, "go")
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) { interrupt(t, sig) })
	}
}

func interrupt(t *testing.T, sig os.Signal) {
	cmd := exec.Command(strobeBin, "test", testutil.Fixture("go", "stress"), "--test", "TestHang", "--json")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmpdir(t), "STROBE_HOME="+strobeHome(t))
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the hanging test binary runs, so the interrupt finds a
	// real process tree to stop.
	deadline := time.Now().Add(60 * time.Second)
	for len(testProcesses("stress.test")) == 0 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the test binary never started")
		}
		time.Sleep(50 * time.Millisecond)
	}
	start := time.Now()
	cmd.Process.Signal(sig)
	cmd.Wait()
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("stopping took %v", d)
	}
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupt {
		t.Errorf("exit code %d, want %d", code, exitInterrupt)
	}
	var resp report.Response
	if err := json.Unmarshal(stdout.Bytes(), &resp); err != nil || resp.Status != report.Cancelled {
		t.Errorf("response %q (%v), want status cancelled", stdout.String(), err)
	}
	if left := processesOf(resp.RunID); len(left) > 0 {
		t.Errorf("processes left after %v: %v", sig, left)
	}
}

// testProcesses finds processes of any strobe run whose command line holds name.
func testProcesses(name string) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		env, _ := os.ReadFile(d + "/environ")
		cmdline, _ := os.ReadFile(d + "/cmdline")
		if bytes.Contains(env, []byte(runner.RunIDEnv+"=")) && bytes.Contains(cmdline, []byte(name)) {
			pid, _ := strconv.Atoi(filepath.Base(d))
			pids = append(pids, pid)
		}
	}
	return pids
}

func TestBadInput(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "file.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing dir", []string{"test", filepath.Join(root, "nope")}, "does not exist"},
		{"file", []string{"test", file}, "is a file"},
		{"unknown framework", []string{"test", root, "--framework", "nose"}, "use one of bun, cargo"},
		{"negative timeout", []string{"test", root, "--command", "true", "--timeout", "-5s"}, "negative"},
		{"negative bare timeout", []string{"test", root, "--command", "true", "--timeout", "-5"}, "timeout -5 is negative: give a positive duration"},
		{"absurd timeout", []string{"test", root, "--command", "true", "--timeout", "9999h"}, "longer than"},
		{"not a duration", []string{"test", root, "--command", "true", "--timeout", "soon"}, "not a duration"},
		{"command not found", []string{"test", root, "--command", "no-such-runner-xyz"}, "not found"},
		{"empty project", []string{"test", root}, "no test framework found"},
		{"two dirs", []string{"test", root, root}, "unexpected argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := strobe(t, true, tc.args...)
			if r.code != exitUsage || r.resp.Status != report.Error || !strings.Contains(r.resp.Error, tc.want) {
				t.Errorf("exit %d, response %s; want exit 2, status error mentioning %q", r.code, r.stdout, tc.want)
			}
			if lines := strings.Count(strings.TrimSpace(r.stderr), "\n"); lines != 0 || !strings.HasPrefix(r.stderr, "strobe: ") {
				t.Errorf("stderr is not one line: %q", r.stderr)
			}
		})
	}
	// A bare number is seconds.
	if r := strobe(t, true, "test", root, "--command", "true", "--timeout", "60"); r.code != 0 || r.resp.Status != report.Passed {
		t.Errorf("--timeout 60: exit %d, response %s; want it read as 60 s", r.code, r.stdout)
	}
	if r := strobe(t, false, "frobnicate"); r.code != exitUsage {
		t.Errorf("unknown subcommand: exit %d, want 2", r.code)
	}
}

func TestRunsAndShow(t *testing.T) {
	tmp := tmpdir(t)
	run := func(args ...string) (string, int) {
		cmd := exec.Command(strobeBin, args...)
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "STROBE_HOME="+strobeHome(t))
		out, _ := cmd.Output()
		return string(out), cmd.ProcessState.ExitCode()
	}
	out, _ := run("test", t.TempDir(), "--command", "echo 'ok 1 - fine'", "--json")
	var resp report.Response
	if err := json.Unmarshal([]byte(out), &resp); err != nil || resp.Status != report.Passed {
		t.Fatalf("run: %s (%v)", out, err)
	}
	list, code := run("runs")
	if code != 0 || !strings.Contains(list, resp.RunID[:8]) || !strings.Contains(list, "passed") {
		t.Errorf("strobe runs does not list the run:\n%s", list)
	}
	human, code := run("show", resp.RunID[:8])
	if code != 0 || !strings.HasPrefix(human, "PASSED") {
		t.Errorf("strobe show: exit %d\n%s", code, human)
	}
	raw, _ := run("show", resp.RunID, "--json")
	if !strings.Contains(raw, `"fine"`) || !strings.Contains(raw, `"stdout"`) {
		t.Errorf("strobe show --json lacks the tests and output:\n%s", raw)
	}
	if _, code := run("show", "ffffffff"); code != exitUsage {
		t.Errorf("show of an unknown run: exit %d, want 2", code)
	}
}

func TestHumanOutput(t *testing.T) {
	testutil.RequireTool(t, "go")
	r := strobe(t, false, "test", example("go-demo"))
	// The project is another directory than strobe's: the reruns start
	// with a cd to it (TestPastedHere).
	wd, _ := os.Getwd()
	rel, _ := filepath.Rel(wd, example("go-demo"))
	for _, want := range []string{"FAILED", "1 passed, 2 failed", "TestAverage  calc/calc_test.go:13", "rerun: cd " + rel + " && go test", "details: "} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("human output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "\033[") {
		t.Error("colour codes on a non-terminal")
	}
}

func TestListAndMergeBadInput(t *testing.T) {
	notDetails := filepath.Join(t.TempDir(), "notes.json")
	os.WriteFile(notDetails, []byte("root:x:0:0\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"runs", "-n", "-3"}, "strobe runs: -n -3 lists nothing: give how many runs to list, 1 or more\n"},
		{[]string{"merge", notDetails}, "strobe: reading " + notDetails + ": invalid character 'r' looking for beginning of value: give a details file strobe test wrote\n"},
	} {
		cmd := exec.Command(strobeBin, tc.args...)
		cmd.Env = append(os.Environ(), "TMPDIR="+tmpdir(t), "STROBE_HOME="+strobeHome(t))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != exitUsage || stderr.String() != tc.want {
			t.Errorf("strobe %s: exit %d (%v), stderr %q; want exit 2 and %q", strings.Join(tc.args, " "), code, err, stderr.String(), tc.want)
		}
	}
}
