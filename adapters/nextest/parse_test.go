package nextest

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit/format"
	"strobe/report"
)

// replay feeds lines to a fresh parser for the fixture as record.sh wrote
// its paths.
func replay(lines []adapterstest.Line, exit report.Exit) adapterstest.Result {
	rec := adapters.NewRecorder()
	root := "/fixtures/ntdemo"
	out := adapterstest.Replay(newParser(rec, root, root, nil), lines, exit)
	return adapterstest.Normalise(rec, out, nil)
}

// merge interleaves the streams, n stdout lines to one stderr line.
func merge(out, errs []adapterstest.Line, n int) []adapterstest.Line {
	var lines []adapterstest.Line
	for len(out) > 0 || len(errs) > 0 {
		k := min(n, len(out))
		lines, out = append(lines, out[:k]...), out[k:]
		if len(errs) > 0 {
			lines, errs = append(lines, errs[0]), errs[1:]
		}
	}
	return lines
}

// TestGolden parses real runs of the fixture (testdata/record.sh). The two
// streams reach the parser through two pipes, in no set order between
// them, so every interleaving must give the same result.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name      string
		code      int
		stoppedBy string
	}{
		{"all", 100, ""},
		{"single", 100, ""},
		{"none", 4, ""},
		{"broken", 101, ""},
		{"stopped", 100, report.StoppedStuck},
		{"exits", 100, ""},
		{"retries", 100, ""},
		{"samename", 100, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := adapterstest.ReadLines(t, "testdata/"+tc.name+".stdout", adapters.Stdout)
			errs := adapterstest.ReadLines(t, "testdata/"+tc.name+".stderr", adapters.Stderr)
			exit := report.Exit{Exited: true, Code: tc.code, StoppedBy: tc.stoppedBy}
			want := replay(append(slices.Clone(errs), out...), exit)
			adapterstest.Golden(t, tc.name, want)
			for order, lines := range map[string][]adapterstest.Line{
				"stdout first": append(slices.Clone(out), errs...),
				"alternating":  merge(out, errs, 1),
				"stderr lags":  merge(out, errs, 7),
			} {
				if got := replay(lines, exit); !reflect.DeepEqual(got, want) {
					g, _ := json.MarshalIndent(got, "", "  ")
					w, _ := json.MarshalIndent(want, "", "  ")
					t.Errorf("%s: result differs from stderr first:\n%s", order, adapterstest.LineDiff(string(w), string(g)))
				}
			}
		})
	}
}

// TestGoldenAll checks what the golden file of the whole run must say,
// so that an -update cannot quietly bless a wrong answer.
func TestGoldenAll(t *testing.T) {
	out := adapterstest.ReadLines(t, "testdata/all.stdout", adapters.Stdout)
	errs := adapterstest.ReadLines(t, "testdata/all.stderr", adapters.Stderr)
	rec := adapters.NewRecorder()
	o := adapterstest.Replay(newParser(rec, "/fixtures/ntdemo", "/fixtures/ntdemo", nil), append(errs, out...), report.Exit{Exited: true, Code: 100})
	tests := rec.Tests()
	want := map[string]report.TestStatus{
		"tests::adds": report.TestPassed, "tests::halves": report.TestFailed, "tests::ignored": report.TestSkipped,
		"smoke": report.TestPassed, "passes": report.TestPassed, "panics": report.TestFailed, "segfault": report.TestFailed,
		"aborts": report.TestFailed, "flaky": report.TestPassed, "slow": report.TestPassed, "deadlock": report.TestFailed,
	}
	if len(tests) != len(want) {
		t.Errorf("%d tests recorded, want %d", len(tests), len(want))
	}
	for name, status := range want {
		got, ok := adapterstest.TestByName(tests, name)
		if !ok || got.Status != status {
			t.Errorf("%s: %v (recorded %v), want %s", name, got.Status, ok, status)
		}
	}
	failure := func(name string) report.Failure {
		got, _ := adapterstest.TestByName(tests, name)
		if got.Failure == nil {
			t.Fatalf("%s has no failure", name)
		}
		return *got.Failure
	}
	if f := failure("tests::halves"); f.File != "src/lib.rs" || f.Line != 29 || !strings.HasPrefix(f.Message, "assertion `left == right` failed") ||
		f.Rerun != "cargo nextest run -p ntdemo --lib -E 'test(=tests::halves)'" || !slices.Equal(f.SuggestedTraces, nil) {
		t.Errorf("halves: %+v", f)
	}
	if f := failure("panics"); f.File != "tests/integration.rs" || f.Line != 13 || f.Message != "boom: the list is empty" ||
		f.Rerun != "cargo nextest run -p ntdemo --test integration -E 'test(=panics)'" {
		t.Errorf("panics: %+v", f)
	}
	if f := failure("segfault"); f.Message != "the test process died of SIGSEGV (signal 11)" {
		t.Errorf("segfault: %+v", f)
	}
	if f := failure("aborts"); f.Message != "the test process died of SIGABRT (signal 6)" {
		t.Errorf("aborts: %+v", f)
	}
	if f := failure("deadlock"); !strings.HasPrefix(f.Message, "timed out: nextest's slow-timeout terminated the test after 2.") {
		t.Errorf("deadlock: %+v", f)
	}
	if c := o.Crash; c == nil || c.Type != report.CrashAbort || c.SignalName != "SIGABRT" || !slices.Equal(c.RunningTests, []string{"aborts", "segfault"}) {
		t.Errorf("crash = %+v, want SIGABRT naming aborts, then segfault", c)
	}
	if want := []adapters.FlakyTest{{Suite: "ntdemo::integration", Name: "flaky", Attempts: 2, File: "tests/integration.rs", Line: 34,
		Message: "first try fails (count 0)"}}; !reflect.DeepEqual(o.Flaky, want) {
		t.Errorf("flaky = %+v, want %+v", o.Flaky, want)
	}
	if !strings.Contains(o.Hint, "flaky: ntdemo::integration flaky (passed on try 2; failed first at tests/integration.rs:34)") {
		t.Errorf("hint %q does not name the flaky test", o.Hint)
	}
	if slow, _ := adapterstest.TestByName(tests, "slow"); !strings.Contains(slow.Output, "nextest: SLOW [>  1.000s]") {
		t.Errorf("slow test's output %q lacks nextest's SLOW line", slow.Output)
	}
}

