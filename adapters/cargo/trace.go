package cargo

import (
	"encoding/json"
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
// tracer's Meta then warns that it found no project function.
func traced(req adapters.Request, plan *adapters.Plan) error {
	if req.Trace == nil {
		return nil
	}
	g, err := gdbtrace.Prepare("cargo", req.Env)
	if err != nil {
		return err
	}
	runner := tracedRunner(g.Prefix())
	for i, a := range plan.Argv {
		// The runner is one word, or inside cargoBothArgv's tests.
		if a == cargoRunner {
			plan.Argv[i] = runner
		}
	}
	plan.Parser = g.Parser(plan.Parser)
	return nil
}

// tracedRunner is cargoRunner with gdb after env: TOML arrays read JSON
// strings, so the paths are quoted as JSON.
func tracedRunner(prefix []string) string {
	words := append([]string{"env", "RUSTC_BOOTSTRAP=1"}, prefix...)
	b, _ := json.Marshal(words)
	key := cargoRunner[:strings.Index(cargoRunner, "[")]
	return key + string(b)
}
