package details

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Pruned records leave through the trash: none is listed once pruned, and
// the trash is empty when the background delete is done, including what an
// earlier process left in it.
func TestPruneEmptiesTrash(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s", "tests")
	if err := ensureDir(dir); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	write := func(name string, age time.Duration) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, now, now.Add(-age))
		return p
	}
	write("new.json", time.Minute)
	old := write("old.json", 8*24*time.Hour)
	junit := write("old.junit.xml", 8*24*time.Hour)
	// A run before this one exited while its trash was being emptied.
	trash := filepath.Join(dir, trashDir)
	if err := os.Mkdir(trash, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(trash, "left.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}

	wg := prune(dir, now)
	for _, p := range []string{old, junit} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s survived the prune", filepath.Base(p))
		}
	}
	entries, _ := List(dir)
	if len(entries) != 1 || entries[0].RunID != "new" {
		t.Errorf("listed %v, want only new", entries)
	}
	wg.Wait()
	left, err := os.ReadDir(trash)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("the trash still holds %d files", len(left))
	}
}

// A trash that grew past maxTrash (processes that exited before their
// delete was done) is emptied before prune returns.
func TestPruneWaitsForAFullTrash(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s", "tests")
	trash := filepath.Join(dir, trashDir)
	if err := os.MkdirAll(trash, 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range maxTrash + 1 {
		if err := os.WriteFile(filepath.Join(trash, fmt.Sprintf("r%d.json", i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	prune(dir, time.Now()) // no Wait: prune itself must have waited
	if left, _ := os.ReadDir(trash); len(left) != 0 {
		t.Errorf("the trash holds %d files after prune, want 0", len(left))
	}
}

// A prune that moves many records at once (a directory past its slack)
// does not wait for their delete: only what earlier runs left counts.
func TestPruneDoesNotWaitForItsOwnTrash(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s", "tests")
	if err := ensureDir(dir); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i := range keepRuns + maxTrash + 1 {
		p := filepath.Join(dir, fmt.Sprintf("r%03d.json", i))
		os.WriteFile(p, []byte("{}"), 0o600)
		os.Chtimes(p, now, now.Add(-time.Duration(i)*time.Second))
	}
	// Hold the trash's delete: a prune that waited would not return.
	release := make(chan struct{})
	defer close(release)
	removeAll = func(p string) error { <-release; return os.RemoveAll(p) }
	defer func() { removeAll = os.RemoveAll }()
	done := make(chan struct{})
	go func() { prune(dir, now); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("prune waited for the delete of what it moved itself")
	}
	if n := trashLen(dir); n != maxTrash+1 {
		t.Errorf("%d in the trash, want %d", n, maxTrash+1)
	}
}
