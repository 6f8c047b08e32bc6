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

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/history"
	"strobe/internal/testutil"
	"strobe/report"
)

func TestSelectionRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		req  Request
		want string
	}{
		{"part beyond total", Request{Framework: "go", Partition: "3/2"}, "part 3 of only 2"},
		{"part zero", Request{Framework: "go", Partition: "0/4"}, "counts parts from 1"},
		{"not numbers", Request{Framework: "go", Partition: "hash:a/b"}, "not two whole numbers"},
		{"cannot list", Request{Framework: "generic", Command: "true", Partition: "hash:1/2"}, "generic framework cannot list its tests"},
		{"with failed", Request{Framework: "go", Partition: "1/2", OnlyFailed: true}, "do not go together"},
		{"with a test", Request{Framework: "cargo", Partition: "slice:1/2", Test: "tests::a"}, "splits a suite, not one test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot = dir
			_, err := New(tc.req, Options{})
			if err == nil || !adapters.IsUsage(err) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("New(%+v) = %v; want a one-line usage error containing %q", tc.req, err, tc.want)
			}
		})
	}
}

// TestFailedAfterABuildFailure: rerunning what failed after a run that did
// not build runs the whole selection. The package that did not build ran
// no test, so the history knows none of its tests to rerun: --failed
// answered "nothing to rerun: every test of the previous run passed" (or,
// with failures beside the build error, reran those alone and could pass)
// while the build was still broken (found on golang.org/x/text).
func TestFailedAfterABuildFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a real module")
	}
	testutil.RequireTool(t, "go")
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n",
		"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {}\n",
	})
	exec := goRuns(t, root)
	broken := filepath.Join(root, "b", "broken.go")
	if err := os.WriteFile(broken, []byte("package b\n\nfunc broken() int { return \"x\" }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if resp := exec(false); resp.Status != report.BuildFailed || resp.Summary.Passed != 1 {
		t.Fatalf("the run with b broken: %s, %+v; want build_failed with TestA passed", resp.Status, resp.Summary)
	}
	resp := exec(true)
	if resp.Status != report.BuildFailed || resp.Rerun != nil || !strings.Contains(resp.Hint, "did not build, so this one ran the whole selection") {
		t.Errorf("--failed after it: %s, rerun %+v, hint %q; want build_failed again, the whole selection run, and why", resp.Status, resp.Rerun, resp.Hint)
	}
	if err := os.Remove(broken); err != nil {
		t.Fatal(err)
	}
	if resp := exec(true); resp.Status != report.Passed || resp.Summary.Passed != 2 {
		t.Errorf("--failed once b builds: %s, %+v, hint %q; want both tests run and passed", resp.Status, resp.Summary, resp.Hint)
	}
}

// twoFailOneSrc is a Go test file whose TestA and TestB fail and TestC
// passes.
const twoFailOneSrc = "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { t.Error(\"a\") }\n\nfunc TestB(t *testing.T) { t.Error(\"b\") }\n\nfunc TestC(t *testing.T) {}\n"

