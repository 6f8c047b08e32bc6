package gotest

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

// gotest runs Go tests with `go test -json` and reads the test2json event
// stream it prints; a run of one package runs `go test -v=test2json`
// instead and makes the same events itself (framed.go).
//
// Go has no notion of test levels, so the adapter follows a convention:
//
//	unit         go test -json -short ./...
//	             (slow tests skip themselves: if testing.Short() { t.Skip(...) })
//	integration  go test -json -tags integration -run '^TestIntegration' ./...
//	             (tests named TestIntegration… in files marked //go:build integration)
//	e2e          go test -json -tags e2e -run '^TestE2E' ./...
//	             (tests named TestE2E… in files marked //go:build e2e)
//	(all)        go test -json ./...
//	             (the default build: files behind those tags are not compiled)
//
// A single test runs with -run and every /-separated part of its name
// anchored and quoted: TestTable/two plus two becomes
// -run '^TestTable$/^two_plus_two$' (go test writes spaces in subtest names
// as underscores; either spelling is accepted). The test's subtests run
// with it.
//
// A given `go test …` command keeps its flags and packages; -json is added
// when missing, the level's flags go first (so the command's own flags win)
// and a single test's -run goes last (so it wins).
//
// How results are read:
//   - Every test and subtest is a test of its package (the suite is the
//     import path). A package's own pass or fail is not a test.
//   - A failure's file:line is a `file.go:12: message` line of the test's
//     own output, in a file of the test's package, made relative to the
//     project root: the first whose source line calls t.Error or t.Fatal
//     (or a testify block, or a -race report), not a t.Log's (location.go
//     says the rule). A panic's is the first frame of the project's code
//     in its stack, and its suggested traces are the project's functions
//     there, the test function excluded; an assertion helper of the tests
//     that panics (a _test.go function handed the test, `assert(t, ok)`)
//     yields to the line that called it, the helper named in the message. A panic in a goroutine that
//     another test of the package started says so, and its rerun runs
//     both tests.
//   - A fuzz target's failing input names its file: a seed corpus entry
//     (the subtest FuzzX/ID of testdata/fuzz/FuzzX/ID) or the input the
//     fuzzer wrote there ("Failing input written to"); the rerun runs that
//     input alone, -run '^FuzzX$/^ID$' without the command's -fuzz flags.
//   - A parent test that failed only because subtests failed is recorded as
//     failed without a Failure of its own: its subtests carry the failures,
//     so the same problem is not listed twice.
//   - A test binary that dies (panic, runtime fatal error, signal, os.Exit)
//     fails the tests still running in it; its later tests never run, which
//     the hint says (indicator test_binary_died). The Go runtime's signal reports
//     ([signal SIGSEGV: …], a SIGABRT goroutine dump), "fatal error: …",
//     go test's "signal: killed" and its -timeout panic are crash evidence;
//     a plain panic is only a failure of its test. The SIGQUIT dump strobe
//     asks for when it stops a run (Exit.StoppedBy) fails nothing: its
//     tests stay running.
//   - A package that fails although none of its tests failed (TestMain
//     exits non-zero, init panics) is recorded as a failed test named after
//     the package, so the failure is not lost; one whose TestMain exited
//     non-zero is at TestMain, saying whether its tests had run.
//   - build-output/build-fail events, "[build failed]"/"[setup failed]"
//     packages and, from older Go versions, compiler errors on stderr are
//     build errors; so are the vet failures go test runs before testing,
//     their messages headed "go vet: ".
type gotest struct{}

// New returns the gotest adapter.
func New() adapters.Adapter { return gotest{} }

func (gotest) Name() string { return "go" }

func (gotest) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		if isGoTest(req.Command) {
			return adapters.Detection{Confidence: 95, Hint: "the command is go test"}
		}
		return adapters.Detection{Hint: "go: the command is not go test"}
	}
	if kit.FileExists(filepath.Join(req.ProjectRoot, "go.mod")) {
		return adapters.Detection{Confidence: 90, Hint: "go.mod found"}
	}
	if kit.FileExists(filepath.Join(req.ProjectRoot, "go.work")) {
		return adapters.Detection{Confidence: 85, Hint: "go.work found"}
	}
	if mod, ok := enclosingModule(req.ProjectRoot); ok {
		return adapters.Detection{Confidence: 85, Hint: "Go files in a package of the module at " + mod}
	}
	return adapters.Detection{Hint: "go: no go.mod or go.work in the project root"}
}

// enclosingModule is the directory of the go.mod above dir, when dir holds
// Go files: a package of a module, where go test runs as in the module's
// root (go test ./... tests the package and those below it).
func enclosingModule(dir string) (string, bool) {
	if m, _ := filepath.Glob(filepath.Join(dir, "*.go")); len(m) == 0 {
		return "", false
	}
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if kit.FileExists(filepath.Join(d, "go.mod")) {
			return d, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

func isGoTest(argv []string) bool {
	return len(argv) >= 2 && filepath.Base(argv[0]) == "go" && argv[1] == "test"
}

// goLevel returns a level's flags and its -run filter.
func goLevel(l adapters.Level) (flags []string, run string) {
	switch l {
	case adapters.LevelUnit:
		return []string{"-short"}, ""
	case adapters.LevelIntegration:
		return []string{"-tags", "integration"}, "^TestIntegration"
	case adapters.LevelE2E:
		return []string{"-tags", "e2e"}, "^TestE2E"
	}
	return nil, ""
}

// goRunPattern turns a test name into a -run pattern that matches that test
// (and its subtests) only. testing splits a name at every slash, one a
// subtest's own name holds included, so the pattern does too: TestX/a/b,
// t.Run("a/b"), also runs the body of a sibling "a", which no pattern can
// leave out (docs/adapters.md, go).
func goRunPattern(name string) string {
	parts := strings.Split(strings.ReplaceAll(name, " ", "_"), "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

func (g gotest) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	if kit.Above(req.ProjectRoot, "go.mod", "go.work") == "" && !goPathMode(req.Env) {
		// go's "cannot find main module" read as a build failure.
		return nil, &adapters.UsageError{Msg: "go: no go.mod or go.work in or above " + req.ProjectRoot, Framework: "go",
			Hint: "give the Go module's directory as the project root"}
	}
	if req.Trace != nil {
		return g.planTraced(ctx, req, rec)
	}
	levelFlags, levelRun := goLevel(req.Level)
	run := levelRun
	if req.Test != "" {
		run = goRunPattern(req.Test)
	}
	pkgs := goPatterns(req.ProjectRoot)
	var sel []string // the packages of the several tests asked for
	if len(req.Tests) > 0 {
		if run, sel = goMultiRun(req.Tests); len(sel) > 0 {
			pkgs = sel
		}
	}
	var argv, rerun []string
	addedJSON := true // argv[2] is strobe's -json
	if len(req.Command) == 0 {
		argv = append([]string{"go", "test", "-json"}, levelFlags...)
		if run != "" {
			argv = append(argv, "-run", run)
		}
		argv = append(argv, pkgs...)
		rerun = append([]string{"go", "test"}, levelFlags...)
	} else {
		if !isGoTest(req.Command) {
			return nil, adapters.Usagef("the go framework runs `go test`, not %q: pass a go test command, or --framework generic to run this one", strings.Join(req.Command, " "))
		}
		testRun := ""
		if req.Test != "" || len(req.Tests) > 0 {
			testRun = run
		}
		argv, rerun, addedJSON = goCommand(req.Command, levelFlags, levelRun, testRun, sel)
	}
	if req.Fresh && !goCounts(argv, req.Env) {
		at := 2 // after "go test", and after strobe's -json, which argv[2] must stay
		if addedJSON {
			at = 3
		}
		argv = slices.Insert(argv, at, "-count=1")
	}
	mods := readGoModules(req.ProjectRoot)
	p := newGoParser(rec, req.ProjectRoot, mods, rerun, goNoTestsHint(req, run))
	if strings.Contains(req.Test, "/") {
		p.want = req.Test
	}
	if len(req.Command) == 0 && run == "" && req.Level == adapters.LevelAll {
		p.whole = append(slices.Clone(rerun), pkgs...)
	}
	plan := &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Parser: p}
	if addedJSON {
		if framed, pkg, ok := goFramedArgv(req.ProjectRoot, mods, req.Env, argv); ok {
			// The answer names the -json command, whose events are the
			// same: -v=test2json's framing is strobe's to read.
			plan.Shown = shell.Join(argv)
			plan.Argv, plan.TestProcessBeginsTests = framed, true
			p.framer = newGoFramer(pkg, p.event)
		}
	}
	return plan, nil
}

// goValueFlags are the go test and build flags that take their value as
// the next word, so that "-tags x" is not read as a flag and a package.
var goValueFlags = map[string]bool{
	"C": true, "asmflags": true, "bench": true, "benchtime": true, "blockprofile": true,
	"blockprofilerate": true, "count": true, "covermode": true, "coverpkg": true,
	"coverprofile": true, "cpu": true, "cpuprofile": true, "exec": true, "fuzz": true,
	"fuzzminimizetime": true, "fuzztime": true, "gccgoflags": true, "gcflags": true,
	"installsuffix": true, "ldflags": true, "list": true, "memprofile": true,
	"memprofilerate": true, "mod": true, "modfile": true, "mutexprofile": true,
	"mutexprofilefraction": true, "o": true, "outputdir": true, "overlay": true, "p": true,
	"parallel": true, "pgo": true, "pkgdir": true, "run": true, "shuffle": true, "skip": true,
	"tags": true, "timeout": true, "toolexec": true, "trace": true, "vet": true,
}

// goCommand completes a user's go test command and derives the start of the
// rerun commands from it: its flags without -json, -v and -run, and the
// arguments after -args, with the packages left out (a rerun names the
// failing test's package). testRun is the -run pattern of the tests asked
// for; pkgs, when given, replace the command's packages (the packages of
// the several tests --failed reruns, under the command's own flags: its
// -tags, -race). addedJSON says that argv[2] is the -json strobe added.
func goCommand(cmd, levelFlags []string, levelRun, testRun string, pkgs []string) (argv, rerun []string, addedJSON bool) {
	args := cmd[2:]
	binArgs := []string(nil)
	for i, a := range args {
		if a == "-args" || a == "--args" {
			args, binArgs = args[:i], args[i:]
			break
		}
	}
	hasJSON := false
	var keep, flags []string
	for i := 0; i < len(args); {
		name, words := goArg(args, i)
		i += len(words)
		if name != "" {
			flags = append(flags, words...)
		}
		switch name {
		case "": // a package
		case "json":
			hasJSON = true
		case "v", "run":
		default:
			keep = append(keep, words...)
		}
	}
	argv = append([]string{}, cmd[:2]...)
	if !hasJSON {
		argv = append(argv, "-json")
	}
	argv = append(argv, levelFlags...)
	if levelRun != "" {
		argv = append(argv, "-run", levelRun)
	}
	if len(pkgs) > 0 {
		argv = append(append(argv, flags...), pkgs...)
	} else {
		argv = append(argv, args...)
	}
	if testRun != "" {
		argv = append(argv, "-run", testRun)
	}
	argv = append(argv, binArgs...)

	rerun = append([]string{}, cmd[:2]...)
	rerun = append(rerun, levelFlags...)
	rerun = append(rerun, keep...)
	return argv, rerun, !hasJSON
}

// goCounts says whether a go test command, or GOFLAGS in env, gives -count:
// any -count turns go test's result cache off (only -count=1 is the
// idiom), so a run that must not be answered from it needs none added.
func goCounts(argv, env []string) bool {
	for _, f := range strings.Fields(kit.EnvValue(env, "GOFLAGS")) {
		if name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "="); name == "count" {
			return true
		}
	}
	args := argv[2:]
	for i := 0; i < len(args); {
		if args[i] == "-args" || args[i] == "--args" {
			break
		}
		name, words := goArg(args, i)
		if name == "count" {
			return true
		}
		i += len(words)
	}
	return false
}

// goArg reads the go test argument at args[i]: a flag's name, without its
// dashes and value, or "" for a package; and the words it spans, the next
// one too when the flag takes a value and has no "=value".
func goArg(args []string, i int) (name string, words []string) {
	if !strings.HasPrefix(args[i], "-") {
		return "", args[i : i+1]
	}
	name, _, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
	if goValueFlags[name] && !hasValue && i+1 < len(args) {
		return name, args[i : i+2]
	}
	return name, args[i : i+1]
}

// goNoTestsHint says why a run found no test, decided when the run is
// planned because it depends on what was asked.
func goNoTestsHint(req adapters.Request, run string) string {
	return kit.NoTestsHint{
		Test: fmt.Sprintf("no test matched -run '%s' in any package: `go test -list . ./...` lists the tests", run),
		Levels: map[adapters.Level]string{
			adapters.LevelIntegration: "no integration test: by convention they are named TestIntegration… and their files start with //go:build integration",
			adapters.LevelE2E:         "no e2e test: by convention they are named TestE2E… and their files start with //go:build e2e",
		},
		All: "no test ran: Go tests are functions TestXxx(t *testing.T) in files ending in _test.go (check build tags and any -run filter)",
	}.For(req.Test, req.Level)
}

// goPatterns are the packages of the whole project: ./... in a module, and
// in a workspace each module's tree, since there ./... stops at the
// boundaries of nested modules (and is an error where the root is not one).
func goPatterns(root string) []string {
	var pats []string
	for _, dir := range goWorkUses(filepath.Join(root, "go.work")) {
		if rel, ok := kit.Rel(root, dir); ok {
			pat := "./" + filepath.ToSlash(filepath.Join(rel, "..."))
			if !slices.Contains(pats, pat) {
				pats = append(pats, pat)
			}
		}
	}
	if len(pats) == 0 {
		return []string{"./..."}
	}
	return pats
}

// goModule is a module of the project: its path and its directory,
// relative to the project root.
type goModule struct{ path, dir string }

// readGoModules reads the module in the project root and the modules a
// go.work there uses, longest path first so that the most specific module
// of a package wins.
func readGoModules(root string) []goModule {
	var mods []goModule
	if p := goModulePath(filepath.Join(root, "go.mod")); p != "" {
		mods = append(mods, goModule{p, "."})
	}
	for _, dir := range goWorkUses(filepath.Join(root, "go.work")) {
		dir, ok := kit.Rel(root, dir)
		if !ok {
			continue
		}
		m := goModule{goModulePath(filepath.Join(root, dir, "go.mod")), dir}
		if m.path != "" && !slices.Contains(mods, m) {
			mods = append(mods, m)
		}
	}
	sort.SliceStable(mods, func(i, j int) bool { return len(mods[i].path) > len(mods[j].path) })
	return mods
}

// goDirective returns the arguments of the directives called name in a
// go.mod or go.work file, one per line, blocks included. It reads only what
// it needs: there is no dependency on golang.org/x/mod.
func goDirective(path, name string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var args []string
	inBlock := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		switch {
		case inBlock && line == ")":
			inBlock = false
		case inBlock:
			if line != "" {
				args = append(args, line)
			}
		case line == name+" (" || line == name+"(":
			inBlock = true
		case strings.HasPrefix(line, name+" ") || strings.HasPrefix(line, name+"\t"):
			args = append(args, strings.TrimSpace(line[len(name):]))
		}
	}
	for i, a := range args {
		if u, err := strconv.Unquote(a); err == nil {
			args[i] = u
		}
	}
	return args
}

