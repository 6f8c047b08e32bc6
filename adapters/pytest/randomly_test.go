package pytest

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/internal/testutil"
)

// TestRandomly runs the randomly fixture under pytest-randomly (its own
// directory, testutil.PyRandomlySite) with --randomly-seed=5, which fails
// test_b by the order and test_seeded by the seed: each rerun keeps the
// seed, so test_seeded's fails again alone; the outcome's shuffle has the
// seed and the whole run's command, which fails test_b again.
func TestRandomly(t *testing.T) {
	root := fixture(t, "randomly")
	t.Setenv("PYTHONPATH", testutil.RequirePythonSite(t, testutil.PyRandomlyRequirements, testutil.PyRandomlySite))
	rec, out, _ := run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "-p", "randomly", "--randomly-seed=5"}})
	for id, msg := range map[string]string{"test_order.py::test_b": "state left by an earlier test", "test_order.py::test_seeded": "drew a high number"} {
		f := rec.Failure("", id)
		if f == nil || !strings.Contains(f.Message, msg) || f.Rerun != "python3 -m pytest "+id+" -p randomly --randomly-seed=5" {
			t.Errorf("%s: %+v, want %q and a rerun with the seed", id, f, msg)
		}
	}
	if sh := out.Shuffle; sh == nil || sh.Seed != "5" || sh.Command != "python3 -m pytest -p randomly --randomly-seed=5" {
		t.Fatalf("shuffle %+v, want seed 5 and the whole run with it", out.Shuffle)
	}
	paste := func(cmd string) string {
		c := exec.Command("sh", "-c", cmd)
		c.Dir = root
		b, _ := c.CombinedOutput()
		return string(b)
	}
	if got := paste(rec.Failure("", "test_order.py::test_seeded").Rerun); !strings.Contains(got, "drew a high number") {
		t.Errorf("test_seeded's rerun passed alone:\n%s", got)
	}
	if got := paste(out.Shuffle.Command); !strings.Contains(got, "state left by an earlier test") || !strings.Contains(got, "2 failed") {
		t.Errorf("%s did not fail test_b again:\n%s", out.Shuffle.Command, got)
	}

	// Loaded by its entry point, with a seed of its own: the same.
	_, out, _ = run(t, root, adapters.Request{})
	if sh := out.Shuffle; sh == nil || !regexp.MustCompile(`^\d+$`).MatchString(sh.Seed) || !strings.HasSuffix(sh.Command, " -m pytest -p randomly --randomly-seed="+sh.Seed) {
		t.Errorf("shuffle %+v, want the seed pytest-randomly drew", out.Shuffle)
	}
	// -p no:randomly: nothing shuffled.
	_, out, _ = run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "-p", "no:randomly"}})
	if out.Shuffle != nil {
		t.Errorf("shuffle %+v without pytest-randomly", out.Shuffle)
	}
}
