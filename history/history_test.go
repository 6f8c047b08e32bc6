package history

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"strobe/report"
)

// helperEnv makes the test binary a process that records runs (TestMain):
// the second process of the concurrency test.
const helperEnv = "STROBE_HISTORY_HELPER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(helperEnv); spec != "" {
		os.Exit(helper(spec))
	}
	os.Exit(m.Run())
}

// helper records runs "<prefix>-0".."<prefix>-<n-1>" of project root in dir,
// from a spec "dir|root|prefix|n".
func helper(spec string) int {
	parts := strings.Split(spec, "|")
	dir, root, prefix := parts[0], parts[1], parts[2]
	n, _ := strconv.Atoi(parts[3])
	s := Open(dir)
	for i := range n {
		if _, err := s.Record(run(fmt.Sprintf("%s-%d", prefix, i), root, report.Failed, pass("a"), fail("b", "boom"))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

const root = "/project"

var goKey = Key{Framework: "go", Level: "all"}

func pass(name string) report.Test {
	return report.Test{Name: name, Suite: "pkg", Status: report.TestPassed}
}

func fail(name, msg string) report.Test {
	return report.Test{Name: name, Suite: "pkg", Status: report.TestFailed,
		Failure: &report.Failure{Name: name, File: "pkg/x_test.go", Line: 12, Message: msg}}
}

func run(id, root string, status report.Status, tests ...report.Test) Run {
	return Run{ID: id, Root: root, Key: goKey, Status: status, Tests: tests}
}

func names(n ...string) report.Names {
	if len(n) == 0 {
		return report.Names{}
	}
	return report.Names{Count: len(n), Names: n}
}

func record(t *testing.T, s *Store, r Run) *Result {
	t.Helper()
	res, err := s.Record(r)
	if err != nil {
		t.Fatalf("Record %s: %v", r.ID, err)
	}
	return res
}

func TestChanges(t *testing.T) {
	tests := []struct {
		name   string
		before []Run // recorded first, in order
		run    Run
		want   *report.Changes
	}{
		{name: "first run compares with nothing",
			run: run("r1", root, report.Failed, pass("a"), fail("b", "x"))},
		{name: "edited between runs",
			before: []Run{run("r1", root, report.Failed, pass("a"), fail("b", "x"), fail("c", "x"), pass("d"))},
			run:    run("r2", root, report.Failed, fail("a", "x"), fail("b", "x"), pass("c"), pass("e")),
			want: &report.Changes{Since: "r1", NewFailures: names("a"), StillFailing: names("b"), Fixed: names("c"),
				NewTests: names("e"), RemovedTests: names("d")}},
		{name: "a new test that fails is new and a new failure",
			before: []Run{run("r1", root, report.Passed, pass("a"))},
			run:    run("r2", root, report.Failed, pass("a"), fail("b", "x")),
			want:   &report.Changes{Since: "r1", NewFailures: names("b"), NewTests: names("b")}},
		{name: "a failing test now skipped is not fixed",
			before: []Run{run("r1", root, report.Failed, fail("a", "x"))},
			run:    run("r2", root, report.Passed, report.Test{Name: "a", Suite: "pkg", Status: report.TestSkipped}),
			want:   &report.Changes{Since: "r1"}},
		{name: "a failing test skipped for a while still fails when it runs again",
			before: []Run{
				run("r1", root, report.Failed, fail("a", "x")),
				run("r2", root, report.Passed, report.Test{Name: "a", Suite: "pkg", Status: report.TestSkipped}),
			},
			run:  run("r3", root, report.Failed, fail("a", "x")),
			want: &report.Changes{Since: "r2", StillFailing: names("a")}},
		{name: "a build failure compares with nothing and keeps the baseline",
			before: []Run{
				run("r1", root, report.Failed, pass("a"), fail("b", "x")),
				run("r2", root, report.BuildFailed),
			},
			run:  run("r3", root, report.Passed, pass("a"), pass("b")),
			want: &report.Changes{Since: "r1", Fixed: names("b")}},
		{name: "a partial run removes nothing and adds only what it ran",
			before: []Run{run("r1", root, report.Passed, pass("a"), pass("b"), pass("c"))},
			run:    run("r2", root, report.Crashed, pass("a"), report.Test{Name: "b", Suite: "pkg", Status: report.TestRunning}),
			want:   &report.Changes{Since: "r1", NewFailures: names("b"), Partial: true}},
		{name: "after a partial run the tests it never reached are not new",
			before: []Run{
				run("r1", root, report.Passed, pass("a"), pass("b"), pass("c")),
				run("r2", root, report.Crashed, pass("a"), report.Test{Name: "b", Suite: "pkg", Status: report.TestRunning}),
			},
			run:  run("r3", root, report.Passed, pass("a"), pass("b"), pass("c")),
			want: &report.Changes{Since: "r2", Fixed: names("b")}},
		{name: "after a first run that crashed the tests it never reached are not new",
			before: []Run{run("r1", root, report.Crashed, pass("a"), report.Test{Name: "b", Suite: "pkg", Status: report.TestRunning})},
			run:    run("r2", root, report.Failed, pass("a"), pass("b"), fail("c", "x")),
			want:   &report.Changes{Since: "r1", NewFailures: names("c"), Fixed: names("b")}},
		{name: "a first rerun of what failed is partial too",
			before: []Run{
				{ID: "r1", Root: root, Key: goKey, Status: report.Failed, Tests: []report.Test{fail("b", "x")}, Subset: true},
				run("r2", root, report.Stuck, pass("a"), report.Test{Name: "b", Suite: "pkg", Status: report.TestRunning}),
			},
			run:  run("r3", root, report.Passed, pass("a"), pass("b"), pass("c")),
			want: &report.Changes{Since: "r2", Fixed: names("b")}},
		{name: "after a complete run new tests are new again",
			before: []Run{
				run("r1", root, report.Crashed, pass("a"), report.Test{Name: "b", Suite: "pkg", Status: report.TestRunning}),
				run("r2", root, report.Passed, pass("a"), pass("b")),
			},
			run:  run("r3", root, report.Passed, pass("a"), pass("b"), pass("c")),
			want: &report.Changes{Since: "r2", NewTests: names("c")}},
		{name: "a failed run whose test binary died removes nothing",
			before: []Run{run("r1", root, report.Passed, pass("a"), pass("b"), pass("c"))},
			run:    Run{ID: "r2", Root: root, Key: goKey, Status: report.Failed, Tests: []report.Test{pass("a"), fail("b", "panic")}, Unfinished: true},
			want:   &report.Changes{Since: "r1", NewFailures: names("b"), Partial: true}},
		{name: "after a binary died the tests it never reached are not new",
			before: []Run{
				run("r1", root, report.Passed, pass("a"), pass("b"), pass("c")),
				{ID: "r2", Root: root, Key: goKey, Status: report.Failed, Tests: []report.Test{pass("a"), fail("b", "panic")}, Unfinished: true},
			},
			run:  run("r3", root, report.Passed, pass("a"), pass("b"), pass("c")),
			want: &report.Changes{Since: "r2", Fixed: names("b")}},
		{name: "stuck tests fail",
			before: []Run{run("r1", root, report.Passed, pass("a"))},
			run: Run{ID: "r2", Root: root, Key: goKey, Status: report.Stuck,
				Tests: []report.Test{{Name: "a", Suite: "pkg", Status: report.TestRunning}}, Stuck: []report.StuckTest{{Name: "a"}}},
			want: &report.Changes{Since: "r1", NewFailures: names("a"), Partial: true}},
		{name: "another selection compares with its own runs",
			before: []Run{
				run("r1", root, report.Failed, fail("a", "x")),
				{ID: "r2", Root: root, Key: Key{Framework: "go", Level: "all", Test: "a"}, Status: report.Passed, Tests: []report.Test{pass("a")}},
			},
			run:  run("r3", root, report.Failed, fail("a", "x")),
			want: &report.Changes{Since: "r1", StillFailing: names("a")}},
		{name: "the same name in two suites is told apart",
			before: []Run{run("r1", root, report.Passed, pass("a"), report.Test{Name: "a", Suite: "other", Status: report.TestPassed})},
			run:    run("r2", root, report.Failed, pass("a"), report.Test{Name: "a", Suite: "other", Status: report.TestFailed}),
			want:   &report.Changes{Since: "r1", NewFailures: names("a (other)")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Open(t.TempDir())
			for _, r := range tt.before {
				record(t, s, r)
			}
			got := record(t, s, tt.run).Changes
			if !equalJSON(got, tt.want) {
				t.Errorf("changes:\n got %s\nwant %s", js(got), js(tt.want))
			}
		})
	}
}

func js(v any) string { b, _ := json.Marshal(v); return string(b) }

func equalJSON(a, b any) bool { return js(a) == js(b) }

func TestClip(t *testing.T) {
	var many []string
	for i := range 25 {
		many = append(many, fmt.Sprintf("t%02d", i))
	}
	c := &report.Changes{Since: "r", NewTests: names(many...), Fixed: names("a")}
	got := Clip(c, 10)
	if got.NewTests.Count != 25 || len(got.NewTests.Names) != 10 || got.Fixed.Count != 1 || len(got.Fixed.Names) != 1 {
		t.Errorf("Clip = %s", js(got))
	}
	if len(c.NewTests.Names) != 25 {
		t.Errorf("Clip changed its argument: %d names left", len(c.NewTests.Names))
	}
}

func TestRepeated(t *testing.T) {
	s := Open(t.TempDir())
	id := TestID{"pkg", "b"}
	steps := []struct {
		msg  string
		line int
		pass bool
		want int
	}{
		{msg: "got 0xc000012345 after 1.5s in /tmp/TestB123/001", want: 0},
		{msg: "got 0xc000099999 after 2ms in /tmp/TestB987/002", want: 2},
		{msg: "got 0xc000011111 after 3.25s in /tmp/TestB555/001", want: 3},
		{msg: "another message", want: 0},
		{msg: "another message", want: 2},
		{msg: "another message", line: 13, want: 0},
		{pass: true},
		{msg: "another message", line: 13, want: 0},
	}
	for i, st := range steps {
		b := fail("b", st.msg)
		if st.line != 0 {
			b.Failure.Line = st.line
		}
		if st.pass {
			b = pass("b")
		}
		res := record(t, s, run(fmt.Sprint("r", i), root, report.Failed, pass("a"), b))
		if got := res.Repeated[id]; got != st.want {
			t.Errorf("step %d (%q): repeated %d, want %d", i, st.msg, got, st.want)
		}
	}
	// A run that does not run b keeps its streak.
	record(t, s, Run{ID: "other", Root: root, Key: Key{Framework: "go", Test: "a"}, Status: report.Passed, Tests: []report.Test{pass("a")}})
	res := record(t, s, run("last", root, report.Failed, fail("b", "another message")))
	if got := res.Repeated[id]; got != 0 {
		t.Errorf("line 12 after line 13: repeated %d, want 0 (a new failure)", got)
	}
}

func TestNormalise(t *testing.T) {
	tests := []struct{ a, b string }{
		{"expected 5, got 4", "expected 7, got 12"},
		{"nil pointer at 0xc0000a1b2c", "nil pointer at 0xdeadbeef"},
		{"took 1.5s", "took 230ms"},
		{"open /tmp/TestX1234/001/f.txt: no such file", "open /tmp/TestX9/003/f.txt: no such file"},
		{"at 2026-11-25T13:31:39Z", "at 2025-01-02T03:04:05.123+01:00"},
		{"id 123e4567-e89b-12d3-a456-426614174000", "id 00000000-0000-0000-0000-000000000000"},
		{"a  \n b", "a b"},
	}
	for _, tt := range tests {
		if na, nb := Normalise(tt.a), Normalise(tt.b); na != nb {
			t.Errorf("Normalise(%q) = %q, Normalise(%q) = %q: want equal", tt.a, na, tt.b, nb)
		}
	}
	for _, d := range [][2]string{{"expected true", "expected false"}, {"index out of range", "nil map"}} {
		if Normalise(d[0]) == Normalise(d[1]) {
			t.Errorf("Normalise(%q) == Normalise(%q)", d[0], d[1])
		}
	}
}

func TestUnusableFileMovedAside(t *testing.T) {
	foreign, _ := json.Marshal(file{Format: format, Version: version, Project: "/somewhere/else", Runs: []Entry{{RunID: "x"}}})
	future, _ := json.Marshal(map[string]any{"format": format, "version": 99, "project_root": root})
	tests := []struct {
		name, content, suffix string
	}{
		{"truncated", `{"format":"strobe-history","version":1,"project_root":"/project","runs":[{"run_id":"r1"`, "corrupt"},
		{"binary", "\x00\x01\x02garbage", "corrupt"},
		{"other project", string(foreign), "foreign"},
		{"other version", string(future), "foreign"},
		{"not a history", `{"hello":"world"}`, "foreign"},
		{"nonsense streak", `{"format":"strobe-history","version":1,"project_root":"/project","runs":[],"baselines":[],"streaks":[{"name":"a","fingerprint":"f","runs":0,"run_id":"r"}]}`, "corrupt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s := Open(dir)
			path := Path(dir, root)
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			res := record(t, s, run("r2", root, report.Failed, fail("a", "x")))
			if res.Changes != nil {
				t.Errorf("compared with an unusable file: %s", js(res.Changes))
			}
			if want := path + "." + tt.suffix; res.MovedAside != want {
				t.Errorf("moved aside to %q, want %q", res.MovedAside, want)
			}
			if b, err := os.ReadFile(path + "." + tt.suffix); err != nil || string(b) != tt.content {
				t.Errorf("the unusable file was not kept as it was: %v", err)
			}
			// The fresh history works.
			res = record(t, s, run("r3", root, report.Failed, fail("a", "x")))
			if res.Changes == nil || res.Changes.Since != "r2" || res.Changes.StillFailing.Count != 1 {
				t.Errorf("after a fresh start: %s", js(res.Changes))
			}
		})
	}
}

func TestPrune(t *testing.T) {
	s := Open(t.TempDir())
	for i := range KeepRuns + 10 {
		// Each run has its own selection, whose baseline must go with
		// the run.
		r := run(fmt.Sprint("r", i), root, report.Failed, fail("a", "x"))
		r.Key.Test = fmt.Sprint("only", i)
		record(t, s, r)
	}
	runs, err := s.Runs(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != KeepRuns || runs[0].RunID != fmt.Sprint("r", KeepRuns+9) || runs[len(runs)-1].RunID != "r10" {
		t.Fatalf("%d runs kept, from %s to %s; want %d, r%d to r10", len(runs), runs[0].RunID, runs[len(runs)-1].RunID, KeepRuns, KeepRuns+9)
	}
	f, _, err := load(Path(s.Dir, root), root)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Baselines) != KeepRuns {
		t.Errorf("%d baselines kept for %d selections run", len(f.Baselines), KeepRuns)
	}
	if b, _ := s.Baseline(root, Key{Framework: "go", Level: "all", Test: "only0"}); b != nil {
		t.Errorf("baseline of a selection whose runs were pruned is still there: %s", b.RunID)
	}
}

func TestPruneProjects(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir)
	record(t, s, run("old", "/old", report.Passed, pass("a")))
	record(t, s, run("kept", "/kept", report.Passed, pass("a")))
	long := time.Now().Add(-keepProjects - time.Hour)
	for _, p := range []string{Path(dir, "/old"), Path(dir, "/old") + ".lock"} {
		if err := os.Chtimes(p, long, long); err != nil {
			t.Fatal(err)
		}
	}
	record(t, s, run("new", "/new", report.Passed, pass("a")))
	for root, want := range map[string]bool{"/old": false, "/kept": true, "/new": true} {
		if _, err := os.Stat(Path(dir, root)); (err == nil) != want {
			t.Errorf("history of %s kept: %t, want %t", root, err == nil, want)
		}
	}
	if _, err := os.Stat(Path(dir, "/old") + ".lock"); err == nil {
		t.Errorf("the lock file of a pruned project stays")
	}
}

func TestBaselineForRerunningFailures(t *testing.T) {
	s := Open(t.TempDir())
	record(t, s, run("r1", root, report.Failed, pass("a"), fail("b", "x"), fail("c", "y")))
	b, err := s.Baseline(root, goKey)
	if err != nil || b == nil {
		t.Fatalf("Baseline: %v, %v", b, err)
	}
	if got := b.Failing["pkg"]; !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("failing %v, want [b c]", got)
	}
	if b, _ := Open(t.TempDir()).Baseline(root, goKey); b != nil {
		t.Errorf("baseline in an empty store: %+v", b)
	}
}

