package jest

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/report"
)

// SelectsTests: jest runs several tests in one process when given their
// files (--runTestsByPath) and a -t pattern that matches each of their
// names (see multiSelection).
func (jest) SelectsTests() {}

// collectEnv makes strobe's reporter report the tests a -t pattern left
// out (as skipped) instead of dropping them: List's collect mode.
const collectEnv = "STROBE_JEST_COLLECT"

// never is a -t pattern no test name matches.
const never = "(?!)"

// List runs the selection with a -t pattern that matches no test: jest
// (jest-circus) loads every test file and reports each test as skipped
// without running its body or hooks, and strobe's reporter, in collect
// mode, reports them all. jest's own --listTests names only files. The
// tests are named as a run names them (the file relative to the project,
// describe blocks and title joined with " › "); jest's skipped and todo
// tests are listed too, and a part that holds them reports them skipped.
// A test file that fails to load makes List fail: no partition would
// report it.
func (j jest) List(ctx context.Context, req adapters.Request) ([]adapters.TestRef, error) {
	if req.Test != "" {
		return nil, adapters.Usagef("jest: strobe lists a level or the whole suite, not one test: drop the test")
	}
	rec := adapters.NewRecorder()
	plan, err := j.Plan(ctx, req, rec)
	if err != nil {
		return nil, err
	}
	p := plan.Parser.(*parser)
	if p.fallback != "" {
		closeParser(p)
		return nil, adapters.Usagef("jest: strobe lists jest's tests with jest 27 or later: upgrade jest, or run the suite whole")
	}
	argv := append(slices.Clone(plan.Argv), "-t", never)
	env := append(slices.Clone(req.Env), plan.Env...)
	_, errOut, err := kit.RunTool(ctx, kit.Tool{Dir: plan.Dir, Env: append(env, collectEnv+"=1"), MaxOutput: 1 << 20}, argv...)
	exit := report.Exit{Exited: true}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		exit.Code = ee.ExitCode()
	case err != nil:
		closeParser(p)
		return nil, fmt.Errorf("jest: listing the tests: %w", err)
	}
	out := p.Finish(exit)
	closeParser(p)
	if len(out.BuildErrors) > 0 {
		b := out.BuildErrors[0]
		return nil, fmt.Errorf("jest: test file %s failed to load, so its tests cannot be listed: %s", b.File, kit.ClipTo(b.Message, 300, "…"))
	}
	tests := rec.Tests()
	// jest can fail a run that ran no test (--ci with obsolete snapshots):
	// what it listed still stands.
	if exit.Code != 0 && len(tests) == 0 {
		return nil, fmt.Errorf("jest: listing the tests (%s) exited %d: %s", strings.Join(argv, " "), exit.Code, kit.ClipTo(strings.TrimSpace(string(errOut)), 400, "…"))
	}
	var refs []adapters.TestRef
	for _, t := range tests {
		refs = append(refs, adapters.TestRef{Suite: t.Suite, Name: t.Name})
	}
	return refs, nil
}

func closeParser(p adapters.Parser) {
	if c, ok := p.(adapters.Closer); ok {
		c.Close()
	}
}

// multiSelection is the arguments that run the named tests: their files,
// relative to the package (--runTestsByPath), and one -t pattern that
// matches each name exactly. jest matches -t in every file it runs, so a
// name that two selected files share runs in both. A failure named by its
// file (an afterAll that threw: jest does not say which block's) selects
// the file whole, with no -t: -t would keep out the tests whose block's
// hook failed, and jest takes one -t for every file, so the other files
// named run whole too.
func multiSelection(root, pkgDir string, tests []adapters.TestRef) []string {
	var files, names []string
	whole := false
	for _, t := range tests {
		if t.Suite != "" {
			f := t.Suite
			if rel, ok := kit.Rel(pkgDir, filepath.Join(root, t.Suite)); ok {
				f = rel
			}
			if !slices.Contains(files, f) {
				files = append(files, f)
			}
			if t.Name == t.Suite {
				whole = true
				continue
			}
		}
		for _, q := range titlePatterns(t.Name) {
			if !slices.Contains(names, q) {
				names = append(names, q)
			}
		}
	}
	var sel []string
	if len(files) > 0 {
		sel = append([]string{"--runTestsByPath"}, files...)
	}
	if whole {
		return sel
	}
	return append(sel, "-t", "^("+strings.Join(names, "|")+")$")
}
