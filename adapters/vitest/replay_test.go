package vitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// replay feeds a recorded events file and stderr to a parser as a run
// would give them, and finishes it with exit.
func replay(t *testing.T, name string, exit report.Exit) (*adapters.Recorder, adapters.Outcome) {
	t.Helper()
	events, err := os.ReadFile(filepath.Join("testdata", "recorded", name+".events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rec := adapters.NewRecorder()
	p := newParser(rec, "/project", t.TempDir())
	p.pkgDir, p.rerun = "/project", []string{"npx", "vitest", "run"}
	for _, l := range adapterstest.ReadLines(t, filepath.Join("testdata", "recorded", name+".stderr"), adapters.Stderr) {
		p.Line(l.Stream, []byte(l.Text), false)
	}
	p.decode(bytes.NewReader(events))
	out := p.Finish(exit)
	p.Close()
	return rec, out
}

// TestReplay replays the reporter's recorded events (testdata/recorded,
// made by vitest 3.2.4 on the fixture projects: see testdata/README.md).
func TestReplay(t *testing.T) {
	for _, tc := range []struct {
		name string
		exit report.Exit
		want func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome)
	}{
		{"basic", report.Exit{Exited: true, Code: 1}, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			tt, _ := adapterstest.TestByName(rec.Tests(), "math > adds wrongly")
			if tt.Failure == nil || tt.Failure.File != "test/unit/math.test.ts" || tt.Failure.Line != 17 {
				t.Errorf("math > adds wrongly: %+v", tt.Failure)
			}
		}},
		{"importerr", report.Exit{Exited: true, Code: 1}, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if !out.BuildFailed || len(out.BuildErrors) != 3 {
				t.Errorf("outcome %+v, want three build errors", out)
			}
		}},
		{"crash", report.Exit{Exited: true, Code: 1}, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			c := out.Crash
			if c == nil || c.SignalName != "SIGABRT" || len(c.RunningTests) != 1 || c.RunningTests[0] != "aborts the process" || !strings.Contains(c.Message, "aborts.test.js:6") {
				t.Errorf("crash %+v, want SIGABRT in \"aborts the process\" at aborts.test.js:6", c)
			}
		}},
		// vitest 4 runs a test file compiled: node's abort report gives the
		// compiled code's line (5 for the file's 6), which is not to be shown.
		{"crash-vitest4", report.Exit{Exited: true, Code: 1}, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			c := out.Crash
			if c == nil || c.SignalName != "SIGABRT" || len(c.RunningTests) != 1 || c.RunningTests[0] != "aborts the process" ||
				!strings.Contains(c.Message, "in test/aborts.test.ts") || strings.Contains(c.Message, "aborts.test.ts:") {
				t.Errorf("crash %+v, want SIGABRT in \"aborts the process\" in test/aborts.test.ts, no line", c)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, out := replay(t, tc.name, tc.exit)
			adapterstest.Golden(t, "replay-"+tc.name, adapterstest.Normalise(rec, out, nil))
			tc.want(t, rec, out)
		})
	}
}

// TestJSONReport reads vitest's own JSON reports from the team corpus
// (testdata/corpus): the fallback for a vitest older than 3.
func TestJSONReport(t *testing.T) {
	for _, name := range []string{"json-dts-bundler-8-failed-assertionerror", "json-moon-all-pass-cjk-names"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "corpus", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			rec := adapters.NewRecorder()
			p := newParser(rec, "/Users/ann/Coding/javascript/dts-bundler", t.TempDir())
			p.pkgDir, p.rerun = p.root, []string{"npx", "vitest", "run"}
			p.jsonEvents(b)
			out := p.Finish(report.Exit{Exited: true, Code: 1})
			p.Close()
			adapterstest.Golden(t, "corpus-"+name, adapterstest.Normalise(rec, out, nil))
		})
	}
	rec := adapters.NewRecorder()
	p := newParser(rec, "/Users/ann/Coding/javascript/dts-bundler", t.TempDir())
	b, _ := os.ReadFile(filepath.Join("testdata", "corpus", "json-dts-bundler-8-failed-assertionerror.json"))
	p.jsonEvents(b)
	if pr := rec.Progress(); pr.Passed != 84 || pr.Failed != 8 {
		t.Errorf("counts %+v, want the report's 84 passed and 8 failed", pr)
	}
	for _, tt := range rec.Tests() {
		if f := tt.Failure; f != nil && (f.File != "test/dts-bundler.test.ts" || f.Line == 0 || strings.Contains(f.Message, "    at ")) {
			t.Errorf("%s: failure at %s:%d, message %q", tt.Name, f.File, f.Line, f.Message)
		}
	}
}

