package unittest

import (
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

// TestReplayRecordings replays testdata/record.sh's runs: the events file
// in the parser's directory, stderr as lines, the recorded exit status.
func TestReplayRecordings(t *testing.T) {
	for _, tc := range []struct{ name, root string }{
		{"basic", "/fixtures/basic"},
		{"broken", "/fixtures/broken"},
		{"abort", "/fixtures/pkg"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			events, err := os.ReadFile(filepath.Join("testdata", tc.name+".events.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			wd := &python.Workdir{Dir: dir, Events: filepath.Join(dir, "events.jsonl")}
			os.WriteFile(wd.Events, events, 0o600)
			rec := adapters.NewRecorder()
			p := newParser(rec, adapters.Request{ProjectRoot: tc.root}, wd, []string{"python3", "-m", "unittest"})
			lines := adapterstest.ReadLines(t, filepath.Join("testdata", tc.name+".stderr"), adapters.Stderr)
			out := adapterstest.Replay(p, lines, recordedExit(t, tc.name))
			adapterstest.Golden(t, "replay-"+tc.name, adapterstest.Normalise(rec, out, nil))
		})
	}
}

func recordedExit(t *testing.T, name string) report.Exit {
	b, err := os.ReadFile(filepath.Join("testdata", name+".exit"))
	if err != nil {
		t.Fatal(err)
	}
	code, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if code > 128 {
		return report.Exit{Signaled: true, Signal: code - 128, SignalName: kit.SignalName(code - 128), Code: code}
	}
	return report.Exit{Exited: true, Code: code}
}
