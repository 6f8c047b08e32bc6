package vitest

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
)

// TestVitestShuffle runs the shuffle fixture under --sequence.shuffle
// until "b reads a clean counter" fails ("a bumps the counter" ran before
// it): the answer has the seed vitest drew, which only its default
// reporter prints, b's rerun keeps it, and the whole run's command,
// pasted, fails b again.
func TestVitestShuffle(t *testing.T) {
	root := project(t, "shuffle")
	for range 30 {
		rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: []string{"npx", "vitest", "--sequence.shuffle"}})
		sh := out.Shuffle
		if sh == nil || !regexp.MustCompile(`^[0-9]+$`).MatchString(sh.Seed) {
			t.Fatalf("shuffle %+v, want the seed vitest drew", sh)
		}
		if want := "npx vitest run --sequence.shuffle --sequence.seed=" + sh.Seed; sh.Command != want {
			t.Errorf("shuffle command %q, want %q", sh.Command, want)
		}
		b, _ := adapterstest.TestByName(rec.Tests(), "b reads a clean counter")
		if b.Status != report.TestFailed {
			continue // b ran before a
		}
		want := "npx vitest run --sequence.shuffle --sequence.seed=" + sh.Seed + " order.test.js -t '^b reads a clean counter$'"
		if b.Failure.Rerun != want {
			t.Errorf("rerun %q, want %q", b.Failure.Rerun, want)
		}
		if !strings.Contains(out.Hint, "the reruns keep --sequence.seed="+sh.Seed) {
			t.Errorf("hint %q, want the seed", out.Hint)
		}
		cmd := exec.Command("sh", "-c", sh.Command+" 2>&1")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		again, err := cmd.Output()
		if err == nil || !strings.Contains(string(again), "× order.test.js > b reads a clean counter") && !strings.Contains(string(again), "FAIL  order.test.js > b reads a clean counter") ||
			!strings.Contains(string(again), `Running tests with seed "`+sh.Seed+`"`) {
			t.Errorf("%s: %v, want b failing again with seed %s:\n%s", sh.Command, err, sh.Seed, again)
		}
		return
	}
	t.Fatal("b never failed in 30 shuffled runs")
}

// TestVitestNoShuffle: without a shuffle, --sequence.seed orders nothing:
// the run is not called shuffled.
func TestVitestNoShuffle(t *testing.T) {
	_, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: project(t, "shuffle"), Command: []string{"npx", "vitest", "--sequence.seed=5"}})
	if out.Shuffle != nil {
		t.Errorf("shuffle %+v without --sequence.shuffle", out.Shuffle)
	}
}

func TestWithSeed(t *testing.T) {
	for in, want := range map[string]string{
		"npx vitest run": "npx vitest run --sequence.shuffle --sequence.seed=7",
		"npx vitest run --sequence.shuffle --sequence.seed 3 x/":    "npx vitest run --sequence.shuffle x/ --sequence.seed=7",
		"npx vitest run --sequence.seed=3 --sequence.shuffle.tests": "npx vitest run --sequence.shuffle.tests --sequence.seed=7",
	} {
		if got := strings.Join(withSeed(strings.Fields(in), "7"), " "); got != want {
			t.Errorf("withSeed(%q) = %q, want %q", in, got, want)
		}
	}
}
