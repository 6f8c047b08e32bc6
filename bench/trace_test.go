package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/trace"
)

// traceEvents is the session BenchmarkTraceQuery queries: the most a
// session keeps.
const traceEvents = trace.MaxEvents

// writeTracerFiles writes n events as four tracer processes would: enter
// and exit pairs of 40 functions with arguments, return values and
// watches, one call in 1,000 an error.
func writeTracerFiles(b *testing.B, out string, start int64, n int) {
	if err := os.MkdirAll(out, 0o700); err != nil {
		b.Fatal(err)
	}
	const procs = 4
	for p := range procs {
		f, err := os.Create(filepath.Join(out, fmt.Sprintf("events-%d.jsonl", 100+p)))
		if err != nil {
			b.Fatal(err)
		}
		enc := json.NewEncoder(f)
		id := uint64(0)
		for i := p; i < n/2; i += procs {
			t := start + int64(i)*2000
			fn := fmt.Sprintf("calc::parser::parse_%02d", i%40)
			id++
			enter := id
			enc.Encode(trace.Event{ID: enter, Type: trace.Enter, T: t, PID: 100 + p, Thread: fmt.Sprint(p + 1), Function: fn,
				File: "/bench/calc/src/parser.rs", Line: 40 + i%40, Args: []trace.Value{{Name: "input", Type: "&str", Value: fmt.Sprintf(`"%d+%d*(x-1)"`, i, i%7)}, {Name: "depth", Type: "usize", Value: fmt.Sprint(i % 5)}}})
			id++
			ret := trace.Value{Value: fmt.Sprintf("Ok(Expr::Num(%d))", i)}
			enc.Encode(trace.Event{ID: id, Type: trace.Exit, T: t + 1500, PID: 100 + p, Thread: fmt.Sprint(p + 1), Parent: enter, Function: fn,
				Return: []trace.Value{ret}, Error: i%1000 == 0, DurationNS: 1500, Watches: []trace.Value{{Name: "COUNT", Value: fmt.Sprint(i)}}})
		}
		enc.Encode(trace.Meta{Type: trace.MetaType, Tracer: "bench"})
		f.Close()
	}
}

// BenchmarkTraceQuery measures debug_query over a session of 200,000
// events: ingesting the tracers' files into it once, then queries as an
// agent asks them (a function's exits, errors anywhere, a page deep down
// the cursor, a regular expression), median of 20 each, from the cache a
// daemon keeps of the last sessions, and read cold from disk as after a
// restart. Target: median at most 50 ms.
func BenchmarkTraceQuery(b *testing.B) {
	dir := b.TempDir()
	start := time.Now().UnixNano()
	out := trace.OutDir(dir, "bench")
	writeTracerFiles(b, out, start, traceEvents)
	t0 := time.Now()
	h, err := trace.Ingest(trace.Dir(dir, "bench"), "bench", "/bench/calc", start, out, nil, trace.MaxEvents, trace.MaxSessionBytes)
	if err != nil {
		b.Fatal(err)
	}
	ingest := time.Since(t0)
	if h.Events != traceEvents {
		b.Fatalf("session holds %d events, want %d", h.Events, traceEvents)
	}
	size := trace.Size(dir, "bench")
	str := func(s string) *string { return &s }
	queries := []struct {
		name string
		f    trace.Filter
	}{
		{"function exits", trace.Filter{FunctionEquals: "calc::parser::parse_07", EventType: trace.Exit}},
		{"errors", trace.Filter{ReturnIsError: true}},
		{"deep cursor", trace.Filter{AfterEventID: 150_000, Thread: "3"}},
		{"regex", trace.Filter{FunctionMatches: `parse_3[0-9]$`, ReturnEquals: str("Ok(Expr::Num(199999))")}},
	}
	var warm []time.Duration
	var lines int
	b.ResetTimer()
	for range b.N {
		for _, q := range queries {
			for range 5 {
				t := time.Now()
				p, err := trace.Query(dir, "bench", q.f)
				if err != nil {
					b.Fatal(err)
				}
				warm = append(warm, time.Since(t))
				lines += len(p.Lines)
			}
		}
	}
	b.StopTimer()
	// Cold: the session moved to a directory no query has read (what a
	// daemon that restarted sees).
	var cold []time.Duration
	for i := range 3 {
		moved := filepath.Join(dir, fmt.Sprint("cold", i))
		os.MkdirAll(moved, 0o700)
		if err := os.Rename(trace.Dir(dir, "bench"), trace.Dir(moved, "bench")); err != nil {
			b.Fatal(err)
		}
		t := time.Now()
		if _, err := trace.Query(moved, "bench", queries[0].f); err != nil {
			b.Fatal(err)
		}
		cold = append(cold, time.Since(t))
		dir = moved
	}
	if lines == 0 {
		b.Fatal("the queries found nothing")
	}
	w, c := median(warm), median(cold)
	b.ReportMetric(ms(w), "query-ms")
	b.ReportMetric(ms(c), "cold-query-ms")
	b.ReportMetric(ms(ingest), "ingest-ms")
	record(b, "trace query over a %d-event session (%.1f MiB): median %.2f ms from the daemon's cache (target ≤ 50 ms; %d queries of %s), %.0f ms cold from disk (median of 3); ingesting the tracers' 4 files: %.0f ms",
		traceEvents, float64(size)/(1<<20), ms(w), len(warm), strings.Join(names(queries), ", "), ms(c), ms(ingest))
}

func names[T any](qs []struct {
	name string
	f    T
}) []string {
	var out []string
	for _, q := range qs {
		out = append(out, q.name)
	}
	return out
}
