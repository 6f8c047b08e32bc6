package all

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"strobe/adapters/kit"
	pykit "strobe/adapters/kit/python"
)

// ecosystems groups the adapters by the projects they run: a project of
// the group picked below the root is its own suite only when it is of
// another group (a vitest package in a Go module's web/), as the group's
// own tool covers its kin (Maven's modules, a Cargo workspace's members,
// a jest root's packages) or is asked to. generic and the adapters of
// built binaries are absent: what they run is not known.
var ecosystems = map[string]string{
	"go": "go", "cargo": "rust", "nextest": "rust",
	"jest": "node", "vitest": "node", "mocha": "node", "node": "node", "bun": "node", "deno": "node",
	"pytest": "python", "unittest": "python", "maven": "java", "gradle": "java", "swift": "swift", "xcodebuild": "swift",
}

// Untested names the projects below root (two levels down at most) that a
// run of the picked adapter on root does not run: another language's
// (a JavaScript package with a test script in a Go module's web/, a
// Python project in a crate's python/); for go, a nested module (./...
// stops at a go.mod); for cargo and nextest, a crate that cargo at the
// root does not test (no member of its workspace, a member beside a root
// package, a crate below a crate). Each is "DIR (what)"; nil when there is
// none, or the pick's tests are not known (generic, a built binary).
func Untested(root, picked string) []string {
	eco, ok := ecosystems[picked]
	if !ok {
		return nil
	}
	var goWork map[string]bool // the modules go.work uses, when it is there
	var cargo *cargoRun        // what cargo test at the root runs
	var testpaths []string     // where pytest at the root looks, when it is told
	switch eco {
	case "go":
		goWork = goWorkUses(root)
	case "rust":
		cargo = readCargoRun(root)
	case "python":
		if picked == "pytest" {
			testpaths = pykit.PytestTestpaths(root)
		}
	}
	var out []string
	var visit func(dir string, depth int)
	visit = func(dir string, depth int) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if !e.IsDir() || skipBelow(e.Name()) {
				continue
			}
			sub := filepath.Join(dir, e.Name())
			if what := subproject(sub, eco, below{goWork, cargo, testpaths}); what != "" {
				rel, _ := filepath.Rel(root, sub)
				out = append(out, filepath.ToSlash(rel)+"/ ("+what+")")
				continue // its own tree is its tool's
			}
			if depth < 2 {
				visit(sub, depth+1)
			}
		}
	}
	visit(root, 1)
	slices.Sort(out)
	return out
}

// UntestedHint is Untested's news for the answer, "" when there is none.
func UntestedHint(projects []string) string {
	if len(projects) == 0 {
		return ""
	}
	list := strings.Join(projects[:min(3, len(projects))], ", ")
	if len(projects) > 3 {
		list += fmt.Sprintf(" and %d more", len(projects)-3)
	}
	return "below the root are projects this run does not reach: " + list + "; give such a directory as the project root to test it"
}

