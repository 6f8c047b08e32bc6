package cargo

import (
	"errors"
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
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit/gdbtrace/gdbtracetest"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/trace"
)

// tracedFixture is a copy of testdata/fixtures/traced, a parser whose
// sum_two fails because sum passes the separator on to parse.
func tracedFixture(t *testing.T) string {
	t.Helper()
	testutil.RequireTool(t, "cargo")
	testutil.RequireTool(t, "gdb")
	root := adapterstest.CopyFixture(t, "traced")
	// One target directory for every test of this package's run: the
	// fixture is built once.
	t.Setenv("CARGO_TARGET_DIR", targetDir)
	return root
}

var targetDir = filepath.Join(os.TempDir(), "strobe-cargo-traced-target-"+strconv.Itoa(os.Getpid()))

func TestMain(m *testing.M) {
	code := m.Run()
	os.RemoveAll(targetDir)
	os.Exit(code)
}

// TestTraceShowsTheWrongArgument: the failing test's trace has parse
// called with ",3" and returning Err, the watched counter, and the
// pattern that matched nothing with its nearest names.
func TestTraceShowsTheWrongArgument(t *testing.T) {
	root := tracedFixture(t)
	spec := gdbtracetest.Spec(t, root, []string{"parser::parse", "parser::prase"}, "traced::parser::PARSED@parser::parse")
	rec, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "tests::sum_two", Trace: spec})
	if exit.Code == 0 {
		t.Fatalf("exit %+v: sum_two must fail", exit)
	}
	if tt, ok := adapterstest.TestByName(rec.Tests(), "tests::sum_two"); !ok || tt.Status != report.TestFailed {
		t.Fatalf("sum_two: %+v, want failed (the adapter must still read the traced run)", tt)
	}
	evs, metas := gdbtracetest.Events(t, spec.Out)
	enters := gdbtracetest.Calls(evs, trace.Enter, "parser::parse")
	if len(enters) != 2 {
		t.Fatalf("parse entered %d times, want 2: %+v", len(enters), evs)
	}
	var args []string
	for _, e := range enters {
		if len(e.Args) != 1 || e.Args[0].Name != "s" {
			t.Fatalf("parse's args: %+v", e.Args)
		}
		args = append(args, e.Args[0].Value)
	}
	if want := []string{`"2"`, `",3"`}; !slices.Equal(args, want) {
		t.Errorf("parse called with %q, want %q", args, want)
	}
	exits := gdbtracetest.Calls(evs, trace.Exit, "parser::parse")
	if len(exits) != 2 {
		t.Fatalf("parse exited %d times, want 2", len(exits))
	}
	if r := exits[0].Return; len(r) != 1 || r[0].Value != "Ok(2)" || exits[0].Error {
		t.Errorf("first return %+v, want Ok(2)", exits[0])
	}
	if r := exits[1].Return; len(r) != 1 || !strings.HasPrefix(r[0].Value, `Err("\",3\": invalid digit`) || !exits[1].Error {
		t.Errorf("second return %+v, want an Err marked error", exits[1])
	}
	for i, e := range exits {
		if e.Parent != enters[i].ID || e.DurationNS <= 0 || e.Thread != enters[i].Thread {
			t.Errorf("exit %+v does not close enter %+v", e, enters[i])
		}
	}
	// The counter is read at enter and exit: 0 1, then 1 2.
	var counts []string
	for _, e := range []trace.Event{enters[0], exits[0], enters[1], exits[1]} {
		if len(e.Watches) != 1 {
			t.Fatalf("watches of %+v", e)
		}
		counts = append(counts, e.Watches[0].Value)
	}
	if want := []string{"0", "1", "1", "2"}; !slices.Equal(counts, want) {
		t.Errorf("PARSED read %q, want %q", counts, want)
	}
	if len(metas) == 0 {
		t.Fatal("no meta")
	}
	m := metas[0]
	if !strings.HasPrefix(m.Tracer, "gdb ") || !slices.Contains(m.Matched, "traced::parser::parse") || m.Calls["traced::parser::parse"] != 2 {
		t.Errorf("meta %+v", m)
	}
	if len(m.Unmatched) != 1 || m.Unmatched[0].Pattern != "parser::prase" || !slices.Contains(m.Unmatched[0].Nearest, "traced::parser::parse") {
		t.Errorf("unmatched %+v, want parser::prase near traced::parser::parse", m.Unmatched)
	}
}