// TestStatusLines reads every status line nextest's human reporter writes
// (testdata/corpus: nextest's own snapshot of all variants).
func TestStatusLines(t *testing.T) {
	f, err := os.Open("testdata/corpus/human-status-lines-all-variants.snap.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	statuses := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "my-binary-id test_name") {
			continue
		}
		m := statusLine.FindStringSubmatch(line)
		if m == nil || m[2] != "my-binary-id" || m[3] != "test_name" {
			t.Errorf("status line not read: %q", line)
			continue
		}
		statuses[m[1]] = true
	}
	for _, s := range []string{"PASS", "SIGSEGV", "TIMEOUT", "SLOW", "TRY 2 FAIL", "FLAKY 2/2", "TRY 2 TMT", "FAIL + LEAK"} {
		if !statuses[s] {
			t.Errorf("status %q not among those read: %v", s, statuses)
		}
	}
	p := newParser(adapters.NewRecorder(), "/p", "/p", nil)
	for line, want := range map[string]humanStatus{
		"     SIGSEGV [   1.000s] ( 14/100) my-binary-id test_name": {signal: "SIGSEGV"},
		"     TIMEOUT [  60.000s] ( 13/100) my-binary-id test_name": {timeout: true},
		"   TRY 2 TMT [  60.000s] ( 19/100) my-binary-id test_name": {timeout: true},
		"        SLOW [>  1.000s] (─────) my-binary-id test_name":   {slow: true},
	} {
		p.status = map[string]*humanStatus{}
		p.stderr(line)
		got := p.status["my-binary-id\x00test_name"]
		if got == nil || got.signal != want.signal || got.timeout != want.timeout || got.slow != want.slow {
			t.Errorf("%q: %+v, want %+v", line, got, want)
		}
	}
	if p.stderr("     Summary [   2.028s] 10 tests run: 5 passed (1 slow, 1 flaky), 4 failed, 1 timed out, 1 skipped"); p.status["10\x00tests run: 5 passed (1 slow, 1 flaky), 4 failed, 1 timed out, 1 skipped"] != nil {
		t.Error("the summary line was read as a test's status")
	}
}

func TestSplitName(t *testing.T) {
	p := newParser(adapters.NewRecorder(), "/p", "/p", nil)
	p.suite(&message{LibtestEvent: eventOf("suite", "started"), Nextest: &struct {
		Crate      string `json:"crate"`
		TestBinary string `json:"test_binary"`
		Kind       string `json:"kind"`
	}{"my-crate", "cli", "bin"}})
	for _, tc := range []struct {
		name, suite, test string
		attempts          int
	}{
		{"my-crate::cli$tests::parses", "my-crate::bin/cli", "tests::parses", 1},
		{"my-crate::cli$tests::parses#3", "my-crate::bin/cli", "tests::parses", 3},
		{"other::it$case#x", "other::it", "case#x", 1},
		{"plain::name", "", "plain::name", 1},
	} {
		_, suite, test, attempts := p.split(tc.name)
		if suite != tc.suite || test != tc.test || attempts != tc.attempts {
			t.Errorf("split(%q) = %q, %q, %d; want %q, %q, %d", tc.name, suite, test, attempts, tc.suite, tc.test, tc.attempts)
		}
	}
}

