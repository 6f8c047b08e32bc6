package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// runNode runs the node hang fixture through the generic adapter.
func runNode(t *testing.T, timeout time.Duration, args string) *report.Response {
	t.Helper()
	testutil.RequireTool(t, "node")
	root, _ := filepath.Abs("../stuck/testdata/node")
	resp, _ := runReq(t, Request{ProjectRoot: root, Command: "node hang.js " + args, Timeout: timeout})
	return resp
}

// TestStuckNode: a synchronous endless loop, on the main thread or a
// worker thread, is an endless loop with the JavaScript frame that spins;
// so is one in a child process its parent waits for (jest's workers); a
// wait on shared memory nobody notifies is a deadlock, with its frame;
// a promise that never settles beside an interval ends at the timeout
// with the event loop called idle and the interval named. runReq checks
// that no process of the run is left.
func TestStuckNode(t *testing.T) {
	parallel(t, false)
	type testCase struct {
		mode      string
		timeout   time.Duration
		status    report.Status
		diagnosis string
		stack     string
		trace     string // in suggested_traces; "" for none
	}
	for _, tc := range []testCase{
		{"busy", 30 * time.Second, report.Stuck, "endless loop", "main thread\n  spinForever (hang.js:14:3)", "spinForever"},
		{"workerbusy", 30 * time.Second, report.Stuck, "endless loop", "worker thread 1 (hang.js)\n  spinForever (hang.js:14:3)", "spinForever"},
		{"forkbusy", 30 * time.Second, report.Stuck, "endless loop", "spinForever (hang.js:14:3)", "spinForever"},
		{"atomics", 30 * time.Second, report.Stuck, "deadlock", "main thread\n  waitForever (hang.js:29:11)", "waitForever"},
		{"promise", 4 * time.Second, report.Timeout, "event loop idle", "main thread (event loop idle)\n  waiting on setInterval 200ms → <anonymous> (hang.js:21:15)", ""},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			parallel(t, strings.HasSuffix(tc.mode, "busy"))
			start := time.Now()
			resp := runNode(t, tc.timeout, tc.mode)
			if resp.Status != tc.status {
				t.Fatalf("status = %s, want %s; stuck %+v", resp.Status, tc.status, resp.Stuck)
			}
			if len(resp.Stuck) == 0 {
				t.Fatal("no stuck[] entry")
			}
			s := resp.Stuck[0]
			if !strings.HasPrefix(s.Diagnosis, tc.diagnosis) {
				t.Errorf("diagnosis %q, want it to start with %q", s.Diagnosis, tc.diagnosis)
			}
			if txt := stackText(s); !strings.Contains(txt, tc.stack) {
				t.Errorf("stacks lack %q:\n%s", tc.stack, txt)
			}
			if tc.trace != "" && !strings.Contains(strings.Join(s.SuggestedTraces, " "), tc.trace) {
				t.Errorf("suggested_traces %v lack %s", s.SuggestedTraces, tc.trace)
			}
			t.Logf("%s after %v: %s: %s\n%s", resp.Status, time.Since(start), s.Name, s.Diagnosis, stackText(s))
		})
	}
}

// TestNotStuckNode: a silent 9 s timer and 10 s of silent JavaScript
// computation are honest work.
func TestNotStuckNode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 10 s fixtures")
	}
	parallel(t, false)
	for _, args := range []string{"sleep 9", "work 10"} {
		t.Run(args, func(t *testing.T) {
			parallel(t, strings.HasPrefix(args, "work"))
			if resp := runNode(t, 60*time.Second, args); resp.Status != report.Passed {
				t.Fatalf("status = %s, want passed; stuck: %+v", resp.Status, resp.Stuck)
			}
		})
	}
}

