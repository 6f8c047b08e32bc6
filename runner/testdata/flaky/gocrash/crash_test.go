// Package crash is a fixture for strobe's retries of crashed tests: one
// test kills its test binary on its first run only, so the run crashes.
// Runs are counted in files under $FLAKY_DIR.
package crash

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestSteady(t *testing.T) {}

func TestCrashesOnce(t *testing.T) {
	path := filepath.Join(os.Getenv("FLAKY_DIR"), "crash")
	if _, err := os.Stat(path); err != nil {
		os.WriteFile(path, nil, 0o644)
		syscall.Kill(os.Getpid(), syscall.SIGKILL) // the binary dies with the test
	}
}
