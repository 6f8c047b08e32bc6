package gotest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/trace"
)

// requireDelve skips without dlv outside CI and fails under CI=true.
func requireDelve(t testing.TB) {
	t.Helper()
	if _, err := findDelve(nil); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%v: .ci/run must install it", err)
		}
		t.Skip(err)
	}
	testutil.RequireTool(t, "go")
}

// traceSpec writes the Spec file a runner would and returns the request.
func traceSpec(t testing.TB, root, test string, patterns []string, watches ...trace.Watch) (adapters.Request, *trace.Spec) {
	t.Helper()
	pats, err := trace.CompileAll(patterns)
	if err != nil {
		t.Fatal(err)
	}
	spec := &trace.Spec{Patterns: pats, Watches: watches, Out: t.TempDir(), ProjectRoot: root, Exclude: trace.Exclude,
		MaxFunctions: trace.MaxFunctions, MaxEvents: trace.MaxEvents, FullCalls: trace.FullCalls,
		SampleEvery: trace.SampleEvery, MaxValue: trace.MaxValue, MaxDepth: trace.MaxDepth, MaxItems: trace.MaxItems}
	return adapters.Request{ProjectRoot: root, Test: test, Trace: spec}, spec
}

// runTraced runs the plan as the runner does: the command in its own
// process group with the spec's variable, the companion beside it,
// cancelled once the command ended.
func runTraced(t testing.TB, req adapters.Request, env ...string) (*adapters.Recorder, adapters.Outcome, report.Exit, error) {
	t.Helper()
	rec := adapters.NewRecorder()
	plan, err := New().Plan(context.Background(), req, rec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	specFile := filepath.Join(t.TempDir(), "spec.json")
	b, _ := json.Marshal(req.Trace)
	os.WriteFile(specFile, b, 0o644)
	cmd := exec.Command(plan.Argv[0], plan.Argv[1:]...)
	cmd.Dir = plan.Dir
	cmd.Env = append(append(os.Environ(), plan.Env...), trace.SpecEnv+"="+specFile)
	cmd.Env = append(cmd.Env, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	ctx, cancel := context.WithCancel(context.Background())
	compErr := make(chan error, 1)
	go func() { compErr <- plan.Companion(ctx) }()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for s, r := range map[adapters.Stream]*bufio.Scanner{adapters.Stdout: bufio.NewScanner(stdout), adapters.Stderr: bufio.NewScanner(stderr)} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r.Scan() {
				// Delve's own messages are not the test's output: they
				// would show up as the test's stdout in the session.
				if strings.Contains(r.Text(), "API server listening") {
					t.Errorf("Delve's banner in the test's output: %s", r.Text())
				}
				mu.Lock()
				plan.Parser.Line(s, r.Bytes(), false)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	cmd.Wait()
	cancel()
	cerr := <-compErr
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	exit := report.Exit{Exited: true, Code: ws.ExitStatus()}
	out := plan.Parser.Finish(exit)
	plan.Parser.(adapters.Closer).Close()
	return rec, out, exit, cerr
}

// readEvents reads every event file under dir: the events and the Meta.
func readEvents(t testing.TB, dir string) ([]trace.Event, []trace.Meta) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "events-*.jsonl"))
	var evs []trace.Event
	var metas []trace.Meta
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if strings.Contains(line, `"type":"meta"`) {
				var m trace.Meta
				json.Unmarshal([]byte(line), &m)
				metas = append(metas, m)
				continue
			}
			var e trace.Event
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			evs = append(evs, e)
		}
	}
	return evs, metas
}