func TestNodeEnv(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		want string // the NODE_OPTIONS node sees (the last)
	}{
		{"none", []string{"PATH=/bin"}, "--inspect-port=0"},
		{"appended to the user's", []string{"NODE_OPTIONS=--max-old-space-size=4096"}, "--max-old-space-size=4096 --inspect-port=0"},
		{"the last one counts", []string{"NODE_OPTIONS=--inspect-port=9333", "NODE_OPTIONS=--trace-warnings"}, "--trace-warnings --inspect-port=0"},
		{"the user's port wins", []string{"NODE_OPTIONS=--inspect-port=9333"}, "--inspect-port=9333"},
		{"the user's debugger wins", []string{"NODE_OPTIONS=--inspect=0.0.0.0:9229"}, "--inspect=0.0.0.0:9229"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			for _, kv := range nodeEnv(tc.env) {
				if v, ok := strings.CutPrefix(kv, "NODE_OPTIONS="); ok {
					got = v
				}
			}
			if got != tc.want {
				t.Errorf("NODE_OPTIONS = %q, want %q", got, tc.want)
			}
		})
	}
}

var vitestInstall struct {
	once sync.Once
	err  error
	out  []byte
}

// vitestFixture installs stuck/testdata/vitest's locked dependencies
// (npm ci, once per test binary, into the fixture, ignored by git) and
// answers its directory.
func vitestFixture(t *testing.T) string {
	t.Helper()
	npm := testutil.RequireTool(t, "npm")
	testutil.RequireTool(t, "node")
	dir, _ := filepath.Abs("../stuck/testdata/vitest")
	vitestInstall.once.Do(func() {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", ".bin", "vitest")); err == nil {
			return
		}
		cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		vitestInstall.out, vitestInstall.err = cmd.CombinedOutput()
	})
	if vitestInstall.err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, vitestInstall.err, vitestInstall.out)
	}
	return dir
}

// TestStuckVitest: under vitest's threads pool a test's endless loop runs
// in a worker thread: the verdict shows its JavaScript frame there; under
// the forks pool, in a child process. A test awaiting a promise that never
// settles beside an interval ends at the timeout with the idle event loop
// and the interval named; without one, it is an async wait within
// seconds, and one awaiting a child that never exits is blocked on it,
// under either pool. No process of the run is left (runReq).
func TestStuckVitest(t *testing.T) {
	parallel(t, false)
	testStuckVitest(t)
}

// TestStuckVitestNode22: TestStuckVitest's cases under node 22
// (testutil.UseNode22). It sets PATH for the process, so it runs before
// the package's parallel tests, not beside them; TestStuckVitest stays
// among them, where its verdicts' waits overlap theirs (under EachNode
// its half under the node on PATH, about 25 s alone, would run alone
// too).
func TestStuckVitestNode22(t *testing.T) {
	testutil.UseNode22(t)
	testStuckVitest(t)
}

