package unittest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/trace"
)

var tracePatterns = []string{"calc.tokens.parse_int", "calc.tokens.Stack.pop", "calc.evaluate.step"}

// tracedRun runs the trace fixture's tests, with python (python3 when
// empty), as a traced run does: the spec's path in the environment.
func tracedRun(t *testing.T, python string, patterns []string, edit func(*trace.Spec)) (*adapters.Recorder, adapters.Outcome, int, []adapterstest.TraceFile) {
	t.Helper()
	testutil.RequireTool(t, "python3")
	root := adapterstest.CopyFixture(t, "trace")
	spec, path := adapterstest.TraceSpecFile(t, root, patterns, map[string][]string{"produced": {"tokenize"}}, edit)
	t.Setenv(trace.SpecEnv, path)
	req := adapters.Request{ProjectRoot: root}
	if python != "" {
		req.Command = []string{python, "-m", "unittest"}
	}
	rec, out, exit := adapterstest.RunReal(t, New(), req)
	return rec, out, exit.Code, adapterstest.TraceFiles(t, spec.Out)
}

// checkTrace checks what every Python version must record of the
// fixture: parse_int's wrong base and result, a call from another thread
// named as Python names it, an exception's exit with the exception, the
// loop's true count.
func checkTrace(t *testing.T, files []adapterstest.TraceFile) {
	t.Helper()
	if len(files) != 1 || files[0].Meta == nil {
		t.Fatalf("event files %+v, want one with its meta", files)
	}
	evs, meta := files[0].Events, files[0].Meta
	var enter *trace.Event
	for i, e := range evs {
		if e.Type == trace.Enter && e.Function == "calc.tokens.parse_int" && len(e.Args) == 2 && e.Args[0].Value == "'10'" {
			enter = &evs[i]
			break
		}
	}
	if enter == nil || enter.Args[1].Name != "base" || enter.Args[1].Value != "8" {
		t.Fatalf("no parse_int('10', base=8) in %d events", len(evs))
	}
	var exit, worker, pop *trace.Event
	for i, e := range evs {
		switch {
		case e.Type == trace.Exit && e.Parent == enter.ID:
			exit = &evs[i]
		case e.Type == trace.Enter && e.Thread == "worker" && e.Function == "calc.tokens.parse_int":
			worker = &evs[i]
		case e.Type == trace.Exit && e.Function == "calc.tokens.Stack.pop" && e.Error:
			pop = &evs[i]
		}
	}
	if exit == nil || len(exit.Return) != 1 || exit.Return[0].Value != "8" {
		t.Errorf("parse_int's exit: %+v", exit)
	}
	// On worker, under tokenize (traced for its watch), as on the main
	// thread: the stack is per thread.
	if worker == nil || worker.Depth != 1 || worker.Parent == 0 || evs[worker.Parent-1].Thread != "worker" || evs[worker.Parent-1].Function != "calc.tokens.tokenize" {
		t.Errorf("parse_int on the thread named worker: %+v", worker)
	}
	switch {
	case pop == nil || len(pop.Return) != 1:
		t.Errorf("Stack.pop's exit by IndexError: %+v", pop)
	case pop.Return[0].Value != "IndexError('pop from an empty Stack')":
		t.Errorf("Stack.pop raised %+v, want the IndexError", pop.Return[0])
	}
	if meta.Calls["calc.evaluate.step"] != 300 || meta.Calls["calc.tokens.parse_int"] != 4 {
		t.Errorf("calls %v, want step 300 and parse_int 4", meta.Calls)
	}
}

func TestTrace(t *testing.T) {
	_, _, code, files := tracedRun(t, "", tracePatterns, nil)
	if code != 1 {
		t.Errorf("exit %d, want 1 (test_adds fails)", code)
	}
	if len(files) == 1 && files[0].Meta != nil {
		checkTrace(t, files)
	}
}

func TestTraceRefusesTooBroad(t *testing.T) {
	rec, _, code, files := tracedRun(t, "", []string{"@project"}, func(s *trace.Spec) { s.MaxFunctions = 3 })
	if code != 4 || len(rec.Tests()) != 0 {
		t.Errorf("exit %d with %d tests, want 4 and none run", code, len(rec.Tests()))
	}
	if len(files) != 1 || files[0].Meta == nil || !strings.Contains(files[0].Meta.Refused, "more than 3") {
		t.Errorf("files %+v, want the refusal", files)
	}
}

// TestTraceOtherPythons runs the tracer under the other Pythons pyenv has
// (sys.monitoring on 3.12+, the co_qualname fallback before 3.11); it
// skips where there is no pyenv.
func TestTraceOtherPythons(t *testing.T) {
	pyenv, err := exec.LookPath("pyenv")
	if err != nil {
		t.Skip("no pyenv: only the default python3 is tested")
	}
	out, err := exec.Command(pyenv, "versions", "--bare").Output()
	if err != nil {
		t.Skipf("pyenv versions: %v", err)
	}
	ran := 0
	for _, v := range strings.Fields(string(out)) {
		if !(strings.HasPrefix(v, "3.1") && len(v) > 3) {
			continue
		}
		prefix, err := exec.Command(pyenv, "prefix", v).Output()
		if err != nil {
			continue
		}
		py := filepath.Join(strings.TrimSpace(string(prefix)), "bin", "python3")
		ran++
		t.Run(v, func(t *testing.T) {
			_, _, code, files := tracedRun(t, py, tracePatterns, nil)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			monitoring := v >= "3.12" // as strings: 3.10 < 3.12 < 3.13
			if len(files) == 1 && files[0].Meta != nil {
				if want := map[bool]string{true: "sys.monitoring", false: "sys.setprofile"}[monitoring]; !strings.HasSuffix(files[0].Meta.Tracer, want) {
					t.Errorf("tracer %q under %s, want %s", files[0].Meta.Tracer, v, want)
				}
				checkTrace(t, files)
			}
		})
	}
	if ran == 0 {
		t.Skip("pyenv has no Python 3.10+")
	}
}

// TestTraceMaxEvents: a file stops at MaxEvents, and the meta line counts
// every event not written.
func TestTraceMaxEvents(t *testing.T) {
	_, _, _, files := tracedRun(t, "", tracePatterns, func(s *trace.Spec) { s.MaxEvents = 10 })
	if len(files) != 1 || files[0].Meta == nil {
		t.Fatalf("files %+v, want one with its meta", files)
	}
	var calls int64
	for _, n := range files[0].Meta.Calls {
		calls += n
	}
	if got := len(files[0].Events); got != 10 || files[0].Meta.Dropped != 2*calls-10 {
		t.Errorf("%d events, %d dropped of %d calls; want 10 and %d", got, files[0].Meta.Dropped, calls, 2*calls-10)
	}
}
