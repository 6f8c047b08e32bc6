package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/generic"
	"strobe/details"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/trace"
)

// shTracer is the generic adapter made a Tracer for these tests: its plan
// is a real shell script that does what a tracer does (reads the spec the
// runner names in STROBE_TRACE_SPEC, writes an event file under Out with
// real clock times, ends it with a meta line) around the test's output.
type shTracer struct {
	script    string
	companion func(ctx context.Context, out string) error
}

func (shTracer) Name() string                               { return "shtrace" }
func (shTracer) Tracer() string                             { return "sh" }
func (shTracer) Detect(adapters.Request) adapters.Detection { return adapters.Detection{} }

func (a shTracer) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	if req.Trace == nil || req.Trace.Out == "" {
		return nil, errors.New("the runner gave no trace spec")
	}
	req.Command = []string{"/bin/sh", "-c", a.script, "sh", req.Trace.Out}
	plan, err := generic.New().Plan(ctx, req, rec)
	if err != nil || a.companion == nil {
		return plan, err
	}
	out := req.Trace.Out
	plan.Companion = func(ctx context.Context) error { return a.companion(ctx, out) }
	return plan, nil
}

// withAdapter makes lookup find a for the duration of the test.
func withAdapter(t *testing.T, a adapters.Adapter) {
	t.Helper()
	old := lookup
	lookup = func(name string) (adapters.Adapter, error) {
		if name == a.Name() {
			return a, nil
		}
		return old(name)
	}
	t.Cleanup(func() { lookup = old })
}

// tracerScript checks the spec, then writes a parse call around a line of
// output, and the meta line.
const tracerScript = `set -e
grep -q '"regex"' "$STROBE_TRACE_SPEC"
grep -q '"variable":"COUNT"' "$STROBE_TRACE_SPEC"
out=$1
f="$out/events-$$.jsonl"
printf '{"id":1,"type":"enter","t":%s,"pid":%s,"thread":"1","function":"calc::parse","args":[{"name":"input","value":"\\"1+\\""}]}\n' "$(date +%s%N)" $$ > "$f"
echo "parsing 1+"
sleep 0.01
printf '{"id":2,"type":"exit","t":%s,"pid":%s,"thread":"1","parent":1,"function":"calc::parse","return":[{"value":"Err(Eof)"}],"error":true,"durationNs":10000000,"watches":[{"name":"COUNT","value":"3"}]}\n' "$(date +%s%N)" $$ >> "$f"
echo "FAIL: parses"
printf '{"type":"meta","tracer":"sh 1","matched":["calc::parse"],"unmatched":[{"pattern":"calc::nothing","nearest":["calc::parse"]}],"calls":{"calc::parse":1}}\n' >> "$f"
exit 1
`

func tracedReq(t *testing.T, a shTracer) Request {
	withAdapter(t, a)
	return Request{ProjectRoot: t.TempDir(), Framework: "shtrace", Timeout: 20 * time.Second,
		Trace: &Trace{Patterns: []string{"calc::parse", "calc::nothing"}, Watches: []TraceWatch{{Variable: "COUNT", On: []string{"calc::parse"}}}}}
}

