// Package vitest runs a project's vitest suite (vitest 3.x) through a
// reporter strobe ships, and reads its events as the tests run.
package vitest

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit/node"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
)

// reporterJS is strobe's vitest reporter, written at Plan into a private
// temporary directory and loaded by path (--reporter=DIR/reporter.mjs).
//
//go:embed reporter.mjs
var reporterJS []byte

// setupJS is the setup file the reporter adds to every project: it
// writes each test's start from the worker (see setup.mjs).
//
//go:embed setup.mjs
var setupJS []byte

// selectJS is what the setup file and the reporter share: the run's
// selection of tests and describe blocks (see selectionArgs).
//
//go:embed select.mjs
var selectJS []byte

// legacyJS is the reporter for vitest 1.x and 2.x, beside their JSON
// reporter: it adds the setup file, and writes each test's end as vitest
// learns of it (see legacy.mjs).
//
//go:embed legacy.mjs
var legacyJS []byte

// vitest runs node_modules/.bin/vitest in run mode (never watch) with
// strobe's reporter alone, so vitest's console reporter is off and the
// tests' output keeps stdout and stderr:
//
//	node_modules/.bin/vitest run [COMMAND'S ARGS] [FILTERS] [-t PATTERN] --reporter=DIR/reporter.mjs
//
// with NO_COLOR=1. The reporter appends one JSON line per event to
// DIR/events.jsonl, synchronously from vitest's main process (a reporter
// has no file descriptor of its own in the workers), and a goroutine tails
// that file (kit.TailFile): run start, test start (the Recorder's Start,
// which names the running test for the stuck detector), test end with
// status, duration, the first error's message, diff and file:line (the
// first frame in the test file: vitest source-maps stacks, so a .ts file's
// line is its own), console output per test, suite and module errors, and
// unhandled errors. DIR is removed by the parser's Close.
//
// Names: a test is named by vitest's full name, describe blocks and the
// test joined by " > " (as vitest prints it); its suite is the test file,
// relative to the project root. A request's test is that full name, or
// "FILE > full name" to run it in one file only, or a describe block's
// name (a block whose beforeAll or afterAll failed is a failure under its
// name), which runs the block's tests; vitest's -t lets them through, as
// the names joined by spaces, escaped and anchored, and strobe's setup file
// skips what -t cannot tell from them (see selectionArgs).
//
// Levels: a test file under a directory named unit, integration or e2e,
// or named *.unit.test.*, *.integration.test.* or *.e2e.test.*: the level
// passes "/LEVEL/" and ".LEVEL." as file filters (vitest keeps a file
// whose path contains one).
//
// vitest ≥ 2 runs test files in child processes (pool "forks", the
// default) or worker threads (pool "threads"): IsTestProcess names the
// fork children so the stuck detector judges them; with threads, the
// tests run inside the vitest process itself.
//
// Supported: vitest 3.x and 4.x, whose reporter API has onTestCaseReady
// and onTestCaseResult (tested: 3.2.4 in the fixtures, 4.1.12 by hand).
// An older vitest (1.x, 2.x; 1.6.1 and 2.1.9 in the fixtures) runs with
// vitest's own JSON reporter into a file read at the end, the run's
// record, and legacy.mjs beside it, which adds the setup file (each
// test's start and end) and writes each test's end as vitest learns of
// it: a run strobe stops keeps the tests that ended.
type vitest struct{}

// New returns the vitest adapter.
func New() adapters.Adapter { return vitest{} }

func (vitest) Name() string { return "vitest" }

// configNames are vitest's own configuration files.
var configNames = []string{"vitest.config.ts", "vitest.config.js", "vitest.config.mts", "vitest.config.mjs", "vitest.config.cts", "vitest.config.cjs"}

// viteConfigNames are vite's, which hold vitest's settings in a test block.
var viteConfigNames = []string{"vite.config.ts", "vite.config.js", "vite.config.mts", "vite.config.mjs", "vite.config.cts", "vite.config.cjs"}

// testBlock finds a `test: {` settings block in a vite config.
var testBlock = lazyre.New(`(?m)(^|[\s,{])test\s*:\s*\{`)

