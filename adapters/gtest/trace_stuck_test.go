package gtest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/adapters/all"
	"strobe/adapters/gtest"
	"strobe/adapters/kit/gdbtrace"
	"strobe/adapters/kit/gdbtrace/gdbtracetest"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
	"strobe/trace"
)

// TestTracedStuckThroughRunner runs the deadlock fixture under the tracer
// through the runner, as a traced run will once the runner sets
// Request.Trace (here the command carries gdb itself): the stuck
// detector still calls it a deadlock, gdb's short stops at the traced
// functions notwithstanding, and the events were written.
func TestTracedStuckThroughRunner(t *testing.T) {
	testutil.RequireTool(t, "gdb")
	if _, err := all.Lookup("gtest"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("adapters/all does not list gtest")
		}
		t.Skip("adapters/all does not list gtest yet")
	}
	bin := filepath.Join(gtest.Bins(t), "deadlock_test")
	spec := gdbtracetest.Spec(t, gtest.FixtureRoot(t), []string{"lock_a_then_b", "lock_b_then_a"})
	g, err := gdbtrace.Prepare("gtest", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	start := time.Now()
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: gtest.FixtureRoot(t), Framework: "gtest", Command: shell.Join(g.Argv([]string{bin})), Timeout: 60 * time.Second},
		runner.Options{DetailsDir: t.TempDir()})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != report.Stuck || len(resp.Stuck) == 0 || !strings.HasPrefix(resp.Stuck[0].Diagnosis, "deadlock") {
		t.Fatalf("status %s, stuck %+v: want a deadlock", resp.Status, resp.Stuck)
	}
	if took > 20*time.Second {
		t.Errorf("verdict took %v", took)
	}
	evs, metas := gdbtracetest.Events(t, spec.Out)
	if len(metas) != 1 || !strings.Contains(strings.Join(metas[0].Warnings, "\n"), "stopped before the program ended") {
		t.Errorf("metas %+v, want the file ended by a meta saying the run was killed", metas)
	}
	if len(gdbtracetest.Calls(evs, trace.Enter, "lock_a_then_b")) != 1 || len(gdbtracetest.Calls(evs, trace.Enter, "lock_b_then_a")) != 1 {
		t.Errorf("events %+v, want both threads' enters", evs)
	}
	var stacks strings.Builder
	for _, th := range resp.Stuck[0].Threads {
		stacks.WriteString(th.Name + "\n  " + strings.Join(th.Stack, "\n  ") + "\n")
	}
	t.Logf("%s after %v: %s\n%s", resp.Status, took, resp.Stuck[0].Diagnosis, stacks.String())
}
