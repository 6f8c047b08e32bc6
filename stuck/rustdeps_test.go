package stuck

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRustDepsFollowTheLock: the daemon outlives a Cargo.lock; a crate the
// project adds later is read as a dependency once the lock says so.
func TestRustDepsFollowTheLock(t *testing.T) {
	defer func(d time.Duration) { lockRecheck = d }(lockRecheck)
	lockRecheck = 0
	root := t.TempDir()
	lock := func(deps ...string) {
		text := "version = 4\n\n[[package]]\nname = \"app\"\nversion = \"0.1.0\"\n"
		for _, d := range deps {
			text += "\n[[package]]\nname = \"" + d + "\"\nversion = \"1.0.0\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
		}
		if err := os.WriteFile(filepath.Join(root, "Cargo.lock"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lock("polling")
	if d := rustDeps(root); !d["polling"] || d["app"] || d["async_io"] {
		t.Fatalf("deps %v, want polling alone", d)
	}
	lock("polling", "async-io")
	if d := rustDeps(root); !d["async_io"] {
		t.Errorf("deps %v after async-io was added, want it (as its symbols name it)", d)
	}
}