// TestTwoProcesses records from this process and a second one at once, into
// one project: no run may be lost (each writer must see the other's runs).
func TestTwoProcesses(t *testing.T) {
	dir := t.TempDir()
	const each = KeepRuns / 2
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir+"|"+root+"|other|"+strconv.Itoa(each))
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if code := helper(dir + "|" + root + "|this|" + strconv.Itoa(each)); code != 0 {
		t.Errorf("this process's writes failed")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the other process: %v\n%s", err, out.String())
	}
	runs, err := Open(dir).Runs(root)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range runs {
		got[r.RunID] = true
	}
	for _, p := range []string{"this", "other"} {
		for i := range each {
			if id := fmt.Sprintf("%s-%d", p, i); !got[id] {
				t.Errorf("run %s was lost", id)
			}
		}
	}
	if len(runs) != 2*each {
		t.Errorf("%d runs recorded, want %d", len(runs), 2*each)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b = append(s.b, p...)
	return len(p), nil
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.b)
}

func TestLockedTooLong(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the lock timeout")
	}
	dir := t.TempDir()
	s := Open(dir)
	record(t, s, run("r1", root, report.Passed, pass("a")))
	unlock, err := lock(Path(dir, root), syscall.LOCK_EX)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	start := time.Now()
	if _, err := s.Record(run("r2", root, report.Passed, pass("a"))); err == nil {
		t.Errorf("Record under another's lock succeeded")
	}
	if d := time.Since(start); d < lockWait {
		t.Errorf("gave up after %v, before %v", d, lockWait)
	}
}

