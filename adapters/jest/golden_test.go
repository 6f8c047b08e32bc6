package jest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
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