func fixtureCopy(t testing.TB) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "trace")
	if err := os.CopyFS(dst, os.DirFS(filepath.Join("testdata", "trace"))); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestDelveTracesTheWrongArgument(t *testing.T) {
	requireDelve(t)
	root := fixtureCopy(t)
	req, spec := traceSpec(t, root, "TestTotal", []string{"shop.Discount", "shop.Parse", "shop.Discont"},
		trace.Watch{Variable: "Lookups", On: mustCompile(t, "shop.Subtotal")},
		trace.Watch{Variable: "nosuch", On: mustCompile(t, "shop.Discount")})
	rec, out, exit, cerr := runTraced(t, req)
	if cerr != nil {
		t.Errorf("companion: %v", cerr)
	}
	if exit.Code == 0 || out.BuildFailed {
		t.Errorf("exit %d, outcome %+v: want the test's failure", exit.Code, out)
	}
	tt, ok := adapterstest.TestByName(rec.Tests(), "TestTotal")
	if !ok || tt.Status != report.TestFailed {
		t.Fatalf("TestTotal = %+v, want failed", tt)
	}
	evs, metas := readEvents(t, spec.Out)
	if len(metas) != 1 || metas[0].Tracer != "delve "+delveVersion {
		t.Fatalf("metas %+v", metas)
	}
	m := metas[0]
	var enter, exitEv *trace.Event
	parses, errs, subtotals := 0, 0, 0
	for i := range evs {
		e := &evs[i]
		switch {
		case e.Function == "example.com/tracefix/shop.Discount" && e.Type == trace.Enter:
			enter = e
		case e.Function == "example.com/tracefix/shop.Discount" && e.Type == trace.Exit:
			exitEv = e
		case e.Function == "example.com/tracefix/shop.Parse" && e.Type == trace.Exit:
			parses++
			if e.Error {
				errs++
			}
		case e.Function == "example.com/tracefix/shop.Subtotal" && e.Type == trace.Enter:
			subtotals++
			if len(e.Watches) != 1 || e.Watches[0].Name != "Lookups" || e.Watches[0].Value != []string{"0", "1"}[subtotals-1] {
				t.Errorf("Subtotal watches %+v", e.Watches)
			}
		}
	}
	if enter == nil || exitEv == nil {
		t.Fatalf("no Discount enter/exit in %+v", evs)
	}
	if got := argsOf(enter.Args); got != "total=10 percent=510" {
		t.Errorf("Discount args %q, want the swapped total=10 percent=510", got)
	}
	if len(exitEv.Return) != 1 || exitEv.Return[0].Value != "-41" || exitEv.Parent != enter.ID || exitEv.Error {
		t.Errorf("Discount exit %+v", exitEv)
	}
	if len(enter.Watches) != 1 || enter.Watches[0].Unavailable == "" {
		t.Errorf("watch of a variable that does not exist: %+v", enter.Watches)
	}
	if parses != 3 || errs != 1 || subtotals != 2 {
		t.Errorf("Parse exits %d (errors %d), Subtotal enters %d: want 3 (1), 2", parses, errs, subtotals)
	}
	if m.Calls["example.com/tracefix/shop.Parse"] != 3 || len(m.Unmatched) != 1 || m.Unmatched[0].Pattern != "shop.Discont" ||
		len(m.Unmatched[0].Nearest) == 0 || m.Unmatched[0].Nearest[0] != "example.com/tracefix/shop.Discount" {
		t.Errorf("meta %+v", m)
	}
}

