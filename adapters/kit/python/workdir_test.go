package python

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"strobe/adapters/kit"
	"strobe/internal/testutil"
)

// cacheHome points os.UserCacheDir at a directory of the test's own and
// returns where the shared modules go in it.
func cacheHome(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("os.UserCacheDir follows XDG_CACHE_HOME on Linux only")
	}
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", home)
	return filepath.Join(home, "strobe", "python")
}

// holds says whether dir has the modules a Workdir with mods holds.
func holds(dir string, mods map[string][]byte) bool {
	for name, src := range shipped(mods) {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(b, src) {
			return false
		}
	}
	return true
}

func TestWorkdirSharesTheModules(t *testing.T) {
	base := cacheHome(t)
	mods := map[string][]byte{"strobe_plugin.py": []byte("X = 1\n")}
	a, err := NewWorkdir("strobe-test-*", mods)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewWorkdir("strobe-test-*", mods)
	if err != nil {
		t.Fatal(err)
	}
	if a.Dir != b.Dir || filepath.Dir(a.Dir) != base {
		t.Fatalf("two runs with the same modules: %s and %s, want one directory in %s", a.Dir, b.Dir, base)
	}
	if !holds(a.Dir, mods) {
		t.Fatalf("%s does not hold the modules", a.Dir)
	}
	if a.Events == b.Events || filepath.Dir(a.Events) == a.Dir {
		t.Fatalf("events files %s and %s: want one per run, outside the shared %s", a.Events, b.Events, a.Dir)
	}
	if err := a.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(a.Events)); !os.IsNotExist(err) {
		t.Errorf("the run's directory is still there after Remove: %v", err)
	}
	if !holds(b.Dir, mods) {
		t.Errorf("Remove took the shared modules from another run")
	}
	b.Remove()

	other, err := NewWorkdir("strobe-test-*", map[string][]byte{"strobe_plugin.py": []byte("X = 2\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Remove()
	if other.Dir == a.Dir || !holds(other.Dir, map[string][]byte{"strobe_plugin.py": []byte("X = 2\n")}) {
		t.Errorf("other modules went to %s (the first: %s)", other.Dir, a.Dir)
	}
	if entries, _ := os.ReadDir(base); len(entries) != 2 {
		t.Errorf("%s holds %d entries, want the 2 module directories (no temporary one left)", base, len(entries))
	}
}

// A shared directory that is not as strobe ships it, or that others can
// write into, is replaced before it goes on PYTHONPATH.
func TestWorkdirRepairsASpoiltDirectory(t *testing.T) {
	mods := map[string][]byte{"strobe_plugin.py": []byte("X = 1\n")}
	elsewhere := t.TempDir()
	for _, tc := range []struct {
		name  string
		spoil func(dir string)
	}{
		{"a module changed", func(dir string) { os.WriteFile(filepath.Join(dir, "strobe_events.py"), []byte("import os\n"), 0o600) }},
		{"a module gone", func(dir string) { os.Remove(filepath.Join(dir, "strobe_plugin.py")) }},
		{"writable by the group", func(dir string) { os.Chmod(dir, 0o770) }},
		{"a symlink", func(dir string) {
			for _, e := range []string{"strobe_events.py", "strobe_stacks.py", "strobe_trace.py", "strobe_plugin.py"} {
				b, _ := os.ReadFile(filepath.Join(dir, e))
				os.WriteFile(filepath.Join(elsewhere, e), b, 0o600)
			}
			os.RemoveAll(dir)
			os.Symlink(elsewhere, dir)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := cacheHome(t)
			first, err := NewWorkdir("strobe-test-*", mods)
			if err != nil {
				t.Fatal(err)
			}
			first.Remove()
			tc.spoil(first.Dir)
			if kit.SharedIntact(first.Dir, map[string][]byte{"strobe_plugin.py": mods["strobe_plugin.py"], "strobe_events.py": eventsModule}) {
				t.Fatal("the spoilt directory passes the check")
			}
			w, err := NewWorkdir("strobe-test-*", mods)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Remove()
			if w.Dir != first.Dir || !holds(w.Dir, mods) {
				t.Fatalf("modules in %s: want them in %s as shipped", w.Dir, first.Dir)
			}
			if fi, err := os.Lstat(w.Dir); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
				t.Fatalf("%s: %v, %v: want a directory of mode 0700", w.Dir, fi.Mode(), err)
			}
			if entries, _ := os.ReadDir(base); len(entries) != 1 {
				t.Errorf("%s holds %d entries, want the module directory alone (nothing set aside left)", base, len(entries))
			}
		})
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "strobe_events.py")); err != nil {
		t.Errorf("replacing a symlink removed what it pointed to: %v", err)
	}
}

