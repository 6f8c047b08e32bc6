package gotest

import (
	"context"
	"debug/elf"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"strobe/adapters"
	"strobe/internal/testutil"
)

func TestGoLinkCommand(t *testing.T) {
	const ld = "-ldflags=" + goDebugLdflags
	type testCase struct {
		name string
		argv []string
		want []string
	}
	for _, tc := range []testCase{
		{"plain", []string{"go", "test", "-json", "./..."},
			[]string{"go", "test", "-c", "-o", "OUT", ld, "/p/pkg"}},
		{"test flags and packages left out", []string{"go", "test", "-json", "-count=1", "-run", "^TestA$", "-timeout", "5s", "-v", "./a", "./b/...", "-args", "-race"},
			[]string{"go", "test", "-c", "-o", "OUT", ld, "/p/pkg"}},
		{"build flags kept", []string{"go", "test", "-json", "-race", "-tags", "integration", "-gcflags=all=-N", "-trimpath", "-mod", "vendor", "./..."},
			[]string{"go", "test", "-c", "-o", "OUT", "-race", "-tags=integration", "-gcflags=all=-N", "-trimpath", "-mod=vendor", ld, "/p/pkg"}},
		{"the user's ldflags come first", []string{"go", "test", "-json", "-ldflags", "-X main.v=1", "./..."},
			[]string{"go", "test", "-c", "-o", "OUT", "-ldflags=-X main.v=1 " + goDebugLdflags, "/p/pkg"}},
		{"-C first", []string{"go", "test", "-C", "sub", "-json", "./..."},
			[]string{"go", "test", "-C", "sub", "-c", "-o", "OUT", ld, "/p/pkg"}},
		{"-coverprofile builds with -cover", []string{"go", "test", "-json", "-coverprofile=c.out", "-covermode", "atomic", "./..."},
			[]string{"go", "test", "-c", "-o", "OUT", "-covermode=atomic", "-cover", ld, "/p/pkg"}},
		{"buildmode takes a value", []string{"go", "test", "-buildmode", "pie", "./..."},
			[]string{"go", "test", "-c", "-o", "OUT", "-buildmode=pie", ld, "/p/pkg"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := goLinkCommand(tc.argv, "/p/pkg", "OUT"); !slices.Equal(got, tc.want) {
				t.Errorf("goLinkCommand(%q)\n = %q\nwant %q", tc.argv, got, tc.want)
			}
		})
	}
}

// TestGoLinkSymbols links a copy with DWARF of the test binary of the
// package a process runs in.
func TestGoLinkSymbols(t *testing.T) {
	testutil.RequireTool(t, "go")
	root := testutil.Fixture("go", "basic")
	pkg := filepath.Join(root, "calc")
	sleep := exec.Command("sleep", "30")
	sleep.Dir = pkg
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sleep.Process.Kill(); sleep.Wait() })
	out := filepath.Join(t.TempDir(), "calc.test")
	plan := &adapters.Plan{Argv: []string{"go", "test", "-json", "-count=1", "./..."}, Dir: root}
	if err := (gotest{}).LinkSymbols(context.Background(), adapters.Proc{PID: sleep.Process.Pid}, plan, nil, out); err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Section(".debug_info") == nil || f.Section(".symtab") == nil {
		t.Error("the copy has no DWARF or no symbol table")
	}
}
