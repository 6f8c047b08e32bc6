package gtest

import (
	"strobe/adapters"
	"strobe/adapters/kit/gdbtrace"
)

// Tracer says GoogleTest binaries trace under gdb (see gdbtrace).
func (gtest) Tracer() string { return "gdb" }

// traced runs the plan's binary under gdb when the request traces, and
// hands the script's directory to the parser.
func traced(req adapters.Request, plan *adapters.Plan) error {
	if req.Trace == nil {
		return nil
	}
	g, err := gdbtrace.Prepare("gtest", req.Env)
	if err != nil {
		return err
	}
	gdbtrace.ShowUntraced(plan)
	plan.Argv = g.Argv(plan.Argv)
	plan.Parser = g.Parser(plan.Parser)
	return nil
}
