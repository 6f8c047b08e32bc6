package adapterstest

import (
	"os"
	"path/filepath"
	"strobe/internal/testutil"
	"testing"
)

// WriteFiles writes files (a path relative to root → its text) under
// root, making the directories they need.
func WriteFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// ScratchBeside makes a directory under parent, removed when the test
// ends: a project beside the fixtures, which finds their node_modules
// hoisted above it. Files from src (paths relative to it) are copied in.
func ScratchBeside(t testing.TB, parent, prefix, src string, files ...string) string {
	t.Helper()
	dir, err := os.MkdirTemp(parent, prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err == nil {
			err = os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, f), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// CopyFixture copies the package's testdata/fixtures/name into a
// temporary directory and returns the copy: what the framework writes
// beside the tests (caches, __pycache__) never lands in the repository.
func CopyFixture(t testing.TB, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	testutil.CopyTree(t, filepath.Join("testdata", "fixtures", name), dst)
	return dst
}