func eventOf(typ, event string) (e format.LibtestEvent) {
	e.Type, e.Event = typ, event
	return e
}

// TestTimeoutWithoutReason: a failed event without nextest's reason is
// still a timeout when the status line says TIMEOUT.
func TestTimeoutWithoutReason(t *testing.T) {
	rec := adapters.NewRecorder()
	p := newParser(rec, "/p", "/p", nil)
	out := adapterstest.Replay(p, []adapterstest.Line{
		{Stream: adapters.Stdout, Text: `{"type":"suite","event":"started","test_count":1,"nextest":{"crate":"a","test_binary":"it","kind":"test"}}`},
		{Stream: adapters.Stdout, Text: `{"type":"test","event":"started","name":"a::it$hangs"}`},
		{Stream: adapters.Stdout, Text: `{"type":"test","event":"failed","name":"a::it$hangs","exec_time":2.0,"stdout":""}`},
		{Stream: adapters.Stderr, Text: `     TIMEOUT [   2.004s] (1/1) a::it hangs`},
	}, report.Exit{Exited: true, Code: 100})
	got := rec.Failure("a::it", "hangs")
	if got == nil || got.Message != "timed out: nextest's slow-timeout terminated the test" || !slices.Contains(out.Indicators, "test_timed_out") {
		t.Errorf("failure %+v, indicators %v", got, out.Indicators)
	}
}

// TestIgnoredNeverRuns: with a filter, nextest writes a "started" event for
// an ignored test of a binary it runs and never its end; its SKIP status
// line must keep it from passing for a running (hung) test while the run
// goes on, whichever stream comes first.
func TestIgnoredNeverRuns(t *testing.T) {
	out := adapterstest.ReadLines(t, "testdata/single.stdout", adapters.Stdout)
	errs := adapterstest.ReadLines(t, "testdata/single.stderr", adapters.Stderr)
	for order, lines := range map[string][]adapterstest.Line{
		"stderr first": append(slices.Clone(errs), out...),
		"stdout first": append(slices.Clone(out), errs...),
	} {
		rec := adapters.NewRecorder()
		p := newParser(rec, "/fixtures/ntdemo", "/fixtures/ntdemo", nil)
		for _, l := range lines {
			p.Line(l.Stream, []byte(l.Text), false)
		}
		if running := rec.Progress().Running; len(running) != 0 {
			t.Errorf("%s: running before Finish: %+v", order, running)
		}
		if got, ok := rec.Lookup("ntdemo", "tests::ignored"); !ok || got.Status != report.TestSkipped {
			t.Errorf("%s: tests::ignored %+v (recorded %v), want skipped", order, got, ok)
		}
	}
}

// TestStopped: the test strobe stopped (SIGTERM to the group, which
// nextest passes on) is still running, not failed, and nothing crashed.
func TestStopped(t *testing.T) {
	out := adapterstest.ReadLines(t, "testdata/stopped.stdout", adapters.Stdout)
	errs := adapterstest.ReadLines(t, "testdata/stopped.stderr", adapters.Stderr)
	for _, stopped := range []string{report.StoppedStuck, ""} {
		rec := adapters.NewRecorder()
		o := adapterstest.Replay(newParser(rec, "/fixtures/ntdemo", "/fixtures/ntdemo", nil), append(slices.Clone(out), errs...),
			report.Exit{Exited: true, Code: 100, StoppedBy: stopped})
		got, _ := rec.Lookup("ntdemo::integration", "deadlock")
		switch {
		case stopped != "" && (got.Status != report.TestRunning || o.Crash != nil):
			t.Errorf("stopped by strobe: deadlock %s, crash %+v; want running, no crash", got.Status, o.Crash)
		case stopped == "" && (got.Status != report.TestFailed || o.Crash == nil || o.Crash.SignalName != "SIGTERM"):
			t.Errorf("stopped by someone else: deadlock %s, crash %+v; want failed, a SIGTERM crash", got.Status, o.Crash)
		}
	}
}

