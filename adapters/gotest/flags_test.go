package gotest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// runFixture runs a go test command on a module under testdata, as the
// runner does.
func runFixture(t *testing.T, module string, args ...string) (*adapters.Recorder, adapters.Outcome, string) {
	t.Helper()
	testutil.RequireTool(t, "go")
	if testing.Short() {
		t.Skip("runs go test on a fixture")
	}
	root, _ := filepath.Abs(filepath.Join("testdata", module))
	rec, out, _ := adapterstest.RunReal(t, gotest{}, adapters.Request{ProjectRoot: root, Command: append([]string{"go", "test", "-count=1"}, args...)})
	return rec, out, root
}

// requireRace fails (under CI) or skips a test whose go test -race did not
// build: the race detector needs cgo and a C toolchain on some systems.
func requireRace(t *testing.T, out adapters.Outcome) {
	t.Helper()
	if !out.BuildFailed {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("go test -race does not build here: %+v", out.BuildErrors)
	}
	t.Skipf("no -race here: %+v", out.BuildErrors)
}

// failureOf is a test's failure, fatal when there is none.
func failureOf(t *testing.T, rec *adapters.Recorder, pkg, name string) *report.Failure {
	t.Helper()
	f := rec.Failure(pkg, name)
	if f == nil {
		t.Fatalf("%s %s: no failure; tests %v", pkg, name, goTestNames(rec.Tests()))
	}
	return f
}

// TestGoRealRace runs go test -race on races testing blames on more than
// the test whose code raced: a parallel test that only ran beside it, a
// test that a goroutine another test left running raced with, and a race
// in TestMain after the tests passed, which fails the package alone.
func TestGoRealRace(t *testing.T) {
	t.Run("own", func(t *testing.T) {
		rec, out, _ := runFixture(t, "failures", "-race", "./race")
		requireRace(t, out)
		f := failureOf(t, rec, "example.com/failures/race", "TestRace")
		if !strings.Contains(f.Message, "goroutine") || !strings.Contains(f.Message, " created at race/race_test.go:10 (race.TestRace)") {
			t.Errorf("TestRace: message %q, want the racing goroutine's creation at race/race_test.go:10", f.Message)
		}
		if f.Rerun != "go test -count=1 -race -run '^TestRace$' ./race" {
			t.Errorf("TestRace: rerun %q", f.Rerun)
		}
	})
	t.Run("beside", func(t *testing.T) {
		rec, out, _ := runFixture(t, "failures", "-race", "-parallel", "4", "./racepar")
		requireRace(t, out)
		a := failureOf(t, rec, "example.com/failures/racepar", "TestA")
		if a.File != "racepar/racepar_test.go" || !strings.HasPrefix(a.Message, "data race (go test -race): ") || !strings.Contains(a.Message, "racepar/racepar_test.go:18") {
			t.Errorf("TestA: failure %+v, want its race at racepar/racepar_test.go:18", a)
		}
		b := failureOf(t, rec, "example.com/failures/racepar", "TestB")
		if !strings.Contains(b.Message, "the race is in TestA's code") || !strings.Contains(b.Message, "racepar/racepar_test.go:18") ||
			b.Rerun != "go test -count=1 -race -parallel 4 -run '^(TestB|TestA)$' ./racepar" {
			t.Errorf("TestB: failure %+v, want the race named TestA's and a rerun of both", b)
		}
	})
	t.Run("leaked", func(t *testing.T) {
		rec, out, _ := runFixture(t, "failures", "-race", "./raceleak")
		requireRace(t, out)
		f := failureOf(t, rec, "example.com/failures/raceleak", "TestLater")
		if !strings.Contains(f.Message, "created at raceleak/raceleak_test.go:12 (raceleak.TestLeaks)") || !strings.Contains(f.Message, "TestLeaks's code is in the race too") ||
			f.Rerun != "go test -count=1 -race -run '^(TestLater|TestLeaks)$' ./raceleak" {
			t.Errorf("TestLater: failure %+v, want the goroutine TestLeaks started and a rerun of both", f)
		}
	})
	t.Run("testmain", func(t *testing.T) {
		rec, out, _ := runFixture(t, "failures", "-race", "./racemain")
		requireRace(t, out)
		f := failureOf(t, rec, "example.com/failures/racemain", "example.com/failures/racemain")
		if f.File != "racemain/racemain_test.go" || !strings.HasPrefix(f.Message, "a data race outside any test (in TestMain): go test -race fails the package for it though no test failed\n") ||
			!strings.Contains(f.Message, " created at racemain/racemain_test.go:14 (racemain.TestMain)") ||
			f.Rerun != "go test -count=1 -race ./racemain" {
			t.Errorf("package failure %+v, want the race in TestMain", f)
		}
		if tt, _ := rec.Lookup("example.com/failures/racemain", "TestOK"); tt.Status != report.TestPassed {
			t.Errorf("TestOK %s, want passed", tt.Status)
		}
	})
}

