// Package mocha is the adapter for mocha.
package mocha

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/node"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

//go:embed reporter.cjs
var reporterJS []byte

// sep joins a test's describe blocks into its full title, as the reporter
// does and as jest prints it; mocha's own full title joins them with a
// space, which --grep matches.
const sep = node.Sep

// mochaAdapter runs the project's node_modules/.bin/mocha with strobe's
// reporter (reporter.cjs), which writes one JSON line per event,
// synchronously, to a file the parser tails (node.Events). The reporter
// also sees what a test writes to stdout and stderr, and sends it with the
// test's name: the first 64 KiB as it comes, the newest 64 KiB when the
// test ends (what came between is counted, not sent).
//
// Detection: 95 for a mocha command; 90 for a .mocharc file, a "mocha" key
// in package.json or a test script running mocha; 85 for mocha among the
// dependencies.
//
// mocha runs the tests in its own process (serial, the default): a hung
// test is named live, and a signal that kills the process is the test's
// crash. With --parallel, mocha's workers send a file's events when the
// file is done; the reporter, also given as --require, is root hooks in
// the workers that say which test runs, so a hang is named, and a test
// that ends its worker fails (node.Events' "running" and "ran").
//
// One test: --grep with its full title (mocha's, joined by spaces,
// anchored and escaped) and its file, the project's other test files
// ignored (mocha adds a command's files to its config's spec instead of
// replacing them). A failed hook's name (`block › "before all" hook for
// "test"`, as mocha names the failure) selects the tests that run the
// hook (see grepFor), so that --failed and retries run it again. Levels
// select files the same way: a directory named
// unit, integration or e2e in the path, or the level in the name
// (x.unit.spec.js).
type mochaAdapter struct{}

// New returns the mocha adapter.
func New() adapters.Adapter { return mochaAdapter{} }

func (mochaAdapter) Name() string { return "mocha" }

// ExitAdvice: since mocha 4 a run ends only once the event loop is empty.
func (mochaAdapter) ExitAdvice() string {
	return "mocha waits for the event loop to empty: close the servers, sockets and timers the tests open in an after() or afterEach() hook (--exit ends mocha at once, and hides the leak)"
}

var configFiles = []string{".mocharc.js", ".mocharc.cjs", ".mocharc.mjs", ".mocharc.json", ".mocharc.jsonc", ".mocharc.yaml", ".mocharc.yml"}

func (mochaAdapter) Detect(req adapters.Request) adapters.Detection {
	if _, ok := mochaArgs(req.Command); ok {
		return adapters.Detection{Confidence: 95}
	}
	if len(req.Command) > 0 {
		return adapters.Detection{}
	}
	for _, c := range configFiles {
		if kit.FileExists(filepath.Join(req.ProjectRoot, c)) {
			return adapters.Detection{Confidence: 90}
		}
	}
	p, ok, _ := node.Find(req.ProjectRoot)
	if !ok {
		return adapters.Detection{}
	}
	_, key := p.Raw["mocha"]
	switch {
	case p.ConfigFile(configFiles...) != "", key, p.ScriptRuns("mocha"):
		return adapters.Detection{Confidence: 90}
	case p.Has("mocha"):
		return adapters.Detection{Confidence: 85}
	}
	return adapters.Detection{}
}

// mochaArgs reads a mocha command (mocha, _mocha, a path to either, npx
// mocha, pnpm exec mocha, yarn mocha): the arguments after mocha.
func mochaArgs(argv []string) ([]string, bool) {
	i := 0
	switch {
	case len(argv) > 2 && argv[0] == "pnpm" && argv[1] == "exec":
		i = 2
	case len(argv) > 1 && (argv[0] == "npx" || argv[0] == "bunx" || argv[0] == "yarn"):
		i = 1
	case len(argv) > 1 && filepath.Base(argv[0]) == "node":
		// node's own options, then mocha's program: node
		// --stack-size=256 node_modules/.bin/mocha (node.Script gives
		// node the options).
		for i = 1; i < len(argv) && strings.HasPrefix(argv[i], "-"); i++ {
			if node.ValueFlag(argv[i]) {
				i++
			}
		}
	}
	if i < len(argv) {
		if b := filepath.Base(argv[i]); b == "mocha" || b == "_mocha" || b == "mocha.js" {
			return argv[i+1:], true
		}
	}
	return nil, false
}