// TestCutLine: a failed test's event too long to keep whole, in nextest's
// compact spacing, is still the test's failure, with the panic at its end.
func TestCutLine(t *testing.T) {
	rec := adapters.NewRecorder()
	p := newParser(rec, "/p", "/p", nil)
	p.Line(adapters.Stdout, []byte(`{"type":"suite","event":"started","test_count":1,"nextest":{"crate":"a","test_binary":"it","kind":"test"}}`), false)
	p.Line(adapters.Stdout, []byte(`{"type":"test","event":"started","name":"a::it$prints"}`), false)
	p.CutLine(adapters.Stdout, []byte(`{"type":"test","event":"failed","name":"a::it$prints","exec_time":1.5,"stdout":"xxxxxxxx`),
		[]byte(`xxxx\nthread 'prints' (7) panicked at tests/it.rs:9:5:\nboom\n"}`))
	p.Finish(report.Exit{Exited: true, Code: 100})
	got, _ := rec.Lookup("a::it", "prints")
	if got.Status != report.TestFailed || got.Failure == nil || got.Failure.File != "tests/it.rs" || got.Failure.Line != 9 || got.Failure.Message != "boom" {
		t.Errorf("prints: %+v, failure %+v", got, got.Failure)
	}
}

// TestExits: a test that ends its process with exit(3) fails with the
// code nextest's output block gives ("(test failed with exit code 3)"),
// not as one that printed nothing; a #[should_panic] whose panic lacks
// the expected text keeps libtest's note, at the panic.
func TestExits(t *testing.T) {
	out := adapterstest.ReadLines(t, "testdata/exits.stdout", adapters.Stdout)
	errs := adapterstest.ReadLines(t, "testdata/exits.stderr", adapters.Stderr)
	for order, lines := range map[string][]adapterstest.Line{
		"stderr first": append(slices.Clone(errs), out...),
		"stdout first": append(slices.Clone(out), errs...),
	} {
		rec := adapters.NewRecorder()
		o := adapterstest.Replay(newParser(rec, "/fixtures/ntdemo", "/fixtures/ntdemo", nil), lines, report.Exit{Exited: true, Code: 100})
		if f := rec.Failure("ntdemo::integration", "exits_three"); f == nil || f.Message != "the test process exited with code 3" {
			t.Errorf("%s: exits_three: %+v", order, f)
		}
		if f := rec.Failure("ntdemo::integration", "wrong_panic"); f == nil || f.File != "tests/integration.rs" || f.Line != 69 ||
			!strings.HasPrefix(f.Message, "panic did not contain expected string\n") || !strings.Contains(f.Message, `panic message: "underflow"`) ||
			!strings.Contains(f.Message, `expected substring: "overflow"`) {
			t.Errorf("%s: wrong_panic: %+v", order, f)
		}
		if o.Crash != nil {
			t.Errorf("%s: crash %+v, want none", order, o.Crash)
		}
	}
}

// TestRetriedCrashes: under nextest's retries a signal's status line is
// shortened ("TRY 2 SEGV", "TRY 2 ABRT"): the test still died of it and the
// run crashed; a test that segfaulted once and then passed is flaky, with
// the signal as its first failure, and makes no crash.
func TestRetriedCrashes(t *testing.T) {
	out := adapterstest.ReadLines(t, "testdata/retries.stdout", adapters.Stdout)
	errs := adapterstest.ReadLines(t, "testdata/retries.stderr", adapters.Stderr)
	for order, lines := range map[string][]adapterstest.Line{
		"stderr first": append(slices.Clone(errs), out...),
		"stdout first": append(slices.Clone(out), errs...),
		"alternating":  merge(out, errs, 1),
	} {
		rec := adapters.NewRecorder()
		o := adapterstest.Replay(newParser(rec, "/fixtures/ntdemo", "/fixtures/ntdemo", nil), lines, report.Exit{Exited: true, Code: 100})
		for name, want := range map[string]string{
			"segfault":    "the test process died of SIGSEGV (signal 11)\n(failed on all 2 tries: nextest's retries)",
			"aborts":      "the test process died of SIGABRT (signal 6)\n(failed on all 2 tries: nextest's retries)",
			"exits_three": "the test process exited with code 3\n(failed on all 2 tries: nextest's retries)",
		} {
			if f := rec.Failure("ntdemo::integration", name); f == nil || f.Message != want {
				t.Errorf("%s: %s: %+v, want %q", order, name, f, want)
			}
		}
		if c := o.Crash; c == nil || c.SignalName != "SIGABRT" || !slices.Equal(c.RunningTests, []string{"aborts", "segfault"}) ||
			!slices.Equal(c.Died, []string{"died of SIGABRT (signal 6)", "died of SIGSEGV (signal 11)"}) {
			t.Errorf("%s: crash = %+v, want SIGABRT naming aborts, then segfault, each in a process of its own", order, c)
		}
		if want := []adapters.FlakyTest{{Suite: "ntdemo::integration", Name: "segfaults_once", Attempts: 2,
			Message: "the test process died of SIGSEGV (signal 11)"}}; !reflect.DeepEqual(o.Flaky, want) {
			t.Errorf("%s: flaky = %+v, want %+v", order, o.Flaky, want)
		}
		if got, _ := rec.Lookup("ntdemo::integration", "segfaults_once"); got.Status != report.TestPassed {
			t.Errorf("%s: segfaults_once %s, want passed", order, got.Status)
		}
	}
}

