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
