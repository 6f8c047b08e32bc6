package junit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/details"
	"strobe/internal/testutil"
	"strobe/junit"
	"strobe/report"
	"strobe/runner"
)

var update = flag.Bool("update", false, "rewrite golden files")

// parsed is what junitparser understood of a report (testdata/read_junit.py).
type parsed struct {
	Tag                              string
	Tests, Failures, Errors, Skipped int
	Suites                           []struct {
		Name                             string
		Tests, Failures, Errors, Skipped int
		Time                             float64
		Cases                            []struct {
			Classname, Name, File string
			Line                  int
			Time                  float64
			Results               []struct{ Tag, Message, Type, Text string }
			SystemOut             string `json:"system_out"`
		}
	}
}

// readJUnit parses path with junitparser, a real consumer of the format.
// Without it the test skips, and fails under CI=true.
func readJUnit(t *testing.T, path string) *parsed {
	t.Helper()
	py := testutil.RequireTool(t, "python3")
	if out, err := exec.Command(py, "-c", "import junitparser").CombinedOutput(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("junitparser is missing (%s): .ci/run must pip install it", bytes.TrimSpace(out))
		}
		t.Skip("junitparser is not installed: pip install junitparser")
	}
	var stderr bytes.Buffer
	cmd := exec.Command(py, filepath.Join("testdata", "read_junit.py"), path)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("junitparser could not read %s: %v\n%s", path, err, stderr.String())
	}
	var p parsed
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatalf("reading junitparser's answer: %v\n%s", err, out)
	}
	return &p
}

// checkCounts checks that every count the report declares is what its
// cases say, as a CI system summing them would find.
func checkCounts(t *testing.T, p *parsed) {
	t.Helper()
	if p.Tag != "testsuites" {
		t.Errorf("root element %q, want testsuites", p.Tag)
	}
	var all [4]int
	for _, s := range p.Suites {
		var n [4]int
		for _, c := range s.Cases {
			n[0]++
			for _, r := range c.Results {
				switch r.Tag {
				case "failure":
					n[1]++
				case "error":
					n[2]++
				case "skipped":
					n[3]++
				}
			}
		}
		if got := [4]int{s.Tests, s.Failures, s.Errors, s.Skipped}; got != n {
			t.Errorf("suite %s declares tests/failures/errors/skipped %v, its cases say %v", s.Name, got, n)
		}
		for i := range all {
			all[i] += n[i]
		}
	}
	if got := [4]int{p.Tests, p.Failures, p.Errors, p.Skipped}; got != all {
		t.Errorf("testsuites declares %v, its suites say %v", got, all)
	}
}

// TestRealRuns runs real go and cargo suites through the runner and reads
// the JUnit report each run wrote with junitparser: a testsuite per
// package or test target, every test of the details file once, failures
// with their message and file:line.
func TestRealRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs real suites")
	}
	tests := []struct {
		tool, framework string
		fixture         string
		level           string
	}{
		{"go", "go", testutil.Fixture("go", "basic"), "unit"},
		{"cargo", "cargo", testutil.Fixture("cargo", "basic"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.framework, func(t *testing.T) {
			testutil.RequireTool(t, tt.tool)
			dir := t.TempDir()
			resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: tt.fixture, Framework: tt.framework, Level: tt.level, Timeout: 5 * time.Minute},
				runner.Options{DetailsDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != report.Failed {
				t.Fatalf("status %s, want failed: %s", resp.Status, resp.Hint)
			}
			if want := details.JUnitPath(dir, resp.RunID); resp.JUnit != want {
				t.Fatalf("junit %q, want %q beside the details file", resp.JUnit, want)
			}
			rec, err := details.Read(dir, resp.RunID)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Response.JUnit != resp.JUnit {
				t.Errorf("details file's junit %q, want %q", rec.Response.JUnit, resp.JUnit)
			}
			p := readJUnit(t, resp.JUnit)
			checkCounts(t, p)
			checkAgainst(t, p, rec)
		})
	}
}

