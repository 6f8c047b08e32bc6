package details

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	listed.Lock()
	if listed.left[dir] > 0 {
		listed.left[dir]--
		listed.Unlock()
		return false
	}
	listed.Unlock()
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
	if records > keepRuns+pruneSlack {
		return true
	}
	listed.Lock()
	if listed.left == nil {
		listed.left = map[string]int{}
	}
	listed.left[dir] = min(keepRuns+pruneSlack-records, pruneSlack)
	listed.Unlock()
	return false
}

// listed remembers, per directory, how many more records this process may
// write before it lists the names again: a listing of n records allows
// keepRuns+pruneSlack-n more, at most pruneSlack, since other processes
// write there too. Listing 400 names cost the daemon 50 KB and 0.3 ms a
// run.
var listed struct {
	sync.Mutex
	left map[string]int
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
