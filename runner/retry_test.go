package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/generic"
	"strobe/details"
	"strobe/internal/testutil"
	"strobe/report"
)

// flakyFixtures are the same three tests in three frameworks: one fails
// on its first run only, one always fails, one always passes.
var flakyFixtures = []struct {
	framework, tool, dir  string
	flaky, always, passes string // the tests' names as the framework gives them
}{
	{"go", "go", "gomod", "TestFlaky", "TestAlwaysFails", "TestPasses"},
	{"cargo", "cargo", "crate", "tests::flaky", "tests::always_fails", "tests::passes"},
	{"pytest", "python3", "pytest", "test_flaky.py::test_flaky", "test_flaky.py::test_always_fails", "test_flaky.py::test_passes"},
}

// flakyProject copies a fixture into a temporary directory and returns the
// request that runs it, its runs counted in a directory of their own.
func flakyProject(t *testing.T, framework, tool, dir string) (Request, string) {
	t.Helper()
	testutil.RequireTool(t, tool)
	root, counts := t.TempDir(), t.TempDir()
	testutil.CopyTree(t, filepath.Join("testdata", "flaky", dir), root)
	return Request{ProjectRoot: root, Framework: framework, Env: map[string]string{"FLAKY_DIR": counts}, Timeout: 3 * time.Minute}, counts
}

// runs reads how many times a fixture's test ran.
func runsOf(t *testing.T, counts, name string) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(counts, name))
	return string(b)
}

func testByName(tests []report.Test, name string) *report.Test {
	for i := range tests {
		if tests[i].Name == name {
			return &tests[i]
		}
	}
	return nil
}

// TestRetriesFlaky runs each fixture with retries 3: the flaky test passes
// on its second attempt and leaves the failures, the failing one fails
// all four, and the run stays failed because of it.
func TestRetriesFlaky(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs real projects")
	}
	for _, fx := range flakyFixtures {
		t.Run(fx.framework, func(t *testing.T) {
			req, counts := flakyProject(t, fx.framework, fx.tool, fx.dir)
			req.Retries = 3
			resp, rec := runReq(t, req)
			if resp.Status != report.Failed {
				t.Fatalf("status %s, want failed (the always-failing test); hint: %s", resp.Status, resp.Hint)
			}
			if len(resp.Flaky) != 1 {
				t.Fatalf("flaky = %+v, want the one flaky test", resp.Flaky)
			}
			f := resp.Flaky[0]
			if f.Name != fx.flaky || f.Attempts != 2 || f.PassedOn != 2 {
				t.Errorf("flaky = %+v, want %s passed on attempt 2 of 2", f, fx.flaky)
			}
			if !strings.Contains(f.FirstFailure.Message, "first run fails") || f.FirstFailure.Line == 0 || f.FirstFailure.File == "" {
				t.Errorf("first failure = %+v, want the first run's message at its file:line", f.FirstFailure)
			}
			if s := resp.Summary; s.Failed != 1 || s.Flaky != 1 || s.Passed != 2 {
				t.Errorf("summary = %+v, want 1 failed, 2 passed of which 1 flaky", s)
			}
			if len(resp.Failures) != 1 || resp.Failures[0].Name != fx.always || resp.Failures[0].Attempts != 4 {
				t.Errorf("failures = %+v, want %s alone, after 4 attempts", resp.Failures, fx.always)
			}
			if !strings.Contains(resp.Hint, "1 flaky test") || !strings.Contains(resp.Hint, "every attempt: a real failure") {
				t.Errorf("hint %q does not say what the retries found", resp.Hint)
			}
			// Each test ran alone: the passing one once, the flaky one twice.
			for name, want := range map[string]string{"TestPasses": "1", "TestFlaky": "2", "TestAlwaysFails": "4"} {
				key := name
				if fx.framework != "go" {
					key = map[string]string{"TestPasses": "passes", "TestFlaky": "flaky", "TestAlwaysFails": "always_fails"}[name]
				}
				if got := runsOf(t, counts, key); got != want {
					t.Errorf("%s ran %s times, want %s", key, got, want)
				}
			}
			ft := testByName(rec.Tests, fx.flaky)
			if ft == nil || !ft.Flaky || ft.Status != report.TestPassed || len(ft.Attempts) != 2 ||
				ft.Attempts[0].Status != "failed" || ft.Attempts[1].Status != "passed" || ft.Attempts[1].RunID == "" {
				t.Errorf("details' flaky test = %+v, want passed, flaky, with a failed then a passed attempt", ft)
			}
			at := testByName(rec.Tests, fx.always)
			if at == nil || len(at.Attempts) != 4 || at.Status != report.TestFailed {
				t.Errorf("details' failing test = %+v, want failed with 4 attempts", at)
			}
			junit, err := os.ReadFile(resp.JUnit)
			if err != nil || !strings.Contains(string(junit), "<flakyFailure") {
				t.Errorf("JUnit report (%v) has no flakyFailure:\n%s", err, junit)
			}
		})
	}
}