// checkAgainst checks that the report holds every test of rec in its suite,
// with its outcome, and each failure's message and location.
func checkAgainst(t *testing.T, p *parsed, rec *details.Record) {
	t.Helper()
	type id struct{ suite, name string }
	cases := map[id]int{}
	suites := map[string]bool{}
	for si, s := range p.Suites {
		if suites[s.Name] {
			t.Errorf("suite %s appears twice", s.Name)
		}
		suites[s.Name] = true
		for ci, c := range s.Cases {
			if c.Classname != s.Name {
				t.Errorf("case %s has classname %q in suite %q", c.Name, c.Classname, s.Name)
			}
			cases[id{s.Name, c.Name}] = si<<16 | ci
		}
	}
	if len(cases) != len(rec.Tests) {
		t.Errorf("%d cases for %d tests", len(cases), len(rec.Tests))
	}
	if len(suites) < 2 {
		t.Errorf("one suite only (%v): want one per package or target", suites)
	}
	for _, tst := range rec.Tests {
		at, ok := cases[id{tst.Suite, tst.Name}]
		if !ok {
			t.Errorf("test %s of %s missing from the report", tst.Name, tst.Suite)
			continue
		}
		c := p.Suites[at>>16].Cases[at&0xffff]
		var tags []string
		for _, r := range c.Results {
			tags = append(tags, r.Tag)
		}
		want := map[report.TestStatus]string{report.TestPassed: "", report.TestFailed: "failure", report.TestSkipped: "skipped", report.TestRunning: "error", report.TestStuck: "error"}[tst.Status]
		if got := strings.Join(tags, ","); got != want {
			t.Errorf("%s: results %q, want %q", tst.Name, got, want)
			continue
		}
		if f := tst.Failure; f != nil {
			r := c.Results[0]
			if c.File != f.File || c.Line != f.Line {
				t.Errorf("%s: at %s:%d, want %s:%d", tst.Name, c.File, c.Line, f.File, f.Line)
			}
			if first := strings.SplitN(strings.TrimSpace(f.Message), "\n", 2)[0]; r.Message != strings.TrimSpace(first) {
				t.Errorf("%s: message %q, want %q", tst.Name, r.Message, first)
			}
			if !strings.Contains(r.Text, fmt.Sprintf("%s:%d", f.File, f.Line)) && f.File != "" || !strings.Contains(r.Text, strings.TrimSpace(f.Message)) {
				t.Errorf("%s: failure body %q lacks the location or the message", tst.Name, r.Text)
			}
		}
		if tst.Output != "" && !strings.Contains(tst.Output, strings.TrimSpace(c.SystemOut)) {
			t.Errorf("%s: system-out %q is not the test's output", tst.Name, c.SystemOut)
		}
	}
}

// sample is a run with every kind of case: pass, failure, skip, a stuck
// test with its stacks, a test a crash left running, output to clip and
// bytes XML cannot carry.
func sample() junit.Run {
	long := strings.Repeat("0123456789abcdef", 2048) // 32 KiB
	resp := &report.Response{Status: report.Stuck, Framework: "go", Summary: &report.Summary{DurationMS: 1500},
		Stuck: []report.StuckTest{{Name: "TestHang", ElapsedMS: 1200, Diagnosis: "deadlock: every goroutine waits",
			Threads: []report.Thread{{Name: "goroutine 7", Stack: []string{"sync.(*Mutex).Lock (sync/mutex.go:81)", "example.com/p.TestHang (p/p_test.go:12)"}}}}}}
	return junit.Run{Response: resp, Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Tests: []report.Test{
		{Name: "TestOK", Suite: "example.com/p", Status: report.TestPassed, DurationMS: 12, Output: "hello <world> & \x1b[31mred\x1b[0m\n"},
		{Name: "TestBad", Suite: "example.com/p", Status: report.TestFailed, DurationMS: 3, Output: long,
			Failure: &report.Failure{Name: "TestBad", File: "p/p_test.go", Line: 30, Message: "\nwant 1\n got 2", Rerun: "go test -run '^TestBad$' ./p"}},
		{Name: "TestSkip", Suite: "example.com/q", Status: report.TestSkipped},
		{Name: "TestHang", Suite: "example.com/q", Status: report.TestStuck, DurationMS: 1200},
		{Name: "TestCrashed", Suite: "example.com/q", Status: report.TestRunning},
	}}
}

func TestGolden(t *testing.T) {
	doc := junit.Build(sample())
	// A flaky test's failed attempts, as retries will report them.
	doc.Suites[0].Cases[0].FlakyFailures = []junit.Problem{{Message: "want 1", Type: "failure", Body: "p/p_test.go:9\nwant 1"}}
	var b bytes.Buffer
	if err := junit.Encode(&b, doc); err != nil {
		t.Fatal(err)
	}
	golden(t, "sample.golden.xml", b.Bytes())

	path := filepath.Join(t.TempDir(), "report.xml")
	if err := junit.WriteFile(path, doc); err != nil {
		t.Fatal(err)
	}
	p := readJUnit(t, path)
	checkCounts(t, p)
	if got := [4]int{p.Tests, p.Failures, p.Errors, p.Skipped}; got != [4]int{5, 1, 2, 1} {
		t.Errorf("tests/failures/errors/skipped %v, want [5 1 2 1]", got)
	}
	hang := p.Suites[1].Cases[1]
	if len(hang.Results) != 1 || hang.Results[0].Type != "stuck" || !strings.Contains(hang.Results[0].Text, "p/p_test.go:12") {
		t.Errorf("the stuck test is %+v, want an error of type stuck with its stack", hang)
	}
	if out := p.Suites[0].Cases[1].SystemOut; len(out) > 17<<10 || !strings.HasSuffix(out, "cdef") {
		t.Errorf("system-out of %d bytes, want the newest 16 KiB", len(out))
	}
}

