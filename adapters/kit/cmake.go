package kit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"strobe/internal/shell"
)

// CMakeBuildDir says whether a directory name is a CMake build tree by
// its usual names.
func CMakeBuildDir(name string) bool {
	return strings.HasPrefix(name, "build") || strings.HasPrefix(name, "cmake-build-") || name == "out" || name == "_build"
}

// CMakeMentions looks for a CMakeLists.txt (up to three levels down, build
// trees and hidden directories aside) that holds any of words.
func CMakeMentions(root string, words ...string) bool {
	found := false
	WalkLimited(root, 3, func(path string, d fs.DirEntry) {
		if found || d.Name() != "CMakeLists.txt" {
			return
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return
		}
		for _, w := range words {
			if bytes.Contains(b, []byte(w)) {
				found = true
				return
			}
		}
	}, CMakeBuildDir)
	return found
}

// FindCMakeBinaries lists the executables in the project's CMake build
// trees (build*/, cmake-build-*/, out/, _build/, or any directory with a
// CMakeCache.txt) that match says are test binaries, relative to root and
// sorted, and the build trees it searched.
func FindCMakeBinaries(root string, match func(path string) bool) (bins, trees []string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, nil
	}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		tree := filepath.Join(root, e.Name())
		// A build tree by its usual names, or by CMake's cache in it
		// (cmake -B anything).
		if !CMakeBuildDir(e.Name()) && !FileExists(filepath.Join(tree, "CMakeCache.txt")) {
			continue
		}
		trees = append(trees, e.Name()+"/")
		filepath.WalkDir(tree, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				// CMake's own probes (CompilerIdCXX/a.out) and dependencies
				// fetched into the tree (_deps/googletest-build) are not the
				// project's tests.
				if n := d.Name(); n == "CMakeFiles" || n == "_deps" || strings.HasPrefix(n, ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			if info, err := d.Info(); err != nil || info.Mode().Perm()&0o111 == 0 {
				return nil
			}
			if match(path) {
				rel, _ := filepath.Rel(root, path)
				bins = append(bins, rel)
			}
			return nil
		})
	}
	sort.Strings(bins)
	return bins, trees
}

// CMakeBuildCommand is the command that builds a project's tests, from
// what the project has: a configured build tree only needs building; CMake
// presets name their own configure and build steps; otherwise configure
// into build/. trees are the build trees FindCMakeBinaries saw.
func CMakeBuildCommand(root string, trees []string) string {
	for _, tree := range trees {
		if FileExists(filepath.Join(root, tree, "CMakeCache.txt")) {
			return "cmake --build " + shell.Quote(strings.TrimSuffix(tree, "/"))
		}
	}
	if c := cmakePresetCommand(root); c != "" {
		return c
	}
	dir := "build"
	if len(trees) > 0 {
		dir = strings.TrimSuffix(trees[0], "/")
	}
	return fmt.Sprintf("cmake -S %s -B %s && cmake --build %s", shell.Quote(cmakeSourceDir(root)), shell.Quote(dir), shell.Quote(dir))
}

// cmakePresets is the part of CMakePresets.json a build command needs.
type cmakePresets struct {
	ConfigurePresets []struct {
		Name      string `json:"name"`
		Hidden    bool   `json:"hidden"`
		BinaryDir string `json:"binaryDir"`
	} `json:"configurePresets"`
	BuildPresets []struct {
		Name            string `json:"name"`
		Hidden          bool   `json:"hidden"`
		ConfigurePreset string `json:"configurePreset"`
	} `json:"buildPresets"`
}

// cmakePresetCommand builds with the project's first visible configure
// preset: through a build preset made for it, else in its binaryDir when
// that needs no macro but ${sourceDir} and ${presetName}. It is empty when
// the presets (CMakeUserPresets.json first, as cmake reads it) give no such
// command.
func cmakePresetCommand(root string) string {
	for _, name := range []string{"CMakeUserPresets.json", "CMakePresets.json"} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			continue
		}
		var p cmakePresets
		if json.Unmarshal(b, &p) != nil {
			continue
		}
		for _, c := range p.ConfigurePresets {
			if c.Hidden || c.Name == "" {
				continue
			}
			configure := "cmake --preset " + shell.Quote(c.Name)
			for _, bp := range p.BuildPresets {
				if !bp.Hidden && bp.ConfigurePreset == c.Name {
					return configure + " && cmake --build --preset " + shell.Quote(bp.Name)
				}
			}
			dir := strings.NewReplacer("${sourceDir}/", "", "${sourceDir}", ".", "${presetName}", c.Name).Replace(c.BinaryDir)
			if dir != "" && !strings.Contains(dir, "$") {
				return configure + " && cmake --build " + shell.Quote(dir)
			}
		}
	}
	return ""
}

// cmakeSourceDir is the project's top CMakeLists.txt directory, relative
// to root: "." unless the project keeps it deeper.
func cmakeSourceDir(root string) string {
	best := "."
	if FileExists(filepath.Join(root, "CMakeLists.txt")) {
		return best
	}
	depth := -1
	WalkLimited(root, 3, func(path string, d fs.DirEntry) {
		if d.Name() != "CMakeLists.txt" {
			return
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		if n := strings.Count(rel, string(filepath.Separator)); depth < 0 || n < depth {
			best, depth = rel, n
		}
	}, CMakeBuildDir)
	return best
}
