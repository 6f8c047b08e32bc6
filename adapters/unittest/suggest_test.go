package unittest

import (
	"os"
	"path/filepath"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
)

// The pytest adapter's fixture is made of unittest tests: strobe's
// unittest runner suggests the same traces as its pytest plugin.
func TestSuggestedTraces(t *testing.T) {
	testutil.RequireTool(t, "python3")
	root := filepath.Join(t.TempDir(), "suggest")
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "pytest", "testdata", "fixtures", "suggest"))); err != nil {
		t.Fatal(err)
	}
	rec, _, _ := run(t, root, adapters.Request{})
	if n := adapterstest.CheckPythonSuggestions(t, filepath.Join(root, "tests", "test_shapes.py"), rec.Tests()); n != 7 {
		t.Errorf("checked %d failures, want 7: %+v", n, rec.Tests())
	}
}