func testStuckVitest(t *testing.T) {
	dir := vitestFixture(t)
	for _, tc := range []struct {
		name      string
		args      string
		timeout   time.Duration
		status    report.Status
		diagnosis string
		stack     string
		test      string // the stuck test's name; "" to leave unchecked
	}{
		{"threads busy", "--pool threads -t 'busy loop'", 60 * time.Second, report.Stuck, "endless loop", "worker thread 1 (node_modules/tinypool/dist/entry/worker.js)\n  spinForever (hang.test.js:8:3)", ""},
		{"forks busy", "--pool forks -t 'busy loop'", 60 * time.Second, report.Stuck, "endless loop", "spinForever (hang.test.js:8:3)", ""},
		{"threads never settles", "--pool threads -t 'never settles'", 8 * time.Second, report.Timeout, "event loop idle", "waiting on setInterval 200ms → <anonymous> (hang.test.js:18:15)", "never settles"},
		// No timer of the test's: V8's memory reducer's tasks on the event
		// loops do not hold the verdict off (they did for 21 to 25 s), and
		// vitest's process beside its fork only waits for it.
		{"forks promise forever", "--pool forks -t 'promise forever'", 40 * time.Second, report.Stuck, "async wait without end", "", "promise forever"},
		{"forks awaits a child", "--pool forks -t 'awaits a child'", 40 * time.Second, report.Stuck, "blocked on a child process", "", "awaits a child"},
		{"threads awaits a child", "--pool threads -t 'awaits a child'", 40 * time.Second, report.Stuck, "blocked on a child process", "", "awaits a child"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if strings.HasSuffix(tc.name, "busy") {
				// The spins one at a time, before the waiting cases start
				// their vitests: beside each other and four vitests
				// starting on two cores, a spin got too little CPU to be
				// sampled alike 16 times in a row (verdicts at 15 to 20 s,
				// in CI and on a quiet machine).
				cpuSlots <- struct{}{}
				t.Cleanup(func() { <-cpuSlots })
			} else {
				parallel(t, false)
			}
			start := time.Now()
			resp, _ := runReq(t, Request{ProjectRoot: dir, Command: "node_modules/.bin/vitest run " + tc.args, Timeout: tc.timeout})
			if resp.Status != tc.status {
				t.Fatalf("status = %s, want %s; stuck %+v", resp.Status, tc.status, resp.Stuck)
			}
			s := resp.Stuck[0]
			if !strings.HasPrefix(s.Diagnosis, tc.diagnosis) {
				t.Errorf("diagnosis %q, want it to start with %q", s.Diagnosis, tc.diagnosis)
			}
			if txt := stackText(s); !strings.Contains(txt, tc.stack) {
				t.Errorf("stacks lack %q:\n%s", tc.stack, txt)
			}
			if txt := stackText(s); strings.HasSuffix(tc.name, "busy") && (strings.Contains(txt, "@vitest/runner") || !strings.Contains(txt, " more frames")) {
				// vitest's runner below the test: 15 of 17 frames of
				// entities' spin in a library function.
				t.Errorf("stacks list vitest's runner below the test, want it counted:\n%s", txt)
			}
			if tc.test != "" && s.Name != tc.test {
				t.Errorf("stuck test %q, want %q (from vitest's expect state)", s.Name, tc.test)
			}
			// Within 8 s; a spin in a worker thread's JIT code within
			// 20: in one clean-clone CI run (2 cores) its 16 identical
			// samples began only after 10 s of silence (verdict at 17.5
			// s), as they do when the samples land on many instructions.
			within := int64(8000)
			if tc.name == "threads busy" {
				within = 20000
			}
			if tc.status == report.Stuck && s.ElapsedMS > within {
				t.Errorf("verdict %d ms into the test, want within %d s", s.ElapsedMS, within/1000)
			}
			t.Logf("%s after %v: %s: %s\n%s", resp.Status, time.Since(start), s.Name, s.Diagnosis, stackText(s))
		})
	}
}

func TestInspectorLine(t *testing.T) {
	for line, want := range map[string]bool{
		"Debugger listening on ws://127.0.0.1:43721/e460df53-9340-4e1c-abed-72056651b60b": true,
		"For help, see: https://nodejs.org/en/docs/inspector":                             true,
		"For help, see: https://nodejs.org/learn/getting-started/debugging":               true, // node 22
		"Debugger ending on ws://127.0.0.1:33021/6535fac3-588c-463d-b13b-1a94a1c99825":    true,
		"For help, see: https://nodejs.org/api/test.html":                                 false,
		"Debugger attached.":                        true,
		"Waiting for the debugger to disconnect...": true,
		"Debugger attached. (not ours)":             false,
		"  ✓ adds 1 + 2":                            false,
	} {
		if got := inspectorLine([]byte(line)); got != want {
			t.Errorf("inspectorLine(%q) = %v, want %v", line, got, want)
		}
	}
}

func TestIdleDiagnosis(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handles []string
		after   bool // no test runs any more
		want    string
	}{
		{"none", nil, false, "event loop idle: no JavaScript running at the 30s timeout; no timer or handle of its own keeps it alive (waiting on its parent or the framework)"},
		{"timers first, repeats counted", []string{"MessagePort", "MessagePort", "setInterval 200ms → poll (/p/test/a.test.js:3:15)", "Server listening on 127.0.0.1:8080", "Socket to 127.0.0.1:5432", "setTimeout 60000ms → <anonymous> (/p/lib/x.js:9:3)"}, false,
			"event loop idle: no JavaScript running at the 30s timeout, kept alive by setInterval 200ms → poll (test/a.test.js:3:15), setTimeout 60000ms → <anonymous> (lib/x.js:9:3), MessagePort ×2 and 2 more: a test awaits a promise that never settles"},
		{"after the tests", []string{"Server listening on 127.0.0.1:8080"}, true,
			"event loop idle: no JavaScript running at the 30s timeout, kept alive by Server listening on 127.0.0.1:8080: what a test or hook opened and did not close"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := idleDiagnosis(30*time.Second, tc.handles, "/p", tc.after); got != tc.want {
				t.Errorf("idleDiagnosis =\n %s\nwant\n %s", got, tc.want)
			}
		})
	}
}