// TestEarlyEndsGiveWay: the tests strobe's events for vitest 1 and 2
// recorded give way to the JSON report once it is read (the report is the
// run's record): one under a name the report does not give is dropped,
// one it names is counted once with the report's result, a failure the
// events said of a test the report says passed (a try vitest retried)
// too.
func TestEarlyEndsGiveWay(t *testing.T) {
	rec := adapters.NewRecorder()
	p := newParser(rec, "/p", t.TempDir())
	p.jsonReport = "/p/report.json"
	for _, line := range []string{
		`{"ev":"end","file":"/p/a.test.js","name":"adds","status":"passed","ms":1}`,
		`{"ev":"end","file":"/p/a.test.js","name":"carry","status":"failed","error":{"message":"early"}}`,
		`{"ev":"end","file":"/p/a.test.js","name":" > odd name","status":"passed","ms":1}`,
		`{"ev":"end","file":"/p/a.test.js","name":"retried","status":"failed","error":{"message":"first try"}}`,
	} {
		p.event([]byte(line))
	}
	p.jsonEvents([]byte(`{"testResults":[{"name":"/p/a.test.js","status":"failed","assertionResults":[
		{"ancestorTitles":[],"title":"adds","status":"passed","failureMessages":[]},
		{"ancestorTitles":[],"title":"carry","status":"failed","failureMessages":["AssertionError: expected 10 to be 11\n    at /p/a.test.js:8:3"]},
		{"ancestorTitles":[],"title":"retried","status":"passed","failureMessages":[]}]}]}`))
	if pr := rec.Progress(); pr.Passed != 2 || pr.Failed != 1 || len(rec.Tests()) != 3 {
		t.Errorf("%+v, tests %+v; want adds passed and carry failed, nothing else", pr, rec.Tests())
	}
	if f := rec.Failure("a.test.js", "carry"); f == nil || f.Message != "expected 10 to be 11" || f.Line != 8 {
		t.Errorf("carry: %+v, want the report's failure", f)
	}
}

func FuzzVitest(f *testing.F) {
	for _, name := range []string{"basic", "importerr", "crash"} {
		stderr, _ := os.ReadFile(filepath.Join("testdata", "recorded", name+".stderr"))
		f.Add(adapterstest.FuzzSeed(f, filepath.Join("testdata", "recorded", name+".events.jsonl")), []byte{}, stderr, []byte{2, 2, 1}, byte(1), byte(0))
	}
	f.Fuzz(func(t *testing.T, events, stdout, stderr, sched []byte, code, flags byte) {
		rec := adapters.NewRecorder()
		p := newParser(rec, "/project", t.TempDir())
		p.rerun = []string{"npx", "vitest", "run"}
		var out adapters.Outcome
		adapterstest.FuzzRun(t, func() {
			adapterstest.FuzzReplay(p, stdout, stderr, events, sched, func(b []byte) {
				p.mu.Lock()
				p.event(b)
				p.mu.Unlock()
			})
			out = p.Finish(adapterstest.FuzzExit(code, flags))
		})
		p.Close()
		adapterstest.FuzzCheck(t, rec, out)
	})
}

// BenchmarkParser measures the events decoded per second: a generated
// stream of start, done and end events (a third of them failures).
func BenchmarkParser(b *testing.B) {
	var buf bytes.Buffer
	const tests = 2000
	for i := 0; i < tests; i++ {
		file := fmt.Sprintf("/project/test/unit/m%d.test.ts", i%40)
		name := fmt.Sprintf("suite %d > case %d", i%40, i)
		fmt.Fprintf(&buf, `{"ev":"start","file":%q,"name":%q,"pid":4242}`+"\n", file, name)
		fmt.Fprintf(&buf, `{"ev":"done","file":%q,"name":%q,"state":"pass"}`+"\n", file, name)
		if i%3 == 0 {
			fmt.Fprintf(&buf, `{"ev":"end","file":%q,"name":%q,"status":"failed","ms":1.5,"error":{"message":"expected 4 to be 5 // Object.is equality","diff":"- Expected\n+ Received\n\n- 5\n+ 4","file":%q,"line":17,"col":27},"more":[]}`+"\n", file, name, file)
		} else {
			fmt.Fprintf(&buf, `{"ev":"end","file":%q,"name":%q,"status":"passed","ms":0.9}`+"\n", file, name)
		}
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := newParser(adapters.NewRecorder(), "/project", "")
		p.rerun = []string{"npx", "vitest", "run"}
		p.decode(bytes.NewReader(data))
	}
	b.ReportMetric(float64(3*tests*b.N)/b.Elapsed().Seconds(), "events/s")
}