// TestGoRealGoleak runs goleak's two checks: VerifyNone(t) in a test that
// leaks and in a later one that only sees the leak, and VerifyTestMain
// after tests that all passed.
func TestGoRealGoleak(t *testing.T) {
	rec, _, root := runFixture(t, "goleak", "./...")
	leaks := failureOf(t, rec, "example.com/goleak/none", "TestLeaks")
	if leaks.File != "none/none_test.go" || leaks.Line != 15 ||
		!strings.HasPrefix(leaks.Message, "goleak: 1 leaked goroutine (goleak.VerifyNone at none/none_test.go:16): goroutine ") ||
		!strings.Contains(leaks.Message, "[chan receive] at none/none_test.go:10 (none.serve), created at none/none_test.go:15 (none.TestLeaks)") ||
		strings.Contains(leaks.Message, root) {
		t.Errorf("TestLeaks: failure %+v, want the leak at its creation", leaks)
	}
	fine := failureOf(t, rec, "example.com/goleak/none", "TestFine")
	if !strings.Contains(fine.Message, "started by TestLeaks, which left it running: TestFine only saw it") ||
		fine.Rerun != "go test -count=1 -run '^(TestFine|TestLeaks)$' ./none" {
		t.Errorf("TestFine: failure %+v, want the leak blamed on TestLeaks and a rerun of both", fine)
	}
	main := failureOf(t, rec, "example.com/goleak/main", "example.com/goleak/main")
	if main.File != "main/main_test.go" || main.Line != 19 ||
		!strings.HasPrefix(main.Message, "goleak: 1 leaked goroutine after the tests passed (goleak.VerifyTestMain): goroutine ") ||
		!strings.Contains(main.Message, "at main/main_test.go:13 (main.worker), created at main/main_test.go:19 (main.TestLeaky)") ||
		main.Rerun != "go test -count=1 -run '^TestLeaky$' ./main" {
		t.Errorf("package failure %+v, want the leak TestLeaky started", main)
	}
	cmd := exec.Command("sh", "-c", main.Rerun)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(b), "found unexpected goroutines") {
		t.Errorf("%s: %v\n%s", main.Rerun, err, b)
	}
}

// TestGoRealSynctest runs testing/synctest bubbles that deadlock: the
// failure is where the bubble's goroutines are blocked, not the
// synctest.Test call.
func TestGoRealSynctest(t *testing.T) {
	for _, c := range []struct{ test, want, at string }{
		{"TestBubbleDeadlock", "blocked in the bubble: goroutine ", "bubble/bubble_test.go:14"},
		{"TestLeftBlocked", "blocked in the bubble: goroutine ", "bubble/bubble_test.go:21"},
	} {
		for _, pkgs := range [][]string{{"./bubble"}, {"./bubble", "./order"}} { // -v=test2json, -json
			rec, _, _ := runFixture(t, "flags", append([]string{"-run", "^" + c.test + "$"}, pkgs...)...)
			f := failureOf(t, rec, "example.com/flags/bubble", c.test)
			if f.File+":"+strconv.Itoa(f.Line) != c.at || !strings.Contains(f.Message, c.want) || !strings.Contains(f.Message, "] at "+c.at+" (bubble."+c.test) {
				t.Errorf("%s %v: failure %+v, want it at the blocked goroutine %s", c.test, pkgs, f, c.at)
			}
		}
	}
}

// TestGoRealShuffle runs -shuffle=on until a test fails for the order:
// its rerun carries the seed go printed and the tests that ran before it,
// and fails again.
func TestGoRealShuffle(t *testing.T) {
	seedLine := regexp.MustCompile(`-shuffle=(\d+) -run '\^\((.*)\)\$' \./order$`)
	for i := 0; i < 30; i++ {
		rec, _, root := runFixture(t, "flags", "-shuffle=on", "./order")
		f := rec.Failure("example.com/flags/order", "TestVictim")
		if f == nil {
			continue // TestVictim ran first
		}
		m := seedLine.FindStringSubmatch(f.Rerun)
		if m == nil || !slices.Equal(strings.Split(m[2], "|"), []string{"TestPollute", "TestVictim"}) {
			t.Fatalf("rerun %q, want the seed and TestPollute before TestVictim", f.Rerun)
		}
		cmd := exec.Command("sh", "-c", f.Rerun)
		cmd.Dir = root
		b, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(b), "-test.shuffle "+m[1]) || !strings.Contains(string(b), "polluted by an earlier test") {
			t.Errorf("%s: %v\n%s", f.Rerun, err, b)
		}
		return
	}
	t.Fatal("TestVictim never failed in 30 shuffled runs")
}

