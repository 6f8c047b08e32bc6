package vitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/node"
)

// SelectsTests: vitest runs several tests in one process when given their
// files and a -t pattern that matches each of their full names (see
// multiSelection).
func (vitest) SelectsTests() {}

// List is `vitest list --json=FILE` with the run's own selection (the
// command's arguments, the level's file filters, the test's file and -t):
// vitest collects the test files without running a test and writes each
// test's full name (" > "-joined, as the run names it) and file. Skipped
// and todo tests are not listed (vitest leaves them out), so a partition
// never runs them: the shards' merge counts them nowhere.
func (vitest) List(ctx context.Context, req adapters.Request) ([]adapters.TestRef, error) {
	p, ok, err := node.Find(req.ProjectRoot)
	if err != nil || !ok {
		return nil, adapters.Usagef("vitest: no readable package.json in or above %s: give the JavaScript project's directory", req.ProjectRoot)
	}
	bin, err := p.Bin("vitest", "vitest")
	if err != nil {
		return nil, err
	}
	var args []string
	if len(req.Command) > 0 {
		a, ok := vitestArgs(req.Command)
		if !ok {
			return nil, adapters.Usagef("vitest: the command does not run vitest: give `vitest …` or `npx vitest …`, or leave it out")
		}
		args = userArgs(a)
	}
	dir, err := os.MkdirTemp("", "strobe-vitest-list-")
	if err != nil {
		return nil, fmt.Errorf("vitest: list directory: %w", err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "list.json")
	argv := append([]string{bin, "list", "--json=" + out}, args...)
	argv = append(argv, selectionArgs(req, p.Dir)...)
	_, errOut, err := kit.RunTool(ctx, kit.Tool{Dir: p.Dir, Env: append(slices.Clone(req.Env), "NO_COLOR=1"), MaxOutput: 1 << 20}, argv...)
	if err != nil {
		return nil, fmt.Errorf("vitest: listing the tests (%s): %w: %s", strings.Join(argv[1:], " "), err, kit.ClipTo(string(bytes.TrimSpace(errOut)), 400, "…"))
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return nil, fmt.Errorf("vitest: vitest list wrote no list: %w", err)
	}
	var list []struct{ Name, File string }
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, fmt.Errorf("vitest: reading vitest list's JSON: %w", err)
	}
	refs := make([]adapters.TestRef, 0, len(list))
	for _, t := range list {
		refs = append(refs, adapters.TestRef{Suite: kit.ProjectPath(req.ProjectRoot, t.File), Name: t.Name})
	}
	return refs, nil
}

// selectionArgs are the file filters and -t of a request: the tests'
// (Request.Tests), or the test's, or the level's file filters.
func selectionArgs(req adapters.Request, pkgDir string) []string {
	if len(req.Tests) > 0 {
		files, pattern := multiSelection(req.ProjectRoot, pkgDir, req.Tests)
		return append(files, "-t", pattern)
	}
	sel := levelFilters(req.Level)
	if req.Test == "" {
		return sel
	}
	file, name := splitTest(pkgDir, req.Test)
	if file != "" {
		sel = []string{file}
	}
	return append(sel, "-t", namePattern(name))
}

// multiSelection is the file filters and the -t pattern that run the named
// tests: their files, relative to the package, and their full names, each
// escaped, in one anchored alternation. vitest matches -t in every file it
// runs, so a name that two selected files share runs in both.
func multiSelection(root, pkgDir string, tests []adapters.TestRef) (files []string, pattern string) {
	var names []string
	for _, t := range tests {
		if t.Suite != "" {
			f := t.Suite
			if rel, ok := kit.Rel(pkgDir, filepath.Join(root, t.Suite)); ok {
				f = rel
			}
			if !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
		q := node.QuoteRegexp(strings.Join(strings.Split(t.Name, " > "), " "))
		if !slices.Contains(names, q) {
			names = append(names, q)
		}
	}
	return files, "^(" + strings.Join(names, "|") + ")$"
}
