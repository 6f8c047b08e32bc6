package node

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"strobe/adapters"
)

func TestSplitTest(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "src", "math.test.ts"), "")
	for _, tc := range []struct{ test, file, name string }{
		{"src/math.test.ts > adds > one", "src/math.test.ts", "adds > one"},
		{"./src/math.test.ts > adds", "src/math.test.ts", "adds"},
		{"math > adds", "", "math > adds"}, // not a file: all of it is the name
		{"adds", "", "adds"},
	} {
		if file, name := SplitTest(root, tc.test); file != tc.file || name != tc.name {
			t.Errorf("SplitTest(%q) = %q, %q; want %q, %q", tc.test, file, name, tc.file, tc.name)
		}
	}
}

func TestLevelArgs(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "tests", "unit", "a.test.ts"), "")
	args, err := LevelArgs("bun", adapters.Request{ProjectRoot: root, Level: adapters.LevelUnit})
	if err != nil || !reflect.DeepEqual(args, []string{"./tests/unit"}) {
		t.Errorf("unit: %v, %v", args, err)
	}
	if args, err := LevelArgs("bun", adapters.Request{ProjectRoot: root, Level: adapters.LevelAll}); args != nil || err != nil {
		t.Errorf("all: %v, %v", args, err)
	}
	_, err = LevelArgs("deno", adapters.Request{ProjectRoot: root, Level: adapters.LevelE2E})
	var u *adapters.UsageError
	if !errors.As(err, &u) || !strings.HasPrefix(u.Msg, "deno: no e2e tests") {
		t.Errorf("e2e: %v, want a usage error", err)
	}
}

func TestRuntime(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "package.json"), `{"devDependencies":{"bun":"1.2.0"}}`)
	write(t, filepath.Join(root, "package-lock.json"), "{}")
	_, err := Runtime("bun", "https://bun.sh", root, []string{"PATH=" + t.TempDir()})
	var u *adapters.UsageError
	if !errors.As(err, &u) || u.Framework != "bun" || !strings.Contains(u.Hint, "`npm ci`") {
		t.Errorf("%v, want a usage error that says to run npm ci", err)
	}
	_, err = Runtime("deno", "https://deno.com", t.TempDir(), []string{"PATH=" + t.TempDir()})
	if !errors.As(err, &u) || !strings.Contains(u.Hint, "install deno (https://deno.com") {
		t.Errorf("%v, want a usage error that says how to install deno", err)
	}
}

func TestLevelFile(t *testing.T) {
	for rel, want := range map[string]bool{
		"test/unit/a.test.js": true,
		"test/a.unit.test.js": true,
		"unit.test.js":        false,
		"test/units/a.js":     false,
	} {
		if got := LevelFile(rel, adapters.LevelUnit); got != want {
			t.Errorf("LevelFile(%s) = %v", rel, got)
		}
	}
}
