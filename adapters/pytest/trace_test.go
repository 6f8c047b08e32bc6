package pytest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/stuck"
	"strobe/trace"
)

// tracedRun runs the trace fixture's tests with a spec in the environment,
// as the runner does for a traced run, and reads the event files.
func tracedRun(t *testing.T, req adapters.Request, patterns []string, watches map[string][]string, edit func(*trace.Spec)) (*adapters.Recorder, adapters.Outcome, int, []adapterstest.TraceFile) {
	t.Helper()
	root := fixture(t, "trace")
	spec, path := adapterstest.TraceSpecFile(t, root, patterns, watches, edit)
	t.Setenv(trace.SpecEnv, path)
	rec, out, exit := run(t, root, req)
	return rec, out, exit.Code, adapterstest.TraceFiles(t, spec.Out)
}

// events are the events of every file, in file order.
func events(files []adapterstest.TraceFile) []trace.Event {
	var evs []trace.Event
	for _, f := range files {
		evs = append(evs, f.Events...)
	}
	return evs
}

func find(evs []trace.Event, typ, fn string, match func(trace.Event) bool) (trace.Event, bool) {
	for _, e := range evs {
		if e.Type == typ && e.Function == fn && (match == nil || match(e)) {
			return e, true
		}
	}
	return trace.Event{}, false
}

func arg(e trace.Event, name string) string {
	for _, v := range e.Args {
		if v.Name == name {
			return v.Value
		}
	}
	return "<no argument " + name + ">"
}

