package history_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/details"
	"strobe/history"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
)

// copyDir copies the files under src into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// project is a copy of the goedit fixture run through the runner with a
// history, its test file swapped between runs.
type project struct {
	t                         *testing.T
	root, detailsDir, history string
}

func newProject(t *testing.T) *project {
	testutil.RequireTool(t, "go")
	p := &project{t: t, root: t.TempDir(), detailsDir: t.TempDir(), history: t.TempDir()}
	copyDir(t, filepath.Join("testdata", "goedit"), p.root)
	return p
}

// run puts stage's test file in place and runs the tests.
func (p *project) run(stage string) (*report.Response, *details.Record) {
	p.t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "goedit-stages", stage, "calc_test.go"))
	if err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.root, "calc", "calc_test.go"), b, 0o644); err != nil {
		p.t.Fatal(err)
	}
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: p.root, Framework: "go"},
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

// TestGoEditedBetweenRuns runs a real go test suite, edits it, and runs it
// again: each answer says exactly what the edit changed, a failure that
// keeps coming back is counted, and a build failure between two runs
// neither breaks the comparison nor the count.
func TestGoEditedBetweenRuns(t *testing.T) {
	p := newProject(t)
	steps := []struct {
		stage    string
		status   report.Status
		changes  *report.Changes // Since is filled in from the run before
		repeated map[string]int
		stepBack bool
	}{
		{stage: "1", status: report.Failed, repeated: map[string]int{"TestB": 0, "TestC": 0}},
		{stage: "2", status: report.Failed,
			changes: &report.Changes{NewFailures: names("TestA"), StillFailing: names("TestB"), Fixed: names("TestC"),
				NewTests: names("TestE"), RemovedTests: names("TestD")},
			repeated: map[string]int{"TestA": 0, "TestB": 2}},
		{stage: "2", status: report.Failed, changes: &report.Changes{StillFailing: names("TestA", "TestB")},
			repeated: map[string]int{"TestA": 2, "TestB": 3}, stepBack: true},
		{stage: "broken", status: report.BuildFailed},
		// Compared with the last run that ran tests, not with the build
		// failure; the failures' streaks go on across it.
		{stage: "2", status: report.Failed, changes: &report.Changes{StillFailing: names("TestA", "TestB")},
			repeated: map[string]int{"TestA": 3, "TestB": 4}, stepBack: true},
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
		if got := repeated(resp); st.repeated != nil && !equal(got, st.repeated) {
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
	if runs[1].Status != report.BuildFailed || runs[1].Changes != nil {
		t.Errorf("the build failure is listed as %+v", runs[1])
	}
}

func equal(a, b any) bool { return js(a) == js(b) }
