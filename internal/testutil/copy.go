package testutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// CopyTree copies the tree at src into dst (created as needed), keeping
// the files' execute bits, so that what a test builds or caches never
// lands in the repository. A target/ directory is left out: a cargo build
// another test left in the fixture names the fixture's own path and would
// not run from the copy.
func CopyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if d.Name() == "target" && rel != "." {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if d.Type()&fs.ModeSymlink != 0 {
			to, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(to, filepath.Join(dst, rel))
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644|info.Mode().Perm()&0o111)
	})
	if err != nil {
		t.Fatal(err)
	}
}
