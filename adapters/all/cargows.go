package all

import (
	"os"
	"path"
	"path/filepath"
	"slices"
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
	// pathDeps are the directories, relative to the root, of the path
	// dependencies of the root package and of the members (theirs too):
	// cargo makes those below the root members of its workspace.
	pathDeps []string
}

// cargoDeps are the dependency tables of a Cargo.toml, its targets' too.
type cargoDeps struct {
	Dependencies      map[string]any `toml:"dependencies"`
	DevDependencies   map[string]any `toml:"dev-dependencies"`
	BuildDependencies map[string]any `toml:"build-dependencies"`
	Target            map[string]struct {
		Dependencies      map[string]any `toml:"dependencies"`
		DevDependencies   map[string]any `toml:"dev-dependencies"`
		BuildDependencies map[string]any `toml:"build-dependencies"`
	} `toml:"target"`
}

// paths are the `path = "…"` of its dependencies, as written.
func (d *cargoDeps) paths() []string {
	var out []string
	add := func(tables ...map[string]any) {
		for _, t := range tables {
			for _, v := range t {
				if m, ok := v.(map[string]any); ok {
					if p, ok := m["path"].(string); ok && p != "" {
						out = append(out, p)
					}
				}
			}
		}
	}
	add(d.Dependencies, d.DevDependencies, d.BuildDependencies)
	for _, t := range d.Target {
		add(t.Dependencies, t.DevDependencies, t.BuildDependencies)
	}
	return out
}

// cargoPathDepsRead bounds the manifests read for path dependencies.
const cargoPathDepsRead = 50

// readPathDeps follows the path dependencies of the root package and of
// the members (glob members too, as the walk finds them: those written
// plainly here), those below the root and not excluded; each is a member
// whose own path dependencies are members too.
func (c *cargoRun) readPathDeps(rootDeps *cargoDeps) {
	var queue []string // directories relative to the root
	seen := map[string]bool{}
	push := func(from string, deps *cargoDeps) {
		for _, p := range deps.paths() {
			rel, err := filepath.Rel(c.root, filepath.Join(c.root, from, p))
			if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				continue
			}
			rel = filepath.ToSlash(rel)
			if seen[rel] || globMatch(c.exclude, rel) {
				continue
			}
			seen[rel] = true
			queue = append(queue, rel)
		}
	}
	if rootDeps != nil {
		push(".", rootDeps)
	}
	for _, m := range c.members {
		if !strings.ContainsAny(m, "*?[") {
			queue = append(queue, strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(m), "./"), "/"))
		}
	}
	for read := 0; len(queue) > 0 && read < cargoPathDepsRead; read++ {
		dir := queue[0]
		queue = queue[1:]
		if seen[dir] && !slices.Contains(c.pathDeps, dir) && !globMatch(c.members, dir) {
			c.pathDeps = append(c.pathDeps, dir)
		}
		b, err := os.ReadFile(filepath.Join(c.root, dir, "Cargo.toml"))
		if err != nil {
			continue
		}
		var d cargoDeps
		if toml.Unmarshal(b, &d) == nil {
			push(dir, &d)
		}
	}
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
		cargoDeps
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
		var deps *cargoDeps
		if c.rootPkg {
			deps = &m.cargoDeps
		}
		c.readPathDeps(deps)
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
// when it does. A path dependency below the root is a member, as cargo
// makes it one (parking_lot's core/ and lock_api/, in no members list).
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
	if !globMatch(c.members, rel) && !slices.Contains(c.pathDeps, rel) || globMatch(c.exclude, rel) {
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