// TestStartWritesWhileTheCallerGoesOn: Start's comparison is ready at
// once and its file is written meanwhile, under the lock, so that runs
// started together in one process all land, each comparing with the one
// before it.
func TestStartWritesWhileTheCallerGoesOn(t *testing.T) {
	s := Open(t.TempDir())
	const n = 16
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, written, err := s.Start(run(fmt.Sprint("r", i), root, report.Passed, pass("a")), nil)
			if err != nil {
				errs <- err
				return
			}
			if err := written(); err != nil {
				errs <- err
				return
			}
			if err := written(); err != nil { // a second wait says the same
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	f, _, err := load(Path(s.Dir, root), root)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Runs) != n {
		t.Fatalf("%d runs in the history, want %d: a write landed over another", len(f.Runs), n)
	}
	compared := 0
	for _, r := range f.Runs {
		if r.Changes != nil {
			compared++
		}
	}
	if compared != n-1 {
		t.Errorf("%d runs compared with the one before, want %d", compared, n-1)
	}
}

// A project of 64,000 tests (pypa/packaging's suite) has a history whose
// baseline lists 64,000 names in one suite. The codec the history used to
// read it with (segmentio/encoding/json v0.5.4) corrupted the heap decoding
// such a map[string][]string under Go 1.26: "found bad pointer in Go heap",
// and the strobe that ran the tests died before it answered. Read it
// back, with garbage collections, as a run of that project does.
func TestLargeBaselineReadBack(t *testing.T) {
	s := Open(t.TempDir())
	tests := make([]report.Test, 64_000)
	for i := range tests {
		tests[i] = report.Test{Name: fmt.Sprintf("tests/test_specifiers.py::test_case_%06d[param-%d]", i, i), Status: report.TestPassed}
	}
	record(t, s, Run{ID: "r0", Root: root, Key: goKey, Status: report.Passed, Tests: tests})
	for i := range 5 {
		b, err := s.Baseline(root, goKey)
		if err != nil || b == nil {
			t.Fatalf("baseline: %v, %v", b, err)
		}
		if n := len(b.Tests[""]); n != len(tests) {
			t.Fatalf("read back %d names, want %d", n, len(tests))
		}
		runtime.GC()
		if got, want := b.Tests[""][i*1000], tests[i*1000].Name; got != want {
			t.Fatalf("name %d read back as %q, want %q", i*1000, got, want)
		}
	}
}

