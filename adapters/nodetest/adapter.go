// Package nodetest is the adapter for Node's built-in test runner,
// node:test (framework "node").
package nodetest

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/node"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
)

//go:embed reporter.mjs
var reporterJS []byte

//go:embed exit.cjs
var exitJS []byte

// Sep joins a test's describe blocks and parents into its full title.
const Sep = node.Sep

// nodeTest runs `node --test` with strobe's reporter (reporter.mjs),
// which streams one JSON line per event into a file of its own that the
// parser tails (see node.Events); node's spec reporter still prints to
// stdout, for the run's raw output.
//
// Detection: 95 for a `node --test …` command; 90 for a package whose test
// script runs `node --test`; 70 for test files importing node:test (found
// by a bounded walk) in a package that depends on no other test framework.
//
// node runs each test file in a child process of its own (node 20 cannot
// do otherwise): those children are the test processes the stuck detector
// judges (TestProcesser). One test is its file with --test-name-pattern
// matching its own name (node 20 matches a test's own name only, not its
// describe blocks): other tests of that file with the same own name run
// too. Several tests (--failed) run in one process: their files and a
// pattern for each (see SelectsTests). Levels select test files: a directory named unit, integration or e2e
// in the file's path, or the level before the suffix (x.unit.test.js).
type nodeTest struct{}

// New returns the node:test adapter.
func New() adapters.Adapter { return nodeTest{} }

func (nodeTest) Name() string { return "node" }

// ExitAdvice: node --test waits for each test file's process to exit.
func (nodeTest) ExitAdvice() string {
	return "node --test waits for each test file's process to exit: close the servers, sockets and timers the tests open in an after() hook"
}

// otherFrameworks in a package's dependencies say its tests are theirs,
// even if a file imports node:test.
var otherFrameworks = []string{"jest", "vitest", "mocha", "ava", "tap", "jasmine", "@playwright/test", "uvu"}

func (nodeTest) Detect(req adapters.Request) adapters.Detection {
	if _, ok := nodeTestArgs(req.Command); ok {
		return adapters.Detection{Confidence: 95}
	}
	if len(req.Command) > 0 {
		return adapters.Detection{}
	}
	p, ok, _ := node.Find(req.ProjectRoot)
	if ok {
		if _, ok := nodeTestArgs(p.TestScriptWords()); ok {
			return adapters.Detection{Confidence: 90}
		}
		for _, f := range otherFrameworks {
			if p.Has(f) {
				return adapters.Detection{}
			}
		}
	}
	if importsNodeTest(req.ProjectRoot) {
		return adapters.Detection{Confidence: 70, Hint: "test files import node:test"}
	}
	return adapters.Detection{}
}

// nodeTestArgs reads a `node --test …` command: the arguments after node
// that strobe keeps; false for any other command.
func nodeTestArgs(argv []string) ([]string, bool) {
	if len(argv) < 2 || filepath.Base(argv[0]) != "node" || !slices.Contains(argv[1:], "--test") {
		return nil, false
	}
	return argv[1:], true
}

// testFile says whether a file is one node --test runs when given no
// files (node 20's defaults): *.test.js, *-test.js, *_test.js, test-*.js,
// test.js, any .js under a test/ directory, each also .cjs and .mjs.
func testFile(rel string) bool {
	ext := filepath.Ext(rel)
	if ext != ".js" && ext != ".cjs" && ext != ".mjs" {
		return false
	}
	base := strings.TrimSuffix(filepath.Base(rel), ext)
	if base == "test" || strings.HasSuffix(base, ".test") || strings.HasSuffix(base, "-test") || strings.HasSuffix(base, "_test") || strings.HasPrefix(base, "test-") {
		return true
	}
	return slices.Contains(strings.Split(filepath.ToSlash(filepath.Dir(rel)), "/"), "test")
}

// isScript says whether a name ends as a file node runs: a test titled
// "README" is no file to run.
func isScript(name string) bool {
	switch filepath.Ext(name) {
	case ".js", ".cjs", ".mjs", ".ts", ".mts", ".cts":
		return true
	}
	return false
}

var importRe = lazyre.New(`(?:from\s+|require\(\s*)["']node:test["']`)

// importsNodeTest says whether one of the first test files imports
// node:test.
func importsNodeTest(root string) bool {
	files := node.TestFiles(root, testFile)
	for _, f := range files[:min(len(files), 50)] {
		b, err := readHead(filepath.Join(root, f), 64<<10)
		if err == nil && importRe.Match(b) {
			return true
		}
	}
	return false
}

func readHead(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	m, _ := f.Read(b)
	return b[:m], nil
}

