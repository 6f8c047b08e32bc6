package all

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strobe/adapters/adapterstest"
)

// TestUntested: the projects below a Go module's root that go test ./...
// does not run are named (another language's with tests, a nested module
// with tests); those it runs, those without tests, and those in installed
// or fixture trees are not.
func TestUntested(t *testing.T) {
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"go.mod":                                 "module m\n",
		"web/package.json":                       `{"scripts": {"test": "vitest run"}}`,
		"docs/package.json":                      `{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`,
		"site/package.json":                      `{"scripts": {"build": "vite build"}}`,
		"tools/go.mod":                           "module tools\n",
		"tools/tools.go":                         "package tools\n",
		"sdk/go/go.mod":                          "module sdk\n",
		"sdk/go/client/client_test.go":           "package client\n",
		"py/pyproject.toml":                      "[project]\nname = 'x'\n",
		"py/tests/test_x.py":                     "def test_x(): pass\n",
		"scripts/pyproject.toml":                 "[project]\nname = 'y'\n",
		"rust/Cargo.toml":                        "[package]\nname = 'r'\n",
		"rust/src/lib.rs":                        "#[cfg(test)]\nmod tests {}\n",
		"ext/Cargo.toml":                         "[package]\nname = 'ext'\n",
		"ext/src/lib.rs":                         "use pyo3::prelude::*;\n",
		"docs/tox.ini":                           "[testenv:docs]\ncommands = sphinx-build\n",
		"java/pom.xml":                           "<project/>\n",
		"node_modules/a/package.json":            `{"scripts": {"test": "jest"}}`,
		"testdata/p/Cargo.toml":                  "[package]\nname = 'p'\n",
		".github/actions/x/package.json":         `{"scripts": {"test": "jest"}}`,
		"a/b/c/Cargo.toml":                       "[package]\nname = 'deep'\n",
		"internal/x_test.go":                     "package internal\n",
		"web/packages/ui/package.json":           `{"scripts": {"test": "vitest run"}}`,
		"rust/sub/Cargo.toml":                    "[package]\nname = 'inner'\n",
		"sdk/go/client/nested/python/pytest.ini": "",
	})
	got := Untested(root, "go")
	want := []string{
		"py/ (a Python project with tests)",
		"rust/ (a Rust crate)",
		"sdk/go/ (a Go module of its own: go test ./... stops at its go.mod)",
		"web/ (a JavaScript package with a test script)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Untested(go) =\n %q\nwant\n %q", got, want)
	}
	if h := UntestedHint(got); !strings.HasPrefix(h, "below the root are projects this run does not reach: py/ (a Python project with tests), rust/ (a Rust crate), sdk/go/ (") || !strings.Contains(h, " and 1 more; give such a directory as the project root") {
		t.Errorf("hint %q", h)
	}
	// A JavaScript run leaves the packages to its own tool; generic's
	// tests are not known.
	if got := Untested(root, "vitest"); slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "web/") }) || !slices.Contains(got, "sdk/go/ (a Go module)") {
		t.Errorf("Untested(vitest) = %q: want the Go module, not the JavaScript package", got)
	}
	// A go.work uses some nested modules: the others are not run.
	adapterstest.WriteFiles(t, root, map[string]string{
		"go.work":             "go 1.22\n\nuse (\n\t.\n\t./sdk/go // the SDK\n)\n",
		"other/go.mod":        "module other\n",
		"other/other_test.go": "package other\n",
	})
	if got := Untested(root, "go"); slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "sdk/go/") }) ||
		!slices.Contains(got, "other/ (a Go module that go.work does not use: go test ./... stops at its go.mod)") {
		t.Errorf("Untested(go) with a go.work = %q: want other/, not sdk/go/, which it uses", got)
	}
	if got := Untested(root, "generic"); got != nil {
		t.Errorf("Untested(generic) = %q, want nil", got)
	}
	if h := UntestedHint(nil); h != "" {
		t.Errorf("no project below: hint %q", h)
	}
}

