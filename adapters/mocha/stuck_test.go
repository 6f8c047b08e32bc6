package mocha_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
)

// TestStuckThroughRunner runs the stuck fixture's tests one at a time
// through the runner, mocha's timeout off, under the node on PATH and
// node 22 (EachNode). A test that spins is an endless loop with its
// frame. A test awaiting a promise that
// never settles is an async wait without end within 8 s of its start,
// though V8's memory reducer wakes the event loop about 8 s apart and an
// http server's unref'd 30 s interval is pending: neither is a
// JavaScript timer that may settle anything (before, 9.6 s and 35 s). A
// test awaiting a child that never exits is blocked on that child, named
// (before, an async wait or a deadlock on the idle node child's threads).
// A test awaiting its own 9 s timer passes. Under node 22 the node child
// was named by node's whole path, which node 22 installed from npm makes
// 60 characters long, and the command's 80 left no room for its script.
func TestStuckThroughRunner(t *testing.T) { testutil.EachNode(t, testStuckThroughRunner) }

func testStuckThroughRunner(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a 9 s fixture")
	}
	fixtures, _ := filepath.Abs(filepath.Join("testdata", "fixtures", "mocha"))
	adapterstest.NpmCI(t, fixtures)
	for _, tc := range []struct {
		test   string
		status report.Status
		diag   string // the diagnosis starts with it
		has    string // and holds it
	}{
		{"spins", report.Stuck, "endless loop", "identical stacks"},
		{"awaits a promise that never settles", report.Stuck, "async wait without end", "no JavaScript timer due"},
		{"awaits a promise beside a server", report.Stuck, "async wait without end", "no JavaScript timer due"},
		{"awaits a child that never exits", report.Stuck, "blocked on a child process", "its child `sleep 1000`"},
		{"awaits a node child that never exits", report.Stuck, "blocked on a child process", "setTimeout(() => {}, 3600e3)`"},
		{"awaits its own 9 s timer", report.Passed, "", ""},
	} {
		t.Run(tc.test, func(t *testing.T) {
			t.Parallel()
			resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: filepath.Join(fixtures, "stuck"), Framework: "mocha",
				Test: "stuck " + tc.test, Timeout: 40 * time.Second}, runner.Options{DetailsDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != tc.status {
				t.Fatalf("status %s, stuck %+v, want %s", resp.Status, resp.Stuck, tc.status)
			}
			if tc.status != report.Stuck {
				return
			}
			s := resp.Stuck[0]
			if !strings.HasPrefix(s.Diagnosis, tc.diag) || !strings.Contains(s.Diagnosis, tc.has) {
				t.Errorf("diagnosis %q, want %q … %q", s.Diagnosis, tc.diag, tc.has)
			}
			if tc.test == "spins" {
				var stacks []string
				for _, th := range s.Threads {
					stacks = append(stacks, th.Stack...)
				}
				if len(stacks) == 0 || !strings.HasPrefix(stacks[0], "spinForever (test/stuck.spec.js:9:") {
					t.Errorf("stacks %q, want the spin's frame first: spinForever (test/stuck.spec.js:9)", stacks)
				}
			}
			if s.ElapsedMS > 8000 {
				t.Errorf("verdict %d ms into the test, want within 8 s", s.ElapsedMS)
			}
			t.Logf("%s after %d ms: %s", s.Name, s.ElapsedMS, s.Diagnosis)
		})
	}
}

// TestStuckAfterTheTests: every test passed and what one of them opened
// keeps mocha (without --exit) from exiting: a server (fixture linger), an
// interval (interval). The run is stuck after its tests, not in one:
// summary.stuck 0, the diagnosis says the process did not exit (not that
// a test awaits a promise) and names the interval, the hint says to close
// it in a hook. Before, the command was counted a stuck test beside the
// two that passed, "the stuck test's stacks", and the interval, whose
// timer wakes the event loop, was left to the ten-minute timeout: under
// the default timeout, a process that stays idle 20 s after its framework
// reported its run's end is stuck.
func TestStuckAfterTheTests(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	fixtures, _ := filepath.Abs(filepath.Join("testdata", "fixtures", "mocha"))
	adapterstest.NpmCI(t, fixtures)
	for _, tc := range []struct {
		fixture string
		timeout time.Duration
		has     string
	}{
		{"linger", 60 * time.Second, "what a test or hook opened and did not close"},
		{"interval", 0, "kept alive by setInterval 1000ms → <anonymous> (test/interval.js:7:15)"},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			t.Parallel()
			resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: filepath.Join(fixtures, tc.fixture), Framework: "mocha",
				Timeout: tc.timeout}, runner.Options{DetailsDir: t.TempDir(), Overdue: adapterstest.Overdue})
			if err != nil {
				t.Fatal(err)
			}
			adapterstest.CheckAfterTests(t, resp, 2, tc.has, "after() or afterEach() hook", 30*time.Second)
		})
	}
}

