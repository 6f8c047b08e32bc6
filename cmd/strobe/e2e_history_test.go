package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// TestHistoryAndJUnit runs one project twice, first through the daemon and
// then in process, with its results edited in between: both share the
// history of STROBE_HOME, so the second answer says what changed, `strobe
// runs` and the human output show it, and --junit writes each run's report
// where the CI job asked.
func TestHistoryAndJUnit(t *testing.T) {
	tmp, home, project := tmpdir(t), strobeHome(t), t.TempDir()
	run := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(strobeBin, args...)
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "STROBE_HOME="+home)
		out, err := cmd.Output()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatal(err)
		}
		return string(out), cmd.ProcessState.ExitCode()
	}
	tap := filepath.Join(project, "results.tap")
	test := func(results string, extra ...string) (report.Response, string) {
		t.Helper()
		if err := os.WriteFile(tap, []byte(results), 0o644); err != nil {
			t.Fatal(err)
		}
		xml := filepath.Join(t.TempDir(), "junit.xml")
		out, _ := run(append([]string{"test", project, "--command", "cat results.tap", "--json", "--junit", xml}, extra...)...)
		var resp report.Response
		if err := json.Unmarshal([]byte(out), &resp); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		b, err := os.ReadFile(xml)
		if err != nil {
			t.Fatalf("--junit wrote no file: %v", err)
		}
		return resp, string(b)
	}

	first, xml := test("1..2\nok 1 - alpha\nnot ok 2 - beta\n")
	if first.Status != report.Failed || first.Changes != nil || first.JUnit == "" {
		t.Fatalf("first run: %+v", first)
	}
	if !strings.Contains(xml, `<testcase classname="generic" name="beta"`) || !strings.Contains(xml, "<failure") {
		t.Errorf("--junit of the first run:\n%s", xml)
	}
	second, _ := test("1..3\nnot ok 1 - alpha\nok 2 - beta\nok 3 - gamma\n", "--no-daemon")
	want := &report.Changes{Since: first.RunID, NewFailures: report.Names{Count: 1, Names: []string{"alpha"}},
		Fixed: report.Names{Count: 1, Names: []string{"beta"}}, NewTests: report.Names{Count: 1, Names: []string{"gamma"}}}
	if got, _ := json.Marshal(second.Changes); string(got) != mustJSON(want) {
		t.Errorf("second run's changes\n got %s\nwant %s", got, mustJSON(want))
	}
	list, code := run("runs")
	if code != 0 || !strings.Contains(list, "new_failures 1, fixed 1, new_tests 1") {
		t.Errorf("strobe runs does not show the changes:\n%s", list)
	}
	human, _ := run("show", second.RunID)
	if !strings.Contains(human, "since run "+shortID(first.RunID)) || !strings.Contains(human, "fixed: beta") {
		t.Errorf("strobe show does not show the changes:\n%s", human)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestHistoryAfterAPanic: a Go test that panics ends its package's test
// binary, and the tests after it never run. The run failed, but not as a
// complete run: those tests were answered "removed" (go-cmp: nine
// examples removed when a new test panicked before them).
func TestHistoryAfterAPanic(t *testing.T) {
	testutil.RequireTool(t, "go")
	project := t.TempDir()
	adapterstest.WriteFiles(t, project, map[string]string{
		"go.mod": "module example.com/died\n\ngo 1.22\n",
		"died_test.go": `package died

import (
	"fmt"
	"os"
	"testing"
)

func TestFirst(t *testing.T) {
	if os.Getenv("DIED_PANIC") != "" {
		var m map[string]int
		m["x"] = 1
	}
}

func TestSecond(t *testing.T) {}

func Example_last() {
	fmt.Println("last")
	// Output: last
}
`})
	first := strobe(t, true, "test", project, "--no-daemon")
	if first.resp.Status != report.Passed || first.resp.Summary.Passed != 3 {
		t.Fatalf("first run: %+v", first.resp)
	}
	t.Setenv("DIED_PANIC", "1")
	second := strobe(t, true, "test", project, "--no-daemon")
	c := second.resp.Changes
	if second.resp.Status != report.Failed || c == nil || c.NewFailures.Count != 1 || c.RemovedTests.Count != 0 || !c.Partial {
		t.Errorf("after the panic: status %s, changes %s; want TestFirst a new failure, nothing removed, a partial run",
			second.resp.Status, mustJSON(c))
	}
	t.Setenv("DIED_PANIC", "")
	third := strobe(t, true, "test", project, "--no-daemon")
	if c := third.resp.Changes; c == nil || c.Fixed.Count != 1 || c.NewTests.Count != 0 {
		t.Errorf("after the fix: changes %s; want TestFirst fixed, nothing new", mustJSON(c))
	}
}
