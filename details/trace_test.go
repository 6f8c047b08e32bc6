package details

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"strobe/trace"
)

// A traced run's session goes with its record, and counts in the size cap.
func TestPruneRemovesTraceSessions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s", "tests")
	if err := ensureDir(dir); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	session := func(id string, size int, age time.Duration) {
		p := Path(dir, id)
		os.WriteFile(p, []byte("{}"), 0o600)
		os.Chtimes(p, now, now.Add(-age))
		os.MkdirAll(trace.Dir(dir, id), 0o700)
		os.WriteFile(filepath.Join(trace.Dir(dir, id), "session.jsonl"), make([]byte, size), 0o600)
	}
	session("new", 10, time.Minute)
	session("old", 10, 8*24*time.Hour)
	session("big", keepBytes, time.Hour) // its record is small, its session is not
	session("older", 10, 2*time.Hour)
	prune(dir, now).Wait()
	for id, kept := range map[string]bool{"new": true, "old": false, "big": false, "older": false} {
		_, err := os.Stat(trace.Dir(dir, id))
		if got := err == nil; got != kept {
			t.Errorf("session %s kept = %v, want %v", id, got, kept)
		}
		if _, err := os.Stat(Path(dir, id)); (err == nil) != kept {
			t.Errorf("record %s kept = %v, want %v", id, err == nil, kept)
		}
	}
}
