package node

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestRead reads only the directory's own package.json: one further up is
// another project's.
func TestRead(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "package.json"), `{"scripts":{"test":"bun test"}}`)
	write(t, filepath.Join(root, "bun.lock"), "")
	write(t, filepath.Join(root, "sub", "x.js"), "")
	write(t, filepath.Join(root, "bad", "package.json"), "{")
	for _, tc := range []struct {
		dir     string
		ok      bool
		manager string
	}{
		{root, true, "bun"},
		{filepath.Join(root, "sub"), false, ""},
		{filepath.Join(root, "bad"), false, ""},
	} {
		p, ok := Read(tc.dir)
		if ok != tc.ok || ok && (p.Manager != tc.manager || p.TestScript() != "bun test") {
			t.Errorf("Read(%s) = %+v, %v; want ok %v, manager %q", filepath.Base(tc.dir), p, ok, tc.ok, tc.manager)
		}
	}
}

// TestLookPath prefers the project's node_modules/.bin, then PATH.
func TestLookPath(t *testing.T) {
	root, global := t.TempDir(), t.TempDir()
	write(t, filepath.Join(global, "deno"), "#!/bin/sh\n")
	write(t, filepath.Join(global, "bun"), "#!/bin/sh\n")
	write(t, filepath.Join(root, "node_modules", ".bin", "bun"), "#!/bin/sh\n")
	for _, f := range []string{filepath.Join(global, "deno"), filepath.Join(global, "bun"), filepath.Join(root, "node_modules", ".bin", "bun")} {
		if err := os.Chmod(f, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=" + global}
	for name, want := range map[string]string{
		"bun":  filepath.Join(root, "node_modules", ".bin", "bun"),
		"deno": filepath.Join(global, "deno"),
		"node": "",
	} {
		if got := LookPath(root, name, env); got != want {
			t.Errorf("LookPath(%s) = %q, want %q", name, got, want)
		}
	}
}

func TestLevelDirs(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"tests/unit", "src/a/unit", "node_modules/x/unit", ".hidden/unit", "a/b/c/unit"} {
		write(t, filepath.Join(root, d, "x.test.js"), "")
	}
	got := LevelDirs(root, "unit")
	want := []string{"./src/a/unit", "./tests/unit"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LevelDirs = %v, want %v", got, want)
	}
}
