package pytest

import "strobe/adapters/kit/python"

// Tracer says the pytest adapter traces (adapters.Tracer): its plugin
// starts kit/python's tracer when the run's environment names a trace spec.
// Nothing in the plan changes: a traced run keeps a command's -n (each
// xdist worker traces the tests it runs into its own events file).
func (pytestAdapter) Tracer() string { return python.Tracer }
