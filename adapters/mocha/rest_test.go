package mocha

import (
	"testing"

	"strobe/adapters"
	"strobe/report"
)

// TestRestHint: the rest's --grep leaves out the tests running and keeps
// the run's own --grep, --fgrep or --invert, in a regular expression
// literal's form when the run's was one (checked against mocha by hand:
// idlejobs with `(?![\s\S]*?(?:one))` ran two alone). A hook's block
// goes whole; a root hook leaves no rest.
func TestRestHint(t *testing.T) {
	running := []adapters.RunningTest{{Name: "b › t #2"}}
	for _, tc := range []struct {
		rest    []string
		running []adapters.RunningTest
		want    string
	}{
		{[]string{"npx", "mocha"}, running, `to run the rest without what hung: npx mocha --grep '^(?!(?:b (?:› )?t|b (?:› )?t #2)$)'`},
		{[]string{"npx", "mocha", "-g", "x$"}, running, `to run the rest without what hung: npx mocha --grep '^(?!(?:b (?:› )?t|b (?:› )?t #2)$)(?=[\s\S]*?(?:x$))'`},
		{[]string{"npx", "mocha", "--fgrep", "a.b", "--invert"}, running, `to run the rest without what hung: npx mocha --grep '^(?!(?:b (?:› )?t|b (?:› )?t #2)$)(?![\s\S]*?(?:a\.b))'`},
		{[]string{"npx", "mocha", "--grep=/X/i"}, running, `to run the rest without what hung: npx mocha --grep '/^(?!(?:b (?:› )?t|b (?:› )?t #2)$)(?=[\s\S]*?(?:X))/i'`},
		{[]string{"npx", "mocha"}, []adapters.RunningTest{{Name: `setup › "before all" hook for "never runs"`}}, `to run the rest without what hung: npx mocha --grep '^(?!(?:setup .*)$)'`},
		{[]string{"npx", "mocha"}, []adapters.RunningTest{{Name: `"before all" hook in "{root}"`}}, ""},
		{nil, running, ""},
	} {
		if got := restHint(tc.rest, tc.running, report.StoppedStuck); got != tc.want {
			t.Errorf("restHint(%q, %v)\n got %s\nwant %s", tc.rest, tc.running, got, tc.want)
		}
	}
}
