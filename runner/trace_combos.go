package runner

import "strobe/adapters"

// checkTraceCombos refuses a traced run that would run its tests more than
// once or pick them itself. A session records one run of the tests the
// request names: retries and repeat would mix several runs' calls in it
// (or leave the reruns untraced), and a partition or the previous run's
// failures would trace tests the agent did not choose, up to a whole
// suite. Each asks for the one test to trace instead.
func checkTraceCombos(req Request) error {
	const hint = ": a traced run records the calls of one run of the tests it names; "
	if t := req.Trace; t == nil || len(t.Patterns) == 0 && len(t.Watches) == 0 {
		return nil
	}
	switch {
	case req.Retries > 0:
		return adapters.Usagef("tracePatterns and retries do not go together" + hint + "drop retries, and trace the failing test alone with test set")
	case req.Repeat > 1:
		return adapters.Usagef("tracePatterns and repeat do not go together" + hint + "drop repeat, and trace one run of the test with test set")
	case req.Partition != "":
		return adapters.Usagef("tracePatterns and a partition do not go together" + hint + "drop the partition, and trace the failing test with test set")
	case req.OnlyFailed:
		return adapters.Usagef("tracePatterns and --failed do not go together" + hint + "drop --failed, and trace one failing test with test set to its name")
	}
	return nil
}
