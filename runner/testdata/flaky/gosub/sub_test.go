// Package sub is a fixture for strobe's retries with subtests: one
// subtest fails on its first run and passes on the next, so its parent
// fails only through it. Runs are counted in files under $FLAKY_DIR.
package sub

import (
	"os"
	"path/filepath"
	"testing"
)

func TestParent(t *testing.T) {
	t.Run("steady", func(t *testing.T) {})
	t.Run("flaky", func(t *testing.T) {
		path := filepath.Join(os.Getenv("FLAKY_DIR"), "flaky")
		if _, err := os.Stat(path); err != nil {
			os.WriteFile(path, nil, 0o644)
			t.Fatal("first run fails")
		}
	})
}
