package gtest

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit/gdbtrace/gdbtracetest"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/trace"
)

// tracedSrc is testdata/traced, absolute.
var tracedSrc, _ = filepath.Abs(filepath.Join("testdata", "traced"))

var tracedBuild = testutil.CachedBuild{Name: "gtest-traced", Src: tracedSrc, Sentinel: "traced_test", Build: func(dir string) error {
	for _, argv := range [][]string{{"cmake", "-S", tracedSrc, "-B", dir, "-DCMAKE_BUILD_TYPE=Debug"}, {"cmake", "--build", dir, "-j2"}} {
		if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s%w", out, err)
		}
	}
	return nil
}}

// tracedBin is the traced fixture's test binary.
func tracedBin(t *testing.T) string {
	t.Helper()
	testutil.RequireTool(t, "gdb")
	testutil.RequireTool(t, "cmake")
	testutil.RequireTool(t, "g++")
	testutil.RequireHeader(t, "/usr/include/gtest/gtest.h", "libgtest-dev")
	return filepath.Join(tracedBuild.Dir(t), "traced_test")
}

// TestTraceShowsTheWrongArgument: SumTwo's trace has parse called with
// ",3" and returning -1, and the watched counter.
func TestTraceShowsTheWrongArgument(t *testing.T) {
	bin := tracedBin(t)
	spec := gdbtracetest.Spec(t, tracedSrc, []string{"calc::parse", "calc::prase"}, "calc::parsed@calc::parse")
	rec, out, exit := adapterstest.RunReal(t, gtest{}, adapters.Request{ProjectRoot: tracedSrc, Command: []string{bin}, Test: "Calc.SumTwo", Trace: spec})
	if exit.Code != 1 || out.Crash != nil {
		t.Fatalf("exit %+v crash %+v: want GoogleTest's exit 1", exit, out.Crash)
	}
	if tt, ok := adapterstest.TestByName(rec.Tests(), "Calc.SumTwo"); !ok || tt.Status != report.TestFailed || tt.Failure == nil || tt.Failure.Line == 0 {
		t.Fatalf("SumTwo %+v: want failed at its line", tt)
	}
	evs, metas := gdbtracetest.Events(t, spec.Out)
	enters, exits := gdbtracetest.Calls(evs, trace.Enter, "calc::parse"), gdbtracetest.Calls(evs, trace.Exit, "calc::parse")
	if len(enters) != 2 || len(exits) != 2 {
		t.Fatalf("%d enters and %d exits of parse, want 2: %+v", len(enters), len(exits), evs)
	}
	var got []string
	for i := range enters {
		if len(enters[i].Args) != 1 || len(exits[i].Return) != 1 || len(enters[i].Watches) != 1 || len(exits[i].Watches) != 1 {
			t.Fatalf("call %d: %+v %+v", i, enters[i], exits[i])
		}
		got = append(got, enters[i].Args[0].Value, exits[i].Return[0].Value, enters[i].Watches[0].Value, exits[i].Watches[0].Value)
	}
	if want := []string{`"2"`, "2", "0", "1", `",3"`, "-1", "1", "2"}; !slices.Equal(got, want) {
		t.Errorf("parse(arg) = return, counter before and after: %q, want %q", got, want)
	}
	m := metas[0]
	if !slices.Contains(m.Matched, "calc::parse") || len(m.Unmatched) != 1 || !slices.Contains(m.Unmatched[0].Nearest, "calc::parse") {
		t.Errorf("meta %+v", m)
	}
}

// TestTraceReturns: a double (xmm0), a std::string (returned in memory)
// and a struct argument.
func TestTraceReturns(t *testing.T) {
	bin := tracedBin(t)
	spec := gdbtracetest.Spec(t, tracedSrc, []string{"calc::half", "calc::label", "calc::apply"})
	t.Setenv("TRACED_LOOP", "3")
	for _, test := range []string{"Calc.Values", "Calc.Loop"} {
		if _, _, exit := adapterstest.RunReal(t, gtest{}, adapters.Request{ProjectRoot: tracedSrc, Command: []string{bin}, Test: test, Trace: spec}); exit.Code != 0 {
			t.Fatalf("%s: exit %+v", test, exit)
		}
	}
	evs, _ := gdbtracetest.Events(t, spec.Out)
	for _, c := range []struct{ fn, ret string }{{"calc::half", "1.5"}, {"calc::label", `"xs:3"`}, {"calc::apply", "7"}} {
		exits := gdbtracetest.Calls(evs, trace.Exit, c.fn)
		if len(exits) == 0 || len(exits[len(exits)-1].Return) != 1 || exits[len(exits)-1].Return[0].Value != c.ret {
			t.Errorf("%s returned %+v, want %s", c.fn, exits, c.ret)
		}
	}
	apply := gdbtracetest.Calls(evs, trace.Enter, "calc::apply")
	if len(apply) != 3 || apply[2].Args[0].Value != "{scale = 2, offset = 1}" || apply[2].Args[1].Value != "3" {
		t.Errorf("apply's enters: %+v", apply)
	}
}

