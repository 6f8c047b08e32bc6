package gotest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/lazyre"
)

// SelectsTests: go test runs several named tests in one process with a
// -run alternation (see goMultiRun).
func (gotest) SelectsTests() {}

// List is `go test -json -list <pattern> <packages>`: each package prints
// the names of its tests, benchmarks, fuzz targets and examples before its
// "ok" line. Benchmarks are left out (go test runs none without -bench);
// fuzz targets and examples run as tests and stay.
func (gotest) List(ctx context.Context, req adapters.Request) ([]adapters.TestRef, error) {
	if len(req.Command) > 0 {
		return nil, adapters.Usagef("strobe lists go tests for its own go test command only: drop the command, and choose packages with the project directory")
	}
	levelFlags, levelRun := goLevel(req.Level)
	pattern := "."
	switch {
	case req.Test != "":
		pattern = goRunPattern(strings.SplitN(req.Test, "/", 2)[0])
	case levelRun != "":
		pattern = levelRun
	}
	argv := append([]string{"go", "test", "-json"}, levelFlags...)
	argv = append(argv, "-list", pattern)
	argv = append(argv, goPatterns(req.ProjectRoot)...)
	out, errOut, err := kit.RunTool(ctx, kit.Tool{Dir: req.ProjectRoot, Env: req.Env, MaxOutput: 64 << 20}, argv...)
	refs, build := parseGoList(out)
	if err != nil && len(refs) == 0 {
		msg := string(bytes.TrimSpace(errOut))
		if msg == "" {
			msg = build
		}
		return nil, fmt.Errorf("listing go tests (%s): %w: %s", strings.Join(argv, " "), err, kit.ClipTo(strings.Join(strings.Fields(msg), " "), 400, "…"))
	}
	return refs, nil
}

// goListName is a line go test -list prints for a test: an identifier.
var goListName = lazyre.New(`^(Test|Fuzz|Example)\w*$`)

// parseGoList reads go test -json -list's output events: the tests, and
// the compiler's output of a package that did not build.
func parseGoList(out []byte) (refs []adapters.TestRef, build string) {
	var b strings.Builder
	for line := range bytes.Lines(out) {
		var e goEvent
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		if e.Action == "build-output" && b.Len() < 4096 {
			b.WriteString(e.Output)
		}
		if e.Action != "output" || e.Test != "" {
			continue
		}
		name := strings.TrimSpace(e.Output)
		if goListName.MatchString(name) {
			refs = append(refs, adapters.TestRef{Suite: e.Package, Name: name})
		}
	}
	return refs, b.String()
}

// goMultiRun is the -run pattern and the packages of a multi-test
// selection. go's -run matches each level of a name against the
// pattern's element of that level, so one pattern cannot pick one subtest
// of one test beside whole others: the pattern goes as deep as the
// shallowest selected test that has no selected subtest (a leaf), each
// level an alternation of the names at that level. A table test's failed
// rows then run without their passing siblings (they all ran, under the
// top-level names alone); a whole test beside them runs the rows of the
// others whole too. The pattern is one for all packages, so a test name
// that two selected packages share runs in both.
func goMultiRun(tests []adapters.TestRef) (run string, pkgs []string) {
	var levels [][]string
	names := make([]string, 0, len(tests))
	for _, t := range tests {
		names = append(names, strings.ReplaceAll(t.Name, " ", "_"))
		if t.Suite != "" && !slices.Contains(pkgs, t.Suite) {
			pkgs = append(pkgs, t.Suite)
		}
	}
	depth := 0
	for _, n := range names {
		parts := strings.Split(n, "/")
		for i, p := range parts {
			if i == len(levels) {
				levels = append(levels, nil)
			}
			if q := regexp.QuoteMeta(p); !slices.Contains(levels[i], q) {
				levels[i] = append(levels[i], q)
			}
		}
		leaf := !slices.ContainsFunc(names, func(o string) bool { return strings.HasPrefix(o, n+"/") })
		if leaf && (depth == 0 || len(parts) < depth) {
			depth = len(parts)
		}
	}
	pats := make([]string, depth)
	for i := range pats {
		pats[i] = "^(" + strings.Join(levels[i], "|") + ")$"
	}
	return strings.Join(pats, "/"), pkgs
}
