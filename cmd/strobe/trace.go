package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"strobe/daemon"
	"strobe/details"
	"strobe/report"
	"strobe/runner"
	"strobe/trace"
)

func init() {
	register(command{name: "query", summary: "SESSION [flags]  read a traced run's events (strobe query -h for filters)", order: 22, run: cmdQuery})
}

// patternFlag collects repeated --trace, each one pattern whole.
type patternFlag []string

func (l *patternFlag) String() string     { return strings.Join(*l, " ") }
func (l *patternFlag) Set(s string) error { *l = append(*l, s); return nil }

// watchFlag collects repeated --watch VAR@PATTERN[,PATTERN].
type watchFlag []runner.TraceWatch

func (w *watchFlag) String() string { return "" }
func (w *watchFlag) Set(s string) error {
	// A variable has no @; a pattern may (@file:x.rs, @project).
	v, pats, ok := strings.Cut(s, "@")
	if !ok || strings.TrimSpace(v) == "" || strings.TrimSpace(pats) == "" {
		return fmt.Errorf("want VARIABLE@PATTERN[,PATTERN], such as COUNT@calc::parse, got %q", s)
	}
	*w = append(*w, runner.TraceWatch{Variable: v, On: strings.Split(pats, ",")})
	return nil
}

// traceFlags adds --trace and --watch to fs; the function it returns is
// the request's Trace once fs is parsed, nil when neither was given.
func traceFlags(fs *flag.FlagSet) func() *runner.Trace {
	var pats patternFlag
	var watches watchFlag
	fs.Var(&pats, "trace", "rerun traced: record the calls of functions matching PATTERN (repeatable; calc::parse, calc::*, pkg.Func, module.func, @file:parser.rs, @project); read them with strobe query")
	fs.Var(&watches, "watch", "read VARIABLE at each call of the patterns' functions: VAR@PATTERN[,PATTERN] (repeatable)")
	return func() *runner.Trace {
		if len(pats) == 0 && len(watches) == 0 {
			return nil
		}
		return &runner.Trace{Patterns: pats, Watches: watches}
	}
}

// daemonTraceArgs are debug_test's trace arguments for req.
func daemonTraceArgs(t *runner.Trace) ([]string, []daemon.WatchArg) {
	if t == nil {
		return nil, nil
	}
	var ws []daemon.WatchArg
	for _, w := range t.Watches {
		ws = append(ws, daemon.WatchArg{Variable: w.Variable, On: w.On})
	}
	return t.Patterns, ws
}

// renderTrace prints a traced run's summary under its result.
func renderTrace(w io.Writer, r *report.Response, c palette) {
	t := r.Trace
	if t == nil {
		return
	}
	fmt.Fprintf(w, "\n%strace%s  %s · %d events", c.dim, c.reset, t.Tracer, t.Events)
	if t.Dropped > 0 {
		fmt.Fprintf(w, " (%d dropped)", t.Dropped)
	}
	fmt.Fprintf(w, " · %d functions matched", t.Matched.Count)
	if len(t.Matched.Names) > 0 {
		fmt.Fprintf(w, ": %s", strings.Join(t.Matched.Names, ", "))
		if t.Matched.Count > len(t.Matched.Names) {
			fmt.Fprint(w, ", …")
		}
	}
	fmt.Fprintln(w)
	for _, u := range t.Unmatched {
		fmt.Fprintf(w, "  %s matched nothing", u.Pattern)
		if len(u.Nearest) > 0 {
			fmt.Fprintf(w, "; nearest: %s", strings.Join(u.Nearest, ", "))
		}
		fmt.Fprintln(w)
	}
	for _, s := range t.Sampled {
		fmt.Fprintf(w, "  %s sampled: %d calls\n", s.Function, s.Calls)
	}
	for _, x := range t.Warnings {
		fmt.Fprintf(w, "  %s⚠%s %s\n", c.yellow, c.reset, x)
	}
	if r.SessionID != "" {
		fmt.Fprintf(w, "  strobe query %s [--function NAME --type exit …]\n", r.SessionID)
	}
}

func cmdQuery(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strobe query", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: strobe query SESSION [flags]\n\nPrints the events of a traced run (strobe test --trace), one line each.\n\nflags:")
		fs.PrintDefaults()
	}
	var f trace.Filter
	var returns string
	fs.StringVar(&f.FunctionEquals, "function", "", "events of the function of exactly this qualified name")
	fs.StringVar(&f.FunctionContains, "contains", "", "events of functions whose name contains this")
	fs.StringVar(&f.FunctionMatches, "matches", "", "events of functions whose name matches this regular expression")
	fs.StringVar(&f.EventType, "type", "", "enter, exit, watch, stdout, stderr or crash")
	fs.StringVar(&f.Thread, "thread", "", "events of this thread or goroutine (1, goroutine 7, MainThread)")
	fs.StringVar(&f.File, "file", "", "events in this file (parser.rs, src/parser.rs)")
	fs.StringVar(&returns, "returns", "", "exits that returned this value, as rendered")
	fs.BoolVar(&f.ReturnIsNull, "null", false, "exits that returned nothing, null, nil or None")
	fs.BoolVar(&f.ReturnIsError, "error", false, "exits that raised, panicked or returned an error")
	fs.Float64Var(&f.MinDurationMS, "min-ms", 0, "exits of calls that took at least this many ms")
	fs.Int64Var(&f.FromNS, "from-ns", 0, "events at or after this time (ns since the run started)")
	fs.Int64Var(&f.ToNS, "to-ns", 0, "events at or before this time (ns since the run started)")
	fs.IntVar(&f.Limit, "limit", trace.DefaultLimit, fmt.Sprintf("how many events, at most %d", trace.MaxLimit))
	fs.Uint64Var(&f.AfterEventID, "after", 0, "events after this id (the cursor the last page printed)")
	fs.BoolVar(&f.Verbose, "verbose", false, "every field of each event, as JSON")
	asJSON := fs.Bool("json", false, "print the page as JSON")
	var ids []string
	for rest := args; ; {
		if err := parseFlags(fs, rest); err != nil {
			return exitUsage
		}
		if rest = fs.Args(); len(rest) == 0 {
			break
		}
		ids, rest = append(ids, rest[0]), rest[1:]
	}
	if len(ids) != 1 {
		fmt.Fprintln(stderr, "strobe: give one session id (the sessionId of a traced run: strobe test --trace PATTERN prints it)")
		return exitUsage
	}
	f.LimitSet = true
	if returns != "" {
		f.ReturnEquals = &returns
	}
	p, err := trace.Query(details.Dir(), ids[0], f)
	if err != nil {
		fmt.Fprintf(stderr, "strobe: %v\n", err)
		return exitUsage
	}
	if *asJSON {
		writeJSON(stdout, p)
		return exitOK
	}
	fmt.Fprintln(stdout, daemon.PageText(p))
	return exitOK
}
