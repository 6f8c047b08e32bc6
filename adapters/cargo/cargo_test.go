package cargo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
)

// replayCargo feeds lines to a fresh cargo parser for a project at root.
func replayCargo(root string, lines []adapterstest.Line, exit report.Exit) adapterstest.Result {
	rec := adapters.NewRecorder()
	out := adapterstest.Replay(newCargoParser(rec, root, root, nil), lines, exit)
	return adapterstest.Normalise(rec, out, nil)
}

// TestCargoCorpus parses libtest JSON recorded by others (stdout only).
func TestCargoCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/corpus/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no corpus files")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		t.Run(name, func(t *testing.T) {
			got := replayCargo("/project", adapterstest.ReadLines(t, f, adapters.Stdout), report.Exit{Exited: true, Code: 101})
			adapterstest.Golden(t, "corpus/"+name, got)
		})
	}
}

// TestCargoRecorded parses real runs of the fixtures (see
// testdata/README.md). The two streams reach the parser through two
// pipes, in no set order between them, so every interleaving must give the
// same result.
func TestCargoRecorded(t *testing.T) {
	for _, tc := range []struct {
		name, fixture string
		code          int
	}{
		{"basic-all", "basic", 101},
		{"basic-nocapture", "basic", 0},
		{"crash-all", "crash", 101},
		{"broken-all", "broken", 101},
		{"empty-all", "empty", 0},
		{"ws-all", "ws", 101},
		{"doctest-all", "doctest", 101},
		{"harness-all", "harness", 101},
		{"wsdoc-all", "wsdoc", 101},
		{"wsex-all", "wsex", 101},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := adapterstest.ReadLines(t, "testdata/"+tc.name+".stdout", adapters.Stdout)
			errs := adapterstest.ReadLines(t, "testdata/"+tc.name+".stderr", adapters.Stderr)
			exit := report.Exit{Exited: true, Code: tc.code}
			root := "/fixtures/" + tc.fixture // as record.sh wrote the paths
			want := replayCargo(root, append(slices.Clone(errs), out...), exit)
			adapterstest.Golden(t, tc.name, want)
			orders := map[string][]adapterstest.Line{
				"stdout first": append(slices.Clone(out), errs...),
				"alternating":  cargoMerge(out, errs, 1),
				"stderr lags":  cargoMerge(out, errs, 7),
			}
			for order, lines := range orders {
				if got := replayCargo(root, lines, exit); !reflect.DeepEqual(got, want) {
					g, _ := json.MarshalIndent(got, "", "  ")
					w, _ := json.MarshalIndent(want, "", "  ")
					t.Errorf("%s: result differs from stderr first:\n%s", order, adapterstest.LineDiff(string(w), string(g)))
				}
			}
		})
	}
}

// cargoMerge interleaves the streams, n stdout lines to one stderr line,
// keeping each stream's own order.
func cargoMerge(out, errs []adapterstest.Line, n int) []adapterstest.Line {
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

// TestCargoCutLine checks a failed event whose line the runner cut (the
// test printed more than the line limit) is still recorded by name.
func TestCargoCutLine(t *testing.T) {
	rec := adapters.NewRecorder()
	p := newCargoParser(rec, "/project", "/project", nil)
	p.Line(adapters.Stderr, []byte("    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.01s"), false)
	p.Line(adapters.Stderr, []byte("     Running unittests src/lib.rs (target/debug/deps/big-0123456789abcdef)"), false)
	p.Line(adapters.Stdout, []byte(`{ "type": "suite", "event": "started", "test_count": 1 }`), false)
	p.Line(adapters.Stdout, []byte(`{ "type": "test", "event": "started", "name": "tests::floods" }`), false)
	p.Line(adapters.Stdout, []byte(`{ "type": "test", "name": "tests::floods", "event": "failed", "exec_time": 3.5, "stdout": "aaaa\naaaaaaaa\"aaa`), true)
	p.Line(adapters.Stdout, []byte(`{ "type": "suite", "event": "failed", "passed": 0, "failed": 1, "ignored": 0, "measured": 0, "filtered_out": 0, "exec_time": 3.6 }`), false)
	p.Finish(report.Exit{Exited: true, Code: 101})
	got, ok := rec.Lookup("big", "tests::floods")
	if !ok {
		t.Fatalf("tests::floods not recorded: %+v", rec.Tests())
	}
	if got.Status != report.TestFailed || got.Failure == nil || !strings.Contains(got.Failure.Message, "too large") {
		t.Errorf("got %+v, want failed with a message about the output's size", got)
	}
	if want := "cargo test -- --exact tests::floods"; got.Failure.Rerun != want {
		t.Errorf("rerun = %q, want %q", got.Failure.Rerun, want)
	}
}

// TestCargoStoppedSaysWhatDidNotRun: when strobe stops cargo test at a
// hung test, the answer says the binary's tests that never started, that
// cargo ran nothing after it, and how to run the rest without what hung;
// a run that ended by itself says nothing of the kind.
func TestCargoStoppedSaysWhatDidNotRun(t *testing.T) {
	for _, stopped := range []string{report.StoppedStuck, ""} {
		rec := adapters.NewRecorder()
		p := newCargoParser(rec, "/project", "/project", []string{"cargo", "test", "--release"})
		p.whole = true
		p.Line(adapters.Stderr, []byte("    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.01s"), false)
		p.Line(adapters.Stderr, []byte("     Running unittests src/lib.rs (target/debug/deps/hang-0123456789abcdef)"), false)
		p.Line(adapters.Stdout, []byte(`{ "type": "suite", "event": "started", "test_count": 5 }`), false)
		p.Line(adapters.Stdout, []byte(`{ "type": "test", "event": "started", "name": "tests::quick" }`), false)
		p.Line(adapters.Stdout, []byte(`{ "type": "test", "name": "tests::quick", "event": "ok" }`), false)
		p.Line(adapters.Stdout, []byte(`{ "type": "test", "event": "started", "name": "tests::hangs" }`), false)
		out := p.Finish(report.Exit{Signaled: true, Signal: 9, StoppedBy: stopped})
		want := "cargo test was stopped at what hung: 3 more tests of hang never started, and any test binary after it and the doctests did not run; " +
			"to run the rest without what hung: cargo test --release --no-fail-fast -- --skip tests::hangs"
		if stopped == "" {
			want = ""
		}
		if !strings.Contains(out.Hint, want) || want == "" && strings.Contains(out.Hint, "was stopped") {
			t.Errorf("stopped by %q: hint %q, want %q", stopped, out.Hint, want)
		}
	}
	// A level's run gives no command for the rest: the rerun prefix lacks
	// the level's target selection, and would run the whole suite.
	rec := adapters.NewRecorder()
	p := newCargoParser(rec, "/project", "/project", []string{"cargo", "test"})
	p.level = adapters.LevelUnit
	p.Line(adapters.Stderr, []byte("    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.01s"), false)
	p.Line(adapters.Stderr, []byte("     Running unittests src/lib.rs (target/debug/deps/hang-0123456789abcdef)"), false)
	p.Line(adapters.Stdout, []byte(`{ "type": "suite", "event": "started", "test_count": 2 }`), false)
	p.Line(adapters.Stdout, []byte(`{ "type": "test", "event": "started", "name": "tests::hangs" }`), false)
	out := p.Finish(report.Exit{Signaled: true, Signal: 9, StoppedBy: report.StoppedStuck})
	if !strings.Contains(out.Hint, "1 more test of hang never started") || strings.Contains(out.Hint, "--skip") {
		t.Errorf("unit level: hint %q, want the count and no command for the rest", out.Hint)
	}
}

// TestCargoCrashSaysWhatNeverStarted: a test binary that exits mid-suite
// (std::process::exit in one test; rust-lang/log with a test added) takes
// the tests libtest had not started with it. Plain cargo test says nothing
// of them; the answer says how many, so that a crash with everything else
// passing is not read as the whole binary run.
func TestCargoCrashSaysWhatNeverStarted(t *testing.T) {
	rec := adapters.NewRecorder()
	p := newCargoParser(rec, "/project", "/project", []string{"cargo", "test"})
	for _, l := range []string{
		"    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.14s",
		"     Running tests/broken.rs (target/debug/deps/broken-67191cf2c5d08b61)",
	} {
		p.Line(adapters.Stderr, []byte(l), false)
	}
	for _, l := range []string{
		`{"reason":"compiler-artifact","package_id":"path+file:///project#log@0.4.33","manifest_path":"/project/Cargo.toml","target":{"kind":["test"],"crate_types":["bin"],"name":"broken","src_path":"/project/tests/broken.rs","edition":"2021","doc":false,"doctest":false,"test":true},"profile":{"opt_level":"0","debuginfo":2,"debug_assertions":true,"overflow_checks":true,"test":true},"features":[],"filenames":["/project/target/debug/deps/broken-67191cf2c5d08b61"],"executable":"/project/target/debug/deps/broken-67191cf2c5d08b61","fresh":false}`,
		`{"reason":"build-finished","success":true}`,
		`{ "type": "suite", "event": "started", "test_count": 3 }`,
		`{ "type": "test", "event": "started", "name": "exits" }`,
		`{ "type": "test", "event": "started", "name": "ok_one" }`,
	} {
		p.Line(adapters.Stdout, []byte(l), false)
	}
	for _, l := range []string{
		"error: test failed, to rerun pass `--test broken`",
		"",
		"Caused by:",
		"  process didn't exit successfully: `/bin/sh -c 'RUSTC_BOOTSTRAP=1 exec \"$@\" -Z unstable-options --format json --report-time' sh /project/target/debug/deps/broken-67191cf2c5d08b61` (exit status: 3)",
		"note: test exited abnormally; to see the full output pass --no-capture to the harness.",
		"error: 1 target failed:",
		"    `--test broken`",
	} {
		p.Line(adapters.Stderr, []byte(l), false)
	}
	out := p.Finish(report.Exit{Exited: true, Code: 101})
	if out.Crash == nil || !slices.Equal(out.Crash.RunningTests, []string{"exits", "ok_one"}) {
		t.Fatalf("crash %+v, want one with exits and ok_one running", out.Crash)
	}
	if want := "1 more test of log::broken (test) never started before its binary died, and is in no count: rerun cargo test -p log --test broken"; out.Hint != want {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
}

// TestCargoCutLineEnd checks that the end of a cut line, which the runner
// also hands over, gives the failure its panic location and message.
func TestCargoCutLineEnd(t *testing.T) {
	rec := adapters.NewRecorder()
	p := newCargoParser(rec, "/project", "/project", nil)
	p.Line(adapters.Stderr, []byte("    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.01s"), false)
	p.Line(adapters.Stderr, []byte("     Running tests/flood.rs (target/debug/deps/flood-0123456789abcdef)"), false)
	p.Line(adapters.Stdout, []byte(`{ "type": "suite", "event": "started", "test_count": 1 }`), false)
	p.Line(adapters.Stdout, []byte(`{ "type": "test", "event": "started", "name": "floods" }`), false)
	head := []byte(`{ "type": "test", "name": "floods", "event": "failed", "exec_time": 3.5, "stdout": "flood flood\nflood`)
	end := []byte(`flood\nflood flood\n\nthread 'floods' (77) panicked at tests/flood.rs:9:5:\nassertion ` + "`left == right`" + ` failed: after the flood\n  left: 2\n right: 3\nnote: run with ` + "`RUST_BACKTRACE=1`" + ` environment variable to display a backtrace\n" }`)
	p.CutLine(adapters.Stdout, head, end)
	p.Finish(report.Exit{Exited: true, Code: 101})
	got, _ := rec.Lookup("flood", "floods")
	f := got.Failure
	if got.Status != report.TestFailed || f == nil || f.File != "tests/flood.rs" || f.Line != 9 || !strings.Contains(f.Message, "after the flood") {
		t.Errorf("got %+v failure %+v, want failed at tests/flood.rs:9 with the assertion", got, f)
	}
}

// TestCargoStderrOutput checks a line a lone running test printed on
// stderr (under --nocapture) is its output, and cargo's lines are not.
func TestCargoStderrOutput(t *testing.T) {
	rec := adapters.NewRecorder()
	p := newCargoParser(rec, "/project", "/project", nil)
	for _, l := range []adapterstest.Line{
		{Stream: adapters.Stderr, Text: "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.01s"},
		{Stream: adapters.Stderr, Text: "     Running tests/it.rs (target/debug/deps/it-0123456789abcdef)"},
		{Stream: adapters.Stdout, Text: `{ "type": "suite", "event": "started", "test_count": 1 }`},
		{Stream: adapters.Stdout, Text: `{ "type": "test", "event": "started", "name": "talks" }`},
		{Stream: adapters.Stderr, Text: "to stderr"},
		{Stream: adapters.Stdout, Text: `partial{ "type": "test", "name": "talks", "event": "ok", "exec_time": 0.1 }`},
		{Stream: adapters.Stdout, Text: `{ "type": "suite", "event": "ok", "passed": 1, "failed": 0, "ignored": 0, "measured": 0, "filtered_out": 0, "exec_time": 0.1 }`},
		{Stream: adapters.Stderr, Text: "error: 1 target failed:"},
		{Stream: adapters.Stderr, Text: "    `--test it`"},
	} {
		p.Line(l.Stream, []byte(l.Text), false)
	}
	p.Finish(report.Exit{Exited: true})
	got, _ := rec.Lookup("it", "talks")
	if got.Status != report.TestPassed || got.Output != "to stderr\npartial\n" {
		t.Errorf("got %+v, want passed with output %q", got, "to stderr\npartial\n")
	}
}

// TestCargoQuiet checks a run without cargo's "Running" lines (term.quiet
// in a cargo config) still records its tests, under numbered suites, and
// still reports a binary's crash.
func TestCargoQuiet(t *testing.T) {
	rec := adapters.NewRecorder()
	p := newCargoParser(rec, "/project", "/project", nil)
	for _, l := range []adapterstest.Line{
		{Stream: adapters.Stdout, Text: `{"reason":"build-finished","success":true}`},
		{Stream: adapters.Stdout, Text: `{ "type": "suite", "event": "started", "test_count": 1 }`},
		{Stream: adapters.Stdout, Text: `{ "type": "test", "event": "started", "name": "crashes" }`},
		{Stream: adapters.Stderr, Text: "error: test failed, to rerun pass `--lib`"},
		{Stream: adapters.Stderr, Text: "  process didn't exit successfully: `env RUSTC_BOOTSTRAP=1 /project/target/debug/deps/q-0123456789abcdef` (signal: 11, SIGSEGV: invalid memory reference)"},
	} {
		p.Line(l.Stream, []byte(l.Text), false)
	}
	out := p.Finish(report.Exit{Exited: true, Code: 101})
	if got := cargoNames(rec); got != "test binary 1 › crashes (running)" {
		t.Errorf("recorded %s, want crashes running in test binary 1", got)
	}
	if c := out.Crash; c == nil || c.Type != report.CrashSegmentationFault {
		t.Errorf("crash %+v, want a segmentation fault", c)
	}
}

func TestCargoPackageID(t *testing.T) {
	for id, want := range map[string][2]string{
		"path+file:///work/ws/basic#0.1.0":                                    {"basic", "0.1.0"},
		"path+file:///work/ws/dir#other-name@0.1.0":                           {"other-name", "0.1.0"},
		"registry+https://github.com/rust-lang/crates.io-index#anyhow@1.0.98": {"anyhow", "1.0.98"},
		"git+https://github.com/a/repo?branch=main#0.2.0":                     {"repo", "0.2.0"},
		"basic 0.1.0 (path+file:///work/ws/basic)":                            {"basic", "0.1.0"},
	} {
		if name, version := cargoPackageID(id); name != want[0] || version != want[1] {
			t.Errorf("cargoPackageID(%q) = %q, %q; want %q, %q", id, name, version, want[0], want[1])
		}
	}
}

// TestCargoAmbiguousPackage runs a package whose dev-dependencies depend on
// another version of it (dtolnay/itoa's case): `-p dup` is ambiguous there,
// so the reruns name the version, and each runs its test.
func TestCargoAmbiguousPackage(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := testutil.Fixture("cargo", "dupname")
	rec, _, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir})
	for _, tc := range []struct{ suite, name, rerun, ran string }{
		{"dup (lib)", "tests::doubles_wrong", "cargo test -p dup@0.2.0 --lib -- --exact tests::doubles_wrong", "test tests::doubles_wrong ... FAILED"},
		{"dup (doc)", "src/lib.rs - double (line 3)", "cargo test -p dup@0.2.0 --doc -- double", "test src/lib.rs - double (line 3) ... FAILED"},
	} {
		f := cargoLookup(t, rec, tc.suite, tc.name).Failure
		if f == nil || f.Rerun != tc.rerun {
			t.Errorf("%s: failure %+v, want rerun %q", tc.name, f, tc.rerun)
			continue
		}
		cmd := exec.Command("/bin/sh", "-c", f.Rerun)
		cmd.Dir = dir
		if b, _ := cmd.CombinedOutput(); !bytes.Contains(b, []byte(tc.ran)) {
			t.Errorf("%s: the rerun command ran:\n%s", tc.name, b)
		}
	}
}

