// Package trace is strobe's instrumented rerun: the request (function
// patterns and watches), the contract between strobe and the tracers that
// run inside a debugger or an interpreter (a spec file in, event files
// out), and the sessions those events are stored and queried in.
//
// A tracer is whatever records calls for one language: gdb with strobe's
// Python script for native code (cargo, Catch2, GoogleTest), Delve driven
// over its JSON-RPC API for Go, strobe's pytest plugin and unittest runner
// for Python. Every tracer speaks the same files:
//
//   - it reads the Spec, a JSON file named by the environment variable
//     SpecEnv: the compiled patterns and watches and the bounds;
//   - it writes Events, one JSON object per line, into files of its own
//     under Spec.Out (events-<pid>.jsonl, so forked workers never share a
//     file), and ends each file with one Meta line;
//   - it never writes to the test's stdout or stderr: the test's own output
//     still goes to the adapter's parser unchanged.
//
// Patterns are matched by tracers in their own language, so strobe compiles
// each one (Compile) into a regular expression that Go's regexp and
// Python's re read alike.
package trace

// SpecEnv names the environment variable that holds the path of the
// run's Spec file: every process of a traced run gets it.
const SpecEnv = "STROBE_TRACE_SPEC"

// Bounds of a traced run.
const (
	// MaxFunctions is how many functions the patterns may match together;
	// more is refused before the tests run.
	MaxFunctions = 200
	// MaxWatches bounds the watches of one request.
	MaxWatches = 32
	// MaxEvents bounds the events a session keeps.
	MaxEvents = 200_000
	// FullCalls is how many calls of one function a tracer records whole;
	// after that it records one call in SampleEvery and counts the others
	// (Meta.Calls has the true count).
	FullCalls   = 1000
	SampleEvery = 100
	// MaxValue bounds a rendered value, in bytes; MaxDepth and MaxItems
	// bound how far a struct, slice or map is rendered.
	MaxValue = 256
	MaxDepth = 2
	MaxItems = 8
)

// Spec is what strobe asks a tracer to record, written as JSON to the file
// named by SpecEnv.
type Spec struct {
	// Patterns are the request's tracePatterns, compiled.
	Patterns []Pattern `json:"patterns"`
	// Watches are evaluated at every enter and exit of a function their
	// On patterns match.
	Watches []Watch `json:"watches,omitempty"`
	// Out is the directory the tracer writes its event files into.
	Out string `json:"out"`
	// ProjectRoot is the project's root: @project and the project-only
	// filter of every pattern mean functions defined in files under it
	// (minus vendored, installed and built code: see ProjectFile).
	ProjectRoot string `json:"projectRoot"`
	// Exclude are the path segments under ProjectRoot that are not the
	// project's own code (the package variable Exclude).
	Exclude      []string `json:"exclude"`
	MaxFunctions int      `json:"maxFunctions"`
	MaxEvents    int      `json:"maxEvents"`
	FullCalls    int      `json:"fullCalls"`
	SampleEvery  int      `json:"sampleEvery"`
	MaxValue     int      `json:"maxValue"`
	MaxDepth     int      `json:"maxDepth"`
	MaxItems     int      `json:"maxItems"`
}

// Watch is one watched variable: an expression in the traced language (a
// global, a static, a local or argument of the function hit, a field path
// such as cfg.limit) read at each hit of a function On matches.
type Watch struct {
	Variable string    `json:"variable"`
	On       []Pattern `json:"on"`
}

// Event types.
const (
	Enter  = "enter"
	Exit   = "exit"
	Watchd = "watch" // a watch read outside an enter or exit event
	Stdout = "stdout"
	Stderr = "stderr"
	Crash  = "crash"
	// MetaType is the last line of an event file (see Meta).
	MetaType = "meta"
)

// Event is one line of an event file and one event of a session.
type Event struct {
	// ID is unique within its file, from 1, in the order written; a
	// session renumbers the events of all files in time order.
	ID   uint64 `json:"id"`
	Type string `json:"type"`
	// T is when it happened, in Unix nanoseconds; a session stores it as
	// nanoseconds since the run started.
	T int64 `json:"t"`
	// PID is the process the event happened in.
	PID int `json:"pid,omitempty"`
	// Thread is the thread or goroutine: "1", "goroutine 7", "MainThread".
	Thread string `json:"thread,omitempty"`
	// Depth is the call depth among traced functions on this thread (0
	// for the outermost); Parent is the enter event of the traced caller,
	// 0 for none. An exit event's Parent is its own enter event.
	Depth  int    `json:"depth,omitempty"`
	Parent uint64 `json:"parent,omitempty"`
	// Function is the qualified name as the language writes it
	// (calc::parse, example.com/m/calc.(*P).Parse, pkg.mod.Class.method).
	Function string `json:"function,omitempty"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	// Args are the arguments at enter, by name.
	Args []Value `json:"args,omitempty"`
	// Return holds the return values at exit (several in Go); Error says
	// the function ended by an exception or panic, or returned a non-nil
	// Go error as its last result.
	Return []Value `json:"return,omitempty"`
	Error  bool    `json:"error,omitempty"`
	// DurationNS is an exit's time since its enter.
	DurationNS int64 `json:"durationNs,omitempty"`
	// Watches are the watched values read at this event.
	Watches []Value `json:"watches,omitempty"`
	// Text is an output line (stdout, stderr) or a crash's description.
	Text string `json:"text,omitempty"`
	// Sampled says calls of this function before this one were skipped
	// (see FullCalls); Call is this call's number, from 1.
	Sampled bool  `json:"sampled,omitempty"`
	Call    int64 `json:"call,omitempty"`
}

// Value is one named, rendered value: an argument, a return value, a watch.
type Value struct {
	Name  string `json:"name,omitempty"`
	Type  string `json:"type,omitempty"`
	Value string `json:"value,omitempty"`
	// Unavailable says why the value could not be read (out of scope,
	// optimised out, no such variable); Value is empty then.
	Unavailable string `json:"unavailable,omitempty"`
}

// Meta ends an event file: what the tracer matched and what it could not.
type Meta struct {
	Type string `json:"type"` // MetaType
	// Tracer names the tracer and its version ("gdb 13.1", "delve 1.27.2",
	// "python 3.11 sys.setprofile").
	Tracer string `json:"tracer"`
	// Matched are the functions the patterns matched.
	Matched []string `json:"matched,omitempty"`
	// Unmatched are the patterns that matched no function, each with the
	// closest names the program has.
	Unmatched []Unmatched `json:"unmatched,omitempty"`
	// Calls is the true call count of every function that was called.
	Calls map[string]int64 `json:"calls,omitempty"`
	// Dropped counts the events not written (sampling, MaxEvents).
	Dropped int64 `json:"dropped,omitempty"`
	// Refused is set when the tracer refused to run the tests (patterns
	// matching more than MaxFunctions): a one-line reason saying what to
	// narrow. The run is then an error.
	Refused string `json:"refused,omitempty"`
	// Warnings are what the tracer could not do (a binary without debug
	// info, a watch it cannot evaluate anywhere), one line each.
	Warnings []string `json:"warnings,omitempty"`
}

// Unmatched is a pattern that matched nothing, with the nearest names.
type Unmatched struct {
	Pattern string   `json:"pattern"`
	Nearest []string `json:"nearest,omitempty"`
}
