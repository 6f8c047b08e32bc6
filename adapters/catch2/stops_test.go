package catch2

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// stopsBuild is testdata/fixtures/stops: binaries that stop before their
// last test case (a segfault, a hang, exit(0)) and one Catch2 refuses to
// run (two test cases of one name).
var stopsBuild = &testutil.CachedBuild{Name: "catch2-stops", Src: mustAbs("testdata/fixtures/stops"), Sentinel: "dup",
	Build: func(dir string) error {
		if out, err := exec.Command(filepath.Join(mustAbs("testdata/fixtures/stops"), "build.sh"), dir).CombinedOutput(); err != nil {
			return fmt.Errorf("%s%w", out, err)
		}
		return nil
	}}

// stopsBin is the path of one of the stops fixture's binaries.
func stopsBin(t *testing.T, name string) string {
	t.Helper()
	testutil.RequireTool(t, "g++")
	testutil.RequireHeader(t, "/usr/include/catch2/catch.hpp", "catch2")
	return filepath.Join(stopsBuild.Dir(t), name)
}

// restOf takes the command that runs the tests again without what
// stopped them out of a hint, and runs it (30 s at most) with Catch2's
// console reporter: its output.
func restOf(t *testing.T, hint, what string) string {
	t.Helper()
	m := regexp.MustCompile(`to run the run's test cases again, less what ` + what + `: ([^;]+)`).FindStringSubmatch(hint)
	if what == "hung" { // a run strobe stopped: the words the runner finds (kit.WithRest)
		m = regexp.MustCompile(`to run the rest without what hung: ([^;]+)`).FindStringSubmatch(hint)
	}
	if m == nil {
		t.Fatalf("hint %q gives no command to run the rest without what %s", hint, what)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "sh", "-c", m[1]).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", m[1], err, out)
	}
	return string(out)
}

// TestCatch2CrashLeavesUnrun: a segfault ends the binary in its second
// test case of four (a fifth, hidden, is not run unnamed). The answer
// says how many never ran, and the command it gives runs the others,
// not the crash.
func TestCatch2CrashLeavesUnrun(t *testing.T) {
	bin := stopsBin(t, "crash")
	root := mustAbs("testdata/fixtures/stops")
	rec, out, _ := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{bin}})
	if out.Crash == nil || len(rec.Tests()) != 2 {
		t.Fatalf("crash %+v, tests %+v: want the crash in the second of four test cases", out.Crash, rec.Tests())
	}
	if !strings.Contains(out.Hint, "2 of the 4 test cases the binary was to run did not run and are in no count") {
		t.Errorf("hint %q does not count the 2 test cases after the crash", out.Hint)
	}
	if got := restOf(t, out.Hint, "crashed"); !strings.Contains(got, "All tests passed (3 assertions in 3 test cases)") {
		t.Errorf("the rest ran:\n%s\nwant the 3 test cases that do not crash", got)
	}

	// Several tests by name (--failed, a partition): the rest is their
	// spec without the crash.
	var tests []adapters.TestRef
	for _, n := range []string{"runs first", "reads through null, and crashes", "after [the] crash, too"} {
		tests = append(tests, adapters.TestRef{Name: n})
	}
	_, out, _ = adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{bin}, Tests: tests})
	if !strings.Contains(out.Hint, "1 of the 3 test cases the binary was to run did not run and is in no count") {
		t.Errorf("hint %q does not count the 1 test case after the crash", out.Hint)
	}
	if got := restOf(t, out.Hint, "crashed"); !strings.Contains(got, "All tests passed (2 assertions in 2 test cases)") {
		t.Errorf("the rest ran:\n%s\nwant the 2 named test cases that do not crash", got)
	}

	// One test by name: it is what crashed, there is no rest.
	_, out, _ = adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{bin}, Test: "reads through null, and crashes"})
	if out.Crash == nil || strings.Contains(out.Hint, "did not run") {
		t.Errorf("outcome %+v: the one test asked for ran and crashed; nothing else was to run", out)
	}
}

// TestCatch2StoppedLeavesUnrun: strobe stops a binary whose second test
// case of three waits for ever (its stuck verdict): the answer says the
// third never ran, and gives the command that runs the others.
func TestCatch2StoppedLeavesUnrun(t *testing.T) {
	bin := stopsBin(t, "hang")
	s := adapterstest.Start(t, catch2{}, adapters.Request{ProjectRoot: mustAbs("testdata/fixtures/stops"), Command: []string{bin}})
	s.WaitRunning(t, "waits, forever")
	syscall.Kill(-s.Cmd.Process.Pid, syscall.SIGTERM)
	exit := s.Wait()
	exit.StoppedBy = report.StoppedStuck
	out := s.Plan.Parser.Finish(exit)
	s.Plan.Parser.(adapters.Closer).Close()
	if got := s.Rec.Abandon(); len(got) != 1 || got[0] != "waits, forever" {
		t.Errorf("left running %q, want the test that hung", got)
	}
	if !strings.Contains(out.Hint, "1 of the 3 test cases the binary was to run did not run and is in no count") {
		t.Errorf("hint %q does not count the test case after the hang", out.Hint)
	}
	if got := restOf(t, out.Hint, "hung"); !strings.Contains(got, "All tests passed (2 assertions in 2 test cases)") {
		t.Errorf("the rest ran:\n%s\nwant the 2 test cases that do not hang", got)
	}
}