func goModulePath(gomod string) string {
	if m := goDirective(gomod, "module"); len(m) > 0 {
		return m[0]
	}
	return ""
}

func goWorkUses(gowork string) []string { return goDirective(gowork, "use") }

// goEvent is one test2json event (go doc test2json), with the build events
// of Go 1.24 and later.
type goEvent struct {
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	ImportPath  string
	FailedBuild string
}

// Bounds on what the parser keeps besides the Recorder.
const (
	goKeptLines    = 40    // package output, a test's unlocated output, stray text
	goTraceLines   = 20000 // lines of one goroutine dump read for frames
	goBuildLines   = 400   // build output lines of one package
	goTraces       = 8     // suggested traces of one failure
	goProjectFiles = 5     // test files named in a no_tests answer
)

type goParser struct {
	dec    goDecoder
	framer *goFramer // reads go test -v=test2json's output, when that runs
	rec    *adapters.Recorder
	root   string
	mods   []goModule
	// sources are the project packages read for suggested traces.
	sources map[string]*goSource
	// src are the project files read to sort location lines (location.go).
	src   map[string]*goSourceFile
	rerun []string // "go test [flags]": a rerun adds -run and a package
	hint  string   // why no test ran, should none run
	want  string   // the test asked for (--test), when it is a subtest
	// whole is the whole suite's command (strobe's, without -json), for
	// a run of it: a run strobe stops says how to run the rest.
	whole []string

	pkgs        map[string]*goPackage
	build       map[string][]string // build-output lines by import path
	buildErrs   []report.BuildError
	buildFailed bool
	buildLines  []string // "FAIL pkg [build failed]", for want of errors
	crash       *report.Crash
	// quit are the packages whose binary ended in a SIGQUIT goroutine
	// dump, a SIGTERM or a SIGKILL (stopSignal), settled in Finish: when
	// strobe stopped the run they leave the tests running (stuck, timed
	// out), anyone else's is a crash.
	quit []goQuit

	// text holds lines that were not test2json events: the go command's own
	// messages on stderr, or noise on stdout.
	text    []string
	textPkg string // package of the last "# pkg" header in text
	textErr bool   // the last text line was a build error, for continuations
	textVet bool   // the last "# [pkg]" header in text is go vet's

	// died says, one sentence a package, which test binaries died before
	// their end (a panic, os.Exit, a fatal error, a signal).
	died []string
	// unrun says, one sentence a package, which packages passed without
	// running their tests (TestMain exited 0 before m.Run).
	unrun []string

	// firstFail is the first failed test, "pkg's TestX", for -failfast's hint.
	firstFail  string
	tests      int  // test events seen (start or end)
	pkgFailed  bool // a package failed
	pkgStarted bool // a package's tests started

	// runs is how many times the command runs each test: -count=N times
	// the -cpu list's length. runsFlags says so ("-count=3"), empty for one
	// run. runsEnded and runsFailed count the runs of all tests (subtests
	// too) that ended and failed, as go test's own -json counts them;
	// recorded are the tests with a failure, in the order they first failed.
	runs                  int
	runsFlags             string
	runsEnded, runsFailed int
	recorded              []goTestID
}

// goTestID names a test of a package.
type goTestID struct {
	pkg  *goPackage
	name string
}

// goQuit is a package's end event held back until Finish.
type goQuit struct {
	pkg *goPackage
	e   goEvent
}

// goPackage is the state of one package's test binary.
type goPackage struct {
	path    string
	tests   map[string]*goTest
	running []string // started and not ended, oldest first
	lastRun string   // the test that started last
	fails   []string // the tests whose fail events came last, newest last (goFailsKept)
	// justFailed says the last event of the package that was no framing
	// of a parallel test's turn (cont, pause, "=== CONT") was a fail.
	justFailed bool
	// active counts the top-level tests running and not paused (a
	// parallel test waiting for its turn is paused).
	active  int
	out     []string  // output outside any test, newest goKeptLines
	trace   *goTrace  // how the binary died (or panicked), if it did
	failed  int       // its tests that failed
	build   bool      // it failed to build
	race    *goRace   // a data race report being read (-race)
	races   []*goRace // the reports read, the first goRaces of them
	nraces  int       // reports read
	leak    []string  // goleak.VerifyTestMain's report
	shuffle string    // the seed of -shuffle, as testing printed it ("-test.shuffle 1234")
	order   []string  // its top-level tests in the order they started
	summary bool      // the binary printed its own "PASS" or "FAIL": it ran to its end
	ended   bool      // its end came, settled in Finish (quit): later lines are not its binary's
}

// goTest is what a test's own output told.
type goTest struct {
	status  report.TestStatus // once ended
	elapsed time.Duration
	traced  bool // its failure is a trace's
	// Location lines of its own output (location.go): the one being read,
	// whose continuation lines may follow; the first failure; the first
	// unknown; the last.
	cur, fail, unknown, last *goLoc
	// failing are its failure and unknown location lines in order (the
	// first goFailingKept; failingMore counts the rest): the later
	// failures beside the one shown.
	failing     []*goLoc
	failingMore int
	lines       []string // its first output lines, for a failure without a location
	// raceFrom is the number of the package's race reports printed
	// before it started: the ones after are candidates for its failure.
	raceFrom int
	// raced says testing reported a race while it ran, whatever its
	// first failure was.
	raced     bool
	subFailed bool // a subtest failed
	// reported says its "--- PASS"/"--- SKIP" line came before any
	// trace began: test2json holds the pass event back until a line at a
	// lower depth, which may be the go command's FAIL after a sibling's
	// panic, so that event is no sign the binary lived on.
	reported bool
	// endedAtLine says it was ended at that line, not by its event.
	endedAtLine bool
	// nested says it started while another top-level test ran (not
	// paused): a test that a test runs itself (testing.RunTests).
	nested bool
	// parent is the test it started under: the longest prefix of its
	// name, at a '/', that was running then (a subtest's own name may
	// hold a '/': TestX/a/b is TestX's subtest "a/b" until TestX/a runs).
	parent string
	// live says it started and has not ended; paused, that it waits for
	// its turn (t.Parallel) since its last pause event.
	live, paused bool
	// ordered says it is in its package's order (a top-level test that
	// started): kept across -count's runs, so that a package of
	// thousands of tests is not searched at each start.
	ordered bool
	// fuzzInput is the file a fuzz target's failing input was written to
	// ("testdata/fuzz/FuzzX/ID", relative to its package), from go's
	// "Failing input written to" line.
	fuzzInput string
	// rep is what its earlier runs told, under go test -count=N: a run
	// resets the fields above, not this.
	rep goRuns
}

// goRuns is a test's tally over the runs of go test -count=N (times the
// -cpu list), which runs each test again in the same binary.
type goRuns struct {
	ended    int    // runs that ended
	failed   int    // runs that failed
	failedIn []int  // the first goRunsNamed of those, from 1
	recorded bool   // a failure is recorded: the first run's that had one
	message  string // that failure's message, before the tally was added
}

// goTrace is what a test binary printed as it died or panicked: the header
// ("panic: boom", "fatal error: …", "SIGABRT: abort", "signal: killed"),
// the lines that explain it, and the frames of its goroutines.
type goTrace struct {
	test       string   // test whose output it was in, or the newest running
	running    []string // the package's tests running when it began
	header     string
	message    []string  // header and explanation lines
	signal     string    // SIGSEGV, from "[signal SIGSEGV: …]" or a dump header
	exitSignal string    // from go test's "signal: killed"
	fatal      bool      // a runtime fatal error, which nothing can recover
	timeout    bool      // go test's -timeout alarm
	inMessage  bool      // still reading explanation lines
	frames     []goFrame // the first goroutine with the project's code in it
	goroutine  []goFrame // frames of the goroutine being read
	hit        bool      // that goroutine has the project's code in it
	fn         string    // function line waiting for its file line
	skipFile   bool      // the next file line belongs to "created by"
	goroutines int       // goroutine headers read
	// starter is the top-level test of the package that the first
	// goroutine (the panicking one) belongs to, by a frame of its stack or
	// its "created by" line: a goroutine a test left running may panic
	// while another test runs.
	starter string
	// inRunner says the panicking goroutine's stack has testing's own
	// recovery of a test's panic (testing.tRunner.func1) above the test:
	// the panic is that test's, in its own goroutine, not one it left.
	inRunner bool
	lines    int
	done     bool // frames found, or too many lines read
	// bubble says the panic is testing/synctest's deadlock of a bubble,
	// whose blocked goroutines (each at its first frame in the project)
	// tell where: read apart from the frames above (synctest.go).
	bubble *goBubble
}

