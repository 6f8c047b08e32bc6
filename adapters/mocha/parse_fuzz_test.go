package mocha

import (
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit/node"
	"strobe/report"
)

func fallbackConfig() node.EventsConfig {
	return node.EventsConfig{Framework: "mocha", Root: "/project", NoTests: noTests,
		Rerun: func(file, test string) string { return "npx mocha " + file + " --grep " + grep(test) }}
}

// TestMochaJSONRecorded replays mocha's own JSON report (the fallback)
// and a run that stopped on a test file that failed to load.
func TestMochaJSONRecorded(t *testing.T) {
	rec := adapters.NewRecorder()
	out := adapterstest.Replay(newJSONParser(rec, fallbackConfig()), recorded(t, "basic-json.stdout", adapters.Stdout), report.Exit{Exited: true, Code: 5})
	adapterstest.Golden(t, "recorded-basic-json", adapterstest.Normalise(rec, out, nil))

	rec = adapters.NewRecorder()
	p := &parser{Events: node.NewEvents(rec, fallbackConfig(), "", filepath.Join(t.TempDir(), "none.jsonl")), root: "/project"}
	out = adapterstest.Replay(p, recorded(t, "broken.stderr", adapters.Stderr), report.Exit{Exited: true, Code: 1})
	adapterstest.Golden(t, "recorded-broken", adapterstest.Normalise(rec, out, nil))
}

// recorded reads a recording with its placeholders made paths: {{ROOT}}
// the project, {{FIXTURES}} the package above it.
func recorded(t *testing.T, name string, s adapters.Stream) []adapterstest.Line {
	lines := adapterstest.ReadLines(t, filepath.Join("testdata", "recorded", name), s)
	for i := range lines {
		lines[i].Text = strings.NewReplacer("{{ROOT}}", "/project", "{{FIXTURES}}", "/fixtures").Replace(lines[i].Text)
	}
	return lines
}

// FuzzMocha feeds what mocha could print to the JSON fallback's parser
// and to the reporter's (reading stderr before the run began).
func FuzzMocha(f *testing.F) {
	f.Add(adapterstest.FuzzSeed(f, "testdata/recorded/basic-json.stdout"), []byte{}, []byte{0}, byte(5), byte(0))
	f.Add([]byte{}, adapterstest.FuzzSeed(f, "testdata/recorded/broken.stderr"), []byte{1}, byte(1), byte(0))
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			return newJSONParser(rec, fallbackConfig())
		}, stdout, stderr, sched, code, flags)
		dir := t.TempDir()
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			return &parser{Events: node.NewEvents(rec, fallbackConfig(), "", filepath.Join(dir, "none.jsonl")), root: "/project"}
		}, stdout, stderr, sched, code, flags)
	})
}