// TestRetriesPassAfterFlaky: when every failure turns out flaky the run
// passes, and the hint says it passed only after retries.
func TestRetriesPassAfterFlaky(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a real project")
	}
	req, _ := flakyProject(t, "go", "go", "gomod")
	req.Test, req.Retries = "TestFlaky", 2
	resp, _ := runReq(t, req)
	if resp.Status != report.Passed || resp.Crash != nil {
		t.Fatalf("status %s (crash %+v), want passed: the only failure was flaky; hint: %s", resp.Status, resp.Crash, resp.Hint)
	}
	if !strings.HasPrefix(resp.Hint, "Passed after retries: 1 flaky test") && !strings.HasPrefix(resp.Hint, "passed after retries: 1 flaky test") {
		t.Errorf("hint %q does not say plainly that it passed after retries", resp.Hint)
	}
	if resp.Summary.Flaky != 1 || resp.Summary.Failed != 0 || len(resp.Failures) != 0 {
		t.Errorf("summary %+v, failures %+v: want 1 flaky, none failed", resp.Summary, resp.Failures)
	}
}

// TestRepeatCounts runs each fixture three times: the flaky test fails
// once and passes twice, the failing one fails three times.
func TestRepeatCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs real projects")
	}
	for _, fx := range flakyFixtures[:2] {
		t.Run(fx.framework, func(t *testing.T) {
			req, _ := flakyProject(t, fx.framework, fx.tool, fx.dir)
			req.Repeat = 3
			resp, rec := runReq(t, req)
			rep := resp.Repeat
			if rep == nil || rep.Runs != 3 || rep.Requested != 3 || rep.Stopped != "" {
				t.Fatalf("repeat = %+v, want 3 runs done", rep)
			}
			want := map[string][2]int{fx.flaky: {2, 1}, fx.always: {0, 3}}
			if len(rep.Tests) != 2 {
				t.Errorf("repeat tests = %+v, want the two that failed at least once", rep.Tests)
			}
			for _, c := range rep.Tests {
				if w, ok := want[c.Name]; !ok || c.Passed != w[0] || c.Failed != w[1] {
					t.Errorf("%s: passed %d, failed %d; want %v", c.Name, c.Passed, c.Failed, w)
				}
			}
			if rep.TestCount != 3 || rep.Intermittent != 1 || rep.AlwaysFailed != 1 {
				t.Errorf("repeat counts = %+v, want 3 tests, 1 intermittent, 1 always failed", rep)
			}
			if resp.Status != report.Failed || resp.Summary.Failed != 2 {
				t.Errorf("status %s, summary %+v: want failed with the 2 tests that failed at least once", resp.Status, resp.Summary)
			}
			if !strings.Contains(resp.Hint, "flaky") {
				t.Errorf("hint %q does not name the flaky test", resp.Hint)
			}
			if len(rec.Tests) != 3 {
				t.Errorf("details tests = %d, want 3", len(rec.Tests))
			}
		})
	}
}

