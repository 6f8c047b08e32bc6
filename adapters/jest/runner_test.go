package jest_test

import (
	"bytes"
	"context"
	"os"
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

// TestStuckAfterTheTests: every test passed and what one of them opened
// keeps jest from exiting: a server (fixture linger), an interval
// (interval). The run is stuck after its tests, not in one: summary.stuck
// 0, the entry named by the command (not the last test, which jest's own
// state still names), the diagnosis says the process did not exit (not
// that a test awaits a promise) and names the interval, the hint gives
// jest's advice. Before, the command was counted a stuck test beside the
// two that passed, "the stuck test's stacks", and the interval was left
// to the ten-minute timeout.
func TestStuckAfterTheTests(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	fixtures, _ := filepath.Abs(filepath.Join("testdata", "fixtures"))
	adapterstest.NpmCI(t, fixtures)
	for _, tc := range []struct {
		fixture string
		timeout time.Duration
		has     string
	}{
		{"linger", 60 * time.Second, "what a test or hook opened and did not close"},
		{"interval", 0, "kept alive by setInterval 1000ms → <anonymous> (interval.test.js:7:15)"},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			t.Parallel()
			resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: filepath.Join(fixtures, tc.fixture), Framework: "jest",
				Timeout: tc.timeout}, runner.Options{DetailsDir: t.TempDir(), Overdue: adapterstest.Overdue})
			if err != nil {
				t.Fatal(err)
			}
			adapterstest.CheckAfterTests(t, resp, 2, tc.has, "--detectOpenHandles", 30*time.Second)
		})
	}
}

// TestStuckBesideIdleWorkers: a test awaits a promise that never
// settles while the workers that ran two quick files wait for more on
// their pipes, with no timeout (fixture idleworkers, --maxWorkers=3).
// Judged together, their waits made the hang "blocked on I/O"; the worker
// running a file says so (worker.cjs), and only it is judged: an async
// wait without end. Under the node on PATH and node 22 (EachNode).
func TestStuckBesideIdleWorkers(t *testing.T) { testutil.EachNode(t, testStuckBesideIdleWorkers) }

func testStuckBesideIdleWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	fixtures, _ := filepath.Abs(filepath.Join("testdata", "fixtures"))
	adapterstest.NpmCI(t, fixtures)
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: filepath.Join(fixtures, "idleworkers"), Framework: "jest",
		Command: "npx jest --maxWorkers=3", Timeout: 60 * time.Second}, runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	adapterstest.CheckAsyncHangBesideIdle(t, resp, "awaits a promise that never settles", 2)
}