// skipBelow says whether a directory holds no project of the user's own:
// hidden ones, installed packages, build output, fixtures.
func skipBelow(name string) bool {
	switch name {
	case "node_modules", "vendor", "target", "build", "dist", "out", "testdata", "fixtures", "third_party",
		"venv", "__pycache__", "site-packages", "bower_components":
		return true
	}
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// below is what the root's own tool reaches below it: the modules a
// go.work uses, what cargo at the root tests, pytest's testpaths.
type below struct {
	goWork    map[string]bool
	cargo     *cargoRun
	testpaths []string
}

// subproject says what project dir is when a run of ecosystem eco on the
// directory above does not run it, "" otherwise.
func subproject(dir, eco string, b below) string {
	has := func(name string) bool { return kit.FileExists(filepath.Join(dir, name)) }
	switch {
	case has("go.mod"):
		// A module without tests (tools/go.mod pinning the tools' versions)
		// is no suite.
		if eco == "go" && !b.goWork[dir] && hasGoTests(dir) {
			if b.goWork != nil {
				return "a Go module that go.work does not use: go test ./... stops at its go.mod"
			}
			return "a Go module of its own: go test ./... stops at its go.mod"
		}
		if eco != "go" && hasGoTests(dir) {
			return "a Go module"
		}
	case has("Cargo.toml"):
		// A crate without tests (a Python package's extension, built
		// by maturin) is no suite.
		if !hasTests(dir, ".rs", "#[test]", "#[cfg(test)]", "/// ```") {
			break
		}
		if eco != "rust" {
			return "a Rust crate"
		}
		if b.cargo != nil {
			return b.cargo.leaves(dir)
		}
	case has("package.json"):
		if eco != "node" && hasTestScript(filepath.Join(dir, "package.json")) {
			return "a JavaScript package with a test script"
		}
	case has("pom.xml") || has("build.gradle") || has("build.gradle.kts"):
		if eco != "java" && dirExists(filepath.Join(dir, "src", "test")) {
			return "a Java project"
		}
	case has("pytest.ini") || (has("tox.ini") || has("pyproject.toml") || has("setup.py") || has("setup.cfg")) && (dirExists(filepath.Join(dir, "tests")) || dirExists(filepath.Join(dir, "test"))):
		// tox.ini alone may only build the docs (Sphinx's tox env).
		switch {
		case eco != "python":
			return "a Python project with tests"
		case b.testpaths != nil && !reaches(b.testpaths, dir):
			return "a Python project outside the root's pytest testpaths"
		}
	}
	return ""
}

// hasTestScript says whether a package.json has a test script other than
// the one npm init writes ("echo \"Error: no test specified\" && exit 1").
func hasTestScript(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(b, []byte(`"test"`)) {
		return false
	}
	var pj struct {
		Scripts map[string]string `json:"scripts"`
	}
	if json.Unmarshal(b, &pj) != nil {
		return false
	}
	s := strings.TrimSpace(pj.Scripts["test"])
	return s != "" && !strings.Contains(s, "no test specified")
}

// goWorkUses are the module directories root's go.work uses (`use ./a`,
// `use ( ./b ./c )`), cleaned; nil without a go.work.
func goWorkUses(root string) map[string]bool {
	b, err := os.ReadFile(filepath.Join(root, "go.work"))
	if err != nil {
		return nil
	}
	uses := map[string]bool{}
	block := false
	for _, line := range strings.Split(string(b), "\n") {
		line, _, _ = strings.Cut(line, "//")
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
			continue
		case block && f[0] == ")":
			block = false
			continue
		case f[0] == "use" && len(f) > 1 && f[1] == "(":
			block = true
			continue
		case f[0] == "use" && len(f) > 1:
			f = f[1:]
		case !block:
			continue
		}
		uses[filepath.Join(root, strings.Trim(f[0], `"`))] = true
	}
	return uses
}

// hasGoTests says whether a _test.go file is under dir.
func hasGoTests(dir string) bool {
	return hasTests(dir, "_test.go")
}

// hasTests says whether a file under dir ends with suffix and, when marks
// are given, holds one of them (a Rust file's #[test]); it looks at 2,000
// entries and reads 200 files at most.
func hasTests(dir, suffix string, marks ...string) bool {
	found, seen, read := false, 0, 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		seen++
		switch {
		case err != nil:
			return nil
		case found || seen > 2000 || read > 200:
			return fs.SkipAll
		case d.IsDir() && path != dir && skipBelow(d.Name()):
			return fs.SkipDir
		case d.IsDir() || !strings.HasSuffix(d.Name(), suffix):
			return nil
		case len(marks) == 0:
			found = true
			return fs.SkipAll
		}
		read++
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		for _, m := range marks {
			if bytes.Contains(b, []byte(m)) {
				found = true
				return fs.SkipAll
			}
		}
		return nil
	})
	return found
}

func dirExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// reaches says whether pytest, given paths (python.PytestTestpaths),
// collects tests in dir: dir is one of them, below one, above one, or
// matches one as a glob.
func reaches(paths []string, dir string) bool {
	for _, p := range paths {
		if ok, _ := filepath.Match(p, dir); ok || kit.Within(p, dir) || kit.Within(dir, p) {
			return true
		}
	}
	return false
}
