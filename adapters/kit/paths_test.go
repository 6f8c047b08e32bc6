package kit

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAbove(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Above(sub, "Cargo.toml"); got != "" {
		t.Errorf("Above without a Cargo.toml = %q, want none", got)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "Cargo.toml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Above(sub, "go.mod", "Cargo.toml"); got != filepath.Join(root, "a") {
		t.Errorf("Above = %q, want %q", got, filepath.Join(root, "a"))
	}
}
