package stuck

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// rustDeps are the crates a Rust project takes from a registry or a git
// repository, by the name its symbols use ("-" read "_"), from the
// Cargo.lock at root or the workspace's above it; nil without one. Their
// frames are not the project's whatever their paths say: cargo builds a
// dependency with paths relative to its own directory, and polling's
// "src/lib.rs" is also the name of the project's. (The project's own
// crates, path dependencies included, have no source in the lock.)
func rustDeps(root string) map[string]bool {
	if root == "" {
		return nil
	}
	now := time.Now()
	if v, ok := rustDepsCache.Load(root); ok {
		if e := v.(*lockEntry); now.Sub(e.checked) < lockRecheck {
			return e.deps
		} else if e.path != "" && unchanged(e.path, e.stat) {
			rustDepsCache.Store(root, &lockEntry{e.deps, e.path, e.stat, now})
			return e.deps
		}
	}
	e := readRustDeps(root)
	e.checked = now
	rustDepsCache.Store(root, e)
	return e.deps
}

// lockRecheck is how long a project's Cargo.lock is taken as read before
// its file is looked at again: the daemon lives longer than a lock file.
var lockRecheck = 10 * time.Second // a variable for the tests

var rustDepsCache sync.Map // root → *lockEntry

// lockEntry is a Cargo.lock as read: its crates, its path and what its
// stat said then.
type lockEntry struct {
	deps    map[string]bool
	path    string
	stat    os.FileInfo
	checked time.Time
}

func unchanged(path string, was os.FileInfo) bool {
	fi, err := os.Stat(path)
	return err == nil && was != nil && fi.ModTime().Equal(was.ModTime()) && fi.Size() == was.Size()
}

func readRustDeps(root string) *lockEntry {
	dir := root
	for range 4 {
		path := filepath.Join(dir, "Cargo.lock")
		if f, err := os.Open(path); err == nil {
			defer f.Close()
			fi, _ := f.Stat()
			return &lockEntry{deps: lockDeps(f), path: path, stat: fi}
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return &lockEntry{}
}

// lockDeps reads a Cargo.lock's packages that have a source.
func lockDeps(f *os.File) map[string]bool {
	deps := map[string]bool{}
	name := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "[[package]]":
			name = ""
		case strings.HasPrefix(line, "name = "):
			name = strings.Trim(strings.TrimPrefix(line, "name = "), `"`)
		case strings.HasPrefix(line, "source = ") && name != "":
			deps[strings.ReplaceAll(name, "-", "_")] = true
		}
	}
	return deps
}

// rustCrate is the crate a Rust function belongs to ("polling" for
// "polling::Poller::wait" and "<polling::Poller as Drop>::drop"), "" for
// a name that is not a Rust path.
func rustCrate(fn string) string {
	fn = strings.TrimPrefix(fn, "<")
	if i := strings.Index(fn, "::"); i > 0 && !strings.ContainsAny(fn[:i], " <>(/.") {
		return fn[:i]
	}
	return ""
}
