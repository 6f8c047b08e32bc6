package pytest

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/python"
)

// SelectsTests: pytest runs the node ids it is given, as many as asked.
func (pytestAdapter) SelectsTests() {}

// List is `python -m pytest --collect-only -q` over the request's
// selection: one node id a line, the ids the run records tests by.
func (pytestAdapter) List(ctx context.Context, req adapters.Request) ([]adapters.TestRef, error) {
	if len(req.Command) > 0 {
		return nil, adapters.Usagef("strobe lists pytest tests for its own pytest command only: drop the command and choose tests with the level or test")
	}
	in, err := python.FindInterpreter(req.ProjectRoot, req.Env)
	if err != nil {
		return nil, adapters.Usagef("cannot list pytest tests: %v", err)
	}
	argv := append([]string{in.Path, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"}, selection(req)...)
	out, errOut, err := kit.RunTool(ctx, kit.Tool{Dir: req.ProjectRoot, Env: req.Env, MaxOutput: 64 << 20}, argv...)
	refs := parseCollectOnly(out)
	if err != nil && len(refs) == 0 {
		msg := bytes.TrimSpace(errOut)
		if len(msg) == 0 {
			msg = bytes.TrimSpace(out)
		}
		return nil, fmt.Errorf("listing pytest tests: %w: %s", err, kit.ClipTo(string(msg), 400, "…"))
	}
	return refs, nil
}

// parseCollectOnly reads the node ids --collect-only -q prints before its
// summary.
func parseCollectOnly(out []byte) []adapters.TestRef {
	var refs []adapters.TestRef
	for line := range bytes.Lines(out) {
		id := strings.TrimRight(string(line), "\r\n")
		if strings.Contains(id, "::") && !strings.HasPrefix(id, " ") {
			refs = append(refs, adapters.TestRef{Name: id})
		}
	}
	return refs
}
