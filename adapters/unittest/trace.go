package unittest

import "strobe/adapters/kit/python"

// Tracer says the unittest adapter traces (adapters.Tracer): its runner
// starts kit/python's tracer when the run's environment names a trace spec.
func (unittestAdapter) Tracer() string { return python.Tracer }