// ownArgs drops what strobe sets itself from a user's mocha arguments:
// the reporter and its options.
func ownArgs(args []string) []string {
	var kept []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--reporter" || a == "-R" || a == "--reporter-option" || a == "--reporter-options" || a == "-O":
			i++
		case strings.HasPrefix(a, "--reporter=") || strings.HasPrefix(a, "--reporter-option=") || strings.HasPrefix(a, "--reporter-options="):
		default:
			kept = append(kept, a)
		}
	}
	return kept
}

// testFile: what mocha projects name their tests: files under test/ or
// spec/, and *.spec.* and *.test.* anywhere, in JavaScript.
func testFile(rel string) bool {
	switch filepath.Ext(rel) {
	case ".js", ".cjs", ".mjs":
	default:
		return false
	}
	base := filepath.Base(rel)
	if strings.Contains(base, ".spec.") || strings.Contains(base, ".test.") {
		return true
	}
	dirs := strings.Split(filepath.ToSlash(filepath.Dir(rel)), "/")
	return slices.Contains(dirs, "test") || slices.Contains(dirs, "spec")
}

// grep is the --grep pattern that matches one test by its full title.
func grep(title string) string {
	return "^" + node.SpacedPattern(title, sep) + "$"
}

// hookTitle is mocha's title of a hook that failed, the last part of the
// failure's name: `"before all" hook for "TEST"` (the test it ran for),
// `"after each" hook: its own title for "TEST"`, `"before all" hook in
// "BLOCK"` (no test: the block's own, or "{root}").
var hookTitle = lazyre.New(`^"(?:before|after) (?:all|each)" hook(?:: .*?)? (for|in) "(.*)"$`)

// grepFor is the --grep for a request's test: a test's full title, or, for
// a hook's failure (named by the hook, as mocha names it), the tests that
// run the hook so that it runs and fails again: the test it names, at any
// depth of the hook's block (mocha names it by its own title), or the
// block's tests. "" is every test: a root hook's.
//
// --grep matches full titles joined by spaces, so a hook's also takes a
// sibling block whose name begins with the block's and a space (`parse
// errors` beside `parse`), and a test whose title ends with the one named:
// the hook's tests, by their place in the file, are also answered (nil
// for a test, or every test), for strobe's reporter to run those alone.
func grepFor(title string) (string, *hookTests) {
	parts := strings.Split(title, sep)
	m := hookTitle.FindStringSubmatch(parts[len(parts)-1])
	if m == nil {
		if base := node.Unnumbered(title); base != title {
			// strobe's name for the Nth test of a full title ("NAME #2"),
			// which mocha knows by the title alone, or a test's own
			// title: --grep matches both (the run names them again in
			// the same order).
			return "^(?:" + node.SpacedPattern(title, sep) + "|" + node.SpacedPattern(base, sep) + ")$", nil
		}
		return grep(title), nil
	}
	parts = parts[:len(parts)-1]
	tests := &hookTests{Block: parts}
	block := node.QuoteRegexp(strings.Join(parts, " "))
	switch {
	case m[1] == "for" && block == "":
		tests.Test = m[2]
		return "^(.* )?" + node.QuoteRegexp(m[2]) + "$", tests
	case m[1] == "for":
		tests.Test = m[2]
		return "^" + block + " (.* )?" + node.QuoteRegexp(m[2]) + "$", tests
	case block == "":
		return "", nil
	}
	return "^" + block + " ", tests
}

// hookTests are the tests a failed hook's name selects: those of the
// block whose titles are Block, at any depth, titled Test when the hook
// ran for a test. They reach strobe's reporter as JSON in selectEnv, and
// it drops every other test before the run (serial mocha: --parallel's
// workers load the files, and run --grep's tests).
type hookTests struct {
	Block []string `json:"block"`
	Test  string   `json:"test,omitempty"`
}

