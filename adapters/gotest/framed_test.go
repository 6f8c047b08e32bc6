package gotest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
)

func TestGoFramedArgv(t *testing.T) {
	root := testutil.Fixture("go", "basic")
	mods := readGoModules(root)
	cases := []struct {
		argv []string // after "go test -json"
		env  []string
		want []string // after "go test -v=test2json"; nil: -json stays
		pkg  string
	}{
		{argv: []string{"./calc"}, want: []string{"./calc"}, pkg: "example.com/basic/calc"},
		{argv: []string{"-count", "1", "-v", "-run", "^TestX$", "./text"}, want: []string{"-count", "1", "-run", "^TestX$", "./text"}, pkg: "example.com/basic/text"},
		{argv: []string{"-v=true", "example.com/basic/calc"}, want: []string{"example.com/basic/calc"}, pkg: "example.com/basic/calc"},
		{argv: []string{"./calc/..."}, want: []string{"./calc/..."}, pkg: "example.com/basic/calc"},
		{argv: []string{"./..."}},                 // two packages: go buffers each one's output
		{argv: []string{"./calc", "./text"}},      // the same
		{argv: []string{"."}},                     // no Go files in the root: -json says so as it always has
		{argv: []string{"-bench", ".", "./calc"}}, // benchmark lines
		{argv: []string{"./calc", "-args", "-x"}}, // the binary's own flags
		{argv: []string{"-test.v", "./calc"}},     // the same
		{argv: []string{"fmt"}},                   // not the module's
		{argv: []string{"../basic/calc"}, want: []string{"../basic/calc"}, pkg: "example.com/basic/calc"},
		{argv: []string{"../go"}}, // outside the module's root
		{argv: []string{"./calc"}, env: []string{"GOFLAGS=-json"}},
		{argv: []string{"./nosuchdir"}},
	}
	for _, c := range cases {
		argv := append([]string{"go", "test", "-json"}, c.argv...)
		got, pkg, ok := goFramedArgv(root, mods, c.env, argv)
		if ok != (c.want != nil) || ok && (!reflect.DeepEqual(got[3:], c.want) || got[2] != "-v=test2json" || pkg != c.pkg) {
			t.Errorf("%q: %q %q %v, want %q %q", c.argv, got, pkg, ok, c.want, c.pkg)
		}
	}
	// A module for a Go older than 1.21 may be built by one that has no
	// -v=test2json; a workspace has modules of its own.
	old := t.TempDir()
	os.WriteFile(filepath.Join(old, "go.mod"), []byte("module m\n\ngo 1.20\n"), 0o644)
	os.WriteFile(filepath.Join(old, "a_test.go"), []byte("package m\n"), 0o644)
	if _, _, ok := goFramedArgv(old, readGoModules(old), nil, []string{"go", "test", "-json"}); ok {
		t.Errorf("go 1.20 module framed")
	}
	ws := testutil.Fixture("go", "workspace")
	if _, _, ok := goFramedArgv(ws, readGoModules(ws), nil, []string{"go", "test", "-json", "./api"}); ok {
		t.Errorf("workspace framed")
	}
	for dir, want := range map[string]bool{"1.21": true, "1.21.3": true, "1.26rc1": true, "2.0": true, "1.20": false, "1.9": false, "": false, "x": false} {
		if got := goAtLeast121([]string{dir}); got != want {
			t.Errorf("goAtLeast121(%q) = %v", dir, got)
		}
	}
}

