package mocha

import (
	"testing"

	"strobe/adapters"
)

// TestRestCommand: the rest's --grep leaves out the tests running and keeps
// the run's own --grep, --fgrep or --invert, in a regular expression
// literal's form when the run's was one (checked against mocha by hand:
// idlejobs with `(?![\s\S]*?(?:one))` ran two alone). A hook's block
// goes whole; a root hook leaves no rest.
func TestRestCommand(t *testing.T) {
	running := []adapters.RunningTest{{Name: "b › t #2"}}
	for _, tc := range []struct {
		rest    []string
		running []adapters.RunningTest
		want    string
	}{
		{[]string{"npx", "mocha"}, running, `npx mocha --grep '^(?!(?:b (?:› )?t|b (?:› )?t #2)$)'`},
		{[]string{"npx", "mocha", "-g", "x$"}, running, `npx mocha --grep '^(?!(?:b (?:› )?t|b (?:› )?t #2)$)(?=[\s\S]*?(?:x$))'`},
		{[]string{"npx", "mocha", "--fgrep", "a.b", "--invert"}, running, `npx mocha --grep '^(?!(?:b (?:› )?t|b (?:› )?t #2)$)(?![\s\S]*?(?:a\.b))'`},
		{[]string{"npx", "mocha", "--grep=/X/i"}, running, `npx mocha --grep '/^(?!(?:b (?:› )?t|b (?:› )?t #2)$)(?=[\s\S]*?(?:X))/i'`},
		{[]string{"npx", "mocha"}, []adapters.RunningTest{{Name: `setup › "before all" hook for "never runs"`}}, `npx mocha --grep '^(?!(?:setup .*)$)'`},
		{[]string{"npx", "mocha"}, []adapters.RunningTest{{Name: `"before all" hook in "{root}"`}}, ""},
		{nil, running, ""},
	} {
		if got := restCommand(tc.rest, tc.running); got != tc.want {
			t.Errorf("restCommand(%q, %v)\n got %s\nwant %s", tc.rest, tc.running, got, tc.want)
		}
	}
}