func (vitest) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		if _, ok := vitestArgs(req.Command); ok {
			return adapters.Detection{Confidence: 95, Hint: "the command runs vitest"}
		}
		return adapters.Detection{}
	}
	p, ok, err := node.Find(req.ProjectRoot)
	if err != nil || !ok {
		return adapters.Detection{}
	}
	if f := p.ConfigFile(configNames...); f != "" {
		return adapters.Detection{Confidence: 90, Hint: "vitest config " + filepath.Base(f)}
	}
	if f := p.ConfigFile(viteConfigNames...); f != "" {
		if b, err := os.ReadFile(f); err == nil && testBlock.Match(b) {
			return adapters.Detection{Confidence: 88, Hint: filepath.Base(f) + " has a test block"}
		}
	}
	if p.ScriptRuns("vitest") && benchesOnly(p.Scripts) {
		// negotiator's `"bench": "vitest bench"` beside its mocha tests:
		// vitest is there for the benchmarks, and no rival of the test
		// script's framework.
		return adapters.Detection{Confidence: 1, Hint: "vitest runs only the benchmarks (`vitest bench`)"}
	}
	switch dep, script := p.Has("vitest"), p.ScriptRuns("vitest"); {
	case dep && script:
		return adapters.Detection{Confidence: 85, Hint: "package.json runs vitest"}
	case script:
		return adapters.Detection{Confidence: 75, Hint: "a package.json script runs vitest"}
	case dep:
		return adapters.Detection{Confidence: 70, Hint: "vitest is a dependency"}
	}
	return adapters.Detection{}
}

// benchesOnly says whether every script that runs vitest runs its
// benchmarks (`vitest bench`), none its tests.
func benchesOnly(scripts map[string]string) bool {
	for _, s := range scripts {
		w := strings.Fields(s)
		for i, x := range w {
			if (x == "vitest" || strings.HasSuffix(x, "/vitest")) && (i+1 >= len(w) || w[i+1] != "bench") {
				return false
			}
		}
	}
	return true
}

// launchers run a package's binary: `npx vitest`, `pnpm exec vitest`.
var launchers = map[string][]string{
	"npx": nil, "bunx": nil, "pnpx": nil, "node": nil,
	"pnpm": {"exec", "dlx"}, "yarn": {"exec", "run"}, "npm": {"exec", "x"}, "bun": {"x", "run"},
}

// vitestArgs finds vitest in a command (`vitest …`, `npx vitest …`,
// `node_modules/.bin/vitest …`) and returns the arguments after it.
func vitestArgs(cmd []string) ([]string, bool) {
	for i := 0; i < len(cmd) && i < 8; i++ {
		w := cmd[i]
		if i > 0 && node.ValueFlag(w) {
			i++ // node -r ./setup.cjs node_modules/vitest/vitest.mjs
			continue
		}
		base := filepath.Base(w)
		if base == "vitest" || base == "vitest.mjs" {
			return cmd[i+1:], true
		}
		if i == 0 {
			if _, ok := launchers[base]; !ok {
				return nil, false
			}
			continue
		}
		if w == "--" || strings.HasPrefix(w, "-") || slices.Contains(launchers[filepath.Base(cmd[0])], w) {
			continue
		}
		return nil, false
	}
	return nil, false
}

// dropped are the options of a command strobe sets itself (the reporter,
// colours, watch mode) or that would keep the run from ending (the UI).
var dropped = map[string]bool{
	"--reporter": true, "--outputFile": true, "--watch": true, "-w": true, "--ui": true, "--open": true,
	"--color": true, "--no-color": true, "--silent": true, "--typecheck": false,
}

// droppedValue are those of them that take a separate value.
var droppedValue = map[string]bool{"--reporter": true, "--outputFile": true}

// userArgs keeps a command's arguments vitest should see: its mode word
// (run, watch, dev, related) and the options strobe sets go.
func userArgs(args []string) []string {
	var kept []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if i == 0 && (a == "run" || a == "watch" || a == "dev") {
			continue
		}
		name, _, hasValue := strings.Cut(a, "=")
		if strings.HasPrefix(name, "--outputFile.") || strings.HasPrefix(name, "--reporter.") {
			name = strings.SplitN(name, ".", 2)[0]
		}
		if dropped[name] {
			if droppedValue[name] && !hasValue && i+1 < len(args) {
				i++
			}
			continue
		}
		kept = append(kept, a)
	}
	return kept
}

// levelFilters are the file filters of a level.
func levelFilters(l adapters.Level) []string {
	if l == adapters.LevelAll {
		return nil
	}
	return []string{"/" + string(l) + "/", "." + string(l) + "."}
}

// splitTest reads a request's test: "FILE > describe > name" when its
// first part is a test file (from the project root or the package,
// returned relative to the package), else the full name alone.
func splitTest(root, pkgDir, test string) (file, name string) {
	if f, rest, ok := strings.Cut(test, " > "); ok {
		if rel, ok := testFile(root, pkgDir, f); ok {
			return rel, rest
		}
	}
	return "", test
}

