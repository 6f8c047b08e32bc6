package format

import (
	"strconv"
	"strings"
	"strobe/internal/lazyre"
	"strobe/report"
)

// TAPResult is a TAP test line: "ok 1 - adds", "not ok 2 divides # TODO".
type TAPResult struct {
	OK        bool
	Number    int    // 0 when the line gives none
	Name      string // "" when the line gives none
	Directive string // "skip" or "todo", lower case; "" for none
	Reason    string // the directive's text
}

// Status is the result as a test status: a skip, or a TODO test that
// failed (an expected failure), is skipped; a TODO test that passed passes.
func (r TAPResult) Status() report.TestStatus {
	switch {
	case r.Directive == "skip", r.Directive == "todo" && !r.OK:
		return report.TestSkipped
	case !r.OK:
		return report.TestFailed
	}
	return report.TestPassed
}

var (
	tapLine = lazyre.New(`^(not )?ok(?:\s+(\d+))?(?:\s+-)?(?:\s+(.*?))?\s*(?:#\s*(?i:(skip|todo))\b(.*))?$`)
	// "  at: src/x.js:12:3" or "  location: 'file:12'" in a failure's YAML
	// block (node:test and others), "  at: Test.<anonymous> (/p/t.js:451:12)"
	// (tape's, a frame).
	tapAt = lazyre.New(`^\s+(?:at|location):\s*(?:[^\s(]+ \()?['"]?(.+?):(\d+)(?::\d+)?['"]?\)?\s*$`)
)

// TAPLine reads a TAP test line; false for any other line.
func TAPLine(line string) (TAPResult, bool) {
	// Most lines are neither "ok" nor "not ok": they skip the regexp.
	if !strings.HasPrefix(line, "ok") && !strings.HasPrefix(line, "not ok") {
		return TAPResult{}, false
	}
	m := tapLine.FindStringSubmatch(line)
	if m == nil {
		return TAPResult{}, false
	}
	n, _ := strconv.Atoi(m[2])
	return TAPResult{OK: m[1] == "", Number: n, Name: m[3], Directive: strings.ToLower(m[4]), Reason: m[5]}, true
}

// TAPLocation reads the file:line of a failure's YAML diagnostics line
// (at: or location:); false for any other line.
func TAPLocation(line string) (file string, n int, ok bool) {
	if line == "" || !strings.ContainsRune(" \t\n\f\r", rune(line[0])) {
		return "", 0, false // not indented: the regexp's \s+ cannot match
	}
	m := tapAt.FindStringSubmatch(line)
	if m == nil {
		return "", 0, false
	}
	n, _ = strconv.Atoi(m[2])
	return m[1], n, true
}
