// Package adapterstest helps an adapter's tests: golden files rewritten by
// -update, running a plan for real the way the runner does, and finding
// tests in what a parser recorded.
package adapterstest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Golden compares got, as indented JSON, with testdata/<name>.golden.json.
// Under -update it writes the file instead. Normalise what varies between
// runs (durations, absolute paths) before calling it.
func Golden(t *testing.T, name string, got any) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep <, > and & readable in test output
	enc.SetIndent("", "  ")
	if err := enc.Encode(got); err != nil {
		t.Fatalf("encoding %s: %v", name, err)
	}
	path := filepath.Join("testdata", name+".golden.json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run '%s' -update writes it)", err, t.Name())
	}
	if !bytes.Equal(want, buf.Bytes()) {
		t.Errorf("%s differs (go test -run '%s' -update rewrites it):\n%s", path, t.Name(), LineDiff(string(want), buf.String()))
	}
}

// LineDiff shows the first differing line of two texts with some context:
// enough to see what changed without a diff library.
func LineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	var b strings.Builder
	from := max(0, i-3)
	for j := from; j < min(len(w), i+4); j++ {
		fmt.Fprintf(&b, "want %4d: %s\n", j+1, w[j])
	}
	for j := from; j < min(len(g), i+4); j++ {
		fmt.Fprintf(&b, "got  %4d: %s\n", j+1, g[j])
	}
	return b.String()
}
