package pytest

import (
	"path/filepath"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// Each failure suggests the project functions on its traceback below the
// test, or those its failing line calls and what they call.
func TestSuggestedTraces(t *testing.T) {
	root := fixture(t, "suggest")
	rec, _, _ := run(t, root, adapters.Request{})
	if n := adapterstest.CheckPythonSuggestions(t, filepath.Join(root, "tests", "test_shapes.py"), rec.Tests()); n != 7 {
		t.Errorf("checked %d failures, want 7: %+v", n, rec.Tests())
	}
}
