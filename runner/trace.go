package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"strobe/adapters"
	"strobe/adapters/all"
	"strobe/details"
	"strobe/report"
	"strobe/trace"
)

// Trace asks for an instrumented run: the functions to record and the
// variables to read at their calls (docs/trace.md).
type Trace struct {
	Patterns []string
	Watches  []TraceWatch
}

// TraceWatch is one watched variable and the functions it is read at.
type TraceWatch struct {
	Variable string
	On       []string
}

// Bounds of what a traced run keeps besides the tracers' events.
const (
	// traceLines bounds the output lines kept as stdout and stderr
	// events (the last ones); traceLineBytes cuts each.
	traceLines     = 2000
	traceLineBytes = 1024
	// companionWait bounds the wait for a Plan's Companion once the
	// command ended.
	companionWait = 10 * time.Second
	// Bounds of the answer's summary; the details file has it all.
	summaryNames = 10
)

// lookup finds an adapter by name: a variable so that the runner's tests
// can run a traced plan before any real tracer is listed.
var lookup = all.Lookup

// tracing is a traced run's state.
type tracing struct {
	spec *trace.Spec
	dir  string // the session directory
	// companion is the Plan's Companion's result, nil when it has none.
	companion chan error

	mu    sync.Mutex
	lines []trace.Event // a ring of the last traceLines output lines
	next  int
}

// traceSpec checks the request's patterns and watches and compiles them
// for an adapter that can trace; nil when nothing is traced.
func traceSpec(t *Trace, a adapters.Adapter, root string) (*trace.Spec, error) {
	if t == nil || len(t.Patterns) == 0 && len(t.Watches) == 0 {
		return nil, nil
	}
	pats, err := trace.CompileAll(t.Patterns)
	if err != nil {
		return nil, adapters.Usagef("%v", err)
	}
	if len(t.Watches) > trace.MaxWatches {
		return nil, adapters.Usagef("%d watches: at most %d per run; watch fewer variables", len(t.Watches), trace.MaxWatches)
	}
	var watches []trace.Watch
	for i, w := range t.Watches {
		v := strings.TrimSpace(w.Variable)
		if v == "" {
			return nil, adapters.Usagef("watch %d has no variable: give {\"variable\": \"NAME\", \"on\": [\"PATTERN\"]}", i+1)
		}
		if len(w.On) == 0 {
			return nil, adapters.Usagef("watch %q has no patterns in on: name the functions at whose calls to read it, such as [\"calc::parse\"]", v)
		}
		on, err := trace.CompileAll(w.On)
		if err != nil {
			return nil, adapters.Usagef("watch %q: %v", v, err)
		}
		watches = append(watches, trace.Watch{Variable: v, On: on})
	}
	if _, ok := a.(adapters.Tracer); !ok {
		if e, ok := a.(adapters.TraceElsewhere); ok {
			return nil, adapters.Usagef("tracePatterns is not supported for %s: %s", a.Name(), e.TraceElsewhere())
		}
		return nil, adapters.Usagef("tracePatterns is not supported for %s yet: rerun without tracePatterns and watches; %s", a.Name(), supportedTracers())
	}
	return &trace.Spec{Patterns: pats, Watches: watches, ProjectRoot: root, Exclude: trace.Exclude,
		MaxFunctions: trace.MaxFunctions, MaxEvents: trace.MaxEvents, FullCalls: trace.FullCalls, SampleEvery: trace.SampleEvery,
		MaxValue: trace.MaxValue, MaxDepth: trace.MaxDepth, MaxItems: trace.MaxItems}, nil
}

// supportedTracers lists the frameworks that trace, by tracer:
// "supported: cargo, catch2, gtest (gdb), go (delve)".
func supportedTracers() string {
	by := map[string][]string{}
	for _, a := range all.Adapters() {
		if t, ok := a.(adapters.Tracer); ok {
			by[t.Tracer()] = append(by[t.Tracer()], a.Name())
		}
	}
	if len(by) == 0 {
		return "no framework can be traced in this build"
	}
	var parts []string
	for tr, names := range by {
		parts = append(parts, strings.Join(names, ", ")+" ("+tr+")")
	}
	sort.Strings(parts)
	return "supported: " + strings.Join(parts, ", ")
}

// detailsDir is where the run's details file goes.
func (r *Run) detailsDir() string {
	if r.opts.DetailsDir != "" {
		return r.opts.DetailsDir
	}
	return details.Dir()
}

// setupTrace makes the session directory beside the details file, writes
// the Spec there and hands it to the adapter: before Plan, which builds
// the command under the tracer.
func (r *Run) setupTrace() error {
	if r.tr == nil {
		return nil
	}
	dir := r.detailsDir()
	if err := details.EnsureDir(dir); err != nil {
		return err
	}
	r.tr.dir = trace.Dir(dir, r.ID)
	r.tr.spec.Out = trace.OutDir(dir, r.ID)
	if err := os.MkdirAll(r.tr.spec.Out, 0o700); err != nil {
		return fmt.Errorf("creating the trace session: %w", err)
	}
	b, err := json.Marshal(r.tr.spec)
	if err != nil {
		return fmt.Errorf("writing the trace spec: %w", err)
	}
	if err := os.WriteFile(trace.SpecPath(dir, r.ID), b, 0o600); err != nil {
		return fmt.Errorf("writing the trace spec: %w", err)
	}
	r.areq.Trace = r.tr.spec
	return nil
}

// dropTrace removes the session of a run that never started.
func (r *Run) dropTrace() {
	if r.tr != nil && r.tr.dir != "" {
		os.RemoveAll(r.tr.dir)
	}
}

// traceEnv is what every process of a traced run gets in its environment.
func (r *Run) traceEnv() []string {
	if r.tr == nil {
		return nil
	}
	return []string{trace.SpecEnv + "=" + trace.SpecPath(r.detailsDir(), r.ID)}
}

