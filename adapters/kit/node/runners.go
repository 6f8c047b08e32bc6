package node

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
)

// Runtime finds a runtime that runs its own tests (bun, deno) with
// LookPath. Missing, it is a usage error naming it whose hint says how to
// install it: the project's dependencies when they list it, else from
// site.
func Runtime(name, site, root string, env []string) (string, error) {
	if bin := LookPath(root, name, env); bin != "" {
		return bin, nil
	}
	hint := fmt.Sprintf("install %s (%s, or `npm install --save-dev %s`) and run again", name, site, name)
	if pkg, ok := Read(root); ok && pkg.Has(name) {
		hint = "install the project's dependencies with `" + pkg.InstallCommand() + "` and run again"
	}
	return "", &adapters.UsageError{Msg: name + ": " + name + " is not installed for this project", Framework: name, Hint: hint}
}

// SplitTest reads a test name "file > describe > test" as the runtimes
// print it: a first part that is a file of the project selects that file.
func SplitTest(root, test string) (file, name string) {
	first, rest, ok := strings.Cut(test, " > ")
	if ok && kit.FileExists(filepath.Join(root, first)) {
		return filepath.ToSlash(filepath.Clean(first)), rest
	}
	return "", test
}

// LevelArgs is the arguments that run req's level for a runner whose
// levels are directories (bun, deno): none for all levels, the level's
// directories (LevelDirs) else, and a usage error naming framework when
// the project has none.
func LevelArgs(framework string, req adapters.Request) ([]string, error) {
	if req.Level == adapters.LevelAll {
		return nil, nil
	}
	dirs := LevelDirs(req.ProjectRoot, string(req.Level))
	if len(dirs) == 0 {
		return nil, adapters.Usagef("%s: no %s tests: %s's levels are directories named %s (tests/%s/…); put them there, or leave the level out", framework, req.Level, framework, req.Level, req.Level)
	}
	return dirs, nil
}

// WriteReporter writes a reporter strobe ships into a private directory
// (prefix names it), for the runner to load by path.
func WriteReporter(prefix, name string, js []byte) (dir, path string, err error) {
	dir, err = os.MkdirTemp("", prefix)
	if err != nil {
		return "", "", fmt.Errorf("reporter directory: %w", err)
	}
	path = filepath.Join(dir, name)
	if err := os.WriteFile(path, js, 0o644); err != nil {
		os.RemoveAll(dir)
		return "", "", fmt.Errorf("writing the reporter: %w", err)
	}
	return dir, path, nil
}

// TestFiles lists the files under root, relative to it, that isTest
// takes for tests: six levels down at most, bounded, leaving out
// node_modules and build outputs (SkipDir).
func TestFiles(root string, isTest func(rel string) bool) []string {
	var files []string
	kit.WalkLimited(root, 6, func(path string, _ fs.DirEntry) {
		if rel, ok := kit.Rel(root, path); ok && isTest(rel) {
			files = append(files, rel)
		}
	}, SkipDir)
	return files
}

// SkipDir leaves out what node --test leaves out, and build outputs.
func SkipDir(name string) bool {
	return name == "node_modules" || name == "dist" || name == "build" || name == "coverage"
}

// LevelFile says whether a test file belongs to a level: a directory of
// its path named for the level, or the level in its name (x.unit.test.js).
func LevelFile(rel string, l adapters.Level) bool {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	return slices.Contains(parts[:len(parts)-1], string(l)) || strings.Contains(parts[len(parts)-1], "."+string(l)+".")
}
