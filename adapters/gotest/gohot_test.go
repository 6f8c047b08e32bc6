package gotest

import "testing"

// TestGoHotPrefilters: the literal looked for first never hides a line the
// expression would match.
func TestGoHotPrefilters(t *testing.T) {
	lines := []string{
		"    calc_test.go:13: Add(1, 2) = 4, want 3",
		"    TestX: calc_test.go:13: message",
		"\tcalc_test.go:7: tab-indented",
		"calc_test.go:13: not indented",
		"    calc_test.go:13 no colon after the line",
		"    lib.go:abc: not a line number",
		"=== RUN   TestAdd",
		"SIGABRT: abort",
		"SIGSEGV: segmentation violation",
		"SIGQUIT: quit",
		"SIG: nothing",
		"SIGNAL strength: low",
		" SIGABRT: abort",
		"line 3 of the print-heavy benchmark test",
		"progress 50%...    calc_test.go:9: boom",
		"",
	}
	for _, l := range lines {
		want := goLocLine.FindStringSubmatch(l)
		if want == nil {
			want = goLocAfter.FindStringSubmatch(l)
		}
		if got := goLocMatch(l); len(got) != len(want) || (got != nil && got[0] != want[0]) {
			t.Errorf("goLocMatch(%q) = %q, the expression: %q", l, got, want)
		}
		if got, want := isGoSignalDump(l), goSignalDump.MatchString(l); got != want {
			t.Errorf("isGoSignalDump(%q) = %v, the expression: %v", l, got, want)
		}
	}
}