type goFrame struct {
	fn   string // "example.com/m/calc.Divide"
	file string // as printed: absolute, or module-relative under -trimpath
	line int
}

var (
	// "    calc_test.go:13: message" (t.Error and friends); before Go 1.14
	// the line started with the test's name: "    TestX: calc_test.go:13: …".
	goLocLine = lazyre.New(`^(\s+)(?:\S+: )?([^\s:]+\.go):(\d+): (.*)$`)
	// "lib/lib.go:5:9: cannot use …" (compiler, vet).
	goBuildLine = lazyre.New(`^((?:[A-Za-z]:)?[^\s"{}:]+\.[A-Za-z]+):(\d+)(?::(\d+))?: (.*)$`)
	// "[signal SIGSEGV: segmentation violation code=0x1 addr=0x8 pc=0x52e510]".
	goSignalLine = lazyre.New(`^\[signal (SIG[A-Z0-9]+)\b`)
	// "SIGABRT: abort" heads the goroutine dump of a fatal signal.
	goSignalDump = lazyre.New(`^(SIG[A-Z0-9]+): \S`)
	goRecovered  = lazyre.New(` \[recovered[^\]]*\]$`)
	// "FAIL\texample.com/m/lib [build failed]" or "[setup failed]".
	goBuildFailed = lazyre.New(`^FAIL\s+\S+ \[(?:build|setup) failed\]`)
)

func newGoParser(rec *adapters.Recorder, root string, mods []goModule, rerun []string, hint string) *goParser {
	p := &goParser{rec: rec, root: root, mods: mods, rerun: rerun, hint: hint,
		pkgs: map[string]*goPackage{}, build: map[string][]string{}}
	p.runs, p.runsFlags = goRepeats(rerun)
	return p
}

// goRepeats reads how many times a go test command runs each test: its
// -count (the last one given wins, as in the flag package) times the
// length of its -cpu list, and the flags that say so ("-count=3 -cpu=1,2"),
// empty for one run.
func goRepeats(args []string) (int, string) {
	count, cpus := 1, 1
	countFlag, cpuFlag := "", ""
	for i := 0; i < len(args); {
		name, words := goArg(args, i)
		i += len(words)
		value := ""
		if _, v, ok := strings.Cut(words[0], "="); ok {
			value = v
		} else if len(words) == 2 {
			value = words[1]
		}
		switch name {
		case "count":
			if n, err := strconv.Atoi(value); err == nil && n >= 1 {
				count, countFlag = n, "-count="+value
			}
		case "cpu":
			if list := strings.Split(value, ","); value != "" {
				cpus, cpuFlag = len(list), "-cpu="+value
			}
		}
	}
	if count*cpus == 1 {
		return 1, ""
	}
	var flags []string
	if count > 1 {
		flags = append(flags, countFlag)
	}
	if cpus > 1 {
		flags = append(flags, cpuFlag)
	}
	return count * cpus, strings.Join(flags, " ")
}

func (p *goParser) Line(s adapters.Stream, b []byte, cut bool) {
	if s == adapters.Stdout && p.framer != nil {
		p.framer.line(b, cut)
		return
	}
	if s == adapters.Stdout && len(b) > 0 && b[0] == '{' {
		var e goEvent
		if p.dec.decode(b, &e) && e.Action != "" {
			p.event(&e)
			return
		}
		if cut {
			return // an event cut by the line limit is lost; it is not text
		}
	}
	p.textLine(strings.TrimRight(string(b), "\r"))
}

func (p *goParser) event(e *goEvent) {
	switch e.Action {
	case "build-output":
		path := e.ImportPath
		if len(p.build[path]) < goBuildLines {
			p.build[path] = append(p.build[path], strings.TrimSuffix(e.Output, "\n"))
		}
		return
	case "build-fail":
		p.buildFailed = true
		p.buildErrors(e.ImportPath, p.build[e.ImportPath])
		delete(p.build, e.ImportPath)
		return
	case "start", "run":
		if !p.pkgStarted {
			p.pkgStarted = true
			p.rec.BeginTesting()
		}
	}
	pkg := p.pkgs[e.Package]
	if pkg == nil {
		pkg = &goPackage{path: e.Package, tests: map[string]*goTest{}}
		p.pkgs[e.Package] = pkg
	}
	if e.Test == "" {
		p.packageEvent(pkg, e)
		return
	}
	t := pkg.tests[e.Test]
	if t == nil {
		t = &goTest{}
		pkg.tests[e.Test] = t
	}
	switch e.Action {
	case "run", "pass", "bench", "skip":
		if tr := pkg.trace; tr != nil && (tr.timeout || e.Action != "run" && t.reported) {
			// test2json holds a test's pass back until a line at a lower
			// depth, so a panic printed after that test ended (the
			// alarm's, or a parallel sibling's) comes before its pass:
			// the binary still dies, and not of that test.
			if tr.test == e.Test {
				tr.test = ""
			}
			break
		}
		// The binary lives on: what looked like its dying words was a
		// test's output.
		pkg.trace = nil
	}
	switch e.Action {
	case "run":
		if t.rep.ended > 0 {
			// go test -count=N runs it again: what the last run told is
			// not this one's.
			*t = goTest{rep: t.rep, ordered: t.ordered}
		}
		p.tests++
		if t.rep.ended > 0 {
			p.rec.Again(pkg.path, e.Test)
		} else {
			p.rec.Start(pkg.path, e.Test)
		}
		top := !strings.Contains(e.Test, "/")
		t.nested = top && pkg.active > 0
		t.parent = pkg.liveParent(e.Test)
		pkg.setState(t, e.Test, true, false)
		pkg.running = append(pkg.running, e.Test)
		pkg.lastRun = e.Test
		if top {
			// Every top-level test starts before a paused one goes on: the
			// fail events before it are no other test's panic.
			pkg.fails = pkg.fails[:0]
		}
		if top && !t.ordered {
			t.ordered = true
			pkg.order = append(pkg.order, e.Test)
		}
		t.raceFrom = pkg.nraces
	case "output":
		p.rec.Output(pkg.path, e.Test, e.Output)
		line := strings.TrimSuffix(e.Output, "\n")
		p.traceLine(pkg, e.Test, line)
		if !p.raceLine(pkg, line) && pkg.trace == nil {
			p.readLoc(pkg, t, line)
		}
		if !goFraming(line) {
			pkg.justFailed = false
		} else if status, d, ok := goReportLine(line, e.Test); ok && pkg.trace == nil {
			// The test has ended: test2json holds its event back until a
			// line at a lower depth, which a hung sibling may never print.
			t.reported = true
			if t.live {
				p.end(pkg, e.Test, status, d, nil)
				t.endedAtLine = true
			}
		}
		if in, ok := strings.CutPrefix(strings.TrimSpace(line), "Failing input written to "); ok && strings.HasPrefix(e.Test, "Fuzz") {
			t.fuzzInput = in
		}
	case "pause":
		pkg.setState(t, e.Test, t.live, true)
		p.rec.Pause(pkg.path, e.Test)
	case "cont":
		pkg.setState(t, e.Test, t.live, false)
		p.rec.Resume(pkg.path, e.Test)
	case "pass", "bench", "skip":
		if t.endedAtLine {
			break
		}
		status := report.TestPassed
		if e.Action == "skip" {
			status = report.TestSkipped
		}
		p.end(pkg, e.Test, status, kit.DurationOf(e.Elapsed), nil)
	case "fail":
		p.end(pkg, e.Test, report.TestFailed, kit.DurationOf(e.Elapsed), p.failure(pkg, e.Test))
		if pkg.fails = append(pkg.fails, e.Test); len(pkg.fails) > goFailsKept {
			pkg.fails = pkg.fails[1:]
		}
	}
	switch e.Action {
	case "fail":
		pkg.justFailed = true
	case "run", "pass", "bench", "skip":
		pkg.justFailed = false
	}
}

// goFailsKept is how many of a package's last fail events are kept to
// tell which subtest a panic came from.
const goFailsKept = 16

// panicked is the subtest of test that panicked, from the fail events
// before the panic, or "". testing reports the panicking test failed, then
// each of its parents, then prints the panic in the outermost's output:
// it is the newest failed subtest of test, or the one of its own subtests
// that failed just before it (a panic two levels down).
func panicked(pkg *goPackage, test string) string {
	name := ""
	for i := len(pkg.fails) - 1; i >= 0; i-- {
		f := pkg.fails[i]
		switch {
		case name == "" && strings.HasPrefix(f, test+"/"):
			name = f
		case name == "":
		case strings.HasPrefix(f, name+"/"):
			name = f
		default:
			return name
		}
	}
	return name
}

// panickedBefore is the test that panicked when the panic follows, but
// for a parallel sibling's turn, the fail events testing reports for a
// panicking test and each of its parents: the newest is a top-level
// test's, and the panic is its deepest failed subtest's (or its own).
// The panic then lands in the output of the sibling whose "=== CONT"
// came between, which did not panic. "" when the panic follows anything
// else (a goroutine's panic fails no test first).
func panickedBefore(pkg *goPackage) string {
	if !pkg.justFailed || len(pkg.fails) == 0 {
		return ""
	}
	top := pkg.fails[len(pkg.fails)-1]
	if strings.Contains(top, "/") {
		return ""
	}
	return cmp.Or(panicked(pkg, top), top)
}

// goReportLine reads testing's report that test passed or was skipped
// ("--- PASS: TestX (0.01s)"): its status and time.
func goReportLine(line, test string) (report.TestStatus, time.Duration, bool) {
	s := strings.TrimSpace(line)
	for _, r := range []struct {
		prefix string
		status report.TestStatus
	}{{"--- PASS: ", report.TestPassed}, {"--- SKIP: ", report.TestSkipped}} {
		rest, ok := strings.CutPrefix(s, r.prefix)
		if !ok {
			continue
		}
		name, secs, _ := strings.Cut(rest, " (")
		if name != test {
			return "", 0, false
		}
		f, _ := strconv.ParseFloat(strings.TrimSuffix(secs, "s)"), 64)
		return r.status, kit.DurationOf(f), true
	}
	return "", 0, false
}

// goFraming reports whether a line is go test's own framing of a test.
func goFraming(line string) bool {
	s := strings.TrimSpace(line)
	for _, p := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "=== ATTR", "--- FAIL:", "--- PASS:", "--- SKIP:", "--- BENCH:"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return s == ""
}

// setState sets whether the test named name is live (started, not ended)
// and paused (waiting for its turn), keeping the package's count of
// top-level tests running and not paused.
func (pkg *goPackage) setState(t *goTest, name string, live, paused bool) {
	was := t.live && !t.paused
	t.live, t.paused = live, paused
	if now := live && !paused; now != was && !strings.Contains(name, "/") {
		if now {
			pkg.active++
		} else {
			pkg.active--
		}
	}
}

