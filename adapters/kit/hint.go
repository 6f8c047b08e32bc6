package kit

import (
	"fmt"
	"strings"

	"strobe/adapters"
)

// NoTestsHint is what an adapter says when a suite ran and found no test,
// by what was asked: every framework has the same three cases, in the same
// order.
type NoTestsHint struct {
	Test   string                    // a test was named and matched nothing
	Level  string                    // a level was asked and had none
	Levels map[adapters.Level]string // a level's own words, over Level
	All    string                    // the whole suite had none
}

// For picks the hint for a run of test (when named) or level. A level
// with no words of its own, and no Level, gets All's.
func (h NoTestsHint) For(test string, level adapters.Level) string {
	switch {
	case test != "":
		return h.Test
	case level != adapters.LevelAll:
		if s, ok := h.Levels[level]; ok {
			return s
		}
		if h.Level != "" {
			return h.Level
		}
	}
	return h.All
}

// FlakyHint names the tests that failed and then passed when by (a
// framework's own retries: "pytest-rerunfailures") ran them again, with
// the try that passed and where each failed first.
func FlakyHint(flaky []adapters.FlakyTest, by string) string {
	var names []string
	for _, f := range flaky {
		name := fmt.Sprintf("%s (passed on try %d", f.Name, f.Attempts)
		if f.File != "" {
			name += fmt.Sprintf("; failed first at %s:%d", f.File, f.Line)
		}
		names = append(names, name+")")
	}
	if len(flaky) == 1 {
		return "flaky: " + names[0] + " failed and then passed when " + by + " ran it again; it counts as passed"
	}
	return "flaky: " + strings.Join(names, ", ") + " failed and then passed when " + by + " ran them again; they count as passed"
}
