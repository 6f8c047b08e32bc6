package gtest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/adapters/adapterstest"
	"strobe/adapters/all"
	"strobe/adapters/gtest"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
)

// TestStuckThroughRunner runs the deadlock fixture through the runner: the
// stuck detector calls it a deadlock within seconds, names the GoogleTest
// test that hangs (read live from the console), and shows both threads'
// C++ frames.
func TestStuckThroughRunner(t *testing.T) {
	testutil.RequireTool(t, "eu-stack")
	if _, err := all.Lookup("gtest"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("adapters/all does not list gtest")
		}
		t.Skip("adapters/all does not list gtest yet")
	}
	bin := filepath.Join(gtest.Bins(t), "deadlock_test")
	start := time.Now()
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: gtest.FixtureRoot(t), Framework: "gtest", Command: bin, Timeout: 60 * time.Second},
		runner.Options{DetailsDir: t.TempDir()})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != report.Stuck || len(resp.Stuck) == 0 {
		t.Fatalf("status %s, stuck %+v, crash %+v: want stuck", resp.Status, resp.Stuck, resp.Crash)
	}
	s := resp.Stuck[0]
	var stacks strings.Builder
	for _, th := range s.Threads {
		stacks.WriteString(th.Name + "\n  " + strings.Join(th.Stack, "\n  ") + "\n")
	}
	if s.Name != "Bank.TransfersBetweenAccounts" || !strings.HasPrefix(s.Diagnosis, "deadlock") {
		t.Errorf("stuck %q: %s, want Bank.TransfersBetweenAccounts in a deadlock", s.Name, s.Diagnosis)
	}
	if !strings.HasSuffix(s.Rerun, " --gtest_filter=Bank.TransfersBetweenAccounts") {
		t.Errorf("stuck test's rerun %q, want it run alone", s.Rerun)
	}
	for _, fn := range []string{"lock_a_then_b", "lock_b_then_a"} {
		if !strings.Contains(stacks.String(), fn) {
			t.Errorf("stacks lack %s:\n%s", fn, stacks.String())
		}
	}
	if resp.Summary.Passed != 1 || resp.Summary.Stuck != 1 {
		t.Errorf("summary %+v, want Bank.Opens passed and one stuck", resp.Summary)
	}
	// The hint's command for the rest runs the two others, as Go's,
	// cargo's and Maven's do (snappy broken on purpose: 17 tests left,
	// and no command for them).
	if cmd, out, err := adapterstest.RunRest(t, resp.Hint, gtest.FixtureRoot(t)); err != nil || !strings.Contains(string(out), "[  PASSED  ] 2 tests.") {
		t.Errorf("%s: %v\n%s", cmd, err, out)
	}
	if took > 10*time.Second {
		t.Errorf("verdict took %v, want under 10 s", took)
	}
	t.Logf("%s after %v: %s\n%s", resp.Status, took, s.Diagnosis, stacks.String())
}
