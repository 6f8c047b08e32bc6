package generic

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/node"
	"strobe/internal/shell"
)

// generic runs any command. It answers confidence 1 for a command, so it
// runs only what nothing else claims. Without a command it falls back on
// the project's own test command, for a project no framework adapter
// recognises: package.json's test script (10; npm's placeholder that only
// fails does not count), run by the package manager its lockfile names
// (`npm test`, `pnpm test`, `yarn test`, `bun run test`), else a Makefile's
// test or check target (5: `make test`, `make check`). It understands TAP
// (nested subtests, YAML diagnostics, plans, bail out, prove's file
// verdicts and summary report, Test::More's diagnostics), automake's
// harness (a failed test's .log), compiler errors before any test,
// libtest, go test, GoogleTest and pytest result lines run through a
// script, a plain "N passed, N failed" summary and Surefire's totals, and
// otherwise falls back to the exit status (parse.go).
type generic struct{}

// New returns the generic adapter.
func New() adapters.Adapter { return generic{} }

func (generic) Name() string { return "generic" }

// Confidences of the fallback: above generic's 1 for a command, below
// any framework's own evidence.
const (
	scriptConfidence = 10
	makeConfidence   = 5
)

func (generic) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		return adapters.Detection{Confidence: 1}
	}
	if fb, ok := findFallback(req.ProjectRoot); ok {
		return adapters.Detection{Confidence: fb.confidence, Hint: fb.hint()}
	}
	return adapters.Detection{Confidence: 1}
}

// fallback is a project's own test command.
type fallback struct {
	argv       []string
	source     string // where it comes from, for the hint
	confidence int
}

// hint says what runs and how to pick a framework instead.
func (f fallback) hint() string {
	return fmt.Sprintf("no test framework recognised: ran `%s` (%s) through the generic adapter (TAP and PASS:/FAIL: lines are read, otherwise the exit status decides); "+
		`pass framework: "NAME" (--framework NAME) to run the tests through a framework's own adapter instead`, shell.Join(f.argv), f.source)
}

// findFallback finds the project's test command: package.json's test
// script, else a Makefile's test or check target.
func findFallback(root string) (fallback, bool) {
	if pkg, ok := node.Read(root); ok && pkg.TestScript() != "" {
		if argv := batsScript(root, pkg.TestScript()); argv != nil {
			// bats run directly: the answer's reruns and --test reach it.
			return fallback{argv: argv, source: "package.json's test script", confidence: scriptConfidence}, true
		}
		pm := pkg.Manager
		argv := []string{pm, "test"}
		if pm == "bun" {
			argv = []string{"bun", "run", "test"} // `bun test` is bun's own runner, not the script
		}
		return fallback{argv: argv, source: "package.json's test script", confidence: scriptConfidence}, true
	}
	for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			continue
		}
		if bytes.HasPrefix(b, []byte("# CMAKE generated file")) && kit.FileExists(filepath.Join(root, "CTestTestfile.cmake")) {
			break // a CMake build tree's: its test target runs ctest, the ctest adapter's
		}
		for _, target := range []string{"test", "check"} {
			if makeTarget(b, target) {
				return fallback{argv: []string{"make", target}, source: "the " + name + "'s " + target + " target", confidence: makeConfidence}, true
			}
		}
		break // make reads only the first of them
	}
	if dir := batsDir(root); dir != "" {
		if prog := batsProgram(root); prog != "" {
			return fallback{argv: []string{prog, dir}, source: "the .bats files in " + dir + "/", confidence: scriptConfidence}, true
		}
	}
	return fallback{}, false
}

// batsScript is a package.json test script that is a plain bats command
// ("bats test", "bats -r test"), with the project's bats; nil for any
// other script, or one with shell syntax.
func batsScript(root, script string) []string {
	words := strings.Fields(script)
	if len(words) == 0 || filepath.Base(words[0]) != "bats" || strings.ContainsAny(script, "$`'\"\\;&|<>()*?[]{}~#") {
		return nil
	}
	prog := words[0]
	if !strings.Contains(prog, "/") {
		// npm runs it with node_modules/.bin on PATH.
		if prog = batsProgram(root); prog == "" {
			return nil
		}
	}
	return append([]string{prog}, words[1:]...)
}