// TestExitedEarly: a passing try's output block (--success-output
// immediate) that has libtest's "running 1 test" and not its "test
// result:" line is a test that exited 0 inside it, in either stream order;
// not one that ended as libtest ends it, nor a harness that prints no
// libtest lines, nor a TIMEOUT-PASS (nextest ended it at its time limit,
// as the profile allows). A flaky test whose passing try exited so is
// failed, not flaky.
func TestExitedEarly(t *testing.T) {
	out := []adapterstest.Line{{Stream: adapters.Stdout, Text: `{"type":"suite","event":"started","test_count":5,"nextest":{"crate":"a","test_binary":"it","kind":"test"}}`}}
	var errs []adapterstest.Line
	for _, name := range []string{"ends", "exits", "harness", "timeout", "retried"} {
		attempts := ""
		if name == "retried" {
			attempts = "#2"
		}
		out = append(out, adapterstest.Line{Stream: adapters.Stdout, Text: `{"type":"test","event":"started","name":"a::it$` + name + `"}`},
			adapterstest.Line{Stream: adapters.Stdout, Text: `{"type":"test","event":"ok","name":"a::it$` + name + attempts + `","exec_time":0.01}`})
	}
	block := func(status, name string, lines ...string) {
		errs = append(errs, adapterstest.Line{Stream: adapters.Stderr, Text: status + " [   0.010s] (1/5) a::it " + name},
			adapterstest.Line{Stream: adapters.Stderr, Text: "  output ───"})
		for _, l := range lines {
			if l != "" {
				l = "    " + l
			}
			errs = append(errs, adapterstest.Line{Stream: adapters.Stderr, Text: l})
		}
	}
	block("        PASS", "ends", "", "running 1 test", "test ends ... ok", "", "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 4 filtered out; finished in 0.00s", "", "")
	block("        PASS", "exits", "", "running 1 test", "leaving", "")
	block("        PASS", "harness", "", "checked", "")
	block("TIMEOUT-PASS", "timeout", "", "running 1 test", "")
	block("  TRY 1 FAIL", "retried", "", "running 1 test", "thread 'retried' (7) panicked at tests/it.rs:9:5:", "first", "")
	block("  TRY 2 PASS", "retried", "", "running 1 test", "")
	errs = append(errs, adapterstest.Line{Stream: adapters.Stderr, Text: "────────────"})
	for order, lines := range map[string][]adapterstest.Line{
		"stderr first": append(slices.Clone(errs), out...),
		"stdout first": append(slices.Clone(out), errs...),
	} {
		rec := adapters.NewRecorder()
		o := adapterstest.Replay(newParser(rec, "/p", "/p", nil), lines, report.Exit{Exited: true})
		for name, want := range map[string]report.TestStatus{"ends": report.TestPassed, "exits": report.TestFailed, "harness": report.TestPassed, "timeout": report.TestPassed, "retried": report.TestFailed} {
			if got, _ := rec.Lookup("a::it", name); got.Status != want {
				t.Errorf("%s: %s %s, want %s", order, name, got.Status, want)
			}
		}
		if f := rec.Failure("a::it", "exits"); f == nil || !strings.HasPrefix(f.Message, "the test process exited with code 0 before libtest's end") ||
			!strings.HasSuffix(f.Message, "It printed:\nleaving") || f.Rerun != "cargo nextest run -p a --test it -E 'test(=exits)'" {
			t.Errorf("%s: exits: %+v", order, f)
		}
		if len(o.Flaky) != 0 || !slices.Contains(o.Indicators, "test_exited_early") {
			t.Errorf("%s: flaky %+v, indicators %v: want none flaky, test_exited_early", order, o.Flaky, o.Indicators)
		}
	}
}
