package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/details"
	"strobe/report"
	"strobe/runner"
	"strobe/trace"
)

func TestWatchFlag(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want *runner.TraceWatch
	}{
		{"COUNT@calc::parse", &runner.TraceWatch{Variable: "COUNT", On: []string{"calc::parse"}}},
		{"cfg.limit@calc::parse,calc::lex", &runner.TraceWatch{Variable: "cfg.limit", On: []string{"calc::parse", "calc::lex"}}},
		{"n@@file:parser.rs", &runner.TraceWatch{Variable: "n", On: []string{"@file:parser.rs"}}},
		{"COUNT", nil},
		{"@calc::parse", nil},
		{"COUNT@", nil},
	} {
		var w watchFlag
		err := w.Set(tc.in)
		if tc.want == nil {
			if err == nil {
				t.Errorf("%q: no error", tc.in)
			}
			continue
		}
		if err != nil || len(w) != 1 || w[0].Variable != tc.want.Variable || strings.Join(w[0].On, " ") != strings.Join(tc.want.On, " ") {
			t.Errorf("%q = %+v, %v", tc.in, w, err)
		}
	}
}

func TestQueryCommand(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := details.Dir()
	out := trace.OutDir(dir, "run-42")
	os.MkdirAll(out, 0o700)
	lines := `{"id":1,"type":"enter","t":1000,"thread":"1","function":"calc::parse","args":[{"name":"input","value":"\"1+\""}]}
{"id":2,"type":"exit","t":3000,"thread":"1","parent":1,"function":"calc::parse","return":[{"value":"Err(Eof)"}],"error":true,"durationNs":2000}
{"type":"meta","tracer":"test"}
`
	os.WriteFile(filepath.Join(out, "events-1.jsonl"), []byte(lines), 0o600)
	if _, err := trace.Ingest(trace.Dir(dir, "run-42"), "run-42", "", 0, out, nil, trace.MaxEvents, trace.MaxSessionBytes); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"query", "run-42", "--error", "--limit", "5"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if got := stdout.String(); !strings.HasPrefix(got, "#2 +3.0µs t1 ← calc::parse = Err(Eof) !error 2.0µs\n(2 events in session run-42)") {
		t.Errorf("output:\n%s", got)
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"query", "--type", "enter", "run-42", "--json"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var p trace.Page
	if err := json.Unmarshal(stdout.Bytes(), &p); err != nil || len(p.Lines) != 1 {
		t.Errorf("--json: %v %s", err, stdout.String())
	}
	for _, args := range [][]string{{"query", "gone"}, {"query"}, {"query", "run-42", "--limit", "0"}, {"query", "run-42", "--matches", "("}} {
		stderr.Reset()
		if code := run(context.Background(), args, &stdout, &stderr); code != exitUsage || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, %q", args, code, stderr.String())
		}
	}
}

func TestTestTraceUnsupported(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"test", t.TempDir(), "--no-daemon", "--framework", "generic", "--command", "true", "--trace", "main", "--watch", "x@main"}, &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "tracePatterns is not supported for generic yet") {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
}

func TestRenderTrace(t *testing.T) {
	var b bytes.Buffer
	renderTrace(&b, &report.Response{SessionID: "abc", Trace: &report.Trace{Tracer: "gdb 13.1", Events: 12, Dropped: 3,
		Matched:   report.Names{Count: 2, Names: []string{"calc::parse"}},
		Unmatched: []report.TraceUnmatched{{Pattern: "calc::prase", Nearest: []string{"calc::parse"}}},
		Sampled:   []report.TraceCalls{{Function: "calc::lex", Calls: 5000}}, Warnings: []string{"no debug info in libm"}}}, palette{})
	want := `
trace  gdb 13.1 · 12 events (3 dropped) · 2 functions matched: calc::parse, …
  calc::prase matched nothing; nearest: calc::parse
  calc::lex sampled: 5000 calls
  ⚠ no debug info in libm
  strobe query abc [--function NAME --type exit …]
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}
