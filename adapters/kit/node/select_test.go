package node

import (
	"regexp"
	"testing"
)

func TestQuoteRegexp(t *testing.T) {
	for in, want := range map[string]string{
		"plain name":              "plain name",
		"(regex) chars [x] * + ?": `\(regex\) chars \[x\] \* \+ \?`,
		"\x00javascript:":         `\x00javascript:`,
		"tab\there\x7f":           `tab\x09here\x7f`,
	} {
		got := QuoteRegexp(in)
		if got != want {
			t.Errorf("QuoteRegexp(%q) = %q, want %q", in, got, want)
		}
		// Go's syntax agrees with JavaScript's for these escapes.
		if !regexp.MustCompile("^" + got + "$").MatchString(in) {
			t.Errorf("%q does not match %q", got, in)
		}
	}
}

// TestSpacedPattern: a full name's pattern matches the framework's
// space-joined name whether each separator joins two names or sits inside
// a title ("a > b" as vitest's title), and nothing else.
func TestSpacedPattern(t *testing.T) {
	for _, tc := range []struct {
		name, sep string
		match     []string
		miss      []string
	}{
		{"picomatch > arrow a > b inside", " > ",
			[]string{"picomatch arrow a > b inside", "picomatch arrow a b inside", "picomatch > arrow a > b inside"},
			[]string{"picomatch arrow a  b inside", "picomatch arrow a >b inside", "picomatch arrow a"}},
		{"edge › x (1) › y.z", " › ", []string{"edge x (1) y.z", "edge › x (1) y.z"}, []string{"edge x (1) yxz", "edge x 1 y.z"}},
		{"top", " › ", []string{"top"}, []string{"to", "top top"}},
	} {
		re := regexp.MustCompile("^" + SpacedPattern(tc.name, tc.sep) + "$")
		for _, s := range tc.match {
			if !re.MatchString(s) {
				t.Errorf("SpacedPattern(%q) = %q does not match %q", tc.name, re, s)
			}
		}
		for _, s := range tc.miss {
			if re.MatchString(s) {
				t.Errorf("SpacedPattern(%q) = %q matches %q", tc.name, re, s)
			}
		}
	}
}
