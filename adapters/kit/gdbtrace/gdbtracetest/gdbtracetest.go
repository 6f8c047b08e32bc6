// Package gdbtracetest drives a traced run at the adapter level as the
// runner will: a spec file named by trace.SpecEnv, events read back from
// the spec's Out.
package gdbtracetest

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/trace"
)

// Spec compiles patterns and watches ("VAR@PATTERN") into a spec whose Out
// is a fresh directory, writes it, and sets trace.SpecEnv for the test.
func Spec(t testing.TB, root string, patterns []string, watches ...string) *trace.Spec {
	t.Helper()
	ps, err := trace.CompileAll(patterns)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := &trace.Spec{
		Patterns: ps, Out: filepath.Join(dir, "events"), ProjectRoot: root, Exclude: trace.Exclude,
		MaxFunctions: trace.MaxFunctions, MaxEvents: trace.MaxEvents, FullCalls: trace.FullCalls,
		SampleEvery: trace.SampleEvery, MaxValue: trace.MaxValue, MaxDepth: trace.MaxDepth, MaxItems: trace.MaxItems,
	}
	for _, w := range watches {
		v, p, _ := strings.Cut(w, "@")
		on, err := trace.CompileAll([]string{p})
		if err != nil {
			t.Fatal(err)
		}
		s.Watches = append(s.Watches, trace.Watch{Variable: v, On: on})
	}
	if err := os.MkdirAll(s.Out, 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(s)
	path := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(trace.SpecEnv, path)
	return s
}

// Events reads every event file under out: the events, and the Meta
// line that ends each file. A file without its Meta fails the test.
func Events(t testing.TB, out string) ([]trace.Event, []trace.Meta) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(out, "events-*.jsonl"))
	var evs []trace.Event
	var metas []trace.Meta
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		var last string
		for sc.Scan() {
			line := sc.Text()
			last = line
			if strings.Contains(line, `"type":"meta"`) {
				var m trace.Meta
				if err := json.Unmarshal([]byte(line), &m); err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				metas = append(metas, m)
				continue
			}
			var e trace.Event
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatalf("%s: %v: %s", f, err, line)
			}
			evs = append(evs, e)
		}
		fh.Close()
		if !strings.Contains(last, `"type":"meta"`) {
			t.Fatalf("%s does not end with its meta line: %q", f, last)
		}
	}
	return evs, metas
}

// Calls are the enter events of function (matched by its name's end).
func Calls(evs []trace.Event, typ, function string) []trace.Event {
	var out []trace.Event
	for _, e := range evs {
		if e.Type == typ && (e.Function == function || strings.HasSuffix(e.Function, "::"+function)) {
			out = append(out, e)
		}
	}
	return out
}
