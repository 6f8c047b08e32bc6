package cargo

import (
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit/gdbtrace"
)

// Tracer says cargo's tests trace under gdb: each test binary runs under
// gdb through the same runner that gives it RUSTC_BOOTSTRAP, so gdb
// follows the test binary, never cargo. The test profile keeps debug
// info; doctests run untraced (rustdoc has no runner).
func (cargo) Tracer() string { return "gdb" }

// traced puts gdb into the plan's runner and its parser in charge of the
// script's directory. cargo test --release builds without debug info: the
// tracer's Meta then warns that it found no project function. Binaries
// with their own main run untraced, as the doctests do.
func traced(req adapters.Request, plan *adapters.Plan, customs []string) error {
	if req.Trace == nil {
		return nil
	}
	g, err := gdbtrace.Prepare("cargo", req.Env)
	if err != nil {
		return err
	}
	for i, a := range plan.Argv {
		if strings.HasPrefix(a, cargoRunnerKey) {
			plan.Argv[i] = cargoRunner(customs, g.Prefix())
		}
	}
	plan.Parser = g.Parser(plan.Parser)
	return nil
}