// TestDoctestMoved: a doctest is named by its line ("src/lib.rs - foo
// (line 10)"), and a line added above it renames it. The run compares it
// with the baseline's test of the same name at another line: the doctest
// failing in both was a new failure, and every later doctest of the file
// was removed and new (regex-syntax 0.8.12, found by a helper's round).
// Two doctests of one item pair in the order of their lines; when an
// item gained or lost one, nothing says which is which, and they stay new
// and removed.
func TestDoctestMoved(t *testing.T) {
	s := Open(t.TempDir())
	doc := func(item string, line int) string { return fmt.Sprintf("src/lib.rs - %s (line %d)", item, line) }
	record(t, s, run("r1", root, report.Failed, fail(doc("foo", 10), "boom"), pass(doc("bar", 20)), pass(doc("bar", 30)), pass("tests::x")))
	res := record(t, s, run("r2", root, report.Failed, fail(doc("foo", 11), "boom"), pass(doc("bar", 21)), pass(doc("bar", 31)), pass("tests::x")))
	c := res.Changes
	if c == nil || c.NewFailures.Count != 0 || c.StillFailing.Count != 1 || c.StillFailing.Names[0] != doc("foo", 11) || c.NewTests.Count != 0 || c.RemovedTests.Count != 0 {
		t.Errorf("lines moved by one: %s; want foo still failing, nothing new or removed", js(c))
	}
	res = record(t, s, run("r3", root, report.Passed, pass(doc("foo", 12)), pass(doc("bar", 22)), pass(doc("bar", 32)), pass("tests::x")))
	if c := res.Changes; c == nil || c.Fixed.Count != 1 || c.Fixed.Names[0] != doc("foo", 12) || c.NewTests.Count != 0 || c.RemovedTests.Count != 0 {
		t.Errorf("moved again and fixed: %s; want foo fixed, nothing new or removed", js(c))
	}
	res = record(t, s, run("r4", root, report.Passed, pass(doc("foo", 12)), pass(doc("bar", 22)), pass(doc("bar", 27)), pass(doc("bar", 40)), pass("tests::x")))
	if c := res.Changes; c == nil || c.NewTests.Count != 2 || c.RemovedTests.Count != 1 {
		t.Errorf("a doctest added to bar: %s; want bar's two at new lines new, and the one gone removed", js(c))
	}
}