// startCompanion runs the plan's companion beside the command, its context
// cancelled once the command has ended.
func (r *Run) startCompanion(p *proc) {
	c := r.plan.Companion
	if c == nil {
		return
	}
	if r.tr == nil {
		r.tr = &tracing{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.tr.companion = make(chan error, 1)
	go func() { r.tr.companion <- c(ctx) }()
	go func() { <-p.waited; cancel() }()
}

// traceLine keeps an output line as a stdout or stderr event, so that a
// query interleaves it with the calls around it: as the line shows, when
// the adapter's output is encoded (adapters.Displayer).
func (r *Run) traceLine(s adapters.Stream, b []byte) {
	t := r.tr
	if t == nil || t.spec == nil {
		return
	}
	if d, ok := adapters.ParserAs[adapters.Displayer](r.plan.Parser); ok {
		var keep bool
		if b, keep = d.Display(s, b); !keep {
			return
		}
	}
	typ := trace.Stdout
	if s == adapters.Stderr {
		typ = trace.Stderr
	}
	text := string(b[:min(len(b), traceLineBytes)])
	if len(b) > traceLineBytes {
		text += "…"
	}
	e := trace.Event{Type: typ, T: time.Now().UnixNano(), Text: text}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.lines) < traceLines {
		t.lines = append(t.lines, e)
		return
	}
	t.lines[t.next] = e
	t.next = (t.next + 1) % traceLines
}

// endTrace waits for the companion, ingests the tracers' events into the
// session and sums it up in resp. A tracer's refusal (patterns matching
// too much) makes the run an error, with no session to query. It returns
// the full summary for the details file, an indicator when the companion
// failed, and whether the tracer refused.
func (r *Run) endTrace(resp *report.Response, finished time.Time) (full *report.Trace, indicators []string, refused bool) {
	t := r.tr
	if t == nil {
		return nil, nil, false
	}
	if t.companion != nil {
		select {
		case err := <-t.companion:
			if err != nil {
				indicators = append(indicators, "trace_companion_failed: "+oneLine(err.Error()))
			}
		case <-time.After(companionWait):
			indicators = append(indicators, "trace_companion_timeout")
		}
	}
	if t.spec == nil {
		return nil, indicators, false
	}
	t.mu.Lock()
	extra := append(t.lines[t.next:len(t.lines):len(t.lines)], t.lines[:t.next]...)
	t.mu.Unlock()
	if c := resp.Crash; c != nil && c.Type != report.CrashNone && c.Type != report.CrashTestFailure && c.Type != report.CrashBuildFailure {
		text := string(c.Type)
		if c.SignalName != "" {
			text += " (" + c.SignalName + ")"
		}
		if c.Message != "" {
			text += ": " + c.Message
		}
		extra = append(extra, trace.Event{Type: trace.Crash, T: finished.UnixNano(), Text: text})
	}
	h, err := trace.Ingest(t.dir, r.ID, r.req.ProjectRoot, r.started.UnixNano(), t.spec.Out, extra, trace.MaxEvents, trace.MaxSessionBytes)
	if err != nil {
		resp.Hint = joinHints(resp.Hint, "the trace session could not be stored: "+oneLine(err.Error()))
		return nil, indicators, false
	}
	if h.Tracer == "" && h.Killed == 0 && resp.Status != report.BuildFailed {
		h.Warnings = append(h.Warnings, "no tracer reported: the tests did not run under the tracer (see the details file's output)")
	}
	if resp.Status == report.Stuck && !hasStacks(resp.Stuck) {
		resp.Hint = "strobe stopped the run: its stacks cannot be read under the tracer; debug_query with this sessionId shows the last calls before the hang (the last events of each thread)"
	}
	full = traceSummary(h, -1)
	resp.Trace = traceSummary(h, summaryNames)
	if h.Refused == "" {
		resp.SessionID = r.ID
	} else {
		// The tracer stopped before any test ran: no call to query, no
		// test's result: the caller drops its tests.
		resp.Status = report.Error
		resp.Error = h.Refused
		resp.Hint = "narrow tracePatterns as the error says, and rerun"
		resp.Crash, resp.Failures, resp.FailuresOmitted = nil, nil, 0
		// No test ran: what the framework made of the refusing process
		// (go test's package failure) is not a test's result.
		if resp.Summary != nil {
			resp.Summary = &report.Summary{DurationMS: resp.Summary.DurationMS}
		}
	}
	return full, indicators, h.Refused != ""
}

// traceSummary is the answer's trace: n names of each list, all for -1.
func traceSummary(h *trace.Header, n int) *report.Trace {
	first := func(l int) int {
		if n < 0 {
			return l
		}
		return min(l, n)
	}
	s := &report.Trace{Tracer: h.Tracer, Events: h.Events, Dropped: h.Dropped,
		Matched:  report.Names{Count: len(h.Matched), Names: h.Matched[:first(len(h.Matched))]},
		Warnings: h.Warnings[:first(len(h.Warnings))]}
	for _, u := range h.Unmatched[:first(len(h.Unmatched))] {
		s.Unmatched = append(s.Unmatched, report.TraceUnmatched{Pattern: u.Pattern, Nearest: u.Nearest})
	}
	sampled := h.Sampled(trace.FullCalls)
	for _, c := range sampled[:first(len(sampled))] {
		s.Sampled = append(s.Sampled, report.TraceCalls{Function: c.Function, Calls: c.Calls})
	}
	return s
}

// hasStacks reports whether a stuck answer shows any stack.
func hasStacks(st []report.StuckTest) bool {
	for _, s := range st {
		if len(s.Threads) > 0 {
			return true
		}
	}
	return false
}
