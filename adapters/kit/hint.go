package kit

import "strobe/adapters"

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