func TestCargoDetect(t *testing.T) {
	crate := testutil.Fixture("cargo", "basic")
	// A Python package whose extension is the crate (maturin, as rpds-py):
	// below pytest's test files (60), which cargo's 90 beat to run 0 tests.
	ext := t.TempDir()
	adapterstest.WriteFiles(t, ext, map[string]string{
		"Cargo.toml":     "[package]\nname = \"ext\"\n",
		"pyproject.toml": "[build-system]\nrequires = [\"maturin>=1.0,<2.0\"]\nbuild-backend = \"maturin\"\n",
	})
	for _, tc := range []struct {
		name     string
		req      adapters.Request
		want     int
		wantHint string
	}{
		{"crate", adapters.Request{ProjectRoot: crate}, 90, "Cargo.toml found"},
		{"workspace", adapters.Request{ProjectRoot: testutil.Fixture("cargo", "ws")}, 90, "[workspace]"},
		{"maturin extension", adapters.Request{ProjectRoot: ext}, 50, "(maturin)"},
		{"command", adapters.Request{ProjectRoot: t.TempDir(), Command: []string{"/usr/bin/cargo", "+stable", "test", "--release"}}, 95, "cargo test"},
		{"other command", adapters.Request{ProjectRoot: crate, Command: []string{"cargo", "nextest", "run"}}, 0, ""},
		{"nothing", adapters.Request{ProjectRoot: t.TempDir()}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := cargo{}.Detect(tc.req)
			if d.Confidence != tc.want || !strings.Contains(d.Hint, tc.wantHint) || tc.wantHint == "" && d.Hint != "" {
				t.Errorf("Detect = %+v, want confidence %d and hint with %q", d, tc.want, tc.wantHint)
			}
		})
	}
}

