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
		records int
		size    int64
		mark    time.Duration // age of the last full prune; <0: none
		want    bool
	}{
		{"full, small record, pruned a minute ago", keepRuns + pruneSlack, 4 << 10, time.Minute, false},
		{"past the slack", keepRuns + pruneSlack + 1, 4 << 10, time.Minute, true},
		{"a big record may bring the size cap near", 10, bigRecord, time.Minute, true},
		{"never pruned", 10, 4 << 10, -1, true},
		{"last prune over an hour ago: records may be past their age", 10, 4 << 10, pruneEvery + time.Minute, true},
		{"a mark in the future (clock moved back)", 10, 4 << 10, -time.Hour, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for i := range tc.records {
				os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%d.json", i)), nil, 0o600)
				os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%d.junit.xml", i)), nil, 0o600)
			}
			if tc.mark != -1 {
				markPruned(dir, now.Add(-tc.mark))
			}
			if got := needPrune(dir, tc.size, now); got != tc.want {
				t.Errorf("needPrune = %v, want %v", got, tc.want)
			}
		})
	}
}

// Through Write, a directory never holds more than keepRuns+pruneSlack
// records, and a prune brings it back to keepRuns.
func TestWritePrunesPastTheSlack(t *testing.T) {
	dir := oldRecords(t, keepRuns+pruneSlack)
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

// The gate lists the directory once per few records, not every write;
// this process's own writes still never take it past the slack.
func TestGateListsSeldomButHoldsTheBound(t *testing.T) {
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
	listed.Lock()
	left := listed.left[dir]
	listed.Unlock()
	if left <= 0 {
		t.Errorf("after a listing under the bound, %d writes may skip the next one; want some", left)
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