// TestTraceCrash: a segfault under the tracer is still the binary's death
// by SIGSEGV, read as the same crash.
func TestTraceCrash(t *testing.T) {
	testutil.RequireTool(t, "gdb")
	dir := bins(t)
	spec := gdbtracetest.Spec(t, fixtureRoot(t), []string{"nowhere"})
	rec, out, exit := adapterstest.RunReal(t, gtest{}, adapters.Request{ProjectRoot: fixtureRoot(t), Command: []string{filepath.Join(dir, "crash_test")}, Trace: spec})
	if !exit.Signaled || exit.Signal != int(syscall.SIGSEGV) {
		t.Fatalf("exit %+v, want SIGSEGV", exit)
	}
	if c := out.Crash; c == nil || c.Type != report.CrashSegmentationFault || !slices.Equal(c.RunningTests, []string{"Crash.DereferencesNull"}) || len(rec.Tests()) != 2 {
		t.Fatalf("crash %+v, tests %+v", c, rec.Tests())
	}
	evs, metas := gdbtracetest.Events(t, spec.Out)
	if len(gdbtracetest.Calls(evs, trace.Exit, "nowhere")) != 1 || metas[0].Calls["nowhere"] != 1 {
		t.Errorf("events %+v meta %+v", evs, metas)
	}
}

// TestTraceLoop measures 1,000 traced calls against the untraced run.
func TestTraceLoop(t *testing.T) {
	bin := tracedBin(t)
	t.Setenv("TRACED_LOOP", "1000")
	req := adapters.Request{ProjectRoot: tracedSrc, Command: []string{bin}, Test: "Calc.Loop"}
	start := time.Now()
	adapterstest.RunReal(t, gtest{}, req)
	untraced := time.Since(start)
	req.Trace = gdbtracetest.Spec(t, tracedSrc, []string{"calc::apply"})
	start = time.Now()
	if _, _, exit := adapterstest.RunReal(t, gtest{}, req); exit.Code != 0 {
		t.Fatalf("exit %+v", exit)
	}
	traced := time.Since(start)
	evs, metas := gdbtracetest.Events(t, req.Trace.Out)
	if len(evs) != 2000 || metas[0].Calls["calc::apply"] != 1000 {
		t.Fatalf("%d events, calls %v: want 2,000 and 1,000", len(evs), metas[0].Calls)
	}
	t.Logf("1,000 calls: untraced %v, traced %v (+%v, %.0f events/s over the whole run)", untraced, traced, traced-untraced, 2000/traced.Seconds())
	if strings.Contains(metas[0].Tracer, "gdb") == false {
		t.Errorf("tracer %q", metas[0].Tracer)
	}
}

// kindsEvents runs the Kinds tests of the traced fixture with patterns
// and returns the events.
func kindsEvents(t *testing.T, test string, patterns ...string) []trace.Event {
	t.Helper()
	bin := tracedBin(t)
	spec := gdbtracetest.Spec(t, tracedSrc, patterns)
	if _, _, exit := adapterstest.RunReal(t, gtest{}, adapters.Request{ProjectRoot: tracedSrc, Command: []string{bin}, Test: test, Trace: spec}); exit.Code != 0 {
		t.Fatalf("%s: exit %+v", test, exit)
	}
	evs, _ := gdbtracetest.Events(t, spec.Out)
	return evs
}

