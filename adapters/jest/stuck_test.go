package jest_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"strobe/adapters/adapterstest"
	"strobe/runner"
)

// TestStuckAfterTheTests: every test passed and a server one of them
// opened keeps jest from exiting. The run is stuck after its tests, not in
// one: summary.stuck 0, the diagnosis says the process did not exit (not
// that a test awaits a promise), the hint gives jest's advice. Before, the
// command was counted a stuck test beside the two that passed, "the stuck
// test's stacks".
func TestStuckAfterTheTests(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	fixtures, _ := filepath.Abs(filepath.Join("testdata", "fixtures"))
	adapterstest.NpmCI(t, fixtures)
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: filepath.Join(fixtures, "linger"), Framework: "jest",
		Timeout: 60 * time.Second}, runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	adapterstest.CheckAfterTests(t, resp, 2, "what a test or hook opened and did not close", "--detectOpenHandles")
}
