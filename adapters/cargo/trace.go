package cargo

import (
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit/gdbtrace"
)

// Tracer says cargo's tests trace under gdb: each test binary runs under
// gdb through the same runner that gives it RUSTC_BOOTSTRAP, so gdb
// follows the test binary, never cargo. The test profile keeps debug
// info. On a whole-suite run rustdoc's doctest binaries run under gdb
// too (cargo gives rustdoc the runner): the library functions an example
// calls are traced; a run of the doctests alone has no runner.
func (cargo) Tracer() string { return "gdb" }

// traced puts gdb into the plan's runner and its parser in charge of the
// script's directory. cargo test --release builds without debug info: the
// tracer's Meta then warns that it found no project function (not for a
// doctest's binary, which rustdoc builds without it). Binaries with their
// own main run untraced.
func traced(req adapters.Request, plan *adapters.Plan, customs []string) error {
	if req.Trace == nil {
		return nil
	}
	g, err := gdbtrace.Prepare("cargo", req.Env)
	if err != nil {
		return err
	}
	gdbtrace.ShowUntraced(plan)
	for i, a := range plan.Argv {
		if strings.HasPrefix(a, cargoRunnerKey) {
			plan.Argv[i] = cargoRunner(customs, g.Prefix(), strings.Contains(a, mergedDoctests))
		}
	}
	plan.Parser = g.Parser(plan.Parser)
	return nil
}