// selectEnv hands strobe's reporter the tests a failed hook's name
// selects.
const selectEnv = "STROBE_MOCHA_SELECT"

// globQuote escapes a file's name for mocha's --ignore, a minimatch
// pattern: each glob character in a class of its own ("[(]"). mocha
// turns a pattern's backslashes into slashes, so `\(` escaped nothing: a
// rerun of test/(group)/[id].spec.js ignored it too, and found no file. A
// class cannot hold "!" (a negation) or a backslash: "?" stands for them.
func globQuote(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r == '!' || r == '\\':
			b.WriteByte('?')
		case strings.ContainsRune(`*?[](){}+@`, r):
			b.WriteByte('[')
			b.WriteRune(r)
			b.WriteByte(']')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// only runs files alone: named, and the project's other test files
// ignored, so that a config's spec adds none.
func only(files, all []string) []string {
	var args []string
	for _, f := range all {
		if !slices.Contains(files, f) {
			args = append(args, "--ignore", globQuote(f))
		}
	}
	return append(args, files...)
}

// runner is how a person runs the project's mocha: npx mocha for npm.
func runner(p *node.Package) []string {
	switch p.Manager {
	case "pnpm":
		return []string{"pnpm", "exec", "mocha"}
	case "yarn":
		return []string{"yarn", "mocha"}
	case "bun":
		return []string{"bunx", "mocha"}
	}
	return []string{"npx", "mocha"}
}

func (mochaAdapter) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	if err := adapters.CheckLevel(mochaAdapter{}, req.Level); err != nil {
		return nil, err
	}
	p, ok, err := node.Find(req.ProjectRoot)
	if err != nil {
		return nil, &adapters.UsageError{Msg: fmt.Sprintf("mocha: %v", err), Framework: "mocha", Hint: "fix package.json"}
	}
	if !ok {
		return nil, &adapters.UsageError{Msg: "mocha: no package.json in or above " + req.ProjectRoot, Framework: "mocha", Hint: "run `npm install --save-dev mocha` in the project"}
	}
	bin, err := p.Bin("mocha", "mocha")
	if err != nil {
		return nil, err
	}
	// strobe's reporter reads mocha's event names from Runner.constants
	// and passes its options as --reporter-option: mocha 6 and later.
	// Older, the run failed in strobe's own reporter file and read as a
	// build failure (mocha 5) or a crash (mocha 3).
	if v := node.BinVersion(bin); v != "" && node.Major(v) < 6 {
		return nil, &adapters.UsageError{Msg: fmt.Sprintf("mocha %s is older than strobe runs (mocha 6 or later)", v), Framework: "mocha",
			Hint: "upgrade it (`npm install --save-dev mocha@latest`), or run its command as it is with --framework generic"}
	}
	// The test script's options are the project's; what else it runs (a
	// linter, mocha under c8) strobe does not: the note says so.
	script := p.ScriptFor(req, "mocha", func(w []string) bool { _, ok := mochaArgs(w); return ok })
	script.KeepNodeOnly(ctx, req.Env, p.Dir) // node --stack-size=256 mocha: not in NODE_OPTIONS
	wrapper, err := script.WrapperArgv(p)    // dotenv -e .env.test --
	if err != nil {
		return nil, err
	}
	args, _ := mochaArgs(script.Words)
	if a, ok := mochaArgs(req.Command); ok {
		args = a
	} else if len(req.Command) > 0 {
		return nil, adapters.Usagef("mocha: %s is not a mocha command: pass one, or leave the command out", shell.Join(req.Command))
	}
	args = ownArgs(args)
	var sel []string
	// The script's environment first (TZ=UTC, NODE_ENV=test): strobe's
	// own settings win.
	env := script.RunEnv(req.Env)
	note := ""
	switch {
	case req.Test != "":
		title := req.Test
		all := node.TestFiles(req.ProjectRoot, testFile)
		if slices.Contains(all, req.Test) {
			// A test file's name (a late error's failure, Failure.Select,
			// rerun by --failed or a retry): the file whole, which runs
			// the test that left the error behind, as the run did.
			sel = only([]string{req.Test}, all)
			break
		}
		if file, rest, ok := strings.Cut(req.Test, sep); ok && slices.Contains(all, file) {
			title = rest
			sel = only([]string{file}, all)
		} else if slices.Contains(all, req.TestSuite) {
			// A failure rerun alone (--failed, a retry): its file, so
			// that a test of the same title in another file does not run.
			sel = only([]string{req.TestSuite}, all)
		}
		g, tests := grepFor(title)
		if g != "" {
			sel = append(sel, "--grep", g)
		}
		if tests != nil {
			b, _ := json.Marshal(tests)
			env = append(env, selectEnv+"="+string(b))
		}
	case req.Level != adapters.LevelAll:
		all := node.TestFiles(req.ProjectRoot, testFile)
		var files []string
		for _, f := range all {
			if node.LevelFile(f, req.Level) {
				files = append(files, f)
			}
		}
		if len(files) == 0 {
			// No file of the level: a pattern nothing matches makes the
			// run find no tests (ignoring every file would make mocha
			// exit 1 with "No test files found").
			sel = []string{"--grep", "^$strobe-no-test-of-this-level"}
		} else {
			sel = only(files, all)
		}
	}
	note = strings.Join(append(nonEmpty(note), nonEmpty(script.Note)...), "; ")
	// A rerun sets what the script sets.
	rerunBase := append(append(script.RerunPrefix(), runner(p)...), args...)
	if nodeArgv := script.NodeArgv(); nodeArgv != nil {
		// npx mocha cannot give node its options: node runs mocha's program.
		rerunBase = append(append(append(script.RerunPrefix(), nodeArgv...), node.RelBin(req.ProjectRoot, bin)), args...)
	}
	rerun := func(file, test string) string {
		argv := slices.Clone(rerunBase)
		if file != "" { // a root hook's failure has no file: every one
			// mocha adds the file to its config's spec: every other
			// file ignored, a test of the same title in another file
			// does not run.
			argv = append(argv, file, "--ignore", "!"+globQuote(file))
		}
		if test != "" {
			argv = append(argv, "--grep", grep(test))
		}
		return shell.Join(argv)
	}
	argv := append(append(append(wrapper, script.NodeArgv()...), bin), args...)
	hints := noTests
	if rel := p.Within(req.ProjectRoot); rel != "" {
		// mocha runs here, and finds the package's config above: its
		// spec is relative to the package's directory.
		hints.All = fmt.Sprintf("mocha found no tests in %s, a directory inside the package at %s: mocha runs where strobe is pointed, and a .mocharc's spec (found up to the package) is relative to there; run strobe on %s, with the test file as the test (%s/…) to run these", rel, p.Dir, p.Dir, rel)
	}
	cfg := node.EventsConfig{Framework: "mocha", Root: req.ProjectRoot, Rerun: rerun, Test: req.Test, Level: req.Level,
		NoTests: hints, Note: note}
	rec.BeginTesting() // nothing to build: mocha loads the files as it starts
	// The answer's command as a person types it: without strobe's
	// reporter, in a directory removed after the run.
	shown := shell.Join(slices.Concat(rerunBase, sel))
	dir, reporter, err := node.WriteReporter("strobe-mocha-", "reporter.cjs", reporterJS)
	if err != nil {
		// mocha's own JSON reporter needs no file: read it from stdout
		// when the run is over, without live progress.
		cfg.Note = strings.Join(append([]string{fmt.Sprintf("strobe's mocha reporter could not be written (%v): read mocha's JSON reporter instead, with no live progress", err)}, nonEmpty(note)...), "; ")
		argv = append(append(argv, "--reporter", "json"), sel...)
		return &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Env: env, Parser: newJSONParser(rec, cfg), Shown: shown}, nil
	}
	events := filepath.Join(dir, "events.jsonl")
	// The reporter is also required: in mocha --parallel's workers (given
	// on the command or in the config) it names the test that runs.
	argv = append(argv, "--reporter", reporter, "--reporter-option", "out="+events, "--require", reporter)
	argv = append(argv, sel...)
	pr := &parser{Events: node.NewEvents(rec, cfg, dir, events), rec: rec, root: req.ProjectRoot, note: note, test: req.Test, level: req.Level, hints: hints}
	if req.Test == "" {
		pr.rest = append(slices.Clone(rerunBase), sel...)
	}
	return &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Env: env, Parser: pr, Shown: shown}, nil
}

