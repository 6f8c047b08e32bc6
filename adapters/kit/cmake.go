package kit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
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
	ConfigurePresets []cmakePreset `json:"configurePresets"`
	BuildPresets     []cmakePreset `json:"buildPresets"`
}

// cmakePreset is a configure or build preset. Inherits, BinaryDir,
// ConfigurePreset and Condition are inherited (the first of inherits that
// has one wins); Name and Hidden are the preset's own.
type cmakePreset struct {
	Name            string          `json:"name"`
	Hidden          bool            `json:"hidden"`
	Inherits        json.RawMessage `json:"inherits"` // a name or a list of them
	BinaryDir       string          `json:"binaryDir"`
	ConfigurePreset string          `json:"configurePreset"`
	Condition       json.RawMessage `json:"condition"`
}

// cmakePresetCommand builds with the project's first visible configure
// preset whose condition holds on this machine (a preset for Windows is
// not one to give on Linux): through a build preset made for it, else in
// its binaryDir when that needs no macro but ${sourceDir} and
// ${presetName}. It is empty when the presets (CMakeUserPresets.json
// first, as cmake reads it) give no such command.
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
			if c.Hidden || c.Name == "" || !presetHolds(p.ConfigurePresets, c, root) {
				continue
			}
			configure := "cmake --preset " + shell.Quote(c.Name)
			for _, bp := range p.BuildPresets {
				configurePreset := presetField(p.BuildPresets, bp, func(x cmakePreset) string { return x.ConfigurePreset })
				if !bp.Hidden && configurePreset == c.Name && presetHolds(p.BuildPresets, bp, root) {
					return configure + " && cmake --build --preset " + shell.Quote(bp.Name)
				}
			}
			binaryDir := presetField(p.ConfigurePresets, c, func(x cmakePreset) string { return x.BinaryDir })
			dir := strings.NewReplacer("${sourceDir}/", "", "${sourceDir}", ".", "${presetName}", c.Name).Replace(binaryDir)
			if dir != "" && !strings.Contains(dir, "$") {
				return configure + " && cmake --build " + shell.Quote(dir)
			}
		}
	}
	return ""
}

// presetField is a preset's field, or the first one its inherits give,
// depth first, as cmake resolves it.
func presetField(all []cmakePreset, p cmakePreset, field func(cmakePreset) string) string {
	var find func(p cmakePreset, depth int) string
	find = func(p cmakePreset, depth int) string {
		if v := field(p); v != "" || depth > 8 { // a cycle is cmake's error
			return v
		}
		for _, name := range presetInherits(p) {
			for _, q := range all {
				if q.Name == name {
					if v := find(q, depth+1); v != "" {
						return v
					}
				}
			}
		}
		return ""
	}
	return find(p, 0)
}

func presetInherits(p cmakePreset) []string {
	var one string
	if json.Unmarshal(p.Inherits, &one) == nil {
		return []string{one}
	}
	var list []string
	json.Unmarshal(p.Inherits, &list)
	return list
}

// presetHolds evaluates a preset's condition (its own or inherited) on
// this machine. A condition that cannot be read (a macro or a regular
// expression strobe does not know) does not hold: the command without a
// preset is always right.
func presetHolds(all []cmakePreset, p cmakePreset, root string) bool {
	cond := presetField(all, p, func(x cmakePreset) string { return string(x.Condition) })
	if cond == "" || cond == "null" {
		return true
	}
	ok, known := cmakeCondition(json.RawMessage(cond), p.Name, root)
	return ok && known
}

// cmakeCondition evaluates a preset condition: its value, and whether
// strobe could read it.
func cmakeCondition(raw json.RawMessage, preset, root string) (bool, bool) {
	if string(raw) == "null" {
		return true, true
	}
	var c struct {
		Type       string            `json:"type"`
		Value      *bool             `json:"value"`
		LHS        string            `json:"lhs"`
		RHS        string            `json:"rhs"`
		String     string            `json:"string"`
		List       []string          `json:"list"`
		Regex      string            `json:"regex"`
		Conditions []json.RawMessage `json:"conditions"`
		Condition  json.RawMessage   `json:"condition"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		var b bool
		if json.Unmarshal(raw, &b) == nil { // a bare boolean is a const
			return b, true
		}
		return false, false
	}
	expand := func(s string) (string, bool) { return cmakeExpand(s, preset, root) }
	switch c.Type {
	case "const":
		return c.Value != nil && *c.Value, c.Value != nil
	case "equals", "notEquals":
		l, ok1 := expand(c.LHS)
		r, ok2 := expand(c.RHS)
		return (l == r) == (c.Type == "equals"), ok1 && ok2
	case "inList", "notInList":
		s, ok := expand(c.String)
		in := false
		for _, item := range c.List {
			v, ok1 := expand(item)
			ok = ok && ok1
			in = in || v == s
		}
		return in == (c.Type == "inList"), ok
	case "matches", "notMatches":
		s, ok := expand(c.String)
		re, err := regexp.Compile(c.Regex)
		if err != nil {
			return false, false
		}
		return re.MatchString(s) == (c.Type == "matches"), ok
	case "anyOf", "allOf":
		all := c.Type == "allOf"
		for _, sub := range c.Conditions {
			v, ok := cmakeCondition(sub, preset, root)
			if !ok {
				return false, false
			}
			if v != all {
				return v, true
			}
		}
		return all, true
	case "not":
		v, ok := cmakeCondition(c.Condition, preset, root)
		return !v, ok
	}
	return false, false
}

// cmakeExpand expands the macros a condition may use that strobe knows;
// false when the string holds another.
func cmakeExpand(s, preset, root string) (string, bool) {
	host := map[string]string{"linux": "Linux", "darwin": "Darwin", "windows": "Windows", "freebsd": "FreeBSD"}[runtime.GOOS]
	out := strings.NewReplacer("${hostSystemName}", host, "${sourceDir}", root, "${presetName}", preset,
		"${pathListSep}", string(os.PathListSeparator), "${dollar}", "\x00").Replace(s)
	for _, prefix := range []string{"$env{", "$penv{"} {
		for {
			i := strings.Index(out, prefix)
			if i < 0 {
				break
			}
			j := strings.IndexByte(out[i:], '}')
			if j < 0 {
				return "", false
			}
			out = out[:i] + os.Getenv(out[i+len(prefix):i+j]) + out[i+j+1:]
		}
	}
	if strings.Contains(out, "${") || strings.Contains(out, "$vendor{") || host == "" && strings.Contains(s, "${hostSystemName}") {
		return "", false
	}
	return strings.ReplaceAll(out, "\x00", "$"), true
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
