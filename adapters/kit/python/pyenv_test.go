package python

import (
	"cmp"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strobe/internal/testutil"
)

// pyenvShim is what `pyenv rehash` writes for python3 (pyenv 2.x), with
// pyenv installed in root.
func pyenvShim(root string) string {
	return `#!/usr/bin/env bash
set -e
[ -n "$PYENV_DEBUG" ] && set -x

program="${0##*/}"

export PYENV_ROOT="` + root + `"
exec "` + root + `/libexec/pyenv" exec "$program" "$@"
`
}

// TestDirect: a pyenv shim is replaced by the interpreter pyenv would run,
// with PATH and PYENV_VERSION as pyenv exec sets them, only where nothing
// pyenv does on the way is left out; anything else keeps the shim.
func TestDirect(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string // relative to the tree, over the defaults; "-": no such file
		env   []string
		exe   string // default pyenv/shims/python3
		want  string // relative to the tree; "" keeps the shim
	}{
		{name: "a project's .python-version", want: "pyenv/versions/3.12.1/bin/python3"},
		{name: "the global version", files: map[string]string{"project/.python-version": "-", "pyenv/version": "3.12.1\n"}, want: "pyenv/versions/3.12.1/bin/python3"},
		{name: "comments, blank lines, a second word", files: map[string]string{"project/.python-version": "# pinned\n\n3.12.1 later\n"}, want: "pyenv/versions/3.12.1/bin/python3"},
		{name: "an empty .python-version is the system's", files: map[string]string{"project/.python-version": "", "pyenv/version": "3.12.1\n"}},
		{name: "PYENV_DIR", env: []string{"PYENV_DIR=/elsewhere"}},
		{name: "PYENV_VERSION", env: []string{"PYENV_VERSION=3.12.1"}, files: map[string]string{"project/.python-version": "3.9.0\n"}, want: "pyenv/versions/3.12.1/bin/python3"},
		{name: "pyenv-virtualenv's which hooks", files: map[string]string{
			"pyenv/plugins/pyenv-virtualenv/etc/pyenv.d/which/system-site-packages.bash": "",
			"pyenv/plugins/pyenv-virtualenv/etc/pyenv.d/which/conda.bash":                "",
		}, want: "pyenv/versions/3.12.1/bin/python3"},
		{name: "a plugin's exec hook", files: map[string]string{"pyenv/plugins/pyenv-x/etc/pyenv.d/exec/x.bash": ""}},
		{name: "a version-name hook on PYENV_HOOK_PATH", env: []string{"PYENV_HOOK_PATH={{TREE}}/hooks"}, files: map[string]string{"hooks/version-name/x.bash": ""}},
		{name: "an exec hook on PYENV_HOOK_PATH", env: []string{"PYENV_HOOK_PATH={{TREE}}/etc/pyenv.d"}, files: map[string]string{"etc/pyenv.d/exec/y.bash": ""}},
		{name: "several versions", files: map[string]string{"project/.python-version": "3.12.1\n3.11.0\n"}},
		{name: "several versions in PYENV_VERSION", env: []string{"PYENV_VERSION=3.12.1:3.11.0"}},
		{name: "a prefix: the latest installed", files: map[string]string{"project/.python-version": "3.12\n", "pyenv/versions/3.12.10/bin/python3": ""}, want: "pyenv/versions/3.12.10/bin/python3"},
		{name: "a prefix of the major version", files: map[string]string{"project/.python-version": "3\n"}, want: "pyenv/versions/3.12.1/bin/python3"},
		{name: "a prefix in PYENV_VERSION", env: []string{"PYENV_VERSION=3.11"}, want: "pyenv/versions/3.11.0/bin/python3"},
		{name: "python- before the prefix", files: map[string]string{"project/.python-version": "python-3.12\n"}, want: "pyenv/versions/3.12.1/bin/python3"},
		{name: "a prefix past pre-releases and dev builds", files: map[string]string{"project/.python-version": "3.12\n",
			"pyenv/versions/3.12.2rc1/bin/python3": "", "pyenv/versions/3.12-dev/bin/python3": "", "pyenv/versions/3.12.3t/bin/python3": ""}, want: "pyenv/versions/3.12.1/bin/python3"},
		{name: "a prefix among other builds", files: map[string]string{"project/.python-version": "3.12\n", "pyenv/versions/3.12.1-debug/bin/python3": ""}},
		{name: "a prefix of two names for one release", files: map[string]string{"project/.python-version": "3.12\n", "pyenv/versions/3.12.1.0/bin/python3": ""}},
		{name: "a free-threaded prefix", files: map[string]string{"project/.python-version": "3.13t\n", "pyenv/versions/3.13.0t/bin/python3": ""}},
		{name: "a prefix nothing installed begins", files: map[string]string{"project/.python-version": "3.14\n"}},
		{name: "a prefix not followed by a dot", files: map[string]string{"project/.python-version": "3.1\n"}},
		{name: "the system's", env: []string{"PYENV_VERSION=system"}},
		{name: "another PYENV_ROOT", env: []string{"PYENV_ROOT=/elsewhere"}},
		{name: "a shim that is not pyenv's", files: map[string]string{"pyenv/shims/python3": "#!/bin/sh\nexec other \"$@\"\n"}},
		{name: "no shim", exe: "pyenv/versions/3.12.1/bin/python3", want: "pyenv/versions/3.12.1/bin/python3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree := t.TempDir()
			root := filepath.Join(tree, "pyenv")
			files := map[string]string{
				"pyenv/shims/python3":                  pyenvShim(root),
				"pyenv/versions/3.12.1/bin/python3":    "",
				"pyenv/pyenv.d/exec/pip-rehash.bash":   "",
				"pyenv/pyenv.d/rehash/source.bash":     "",
				"project/.python-version":              "3.12.1\n",
				"pyenv/plugins/pyenv-update/bin/x":     "",
				"pyenv/pyenv.d/install/latest.bash":    "",
				"pyenv/pyenv.d/exec/pip-rehash/pip":    "",
				"pyenv/versions/3.11.0/bin/python3":    "",
				"pyenv/versions/3.9.0/bin/python3":     "",
				"pyenv/libexec/pyenv":                  "",
				"pyenv/plugins/pyenv-update/etc/x.txt": "",
			}
			for name, text := range tc.files {
				files[name] = text
			}
			for name, text := range files {
				if text == "-" {
					continue // no such file
				}
				p := filepath.Join(tree, name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			env := []string{"PATH=/usr/bin:/bin", "HOME=" + tree}
			for _, e := range tc.env {
				env = append(env, strings.ReplaceAll(e, "{{TREE}}", tree))
			}
			exe := cmp.Or(tc.exe, "pyenv/shims/python3")
			in := Interpreter{Path: filepath.Join(tree, exe), Shown: "python3"}
			got, extra := in.Direct(filepath.Join(tree, "project"), env)
			if got.Shown != "python3" {
				t.Errorf("shown %q, want the name a person types, python3", got.Shown)
			}
			if tc.want == "" || tc.exe != "" {
				if got.Path != in.Path || extra != nil {
					t.Errorf("%s, env %q: want %s as it is", got.Path, extra, in.Path)
				}
				return
			}
			want := filepath.Join(tree, tc.want)
			version := filepath.Base(filepath.Dir(filepath.Dir(want)))
			wantEnv := []string{"PATH=" + filepath.Dir(want) + ":/usr/bin:/bin", "PYENV_VERSION=" + version}
			if got.Path != want || !slices.Equal(extra, wantEnv) {
				t.Errorf("%s, env %q: want %s, env %q", got.Path, extra, want, wantEnv)
			}
		})
	}
}