// TestDescribeErrorOxc gives the reporter the error vitest 4 (vite's oxc
// transform) reports for a test file with a syntax error, recorded: its
// place is in the message, relative to the project ("╭─[ test/x.ts:2:19 ]"),
// and must name the file, not a piece of its path.
func TestDescribeErrorOxc(t *testing.T) {
	testutil.RequireTool(t, "node")
	raw, err := os.ReadFile(filepath.Join("testdata", "recorded", "vitest4-oxc-parse-error.json"))
	if err != nil {
		t.Fatal(err)
	}
	const root = "/project"
	errJSON := strings.ReplaceAll(string(raw), "{{ROOT}}", root)
	reporter, err := filepath.Abs("reporter.mjs")
	if err != nil {
		t.Fatal(err)
	}
	script := `import { describeError, setRoot } from ` + strconv.Quote("file://"+reporter) + `
setRoot(process.argv[1])
process.stdout.write(JSON.stringify(describeError(JSON.parse(process.argv[2]), process.argv[3])))`
	out, err := exec.Command("node", "--input-type=module", "-e", script, root, errJSON, root+"/test/broken.test.ts").Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got testError
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.File != root+"/test/broken.test.ts" || got.Line != 2 || got.Col != 19 || !strings.Contains(got.Message, "[PARSE_ERROR] Unexpected token") {
		t.Errorf("described %+v, want %s/test/broken.test.ts:2:19 and oxc's message", got, root)
	}
}

// TestNameStuck: the stuck test is the one whose body holds the outermost
// frame in a test file; code the source does not place in a test is named
// by its place, rerun by its file.
func TestNameStuck(t *testing.T) {
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{"test/spin.test.js": `import { test, describe } from 'vitest'
function spin() {
  for (;;) {}
}
describe('loop', () => {
  test('spins', () => {
    spin()
  })
})
spin()
`})
	p := newParser(adapters.NewRecorder(), root, t.TempDir())
	p.rerun = []string{"npx", "vitest", "run"}
	file := filepath.Join(root, "test", "spin.test.js")
	for _, tc := range []struct {
		funcs       []string
		name, rerun string
		line        int
		ok          bool
	}{
		{[]string{"spin (" + file + ":3)", "<anonymous> (" + file + ":7)", "runTest (" + root + "/node_modules/@vitest/runner/dist/index.js:9)"},
			"loop > spins", "npx vitest run test/spin.test.js -t '^loop (?:> )?spins$'", 7, true},
		{[]string{"spin (file://" + file + ":3)", "<anonymous> (file://" + file + ":10)"},
			"the code at test/spin.test.js:10 (strobe could not tell which test runs it)", "npx vitest run test/spin.test.js", 10, true},
		{[]string{"spin (test/spin.test.js:3)", "<anonymous> (test/spin.test.js:7)"}, "loop > spins", "", 7, true},
		{[]string{"main (" + root + "/src/lib.js:3)", "poll"}, "", "", 0, false},
	} {
		n, ok := p.NameStuck(context.Background(), tc.funcs)
		if ok != tc.ok || n.Name != tc.name || n.Line != tc.line || tc.rerun != "" && n.Rerun != tc.rerun {
			t.Errorf("%q: %+v, %t; want %q at line %d, rerun %q", tc.funcs, n, ok, tc.name, tc.line, tc.rerun)
		}
	}
}

// TestWorkerFailureWords: a failure the worker's setup file reported
// (its done event) keeps the error's words when vitest never sent the
// test's end, as in a run strobe stopped at a hang after it (zod's
// number test read "failed").
func TestWorkerFailureWords(t *testing.T) {
	rec := adapters.NewRecorder()
	p := newParser(rec, "/p", t.TempDir())
	p.event([]byte(`{"ev":"start","file":"/p/a.test.js","name":"carry"}`))
	p.event([]byte(`{"ev":"done","file":"/p/a.test.js","name":"carry","state":"fail","error":{"message":"expected 10 to be 11","diff":"- Expected\n+ Received"}}`))
	if f := rec.Failure("a.test.js", "carry"); f == nil || f.Message != "expected 10 to be 11\n\n- Expected\n+ Received" {
		t.Errorf("carry: %+v, want the worker's error", f)
	}
}
