package adapterstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// KeepBytecodeEnv points the user's cache directory (where strobe keeps its
// Python modules) at a directory of the test's own and stops Python writing
// bytecode, as PYTHONDONTWRITEBYTECODE does on many machines and images. It
// returns the cache directory for CheckBytecodeKept.
func KeepBytecodeEnv(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", home)
	t.Setenv("PYTHONDONTWRITEBYTECODE", "1")
	return home
}

// CheckBytecodeKept checks what a Python run under KeepBytecodeEnv left: in
// strobe's shared modules directory under cache, the bytecode of each of
// modules (names without .py), which Python then loads instead of
// compiling the source again; in the project at root, no bytecode at all.
func CheckBytecodeKept(t *testing.T, py, cache, root string, modules ...string) {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(cache, "strobe", "python", "*", modules[0]+".py"))
	if len(dirs) != 1 {
		t.Fatalf("strobe's modules in %s: %v, want one directory with %s.py", cache, dirs, modules[0])
	}
	dir := filepath.Dir(dirs[0])
	for _, m := range modules {
		cached, _ := filepath.Glob(filepath.Join(dir, "__pycache__", m+".*.pyc"))
		if len(cached) == 0 {
			t.Errorf("no bytecode of %s in %s after a run under PYTHONDONTWRITEBYTECODE: every run compiles it", m, dir)
			continue
		}
		cmd := exec.Command(py, "-v", "-c", "import "+m)
		cmd.Env = append(os.Environ(), "PYTHONPATH="+dir)
		cmd.Dir = dir // not the test's directory, first on sys.path
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("import %s: %v\n%s", m, err, out)
			continue
		}
		if !strings.Contains(string(out), "code object from '"+cached[0]+"'") {
			t.Errorf("python -v did not load %s from %s:\n%s", m, cached[0], grepLines(string(out), m))
		}
	}
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "__pycache__" {
			t.Errorf("%s in the project: bytecode written where PYTHONDONTWRITEBYTECODE says not to", path)
		}
		return nil
	})
}

// grepLines is the lines of s that hold sub.
func grepLines(s, sub string) string {
	var keep []string
	for l := range strings.SplitSeq(s, "\n") {
		if strings.Contains(l, sub) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