// TestGoFramedSameAsJSON runs each fixture package twice, through -json
// (the command names it) and through -v=test2json with strobe's own
// conversion, and wants the same tests, statuses, failures, output and
// outcome from both.
func TestGoFramedSameAsJSON(t *testing.T) {
	testutil.RequireTool(t, "go")
	if testing.Short() {
		t.Skip("runs go test on fixtures")
	}
	cases := []struct {
		fixture string
		args    []string
	}{
		{"basic", []string{"-count=1", "./calc"}},
		{"basic", []string{"-count=1", "./text"}},
		{"basic", []string{"-count=1", "-short", "-run", "TestTable|TestSlow", "./calc"}},
		{"basic", []string{"-count=1", "-tags", "integration", "./calc"}},
		{"crash", []string{"-count=1", "./abort"}},
		{"crash", []string{"-count=1", "./deadlock"}},
		{"crash", []string{"-count=1", "./killed"}},
		{"crash", []string{"-count=1", "./mapwrites"}},
		{"crash", []string{"-count=1", "./segv"}},
		{"crash", []string{"-count=1", "-timeout", "1s", "./hang"}},
		{"broken", []string{"./lib"}},
		{"broken", []string{"./vetfail"}},
		{"broken", []string{"./ok"}}, // cached the second time: go replays the output
		{"empty", []string{"./greet"}},
		{"stress", []string{"-count=1", "-run", "TestQuick", "."}}, // the root package
	}
	for _, c := range cases {
		t.Run(c.fixture+" "+strings.Join(c.args, " "), func(t *testing.T) {
			root := testutil.Fixture("go", c.fixture)
			var shown string
			run := func(json bool) (ran adapterstest.Ran, argv []string) {
				cmd := append([]string{"go", "test"}, c.args...)
				if json {
					cmd = slices.Insert(cmd, 2, "-json")
				}
				req := adapters.Request{ProjectRoot: root, Command: cmd}
				plan, err := gotest{}.Plan(t.Context(), req, adapters.NewRecorder())
				if err != nil {
					t.Fatal(err)
				}
				shown = plan.Shown
				return adapterstest.Run(t, gotest{}, req), plan.Argv
			}
			viaJSON, argvJSON := run(true)
			framed, argv := run(false)
			if !slices.Contains(argv, "-v=test2json") || slices.Contains(argv, "-json") || slices.Contains(argvJSON, "-v=test2json") {
				t.Fatalf("commands %q and %q, want one framed and one -json", argv, argvJSON)
			}
			// The answer names the -json command: the framing is strobe's.
			if want := shell.Join(argvJSON); shown != want {
				t.Errorf("the framed run shows %q, want %q", shown, want)
			}
			if got, want := goComparable(framed), goComparable(viaJSON); got != want {
				t.Errorf("framed:\n%s\nwant (-json):\n%s", got, want)
			}
		})
	}
}

// goRunNoise is what differs between two runs of the same test: times,
// addresses, goroutine ids, the runtime's thread (m=N in a signal's
// header) and wait times.
var goRunNoise = regexp.MustCompile(`\(\d+\.\d+s\)|\d+\.\d+s\b|0x[0-9a-f]+|goroutine \d+|\bm=\d+|\d+ minutes|\[[a-z ]+, \d+ minutes\]|exit status \d+|\d{4,}`)

// goComparable renders a run's tests and outcome without its times.
func goComparable(r adapterstest.Ran) string {
	tests := r.Rec.Tests()
	slices.SortFunc(tests, func(a, b report.Test) int { return strings.Compare(a.Suite+" "+a.Name, b.Suite+" "+b.Name) })
	for i := range tests {
		tests[i].DurationMS = 0
		// The goroutines of a dump and their states differ between runs.
		if j := strings.Index(tests[i].Output, "\ngoroutine "); j >= 0 {
			tests[i].Output = tests[i].Output[:j] + "\n(goroutines)"
		}
	}
	out := r.Outcome
	b, _ := json.MarshalIndent(struct {
		Tests   []report.Test
		Outcome adapters.Outcome
		Exit    report.Exit
	}{tests, out, r.Exit}, "", " ")
	return goRunNoise.ReplaceAllString(string(b), "…")
}

