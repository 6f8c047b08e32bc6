package jest

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/report"
)

// TestJestShuffle runs the shuffle fixture under --randomize until "b
// reads a clean counter" fails ("a bumps the counter" ran before it): the
// answer has the seed jest drew, which only jest's own summary prints,
// b's rerun keeps it, and the whole run's command, pasted, fails b again.
func TestJestShuffle(t *testing.T) {
	for range 30 {
		rec, out, _ := run(t, adapters.Request{ProjectRoot: fixture("shuffle"), Command: []string{"npx", "jest", "--randomize"}})
		sh := out.Shuffle
		if sh == nil || !regexp.MustCompile(`^-?[0-9]+$`).MatchString(sh.Seed) {
			t.Fatalf("shuffle %+v, want the seed jest drew", sh)
		}
		if want := "npx jest --randomize --seed=" + sh.Seed; sh.Command != want {
			t.Errorf("shuffle command %q, want %q", sh.Command, want)
		}
		b := find(t, rec, "order.test.js", "b reads a clean counter")
		if b.Status != report.TestFailed {
			continue // b ran before a
		}
		want := "npx jest --randomize --seed=" + sh.Seed + " --runTestsByPath order.test.js -t '^b reads a clean counter$'"
		if b.Failure.Rerun != want {
			t.Errorf("rerun %q, want %q", b.Failure.Rerun, want)
		}
		if !strings.Contains(out.Hint, "the reruns keep --randomize --seed="+sh.Seed) {
			t.Errorf("hint %q, want the seed", out.Hint)
		}
		cmd := exec.Command("sh", "-c", sh.Command+" 2>&1")
		cmd.Dir = fixture("shuffle")
		cmd.Env = append(os.Environ(), "FORCE_COLOR=0")
		again, err := cmd.Output()
		if err == nil || !strings.Contains(string(again), "✕ b reads a clean counter") || !strings.Contains(string(again), "Seed:        "+sh.Seed) {
			t.Errorf("%s: %v, want b failing again with seed %s:\n%s", sh.Command, err, sh.Seed, again)
		}
		return
	}
	t.Fatal("b never failed in 30 shuffled runs")
}

// TestJestNoShuffle: without --randomize, --seed only sets jest.getSeed():
// the order is the file's, and the run is not called shuffled.
func TestJestNoShuffle(t *testing.T) {
	_, out, _ := run(t, adapters.Request{ProjectRoot: fixture("shuffle"), Command: []string{"npx", "jest", "--seed=5"}})
	if out.Shuffle != nil {
		t.Errorf("shuffle %+v without --randomize", out.Shuffle)
	}
}

func TestWithSeed(t *testing.T) {
	for in, want := range map[string]string{
		"npx jest":                            "npx jest --randomize --seed=7",
		"npx jest --randomize -i":             "npx jest -i --randomize --seed=7",
		"npx jest --seed 3 --randomize x/":    "npx jest x/ --randomize --seed=7",
		"npx jest --seed=-3 --randomize=true": "npx jest --randomize --seed=7",
	} {
		if got := strings.Join(withSeed(strings.Fields(in), "7"), " "); got != want {
			t.Errorf("withSeed(%q) = %q, want %q", in, got, want)
		}
	}
}
