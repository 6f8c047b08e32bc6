// Package jest runs a JavaScript or TypeScript project's jest suite through
// a reporter strobe ships, and reads the reporter's events as jest writes
// them.
package jest

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/node"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
)

// jest runs node_modules/.bin/jest with strobe's reporter (reporter.cjs,
// embedded, written at Plan into a private temporary directory that the
// parser's Close removes), loaded by path through --reporters so that
// jest's own console reporters stay off:
//
//	node_modules/.bin/jest [COMMAND'S ARGS] --ci --reporters=DIR/reporter.cjs
//	  --passWithNoTests [SELECTION]
//
// with FORCE_COLOR=0 and STROBE_JEST_EVENTS=DIR/events.jsonl. Reporters run
// in jest's main process whatever the workers, so the reporter appends one
// JSON line per event to that file and the parser tails it (kit.TailFile);
// a file cannot mix with what the tests print, and keeps what was written
// when jest dies. --passWithNoTests makes a suite without tests exit 0, so
// that it reads as no_tests rather than as a failure.
//
// A test is named by its describe blocks and title joined with " › ", as
// jest's console shows it, with its project's tag under a config of
// several projects ("NAME [one]", see projectTag), in the suite of its
// file (relative to the project). A request's test is "FILE › describe ›
// title" (the file as listed in an answer's failures) or the name alone,
// across every file; a describe block's name runs the block's tests (see
// blockPattern).
//
// jest before 27 lacks the per-test reporter events: the run then uses
// jest's own --json --outputFile, read once the run is over (no live
// progress), and the hint says so.
type jest struct{}

// New returns the jest adapter.
func New() adapters.Adapter { return jest{} }

func (jest) Name() string { return "jest" }

// ExitAdvice: jest waits for what the tests left open ("Jest did not
// exit one second after the test run has completed").
func (jest) ExitAdvice() string {
	return "jest waits for what the tests left open: close servers, sockets and timers in afterAll() (--detectOpenHandles names them; --forceExit ends jest at once, and hides the leak)"
}

//go:embed reporter.cjs
var reporterJS []byte

// workerJS is strobe's setup file that says which process runs a test
// file (worker.cjs).
//
//go:embed worker.cjs
var workerJS []byte

// selectJS is strobe's setup file for a run that selects a test or a
// describe block by name (see selectEnv).
//
//go:embed select.cjs
var selectJS []byte

// configNames are jest's own config files, in the order jest looks.
var configNames = []string{"jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs", "jest.config.json"}

// Detect: 95 for a command that runs jest, 90 for a jest config (file or
// "jest" key in package.json), 85 for a test script that runs jest, 80 for
// jest among the dependencies.
func (jest) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		if _, ok := jestArgs(req.Command); ok {
			return adapters.Detection{Confidence: 95}
		}
		return adapters.Detection{}
	}
	pkg, ok, err := node.Find(req.ProjectRoot)
	if err != nil {
		return adapters.Detection{Hint: fmt.Sprintf("jest: %v", err)}
	}
	if !ok {
		return adapters.Detection{}
	}
	switch {
	case pkg.ConfigFile(configNames...) != "":
		return adapters.Detection{Confidence: 90}
	case pkg.Raw["jest"] != nil:
		return adapters.Detection{Confidence: 90}
	case pkg.ScriptRuns("jest"):
		return adapters.Detection{Confidence: 85}
	case pkg.Has("jest"):
		return adapters.Detection{Confidence: 80}
	}
	return adapters.Detection{}
}

// jestArgs finds jest in a command (jest, node_modules/.bin/jest, npx
// jest, pnpm exec jest, yarn jest, bunx jest, node with its options and
// node_modules/jest/bin/jest.js) and answers the arguments after it.
func jestArgs(argv []string) ([]string, bool) {
	for i := 0; i < len(argv) && i < 8; i++ {
		w := argv[i]
		if i > 0 && node.ValueFlag(w) {
			i++ // node -r ts-node/register jest.js
			continue
		}
		base := filepath.Base(w)
		if base == "jest" || base == "jest.js" {
			return argv[i+1:], true
		}
		switch base {
		case "npx", "pnpm", "yarn", "bunx", "exec", "node":
			continue
		}
		if i > 0 && strings.HasPrefix(w, "-") {
			continue
		}
		return nil, false
	}
	return nil, false
}

// ownedFlags are the options the plan sets itself; a command's own are
// dropped (with their value when it is a separate word).
var ownedFlags = map[string]bool{"--reporters": true, "--json": false, "--outputFile": true, "--colors": false,
	"--ci": false, "--testLocationInResults": false, "--passWithNoTests": false, "--verbose": false, "--silent": false,
	"--watch": false, "--watchAll": false} // watch mode never ends

