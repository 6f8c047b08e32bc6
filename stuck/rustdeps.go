package stuck

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	if v, ok := rustDepsCache.Load(root); ok {
		return v.(map[string]bool)
	}
	deps := readRustDeps(root)
	rustDepsCache.Store(root, deps)
	return deps
}

var rustDepsCache sync.Map // root → map[string]bool

func readRustDeps(root string) map[string]bool {
	dir := root
	for range 4 {
		f, err := os.Open(filepath.Join(dir, "Cargo.lock"))
		if err == nil {
			defer f.Close()
			return lockDeps(f)
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return nil
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
