// Package testutil holds what strobe's tests share: finding real tools
// (a missing tool fails under CI=true instead of skipping) and the repository
// root.
package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