// TestGoRealBench runs benchmarks (-bench . -run '^$'): the one that
// passed passed (test2json gives it no end event), the one that called
// b.Fatal reruns alone under -bench.
func TestGoRealBench(t *testing.T) {
	for _, pkgs := range [][]string{{"./bench"}, {"./bench", "./order"}} {
		rec, out, _ := runFixture(t, "flags", append([]string{"-bench", ".", "-run", "^$"}, pkgs...)...)
		if tt, _ := rec.Lookup("example.com/flags/bench", "BenchmarkAdd"); tt.Status != report.TestPassed {
			t.Errorf("%v: BenchmarkAdd %s %+v, want passed", pkgs, tt.Status, tt.Failure)
		}
		f := failureOf(t, rec, "example.com/flags/bench", "BenchmarkBroken")
		if f.File != "bench/bench_test.go" || f.Line != 15 || f.Message != "benchmark broke" ||
			f.Rerun != "go test -count=1 -bench '^BenchmarkBroken$' -run '^$' ./bench" {
			t.Errorf("%v: BenchmarkBroken failure %+v", pkgs, f)
		}
		if out.Crash != nil || slices.Contains(out.Indicators, report.IndicatorBinaryDied) {
			t.Errorf("%v: outcome %+v: the binary ran to its end", pkgs, out)
		}
	}
}

// TestGoRealFailfast: -failfast stops go test at the first failure, and
// the packages not yet started print nothing: the hint says so.
func TestGoRealFailfast(t *testing.T) {
	_, out, _ := runFixture(t, "flags", "-failfast", "-p", "1", "./fails", "./after")
	if !strings.Contains(out.Hint, "-failfast stopped go test at the first failure (TestFails in example.com/flags/fails): the tests after it in its package and the packages not yet started did not run") {
		t.Errorf("hint %q: want -failfast's stop named", out.Hint)
	}
}