func TestCargoPlan(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	basic, ws, crash := testutil.Fixture("cargo", "basic"), testutil.Fixture("cargo", "ws"), testutil.Fixture("cargo", "crash")
	harness := testutil.Fixture("cargo", "harness")
	binOnly := t.TempDir()
	if err := os.WriteFile(filepath.Join(binOnly, "Cargo.toml"), []byte("[package]\nname = \"tool\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(binOnly, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(binOnly, "src", "main.rs"), []byte("fn main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runner := "target.'cfg(all())'.runner=['/bin/sh','-c','RUSTC_BOOTSTRAP=1 exec \"$@\" -Z unstable-options --format json --report-time','sh']"
	// Where cargo's own selection runs the doctests, rustdoc's binary gets
	// the variable that runs edition 2024's merged doctests apart.
	whole := "target.'cfg(all())'.runner=['/bin/sh','-c','case ${1##*/} in rust_out) export RUSTDOC_DOCTEST_BIN_PATH=\"$1\";; esac; RUSTC_BOOTSTRAP=1 exec \"$@\" -Z unstable-options --format json --report-time','sh']"
	// The binaries with their own main run as they are, between markers.
	customCase := "custom-????????????????|mimic-????????????????|quiet_args-????????????????) " + customScript + ";;"
	customs := "target.'cfg(all())'.runner=['/bin/sh','-c','case ${1##*/} in " + customCase +
		" esac; RUSTC_BOOTSTRAP=1 exec \"$@\" -Z unstable-options --format json --report-time','sh']"
	wholeCustoms := "target.'cfg(all())'.runner=['/bin/sh','-c','case ${1##*/} in rust_out) export RUSTDOC_DOCTEST_BIN_PATH=\"$1\";; " + customCase +
		" esac; RUSTC_BOOTSTRAP=1 exec \"$@\" -Z unstable-options --format json --report-time','sh']"
	doc := "cargo test --no-fail-fast --message-format=json --doc"
	cmd := func(words ...string) []string {
		argv := append([]string{"cargo", "test", "--no-fail-fast", "--message-format=json"}, words...)
		if i := slices.Index(argv, "--"); i >= 0 {
			return slices.Insert(argv, i, "--config", runner)
		}
		return append(argv, "--config", runner)
	}
	all := []string{"cargo", "test", "--no-fail-fast", "--message-format=json", "--config", whole}
	for _, tc := range []struct {
		name string
		req  adapters.Request
		want []string // nil: a usage error
	}{
		// The whole suite is cargo's own selection: examples built,
		// doctests run.
		{"all", adapters.Request{ProjectRoot: basic}, all},
		{"all without a library", adapters.Request{ProjectRoot: binOnly}, all},
		{"workspace", adapters.Request{ProjectRoot: ws}, all},
		{"custom harnesses", adapters.Request{ProjectRoot: harness}, []string{"cargo", "test", "--no-fail-fast", "--message-format=json", "--config", wholeCustoms}},
		{"doc", adapters.Request{ProjectRoot: basic, Level: adapters.LevelDoc}, strings.Fields(doc)},
		{"doc without a library", adapters.Request{ProjectRoot: binOnly, Level: adapters.LevelDoc}, nil},
		{"one doctest", adapters.Request{ProjectRoot: basic, Test: "src/lib.rs - add (line 3)"}, append(strings.Fields(doc), "--", "add")},
		{"unit", adapters.Request{ProjectRoot: basic, Level: adapters.LevelUnit}, cmd("--lib", "--bins")},
		{"integration", adapters.Request{ProjectRoot: basic, Level: adapters.LevelIntegration}, cmd("--test", "integration")},
		{"e2e", adapters.Request{ProjectRoot: basic, Level: adapters.LevelE2E}, cmd("--test", "e2e_flow")},
		{"no e2e", adapters.Request{ProjectRoot: crash, Level: adapters.LevelE2E}, nil},
		// tests/visualizer.rs says test = false: cargo test never runs it.
		{"integration without test = false", adapters.Request{ProjectRoot: harness, Level: adapters.LevelIntegration},
			[]string{"cargo", "test", "--no-fail-fast", "--message-format=json", "--test", "custom", "--test", "it", "--test", "mimic", "--test", "quiet-args", "--config", customs}},
		{"workspace unit", adapters.Request{ProjectRoot: ws, Level: adapters.LevelUnit}, cmd("--lib")},
		{"workspace integration", adapters.Request{ProjectRoot: ws, Level: adapters.LevelIntegration}, cmd("--test", "integration")},
		// In a member's directory, cargo tests that member alone.
		{"member integration", adapters.Request{ProjectRoot: filepath.Join(ws, "beta"), Level: adapters.LevelIntegration}, cmd("--test", "integration")},
		{"member without integration tests", adapters.Request{ProjectRoot: filepath.Join(ws, "alpha"), Level: adapters.LevelIntegration}, nil},
		{"one test", adapters.Request{ProjectRoot: basic, Test: "tests::adds"}, cmd("--tests", "--", "--exact", "tests::adds")},
		{"command", adapters.Request{ProjectRoot: basic, Command: []string{"cargo", "test", "-q", "--release", "--message-format", "short", "--", "--nocapture", "--format=pretty"}},
			[]string{"cargo", "test", "--release", "--no-fail-fast", "--message-format=json", "--config", whole, "--", "--nocapture"}},
		{"command with targets", adapters.Request{ProjectRoot: basic, Command: []string{"cargo", "+stable", "test", "--test", "integration"}},
			[]string{"cargo", "+stable", "test", "--test", "integration", "--no-fail-fast", "--message-format=json", "--config", runner}},
		{"command with targets and level", adapters.Request{ProjectRoot: basic, Level: adapters.LevelUnit, Command: []string{"cargo", "test", "--lib"}}, nil},
		{"doctests", adapters.Request{ProjectRoot: basic, Command: []string{"cargo", "test", "--doc", "--", "--test-threads=1"}},
			[]string{"cargo", "test", "--no-fail-fast", "--message-format=json", "--doc", "--", "--test-threads=1"}},
		{"doctests and level", adapters.Request{ProjectRoot: basic, Level: adapters.LevelDoc, Command: []string{"cargo", "test", "--doc"}}, nil},
		{"not cargo test", adapters.Request{ProjectRoot: basic, Command: []string{"cargo", "build"}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan, err := cargo{}.Plan(context.Background(), tc.req, adapters.NewRecorder())
			if tc.want == nil {
				if !adapters.IsUsage(err) {
					t.Fatalf("Plan = %v, %v; want a usage error", plan, err)
				}
				t.Log(err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := slices.Clone(plan.Argv)
			// Shown without strobe's runner and JSON; the toolchain's cargo
			// run where rustup's proxy is bypassed (TestCargoDirectEnv) is
			// shown as cargo.
			var shown []string
			for i := 0; i < len(tc.want); i++ {
				if tc.want[i] == "--config" && strings.HasPrefix(tc.want[i+1], "target.") {
					i++
				} else if tc.want[i] != "--message-format=json" {
					shown = append(shown, tc.want[i])
				}
			}
			if plan.Shown != shell.Join(shown) || filepath.Base(got[0]) != "cargo" {
				t.Errorf("Plan runs %s, shows %s; want it to show %s", got[0], plan.Shown, shell.Join(shown))
			}
			got[0] = "cargo"
			if !slices.Equal(got, tc.want) || plan.Dir != tc.req.ProjectRoot {
				t.Errorf("Plan in %s:\n got %q\nwant %q", plan.Dir, plan.Argv, tc.want)
			}
		})
	}
}

// cargoBinLast is path with the directory of the cargo on it moved to
// its end, where rustup's proxy would not add it again.
func cargoBinLast(t *testing.T, path string) string {
	cargo, err := shell.LookPath("cargo", []string{"PATH=" + path})
	if err != nil {
		t.Fatal(err)
	}
	dirs := slices.DeleteFunc(filepath.SplitList(path), func(d string) bool { return d == filepath.Dir(cargo) })
	return strings.Join(append(dirs, filepath.Dir(cargo)), string(os.PathListSeparator))
}

// TestCargoDirectEnv runs a cargo subcommand that writes its environment
// through rustup's proxy and through the toolchain's cargo as strobe runs
// it, and compares the two: build scripts, rustc and the tests see what
// they see under a plain cargo test, so nothing is built twice when the
// user switches between the two. It needs rustup (CI's machines have
// Rust by rustup); under a rustup other than 1.29 it checks that the
// proxy runs.
func TestCargoDirectEnv(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	rustup := testutil.RequireTool(t, "rustup")
	version, err := exec.Command(rustup, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(version, []byte("rustup 1.29.")) {
		// A rustup whose proxy strobe has not checked: the proxy runs.
		if cargo, _ := kit.CargoDirect(t.Context(), t.TempDir(), nil); cargo != "" {
			t.Fatalf("%s: strobe runs %s past a proxy it has not checked", bytes.TrimSpace(version), cargo)
		}
		t.Logf("%s: the proxy runs (strobe knows rustup 1.29's)", bytes.TrimSpace(version))
		return
	}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "cargo-strobe-env"), []byte("#!/bin/sh\nenv > \"$2\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir, out := t.TempDir(), t.TempDir()
	base := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	base = slices.DeleteFunc(base, func(kv string) bool {
		return strings.HasPrefix(kv, "RUSTUP_TOOLCHAIN=") || strings.HasPrefix(kv, "CARGO=")
	})
	envOf := func(t *testing.T, cargo string, env []string, file string) map[string]string {
		t.Helper()
		cmd := exec.Command(cargo, "strobe-env", file)
		cmd.Dir, cmd.Env = dir, env
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s strobe-env: %v\n%s", cargo, err, b)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			k, v, _ := strings.Cut(line, "=")
			m[k] = v
		}
		return m
	}
	for _, c := range []struct {
		name string
		env  []string
	}{
		{"as it is", nil},
		{"a loader path", []string{"LD_LIBRARY_PATH=/opt/strobe-test/lib"}},
		{"nested", []string{"RUST_RECURSION_COUNT=2"}},
		{"cargo's bin last on PATH", []string{"PATH=" + cargoBinLast(t, kit.EnvValue(base, "PATH"))}},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := append(slices.Clone(base), c.env...)
			proxy, err := exec.LookPath("cargo")
			if err != nil {
				t.Fatal(err)
			}
			cargo, add := kit.CargoDirect(t.Context(), dir, env)
			if cargo == "" {
				t.Fatalf("strobe keeps rustup's proxy (%s): is a toolchain chosen by more than rustup's default here?", proxy)
			}
			viaProxy := envOf(t, proxy, env, filepath.Join(out, "proxy"))
			direct := envOf(t, cargo, append(slices.Clone(env), add...), filepath.Join(out, "direct"))
			for k, v := range viaProxy {
				if direct[k] != v {
					t.Errorf("%s: through the proxy %q, run directly %q", k, v, direct[k])
				}
			}
			for k, v := range direct {
				if _, ok := viaProxy[k]; !ok {
					t.Errorf("%s=%q run directly, not set through the proxy", k, v)
				}
			}
		})
	}

	plan, err := cargo{}.Plan(context.Background(), adapters.Request{ProjectRoot: testutil.Fixture("cargo", "basic"), Env: base}, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(plan.Shown, "cargo test ") || plan.Argv[0] == "cargo" || len(plan.Env) == 0 {
		t.Errorf("plan runs %s with %q, shows %q; want the toolchain's cargo, shown as cargo", plan.Argv[0], plan.Env, plan.Shown)
	}
}

// cargoWithEnv runs an adapter's plans with more environment, so that tests
// can set RUST_BACKTRACE and still run in parallel.
type cargoWithEnv struct {
	adapters.Adapter
	env []string
}

func (a cargoWithEnv) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	p, err := a.Adapter.Plan(ctx, req, rec)
	if p != nil {
		p.Env = append(p.Env, a.env...)
	}
	return p, err
}

func cargoLookup(t *testing.T, rec *adapters.Recorder, suite, name string) report.Test {
	t.Helper()
	got, ok := rec.Lookup(suite, name)
	if !ok {
		t.Fatalf("%s in %s not recorded; recorded: %s", name, suite, cargoNames(rec))
	}
	return got
}

func cargoNames(rec *adapters.Recorder) string {
	var out []string
	for _, t := range rec.Tests() {
		out = append(out, t.Suite+" › "+t.Name+" ("+string(t.Status)+")")
	}
	return strings.Join(out, ", ")
}

func cargoWantFailure(t *testing.T, got report.Test, file string, line int, msg, rerun string) {
	t.Helper()
	f := got.Failure
	if got.Status != report.TestFailed || f == nil {
		t.Fatalf("%s: got %+v, want failed", got.Name, got)
	}
	if f.File != file || f.Line != line || f.Message != msg || f.Rerun != rerun {
		t.Errorf("%s failure:\n got %s:%d %q rerun %q\nwant %s:%d %q rerun %q", got.Name, f.File, f.Line, f.Message, f.Rerun, file, line, msg, rerun)
	}
}

func TestCargoBasic(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := testutil.Fixture("cargo", "basic")
	a := cargoWithEnv{cargo{}, []string{"RUST_BACKTRACE=1"}}

	t.Run("all", func(t *testing.T) {
		rec, out, exit := adapterstest.RunReal(t, a, adapters.Request{ProjectRoot: dir})
		if exit.Code != 101 || !reflect.DeepEqual(out, adapters.Outcome{}) {
			t.Errorf("exit %+v, outcome %+v; want 101 and nothing more", exit, out)
		}
		if got := len(rec.Tests()); got != 10 {
			t.Errorf("%d tests, want 10: %s", got, cargoNames(rec))
		}
		lib := "basic (lib)"
		if got := cargoLookup(t, rec, lib, "tests::adds"); got.Status != report.TestPassed {
			t.Errorf("tests::adds: %s, want passed", got.Status)
		}
		wrong := cargoLookup(t, rec, lib, "tests::add_is_wrong")
		cargoWantFailure(t, wrong, "src/lib.rs", 31, "assertion `left == right` failed\n  left: 2\n right: 3",
			"cargo test -p basic --lib -- --exact tests::add_is_wrong")
		if !strings.HasPrefix(wrong.Output, "about to compare\n") {
			t.Errorf("tests::add_is_wrong output %q, want what it printed first", wrong.Output)
		}
		div := cargoLookup(t, rec, lib, "tests::divides_by_zero")
		cargoWantFailure(t, div, "src/lib.rs", 14, "division by zero: 1 / 0", "cargo test -p basic --lib -- --exact tests::divides_by_zero")
		if !slices.Equal(div.Failure.SuggestedTraces, []string{"basic::checked_div"}) {
			t.Errorf("suggested traces %q, want basic::checked_div", div.Failure.SuggestedTraces)
		}
		if got := cargoLookup(t, rec, lib, "tests::slow"); got.Status != report.TestSkipped {
			t.Errorf("tests::slow: %s, want skipped", got.Status)
		}
		// No panic: what the test printed last (a test that returned Err,
		// at its declaration), or libtest's note.
		cargoWantFailure(t, cargoLookup(t, rec, lib, "tests::parses"), "src/lib.rs", 44, "Error: ParseIntError { kind: InvalidDigit }\n"+kit.RustErrNote,
			"cargo test -p basic --lib -- --exact tests::parses")
		cargoWantFailure(t, cargoLookup(t, rec, lib, "tests::divides_without_panic"), "src/lib.rs", 52, "test did not panic as expected at src/lib.rs:52:8\n#[should_panic(expected = \"division by zero\")]",
			"cargo test -p basic --lib -- --exact tests::divides_without_panic")
		for _, st := range [][2]string{
			{"basic::basic (bin)", "tests::main_adds"},
			{"basic::integration (test)", "adds_through_the_api"},
			{"basic::integration (test)", "prints"},
			{"basic::e2e_flow (test)", "whole_flow"},
		} {
			if got := cargoLookup(t, rec, st[0], st[1]); got.Status != report.TestPassed {
				t.Errorf("%s › %s: %s, want passed", st[0], st[1], got.Status)
			}
		}

		// The point of the runner trick: the user's next plain cargo test
		// builds nothing.
		cmd := exec.Command("cargo", "test", "--no-run")
		cmd.Dir = dir
		b, err := cmd.CombinedOutput()
		if err != nil || bytes.Contains(b, []byte("Compiling")) {
			t.Errorf("plain cargo test after strobe's run rebuilt or failed (%v):\n%s", err, b)
		}
	})

	for _, tc := range []struct {
		level  adapters.Level
		suites []string
	}{
		{adapters.LevelUnit, []string{"basic (lib)", "basic::basic (bin)"}},
		{adapters.LevelIntegration, []string{"basic::integration (test)"}},
		{adapters.LevelE2E, []string{"basic::e2e_flow (test)"}},
	} {
		t.Run(string(tc.level), func(t *testing.T) {
			rec, _, _ := adapterstest.RunReal(t, a, adapters.Request{ProjectRoot: dir, Level: tc.level})
			var suites []string
			for _, test := range rec.Tests() {
				if !slices.Contains(suites, test.Suite) {
					suites = append(suites, test.Suite)
				}
			}
			if !slices.Equal(suites, tc.suites) {
				t.Errorf("suites %q, want %q", suites, tc.suites)
			}
		})
	}

	t.Run("one test", func(t *testing.T) {
		rec, out, exit := adapterstest.RunReal(t, a, adapters.Request{ProjectRoot: dir, Test: "tests::adds"})
		tests := rec.Tests()
		if len(tests) != 1 || tests[0].Name != "tests::adds" || tests[0].Status != report.TestPassed || exit.Code != 0 || out.NoTests {
			t.Errorf("got %s, exit %d, no_tests %v; want tests::adds alone, passed", cargoNames(rec), exit.Code, out.NoTests)
		}
	})

	t.Run("no such test", func(t *testing.T) {
		_, out, _ := adapterstest.RunReal(t, a, adapters.Request{ProjectRoot: dir, Test: "adds"})
		if !out.NoTests || !strings.Contains(out.Hint, "tests::") {
			t.Errorf("outcome %+v, want no tests with a hint about full names", out)
		}
	})

	t.Run("command", func(t *testing.T) {
		// One test thread, so the output that --nocapture lets through
		// belongs to the one test running.
		cmd := []string{"cargo", "test", "--test", "integration", "--", "--nocapture", "--test-threads=1"}
		rec, _, exit := adapterstest.RunReal(t, a, adapters.Request{ProjectRoot: dir, Command: cmd})
		got := cargoLookup(t, rec, "basic::integration (test)", "prints")
		if exit.Code != 0 || got.Output != "line one from prints\nline two from prints\n" {
			t.Errorf("exit %d, prints' output %q; want 0 and its two lines", exit.Code, got.Output)
		}
	})
}

func TestCargoCrash(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := testutil.Fixture("cargo", "crash")

	t.Run("all", func(t *testing.T) {
		rec, out, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir})
		c := out.Crash
		// Cargo runs the test targets by name: abort comes first and names
		// the crash; the others add their tests and lines.
		running := []string{"aborts", "exits_quietly", "exits_with_3", "writes_through_null"}
		if c == nil || c.Type != report.CrashAbort || c.Signal != 6 || c.SignalName != "SIGABRT" || c.ExitCode != 101 ||
			!slices.Equal(c.RunningTests, running) || strings.Count(c.Message, "\n") != 3 {
			t.Errorf("crash %+v, want abort with all four tests running", c)
		}
		if strings.Contains(c.Message, "/bin/sh") {
			t.Errorf("crash message %q names strobe's runner script, not the test binary alone", c.Message)
		}
		// Each test its binary was running when it died failed, as under go
		// test, with what ended it and its rerun.
		for _, st := range [][3]string{
			{"crash::abort (test)", "aborts", "did not finish: the test binary died of SIGABRT while it ran"},
			{"crash::segv (test)", "writes_through_null", "did not finish: the test binary died of SIGSEGV while it ran"},
			{"crash::exit_status (test)", "exits_with_3", "did not finish: the test binary exited while it ran (std::process::exit"},
			{"crash::exit_quietly (test)", "exits_quietly", "did not finish: the test binary exited while it ran (std::process::exit"},
		} {
			got := cargoLookup(t, rec, st[0], st[1])
			if got.Status != report.TestFailed || got.Failure == nil || !strings.HasPrefix(got.Failure.Message, st[2]) ||
				!strings.HasSuffix(got.Failure.Rerun, "-- --exact "+st[1]) {
				t.Errorf("%s: %s %+v, want failed: %q… with its rerun", st[1], got.Status, got.Failure, st[2])
			}
		}
	})

	for _, tc := range []struct {
		test     string
		want     report.Crash // without the message
		exitCode int          // cargo's
		message  string       // the end of the crash's message
	}{
		{"writes_through_null", report.Crash{Type: report.CrashSegmentationFault, Signal: 11, SignalName: "SIGSEGV", ExitCode: 101,
			Indicators: []string{"test_binary_signaled"}, RunningTests: []string{"writes_through_null"}},
			101, "(signal: 11, SIGSEGV: invalid memory reference)"},
		{"exits_with_3", report.Crash{Type: report.CrashUnknown, ExitCode: 101,
			Indicators: []string{"test_binary_exited"}, RunningTests: []string{"exits_with_3"}},
			101, "(exit status: 3)"},
		// Not silent: the test it ran is named (and failed).
		{"exits_quietly", report.Crash{Type: report.CrashUnknown,
			Indicators: []string{"test_binary_exited_early"}, RunningTests: []string{"exits_quietly"}},
			0, "ended before its tests finished, and cargo saw no error"},
	} {
		t.Run(tc.test, func(t *testing.T) {
			_, out, exit := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir, Test: tc.test})
			c := out.Crash
			if c == nil || !strings.HasSuffix(c.Message, tc.message) || exit.Code != tc.exitCode {
				t.Fatalf("crash %+v, cargo exit %d; want a message ending %q and exit %d", c, exit.Code, tc.message, tc.exitCode)
			}
			c.Message = ""
			if !reflect.DeepEqual(*c, tc.want) {
				t.Errorf("crash %+v, want %+v", *c, tc.want)
			}
		})
	}
}

