package details

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// prune lists and stats every record (about 1.5 ms for 200 of them, 3.6 ms
// of CPU per run in the shared directory measured here), so a run prunes
// only when something may be due: more than keepRuns+pruneSlack records
// (their names alone, no stat), a record of bigRecord or more just written
// (the only kind that can bring keepBytes near), or no full prune for
// pruneEvery (records past keepFor).
const (
	pruneSlack = 20
	bigRecord  = 1 << 20
	pruneEvery = time.Hour
	// prunedMark is the file whose mtime is the last full prune.
	prunedMark = ".pruned"
)

// needPrune says whether the run that just wrote a record of size bytes
// must prune dir.
func needPrune(dir string, size int64, now time.Time) bool {
	if size >= bigRecord {
		return true
	}
	fi, err := os.Stat(filepath.Join(dir, prunedMark))
	if err != nil || now.Sub(fi.ModTime()) > pruneEvery || fi.ModTime().After(now) {
		return true
	}
	f, err := os.Open(dir)
	if err != nil {
		return true
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return true
	}
	records := 0
	for _, n := range names {
		if !strings.HasPrefix(n, ".") && strings.HasSuffix(n, ".json") {
			records++
		}
	}
	return records > keepRuns+pruneSlack
}

// markPruned records a full prune of dir at now.
func markPruned(dir string, now time.Time) {
	p := filepath.Join(dir, prunedMark)
	if err := os.Chtimes(p, now, now); err != nil {
		if os.WriteFile(p, nil, 0o600) == nil {
			os.Chtimes(p, now, now)
		}
	}
}