// batsDir is the directory of a project's bats tests: test/ or tests/
// when it holds .bats files.
func batsDir(root string) string {
	for _, dir := range []string{"test", "tests"} {
		if m, _ := filepath.Glob(filepath.Join(root, dir, "*.bats")); len(m) > 0 {
			return dir
		}
	}
	return ""
}

// batsProgram is the bats the project runs: its node_modules' (npm's
// .bin link, else the package's own bin/bats, which npm 11 does not
// link), else bats on PATH; "" for none.
func batsProgram(root string) string {
	for _, p := range []string{"node_modules/.bin/bats", "node_modules/bats/bin/bats"} {
		if kit.FileExists(filepath.Join(root, p)) {
			return p
		}
	}
	if _, err := exec.LookPath("bats"); err == nil {
		return "bats"
	}
	return ""
}

// makeTarget says whether a makefile defines target as a rule ("test:",
// "check test: all"), not a variable ("test := …").
func makeTarget(makefile []byte, target string) bool {
	for _, line := range strings.Split(string(makefile), "\n") {
		if line == "" || line[0] == '\t' || line[0] == '#' {
			continue
		}
		names, rest, ok := strings.Cut(line, ":")
		if !ok || strings.HasPrefix(rest, "=") || strings.ContainsAny(names, "=$") {
			continue
		}
		for _, n := range strings.Fields(names) {
			if n == target {
				return true
			}
		}
	}
	return false
}

func (generic) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	var members []string
	if len(req.Command) == 0 && req.Level == adapters.LevelAll {
		if fb, ok := findFallback(req.ProjectRoot); ok {
			req.Command = fb.argv
			if fb.argv[0] != "make" { // the workspaces' script, npm test -ws
				members = workspaceMembers(req.ProjectRoot)
			}
		}
	}
	if len(req.Command) == 0 {
		if req.Level != adapters.LevelAll {
			return nil, adapters.Usagef("level %q needs a command for the generic framework: pass --command with the command that runs that level", req.Level)
		}
		if dir := batsDir(req.ProjectRoot); dir != "" {
			return nil, adapters.Usagef("%s/ holds bats tests (.bats files) but bats is not installed: install it (npm install --save-dev bats, or your system's bats package), or pass --command with the command that runs them", dir)
		}
		return nil, adapters.Usagef("the generic framework needs a command: pass --command with the command that runs the tests")
	}
	// The command cannot be told which level or test to run, but a script
	// can read them; bats can be told the test (--filter, a regexp).
	env := []string{"STROBE_LEVEL=" + string(req.Level), "STROBE_TEST=" + req.Test}
	rec.BeginTesting() // nothing to build that strobe can see
	argv := req.Command
	pr := newParser(rec, req.ProjectRoot, argv)
	pr.test, pr.members = req.Test, members
	if req.Test != "" && filepath.Base(argv[0]) == "bats" {
		argv = slices.Concat(argv[:1], []string{"--filter", batsFilter(req.Test)}, argv[1:])
		pr.test, pr.filtered = "", req.Test
	}
	return &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Env: env, Parser: pr}, nil
}

// workspaceMembers are the packages of an npm or yarn workspaces root
// (package.json's "workspaces", a list of globs or yarn's {"packages":
// […]}) that have a test script, relative to root; nil for a package
// that is no workspaces root.
func workspaceMembers(root string) []string {
	pkg, ok := node.Read(root)
	if !ok || pkg.Raw["workspaces"] == nil {
		return nil
	}
	var globs []string
	if json.Unmarshal(pkg.Raw["workspaces"], &globs) != nil {
		var yarn struct{ Packages []string }
		json.Unmarshal(pkg.Raw["workspaces"], &yarn)
		globs = yarn.Packages
	}
	var out []string
	for _, g := range globs {
		dirs, _ := filepath.Glob(filepath.Join(root, g))
		for _, d := range dirs {
			if m, ok := node.Read(d); ok && m.Dir == d && m.TestScript() != "" {
				if rel, err := filepath.Rel(root, d); err == nil && !slices.Contains(out, rel) {
					out = append(out, filepath.ToSlash(rel))
				}
			}
		}
	}
	return out
}