// TestTraceValues: a struct by value, a String and a slice, rendered.
func TestTraceValues(t *testing.T) {
	root := tracedFixture(t)
	spec := gdbtracetest.Spec(t, root, []string{"parser::label", "parser::apply"}, "op.scale@parser::apply", "nosuch@parser::label")
	t.Setenv("TRACED_LOOP", "2")
	for _, test := range []string{"tests::labels", "tests::loop_apply"} {
		if _, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: test, Trace: spec}); exit.Code != 0 {
			t.Fatalf("%s: exit %+v", test, exit)
		}
	}
	evs, _ := gdbtracetest.Events(t, spec.Out)
	label := gdbtracetest.Calls(evs, trace.Enter, "parser::label")
	if len(label) != 1 || len(label[0].Args) != 2 || label[0].Args[0].Value != `"xs"` || !strings.Contains(label[0].Args[1].Value, "{1, 2, 3}") {
		t.Fatalf("label's enter: %+v", label)
	}
	if w := label[0].Watches; len(w) != 1 || w[0].Unavailable == "" {
		t.Errorf("a watch on no variable: %+v, want unavailable", w)
	}
	apply := gdbtracetest.Calls(evs, trace.Enter, "parser::apply")
	if len(apply) != 2 || !strings.Contains(apply[1].Args[0].Value, "scale: 2") || apply[1].Args[1].Value != "2" || apply[1].Watches[0].Value != "2" {
		t.Fatalf("apply's enters: %+v", apply)
	}
	exits := gdbtracetest.Calls(evs, trace.Exit, "parser::apply")
	if len(exits) != 2 || exits[1].Return[0].Value != "5" {
		t.Errorf("apply's exits: %+v", exits)
	}
}

// TestTraceReferences: arguments by reference (gdb's pointers) render as
// what they point to. With addresses off gdb printed them as nothing:
// semver's matches_tilde(cmp=, ver=).
func TestTraceReferences(t *testing.T) {
	root := tracedFixture(t)
	spec := gdbtracetest.Spec(t, root, []string{"parser::scaled"})
	if _, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "tests::by_reference", Trace: spec}); exit.Code != 0 {
		t.Fatalf("exit %+v", exit)
	}
	evs, _ := gdbtracetest.Events(t, spec.Out)
	e := gdbtracetest.Calls(evs, trace.Enter, "parser::scaled")
	if len(e) != 1 || len(e[0].Args) != 2 || !strings.Contains(e[0].Args[0].Value, "scale: 3") || e[0].Args[1].Value != "&4" {
		t.Fatalf("scaled's enter: %+v", e)
	}
}

// TestTraceSamples: past FullCalls, one call in SampleEvery is recorded,
// and the meta has the true count. It logs the cost of tracing 1,000 calls.
func TestTraceSamples(t *testing.T) {
	root := tracedFixture(t)
	t.Setenv("TRACED_LOOP", "1000")
	req := adapters.Request{ProjectRoot: root, Test: "tests::loop_apply"}
	adapterstest.RunReal(t, New(), req) // build
	start := time.Now()
	if _, _, exit := adapterstest.RunReal(t, New(), req); exit.Code != 0 {
		t.Fatalf("untraced: exit %+v", exit)
	}
	untraced := time.Since(start)
	req.Trace = gdbtracetest.Spec(t, root, []string{"parser::apply"})
	start = time.Now()
	if _, _, exit := adapterstest.RunReal(t, New(), req); exit.Code != 0 {
		t.Fatalf("traced: exit %+v", exit)
	}
	traced := time.Since(start)
	evs, _ := gdbtracetest.Events(t, req.Trace.Out)
	t.Logf("1,000 calls: untraced %v, traced %v (+%v), %d events", untraced, traced, traced-untraced, len(evs))

	t.Setenv("TRACED_LOOP", "1250")
	req.Trace = gdbtracetest.Spec(t, root, []string{"parser::apply"})
	if _, _, exit := adapterstest.RunReal(t, New(), req); exit.Code != 0 {
		t.Fatalf("traced: exit %+v", exit)
	}
	evs, metas := gdbtracetest.Events(t, req.Trace.Out)
	enters := gdbtracetest.Calls(evs, trace.Enter, "parser::apply")
	if len(enters) != 1002 || !enters[1000].Sampled || enters[1000].Call != 1100 || enters[1001].Call != 1200 {
		t.Fatalf("%d enters, want 1,000 whole and calls 1100 and 1200 sampled", len(enters))
	}
	if m := metas[0]; m.Calls["traced::parser::apply"] != 1250 || m.Dropped != 2*248 {
		t.Errorf("meta calls %v dropped %d, want 1250 calls and 496 events dropped", m.Calls, m.Dropped)
	}
}

