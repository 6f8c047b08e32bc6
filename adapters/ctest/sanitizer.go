package ctest

import (
	"strings"

	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/report"
)

// sanitizerIn is the first sanitizer report in a failed test's output
// (CTest prints the test's stdout and stderr together), nil when none.
// A recoverable UBSan report in a test that passed is not seen: CTest
// prints a passed test's output only with -V.
func sanitizerIn(lines []string) *format.SanitizerReport {
	var r format.SanitizerReader
	var first *format.SanitizerReport
	for _, l := range lines {
		if rep, began := r.Line(l); began && first == nil {
			first = rep
		}
	}
	return first
}

// sanitizerFailure fills out from a report: the sanitizer's summary
// first, then the report's head, at its first frame under the project;
// the framework's own failures, if any, come after.
func (p *parser) sanitizerFailure(out *report.Failure, r *format.SanitizerReport) {
	file, line := r.Location(p.root, func(f string) bool {
		return strings.Contains(f, "gtest") || strings.Contains(f, "gmock") || strings.HasPrefix(f, "catch")
	})
	msg := []string{r.Summary}
	for _, l := range r.Gist(p.root) {
		if !strings.HasPrefix(l, "SUMMARY: ") {
			msg = append(msg, l)
		}
	}
	out.File, out.Line, out.Message = kit.ProjectPath(p.root, file), line, kit.Clip(strings.Join(msg, "\n"))
}
