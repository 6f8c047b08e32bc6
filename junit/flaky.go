package junit

import (
	"fmt"

	"strobe/report"
)

// flakyFailures are the failed attempts of a test that passed on a retry,
// as Maven Surefire writes them (<flakyFailure> inside a passing
// <testcase>): Jenkins, GitLab and the JUnit readers of GitHub Actions
// show the test as passed and flaky. A test that failed every attempt
// keeps its one <failure>: the attempts are in the details file.
func flakyFailures(t report.Test) []Problem {
	if !t.Flaky {
		return nil
	}
	var out []Problem
	for i, a := range t.Attempts {
		if a.Status == string(report.TestPassed) || a.Status == string(report.TestSkipped) {
			continue
		}
		body := fmt.Sprintf("attempt %d of %d: %s", i+1, len(t.Attempts), a.Status)
		if loc := location(a.File, a.Line); loc != "" {
			body += "\n" + loc
		}
		if a.Message != "" {
			body += "\n" + a.Message
		}
		out = append(out, Problem{Message: firstLine(a.Message), Type: a.Status, Body: body})
	}
	return out
}
