package kit

import (
	"strings"
	"strobe/internal/lazyre"
)

var ansiEscape = lazyre.New(`\x1b\[[0-9;?]*[ -/]*[@-~]`)

// StripANSI removes terminal colour and cursor codes: runners colour
// their console even under NO_COLOR in places (deno's hints).
func StripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	return ansiEscape.ReplaceAllString(s, "")
}
