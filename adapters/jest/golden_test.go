package jest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// replay feeds recorded reporter events to a parser as its decoder would
// read them from the events file, then finishes it.
func replay(t *testing.T, events []byte, exit report.Exit, test string) adapterstest.Result {
	t.Helper()
	rec := adapters.NewRecorder()
	p := newParser(rec, "/project", "/project", t.TempDir())
	p.rerun, p.test = []string{"npx", "jest"}, test
	p.decode(bytes.NewReader(events))
	close(p.done)
	out := p.Finish(exit)
	p.Close()
	return adapterstest.Normalise(rec, out, nil)
}

// TestJestRecorded replays the reporter's events recorded from the fixture
// projects (testdata/record.sh) against golden files.
func TestJestRecorded(t *testing.T) {
	for _, tc := range []struct {
		name, test string
		exit       report.Exit
	}{
		{"basic", "", report.Exit{Exited: true, Code: 1}},
		{"broken", "", report.Exit{Exited: true, Code: 1}},
		{"crash-worker", "", report.Exit{Exited: true, Code: 1}},
		{"single", "arith › nested › wrong sum", report.Exit{Exited: true, Code: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "recorded", tc.name+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			adapterstest.Golden(t, "golden/recorded-"+tc.name, replay(t, b, tc.exit, tc.test))
		})
	}
}

// TestJestCorpus reads jest's own --json output, as the fallback does,
// from the team corpus (several jest versions, jasmine2 and circus).
func TestJestCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*.json"))
	if len(files) == 0 {
		t.Fatal("no corpus files")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rec := adapters.NewRecorder()
			p := newParser(rec, "/project", "/project", t.TempDir())
			p.rerun = []string{"npx", "jest"}
			p.readJSON(f)
			close(p.done)
			out := p.Finish(report.Exit{Exited: true, Code: 1})
			p.Close()
			if p.bad > 0 {
				t.Errorf("%s did not decode", file)
			}
			adapterstest.Golden(t, "golden/corpus-"+name, adapterstest.Normalise(rec, out, nil))
		})
	}
}

// TestReporterTSJestSyntaxError gives strobe's reporter the error ts-jest
// reports for a TypeScript test file that does not compile, recorded: its
// place is a TypeScript diagnostic ("src/x.test.ts:2:19 - error TS1109: …",
// relative to the project), which must be the build error's file:line.
func TestReporterTSJestSyntaxError(t *testing.T) {
	testutil.RequireTool(t, "node")
	reporter, err := filepath.Abs("reporter.cjs")
	if err != nil {
		t.Fatal(err)
	}
	recorded, err := filepath.Abs(filepath.Join("testdata", "recorded", "ts-jest-syntax-error.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	events := filepath.Join(dir, "events.jsonl")
	const script = `const [reporter, recorded, root] = process.argv.slice(1);
const Reporter = require(reporter);
const r = new Reporter({rootDir: root});
const err = JSON.parse(require('fs').readFileSync(recorded, 'utf8'));
r.onTestFileResult({path: root + '/src/broken.test.ts'}, {testResults: [], testExecError: err});
r.onRunComplete(null, {});`
	cmd := exec.Command("node", "-e", script, reporter, recorded, "/project")
	cmd.Env = append(os.Environ(), "STROBE_JEST_EVENTS="+events)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	b, err := os.ReadFile(events)
	if err != nil {
		t.Fatal(err)
	}
	var suite event
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var ev event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if ev.Ev == "suite" {
			suite = ev
		}
	}
	if suite.At == nil || suite.At.File != "/project/src/broken.test.ts" || suite.At.Line != 2 || suite.At.Col != 19 ||
		!strings.Contains(suite.Msg, "TS1109: Expression expected.") || strings.Contains(suite.Msg, "\x1b[") {
		t.Errorf("suite event %+v at %+v, want /project/src/broken.test.ts:2:19 and the diagnostic without colours", suite, suite.At)
	}
}

// TestJestRerunFromInside: strobe pointed at a directory inside the
// package (src/), where reruns are pasted: each runs in the package, a
// directory up, where its file's path starts.
func TestJestRerunFromInside(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "recorded", "basic.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rec := adapters.NewRecorder()
	p := newParser(rec, "/project/src", "/project", t.TempDir())
	p.rerun = []string{"npx", "jest"}
	p.decode(bytes.NewReader(b))
	close(p.done)
	p.Finish(report.Exit{Exited: true, Code: 1})
	p.Close()
	n := 0
	for _, tt := range rec.Tests() {
		if f := tt.Failure; f != nil {
			n++
			if !strings.HasPrefix(f.Rerun, "cd .. && npx jest --runTestsByPath ") {
				t.Errorf("%s: rerun %q, want it run a directory up, in the package", tt.Name, f.Rerun)
			}
		}
	}
	if n == 0 {
		t.Fatal("no failure replayed")
	}
}
