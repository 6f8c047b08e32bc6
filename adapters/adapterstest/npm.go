package adapterstest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"strobe/internal/testutil"
)

var npmInstalls sync.Map // fixture dir → *npmInstall

type npmInstall struct {
	once sync.Once
	out  []byte
	err  error
}

// NpmCI installs a fixture project's dependencies as its committed
// package-lock.json pins them (`npm ci`, into the fixture's own
// node_modules, which git ignores), once per test binary, and not at all
// when node_modules was installed after the lockfile last changed (npm
// writes node_modules/.package-lock.json as it installs). Without node or
// npm the test fails under CI and is skipped elsewhere, as is one whose
// install fails outside CI (no network).
func NpmCI(t testing.TB, dir string) {
	t.Helper()
	testutil.RequireTool(t, "node")
	npm := testutil.RequireTool(t, "npm")
	v, _ := npmInstalls.LoadOrStore(dir, &npmInstall{})
	in := v.(*npmInstall)
	in.once.Do(func() {
		if installed(dir) {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = dir
		in.out, in.err = cmd.CombinedOutput()
	})
	if in.err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("npm ci in %s: %v\n%s", filepath.Base(dir), in.err, in.out)
	}
	t.Skipf("npm ci in %s failed (no network?): %v\n%s", filepath.Base(dir), in.err, in.out)
}

// installed says whether dir's node_modules is newer than its lockfile.
func installed(dir string) bool {
	lock, err := os.Stat(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return false
	}
	done, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	return err == nil && done.ModTime().After(lock.ModTime())
}
