package details

import (
	"math"
	"os"
	"path/filepath"
	"time"
)

// prune lists and stats every record (about 1.5 ms for 200 of them, 3.6 ms
// of CPU per run in the shared directory measured here), so a run prunes
// only when something may be due: more than pruneSlack records written
// since the last full prune (which left at most keepRuns), a record of
// bigRecord or more just written (the only kind that can bring keepBytes
// near), or no full prune for pruneEvery (records past keepFor).
const (
	pruneSlack = 20
	bigRecord  = 1 << 20
	pruneEvery = time.Hour
	// prunedMark is the file whose mtime is the last full prune.
	prunedMark = ".pruned"
	// writtenMark counts the records written since the last full prune,
	// a byte each: every process that writes there appends to it. It
	// replaced a listing of the directory's names (400 of them: 0.25 ms,
	// 4% of a `strobe test --no-daemon` that runs `true`, and every such
	// process listed again).
	writtenMark = ".written"
)

// needPrune says whether the run that just wrote a record of size bytes
// must prune dir; it counts that record.
func needPrune(dir string, size int64, now time.Time) bool {
	written := countWritten(dir)
	if size >= bigRecord {
		return true
	}
	fi, err := os.Stat(filepath.Join(dir, prunedMark))
	if err != nil || now.Sub(fi.ModTime()) > pruneEvery || fi.ModTime().After(now) {
		return true
	}
	return written > pruneSlack
}

// countWritten adds a record to dir's count of those written since the
// last full prune and returns the count; without a count (none kept yet,
// or unreadable), more than any slack.
func countWritten(dir string) int64 {
	f, err := os.OpenFile(filepath.Join(dir, writtenMark), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return math.MaxInt64
	}
	defer f.Close()
	if _, err := f.Write([]byte{'.'}); err != nil {
		return math.MaxInt64
	}
	fi, err := f.Stat()
	if err != nil {
		return math.MaxInt64
	}
	return fi.Size()
}

// markPruned records a full prune of dir at now: none written since.
func markPruned(dir string, now time.Time) {
	os.WriteFile(filepath.Join(dir, writtenMark), nil, 0o600)
	p := filepath.Join(dir, prunedMark)
	if err := os.Chtimes(p, now, now); err != nil {
		if os.WriteFile(p, nil, 0o600) == nil {
			os.Chtimes(p, now, now)
		}
	}
}