// ownArgs drops the options strobe sets itself from a user's node --test
// arguments: the reporters and their destinations.
func ownArgs(args []string) []string {
	var kept []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--test-reporter" || a == "--test-reporter-destination":
			i++ // its value
		case strings.HasPrefix(a, "--test-reporter=") || strings.HasPrefix(a, "--test-reporter-destination="):
		default:
			kept = append(kept, a)
		}
	}
	return kept
}

// valued are node's options that take their value as the next argument
// (`--import tsx`): that word is no file.
var valued = map[string]bool{
	"-r": true, "--require": true, "--import": true, "--loader": true, "--experimental-loader": true,
	"-C": true, "--conditions": true, "--env-file": true, "--input-type": true, "--inspect-port": true,
	"--test-name-pattern": true, "--test-skip-pattern": true, "--test-concurrency": true,
	"--test-timeout": true, "--test-shard": true, "--test-coverage-include": true, "--test-coverage-exclude": true,
	"--watch-path": true, "--title": true, "--max-old-space-size": true,
}

// splitFiles splits node --test arguments into node's options and the
// files and directories that follow them: node 20 takes every argument
// after the first of those as another one (`node --test test/
// --test-reporter=spec` looks for a file named --test-reporter=spec), so
// strobe's options go between the two.
func splitFiles(args []string) (opts, files []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return args[:i], args[i+1:]
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return args[:i], args[i:]
		}
		if valued[a] {
			i++
		}
	}
	return args, nil
}

// selection is what a request picks: the files (none for node's own
// search) and the name patterns (a test runs when one matches).
type selection struct {
	files    []string
	patterns []string
}

// SelectsTests: node runs several tests in one process, given their files
// and a --test-name-pattern for each (node takes the option more than once:
// a test runs when one matches). A run's failures rerun so (--failed) in
// one process, where one by one every rerun would also run the hooks of
// the other files' describe blocks, and count their failures again.
func (nodeTest) SelectsTests() {}

// leafPattern is --test-name-pattern for a test by its full title: its own
// name (node 20 matches a test's own name, not its describe blocks'),
// escaped, anchored; a numbered name ("NAME #2") matches NAME too, unless
// the test files (sources) show it is the test's own title.
func leafPattern(title string, sources *titleSources) string {
	if i := strings.LastIndex(title, Sep); i >= 0 {
		title = title[i+len(Sep):]
	}
	if base := node.Unnumbered(title); base != title && !sources.own(title, base) {
		return "^(?:" + node.QuoteRegexp(title) + "|" + node.QuoteRegexp(base) + ")$"
	}
	return "^" + node.QuoteRegexp(title) + "$"
}

// titleSources reads the test files a selection runs, for leafPattern: a
// name ending in " #N" is either strobe's number for the Nth test of a
// title (node knows it by the title alone) or a test's own title, as
// auth0/jwt-decode's `part #1`, `part #2`. The pattern for both ran the
// tests of the shorter title too.
type titleSources struct {
	root  string
	files []string // nil: node's own test files
	texts []string
}

// own says whether name is a test's own title: a test file holds it as a
// string, and no file holds base twice (a second test of that title, in
// a file that also gives a test the title name, may be strobe's name
// #2, whose pattern must match base). A title made at run time (a loop,
// a template) is not found: the pattern then matches both, as before.
func (s *titleSources) own(name, base string) bool {
	if s == nil {
		return false
	}
	if s.texts == nil {
		files := s.files
		if len(files) == 0 {
			files = node.TestFiles(s.root, testFile)
		}
		s.texts = []string{}
		for _, f := range files[:min(len(files), 200)] {
			if b, err := readHead(filepath.Join(s.root, f), 1<<20); err == nil {
				s.texts = append(s.texts, string(b))
			}
		}
	}
	found := false
	for _, t := range s.texts {
		if quoted(t, name) > 0 {
			found = true
		}
		if quoted(t, base) > 1 {
			return false
		}
	}
	return found
}

// quoted counts the string literals of text that are s.
func quoted(text, s string) int {
	n := 0
	for _, q := range []string{"'", `"`, "`"} {
		n += strings.Count(text, q+s+q)
	}
	return n
}

// describeCall is a describe block's title in a test file: describe or
// suite (with .only, .skip or .todo) called with a string literal.
var describeCall = lazyre.New(`\b(?:describe|suite)(?:\.(?:only|skip|todo))?\s*\(\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|` + "`((?:[^`\\\\$]|\\\\.)*)`)")

// reachPattern is the pattern of the outermost parent test around a test
// ("" when there is none): node runs a subtest (t.test) only inside its
// parent, which the name patterns must match too, while a describe block
// is entered for the tests in it that match. An ancestor that is not one
// of the file's describe blocks (blocks) is taken for a parent test: a
// block so named runs whole, with the test among its own.
func reachPattern(blocks map[string]bool, title string) string {
	parts := strings.Split(title, Sep)
	for _, p := range parts[:len(parts)-1] {
		if !blocks[node.Unnumbered(p)] {
			return leafPattern(p, nil)
		}
	}
	return ""
}

