package unittest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/python"
	"strobe/internal/lazyre"
)

// SelectsTests: strobe's runner, like `python -m unittest`, takes several
// dotted ids and runs them in one process.
func (unittestAdapter) SelectsTests() {}

// List runs strobe's runner with --list: it loads the selection as the
// run would (discovery, a level's directory, the test's dotted id) and
// prints each test's dotted id without running one. A class is listed by
// its methods even when its setUpClass will fail (the run then records
// the failure as "setUpClass (module.Class)"). A module that does not
// import makes List fail: no partition would report it.
func (unittestAdapter) List(ctx context.Context, req adapters.Request) ([]adapters.TestRef, error) {
	if len(req.Command) > 0 {
		return nil, adapters.Usagef("strobe lists unittest tests for its own runner only: drop the command and choose tests with the level or test")
	}
	in, err := python.FindInterpreter(req.ProjectRoot, req.Env)
	if err != nil {
		return nil, adapters.Usagef("cannot list unittest tests: %v", err)
	}
	args, err := selectionArgs(req)
	if err != nil {
		return nil, err
	}
	wd, err := python.NewWorkdir("strobe-unittest-*", map[string][]byte{"strobe_unittest.py": runner})
	if err != nil {
		return nil, err
	}
	defer wd.Remove()
	argv := append([]string{in.Path, "-m", "strobe_unittest", "--list"}, args...)
	out, errOut, err := kit.RunTool(ctx, kit.Tool{Dir: req.ProjectRoot, Env: wd.Env(req.Env), MaxOutput: 64 << 20}, argv...)
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == 2:
		return nil, fmt.Errorf("unittest: %s: run the suite without a partition to see the import errors", strings.TrimSpace(lastLine(errOut)))
	case err != nil:
		return nil, fmt.Errorf("listing unittest tests: %w: %s", err, kit.ClipTo(string(bytes.TrimSpace(errOut)), 400, "…"))
	}
	var refs []adapters.TestRef
	for line := range bytes.Lines(out) {
		if id := strings.TrimSpace(string(line)); id != "" {
			refs = append(refs, adapters.TestRef{Name: id})
		}
	}
	return refs, nil
}

// selectionArgs are the runner's arguments for a request without a
// command: its test, or its level's directory, or nothing (discovery).
func selectionArgs(req adapters.Request) ([]string, error) {
	switch {
	case req.Test != "":
		return []string{req.Test}, nil
	case req.Level != adapters.LevelAll:
		dir := levelDir(req.ProjectRoot, req.Level)
		if dir == "" {
			return nil, adapters.Usagef("no %s tests: unittest levels are the directories tests/%s (or test/%s); run the whole suite, or one test by its dotted id", req.Level, req.Level, req.Level)
		}
		return []string{"discover", "-s", dir}, nil
	}
	return nil, nil
}

func lastLine(b []byte) string {
	b = bytes.TrimSpace(b)
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return string(b[i+1:])
	}
	return string(b)
}

// fixtureError is the name unittest gives a class or module fixture that
// failed: "setUpClass (tests.test_x.TestY)".
var fixtureError = lazyre.New(`^\w+ \(([\w.]+)\)$`)

// testIDs are the dotted ids that run the named tests: a failed fixture
// selects its class or module, which reruns the fixture.
func testIDs(tests []adapters.TestRef) []string {
	var ids []string
	for _, t := range tests {
		id := t.Name
		if m := fixtureError.FindStringSubmatch(id); m != nil {
			id = m[1]
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}
