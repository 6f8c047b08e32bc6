package shard_test

import (
	"context"
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"strobe/details"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
	"strobe/shard"
)

// suites are the 300-test fixtures: TestN007, TestN107 and TestN207 (and
// their like in each framework) fail, the others pass.
var suites = []struct {
	framework, tool, dir string
	failing              []string
	env                  map[string]string
	// command builds the fixture, when it must be, and is the command
	// to run (a test binary).
	command func(t *testing.T, root string) string
}{
	{"go", "go", "go300", []string{"TestN007", "TestN107", "TestN207"}, nil, nil},
	{"cargo", "cargo", "cargo300", []string{"tests::n007", "tests::n107", "tests::n207"},
		map[string]string{"CARGO_TARGET_DIR": filepath.Join(os.TempDir(), "strobe-shard-cargo300-target")}, nil},
	{"pytest", "python3", "py300", []string{"test_many.py::test_n[107]", "test_many.py::test_n[207]", "test_many.py::test_n[7]"}, /* sorted */
		map[string]string{"PYTHONDONTWRITEBYTECODE": "1"}, nil},
	{"gtest", "g++", "gtest300", []string{"Many.N007", "Many.N107", "Many.N207"}, nil, buildGTest},
	{"unittest", "python3", "unittest300", []string{"test_many.TestMany.test_n007", "test_many.TestMany.test_n107", "test_many.TestMany.test_n207"},
		map[string]string{"PYTHONDONTWRITEBYTECODE": "1"}, nil},
	{"jest", "node", "jest300", []string{"part 0 › n007", "part 1 › n107", "part 2 › n207"}, nil, npmCI},
	{"vitest", "node", "vitest300", []string{"part 0 > n007", "part 1 > n107", "part 2 > n207"}, nil, npmCI},
}

type env struct {
	root    string
	command string
	opts    runner.Options
	base    map[string]string
}

func setup(t *testing.T, dir, tool string, vars map[string]string, command func(*testing.T, string) string) env {
	t.Helper()
	testutil.RequireTool(t, tool)
	if testing.Short() {
		t.Skip("runs a 300-test suite several times")
	}
	root, err := filepath.Abs(filepath.Join("testdata", dir))
	if err != nil {
		t.Fatal(err)
	}
	e := env{root: root, base: vars,
		opts: runner.Options{DetailsDir: t.TempDir(), HistoryDir: t.TempDir()}}
	if command != nil {
		e.command = command(t, root)
	}
	return e
}

