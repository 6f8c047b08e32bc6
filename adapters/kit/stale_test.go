package kit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStaleNote: a source edited after the test binary was built (or one
// that no longer compiles, which leaves the old binary) makes the run's
// results the old code's, and the note says so with the rebuild command
// (cxxopts' test/options.cpp broken to not compile: strobe ran the old
// binary and said nothing). A build newer than every source, a build
// outside the project, and a build tree judged by its newest executable.
func TestStaleNote(t *testing.T) {
	root := t.TempDir()
	old := time.Now().Add(-time.Hour)
	write := func(rel string, mode os.FileMode, at time.Time) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("CMakeLists.txt", 0o644, old.Add(-time.Hour))
	write("test/options.cpp", 0o644, old.Add(-time.Hour))
	write("build/CMakeCache.txt", 0o644, old)
	bin := write("build/test/options_test", 0o755, old)
	write("build/test/generated.cpp", 0o644, time.Now()) // in the build tree: not a source
	write("README.md", 0o644, time.Now())                // not a source either

	if n := StaleNote(root, bin); n != "" {
		t.Errorf("up-to-date build: note %q", n)
	}
	write("test/options.cpp", 0o644, time.Now())
	want := "test/options.cpp changed after build/test/options_test was built: this run tested the old build; rebuild (cmake --build build) and rerun"
	if n := StaleNote(root, bin); n != want {
		t.Errorf("note %q, want %q", n, want)
	}
	if n := StaleNote(root, filepath.Join(root, "build")); !strings.HasPrefix(n, "test/options.cpp changed after build/test/options_test was built") {
		t.Errorf("tree note %q", n)
	}
	if n := StaleNote(root, filepath.Join(t.TempDir(), "bin")); n != "" {
		t.Errorf("a build outside the project: note %q", n)
	}
}
