package node

import (
	"os"
	"path/filepath"
	"strings"

	"strobe/adapters/kit"
	"strobe/internal/shell"
)

// Read reads the package.json in dir itself, not above it (see Find), with
// the workspace around it; false when dir has none or it is not JSON. The
// runtimes that need no package.json (bun, deno) and generic's fallback
// read a project this way: a package.json further up is another project's.
func Read(dir string) (*Package, bool) {
	p, err := read(dir)
	if err != nil {
		return nil, false
	}
	p.Root, p.Manager, p.Lockfile = workspace(dir)
	return p, true
}

// LookPath finds a JavaScript tool the way the project runs it: root's
// node_modules/.bin first (the version its lockfile pins), then the
// client's PATH; "" when neither has it. Unlike Package.Bin it takes a
// global install: bun and deno are runtimes a user installs themselves.
func LookPath(root, name string, env []string) string {
	local := filepath.Join(root, "node_modules", ".bin", name)
	if fileExists(local) {
		return local
	}
	if p, err := shell.LookPath(name, env); err == nil {
		return p
	}
	return ""
}

// LevelDirs lists the directories named for a level (tests/unit,
// src/e2e…) under root, three levels down at most, relative to root
// with a leading "./": the JavaScript runners' convention for levels
// when the framework has no tags. node_modules is skipped.
func LevelDirs(root, level string) []string {
	var dirs []string
	walkDirs(root, 3, func(rel string) {
		if filepath.Base(rel) == level {
			dirs = append(dirs, "./"+filepath.ToSlash(rel))
		}
	})
	return dirs
}

// walkDirs calls fn with each directory under root, relative to it, down
// to depth levels, skipping hidden directories and node_modules.
func walkDirs(root string, depth int, fn func(rel string)) {
	var walk func(dir string, d int)
	walk = func(dir string, d int) {
		if d > depth {
			return
		}
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			return
		}
		for _, e := range entries {
			if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules" {
				continue
			}
			rel := filepath.Join(dir, e.Name())
			fn(rel)
			walk(rel, d+1)
		}
	}
	walk("", 1)
}

// ErrorText is an error's text as a JavaScript runner reports it, without
// its stack lines ("at f (file:1:2)"): the message, the diff and the code
// frame stay; clipped.
func ErrorText(text string) string {
	var keep []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "at ") {
			continue
		}
		keep = append(keep, l)
	}
	return kit.Clip(strings.TrimSpace(strings.Join(keep, "\n")))
}