// TestFailedRenamed: a rerun of the failures after one failing test was
// renamed runs the other and names the one that is gone (gtest, CTest and
// Maven left it out without a word, and the answer counted it asked).
func TestFailedRenamed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a real module")
	}
	testutil.RequireTool(t, "go")
	root := t.TempDir()
	src := twoFailOneSrc
	adapterstest.WriteFiles(t, root, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "a/a_test.go": src})
	exec := goRuns(t, root)
	if resp := exec(false); resp.Status != report.Failed || resp.Summary.Failed != 2 {
		t.Fatalf("the first run: %s, %+v; want TestA and TestB failed", resp.Status, resp.Summary)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "a_test.go"), []byte(strings.Replace(src, "TestB", "TestRenamed", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	resp := exec(true)
	if resp.Status != report.Failed || resp.Summary.Failed != 1 || !strings.Contains(resp.Hint, "1 of the 2 tests asked for did not run: TestB (renamed or removed since") {
		t.Errorf("--failed after the rename: %s, %+v, hint %q; want TestA failed and TestB named as not run", resp.Status, resp.Summary, resp.Hint)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "a_test.go"), []byte(strings.Replace(src, "t.Error(\"a\")", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if resp := exec(true); strings.Contains(resp.Hint, "did not run") {
		t.Errorf("--failed with every test asked for there: hint %q names tests that ran", resp.Hint)
	}
	// TestB alone fails now; renamed, the rerun has nothing to run, and
	// names it rather than say that Go tests are TestXxx functions.
	if err := os.WriteFile(filepath.Join(root, "a", "a_test.go"), []byte(strings.Replace(src, "TestB", "TestGone", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if resp := exec(true); resp.Status != report.NoTests || !strings.Contains(resp.Hint, "did not run: TestB (renamed or removed since?)") {
		t.Errorf("--failed with the one failing test renamed: %s, hint %q; want no_tests naming TestB", resp.Status, resp.Hint)
	}
}

// TestFailedAfterATestFilter: --failed reruns the whole suite's failures
// as they stand now, runs of one test (--test) included: a failure that
// --test saw pass is not rerun, one it saw fail is. It reran the last
// whole run's failures, the fixed test among them, and left out the one
// --test had just found failing.
func TestFailedAfterATestFilter(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a real module")
	}
	testutil.RequireTool(t, "go")
	root := t.TempDir()
	src := twoFailOneSrc
	adapterstest.WriteFiles(t, root, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "a/a_test.go": src})
	exec := goRequests(t, root)
	if resp := exec(Request{}); resp.Status != report.Failed || resp.Summary.Failed != 2 {
		t.Fatalf("the first run: %s, %+v; want TestA and TestB failed", resp.Status, resp.Summary)
	}
	src = strings.Replace(src, "t.Error(\"a\")", "", 1)
	src = strings.Replace(src, "TestC(t *testing.T) {}", "TestC(t *testing.T) { t.Error(\"c\") }", 1)
	if err := os.WriteFile(filepath.Join(root, "a", "a_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if resp := exec(Request{Test: "TestA"}); resp.Status != report.Passed {
		t.Fatalf("--test TestA once fixed: %s, %+v", resp.Status, resp.Summary)
	}
	if resp := exec(Request{Test: "TestC"}); resp.Status != report.Failed {
		t.Fatalf("--test TestC once broken: %s, %+v", resp.Status, resp.Summary)
	}
	resp := exec(Request{OnlyFailed: true})
	var ran []string
	for _, f := range resp.Failures {
		ran = append(ran, f.Name)
	}
	slices.Sort(ran)
	if resp.Rerun == nil || resp.Rerun.Tests != 2 || !slices.Equal(ran, []string{"TestB", "TestC"}) || resp.Summary.Failed != 2 || resp.Summary.Passed != 0 {
		t.Errorf("--failed: rerun %+v failed %q, %+v; want TestB and TestC rerun and failed, not TestA", resp.Rerun, ran, resp.Summary)
	}
}

// TestFailedOfAFileNeverRunAlone: --failed --test FILE, FILE never run
// alone, reruns what the whole suite found failing in FILE (or in the
// test named), not the other files' failures; a test it saw pass is
// nothing to rerun, and only a file no run knows is "no earlier run".
// Before, every filter never run alone answered "nothing to rerun: no
// earlier run of this selection is in the history".
func TestFailedOfAFileNeverRunAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pytest")
	}
	py := testutil.RequireTool(t, "python3")
	if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
		t.Skip("no pytest")
	}
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"pytest.ini":      "[pytest]\n",
		"tests/test_a.py": "def test_one():\n    assert 1 == 2\n\ndef test_two():\n    pass\n",
		"tests/test_b.py": "def test_three():\n    assert 3 == 4\n",
	})
	opts := Options{DetailsDir: t.TempDir(), HistoryDir: t.TempDir()}
	exec := func(req Request) *report.Response {
		t.Helper()
		req.ProjectRoot, req.Framework, req.Timeout = root, "pytest", time.Minute
		resp, err := Exec(context.Background(), req, opts)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	whole := exec(Request{})
	if whole.Status != report.Failed || whole.Summary.Failed != 2 {
		t.Fatalf("the suite: %s, %+v; want test_one and test_three failed", whole.Status, whole.Summary)
	}
	adapterstest.WriteFiles(t, root, map[string]string{"tests/test_new.py": "def test_four():\n    assert 4 == 5\n"})
	for _, tc := range []struct {
		test   string
		status report.Status
		failed []string // the failures rerun, "" for nothing to rerun
		hint   string
	}{
		{"tests/test_a.py", report.Failed, []string{"tests/test_a.py::test_one"}, ""},
		{"tests/test_b.py::test_three", report.Failed, []string{"tests/test_b.py::test_three"}, ""},
		{"tests/test_a.py::test_two", report.NoTests, nil, "every test of the previous run (" + whole.RunID + ") passed"},
		{"tests/test_new.py", report.NoTests, nil, "no earlier run of this selection is in the history"},
	} {
		resp := exec(Request{Test: tc.test, OnlyFailed: true})
		var failed []string
		for _, f := range resp.Failures {
			failed = append(failed, f.Name)
		}
		if resp.Status != tc.status || !slices.Equal(failed, tc.failed) || !strings.Contains(resp.Hint, tc.hint) {
			t.Errorf("--failed --test %s: %s, failed %q, hint %q; want %s, %q failed, hint %q", tc.test, resp.Status, failed, resp.Hint, tc.status, tc.failed, tc.hint)
		}
		if tc.failed != nil && (resp.Rerun == nil || resp.Rerun.Of != whole.RunID || resp.Rerun.Tests != len(tc.failed) || resp.Summary.Passed != 0) {
			t.Errorf("--failed --test %s: rerun %+v, %+v; want %d test of run %s rerun, none passed", tc.test, resp.Rerun, resp.Summary, len(tc.failed), whole.RunID)
		}
	}
	// The file's own rerun knows test_one alone: a failure the suite
	// finds in it since is rerun too.
	adapterstest.WriteFiles(t, root, map[string]string{"tests/test_a.py": "def test_one():\n    assert 1 == 2\n\ndef test_two():\n    assert 2 == 3\n"})
	again := exec(Request{})
	resp := exec(Request{Test: "tests/test_a.py", OnlyFailed: true})
	if resp.Status != report.Failed || resp.Summary.Failed != 2 || resp.Summary.Passed != 0 || resp.Rerun == nil || resp.Rerun.Of != again.RunID {
		t.Errorf("--failed --test tests/test_a.py after the suite broke test_two: %s, %+v, rerun %+v; want both failed, of run %s",
			resp.Status, resp.Summary, resp.Rerun, again.RunID)
	}
}

// TestFilterSelects: which of the tests other runs found failing a test
// filter never run alone selects, by their names.
func TestFilterSelects(t *testing.T) {
	for _, tc := range []struct {
		filter, suite, name string
		want                bool
	}{
		{"tests/test_a.py", "tests/test_a.py", "tests/test_a.py::test_one", true},
		{"./tests/test_a.py", "tests/test_a.py", "tests/test_a.py::test_one", true},
		{"tests", "tests/test_a.py", "tests/test_a.py::test_one", true},
		{"tests/", "tests/test_a.py", "tests/test_a.py::test_one", true},
		{"tests/test_a.py::test_one", "tests/test_a.py", "tests/test_a.py::test_one", true},
		{"tests/test_a.py::TestC", "tests/test_a.py", "tests/test_a.py::TestC::test_x", true},
		{"tests/test_a.py::test_one", "tests/test_a.py", "tests/test_a.py::test_one_more", false},
		{"tests/test_b.py", "tests/test_a.py", "tests/test_a.py::test_one", false},
		{"test", "tests/test_a.py", "tests/test_a.py::test_one", false},
		{"test/a.test.js", "test/a.test.js", "parse › reads", true},
		{"test/a.test.js › parse", "test/a.test.js", "parse › reads", true},
		{"test/a.test.js › parse › reads", "test/a.test.js", "parse › reads", true},
		{"test/a.test.js › pars", "test/a.test.js", "parse › reads", false},
		{"TestA", "example.com/m/a", "TestA/row_1", true},
		{"TestA", "example.com/m/a", "TestAB", false},
		{"", "tests/test_a.py", "tests/test_a.py::test_one", false},
	} {
		if got := filterSelects(tc.filter, history.TestID{Suite: tc.suite, Name: tc.name}); got != tc.want {
			t.Errorf("filter %q, test %s %s: %v, want %v", tc.filter, tc.suite, tc.name, got, tc.want)
		}
	}
}

// TestFreshReruns: the runs that must run their tests, not take go test's
// cached pass of the same command (adapters.Request.Fresh), are a
// repeat's and a rerun of what failed; a plain run keeps go's cache, as
// `go test` does.
func TestFreshReruns(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		req  Request
		want bool
	}{
		{Request{Framework: "go"}, false},
		{Request{Framework: "go", Test: "TestA"}, false},
		{Request{Framework: "go", Repeat: 3}, true},
		{Request{Framework: "go", OnlyFailed: true}, true},
	} {
		tc.req.ProjectRoot = dir
		r, err := New(tc.req, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.areq.Fresh != tc.want {
			t.Errorf("%+v: fresh %v, want %v", tc.req, r.areq.Fresh, tc.want)
		}
	}
}

// goRuns runs the go project in root through the runner, with a history
// of its own, as a whole (false) or its failures again (true).
func goRuns(t *testing.T, root string) func(onlyFailed bool) *report.Response {
	run := goRequests(t, root)
	return func(onlyFailed bool) *report.Response {
		t.Helper()
		return run(Request{OnlyFailed: onlyFailed})
	}
}

// goRequests runs requests of the go project in root through the runner,
// with a history of their own: req's project, framework and timeout are
// set.
func goRequests(t *testing.T, root string) func(req Request) *report.Response {
	opts := Options{DetailsDir: t.TempDir(), HistoryDir: t.TempDir()}
	return func(req Request) *report.Response {
		t.Helper()
		req.ProjectRoot, req.Framework, req.Timeout = root, "go", 3*time.Minute
		resp, err := Exec(context.Background(), req, opts)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
}

// TestUntestedBelow: a Go module's whole suite passes, and the answer
// says that the JavaScript package in its web/ did not run; a rerun of
// the failures does not say it.
func TestUntestedBelow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a real module")
	}
	testutil.RequireTool(t, "go")
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.22\n",
		"a/a_test.go":      "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n",
		"web/package.json": `{"scripts": {"test": "vitest run"}}`,
	})
	exec := goRuns(t, root)
	want := "below the root are projects this run does not reach: web/ (a JavaScript package with a test script)"
	if resp := exec(false); resp.Status != report.Passed || !strings.Contains(resp.Hint, want) {
		t.Errorf("the whole suite: %s, hint %q; want passed, and %q", resp.Status, resp.Hint, want)
	}
	if resp := exec(true); strings.Contains(resp.Hint, "below the root") {
		t.Errorf("--failed: hint %q speaks of the projects below", resp.Hint)
	}
}