func keptArgs(args []string) []string {
	var kept []string
	for i := 0; i < len(args); i++ {
		name, _, hasValue := strings.Cut(args[i], "=")
		takesValue, owned := ownedFlags[name]
		if !owned {
			kept = append(kept, args[i])
			continue
		}
		if takesValue && !hasValue && i+1 < len(args) {
			i++
		}
	}
	return kept
}

func (j jest) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	pkg, ok, err := node.Find(req.ProjectRoot)
	if err != nil {
		return nil, adapters.Usagef("jest: %v: fix the package.json", err)
	}
	if !ok {
		return nil, adapters.Usagef("jest: no package.json in or above %s: run strobe in the JavaScript project's directory", req.ProjectRoot)
	}
	bin, err := pkg.Bin("jest", "jest")
	if err != nil {
		return nil, err
	}
	var user []string
	// The test script's options (--coverage and its thresholds, a config,
	// a project) are the project's: `npm test` fails where they fail it.
	// What else the script runs (a linter) strobe does not: the note says so.
	script := pkg.ScriptFor(req, "jest", func(w []string) bool { _, ok := jestArgs(w); return ok })
	script.KeepNodeOnly(ctx, req.Env, pkg.Dir) // node --stack-size=256 jest: not in NODE_OPTIONS
	wrapper, err := script.WrapperArgv(pkg)    // dotenv -e .env.test --
	if err != nil {
		return nil, err
	}
	if len(req.Command) > 0 {
		args, _ := jestArgs(req.Command)
		user = keptArgs(args)
	} else if args, ok := jestArgs(script.Words); ok {
		user = keptArgs(args)
		if req.Test != "" || len(req.Tests) > 0 || req.Level != adapters.LevelAll {
			// The script's coverage threshold is the whole suite's.
			user = node.WithoutCoverage(user)
		}
	}
	version := node.BinVersion(bin) // jest/bin/jest.js, or jest-cli's
	// strobe given a directory inside the package runs the tests under
	// it, not every test of the package; not a command's own patterns, to
	// which one more would add its files.
	under, scriptPaths := "", []string(nil)
	if pkg.Within(req.ProjectRoot) != "" && len(req.Command) == 0 {
		under = req.ProjectRoot
		// The script's own paths (`jest test/unit`) would add theirs
		// to the directory's tests: jest runs a file any pattern matches.
		user, scriptPaths = node.WithoutPaths(user, pkg.Dir)
	}
	sel, picked := selection(req, pkg.Dir, under, usesReporter(version))
	dir, err := os.MkdirTemp("", "strobe-jest-")
	if err != nil {
		return nil, fmt.Errorf("jest: reporter directory: %w", err)
	}
	p := newParser(rec, req.ProjectRoot, pkg.Dir, dir)
	p.test, p.level, p.scriptNote = req.Test, req.Level, script.Note
	if len(scriptPaths) > 0 {
		p.scriptNote = join(p.scriptNote, node.PathsNote(scriptPaths, under))
	}
	// A rerun is of one test: a shard of its one file may hold none. It
	// sets what the script sets (TZ=UTC, NODE_OPTIONS=…).
	prefix := append(script.RerunPrefix(), rerunPrefix(pkg.Manager)...)
	if nodeArgv := script.NodeArgv(); nodeArgv != nil {
		// npx jest cannot give node its options: node runs jest's program.
		prefix = append(append(script.RerunPrefix(), nodeArgv...), node.RelBin(req.ProjectRoot, bin))
	}
	p.rerun = append(slices.Clone(prefix), node.WithoutShard(user)...)
	if len(req.Command) == 0 {
		// The script's coverage threshold, the whole suite's, would fail it.
		p.rerun = append(slices.Clone(prefix), node.WithoutShard(node.WithoutCoverage(user))...)
	}
	if req.Test != "" || len(req.Tests) > 0 {
		// Tests named are run wherever they are, not in the shard's files.
		user = node.WithoutShard(user)
	}
	argv := append(append(append(wrapper, script.NodeArgv()...), bin), user...)
	p.whole = append(append(slices.Clone(prefix), user...), sel...)
	// The script's environment first: strobe's own settings win.
	env := append(script.RunEnv(req.Env), "FORCE_COLOR=0", "STROBE_JEST_EVENTS="+p.events)
	if usesReporter(version) {
		reporter := filepath.Join(dir, "reporter.cjs")
		err := os.WriteFile(reporter, reporterJS, 0o600)
		// The reporter adds strobe's setup files: worker.cjs to every
		// run, select.cjs to a run that selects by name (-t, strobe's or
		// the command's: it narrows a selection and keeps the snapshots
		// of the tests left out). They come from a directory every run
		// shares: their paths are in the project config that keys jest's
		// transform cache, and new ones each run had jest transform every
		// test file again (a fifth more CPU on 40 files; a rerun of one
		// test paid its file's transform each time).
		setup := map[string][]byte{"worker.cjs": workerJS, "select.cjs": selectJS}
		shared := kit.SharedDir("jest", setup)
		if shared == "" && err == nil {
			shared, err = dir, kit.WriteShipped(dir, setup)
		}
		env = append(env, "STROBE_JEST_SETUP="+shared)
		if picked != "" {
			env = append(env, selectEnv+"="+picked)
		}
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("jest: writing the reporter: %w", err)
		}
		argv = append(argv, "--ci", "--reporters="+reporter, "--passWithNoTests")
	} else {
		p.fallback = filepath.Join(dir, "results.json")
		p.note = fmt.Sprintf("jest %s predates the per-test reporter events strobe's reporter uses (jest 27 or later): results were read from jest's --json output once the run ended, without live progress", version)
		argv = append(argv, "--ci", "--json", "--outputFile="+p.fallback, "--testLocationInResults", "--passWithNoTests")
	}
	argv = append(argv, sel...)
	p.start()
	// The answer's command as a person types it: without strobe's
	// reporter, in a directory removed after the run (its --ci and
	// --passWithNoTests change what jest does, and stay).
	shown := shell.Join(slices.Concat(prefix, user, []string{"--ci", "--passWithNoTests"}, sel))
	return &adapters.Plan{Argv: argv, Dir: pkg.Dir, Env: env, Parser: p, Shown: shown}, nil
}