func (p *goParser) end(pkg *goPackage, name string, status report.TestStatus, d time.Duration, f *report.Failure) {
	p.tests++
	t := pkg.tests[name]
	if t == nil {
		t = &goTest{}
		pkg.tests[name] = t
	}
	t.status, t.elapsed = status, d
	pkg.setState(t, name, false, t.paused)
	for i, r := range pkg.running {
		if r == name {
			pkg.running = append(pkg.running[:i], pkg.running[i+1:]...)
			break
		}
	}
	t.rep.ended++
	p.runsEnded++
	if status == report.TestFailed {
		if t.rep.failed++; len(t.rep.failedIn) < goRunsNamed {
			t.rep.failedIn = append(t.rep.failedIn, t.rep.ended)
		}
		p.runsFailed++
	}
	if t.rep.failed > 0 {
		// A test that failed in any run of go test -count=N failed, with
		// the first failure: a later pass is no news of a fix, a later
		// failure no other bug to read first.
		status = report.TestFailed
		if f != nil && t.rep.recorded {
			f = nil
		}
		if f != nil {
			t.rep.recorded, t.rep.message = true, f.Message
			p.recorded = append(p.recorded, goTestID{pkg, name})
		}
	}
	if t.status == report.TestFailed {
		if p.firstFail == "" {
			p.firstFail = name + " in " + cmp.Or(pkg.path, "the package")
		}
		pkg.failed++
		// Mark the ancestors: their failure is this one.
		for i := strings.LastIndexByte(name, '/'); i > 0; i = strings.LastIndexByte(name[:i], '/') {
			if parent := pkg.tests[name[:i]]; parent != nil {
				parent.subFailed = true
			}
		}
	}
	p.rec.End(pkg.path, name, status, d, f)
	p.tally(pkg, name, t)
}

// tally heads the recorded failure of a test that ran more than once with
// how many of its runs failed.
func (p *goParser) tally(pkg *goPackage, name string, t *goTest) {
	if t.rep.recorded && (t.rep.ended > 1 || p.runs > 1) {
		msg := p.runsTally(t.rep) + t.rep.message
		p.rec.UpdateFailure(pkg.path, name, func(f *report.Failure) { f.Message = kit.Clip(msg) })
	}
}

// goRunsNamed bounds the failed runs of a test its failure names.
const goRunsNamed = 8

// runsTally heads the first failure of a test that go test ran several
// times (-count=N): "failed 2 of 3 runs (-count=3: runs 1 and 3); run 1's
// failure: ".
func (p *goParser) runsTally(r goRuns) string {
	k, n := r.failed, r.ended
	var b strings.Builder
	if n >= p.runs {
		fmt.Fprintf(&b, "failed %d of %d runs", k, n)
	} else {
		// The binary died, or strobe stopped it, before the other runs.
		fmt.Fprintf(&b, "failed %d of the %d %s that ended", k, n, map[bool]string{true: "run", false: "runs"}[n == 1])
	}
	b.WriteString(" (")
	b.WriteString(p.runsFlags)
	if k < n {
		nums := make([]string, 0, goRunsNamed+1)
		for _, run := range r.failedIn {
			nums = append(nums, strconv.Itoa(run))
		}
		if k > len(r.failedIn) {
			nums = append(nums, fmt.Sprintf("%d more", k-len(r.failedIn)))
		}
		list := kit.JoinAnd(nums)
		if p.runsFlags != "" {
			b.WriteString(": ")
		}
		b.WriteString(map[bool]string{true: "run ", false: "runs "}[k == 1] + list)
	}
	fmt.Fprintf(&b, "); run %d's failure: ", r.failedIn[0])
	return strings.Replace(b.String(), " ()", "", 1)
}

// failure builds a failed test's Failure, nil when its failure is only that
// of its subtests.
func (p *goParser) failure(pkg *goPackage, name string) *report.Failure {
	t := pkg.tests[name]
	var f *report.Failure
	loc, logOnly := t.loc()
	switch {
	case pkg.trace != nil && pkg.trace.test == name:
		f = p.traceFailure(pkg.trace, name)
		t.traced = true
	case t.subFailed && (loc == nil || logOnly):
		return nil
	case t.fail != nil && t.fail.race && pkg.testRace(name, t) != nil:
		// Returned as it is: its rerun is the race's.
		return p.raceFailure(pkg, name, pkg.testRace(name, t))
	case loc != nil:
		if strings.HasPrefix(loc.message(), goleakHeader) {
			at := ""
			if loc.path != "" {
				at = " (goleak.VerifyNone at " + loc.path + ":" + strconv.Itoa(loc.line) + ")"
			}
			if f = p.goleakFailure(pkg, name, at, strings.Split(loc.message(), "\n")); f != nil {
				break
			}
		}
		f = loc.failure()
		if f.File != "" {
			f.SuggestedTraces = p.callTraces(pkg.path, f.File, f.Line, name)
		}
		if !logOnly {
			t.addLater(f, loc)
		}
	default:
		f = &report.Failure{Message: kit.Clip(strings.TrimSpace(strings.Join(t.lines, "\n")))}
		if f.Message == "" {
			f.Message = "failed without a message (t.Fail or t.FailNow)"
		}
		if strings.HasPrefix(name, "Example") {
			// testing prints no location for an example's got/want: its
			// function is the place to look.
			f.File, f.Line = p.funcAt(pkg.path, name)
		}
	}
	if r := pkg.testRace(name, t); t.raced && r != nil && !strings.HasPrefix(f.Message, "data race") {
		// A test that failed its own check and raced too: the race is
		// named beside the check, and the rerun has -race to find it.
		f.Message = kit.Clip(f.Message + "\n(and a " + strings.Replace(r.essence().message(), " (go test -race):", " while it ran:", 1) + ")")
		if f.Rerun == "" {
			f.Rerun = p.rerunRace(pkg.path, goRunPattern(name))
		}
	}
	if f.Rerun == "" {
		f.Rerun = p.rerunCommand(pkg.path, name)
	}
	if t.traced {
		f.Rerun = p.traceRerun(pkg.path, pkg.trace, name)
	} else {
		p.fuzzFailure(pkg.path, name, t, f)
	}
	return f
}

// goFuzzFlags are go test's flags that start fuzzing: a failing input's
// rerun runs that input alone, as go's own "To re-run" does.
var goFuzzFlags = map[string]bool{"fuzz": true, "fuzztime": true, "fuzzminimizetime": true}

// fuzzFailure names the file of a fuzz target's failing input in its
// failure, and reruns that input alone: a seed corpus file, which a plain
// go test runs as the subtest FuzzX/ID (testing names neither file nor
// directory), or the input the fuzzer found and wrote under testdata
// (the failure is then FuzzX's own).
func (p *goParser) fuzzFailure(importPath, name string, t *goTest, f *report.Failure) {
	target, id, sub := strings.Cut(name, "/")
	if !strings.HasPrefix(target, "Fuzz") || strings.Contains(id, "/") {
		return
	}
	file := path.Join("testdata", "fuzz", target, id)
	if !sub {
		file = filepath.ToSlash(t.fuzzInput)
		if path.Dir(file) != path.Join("testdata", "fuzz", target) {
			return
		}
		id = path.Base(file)
	}
	dir, ok := p.pkgDir(importPath)
	if !ok {
		return
	}
	rel := filepath.ToSlash(filepath.Join(dir, file))
	if !kit.FileExists(filepath.Join(p.root, rel)) {
		return
	}
	f.Message = kit.Clip(f.Message + "\n(the input is " + rel + ")")
	var words []string
	for i := 0; i < len(p.rerun); {
		name, w := goArg(p.rerun, i)
		i += len(w)
		if !goFuzzFlags[name] {
			words = append(words, w...)
		}
	}
	f.Rerun = p.rerunFrom(words, importPath, goRunPattern(target+"/"+id))
}

func (p *goParser) packageEvent(pkg *goPackage, e *goEvent) {
	switch e.Action {
	case "output":
		line := strings.TrimSuffix(e.Output, "\n")
		p.traceLine(pkg, "", line)
		p.raceLine(pkg, line)
		if goBuildFailed.MatchString(line) {
			pkg.build = true
			p.buildFailed = true
			p.buildLines = append(p.buildLines, line)
		}
		if (line == "PASS" || line == "FAIL") && !pkg.ended {
			pkg.summary = true // not the go command's closing FAIL, one package's output in -v=test2json
		}
		if seed, ok := strings.CutPrefix(line, "-test.shuffle "); ok && pkg.shuffle == "" {
			if _, err := strconv.ParseInt(seed, 10, 64); err == nil {
				pkg.shuffle = seed
			}
		}
		switch {
		case len(pkg.leak) > 0 && len(pkg.leak) < goBuildLines && !strings.HasPrefix(line, "FAIL") && !strings.HasPrefix(line, "ok "):
			pkg.leak = append(pkg.leak, line)
		case strings.Contains(line, goleakHeader) && len(pkg.leak) == 0:
			pkg.leak = []string{line} // goleak.VerifyTestMain's report
		}
		pkg.out = append(pkg.out, line)
		if len(pkg.out) > goKeptLines {
			pkg.out = pkg.out[1:]
		}
	case "pass", "fail", "skip":
		if e.FailedBuild != "" {
			pkg.build = true
			p.buildFailed = true
		}
		if pkg.trace != nil && stopSignal(pkg.trace) {
			pkg.ended = true
			p.quit = append(p.quit, goQuit{pkg, *e})
			return
		}
		p.packageEnd(pkg, e)
	}
}

// liveParent is the test a test of that name starts under (goTest.parent).
func (pkg *goPackage) liveParent(name string) string {
	for i := strings.LastIndexByte(name, '/'); i > 0; i = strings.LastIndexByte(name[:i], '/') {
		if t := pkg.tests[name[:i]]; t != nil && t.live {
			return name[:i]
		}
	}
	return ""
}

// passedAncestor says whether a parent of the test, at any depth, passed.
func passedAncestor(pkg *goPackage, name string) bool {
	for t := pkg.tests[name]; t != nil && t.parent != ""; {
		if t = pkg.tests[t.parent]; t != nil && t.status == report.TestPassed {
			return true
		}
	}
	return false
}

// testName is the test a trace is blamed on; "" for none.
func (tr *goTrace) testName() string {
	if tr == nil {
		return ""
	}
	return tr.test
}

// forget drops a test the run recorded as started that never ran (paused
// in t.Parallel when its binary died).
func (p *goParser) forget(pkg *goPackage, name string) {
	p.rec.Forget(pkg.path, name)
	pkg.setState(pkg.tests[name], name, false, false)
	delete(pkg.tests, name)
	pkg.running = slices.DeleteFunc(pkg.running, func(n string) bool { return n == name })
}

// stopSignal says whether a test binary's end may be strobe's stop of the
// run: the SIGQUIT goroutine dump it asks for, or the SIGTERM and SIGKILL
// it sends the process group (go test's "signal: terminated" came as the
// stuck test's failure when the binary died before the go command).
// Finish settles such a package: a run strobe stopped fails none of its
// tests, anyone else's signal is crash evidence.
func stopSignal(tr *goTrace) bool {
	return tr.signal == "SIGQUIT" || tr.exitSignal == "SIGTERM" || tr.exitSignal == "SIGKILL"
}

