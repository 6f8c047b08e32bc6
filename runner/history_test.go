package runner

import (
	"testing"

	"strobe/history"
	"strobe/report"
)

func TestFlippedHint(t *testing.T) {
	tests := []report.Test{{Suite: "p", Name: "TestA"}, {Suite: "p", Name: "TestB"}, {Suite: "q", Name: "TestA"}}
	if h := flippedHint(nil, tests); h != "" {
		t.Errorf("nothing flipped: hint %q", h)
	}
	h := flippedHint(map[history.TestID]int{{Suite: "q", Name: "TestA"}: 3, {Suite: "p", Name: "TestB"}: 4}, tests)
	want := "flipping between failing and passing run after run: TestB (5 runs), TestA (4 runs); a test that does so may be flaky rather than broken and fixed by each edit: rerun it with repeat (--repeat 20) to tell"
	if h != want {
		t.Errorf("hint\n %q\nwant\n %q", h, want)
	}
}