func TestCargoBroken(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	rec, out, exit := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: testutil.Fixture("cargo", "broken")})
	want := []report.BuildError{{File: "src/lib.rs", Line: 6, Column: 18, Message: "mismatched types: expected `i32`, found `&str`"}}
	if !out.BuildFailed || !reflect.DeepEqual(out.BuildErrors, want) || len(rec.Tests()) != 0 || exit.Code != 101 {
		t.Errorf("outcome %+v, exit %d, tests %s; want build failed with %+v", out, exit.Code, cargoNames(rec), want)
	}
}

// TestCargoBrokenInMacro: an error inside std's assert_eq! is placed at
// the call in the project, as cargo shows it, not at the macro's
// definition in core's source (/rustc/HASH/library/core/src/macros/mod.rs).
func TestCargoBrokenInMacro(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	_, out, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: testutil.Fixture("cargo", "macroerr")})
	if !out.BuildFailed || len(out.BuildErrors) != 1 {
		t.Fatalf("outcome %+v, want one build error", out)
	}
	if e := out.BuildErrors[0]; e.File != "src/lib.rs" || e.Line != 12 || e.Column != 9 || !strings.HasPrefix(e.Message, "can't compare `String` with `{integer}`") {
		t.Errorf("build error %+v, want src/lib.rs:12:9, can't compare", e)
	}
}

func TestCargoEmpty(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	_, out, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: testutil.Fixture("cargo", "empty")})
	want := &report.Project{Language: "rust", BuildSystem: "cargo", TestFiles: []string{"tests/smoke.rs"}}
	if !out.NoTests || !reflect.DeepEqual(out.Project, want) || !strings.Contains(out.Hint, "#[test]") {
		t.Errorf("outcome %+v, want no tests in %+v with a hint", out, want)
	}
}

