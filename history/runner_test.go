package history_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/details"
	"strobe/history"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
)

// project is a copy of a fixture run through the runner with a history,
// one of its files swapped for a stage's between runs.
type project struct {
	t                         *testing.T
	framework, fixture, file  string // file: the one swapped, from the root
	root, detailsDir, history string
}

// fixtures are the projects edited between runs: the go module swaps its
// test file, the crate its lib.rs.
var fixtures = []struct{ tool, framework, fixture, file string }{
	{"go", "go", "goedit", "calc/calc_test.go"},
	{"cargo", "cargo", "cargoedit", "src/lib.rs"},
}

func newProject(t *testing.T, tool, framework, fixture, file string) *project {
	testutil.RequireTool(t, tool)
	p := &project{t: t, framework: framework, fixture: fixture, file: file, root: t.TempDir(), detailsDir: t.TempDir(), history: t.TempDir()}
	testutil.CopyTree(t, filepath.Join("testdata", fixture), p.root)
	return p
}

// run puts stage's file in place and runs the tests.
func (p *project) run(stage string) (*report.Response, *details.Record) {
	p.t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", p.fixture+"-stages", stage, filepath.Base(p.file)))
	if err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.root, p.file), b, 0o644); err != nil {
		p.t.Fatal(err)
	}
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: p.root, Framework: p.framework, Timeout: 5 * time.Minute},
		runner.Options{DetailsDir: p.detailsDir, HistoryDir: p.history})
	if err != nil {
		p.t.Fatalf("stage %s: %v", stage, err)
	}
	rec, err := details.Read(p.detailsDir, resp.RunID)
	if err != nil {
		p.t.Fatalf("stage %s: details: %v", stage, err)
	}
	return resp, rec
}

func repeated(resp *report.Response) map[string]int {
	out := map[string]int{}
	for _, f := range resp.Failures {
		out[f.Name] = f.Repeated
	}
	return out
}

func js(v any) string { b, _ := json.Marshal(v); return string(b) }

func names(n ...string) report.Names {
	if len(n) == 0 {
		return report.Names{}
	}
	return report.Names{Count: len(n), Names: n}
}

// step is one run of an edited project and what its answer must say.
type step struct {
	stage    string
	status   report.Status
	changes  *report.Changes // Since is filled in from the run before
	repeated map[string]int  // failures[].repeated by name
	stepBack bool            // the hint says to step back
}

// TestEditedBetweenRuns runs a real go test suite and a real crate, edits
// them, and runs them again: each answer says exactly what the edit
// changed, a failure that keeps coming back is counted and, from the third
// time, the hint says to step back. For go, a build failure between two
// runs neither breaks the comparison nor the count.
func TestEditedBetweenRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs real suites five times")
	}
	for _, fx := range fixtures {
		t.Run(fx.framework, func(t *testing.T) {
			p := newProject(t, fx.tool, fx.framework, fx.fixture, fx.file)
			n := func(name string) string { // a test's name in this framework
				if fx.framework == "cargo" {
					return "tests::" + map[string]string{"A": "a_breaks", "B": "b_keeps_failing", "C": "c_gets_fixed", "D": "d_goes_away", "E": "e_is_new"}[name]
				}
				return "Test" + name
			}
			steps := []step{
				{stage: "1", status: report.Failed, repeated: map[string]int{n("B"): 0, n("C"): 0}},
				{stage: "2", status: report.Failed,
					changes: &report.Changes{NewFailures: names(n("A")), StillFailing: names(n("B")), Fixed: names(n("C")),
						NewTests: names(n("E")), RemovedTests: names(n("D"))},
					repeated: map[string]int{n("A"): 0, n("B"): 2}},
				{stage: "2", status: report.Failed, changes: &report.Changes{StillFailing: names(n("A"), n("B"))},
					repeated: map[string]int{n("A"): 2, n("B"): 3}, stepBack: true},
			}
			if fx.framework == "go" {
				steps = append(steps,
					step{stage: "broken", status: report.BuildFailed},
					// Compared with the last run that ran tests, not with
					// the build failure; the streaks go on across it.
					step{stage: "2", status: report.Failed, changes: &report.Changes{StillFailing: names(n("A"), n("B"))},
						repeated: map[string]int{n("A"): 3, n("B"): 4}, stepBack: true})
			}
			lastTested := ""
			for i, st := range steps {
				resp, rec := p.run(st.stage)
				if resp.Status != st.status {
					t.Fatalf("step %d (stage %s): status %s, want %s: %s", i, st.stage, resp.Status, st.status, js(resp))
				}
				if st.changes != nil {
					st.changes.Since = lastTested
				}
				if !equal(resp.Changes, st.changes) {
					t.Errorf("step %d (stage %s): changes\n got %s\nwant %s", i, st.stage, js(resp.Changes), js(st.changes))
				}
				if !equal(rec.Response.Changes, st.changes) {
					t.Errorf("step %d: details file's changes %s", i, js(rec.Response.Changes))
				}
				if got := repeated(resp); len(got)+len(st.repeated) > 0 && !equal(got, st.repeated) {
					t.Errorf("step %d (stage %s): repeated %v, want %v", i, st.stage, got, st.repeated)
				}
				if got := strings.Contains(resp.Hint, "step back"); got != st.stepBack {
					t.Errorf("step %d (stage %s): hint %q: telling to step back is %t, want %t", i, st.stage, resp.Hint, got, st.stepBack)
				}
				if st.status != report.BuildFailed {
					lastTested = resp.RunID
				}
			}
			runs, err := history.Open(p.history).Runs(p.root)
			if err != nil || len(runs) != len(steps) {
				t.Fatalf("history lists %d runs (%v), want %d", len(runs), err, len(steps))
			}
			if fx.framework == "go" && (runs[1].Status != report.BuildFailed || runs[1].Changes != nil) {
				t.Errorf("the build failure is listed as %+v", runs[1])
			}
		})
	}
}

// TestCorruptHistoryThroughRunner breaks the history file between two runs:
// the run still answers, compares with nothing, and the broken file is kept
// aside while a fresh history starts.
func TestCorruptHistoryThroughRunner(t *testing.T) {
	p := newProject(t, "go", "go", "goedit", "calc/calc_test.go")
	p.run("1")
	path := history.Path(p.history, p.root)
	if err := os.WriteFile(path, []byte(`{"format":"strobe-history","version":1,"runs":[{"run_id`), 0o600); err != nil {
		t.Fatal(err)
	}
	resp, _ := p.run("2")
	if resp.Status != report.Failed || resp.Changes != nil {
		t.Fatalf("after a corrupt history: status %s, changes %s", resp.Status, js(resp.Changes))
	}
	if strings.Contains(resp.Hint, "no comparison") {
		t.Errorf("a corrupt history is not an error: hint %q", resp.Hint)
	}
	if _, err := os.Stat(path + ".corrupt"); err != nil {
		t.Errorf("the corrupt file was not kept aside: %v", err)
	}
	again, _ := p.run("2")
	if again.Changes == nil || again.Changes.Since != resp.RunID || again.Changes.StillFailing.Count != 2 {
		t.Errorf("the fresh history does not compare: %s", js(again.Changes))
	}
}

func equal(a, b any) bool { return js(a) == js(b) }
