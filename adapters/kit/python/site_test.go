package python

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/internal/testutil"
)

// TestInstalled: the files alone say a module is installed where the
// interpreter certainly reads it, and say nothing (false) otherwise.
func TestInstalled(t *testing.T) {
	// layout makes a tree: "name" a file, "name/" a directory,
	// "name -> target" a symlink.
	layout := func(t *testing.T, entries ...string) string {
		dir := t.TempDir()
		for _, e := range entries {
			if name, target, ok := strings.Cut(e, " -> "); ok {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
				if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
				continue
			}
			p := filepath.Join(dir, e)
			if e[len(e)-1] == '/' {
				os.MkdirAll(p, 0o755)
				continue
			}
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte("3.12.1\n"), 0o755)
		}
		return dir
	}
	install := []string{"inst/bin/python3.12", "inst/bin/python3 -> python3.12"}
	pyenv := []string{"pyenv/shims/python3", "pyenv/versions/3.12.1/bin/python3.12", "pyenv/versions/3.12.1/bin/python3 -> python3.12"}
	for _, tc := range []struct {
		name    string
		entries []string
		exe     string // relative to the tree
		env     []string
		want    bool
	}{
		{"a venv's site-packages", []string{".venv/pyvenv.cfg", ".venv/bin/python", ".venv/lib/python3.12/site-packages/pytest/__init__.py"}, ".venv/bin/python", nil, true},
		{"a venv without it", []string{".venv/pyvenv.cfg", ".venv/bin/python", ".venv/lib/python3.12/site-packages/other/__init__.py"}, ".venv/bin/python", nil, false},
		{"a module of one file", []string{".venv/pyvenv.cfg", ".venv/bin/python", ".venv/lib/python3.12/site-packages/pytest.py"}, ".venv/bin/python", nil, true},
		{"an installation", append(install, "inst/lib/python3.12/site-packages/pytest/__init__.py"), "inst/bin/python3", nil, true},
		{"another version's packages", append(install, "inst/lib/python3.11/site-packages/pytest/__init__.py"), "inst/bin/python3", nil, false},
		{"python3 of unknown version", []string{"inst/bin/python3", "inst/lib/python3.12/site-packages/pytest/__init__.py"}, "inst/bin/python3", nil, false},
		{"the user's site", append(install, "home/.local/lib/python3.12/site-packages/pytest/__init__.py"), "inst/bin/python3", []string{"HOME={{TREE}}/home"}, true},
		{"the user's site turned off", append(install, "home/.local/lib/python3.12/site-packages/pytest/__init__.py"), "inst/bin/python3", []string{"HOME={{TREE}}/home", "PYTHONNOUSERSITE=1"}, false},
		{"PYTHONPATH", []string{"python3", "lib/pytest/__init__.py"}, "python3", []string{"PYTHONPATH={{TREE}}/nowhere:{{TREE}}/lib"}, true},
		{"a pyenv shim, .python-version", append(pyenv, "project/.python-version", "pyenv/versions/3.12.1/lib/python3.12/site-packages/pytest/__init__.py"), "pyenv/shims/python3", []string{"PYENV_ROOT={{TREE}}/pyenv"}, true},
		{"a pyenv shim, PYENV_VERSION system", append(pyenv, "pyenv/versions/3.12.1/lib/python3.12/site-packages/pytest/__init__.py"), "pyenv/shims/python3", []string{"PYENV_ROOT={{TREE}}/pyenv", "PYENV_VERSION=system"}, false},
		{"a pyenv shim, no version", append(pyenv, "pyenv/versions/3.12.1/lib/python3.12/site-packages/pytest/__init__.py"), "pyenv/shims/python3", []string{"PYENV_ROOT={{TREE}}/pyenv"}, false},
		{"a pyenv shim, the global version", append(pyenv, "pyenv/version", "pyenv/versions/3.12.1/lib/python3.12/site-packages/pytest/__init__.py"), "pyenv/shims/python3", []string{"PYENV_ROOT={{TREE}}/pyenv"}, true},
		{"another tool's shims", []string{"asdf/shims/python3", "asdf/lib/python3.12/site-packages/pytest/__init__.py"}, "asdf/shims/python3", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree := layout(t, append(tc.entries, "project/")...)
			env := []string{"HOME=" + t.TempDir()}
			for _, e := range tc.env {
				env = append(env, strings.ReplaceAll(e, "{{TREE}}", tree))
			}
			in := Interpreter{Path: filepath.Join(tree, tc.exe), Shown: tc.exe}
			if got := in.installed(filepath.Join(tree, "project"), env, "pytest"); got != tc.want {
				t.Errorf("installed = %v, want %v (site directories %q)", got, tc.want, in.siteDirs(filepath.Join(tree, "project"), env))
			}
		})
	}
}

// TestInstalledAgreesWithPython: where the files say a module is
// installed, Python finds it too; this machine's interpreter is placed
// (on CI, which installs pytest, the files must tell).
func TestInstalledAgreesWithPython(t *testing.T) {
	testutil.RequireTool(t, "python3")
	dir := t.TempDir()
	in, err := FindInterpreter(dir, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	for _, module := range []string{"pytest", "pip", "strobe_no_such_module"} {
		installed := in.installed(dir, os.Environ(), module)
		has, err := in.askPython(context.Background(), dir, os.Environ(), module)
		if err != nil {
			t.Fatal(err)
		}
		if installed && !has {
			t.Errorf("%s: the files say %s is installed for %s (site directories %q), Python does not find it", module, module, in.Path, in.siteDirs(dir, os.Environ()))
		}
		if module == "pytest" && has && !installed && os.Getenv("CI") != "" {
			t.Errorf("pytest is installed for %s but the files do not say so (site directories %q): every pytest run asks Python first", in.Path, in.siteDirs(dir, os.Environ()))
		}
	}
}