func TestCargoWorkspace(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	ws := testutil.Fixture("cargo", "ws")

	t.Run("root", func(t *testing.T) {
		rec, _, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: ws})
		cargoWantFailure(t, cargoLookup(t, rec, "alpha (lib)", "tests::doubles_wrong"), "alpha/src/lib.rs", 14,
			"assertion `left == right` failed: three doubled\n  left: 6\n right: 5", "cargo test -p alpha --lib -- --exact tests::doubles_wrong")
		cargoWantFailure(t, cargoLookup(t, rec, "beta::integration (test)", "quadruples_wrong"), "beta/tests/integration.rs", 8,
			"assertion `left == right` failed\n  left: 8\n right: 9", "cargo test -p beta --test integration -- --exact quadruples_wrong")
		if got := len(rec.Tests()); got != 4 {
			t.Errorf("%d tests, want 4: %s", got, cargoNames(rec))
		}
	})

	t.Run("member", func(t *testing.T) {
		// In a member's directory cargo tests that member only, and paths
		// are the member's.
		rec, _, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: filepath.Join(ws, "beta"), Level: adapters.LevelIntegration})
		cargoWantFailure(t, cargoLookup(t, rec, "beta::integration (test)", "quadruples_wrong"), "tests/integration.rs", 8,
			"assertion `left == right` failed\n  left: 8\n right: 9", "cargo test -p beta --test integration -- --exact quadruples_wrong")
		if got := len(rec.Tests()); got != 2 {
			t.Errorf("%d tests, want 2: %s", got, cargoNames(rec))
		}
	})
}

// TestCargoBadManifest checks cargo's own errors (no rustc involved) are
// reported as what kept the tests from building, with where they are.
func TestCargoBadManifest(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Cargo.toml"), []byte("[package]\nname = \"bad\"\nversion = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir})
	if !out.BuildFailed || len(out.BuildErrors) != 1 {
		t.Fatalf("outcome %+v, want the manifest error", out)
	}
	if e := out.BuildErrors[0]; e.File != "Cargo.toml" || e.Line != 3 || !strings.Contains(e.Message, "SemVer version") {
		t.Errorf("build error %+v, want Cargo.toml:3 with cargo's message", e)
	}
}

// TestCargoDoctest runs a crate whose unit test passes and whose only
// failures are doctests: one whose assertion fails, one that does not
// compile and one that panics in the library, beside one that passes.
// cargo test --tests passes there; the whole suite must not.
func TestCargoDoctest(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := testutil.Fixture("cargo", "doctest")
	a := cargoWithEnv{cargo{}, []string{"RUST_BACKTRACE=1"}}
	const suite = "doctest (doc)"
	vat := "src/lib.rs - with_vat (line 8)"

	t.Run("all", func(t *testing.T) {
		rec, out, exit := adapterstest.RunReal(t, a, adapters.Request{ProjectRoot: dir})
		if exit.Code != 101 || !reflect.DeepEqual(out, adapters.Outcome{}) {
			t.Errorf("exit %+v, outcome %+v; want 101 and nothing more", exit, out)
		}
		if got := cargoLookup(t, rec, "doctest (lib)", "tests::doubles"); got.Status != report.TestPassed {
			t.Errorf("tests::doubles: %s, want passed", got.Status)
		}
		if got := cargoLookup(t, rec, suite, "src/lib.rs - double (line 39)"); got.Status != report.TestPassed {
			t.Errorf("the passing doctest: %s, want passed", got.Status)
		}
		cargoWantFailure(t, cargoLookup(t, rec, suite, vat), "src/lib.rs", 8,
			"assertion `left == right` failed\n  left: 120\n right: 121",
			"cargo test -p doctest --doc -- with_vat")
		half := cargoLookup(t, rec, suite, "src/lib.rs - half (line 17)")
		if f := half.Failure; f == nil || f.File != "src/lib.rs" || f.Line != 19 || !strings.HasPrefix(f.Message, "error[E0308]: mismatched types") {
			t.Errorf("the doctest that does not compile: %+v, want failed at src/lib.rs:19 with rustc's error", f)
		}
		split := cargoLookup(t, rec, suite, "src/lib.rs - split (line 26)")
		cargoWantFailure(t, split, "src/lib.rs", 26, "panicked at src/lib.rs:32: cannot split 10 between nobody",
			"cargo test -p doctest --doc -- split")
		if got := len(rec.Tests()); got != 5 {
			t.Errorf("%d tests, want 5: %s", got, cargoNames(rec))
		}

		// Neither step gave cargo or rustdoc RUSTC_BOOTSTRAP: a plain
		// cargo test afterwards builds nothing.
		cmd := exec.Command("cargo", "test", "--no-run")
		cmd.Dir = dir
		b, err := cmd.CombinedOutput()
		if err != nil || bytes.Contains(b, []byte("Compiling")) {
			t.Errorf("plain cargo test after strobe's run rebuilt or failed (%v):\n%s", err, b)
		}
	})

	t.Run("doc level", func(t *testing.T) {
		rec, _, exit := adapterstest.RunReal(t, a, adapters.Request{ProjectRoot: dir, Level: adapters.LevelDoc})
		var suites []string
		for _, test := range rec.Tests() {
			suites = append(suites, test.Suite)
		}
		if exit.Code != 101 || len(suites) != 4 || slices.ContainsFunc(suites, func(s string) bool { return s != suite }) {
			t.Errorf("exit %d, tests %s; want the four doctests alone", exit.Code, cargoNames(rec))
		}
	})

	t.Run("one doctest", func(t *testing.T) {
		rec, _, _ := adapterstest.RunReal(t, a, adapters.Request{ProjectRoot: dir, Test: vat})
		if tests := rec.Tests(); len(tests) != 1 || tests[0].Name != vat || tests[0].Status != report.TestFailed {
			t.Errorf("got %s, want %s alone, failed", cargoNames(rec), vat)
		}
	})

	t.Run("rerun pastes", func(t *testing.T) {
		// The rerun command, as a shell runs it, runs that doctest alone
		// (a filter with spaces would run them all: rustdoc splits it).
		rec0, _, _ := adapterstest.RunReal(t, a, adapters.Request{ProjectRoot: dir, Level: adapters.LevelDoc})
		cmd := exec.Command("/bin/sh", "-c", cargoLookup(t, rec0, suite, vat).Failure.Rerun)
		cmd.Dir = dir
		b, _ := cmd.CombinedOutput()
		if !bytes.Contains(b, []byte("running 1 test\n")) || !bytes.Contains(b, []byte("test "+vat+" ... FAILED")) {
			t.Errorf("the rerun command ran:\n%s", b)
		}
	})
}

// TestCargoHarness runs the harness fixture: libtest's unit tests, test
// binaries with their own main (harness = false) and a compile_fail
// doctest that compiles.
func TestCargoHarness(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := testutil.Fixture("cargo", "harness")

	t.Run("all", func(t *testing.T) {
		rec, out, exit := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir})
		if exit.Code != 101 || !reflect.DeepEqual(out, adapters.Outcome{}) {
			t.Errorf("exit %+v, outcome %+v; want 101 and nothing more", exit, out)
		}
		// A binary with its own main is one test, named after its target,
		// failed by its exit status, at its panic.
		custom := cargoLookup(t, rec, "harness::custom (test)", "custom")
		cargoWantFailure(t, custom, "tests/custom.rs", 4, "assertion `left == right` failed: custom harness check\n  left: 2\n right: 3",
			"cargo test -p harness --test custom")
		if !strings.Contains(custom.Output, "checking the sum\n") {
			t.Errorf("custom's output %q, want what it printed", custom.Output)
		}
		// It gets the test arguments alone, as plain cargo test gives them.
		if got := cargoLookup(t, rec, "harness::quiet-args (test)", "quiet-args"); got.Status != report.TestPassed {
			t.Errorf("quiet-args: %s (%+v), want passed: it fails on any argument", got.Status, got.Failure)
		}
		// One printing libtest's lines gives a test per line.
		const mimic = "harness::mimic (test)"
		for name, st := range map[string]report.TestStatus{"case::one": report.TestPassed, "case::three": report.TestSkipped} {
			if got := cargoLookup(t, rec, mimic, name); got.Status != st {
				t.Errorf("%s: %s, want %s", name, got.Status, st)
			}
		}
		cargoWantFailure(t, cargoLookup(t, rec, mimic, "case::two"), "tests/mimic.rs", 20, "two is not one",
			"cargo test -p harness --test mimic -- --exact case::two")
		// One that captures nothing (tester) prints the panic on stderr.
		cargoWantFailure(t, cargoLookup(t, rec, mimic, "case::four"), "tests/mimic.rs", 9, "four is not one",
			"cargo test -p harness --test mimic -- --exact case::four")
		if got := cargoLookup(t, rec, "harness::it (test)", "divides_through_the_api"); got.Status != report.TestPassed {
			t.Errorf("divides_through_the_api: %s, want passed", got.Status)
		}
		if got := cargoLookup(t, rec, "harness (doc)", "src/lib.rs - div (line 6) - compile fail"); got.Status != report.TestFailed {
			t.Errorf("the compile_fail doctest: %s, want failed", got.Status)
		}
		if got := len(rec.Tests()); got != 10 {
			t.Errorf("%d tests, want 10: %s", got, cargoNames(rec))
		}
	})

	t.Run("unit", func(t *testing.T) {
		rec, _, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir, Level: adapters.LevelUnit})
		// libtest's message says why the panic failed the test; the panic
		// says where.
		cargoWantFailure(t, cargoLookup(t, rec, "harness (lib)", "tests::panics_otherwise"), "src/lib.rs", 12,
			"panic did not contain expected string\n      panic message: \"other text: 1 / 0\"\n expected substring: \"wanted text\"",
			"cargo test -p harness --lib -- --exact tests::panics_otherwise")
	})

	t.Run("doc", func(t *testing.T) {
		rec, _, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir, Level: adapters.LevelDoc})
		// rustdoc's block leaves " - compile fail" out of the name.
		cargoWantFailure(t, cargoLookup(t, rec, "harness (doc)", "src/lib.rs - div (line 6) - compile fail"), "src/lib.rs", 6,
			"Test compiled successfully, but it's marked `compile_fail`.", "cargo test -p harness --doc -- div")
	})
}

// TestCargoBadExample: plain cargo test builds the examples, and fails
// when one does not compile, whatever the tests say.
func TestCargoBadExample(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	_, out, exit := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: testutil.Fixture("cargo", "badexample")})
	want := []report.BuildError{{File: "examples/demo.rs", Line: 2, Column: 18, Message: "mismatched types: expected `u32`, found `&str`"}}
	if !out.BuildFailed || !reflect.DeepEqual(out.BuildErrors, want) || exit.Code != 101 {
		t.Errorf("outcome %+v, exit %d; want build failed with %+v", out, exit.Code, want)
	}
}