// packageEnd settles a package whose test binary is done: tests it left
// running failed with it, its crash evidence is read, and a failure that
// no test explains becomes a test named after the package.
func (p *goParser) packageEnd(pkg *goPackage, e *goEvent) {
	tr := pkg.trace
	if tr != nil && tr.test == "" && len(pkg.running) > 0 {
		tr.test = pkg.running[len(pkg.running)-1]
	}
	p.noteDied(pkg, e)
	// Newest first, so that a parent sees its subtests fail before it ends.
	running := append([]string(nil), pkg.running...)
	for i := len(running) - 1; i >= 0; i-- {
		name := running[i]
		if e.Action == "pass" || pkg.summary && strings.HasPrefix(name, "Benchmark") {
			// A passing binary whose end events got lost (older Go lost
			// those of parallel subtests): its tests passed. So did a
			// benchmark of a binary that ran to its end: test2json gives
			// one that passed no end event (its result line is all).
			p.end(pkg, name, report.TestPassed, 0, nil)
			continue
		}
		t := pkg.tests[name]
		if t.paused && name != tr.testName() {
			// Still waiting in t.Parallel when the binary died: its body
			// never ran, and go test reports nothing of it.
			p.forget(pkg, name)
			continue
		}
		var f *report.Failure
		switch {
		case tr != nil && name == tr.test:
			f = p.traceFailure(tr, name)
			t.traced = true
		case t.subFailed:
		case tr != nil && tr.timeout:
			f = &report.Failure{Message: kit.DidNotFinish("go test's -timeout ended the test binary", 0) + " (" + tr.header + ")"}
		case tr != nil:
			f = &report.Failure{Message: fmt.Sprintf("did not finish: the test binary died while %s ran (%s)", tr.test, tr.header)}
		default:
			f = &report.Failure{Message: kit.DidNotFinish("the test binary exited", 0) + " (os.Exit or log.Fatal in the test or the code it calls?)"}
			if loc, _ := t.loc(); loc != nil {
				lf := loc.failure()
				f.File, f.Line = lf.File, lf.Line
				f.Message += "\n" + lf.Message
			}
		}
		if f != nil {
			f.Rerun = p.rerunCommand(pkg.path, name)
			if t.traced {
				f.Rerun = p.traceRerun(pkg.path, tr, name)
			}
		}
		p.end(pkg, name, report.TestFailed, 0, f)
	}
	// A test cannot fail under a parent that passed: go's testing fails
	// the parent with its subtest. Such fail events are the parent's own
	// output (testify's suite tests run failing tests named as their
	// subtests, through testing.RunTests), not failures of the package.
	var inner []string
	for name, t := range pkg.tests {
		if t.status == report.TestFailed && passedAncestor(pkg, name) {
			inner = append(inner, name)
		}
	}
	for _, name := range inner {
		p.rec.Forget(pkg.path, name)
		delete(pkg.tests, name)
		pkg.failed--
	}
	if e.Action == "pass" && pkg.failed > 0 {
		// A binary that passed has no failed test, unless its TestMain
		// says so against them (m.Run(); os.Exit(0)): the failed tests a
		// test ran itself (testing.RunTests in a test framework's own
		// suite, testify's), which expected them to fail, are left out;
		// the others failed, whatever the binary's status.
		var swallowed []string
		for name, t := range pkg.tests {
			if t.status != report.TestFailed {
				continue
			}
			top, _, _ := strings.Cut(name, "/")
			if tt := pkg.tests[top]; tt != nil && tt.nested {
				p.rec.Forget(pkg.path, name)
				delete(pkg.tests, name)
				pkg.failed--
			} else if name == top {
				swallowed = append(swallowed, name)
			}
		}
		if len(swallowed) > 0 {
			sort.Strings(swallowed)
			p.unrun = append(p.unrun, fmt.Sprintf("%s's test binary exited 0 although %s failed: does its TestMain ignore m.Run's result (os.Exit(0) after m.Run())? go test says ok",
				cmp.Or(pkg.path, "the package"), kit.ClipTo(strings.Join(swallowed, ", "), 200, "…")))
		}
	}
	// A panicking subtest reports its failure before its panic is printed
	// (under its parent's name): give it the panic now, recording it again.
	if tr != nil && tr.test != "" {
		// Under -count=N, only when this run's failure is the one recorded.
		if t := pkg.tests[tr.test]; t != nil && t.status == report.TestFailed && !t.traced && t.rep.failedIn[0] == t.rep.ended {
			f := p.traceFailure(tr, tr.test)
			f.Rerun = p.traceRerun(pkg.path, tr, tr.test)
			t.traced = true
			if !t.rep.recorded {
				p.recorded = append(p.recorded, goTestID{pkg, tr.test})
			}
			t.rep.recorded, t.rep.message = true, f.Message
			p.rec.End(pkg.path, tr.test, report.TestFailed, t.elapsed, f)
			p.tally(pkg, tr.test, t)
		}
	}
	if e.Action == "pass" {
		p.noteUnrun(pkg)
	}
	if e.Action != "fail" {
		return
	}
	if tr != nil && p.crash == nil {
		p.crash = tr.crash()
	}
	p.pkgFailed = true
	if pkg.failed > 0 || pkg.build {
		return
	}
	name := pkg.path
	if name == "" {
		name = "package"
	}
	var f *report.Failure
	switch {
	case tr != nil:
		f = p.traceFailure(tr, "")
	case len(pkg.races) > 0:
		f = p.packageRace(pkg)
	default:
		f = p.goleakFailure(pkg, "", " after the tests passed (goleak.VerifyTestMain)", pkg.leak)
	}
	if f == nil {
		f = p.mainFailure(pkg)
	}
	if f.Rerun == "" {
		f.Rerun = p.rerunCommand(pkg.path, "")
	}
	p.rec.Output(pkg.path, name, strings.Join(pkg.out, "\n")+"\n")
	p.end(pkg, name, report.TestFailed, kit.DurationOf(e.Elapsed), f)
}

// mainFailure is the failure of a package that failed outside its tests
// without a panic, a race or a leak: what it printed, at its TestMain when
// that exited non-zero before m.Run or after it ran to its end.
func (p *goParser) mainFailure(pkg *goPackage) *report.Failure {
	var lines []string
	for _, l := range pkg.out {
		if !strings.HasPrefix(l, "FAIL") && l != "PASS" {
			lines = append(lines, l)
		}
	}
	said := strings.TrimSpace(strings.Join(lines, "\n"))
	f := &report.Failure{Message: said}
	if pkg.summary || len(pkg.tests) == 0 { // else it died between tests, which noteDied tells
		f.File, f.Line = p.funcAt(pkg.path, "TestMain")
	}
	if f.File != "" {
		switch {
		case !pkg.summary:
			f.Message = "TestMain exited with a failure before running any test (none of the package's tests ran)"
		case len(pkg.tests) > 0:
			f.Message = "the tests passed, then TestMain exited with a failure"
		default:
			f.Message = "m.Run ran no test, then TestMain exited with a failure"
		}
		if said != "" {
			f.Message += "; it printed:\n" + said
		}
	}
	f.Message = kit.Clip(cmp.Or(f.Message, "the package failed outside any test"))
	return f
}

// noteDied notes a package whose test binary died before its end: it
// failed without printing testing's own "PASS" or "FAIL" line, after its
// tests began or with a dying report. The tests it had not reached never
// ran, and go test's counts leave them out; nobody knows how many.
func (p *goParser) noteDied(pkg *goPackage, e *goEvent) {
	tr := pkg.trace
	if e.Action != "fail" || pkg.build || pkg.summary || tr == nil && len(pkg.tests) == 0 {
		return
	}
	test := ""
	switch {
	case tr != nil && tr.timeout:
		// The alarm ended every test still running: the crash names them.
	case tr != nil && tr.test != "":
		test = tr.test
	case len(pkg.running) > 0:
		test = pkg.running[len(pkg.running)-1]
	}
	how := "exited (os.Exit or log.Fatal?)"
	switch {
	case tr != nil && tr.timeout:
		how = "was ended by go test's -timeout (" + tr.header + ")"
	case tr != nil:
		how = "died (" + kit.ClipTo(tr.header, 80, "…") + ")"
	}
	name := cmp.Or(pkg.path, "the package")
	var msg string
	switch {
	case test != "":
		msg = fmt.Sprintf("%s's test binary %s in %s: its tests after that did not run and are in no count", name, how, test)
	case len(pkg.tests) > 0:
		msg = fmt.Sprintf("%s's test binary %s: its tests not yet started did not run and are in no count", name, how)
	default:
		msg = fmt.Sprintf("%s's test binary %s before its tests: none of them ran", name, how)
	}
	p.died = append(p.died, msg)
}

// noteUnrun notes a package that passed without running its tests: its
// binary ended without testing's "PASS" line (which even a -run that
// matches nothing prints) and no test started, as when TestMain exits 0
// before m.Run because what its tests need is not there. go test says ok;
// the answer says why nothing ran, in TestMain's own words.
func (p *goParser) noteUnrun(pkg *goPackage) {
	if pkg.summary || len(pkg.tests) > 0 || slices.ContainsFunc(p.rerun, goListFlag) {
		return
	}
	var said []string
	for _, l := range pkg.out {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "ok ") {
			said = append(said, l)
		}
	}
	if len(said) == 1 && noTestFilesCover(pkg.path, said[0]) {
		return // no test files, and no test binary: nothing was skipped
	}
	msg := cmp.Or(pkg.path, "the package") + "'s TestMain exited before running its tests"
	if len(said) > 0 {
		msg += " (printed: " + kit.ClipTo(strings.Join(said, " "), 200, "…") + ")"
	}
	p.unrun = append(p.unrun, msg)
}

// noTestFilesCover says whether a line is go test's own for a package
// without test files under -cover ("PKG\t\tcoverage: 0.0% of statements",
// trimmed), which it prints instead of "? PKG [no test files]" and passes
// without building a test binary.
func noTestFilesCover(pkg, line string) bool {
	rest, ok := strings.CutPrefix(line, pkg+"\t")
	return ok && pkg != "" && strings.HasPrefix(strings.TrimLeft(rest, "\t"), "coverage: ")
}

// goListFlag says whether a go test argument is -list, whose binary lists
// the tests and exits without running them or printing "PASS".
func goListFlag(a string) bool {
	name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
	return strings.HasPrefix(a, "-") && name == "list"
}