// TestStuckVitestBesideIdleForks: a test awaits a promise that never
// settles while the forks that ran two quick files wait for more on their
// pipes, with no timeout (three forks kept: --maxWorkers=3
// --minWorkers=3, as on a machine with more cores). Judged together,
// their waits made the hang "blocked on I/O"; the fork that began a test
// of a file not yet ended (setup.mjs's start, with its pid) is the one
// judged: an async wait without end. Run beside the vitest fixture, which
// holds the vitest it finds.
func TestStuckVitestBesideIdleForks(t *testing.T) {
	parallel(t, false)
	dir := adapterstest.ScratchBeside(t, vitestFixture(t), "tmp-idle-", "")
	adapterstest.WriteFiles(t, dir, map[string]string{
		"package.json": `{"name": "idle-forks", "private": true, "type": "module", "scripts": {"test": "vitest run --maxWorkers=3 --minWorkers=3"}}` + "\n",
		"hang.test.js": "import { test } from 'vitest'\n\ntest('awaits a promise that never settles', () => new Promise(() => {}), 3600 * 1000)\n",
		"one.test.js":  "import { expect, test } from 'vitest'\n\ntest('quick', () => { expect(1).toBe(1) })\n",
		"two.test.js":  "import { expect, test } from 'vitest'\n\ntest('quick', () => { expect(1).toBe(1) })\n",
	})
	resp, _ := runReq(t, Request{ProjectRoot: dir, Timeout: 40 * time.Second})
	adapterstest.CheckAsyncHangBesideIdle(t, resp, "awaits a promise that never settles", 2)
}

// TestStuckVitest2: vitest 2 has no reporter event for a test's start,
// yet a test spinning in it is judged stuck in seconds, not left to the
// build's half hour, and named (strobe's setup file writes its start);
// the test that passed just before it is in the answer: vitest 2's JSON
// report comes only at the end, and a run strobe stopped had no test at
// all.
func TestStuckVitest2(t *testing.T) {
	parallel(t, true)
	ws, _ := filepath.Abs("../adapters/vitest/testdata/js")
	adapterstest.NpmCI(t, ws)
	start := time.Now()
	resp, _ := runReq(t, Request{ProjectRoot: filepath.Join(ws, "projects", "vitest2"), Env: map[string]string{"STROBE_FIXTURE_SPIN": "1"}, Timeout: 60 * time.Second})
	if resp.Status != report.Stuck || len(resp.Stuck) == 0 {
		t.Fatalf("status = %s, want stuck; stuck %+v", resp.Status, resp.Stuck)
	}
	s := resp.Stuck[0]
	if !strings.HasPrefix(s.Diagnosis, "endless loop") || !strings.Contains(stackText(s), "spin.test.js:9") {
		t.Errorf("diagnosis %q, stacks:\n%s\nwant an endless loop at spin.test.js:9", s.Diagnosis, stackText(s))
	}
	if s.Name != "spins" || !strings.HasSuffix(s.Rerun, " spin.test.js -t '^spins$'") {
		t.Errorf("stuck %q, rerun %q; want spins, run alone", s.Name, s.Rerun)
	}
	if resp.Summary.Passed < 1 {
		t.Errorf("summary %+v, want the test that passed before the spin", resp.Summary)
	}
	if resp.Summary.Stuck != 1 {
		t.Errorf("summary %+v, want the one test stuck", resp.Summary)
	}
	if s.ElapsedMS > 15000 {
		t.Errorf("verdict %d ms into the run, want within 15 s", s.ElapsedMS)
	}
	t.Logf("%s after %v: %s", resp.Status, time.Since(start), s.Diagnosis)
}
