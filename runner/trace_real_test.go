package runner

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/internal/testutil"
	"strobe/report"
	"strobe/trace"
)

func fixtureTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	testutil.CopyTree(t, src, dst)
	return dst
}

// A traced test of a real tracer that deadlocks is still called stuck:
// under Delve with the stacks it cannot take said so, under the Python
// tracer with its threads' Python stacks; the session has the calls that
// led into the hang, and runReq finds no process of the run left.
func TestTracedRealDeadlockIsStuck(t *testing.T) {
	for _, tc := range []struct {
		name, fixture, test, pattern, env, enter, stack string
		require                                         func(*testing.T)
	}{
		{"go", "../adapters/gotest/testdata/trace", "TestDeadlock", "hang.*", "TRACEFIX_DEADLOCK", "hang.Inner", "stacks unavailable: the test runs under the tracer", func(t *testing.T) { testutil.RequireDelve(t) }},
		{"cargo", "../adapters/cargo/testdata/fixtures/traced", "tests::deadlock", "parser::*", "TRACED_UNUSED", "", "stacks unavailable: the test runs under the tracer", func(t *testing.T) {
			testutil.RequireTool(t, "cargo")
			testutil.RequireTool(t, "gdb")
		}},
		{"pytest", "../adapters/pytest/testdata/fixtures/trace", "tests/test_calc.py::test_deadlock", "calc.bank.transfer", "CALC_DEADLOCK", "calc.bank.transfer", "transfer", func(t *testing.T) {
			py := testutil.RequireTool(t, "python3")
			if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
				t.Skip("no pytest")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.require(t)
			root := fixtureTree(t, tc.fixture)
			resp, _ := runReq(t, Request{ProjectRoot: root, Test: tc.test, Env: map[string]string{tc.env: "1"}, Timeout: 60 * time.Second,
				Trace: &Trace{Patterns: []string{tc.pattern}}})
			if resp.Status != report.Stuck || len(resp.Stuck) == 0 {
				t.Fatalf("status %s, stuck %+v, crash %+v, hint %s", resp.Status, resp.Stuck, resp.Crash, resp.Hint)
			}
			s := resp.Stuck[0]
			if !strings.HasPrefix(s.Diagnosis, "deadlock") || !strings.Contains(s.Diagnosis+fmtThreads(s.Threads), tc.stack) {
				t.Errorf("stuck %q: %s %s", s.Name, s.Diagnosis, fmtThreads(s.Threads))
			}
			if resp.SessionID == "" || resp.Trace == nil {
				t.Fatalf("no session: %+v", resp)
			}
			if tc.enter == "" {
				return // the fixture's deadlock calls no traced function
			}
			p, err := trace.Query(filepath.Dir(resp.Details), resp.SessionID, trace.Filter{FunctionContains: tc.enter, EventType: trace.Enter})
			if err != nil || len(p.Lines) == 0 {
				t.Errorf("no enter of %s before the hang: %+v %v", tc.enter, p, err)
			}
		})
	}
}

func fmtThreads(ths []report.Thread) string {
	var b strings.Builder
	for _, th := range ths {
		b.WriteString(th.Name)
		b.WriteString(" " + strings.Join(th.Stack, " "))
		b.WriteString("; ")
	}
	return b.String()
}

// A traced go run answers with the command a person would type to run the
// test under Delve, not the shell script that drives dlv; the details
// file keeps that script, the exact argv.
func TestTracedGoCommandSaysWhatRan(t *testing.T) {
	testutil.RequireDelve(t)
	root := fixtureTree(t, "../adapters/gotest/testdata/trace")
	resp, rec := runReq(t, Request{ProjectRoot: root, Test: "TestTotal", Timeout: 60 * time.Second,
		Trace: &Trace{Patterns: []string{"shop.Discount"}}})
	if resp.Status != report.Failed || resp.Trace == nil {
		t.Fatalf("status %s, trace %+v, hint %s", resp.Status, resp.Trace, resp.Hint)
	}
	if want := "dlv test ./shop -- '-test.run=^TestTotal$'"; resp.Command != want {
		t.Errorf("command %q, want %q", resp.Command, want)
	}
	if len(rec.Argv) != 3 || rec.Argv[0] != "sh" || !strings.Contains(rec.Argv[2], "exec --headless") {
		t.Errorf("details argv %q, want the script that ran", rec.Argv)
	}
}