func mustCompile(t testing.TB, raw ...string) []trace.Pattern {
	ps, err := trace.CompileAll(raw)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func argsOf(vs []trace.Value) string {
	var b []string
	for _, v := range vs {
		b = append(b, v.Name+"="+v.Value)
	}
	return strings.Join(b, " ")
}

func TestDelveLoopSampledAndTimed(t *testing.T) {
	requireDelve(t)
	root := fixtureCopy(t)
	req, spec := traceSpec(t, root, "TestLoop", []string{"shop.Step"})
	spec.FullCalls = 400 // sample past 400 calls, 1 in 100; a budget of 1,200 calls
	start := time.Now()
	rec, _, exit, cerr := runTraced(t, req)
	traced := time.Since(start)
	if cerr != nil || exit.Code != 0 {
		t.Fatalf("exit %d, companion %v", exit.Code, cerr)
	}
	if tt, _ := adapterstest.TestByName(rec.Tests(), "TestLoop"); tt.Status != report.TestPassed {
		t.Fatalf("TestLoop %+v", tt)
	}
	evs, metas := readEvents(t, spec.Out)
	// 400 whole calls, then calls 500, 600 … 1000: 406 enters and exits.
	if len(evs) != 2*406 || metas[0].Calls["example.com/tracefix/shop.Step"] != 1000 || metas[0].Dropped != 2*594 {
		t.Fatalf("%d events, meta %+v", len(evs), metas[0])
	}
	last := evs[len(evs)-1]
	if !last.Sampled || last.Call != 1000 || last.Return[0].Value != "1999" {
		t.Errorf("last event %+v", last)
	}
	// The same run tracing nothing: the build without optimisations and
	// Delve's start are the same, the stops are not.
	req, _ = traceSpec(t, root, "TestLoop", []string{"shop.NoSuchFunction"})
	start = time.Now()
	runTraced(t, req)
	idle := time.Since(start)
	start = time.Now()
	goTest := exec.Command("go", "test", "-count=1", "-run", "^TestLoop$", "./shop")
	goTest.Dir = root
	if err := goTest.Run(); err != nil {
		t.Fatal(err)
	}
	plain := time.Since(start)
	t.Logf("1000 calls traced: %v (%.0f events/s over the idle traced run), traced with no match: %v, go test: %v",
		traced, 2000/(traced-idle).Seconds(), idle, plain)
}

// A []byte argument reads as text, as far as a value is rendered: Delve
// loads a list's first 9 elements at a breakpoint, and they were shown as
// numbers ([67, 111, 110, …]); bytes that are not text are escaped.
// Header's results are named, so they are read in full too.
func TestDelveBytesAsText(t *testing.T) {
	requireDelve(t)
	root := fixtureCopy(t)
	req, spec := traceSpec(t, root, "TestHeader", []string{"shop.Header"})
	_, _, exit, cerr := runTraced(t, req)
	if cerr != nil || exit.Code != 0 {
		t.Fatalf("exit %d, companion %v", exit.Code, cerr)
	}
	evs, _ := readEvents(t, spec.Out)
	var got []string
	for _, e := range evs {
		vs := e.Args
		if e.Type == trace.Exit {
			vs = e.Return
		}
		got = append(got, argsOf(vs))
	}
	want := []string{
		`line=[]byte("Content-Type: text/plain; charset=utf-8")`,
		`name=[]byte("Content-Type") value=[]byte("text/plain; charset=utf-8")`,
		`line=[]byte("\x1f\x8b\b\x00")`,
		`name=nil value=nil`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDelveRunBudget: past the run's budget of stops (3 × FullCalls calls
// of the traced functions together) no call stops the program any more,
// and the true count still comes from Delve. Without the budget a broad
// pattern stopped at every call up to 10,000 per function: minutes.
func TestDelveRunBudget(t *testing.T) {
	requireDelve(t)
	root := fixtureCopy(t)
	req, spec := traceSpec(t, root, "TestLoop", []string{"shop.Step"})
	spec.FullCalls = 10 // a budget of 30 calls; TestLoop makes 1,000
	_, _, exit, cerr := runTraced(t, req)
	if cerr != nil || exit.Code != 0 {
		t.Fatalf("exit %d, companion %v", exit.Code, cerr)
	}
	evs, metas := readEvents(t, spec.Out)
	m := metas[0]
	// Stopped at 31 calls (over budget: capped), then Delve counts 20
	// more (2 × FullCalls) and reports the 52nd, which ends the count.
	if len(evs) != 2*10 || m.Calls["example.com/tracefix/shop.Step"] != 52 {
		t.Errorf("%d events, calls %d: want the 10 whole calls only, 52 counted", len(evs), m.Calls["example.com/tracefix/shop.Step"])
	}
	if len(m.Warnings) != 2 || !strings.Contains(m.Warnings[0], "narrow the patterns") || !strings.Contains(m.Warnings[1], "lower bound") {
		t.Errorf("warnings %q", m.Warnings)
	}
}

func TestDelveRefusesTooBroad(t *testing.T) {
	requireDelve(t)
	root := fixtureCopy(t)
	req, spec := traceSpec(t, root, "TestParse", []string{"strconv.*", "strings.*"})
	spec.MaxFunctions = 10
	rec, _, exit, _ := runTraced(t, req)
	_, metas := readEvents(t, spec.Out)
	if exit.Code == 0 || len(metas) != 1 || !strings.Contains(metas[0].Refused, "more than 10") {
		t.Fatalf("exit %d, metas %+v", exit.Code, metas)
	}
	if tt, ok := adapterstest.TestByName(rec.Tests(), "TestParse"); ok {
		t.Errorf("TestParse ran after the refusal: %+v", tt)
	}
	t.Log(metas[0].Refused)
}

func TestDelveMissing(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: dir, Env: []string{"PATH=" + dir, "HOME=" + dir}, Trace: &trace.Spec{}}, adapters.NewRecorder())
	var u *adapters.UsageError
	if !errors.As(err, &u) || !strings.Contains(u.Hint, delveInstall) || u.Framework != "go" {
		t.Fatalf("err %v, want a usage error with the install command", err)
	}
}

func TestDelveBuildFailed(t *testing.T) {
	requireDelve(t)
	root := fixtureCopy(t)
	os.WriteFile(filepath.Join(root, "shop", "broken.go"), []byte("package shop\n\nfunc Broken() int { return \"x\" }\n"), 0o644)
	req, _ := traceSpec(t, root, "TestTotal", []string{"shop.Discount"})
	_, out, exit, _ := runTraced(t, req)
	if !out.BuildFailed || len(out.BuildErrors) == 0 || out.BuildErrors[0].File != "shop/broken.go" || exit.Code == 0 {
		t.Fatalf("exit %d, outcome %+v", exit.Code, out)
	}
}

// TestDelveCancelLeavesNothing stops a deadlocked traced test as the
// runner does (its process group, then whatever carries STROBE_RUN_ID)
// and finds no dlv nor test binary left.
func TestDelveCancelLeavesNothing(t *testing.T) {
	requireDelve(t)
	root := fixtureCopy(t)
	req, spec := traceSpec(t, root, "TestDeadlock", []string{"hang.*"})
	runID := "STROBE_RUN_ID=delve-test-" + strings.ReplaceAll(t.TempDir(), "/", "-")
	done := make(chan struct{})
	go func() {
		defer close(done)
		runTraced(t, req, "TRACEFIX_DEADLOCK=1", runID)
	}()
	// Wait for the test binary, then give it time to deadlock.
	deadline := time.Now().Add(60 * time.Second)
	for !slicesContainsComm(carriers(runID), "1.test") {
		if time.Now().After(deadline) {
			t.Fatal("the test binary never started")
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(3 * time.Second)
	before := carriers(runID)
	names := map[string]bool{}
	for _, pid := range before {
		comm, _ := os.ReadFile("/proc/" + pid + "/comm")
		names[strings.TrimSpace(string(comm))] = true
	}
	if !names["dlv"] || !names["1.test"] {
		t.Errorf("processes carrying the run id: %v, want dlv and the test binary", names)
	}
	// The runner kills the group, then every carrier of the run id: the
	// test binary is in a process group of Delve's making.
	for _, pid := range before {
		syscall.Kill(atoi(pid), syscall.SIGKILL)
	}
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the run did not end once killed")
	}
	time.Sleep(200 * time.Millisecond)
	if left := carriers(runID); len(left) > 0 {
		t.Errorf("left running: %v", left)
	}
	_, metas := readEvents(t, spec.Out)
	if len(metas) != 1 {
		t.Errorf("metas %+v: the stopped run's event file still ends with its meta", metas)
	}
}

func slicesContainsComm(pids []string, comm string) bool {
	for _, pid := range pids {
		if b, _ := os.ReadFile("/proc/" + pid + "/comm"); strings.TrimSpace(string(b)) == comm {
			return true
		}
	}
	return false
}

// carriers are the processes whose environment holds kv.
func carriers(kv string) []string {
	var pids []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if atoi(e.Name()) <= 0 {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err == nil && strings.Contains("\x00"+string(b), "\x00"+kv+"\x00") {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// A traced level names every package it runs, each as dlv test with the
// level's flags, in the order the script runs them.
func TestDelveShownCommand(t *testing.T) {
	requireDelve(t)
	req, _ := traceSpec(t, fixtureCopy(t), "", []string{"shop.Discount"})
	for _, tc := range []struct {
		level adapters.Level
		want  string
	}{
		{adapters.LevelUnit, "dlv test ./hang -- -test.short; dlv test ./shop -- -test.short"},
		{adapters.LevelIntegration, "dlv test ./hang '--build-flags=-tags integration' -- '-test.run=^TestIntegration'; " +
			"dlv test ./shop '--build-flags=-tags integration' -- '-test.run=^TestIntegration'"},
	} {
		req.Level = tc.level
		plan, err := New().Plan(context.Background(), req, adapters.NewRecorder())
		if err != nil {
			t.Fatal(err)
		}
		plan.Parser.(adapters.Closer).Close()
		if plan.Shown != tc.want {
			t.Errorf("%s: shown %q, want %q", tc.level, plan.Shown, tc.want)
		}
	}
}
