package python

import _ "embed"

// traceModule is strobe_trace.py, the tracer of a traced run (package
// trace): the pytest plugin and the unittest runner start it when the run's
// environment has trace.SpecEnv, once the tests are loaded.
//
//go:embed strobe_trace.py
var traceModule []byte

// Tracer is the name the Python adapters give adapters.Tracer.
const Tracer = "python"