// traceLine follows a package's output for a panic, a runtime fatal error
// or a signal, and reads the stack that follows it.
func (p *goParser) traceLine(pkg *goPackage, test, line string) {
	tr := pkg.trace
	if tr == nil {
		if tr = newGoTrace(line); tr == nil {
			return
		}
		tr.test = test
		// testing reports a panicking test and its parents failed before it
		// prints the panic, so the panic lands in the outermost's output.
		// The test that panicked is the subtest failed just before, or
		// else the one that started last, when it is theirs and did not
		// pass (parallel siblings start after it and pause: the last to
		// start need not be the one that panicked).
		if name := panicked(pkg, test); test != "" && name != "" {
			tr.test = name
		} else if name := panickedBefore(pkg); name != "" {
			tr.test = name
		} else if last := pkg.tests[pkg.lastRun]; test != "" && last != nil && strings.HasPrefix(pkg.lastRun, test+"/") && last.status != report.TestPassed && last.status != report.TestSkipped {
			tr.test = pkg.lastRun
		}
		// A test paused in t.Parallel is waiting, not running.
		tr.running = slices.DeleteFunc(slices.Clone(pkg.running), func(name string) bool {
			t := pkg.tests[name]
			return t != nil && t.paused
		})
		pkg.trace = tr
		return
	}
	if strings.HasPrefix(line, "signal: ") && tr.exitSignal == "" {
		tr.exitSignal = kit.SignalByText(strings.TrimPrefix(line, "signal: "))
	}
	if tr.bubble != nil {
		p.bubbleLine(tr.bubble, line)
	}
	if tr.done {
		return
	}
	if tr.lines++; tr.lines > goTraceLines {
		tr.done = true
		return
	}
	if _, _, ok := format.GoroutineHeader(line); ok {
		tr.goroutines++
		if tr.hit {
			tr.done = true
			return
		}
		tr.inMessage = false
		tr.goroutine, tr.fn, tr.skipFile = nil, "", false
		return
	}
	if tr.inMessage {
		switch {
		case line == "":
			tr.inMessage = false
		case strings.HasPrefix(line, "\tpanic: "), strings.HasPrefix(line, "PC="):
			// Older Go's repeat of a recovered panic; a dump's registers.
		default:
			if m := goSignalLine.FindStringSubmatch(line); m != nil && tr.signal == "" {
				tr.signal = m[1]
			}
			tr.message = append(tr.message, line)
		}
		return
	}
	switch file, n, ok := format.GoFrameFile(line); {
	case ok:
		if tr.fn != "" && !tr.skipFile {
			tr.goroutine = append(tr.goroutine, goFrame{fn: tr.fn, file: file, line: n})
			// The first goroutine with the project's code in it is the one
			// that tells where: the panicking goroutine, or for a timeout
			// the test's goroutine rather than the alarm's.
			if _, ok := p.projectFile(file, tr.fn); ok {
				tr.hit = true
			}
			if tr.hit {
				tr.frames = tr.goroutine
			}
		}
		tr.fn, tr.skipFile = "", false
	case strings.HasPrefix(line, "created by "):
		tr.fn, tr.skipFile = "", true
		if tr.starter == "" && tr.goroutines == 1 && !tr.timeout {
			fn, _, _ := strings.Cut(strings.TrimPrefix(line, "created by "), " in goroutine ")
			if tr.starter = goTestOf(pkg, fn); tr.starter == "" {
				tr.starter = p.helperCaller(pkg, fn)
			}
		}
	case line == "" && tr.hit:
		tr.done = true
	case line != "" && !strings.HasPrefix(line, "\t"):
		tr.fn = format.GoFuncName(line)
		if tr.starter == "" && tr.goroutines == 1 && !tr.timeout {
			if strings.HasPrefix(tr.fn, "testing.tRunner.func1") {
				tr.inRunner = true
			}
			tr.starter = goTestOf(pkg, tr.fn)
			if tr.starter != "" && tr.inRunner && tr.test != tr.starter && !strings.HasPrefix(tr.test, tr.starter+"/") {
				// testing recovered the panic in the test's own goroutine
				// and raised it again: it is that test's (or its failed
				// subtest's), whatever test the output was pinned on (a
				// parallel test reported failed before the panic, after a
				// sibling's failure: the panic went to the sibling).
				tr.test = cmp.Or(panicked(pkg, tr.starter), tr.starter)
			}
		}
	}
}

// goTestOf returns the top-level test that a function of a stack is, or
// is a closure of: a TestXxx of the package (or of its _test package) that
// ran in this binary; "" for any other function.
func goTestOf(pkg *goPackage, fn string) string {
	path := goPackageOf(fn)
	if path != pkg.path && path != pkg.path+"_test" || len(fn) <= len(path)+1 {
		return ""
	}
	top, _, _ := strings.Cut(fn[len(path)+1:], ".")
	if !strings.HasPrefix(top, "Test") || pkg.tests[top] == nil {
		return ""
	}
	return top
}

// helperCaller is the one top-level test that ran in this binary and calls
// fn, a function of the package's own that started a goroutine (a test's
// helper: "created by example.com/m.startWorker"), found by its name in
// the package's _test.go files; "" when no test or several do.
func (p *goParser) helperCaller(pkg *goPackage, fn string) string {
	path := goPackageOf(fn)
	if path != pkg.path && path != pkg.path+"_test" || len(fn) <= len(path)+1 {
		return ""
	}
	name := fn[len(path)+1:]
	if i := strings.LastIndex(name, ")."); i >= 0 {
		name = name[i+2:] // a method: (*pool).start
	}
	name, _, _ = strings.Cut(name, ".") // a closure in it: startWorker.func1
	dir, ok := p.pkgDir(pkg.path)
	if !ok || name == "" {
		return ""
	}
	files, _ := filepath.Glob(filepath.Join(p.root, dir, "*_test.go"))
	calls := regexp.MustCompile(`(?:^|[^\w])` + regexp.QuoteMeta(name) + `\(`)
	var callers []string
	for _, path := range files {
		src, _ := p.sourceLines(filepath.Join(dir, filepath.Base(path)))
		test := ""
		for _, l := range src.lines {
			switch {
			case strings.HasPrefix(l, "func Test"):
				test, _, _ = strings.Cut(strings.TrimPrefix(l, "func "), "(")
				if pkg.tests[test] == nil {
					test = "" // not a test that ran here
				}
				l = l[strings.IndexByte(l, '(')+1:] // a one-line body
			case l == "}":
				test = ""
			}
			if test != "" && calls.MatchString(l) && !slices.Contains(callers, test) {
				callers = append(callers, test)
			}
		}
	}
	if len(callers) != 1 {
		return ""
	}
	return callers[0]
}

// otherStarter is the test that started the panicking goroutine when that
// is not test (nor its parent): the panic is that test's doing.
func (tr *goTrace) otherStarter(test string) string {
	top, _, _ := strings.Cut(test, "/")
	if tr.starter == "" || test == "" || tr.starter == top {
		return ""
	}
	return tr.starter
}

// traceRerun reruns the test a trace failed, and the test that started
// the panicking goroutine before it, which the panic needs.
func (p *goParser) traceRerun(importPath string, tr *goTrace, test string) string {
	s := tr.otherStarter(test)
	if s == "" {
		return p.rerunCommand(importPath, test)
	}
	top, _, _ := strings.Cut(test, "/")
	return p.rerunRun(importPath, "^("+regexp.QuoteMeta(s)+"|"+regexp.QuoteMeta(top)+")$")
}

// newGoTrace recognises the first line of a dying test binary's report.
func newGoTrace(line string) *goTrace {
	if !maybeGoTrace(line) {
		return nil
	}
	tr := &goTrace{header: line, inMessage: true}
	switch {
	case strings.HasPrefix(line, "panic: "):
		tr.header = goRecovered.ReplaceAllString(line, "")
		tr.timeout = strings.HasPrefix(line, "panic: test timed out after ")
		if goBubbleDeadlock(tr.header) {
			tr.bubble = &goBubble{}
		}
	case strings.HasPrefix(line, "fatal error: "):
		tr.fatal = true
	case isGoSignalDump(line):
		tr.fatal = true
		tr.signal = goSignalDump.FindStringSubmatch(line)[1]
	case strings.HasPrefix(line, "signal: "):
		tr.exitSignal = kit.SignalByText(strings.TrimPrefix(line, "signal: "))
		if tr.exitSignal == "" {
			return nil
		}
		tr.inMessage = false
	default:
		return nil
	}
	tr.message = []string{tr.header}
	return tr
}

// goPackageOf returns the import path of a function name.
func goPackageOf(fn string) string {
	slash := strings.LastIndexByte(fn, '/')
	if i := strings.IndexByte(fn[slash+1:], '.'); i >= 0 {
		return fn[:slash+1+i]
	}
	return fn
}

// projectFile returns a stack frame's file relative to the project root
// when the frame is the project's code.
func (p *goParser) projectFile(file, fn string) (string, bool) {
	if goGeneratedFile(file) {
		return "", false
	}
	if filepath.IsAbs(file) {
		rel, ok := kit.Rel(p.root, file)
		return filepath.ToSlash(rel), ok
	}
	// A relative file is printed by binaries built with -trimpath (module
	// path and file) or for files named on the command line.
	for _, m := range p.mods {
		if rest, ok := strings.CutPrefix(file, m.path+"/"); ok {
			return filepath.ToSlash(filepath.Join(m.dir, rest)), true
		}
	}
	pkg := goPackageOf(fn)
	first, _, _ := strings.Cut(pkg, "/")
	if strings.Contains(first, ".") || pkg == "command-line-arguments" {
		return file, true // not the standard library
	}
	return "", false
}

// goGeneratedFile: a frame's file the toolchain wrote, in no directory of
// the project's: cgo's `_cgo_gotypes.go` (the `_Cfunc_` wrappers a crash in
// C code is under), the compiler's `<autogenerated>`.
func goGeneratedFile(file string) bool {
	return strings.HasPrefix(file, "<") || strings.HasPrefix(filepath.Base(file), "_cgo_")
}

// traceFailure is the failure a trace explains: the first frame of the
// project's code, the panic's message, and the project's functions of the
// stack as suggested traces (the test function itself left out).
func (p *goParser) traceFailure(tr *goTrace, test string) *report.Failure {
	msg := tr.message
	if s := tr.otherStarter(test); s != "" {
		note := fmt.Sprintf("(the panic is in a goroutine that %s started: it ran on after %s ended, so %s only happened to be running; a rerun needs both)", s, s, test)
		msg = append([]string{msg[0], note}, msg[1:]...)
	}
	bubble := ""
	if tr.bubble != nil {
		bubble = tr.bubble.message()
	}
	if bubble != "" {
		msg = append(slices.Clip(msg), bubble)
	}
	f := &report.Failure{Message: kit.Clip(strings.Join(msg, "\n"))}
	if bubble != "" {
		f.File, f.Line = tr.bubble.blocked[0].at.path, tr.bubble.blocked[0].at.line
	}
	top, _, _ := strings.Cut(test, "/")
	seen := map[string]bool{}
	// An assertion helper of the tests that panicked on purpose, and where.
	var helper, helperFile, callerPkg string
	var helperLine int
	for _, fr := range tr.frames {
		file, ok := p.projectFile(fr.file, fr.fn)
		if !ok {
			continue
		}
		_, local, _ := strings.Cut(fr.fn[strings.LastIndexByte(fr.fn, '/')+1:], ".")
		ofTest := top != "" && (local == top || strings.HasPrefix(local, top+"."))
		if f.File == "" && helper == "" && !ofTest && p.panicsOnPurpose(file, fr.line) {
			// `func assert(t, ok bool) { if !ok { panic("assert failed") } }`
			// in a _test.go file, called by dozens of lines (tidwall/gjson):
			// its line says nothing of which assertion failed; the line
			// that called it does.
			helper = fmt.Sprintf("(panicked in %s at %s:%d)", local, file, fr.line)
			helperFile, helperLine = file, fr.line
			continue
		}
		if f.File == "" {
			f.File, f.Line = file, fr.line
			if helper != "" {
				callerPkg = strings.TrimSuffix(goPackageOf(fr.fn), "_test")
			}
		}
		if local == "main" || ofTest || seen[fr.fn] {
			continue
		}
		seen[fr.fn] = true
		if len(f.SuggestedTraces) < goTraces {
			f.SuggestedTraces = append(f.SuggestedTraces, fr.fn)
		}
	}
	if helper != "" {
		if f.File == "" { // no caller in the project: the helper's line, as before
			f.File, f.Line = helperFile, helperLine
		} else {
			f.Message = kit.Clip(f.Message + "\n" + helper)
			if len(f.SuggestedTraces) == 0 && callerPkg != "" {
				// What the assertion's line calls, as for a t.Errorf's.
				f.SuggestedTraces = p.callTraces(callerPkg, f.File, f.Line, test)
			}
		}
	}
	return f
}

// panicsOnPurpose says whether a project file's line, a frame of a
// panic's stack, is an assertion helper's own call of panic: a line of a
// _test.go file that calls panic( itself, in a function handed the test
// (a testing.TB, *testing.T parameter), as t.Helper's helpers are. A
// helper not handed the test (a fixture loader that panics on an unknown
// name) keeps its panic at its own line.
func (p *goParser) panicsOnPurpose(file string, line int) bool {
	if !strings.HasSuffix(file, "_test.go") {
		return false
	}
	src, ok := p.sourceLines(file)
	if !ok || line < 1 || line > len(src.lines) || !goPanicCall.MatchString(src.lines[line-1]) {
		return false
	}
	for i := line - 1; i >= 0; i-- {
		if strings.HasPrefix(src.lines[i], "func ") {
			return goTestingParam.MatchString(src.lines[i])
		}
	}
	return false
}

