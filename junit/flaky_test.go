package junit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/junit"
	"strobe/report"
)

// TestFlakyFailures: a flaky test is a passing testcase with a
// <flakyFailure> per failed attempt, which a JUnit reader counts as no
// failure; a test that failed every attempt keeps its one <failure>.
func TestFlakyFailures(t *testing.T) {
	first := &report.Failure{Name: "TestFlaky", File: "p/p_test.go", Line: 9, Message: "first run fails"}
	run := junit.Run{Response: &report.Response{Status: report.Failed, Framework: "go"}, Tests: []report.Test{
		{Name: "TestFlaky", Suite: "p", Status: report.TestPassed, Flaky: true, Failure: first, Attempts: []report.Attempt{
			{Status: "failed", Message: "first run fails", File: "p/p_test.go", Line: 9},
			{Status: "stuck", Message: "waits on a channel"},
			{Status: "passed"}}},
		{Name: "TestAlways", Suite: "p", Status: report.TestFailed, Failure: &report.Failure{Name: "TestAlways", Message: "boom", Attempts: 2},
			Attempts: []report.Attempt{{Status: "failed", Message: "boom"}, {Status: "failed", Message: "boom"}}},
	}}
	doc := junit.Build(run)
	cases := doc.Suites[0].Cases
	if c := cases[0]; c.Failure != nil || len(c.FlakyFailures) != 2 || c.FlakyFailures[0].Message != "first run fails" ||
		!strings.Contains(c.FlakyFailures[0].Body, "attempt 1 of 3") || c.FlakyFailures[1].Type != "stuck" {
		t.Errorf("flaky case = %+v, want no failure and the two failed attempts as flaky failures", c)
	}
	if c := cases[1]; c.Failure == nil || len(c.FlakyFailures) != 0 {
		t.Errorf("always failing case = %+v, want one failure", c)
	}
	path := filepath.Join(t.TempDir(), "report.xml")
	if err := junit.WriteFile(path, doc); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if n := strings.Count(string(b), "<flakyFailure"); n != 2 {
		t.Errorf("%d <flakyFailure> elements, want 2:\n%s", n, b)
	}
	p := readJUnit(t, path)
	if p.Tests != 2 || p.Failures != 1 || p.Errors != 0 {
		t.Errorf("junitparser read tests %d, failures %d, errors %d; want 2, 1, 0", p.Tests, p.Failures, p.Errors)
	}
}
