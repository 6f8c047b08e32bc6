package history

import (
	"strings"
	"testing"
	"time"
)

// FuzzNormalise checks that any message normalises without a panic, in
// time linear in its length, to a fixed point: normalising twice changes
// nothing, so a fingerprint never depends on how often it was computed.
func FuzzNormalise(f *testing.F) {
	for _, s := range []string{
		"Add(2, 2) = 4, want 5 (state 0xc000012345 in /tmp/TestB123/001 at 1732540000000000000)",
		"assertion `left == right` failed: state 0x5555d0a0 at 1732540000\n  left: 4\n right: 5",
		"took 1.5s, then 230ms; at 2026-11-25T13:31:39.5+01:00 id 123e4567-e89b-12d3-a456-426614174000",
		"/private/var/folders/xy/T/pytest-of-me/pytest-3/test_x0/f.txt: missing",
		"a/tmp/b //tmp/ x.tmp/ /tmp",
		"\xff\xfe-1.-:+ \t\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		start := time.Now()
		once := Normalise(msg)
		if d := time.Since(start); d > 2*time.Second+time.Duration(len(msg))*time.Microsecond {
			t.Errorf("Normalise of %d bytes took %v", len(msg), d)
		}
		if twice := Normalise(once); twice != once {
			t.Errorf("not a fixed point:\n once %q\ntwice %q", once, twice)
		}
		if strings.ContainsAny(once, "0123456789") {
			t.Errorf("a digit is left in %q (from %q)", once, msg)
		}
	})
}
