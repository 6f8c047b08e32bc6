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

// TestHistoryAfterACrashCutTestsOff: a cargo test binary that dies of a
// signal while it runs two tests fails both ("did not finish"), and
// nothing says which of them did it. Neither failed on its own: the
// crash's answer lists them as cut off, not as new failures, and the
// next run, where both pass, fixed nothing (it said both "fixed").
func TestHistoryAfterACrashCutTestsOff(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	project := t.TempDir()
	adapterstest.WriteFiles(t, project, map[string]string{
		"Cargo.toml": "[package]\nname = \"cutoff\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\n",
		"src/lib.rs": "",
		"tests/it.rs": `use std::time::Duration;

#[test]
fn a_bystander() {
    std::thread::sleep(Duration::from_secs(2));
}

#[test]
fn b_crashes() {
    std::thread::sleep(Duration::from_millis(300));
    if std::env::var("CUTOFF_CRASH").is_ok_and(|v| v == "1") {
        std::process::abort();
    }
}

#[test]
fn c_quick() {}
`})
	tmp := tmpdir(t)
	run := func(crash string, args ...string) string {
		t.Helper()
		cmd := exec.Command(strobeBin, args...)
		// RUST_TEST_THREADS: the three tests run at once, whatever the cores.
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "STROBE_HOME="+strobeHome(t), "RUST_TEST_THREADS=4", "CUTOFF_CRASH="+crash)
		out, err := cmd.Output()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatal(err)
		}
		return string(out)
	}
	test := func(crash string) report.Response {
		t.Helper()
		out := run(crash, "test", project, "--no-daemon", "--json")
		var resp report.Response
		if err := json.Unmarshal([]byte(out), &resp); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return resp
	}
	first := test("")
	if first.Status != report.Passed || first.Summary.Passed != 3 {
		t.Fatalf("first run: %+v", first)
	}
	second := test("1")
	cut := &report.Names{Count: 2, Names: []string{"a_bystander", "b_crashes"}}
	want := &report.Changes{Since: first.RunID, Partial: true, CutOff: cut}
	if c := second.Changes; second.Status != report.Crashed || mustJSON(c) != mustJSON(want) {
		t.Errorf("the crash: status %s, changes %s; want\n%s", second.Status, mustJSON(c), mustJSON(want))
	}
	if c := second.Crash; c == nil || c.SignalName != "SIGABRT" || len(c.RunningTests) != 2 {
		t.Errorf("the crash: %+v, want SIGABRT with the two tests running", c)
	}
	if human := run("", "show", second.RunID); !strings.Contains(human, "cut_off: a_bystander, b_crashes") {
		t.Errorf("strobe show does not list the tests cut off:\n%s", human)
	}
	third := test("")
	if c := third.Changes; third.Status != report.Passed || mustJSON(c) != mustJSON(&report.Changes{Since: second.RunID}) {
		t.Errorf("after the crash: status %s, changes %s; want nothing fixed", third.Status, mustJSON(c))
	}
}