// TestTraceOverloads: each overload of a name has its own return and its
// own line, and none of them is taken for unwound (yaml-cpp's
// YAML::Load(const char*) calls YAML::Load(std::istream&)).
func TestTraceOverloads(t *testing.T) {
	evs := kindsEvents(t, "Kinds.Overloads", "kinds::over")
	var got []string
	for _, e := range evs {
		if e.Function != "kinds::over" {
			continue
		}
		switch e.Type {
		case trace.Enter:
			got = append(got, fmt.Sprintf("enter:%d", e.Line))
		case trace.Exit:
			if e.Error || len(e.Return) != 1 {
				t.Errorf("exit %+v: want a return value", e)
				continue
			}
			got = append(got, fmt.Sprintf("exit:%d=%s", e.Line, e.Return[0].Value))
		}
	}
	want := []string{"enter:43", "exit:43=42", "enter:44", `exit:44="hi!"`, "enter:45", "exit:45=3"}
	if !slices.Equal(got, want) {
		t.Errorf("over's events %q, want %q", got, want)
	}
}

// TestTraceArgumentKinds: each common kind of C++ argument reads as its
// value: references (to a struct, to an int) and pointers as what they
// point to, strings whole inside a struct or a container, a char* as its
// text, enums by name; never nothing, an address or internals.
func TestTraceArgumentKinds(t *testing.T) {
	evs := kindsEvents(t, "Kinds.Arguments", "kinds::*")
	var got []string
	for _, e := range evs {
		if e.Type != trace.Enter {
			continue
		}
		var args []string
		for _, a := range e.Args {
			args = append(args, a.Name+"="+a.Value)
		}
		got = append(got, strings.TrimPrefix(e.Function, "kinds::")+"("+strings.Join(args, ", ")+")")
	}
	point := `{x = 1, y = 2, name = "the head point", next = &{x = 5, y = 6, name = "the tail point", next = null}}`
	want := []string{
		`by_value(s="a fairly long string of thirty")`,
		`by_cref(s="referenced")`,
		`words(v=std::vector of length 3, capacity 3 = {"alphabetical", "b", "c"})`,
		`point_ref(p=` + point + `)`,
		`point_ptr(p=&` + point + `)`,
		`point_ptr(p=null)`,
		`color(c=kinds::Color::Green)`,
		`plain(p=kinds::Two)`,
		`out(n=0)`,
		`doc(d={title = "the title", lines = std::vector of length 2, capacity 2 = {"first line", "second line"}, count = std::unique_ptr<int> = {get() = &3}, total = 4})`,
		`name(s="characters")`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("enters:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestTraceClassTemplateMethod: kinds::Box::get names the method of every
// Box<T> (gdb's kinds::Box<int>::get), as cxxopts's abstract_value::parse
// did not.
func TestTraceClassTemplateMethod(t *testing.T) {
	evs := kindsEvents(t, "Kinds.Overloads", "kinds::Box::get")
	var got []string
	for _, e := range evs {
		if e.Type == trace.Exit && len(e.Return) == 1 {
			got = append(got, e.Function+"="+e.Return[0].Value)
		}
	}
	if len(got) != 2 || got[0] != "kinds::Box<int>::get=9" || !strings.HasPrefix(got[1], "kinds::Box<std::") || !strings.HasSuffix(got[1], `>::get="boxed"`) {
		t.Errorf("Box's get returned %q, want Box<int>::get=9 and Box<std::string>::get=\"boxed\"", got)
	}
}

// TestTraceShowsTheUntracedCommand: the answer's command of a traced run
// named gdb's script, and every run's the JSON report's path, both in
// directories removed once the run ends. It is the binary with the
// test's filter, which pasted runs the same test, traced or not.
func TestTraceShowsTheUntracedCommand(t *testing.T) {
	bin := tracedBin(t)
	req := adapters.Request{ProjectRoot: tracedSrc, Command: []string{bin}, Test: "Calc.SumTwo"}
	untraced, err := gtest{}.Plan(t.Context(), req, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	untraced.Parser.(adapters.Closer).Close()
	req.Trace = gdbtracetest.Spec(t, tracedSrc, []string{"calc::parse"})
	plan, err := gtest{}.Plan(t.Context(), req, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	plan.Parser.(adapters.Closer).Close()
	if want := shell.Join([]string{bin, "--gtest_filter=Calc.SumTwo"}); plan.Shown != want || untraced.Shown != want || plan.Argv[0] == bin {
		t.Fatalf("shown %q traced, %q untraced; argv %q: want %q shown, gdb run", plan.Shown, untraced.Shown, plan.Argv, want)
	}
	out, _ := exec.Command("sh", "-c", plan.Shown).CombinedOutput()
	if !strings.Contains(string(out), "[  FAILED  ] Calc.SumTwo") || !strings.Contains(string(out), "1 test from 1 test suite ran") {
		t.Errorf("%s:\n%s", plan.Shown, out)
	}
}
