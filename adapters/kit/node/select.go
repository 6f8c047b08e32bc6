package node

import (
	"fmt"
	"regexp"
	"strings"

	"strobe/internal/lazyre"
)

// QuoteRegexp escapes s for a JavaScript regular expression: regexp's
// metacharacters, and control characters as \xHH, since an argument may
// not hold a NUL and a pattern shown in a command should not hold others.
// A U+FFFD is `.`: a title's lone surrogate is one once read (xmldom's
// "<!--\ud800-->"), and no command line can carry the surrogate itself;
// without the u flag, which the frameworks do not give, `.` matches it.
func QuoteRegexp(s string) string {
	var b strings.Builder
	for _, r := range regexp.QuoteMeta(s) {
		if r == '\uFFFD' {
			b.WriteByte('.')
			continue
		}
		if r < 0x20 || r == 0x7f {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// SpacedPattern is the pattern, escaped, of a test's full name as jest,
// vitest, mocha and bun match a name pattern against it: its describe
// blocks and title joined by spaces. strobe's name joins them with sep
// (" › ", " > "), and a title may hold sep itself (vitest's "a > b" is a
// common title): each sep in the name matches a space or itself, " > "
// as " (?:> )?". Joined by spaces alone, a failing test titled "a > b"
// was selected by nothing, and a run of it alone answered passed.
func SpacedPattern(name, sep string) string {
	parts := strings.Split(name, sep)
	for i, p := range parts {
		parts[i] = QuoteRegexp(p)
	}
	return strings.Join(parts, " (?:"+QuoteRegexp(strings.TrimPrefix(sep, " "))+")?")
}

// numbered is the suffix strobe gives the second and later tests that
// share a full title in a file ("NAME #2").
var numbered = lazyre.New(` #[0-9]+$`)

// Unnumbered is name without that suffix: the name the framework knows
// the test by.
func Unnumbered(name string) string {
	if !strings.Contains(name, " #") {
		return name
	}
	return numbered.Re().ReplaceAllString(name, "")
}