func (e env) run(t *testing.T, framework string, mod func(*runner.Request)) (*report.Response, *details.Record) {
	t.Helper()
	req := runner.Request{ProjectRoot: e.root, Framework: framework, Command: e.command, Env: e.base, Timeout: 2 * time.Minute}
	if mod != nil {
		mod(&req)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	resp, err := runner.Exec(ctx, req, e.opts)
	if err != nil {
		t.Fatalf("%+v: %v", req, err)
	}
	if resp.Details == "" {
		t.Fatalf("no details file: %+v", resp)
	}
	rec, err := details.Read("", resp.Details)
	if err != nil {
		t.Fatal(err)
	}
	return resp, rec
}

type testKey struct{ suite, name string }

func names(rec *details.Record) map[testKey]report.TestStatus {
	m := map[testKey]report.TestStatus{}
	for _, tc := range rec.Tests {
		m[testKey{tc.Suite, tc.Name}] = tc.Status
	}
	return m
}

// Partitions 1/3, 2/3 and 3/3 run every test of the unsharded run exactly
// once, and their merge counts what the unsharded run counted.
func TestPartitionsCoverTheSuite(t *testing.T) {
	for _, s := range suites {
		t.Run(s.framework, func(t *testing.T) {
			// One unsharded run for both kinds of partition: the suite
			// does not change between them.
			e := setup(t, s.dir, s.tool, s.env, s.command)
			whole, wholeRec := e.run(t, s.framework, nil)
			if whole.Summary.Passed != 297 || whole.Summary.Failed != 3 {
				t.Fatalf("unsharded run: %+v, want 297 passed and 3 failed", whole.Summary)
			}
			want := names(wholeRec)
			for _, kind := range []string{shard.Hash, shard.Slice} {
				t.Run(kind, func(t *testing.T) {
					seen := map[testKey]int{}
					var recs []*details.Record
					var files []string
					for m := 1; m <= 3; m++ {
						spec := kind + ":" + string(rune('0'+m)) + "/3"
						resp, rec := e.run(t, s.framework, func(r *runner.Request) { r.Partition = spec })
						p := resp.Partition
						if p == nil || p.Spec != spec || p.Listed != 300 || p.Selected != resp.Summary.Passed+resp.Summary.Failed {
							t.Fatalf("%s: partition %+v, summary %+v", spec, p, resp.Summary)
						}
						t.Logf("%s: %d tests, listing %d ms, run %d ms", spec, p.Selected, p.ListMS, resp.Summary.DurationMS)
						for k := range names(rec) {
							seen[k]++
						}
						recs, files = append(recs, rec), append(files, resp.Details)
					}
					for k := range want {
						if seen[k] != 1 {
							t.Errorf("%v ran in %d shards, want 1", k, seen[k])
						}
					}
					for k := range seen {
						if _, ok := want[k]; !ok {
							t.Errorf("%v ran in a shard but not in the whole suite", k)
						}
					}
					m, err := shard.Merge(recs, files)
					if err != nil {
						t.Fatal(err)
					}
					got := m.Response
					if got.Status != whole.Status || got.Summary.Passed != whole.Summary.Passed || got.Summary.Failed != whole.Summary.Failed ||
						got.Summary.Skipped != whole.Summary.Skipped || len(got.Failures) != len(wholeRec.Response.Failures) || len(m.Warnings) != 0 {
						t.Errorf("merge: %s %+v, %d failures, warnings %q; unsharded: %s %+v, %d failures",
							got.Status, got.Summary, len(got.Failures), m.Warnings, whole.Status, whole.Summary, len(wholeRec.Response.Failures))
					}
					checkJUnit(t, m, 300, 3)
				})
			}
		})
	}
}

// checkJUnit writes the merge's JUnit file and reads it back with
// encoding/xml as a JUnit consumer would: the totals and the testcases.
func checkJUnit(t *testing.T, m *shard.Merged, tests, failures int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "merged.xml")
	if err := writeJUnit(path, m); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	cases, failed := 0, 0
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			cases++
			if c.Failure != nil {
				failed++
			}
		}
	}
	if doc.Tests != tests || doc.Failures != failures || cases != tests || failed != failures {
		t.Errorf("merged JUnit: tests=%d failures=%d, %d testcases of which %d failed; want %d and %d", doc.Tests, doc.Failures, cases, failed, tests, failures)
	}
}

// --failed reruns exactly the tests the previous run left failing, in one
// process, and compares with that run.
func TestFailedRerunsExactlyTheFailures(t *testing.T) {
	for _, s := range suites {
		t.Run(s.framework, func(t *testing.T) {
			e := setup(t, s.dir, s.tool, s.env, s.command)
			none, _ := e.run(t, s.framework, func(r *runner.Request) { r.OnlyFailed = true })
			if none.Status != report.NoTests || !strings.Contains(none.Hint, "no earlier run") {
				t.Errorf("--failed before any run: %s, hint %q; want no_tests saying there is no earlier run", none.Status, none.Hint)
			}
			first, _ := e.run(t, s.framework, nil)
			resp, rec := e.run(t, s.framework, func(r *runner.Request) { r.OnlyFailed = true })
			var ran []string
			for k := range names(rec) {
				ran = append(ran, k.name)
			}
			slices.Sort(ran)
			if !slices.Equal(ran, s.failing) {
				t.Errorf("--failed ran %q, want %q", ran, s.failing)
			}
			if resp.Rerun == nil || resp.Rerun.Of != first.RunID || resp.Rerun.Tests != 3 {
				t.Errorf("rerun = %+v, want 3 tests of %s", resp.Rerun, first.RunID)
			}
			c := resp.Changes
			if c == nil || c.Since != first.RunID || c.StillFailing.Count != 3 || c.RemovedTests.Count != 0 || c.NewTests.Count != 0 {
				t.Errorf("changes = %+v, want 3 still failing since %s and nothing removed", c, first.RunID)
			}
			if resp.Status != report.Failed || resp.Summary.Failed != 3 || resp.Summary.Passed != 0 {
				t.Errorf("--failed: %s %+v", resp.Status, resp.Summary)
			}
		})
	}
}
