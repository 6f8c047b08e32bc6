package kit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"strobe/internal/shell"
)

// PackageJSON is what adapters read of a project's package.json.
type PackageJSON struct {
	Scripts         map[string]string `json:"scripts"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
}

// ReadPackageJSON reads dir/package.json; false when there is none or it
// is not JSON.
func ReadPackageJSON(dir string) (PackageJSON, bool) {
	var p PackageJSON
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil || json.Unmarshal(b, &p) != nil {
		return PackageJSON{}, false
	}
	return p, true
}

// npmDefaultTest is the test script `npm init` writes: no tests at all.
const npmDefaultTest = `echo "Error: no test specified" && exit 1`

// TestScript is the package's test script, "" when it has none or only
// npm's placeholder.
func (p PackageJSON) TestScript() string {
	s := strings.TrimSpace(p.Scripts["test"])
	if s == npmDefaultTest {
		return ""
	}
	return s
}

// Depends says whether the package lists name in its dependencies or
// devDependencies.
func (p PackageJSON) Depends(name string) bool {
	_, dep := p.Dependencies[name]
	_, dev := p.DevDependencies[name]
	return dep || dev
}

// PackageManager names the package manager a JavaScript project uses, by
// its lockfile: bun, pnpm, yarn, else npm.
func PackageManager(dir string) string {
	for _, m := range []struct{ file, name string }{
		{"bun.lock", "bun"}, {"bun.lockb", "bun"},
		{"pnpm-lock.yaml", "pnpm"}, {"yarn.lock", "yarn"},
	} {
		if FileExists(filepath.Join(dir, m.file)) {
			return m.name
		}
	}
	return "npm"
}

// InstallCommand is the command that installs a project's dependencies
// as its lockfile pins them.
func InstallCommand(dir string) string {
	switch PackageManager(dir) {
	case "bun":
		return "bun install"
	case "pnpm":
		return "pnpm install --frozen-lockfile"
	case "yarn":
		return "yarn install --frozen-lockfile"
	}
	if FileExists(filepath.Join(dir, "package-lock.json")) {
		return "npm ci"
	}
	return "npm install"
}

// NodeBin finds a JavaScript tool the way the project runs it: its own
// node_modules/.bin first (the version its lockfile pins), then the
// client's PATH. "" when neither has it.
func NodeBin(root, name string, env []string) string {
	local := filepath.Join(root, "node_modules", ".bin", name)
	if st, err := os.Stat(local); err == nil && !st.IsDir() {
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
	WalkDirs(root, 3, func(rel string) {
		if filepath.Base(rel) == level {
			dirs = append(dirs, "./"+filepath.ToSlash(rel))
		}
	})
	return dirs
}

// WalkDirs calls fn with each directory under root, relative to it, down
// to depth levels, skipping hidden directories and node_modules.
func WalkDirs(root string, depth int, fn func(rel string)) {
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

// JSMessage is an error's text as a JavaScript runner reports it, without
// its stack lines ("at f (file:1:2)"): the message, the diff and the code
// frame stay.
func JSMessage(text string) string {
	var keep []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "at ") {
			continue
		}
		keep = append(keep, l)
	}
	return Clip(strings.TrimSpace(strings.Join(keep, "\n")))
}

var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]`)

// StripANSI removes terminal colour and cursor codes: runners colour
// their console even under NO_COLOR in places (deno's hints).
func StripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	return ansiEscape.ReplaceAllString(s, "")
}
