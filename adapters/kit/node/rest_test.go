package node

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestExcept: the rest's pattern matches every name but those left out,
// within what the run's own pattern matched; escaped names with regexp
// characters, "; " and ". " stay exact (Go's syntax agrees with
// JavaScript's for what Except writes but the lookaheads, so the check
// is by hand on the parts).
func TestExcept(t *testing.T) {
	names := []string{RestName("a; b › it. works (1)", " › "), RestName("plain", " › ")}
	p := Except(names, "")
	if strings.Contains(p, "; ") || strings.Contains(p, ". ") {
		t.Errorf("%q holds a hint's separator", p)
	}
	if want := `^(?!(?:a\x3b b (?:› )?it\.\x20works \(1\)|plain)$)`; p != want {
		t.Errorf("Except = %q, want %q", p, want)
	}
	left := regexp.MustCompile("^(?:" + strings.Join(names, "|") + ")$")
	for _, n := range []string{"a; b it. works (1)", "plain"} {
		if !left.MatchString(n) {
			t.Errorf("%q is not left out", n)
		}
	}
	for _, n := range []string{"plain too", "a; b it. works (1) more", "a; b itx works (1)"} {
		if left.MatchString(n) {
			t.Errorf("%q is left out", n)
		}
	}
	if got := Except([]string{"x"}, "^foo"); got != `^(?!(?:x)$)(?=[\s\S]*?(?:^foo))` {
		t.Errorf("with own pattern: %q", got)
	}
}

func TestCutOption(t *testing.T) {
	rest, v := CutOption([]string{"npx", "jest", "-t", "one", "--ci", "--testNamePattern=two", "x"}, "-t", "--testNamePattern")
	if !slices.Equal(rest, []string{"npx", "jest", "--ci", "x"}) || v != "two" {
		t.Errorf("CutOption = %q, %q", rest, v)
	}
}