// TestTraceRefusesTooBroad: patterns over MaxFunctions stop the tests
// before they run, with the refusal in the meta.
func TestTraceRefusesTooBroad(t *testing.T) {
	root := tracedFixture(t)
	spec := gdbtracetest.Spec(t, root, []string{"core::**"})
	rec, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "tests::sum_two", Trace: spec})
	if exit.Code == 0 || len(rec.Tests()) != 0 {
		t.Fatalf("exit %+v, tests %+v: want a failed run and no test", exit, rec.Tests())
	}
	_, metas := gdbtracetest.Events(t, spec.Out)
	if len(metas) != 1 || !strings.Contains(metas[0].Refused, "core::**") {
		t.Fatalf("metas %+v, want core::** refused", metas)
	}
}

// TestTraceNeedsGdb: without gdb on PATH the plan is refused, saying how
// to install it.
func TestTraceNeedsGdb(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "Cargo.toml"), []byte("[package]\nname = \"x\"\n"), 0o644)
	_, err := New().Plan(t.Context(), adapters.Request{ProjectRoot: root, Test: "t", Trace: &trace.Spec{}, Env: []string{"PATH=" + t.TempDir()}}, adapters.NewRecorder())
	var u *adapters.UsageError
	if !errors.As(err, &u) || !strings.Contains(u.Hint, "apt-get install gdb") {
		t.Fatalf("err %v, want a usage error with the install hint", err)
	}
}

// TestTraceCancelLeavesNothing: killing the run's process group mid-trace
// (a deadlocked test under gdb) leaves neither gdb nor the test binary.
func TestTraceCancelLeavesNothing(t *testing.T) {
	root := tracedFixture(t)
	spec := gdbtracetest.Spec(t, root, []string{"parser::parse"})
	adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "tests::sum_two"}) // build
	s := adapterstest.Start(t, New(), adapters.Request{ProjectRoot: root, Test: "tests::deadlock", Trace: spec})
	s.WaitRunning(t, "tests::deadlock")
	if pids := processesWith(spec.Out); len(pids) == 0 {
		t.Fatal("no traced process carries the spec: the runner could not find them")
	}
	syscall.Kill(-s.Cmd.Process.Pid, syscall.SIGKILL)
	s.Wait()
	s.Plan.Parser.(adapters.Closer).Close()
	deadline := time.Now().Add(5 * time.Second)
	for pids := processesWith(spec.Out); len(pids) > 0; pids = processesWith(spec.Out) {
		if time.Now().After(deadline) {
			out, _ := exec.Command("ps", "-o", "pid,pgid,stat,args", "-p", strings.Join(pids, ",")).CombinedOutput()
			t.Fatalf("left running:\n%s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// processesWith lists the processes whose environment names the spec (the
// spec file sits beside out): gdb and the test binary.
func processesWith(out string) []string {
	want := []byte(trace.SpecEnv + "=" + filepath.Join(filepath.Dir(out), "spec.json"))
	var pids []string
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
		if err != nil {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if strings.Contains(string(stat), ") Z ") {
			continue // a zombie holds nothing
		}
		for _, kv := range strings.Split(string(env), "\x00") {
			if kv == string(want) {
				pids = append(pids, d.Name())
			}
		}
	}
	return pids
}

// TestTraceReleaseWarns: a release build has no debug info for the crate:
// the tests run, and the meta says why nothing was traced and what to do.
func TestTraceReleaseWarns(t *testing.T) {
	root := tracedFixture(t)
	spec := gdbtracetest.Spec(t, root, []string{"parser::parse"})
	_, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: []string{"cargo", "test", "--release"}, Test: "tests::labels", Trace: spec})
	if exit.Code != 0 {
		t.Fatalf("exit %+v", exit)
	}
	_, metas := gdbtracetest.Events(t, spec.Out)
	if len(metas) != 1 || len(metas[0].Warnings) == 0 || !strings.HasPrefix(metas[0].Warnings[0], "no debug info") || !strings.Contains(metas[0].Warnings[0], "--release") {
		t.Fatalf("metas %+v, want the no-debug-info warning", metas)
	}
}

// TestTracePanic: a call a panic unwinds through ends with an error exit
// whose return is unavailable; the call before it returned normally.
func TestTracePanic(t *testing.T) {
	root := tracedFixture(t)
	spec := gdbtracetest.Spec(t, root, []string{"parser::checked"})
	if _, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "tests::checked_panics", Trace: spec}); exit.Code != 0 {
		t.Fatalf("exit %+v", exit)
	}
	evs, _ := gdbtracetest.Events(t, spec.Out)
	enters, exits := gdbtracetest.Calls(evs, trace.Enter, "parser::checked"), gdbtracetest.Calls(evs, trace.Exit, "parser::checked")
	if len(enters) != 2 || len(exits) != 2 || enters[1].Args[0].Value != "-1" {
		t.Fatalf("events %+v", evs)
	}
	if exits[0].Error || exits[0].Return[0].Value != "2" {
		t.Errorf("checked(2): %+v", exits[0])
	}
	if !exits[1].Error || exits[1].Parent != enters[1].ID || !strings.HasPrefix(exits[1].Return[0].Unavailable, "unwound") {
		t.Errorf("checked(-1): %+v, want an unwound error exit", exits[1])
	}
}