func TestTracedRun(t *testing.T) {
	resp, rec := runReq(t, tracedReq(t, shTracer{script: tracerScript}))
	if resp.Status != report.Failed || resp.SessionID != resp.RunID {
		t.Fatalf("status %s, session %q: %+v", resp.Status, resp.SessionID, resp)
	}
	tr := resp.Trace
	if tr == nil || tr.Tracer != "sh 1" || tr.Events != 4 || tr.Matched.Count != 1 || len(tr.Unmatched) != 1 || tr.Unmatched[0].Nearest[0] != "calc::parse" {
		t.Fatalf("trace summary = %+v", tr)
	}
	if rec.Response.Trace == nil || rec.Response.Trace.Events != 4 {
		t.Errorf("details file's trace = %+v", rec.Response.Trace)
	}
	dir := filepath.Dir(resp.Details)
	p, err := trace.Query(dir, resp.SessionID, trace.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(p.Lines, "\n")
	for _, want := range []string{`#1 `, `→ calc::parse(input="1+")`, `#2 `, `stdout: parsing 1+`, `← calc::parse = Err(Eof) !error 10.0ms [COUNT=3]`, `stdout: FAIL: parses`} {
		if !strings.Contains(got, want) {
			t.Errorf("query lacks %q:\n%s", want, got)
		}
	}
	// Output lines come between the calls they happened between.
	if !strings.Contains(p.Lines[1], "stdout: parsing 1+") || !strings.Contains(p.Lines[2], "← calc::parse") {
		t.Errorf("events out of time order:\n%s", got)
	}
	if _, err := os.Stat(trace.OutDir(dir, resp.RunID)); err == nil {
		t.Errorf("the tracer's event files were left beside the session")
	}
}

func TestTracedRunCompanion(t *testing.T) {
	a := shTracer{script: `echo "PASS: one"; sleep 0.2`, companion: func(ctx context.Context, out string) error {
		<-ctx.Done() // the command ended
		line := fmt.Sprintf(`{"id":1,"type":"watch","t":%d,"watches":[{"name":"after","value":"end"}]}`+"\n"+`{"type":"meta","tracer":"companion"}`+"\n", time.Now().UnixNano())
		return os.WriteFile(filepath.Join(out, "events-1.jsonl"), []byte(line), 0o600)
	}}
	resp, _ := runReq(t, tracedReq(t, a))
	if resp.Trace == nil || resp.Trace.Tracer != "companion" {
		t.Fatalf("the companion's events were not waited for: %+v", resp.Trace)
	}
	p, err := trace.Query(filepath.Dir(resp.Details), resp.SessionID, trace.Filter{EventType: trace.Watchd})
	if err != nil || len(p.Lines) != 1 || !strings.Contains(p.Lines[0], "after=end") {
		t.Errorf("query = %+v, %v", p, err)
	}
}

func TestTracedRunCompanionError(t *testing.T) {
	a := shTracer{script: `echo "PASS: one"`, companion: func(ctx context.Context, out string) error {
		return errors.New("delve went away")
	}}
	_, rec := runReq(t, tracedReq(t, a))
	if !strings.Contains(strings.Join(rec.Indicators, " "), "trace_companion_failed: delve went away") {
		t.Errorf("indicators = %v", rec.Indicators)
	}
}

// TestTracedRunRefused: a tracer that refuses its patterns (too many
// functions) makes the run an error with no session to query (the CLI
// printed `strobe query ID` under it) and no test's result: what the
// framework made of the refusing process (here a failed test; go test's
// package failure) was kept in the details file and the history, whose
// changes then listed it as still failing.
func TestTracedRunRefused(t *testing.T) {
	script := `echo "FAIL: one"; printf '{"type":"meta","tracer":"sh 1","refused":"calc::** matches 812 functions, more than 200: narrow it"}\n' > "$1/events-$$.jsonl"; exit 3`
	req := tracedReq(t, shTracer{script: script})
	dir := t.TempDir()
	resp, err := Exec(context.Background(), req, Options{DetailsDir: dir, HistoryDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != report.Error || !strings.HasPrefix(resp.Error, "calc::** matches 812 functions") || resp.Hint == "" || resp.Crash != nil {
		t.Errorf("refused run = %+v", resp)
	}
	if resp.SessionID != "" || resp.Changes != nil || len(resp.Failures) != 0 {
		t.Errorf("session %q, changes %+v, failures %+v: want no session and no test's result", resp.SessionID, resp.Changes, resp.Failures)
	}
	if rec, err := details.Read(dir, resp.RunID); err != nil || len(rec.Tests) != 0 {
		t.Errorf("details %v: tests %+v, want none", err, rec)
	}
}

func TestTracedRunCrashEvent(t *testing.T) {
	resp, _ := runReq(t, tracedReq(t, shTracer{script: `echo "PASS: one"; kill -SEGV $$`}))
	p, err := trace.Query(filepath.Dir(resp.Details), resp.SessionID, trace.Filter{EventType: trace.Crash})
	if err != nil || len(p.Lines) != 1 || !strings.Contains(p.Lines[0], "crash: segmentation_fault (SIGSEGV)") {
		t.Errorf("status %s, crash events = %+v, %v", resp.Status, p, err)
	}
}

func TestTraceRequestErrors(t *testing.T) {
	withAdapter(t, shTracer{})
	root := t.TempDir()
	many := make([]TraceWatch, trace.MaxWatches+1)
	for i := range many {
		many[i] = TraceWatch{Variable: "v", On: []string{"f"}}
	}
	for _, tc := range []struct {
		name      string
		framework string
		tr        *Trace
		want      string
	}{
		{"unsupported", "generic", &Trace{Patterns: []string{"calc::parse"}}, "tracePatterns is not supported for generic yet: rerun without tracePatterns and watches;"},
		// cxxopts's build tree: its CTest tests are Catch2 binaries.
		{"ctest says how", "ctest", &Trace{Patterns: []string{"calc::parse"}}, "tracePatterns is not supported for ctest: a CTest test that runs a GoogleTest or Catch2 binary traces through that framework: framework gtest or catch2, command its binary"},
		{"watches alone unsupported", "generic", &Trace{Watches: []TraceWatch{{Variable: "x", On: []string{"f"}}}}, "not supported for generic"},
		{"bad pattern", "shtrace", &Trace{Patterns: []string{"a::::b"}}, "empty segment"},
		{"empty pattern", "shtrace", &Trace{Patterns: []string{" "}}, "empty trace pattern"},
		{"too many watches", "shtrace", &Trace{Watches: many}, "33 watches: at most 32"},
		{"no variable", "shtrace", &Trace{Watches: []TraceWatch{{On: []string{"f"}}}}, "watch 1 has no variable"},
		{"no on", "shtrace", &Trace{Watches: []TraceWatch{{Variable: "COUNT"}}}, `watch "COUNT" has no patterns in on`},
		{"bad on", "shtrace", &Trace{Watches: []TraceWatch{{Variable: "COUNT", On: []string{"@nope"}}}}, `watch "COUNT": unknown trace pattern`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(Request{ProjectRoot: root, Framework: tc.framework, Command: "true", Trace: tc.tr}, Options{DetailsDir: t.TempDir()})
			if err == nil || !adapters.IsUsage(err) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want a one-line usage error with %q", err, tc.want)
			}
		})
	}
	// An empty Trace is an untraced run.
	if _, err := New(Request{ProjectRoot: root, Framework: "generic", Command: "true", Trace: &Trace{}}, Options{}); err != nil {
		t.Errorf("empty trace: %v", err)
	}
}

// A traced test that deadlocks under its debugger is still called stuck,
// and the answer says why its stacks are missing.
func TestTracedDeadlockIsStuck(t *testing.T) {
	gdb := testutil.RequireTool(t, "gdb")
	cc := testutil.RequireTool(t, "gcc")
	bin := filepath.Join(t.TempDir(), "relock")
	if out, err := exec.Command(cc, "-g", "-pthread", "-o", bin, "testdata/relock.c").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	script := fmt.Sprintf(`echo "RUN: relock"; exec %s -nx -batch -ex run --args %s`, gdb, bin)
	resp, _ := runReq(t, tracedReq(t, shTracer{script: script}))
	if resp.Status != report.Stuck || len(resp.Stuck) == 0 {
		t.Fatalf("status %s, stuck %+v, crash %+v", resp.Status, resp.Stuck, resp.Crash)
	}
	s := resp.Stuck[0]
	if !strings.HasPrefix(s.Diagnosis, "deadlock") || !strings.Contains(s.Diagnosis+fmt.Sprint(s.Threads), "stacks unavailable: the test runs under the tracer (gdb") {
		t.Errorf("stuck = %+v", s)
	}
	if strings.Count(s.Diagnosis, "stacks unavailable") != 1 {
		t.Errorf("diagnosis repeats itself: %s", s.Diagnosis)
	}
	if resp.Trace == nil || resp.SessionID == "" || !strings.Contains(resp.Hint, "debug_query") {
		t.Errorf("no session, or no hint to query it, for the stuck traced run: %+v", resp)
	}
}
