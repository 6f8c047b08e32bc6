package adapterstest

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"strobe/trace"
)

// TraceSpecFile writes a traced run's spec as the runner does before it
// spawns the plan: patterns and watches ("variable@pattern,…" is not
// parsed here: give trace.Watch values) compiled, the contract's bounds,
// Out a new directory, ProjectRoot root. edit, when not nil, changes the
// spec before it is written. It returns the spec and its path, for the
// plan's environment (trace.SpecEnv).
func TraceSpecFile(t testing.TB, root string, patterns []string, watches map[string][]string, edit func(*trace.Spec)) (*trace.Spec, string) {
	t.Helper()
	ps, err := trace.CompileAll(patterns)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	spec := &trace.Spec{
		Patterns: ps, Out: filepath.Join(dir, "events"), ProjectRoot: root, Exclude: trace.Exclude,
		MaxFunctions: trace.MaxFunctions, MaxEvents: trace.MaxEvents, FullCalls: trace.FullCalls, SampleEvery: trace.SampleEvery,
		MaxValue: trace.MaxValue, MaxDepth: trace.MaxDepth, MaxItems: trace.MaxItems,
	}
	vars := make([]string, 0, len(watches))
	for v := range watches {
		vars = append(vars, v)
	}
	sort.Strings(vars)
	for _, v := range vars {
		on, err := trace.CompileAll(watches[v])
		if err != nil {
			t.Fatal(err)
		}
		spec.Watches = append(spec.Watches, trace.Watch{Variable: v, On: on})
	}
	if edit != nil {
		edit(spec)
	}
	if err := os.MkdirAll(spec.Out, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return spec, path
}

// TraceFile is one events-<pid>.jsonl file a tracer wrote.
type TraceFile struct {
	Name   string
	Events []trace.Event
	// Meta is the file's last line; nil when the tracer did not end the
	// file (a test then fails on it).
	Meta *trace.Meta
}

// TraceFiles reads every event file under out, checking the contract: ids
// from 1 in order, one meta line and only at the end.
func TraceFiles(t testing.TB, out string) []TraceFile {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(out, "events-*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var files []TraceFile
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		tf := TraceFile{Name: filepath.Base(name)}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			if tf.Meta != nil {
				t.Errorf("%s: a line after the meta line: %s", tf.Name, sc.Text())
			}
			var probe struct{ Type string }
			if err := json.Unmarshal(sc.Bytes(), &probe); err != nil {
				t.Fatalf("%s: %v: %s", tf.Name, err, sc.Text())
			}
			if probe.Type == trace.MetaType {
				tf.Meta = new(trace.Meta)
				json.Unmarshal(sc.Bytes(), tf.Meta)
				continue
			}
			var ev trace.Event
			json.Unmarshal(sc.Bytes(), &ev)
			if want := uint64(len(tf.Events) + 1); ev.ID != want {
				t.Errorf("%s: event id %d, want %d", tf.Name, ev.ID, want)
			}
			tf.Events = append(tf.Events, ev)
		}
		f.Close()
		if tf.Meta == nil {
			t.Errorf("%s: no meta line at the end", tf.Name)
		}
		files = append(files, tf)
	}
	return files
}