// restCommand is, for a run strobe stopped while tests ran, the command
// that runs the rest of its selection without them: the run's command (its files, its
// options, the level's files) with a --grep that leaves them out by their
// full titles and keeps what the run's own --grep, --fgrep or --invert
// took (see node.Except). A "before all" or "after all" hook that hung
// leaves out its block's tests: mocha skips a block with none to run, its
// hooks too. "" for a run of one test (rest is nil), when no test was
// running, or when a root hook hung (every test runs it).
func restCommand(rest []string, running []adapters.RunningTest) string {
	if len(rest) == 0 || len(running) == 0 {
		return ""
	}
	var names []string
	add := func(q string) {
		if !slices.Contains(names, q) {
			names = append(names, q)
		}
	}
	for _, t := range running {
		parts := strings.Split(t.Name, sep)
		if hookTitle.MatchString(parts[len(parts)-1]) {
			if len(parts) == 1 {
				return ""
			}
			add(node.RestName(strings.Join(parts[:len(parts)-1], sep), sep) + " .*")
			continue
		}
		add(node.RestName(t.Name, sep))
		if base := node.Unnumbered(t.Name); base != t.Name {
			add(node.RestName(base, sep)) // strobe's "NAME #2", which mocha knows as NAME
		}
	}
	slices.Sort(names)
	argv, own := node.CutOption(rest, "--grep", "-g")
	argv, fixed := node.CutOption(argv, "--fgrep", "-f")
	invert := slices.Contains(argv, "--invert") || slices.Contains(argv, "-i")
	argv = slices.DeleteFunc(argv, func(a string) bool { return a == "--invert" || a == "-i" })
	if fixed != "" {
		own = node.QuoteRegexp(fixed)
	}
	source, flags, slashed := node.Slashed(own)
	if !slashed {
		source = own
	}
	grep := node.Except(names, "")
	switch {
	case source != "" && invert:
		grep += `(?![\s\S]*?(?:` + source + "))"
	case source != "":
		grep += `(?=[\s\S]*?(?:` + source + "))"
	}
	if slashed {
		grep = "/" + grep + "/" + flags
	}
	return shell.Join(append(argv, "--grep", grep))
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

var noTests = kit.NoTestsHint{
	Test:  "no test has this full title: give it as the answer names it (`describe › test`, optionally after its file: `test/x.spec.js › describe › test`)",
	Level: "no test file of this level: mocha levels are files under a unit/, integration/ or e2e/ directory, or named x.unit.spec.js, x.integration.spec.js, x.e2e.spec.js",
	All:   "mocha found no tests: by default it runs ./test/*.{js,cjs,mjs}; a .mocharc file's spec (or the files on the command) says otherwise",
}

// parser is node.Events with what mocha prints before its reporter
// starts: a test file that fails to load stops mocha there, with
// "Exception during run:" and the error on stderr.
type parser struct {
	*node.Events
	rec    *adapters.Recorder
	rest   []string // the run's command, for the rest of a stopped run (restCommand)
	root   string
	note   string
	test   string
	level  adapters.Level
	hints  kit.NoTestsHint // the run's: see Plan
	mu     sync.Mutex
	stderr []string
}

// maxEarly bounds the stderr lines kept from before the run began.
const maxEarly = 200

func (p *parser) Line(s adapters.Stream, b []byte, cut bool) {
	if s == adapters.Stderr && !p.Began() {
		p.mu.Lock()
		if len(p.stderr) < maxEarly {
			p.stderr = append(p.stderr, string(b))
		}
		p.mu.Unlock()
	}
	p.Events.Line(s, b, cut)
}

func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	out := p.Events.Finish(exit)
	if exit.StoppedBy != "" {
		out.Hint = kit.WithRest(out.Hint, "mocha", exit.StoppedBy, restCommand(p.rest, p.rec.Progress().Running))
	}
	if p.Began() || exit.StoppedBy != "" || !exit.Exited || exit.Code == 0 {
		return out
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if slices.ContainsFunc(p.stderr, func(l string) bool { return strings.Contains(l, "Error: No test files found") }) {
		// mocha exits 1 for it: no reporter ran, and nothing else is wrong.
		out.NoTests, out.ExitExplained = true, true
		out.Hint = strings.Join(append(nonEmpty(p.note), p.hints.For(p.test, p.level)), "; ")
		return out
	}
	if be, ok := loadError(p.root, p.stderr); ok {
		out.BuildFailed, out.NoTests = true, false
		out.BuildErrors = append(out.BuildErrors, be)
		out.Hint = ""
	}
	return out
}

var (
	// "/p/test/x.spec.mjs:5" (file://… for ESM) heads a SyntaxError.
	syntaxHead = lazyre.New(`^(?:Exception during run: )?(?:file://)?(/[^:]+):(\d+)$`)
	frameLine  = lazyre.New(`^\s*at (?:.*? \()?(?:file://)?(/[^:()]+):(\d+):\d+\)?$`)
	errorLine  = lazyre.New(`^(?:Exception during run: )?((?:[A-Z][A-Za-z]*)?Error\b.*)$`)
)

// loadError reads why mocha stopped before running: the error's line and
// where it points, the SyntaxError's header or the first frame outside
// node_modules.
func loadError(root string, lines []string) (report.BuildError, bool) {
	var be report.BuildError
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if m := syntaxHead.FindStringSubmatch(l); m != nil && be.File == "" {
			be.File, be.Line = kit.ProjectPath(root, m[1]), atoi(m[2])
		}
		if m := frameLine.FindStringSubmatch(l); m != nil && be.File == "" && !strings.Contains(m[1], "/node_modules/") {
			be.File, be.Line = kit.ProjectPath(root, m[1]), atoi(m[2])
		}
		if m := errorLine.FindStringSubmatch(l); m != nil && be.Message == "" {
			be.Message = kit.Clip(m[1])
		}
	}
	return be, be.Message != ""
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// IsTestProcess: mocha runs the tests in its own process (bin/mocha, or
// lib/cli/cli.js in the child bin/mocha starts for node's flags); with
// --parallel (on the command, or `parallel: true` in the config), in its
// workers (node processes running mocha's worker.js), beside which mocha's
// own process only waits. A process a test started (a child it waits for)
// is none: the stuck detector tells the test's wait for it from the
// test's own threads.
func (mochaAdapter) IsTestProcess(p adapters.Proc) bool {
	mocha := false
	for _, a := range p.Args {
		switch {
		case isWorker(a):
			return true
		case strings.HasSuffix(a, "--parallel"):
			return false
		case isMochaScript(a):
			mocha = true
		}
	}
	return mocha && !kit.HasChild(p.PID, func(args []string) bool { return slices.ContainsFunc(args, isWorker) })
}

// isWorker says whether a command line's argument is mocha's worker
// script, which --parallel's workers run.
func isWorker(a string) bool { return strings.HasSuffix(a, "/mocha/lib/nodejs/worker.js") }

// isMochaScript says whether a command line's argument is a path to
// mocha's own script.
func isMochaScript(a string) bool {
	if !strings.Contains(a, "/") {
		return false
	}
	switch filepath.Base(a) {
	case "mocha", "_mocha", "mocha.js", "_mocha.js":
		return true
	}
	return strings.HasSuffix(a, "/mocha/lib/cli/cli.js")
}