// TestGoRerunsRun: a repeat's runs and a retry run a Go test again, not
// go test's cached pass of the same command. The fixture's test passes on
// its first run only, and go test's cache cannot see that it changed.
// Without -count=1 a repeat said "passed in all 3 runs" of a test that
// ran once, and a retry made a failing test flaky with a pass it did not
// run (found on golang.org/x/text).
func TestGoRerunsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs real projects")
	}
	t.Run("repeat", func(t *testing.T) {
		req, counts := flakyProject(t, "go", "go", "gountracked")
		req.Repeat = 3
		resp, _ := runReq(t, req)
		if got := runsOf(t, counts, "untracked"); got != "3" {
			t.Errorf("the test ran %s times in a repeat of 3", got)
		}
		rep := resp.Repeat
		if rep == nil || rep.Runs != 3 || len(rep.Tests) != 1 || rep.Tests[0].Passed != 1 || rep.Tests[0].Failed != 2 {
			t.Fatalf("repeat = %+v, want TestUntracked passed 1 of 3 runs", rep)
		}
		if resp.Status != report.Failed {
			t.Errorf("status %s, want failed", resp.Status)
		}
	})
	t.Run("retry", func(t *testing.T) {
		req, counts := flakyProject(t, "go", "go", "gountracked")
		first := req
		first.Test = "TestUntracked" // the retry's own command, which go test caches as passed
		if resp, _ := runReq(t, first); resp.Status != report.Passed {
			t.Fatalf("first run: %s, want passed", resp.Status)
		}
		req.Retries = 2
		resp, _ := runReq(t, req)
		if got := runsOf(t, counts, "untracked"); got != "4" {
			t.Errorf("the test ran %s times in all, want 4: the first run, the run with retries and its two retries", got)
		}
		if resp.Status != report.Failed || len(resp.Flaky) != 0 || resp.Summary.Failed != 1 {
			t.Errorf("status %s, flaky %+v, summary %+v: want failed, not flaky (its retries fail)", resp.Status, resp.Flaky, resp.Summary)
		}
	})
}

// TestRetriesCancel: a cancel while the failed tests are retried stops the
// retry and answers cancelled, with nothing of the rerun left running.
func TestRetriesCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a real project")
	}
	req, _ := flakyProject(t, "go", "go", "gomod")
	req.Retries = 10
	dir := t.TempDir()
	r, err := Start(context.Background(), req, Options{DetailsDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	// The first run takes a moment; cancel once the reruns have begun.
	deadline := time.Now().Add(2 * time.Minute)
	for r.retrying() == nil && time.Now().Before(deadline) {
		select {
		case <-r.Done():
			t.Fatalf("the run ended before its retries began: %s, %s", r.Result().Status, r.Result().Hint)
		case <-time.After(5 * time.Millisecond):
		}
	}
	r.Cancel()
	<-r.Done()
	resp := r.Result()
	if resp.Status != report.Cancelled || resp.Crash == nil || resp.Crash.StoppedBy != report.StoppedCancelled {
		t.Fatalf("status %s, crash %+v: want cancelled by the client", resp.Status, resp.Crash)
	}
	if _, err := details.Read(dir, resp.RunID); err != nil {
		t.Errorf("details: %v", err)
	}
}

// TestRetriesBounds refuses retries and repeats out of bounds in one line.
func TestRetriesBounds(t *testing.T) {
	for _, tc := range []struct {
		req  Request
		want string
	}{
		{Request{Retries: 11}, "retries 11 is out of bounds: give 1 to 10"},
		{Request{Retries: -1}, "retries -1 is out of bounds"},
		{Request{Repeat: 101}, "repeat 101 is out of bounds: give 2 to 100"},
		{Request{Retries: 2, Repeat: 3}, "retries and repeat do not go together"},
		{Request{RetryStuck: true}, "retryStuck needs retries"},
	} {
		tc.req.ProjectRoot = t.TempDir()
		tc.req.Command = "true"
		_, err := New(tc.req, Options{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: error %v, want one line starting %q", tc.req, err, tc.want)
		}
	}
}

// TestRetriesSubtest: a Go parent that failed only through a subtest that
// turned out flaky passes with it, and the run passes.
func TestRetriesSubtest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a real project")
	}
	req, _ := flakyProject(t, "go", "go", "gosub")
	req.Retries = 1
	resp, rec := runReq(t, req)
	if resp.Status != report.Passed || len(resp.Flaky) != 1 || resp.Flaky[0].Name != "TestParent/flaky" {
		t.Fatalf("status %s, flaky %+v: want passed with TestParent/flaky flaky; hint: %s", resp.Status, resp.Flaky, resp.Hint)
	}
	if s := resp.Summary; s.Failed != 0 || s.Passed != 3 || s.Flaky != 1 {
		t.Errorf("summary %+v: want 3 passed (the parent, both subtests), 1 flaky", s)
	}
	if p := testByName(rec.Tests, "TestParent"); p == nil || p.Status != report.TestPassed || p.Flaky {
		t.Errorf("parent = %+v, want passed, not flaky itself", p)
	}
}