// TestCatch2ExitZero: a test case calls std::exit(0). Under the XML
// reporter Catch2 2.13 then dies of SIGSEGV in exit()'s static teardown;
// the answer says what the test did (it exited, code 0, before Catch2
// ended it), not a segmentation fault, how many test cases never ran,
// and a rerun that shows it: alone, the binary exits 0 without Catch2's
// summary.
func TestCatch2ExitZero(t *testing.T) {
	bin := stopsBin(t, "exits")
	rec, out, exit := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: mustAbs("testdata/fixtures/stops"), Command: []string{bin}})
	if !exit.Signaled || exit.Signal != int(syscall.SIGSEGV) {
		t.Logf("exit %+v: this Catch2's XML reporter survives exit() in a test", exit)
	}
	tt, _ := adapterstest.TestByName(rec.Tests(), "config loader gives up")
	f := tt.Failure
	if tt.Status != report.TestFailed || f == nil || f.File != "exits.cpp" || f.Line != 13 ||
		!strings.HasPrefix(f.Message, "did not finish: the test binary exited (code 0) while it ran, before Catch2 ended the test") ||
		strings.Contains(f.Message, "killed by SIGSEGV") {
		t.Fatalf("test %+v, failure %+v: want it failed at its TEST_CASE, exited with code 0", tt, f)
	}
	c := out.Crash
	if c == nil || c.ExitCode != 0 || !slices.Contains(c.Indicators, "catch2_exit_in_test") || !strings.Contains(c.Message, `test "config loader gives up" exited the binary (code 0)`) {
		t.Errorf("crash %+v, want the test's exit with code 0", c)
	}
	if !strings.Contains(out.Hint, "1 of the 3 test cases the binary was to run did not run and is in no count") || !strings.Contains(out.Hint, "break exit") {
		t.Errorf("hint %q: want the test case after it counted and how to find the exit", out.Hint)
	}
	// The rerun reproduces what the message says: exit 0, no summary.
	run, err := exec.Command("sh", "-c", f.Rerun).CombinedOutput()
	if err != nil || !strings.Contains(string(run), "Filters: config loader gives up") || strings.Contains(string(run), "test cases") || strings.Contains(string(run), "All tests passed") {
		t.Errorf("rerun %q: %v\n%s\nwant exit 0 without Catch2's summary", f.Rerun, err, run)
	}
}

// TestCatch2DuplicateTestCase: two test cases of one name. Catch2 runs
// none and exits 255, its XML report empty: the answer is the build's
// error at the redefinition, not "no test cases (hidden tests…)", and
// the binary is still detected as Catch2.
func TestCatch2DuplicateTestCase(t *testing.T) {
	bin := stopsBin(t, "dup")
	root := mustAbs("testdata/fixtures/stops")
	if d := (catch2{}).Detect(adapters.Request{ProjectRoot: root, Command: []string{bin}}); d.Confidence != 95 {
		t.Errorf("Detect = %+v, want 95: it is Catch2, refusing to run", d)
	}
	rec, out, exit := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{bin}})
	if !exit.Exited || exit.Code != 255 || len(rec.Tests()) != 0 {
		t.Fatalf("exit %+v, tests %+v: want Catch2's 255 and no test", exit, rec.Tests())
	}
	if !out.BuildFailed || len(out.BuildErrors) != 1 || out.NoTests || out.Crash != nil {
		t.Fatalf("outcome %+v, want one build error", out)
	}
	if e := out.BuildErrors[0]; e.File != "dup.cpp" || e.Line != 12 || !strings.Contains(e.Message, `test case "parses the header" is defined again here, first at dup.cpp:4`) {
		t.Errorf("build error %+v, want the redefinition at dup.cpp:12", e)
	}
	if !strings.Contains(out.Hint, `test case "parses the header" is defined twice, at dup.cpp:4 and at dup.cpp:12`) ||
		strings.Contains(out.Hint, "hidden tests") || strings.Contains(out.Hint, "working directory") {
		t.Errorf("hint %q, want the duplicate named, and no guess", out.Hint)
	}
}