// TestUntestedCargo: below a crate or a workspace, the crates cargo at
// the root does not test (strobe runs it as it is: no --workspace) are
// named; the members it tests are not.
func TestUntestedCargo(t *testing.T) {
	lib := "#[cfg(test)]\nmod tests {}\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"a crate", map[string]string{
			"Cargo.toml":          "[package]\nname = 'root'\n",
			"crates/a/Cargo.toml": "[package]\nname = 'a'\n",
			"crates/a/src/lib.rs": lib,
			"bench/Cargo.toml":    "[package]\nname = 'b'\n", // no tests
		}, []string{"crates/a/ (a Rust crate of its own: cargo at the root tests the root crate only)"}},
		{"a workspace with a root package", map[string]string{
			"Cargo.toml":           "[package]\nname = 'root'\n\n[workspace]\nmembers = [\"crates/*\"]\nexclude = [\"crates/ex\"]\n",
			"crates/a/Cargo.toml":  "[package]\nname = 'a'\n",
			"crates/a/src/lib.rs":  lib,
			"crates/ex/Cargo.toml": "[package]\nname = 'ex'\n",
			"crates/ex/src/lib.rs": lib,
			"tools/x/Cargo.toml":   "[package]\nname = 'x'\n",
			"tools/x/src/lib.rs":   lib,
		}, []string{
			"crates/a/ (a member of the root's workspace: cargo at the root tests the root package only)",
			"crates/ex/ (a Rust crate that is no member of the root's workspace)",
			"tools/x/ (a Rust crate that is no member of the root's workspace)",
		}},
		// parking_lot: a root package with an empty [workspace], its
		// path dependencies members by cargo's rule (and theirs), the
		// one it excludes not.
		{"path dependencies", map[string]string{
			"Cargo.toml":            "[package]\nname = 'root'\n\n[dependencies]\ncore = { path = \"core\", package = \"parking_lot_core\" }\nlock_api = { path = \"./lock_api\" }\nout = { path = \"../out\" }\n\n[target.'cfg(unix)'.dev-dependencies]\nex = { path = \"ex\" }\n\n[workspace]\nexclude = [\"ex\"]\n",
			"core/Cargo.toml":       "[package]\nname = 'parking_lot_core'\n\n[dependencies]\nutil = { path = \"../util\" }\n",
			"core/src/lib.rs":       lib,
			"lock_api/Cargo.toml":   "[package]\nname = 'lock_api'\n",
			"lock_api/src/lib.rs":   lib,
			"util/Cargo.toml":       "[package]\nname = 'util'\n",
			"util/src/lib.rs":       lib,
			"ex/Cargo.toml":         "[package]\nname = 'ex'\n",
			"ex/src/lib.rs":         lib,
			"benchmark/Cargo.toml":  "[package]\nname = 'benchmark'\n",
			"benchmark/src/main.rs": "#[test]\nfn t() {}\n",
		}, []string{
			"benchmark/ (a Rust crate that is no member of the root's workspace)",
			"core/ (a member of the root's workspace: cargo at the root tests the root package only)",
			"ex/ (a Rust crate that is no member of the root's workspace)",
			"lock_api/ (a member of the root's workspace: cargo at the root tests the root package only)",
			"util/ (a member of the root's workspace: cargo at the root tests the root package only)",
		}},
		{"a virtual workspace", map[string]string{
			"Cargo.toml":          "[workspace]\nmembers = [\"crates/*\", \"./cli/\"]\ndefault-members = [\"crates/a\", \"cli\"]\n",
			"crates/a/Cargo.toml": "[package]\nname = 'a'\n",
			"crates/a/src/lib.rs": lib,
			"crates/b/Cargo.toml": "[package]\nname = 'b'\n",
			"crates/b/src/lib.rs": lib,
			"cli/Cargo.toml":      "[package]\nname = 'cli'\n",
			"cli/src/main.rs":     "#[test]\nfn t() {}\n",
			"fuzz/Cargo.toml":     "[package]\nname = 'fuzz'\n\n[workspace]\nmembers = [\".\"]\n",
			"fuzz/src/lib.rs":     lib,
		}, []string{
			"crates/b/ (a member of the root's workspace that its default-members leave out)",
			"fuzz/ (a Rust workspace of its own)",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			adapterstest.WriteFiles(t, root, tc.files)
			for _, pick := range []string{"cargo", "nextest"} {
				if got := Untested(root, pick); !slices.Equal(got, tc.want) {
					t.Errorf("Untested(%s) =\n %q\nwant\n %q", pick, got, tc.want)
				}
			}
		})
	}
	// A member given as the root: its workspace above is not read, and
	// nothing is said.
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"Cargo.toml":         "[workspace]\nmembers = [\"a\", \"a/inner\"]\n",
		"a/Cargo.toml":       "[package]\nname = 'a'\n",
		"a/inner/Cargo.toml": "[package]\nname = 'inner'\n",
		"a/inner/src/lib.rs": lib,
	})
	if got := Untested(filepath.Join(root, "a"), "cargo"); got != nil {
		t.Errorf("Untested(cargo) in a member = %q, want nil", got)
	}
}

// TestUntestedTestpaths: below a pytest root whose testpaths name where
// its tests are, the Python projects pytest does not look in are named;
// without testpaths pytest looks everywhere, and nothing is.
func TestUntestedTestpaths(t *testing.T) {
	sub := map[string]string{
		"plugins/foo/pyproject.toml":    "[project]\nname = 'foo'\n",
		"plugins/foo/tests/test_foo.py": "def test_foo(): pass\n",
		"tests/integration/pytest.ini":  "[pytest]\n",
		"libs/bar/setup.cfg":            "[metadata]\nname = bar\n",
		"libs/bar/tests/test_bar.py":    "def test_bar(): pass\n",
		"tests/test_root.py":            "def test_root(): pass\n",
	}
	want := []string{"plugins/foo/ (a Python project outside the root's pytest testpaths)"}
	for _, config := range []map[string]string{
		{"pyproject.toml": "[project]\nname = 'root'\n\n[tool.pytest.ini_options]\ntestpaths = [\n  \"tests\",\n  \"libs/bar/tests\",\n]\n"},
		{"pytest.ini": "[pytest]\naddopts = -q\ntestpaths =\n    tests\n    libs/bar/tests\nmarkers = slow\n"},
		{"setup.cfg": "[metadata]\nname = root\n\n[tool:pytest]\ntestpaths = tests libs/bar/tests\n"},
	} {
		root := t.TempDir()
		adapterstest.WriteFiles(t, root, sub)
		adapterstest.WriteFiles(t, root, config)
		if got := Untested(root, "pytest"); !slices.Equal(got, want) {
			t.Errorf("%v: Untested(pytest) = %q, want %q", config, got, want)
		}
		if got := Untested(root, "unittest"); got != nil {
			t.Errorf("%v: Untested(unittest) = %q, want nil", config, got)
		}
	}
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, sub)
	adapterstest.WriteFiles(t, root, map[string]string{"pytest.ini": "[pytest]\naddopts = -q\n"})
	if got := Untested(root, "pytest"); got != nil {
		t.Errorf("no testpaths: Untested(pytest) = %q, want nil", got)
	}
}
