package report

// Trace sums up a traced run (tracePatterns, watches) in its answer; the
// events themselves are queried with debug_query by the response's
// sessionId. The details file holds every matched name and warning.
type Trace struct {
	// Tracer names the tracer and its version ("gdb 13.1").
	Tracer string `json:"tracer,omitempty"`
	// Events counts the events the session keeps; Dropped those it does
	// not (sampling, the session's bounds).
	Events  int   `json:"events"`
	Dropped int64 `json:"dropped,omitempty"`
	// Matched are the functions the patterns matched: a count and the
	// first names.
	Matched Names `json:"matched"`
	// Unmatched are the patterns that matched nothing, with the nearest
	// names the program has.
	Unmatched []TraceUnmatched `json:"unmatched,omitempty"`
	// Sampled are the functions called more often than the tracer records
	// whole, with their true call counts.
	Sampled []TraceCalls `json:"sampled,omitempty"`
	// Warnings are what the tracer could not do, one line each.
	Warnings []string `json:"warnings,omitempty"`
}

// TraceUnmatched is a pattern that matched no function.
type TraceUnmatched struct {
	Pattern string   `json:"pattern"`
	Nearest []string `json:"nearest,omitempty"`
}

// TraceCalls is a sampled function's true call count.
type TraceCalls struct {
	Function string `json:"function"`
	Calls    int64  `json:"calls"`
}