// TestRetriesCrash: a test that crashed its binary is retried only with
// retryStuck; then, passing alone, it is flaky and the run passes.
func TestRetriesCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a real project")
	}
	req, _ := flakyProject(t, "go", "go", "gocrash")
	req.Retries = 2
	resp, _ := runReq(t, req)
	if resp.Status != report.Crashed || len(resp.Flaky) != 0 || !strings.Contains(resp.Hint, "retryStuck") {
		t.Fatalf("without retryStuck: status %s, flaky %+v, hint %q: want crashed, nothing retried, and the hint naming retryStuck", resp.Status, resp.Flaky, resp.Hint)
	}

	req, _ = flakyProject(t, "go", "go", "gocrash")
	req.Retries, req.RetryStuck = 2, true
	resp, _ = runReq(t, req)
	if resp.Status != report.Passed || len(resp.Flaky) != 1 || resp.Flaky[0].Name != "TestCrashesOnce" {
		t.Fatalf("with retryStuck: status %s (crash %+v), flaky %+v; want passed with TestCrashesOnce flaky; hint: %s", resp.Status, resp.Crash, resp.Flaky, resp.Hint)
	}
}

// TestRetriesDoNotPassADeadBinary: a panic in a goroutine kills the test
// binary while TestSlow runs; TestSlow alone passes when retried, but
// TestLater never ran: the run must not answer passed.
func TestRetriesDoNotPassADeadBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a real project")
	}
	req, _ := flakyProject(t, "go", "go", "godied")
	req.Retries = 2
	resp, _ := runReq(t, req)
	if resp.Status == report.Passed {
		t.Fatalf("status passed (summary %+v): TestLater never ran; hint: %s", resp.Summary, resp.Hint)
	}
	if h := strings.ToLower(resp.Hint); !strings.Contains(h, "the run stays failed") || !strings.Contains(h, "did not run") || strings.Contains(h, "not a failure to fix") {
		t.Errorf("hint %q: want it to say the run stays failed and which tests did not run", resp.Hint)
	}
}

// skipsTheRest is an adapter whose whole run fails one test and leaves
// part of the selection unstarted (report.IndicatorNotReached, as Maven's
// skipped modules), and whose rerun of that test alone passes.
type skipsTheRest struct{}

func (skipsTheRest) Name() string                               { return "skipstherest" }
func (skipsTheRest) Detect(adapters.Request) adapters.Detection { return adapters.Detection{} }
func (skipsTheRest) SelectsTests()                              {}

func (skipsTheRest) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	alone := req.Test != ""
	req.Command = []string{"true"}
	plan, err := generic.New().Plan(ctx, req, rec)
	if err != nil {
		return nil, err
	}
	plan.Parser = endsAs{plan.Parser, rec, alone}
	return plan, nil
}

type endsAs struct {
	adapters.Parser
	rec   *adapters.Recorder
	alone bool
}

func (p endsAs) Finish(exit report.Exit) adapters.Outcome {
	p.rec.BeginTesting()
	p.rec.Start("a", "flaky")
	out := p.Parser.Finish(exit)
	if p.alone {
		p.rec.End("a", "flaky", report.TestPassed, 0, nil)
		return out
	}
	p.rec.End("a", "flaky", report.TestFailed, 0, &report.Failure{Name: "flaky", Message: "failed once"})
	out.Indicators = append(out.Indicators, report.IndicatorNotReached)
	out.Hint = "module b skipped: its tests did not run"
	return out
}

// TestRetriesDoNotPassWhatNeverStarted: a failed test that passes when
// retried alone does not make a run pass whose other part never started
// (Maven skipped the modules after the failing one): nothing says those
// pass.
func TestRetriesDoNotPassWhatNeverStarted(t *testing.T) {
	withAdapter(t, skipsTheRest{})
	resp, _ := runReq(t, Request{ProjectRoot: t.TempDir(), Framework: "skipstherest", Retries: 1, Timeout: 30 * time.Second})
	if resp.Status != report.Failed || len(resp.Flaky) != 1 {
		t.Fatalf("status %s, flaky %+v: want failed with the one flaky test; hint: %s", resp.Status, resp.Flaky, resp.Hint)
	}
	if !strings.Contains(resp.Hint, "the run stays failed: part of it never started") || !strings.Contains(resp.Hint, "module b skipped") {
		t.Errorf("hint %q: want it to say the run stays failed, and what never started", resp.Hint)
	}
}