// Where the cache directory's strobe/python is open to others, the run
// gets a copy of its own.
func TestWorkdirRefusesAnOpenCache(t *testing.T) {
	base := cacheHome(t)
	if err := os.MkdirAll(base, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(base, 0o777)
	wantOwnCopy(t)
}

// wantOwnCopy checks that a run gets the modules in a directory of its own.
func wantOwnCopy(t *testing.T) {
	t.Helper()
	w, err := NewWorkdir("strobe-test-*", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Remove()
	if w.Dir != filepath.Dir(w.Events) || !holds(w.Dir, nil) {
		t.Fatalf("modules in %s (events %s): want them in the run's own directory", w.Dir, w.Events)
	}
}

func TestWorkdirWithoutCacheDirectory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("os.UserCacheDir follows XDG_CACHE_HOME and HOME on Linux only")
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	wantOwnCopy(t)
}

// The point of sharing: the second run imports the modules from the
// bytecode the first one wrote.
func TestWorkdirKeepsPythonsBytecode(t *testing.T) {
	cacheHome(t)
	py := testutil.RequireTool(t, "python3")
	t.Setenv("PYTHONDONTWRITEBYTECODE", "")
	importEvents := func() {
		w, err := NewWorkdir("strobe-test-*", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Remove()
		cmd := exec.Command(py, "-c", "import strobe_events, sys; print(strobe_events.__cached__)")
		cmd.Env = append(os.Environ(), w.Env(nil)...)
		cmd.Dir = t.TempDir() // not this package's, which holds the modules' sources
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		pyc := string(bytes.TrimSpace(out))
		if _, err := os.Stat(pyc); err != nil {
			t.Fatalf("no bytecode after the import: %v", err)
		}
	}
	importEvents()
	pycs, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "strobe", "python", "*", "__pycache__", "strobe_events.*.pyc"))
	if len(pycs) != 1 {
		t.Fatalf("bytecode files %v, want one", pycs)
	}
	before, _ := os.Stat(pycs[0])
	importEvents()
	after, err := os.Stat(pycs[0])
	if err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the second run wrote the bytecode again (%v): it did not find the first run's", err)
	}
}

// Runs that start together on a fresh cache all get the one directory,
// whole.
func TestWorkdirFirstRunsTogether(t *testing.T) {
	base := cacheHome(t)
	mods := map[string][]byte{"strobe_plugin.py": []byte("X = 1\n")}
	dirs := make([]string, 8)
	var wg sync.WaitGroup
	for i := range dirs {
		wg.Go(func() {
			w, err := NewWorkdir("strobe-test-*", mods)
			if err != nil {
				t.Error(err)
				return
			}
			defer w.Remove()
			if holds(w.Dir, mods) {
				dirs[i] = w.Dir
			}
		})
	}
	wg.Wait()
	for _, d := range dirs {
		if d != dirs[0] || filepath.Dir(d) != base {
			t.Fatalf("directories %v: want one, in %s, holding the modules", dirs, base)
		}
	}
	if entries, _ := os.ReadDir(base); len(entries) != 1 {
		t.Errorf("%s holds %d entries, want the module directory alone", base, len(entries))
	}
}