// TestSuiteFailureFixed: a suite's own failure (GoogleTest's
// SetUpTestSuite, JUnit 5's @BeforeAll), named by the suite alone, is
// fixed when the suite's tests run and pass, not removed (found on a
// GoogleTest and a Maven project broken on purpose); still failing tests
// under it leave it neither fixed nor removed.
func TestSuiteFailureFixed(t *testing.T) {
	s := Open(t.TempDir())
	record(t, s, run("r1", root, report.Failed, fail("Fixture", "SetUpTestSuite"), pass("Other.Works")))
	res := record(t, s, run("r2", root, report.Passed, pass("Fixture.Works"), pass("Fixture.AlsoWorks"), pass("Other.Works")))
	if c := res.Changes; c == nil || c.Fixed.Count != 1 || c.Fixed.Names[0] != "Fixture" || c.RemovedTests.Count != 0 {
		t.Errorf("the suite's tests pass: %s; want Fixture fixed, nothing removed", js(c))
	}
	s = Open(t.TempDir())
	record(t, s, run("r1", root, report.Failed, fail("SetupTest", "@BeforeAll threw")))
	res = record(t, s, run("r2", root, report.Failed, fail("SetupTest#one", "boom"), pass("SetupTest#two")))
	if c := res.Changes; c == nil || c.Fixed.Count != 0 || c.RemovedTests.Count != 0 || c.NewFailures.Count != 1 {
		t.Errorf("one of the class's tests fails: %s; want SetupTest neither fixed nor removed, SetupTest#one a new failure", js(c))
	}

	// A rerun of the failures (--failed, a subset) that runs the suite's
	// tests, passing, fixes it once: the next rerun has nothing of it to
	// run. Each such rerun listed it fixed again until a whole run.
	s = Open(t.TempDir())
	record(t, s, run("r1", root, report.Failed, fail("Fixture", "SetUpTestSuite"), fail("Other.Breaks", "boom"), pass("Other.Works")))
	rerun := run("r2", root, report.Failed, pass("Fixture.Works"), pass("Fixture.AlsoWorks"), fail("Other.Breaks", "boom"))
	rerun.Subset = true
	res = record(t, s, rerun)
	if c := res.Changes; c == nil || c.Fixed.Count != 1 || c.Fixed.Names[0] != "Fixture" {
		t.Errorf("the rerun: %s; want Fixture fixed", js(c))
	}
	rr, err := s.ToRerun(root, goKey)
	if err != nil {
		t.Fatal(err)
	}
	if rr.N != 1 || len(rr.Failing["pkg"]) != 1 || rr.Failing["pkg"][0] != "Other.Breaks" {
		t.Errorf("after the rerun, to rerun: %+v; want Other.Breaks alone", rr.Failing)
	}
}