// usesReporter says whether strobe's reporter works with this jest:
// onTestCaseResult came with jest 27 (onTestCaseStart with 29.6; before
// it, tests are only seen ending). An unknown version gets the reporter.
func usesReporter(version string) bool {
	major, err := strconv.Atoi(strings.SplitN(version, ".", 2)[0])
	return err != nil || major >= 27
}

// rerunPrefix runs the project's own jest through its package manager.
func rerunPrefix(manager string) []string {
	switch manager {
	case "pnpm":
		return []string{"pnpm", "exec", "jest"}
	case "yarn":
		return []string{"yarn", "jest"}
	case "bun":
		return []string{"bunx", "jest"}
	}
	return []string{"npx", "jest"}
}

// levelWord is the directory or file-name part that puts a test file in a
// level: test/unit/x.test.js or x.unit.test.js.
var levelWord = map[adapters.Level]string{
	adapters.LevelUnit:        "unit",
	adapters.LevelIntegration: "integration",
	adapters.LevelE2E:         "e2e",
}

// selectEnv hands strobe's reporter and setup file the name of the test
// or describe block a run selects.
const selectEnv = "STROBE_JEST_SELECT"

// scopePattern matches the test files under dir (jest matches its path
// patterns against absolute paths).
func scopePattern(dir string) string {
	return "^" + regexp.QuoteMeta(filepath.ToSlash(dir)) + "/"
}

// selection is the arguments that select the request's tests: a level's
// path pattern, or one test's file and name, within under when it is set
// (a directory inside the package); and that name, for strobe's reporter and setup file to
// narrow the run to (see blockPattern), when the run has them (narrow),
// else "". Tests named by their file are run wherever they are.
func selection(req adapters.Request, dir, under string, narrow bool) ([]string, string) {
	if len(req.Tests) > 0 {
		return multiSelection(req.ProjectRoot, dir, req.Tests), ""
	}
	if req.Test != "" {
		if f, ok := testFile(req.ProjectRoot, dir, req.Test); ok {
			// A failure named by its file (an afterAll that threw): the
			// file whole, which runs the hook again.
			return []string{"--runTestsByPath", f}, ""
		}
		file, name := splitTest(req.Test, dir)
		var sel []string
		if file != "" {
			sel = append(sel, "--runTestsByPath", file)
		} else if under != "" {
			sel = append(sel, scopePattern(under)) // and -t: the name in its files
		}
		if !narrow {
			return append(sel, "-t", namePattern(name)), ""
		}
		return append(sel, "-t", blockPattern(name)), name
	}
	if w, ok := levelWord[req.Level]; ok {
		return []string{levelPattern(cmp.Or(under, dir), w)}, ""
	}
	if under != "" {
		return []string{scopePattern(under)}, ""
	}
	return nil, ""
}

