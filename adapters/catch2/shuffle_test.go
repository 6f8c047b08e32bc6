package catch2

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
)

// TestCatch2Shuffle runs the order fixture under --order rand with a seed
// drawn at run time until "B reads a clean counter" fails (A ran before
// it): the answer has the seed Catch2 drew, B's rerun keeps it in place of
// time, and the whole run's command, pasted, fails B again. Catch2 draws
// time's seed in seconds: the runs are a second apart.
func TestCatch2Shuffle(t *testing.T) {
	bins := testutil.Catch2Fixtures(t)
	root := testutil.Fixture("catch2", "plain")
	bin := filepath.Join(bins, "order")
	for _, args := range [][]string{{"--order", "rand", "--rng-seed", "time"}, {"--order=rand", "--rng-seed=time"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			for i := range 20 {
				if i > 0 {
					time.Sleep(time.Second)
				}
				rec, out, _ := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: append([]string{bin}, args...)})
				sh := out.Shuffle
				if sh == nil || !regexp.MustCompile(`^[0-9]+$`).MatchString(sh.Seed) {
					t.Fatalf("shuffle %+v, want the seed Catch2 drew", sh)
				}
				b, _ := adapterstest.TestByName(rec.Tests(), "B reads a clean counter")
				if b.Status != report.TestFailed {
					continue // B ran before A
				}
				seeded := append([]string{bin}, args...)
				seeded[len(seeded)-1] = strings.Replace(seeded[len(seeded)-1], "time", sh.Seed, 1)
				if want := shell.Join(seeded); sh.Command != want {
					t.Errorf("shuffle command %q, want %q", sh.Command, want)
				}
				if want := shell.Join(append(seeded, "B reads a clean counter")); b.Failure.Rerun != want {
					t.Errorf("rerun %q, want %q", b.Failure.Rerun, want)
				}
				if !strings.Contains(out.Hint, "the reruns keep --rng-seed "+sh.Seed) {
					t.Errorf("hint %q, want the seed", out.Hint)
				}
				again, err := exec.Command("sh", "-c", sh.Command).CombinedOutput()
				if err == nil || !strings.Contains(string(again), "REQUIRE( counter == 0 )") || !strings.Contains(string(again), "Randomness seeded to: "+sh.Seed) {
					t.Errorf("%s: %v, want B failing again with seed %s:\n%s", sh.Command, err, sh.Seed, again)
				}
				return
			}
			t.Fatal("B never failed in 20 shuffled runs")
		})
	}
}

// TestCatch2ShuffleDefaultSeed: v2's --order rand without a seed uses 0,
// which it does not report: the answer, the reruns and the command say it.
func TestCatch2ShuffleDefaultSeed(t *testing.T) {
	bins := testutil.Catch2Fixtures(t)
	root := testutil.Fixture("catch2", "plain")
	bin := filepath.Join(bins, "order")
	_, out, _ := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{bin, "--order", "rand"}, Level: adapters.LevelUnit})
	want := shell.Join([]string{bin, "--order", "rand", "--rng-seed", "0", "[unit]"})
	if out.Shuffle == nil || out.Shuffle.Seed != "0" || out.Shuffle.Command != want {
		t.Errorf("shuffle %+v, want seed 0 and %s", out.Shuffle, want)
	}
	// A numeric seed in declaration order draws nothing: not shuffled.
	_, out, _ = adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{bin, "--rng-seed", "5"}})
	if out.Shuffle != nil {
		t.Errorf("shuffle %+v for a run in declaration order with a fixed seed", out.Shuffle)
	}
}
