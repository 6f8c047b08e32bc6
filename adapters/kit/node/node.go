// Package node is what the JavaScript adapters (jest, vitest, mocha,
// node:test, bun, deno, and generic's package.json fallback) share: the package.json that holds a project, the workspace
// it belongs to, its package manager, and the framework's own binary in
// node_modules/.bin, with the install command to give when it is missing.
package node

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"strobe/adapters"
	"strobe/internal/shell"
)

// Package is the package.json nearest a project root, and the workspace
// around it.
type Package struct {
	Dir     string            // the directory holding package.json
	Name    string            // its "name"
	Scripts map[string]string // its "scripts"
	// Deps holds dependencies, devDependencies, peerDependencies and
	// optionalDependencies with their version ranges.
	Deps map[string]string
	// Type is "module" for an ES module package, else "" (CommonJS).
	Type string
	// Root is the workspace root: the nearest directory at or above Dir
	// with a lockfile or a "workspaces" field (pnpm-workspace.yaml for
	// pnpm); Dir when there is none.
	Root string
	// Manager is the package manager its lockfile names: npm, pnpm, yarn
	// or bun; npm when no lockfile says.
	Manager string
	// Lockfile is the lockfile's path, "" when there is none.
	Lockfile string
	// Raw keeps the fields an adapter reads itself ("jest", "mocha").
	Raw map[string]json.RawMessage
}

// lockfiles in the order a directory holding several is read.
var lockfiles = []struct{ name, manager string }{
	{"package-lock.json", "npm"},
	{"npm-shrinkwrap.json", "npm"},
	{"pnpm-lock.yaml", "pnpm"},
	{"yarn.lock", "yarn"},
	{"bun.lock", "bun"},
	{"bun.lockb", "bun"},
}

// maxUp bounds how far above the project root package.json and the
// workspace are looked for: a monorepo's packages sit a few levels down.
const maxUp = 6

// Find reads the package.json at root or, when root is a folder inside a
// package (src/, test/), the nearest one above it. ok is false when there
// is none; err when one exists and cannot be read.
func Find(root string) (p *Package, ok bool, err error) {
	dir := root
	for i := 0; i <= maxUp; i++ {
		p, err := read(dir)
		if err == nil {
			p.Root, p.Manager, p.Lockfile = workspace(dir)
			return p, true, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, false, err
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return nil, false, nil
}

type packageJSON struct {
	Name                 string            `json:"name"`
	Type                 string            `json:"type"`
	Scripts              map[string]string `json:"scripts"`
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
}

func read(dir string) (*Package, error) {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil, err
	}
	var pj packageJSON
	if err := json.Unmarshal(b, &pj); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "package.json"), err)
	}
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(b, &raw) // the same bytes decoded above
	p := &Package{Dir: dir, Name: pj.Name, Type: pj.Type, Scripts: pj.Scripts, Deps: map[string]string{}, Raw: raw}
	for _, m := range []map[string]string{pj.OptionalDependencies, pj.PeerDependencies, pj.Dependencies, pj.DevDependencies} {
		for k, v := range m {
			p.Deps[k] = v
		}
	}
	return p, nil
}

// workspace finds the lockfile at or above dir: the directory holding it
// is where dependencies are installed from.
func workspace(dir string) (root, manager, lockfile string) {
	d := dir
	for i := 0; i <= maxUp; i++ {
		for _, l := range lockfiles {
			if path := filepath.Join(d, l.name); fileExists(path) {
				return d, l.manager, path
			}
		}
		if fileExists(filepath.Join(d, "pnpm-workspace.yaml")) {
			return d, "pnpm", ""
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return dir, "npm", ""
}

func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}

// Has reports whether the package depends on dep in any of its
// dependency lists.
func (p *Package) Has(dep string) bool {
	_, ok := p.Deps[dep]
	return ok
}

// TestScript is the package's "test" script, "" when it has none or has
// npm's placeholder that only fails.
func (p *Package) TestScript() string {
	s := strings.TrimSpace(p.Scripts["test"])
	if strings.Contains(s, "no test specified") {
		return ""
	}
	return s
}

// TestScriptWords is the test script split into words when it is one
// plain command (`vitest run --coverage`, `npx jest --ci`), nil when
// there is none or it needs a shell (`eslint . && jest`): the adapters run
// the framework it calls with its arguments, as `npm test` would.
func (p *Package) TestScriptWords() []string {
	s := p.TestScript()
	if s == "" || shell.NeedsShell(s) {
		return nil
	}
	w, err := shell.Split(s)
	if err != nil {
		return nil
	}
	return w
}

// ScriptRuns reports whether a script of the package's runs tool (as a
// word: "vitest run", "npx jest --ci", "node --test").
func (p *Package) ScriptRuns(tool string) bool {
	for _, s := range p.Scripts {
		for _, w := range strings.Fields(s) {
			if w == tool || strings.HasSuffix(w, "/"+tool) {
				return true
			}
		}
	}
	return false
}

// InstallCommand is the command that installs the workspace's
// dependencies as its lockfile pins them.
func (p *Package) InstallCommand() string {
	switch p.Manager {
	case "pnpm":
		return "pnpm install --frozen-lockfile"
	case "yarn":
		return "yarn install --frozen-lockfile"
	case "bun":
		return "bun install --frozen-lockfile"
	}
	if p.Lockfile == "" {
		return "npm install"
	}
	return "npm ci"
}

// Bin finds the framework's executable in node_modules/.bin, from the
// package's directory up to the workspace root (hoisted installs keep it
// at the root). Missing, it is a usage error naming framework whose hint
// is the install command to run, and where: nothing is guessed, and no
// global install is used in the project's place.
func (p *Package) Bin(framework, name string) (string, error) {
	for d := p.Dir; ; d = filepath.Dir(d) {
		path := filepath.Join(d, "node_modules", ".bin", name)
		if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
			return path, nil
		}
		if d == p.Root || filepath.Dir(d) == d || !strings.HasPrefix(d, p.Root) {
			break
		}
	}
	hint := fmt.Sprintf("run `%s` in %s to install the project's dependencies", p.InstallCommand(), p.Root)
	if !p.Has(name) && !p.Has(framework) {
		hint = fmt.Sprintf("%s is not among the project's dependencies: add it (`npm install --save-dev %s`), or pick another framework", framework, framework)
	}
	return "", &adapters.UsageError{
		Msg:       fmt.Sprintf("%s is not installed in %s (no node_modules/.bin/%s)", framework, p.Root, name),
		Framework: framework,
		Hint:      hint,
	}
}

// ConfigFile is the first of names present in the package's directory,
// "" when none is.
func (p *Package) ConfigFile(names ...string) string {
	for _, n := range names {
		if path := filepath.Join(p.Dir, n); fileExists(path) {
			return path
		}
	}
	return ""
}