func TestNothingRan(t *testing.T) {
	resp := &report.Response{Status: report.BuildFailed, Framework: "cargo",
		BuildErrors: []report.BuildError{{File: "src/lib.rs", Line: 3, Message: "mismatched types\nexpected i32"}}}
	doc := junit.Build(junit.Run{Response: resp})
	if doc.Errors != 1 || len(doc.Suites) != 1 {
		t.Fatalf("a build failure gives %d errors in %d suites, want one case that says why", doc.Errors, len(doc.Suites))
	}
	c := doc.Suites[0].Cases[0]
	if c.Error.Message != "mismatched types" || c.File != "src/lib.rs" || c.Line != 3 {
		t.Errorf("build failure case %+v", c)
	}
	if doc := junit.Build(junit.Run{Response: &report.Response{Status: report.NoTests}}); len(doc.Suites) != 0 {
		t.Errorf("no tests gives %d suites, want none", len(doc.Suites))
	}
}

// TestSkippedWhy: a skipped test the adapter says why of (node:test's
// cancelled tests carry it as their failure) is <skipped message="why">
// at its file:line, and counts skipped, not failed.
func TestSkippedWhy(t *testing.T) {
	resp := &report.Response{Status: report.Failed, Framework: "node"}
	why := &report.Failure{Name: "db › reads", File: "test/db.test.js", Line: 9,
		Message: "cancelled by node: the before hook of its describe block `db` failed\nmore"}
	doc := junit.Build(junit.Run{Response: resp, Tests: []report.Test{
		{Name: "db › reads", Suite: "test/db.test.js", Status: report.TestSkipped, Failure: why},
		{Name: "later", Suite: "test/db.test.js", Status: report.TestSkipped},
	}})
	if doc.Skipped != 2 || doc.Failures != 0 {
		t.Errorf("skipped %d, failures %d, want 2 skipped and no failure", doc.Skipped, doc.Failures)
	}
	c := doc.Suites[0].Cases[0]
	if c.Skipped == nil || c.Skipped.Message != "cancelled by node: the before hook of its describe block `db` failed" || c.File != "test/db.test.js" || c.Line != 9 {
		t.Errorf("cancelled case %+v (skipped %+v)", c, c.Skipped)
	}
	if c := doc.Suites[0].Cases[1]; c.Skipped == nil || c.Skipped.Message != "" {
		t.Errorf("plain skipped case %+v", c.Skipped)
	}
}

func TestOutputBudget(t *testing.T) {
	run := sample()
	run.Tests = nil
	for range 400 {
		run.Tests = append(run.Tests, report.Test{Name: "T", Suite: "s", Status: report.TestPassed, Output: strings.Repeat("x", 20<<10)})
	}
	var total int
	for _, c := range junit.Build(run).Suites[0].Cases {
		if c.SystemOut != nil {
			total += len(c.SystemOut.Body)
		}
	}
	if total > 4<<20+64<<10 {
		t.Errorf("%d bytes of output in one report, want at most about 4 MiB", total)
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run '%s' -update writes it)", err, t.Name())
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs (go test -run '%s' -update rewrites it):\n%s", path, t.Name(), got)
	}
}

// TestEncodeMatchesEncodingXML checks the hand-written encoder against what
// encoding/xml writes for the model's tags, byte for byte.
func TestEncodeMatchesEncodingXML(t *testing.T) {
	doc := junit.Build(sample())
	doc.Suites[0].Cases[0].FlakyFailures = []junit.Problem{{Message: "a \"quoted\" <one>", Body: "x\ty\r\n"}}
	doc.Suites[1].Cases[0].Skipped.Message = "slow & 'flaky'"
	var got, want bytes.Buffer
	if err := junit.Encode(&got, doc); err != nil {
		t.Fatal(err)
	}
	want.WriteString(xml.Header)
	enc := xml.NewEncoder(&want)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	want.WriteString("\n")
	if got.String() != want.String() {
		t.Errorf("Encode differs from encoding/xml:\n got %s\nwant %s", got.String(), want.String())
	}
}
