package catch2

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit"
	"strobe/internal/shell"
	"strobe/report"
)

// v3Root is where testdata/v3/capture.sh built the fixtures: the reports'
// file names are under it.
const v3Root = "/tmp/catch2-v3-capture"

// v3Exit reads a capture's exit status as the shell gave it (128+N for
// signal N), stopped by strobe when stoppedBy is set.
func v3Exit(t *testing.T, name, stoppedBy string) report.Exit {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata/v3/captures", name+".exit"))
	if err != nil {
		t.Fatal(err)
	}
	code, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	exit := report.Exit{Exited: code < 128, Code: code, StoppedBy: stoppedBy}
	if code > 128 {
		exit.Signaled, exit.Signal = true, code-128
		exit.SignalName = kit.SignalName(exit.Signal)
	}
	return exit
}

// v3Replay runs the parser over a captured report of a real Catch2 v3.7.1
// binary (testdata/v3/captures, made by capture.sh), as if the binary had
// just written it and exited as it did.
func v3Replay(t *testing.T, name, bin, stoppedBy string) (*adapters.Recorder, adapters.Outcome) {
	t.Helper()
	return v3ReplayArgs(t, name, bin, stoppedBy)
}

// v3ReplayArgs is v3Replay for a command with arguments.
func v3ReplayArgs(t *testing.T, name, bin, stoppedBy string, args ...string) (*adapters.Recorder, adapters.Outcome) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata/v3/captures", name+".xml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "report.xml")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	rec := adapters.NewRecorder()
	p := newCatch2Parser(rec, v3Root, dir, path)
	p.rerun = append([]string{filepath.Join(v3Root, "build", bin)}, args...)
	p.order, p.seedAt = catch2Randomness(p.rerun)
	p.start()
	out := p.Finish(v3Exit(t, name, stoppedBy))
	if p.xmlErr != nil {
		t.Errorf("XML error: %v", p.xmlErr)
	}
	if p.version != 3 {
		t.Errorf("version %d, want 3", p.version)
	}
	return rec, out
}

// TestCatch2V3Captures: what the parser makes of real Catch2 v3.7.1 runs.
// The counts are Catch2's own (its console's totals for the same run):
// a [!shouldfail] test that failed passes, skips are skips.
func TestCatch2V3Captures(t *testing.T) {
	for _, tc := range []struct {
		name, bin, stoppedBy    string
		passed, failed, skipped int
	}{
		// test cases: 20 | 7 passed | 9 failed | 3 skipped | 1 failed as expected
		{"features-all", "features", "", 8, 9, 3},
		// test cases: 12 | 3 passed | 6 failed | 3 skipped
		{"features-unit", "features", "", 3, 6, 3},
		{"features-skipped-only", "features", "", 0, 0, 1},
		{"features-no-match", "features", "", 0, 0, 0},
		{"crash-all", "crash", "", 1, 1, 0},
		{"crash-abort", "crash", "", 0, 1, 0},
		{"custom-all", "custom", "", 1, 1, 0},
		// Stopped by strobe: the hung test stays running, for the runner
		// to name.
		{"hang-sigterm", "hang", report.StoppedStuck, 1, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, out := v3Replay(t, tc.name, tc.bin, tc.stoppedBy)
			adapterstest.Golden(t, "v3/"+tc.name, adapterstest.Normalise(rec, out, nil))
			if pr := rec.Progress(); pr.Passed != tc.passed || pr.Failed != tc.failed || pr.Skipped != tc.skipped {
				t.Errorf("passed %d, failed %d, skipped %d; want %d, %d, %d", pr.Passed, pr.Failed, pr.Skipped, tc.passed, tc.failed, tc.skipped)
			}
		})
	}
}

// TestCatch2V3Crash: the segfault is the crash, named, at the last
// assertion the test reached (Catch2 v3's console says the test case's
// line).
func TestCatch2V3Crash(t *testing.T) {
	rec, out := v3Replay(t, "crash-all", "crash", "")
	if c := out.Crash; c == nil || c.Type != report.CrashSegmentationFault || len(c.RunningTests) != 1 || c.RunningTests[0] != "dereferences null" {
		t.Fatalf("crash %+v", out.Crash)
	}
	tt, _ := adapterstest.TestByName(rec.Tests(), "dereferences null")
	if tt.Failure == nil || tt.Failure.File != "tests/crash.cpp" || tt.Failure.Line != 8 {
		t.Errorf("failure %+v, want tests/crash.cpp:8", tt.Failure)
	}
	if v3Exit(t, "crash-all", "").Signal != int(syscall.SIGSEGV) {
		t.Error("the capture did not die of SIGSEGV")
	}
}

