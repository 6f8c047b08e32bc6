package adapterstest

import (
	"os"
	"strings"
	"testing"

	"strobe/internal/lazyre"
	"strobe/report"
	"strobe/trace"
)

var (
	pyDef  = lazyre.New(`^\s*def (test\w*)\(`)
	pyWant = lazyre.New(`#\s*want:(.*)$`)
)

// CheckPythonSuggestions checks the suggested traces of the failed tests
// against the "# want: a.b c.d" comment on each test function's failing
// line in the Python file, and that each suggestion is a trace pattern
// that matches the function it names (alone, unless it is a module.*). A test is found by its function's
// name at the end of its id. It returns how many tests it checked.
func CheckPythonSuggestions(t testing.TB, file string, tests []report.Test) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	def := ""
	for _, l := range strings.Split(string(b), "\n") {
		if m := pyDef.FindStringSubmatch(l); m != nil {
			def = m[1]
		}
		if m := pyWant.FindStringSubmatch(l); m != nil && def != "" {
			want[def] = strings.Join(strings.Fields(m[1]), " ")
		}
	}
	n := 0
	for _, tt := range tests {
		i := strings.LastIndexAny(tt.Name, ":. ")
		w, ok := want[strings.Trim(tt.Name[i+1:], "()")]
		if !ok || tt.Failure == nil {
			continue
		}
		n++
		if got := strings.Join(tt.Failure.SuggestedTraces, " "); got != w {
			t.Errorf("%s: suggested %q, want %q", tt.Name, got, w)
		}
		for _, s := range tt.Failure.SuggestedTraces {
			p, err := trace.Compile(s)
			if err != nil {
				t.Errorf("%s: suggestion %q: %v", tt.Name, s, err)
				continue
			}
			m, err := trace.NewMatcher(p, "")
			if err != nil || !m.Match(s, "") || !strings.Contains(s, "*") && m.Match(s+"x", "") {
				t.Errorf("%s: suggestion %q does not match the function alone", tt.Name, s)
			}
		}
	}
	return n
}