// TestStuckParallel: mocha --parallel's workers send a file's events only
// once the file is done, so a hung test was named by no test (the
// command's name stood in). Its worker now says which test runs: a test
// awaiting a promise that never settles is named, with its rerun, and a
// test that had passed before it in the same worker is not among the
// stuck at the timeout (fixture hang: an interval keeps it alive, which
// only the timeout ends). With `parallel: true` in the config
// (parallelrc), not on the command, the same: mocha's own process, which
// only waits for its workers, is no test process (before, its wait on
// their pipes read as the test "blocked on I/O"). With more workers than
// the hang needs (idlejobs: --jobs 3, two quick files beside it), the
// workers done with their files wait on their pipes without a timeout:
// only the worker running a test is judged (before, "blocked on I/O").
func TestStuckParallel(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	fixtures, _ := filepath.Abs(filepath.Join("testdata", "fixtures", "mocha"))
	adapterstest.NpmCI(t, fixtures)
	for _, tc := range []struct {
		fixture, command, test string
		timeout                time.Duration
		status                 report.Status
		want                   string
	}{
		{"stuck", "npx mocha --parallel --timeout 0", "stuck awaits a promise that never settles", 40 * time.Second, report.Stuck, "stuck › awaits a promise that never settles"},
		{"hang", "npx mocha --parallel --timeout 0", "", 6 * time.Second, report.Timeout, "waits for ever"},
		{"parallelrc", "", "", 40 * time.Second, report.Stuck, "awaits a promise that never settles"},
		{"idlejobs", "npx mocha --parallel --jobs 3 --timeout 0", "", 40 * time.Second, report.Stuck, "hangs › awaits a promise that never settles"},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			t.Parallel()
			resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: filepath.Join(fixtures, tc.fixture), Framework: "mocha",
				Command: tc.command, Test: tc.test, Timeout: tc.timeout}, runner.Options{DetailsDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != tc.status || len(resp.Stuck) != 1 {
				t.Fatalf("status %s, stuck %+v; want %s, one stuck test", resp.Status, resp.Stuck, tc.status)
			}
			s := resp.Stuck[0]
			if s.Name != tc.want || !strings.Contains(s.Rerun, "--grep") {
				t.Errorf("stuck %q, rerun %q; want %q and its --grep", s.Name, s.Rerun, tc.want)
			}
			if tc.status == report.Stuck && !strings.HasPrefix(s.Diagnosis, "async wait without end") {
				t.Errorf("diagnosis %q, want an async wait without end", s.Diagnosis)
			}
		})
	}
}

// TestStuckBesideAWorkerExit: under mocha --parallel, a test ends its
// worker (process.exit(0)) while a test in another worker hangs. mocha
// says nothing of the ended worker until its run's end, which the hang
// never reaches: the test was called stuck beside the hung one, its
// process long gone. The worker says it exits: that test fails, "its
// worker exited with code 0", and the hung test alone is stuck.
func TestStuckBesideAWorkerExit(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	fixtures, _ := filepath.Abs(filepath.Join("testdata", "fixtures", "mocha"))
	adapterstest.NpmCI(t, fixtures)
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: filepath.Join(fixtures, "workerexit"), Framework: "mocha",
		Command: "npx mocha --parallel --jobs 2 --timeout 0", Timeout: 40 * time.Second}, runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != report.Stuck || len(resp.Stuck) != 1 || resp.Stuck[0].Name != "awaits a promise that never settles" {
		t.Fatalf("status %s, stuck %+v; want the hung test alone stuck", resp.Status, resp.Stuck)
	}
	if len(resp.Failures) != 1 || resp.Failures[0].Name != "exits its worker" || !strings.Contains(resp.Failures[0].Message, "worker exited with code 0") {
		t.Errorf("failures %+v, want the test that ended its worker", resp.Failures)
	}
}

// TestStuckRestWithoutIt: strobe stops a mocha run (its timeout off) at a
// test that awaits a promise that never settles, named with regexp
// characters, quotes, "; ", ". " and unicode inside a describe block
// (odd), and at a "before all" hook that does (fixture hookhang); the
// hint's command for the rest, pasted in a shell, runs the run's other
// tests, before and after it and in another file, and not the test that
// hung, or the hook's block. Before, the hint gave no command for the
// rest.
func TestStuckRestWithoutIt(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	fixtures, _ := filepath.Abs(filepath.Join("testdata", "fixtures", "mocha"))
	adapterstest.NpmCI(t, fixtures)
	odd := adapterstest.ScratchBeside(t, fixtures, "tmp-rest-", "")
	files := map[string]string{
		"test/a.spec.js": `describe('blo\'ck', function () {
  it('quick', function () {});
  it(` + strconv.Quote(`waits (a|b) [x] $1.50? ünï; it's "ok". yes`) + `, async function () { await new Promise(() => {}); });
  it('after', function () {});
});
`,
		"test/b.spec.js": `it('elsewhere', function () {});
`,
	}
	adapterstest.WriteFiles(t, odd, files)
	for _, tc := range []struct {
		name, root string
		ran        []string
		notRan     string
	}{
		{"odd", odd, []string{"quick", "after", "elsewhere", "3 passing"}, "waits"},
		{"hookhang", filepath.Join(fixtures, "hookhang"), []string{"passes after its hook", "1 passing"}, "never runs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: tc.root, Framework: "mocha", Command: "npx mocha --timeout 0",
				Timeout: time.Minute}, runner.Options{DetailsDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != report.Stuck {
				t.Fatalf("status %s, hint %q: want stuck", resp.Status, resp.Hint)
			}
			cmd, out, err := adapterstest.RunRest(t, resp.Hint, tc.root)
			got := string(out)
			for _, want := range tc.ran {
				if !strings.Contains(got, want) {
					err = fmt.Errorf("%q did not run", want)
				}
			}
			if err != nil || strings.Contains(got, tc.notRan) {
				t.Errorf("%s: %v; want %q run, not %q\n%s", cmd, err, tc.ran, tc.notRan, got)
			}
		})
	}
}
