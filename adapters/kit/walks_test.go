package kit

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestShareWalks: within ShareWalks, WalkLimited gives the same files in
// the same order as walking the tree, whatever its depth and skip, on a
// made-up tree and on this repository's own.
func TestShareWalks(t *testing.T) {
	files := map[string]string{}
	for _, f := range []string{
		"CMakeLists.txt", "a/test_a.py", "a/b/c/d/e/f/g/h/deep.py", "a/b/c/d/e/f/deeper.js", "a/b/c/d/x.js",
		"build/CMakeLists.txt", "build/sub/t.py", "b/build.py", ".hidden/test_h.py", "a/.git/config",
		"node_modules/pkg/CMakeLists.txt", "target/CACHEDIR.TAG", "target/debug/test_t.py", "tests/target/test_own.py",
		"z/test_z.py", "z/y/test_y.py",
	} {
		files[f] = ""
	}
	made := writeTree(t, files)
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	skips := map[string]func(string) bool{
		"none":  nil,
		"build": CMakeBuildDir,
		"b":     func(n string) bool { return n == "b" || n == "y" },
	}
	for _, root := range []string{made, repo} {
		for depth := 1; depth <= listDepth+1; depth++ {
			for name, skip := range skips {
				walk := func() (files []string) {
					WalkLimited(root, depth, func(path string, d fs.DirEntry) {
						files = append(files, path+" "+d.Name())
					}, skip)
					return files
				}
				want := walk()
				done := ShareWalks(root)
				got, again := walk(), walk()
				done()
				if !slices.Equal(got, want) || !slices.Equal(again, want) {
					t.Errorf("%s, depth %d, skip %s: shared walk gives %d files, the tree walk %d\n%s",
						root, depth, name, len(got), len(want), firstDiff(got, want))
				}
				if root == made && depth == 4 && name == "none" && (len(want) < 8 || slices.ContainsFunc(want, func(f string) bool {
					return filepath.Base(filepath.Dir(f)) == "pkg" || filepath.Base(filepath.Dir(f)) == "debug"
				})) {
					t.Errorf("the walk of %s: %q", root, want)
				}
			}
		}
	}
	if len(shared.by) != 0 {
		t.Errorf("listings left after done: %v", shared.by)
	}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("first difference at %d: %q, %q", i, a[i], b[i])
		}
	}
	return "one is a prefix of the other"
}

// TestWalkThroughALink: a project given as a symbolic link to its
// directory is walked, with or without a shared listing, and its files
// are named under the link (pytest's detection found no test file in it).
func TestWalkThroughALink(t *testing.T) {
	dir := t.TempDir()
	real, link := filepath.Join(dir, "real"), filepath.Join(dir, "link")
	if err := os.MkdirAll(filepath.Join(real, "tests"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "tests", "test_a.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	walk := func() []string {
		var got []string
		WalkLimited(link, 3, func(path string, _ fs.DirEntry) { got = append(got, path) }, nil)
		return got
	}
	want := []string{filepath.Join(link, "tests", "test_a.py")}
	if got := walk(); !slices.Equal(got, want) {
		t.Errorf("walk = %q, want %q", got, want)
	}
	done := ShareWalks(link)
	defer done()
	if got := walk(); !slices.Equal(got, want) {
		t.Errorf("shared walk = %q, want %q", got, want)
	}
}
