package node

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestFindInWorkspace(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "package.json"), `{"name":"mono","workspaces":["packages/*"]}`)
	write(t, filepath.Join(root, "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n")
	pkg := filepath.Join(root, "packages", "web")
	write(t, filepath.Join(pkg, "package.json"), `{"name":"web","type":"module","scripts":{"test":"vitest run"},"devDependencies":{"vitest":"^3.0.0"}}`)
	write(t, filepath.Join(root, "node_modules", ".bin", "vitest"), "#!/bin/sh\n")

	p, ok, err := Find(filepath.Join(pkg, "src"))
	if err != nil || !ok {
		t.Fatalf("Find: ok=%v err=%v", ok, err)
	}
	if p.Dir != pkg || p.Name != "web" || p.Type != "module" {
		t.Errorf("package = %q %q %q, want %q web module", p.Dir, p.Name, p.Type, pkg)
	}
	if p.Root != root || p.Manager != "pnpm" || p.InstallCommand() != "pnpm install --frozen-lockfile" {
		t.Errorf("workspace = %q %q %q", p.Root, p.Manager, p.InstallCommand())
	}
	if !p.Has("vitest") || p.Has("jest") || !p.ScriptRuns("vitest") || p.ScriptRuns("jest") {
		t.Errorf("deps/scripts read wrong: %v %v", p.Deps, p.Scripts)
	}
	bin, err := p.Bin("vitest", "vitest")
	if err != nil || bin != filepath.Join(root, "node_modules", ".bin", "vitest") {
		t.Errorf("Bin = %q, %v; want the hoisted one", bin, err)
	}
}

func TestBinMissing(t *testing.T) {
	for _, tc := range []struct {
		name, pkgJSON, lock, want string
	}{
		{"not installed", `{"devDependencies":{"jest":"29"}}`, "package-lock.json", "run `npm ci` in "},
		{"no lockfile", `{"devDependencies":{"jest":"29"}}`, "", "run `npm install` in "},
		{"yarn", `{"devDependencies":{"jest":"29"}}`, "yarn.lock", "run `yarn install --frozen-lockfile` in "},
		{"not a dependency", `{}`, "package-lock.json", "jest is not among the project's dependencies"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, "package.json"), tc.pkgJSON)
			if tc.lock != "" {
				write(t, filepath.Join(root, tc.lock), "{}")
			}
			p, ok, err := Find(root)
			if !ok || err != nil {
				t.Fatalf("Find: %v %v", ok, err)
			}
			_, err = p.Bin("jest", "jest")
			var u *adapters.UsageError
			if !adapters.IsUsage(err) {
				t.Fatalf("Bin error = %v, want a usage error", err)
			}
			u = err.(*adapters.UsageError)
			if u.Framework != "jest" || !strings.Contains(u.Hint, tc.want) {
				t.Errorf("usage error = %+v, want framework jest and a hint with %q", u, tc.want)
			}
		})
	}
}

func TestTestScript(t *testing.T) {
	for script, want := range map[string]string{
		`echo "Error: no test specified" && exit 1`: "",
		"mocha":         "mocha",
		"  node --test": "node --test",
	} {
		p := &Package{Scripts: map[string]string{"test": script}}
		if got := p.TestScript(); got != want {
			t.Errorf("TestScript(%q) = %q, want %q", script, got, want)
		}
	}
}

func TestFindNone(t *testing.T) {
	if _, ok, err := Find(t.TempDir()); ok || err != nil {
		t.Errorf("Find in an empty dir: ok=%v err=%v", ok, err)
	}
	bad := t.TempDir()
	write(t, filepath.Join(bad, "package.json"), "{not json")
	if _, _, err := Find(bad); err == nil {
		t.Error("a broken package.json read without error")
	}
}
