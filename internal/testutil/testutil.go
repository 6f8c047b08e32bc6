// Package testutil holds what strobe's tests share: finding real tools
// (a missing tool fails under CI=true instead of skipping) and the repository
// root.
package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// RequireTool returns the path of a tool the test needs. Without it the test
// is skipped on a developer's machine and fails under CI=true, where every
// tool must be installed.
func RequireTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s not found on PATH: .ci/run must install it", name)
		}
		t.Skipf("%s not found on PATH", name)
	}
	return p
}

// Root is the repository root.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Fixture is the path of a fixture project under testdata/fixtures.
func Fixture(parts ...string) string {
	return filepath.Join(append([]string{Root(), "testdata", "fixtures"}, parts...)...)
}

// RequireDelve finds dlv where strobe looks for it (PATH, GOBIN,
// GOPATH/bin): the test skips without it, and fails under CI, where
// .ci/run installs it.
func RequireDelve(t testing.TB) {
	t.Helper()
	RequireTool(t, "go")
	if _, err := exec.LookPath("dlv"); err == nil {
		return
	}
	for _, v := range []string{"GOBIN", "GOPATH"} {
		out, _ := exec.Command("go", "env", v).Output()
		for _, d := range filepath.SplitList(strings.TrimSpace(string(out))) {
			if v == "GOPATH" {
				d = filepath.Join(d, "bin")
			}
			if _, err := os.Stat(filepath.Join(d, "dlv")); d != "" && err == nil {
				return
			}
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("dlv is not installed: .ci/run must go install github.com/go-delve/delve/cmd/dlv@v1.27.2")
	}
	t.Skip("dlv is not installed")
}
