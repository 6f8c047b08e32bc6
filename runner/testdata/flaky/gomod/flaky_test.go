// Package flaky is a fixture for strobe's retries: one test fails on its
// first run and passes on the next, one always fails, one always passes.
// Runs are counted in files under $FLAKY_DIR, which the test sets.
package flaky

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// runs counts this test's runs in a file, and returns how many ran before.
func runs(t *testing.T) int {
	path := filepath.Join(os.Getenv("FLAKY_DIR"), t.Name())
	b, _ := os.ReadFile(path)
	n, _ := strconv.Atoi(string(b))
	if err := os.WriteFile(path, []byte(strconv.Itoa(n+1)), 0o644); err != nil {
		t.Fatalf("counting runs: %v", err)
	}
	return n
}

func TestFlaky(t *testing.T) {
	if runs(t) == 0 {
		t.Fatalf("first run fails: got %d, want %d", 1, 2)
	}
}

func TestAlwaysFails(t *testing.T) {
	runs(t)
	t.Errorf("always fails")
}

func TestPasses(t *testing.T) {
	runs(t)
}