// TestNamesLikeIt: a --test that ran nothing is told the names of the last
// whole run's tests that end with it or hold it: a Go subtest given
// without its parent (`Invalid Brackets`), which `go test -list`, the
// hint's other advice, does not list.
func TestNamesLikeIt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a real module")
	}
	testutil.RequireTool(t, "go")
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestValidate(t *testing.T) {\n" +
			"\tfor _, n := range []string{\"Invalid Brackets\", \"ok\"} {\n\t\tt.Run(n, func(t *testing.T) {})\n\t}\n}\n",
	})
	exec := goRequests(t, root)
	run := func(test string) *report.Response {
		t.Helper()
		return exec(Request{Test: test})
	}
	if resp := run(""); resp.Status != report.Passed {
		t.Fatalf("the whole suite: %s", resp.Status)
	}
	want := "of the last whole run whose names end with or hold it: TestValidate/Invalid_Brackets"
	if resp := run("Invalid Brackets"); resp.Status != report.NoTests || !strings.Contains(resp.Hint, want) {
		t.Errorf("--test 'Invalid Brackets': %s, hint %q; want no_tests, and %q", resp.Status, resp.Hint, want)
	}
	if resp := run("TestNothingLikeIt"); strings.Contains(resp.Hint, "last whole run") {
		t.Errorf("--test of no name like any: hint %q names tests", resp.Hint)
	}
}

