package history

import (
	"encoding/hex"
	"hash/fnv"
	"regexp"
	"strconv"
	"strings"

	"strobe/report"
)

// What varies between two runs of the same failure, replaced before hashing
// so that only a different failure gets a different fingerprint. Order
// matters: a temp path or a UUID holds numbers, a duration is one.
var normalisers = []struct {
	re   *regexp.Regexp
	with string
}{
	// Temporary directories: go's t.TempDir, mktemp, macOS's per-user
	// /var/folders, pytest's tmp_path; up to the next quote or space.
	{regexp.MustCompile(`(/private)?(/tmp|/var/tmp|/var/folders|/dev/shm)/[^\s"'` + "`" + `:,;)\]}]*`), "<tmp>"},
	{regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`), "<uuid>"},
	{regexp.MustCompile(`(?i)\b0x[0-9a-f]+\b`), "<addr>"},
	// Durations: 1.5s, 200ms, 3µs, 1m30s, 2h0m0s.
	{regexp.MustCompile(`\b(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+\b`), "<dur>"},
	// Timestamps before plain numbers, so a date is one token.
	{regexp.MustCompile(`\b\d{4}-\d\d-\d\d([T ]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?)?\b`), "<time>"},
	{regexp.MustCompile(`(?i)\b[0-9a-f]*\d[0-9a-f]*\b`), "<n>"},
}

// Normalise is msg with what changes from one run of the same failure to the
// next (numbers, hex addresses, UUIDs, temp paths, durations, timestamps)
// replaced by placeholders, and its whitespace folded.
func Normalise(msg string) string {
	for _, n := range normalisers {
		msg = n.re.ReplaceAllString(msg, n.with)
	}
	return strings.Join(strings.Fields(msg), " ")
}

// Fingerprint identifies one failure of one test: its suite and name, its
// normalised message and where it failed. Two runs that fail the same way
// have the same fingerprint; a different message or line does not.
func Fingerprint(suite string, f *report.Failure) string {
	h := fnv.New64a()
	for _, s := range []string{suite, f.Name, Normalise(f.Message), f.File, strconv.Itoa(f.Line)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