func looksLikeTestFile(f string) bool {
	ext := filepath.Ext(f)
	return ext != "" && strings.Contains(".js.ts.mjs.mts.cjs.cts.jsx.tsx", ext)
}

// namePattern is vitest's -t for one test: its names joined by spaces
// (how vitest matches them), regexp characters escaped, anchored.
func namePattern(fullName string) string {
	return "^" + node.SpacedPattern(fullName, " > ") + "$"
}

// v1Pattern is an anchored -t pattern for vitest 1, whose full names
// begin with the file's empty suite name and a space (" adds", " math
// adds"): the space is allowed before the name.
func v1Pattern(pattern string) string {
	if rest, ok := strings.CutPrefix(pattern, "^"); ok {
		return "^ ?" + rest
	}
	return pattern
}

// blockPattern is vitest's -t for the tests of a describe block: their
// full names begin with the block's and a space.
func blockPattern(fullName string) string {
	return "^" + node.SpacedPattern(fullName, " > ") + " "
}

// runner is how a person runs the package's vitest: through its package
// manager, so that the rerun command works from a shell.
func runner(p *node.Package) []string {
	switch p.Manager {
	case "pnpm":
		return []string{"pnpm", "exec", "vitest"}
	case "yarn":
		return []string{"yarn", "vitest"}
	case "bun":
		return []string{"bunx", "vitest"}
	}
	return []string{"npx", "vitest"}
}

