package kit

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"strobe/internal/shell"
)

// maxStaleFiles bounds the source files StaleNote looks at.
const maxStaleFiles = 5000

// StaleNote says, for the C and C++ adapters, which never build, when the
// project's sources changed after the tests were built: a source edited
// since, or one that no longer compiles, leaves the old binary in place,
// and its results (a pass, often) are those of the old code. built is the
// binary that runs, or a build tree (its newest executable counts). A
// build outside the project (a --command elsewhere) is not judged: its
// sources need not be these. "" when nothing is newer, or when built
// cannot be read.
func StaleNote(root, built string) string {
	if !Within(root, built) || filepath.Clean(root) == filepath.Clean(built) {
		return ""
	}
	at, bin := builtAt(built)
	if at.IsZero() {
		return ""
	}
	changed := newerSource(root, at)
	if changed == "" {
		return ""
	}
	what := ProjectPath(root, bin)
	return changed + " changed after " + what + " was built: this run tested the old build; rebuild (" + rebuildCommand(root, built) + ") and rerun"
}

// StaleCheck starts StaleNote's walk beside the run and returns what
// waits for its note: on a large tree (abseil, 1,600 files) the walk takes
// 3 ms warm and 13 ms cold, which the run's start need not wait for.
func StaleCheck(root, built string) Pending {
	return Beside(func() string { return StaleNote(root, built) })
}

// Pending is a note being made beside the run; the zero value has none.
type Pending func() string

// Beside starts making a note, which the answer needs and the command
// does not, on a goroutine of its own.
func Beside(f func() string) Pending {
	note := make(chan string, 1)
	go func() { note <- f() }()
	return sync.OnceValue(func() string { return <-note })
}

// Wait returns the note once it is made.
func (p Pending) Wait() string {
	if p == nil {
		return ""
	}
	return p()
}

// builtAt is when built was built: a file's modification time, or a
// directory's newest executable's (and that executable).
func builtAt(built string) (time.Time, string) {
	info, err := os.Stat(built)
	if err != nil {
		return time.Time{}, ""
	}
	if !info.IsDir() {
		return info.ModTime(), built
	}
	var newest time.Time
	var bin string
	filepath.WalkDir(built, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if n := d.Name(); path != built && (n == "CMakeFiles" || n == "_deps" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if i, err := d.Info(); err == nil && i.Mode().IsRegular() && i.Mode().Perm()&0o111 != 0 && i.ModTime().After(newest) {
			newest, bin = i.ModTime(), path
		}
		return nil
	})
	return newest, bin
}

// newerSource is the newest C or C++ source, header or CMakeLists.txt
// under root modified after t, relative to root; build trees, hidden and
// fetched directories aside.
func newerSource(root string, t time.Time) string {
	var newest time.Time
	found, n := "", 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n >= maxStaleFiles {
			return fs.SkipAll
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (skippedByAll(path, name) || name == "_deps" || CMakeBuildDir(name) || FileExists(filepath.Join(path, "CMakeCache.txt"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if name != "CMakeLists.txt" && !cSource(name) {
			return nil
		}
		n++
		if i, err := d.Info(); err == nil && i.ModTime().After(t) && i.ModTime().After(newest) {
			newest, found = i.ModTime(), ProjectPath(root, path)
		}
		return nil
	})
	return found
}

func cSource(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".inl", ".ipp", ".tpp":
		return true
	}
	return false
}

// JoinNotes joins a plan's notes, the empty ones left out.
func JoinNotes(notes ...string) string {
	var kept []string
	for _, n := range notes {
		if n != "" {
			kept = append(kept, n)
		}
	}
	return strings.Join(kept, "; ")
}

// rebuildCommand builds the tree built is in: the nearest directory at
// or above it, under root, with a CMakeCache.txt.
func rebuildCommand(root, built string) string {
	for dir := built; Within(root, dir) && dir != root; dir = filepath.Dir(dir) {
		if FileExists(filepath.Join(dir, "CMakeCache.txt")) {
			return "cmake --build " + shell.Quote(ProjectPath(root, dir))
		}
	}
	return "build the tests again"
}