// TestGoRealCount runs go test -count=3 on tests that fail in some of
// their runs: each is failed, once, with its first failure and how many
// runs failed, and its rerun keeps -count=3. One package (read through
// -v=test2json) and two (-json).
func TestGoRealCount(t *testing.T) {
	testutil.RequireTool(t, "go")
	if testing.Short() {
		t.Skip("runs go test on a fixture")
	}
	root, _ := filepath.Abs(filepath.Join("testdata", "flags"))
	const pkg = "example.com/flags/repeat"
	failed := []struct{ name, msg, at, rerun string }{
		{"TestFirstOnly", "failed 1 of 3 runs (-count=3: run 1); run 1's failure: first run fails (run 1)", "repeat/repeat_test.go:17", "^TestFirstOnly$"},
		{"TestLastOfThree", "failed 1 of 3 runs (-count=3: run 3); run 3's failure: third run fails (run 3)", "repeat/repeat_test.go:23", "^TestLastOfThree$"},
		{"TestTwice", "failed 2 of 3 runs (-count=3: runs 1 and 3); run 1's failure: fails but in run 2 (run 1)", "repeat/repeat_test.go:29", "^TestTwice$"},
		{"TestAlways", "failed 3 of 3 runs (-count=3); run 1's failure: always fails", "repeat/repeat_test.go:35", "^TestAlways$"},
		{"TestTable/flaky", "failed 1 of 3 runs (-count=3: run 2); run 2's failure: second run of the subtest fails (run 2)", "repeat/repeat_test.go:43", "^TestTable$/^flaky$"},
		// Run 1's log from the helper is not run 2's failure.
		{"TestHelper", "failed 1 of 3 runs (-count=3: run 2); run 2's failure: helper fails run 2", "repeat/repeat_test.go:61", "^TestHelper$"},
	}
	for _, pkgs := range [][]string{{"./repeat"}, {"./repeat", "./after"}} {
		cmd := append([]string{"go", "test", "-count=3"}, pkgs...)
		rec, out, _ := adapterstest.RunReal(t, gotest{}, adapters.Request{ProjectRoot: root, Command: cmd})
		for _, c := range failed {
			tt, _ := rec.Lookup(pkg, c.name)
			f := tt.Failure
			if tt.Status != report.TestFailed || f == nil {
				t.Errorf("%v: %s %s %+v, want failed", pkgs, c.name, tt.Status, f)
				continue
			}
			if f.Message != c.msg || f.File+":"+strconv.Itoa(f.Line) != c.at || f.Rerun != "go test -count=3 -run '"+c.rerun+"' ./repeat" {
				t.Errorf("%v: %s failure %+v, want %q at %s", pkgs, c.name, f, c.msg, c.at)
			}
		}
		if tt, _ := rec.Lookup(pkg, "TestTable"); tt.Status != report.TestFailed || tt.Failure != nil {
			t.Errorf("%v: TestTable %s %+v, want failed through its subtest", pkgs, tt.Status, tt.Failure)
		}
		for _, name := range []string{"TestPasses", "TestTable/fine"} {
			if tt, _ := rec.Lookup(pkg, name); tt.Status != report.TestPassed {
				t.Errorf("%v: %s %s, want passed", pkgs, name, tt.Status)
			}
		}
		// Each test once: repeat's 9 (TestTable with its 2 subtests among
		// them), 7 failed, and after's TestAfter.
		if p := rec.Progress(); p.Passed != 2+len(pkgs)-1 || p.Failed != len(failed)+1 {
			t.Errorf("%v: %d passed, %d failed; want each test counted once", pkgs, p.Passed, p.Failed)
		}
		for _, want := range []string{
			"-count=3 runs each test 3 times: the counts are of tests, each once, failed when any of its runs failed",
			"5 tests both passed and failed, so flaky — TestFirstOnly (failed 1 of 3), TestTwice (failed 2 of 3), ",
			"1 test failed all 3 runs — TestAlways",
			"each rerun keeps -count=3",
		} {
			if !strings.Contains(out.Hint, want) {
				t.Errorf("%v: hint %q, want %q", pkgs, out.Hint, want)
			}
		}
	}
}

func TestGoRepeats(t *testing.T) {
	for _, c := range []struct {
		args  []string
		runs  int
		flags string
	}{
		{[]string{"go", "test"}, 1, ""},
		{[]string{"go", "test", "-count=1", "-race"}, 1, ""},
		{[]string{"go", "test", "-count", "5"}, 5, "-count=5"},
		{[]string{"go", "test", "-count=1", "-count=3"}, 3, "-count=3"},
		{[]string{"go", "test", "-cpu", "1,2", "-count=3"}, 6, "-count=3 -cpu=1,2"},
		{[]string{"go", "test", "-cpu=1,2"}, 2, "-cpu=1,2"},
	} {
		if runs, flags := goRepeats(c.args); runs != c.runs || flags != c.flags {
			t.Errorf("%q: %d %q, want %d %q", c.args, runs, flags, c.runs, c.flags)
		}
	}
}

func TestGoRunsTally(t *testing.T) {
	p := &goParser{runs: 20, runsFlags: "-count=20"}
	for _, c := range []struct {
		r    goRuns
		want string
	}{
		{goRuns{ended: 20, failed: 10, failedIn: []int{1, 2, 3, 4, 5, 6, 7, 8}}, "failed 10 of 20 runs (-count=20: runs 1, 2, 3, 4, 5, 6, 7, 8 and 2 more); run 1's failure: "},
		{goRuns{ended: 20, failed: 20, failedIn: []int{1, 2, 3, 4, 5, 6, 7, 8}}, "failed 20 of 20 runs (-count=20); run 1's failure: "},
		{goRuns{ended: 2, failed: 1, failedIn: []int{2}}, "failed 1 of the 2 runs that ended (-count=20: run 2); run 2's failure: "},
		{goRuns{ended: 1, failed: 1, failedIn: []int{1}}, "failed 1 of the 1 run that ended (-count=20); run 1's failure: "},
	} {
		if got := p.runsTally(c.r); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
	// Several runs in one stream without -count (gotestsum --rerun-fails).
	p = &goParser{runs: 1}
	if got := p.runsTally(goRuns{ended: 3, failed: 2, failedIn: []int{1, 3}}); got != "failed 2 of 3 runs (runs 1 and 3); run 1's failure: " {
		t.Errorf("without -count: %q", got)
	}
}
