package catch2

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit/gdbtrace/gdbtracetest"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/trace"
)

// TestTraceShowsTheWrongArgument: "adds wrongly" fails on add(2, 2) == 5;
// its trace has add's arguments and return, and Catch2's report is still read.
func TestTraceShowsTheWrongArgument(t *testing.T) {
	testutil.RequireTool(t, "gdb")
	bins := testutil.Catch2Fixtures(t)
	root := testutil.Fixture("catch2", "plain")
	spec := gdbtracetest.Spec(t, root, []string{"add"})
	rec, _, exit := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{filepath.Join(bins, "basic")}, Test: "adds wrongly", Trace: spec})
	if exit.Code == 0 {
		t.Fatalf("exit %+v, want the failure's", exit)
	}
	if tt, ok := adapterstest.TestByName(rec.Tests(), "adds wrongly"); !ok || tt.Status != report.TestFailed || tt.Failure == nil || tt.Failure.Line != 17 {
		t.Fatalf("adds wrongly: %+v", tt)
	}
	evs, _ := gdbtracetest.Events(t, spec.Out)
	// "add" matches Catch::StringStreams::add too: the static add is ours.
	var enters, exits []trace.Event
	for _, e := range evs {
		switch {
		case e.Function != "add":
		case e.Type == trace.Enter:
			enters = append(enters, e)
		case e.Type == trace.Exit:
			exits = append(exits, e)
		}
	}
	if len(enters) != 1 || len(exits) != 1 {
		t.Fatalf("events %+v, want one call of add", evs)
	}
	var got []string
	for _, a := range enters[0].Args {
		got = append(got, a.Name+"="+a.Value)
	}
	if !slices.Equal(got, []string{"a=2", "b=2"}) || exits[0].Return[0].Value != "4" {
		t.Errorf("add(%v) = %+v, want add(a=2, b=2) = 4", got, exits[0].Return)
	}
}

// TestTraceCrash: Catch2's own signal handler still reports the segfault
// under gdb, and the binary still dies of it.
func TestTraceCrash(t *testing.T) {
	testutil.RequireTool(t, "gdb")
	bins := testutil.Catch2Fixtures(t)
	root := testutil.Fixture("catch2", "plain")
	spec := gdbtracetest.Spec(t, root, []string{"@file:crash.cpp"})
	rec, out, exit := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{filepath.Join(bins, "crash")}, Trace: spec})
	_, want, wantExit := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{filepath.Join(bins, "crash")}})
	if exit.Signaled != wantExit.Signaled || exit.Signal != wantExit.Signal || exit.Code != wantExit.Code {
		t.Errorf("traced exit %+v, untraced %+v", exit, wantExit)
	}
	if out.Crash == nil || want.Crash == nil || out.Crash.Type != want.Crash.Type || !slices.Equal(out.Crash.RunningTests, want.Crash.RunningTests) {
		t.Fatalf("traced crash %+v, untraced %+v", out.Crash, want.Crash)
	}
	if exit.Signal != int(syscall.SIGSEGV) && exit.Code == 0 {
		t.Errorf("exit %+v", exit)
	}
	_, metas := gdbtracetest.Events(t, spec.Out)
	if len(metas) != 1 || len(metas[0].Matched) == 0 || len(rec.Tests()) == 0 {
		t.Errorf("metas %+v tests %+v", metas, rec.Tests())
	}
}

// TestTraceShowsTheUntracedCommand: the answer's command of a traced run
// named gdb's script, and every run's the XML report's path, both in
// directories removed once the run ends. It is the binary with the test
// case's spec, which pasted runs the same test case, traced or not.
func TestTraceShowsTheUntracedCommand(t *testing.T) {
	testutil.RequireTool(t, "gdb")
	bins := testutil.Catch2Fixtures(t)
	root := testutil.Fixture("catch2", "plain")
	bin := filepath.Join(bins, "basic")
	req := adapters.Request{ProjectRoot: root, Command: []string{bin}, Test: "adds wrongly"}
	untraced, err := catch2{}.Plan(t.Context(), req, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	untraced.Parser.(adapters.Closer).Close()
	req.Trace = gdbtracetest.Spec(t, root, []string{"add"})
	plan, err := catch2{}.Plan(t.Context(), req, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	plan.Parser.(adapters.Closer).Close()
	if want := shell.Join([]string{bin, "adds wrongly"}); plan.Shown != want || untraced.Shown != want || plan.Argv[0] == bin {
		t.Fatalf("shown %q traced, %q untraced; argv %q: want %q shown, gdb run", plan.Shown, untraced.Shown, plan.Argv, want)
	}
	out, _ := exec.Command("sh", "-c", plan.Shown).CombinedOutput()
	if !strings.Contains(string(out), "adds wrongly") || !strings.Contains(string(out), "test cases: 1 | 1 failed") {
		t.Errorf("%s:\n%s", plan.Shown, out)
	}
}
