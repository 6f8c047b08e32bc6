package main

import (
	"fmt"
	"io"

	"strobe/report"
)

// renderFlaky lists the tests that passed only on a retry, each with how
// it failed first: a sign to read, not a failure to fix.
func renderFlaky(w io.Writer, flaky []report.Flaky, c palette) {
	for _, f := range flaky {
		fmt.Fprintf(w, "\n%s~%s %s  %sflaky: passed on attempt %d of %d%s\n", c.yellow, c.reset, f.Name, c.yellow, f.PassedOn, f.Attempts, c.reset)
		ff := f.FirstFailure
		if ff.File != "" {
			fmt.Fprintf(w, "    first failure at %s\n", place(ff.File, ff.Line))
		}
		indent(w, ff.Message, "    ")
	}
}

// renderRepeat shows a repeat's counts: every test that failed at least
// once, with its passes and failures.
func renderRepeat(w io.Writer, rep *report.Repeat, c palette) {
	if rep == nil {
		return
	}
	fmt.Fprintf(w, "\nrepeat: %d of %d runs, %d tests: %d flaky, %d failed every run\n", rep.Runs, rep.Requested, rep.TestCount, rep.Intermittent, rep.AlwaysFailed)
	for _, t := range rep.Tests {
		col := c.red
		if t.Passed > 0 {
			col = c.yellow
		}
		fmt.Fprintf(w, "  %s%d/%d failed%s  %s\n", col, t.Failed, t.Passed+t.Failed, c.reset, t.Name)
	}
	if rep.TestsOmitted > 0 {
		fmt.Fprintf(w, "  … and %d more (see the details file)\n", rep.TestsOmitted)
	}
	if rep.Stopped != "" {
		fmt.Fprintf(w, "  stopped early: %s\n", rep.Stopped)
	}
}
