package unittest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/runner"
)

// TestStuckAfterTheTests: every test passed and one of them started a
// thread that is no daemon: the interpreter joins it at exit, for ever.
// The run is stuck after its tests, not in one: summary.stuck 0, the
// diagnosis names threading._shutdown's wait, the hint says to join the
// thread in tearDown or make it a daemon.
func TestStuckAfterTheTests(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	testutil.RequireTool(t, "python3")
	root := t.TempDir()
	test := `import threading
import time
import unittest


class Linger(unittest.TestCase):
    def test_passes(self):
        pass

    def test_starts_a_thread_it_never_stops(self):
        threading.Thread(target=time.sleep, args=(3600,)).start()
`
	if err := os.WriteFile(filepath.Join(root, "test_linger.py"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "unittest", Timeout: 60 * time.Second},
		runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	adapterstest.CheckAfterTests(t, resp, 2, "waits at its exit (threading._shutdown) for a thread", "in tearDown", 30*time.Second)
}