// describeTitles are the titles a test file gives describe blocks, read
// from its source (none when it cannot be read).
func describeTitles(root, file string) map[string]bool {
	blocks := map[string]bool{}
	if file == "" {
		return blocks
	}
	if b, err := os.ReadFile(filepath.Join(root, file)); err == nil {
		for _, m := range describeCall.FindAllStringSubmatch(string(b), -1) {
			blocks[unescapeJS(m[1]+m[2]+m[3])] = true
		}
	}
	return blocks
}

// unescapeJS reads a string literal's simple escapes (\' \" \\ \`).
func unescapeJS(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// selectMany is the selection of several tests (Request.Tests): their
// files and each one's pattern. A failure of a file (named by the file)
// selects the file whole: no pattern, since node applies the patterns in
// every file it runs, so the other files named run whole too.
func selectMany(root string, tests []adapters.TestRef) selection {
	var sel selection
	whole := false
	blocks := map[string]map[string]bool{} // by file, read once
	for _, t := range tests {
		if t.Suite != "" && !slices.Contains(sel.files, t.Suite) {
			sel.files = append(sel.files, t.Suite)
		}
		if t.Suite != "" && t.Name == t.Suite {
			whole = true
			continue
		}
		if _, ok := blocks[t.Suite]; !ok && strings.Contains(t.Name, Sep) {
			blocks[t.Suite] = describeTitles(root, t.Suite)
		}
		var files []string
		if t.Suite != "" {
			files = []string{t.Suite}
		}
		for _, p := range []string{reachPattern(blocks[t.Suite], t.Name), leafPattern(t.Name, &titleSources{root: root, files: files})} {
			if p != "" && !slices.Contains(sel.patterns, p) {
				sel.patterns = append(sel.patterns, p)
			}
		}
	}
	if whole {
		sel.patterns = nil
	}
	return sel
}

// selectTests reads req.Test ("FILE › full title", the full title, or a
// test file: a failure of the file, such as a rejection after its test
// ended or an exit, is named by it, and runs it whole) or the level into
// node's arguments.
func selectTests(root string, req adapters.Request) selection {
	if len(req.Tests) > 0 {
		return selectMany(root, req.Tests)
	}
	if req.Test != "" && isScript(req.Test) && kit.FileExists(filepath.Join(root, req.Test)) {
		return selection{files: []string{req.Test}}
	}
	if req.Test != "" {
		title := req.Test
		var files []string
		if file, rest, ok := strings.Cut(req.Test, Sep); ok && kit.FileExists(filepath.Join(root, file)) {
			files, title = []string{file}, rest
		}
		var file string
		if len(files) > 0 {
			file = files[0]
		}
		if len(files) == 0 && req.TestSuite != "" && kit.FileExists(filepath.Join(root, req.TestSuite)) {
			file = req.TestSuite // the test's file, as a retry names it
		}
		var in []string
		if file != "" {
			in = []string{file}
		}
		patterns := []string{leafPattern(title, &titleSources{root: root, files: in})}
		if strings.Contains(title, Sep) {
			if p := reachPattern(describeTitles(root, file), title); p != "" {
				patterns = append([]string{p}, patterns...)
			}
		}
		return selection{files: files, patterns: patterns}
	}
	if req.Level == adapters.LevelAll {
		return selection{}
	}
	var files []string
	for _, f := range node.TestFiles(root, testFile) {
		if node.LevelFile(f, req.Level) {
			files = append(files, f)
		}
	}
	return selection{files: files}
}

func (nodeTest) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	if err := adapters.CheckLevel(nodeTest{}, req.Level); err != nil {
		return nil, err
	}
	prog, args := "node", []string{"--test"}
	var script node.Script
	var wrapper []string // dotenv -e .env.test --
	if a, ok := nodeTestArgs(req.Command); ok {
		prog, args = req.Command[0], ownArgs(a)
	} else if len(req.Command) > 0 {
		return nil, adapters.Usagef("node: %s is not a `node --test` command: pass one, or leave the command out", shell.Join(req.Command))
	} else if p, ok, _ := node.Find(req.ProjectRoot); ok {
		// The test script's options are the project's; what else it runs
		// (a build, a linter) strobe does not: the note says so.
		script = p.ScriptFor(req, "node --test", func(w []string) bool { _, ok := nodeTestArgs(w); return ok })
		if a, ok := nodeTestArgs(script.Words); ok {
			args = ownArgs(a)
		}
		var err error
		if wrapper, err = script.WrapperArgv(p); err != nil {
			return nil, err
		}
	}
	sel := selectTests(req.ProjectRoot, req)
	args, files := splitFiles(args)
	if len(sel.files) > 0 {
		files = sel.files // the selection's files in place of the command's
	}
	base := append([]string{prog}, args...)
	rerunBase := append(script.RerunPrefix(), base...) // setting what the script sets
	rerun := func(file, test string) string {
		argv := slices.Clone(rerunBase)
		if test != "" {
			leaf := test
			if i := strings.LastIndex(test, Sep); i >= 0 {
				leaf = test[i+len(Sep):]
			}
			argv = append(argv, "--test-name-pattern="+"^"+node.QuoteRegexp(leaf)+"$")
		}
		return shell.Join(append(argv, file))
	}
	cfg := node.EventsConfig{Framework: "node:test", Root: req.ProjectRoot, Rerun: rerun, Test: req.Test, Level: req.Level, NoTests: noTests,
		Note: script.Note}
	argv := slices.Concat(wrapper, base)
	dir, reporter, werr := node.WriteReporter("strobe-node-", "reporter.mjs", reporterJS)
	events := filepath.Join(dir, "events.jsonl")
	if werr == nil {
		argv = append(argv, "--test-reporter="+reporter, "--test-reporter-destination="+events,
			"--test-reporter=spec", "--test-reporter-destination=stdout")
		// Each test file's process loads exit.cjs, which writes down a
		// test's process.exit (node loses the file's results with it).
		if preload := filepath.Join(dir, "exit.cjs"); os.WriteFile(preload, exitJS, 0o644) == nil {
			argv = append(argv, "--require", preload)
			cfg.Exits = filepath.Join(dir, "exits.jsonl")
		}
	} else {
		// node's JUnit reporter needs no file: read it from stdout when
		// the run is over, without live progress.
		cfg.Note = strings.Join(slices.DeleteFunc([]string{fmt.Sprintf("strobe's node:test reporter could not be written (%v): read node's JUnit reporter instead, with no live progress", werr), script.Note},
			func(s string) bool { return s == "" }), "; ")
		argv = append(argv, "--test-reporter=junit", "--test-reporter-destination=stdout")
	}
	// The answer's command as a person types it: without strobe's
	// reporter and preload, in a directory removed after the run.
	shown := slices.Clone(rerunBase)
	for _, p := range sel.patterns {
		argv = append(argv, "--test-name-pattern="+p)
		shown = append(shown, "--test-name-pattern="+p)
	}
	if req.Level != adapters.LevelAll && len(sel.files) == 0 {
		// No file of the level: node would run every test file it finds,
		// so nothing runs, and the answer says no tests.
		argv = slices.Concat(wrapper, []string{prog, "--eval", ""})
		shown = slices.Concat(script.RerunPrefix(), []string{prog, "--eval", ""})
	}
	argv = append(argv, files...)
	shown = append(shown, files...)
	rec.BeginTesting() // nothing to build: node loads the files as it runs them
	// What the script sets (TZ=UTC, NODE_ENV=test) is set for the run.
	env := script.RunEnv(req.Env)
	if werr != nil {
		return &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Env: env, Parser: &junitParser{rec: rec, cfg: cfg}, Shown: shell.Join(shown)}, nil
	}
	pr := &parser{Events: node.NewEvents(rec, cfg, dir, events), rec: rec, root: req.ProjectRoot,
		toRun: testFiles(req.ProjectRoot, files), rerun: rerun}
	if req.Test == "" && (req.Level == adapters.LevelAll || len(sel.files) > 0) {
		// The rest of a stopped run: its command, its name patterns
		// apart (restHint writes them again), its files.
		pr.rest.base, pr.rest.own = node.CutOptions(rerunBase, "--test-name-pattern")
		pr.rest.own = append(pr.rest.own, sel.patterns...)
		pr.rest.files = files
	}
	return &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Env: env, Parser: pr, Shown: shell.Join(shown)}, nil
}

var noTests = kit.NoTestsHint{
	Test:  "no test has this name: give the full title as the answer names it (`FILE › describe › test`), or the test's own name",
	Level: "no test file of this level: node:test levels are files under a unit/, integration/ or e2e/ directory, or named x.unit.test.js, x.integration.test.js, x.e2e.test.js",
	All:   "node --test found no tests: its files are *.test.js, *-test.js, *_test.js, test-*.js, test.js and .js files under test/ (also .cjs, .mjs)",
}

// IsTestProcess: the child process node runs each test file in (`node
// FILE`, a child of `node --test`), not the `node --test` parent that
// reports for them, nor a process a test started (a child the test
// awaits, whose wait the detector names).
func (nodeTest) IsTestProcess(p adapters.Proc) bool {
	if slices.Contains(p.Args, "--test") {
		return false
	}
	parent, ok := kit.ParentArgs(p.PID)
	return !ok || slices.Contains(parent, "--test")
}
