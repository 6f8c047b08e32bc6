package catch2

import (
	"strobe/adapters"
	"strobe/adapters/kit/gdbtrace"
)

// Tracer says Catch2 binaries trace under gdb (see gdbtrace).
func (catch2) Tracer() string { return "gdb" }

// traced runs the plan's binary under gdb when the request traces, and
// hands the script's directory to the parser.
func traced(req adapters.Request, plan *adapters.Plan) error {
	if req.Trace == nil {
		return nil
	}
	g, err := gdbtrace.Prepare("catch2", req.Env)
	if err != nil {
		return err
	}
	gdbtrace.ShowUntraced(plan)
	plan.Argv = g.Argv(plan.Argv)
	plan.Parser = g.Parser(plan.Parser)
	return nil
}