// TestTraceLoopAtEntry: a function whose body starts with a loop comes
// back at each turn to where its entry breakpoint stops. Each turn read
// as a new call and the ones before as unwound: shlex's parse_single,
// called once for 'baz', showed 4 calls, 3 of them !error.
func TestTraceLoopAtEntry(t *testing.T) {
	root := tracedFixture(t)
	spec := gdbtracetest.Spec(t, root, []string{"parser::until"})
	if _, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "tests::until_loops", Trace: spec}); exit.Code != 0 {
		t.Fatalf("exit %+v", exit)
	}
	evs, metas := gdbtracetest.Events(t, spec.Out)
	enters, exits := gdbtracetest.Calls(evs, trace.Enter, "parser::until"), gdbtracetest.Calls(evs, trace.Exit, "parser::until")
	if len(enters) != 2 || len(exits) != 2 {
		t.Fatalf("until entered %d times and exited %d, want 2 and 2: %+v", len(enters), len(exits), evs)
	}
	for i, want := range []string{"Some(59)", "None"} {
		if e := exits[i]; e.Error || e.Parent != enters[i].ID || len(e.Return) != 1 || e.Return[0].Value != want {
			t.Errorf("exit %d: %+v, want %s", i, e, want)
		}
	}
	if len(metas) != 1 || metas[0].Calls["traced::parser::until"] != 2 {
		t.Errorf("metas %+v, want 2 calls of until", metas)
	}
}

// TestTracePairReturns: rustc returns two scalars that share an eightbyte
// in two registers (a tuple of u32, an Option<u8>), not packed in rax as
// C does: swap(1, 2) read (2, <rax's upper half>), Some(b';') Some(58).
// swap, a leaf with no prologue, stops for its entry at its ret: its one
// call read as unwound.
func TestTracePairReturns(t *testing.T) {
	root := tracedFixture(t)
	spec := gdbtracetest.Spec(t, root, []string{"parser::swap"})
	if _, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "tests::swaps", Trace: spec}); exit.Code != 0 {
		t.Fatalf("exit %+v", exit)
	}
	evs, _ := gdbtracetest.Events(t, spec.Out)
	exits := gdbtracetest.Calls(evs, trace.Exit, "parser::swap")
	if len(exits) != 1 || len(exits[0].Return) != 1 || exits[0].Return[0].Value != "(2, 1)" {
		t.Fatalf("swap's exits %+v, want (2, 1)", exits)
	}
}

// TestTraceGdbInternalError: gdb 13 fails an internal assertion printing
// an Option<&&str> (once_cell's OnceCell<&str>::get). It asked to quit
// and took the test binary with it: a test that passed answered crashed,
// "the test binary exited". The value is unavailable, the test passes.
func TestTraceGdbInternalError(t *testing.T) {
	root := tracedFixture(t)
	spec := gdbtracetest.Spec(t, root, []string{"traced::first"})
	rec, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "lent::first_word", Trace: spec})
	if exit.Code != 0 {
		t.Fatalf("exit %+v, tests %+v: want the test passed", exit, rec.Tests())
	}
	evs, metas := gdbtracetest.Events(t, spec.Out)
	exits := gdbtracetest.Calls(evs, trace.Exit, "traced::first")
	if len(exits) != 1 || len(exits[0].Return) != 1 || !strings.Contains(exits[0].Return[0].Unavailable, "internal error") {
		t.Fatalf("first's exits %+v, want its return unavailable", exits)
	}
	if len(metas) != 1 {
		t.Errorf("metas %+v, want the tracer's end", metas)
	}
}

