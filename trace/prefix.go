package trace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// minPrefix is the shortest id prefix a session is found by: short ones
// would name a different session as runs come and go.
const minPrefix = 4

// resolve returns the id of the session that id names: itself when it
// exists, else the one session whose id starts with it, as strobe show
// takes a unique prefix of a run id. An unknown or ambiguous prefix
// returns id unchanged and the error to answer.
func resolve(dir, id string) (string, error) {
	if _, err := os.Stat(filepath.Join(Dir(dir, id), sessionFile)); err == nil || len(id) < minPrefix {
		return id, nil
	}
	matches, _ := filepath.Glob(filepath.Join(dir, globEscape(id)+"*.trace", sessionFile))
	switch len(matches) {
	case 0:
		return id, nil // Load says it is unknown
	case 1:
		return strings.TrimSuffix(filepath.Base(filepath.Dir(matches[0])), ".trace"), nil
	}
	return id, fmt.Errorf("%w %q: %d sessions start with it; give more of the id", ErrNoSession, id, len(matches))
}

// globEscape quotes the characters filepath.Glob reads as a pattern.
func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}
