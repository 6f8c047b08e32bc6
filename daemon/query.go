package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"strobe/runner"
	"strobe/trace"
)

// WatchArg is one watch of debug_test.
type WatchArg struct {
	Variable string   `json:"variable" jsonschema:"the variable to read: a global or static (COUNTER, pkg.Counter, module.CACHE), an argument or local of the function hit, or a field path (cfg.limit)"`
	On       []string `json:"on" jsonschema:"trace patterns of the functions at whose enter and exit it is read, e.g. ['calc::parse']"`
}

// traceDescription is added to debug_test's description.
const traceDescription = `

Tracing: after a failure, rerun its test with tracePatterns set to its suggested_traces (and watches for globals); the answer adds sessionId and trace (events recorded and dropped, functions matched, patterns that matched nothing with the nearest names, sampled functions with true call counts). Then call debug_query with that sessionId to read the calls: arguments, return values, durations.`

// traceOf is the runner's Trace of debug_test's arguments.
func traceOf(patterns []string, watches []WatchArg) *runner.Trace {
	if len(patterns) == 0 && len(watches) == 0 {
		return nil
	}
	t := &runner.Trace{Patterns: patterns}
	for _, w := range watches {
		t.Watches = append(t.Watches, runner.TraceWatch{Variable: w.Variable, On: w.On})
	}
	return t
}

// QueryArgs are debug_query's arguments.
type QueryArgs struct {
	SessionID     string          `json:"sessionId" jsonschema:"the sessionId of a traced debug_test answer (a unique prefix of it is enough)"`
	Function      *FunctionFilter `json:"function,omitempty" jsonschema:"select events of functions by qualified name"`
	File          string          `json:"file,omitempty" jsonschema:"select events in this file: a name or the end of a path (parser.rs, src/parser.rs)"`
	EventType     string          `json:"eventType,omitempty" jsonschema:"enter, exit, watch, stdout, stderr or crash"`
	Thread        string          `json:"thread,omitempty" jsonschema:"select events of this thread or goroutine as the events name it (1, goroutine 7, MainThread)"`
	ReturnValue   *ReturnFilter   `json:"returnValue,omitempty" jsonschema:"select exit events by their return value"`
	MinDurationMs float64         `json:"minDurationMs,omitempty" jsonschema:"select exit events of calls that took at least this many milliseconds"`
	FromNs        int64           `json:"fromNs,omitempty" jsonschema:"select events at or after this time, in ns since the run started"`
	ToNs          int64           `json:"toNs,omitempty" jsonschema:"select events at or before this time, in ns since the run started"`
	Limit         *int            `json:"limit,omitempty" jsonschema:"how many events to answer: 1 to 500, default 50"`
	AfterEventID  uint64          `json:"afterEventId,omitempty" jsonschema:"the cursor: answer events after this id (a previous answer's nextCursor)"`
	Verbose       bool            `json:"verbose,omitempty" jsonschema:"answer every field of each event as JSON instead of one compact line each"`
}

// FunctionFilter selects events by function name.
type FunctionFilter struct {
	Equals   string `json:"equals,omitempty" jsonschema:"the qualified name exactly, as the events write it"`
	Contains string `json:"contains,omitempty" jsonschema:"a part of the qualified name"`
	Matches  string `json:"matches,omitempty" jsonschema:"a regular expression (RE2) searched in the qualified name"`
}

// ReturnFilter selects exit events by what the call returned.
type ReturnFilter struct {
	Equals  *string `json:"equals,omitempty" jsonschema:"a return value as rendered, e.g. 42, \"abc\", Err(Eof)"`
	IsNull  bool    `json:"isNull,omitempty" jsonschema:"calls that returned nothing, null, nil or None"`
	IsError bool    `json:"isError,omitempty" jsonschema:"calls that raised, panicked or returned a non-nil Go error"`
}

const queryDescription = `Read the events of a traced run: debug_test with tracePatterns answers a sessionId. Each event is one compact line: "#id +time thread → function(arg=value, …) @file:line" for an enter, "← function = return duration" for an exit (indented by call depth, !error when it raised or returned an error, [var=value] for watches), and stdout, stderr and crash lines in time order with the calls. Filter by function (equals, contains, matches), file, eventType, thread, returnValue (equals, isNull, isError), minDurationMs and a time window; limit (default 50, at most 500); when nextCursor is set, pass it as afterEventId to read on. verbose answers every field as JSON. Sessions stay on disk with the run's details file.`

// filterOf is the trace.Filter of debug_query's arguments.
func filterOf(in QueryArgs) trace.Filter {
	f := trace.Filter{File: in.File, EventType: strings.TrimSpace(in.EventType), Thread: in.Thread,
		MinDurationMS: in.MinDurationMs, FromNS: in.FromNs, ToNS: in.ToNs, AfterEventID: in.AfterEventID, Verbose: in.Verbose}
	if fn := in.Function; fn != nil {
		f.FunctionEquals, f.FunctionContains, f.FunctionMatches = fn.Equals, fn.Contains, fn.Matches
	}
	if rv := in.ReturnValue; rv != nil {
		f.ReturnEquals, f.ReturnIsNull, f.ReturnIsError = rv.Equals, rv.IsNull, rv.IsError
	}
	if in.Limit != nil {
		f.Limit, f.LimitSet = *in.Limit, true
	}
	return f
}

func (s *session) debugQuery(ctx context.Context, req *mcp.CallToolRequest, in QueryArgs) (*mcp.CallToolResult, *trace.Page, error) {
	s.d.touch()
	defer s.d.touch()
	if strings.TrimSpace(in.SessionID) == "" {
		return nil, nil, fmt.Errorf("sessionId is required: give the sessionId of a debug_test answer run with tracePatterns")
	}
	p, err := trace.Query(s.detailsDir, in.SessionID, filterOf(in))
	if err != nil {
		return nil, nil, toolError(err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: PageText(p)}}}, p, nil
}

// PageText is a query's answer as text: the compact lines, then how to
// read on (verbose pages are JSON in the structured content alone).
func PageText(p *trace.Page) string {
	var b strings.Builder
	for _, l := range p.Lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if len(p.Lines) == 0 && len(p.Events) == 0 {
		b.WriteString("no events match\n")
	}
	if p.Hint != "" {
		b.WriteString(p.Hint + "\n")
	}
	if len(p.Events) > 0 {
		b.WriteString(verboseText(p))
	}
	fmt.Fprintf(&b, "(%d events in session %s", p.Total, p.SessionID)
	if p.Dropped > 0 {
		fmt.Fprintf(&b, ", %d dropped", p.Dropped)
	}
	if p.NextCursor != 0 {
		fmt.Fprintf(&b, "; more: afterEventId %d", p.NextCursor)
	}
	b.WriteString(")")
	return b.String()
}

// verboseText is a verbose page's events, one JSON object a line.
func verboseText(p *trace.Page) string {
	var b strings.Builder
	for _, e := range p.Events {
		j, err := json.Marshal(e)
		if err != nil {
			continue
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}