// TestTraceShowsTheBadArgument: the suggested traces of test_adds's
// failure (13 != 15), fed back as patterns, show the tokenizer calling
// parse_int with base 8 and parse_int returning 8 for "10"; a watch on
// the module's counter reads it at enter and exit; a watch on a name no
// scope has says so; an exception, a repr that raises and oversized
// values are recorded within bounds; a function called past FullCalls is
// sampled with its true count. calc.tokens holds a name that imports a
// missing module when read (as six.moves' do): the tracer's walk of the
// module's names survives it (it once stopped pytest with exit 3).
func TestTraceShowsTheBadArgument(t *testing.T) {
	t.Setenv("CALC_LOOP", "1500")
	rec, _, code, files := tracedRun(t, adapters.Request{},
		[]string{"calc.tokens.parse_int", "calc.tokens.tokenize", "Stack.pop", "calc.evaluate.step", "tokenz"},
		map[string][]string{"produced": {"calc.tokens.tokenize"}, "nope": {"parse_int"}, "never": {"tokenz"}}, nil)
	if code != exitFailed {
		t.Errorf("exit %d, want 1", code)
	}
	if f, ok := adapterstest.TestByName(rec.Tests(), "tests/test_calc.py::test_adds"); !ok || f.Failure == nil || !strings.Contains(f.Failure.Message, "13 == 15") {
		t.Errorf("test_adds: %+v", f)
	}
	if len(files) != 1 {
		t.Fatalf("%d event files, want 1 (one process)", len(files))
	}
	evs, meta := files[0].Events, files[0].Meta
	if meta == nil {
		t.FailNow()
	}

	tok, ok := find(evs, trace.Enter, "calc.tokens.tokenize", func(e trace.Event) bool { return arg(e, "src") == "'10 + 5'" })
	if !ok {
		t.Fatalf("no enter of tokenize('10 + 5') in %d events", len(evs))
	}
	enter, ok := find(evs, trace.Enter, "calc.tokens.parse_int", func(e trace.Event) bool { return e.Parent == tok.ID })
	if !ok {
		t.Fatal("no enter of parse_int under tokenize")
	}
	if arg(enter, "text") != "'10'" || arg(enter, "base") != "8" || enter.Depth != 1 || enter.Thread != "MainThread" || enter.PID == 0 {
		t.Errorf("parse_int's enter: %+v", enter)
	}
	if !strings.HasSuffix(enter.File, "calc/tokens.py") || enter.Line != 5 {
		t.Errorf("parse_int at %s:%d, want calc/tokens.py:5", enter.File, enter.Line)
	}
	exit, ok := find(evs, trace.Exit, "calc.tokens.parse_int", func(e trace.Event) bool { return e.Parent == enter.ID })
	if !ok || len(exit.Return) != 1 || exit.Return[0].Value != "8" || exit.Return[0].Type != "int" || exit.Error || exit.DurationNS <= 0 {
		t.Errorf("parse_int's exit: %+v", exit)
	}
	if w := enter.Watches; len(w) != 1 || w[0].Name != "nope" || w[0].Unavailable != "no variable nope in scope of calc.tokens.parse_int" {
		t.Errorf("watch nope: %+v", w)
	}
	if w := tok.Watches; len(w) != 1 || w[0].Name != "produced" || w[0].Value != "0" {
		t.Errorf("watch produced at tokenize's first enter: %+v", w)
	}
	if e, _ := find(evs, trace.Exit, "calc.tokens.tokenize", func(e trace.Event) bool { return e.Parent == tok.ID }); len(e.Watches) != 1 || e.Watches[0].Value != "3" || len(e.Return) != 1 || e.Return[0].Value != "[8, '+', 5]" {
		t.Errorf("tokenize's exit: %+v", e)
	}

	if e, ok := find(evs, trace.Exit, "calc.tokens.Stack.pop", func(e trace.Event) bool { return e.Error }); !ok || len(e.Return) != 1 || e.Return[0].Name != "exception" || e.Return[0].Value != "IndexError('pop from an empty Stack')" {
		t.Errorf("no exit of Stack.pop by its IndexError: %+v", e)
	}

	odd, ok := find(evs, trace.Enter, "calc.evaluate.step", func(e trace.Event) bool { return arg(e, "scale") == "1" })
	if !ok {
		t.Fatal("no enter of step(3, Unprintable(), …, scale=1)")
	}
	if rest := arg(odd, "rest"); !strings.Contains(rest, "<repr failed: RuntimeError: no repr for you>") || len(rest) > trace.MaxValue {
		t.Errorf("rest = %q (%d bytes), want the failed repr, within %d bytes", rest, len(rest), trace.MaxValue)
	}
	if opts := arg(odd, "opts"); opts != "{'big': [0, 1, 2, 3, 4, 5, 6, 7, ...]}" {
		t.Errorf("opts = %q, want its list cut at %d items", opts, trace.MaxItems)
	}

	// step: 1,500 calls in the loop and one more; the first FullCalls
	// whole, then one in SampleEvery.
	if got := meta.Calls["calc.evaluate.step"]; got != 1501 {
		t.Errorf("meta calls of step %d, want 1501", got)
	}
	var whole, sampled int
	for _, e := range evs {
		if e.Type == trace.Enter && e.Function == "calc.evaluate.step" {
			if e.Sampled {
				sampled++
			} else {
				whole++
			}
		}
	}
	if whole != trace.FullCalls || sampled != 5 {
		t.Errorf("step: %d whole and %d sampled enters, want %d and 5", whole, sampled, trace.FullCalls)
	}
	if meta.Dropped != 2*(1501-trace.FullCalls-5) {
		t.Errorf("dropped %d, want %d", meta.Dropped, 2*(1501-trace.FullCalls-5))
	}
	if !strings.HasPrefix(meta.Tracer, "python 3.") || meta.Calls["calc.tokens.parse_int"] != 4 {
		t.Errorf("meta: %+v", meta)
	}
	if len(meta.Unmatched) != 1 || meta.Unmatched[0].Pattern != "tokenz" || !contains(meta.Unmatched[0].Nearest, "calc.tokens.tokenize") {
		t.Errorf("unmatched: %+v, want tokenz near calc.tokens.tokenize", meta.Unmatched)
	}
	if len(meta.Warnings) != 1 || meta.Warnings[0] != "watch never: no function tokenz names was called" {
		t.Errorf("warnings %q, want the watch that was never read", meta.Warnings)
	}
	for _, fn := range []string{"calc.tokens.parse_int", "calc.tokens.Stack.pop", "calc.evaluate.step"} {
		if !contains(meta.Matched, fn) {
			t.Errorf("matched %v, want %s", meta.Matched, fn)
		}
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

// TestTraceRefusesTooBroad: patterns matching more than MaxFunctions stop
// the run once the tests are collected, before any runs, with the count
// and a hint in the meta line.
func TestTraceRefusesTooBroad(t *testing.T) {
	rec, out, code, files := tracedRun(t, adapters.Request{}, []string{"@project"}, nil, func(s *trace.Spec) { s.MaxFunctions = 3 })
	if code != exitUsage {
		t.Errorf("exit %d, want 4", code)
	}
	if n := len(rec.Tests()); n != 0 {
		t.Errorf("%d tests ran, want none", n)
	}
	if out.Crash == nil || !strings.Contains(out.Crash.Message, "strobe refused to trace") {
		t.Errorf("crash %+v, want the refusal", out.Crash)
	}
	if len(files) != 1 || files[0].Meta == nil || !strings.Contains(files[0].Meta.Refused, "pattern @project matches") || len(files[0].Events) != 0 {
		t.Fatalf("files %+v, want one refusal and no events", files)
	}
}

// TestTraceRefusesUnderXdist: each xdist worker refuses on its own and
// runs nothing (stopping pytest in a worker would crash the controller).
func TestTraceRefusesUnderXdist(t *testing.T) {
	requireModules(t, "python3", "xdist")
	rec, _, code, files := tracedRun(t, adapters.Request{Command: []string{"python3", "-m", "pytest", "-n", "2"}}, []string{"@project"}, nil, func(s *trace.Spec) { s.MaxFunctions = 3 })
	if code != exitNoTests || len(rec.Tests()) != 0 {
		t.Errorf("exit %d with %d tests, want 5 and none run", code, len(rec.Tests()))
	}
	if len(files) != 2 {
		t.Fatalf("%d event files, want one per worker", len(files))
	}
	for _, f := range files {
		if f.Meta == nil || !strings.HasPrefix(f.Meta.Refused, "pattern @project matches ") || len(f.Events) != 0 {
			t.Errorf("%s: %+v, want the refusal and no events", f.Name, f.Meta)
		}
	}
}

// TestTraceUnderXdist: with -n, each worker traces the tests it runs into
// its own file; together they hold every call.
func TestTraceUnderXdist(t *testing.T) {
	requireModules(t, "python3", "xdist")
	_, _, code, files := tracedRun(t, adapters.Request{Command: []string{"python3", "-m", "pytest", "-n", "2"}},
		[]string{"calc.tokens.parse_int"}, nil, nil)
	if code != exitFailed {
		t.Errorf("exit %d, want 1", code)
	}
	var calls int64
	for _, f := range files {
		if f.Meta != nil {
			calls += f.Meta.Calls["calc.tokens.parse_int"]
		}
	}
	if len(files) < 1 || calls != 4 {
		t.Errorf("%d files, %d calls of parse_int in all, want 4", len(files), calls)
	}
	if _, ok := find(events(files), trace.Enter, "calc.tokens.parse_int", func(e trace.Event) bool { return arg(e, "base") == "8" }); !ok {
		t.Error("no enter of parse_int with base 8")
	}
}

// TestTraceDeadlockStaysHung: a traced test that deadlocks stays hung,
// with no thread in a wait that ends by itself (what the runner's stuck
// detector needs to call it a deadlock), its calls up to the hang reach
// the event file while it hangs (strobe kills it with SIGKILL: nothing is
// flushed at exit then), and the stack dump the stuck detector asks for
// still shows both threads in the traced function.
func TestTraceDeadlockStaysHung(t *testing.T) {
	root := fixture(t, "trace")
	spec, path := adapterstest.TraceSpecFile(t, root, []string{"calc.bank.transfer"}, nil, nil)
	stacks := t.TempDir()
	s := adapterstest.Start(t, New(), adapters.Request{ProjectRoot: root, Test: "tests/test_calc.py::test_deadlock"},
		trace.SpecEnv+"="+path, "CALC_DEADLOCK=1", "STROBE_STACKS_DIR="+stacks)
	defer s.Plan.Parser.(adapters.Closer).Close()
	defer func() {
		if t.Failed() {
			t.Logf("tests %+v progress %+v", s.Rec.Tests(), s.Rec.Progress())
		}
	}()
	s.WaitRunning(t, "tests/test_calc.py::test_deadlock")

	var enters []trace.Event
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && len(enters) < 2; time.Sleep(50 * time.Millisecond) {
		enters = enters[:0]
		for _, e := range events(readPartial(t, spec.Out)) {
			if e.Type == trace.Exit {
				t.Fatalf("transfer returned: %+v", e)
			}
			enters = append(enters, e)
		}
	}
	if len(enters) != 2 {
		t.Fatalf("enters of transfer %+v, want two (one per thread) while the test hangs", enters)
	}
	threads := []string{enters[0].Thread, enters[1].Thread}
	slices.Sort(threads)
	if threads[0] != "MainThread" || threads[1] != "other" || !strings.Contains(arg(enters[0], "first"), "locked") {
		t.Errorf("enters %+v, want MainThread's and other's, their locks shown", enters)
	}
	if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.Cmd.Process.Pid)); err != nil || strings.Contains(string(stat), ") Z ") {
		t.Fatalf("pytest is gone (%q, %v), want it hung", stat, err)
	}
	// What the stuck detector reads: once the events are written, no
	// thread of pytest may be in a wait that ends by itself (the tracer's
	// flusher waits without a timeout), or a traced deadlock would pass
	// for a sleep.
	var timed []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		snap, err := stuck.NewProcView().Sample(s.Cmd.Process.Pid)
		if err != nil || len(snap.Procs) == 0 {
			t.Fatalf("sampling pytest: %v %+v", err, snap)
		}
		timed = timed[:0]
		for _, th := range snap.Procs[0].Threads {
			if th.Wait.Kind == stuck.Timed {
				timed = append(timed, fmt.Sprintf("%s (%s)", th.Name, th.Wait.Call))
			}
		}
		if len(timed) == 0 {
			break
		}
	}
	if len(timed) > 0 {
		t.Errorf("threads in a timed wait while the test deadlocks: %v", timed)
	}
	syscall.Kill(s.Cmd.Process.Pid, syscall.SIGUSR2)
	dump := filepath.Join(stacks, fmt.Sprintf("py-%d.txt", s.Cmd.Process.Pid))
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if b, _ := os.ReadFile(dump); strings.Count(string(b), "in transfer") >= 2 {
			return
		}
	}
	b, _ := os.ReadFile(dump)
	t.Errorf("stack dump %q, want both threads in transfer", b)
}