// TestCargoDoctestPhase checks the doctests' build, after the test binaries
// ran, is a building phase for the stuck detector, and that rustdoc's
// "running" line ends it.
func TestCargoDoctestPhase(t *testing.T) {
	rec := adapters.NewRecorder()
	p := newCargoParser(rec, "/project", "/project", nil)
	phase := func(want adapters.Phase, after string) {
		t.Helper()
		if got := rec.Progress().Phase; got != want {
			t.Errorf("phase %s after %s, want %s", got, after, want)
		}
	}
	for _, l := range []struct {
		s     adapters.Stream
		text  string
		phase adapters.Phase
	}{
		{adapters.Stdout, `{"reason":"build-finished","success":true}`, adapters.PhaseRunning},
		{adapters.Stdout, `{ "type": "suite", "event": "started", "test_count": 0 }`, adapters.PhaseRunning},
		{adapters.Stdout, `{ "type": "suite", "event": "ok", "passed": 0, "failed": 0, "ignored": 0, "measured": 0, "filtered_out": 0, "exec_time": 0.0 }`, adapters.PhaseRunning},
		{adapters.Stdout, `{"reason":"compiler-artifact","package_id":"path+file:///project#0.1.0","target":{"kind":["lib"],"name":"p","src_path":"/project/src/lib.rs"},"profile":{"test":false},"executable":null,"fresh":true}`, adapters.PhaseBuilding},
		{adapters.Stdout, `{"reason":"build-finished","success":true}`, adapters.PhaseBuilding},
		{adapters.Stderr, "   Doc-tests p", adapters.PhaseBuilding},
		{adapters.Stdout, "", adapters.PhaseBuilding},
		{adapters.Stdout, "running 1 test", adapters.PhaseRunning},
		{adapters.Stdout, "test src/lib.rs - f (line 3) ... ok", adapters.PhaseRunning},
		{adapters.Stdout, "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.20s", adapters.PhaseBuilding},
	} {
		p.Line(l.s, []byte(l.text), false)
		phase(l.phase, l.text)
	}
	if got := cargoLookup(t, rec, "project (doc)", "src/lib.rs - f (line 3)"); got.Status != report.TestPassed {
		t.Errorf("doctest: %s, want passed", got.Status)
	}
}

// TestCargoWindowsNames replays libtest JSON whose test names hold Windows
// paths written unescaped (Rust before 1.49): the lines are read leniently,
// names literally, and when a line cannot be read at all the suite's own
// totals win and the answer says so.
func TestCargoWindowsNames(t *testing.T) {
	for _, tc := range []struct {
		file   string
		names  []string
		unread int
	}{
		{"windows-names-76151", []string{`src\lib.rs - _foo (line 1)`}, 0},
		{"windows-names-unreadable", []string{`src\tests\basic.rs - basic::parse (line 12)`, `src\lib.rs - func (line 47)`, `src\bin\main.rs - main (line 3)`}, 1},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got := replayCargo("/project", adapterstest.ReadLines(t, "testdata/"+tc.file+".jsonl", adapters.Stdout), report.Exit{Exited: true, Code: 101})
			adapterstest.Golden(t, tc.file, got)
			var names []string
			for _, test := range got.Tests {
				names = append(names, test.Name)
			}
			if !slices.Equal(names, tc.names) {
				t.Errorf("names %q, want %q", names, tc.names)
			}
			if got.Outcome.Unread != tc.unread || (tc.unread > 0) != (got.Outcome.Summary != nil) {
				t.Errorf("unread %d, summary %+v; want %d unread", got.Outcome.Unread, got.Outcome.Summary, tc.unread)
			}
		})
	}
}

// TestCargoDoctestsOfTheTestedPackage: two libraries named dup (the
// package, and another version of it a dev-dependency pulls in) are built
// in whatever order; the doctests are the tested package's, in either.
func TestCargoDoctestsOfTheTestedPackage(t *testing.T) {
	artifact := func(id string, test bool, exe string) string {
		return fmt.Sprintf(`{"reason":"compiler-artifact","package_id":"%s","target":{"kind":["lib"],"name":"dup","src_path":"/p/src/lib.rs"},"profile":{"test":%t},"executable":%q}`, id, test, exe)
	}
	ours, old := "path+file:///p#dup@0.2.0", "path+file:///p/old#dup@0.1.0"
	for _, order := range [][]string{
		{artifact(old, false, ""), artifact(ours, false, ""), artifact(ours, true, "/p/target/debug/deps/dup-0123456789abcdef")},
		{artifact(ours, false, ""), artifact(ours, true, "/p/target/debug/deps/dup-0123456789abcdef"), artifact(old, false, "")},
	} {
		rec := adapters.NewRecorder()
		p := newCargoParser(rec, "/p", "/p", nil)
		p.ambiguousOnce.Do(func() { p.ambiguous = map[string]bool{"dup": true} })
		for _, l := range append(order, `{"reason":"build-finished","success":true}`) {
			p.Line(adapters.Stdout, []byte(l), false)
		}
		for _, l := range []string{"    Finished `test` profile", "   Doc-tests dup"} {
			p.Line(adapters.Stderr, []byte(l), false)
		}
		for _, l := range []string{"", "running 1 test", "test src/lib.rs - double (line 3) ... FAILED", "", "failures:", "",
			"---- src/lib.rs - double (line 3) stdout ----", "boom", "", "failures:", "    src/lib.rs - double (line 3)", "",
			"test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s"} {
			p.Line(adapters.Stdout, []byte(l), false)
		}
		p.Finish(report.Exit{Exited: true, Code: 101})
		f := rec.Failure("dup (doc)", "src/lib.rs - double (line 3)")
		if f == nil || f.Rerun != "cargo test -p dup@0.2.0 --doc -- double" {
			t.Errorf("failure %+v, want the rerun of dup@0.2.0's doctest", f)
		}
	}
}

// TestCargoCustomExitStatus: a binary with its own main that exits with
// a status above 128 (std::process::exit(130)) failed with that status;
// only one a signal killed (abort) is a crash. The shell between cargo
// and the binary read both as 128+N, and exit(130) was a crash with SIGINT.
func TestCargoCustomExitStatus(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := adapterstest.CopyFixture(t, "exits")
	rec, out, exit := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir})
	if exit.Code != 101 {
		t.Errorf("exit %+v, want cargo's 101", exit)
	}
	c := out.Crash
	if c == nil || c.SignalName != "SIGABRT" || !reflect.DeepEqual(c.RunningTests, []string{"aborts"}) ||
		strings.Contains(c.Message, "SIGINT") || strings.Contains(c.Message, "/bin/sh") {
		t.Fatalf("crash %+v, want SIGABRT in aborts alone", c)
	}
	got := cargoLookup(t, rec, "exits::exit130 (test)", "exit130")
	if got.Status != report.TestFailed || got.Failure == nil ||
		got.Failure.Message != "the test binary exited with status 130\ninterrupted by the user, said the harness" ||
		got.Failure.Rerun != "cargo test -p exits --test exit130" {
		t.Errorf("exit130: %+v (%+v), want failed with its exit status and output", got, got.Failure)
	}
	// The one that died is a test that failed, as a libtest binary's
	// running tests are, with the custom rerun, at its main.
	got = cargoLookup(t, rec, "exits::aborts (test)", "aborts")
	if got.Status != report.TestFailed || got.Failure == nil ||
		got.Failure.Message != "did not finish: the test binary died of SIGABRT while it ran" ||
		got.Failure.Rerun != "cargo test -p exits --test aborts" || got.Failure.File != "tests/aborts.rs" || got.Failure.Line != 2 {
		t.Errorf("aborts: %+v (%+v), want failed, died of SIGABRT, at tests/aborts.rs:2", got, got.Failure)
	}
}

// TestCargoTestProcesses: the runner's sh, and the perl that waits for a
// custom harness (customScript), are not tests: a custom harness that
// hung showed perl's stack (Perl_wait4pid) instead of the binary's.
func TestCargoTestProcesses(t *testing.T) {
	for _, tc := range []struct {
		p    adapters.Proc
		want bool
	}{
		{adapters.Proc{Name: "sh", Exe: "/usr/bin/dash"}, false},
		{adapters.Proc{Name: "perl", Exe: "/usr/bin/perl"}, false},
		{adapters.Proc{Name: "cargo", Exe: "/home/u/.cargo/bin/cargo"}, false},
		{adapters.Proc{Name: "build-script-bu", Exe: "/p/target/debug/build/x-0123/build-script-build"}, false},
		{adapters.Proc{Name: "exit130-d539171", Exe: "/p/target/debug/deps/exit130-d5391718e06ea7d8"}, true},
	} {
		if got := (cargo{}).IsTestProcess(tc.p); got != tc.want {
			t.Errorf("IsTestProcess(%s) = %v, want %v", tc.p.Name, got, tc.want)
		}
	}
}

// TestCargoStackOverflow: a test that overflows its stack aborts its
// binary under the test beside it. The runtime names the thread (libtest
// names it after the test): that test overflowed, and the other only ran
// beside it (before: both "did not finish", one of them or both did it).
func TestCargoStackOverflow(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := testutil.Fixture("cargo", "overflow")
	rec, out, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir})
	if out.Crash == nil || out.Crash.SignalName != "SIGABRT" {
		t.Fatalf("crash %+v, want the binary's SIGABRT", out.Crash)
	}
	over := cargoLookup(t, rec, "overflow::overflow (test)", "overflows")
	beside := cargoLookup(t, rec, "overflow::overflow (test)", "waits_beside")
	if f := over.Failure; over.Status != report.TestFailed || f == nil || !strings.HasPrefix(f.Message, "stack overflow: thread 'overflows' overflowed its stack") {
		t.Errorf("overflows: %s %+v, want failed by its stack overflow", over.Status, over.Failure)
	}
	if f := beside.Failure; beside.Status != report.TestFailed || f == nil || f.Message != "did not finish: the test binary died of SIGABRT while it ran: overflows overflowed its stack" {
		t.Errorf("waits_beside: %s %+v, want it to name overflows as the cause", beside.Status, beside.Failure)
	}
}