// TestRetriesShuffled: in a shuffled run (go test -shuffle=on) a test that
// failed after another and passed when retried alone is not flaky: the
// run stays failed, the answer gives the seed and the command that runs
// the whole run in the same order, and that command fails it again.
func TestRetriesShuffled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a real project")
	}
	testutil.RequireTool(t, "go")
	root := t.TempDir()
	testutil.CopyTree(t, filepath.Join("testdata", "shuffle", "gomod"), root)
	req := Request{ProjectRoot: root, Framework: "go", Command: "go test -shuffle=on .", Retries: 1, Timeout: 3 * time.Minute}
	for range 30 {
		resp, rec := runReq(t, req)
		if resp.Status == report.Passed && resp.Summary.Flaky == 0 {
			continue // TestVictim ran first
		}
		if resp.Status != report.Failed || len(resp.Flaky) != 0 || resp.Summary.Failed != 1 {
			t.Fatalf("status %s, flaky %+v, summary %+v: want failed, no flaky test; hint: %s", resp.Status, resp.Flaky, resp.Summary, resp.Hint)
		}
		sh := resp.Shuffle
		if sh == nil || sh.Seed == "" || sh.Command != "go test -shuffle="+sh.Seed+" ." {
			t.Fatalf("shuffle = %+v, want the seed and the package's command with it", sh)
		}
		if len(resp.Failures) != 1 || resp.Failures[0].Name != "TestVictim" || resp.Failures[0].Attempts != 2 {
			t.Errorf("failures = %+v, want TestVictim after 2 attempts", resp.Failures)
		}
		for _, want := range []string{"(seed " + sh.Seed + ")", "`" + sh.Command + "` runs the whole run in the same order",
			"TestVictim (passed on attempt 2); not counted flaky"} {
			if !strings.Contains(resp.Hint, want) {
				t.Errorf("hint %q lacks %q", resp.Hint, want)
			}
		}
		if v := testByName(rec.Tests, "TestVictim"); v == nil || v.Flaky || v.Status != report.TestFailed || len(v.Attempts) != 2 {
			t.Errorf("details' TestVictim = %+v, want failed, not flaky, with 2 attempts", v)
		}
		if rec.Response.Shuffle == nil || rec.Response.Shuffle.Seed != sh.Seed {
			t.Errorf("details' shuffle = %+v, want the answer's", rec.Response.Shuffle)
		}
		cmd := exec.Command("sh", "-c", sh.Command)
		cmd.Dir = root
		b, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(b), "-test.shuffle "+sh.Seed) || !strings.Contains(string(b), "polluted by an earlier test") {
			t.Errorf("%s: %v, want TestVictim failing again:\n%s", sh.Command, err, b)
		}
		return
	}
	t.Fatal("TestVictim never failed in 30 shuffled runs")
}

// TestRetriesBesideACrash: --retries in a run that one test crashed
// retries the other failed tests (without --retry-stuck, not the one
// that crashed): a GoogleTest binary that one test aborted retried none
// of its five other failures.
func TestRetriesBesideACrash(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a real project")
	}
	testutil.RequireTool(t, "go")
	root := t.TempDir()
	for name, src := range map[string]string{
		"go.mod": "module example.com/crashbeside\n\ngo 1.22\n",
		"x_test.go": `package crashbeside

import "testing"

func TestFails(t *testing.T) { t.Error("fails every time") }

func TestNil(t *testing.T) {
	var p *struct{ n int }
	t.Log(p.n)
}
`,
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "go", Retries: 1, Timeout: 3 * time.Minute})
	if resp.Status != report.Crashed {
		t.Fatalf("status %s, want crashed; failures %+v", resp.Status, resp.Failures)
	}
	attempts := map[string]int{}
	for _, f := range resp.Failures {
		attempts[f.Name] = f.Attempts
	}
	if attempts["TestFails"] != 2 || attempts["TestNil"] > 1 {
		t.Errorf("attempts %v, want TestFails retried (2) and TestNil, which crashed, not", attempts)
	}
	if !strings.Contains(resp.Hint, "Stuck and crashed tests are not retried") {
		t.Errorf("hint %q: want the crashed test's retry explained", resp.Hint)
	}
}
