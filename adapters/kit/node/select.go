package node

import (
	"fmt"
	"regexp"
	"strings"
)

// QuoteRegexp escapes s for a JavaScript regular expression: regexp's
// metacharacters, and control characters as \xHH, since an argument may
// not hold a NUL and a pattern shown in a command should not hold others.
func QuoteRegexp(s string) string {
	var b strings.Builder
	for _, r := range regexp.QuoteMeta(s) {
		if r < 0x20 || r == 0x7f {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