// readPartial reads the event files of a run still going: no meta yet.
func readPartial(t *testing.T, out string) []adapterstest.TraceFile {
	names, _ := filepath.Glob(filepath.Join(out, "events-*.jsonl"))
	var files []adapterstest.TraceFile
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var f adapterstest.TraceFile
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var e trace.Event
			if line != "" && json.Unmarshal([]byte(line), &e) == nil {
				f.Events = append(f.Events, e)
			}
		}
		files = append(files, f)
	}
	return files
}

// TestTraceForkedChild: a process a test forks (multiprocessing) writes
// its own file, with its own meta line, though it leaves by os._exit.
func TestTraceForkedChild(t *testing.T) {
	t.Setenv("CALC_FORK", "1")
	rec, _, code, files := tracedRun(t, adapters.Request{Test: "tests/test_calc.py::test_child_process"}, []string{"calc.evaluate.step"}, nil, nil)
	if code != 0 || len(rec.Tests()) != 1 {
		t.Errorf("exit %d, tests %+v, want the one test passed", code, rec.Tests())
	}
	if len(files) != 2 {
		t.Fatalf("%d event files, want the test process's and its child's", len(files))
	}
	var child []trace.Event
	for _, f := range files {
		if len(f.Events) > 0 {
			child = f.Events
		}
		if f.Meta == nil {
			t.Errorf("%s: no meta line", f.Name)
		}
	}
	if len(child) != 2 || arg(child[0], "i") != "5" || arg(child[0], "scale") != "5" || len(child[1].Return) != 1 || child[1].Return[0].Value != "25" {
		t.Errorf("child's events %+v, want step(5, scale=5) = 25", child)
	}
}