// TestSnapshotUpdateKeepsHintedSnapshots: a snapshot named with a hint
// (toMatchSnapshot('hint'), key `NAME: hint 1`) that no longer matches.
// jest -u on the test's rerun (-t) would delete the other tests' hinted
// snapshots in the file (jest keeps a skipped test's `NAME 1` keys only),
// so the hint gives the update through strobe, whose setup file keeps
// them; run as given (the test and the command, as debug_test takes
// them), it updates that snapshot and leaves the other. Before, the hint
// said to add -u to the rerun. Run on a copy of the snaphints fixture
// beside it (jest is found hoisted there).
func TestSnapshotUpdateKeepsHintedSnapshots(t *testing.T) {
	if testing.Short() {
		t.Skip("runs jest three times")
	}
	fixtures, _ := filepath.Abs(filepath.Join("testdata", "fixtures"))
	adapterstest.NpmCI(t, fixtures)
	dir, err := os.MkdirTemp(fixtures, "tmp-hinted-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, f := range []string{"package.json", "hinted.test.js", "__snapshots__/hinted.test.js.snap"} {
		b, err := os.ReadFile(filepath.Join(fixtures, "snaphints", f))
		if f == "hinted.test.js" {
			b = bytes.Replace(b, []byte("'dedent(x)'"), []byte("'dedent(y)'"), 1)
		}
		if err == nil {
			_ = os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
			err = os.WriteFile(filepath.Join(dir, f), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	exec := func(req runner.Request) *report.Response {
		t.Helper()
		req.ProjectRoot, req.Timeout = dir, time.Minute
		resp, err := runner.Exec(context.Background(), req, runner.Options{DetailsDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := exec(runner.Request{})
	want := "strobe test --test 'hinted.test.js › macros › as a function' --command 'npx jest -u'"
	if resp.Status != report.Failed || !strings.Contains(resp.Hint, want) || !strings.Contains(resp.Hint, "would also delete") {
		t.Fatalf("status %s, hint %q; want failed and %q", resp.Status, resp.Hint, want)
	}
	resp = exec(runner.Request{Test: "hinted.test.js › macros › as a function", Command: "npx jest -u"})
	if resp.Status != report.Passed || resp.Summary.Passed != 1 {
		t.Errorf("the update: status %s, summary %+v; want the test passed", resp.Status, *resp.Summary)
	}
	snap, _ := os.ReadFile(filepath.Join(dir, "__snapshots__", "hinted.test.js.snap"))
	for _, key := range []string{"exports[`macros as a function: as a function 1`] = `\"dedent(y)\"`", "exports[`macros as a template string: as a template string 1`]", "exports[`plain 1`]"} {
		if !bytes.Contains(snap, []byte(key)) {
			t.Errorf("after the update the snapshot file lacks %s:\n%s", key, snap)
		}
	}
	if resp = exec(runner.Request{}); resp.Status != report.Passed {
		t.Errorf("after the update: status %s, hint %q; want passed", resp.Status, resp.Hint)
	}
}

// TestStuckRestWithoutIt: two jest workers each await a promise that
// never settles (as fixture idleworkers' hang does), one of the tests
// named with regexp characters, quotes, "; ", ". " and unicode; strobe
// stops the run, and the hint's command for the rest, pasted in a shell,
// runs the other tests of the run's selection (its -w 2 kept) and
// neither of those: each test prints its name as it starts. Before, the
// hint gave no command for the rest.
func TestStuckRestWithoutIt(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	fixtures, _ := filepath.Abs(filepath.Join("testdata", "fixtures"))
	adapterstest.NpmCI(t, fixtures)
	dir := adapterstest.ScratchBeside(t, fixtures, "tmp-rest-", "")
	files := map[string]string{
		"package.json": `{"name": "rest", "private": true}`,
		"hang.test.js": `test('quick', () => { console.log('RAN quick'); });
describe('blo\'ck', () => {
  test(` + strconv.Quote(`waits (a|b) [x] $1.50? ünï; it's "ok". yes`) + `, () => { console.log('RAN odd'); return new Promise(() => {}); }, 3600 * 1000);
});
`,
		"other.test.js": `test('elsewhere', () => { console.log('RAN elsewhere'); });
test('also waits', () => { console.log('RAN also waits'); return new Promise(() => {}); }, 3600 * 1000);
`,
	}
	adapterstest.WriteFiles(t, dir, files)
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: dir, Framework: "jest", Command: "npx jest -w 2", Timeout: time.Minute},
		runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != report.Stuck {
		t.Fatalf("status %s, hint %q: want stuck", resp.Status, resp.Hint)
	}
	cmd, out, err := adapterstest.RunRest(t, resp.Hint, dir)
	got := string(out)
	if err != nil || !strings.Contains(got, "RAN quick") || !strings.Contains(got, "RAN elsewhere") || strings.Contains(got, "RAN odd") || strings.Contains(got, "RAN also waits") {
		t.Errorf("%s: %v; want quick and elsewhere run, not the two that hung\n%s", cmd, err, got)
	}
}

// TestStuckSpin: a test that spins (fixture spin) is an endless loop,
// named, with its frame, run in band and in one of jest's workers (a
// cache of its own: with an earlier run's timings of the quick files
// jest runs them in band whatever -w says), under the node on PATH and
// node 22 (EachNode): its inspector, its stack frames and the process
// that runs the test are what node 22 may change.
func TestStuckSpin(t *testing.T) { testutil.EachNode(t, testStuckSpin) }

func testStuckSpin(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	fixtures, _ := filepath.Abs(filepath.Join("testdata", "fixtures"))
	adapterstest.NpmCI(t, fixtures)
	for _, tc := range []struct{ name, cmd string }{
		{"in band", "npx jest -i"},
		{"worker", "npx jest -w 2 --cacheDirectory " + t.TempDir()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: filepath.Join(fixtures, "spin"), Framework: "jest",
				Command: tc.cmd, Timeout: time.Minute}, runner.Options{DetailsDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != report.Stuck || len(resp.Stuck) == 0 {
				t.Fatalf("status %s, stuck %+v, hint %q: want stuck", resp.Status, resp.Stuck, resp.Hint)
			}
			s := resp.Stuck[0]
			var stacks strings.Builder
			for _, th := range s.Threads {
				stacks.WriteString(th.Name + "\n  " + strings.Join(th.Stack, "\n  ") + "\n")
			}
			if s.Name != "spins" || !strings.HasPrefix(s.Diagnosis, "endless loop") || !strings.Contains(stacks.String(), "spinForever (spin.test.js:4:") {
				t.Errorf("stuck %q: %s\n%s\nwant spins, an endless loop in spinForever (spin.test.js:4)", s.Name, s.Diagnosis, stacks.String())
			}
			if s.ElapsedMS > 20000 {
				t.Errorf("verdict %d ms into the test, want within 20 s", s.ElapsedMS)
			}
			if resp.Summary.Passed < 1 {
				t.Errorf("summary %+v, want the quick test passed", resp.Summary)
			}
			t.Logf("%s after %d ms: %s\n%s", s.Name, s.ElapsedMS, s.Diagnosis, stacks.String())
		})
	}
}