func TestNamesLike(t *testing.T) {
	tests := map[string][]string{
		"example.com/m":    {"TestValidate", "TestValidate/Invalid_Brackets", "TestValidate/ok"},
		"tests/test_a.py":  {"tests/test_a.py::test_parse", "tests/test_a.py::test_parse_more"},
		"src/math.test.ts": {"math > adds", "math > adds wrongly"},
	}
	for _, tc := range []struct {
		want string
		got  []string
	}{
		{"Invalid Brackets", []string{"TestValidate/Invalid_Brackets"}},
		{"test_parse", []string{"tests/test_a.py::test_parse", "tests/test_a.py::test_parse_more"}},
		{"adds", []string{"math > adds", "math > adds wrongly"}},
		{"TestValidate", []string{"TestValidate/Invalid_Brackets", "TestValidate/ok"}},
		{"nothing", nil},
	} {
		if got := namesLike(tests, tc.want); !slices.Equal(got, tc.got) {
			t.Errorf("namesLike(%q) = %q, want %q", tc.want, got, tc.got)
		}
	}
}

// TestPartitionSaysDoctests: the doctests (cargo) are in no partition, and
// every part says so: anyhow's two parts ran 70 tests and none of its 26
// doctests, without a word. A go partition has no such word.
func TestPartitionSaysDoctests(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	const said = "the doctests are in no partition"
	resp, _ := runReq(t, Request{ProjectRoot: testutil.Fixture("cargo", "basic"), Framework: "cargo", Partition: "hash:1/2", Timeout: 3 * time.Minute})
	if resp.Partition == nil || !strings.Contains(resp.Hint, said) {
		t.Errorf("partition %+v, hint %q: want %q", resp.Partition, resp.Hint, said)
	}
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{"go.mod": "module example.com/p\n\ngo 1.21\n", "p_test.go": "package p\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n\nfunc TestB(t *testing.T) {}\n"})
	resp, _ = runReq(t, Request{ProjectRoot: root, Framework: "go", Partition: "hash:1/2"})
	if strings.Contains(resp.Hint, said) {
		t.Errorf("go partition's hint %q speaks of doctests", resp.Hint)
	}
}