// TestPyenvResolveAsPyenv asks pyenv itself (`pyenv version-name`, which
// resolves a prefix with pyenv-latest) which version each name stands for
// among a set installed in a pyenv root of the test's own, and compares
// strobe's reading: the same version, or none where strobe leaves the
// choice to the shim (a release among other builds).
func TestPyenvResolveAsPyenv(t *testing.T) {
	pyenv := testutil.RequireTool(t, "pyenv")
	for _, set := range []struct {
		installed []string
		names     []string
		declined  []string // names strobe leaves to the shim
	}{
		{
			installed: []string{"2.7.18", "3.9.18", "3.11.7", "3.12.1", "3.12.10", "3.12.2rc1", "3.12-dev", "3.13.0", "3.13.0t", "3.13.1t", "pypy3.10-7.3.17"},
			names:     []string{"3", "3.12", "python-3.12", "3.11", "2", "2.7", "3.13", "3.14", "3.1", "3.12.1", "python-3.12.10", "3.9.18"},
		},
		{
			installed: []string{"3.12.1", "3.12.1-debug", "3.11.7"},
			names:     []string{"3.11", "3.12", "3.12.1-debug"},
			declined:  []string{"3.12"},
		},
	} {
		root := t.TempDir()
		for _, v := range set.installed {
			if err := os.MkdirAll(filepath.Join(root, "versions", v, "bin"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, name := range set.names {
			cmd := exec.Command(pyenv, "version-name")
			cmd.Env = append(os.Environ(), "PYENV_ROOT="+root, "PYENV_VERSION="+name)
			out, err := cmd.Output()
			want := strings.TrimSpace(string(out))
			if err != nil {
				want = "" // not installed: pyenv says so, and so does the shim
			}
			got := pyenvResolve(root, name)
			if slices.Contains(set.declined, name) {
				if got != "" || want == "" {
					t.Errorf("%s among %q: strobe %q, pyenv %q; want strobe to leave it to the shim", name, set.installed, got, want)
				}
				continue
			}
			if got != want {
				t.Errorf("%s among %q: strobe %q, pyenv %q", name, set.installed, got, want)
			}
		}
	}
}
