package trace_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strobe/adapters/adapterstest"
	"strobe/trace"
)

const start = int64(1_700_000_000_000_000_000)

// writeEvents writes an event file as a tracer does: events, then meta.
func writeEvents(t *testing.T, out, name string, evs []trace.Event, meta *trace.Meta) {
	t.Helper()
	if err := os.MkdirAll(out, 0o700); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for _, e := range evs {
		enc.Encode(e)
	}
	if meta != nil {
		meta.Type = trace.MetaType
		enc.Encode(meta)
	}
	if err := os.WriteFile(filepath.Join(out, name), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// twoProcesses is a traced run of two processes whose events interleave,
// each numbered from 1 with parents in its own numbering.
func twoProcesses(t *testing.T, dir, id string) string {
	out := trace.OutDir(dir, id)
	writeEvents(t, out, "events-100.jsonl", []trace.Event{
		{ID: 1, Type: trace.Enter, T: start + 1_000_000, PID: 100, Thread: "1", Function: "calc::parse",
			File: "/p/src/parser.rs", Line: 40, Args: []trace.Value{{Name: "input", Value: `"1+"`}}},
		{ID: 2, Type: trace.Enter, T: start + 3_000_000, PID: 100, Thread: "1", Depth: 1, Parent: 1, Function: "calc::lex",
			File: "/p/src/lexer.rs", Line: 7, Args: []trace.Value{{Name: "s", Value: `"1+"`}}},
		{ID: 3, Type: trace.Exit, T: start + 3_500_000, PID: 100, Thread: "1", Depth: 1, Parent: 2, Function: "calc::lex",
			Return: []trace.Value{{Value: "None"}}, DurationNS: 500_000},
		{ID: 4, Type: trace.Exit, T: start + 6_000_000, PID: 100, Thread: "1", Parent: 1, Function: "calc::parse",
			Return: []trace.Value{{Value: `Err("eof")`}}, Error: true, DurationNS: 5_000_000,
			Watches: []trace.Value{{Name: "COUNT", Value: "3"}}},
	}, &trace.Meta{Tracer: "gdb 13.1", Matched: []string{"calc::parse", "calc::lex"},
		Unmatched: []trace.Unmatched{{Pattern: "calc::nothing", Nearest: []string{"calc::parse"}}, {Pattern: "w::x"}},
		Calls:     map[string]int64{"calc::parse": 1, "calc::lex": 1}})
	writeEvents(t, out, "events-200.jsonl", []trace.Event{
		{ID: 1, Type: trace.Enter, T: start + 2_000_000, PID: 200, Thread: "goroutine 7", Function: "calc::eval",
			File: "/p/src/eval.rs", Line: 3, Args: []trace.Value{{Name: "n", Unavailable: "optimised out"}}},
		{ID: 2, Type: trace.Exit, T: start + 4_000_000, PID: 200, Thread: "goroutine 7", Parent: 1, Function: "calc::eval",
			Return: []trace.Value{{Value: "42"}}, DurationNS: 2_000_000, Sampled: true, Call: 1101},
	}, &trace.Meta{Tracer: "gdb 13.1", Matched: []string{"calc::eval"}, Unmatched: []trace.Unmatched{{Pattern: "calc::nothing"}},
		Calls: map[string]int64{"calc::eval": 5000}, Dropped: 3899, Warnings: []string{"no debug info in libm"}})
	return out
}

// events reads every event of a session.
func events(t *testing.T, dir, id string) []trace.Event {
	t.Helper()
	s, err := trace.Load(dir, id)
	if err != nil {
		t.Fatal(err)
	}
	var ids []uint64
	for i := range s.Len() {
		ids = append(ids, uint64(i+1))
	}
	evs, err := s.Events(ids)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func TestIngestMergesInTimeOrder(t *testing.T) {
	dir := t.TempDir()
	out := twoProcesses(t, dir, "run1")
	extra := []trace.Event{{Type: trace.Stdout, T: start + 5_000_000, Text: "running 1 test"}}
	h, err := trace.Ingest(trace.Dir(dir, "run1"), "run1", "/p", start, out, extra, trace.MaxEvents, trace.MaxSessionBytes)
	if err != nil {
		t.Fatal(err)
	}
	evs := events(t, dir, "run1")
	var got []string
	for _, e := range evs {
		got = append(got, e.Function+"/"+e.Type)
	}
	want := "calc::parse/enter calc::eval/enter calc::lex/enter calc::lex/exit calc::eval/exit /stdout calc::parse/exit"
	if strings.Join(got, " ") != want {
		t.Errorf("order:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	for i, e := range evs {
		if e.ID != uint64(i+1) {
			t.Errorf("event %d has id %d", i, e.ID)
		}
	}
	// Parents point at the renumbered enters, across files.
	parents := map[string]uint64{}
	for _, e := range evs {
		parents[e.Function+"/"+e.Type] = e.Parent
	}
	for k, want := range map[string]uint64{"calc::lex/enter": 1, "calc::lex/exit": 3, "calc::eval/exit": 2, "calc::parse/exit": 1, "calc::parse/enter": 0} {
		if parents[k] != want {
			t.Errorf("%s parent = %d, want %d", k, parents[k], want)
		}
	}
	if evs[0].T != 1_000_000 {
		t.Errorf("T = %d, want ns since start", evs[0].T)
	}
	if h.Events != 7 || h.Dropped != 3899 || h.Tracer != "gdb 13.1" {
		t.Errorf("header = %+v", h)
	}
	// Unmatched only when no process matched it.
	if len(h.Unmatched) != 1 || h.Unmatched[0].Pattern != "calc::nothing" || h.Unmatched[0].Nearest[0] != "calc::parse" {
		t.Errorf("unmatched = %+v", h.Unmatched)
	}
	if sm := h.Sampled(trace.FullCalls); len(sm) != 1 || sm[0].Function != "calc::eval" || sm[0].Calls != 5000 {
		t.Errorf("sampled = %+v", sm)
	}
	if files, _ := filepath.Glob(filepath.Join(out, "*")); len(files) != 0 {
		t.Errorf("event files left behind: %v", files)
	}
}

// TestIngestWarnsOfAnUnreadableWatch: a watch on a variable the program
// lacks read <unavailable: …> at every event and nothing in the answer
// said so; a watch readable at one read of several is no warning.
func TestIngestWarnsOfAnUnreadableWatch(t *testing.T) {
	dir := t.TempDir()
	out := trace.OutDir(dir, "w")
	missing := trace.Value{Name: "nosuch", Unavailable: "could not find symbol value for nosuch"}
	writeEvents(t, out, "events-1.jsonl", []trace.Event{
		{ID: 1, Type: trace.Enter, T: start + 1, Function: "shop.Total", Watches: []trace.Value{missing, {Name: "n", Unavailable: "out of scope"}}},
		{ID: 2, Type: trace.Exit, T: start + 2, Function: "shop.Total", Parent: 1, Watches: []trace.Value{missing, {Name: "n", Value: "2"}}},
	}, &trace.Meta{Tracer: "delve 1.27.2", Matched: []string{"shop.Total"}})
	h, err := trace.Ingest(trace.Dir(dir, "w"), "w", "/p", start, out, nil, trace.MaxEvents, trace.MaxSessionBytes)
	if err != nil {
		t.Fatal(err)
	}
	want := "watch nosuch: unavailable at all 2 reads (could not find symbol value for nosuch): check its name, or watch an argument or a global of the functions it is on"
	if !slices.Equal(h.Warnings, []string{want}) {
		t.Errorf("warnings %q, want %q", h.Warnings, want)
	}
}

// TestIngestWarnsOfUncalledFunctions: a pattern naming a function the
// tests that ran never call matched it, recorded nothing, and the answer
// said nothing of it: the warning names it, and says so of every matched
// function when none was called.
func TestIngestWarnsOfUncalledFunctions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		matched []string
		want    string
	}{
		{"one of two", []string{"shop.Total", "shop.Refund"}, "matched and never called by the tests that ran: shop.Refund"},
		{"none", []string{"shop.Refund"}, "no matched function was called (shop.Refund): the tests that ran do not reach them; trace what the failing test calls (its suggested_traces), or run the test that calls them"},
		{"each called", []string{"shop.Total"}, ""},
	} {
		dir := t.TempDir()
		out := trace.OutDir(dir, "u")
		var evs []trace.Event
		if slices.Contains(tc.matched, "shop.Total") {
			evs = []trace.Event{{ID: 1, Type: trace.Enter, T: start + 1, Function: "shop.Total"}, {ID: 2, Type: trace.Exit, T: start + 2, Function: "shop.Total", Parent: 1}}
		}
		writeEvents(t, out, "events-1.jsonl", evs, &trace.Meta{Tracer: "delve 1.27.2", Matched: tc.matched})
		h, err := trace.Ingest(trace.Dir(dir, "u"), "u", "/p", start, out, nil, trace.MaxEvents, trace.MaxSessionBytes)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		if tc.want != "" {
			want = []string{tc.want}
		}
		if !slices.Equal(h.Warnings, want) {
			t.Errorf("%s: warnings %q, want %q", tc.name, h.Warnings, want)
		}
	}
}

func TestIngestBounds(t *testing.T) {
	for _, tc := range []struct {
		name      string
		maxEvents int
		maxBytes  int64
		kept      int
	}{
		{"events", 3, trace.MaxSessionBytes, 3},
		{"bytes", 100, 400, 2},
		{"none", 100, trace.MaxSessionBytes, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := twoProcesses(t, dir, "r")
			h, err := trace.Ingest(trace.Dir(dir, "r"), "r", "/p", start, out, nil, tc.maxEvents, tc.maxBytes)
			if err != nil {
				t.Fatal(err)
			}
			evs := events(t, dir, "r")
			if len(evs) != tc.kept || h.Events != tc.kept {
				t.Fatalf("kept %d (header %d), want %d", len(evs), h.Events, tc.kept)
			}
			if want := 3899 + int64(6-tc.kept); h.Dropped != want {
				t.Errorf("dropped = %d, want %d", h.Dropped, want)
			}
			// The earliest are kept.
			if evs[0].Function != "calc::parse" || evs[0].T != 1_000_000 {
				t.Errorf("first kept = %+v", evs[0])
			}
		})
	}
}

func TestIngestSurvivesDamage(t *testing.T) {
	dir := t.TempDir()
	out := trace.OutDir(dir, "r")
	writeEvents(t, out, "events-1.jsonl", []trace.Event{{ID: 1, Type: trace.Enter, T: start + 1, Function: "f"}}, nil)
	f, _ := os.OpenFile(filepath.Join(out, "events-1.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"id":2,"type":"ex`) // a tracer killed mid-line
	f.Close()
	h, err := trace.Ingest(trace.Dir(dir, "r"), "r", "", start, out, nil, trace.MaxEvents, trace.MaxSessionBytes)
	if err != nil {
		t.Fatal(err)
	}
	if h.Events != 1 || len(h.Warnings) != 2 {
		t.Errorf("header = %+v, want 1 event and warnings for the cut line and the missing meta", h)
	}
}

func TestSessionSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	out := twoProcesses(t, dir, "r")
	if _, err := trace.Ingest(trace.Dir(dir, "r"), "r", "/p", start, out, nil, trace.MaxEvents, trace.MaxSessionBytes); err != nil {
		t.Fatal(err)
	}
	// A copy elsewhere is read from disk, never from the cache: what a
	// restarted daemon sees.
	moved := t.TempDir()
	if err := os.Rename(trace.Dir(dir, "r"), trace.Dir(moved, "r")); err != nil {
		t.Fatal(err)
	}
	p, err := trace.Query(moved, "r", trace.Filter{FunctionEquals: "calc::parse", EventType: trace.Exit})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Lines) != 1 || !strings.Contains(p.Lines[0], `Err("eof")`) {
		t.Errorf("lines = %q", p.Lines)
	}
	if _, err := trace.Query(dir, "r", trace.Filter{}); err == nil || !strings.Contains(err.Error(), "rerun the test with tracePatterns") {
		t.Errorf("moved-away session: err = %v", err)
	}
}

func TestQueryFilters(t *testing.T) {
	dir := t.TempDir()
	out := twoProcesses(t, dir, "q")
	extra := []trace.Event{{Type: trace.Stderr, T: start + 5_000_000, Text: "thread 'main' panicked"},
		{Type: trace.Crash, T: start + 7_000_000, Text: "segmentation_fault (SIGSEGV)"}}
	if _, err := trace.Ingest(trace.Dir(dir, "q"), "q", "/p", start, out, extra, trace.MaxEvents, trace.MaxSessionBytes); err != nil {
		t.Fatal(err)
	}
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		name string
		f    trace.Filter
		ids  string
	}{
		{"all", trace.Filter{}, "1 2 3 4 5 6 7 8"},
		{"equals", trace.Filter{FunctionEquals: "calc::lex"}, "3 4"},
		{"contains", trace.Filter{FunctionContains: "ev"}, "2 5"},
		{"matches", trace.Filter{FunctionMatches: `^calc::(lex|parse)$`}, "1 3 4 7"},
		{"file", trace.Filter{File: "parser.rs"}, "1"},
		{"file path end", trace.Filter{File: "src/eval.rs"}, "2"},
		{"type", trace.Filter{EventType: trace.Exit}, "4 5 7"},
		{"stderr", trace.Filter{EventType: trace.Stderr}, "6"},
		{"crash", trace.Filter{EventType: trace.Crash}, "8"},
		{"thread", trace.Filter{Thread: "goroutine 7"}, "2 5"},
		{"returns", trace.Filter{ReturnEquals: str("42")}, "5"},
		{"null", trace.Filter{ReturnIsNull: true}, "4"},
		{"error", trace.Filter{ReturnIsError: true}, "7"},
		{"duration", trace.Filter{MinDurationMS: 2}, "5 7"},
		{"window", trace.Filter{FromNS: 2_000_000, ToNS: 3_500_000}, "2 3 4"},
		{"limit", trace.Filter{Limit: 2, LimitSet: true}, "1 2"},
		{"cursor", trace.Filter{AfterEventID: 6}, "7 8"},
		{"and", trace.Filter{FunctionContains: "calc", EventType: trace.Enter, Thread: "1"}, "1 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.f.Verbose = true
			p, err := trace.Query(dir, "q", tc.f)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, e := range p.Events {
				ids = append(ids, strings.TrimPrefix(trace.Line(&e, ""), "#")[:1])
			}
			if got := strings.Join(ids, " "); got != tc.ids {
				t.Errorf("ids = %q, want %q", got, tc.ids)
			}
		})
	}
}

// TestQueryHintsAnUnknownFunction: function.equals with the pattern
// traced (shop.Total, nth) where events write the whole name
// (example.com/shop.Total, more_itertools.recipes.nth) answered "no events
// match" and nothing else.
func TestQueryHintsAnUnknownFunction(t *testing.T) {
	dir := t.TempDir()
	out := twoProcesses(t, dir, "h")
	if _, err := trace.Ingest(trace.Dir(dir, "h"), "h", "/p", start, out, nil, trace.MaxEvents, trace.MaxSessionBytes); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, want string }{
		{"parse", "no function of this session is named parse: function.equals (--function) takes the whole name as the events write it: calc::parse"},
		{"calc.lex", "no function of this session is named calc.lex: function.equals (--function) takes the whole name as the events write it: calc::lex"},
		{"zzz", "no function of this session is named zzz: function.equals (--function) takes a name as the events write it; contains takes a part of one"},
		{"calc::parse", ""},
	} {
		p, err := trace.Query(dir, "h", trace.Filter{FunctionEquals: tc.name, EventType: trace.Crash})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Lines) != 0 || p.Hint != tc.want {
			t.Errorf("%s: lines %q, hint %q, want %q", tc.name, p.Lines, p.Hint, tc.want)
		}
	}
}

func TestQueryCursorPages(t *testing.T) {
	dir := t.TempDir()
	out := twoProcesses(t, dir, "c")
	if _, err := trace.Ingest(trace.Dir(dir, "c"), "c", "/p", start, out, nil, trace.MaxEvents, trace.MaxSessionBytes); err != nil {
		t.Fatal(err)
	}
	var seen []string
	f := trace.Filter{FunctionContains: "calc", Limit: 2, LimitSet: true}
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("the cursor never ends")
		}
		p, err := trace.Query(dir, "c", f)
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, p.Lines...)
		if p.NextCursor == 0 {
			break
		}
		f.AfterEventID = p.NextCursor
	}
	if len(seen) != 6 {
		t.Errorf("paged through %d events, want 6: %q", len(seen), seen)
	}
}

func TestQueryCompactGolden(t *testing.T) {
	dir := t.TempDir()
	out := twoProcesses(t, dir, "g")
	extra := []trace.Event{{Type: trace.Stdout, T: start + 5_000_000, Text: "running 1 test"}}
	if _, err := trace.Ingest(trace.Dir(dir, "g"), "g", "/p", start, out, extra, trace.MaxEvents, trace.MaxSessionBytes); err != nil {
		t.Fatal(err)
	}
	p, err := trace.Query(dir, "g", trace.Filter{Limit: 6, LimitSet: true})
	if err != nil {
		t.Fatal(err)
	}
	adapterstest.Golden(t, "compact", p)
}

func TestQueryErrors(t *testing.T) {
	dir := t.TempDir()
	out := twoProcesses(t, dir, "e")
	if _, err := trace.Ingest(trace.Dir(dir, "e"), "e", "/p", start, out, nil, trace.MaxEvents, trace.MaxSessionBytes); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id   string
		f    trace.Filter
		want string
	}{
		{"nope", trace.Filter{}, "no trace session \"nope\""},
		{"../e", trace.Filter{}, "give the sessionId"},
		{"", trace.Filter{}, "give the sessionId"},
		{"e", trace.Filter{FunctionMatches: "("}, "is not a regular expression"},
		{"e", trace.Filter{Limit: 0, LimitSet: true}, "limit 0 is out of range"},
		{"e", trace.Filter{Limit: 501}, "limit 501 is out of range"},
		{"e", trace.Filter{EventType: "call"}, "unknown eventType \"call\": use one of enter, exit"},
		{"e", trace.Filter{MinDurationMS: -1}, "negative"},
		{"e", trace.Filter{FromNS: 5, ToNS: 2}, "time window"},
		{"e", trace.Filter{ReturnIsNull: true, EventType: trace.Enter}, "select exit events"},
	} {
		_, err := trace.Query(dir, tc.id, tc.f)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Query(%q, %+v) err = %v, want one line with %q", tc.id, tc.f, err, tc.want)
		}
	}
}

func TestDamagedSession(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(sdir string)
		want   string
	}{
		{"no index", func(sdir string) { os.Remove(filepath.Join(sdir, "index.gob")) }, "damaged (no index)"},
		{"cut index", func(sdir string) { os.Truncate(filepath.Join(sdir, "index.gob"), 40) }, "damaged (bad index)"},
		{"bad header", func(sdir string) { os.WriteFile(filepath.Join(sdir, "session.jsonl"), []byte("{}\n"), 0o600) }, "damaged (bad header)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := twoProcesses(t, dir, "d")
			if _, err := trace.Ingest(trace.Dir(dir, "d"), "d", "/p", start, out, nil, trace.MaxEvents, trace.MaxSessionBytes); err != nil {
				t.Fatal(err)
			}
			tc.damage(trace.Dir(dir, "d"))
			if _, err := trace.Query(dir, "d", trace.Filter{}); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestIngestKilledTracer: a tracer killed with its process (a hung test
// strobe stopped) writes no meta line. The functions it recorded calls of
// were matched: the answer counted none, and the runner then said the
// tests had not run under the tracer.
func TestIngestKilledTracer(t *testing.T) {
	dir := t.TempDir()
	out := trace.OutDir(dir, "k")
	writeEvents(t, out, "events-1.jsonl", []trace.Event{
		{ID: 1, Type: trace.Enter, T: start + 1, Function: "calc.tokens.parse"},
		{ID: 2, Type: trace.Exit, T: start + 2, Function: "calc.tokens.parse", Parent: 1},
		{ID: 3, Type: trace.Enter, T: start + 3, Function: "calc.tokens.lex"},
	}, nil)
	h, err := trace.Ingest(trace.Dir(dir, "k"), "k", "/p", start, out, nil, trace.MaxEvents, trace.MaxSessionBytes)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"calc.tokens.lex", "calc.tokens.parse"}; !slices.Equal(h.Matched, want) || h.Killed != 1 || h.Events != 3 {
		t.Errorf("matched %q, killed %d, events %d; want %q, 1, 3", h.Matched, h.Killed, h.Events, want)
	}
}