// TestGoFramerMatchesTest2json feeds the framer and the go command's own
// converter (go tool test2json) the same framed output, cut and joined in
// the ways a binary's output can be, and wants the same events.
func TestGoFramerMatchesTest2json(t *testing.T) {
	testutil.RequireTool(t, "go")
	if testing.Short() {
		t.Skip("runs go tool test2json")
	}
	const m = "\x16"
	inputs := map[string]string{
		"plain": m + "=== RUN   TestA\nhello\n" + m + "--- PASS: TestA (0.01s)\n" + m + "PASS\n",
		"subtests": m + "=== RUN   TestT\n" + m + "=== RUN   TestT/a\n    t_test.go:9: bad\n" + m + "=== NAME  TestT\n    t_test.go:12: also\n" +
			m + "--- FAIL: TestT (0.00s)\n    " + m + "--- FAIL: TestT/a (0.00s)\n        more\n    " + m + "--- PASS: TestT/b (0.00s)\n" + m + "FAIL\n",
		"no newline before framing": m + "=== RUN   TestB\npartial" + m + "--- PASS: TestB (0.00s)\n" + m + "PASS\n",
		"parallel": m + "=== RUN   TestP\n" + m + "=== PAUSE TestP\n" + m + "=== RUN   TestQ\n" + m + "=== PAUSE TestQ\n" + m + "=== CONT  TestP\n" +
			m + "=== CONT  TestQ\nq says\n" + m + "=== NAME  TestP\np says\n" + m + "--- PASS: TestQ (0.00s)\n" + m + "--- SKIP: TestP (0.00s)\n    p_test.go:3: skipped\n" + m + "PASS\n",
		"unmarked framing after marked":  m + "=== RUN   TestC\n--- FAIL: TestC (0.00s)\n=== RUN   fake\n" + m + "--- PASS: TestC (0.00s)\n" + m + "PASS\n",
		"panic":                          m + "=== RUN   TestD\npanic: boom\n\ngoroutine 7 [running]:\nmain.f()\n\t/x/d_test.go:5 +0x1d\n" + m + "FAIL\texample.com/m\t0.005s\n",
		"empty name":                     m + "=== RUN   TestE\n" + m + "=== NAME\nafter\n" + m + "--- PASS: TestE (0.00s)\r\n" + m + "PASS\n",
		"empty name cut short":           m + "=== RUN   TestE\nxx" + m + "=== NAME" + m + "--- PASS: TestE (0.00s)\n" + m + "PASS\n",
		"report deeper than any test":    m + "=== RUN   TestF\n        " + m + "--- PASS: TestF/x/y (0.00s)\n" + m + "--- PASS: TestF (0.00s)\n" + m + "PASS\n",
		"no marker at all (before 1.20)": "=== RUN   TestG\n    g_test.go:3: msg\n--- FAIL: TestG (0.00s)\nFAIL\n",
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command("go", "tool", "test2json", "-t", "-p", "example.com/m")
			cmd.Stdin = strings.NewReader(in)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				var e goEvent
				if err := json.Unmarshal([]byte(l), &e); err != nil {
					t.Fatal(err)
				}
				if e.Test != "" || e.Action == "output" { // the package's start and end are the go command's
					want = append(want, goEventString(e))
				}
			}
			var got []string
			f := newGoFramer("example.com/m", func(e *goEvent) {
				if e.Test != "" || e.Action == "output" {
					got = append(got, goEventString(*e))
				}
			})
			for _, l := range strings.SplitAfter(in, "\n") {
				if l != "" {
					f.line([]byte(strings.TrimSuffix(l, "\n")), false)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("framer:\n%s\ntest2json:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func goEventString(e goEvent) string {
	b, _ := json.Marshal(struct {
		A, T, O string
		E       float64
	}{e.Action, e.Test, e.Output, e.Elapsed})
	return string(b)
}

// TestGoFramedRecorded parses the crash fixtures' packages recorded through
// `go test -v=test2json` (testdata/record.sh) and wants the goldens of
// their -json recordings, but for what differs from run to run: the same
// tests, statuses, failures and crash, read either way.
func TestGoFramedRecorded(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "framed", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no recordings in testdata/framed")
	}
	dirs := map[string]string{"crash-timeout": "hang", "crash-timeout-late-pass": "lateparallel"}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		t.Run(name, func(t *testing.T) {
			root := testutil.Fixture("go", "crash")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			code, err := os.ReadFile(filepath.Join("testdata", name+".exit"))
			if err != nil {
				t.Fatal(err)
			}
			n, _ := strconv.Atoi(strings.TrimSpace(string(code)))
			rec := adapters.NewRecorder()
			p := newGoParser(rec, root, []goModule{{"example.com/crash", "."}}, []string{"go", "test"}, "no test ran")
			dir := dirs[name]
			if dir == "" {
				dir = strings.TrimPrefix(name, "crash-")
			}
			p.framer = newGoFramer("example.com/crash/"+dir, p.event)
			for _, l := range strings.SplitAfter(strings.ReplaceAll(string(data), "{{ROOT}}", root), "\n") {
				if l != "" {
					p.Line(adapters.Stdout, []byte(strings.TrimSuffix(l, "\n")), false)
				}
			}
			got := adapterstest.Normalise(rec, p.Finish(goExited(n)), nil)
			for i := range got.Tests {
				got.Tests[i].Output = strings.ReplaceAll(got.Tests[i].Output, root, "{{ROOT}}")
			}
			// Two runs differ in addresses, goroutine ids and times.
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			enc.Encode(got)
			want, err := os.ReadFile(filepath.Join("testdata", name+".golden.json"))
			if err != nil {
				t.Fatal(err)
			}
			if g, w := goRunNoise.ReplaceAllString(b.String(), "…"), goRunNoise.ReplaceAllString(string(want), "…"); g != w {
				t.Errorf("framed %s differs from the -json golden:\n%s", name, adapterstest.LineDiff(w, g))
			}
		})
	}
}