// TestCargoMergedDoctests runs an edition 2024 crate, whose doctests
// rustdoc merges into one binary that runs each in a process of its own
// when rustdoc's variable says where the binary is. rustdoc sets it only
// when it runs the binary itself, not through the runner strobe gives
// cargo: without it the doctests ran in one process, and the one that
// aborts took the others with it (no failure, "exited 101 although no
// test failed"), where plain cargo test fails two and passes one.
func TestCargoMergedDoctests(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := testutil.Fixture("cargo", "doctest2024")
	rec, out, exit := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir})
	// The doctest that aborts is a crash, as a test binary's abort is:
	// rustdoc and cargo say only that it failed (arrayvec's swap_remove
	// broken on purpose to segfault answered failed).
	// Merged, rustdoc does not say which signal.
	want := &report.Crash{Type: report.CrashUnknown, ExitCode: 101,
		Indicators: []string{"doctest_signaled"}, RunningTests: []string{"src/lib.rs - add (line 10)"},
		Message: "the doctest src/lib.rs - add (line 10) was ended by a signal (rustdoc does not say which)"}
	if exit.Code != 101 || !reflect.DeepEqual(out, adapters.Outcome{Crash: want}) {
		t.Errorf("exit %+v, outcome %+v, crash %+v; want 101 and the abort's crash alone", exit, out, out.Crash)
	}
	const suite = "doctest2024 (doc)"
	if got := cargoLookup(t, rec, suite, "src/lib.rs - add (line 14)"); got.Status != report.TestPassed {
		t.Errorf("the passing doctest: %s, want passed", got.Status)
	}
	// The three doctests share their item: the rerun selects by the line.
	add6 := cargoLookup(t, rec, suite, "src/lib.rs - add (line 6)")
	cargoWantFailure(t, add6, "src/lib.rs", 6,
		"assertion `left == right` failed\n  left: 4\n right: 5", "cargo test -p doctest2024 --doc -- '6)'")
	if add6.Failure != nil {
		cmd := exec.Command("/bin/sh", "-c", add6.Failure.Rerun)
		cmd.Dir = dir
		b, _ := cmd.CombinedOutput()
		if !bytes.Contains(b, []byte("\nrunning 1 test\n")) || !bytes.Contains(b, []byte("\ntest src/lib.rs - add (line 6) ... FAILED\n")) {
			t.Errorf("%s ran more or other than that doctest:\n%s", add6.Failure.Rerun, b)
		}
	}
	aborts := cargoLookup(t, rec, suite, "src/lib.rs - add (line 10)")
	if f := aborts.Failure; f == nil || f.File != "src/lib.rs" || f.Line != 10 {
		t.Errorf("the doctest that aborts: %+v, want failed at src/lib.rs:10", f)
	}
	if got := len(rec.Tests()); got != 4 {
		t.Errorf("%d tests, want 4: %s", got, cargoNames(rec))
	}
}

// TestCargoDoctestSignal: a doctest whose program dies of a signal
// (edition 2021: each doctest a program of its own) is a crash, with its
// signal, as a test binary's is; rustdoc and cargo say only that it
// failed, and the run answered failed (found on arrayvec, its
// swap_remove broken on purpose to segfault).
func TestCargoDoctestSignal(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := testutil.Fixture("cargo", "docsignal")
	rec, out, exit := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir})
	want := &report.Crash{Type: report.CrashAbort, Signal: 6, SignalName: "SIGABRT", ExitCode: 101,
		Indicators: []string{"doctest_signaled"}, RunningTests: []string{"src/lib.rs - half (line 10)"},
		Message: "the doctest src/lib.rs - half (line 10) died of SIGABRT (signal 6)"}
	if exit.Code != 101 || !reflect.DeepEqual(out.Crash, want) {
		t.Errorf("exit %+v, crash %+v; want 101 and %+v", exit, out.Crash, want)
	}
	f := cargoLookup(t, rec, "docsignal (doc)", "src/lib.rs - half (line 10)").Failure
	if f == nil || f.File != "src/lib.rs" || f.Line != 10 || !strings.Contains(f.Message, "SIGABRT") {
		t.Errorf("the doctest's failure %+v, want it at src/lib.rs:10 naming SIGABRT", f)
	}
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 1 {
		t.Errorf("progress %+v, want 1 passed and 1 failed", p)
	}
}

// TestCargoDoctestRerunRunsOne: a failed doctest's rerun, pasted into a
// shell, runs that doctest and no other. rustdoc splits its test
// arguments at whitespace, so the rerun selects by words of the name: the
// crate's own example ("src/lib.rs - (line 6)") was rerun with `--
// src/lib.rs`, which ran all five doctests, and the second example of an
// item with `-- twice`, which ran both of its. The other doctests come
// from the run, or from cargo's list of them when a filter left some out.
func TestCargoDoctestRerunRunsOne(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := adapterstest.CopyFixture(t, "docsel")
	const suite = "docsel (doc)"
	for _, tc := range []struct {
		name  string
		req   adapters.Request
		tests map[string]string // failed doctest → its rerun
	}{
		{"the doctests", adapters.Request{Level: adapters.LevelDoc}, map[string]string{
			"src/lib.rs - (line 6)":        "cargo test -p docsel --doc -- '6)' --skip inner --skip thrice",
			"src/lib.rs - twice (line 18)": "cargo test -p docsel --doc -- '18)'",
		}},
		// The run did not read thrice's doctest, which "6)" selects too.
		{"filtered: the rest listed", adapters.Request{Command: []string{"cargo", "test", "--doc", "--", "6)", "--skip", "thrice"}}, map[string]string{
			"src/lib.rs - (line 6)": "cargo test -p docsel --doc -- '6)' --skip inner --skip thrice",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := tc.req
			req.ProjectRoot = dir
			rec, _, _ := adapterstest.RunReal(t, cargo{}, req)
			for name, rerun := range tc.tests {
				got := cargoLookup(t, rec, suite, name)
				if got.Failure == nil {
					t.Fatalf("%s: %+v, want failed", name, got)
				}
				if got.Failure.Rerun != rerun {
					t.Errorf("%s: rerun %s, want %s", name, got.Failure.Rerun, rerun)
				}
				cmd := exec.Command("/bin/sh", "-c", got.Failure.Rerun)
				cmd.Dir = dir
				b, _ := cmd.CombinedOutput()
				if !bytes.Contains(b, []byte("\nrunning 1 test\n")) || !bytes.Contains(b, []byte("\ntest "+name+" ... FAILED\n")) {
					t.Errorf("%s ran more or other than %s:\n%s", got.Failure.Rerun, name, b)
				}
			}
		})
	}
}

// TestCargoDoctestByName: doctests asked for by their names (--test, a
// retry, --failed's several) run alone, selected among those cargo lists
// as a failed doctest's rerun selects it. Filtered by the item, an
// item's example ran with its other examples (`-- twice`) and the
// crate's own example with every doctest (`-- src/lib.rs`); several
// doctests went to the test binaries as --exact names and none ran.
func TestCargoDoctestByName(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := adapterstest.CopyFixture(t, "docsel")
	const suite = "docsel (doc)"
	ref := func(name string) adapters.TestRef { return adapters.TestRef{Suite: suite, Name: name} }
	for _, tc := range []struct {
		name string
		req  adapters.Request
		want map[string]string // doctest → "ok" or "FAILED", as rustdoc prints it
	}{
		{"an item's example", adapters.Request{Test: "src/lib.rs - twice (line 12)"},
			map[string]string{"src/lib.rs - twice (line 12)": "ok"}},
		{"the crate's example, retried", adapters.Request{Test: "src/lib.rs - (line 6)", TestSuite: suite},
			map[string]string{"src/lib.rs - (line 6)": "FAILED"}},
		{"the failed ones", adapters.Request{Tests: []adapters.TestRef{ref("src/lib.rs - (line 6)"), ref("src/lib.rs - twice (line 18)")}},
			map[string]string{"src/lib.rs - (line 6)": "FAILED", "src/lib.rs - twice (line 18)": "FAILED"}},
		{"a module's example and an item's", adapters.Request{Tests: []adapters.TestRef{ref("src/lib.rs - inner (line 36)"), ref("src/lib.rs - twice (line 12)")}},
			map[string]string{"src/lib.rs - inner (line 36)": "ok", "src/lib.rs - twice (line 12)": "ok"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := tc.req
			req.ProjectRoot = dir
			var stdout []string
			rec, out, _ := adapterstest.RunReal(t, teeCargo{&stdout}, req)
			text := "\n" + strings.Join(stdout, "\n") + "\n"
			running := fmt.Sprintf("\nrunning %d tests\n", len(tc.want))
			if len(tc.want) == 1 {
				running = "\nrunning 1 test\n"
			}
			if !strings.Contains(text, running) {
				t.Errorf("cargo's output has no %q:%s", strings.TrimSpace(running), text)
			}
			for name, status := range tc.want {
				if !strings.Contains(text, "\ntest "+name+" ... "+status+"\n") {
					t.Errorf("%s did not run (%s):%s", name, status, text)
				}
			}
			if got := len(rec.Tests()); got != len(tc.want) {
				t.Errorf("%d tests recorded, want %d: %s", got, len(tc.want), cargoNames(rec))
			}
			if out.Hint != "" {
				t.Errorf("hint %q, want none (an exact selection)", out.Hint)
			}
		})
	}
}

