package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
)

// TestNextestFlakyInAnswer: a test cargo-nextest retried and then passed
// is in the answer's flaky list, as strobe's own retries put it.
func TestNextestFlakyInAnswer(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	testutil.RequireTool(t, "cargo-nextest")
	root := t.TempDir()
	testutil.CopyTree(t, filepath.Join("..", "adapters", "nextest", "testdata", "fixtures", "ntdemo"), root)
	resp, err := Exec(context.Background(), Request{ProjectRoot: root, Framework: "nextest", Timeout: 3 * time.Minute},
		Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Summary == nil || resp.Summary.Flaky != 1 || len(resp.Flaky) != 1 {
		t.Fatalf("status %s, hint %q, summary %+v, flaky %+v: want the one test nextest retried", resp.Status, resp.Hint, resp.Summary, resp.Flaky)
	}
	f := resp.Flaky[0]
	if f.Name != "flaky" || f.Attempts != 2 || f.FirstFailure.File != "tests/integration.rs" || f.FirstFailure.Line == 0 {
		t.Errorf("flaky = %+v, want flaky, 2 attempts, first failure in tests/integration.rs", f)
	}
}

// TestStuckNextest: a busy loop under cargo nextest run is stuck, and the
// answer says what nextest never started (4 of the fixture's 5 tests, one
// at a time under the command's -j 1) and gives the command that runs the
// rest without what hung, the command's own -j 1 kept, and the stuck
// test's own rerun (it had none). That command's
// filterset selects the 4 others in a real nextest (listed: run, it would
// hang on the fixture's deadlock). Before, the hint said nothing of the
// tests left unrun.
func TestStuckNextest(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	testutil.RequireTool(t, "cargo-nextest")
	testutil.RequireTool(t, "eu-stack")
	root, _ := filepath.Abs("../stuck/testdata/rustdeadlock")
	target := filepath.Join(os.TempDir(), "strobe-stuck-cargo-target") // TestStuckCargo's
	resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "nextest", Command: "cargo nextest run -j 1",
		Env: map[string]string{"CARGO_TARGET_DIR": target}, Timeout: 60 * time.Second})
	if resp.Status != report.Stuck || len(resp.Stuck) == 0 || resp.Stuck[0].Name != "tests::busy_loop" {
		t.Fatalf("status = %s, stuck %+v, want tests::busy_loop stuck", resp.Status, resp.Stuck)
	}
	if want := "CARGO_TARGET_DIR=" + target + " cargo nextest run -p rustdeadlock --lib -E 'test(=tests::busy_loop)'"; resp.Stuck[0].Rerun != want {
		t.Errorf("stuck test's rerun %q, want %q", resp.Stuck[0].Rerun, want)
	}
	const rest = "cargo nextest run -j 1 --no-fail-fast -E 'not (binary_id(rustdeadlock) & test(=tests::busy_loop))'"
	// The run's --env in front, as in front of a rerun.
	want := "nextest was stopped at what hung: 4 more tests of the 5 it would run never started; to run the rest without what hung: CARGO_TARGET_DIR=" + target + " " + rest
	if !strings.Contains(resp.Hint, want) {
		t.Fatalf("hint %q\nlacks %q", resp.Hint, want)
	}
	argv, _ := shell.Split(rest)
	list := exec.Command("cargo", append([]string{"nextest", "list"}, argv[6:]...)...) // without "run -j 1 --no-fail-fast"
	list.Dir, list.Env = root, append(os.Environ(), "CARGO_TARGET_DIR="+target)
	out, err := list.Output()
	if got := strings.Fields(string(out)); err != nil || !slices.Equal(got, []string{"rustdeadlock", "tests::deadlock", "rustdeadlock", "tests::quick",
		"rustdeadlock", "tests::sleep_then_pass", "rustdeadlock", "tests::sleeps_past_the_timeout"}) {
		t.Errorf("%v lists %q (%v), want the 4 other tests", list.Args, out, err)
	}
}

// TestNextestListFailedIsError: a run that nextest stops before any test
// because it cannot list them (a test binary that fails when asked for
// its list, or one that does not answer it as libtest does) is an error,
// not a failed run: nothing ran, so nothing failed. The hint says which
// binary failed and what it said, and gives the command that shows the
// error again, which does.
func TestNextestListFailedIsError(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	testutil.RequireTool(t, "cargo-nextest")
	for _, tc := range []struct {
		fixture string
		said    []string // in the hint, and in what `cargo nextest list` prints
	}{
		{"listfails", []string{"needsdata: no tests/data directory to read the cases from"}},
		{"unlisted", []string{"`unlisted::checks`", `did not end with the string ": test"`}},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			root := t.TempDir()
			testutil.CopyTree(t, filepath.Join("..", "adapters", "nextest", "testdata", "fixtures", tc.fixture), root)
			resp, err := Exec(context.Background(), Request{ProjectRoot: root, Framework: "nextest", Timeout: 3 * time.Minute},
				Options{DetailsDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != report.Error || !strings.Contains(resp.Error, "creating test list failed") {
				t.Errorf("status %s, error %q, crash %+v: want an error that says nextest could not list the tests", resp.Status, resp.Error, resp.Crash)
			}
			const see = "`cargo nextest list` shows nextest's whole error"
			for _, want := range append(tc.said, see) {
				if !strings.Contains(resp.Hint, want) {
					t.Errorf("hint %q\nlacks %q", resp.Hint, want)
				}
			}
			cmd := exec.Command("cargo", "nextest", "list")
			cmd.Dir = root
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Errorf("cargo nextest list succeeded:\n%s", out)
			}
			for _, want := range tc.said {
				if !strings.Contains(string(out), want) {
					t.Errorf("cargo nextest list does not show %q:\n%s", want, out)
				}
			}
		})
	}
}

// TestNextestEachCrashed: nextest runs every test in a process of its own;
// the fixture's segfault and aborts each die of a signal of their own. The
// hint says that each crashed, and of what, not that one of them did it.
func TestNextestEachCrashed(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	testutil.RequireTool(t, "cargo-nextest")
	root, err := filepath.Abs(filepath.Join("..", "adapters", "nextest", "testdata", "fixtures", "ntdemo"))
	if err != nil {
		t.Fatal(err)
	}
	resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "nextest", Timeout: 3 * time.Minute,
		Command: "cargo nextest run --test integration -E 'test(=segfault) | test(=aborts)'"})
	if resp.Status != report.Crashed || resp.Crash == nil || !slices.Equal(resp.Crash.RunningTests, []string{"aborts", "segfault"}) {
		t.Fatalf("status %s, crash %+v: want crashed, naming both tests", resp.Status, resp.Crash)
	}
	want := "each of aborts, segfault crashed, each in a test process of its own (aborts died of SIGABRT (signal 6); segfault died of SIGSEGV (signal 11)): rerun each alone"
	if !strings.Contains(resp.Hint, want) || strings.Contains(resp.Hint, "one of them did it") {
		t.Errorf("hint %q\nwant %q, and not that one of them did it", resp.Hint, want)
	}
}
