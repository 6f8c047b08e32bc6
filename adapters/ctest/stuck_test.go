package ctest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/adapters/adapterstest"
	"strobe/adapters/all"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
)

// TestStuckThroughRunner runs testdata/stuck through the runner: CTest
// only waits, so the stuck detector judges the test's own process, calls
// its lock-order deadlock within seconds, names the CTest test (read live
// from ctest's Start line) and shows both threads' C++ frames.
func TestStuckThroughRunner(t *testing.T) {
	testutil.RequireTool(t, "cmake")
	testutil.RequireTool(t, "ctest")
	testutil.RequireTool(t, "g++")
	testutil.RequireTool(t, "eu-stack")
	if _, err := all.Lookup("ctest"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("adapters/all does not list ctest")
		}
		t.Skip("adapters/all does not list ctest yet")
	}
	src, _ := filepath.Abs(filepath.Join("testdata", "stuck"))
	root := t.TempDir()
	for _, argv := range [][]string{{"cmake", "-S", src, "-B", filepath.Join(root, "build")}, {"cmake", "--build", filepath.Join(root, "build")}} {
		if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s%v", out, err)
		}
	}
	start := time.Now()
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Timeout: 60 * time.Second}, runner.Options{DetailsDir: t.TempDir()})
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
	if s.Name != "bank_transfers" || !strings.HasPrefix(s.Diagnosis, "deadlock") {
		t.Errorf("stuck %q: %s, want bank_transfers in a deadlock", s.Name, s.Diagnosis)
	}
	if !strings.Contains(s.Rerun, "bank_transfers") {
		t.Errorf("stuck test's rerun %q, want it run alone", s.Rerun)
	}
	for _, fn := range []string{"lock_a_then_b", "lock_b_then_a"} {
		if !strings.Contains(stacks.String(), fn) {
			t.Errorf("stacks lack %s:\n%s", fn, stacks.String())
		}
	}
	if resp.Summary.Passed != 1 || resp.Summary.Stuck != 1 {
		t.Errorf("summary %+v, want bank_opens passed and one stuck", resp.Summary)
	}
	// CTest never started bank_closes: the hint counts it, and its command
	// for the rest runs it (and bank_opens) without bank_transfers.
	if !strings.Contains(resp.Hint, "1 of its 3 tests did not run") {
		t.Fatalf("hint %q: want the one test never started counted", resp.Hint)
	}
	rest, out, err := adapterstest.RunRest(t, resp.Hint, root)
	if err != nil || !strings.Contains(string(out), "100% tests passed, 0 tests failed out of 2") {
		t.Errorf("the rest's command %q: %v\n%s", rest, err, out)
	}
	if took > 15*time.Second {
		t.Errorf("verdict took %v, want under 15 s", took)
	}
	t.Logf("%s after %v: %s\n%s", resp.Status, took, s.Diagnosis, stacks.String())
}