var (
	goPanicCall    = lazyre.New(`(?:^|[^\w.])panic\(`)
	goTestingParam = lazyre.New(`\btesting\.(?:TB|T|B|F)\b`)
)

// crash reads crash evidence from a trace; nil for a plain panic, which
// is a failure of its test and not a crash. Its exit code is left to
// Finish: the process strobe ran is go test, which exits 1 however its
// test binary ended. A signal the Go runtime caught (a nil dereference's
// SIGSEGV, turned into a panic; a SIGABRT dump, after which the binary
// exits 2) is evidence, named in the message and the crash's type, not a
// signal anything died of; a test binary that go test saw die of a signal
// ("signal: killed") did.
func (tr *goTrace) crash() *report.Crash {
	c := &report.Crash{Message: kit.Clip(strings.Join(tr.message, "\n")), RunningTests: tr.running}
	if tr.test != "" && !slices.Contains(c.RunningTests, tr.test) {
		c.RunningTests = append(c.RunningTests, tr.test)
	}
	sig, indicator := tr.signal, "go_runtime_signal"
	if sig == "" && tr.exitSignal != "" {
		sig, indicator = tr.exitSignal, "test_binary_signaled"
	}
	switch {
	case sig != "":
		c.Type = kit.CrashType(sig)
		if n := kit.SignalNumber(sig); n != 0 && indicator == "test_binary_signaled" {
			c.Signal, c.SignalName = n, sig
		}
		c.Indicators = []string{indicator}
	case tr.timeout:
		c.Type, c.Indicators = report.CrashTimeout, []string{"go_test_timeout"}
		c.RunningTests = nil
		for _, l := range tr.message[1:] {
			if l = strings.TrimSpace(l); l != "running tests:" {
				name, _, _ := strings.Cut(l, " (")
				c.RunningTests = append(c.RunningTests, name)
			}
		}
	case tr.fatal:
		c.Type, c.Indicators = report.CrashUnknown, []string{"go_runtime_fatal_error"}
	default:
		return nil
	}
	return c
}

// textLine reads a line that is not a test2json event. Before Go 1.24 the
// go command printed build and vet errors on stderr, under a "# pkg"
// header; whatever else it says there explains a run that never started.
func (p *goParser) textLine(line string) {
	if line == "" {
		return
	}
	if len(p.text) < goKeptLines {
		p.text = append(p.text, line)
	}
	if pkg, ok := strings.CutPrefix(line, "# "); ok {
		p.textPkg, p.textErr, p.textVet = strings.Trim(pkg, "[]"), false, strings.HasPrefix(pkg, "[")
		return
	}
	if p.textErr && (line[0] == '\t' || line[0] == ' ') {
		last := &p.buildErrs[len(p.buildErrs)-1]
		last.Message = addLine(last.Message, line)
		return
	}
	p.textErr = false
	if be, ok := p.buildError(p.textPkg, line); ok {
		be.Message = vetMessage(p.textVet, be.Message)
		p.buildErrs = append(p.buildErrs, be)
		p.buildFailed, p.textErr = true, true
	}
}

// vetMessage heads an error go vet found with "go vet: ": go test runs vet
// before the tests, and a package it fails does not test, although it
// compiles.
func vetMessage(vet bool, msg string) string {
	if vet {
		return "go vet: " + msg
	}
	return msg
}

// buildErrors reads a package's build output: compiler or vet errors with
// their continuation lines, and any other message as an error without a
// location.
func (p *goParser) buildErrors(importPath string, lines []string) {
	n := len(p.buildErrs)
	vet := false // under vet's "# [pkg]" header, not the compiler's "# pkg"
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "# "):
			vet = strings.HasPrefix(l, "# [")
		case l == "" || l == "too many errors":
		case l[0] == '\t' || l[0] == ' ':
			if len(p.buildErrs) > n {
				last := &p.buildErrs[len(p.buildErrs)-1]
				last.Message = addLine(last.Message, l)
			}
		default:
			be, ok := p.buildError(importPath, l)
			if !ok {
				be = report.BuildError{Message: kit.Clip(l)}
			}
			be.Message = vetMessage(vet, be.Message)
			p.buildErrs = append(p.buildErrs, be)
		}
	}
	if len(p.buildErrs) == n {
		p.buildErrs = append(p.buildErrs, report.BuildError{Message: "package " + goImportPath(importPath) + " failed to build"})
	}
}

// buildError parses "file.go:line:col: message", the path made relative to
// the project root. The go command prints paths relative to the directory
// it runs in, which for strobe is the project root; output recorded
// elsewhere is tried against the package's directory.
func (p *goParser) buildError(importPath, line string) (report.BuildError, bool) {
	m := goBuildLine.FindStringSubmatch(line)
	if m == nil {
		return report.BuildError{}, false
	}
	n, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	file := filepath.Clean(m[1])
	switch {
	case filepath.IsAbs(file):
		if rel, ok := p.projectFile(file, ""); ok {
			file = rel
		}
	case kit.FileExists(filepath.Join(p.root, file)):
	default:
		if dir, ok := p.pkgDir(goImportPath(importPath)); ok && kit.FileExists(filepath.Join(p.root, dir, file)) {
			file = filepath.Join(dir, file)
		}
	}
	return report.BuildError{File: filepath.ToSlash(file), Line: n, Column: col, Message: kit.Clip(m[4])}, true
}

// goImportPath strips the decorations of a build event's ImportPath:
// "example.com/m/lib [example.com/m/lib.test]" and "example.com/m/lib.test"
// are example.com/m/lib.
func goImportPath(s string) string {
	s, _, _ = strings.Cut(s, " ")
	return strings.TrimSuffix(s, ".test")
}

// pkgDir returns the directory of a package relative to the project root.
func (p *goParser) pkgDir(importPath string) (string, bool) {
	for _, m := range p.mods {
		if importPath == m.path {
			return m.dir, true
		}
		if rest, ok := strings.CutPrefix(importPath, m.path+"/"); ok {
			return filepath.Join(m.dir, rest), true
		}
	}
	// Outside module mode a package in a directory is named "_/abs/dir".
	if dir, ok := strings.CutPrefix(importPath, "_"); ok && filepath.IsAbs(dir) {
		if rel, ok := p.projectFile(dir, ""); ok {
			return rel, true
		}
	}
	return "", false
}

// funcAt finds `func name(` in the _test.go files of a package of the
// project: the file, relative to the project root, and the line.
func (p *goParser) funcAt(importPath, name string) (string, int) {
	dir, ok := p.pkgDir(importPath)
	if !ok {
		return "", 0
	}
	files, _ := filepath.Glob(filepath.Join(p.root, dir, "*_test.go"))
	for _, path := range files {
		rel := filepath.Join(dir, filepath.Base(path))
		src, _ := p.sourceLines(rel)
		for i, l := range src.lines {
			if strings.HasPrefix(l, "func "+name+"(") {
				return filepath.ToSlash(rel), i + 1
			}
		}
	}
	return "", 0
}

// testFile resolves the bare file name testing prints (t.Error) to a path
// relative to the project root, when the file is in the package's
// directory; a helper elsewhere keeps its bare name.
func (p *goParser) testFile(importPath, base string) string {
	if dir, ok := p.pkgDir(importPath); ok {
		rel := filepath.Join(dir, base)
		if kit.FileExists(filepath.Join(p.root, rel)) {
			return filepath.ToSlash(rel)
		}
	}
	return base
}

// Rerun (adapters.Reruner): a test's suite is its package's import path.
func (p *goParser) Rerun(suite, name string) string {
	return p.rerunCommand(suite, name)
}

// rerunCommand is a command to paste in the project root that runs the
// test again (the whole package when test is empty).
func (p *goParser) rerunCommand(importPath, test string) string {
	top, _, _ := strings.Cut(test, "/")
	if strings.HasPrefix(top, "Benchmark") && slices.ContainsFunc(p.rerun, func(w string) bool { return goFlagName(w) == "bench" }) {
		// A benchmark runs under -bench, not -run: that one, and no test.
		var words []string
		for i := 0; i < len(p.rerun); {
			name, w := goArg(p.rerun, i)
			i += len(w)
			if name != "bench" {
				words = append(words, w...)
			}
		}
		return p.rerunFrom(append(words, "-bench", goRunPattern(test)), importPath, "^$")
	}
	run := ""
	if test != "" {
		run = goRunPattern(test)
		if pkg := p.pkgs[importPath]; pkg != nil && pkg.shuffle != "" {
			run = pkg.shuffledRun(test)
		}
	}
	return p.rerunRun(importPath, run)
}

// shuffled is the run's order under -shuffle: each shuffled package's seed
// and the command that runs it again in that order (the packages that
// failed, when some did), nil when no package was shuffled. Each package
// draws its own seed under -shuffle=on: Seed is set only when they share
// one.
func (p *goParser) shuffled() *report.Shuffle {
	var all, failed []*goPackage
	for _, pkg := range p.pkgs {
		if pkg.shuffle != "" {
			all = append(all, pkg)
			if pkg.failed > 0 {
				failed = append(failed, pkg)
			}
		}
	}
	if len(failed) > 0 {
		all = failed
	}
	if len(all) == 0 {
		return nil
	}
	slices.SortFunc(all, func(a, b *goPackage) int { return strings.Compare(a.path, b.path) })
	sh := &report.Shuffle{}
	cmds := make([]string, len(all))
	for i, pkg := range all {
		cmds[i] = p.rerunRun(pkg.path, "")
	}
	sh.Command = strings.Join(cmds, "; ")
	if !slices.ContainsFunc(all, func(pkg *goPackage) bool { return pkg.shuffle != all[0].shuffle }) {
		sh.Seed = all[0].shuffle // one package, or one seed given to all
	}
	return sh
}

// goShuffledBefore bounds the tests a shuffled package's rerun names
// before the failed one; with more, it runs the whole package.
const goShuffledBefore = 8

// shuffledRun is the -run pattern that repeats a shuffled package's order
// up to a test: the top-level tests that started before it and the test.
// testing shuffles all its tests before -run filters them, so with the
// same seed the ones kept run in the same order; "" (the whole package)
// when too many started before it.
func (pkg *goPackage) shuffledRun(test string) string {
	top, _, _ := strings.Cut(test, "/")
	i := slices.Index(pkg.order, top)
	if i < 0 {
		return goRunPattern(test)
	}
	switch {
	case i == 0:
		return goRunPattern(test)
	case i > goShuffledBefore:
		return ""
	}
	return "^(" + strings.Join(quoteAll(pkg.order[:i+1]), "|") + ")$"
}

// goFailFast says whether a go test word turns -failfast on.
func goFailFast(w string) bool {
	return goFlagName(w) == "failfast" && !strings.HasSuffix(w, "=false")
}

// goFlagName is the name of a go test flag word ("-bench=." is bench),
// "" for a word that is no flag.
func goFlagName(w string) string {
	if !strings.HasPrefix(w, "-") {
		return ""
	}
	name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
	return name
}

// rerunRun is a command to paste in the project root that runs a
// package's tests that match a -run pattern (all of them when run is
// empty).
func (p *goParser) rerunRun(importPath, run string) string {
	return p.rerunFrom(p.rerun, importPath, run)
}

// rerunFrom is rerunRun from another start than p.rerun ("go test [flags]").
func (p *goParser) rerunFrom(start []string, importPath, run string) string {
	pkg := "./..."
	if dir, ok := p.pkgDir(importPath); ok {
		pkg = "./" + filepath.ToSlash(dir)
		if dir == "." {
			pkg = "."
		}
	} else if importPath != "" {
		pkg = importPath
	}
	words := append([]string{}, start...)
	if p := p.pkgs[importPath]; p != nil && p.shuffle != "" {
		// The seed go printed, so that the order repeats.
		words = words[:0]
		for i := 0; i < len(start); {
			name, w := goArg(start, i)
			i += len(w)
			if name != "shuffle" {
				words = append(words, w...)
			}
		}
		words = append(words, "-shuffle="+p.shuffle)
	}
	for i, w := range words {
		words[i] = shell.Quote(w)
	}
	if run != "" {
		words = append(words, "-run", "'"+strings.ReplaceAll(run, "'", `'\''`)+"'")
	}
	words = append(words, shell.Quote(pkg))
	return strings.Join(words, " ")
}

