package ctest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
)

// SelectsTests: one -R alternation of the names, anchored, runs any set
// of a tree's tests in one ctest (see selectArgs).
func (ctest) SelectsTests() {}

// List is `ctest --show-only=json-v1` (CMake 3.14) with the run's own
// tree, command arguments and selection: ctest reads the tree's test
// files and prints every test it would run, as JSON, without running one.
func (ctest) List(ctx context.Context, req adapters.Request) ([]adapters.TestRef, error) {
	prog, args, tree, _, err := command(req)
	if err != nil {
		return nil, err
	}
	bin, err := kit.ResolveProgram(req.ProjectRoot, prog, req.Env)
	if err != nil {
		return nil, &adapters.UsageError{Msg: "ctest: " + prog + " not found", Framework: "ctest", Hint: "install CMake (its ctest), or pass --command with the path of ctest"}
	}
	v := ctestVersion(ctx, bin, req)
	if v != [2]int{} && !atLeast(v, 3, 14) {
		return nil, adapters.Usagef("ctest: strobe lists tests with ctest --show-only=json-v1, which CMake 3.14 brought (this is %d.%d): upgrade CMake", v[0], v[1])
	}
	argv := append([]string{bin}, args...)
	dir := req.ProjectRoot
	if tree != "" && len(req.Command) == 0 {
		if atLeast(v, 3, 20) || v == [2]int{} {
			argv = append(argv, "--test-dir", tree)
		} else {
			dir = filepath.Join(req.ProjectRoot, tree)
		}
	}
	argv = append(argv, "--show-only=json-v1")
	argv = append(argv, selectArgs(req)...)
	out, errOut, err := kit.RunTool(ctx, kit.Tool{Dir: dir, Env: req.Env, MaxOutput: 64 << 20}, argv...)
	if err != nil {
		return nil, fmt.Errorf("ctest: listing the tests (%s): %w: %s", strings.Join(argv[1:], " "), err, kit.ClipTo(string(bytes.TrimSpace(errOut)), 400, "…"))
	}
	var so showOnly
	if err := json.Unmarshal(out, &so); err != nil {
		return nil, fmt.Errorf("ctest: reading --show-only=json-v1: %w", err)
	}
	refs := make([]adapters.TestRef, 0, len(so.Tests))
	for _, t := range so.Tests {
		refs = append(refs, adapters.TestRef{Name: t.Name})
	}
	return refs, nil
}

// selectArgs are the arguments that select a request's tests: the
// tests' names in one anchored -R alternation, or the one test's -R, and
// the level's -L.
func selectArgs(req adapters.Request) []string {
	sel := levelArgs(req.Level)
	switch {
	case len(req.Tests) > 0:
		names := make([]string, len(req.Tests))
		for i, t := range req.Tests {
			names[i] = regexp.QuoteMeta(t.Name)
		}
		sel = append(sel, "-R", "^("+strings.Join(names, "|")+")$")
	case req.Test != "":
		sel = append(sel, testArgs(req.Test)...)
	}
	return sel
}