// TestTraceReadsNoLazyName: the tracer's walk of a module's names (to
// count what the patterns match) runs none of their code: calc.tokens'
// dbm_gnu counts each attribute read, as six.moves' lazy names import a
// module when read (six's test_lazy, checking that none had been, failed
// under any --trace).
func TestTraceReadsNoLazyName(t *testing.T) {
	_, _, _, files := tracedRun(t, adapters.Request{Test: "tests/test_calc.py::test_adds"}, []string{"calc.tokens.tokenize"},
		map[string][]string{"moved_reads": {"calc.tokens.tokenize"}}, nil)
	tok, ok := find(events(files), trace.Enter, "calc.tokens.tokenize", nil)
	if !ok {
		t.Fatal("no enter of tokenize")
	}
	if w := tok.Watches; len(w) != 1 || w[0].Value != "0" {
		t.Errorf("moved_reads at tokenize's enter: %+v, want 0: the tracer read the lazy name's attributes", w)
	}
}

// TestTraceReexportedName: a function or class a package re-exports
// (calc.tokenize, from calc/tokens.py; dateutil.parser.parse, from
// dateutil/parser/_parser.py) is traced under the name its users call it
// by; its events keep the name it is defined under. The pattern matched
// nothing, and its nearest names were test functions.
func TestTraceReexportedName(t *testing.T) {
	_, out, _, files := tracedRun(t, adapters.Request{Tests: []adapters.TestRef{{Name: "tests/test_calc.py::test_adds"}, {Name: "tests/test_calc.py::test_empty_pop"}}},
		[]string{"calc.tokenize", "calc.Stack.pop"}, nil, nil)
	evs := events(files)
	for _, fn := range []string{"calc.tokens.tokenize", "calc.tokens.Stack.pop"} {
		if _, ok := find(evs, trace.Enter, fn, nil); !ok {
			t.Errorf("no enter of %s; hint %q", fn, out.Hint)
		}
	}
}
