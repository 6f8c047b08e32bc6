package pytest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit"
	"strobe/adapters/kit/python"
	"strobe/report"
)

// replay runs a recording (testdata/record.sh) through the parser as a
// run would: the events file in the parser's own directory, stdout and
// stderr as lines, interleaved by order (stdout first, stderr first, or
// alternating), then Finish with the recorded exit status.
func replay(t *testing.T, name string, req adapters.Request, order int) (*adapters.Recorder, adapters.Outcome) {
	t.Helper()
	events, err := os.ReadFile(filepath.Join("testdata", name+".events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wd := &python.Workdir{Dir: dir, Events: filepath.Join(dir, "events.jsonl")}
	if err := os.WriteFile(wd.Events, events, 0o600); err != nil {
		t.Fatal(err)
	}
	rec := adapters.NewRecorder()
	p := newParser(rec, req, wd, []string{"python3", "-m", "pytest"})
	out := adapterstest.ReadLines(t, filepath.Join("testdata", name+".stdout"), adapters.Stdout)
	errs := adapterstest.ReadLines(t, filepath.Join("testdata", name+".stderr"), adapters.Stderr)
	return rec, adapterstest.Replay(p, interleave(out, errs, order), recordedExit(t, name))
}

func interleave(a, b []adapterstest.Line, order int) []adapterstest.Line {
	switch order {
	case 0:
		return append(append([]adapterstest.Line{}, a...), b...)
	case 1:
		return append(append([]adapterstest.Line{}, b...), a...)
	}
	var out []adapterstest.Line
	for len(a) > 0 || len(b) > 0 {
		if len(a) > 0 {
			out, a = append(out, a[0]), a[1:]
		}
		if len(b) > 0 {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return out
}

// recordedExit reads NAME.exit: a shell's status, 128+N for signal N.
func recordedExit(t *testing.T, name string) report.Exit {
	b, err := os.ReadFile(filepath.Join("testdata", name+".exit"))
	if err != nil {
		t.Fatal(err)
	}
	code, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if code > 128 {
		sig := code - 128
		return report.Exit{Signaled: true, Signal: sig, SignalName: kit.SignalName(sig), Code: code}
	}
	return report.Exit{Exited: true, Code: code}
}

func TestReplayRecordings(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  adapters.Request
	}{
		{"basic", adapters.Request{ProjectRoot: "/fixtures/basic"}},
		{"basic-xdist", adapters.Request{ProjectRoot: "/fixtures/basic"}},
		{"collect-error", adapters.Request{ProjectRoot: "/fixtures/collect_error"}},
		{"crash-abort", adapters.Request{ProjectRoot: "/fixtures/crash", Test: "test_crash.py"}},
		{"empty", adapters.Request{ProjectRoot: "/fixtures/empty"}},
		{"markers-unit", adapters.Request{ProjectRoot: "/fixtures/markers", Level: adapters.LevelUnit}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first []byte
			for order := 0; order < 3; order++ {
				rec, out := replay(t, tc.name, tc.req, order)
				res := adapterstest.Normalise(rec, out, nil)
				if order == 0 {
					adapterstest.Golden(t, "replay-"+tc.name, res)
					first = mustJSON(t, res)
				} else if got := mustJSON(t, res); string(got) != string(first) {
					t.Errorf("order %d differs from order 0:\n%s", order, adapterstest.LineDiff(string(first), string(got)))
				}
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFallbackCorpus reads pytest's own console output (the team corpus,
// regenerated from real runs by pytest's docs) as the parser does when its
// plugin sent nothing.
func TestFallbackCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/corpus/console-*.txt")
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			rec := adapters.NewRecorder()
			p := newParser(rec, adapters.Request{ProjectRoot: "/home/sweet/project"}, &python.Workdir{Dir: dir, Events: filepath.Join(dir, "events.jsonl")}, []string{"pytest"})
			out := adapterstest.Replay(p, adapterstest.ReadLines(t, path, adapters.Stdout), report.Exit{Exited: true, Code: exitFailed})
			if !strings.Contains(out.Hint, "plugin did not load") || out.Summary == nil {
				t.Errorf("outcome %+v, want the fallback said and the counts read", out)
			}
			adapterstest.Golden(t, "fallback-"+name, adapterstest.Normalise(rec, out, nil))
		})
	}
}
