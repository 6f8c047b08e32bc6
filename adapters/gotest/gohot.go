package gotest

import "strings"

// A test that prints a million lines sends each of them through these
// expressions; the literal each one needs is looked for first, which costs
// a fraction of running the expression on a line that cannot match.

// goLocMatch is goLocLine's submatches of line, else goLocAfter's (the
// same groups), or nil.
func goLocMatch(line string) []string {
	if !strings.Contains(line, ".go:") {
		return nil
	}
	if m := goLocLine.FindStringSubmatch(line); m != nil {
		return m
	}
	return goLocAfter.FindStringSubmatch(line)
}

// isGoSignalDump says whether line heads a fatal signal's goroutine dump.
func isGoSignalDump(line string) bool {
	return strings.HasPrefix(line, "SIG") && goSignalDump.MatchString(line)
}

// maybeGoTrace says whether line may start a trace (newGoTrace's cases), so
// that a test's ordinary output costs no allocation.
func maybeGoTrace(line string) bool {
	for _, p := range []string{"panic: ", "fatal error: ", "SIG", "signal: "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}
