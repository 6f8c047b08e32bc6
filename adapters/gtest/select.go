package gtest

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
)

// SelectsTests: --gtest_filter takes several patterns separated by ':', so
// one run of the binary runs any set of its tests (see multiFilter).
func (gtest) SelectsTests() {}

// List is the binary's `--gtest_list_tests` with the filter the run would
// use (the level's suites, the test asked for, the command's own
// --gtest_filter): a suite line ending in '.', its tests indented below,
// GetParam()/TypeParam comments after '#'. The names are Suite.Name as the
// run records them (Inst/Suite.Name/0, Suite/0.Name). Disabled tests are
// listed, as GoogleTest lists them, and a part that holds one reports it
// skipped.
func (gtest) List(ctx context.Context, req adapters.Request) ([]adapters.TestRef, error) {
	bin, args, _, err := binary(req)
	if err != nil {
		return nil, err
	}
	kept, given := userArgs(args)
	filter, err := planFilter(req, given)
	if err != nil {
		return nil, err
	}
	argv := append([]string{bin}, kept...)
	argv = append(argv, "--gtest_list_tests")
	if filter != "" && given == "" {
		argv = append(argv, "--gtest_filter="+filter)
	}
	out, errOut, err := kit.RunTool(ctx, kit.Tool{Dir: req.ProjectRoot, Env: req.Env, MaxOutput: 64 << 20}, argv...)
	if err != nil {
		return nil, fmt.Errorf("gtest: listing the tests of %s: %w: %s", bin, err, kit.ClipTo(string(bytes.TrimSpace(errOut)), 400, "…"))
	}
	return parseList(out), nil
}

// planFilter is the --gtest_filter a run of req adds: the level's or the
// one test's; a command that gives its own filter selects alone.
func planFilter(req adapters.Request, given string) (string, error) {
	if given != "" && (req.Test != "" || req.Level != adapters.LevelAll || len(req.Tests) > 0) {
		return "", adapters.Usagef("gtest: the command already selects tests (--gtest_filter=%s): drop it, or drop --test/--level", given)
	}
	switch {
	case len(req.Tests) > 0:
		return multiFilter(req.Tests)
	case req.Test != "":
		return testFilter(req.Test)
	}
	return levelFilter(req.Level), nil
}

// parseList reads --gtest_list_tests output into Suite.Name refs.
func parseList(out []byte) []adapters.TestRef {
	var refs []adapters.TestRef
	suite := ""
	for line := range bytes.Lines(out) {
		l := strings.TrimRight(string(line), "\r\n")
		if i := strings.Index(l, "#"); i >= 0 {
			l = l[:i] // "  Name/0  # GetParam() = 4", "Typed/0.  # TypeParam = int"
		}
		l = strings.TrimRight(l, " \t")
		switch {
		case l == "":
		case strings.HasPrefix(l, "  ") && suite != "":
			refs = append(refs, adapters.TestRef{Name: suite + strings.TrimSpace(l)})
		case strings.HasSuffix(l, ".") && !strings.ContainsAny(l, " \t"):
			suite = l
		default:
			suite = "" // "Running main() from …", anything else a binary prints
		}
	}
	return refs
}

// multiFilter is the --gtest_filter that runs exactly the named tests: the
// names joined by ':'. A test's name has no ':' and no leading '-'; one
// that has them cannot be selected, as with --test. A name without a dot
// is a whole suite, as with --test: a suite that failed in SetUpTestSuite
// or TearDownTestSuite is recorded under its name.
func multiFilter(tests []adapters.TestRef) (string, error) {
	pats := make([]string, 0, len(tests))
	for _, t := range tests {
		pat, err := testFilter(t.Name)
		if err != nil {
			return "", err
		}
		pats = append(pats, pat)
	}
	return strings.Join(pats, ":"), nil
}
