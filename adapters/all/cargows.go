package all

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"strobe/adapters/kit"
)

// cargoRun is what a plain cargo test at a crate's or workspace's root
// runs, read from its Cargo.toml: the packages below it that it leaves
// out are their own suites.
type cargoRun struct {
	root      string
	rootPkg   bool     // the root is a package
	workspace bool     // the root has a [workspace] table
	members   []string // its members' globs, relative to the root
	exclude   []string
	defaults  []string // default-members, when set
}

// readCargoRun reads root's Cargo.toml; nil when there is none, it does
// not parse, or it is a member of a workspace above (whose members are
// not read here).
func readCargoRun(root string) *cargoRun {
	b, err := os.ReadFile(filepath.Join(root, "Cargo.toml"))
	if err != nil {
		return nil
	}
	var m struct {
		Package   map[string]any `toml:"package"`
		Workspace *struct {
			Members        []string `toml:"members"`
			Exclude        []string `toml:"exclude"`
			DefaultMembers []string `toml:"default-members"`
		} `toml:"workspace"`
	}
	if toml.Unmarshal(b, &m) != nil {
		return nil
	}
	c := &cargoRun{root: root, rootPkg: m.Package != nil}
	if w := m.Workspace; w != nil {
		c.workspace, c.members, c.exclude, c.defaults = true, w.Members, w.Exclude, w.DefaultMembers
	} else {
		for d := range kit.Ancestors(filepath.Dir(root)) {
			if kit.CargoWorkspace(d) {
				return nil // a member of the workspace above
			}
		}
	}
	return c
}

// leaves says why cargo at the root (cargo test, cargo nextest run, as
// strobe runs them: no --workspace) does not test the crate in dir, ""
// when it does. A path dependency that is a member only as
// such (not in members) reads as no member.
func (c *cargoRun) leaves(dir string) string {
	rel, err := filepath.Rel(c.root, dir)
	if err != nil {
		return ""
	}
	rel = filepath.ToSlash(rel)
	if kit.CargoWorkspace(dir) {
		return "a Rust workspace of its own"
	}
	if !c.workspace {
		return "a Rust crate of its own: cargo at the root tests the root crate only"
	}
	if !globMatch(c.members, rel) || globMatch(c.exclude, rel) {
		return "a Rust crate that is no member of the root's workspace"
	}
	switch {
	case c.defaults != nil && !globMatch(c.defaults, rel):
		return "a member of the root's workspace that its default-members leave out"
	case c.defaults == nil && c.rootPkg:
		return "a member of the root's workspace: cargo at the root tests the root package only"
	}
	return ""
}

// globMatch says whether rel matches one of cargo's member globs.
func globMatch(globs []string, rel string) bool {
	for _, g := range globs {
		g = strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(g), "./"), "/")
		if ok, _ := path.Match(g, rel); ok || g == rel {
			return true
		}
	}
	return false
}
