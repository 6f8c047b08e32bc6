package unittest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
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

// TestStuckRestWithoutIt: strobe stops a unittest run at a test that
// waits for ever (test_hängt), among tests of its class before and after
// it, another class of its module and another module. unittest has no
// option that leaves a test out: the hint's command names the rest, the
// coarsest units that hold none of it (test_first, test_wäre_danach, B,
// the module test_b), and pasted in a shell it runs them, and not the
// one that hung (each test prints its name). Before, the hint said how many
// tests did not run, without the command for them.
func TestStuckRestWithoutIt(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	testutil.RequireTool(t, "python3")
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"tests/test_a.py": `import threading
import unittest


class A(unittest.TestCase):
    def test_first(self):
        print("RAN first")

    def test_hängt(self):
        print("RAN hängt")
        threading.Event().wait()

    def test_wäre_danach(self):
        print("RAN danach")


class B(unittest.TestCase):
    def test_b(self):
        print("RAN b")
`,
		"tests/test_b.py": `import unittest


class C(unittest.TestCase):
    def test_c(self):
        print("RAN c")
`,
	})
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "unittest", Timeout: time.Minute},
		runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != report.Stuck || len(resp.Stuck) != 1 || resp.Stuck[0].Name != "tests.test_a.A.test_hängt" {
		t.Fatalf("status %s, stuck %+v: want test_hängt stuck", resp.Status, resp.Stuck)
	}
	cmd, out, err := adapterstest.RunRest(t, resp.Hint, root)
	got := string(out)
	if want := "python3 -m unittest tests.test_a.A.test_first 'tests.test_a.A.test_wäre_danach' tests.test_a.B tests.test_b"; cmd != want {
		t.Errorf("command %q, want %q", cmd, want)
	}
	for _, ran := range []string{"RAN first", "RAN danach", "RAN b", "RAN c", "Ran 4 tests"} {
		if !strings.Contains(got, ran) {
			err = fmt.Errorf("no %q", ran)
		}
	}
	if err != nil || strings.Contains(got, "RAN hängt") {
		t.Errorf("%s: %v; want the other tests run, not test_hängt\n%s", cmd, err, got)
	}
}
