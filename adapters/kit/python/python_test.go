package python

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindInterpreter(t *testing.T) {
	// tree makes a directory with the given entries: a name ending in /
	// is a directory, any other a file.
	tree := func(entries ...string) string {
		dir := t.TempDir()
		for _, e := range entries {
			p := filepath.Join(dir, e)
			if e[len(e)-1] == '/' {
				os.MkdirAll(p, 0o755)
				continue
			}
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, nil, 0o755)
		}
		return dir
	}
	noPath := []string{"PATH=" + t.TempDir()}
	for _, tc := range []struct {
		name  string
		dir   string // the project, inside the tree
		tree  string
		env   func(tree string) []string
		shown string // "" = none found
	}{
		{"the project's .venv", "", tree(".venv/bin/python"), nil, ".venv/bin/python"},
		{"the project's venv", "", tree("venv/bin/python"), nil, "venv/bin/python"},
		{"a workspace's .venv above, in the repository", "pkg/api", tree(".git/", ".venv/bin/python", "pkg/api/"), nil, "../../.venv/bin/python"},
		{"a git worktree's .git file", "tests", tree(".git", ".venv/bin/python", "tests/"), nil, "../.venv/bin/python"},
		{"the project's own first", "pkg", tree(".git/", ".venv/bin/python", "pkg/venv/bin/python"), nil, "venv/bin/python"},
		{"$VIRTUAL_ENV before a venv above", "pkg", tree(".git/", ".venv/bin/python", "pkg/", "active/bin/python"),
			func(tree string) []string { return append(noPath, "VIRTUAL_ENV="+filepath.Join(tree, "active")) }, "{{TREE}}/active/bin/python"},
		{"no repository: nothing above counts", "pkg", tree(".venv/bin/python", "pkg/"), nil, ""},
		{"nothing above the repository counts", "repo/pkg", tree(".venv/bin/python", "repo/.git/", "repo/pkg/"), nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := noPath
			if tc.env != nil {
				env = tc.env(tc.tree)
			}
			in, err := FindInterpreter(filepath.Join(tc.tree, tc.dir), env)
			want := tc.shown
			if len(want) > 8 && want[:8] == "{{TREE}}" {
				want = tc.tree + want[8:]
			}
			if want == "" {
				if err == nil {
					t.Errorf("found %+v, want none", in)
				}
				return
			}
			if err != nil || in.Shown != want || !filepath.IsAbs(in.Path) {
				t.Errorf("found %+v (%v), want %s", in, err, want)
			}
		})
	}
}
