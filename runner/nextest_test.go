package runner

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"strobe/internal/testutil"
)

// TestNextestFlakyInAnswer: a test cargo-nextest retried and then passed
// is in the answer's flaky list, as strobe's own retries put it.
func TestNextestFlakyInAnswer(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	testutil.RequireTool(t, "cargo-nextest")
	root := t.TempDir()
	testutil.CopyTree(t, filepath.Join("..", "adapters", "nextest", "testdata", "fixtures", "ntdemo"), root)
	resp, err := Exec(context.Background(), Request{ProjectRoot: root, Framework: "nextest", Timeout: 3 * time.Minute},
		Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Summary == nil || resp.Summary.Flaky != 1 || len(resp.Flaky) != 1 {
		t.Fatalf("status %s, hint %q, summary %+v, flaky %+v: want the one test nextest retried", resp.Status, resp.Hint, resp.Summary, resp.Flaky)
	}
	f := resp.Flaky[0]
	if f.Name != "flaky" || f.Attempts != 2 || f.FirstFailure.File != "tests/integration.rs" || f.FirstFailure.Line == 0 {
		t.Errorf("flaky = %+v, want flaky, 2 attempts, first failure in tests/integration.rs", f)
	}
}
