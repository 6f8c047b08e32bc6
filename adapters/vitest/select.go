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
	"strobe/internal/lazyre"
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
	sel, chosen := selectionArgs(req, p.Dir, false)
	argv = append(argv, sel...)
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
		if chosen != nil && !selects(chosen, t.File, t.Name) {
			continue // let through by -t, not selected (see selectionArgs)
		}
		refs = append(refs, adapters.TestRef{Suite: kit.ProjectPath(req.ProjectRoot, t.File), Name: t.Name})
	}
	return refs, nil
}

// selectionArgs are the file filters and -t of a request: the tests'
// (Request.Tests), or the test's, or the level's file filters; and the
// selection strobe's setup file and reporter narrow the run to (see
// selection), none for a level or the whole suite.
//
// A name is a test's full name or a describe block's (a block whose hook
// failed is a failure under its name). vitest's -t matches tests, by their
// names joined by spaces, and cannot tell the test "adds" from the block
// "adds", nor either from a test "adds wrongly": the pattern takes each
// name and whatever follows it after a space, and the selection drops,
// before the file's tests run, those that are neither the test named nor
// in the block named, in the file named. exact is for a run without
// strobe's setup file (vitest's JSON report): -t matches the names alone.
func selectionArgs(req adapters.Request, pkgDir string, exact bool) ([]string, []selected) {
	if len(req.Tests) > 0 {
		var files []string
		var sel []selected
		for _, t := range req.Tests {
			s := selected{Name: t.Name}
			if t.Suite != "" {
				s.File = filepath.Join(req.ProjectRoot, t.Suite)
				f := t.Suite
				if rel, ok := kit.Rel(pkgDir, s.File); ok {
					f = rel
				}
				if !slices.Contains(files, f) {
					files = append(files, f)
				}
				if t.Name == t.Suite {
					s.Name = "" // a failure of the file: all of it
				}
			}
			sel = append(sel, s)
		}
		return withPattern(files, sel, exact), sel
	}
	args := levelFilters(req.Level)
	if req.Test == "" {
		return args, nil
	}
	if f, ok := testFile(req.ProjectRoot, pkgDir, req.Test); ok {
		// A failure of the file (an error outside its tests): all of it.
		return []string{f}, []selected{{File: filepath.Join(pkgDir, f)}}
	}
	s := selected{Name: req.Test}
	if file, name := splitTest(req.ProjectRoot, pkgDir, req.Test); file != "" {
		args, s = []string{file}, selected{File: filepath.Join(pkgDir, file), Name: name}
	}
	sel := []selected{s}
	return withPattern(args, sel, exact), sel
}

// withPattern adds a selection's -t to the file filters, none when the
// selection takes a whole file: -t applies in every file, so the setup
// file narrows the others (exact, without it, runs every named file whole).
func withPattern(args []string, sel []selected, exact bool) []string {
	for _, s := range sel {
		if s.Name == "" {
			return args
		}
	}
	return append(args, "-t", selectPattern(sel, exact))
}

// testFile tells whether a request's test is a test file, as a failure of
// a file names it (relative to the project root) or relative to the
// package, and returns it relative to the package.
func testFile(root, pkgDir, test string) (string, bool) {
	if !looksLikeTestFile(test) {
		return "", false
	}
	for _, base := range []string{root, pkgDir} {
		if path := filepath.Join(base, test); kit.FileExists(path) {
			if rel, ok := kit.Rel(pkgDir, path); ok {
				return rel, true
			}
		}
	}
	return "", false
}

// selected is a test or a describe block a run selects: its full name
// (" > "-joined, none for the whole file) and, when known, its file's
// absolute path. It reaches
// setup.mjs and reporter.mjs as JSON in selectEnv.
type selected struct {
	File string `json:"file,omitempty"`
	Name string `json:"name"`
}

// selectEnv holds a run's selection for strobe's setup file and reporter.
const selectEnv = "STROBE_VITEST_SELECT"

// selectPattern is the -t pattern of a selection: each name's parts joined
// by spaces, escaped, in one anchored alternation; with what follows a
// space after it, unless exact (see selectionArgs). A numbered name is
// matched by vitest's own name too (the selection keeps the one test).
func selectPattern(sel []selected, exact bool) string {
	var names []string
	add := func(name string) {
		if q := node.SpacedPattern(name, " > "); !slices.Contains(names, q) {
			names = append(names, q)
		}
	}
	for _, s := range sel {
		add(s.Name)
		if base := node.Unnumbered(untagged(s.Name)); base != s.Name && !exact {
			add(base)
		}
	}
	if exact {
		return "^(" + strings.Join(names, "|") + ")$"
	}
	return "^(" + strings.Join(names, "|") + ")( .*)?$"
}

// projectTag is the end of a test's name in a run of several vitest
// projects: " [NAME]", its project's (select.mjs).
var projectTag = lazyre.New(` \[[^\[\]]+\]$`)

// untagged is a test's name without its project's: vitest's own, as -t
// matches it; strobe's setup file then takes the project's test alone.
func untagged(name string) string {
	if loc := projectTag.FindStringIndex(name); loc != nil {
		return name[:loc[0]]
	}
	return name
}

// selects tells whether a selection takes a test, by its file (absolute)
// and its full name: the test named, or one in the block named, in the
// file named when one is. setup.mjs and reporter.mjs decide alike.
func selects(sel []selected, file, name string) bool {
	for _, s := range sel {
		if s.File != "" && s.File != file {
			continue
		}
		if s.Name == "" || name == s.Name || strings.HasPrefix(name, s.Name+" > ") {
			return true
		}
	}
	return false
}

// selectionEnv is the environment entry that hands a selection to strobe's
// setup file and reporter.
func selectionEnv(sel []selected) string {
	b, _ := json.Marshal(sel)
	return selectEnv + "=" + string(b)
}
