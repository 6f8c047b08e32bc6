package nextest

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"strobe/adapters/kit"
)

// docExamples names a file of a library the run tests with a code example
// in a doc comment, which plain cargo test would run as a doctest and
// nextest does not; "" when there is none. Only the packages the run
// covers count (runPackages): a crate the workspace excludes, or one the
// run's -p or --exclude leaves out, has doctests cargo test would not run
// either. Each package's directory is walked, bounded: its .rs files
// outside target/, tests/, benches/, examples/ and the crates nested in it.
func docExamples(meta func() (*kit.CargoMetadata, error), root string, args []string) string {
	for _, dir := range runPackages(meta, root, args) {
		if f := packageDocExample(dir); f != "" {
			return kit.ProjectPath(root, f)
		}
	}
	return ""
}

// runPackages returns the directories of the packages the run tests whose
// library has doctests, selected as cargo selects them: --workspace (or
// --all) is every member but those --exclude names, -p names some, and
// neither is the package of the manifest, or the workspace's default
// members when the manifest is the workspace's. -p and --exclude take a
// name, name@version or a glob.
func runPackages(meta func() (*kit.CargoMetadata, error), root string, args []string) []string {
	manifest := filepath.Join(root, "Cargo.toml")
	if m := flagValues(args, "--manifest-path"); len(m) > 0 {
		if manifest = m[0]; !filepath.IsAbs(manifest) {
			manifest = filepath.Join(root, manifest)
		}
	}
	ws, err := meta()
	if err != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(manifest); err == nil {
		manifest = real
	}
	named := func(specs []string, name string) bool {
		return slices.ContainsFunc(specs, func(s string) bool { return specNames(s, name) })
	}
	var covered func(id, name, manifestPath string) bool
	switch packages := flagValues(args, "-p", "--package"); {
	case hasFlag(args, "--workspace", "--all"):
		excluded := flagValues(args, "--exclude")
		covered = func(id, name, _ string) bool {
			return slices.Contains(ws.WorkspaceMembers, id) && !named(excluded, name)
		}
	case len(packages) > 0:
		covered = func(_, name, _ string) bool { return named(packages, name) }
	case manifest == filepath.Join(ws.WorkspaceRoot, "Cargo.toml"):
		covered = func(id, _, _ string) bool { return slices.Contains(ws.DefaultMembers(), id) }
	default:
		covered = func(_, _, m string) bool { return m == manifest }
	}
	var dirs []string
	for _, p := range ws.Packages {
		if !covered(p.ID, p.Name, p.ManifestPath) {
			continue
		}
		for _, t := range p.Targets {
			if t.Doctest && slices.ContainsFunc(t.CrateTypes, func(c string) bool { return c == "lib" || c == "rlib" || c == "proc-macro" }) {
				dirs = append(dirs, filepath.Dir(p.ManifestPath))
				break
			}
		}
	}
	return dirs
}

// specNames says whether a package spec (-p, --exclude) names the package:
// its name, name@version, or a glob of names.
func specNames(spec, name string) bool {
	spec, _, _ = strings.Cut(spec, "@")
	ok, _ := path.Match(spec, name)
	return ok
}

// flagValues returns the values the arguments give a flag: "-p a",
// "-pa", "--package a", "--package=a".
func flagValues(args []string, names ...string) []string {
	var vals []string
	for i, a := range args {
		for _, n := range names {
			switch {
			case a == n && i+1 < len(args):
				vals = append(vals, args[i+1])
			case strings.HasPrefix(a, n+"="):
				vals = append(vals, a[len(n)+1:])
			case len(n) == 2 && strings.HasPrefix(a, n) && len(a) > 2:
				vals = append(vals, a[2:])
			}
		}
	}
	return vals
}

// packageDocExample returns a .rs file of the package in dir that has a
// code example in a doc comment, or "".
func packageDocExample(dir string) string {
	found := ""
	files := 0
	nested := map[string]bool{} // directories holding a crate of their own
	own := func(file string) bool {
		for d := filepath.Dir(file); len(d) > len(dir); d = filepath.Dir(d) {
			n, ok := nested[d]
			if !ok {
				n = kit.FileExists(filepath.Join(d, "Cargo.toml"))
				nested[d] = n
			}
			if n {
				return false
			}
		}
		return true
	}
	kit.WalkLimited(dir, 6, func(path string, d fs.DirEntry) {
		if found != "" || files >= 2000 || !strings.HasSuffix(path, ".rs") || !own(path) {
			return
		}
		files++
		if hasDocExample(path) {
			found = path
		}
	}, func(name string) bool {
		switch name {
		case "target", "tests", "benches", "examples", "node_modules":
			return true
		}
		return false
	})
	return found
}

// hasDocExample reports a ``` fence in a /// or //! comment.
func hasDocExample(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		l := bytes.TrimSpace(sc.Bytes())
		if (bytes.HasPrefix(l, []byte("///")) || bytes.HasPrefix(l, []byte("//!"))) && bytes.Contains(l, []byte("```")) {
			return true
		}
	}
	return false
}