// TestTraceProjectAndFile: @project is the crate's own functions, never
// std's; @file:lib.rs the functions defined in src/lib.rs; traced::** the
// crate's functions at any depth, not std's generic functions instantiated
// with the crate's closures (it matched 69, 38 of them std's:
// core::iter::traits::accum::{impl#16}::sum<…traced::parser::apply_all::{closure_env#0}>>).
func TestTraceProjectAndFile(t *testing.T) {
	root := tracedFixture(t)
	for _, p := range []string{"@project", "@file:lib.rs", "traced::**"} {
		spec := gdbtracetest.Spec(t, root, []string{p})
		if _, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "tests::labels", Trace: spec}); exit.Code != 0 {
			t.Fatalf("%s: exit %+v", p, exit)
		}
		_, metas := gdbtracetest.Events(t, spec.Out)
		if len(metas) != 1 || !slices.Contains(metas[0].Matched, "traced::parser::parse") || !slices.Contains(metas[0].Matched, "traced::tests::labels") {
			t.Fatalf("%s: metas %+v", p, metas)
		}
		for _, m := range metas[0].Matched {
			if !strings.HasPrefix(m, "traced::") {
				t.Errorf("%s matched %s, not the crate's", p, m)
			}
		}
		if metas[0].Calls["traced::parser::label"] != 1 {
			t.Errorf("%s: calls %v", p, metas[0].Calls)
		}
	}
}

// TestTraceSaysNothingOfGdb: the traced plan's output has the test's lines
// and none of gdb's (loading a Rust binary makes gdb warn about its
// pretty-printer section before any script runs).
func TestTraceSaysNothingOfGdb(t *testing.T) {
	root := tracedFixture(t)
	spec := gdbtracetest.Spec(t, root, []string{"parser::label"})
	plan, err := New().Plan(t.Context(), adapters.Request{ProjectRoot: root, Test: "tests::labels", Trace: spec}, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	defer plan.Parser.(adapters.Closer).Close()
	cmd := exec.Command(plan.Argv[0], plan.Argv[1:]...)
	cmd.Dir = plan.Dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), `"tests::labels"`) || strings.Contains(string(out), "auto-load") || strings.Contains(string(out), "gdb") {
		t.Errorf("output:\n%s\nwant the test's events and nothing of gdb's", out)
	}
}

// TestTraceShowsTheUntracedCommand: the answer's command of a traced run
// named gdb's script, in a directory removed after the run, inside three
// lines of quoting: pasted, gdb found no script. It is the command
// without gdb, which pasted runs the same test.
func TestTraceShowsTheUntracedCommand(t *testing.T) {
	root := tracedFixture(t)
	req := adapters.Request{ProjectRoot: root, Test: "tests::labels"}
	untraced, err := New().Plan(t.Context(), req, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := untraced.Parser.(adapters.Closer); ok {
		c.Close()
	}
	req.Trace = gdbtracetest.Spec(t, root, []string{"parser::label"})
	plan, err := New().Plan(t.Context(), req, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	plan.Parser.(adapters.Closer).Close() // removes gdb's script, as the run's end does
	want := untraced.Shown
	if want == "" {
		want = shell.Join(untraced.Argv)
	}
	if plan.Shown != want {
		t.Fatalf("shown %q, want the untraced command %q", plan.Shown, want)
	}
	if !slices.ContainsFunc(plan.Argv, func(a string) bool { return strings.Contains(a, "gdb") }) {
		t.Fatalf("argv %q does not run gdb", plan.Argv)
	}
	cmd := exec.Command("sh", "-c", plan.Shown)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "test tests::labels ... ok") {
		t.Errorf("%s: %v\n%s", plan.Shown, err, out)
	}
}

// TestTraceDoctestsDoNotWarn: cargo runs rustdoc's doctest binaries
// (rust_out) through the runner too, so under gdb. rustdoc builds them
// without debug info: one whose example calls none of the crate's
// functions has none of the project's, and that is no missing debug info.
func TestTraceDoctestsDoNotWarn(t *testing.T) {
	root := tracedFixture(t)
	spec := gdbtracetest.Spec(t, root, []string{"parser::parse"})
	rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: []string{"cargo", "test", "--", "--skip", "tests::deadlock"}, Trace: spec})
	if tt, ok := adapterstest.TestByName(rec.Tests(), "src/lib.rs - ORIGIN (line 151)"); !ok || tt.Status != report.TestPassed {
		t.Fatalf("the doctest: %+v, want passed (tests %+v)", tt, rec.Tests())
	}
	_, metas := gdbtracetest.Events(t, spec.Out)
	if len(metas) < 2 {
		t.Fatalf("metas %+v, want the library's test binary and the doctest's", metas)
	}
	for _, m := range metas {
		for _, w := range m.Warnings {
			if strings.HasPrefix(w, "no debug info") {
				t.Errorf("warning %q, for rustdoc's doctest binary", w)
			}
		}
	}
}