// TestCatch2V3ExitCodes: Catch2 v3 exits 2 when no test matched and 4
// when every test it ran skipped; the runner must not call those runs
// failed (they are no_tests and skipped), while a failure's 42 and a
// crash stay unexplained.
func TestCatch2V3ExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name, bin string
		explained bool
	}{
		{"features-no-match", "features", true},
		{"features-skipped-only", "features", true},
		{"features-all", "features", false},
		{"features-unit", "features", false},
		{"crash-all", "crash", false},
	} {
		_, out := v3Replay(t, tc.name, tc.bin, "")
		if out.ExitExplained != tc.explained {
			t.Errorf("%s: ExitExplained = %v, want %v", tc.name, out.ExitExplained, tc.explained)
		}
	}
	if _, out := v3Replay(t, "features-no-match", "features", ""); !out.NoTests {
		t.Error("features-no-match: not NoTests")
	}
}

// TestCatch2V3Messages: a failure reads as Catch2's console prints it,
// "with messages:" for an INFO and a CAPTURE.
func TestCatch2V3Messages(t *testing.T) {
	rec, _ := v3Replay(t, "features-all", "features", "")
	tt, _ := adapterstest.TestByName(rec.Tests(), "adds wrongly")
	want := "REQUIRE( add(base, 2) == 5 )\nwith expansion:\n  4 == 5\nwith messages:\n  base is 2\n  base := 2"
	if tt.Failure == nil || tt.Failure.Message != want || tt.Failure.File != "tests/features.cpp" || tt.Failure.Line != 23 {
		t.Errorf("failure %+v, want at tests/features.cpp:23:\n%s", tt.Failure, want)
	}
}

// TestCatch2V3Listings: the probe knows v3's --list-tests (exit 0), and
// List's fallback knows its refusal of --list-test-names-only (on stderr,
// exit 1); --list-tests --verbosity quiet prints one name a line.
func TestCatch2V3Listings(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata/v3/captures", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if !catch2Listing.Match(read("list-tests.stdout")) {
		t.Error("v3's --list-tests is not recognised as a Catch2 listing")
	}
	if !strings.Contains(string(read("list-test-names-only.stderr")), "Unrecognised token") || strings.TrimSpace(string(read("list-test-names-only.exit"))) != "1" {
		t.Error("v3's refusal of --list-test-names-only does not say Unrecognised token")
	}
	names := strings.Split(strings.TrimSpace(string(read("list-tests-quiet.stdout"))), "\n")
	if len(names) != 20 || names[15] != `a, b [c] "d" ~e \f *g` {
		t.Errorf("quiet listing: %d names %q", len(names), names)
	}
}

// TestCatch2V3Seed: v3 draws a seed on every run unless given one, and
// gives it as the root's rng-seed attribute (v2's Randomness element is
// gone). Under --order rand the answer and the reruns carry it; in
// declaration order the run is not called shuffled.
func TestCatch2V3Seed(t *testing.T) {
	bin := filepath.Join(v3Root, "build", "features")
	rec, out := v3ReplayArgs(t, "features-all", "features", "", "--order", "rand")
	if want := shell.Join([]string{bin, "--order", "rand", "--rng-seed", "3769964560"}); out.Shuffle == nil || out.Shuffle.Seed != "3769964560" || out.Shuffle.Command != want {
		t.Errorf("shuffle %+v, want the report's seed and %s", out.Shuffle, want)
	}
	f, _ := adapterstest.TestByName(rec.Tests(), "adds wrongly")
	if f.Failure == nil || !strings.HasPrefix(f.Failure.Rerun, shell.Join([]string{bin, "--order", "rand", "--rng-seed", "3769964560"})+" ") {
		t.Errorf("rerun %+v, want the seed kept", f.Failure)
	}
	if _, out := v3Replay(t, "features-all", "features", ""); out.Shuffle != nil {
		t.Errorf("shuffle %+v in declaration order", out.Shuffle)
	}
}