// TestCargoDoctestByNameUnlisted: a doctest name cargo does not list (its
// line moved) runs by its item, as before the list, and the hint says so.
func TestCargoDoctestByNameUnlisted(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := adapterstest.CopyFixture(t, "docsel")
	req := adapters.Request{ProjectRoot: dir, Test: "src/lib.rs - twice (line 14)"}
	plan, err := cargo{}.Plan(context.Background(), req, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.Argv[len(plan.Argv)-3:]; !slices.Equal(got, []string{"--doc", "--", "twice"}) {
		t.Errorf("Plan %q, want it to end with --doc -- twice", plan.Argv)
	}
	rec, out, _ := adapterstest.RunReal(t, cargo{}, req)
	if got := len(rec.Tests()); got != 2 {
		t.Errorf("%d tests, want twice's 2: %s", got, cargoNames(rec))
	}
	if want := "the doctests asked for ran by their items (-- twice), which may select more of them: cargo lists no doctest named \"src/lib.rs - twice (line 14)\""; out.Hint != want {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
}

// teeCargo is the cargo adapter, its plan's parser keeping cargo's stdout.
type teeCargo struct{ stdout *[]string }

func (teeCargo) Name() string                               { return "cargo" }
func (teeCargo) Detect(adapters.Request) adapters.Detection { return adapters.Detection{} }
func (a teeCargo) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	plan, err := cargo{}.Plan(ctx, req, rec)
	if err == nil {
		plan.Parser = teeParser{plan.Parser, a.stdout}
	}
	return plan, err
}

type teeParser struct {
	adapters.Parser
	stdout *[]string
}

func (p teeParser) Line(s adapters.Stream, line []byte, cut bool) {
	if s == adapters.Stdout {
		*p.stdout = append(*p.stdout, string(line))
	}
	p.Parser.Line(s, line, cut)
}

// TestDoctestsSelection: the words that select several doctests: a filter
// for each, a --skip for each other doctest a filter selects, by a word no
// wanted doctest's name holds; the others that no such --skip leaves out
// run too, and are said.
func TestDoctestsSelection(t *testing.T) {
	names := []string{"src/lib.rs - (line 6)", "src/lib.rs - twice (line 12)", "src/lib.rs - twice (line 18)",
		"src/lib.rs - thrice (line 26)", "src/lib.rs - inner (line 36)", "src/lib.rs - (line 46)", "src/lib.rs - a (line 146)"}
	for _, tc := range []struct {
		wanted      []string
		want, extra []string
	}{
		{[]string{"src/lib.rs - (line 6)", "src/lib.rs - twice (line 18)"},
			[]string{"6)", "18)", "--skip", "46)", "--skip", "inner", "--skip", "thrice"}, nil}, // "46)" skips line 146 too
		// One filter selects both.
		{[]string{"src/lib.rs - twice (line 12)", "src/lib.rs - twice (line 18)"}, []string{"twice"}, nil},
		{[]string{"src/lib.rs - inner (line 36)", "src/lib.rs - twice (line 12)"}, []string{"inner", "12)"}, nil},
		{[]string{"src/lib.rs - (line 46)"}, []string{"46)", "--skip", "a"}, nil},
		// Both words of the line 6 example select the one at line 46,
		// whose every word the line 146 one's name holds: no --skip
		// that leaves the wanted ones in leaves it out. "6)" selects
		// line 146 too.
		{[]string{"src/lib.rs - (line 6)", "src/lib.rs - a (line 146)"},
			[]string{"6)", "--skip", "inner", "--skip", "thrice"}, []string{"src/lib.rs - (line 46)"}},
	} {
		got, extra := doctestsSelection(tc.wanted, names)
		if !slices.Equal(got, tc.want) || !slices.Equal(extra, tc.extra) {
			t.Errorf("%q: %q and %q, want %q and %q", tc.wanted, got, extra, tc.want, tc.extra)
		}
	}
}

// TestDoctestSelection: the words that select a doctest alone among a
// crate's, none when another's every word is in its name.
func TestDoctestSelection(t *testing.T) {
	// rustdoc's --list names a compile_fail doctest without the mode its
	// result line prints after the name (" - compile fail"), which no
	// filter sees: a rerun by "compile" selected nothing.
	names := []string{"src/lib.rs - (line 3)", "src/lib.rs - (line 13)", "src/lib.rs - a::b (line 30)", "src/m.rs - m::f (line 3)",
		"src/lib.rs - a::b (line 40)", "src/lib.rs - compile (line 50) - should panic"}
	for _, tc := range []struct {
		target string
		want   []string
	}{
		{"src/lib.rs - (line 13)", []string{"13)"}},
		{"src/lib.rs - (line 3)", []string{"3)", "--skip", "13)", "--skip", "m::f"}},
		{"src/lib.rs - a::b (line 30)", []string{"30)"}},
		{"src/lib.rs - a::b (line 40) - compile fail", []string{"40)"}},
		{"src/lib.rs - compile (line 50) - should panic", []string{"compile"}},
		{"src/lib.rs - a::b (line 30) - should panic", []string{"30)"}},
		{"src/lib.rs - a::b (line 30)x", []string{"x"}},
		{"src/m.rs - m::f (line 3)", []string{"m::f"}},
	} {
		if got := doctestSelection(tc.target, names); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.target, got, tc.want)
		}
	}
	if got := doctestSelection("src/lib.rs - f (line 13)", []string{"src/lib.rs - f (line 13) - f"}); got != nil {
		t.Errorf("a name whose words another's holds, with them all: %q, want none", got)
	}
}

// TestCargoNameStuckUnlisted: when cargo cannot list the doctests, a stuck
// doctest's name says so, with the file (among the doctests read) and
// line its function holds; a stack with no doctest's function names none.
func TestCargoNameStuckUnlisted(t *testing.T) {
	p := newCargoParser(adapters.NewRecorder(), "/p", "/p", nil) // no dir: no cargo to list with
	p.docOnly = true
	p.Line(adapters.Stderr, []byte("   Doc-tests dt"), false)
	for _, l := range []string{"", "running 3 tests", "test src/lib.rs - quick (line 9) ... ok"} {
		p.Line(adapters.Stdout, []byte(l), false)
	}
	if _, ok := p.NameStuck(context.Background(), []string{"std::sync::poison::mutex::Mutex<T>::lock", "main"}); ok {
		t.Error("named a test without a doctest's function")
	}
	got, ok := p.NameStuck(context.Background(), []string{"std::sync::poison::mutex::Mutex<T>::lock", "rust_out::main::_doctest_main_src_lib_rs_16_0", "rust_out::main"})
	if !ok || got.File != "src/lib.rs" || got.Line != 16 || got.Rerun != "" ||
		!strings.HasPrefix(got.Name, "the doctest of src/lib.rs at line 16 (its name unknown: rustdoc names a doctest only once it ends, and cargo's list of the doctests failed") {
		t.Errorf("got %+v, %v", got, ok)
	}
}

// TestCargoFailedMixedSaysDoctestsLeft: several tests asked for by name
// (--failed) of both kinds run the test binaries' alone, and the answer
// says which doctests did not run and how to run them (before: nothing,
// and --failed never reran them while a unit test still failed).
func TestCargoFailedMixedSaysDoctestsLeft(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := testutil.Fixture("cargo", "doctest")
	rec, out, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir, Tests: []adapters.TestRef{
		{Suite: "doctest (lib)", Name: "tests::doubles"},
		{Suite: "doctest (doc)", Name: "src/lib.rs - with_vat (line 8)"},
	}})
	if got := cargoLookup(t, rec, "doctest (lib)", "tests::doubles"); got.Status != report.TestPassed {
		t.Errorf("tests::doubles: %s, want passed", got.Status)
	}
	if want := "1 doctest asked for did not run: `src/lib.rs - with_vat (line 8)`"; !strings.Contains(out.Hint, want) || !strings.Contains(out.Hint, "--level doc") {
		t.Errorf("hint %q, want %q and how to run it", out.Hint, want)
	}
}

// TestCargoNoManifest: --framework cargo where no Cargo.toml is, in or
// above, is a usage error that says what to give (cargo's "could not
// find `Cargo.toml`" was read as a build failure with no error).
func TestCargoNoManifest(t *testing.T) {
	_, err := cargo{}.Plan(context.Background(), adapters.Request{ProjectRoot: t.TempDir()}, adapters.NewRecorder())
	var ue *adapters.UsageError
	if !errors.As(err, &ue) || ue.Framework != "cargo" || !strings.Contains(ue.Hint, "give the crate's or the workspace's directory") {
		t.Errorf("no Cargo.toml: %v, want a usage error naming cargo", err)
	}
}

// TestCargoFailedSameNameElsewhere: several tests asked for by suite and
// name (--failed): cargo hands every name to every test binary, and a
// passing test of the same name in another binary ran too. It is left out
// of the answer, which says so; the one asked for is there. semver's
// --failed after test_eq (test_identifier) failed answered "passed" for
// test_version's test_eq, which had never failed.
func TestCargoFailedSameNameElsewhere(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := t.TempDir()
	adapterstest.WriteFiles(t, dir, map[string]string{
		"Cargo.toml":        "[package]\nname = \"twins\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\npath = \"src/lib.rs\"\n",
		"src/lib.rs":        "pub fn one() -> i32 { 1 }\n",
		"tests/identity.rs": "#[test]\nfn test_eq() { assert_eq!(twins::one(), 2); }\n",
		"tests/version.rs":  "#[test]\nfn test_eq() { assert_eq!(twins::one(), 1); }\n\n#[test]\nfn other() {}\n",
	})
	rec, _, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir})
	var suite string
	for _, tt := range rec.Tests() {
		if tt.Name == "test_eq" && tt.Status == report.TestFailed {
			suite = tt.Suite
		}
	}
	if suite == "" {
		t.Fatalf("no failed test_eq in %+v", rec.Tests())
	}
	rec, out, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir, Tests: []adapters.TestRef{{Suite: suite, Name: "test_eq"}}})
	if tests := rec.Tests(); len(tests) != 1 || tests[0].Suite != suite || tests[0].Status != report.TestFailed {
		t.Errorf("tests %+v, want only %s's test_eq, failed", tests, suite)
	}
	if p := rec.Progress(); p.Passed != 0 || p.Failed != 1 || slices.Contains(out.Indicators, "unreadable_test_events") {
		t.Errorf("%+v, indicators %q: want 1 failed, and the totals not read as lost lines", p, out.Indicators)
	}
	if want := "1 test of the same names in other test binaries ran too"; !strings.Contains(out.Hint, want) {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
}

// TestCargoOwnErrors: cargo's own errors before it compiles anything (a
// [[test]] whose file is missing; a dependency it cannot find) are one
// build error each, whole, at the manifest when cargo names it, and the
// hint says nothing was compiled. The missing file gave an error with no
// place and a second of cargo's count of it ("could not compile due to 1
// previous target resolution error"); a missing dependency lost the lines
// saying where cargo looked and which package wanted it.
func TestCargoOwnErrors(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := t.TempDir()
	adapterstest.WriteFiles(t, dir, map[string]string{
		"Cargo.toml": "[package]\nname = \"lost\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[[test]]\nname = \"gone\"\npath = \"tests/gone.rs\"\n",
		"src/lib.rs": "pub fn one() -> i32 { 1 }\n",
	})
	_, out, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir})
	if !out.BuildFailed || len(out.BuildErrors) != 1 || out.BuildErrors[0].File != "Cargo.toml" || !strings.HasPrefix(out.BuildErrors[0].Message, "can't find integration-test `gone`") {
		t.Errorf("build errors %+v, want cargo's one, at Cargo.toml", out.BuildErrors)
	}
	if !strings.Contains(out.Hint, "cargo stopped before compiling anything") {
		t.Errorf("hint %q, want it to say nothing was compiled", out.Hint)
	}

	rec := adapters.NewRecorder()
	p := newCargoParser(rec, "/p", "/p", []string{"cargo", "test"})
	for _, l := range []string{
		"error: no matching package named `loom` found",
		"location searched: crates.io index",
		"required by package `bytes v1.12.1 (/p)`",
		"As a reminder, you're using offline mode (--offline) which can sometimes cause surprising resolution failures.",
	} {
		p.Line(adapters.Stderr, []byte(l), false)
	}
	out = p.Finish(report.Exit{Exited: true, Code: 101})
	if len(out.BuildErrors) != 1 || !strings.Contains(out.BuildErrors[0].Message, "\nrequired by package `bytes v1.12.1 (/p)`\nAs a reminder, you're using offline mode") {
		t.Errorf("build errors %+v, want the error whole", out.BuildErrors)
	}
}