func (vitest) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	p, ok, err := node.Find(req.ProjectRoot)
	if err != nil {
		return nil, &adapters.UsageError{Msg: "vitest: cannot read package.json: " + err.Error(), Framework: "vitest", Hint: "fix package.json so that it parses as JSON"}
	}
	if !ok {
		return nil, &adapters.UsageError{Msg: "vitest: no package.json in or above " + req.ProjectRoot, Framework: "vitest",
			Hint: "give the JavaScript project's directory as the project root"}
	}
	bin, err := p.Bin("vitest", "vitest")
	if err != nil {
		return nil, err
	}
	var args []string
	// The test script's options (--coverage and its thresholds, a config,
	// a project) are the project's: `npm test` fails where they fail it.
	// What else the script runs (a type check) strobe does not: the note
	// says so.
	script := p.ScriptFor(req, "vitest", func(w []string) bool { _, ok := vitestArgs(w); return ok })
	script.KeepNodeOnly(ctx, req.Env, p.Dir) // node --stack-size=256 vitest: not in NODE_OPTIONS
	wrapper, err := script.WrapperArgv(p)    // dotenv -e .env.test --
	if err != nil {
		return nil, err
	}
	if len(req.Command) > 0 {
		a, ok := vitestArgs(req.Command)
		if !ok {
			return nil, adapters.Usagef("vitest: the command does not run vitest: give `vitest …` or `npx vitest …`, or leave it out")
		}
		args = userArgs(a)
	} else if a, ok := vitestArgs(script.Words); ok {
		args = userArgs(a)
		if req.Test != "" || len(req.Tests) > 0 || req.Level != adapters.LevelAll {
			// The script's coverage threshold is the whole suite's.
			args = node.WithoutCoverage(args)
		}
	}
	var scriptPaths []string
	if len(req.Command) == 0 && p.Within(req.ProjectRoot) != "" {
		// strobe given a directory inside the package: the script's own
		// filters (`vitest run test/basic`) would add their files to its
		// tests (vitest takes a file any filter matches).
		args, scriptPaths = node.WithoutPaths(args, p.Dir)
	}
	// A rerun is of one test: a shard of its one file may hold none.
	rerunArgs := node.WithoutShard(args)
	if req.Test != "" || len(req.Tests) > 0 {
		// Tests named are run wherever they are, not in the shard's files.
		args = rerunArgs
	}
	// No onTestCaseReady before vitest 3: its JSON report, read at the
	// end, without strobe's setup file.
	v := node.Major(node.BinVersion(bin)) // 0 when unknown
	old := v > 0 && v < 3
	argv := append(append(append(wrapper, script.NodeArgv()...), bin, "run"), args...)
	sel, chosen := selectionArgs(req, p.Dir, old)
	if i := slices.Index(sel, "-t"); v == 1 && i >= 0 && i+1 < len(sel) {
		sel[i+1] = v1Pattern(sel[i+1])
	}
	if rel := p.Within(req.ProjectRoot); rel != "" && len(req.Command) == 0 && len(req.Tests) == 0 && (len(chosen) == 0 || chosen[0].File == "") {
		// strobe given a directory inside the package (src/utils of a
		// package above it): the tests under it, not every test of the
		// package. Tests named by their file, and a command's own
		// filters, run as they say (a filter added to theirs would add
		// its files to them). An absolute filter takes the files under
		// it (vitest also takes a file whose path relative to the
		// package holds src/utils/); a level's filters would add their
		// files to those, not narrow them (vitest takes a file any
		// filter matches).
		if req.Level != adapters.LevelAll {
			return nil, &adapters.UsageError{Msg: fmt.Sprintf("vitest: a level is a filter of the whole package at %s and cannot be narrowed to %s", p.Dir, rel), Framework: "vitest",
				Hint: "give the package's directory (" + p.Dir + ") with the level, or this directory without one"}
		}
		sel = append(sel, filepath.ToSlash(req.ProjectRoot)+"/")
	}
	argv = append(argv, sel...)
	dir, err := os.MkdirTemp("", "strobe-vitest-")
	if err != nil {
		return nil, fmt.Errorf("vitest: reporter directory: %w", err)
	}
	// The script's environment first: strobe's own settings win.
	env := append(script.RunEnv(req.Env), "NO_COLOR=1")
	if chosen != nil && !old {
		env = append(env, selectionEnv(chosen))
	}
	pr := newParser(rec, req.ProjectRoot, dir)
	pr.pkgDir, pr.test, pr.level, pr.scriptNote = p.Dir, req.Test, req.Level, script.Note
	pr.single = req.Test != ""
	if len(scriptPaths) > 0 {
		pr.scriptNote = strings.TrimPrefix(pr.scriptNote+"; "+node.PathsNote(scriptPaths, req.ProjectRoot), "; ")
	}
	if len(req.Tests) > 0 {
		// For the no-tests hint: the run selected tests by name.
		pr.test = req.Tests[0].Name
	}
	// A rerun sets what the script sets (TZ=UTC, NODE_OPTIONS=…).
	prefix := append(script.RerunPrefix(), runner(p)...)
	if nodeArgv := script.NodeArgv(); nodeArgv != nil {
		// npx vitest cannot give node its options: node runs vitest's program.
		prefix = append(append(script.RerunPrefix(), nodeArgv...), node.RelBin(req.ProjectRoot, bin))
	}
	pr.rerun = append(slices.Clone(prefix), "run")
	if len(req.Command) == 0 {
		// A rerun is of one test: the script's coverage threshold, the
		// whole suite's, would fail it.
		pr.rerun = append(pr.rerun, node.WithoutCoverage(rerunArgs)...)
	} else {
		pr.rerun = append(pr.rerun, rerunArgs...)
	}
	// Reruns are pasted where strobe was pointed and run in the package:
	// below it, or above it (src/utils of the package).
	pr.cd = node.CdTo(req.ProjectRoot, p.Dir)
	pr.whole = append(append(append(slices.Clone(prefix), "run"), args...), sel...)
	files := map[string][]byte{"reporter.mjs": reporterJS, "select.mjs": selectJS, "setup.mjs": setupJS}
	if old {
		files["legacy.mjs"] = legacyJS
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("vitest: writing the reporter: %w", err)
		}
	}
	pr.start(filepath.Join(dir, "events.jsonl"))
	if old {
		pr.jsonReport = filepath.Join(dir, "report.json")
		argv = append(argv, "--reporter=json", "--outputFile="+pr.jsonReport, "--reporter="+filepath.Join(dir, "legacy.mjs"))
		if i := slices.Index(sel, "-t"); i >= 0 && i+1 < len(sel) {
			// vitest reports the tests -t left out as skipped: they are
			// none of the run's, or a name that matches nothing passed.
			pr.selected, _ = regexp.Compile(sel[i+1])
		}
		pr.v1 = v == 1
		// No event will say the tests began: vitest transforms each file
		// as it loads it, so there is no build to wait for, and the run
		// is judged (stuck detector, the test timeout) from its start,
		// not given the build's half hour.
		rec.BeginTesting()
	} else {
		argv = append(argv, "--reporter="+filepath.Join(dir, "reporter.mjs"))
	}
	// The answer's command as a person types it, in the package: without
	// strobe's reporters, in a directory removed after the run.
	return &adapters.Plan{Argv: argv, Dir: p.Dir, Env: env, Parser: pr, Shown: shell.Join(pr.whole)}, nil
}
