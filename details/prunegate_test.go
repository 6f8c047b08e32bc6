package details

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestNeedPrune(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		name    string
		written int // records written since the last full prune, before this one
		size    int64
		mark    time.Duration // age of the last full prune; <0: none
		want    bool
	}{
		{"at the slack, small record, pruned a minute ago", pruneSlack - 1, 4 << 10, time.Minute, false},
		{"past the slack", pruneSlack, 4 << 10, time.Minute, true},
		{"a big record may bring the size cap near", 0, bigRecord, time.Minute, true},
		{"never pruned", 0, 4 << 10, -1, true},
		{"last prune over an hour ago: records may be past their age", 0, 4 << 10, pruneEvery + time.Minute, true},
		{"a mark in the future (clock moved back)", 0, 4 << 10, -time.Hour, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.mark != -1 {
				markPruned(dir, now.Add(-tc.mark))
			}
			for range tc.written {
				countWritten(dir)
			}
			if got := needPrune(dir, tc.size, now); got != tc.want {
				t.Errorf("needPrune = %v, want %v", got, tc.want)
			}
		})
	}
	// A directory pruned by a strobe that kept no count (its records
	// unknown) is pruned, which starts the count.
	dir := t.TempDir()
	markPruned(dir, now)
	os.Remove(filepath.Join(dir, writtenMark))
	if !needPrune(dir, 4<<10, now) {
		t.Error("needPrune = false without a count of the records written, want true")
	}
}

// Through Write, a directory never holds more than keepRuns+pruneSlack
// records, and a prune brings it back to keepRuns.
func TestWritePrunesPastTheSlack(t *testing.T) {
	dir := oldRecords(t, keepRuns+pruneSlack)
	for range pruneSlack { // the last pruneSlack of them written since the prune
		countWritten(dir)
	}
	for i := range 2 {
		if _, err := Write(dir, record(fmt.Sprintf("new-%d", i))); err != nil {
			t.Fatal(err)
		}
		entries, _ := List(dir)
		want := []int{keepRuns, keepRuns + 1}[i]
		if len(entries) != want {
			t.Errorf("after write %d: %d records, want %d", i+1, len(entries), want)
		}
	}
}

// The gate lets a directory fill to its slack before it prunes, and never
// past it.
func TestGateHoldsTheBound(t *testing.T) {
	dir := oldRecords(t, keepRuns)
	most := 0
	for i := range pruneSlack + 5 { // past one prune, then a few writes after a listing
		if _, err := Write(dir, record(fmt.Sprintf("new-%d", i))); err != nil {
			t.Fatal(err)
		}
		entries, _ := List(dir)
		most = max(most, len(entries))
		if len(entries) > keepRuns+pruneSlack {
			t.Fatalf("after write %d: %d records, more than %d", i+1, len(entries), keepRuns+pruneSlack)
		}
	}
	if most != keepRuns+pruneSlack {
		t.Errorf("the directory peaked at %d records, want the gate to let it reach %d before pruning", most, keepRuns+pruneSlack)
	}
}

// Every process writing to the directory counts towards its prune: two
// writers' records add up.
func TestGateCountsEveryWriter(t *testing.T) {
	dir := oldRecords(t, keepRuns)
	for i := range pruneSlack + 1 {
		if i%2 == 1 { // another process's record, written beside this one's
			countWritten(dir)
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("other-%d.json", i)), []byte("{}"), 0o600)
			continue
		}
		if _, err := Write(dir, record(fmt.Sprintf("new-%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	if entries, _ := List(dir); len(entries) != keepRuns {
		t.Errorf("%d records after %d written by two writers since the last prune, want the prune's %d", len(entries), pruneSlack+1, keepRuns)
	}
}

// oldRecords is a details directory holding n records an hour old or
// more, pruned just now.
func oldRecords(t *testing.T, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "s", "tests")
	if err := ensureDir(dir); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("old-%03d.json", i))
		os.WriteFile(p, []byte("{}"), 0o600)
		os.Chtimes(p, now, now.Add(-time.Hour-time.Duration(i)*time.Second))
	}
	markPruned(dir, now)
	return dir
}
