package format

import (
	"testing"

	"strobe/report"
)

func TestTAPLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want TAPResult
		st   report.TestStatus
	}{
		{"ok 1 - adds", TAPResult{OK: true, Number: 1, Name: "adds"}, report.TestPassed},
		{"not ok 2 divides", TAPResult{Number: 2, Name: "divides"}, report.TestFailed},
		{"ok 3 - net # SKIP no network", TAPResult{OK: true, Number: 3, Name: "net", Directive: "skip", Reason: " no network"}, report.TestSkipped},
		{"not ok 4 - later # TODO write it", TAPResult{Number: 4, Name: "later", Directive: "todo", Reason: " write it"}, report.TestSkipped},
		{"ok 5 # todo done early", TAPResult{OK: true, Number: 5, Directive: "todo", Reason: " done early"}, report.TestPassed},
		{"not ok", TAPResult{}, report.TestFailed},
	} {
		got, ok := TAPLine(tc.line)
		if !ok || got != tc.want || got.Status() != tc.st {
			t.Errorf("TAPLine(%q) = %+v %v (%s), want %+v (%s)", tc.line, got, ok, got.Status(), tc.want, tc.st)
		}
	}
	for _, line := range []string{"okay", "1..4", "# ok 1"} {
		if _, ok := TAPLine(line); ok {
			t.Errorf("TAPLine(%q) read a test", line)
		}
	}
	if file, n, ok := TAPLocation("  at: 'src/div.js:12:3'"); !ok || file != "src/div.js" || n != 12 {
		t.Errorf("TAPLocation = %q %d %v", file, n, ok)
	}
}