// levelPattern matches a test file under dir (the package, or the scope
// within it) whose path has a directory named for the level, or the level
// between dots in its name. jest matches the pattern against absolute
// paths, so it is anchored at dir: a level's word above it
// (/home/unit/project) selects nothing.
func levelPattern(dir, word string) string {
	return "^" + regexp.QuoteMeta(filepath.ToSlash(dir)) + "/(.*/)?([^/]*\\.)?" + word + "[/.]"
}

// sep joins describe blocks and titles in a test's name, as jest's console
// does.
const sep = " › "

// testFile tells whether a request's test is a test file, as a failure of
// a file names it (relative to the project root) or relative to the
// package, and returns it relative to the package.
func testFile(root, dir, test string) (string, bool) {
	if !looksLikeJS(test) {
		return "", false
	}
	for _, base := range []string{root, dir} {
		path := filepath.Join(base, test)
		if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
			if rel, ok := kit.Rel(dir, path); ok {
				return rel, true
			}
		}
	}
	return "", false
}

// looksLikeJS tells whether a name ends as a JavaScript or TypeScript
// file's: a test titled "README" is no file to run.
func looksLikeJS(name string) bool {
	switch filepath.Ext(name) {
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts":
		return true
	}
	return false
}

// splitTest reads "FILE › name" when FILE is a file of the package, else
// the whole text as the name.
func splitTest(test, dir string) (file, name string) {
	if f, rest, ok := strings.Cut(test, sep); ok {
		if fi, err := os.Stat(filepath.Join(dir, f)); err == nil && !fi.IsDir() {
			return f, rest
		}
	}
	if f, rest, ok := strings.Cut(test, "::"); ok { // pytest's habit
		if fi, err := os.Stat(filepath.Join(dir, f)); err == nil && !fi.IsDir() {
			return f, rest
		}
	}
	return "", test
}

// namePattern is jest's -t pattern for exactly one test: jest matches it
// against the describe blocks and title joined with spaces.
func namePattern(name string) string {
	return "^" + node.SpacedPattern(name, sep) + "$"
}

// blockPattern is jest's -t pattern for a test's name or a describe
// block's: jest matches -t against a test's blocks and title joined with
// spaces, so a block's name matches none of its tests; this takes the name
// and what follows it after a space. It also lets through a sibling block
// or test whose name begins so ("parse errors" beside "parse"), and, as -t
// ignores case, one that differs in case: strobe's setup file (select.cjs)
// skips them before they run, and its reporter leaves them out. A name
// that ends as a project's tag ("NAME [one]") is taken without it too.
func blockPattern(name string) string {
	return "^(" + strings.Join(titlePatterns(name), "|") + ")( .*)?$"
}

// titlePatterns are the -t alternatives for a name: the name, its blocks
// and title joined with spaces and escaped; and the names jest knows that
// strobe's may stand for: without a project's tag at its end, and without
// the number strobe gives the second test of a name in a file ("NAME #2",
// which jest calls NAME like the first: both run, and the reporter numbers
// them again).
func titlePatterns(name string) []string {
	var pats []string
	add := func(n string) {
		if q := node.SpacedPattern(n, sep); !slices.Contains(pats, q) {
			pats = append(pats, q)
		}
	}
	add(name)
	if loc := projectTag.FindStringIndex(name); loc != nil {
		name = name[:loc[0]]
		add(name)
	}
	if loc := numberedName.FindStringIndex(name); loc != nil {
		add(name[:loc[0]])
	}
	return pats
}

// projectTag ends a test's name under a config of several projects:
// " [NAME]", the displayName of the project that ran it (reporter.cjs).
var projectTag = lazyre.New(` \[[^\[\]]+\]$`)

// numberedName ends the name of a test that shares its name with an
// earlier one in its file: " #2", " #3" (reporter.cjs's numbered).
var numberedName = lazyre.New(` #([2-9]|[1-9][0-9]+)$`)

// Rerun (adapters.Reruner): a test's suite is its file from the project
// root.
func (p *parser) Rerun(suite, name string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rerunCommand(p.rerunPrefix(""), p.relPkg(filepath.Join(p.root, suite)), name)
}

// rerunCommand is the pasteable command that runs one test, from the
// project root.
func (p *parser) rerunCommand(prefix []string, file, name string) string {
	argv := append(append([]string{}, prefix...), "--runTestsByPath", file, "-t", namePattern(name))
	return node.InDir(p.cd, shell.Join(argv))
}
