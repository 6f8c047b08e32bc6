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
	src, target, covered, targetDir := staleObject(root, built)
	// The compiler's depfiles name the headers each object of the binary
	// (and of the libraries it links) was compiled from: read, they judge
	// the headers, which a tree-wide walk cannot tell apart.
	dep, depTarget, read := staleDeps(root, cmakeTree(root, built), targetDir, built)
	if src == "" {
		src, target = dep, depTarget
	}
	if src != "" {
		return src + " changed after it was last compiled into " + target + ": this run tested the old build; rebuild (" + rebuildCommand(root, built) + ") and rerun"
	}
	at, bin := builtAt(built)
	if at.IsZero() {
		return ""
	}
	// CMake reruns at the next build when a CMakeLists.txt changed, and
	// touches its check_cache then: a change it ran after is built, even
	// when nothing needed relinking (an add_test line).
	var cmakeAt time.Time
	if tree := cmakeTree(root, built); tree != "" {
		if fi, err := os.Stat(filepath.Join(tree, "CMakeFiles", "cmake.check_cache")); err == nil {
			cmakeAt = fi.ModTime()
		}
	}
	// A test binary whose target's objects were read: its sources are
	// judged; another target's source edited since is no news of it
	// (commons' lru_test.cpp, rebuilt into lru_test alone, made every
	// run of strutil_catch "the old build"). Headers count when no
	// depfile said which the binary includes; with them, only a
	// CMakeLists.txt is left to look at (googletest's samples:
	// prime_tables.h, included by sample6 alone, made sample1_unittest
	// "the old build" after every rebuild).
	skip := skipNone
	switch {
	case read:
		skip = skipCode
	case covered:
		skip = skipCompiled
	}
	changed := newerSource(root, at, cmakeAt, skip)
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

// staleObject finds, in the CMake build tree built is in, the source
// compiled into a target that changed after its object file was written
// (the newest such), and that target: a source edited since the last
// build, or one that did not compile then. A build tree's newest
// executable does not tell: when one target's source fails to compile,
// the build goes on with others (ninja, make -k), and an executable newer
// than the edit hides it. CMake writes the object of a source <dir>/<path>
// of a target defined in <dir> at <build>/<dir>/CMakeFiles/<target>.dir/
// <path>.o, a ".." of the path written "__"; <dir> is under the source
// tree the cache names (CMAKE_HOME_DIRECTORY), else the project's root.
// Headers are not followed here (staleDeps does). Given a test binary
// rather than a tree, only the objects of its target (named as the
// binary) count; covered says some were read, and targetDir is that
// target's CMakeFiles/<target>.dir.
func staleObject(root, built string) (source, target string, covered bool, targetDir string) {
	build := cmakeTree(root, built)
	if build == "" {
		return "", "", false, ""
	}
	src := cmakeHome(filepath.Join(build, "CMakeCache.txt"), root)
	only := "" // a test binary is judged by its own target's objects
	if fi, err := os.Stat(built); err == nil && !fi.IsDir() {
		only = filepath.Base(built)
	}
	var newest time.Time
	n := 0
	filepath.WalkDir(build, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n >= maxStaleFiles {
			return fs.SkipAll
		}
		if d.IsDir() {
			if name := d.Name(); path != build && (name == "_deps" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".o") {
			return nil
		}
		rel, err := filepath.Rel(build, path)
		if err != nil {
			return nil
		}
		dir, rest, ok := strings.Cut(filepath.ToSlash(rel), "CMakeFiles/")
		if !ok {
			return nil
		}
		name, obj, ok := strings.Cut(rest, ".dir/")
		if !ok || strings.Contains(name, "/") || only != "" && name != only {
			return nil
		}
		parts := strings.Split(strings.TrimSuffix(obj, ".o"), "/")
		for i, part := range parts {
			if part == "__" {
				parts[i] = ".."
			}
		}
		n++
		file := filepath.Join(src, dir, filepath.Join(parts...))
		si, err := os.Stat(file)
		if err != nil || !Within(root, file) {
			return nil
		}
		if only != "" && !covered {
			covered, targetDir = true, filepath.Join(build, dir, "CMakeFiles", name+".dir")
		}
		oi, err := d.Info()
		if err == nil && si.ModTime().After(oi.ModTime()) && si.ModTime().After(newest) {
			newest, source, target = si.ModTime(), ProjectPath(root, file), name
		}
		return nil
	})
	return source, target, covered, targetDir
}

// cmakeHome is the source tree a CMake cache names
// (CMAKE_HOME_DIRECTORY), or root when it names none.
func cmakeHome(cache, root string) string {
	b, err := os.ReadFile(cache)
	if err != nil {
		return root
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "CMAKE_HOME_DIRECTORY:INTERNAL="); ok && filepath.IsAbs(v) {
			return filepath.Clean(v)
		}
	}
	return root
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

// sourceSkip says which files newerSource leaves out, having been judged
// otherwise.
type sourceSkip int

const (
	skipNone     sourceSkip = iota
	skipCompiled            // the sources (.c, .cpp …): a target's objects judged them
	skipCode                // every C and C++ file: the depfiles judged them
)

// newerSource is the newest C or C++ source, header or CMakeLists.txt
// under root modified after t (a CMakeLists.txt after cmakeAt too, when
// CMake last ran), relative to root; build trees, hidden and fetched
// directories aside, and the files skip leaves out.
func newerSource(root string, t, cmakeAt time.Time, skip sourceSkip) string {
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
		if name != "CMakeLists.txt" && (!cSource(name) || skip == skipCode) || skip == skipCompiled && cCompiled(name) {
			return nil
		}
		n++
		after := t
		if name == "CMakeLists.txt" && cmakeAt.After(t) {
			after = cmakeAt
		}
		if i, err := d.Info(); err == nil && i.ModTime().After(after) && i.ModTime().After(newest) {
			newest, found = i.ModTime(), ProjectPath(root, path)
		}
		return nil
	})
	return found
}

// cCompiled says whether a C or C++ file is compiled itself (not
// included): a target's object judges it.
func cCompiled(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".c", ".cc", ".cpp", ".cxx", ".c++":
		return true
	}
	return false
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

// rebuildCommand builds the tree built is in (cmakeTree), or says to
// build the tests again when there is none.
func rebuildCommand(root, built string) string {
	if dir := cmakeTree(root, built); dir != "" {
		return "cmake --build " + shell.Quote(ProjectPath(root, dir))
	}
	return "build the tests again"
}

// cmakeTree is the CMake build tree built is in: the nearest directory at
// or above it, under root, with a CMakeCache.txt; "" when none is.
func cmakeTree(root, built string) string {
	for dir := built; Within(root, dir) && dir != root; dir = filepath.Dir(dir) {
		if FileExists(filepath.Join(dir, "CMakeCache.txt")) {
			return dir
		}
	}
	return ""
}
