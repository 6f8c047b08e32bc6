package runner

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"strobe/adapters/adapterstest"
	"strobe/adapters/kit"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
)

// TestListFailuresLater: the answer's failure names its later failures
// in its message, whole however long its first message, and leaves the
// list to the details file.
func TestListFailuresLater(t *testing.T) {
	f := report.Failure{Name: "TestMany", File: "m_test.go", Line: 6, Message: strings.Repeat("first ", 300)}
	for range 9 {
		kit.AddFailure(&f, "m_test.go", 7, "second")
	}
	var resp report.Response
	listFailures(&resp, []report.Failure{f})
	got := resp.Failures[0]
	if got.Later != nil || got.LaterOmitted != 0 {
		t.Errorf("answer's later failures %+v, want none: the details file has them", got.Later)
	}
	if !strings.HasPrefix(got.Message, "first first") || !strings.Contains(got.Message, trimmed+"\nand 9 more failures in this test:\nm_test.go:7: second\n") ||
		!strings.HasSuffix(got.Message, "\n(4 more: the details file's later_failures)") || len(got.Message) > maxMessage+len(trimmed) {
		t.Errorf("answer's message (%d bytes):\n%s", len(got.Message), got.Message)
	}
	if len(f.Later) != 9 {
		t.Errorf("the failure kept %d later failures, want 9", len(f.Later))
	}
}

// TestPickFailures: past the list's bound, one failure of each message
// comes first, then the rest in order, all in the run's order: one
// fixture's error repeated by every test of a class filled the list, and
// the failure of a test of its own was left out without a word.
func TestPickFailures(t *testing.T) {
	var failed []report.Failure
	for i := range 25 {
		failed = append(failed, report.Failure{Name: fmt.Sprintf("T%d", i), Message: fmt.Sprintf("fixture db%d unavailable\nat line %d", i, i)})
	}
	failed = append(failed, report.Failure{Name: "TOwn", Message: "expected 5 but was 4"})
	got := pickFailures(failed, 20)
	var names []string
	for _, f := range got {
		names = append(names, f.Name)
	}
	want := []string{"T0", "T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T11", "T12", "T13", "T14", "T15", "T16", "T17", "T18", "TOwn"}
	if !slices.Equal(names, want) {
		t.Errorf("picked %v, want %v", names, want)
	}
	if got := pickFailures(failed[:3], 20); len(got) != 3 {
		t.Errorf("picked %d of 3, want all", len(got))
	}
	resp := report.Response{}
	listFailures(&resp, failed)
	if len(resp.Failures) != 20 || resp.FailuresOmitted != 6 {
		t.Errorf("listed %d, omitted %d: want 20 and 6", len(resp.Failures), resp.FailuresOmitted)
	}
}

// TestNoTestsFailedSaysWhy: a command that ran no test and failed after
// some output (make test in a Go project without go.mod) said only "exited
// with code 2 and reported no test results"; its last lines say why.
func TestNoTestsFailedSaysWhy(t *testing.T) {
	script := `printf 'go test ./...\n%.0s' $(seq 30); echo 'go: go.mod file not found in current directory or any parent directory' >&2; echo 'make: *** [Makefile:8: test] Error 1' >&2; exit 2`
	resp, _ := runReq(t, Request{ProjectRoot: t.TempDir(), Framework: "generic", Command: "sh -c " + shell.Quote(script)})
	if resp.Status != report.Failed || !strings.Contains(resp.Hint, `its output ends: "go: go.mod file not found in current directory or any parent directory / make: *** [Makefile:8: test] Error 1"`) {
		t.Errorf("status %s, hint %q: want failed, with the command's last words", resp.Status, resp.Hint)
	}
}

// TestNamesakesSaid: the one test asked for by name ran in two packages
// (anyhow's test_downcast_ref is in two cargo test binaries): the answer
// says that two ran, and where.
func TestNamesakesSaid(t *testing.T) {
	testutil.RequireTool(t, "go")
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"go.mod":      "module example.com/twins\n\ngo 1.21\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestSame(t *testing.T) {}\n",
		"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestSame(t *testing.T) {}\n\nfunc TestOther(t *testing.T) {}\n",
	})
	resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "go", Test: "TestSame"})
	if want := "2 tests named TestSame ran, one in each of example.com/twins/a and example.com/twins/b"; resp.Status != report.Passed || !strings.Contains(resp.Hint, want) {
		t.Errorf("status %s, hint %q: want passed, and %q", resp.Status, resp.Hint, want)
	}
	resp, _ = runReq(t, Request{ProjectRoot: root, Framework: "go", Test: "TestOther"})
	if strings.Contains(resp.Hint, "tests named") {
		t.Errorf("hint %q for a test of one package", resp.Hint)
	}
}

// TestRestWithAssignments: the rest's command in an adapter's hint gets
// the run's --env in front, as a rerun does (helpers pasted it without
// FOO='a b', into another environment).
func TestRestWithAssignments(t *testing.T) {
	for _, tc := range []struct{ hint, want string }{
		{"go test was stopped at what hung: …; to run the rest without what hung: go test -skip '^TestHang$' ./...",
			"go test was stopped at what hung: …; to run the rest without what hung: FOO='a b' go test -skip '^TestHang$' ./..."},
		{"x; to run the rest without what was running: mvn -B test '-Dtest=!WaitTest'; more",
			"x; to run the rest without what was running: FOO='a b' mvn -B test '-Dtest=!WaitTest'; more"},
		{"to run the rest without what hung: cd web && npx vitest run", "to run the rest without what hung: cd web && FOO='a b' npx vitest run"},
		{"no rest here", "no rest here"},
	} {
		if got := restWithAssignments(tc.hint, assignments(map[string]string{"FOO": "a b"})); got != tc.want {
			t.Errorf("restWithAssignments(%q)\n got %q\nwant %q", tc.hint, got, tc.want)
		}
	}
}

// TestGdbWithAssignments: the gdb command of a hint (a GoogleTest binary
// that died) gets the run's --env in front, as the failure's rerun does:
// fmt's color-test aborted only with CRASH=1, and ran clean under gdb.
func TestGdbWithAssignments(t *testing.T) {
	hint := `the binary died inside test "color_test.print" (killed by SIGABRT): rerun it alone under gdb: gdb --args /b/color-test --gtest_filter=color_test.print`
	want := `the binary died inside test "color_test.print" (killed by SIGABRT): rerun it alone under gdb: CRASH=1 gdb --args /b/color-test --gtest_filter=color_test.print`
	if got := gdbWithAssignments(hint, assignments(map[string]string{"CRASH": "1"})); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// Catch2's: a crash's, and the break on exit() of a test that exits.
	for _, c := range []struct{ hint, want string }{
		{`test "x" crashed with SIGSEGV after the assertion at a.cpp:3: rerun it alone under gdb (gdb --args ./t x), or rebuild`,
			`test "x" crashed with SIGSEGV after the assertion at a.cpp:3: rerun it alone under gdb (CRASH=1 gdb --args ./t x), or rebuild`},
		{`To see where it exits: gdb -batch -ex 'break exit' -ex run -ex bt --args ./t x`,
			`To see where it exits: CRASH=1 gdb -batch -ex 'break exit' -ex run -ex bt --args ./t x`},
	} {
		if got := gdbWithAssignments(c.hint, assignments(map[string]string{"CRASH": "1"})); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}