// addLine adds a continuation line to a message, without its indentation.
// Assertion libraries start the message on the line after file:line.
func addLine(msg, line string) string {
	if msg == "" {
		return kit.Clip(strings.TrimSpace(line))
	}
	return kit.Clip(msg + "\n" + strings.TrimSpace(line))
}

func (p *goParser) Finish(exit report.Exit) adapters.Outcome {
	if exit.StoppedBy == "" {
		for _, q := range p.quit {
			p.packageEnd(q.pkg, &q.e)
		}
	}
	if p.buildFailed && len(p.buildErrs) == 0 {
		// Build output whose build-fail never came (the stream was cut
		// short), else whatever the go command said.
		paths := make([]string, 0, len(p.build))
		for path := range p.build {
			paths = append(paths, path)
		}
		sort.Strings(paths)
		for _, path := range paths {
			p.buildErrors(path, p.build[path])
		}
		if len(p.buildErrs) == 0 {
			msg := strings.Join(append(p.buildLines, p.text...), "\n")
			p.buildErrs = []report.BuildError{{Message: kit.Clip(msg)}}
		}
	}
	out := adapters.Outcome{BuildFailed: p.buildFailed, BuildErrors: p.buildErrs}
	if len(p.died) > 0 {
		out.Indicators = append(out.Indicators, report.IndicatorBinaryDied)
		hints := p.died
		if len(hints) > 3 {
			hints = append(hints[:3:3], fmt.Sprintf("and %d more packages' binaries died", len(p.died)-3))
		}
		out.Hint = strings.Join(hints, "; ")
	}
	if len(p.unrun) > 0 {
		out.Hint = strings.TrimPrefix(out.Hint+"; "+strings.Join(p.unrun, "; "), "; ")
	}
	if p.firstFail != "" && slices.ContainsFunc(p.rerun, goFailFast) {
		ran := 0
		for _, pkg := range p.pkgs {
			if !pkg.build && len(pkg.tests) > 0 {
				ran++
			}
		}
		h := fmt.Sprintf("-failfast stopped go test at the first failure (%s): the tests after it in its package and the packages not yet started did not run and are in no count (go test prints nothing for them; %d %s); run without -failfast to see every failure", p.firstFail, ran, map[bool]string{true: "package ran tests", false: "packages ran tests"}[ran == 1])
		out.Hint = strings.TrimPrefix(out.Hint+"; "+h, "; ")
	}
	if h := p.repeatHint(); h != "" {
		out.Hint = strings.TrimPrefix(out.Hint+"; "+h, "; ")
	}
	if exit.StoppedBy != "" {
		if h := p.notRun(exit.StoppedBy); h != "" {
			out.Hint = strings.TrimPrefix(out.Hint+"; "+h, "; ")
		}
	}
	out.Shuffle = p.shuffled()
	if p.crash != nil {
		c := *p.crash
		c.ExitCode = exit.Code
		out.Crash = &c
	}
	if out.BuildFailed || out.Crash != nil || p.pkgFailed {
		return out
	}
	if p.tests > 0 {
		if parent := p.parentOnly(); parent != "" {
			// -run matched the parents of the subtest asked for, which
			// ran and passed, and none of their subtests: go says ok.
			out.NoTests = true
			out.Hint = strings.TrimPrefix(out.Hint+"; "+fmt.Sprintf("no subtest matched %q: %s ran, and none of its subtests (`%s` names them)",
				p.want, parent, shell.Join([]string{"go", "test", "-run", goRunPattern(parent), "-v", "./..."})), "; ")
		}
		return out
	}
	text := strings.Join(p.text, "\n")
	switch {
	case strings.Contains(text, "matched no packages") || strings.Contains(text, "no packages to test"):
		// go exits 1 for it: no package, so no test, nothing broken.
		out.NoTests, out.ExitExplained = true, true
		out.Hint = strings.TrimPrefix(out.Hint+"; "+"go test found no package to test (go: `no packages to test`): no .go file is under the packages it was given", "; ")
		out.Project = &report.Project{Language: "go", BuildSystem: "go modules", TestFiles: goTestFiles(p.root)}
		return out
	case exit.Exited && exit.Code == 0:
	case exit.Exited && text != "":
		// The go command gave up before testing (a bad go.mod, a go version
		// it cannot provide, a pattern that matches nothing it can build).
		out.BuildFailed = true
		out.BuildErrors = []report.BuildError{{Message: kit.Clip(text)}}
		return out
	default:
		return out
	}
	out.NoTests = true
	if len(p.unrun) == 0 {
		out.Hint = p.hint
	}
	out.Project = &report.Project{Language: "go", BuildSystem: "go modules", TestFiles: goTestFiles(p.root)}
	return out
}

// notRun says, for a run strobe stopped (stuck, timeout), what it left
// unrun: the tests of the packages it stopped in that had not run yet, and
// the packages not yet tested, of which go test prints nothing; and, for a
// run of the whole suite, how to run the rest without the tests that hung
// (-skip). "" when no test was running.
func (p *goParser) notRun(by string) string {
	var pkgs, tops []string
	for _, path := range slices.Sorted(maps.Keys(p.pkgs)) {
		pkg := p.pkgs[path]
		hung := false
		for _, name := range pkg.running {
			if t := pkg.tests[name]; t == nil || t.paused {
				continue
			}
			hung = true
			if top, _, _ := strings.Cut(name, "/"); !slices.Contains(tops, top) {
				tops = append(tops, top)
			}
		}
		if hung {
			pkgs = append(pkgs, path)
		}
	}
	if len(tops) == 0 {
		return ""
	}
	h := fmt.Sprintf("go test was stopped at "+kit.StoppedAt(by)+": the tests of %s that had not run yet, and the packages not yet tested, did not run and are in no count", kit.JoinAnd(pkgs))
	if len(p.whole) > 0 {
		argv := append(slices.Clone(p.whole[:2]), "-skip", kit.ExactAny(tops))
		h += "; to run the rest without " + kit.StoppedWhat(by) + ": " + shell.Join(append(argv, p.whole[2:]...))
	}
	return h
}

// parentOnly is the deepest test that ran when every test that ran is a
// parent of the subtest asked for (--test): that subtest did not run.
// "" when it did, or when no subtest was asked for.
func (p *goParser) parentOnly() string {
	if p.want == "" {
		return ""
	}
	want := strings.ReplaceAll(p.want, " ", "_") // as testing rewrites a subtest's name
	deepest := ""
	for _, pkg := range p.pkgs {
		for name := range pkg.tests {
			if !strings.HasPrefix(want, name+"/") {
				return ""
			}
			if len(name) > len(deepest) {
				deepest = name
			}
		}
	}
	return deepest
}

// goRepeatNames bounds the tests -count=N's hint names.
const goRepeatNames = 3

// repeatHint says how a run of go test -count=N is counted, and which
// tests failed in some runs (flaky) or in all of them.
func (p *goParser) repeatHint() string {
	if p.runs < 2 || p.runsEnded == 0 {
		return ""
	}
	var flaky, always []string
	cut := false // a test failed in all the runs that ended, fewer than p.runs
	for _, id := range p.recorded {
		t := id.pkg.tests[id.name]
		if t == nil || p.pkgs[id.pkg.path] != id.pkg {
			continue // forgotten: run by a test itself
		}
		if k, n := t.rep.failed, t.rep.ended; k < n {
			flaky = append(flaky, fmt.Sprintf("%s (failed %d of %d)", id.name, k, n))
		} else {
			always = append(always, id.name)
			cut = cut || n < p.runs
		}
	}
	h := fmt.Sprintf("%s runs each test %d times", p.runsFlags, p.runs)
	if len(flaky) == 0 && len(always) == 0 {
		for _, pkg := range p.pkgs {
			for _, t := range pkg.tests {
				if t.rep.ended < p.runs {
					return "" // cut short: stuck, timed out, died
				}
			}
		}
		if p.runsFailed == 0 {
			return fmt.Sprintf("%s and all %d runs passed: the counts are of tests, each once", h, p.runsEnded)
		}
		return ""
	}
	h += fmt.Sprintf(": the counts are of tests, each once, failed when any of its runs failed (go test's JSON counts %d runs of tests and subtests, %d failed)", p.runsEnded, p.runsFailed)
	if k := len(flaky); k > 0 {
		h += fmt.Sprintf("; %d %s both passed and failed, so flaky — %s", k, map[bool]string{true: "test", false: "tests"}[k == 1], goNames(flaky))
	}
	if k := len(always); k > 0 {
		runs := fmt.Sprintf("all %d runs", p.runs)
		if cut {
			runs = "all the runs that ended"
		}
		h += fmt.Sprintf("; %d %s %s — %s", k, map[bool]string{true: "test failed", false: "tests failed"}[k == 1], runs, goNames(always))
	}
	return h + "; each rerun keeps " + p.runsFlags + ", so that a flaky failure can repeat"
}

// goNames lists the first goRepeatNames names.
func goNames(names []string) string {
	if len(names) > goRepeatNames {
		return strings.Join(names[:goRepeatNames], ", ") + fmt.Sprintf(" and %d more", len(names)-goRepeatNames)
	}
	return strings.Join(names, ", ")
}

// goTestFiles lists a few _test.go files of the project, to show whether
// tests exist that did not run.
func goTestFiles(root string) []string {
	var files []string
	visited := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || len(files) >= goProjectFiles || visited > 20000 {
			return fs.SkipAll
		}
		visited++
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "vendor" || name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, "_test.go") {
			if rel, err := filepath.Rel(root, path); err == nil {
				files = append(files, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	return files
}

// goInitFrame is a package's init function in a stack, with its place:
// "example.com/m/b.init.0 (b/b_test.go:9)"; not a method named init.
var goInitFrame = lazyre.New(`^([^\s()]+)\.init(?:\.\d+)? \(([^()]+):(\d+)\)$`)

// NameStuck names a test binary stuck in one of its package's init
// functions (adapters.StuckNamer): before its tests, so that no test was
// running, and the others' having finished read as a hang after the
// tests. Its stacks show runtime.doInit under the project's init.
func (p *goParser) NameStuck(_ context.Context, funcs []string) (adapters.StuckName, bool) {
	if !slices.ContainsFunc(funcs, func(f string) bool { return strings.HasPrefix(f, "runtime.doInit") }) {
		return adapters.StuckName{}, false
	}
	for _, f := range funcs {
		m := goInitFrame.FindStringSubmatch(f)
		if m == nil || !slices.ContainsFunc(p.mods, func(mod goModule) bool { return m[1] == mod.path || strings.HasPrefix(m[1], mod.path+"/") }) {
			continue
		}
		line, _ := strconv.Atoi(m[3])
		file := m[2]
		if filepath.IsAbs(file) {
			file = kit.ProjectPath(p.root, file)
		}
		return adapters.StuckName{Name: m[1] + " (in its init, before its tests ran)", File: file, Line: line, Rerun: p.rerunCommand(m[1], "")}, true
	}
	return adapters.StuckName{}, false
}

// goPathMode says whether the run's environment turns modules off
// (GO111MODULE=off), where go needs no go.mod.
func goPathMode(env []string) bool {
	v, _ := kit.EnvLookup(env, "GO111MODULE")
	return v == "off"
}
