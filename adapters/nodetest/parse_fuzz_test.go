package nodetest

import (
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit/node"
	"strobe/report"
)

func junitConfig() node.EventsConfig {
	return node.EventsConfig{Framework: "node:test", Root: "/project", NoTests: noTests,
		Rerun: func(file, test string) string { return "node --test " + file + " # " + test }}
}

// TestNodeJUnitRecorded replays node's own JUnit report (the fallback).
func TestNodeJUnitRecorded(t *testing.T) {
	rec := adapters.NewRecorder()
	out := adapterstest.Replay(&junitParser{rec: rec, cfg: junitConfig()}, junitLines(t), report.Exit{Exited: true, Code: 1})
	adapterstest.Golden(t, "recorded-basic-junit", adapterstest.Normalise(rec, out, nil))
}

// junitLines reads the JUnit recording, its {{ROOT}} made /project.
func junitLines(t *testing.T) []adapterstest.Line {
	lines := adapterstest.ReadLines(t, "testdata/recorded/basic-junit.stdout", adapters.Stdout)
	for i := range lines {
		lines[i].Text = strings.ReplaceAll(lines[i].Text, "{{ROOT}}", "/project")
	}
	return lines
}

// FuzzNodeJUnit feeds what node could print to the JUnit fallback's
// parser. (The reporter's events are fuzzed in adapters/kit/node.)
func FuzzNodeJUnit(f *testing.F) {
	f.Add(adapterstest.FuzzSeed(f, "testdata/recorded/basic-junit.stdout"), []byte{}, []byte{0}, byte(1), byte(0))
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			return &junitParser{rec: rec, cfg: junitConfig()}
		}, stdout, stderr, sched, code, flags)
	})
}
