package vitest

import (
	"os"
	"os/exec"
	"path/filepath"
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
// pasted, fails b again. The same with the shuffle in the config
// (sequence: {shuffle: {tests: true}}), for which vitest draws no seed of
// its own and shuffles with one never told: strobe's reporter draws it
// (before, the answer had no seed, and no rerun could repeat the order).
func TestVitestShuffle(t *testing.T) {
	// Beside the workspace's projects, not among them: npx refuses two
	// workspaces of one name.
	configured := filepath.Join(fixtures(t), "tmp-config-shuffle")
	if err := os.MkdirAll(configured, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(configured) })
	for f, text := range map[string]string{
		"order.test.js":    "",
		"package.json":     `{"name": "tmp-config-shuffle", "private": true, "scripts": {"test": "vitest"}}` + "\n",
		"vitest.config.js": "export default { test: { sequence: { shuffle: { tests: true } } } }\n",
	} {
		b := []byte(text)
		if text == "" {
			var err error
			if b, err = os.ReadFile(filepath.Join(project(t, "shuffle"), f)); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(configured, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, root string
		command    []string
	}{
		{"flag", project(t, "shuffle"), []string{"npx", "vitest", "--sequence.shuffle"}},
		{"config", configured, nil},
	} {
		t.Run(tc.name, func(t *testing.T) { shuffledUntilBFails(t, tc.root, tc.command) })
	}
}

func shuffledUntilBFails(t *testing.T, root string, command []string) {
	for range 30 {
		rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: command})
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
