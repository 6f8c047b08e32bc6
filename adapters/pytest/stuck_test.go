package pytest_test

import (
	"context"
	"os"
	"os/exec"
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
// thread or make it a daemon. Before, the command was counted a stuck
// test beside the two that passed, and the wait a deadlock of "the stuck
// test"; a thread that polls (sleeps of half a second) was left to the
// ten-minute timeout: under the default timeout, a process that stays
// idle 20 s after pytest reported its session's end is stuck.
func TestStuckAfterTheTests(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	py := testutil.RequireTool(t, "python3")
	if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 cannot import pytest: .ci/run must pip install it")
		}
		t.Skip("python3 cannot import pytest")
	}
	for _, tc := range []struct {
		name, thread string
		timeout      time.Duration
	}{
		{"sleeps", "threading.Thread(target=time.sleep, args=(3600,)).start()", time.Minute},
		{"polls", "threading.Thread(target=poll).start()", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			test := `import threading
import time


def poll():
    while True:
        time.sleep(0.5)


def test_passes():
    pass


def test_starts_a_thread_it_never_stops():
    ` + tc.thread + "\n"
			if err := os.WriteFile(filepath.Join(root, "test_linger.py"), []byte(test), 0o644); err != nil {
				t.Fatal(err)
			}
			resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "pytest", Timeout: tc.timeout},
				runner.Options{DetailsDir: t.TempDir(), Overdue: adapterstest.Overdue})
			if err != nil {
				t.Fatal(err)
			}
			adapterstest.CheckAfterTests(t, resp, 2, "waits at its exit (threading._shutdown) for a thread", "daemon=True", 30*time.Second)
		})
	}
}
