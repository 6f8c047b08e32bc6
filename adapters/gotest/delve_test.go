package gotest

import (
	"bufio"
	"context"
	"encoding/json"
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

var _ = time.Second
