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
// selection. A subtest selects its top-level test (go's -run cannot pick
// one subtest of one test beside whole others in a single pattern). The
// pattern is one for all packages, so a test name that two selected
// packages share runs in both.
func goMultiRun(tests []adapters.TestRef) (run string, pkgs []string) {
	var names []string
	for _, t := range tests {
		top, _, _ := strings.Cut(t.Name, "/")
		if q := regexp.QuoteMeta(strings.ReplaceAll(top, " ", "_")); !slices.Contains(names, q) {
			names = append(names, q)
		}
		if t.Suite != "" && !slices.Contains(pkgs, t.Suite) {
			pkgs = append(pkgs, t.Suite)
		}
	}
	return "^(" + strings.Join(names, "|") + ")$", pkgs
}
