package xcodebuild

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

// xcodebuild runs XCTest and Swift Testing suites of an Xcode project with
// `xcodebuild test` and reads its console as it streams.
//
//	xcodebuild test -workspace W | -project P -scheme S -destination D \
//	  -resultBundlePath DIR/Tests.xcresult -test-timeouts-enabled YES \
//	  [-only-testing:Target/Class/method] [-testPlan PLAN]
//
// The scheme comes from `xcodebuild -list -json` (the only one, or the one
// named like the project; several others are a usage error naming them).
// The destination is macOS for a project whose SDKROOT is macosx, otherwise
// an available iOS simulator from `xcrun simctl list -j devices available`
// (a booted iPhone first, else an iPhone of the newest runtime). A given
// `xcodebuild …` command keeps its own choices; the result bundle and
// -test-timeouts-enabled are added when it has none (XCTest's own test
// timeouts then end a hung test, which the stuck detector sees as output).
// Levels: a test plan named for the level (Unit*, Integration*, E2E*/UI*)
// when the project has one, else the test targets whose names say so.
//
// The console gives, line by line: the build's compiler errors (file:line:col,
// build_failed when no test ran), XCTest's "Test Suite"/"Test Case" lines
// (Objective-C -[Class method], Swift -[Module.Class method], the
// swift-corelibs Class.method and Xcode 26's "Test case 'Class.method()'"
// forms), XCTest assertion lines with file:line, Swift Testing's lines
// (◇ started, ✔ passed, ✘ failed, "recorded an issue at File.swift:17:9",
// skipped, in symbols or SF Symbols glyphs), "** TEST FAILED **", the
// "Testing failed:" summary (a target's error) and "Failing tests:" (every
// failed test, recorded when no line before did). A test named only by a
// parallel-testing line gets a rerun with its target from the log or the
// scheme, or none.
//
// Crash evidence, none of which may pass for success: the test runner
// crashing, the connection to it interrupted, "Early unexpected exit",
// the testing infrastructure failing (told apart from the code under test),
// a runner that never began testing, a bundle that failed to load, a
// simulator that did not boot, a restart after a crash (the test it names
// fails), Swift runtime traps (Fatal error, Precondition failed, force
// unwrapped nil), xcodebuild's exit codes 64–74 explained, a silent failure
// (non-zero exit and nothing parsed: the result bundle is read with
// xcresulttool), and crash reports: ~/Library/Logs/DiagnosticReports/*.ips
// written during the run, each parsed as a JSON header line and a JSON
// body, and kept only when its process is one the run launched and its
// capture time falls inside the run.
type xcodebuild struct{}

// New returns the xcodebuild adapter.
func New() adapters.Adapter { return xcodebuild{} }

func (xcodebuild) Name() string { return "xcodebuild" }

func isXcodebuild(argv []string) bool {
	return len(argv) > 0 && filepath.Base(argv[0]) == "xcodebuild"
}

func (xcodebuild) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		if isXcodebuild(req.Command) {
			return adapters.Detection{Confidence: 95, Hint: "the command is xcodebuild"}
		}
		return adapters.Detection{Hint: "xcodebuild: the command is not xcodebuild"}
	}
	ws, projs := xcodeContainers(req.ProjectRoot)
	switch {
	case len(ws) > 0:
		return adapters.Detection{Confidence: 90, Hint: "Xcode workspace found"}
	case len(projs) > 0:
		return adapters.Detection{Confidence: 90, Hint: "Xcode project found"}
	}
	return adapters.Detection{Hint: "xcodebuild: no .xcworkspace or .xcodeproj in the project root"}
}

// xcodeContainers lists the workspaces and projects in root (not the
// workspace every .xcodeproj holds inside itself).
func xcodeContainers(root string) (workspaces, projects []string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, nil
	}
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".xcworkspace":
			workspaces = append(workspaces, e.Name())
		case ".xcodeproj":
			projects = append(projects, e.Name())
		}
	}
	return workspaces, projects
}

// xcodeToolTimeout bounds xcodebuild -list and simctl during planning, and
// xcresulttool after the run.
var xcodeToolTimeout = 60 * time.Second

// xcodeTool runs a helper command in its own process group under a timeout.
func xcodeTool(ctx context.Context, dir string, env []string, argv ...string) ([]byte, error) {
	out, stderr, err := kit.RunTool(ctx, kit.Tool{Dir: dir, Env: env, Timeout: xcodeToolTimeout, MaxOutput: 16 << 20}, argv...)
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("%s did not answer within %v", shell.Join(argv), xcodeToolTimeout)
	}
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if len(stderr) > 0 {
			msg = strings.TrimSpace(string(stderr))
		}
		return out, fmt.Errorf("%s: %v %s", shell.Join(argv), err, kit.Clip(msg))
	}
	return out, nil
}

// xcodeList is what `xcodebuild -list -json` says.
type xcodeList struct {
	Project *struct {
		Name    string   `json:"name"`
		Schemes []string `json:"schemes"`
		Targets []string `json:"targets"`
	} `json:"project"`
	Workspace *struct {
		Name    string   `json:"name"`
		Schemes []string `json:"schemes"`
	} `json:"workspace"`
}

func (xcodebuild) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	dir, err := os.MkdirTemp("", "strobe-xcodebuild-")
	if err != nil {
		return nil, fmt.Errorf("xcodebuild: result directory: %w", err)
	}
	bundle := filepath.Join(dir, "Tests.xcresult")
	p := &xcodeParser{rec: rec, env: req.Env, root: req.ProjectRoot, dir: dir, bundle: bundle, started: time.Now(),
		procs: map[string]bool{}, fails: map[string]*report.Failure{}, level: req.Level, test: req.Test}

	var argv []string
	if len(req.Command) > 0 {
		if !isXcodebuild(req.Command) {
			os.RemoveAll(dir)
			return nil, adapters.Usagef("the xcodebuild framework runs `xcodebuild test …`, not `%s`: pass that command with --framework generic", shell.Join(req.Command))
		}
		argv = slices.Clone(req.Command)
		if !slices.ContainsFunc(argv[1:], func(w string) bool { return w == "test" || w == "test-without-building" }) {
			argv = append(argv, "test")
		}
		if req.Level != adapters.LevelAll && req.Test == "" {
			os.RemoveAll(dir)
			return nil, adapters.Usagef("xcodebuild: with --command, choose the level's tests in the command (-testPlan or -only-testing:), or drop --command and let strobe pick them")
		}
	} else {
		argv, err = xcodePlanCommand(ctx, req, p)
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	// The answer's command as a person types it: without the result
	// bundle strobe adds, in a directory removed after the run.
	shown := slices.Clone(argv)
	if !slices.Contains(argv, "-resultBundlePath") {
		argv = append(argv, "-resultBundlePath", bundle)
	} else {
		p.bundle = argv[slices.Index(argv, "-resultBundlePath")+1]
	}
	if !slices.Contains(argv, "-test-timeouts-enabled") {
		argv = append(argv, "-test-timeouts-enabled", "YES")
		shown = append(shown, "-test-timeouts-enabled", "YES")
	}
	if req.Test != "" {
		argv = append(argv, "-only-testing:"+req.Test)
		shown = append(shown, "-only-testing:"+req.Test)
	}
	p.rerun = slices.DeleteFunc(slices.Clone(argv), func(w string) bool { return strings.HasPrefix(w, "-only-testing:") })
	if i := slices.Index(p.rerun, "-resultBundlePath"); i >= 0 && i+1 < len(p.rerun) {
		p.rerun = slices.Delete(p.rerun, i, i+2)
	}
	return &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Parser: p, Shown: shell.Join(shown)}, nil
}

// xcodePlanCommand chooses the container, scheme, destination and the
// level's selection for a project given without a command.
func xcodePlanCommand(ctx context.Context, req adapters.Request, p *xcodeParser) ([]string, error) {
	ws, projs := xcodeContainers(req.ProjectRoot)
	var flag, container string
	switch {
	case len(ws) == 1:
		flag, container = "-workspace", ws[0]
	case len(ws) > 1:
		return nil, adapters.Usagef("xcodebuild: several workspaces (%s): pass --command 'xcodebuild test -workspace NAME -scheme SCHEME'", strings.Join(ws, ", "))
	case len(projs) == 1:
		flag, container = "-project", projs[0]
	case len(projs) > 1:
		return nil, adapters.Usagef("xcodebuild: several projects (%s): pass --command 'xcodebuild test -project NAME -scheme SCHEME'", strings.Join(projs, ", "))
	default:
		return nil, adapters.Usagef("xcodebuild: no .xcworkspace or .xcodeproj in %s", req.ProjectRoot)
	}
	out, err := xcodeTool(ctx, req.ProjectRoot, req.Env, "xcodebuild", "-list", "-json", flag, container)
	if err != nil {
		return nil, adapters.Usagef("xcodebuild: cannot list the schemes (%v): pass --command 'xcodebuild test %s %s -scheme SCHEME'", err, flag, container)
	}
	var list xcodeList
	if err := json.Unmarshal(jsonPart(out), &list); err != nil {
		return nil, adapters.Usagef("xcodebuild: cannot read `xcodebuild -list -json`: %v", err)
	}
	var schemes, targets []string
	name := strings.TrimSuffix(strings.TrimSuffix(container, ".xcworkspace"), ".xcodeproj")
	if list.Workspace != nil {
		schemes = list.Workspace.Schemes
	}
	if list.Project != nil {
		schemes, targets = list.Project.Schemes, list.Project.Targets
	}
	scheme := ""
	switch {
	case len(schemes) == 1:
		scheme = schemes[0]
	case slices.Contains(schemes, name):
		scheme = name
	case len(schemes) == 0:
		return nil, adapters.Usagef("xcodebuild: %s has no shared scheme: share one in Xcode (Product > Scheme > Manage Schemes > Shared), or pass --command with -scheme", container)
	default:
		return nil, adapters.Usagef("xcodebuild: %s has several schemes (%s) and none is named %s: pass --command 'xcodebuild test %s %s -scheme NAME'", container, strings.Join(schemes, ", "), name, flag, shell.Quote(container))
	}
	p.scheme = scheme
	p.procs[scheme] = true
	dest, err := xcodeDestination(ctx, req.ProjectRoot, container, req.Env)
	if err != nil {
		return nil, err
	}
	argv := []string{"xcodebuild", "test", flag, container, "-scheme", scheme, "-destination", dest}
	if req.Level != adapters.LevelAll && req.Test == "" {
		sel, err := xcodeLevel(req.ProjectRoot, req.Level, targets)
		if err != nil {
			return nil, err
		}
		argv = append(argv, sel...)
	}
	return argv, nil
}

// jsonPart skips what a tool prints before its JSON (xcodebuild warns on
// stdout at times).
func jsonPart(b []byte) []byte {
	if i := bytes.IndexByte(b, '{'); i > 0 {
		return b[i:]
	}
	return b
}

var sdkRootMac = lazyre.New(`SDKROOT = macosx;`)

// xcodeDestination is macOS for a Mac project, else an available iOS
// simulator.
func xcodeDestination(ctx context.Context, root, container string, env []string) (string, error) {
	if strings.HasSuffix(container, ".xcodeproj") {
		if b, err := os.ReadFile(filepath.Join(root, container, "project.pbxproj")); err == nil && sdkRootMac.Match(b) && !bytes.Contains(b, []byte("SDKROOT = iphoneos;")) {
			return "platform=macOS", nil
		}
	}
	out, err := xcodeTool(ctx, root, env, "xcrun", "simctl", "list", "-j", "devices", "available")
	if err != nil {
		return "", adapters.Usagef("xcodebuild: cannot list the simulators (%v): pass --command with -destination (for example 'platform=macOS')", err)
	}
	var sims struct {
		Devices map[string][]struct {
			Name        string `json:"name"`
			UDID        string `json:"udid"`
			State       string `json:"state"`
			IsAvailable *bool  `json:"isAvailable"`
		} `json:"devices"`
	}
	if err := json.Unmarshal(jsonPart(out), &sims); err != nil {
		return "", adapters.Usagef("xcodebuild: cannot read `xcrun simctl list -j`: %v", err)
	}
	type sim struct{ runtime, name, udid, state string }
	var iphones []sim
	runtimes := make([]string, 0, len(sims.Devices))
	for rt := range sims.Devices {
		runtimes = append(runtimes, rt)
	}
	// Newest runtime first: com.apple.CoreSimulator.SimRuntime.iOS-17-2.
	sort.Slice(runtimes, func(i, j int) bool { return runtimeVersion(runtimes[i]) > runtimeVersion(runtimes[j]) })
	for _, rt := range runtimes {
		if !strings.Contains(rt, ".iOS-") {
			continue
		}
		for _, d := range sims.Devices[rt] {
			if (d.IsAvailable == nil || *d.IsAvailable) && strings.HasPrefix(d.Name, "iPhone") {
				iphones = append(iphones, sim{rt, d.Name, d.UDID, d.State})
			}
		}
	}
	if len(iphones) == 0 {
		return "", adapters.Usagef("xcodebuild: no available iPhone simulator: create one (Xcode > Window > Devices and Simulators, or xcrun simctl create), or pass --command with -destination")
	}
	pick := iphones[0]
	for _, s := range iphones {
		if s.state == "Booted" {
			pick = s
			break
		}
	}
	return "platform=iOS Simulator,id=" + pick.udid, nil
}

// runtimeVersion orders runtime identifiers by version: iOS-17-2 → 17002.
func runtimeVersion(rt string) int {
	i := strings.LastIndex(rt, ".iOS-")
	if i < 0 {
		return 0
	}
	v := 0
	parts := strings.Split(rt[i+5:], "-")
	for k := 0; k < 3; k++ {
		n := 0
		if k < len(parts) {
			n, _ = strconv.Atoi(parts[k])
		}
		v = v*1000 + n
	}
	return v
}

// xcodeLevelWords are the words that name each level in test plans and
// target names.
var xcodeLevelWords = map[adapters.Level][]string{
	adapters.LevelUnit:        {"unit"},
	adapters.LevelIntegration: {"integration"},
	adapters.LevelE2E:         {"e2e", "uitest", "ui"},
}

// xcodeLevel selects a level: a test plan named for it, else the test
// targets named for it (unit also takes the plain *Tests targets).
func xcodeLevel(root string, l adapters.Level, targets []string) ([]string, error) {
	var plans []string
	kit.WalkLimited(root, 3, func(path string, d fs.DirEntry) {
		if strings.HasSuffix(d.Name(), ".xctestplan") {
			plans = append(plans, strings.TrimSuffix(d.Name(), ".xctestplan"))
		}
	}, func(name string) bool { return name == "DerivedData" || name == "Pods" || name == "build" })
	sort.Strings(plans)
	words := xcodeLevelWords[l]
	for _, pl := range plans {
		for _, w := range words {
			if strings.HasPrefix(strings.ToLower(pl), w) {
				return []string{"-testPlan", pl}, nil
			}
		}
	}
	var sel []string
	for _, t := range targets {
		lt := strings.ToLower(t)
		if !strings.HasSuffix(lt, "tests") {
			continue
		}
		isUI := strings.HasSuffix(lt, "uitests") || strings.Contains(lt, "e2e")
		isInt := strings.Contains(lt, "integration")
		switch {
		case l == adapters.LevelE2E && isUI, l == adapters.LevelIntegration && isInt, l == adapters.LevelUnit && !isUI && !isInt:
			sel = append(sel, "-only-testing:"+t)
		}
	}
	if len(sel) == 0 {
		return nil, adapters.Usagef("xcodebuild: nothing names the %s level: add a test plan named %s…xctestplan or a test target named …%sTests (test plans: %s; targets: %s), or pass --test", l,
			strings.ToUpper(string(l[:1]))+string(l[1:]), strings.ToUpper(string(l[:1]))+string(l[1:]), orNone(plans), orNone(targets))
	}
	return sel, nil
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}

// xcodeParser reads xcodebuild's console.
type xcodeParser struct {
	rec     *adapters.Recorder
	env     []string // the run's environment, for the tools run after it
	root    string
	dir     string
	bundle  string
	started time.Time
	scheme  string
	rerun   []string
	level   adapters.Level
	test    string

	testing      bool
	bundleName   string // the current XCTest bundle (Test Suite 'X.xctest')
	last         string // the test the last line belongs to
	lastFailure  *report.Failure
	failLines    int
	buildErrs    []report.BuildError
	xcodeErrors  []string // "xcodebuild: error: …"
	indicators   []string
	evidence     []string // the lines that gave the indicators
	suspects     []string // tests named by a restart after a crash
	fatal        *xcodeFatal
	testingFail  []string // the "Testing failed:" block
	inFailBlock  bool
	terminator   string // ** TEST FAILED ** and the like
	procs        map[string]bool
	fails        map[string]*report.Failure // failures of tests not ended yet
	startedNames []string

	inFailing    bool              // in the "Failing tests:" block
	failTarget   string            // its current "\tTarget:" header
	listed       []xcodeListed     // the tests it names
	targetErrors []string          // "X encountered an error (…)" of "Testing failed:"
	crash        *xcodeCrash       // "Crash: App (pid) frame", the underlying error of an early exit
	session      string            // the test target of Xcode 10's "Beginning test session T-…"
	parallel     map[string]string // tests named by parallel lines, with the target known for each
	schemeTarget *string           // the scheme's only test target, once looked up
}

// xcodeListed is one test of the "Failing tests:" block.
type xcodeListed struct{ target, raw string }

// xcodeCrash is the crash xcodebuild names as an early exit's underlying
// error: "Crash: HomeCooked (3584) Board.columns.getter".
type xcodeCrash struct{ proc, pid, frame string }

// xcodeKey is a test's Class/method, the part every form of its name has.
func xcodeKey(n string) string {
	parts := strings.Split(strings.ReplaceAll(n, "()", ""), "/")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, "/")
}

// resolve finds the started test a message names in another form: the
// restart line says TestingTestTests/testFailure() of the test that
// started as -[TestingTestTests.TestingTestTests testFailure].
func (p *xcodeParser) resolve(name string) string {
	k := xcodeKey(name)
	for i := len(p.startedNames) - 1; i >= 0; i-- {
		if xcodeKey(p.startedNames[i]) == k {
			return p.startedNames[i]
		}
	}
	return name
}

type xcodeFatal struct {
	text, file string
	line       int
	test       string
}

var (
	xcTestCase      = lazyre.New(`^Test [Cc]ase '(.+?)' (started|passed|failed|skipped)(?: on '[^']*')?(?:(?: at .*)|\.?| \((\d+(?:\.\d+)?) seconds\)\.?)$`)
	xcTestSuite     = lazyre.New(`^Test [Ss]uite '(.+?)' (started|passed|failed)`)
	xcAssertion     = lazyre.New(`^(.+?):(\d+): error: (-\[[^\]]+\]|[\w.]+(?:\(\))?) : (.*)$`)
	xcUIFailure     = lazyre.New(`^\s*t = +[\d.]+s +Assertion Failure: (?:(.+?):(\d+): )?(.*)$`)
	xcCompileError  = lazyre.New(`^(.+?):(\d+):(\d+): (?:fatal )?error: (.*)$`)
	xcToolError     = lazyre.New(`^xcodebuild: error: (.*)$`)
	stStarted       = lazyre.New(`^\S+\s+Test (.+?) started\.$`)
	stPassed        = lazyre.New(`^\S+\s+Test (.+?) passed after ([\d.]+) seconds`)
	stFailed        = lazyre.New(`^\S+\s+Test (.+?) failed after ([\d.]+) seconds`)
	stIssue         = lazyre.New(`^\S+\s+Test (.+?) recorded an issue(?: with .*?)? at ([^\s:]+):(\d+):(\d+): (.*)$`)
	stRunOrCase     = lazyre.New(`^\S+\s+Test (?:run (?:started|with)|case passing )`)
	stSkipped       = lazyre.New(`^\S+\s+Test (.+?) skipped(?:: "(.*)")?\.?$`)
	xcRestart       = lazyre.New(`Restarting after unexpected exit(?:, crash,)?(?: or crash| or test timeout)?(?: in (.+?))?; summary will include`)
	xcTargetError   = lazyre.New(`^\s+(.+?) encountered an error \((.*)\)$`)
	xcCrashNamed    = lazyre.New(`Crash: ([^()]+?) \((\d+)\)(?: ([^()]+))?\)`)
	xcCloneRunner   = lazyre.New(` on '[^']* - (\S+)-Runner \(\d+\)'`)
	xcSession       = lazyre.New(`Beginning test session (\S+?)(?:Clone)?-[0-9A-F]{8}-[0-9A-F-]{27} `)
	swiftFatal      = lazyre.New(`(?:^|\] |: )(Fatal error|Precondition failed|Assertion failed)(?:: (.*?))?(?:: file (.+?), line (\d+))?$`)
	swiftFatalAt    = lazyre.New(`^(.+?\.swift):(\d+): (Fatal error|Precondition failed|Assertion failed): (.*)$`)
	logProcess      = lazyre.New(`^\d{4}-\d\d-\d\d [\d:.]+(?:[-+]\d{4})? (\S+?)\[\d+:[0-9a-fx]+\]`)
	errorProcess    = lazyre.New(`^\s+(\S+?)(?:\.app)? \(\d+\) encountered an error`)
	signalCrashLine = lazyre.New(`(?i)crashed with signal (\w+)`)
)

// xcodeIndicators are the crash indicators: a phrase of the console and
// the name strobe reports.
var xcodeIndicators = []struct {
	phrase, name string
}{
	{"Early unexpected exit", "early_unexpected_exit"},
	{"never finished bootstrapping", "early_unexpected_exit"},
	{"Test runner exited before starting test execution", "never_began_testing"},
	{"never began executing tests", "never_began_testing"},
	{"test runner crashed", "test_runner_crashed"},
	{"Test runner crashed", "test_runner_crashed"},
	{"The test runner exited", "test_runner_crashed"},
	{"Connection interrupted", "connection_interrupted"},
	{"connection was interrupted", "connection_interrupted"},
	{"Lost connection to test", "connection_interrupted"},
	{"Failed to load the test bundle", "test_bundle_load_failed"},
	{"couldn’t be loaded", "test_bundle_load_failed"},
	{"couldn't be loaded", "test_bundle_load_failed"},
	{"for simulator to boot", "simulator_boot_timeout"},
	{"Failed to boot", "simulator_boot_timeout"},
	{"Failed to background test runner", "test_runner_background_failed"},
	{"Test runner failed to initialize for UI testing", "ui_test_runner_initialize_failed"},
	{"Failed to install or launch the test runner", "test_runner_launch_failed"},
	// The testing infrastructure failing, not the code under test.
	{"Timed out registering for testing event accessibility notifications", report.IndicatorInfrastructure},
	{"is unknown to FrontBoard", report.IndicatorInfrastructure},
	{"Failed to install or launch the test runner", report.IndicatorInfrastructure},
	{"Failed to launch app with identifier", report.IndicatorInfrastructure},
	{"Failed to install the app", report.IndicatorInfrastructure},
	{"Failed to prepare device", report.IndicatorInfrastructure},
	{"crashed with signal", "test_process_crashed"},
	{"Test crashed", "test_process_crashed"},
}

func (p *xcodeParser) indicate(name, line string) {
	if slices.Contains(p.indicators, name) {
		return
	}
	p.indicators = append(p.indicators, name)
	line = strings.TrimSpace(line)
	line = kit.ClipTo(line, 300, "…") // NSError dumps run on: the details file has them whole
	if !slices.Contains(p.evidence, line) {
		p.evidence = append(p.evidence, line)
	}
}

// xctestName turns XCTest's names into -only-testing's Target/Class/method:
// -[Module.Class method], -[Class method] (the bundle gives the target),
// Class.method and Class.method() (swift-corelibs, Xcode 26).
func (p *xcodeParser) xctestName(raw string) string {
	raw = strings.TrimSpace(raw)
	if strings.HasPrefix(raw, "-[") && strings.HasSuffix(raw, "]") {
		cls, method, _ := strings.Cut(raw[2:len(raw)-1], " ")
		if mod, c, ok := strings.Cut(cls, "."); ok {
			return mod + "/" + c + "/" + method
		}
		if p.bundleName != "" {
			return p.bundleName + "/" + cls + "/" + method
		}
		return cls + "/" + method
	}
	i := strings.LastIndex(strings.TrimSuffix(raw, "()"), ".")
	if i < 0 {
		return raw
	}
	return strings.ReplaceAll(raw[:i], ".", "/") + "/" + raw[i+1:]
}

func (p *xcodeParser) begin() {
	if !p.testing {
		p.testing = true
		p.rec.BeginTesting()
	}
}

func (p *xcodeParser) Line(s adapters.Stream, b []byte, _ bool) {
	line := strings.TrimRight(string(b), "\r")
	if m := logProcess.FindStringSubmatch(line); m != nil && m[1] != "xcodebuild" {
		p.procs[m[1]] = true
	}
	if m := errorProcess.FindStringSubmatch(line); m != nil {
		p.procs[m[1]] = true
	}
	for _, ind := range xcodeIndicators {
		if strings.Contains(line, ind.phrase) {
			p.indicate(ind.name, line)
		}
	}
	if m := xcCrashNamed.FindStringSubmatch(line); m != nil && p.crash == nil {
		p.crash = &xcodeCrash{proc: strings.TrimSpace(m[1]), pid: m[2], frame: strings.TrimSpace(m[3])}
		p.procs[p.crash.proc] = true
	}
	if m := xcSession.FindStringSubmatch(line); m != nil {
		p.session = m[1]
	}
	if m := xcRestart.FindStringSubmatch(line); m != nil {
		p.indicate("test_restarted_after_crash", line)
		// Xcode 15 and later name no test: the one that started last and
		// has not ended is the one the process died in.
		name := ""
		if m[1] != "" {
			name = p.resolve(p.xctestName(m[1]))
		} else if running := p.rec.Progress().Running; len(running) > 0 {
			name = running[len(running)-1].Name
		}
		if name != "" {
			p.suspects = append(p.suspects, name)
			p.crashTest(name, "the test process crashed or timed out in this test; xcodebuild restarted the test runner after it")
		}
		return
	}
	if m := swiftFatalAt.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[2])
		p.swiftFatal(m[3]+": "+m[4], m[1], n, line)
	} else if m := swiftFatal.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[4])
		text := m[1]
		if m[2] != "" {
			text += ": " + m[2]
		}
		p.swiftFatal(text, m[3], n, line)
	}
	if m := signalCrashLine.FindStringSubmatch(line); m != nil && p.last != "" {
		p.crashTest(p.last, strings.TrimSpace(line))
	}

	if p.inFailBlock {
		if strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "  ") {
			if len(p.testingFail) < 20 {
				p.testingFail = append(p.testingFail, strings.TrimSpace(line))
			}
			p.blockLine(line)
			return
		}
		p.inFailBlock = false
	}
	switch {
	case line == "Testing failed:" || line == "Failing tests:":
		p.inFailBlock = true
		p.inFailing, p.failTarget = line == "Failing tests:", ""
		return
	case strings.HasPrefix(line, "** ") && strings.HasSuffix(line, " **"):
		p.terminator = strings.Trim(line, "* ")
		return
	case line == "Testing started":
		p.begin()
		return
	}
	if m := xcToolError.FindStringSubmatch(line); m != nil {
		p.xcodeErrors = append(p.xcodeErrors, m[1])
		return
	}
	if m := xcTestSuite.FindStringSubmatch(line); m != nil {
		p.begin()
		if m[2] == "started" && (strings.HasSuffix(m[1], ".xctest") || strings.HasSuffix(m[1], ".octest")) {
			p.bundleName = strings.TrimSuffix(strings.TrimSuffix(m[1], ".xctest"), ".octest")
			p.procs[p.bundleName] = true
		}
		p.lastFailure = nil
		return
	}
	if m := xcTestCase.FindStringSubmatch(line); m != nil && strings.TrimSpace(m[1]) != "" {
		p.begin()
		name := p.xctestName(m[1])
		p.lastFailure = nil
		switch m[2] {
		case "started":
			p.rec.Start("", name)
			p.last = name
			p.startedNames = append(p.startedNames, name)
		case "passed":
			p.rec.End("", name, report.TestPassed, xcSeconds(m[3]), nil)
		case "skipped":
			p.rec.End("", name, report.TestSkipped, xcSeconds(m[3]), nil)
		case "failed":
			p.parallelTest(name, line)
			p.endFailed(name, xcSeconds(m[3]), "failed (xcodebuild printed no assertion for it)")
		}
		return
	}
	if m := xcAssertion.FindStringSubmatch(line); m != nil && !strings.Contains(m[4], "measured [") {
		p.begin()
		name := p.xctestName(m[3])
		n, _ := strconv.Atoi(m[2])
		p.addFailure(name, kit.ProjectPath(p.root, m[1]), n, m[4])
		return
	}
	if m := xcUIFailure.FindStringSubmatch(line); m != nil && p.last != "" {
		n, _ := strconv.Atoi(m[2])
		p.addFailure(p.last, kit.ProjectPath(p.root, m[1]), n, m[3])
		return
	}
	if stRunOrCase.MatchString(line) {
		return // the run's own summary, or one argument case of a parameterised test
	}
	if m := stIssue.FindStringSubmatch(line); m != nil {
		p.begin()
		n, _ := strconv.Atoi(m[3])
		p.addFailure(m[1], kit.ProjectPath(p.root, m[2]), n, m[5])
		return
	}
	if m := stStarted.FindStringSubmatch(line); m != nil {
		p.begin()
		p.rec.Start("", m[1])
		p.last = m[1]
		p.lastFailure = nil
		return
	}
	if m := stPassed.FindStringSubmatch(line); m != nil {
		p.rec.End("", m[1], report.TestPassed, xcSeconds(m[2]), nil)
		p.lastFailure = nil
		return
	}
	if m := stFailed.FindStringSubmatch(line); m != nil {
		p.endFailed(m[1], xcSeconds(m[2]), strings.TrimSpace(line))
		p.lastFailure = nil
		return
	}
	if m := stSkipped.FindStringSubmatch(line); m != nil {
		p.begin()
		if m[2] != "" {
			p.rec.Output("", m[1], "skipped: "+m[2]+"\n")
		}
		p.rec.End("", m[1], report.TestSkipped, 0, nil)
		return
	}
	if !p.testing {
		if m := xcCompileError.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			c, _ := strconv.Atoi(m[3])
			p.buildErrs = append(p.buildErrs, report.BuildError{File: kit.ProjectPath(p.root, m[1]), Line: n, Column: c, Message: m[4]})
		}
		return
	}
	// Anything else while a test runs is its output; right after a
	// failure, the rest of a multi-line assertion message.
	if p.lastFailure != nil && p.failLines < 30 && strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "Test ") {
		kit.AppendMessage(p.lastFailure, "\n", line)
		p.failLines++
	}
	if p.last != "" {
		p.rec.Output("", p.last, line+"\n")
	}
}

// blockLine reads a line of the "Testing failed:" or "Failing tests:"
// block: a target's error, a target header, or a failed test.
func (p *xcodeParser) blockLine(line string) {
	if !p.inFailing {
		if m := xcTargetError.FindStringSubmatch(line); m != nil {
			p.targetErrors = append(p.targetErrors, m[1]+": "+m[2])
		}
		return
	}
	entry := strings.TrimSpace(line)
	if strings.HasSuffix(entry, ":") && !strings.HasPrefix(entry, "-[") {
		p.failTarget = strings.TrimSuffix(entry, ":")
		return
	}
	p.listed = append(p.listed, xcodeListed{target: p.failTarget, raw: entry})
}

// parallelTest notes a test named by a parallel-testing line (Test case
// 'Class.method()' failed on 'Clone 1 of …'), which names no test target,
// with the target the log gives: a UI test's -Runner, the bundle, or the
// test session.
func (p *xcodeParser) parallelTest(name, line string) {
	if !strings.HasPrefix(line, "Test case '") || strings.Count(name, "/") != 1 {
		return
	}
	if p.parallel == nil {
		p.parallel = map[string]string{}
	}
	target := p.bundleName
	if m := xcCloneRunner.FindStringSubmatch(line); m != nil {
		target = m[1]
	}
	if target == "" {
		target = p.session
	}
	p.parallel[name] = target
}

func xcSeconds(s string) time.Duration {
	f, _ := strconv.ParseFloat(s, 64)
	return kit.DurationOf(f)
}

func (p *xcodeParser) addFailure(test, file string, line int, msg string) {
	if f := p.fails[test]; f != nil {
		kit.AddFailure(f, file, line, msg)
		p.lastFailure, p.failLines = f, 0
		return
	}
	// Kept until the test's end, which records it.
	f := &report.Failure{Name: test, File: file, Line: line, Message: msg, Rerun: p.rerunFor(test)}
	p.fails[test] = f
	p.lastFailure, p.failLines = f, 0
}

// endFailed records a failed test with its failure (or a stand-in).
func (p *xcodeParser) endFailed(name string, d time.Duration, fallback string) {
	f := p.fails[name]
	delete(p.fails, name)
	if f == nil {
		f = &report.Failure{Message: fallback}
	}
	f.Rerun = p.rerunFor(name)
	p.rec.End("", name, report.TestFailed, d, f)
}

// crashTest fails a test the process died in.
func (p *xcodeParser) crashTest(name, why string) {
	f := p.fails[name]
	delete(p.fails, name)
	if f == nil {
		f = &report.Failure{Name: name}
	}
	if p.fatal != nil && (p.fatal.test == name || p.fatal.test == "") {
		f.Message = strings.TrimSpace(p.fatal.text + "\n" + f.Message)
		if f.File == "" && p.fatal.file != "" {
			f.File, f.Line = kit.ProjectPath(p.root, p.fatal.file), p.fatal.line
		}
		p.fatal.test = name
	}
	if !strings.Contains(f.Message, why) {
		f.Message = strings.TrimSpace(f.Message + "\n" + why)
	}
	f.Rerun = p.rerunFor(name)
	p.rec.End("", name, report.TestFailed, 0, f)
}

func (p *xcodeParser) swiftFatal(text, file string, line int, raw string) {
	if p.fatal != nil {
		return
	}
	running := p.rec.Progress().Running
	test := ""
	if len(running) > 0 {
		test = running[len(running)-1].Name
	}
	p.fatal = &xcodeFatal{text: strings.TrimSpace(text), file: file, line: line, test: test}
	p.indicate("swift_fatal_error", raw)
}

func (p *xcodeParser) rerunFor(test string) string {
	if len(p.rerun) == 0 {
		return ""
	}
	if _, ok := p.parallel[test]; ok {
		return p.parallelRerun(test)
	}
	return shell.Join(append(slices.Clone(p.rerun), "-only-testing:"+test))
}

// parallelRerun is the rerun of a test known only as Class/method():
// -only-testing reads two parts as Target/Class, so it needs the test
// target, from the log or the scheme. Without one it is empty rather than
// a selector that runs the wrong tests.
func (p *xcodeParser) parallelRerun(test string) string {
	target := p.parallel[test]
	if target == "" {
		target = p.listedTarget(test)
	}
	if target == "" {
		target = p.schemeTestTarget()
	}
	if target == "" {
		return ""
	}
	cls, method, _ := strings.Cut(test, "/")
	return shell.Join(append(slices.Clone(p.rerun), "-only-testing:"+target+"/"+cls+"/"+strings.TrimSuffix(method, "()")))
}

// listedTarget is the target the "Failing tests:" block lists a test under.
func (p *xcodeParser) listedTarget(test string) string {
	for _, l := range p.listed {
		if l.target != "" && xcodeKey(p.xctestName(l.raw)) == xcodeKey(test) {
			return l.target
		}
	}
	return ""
}

// xcodeExitCodes explains xcodebuild's exit statuses (sysexits.h).
var xcodeExitCodes = map[int]string{
	64: "EX_USAGE: xcodebuild rejected its arguments (an unknown option, scheme or destination)",
	65: "EX_DATAERR: the build or the tests failed, or the test runner crashed",
	66: "EX_NOINPUT: a project, workspace, test plan or file it needs does not exist",
	67: "EX_NOUSER: an unknown user (code signing or a keychain)",
	68: "EX_NOHOST: an unknown host (a device or a remote service)",
	69: "EX_UNAVAILABLE: a service it needs is unavailable (the simulator service, a device, a license not accepted)",
	70: "EX_SOFTWARE: xcodebuild failed internally: often the destination cannot be used (no matching simulator, a simulator that did not boot) or the testing infrastructure broke",
	71: "EX_OSERR: an operating-system error (fork failed, too many processes)",
	72: "EX_OSFILE: a system file is missing or broken (the Xcode installation)",
	73: "EX_CANTCREAT: it cannot create an output file (DerivedData or the result bundle)",
	74: "EX_IOERR: an input/output error (disk full, DerivedData unreadable)",
}

// xcodeHints are the next steps for each indicator.
var xcodeHints = map[string]string{
	"early_unexpected_exit":            "the test host quit before testing began: look at its launch code (AppDelegate, @main) and the fatal error or crash report named here",
	"never_began_testing":              "the test runner never began testing: the host app crashed at launch or the bundle did not load; run the app once by hand and check the crash report",
	"test_runner_crashed":              "the test runner crashed: rerun the suspect test alone with -only-testing and read the crash report",
	"test_restarted_after_crash":       "xcodebuild restarted the test runner after a crash in the named test: rerun it alone with -only-testing; the crash report or the fatal error has its stack",
	"connection_interrupted":           "the connection to the test runner broke (it crashed, or the simulator died): rerun; if it repeats, erase the simulator (xcrun simctl erase DEVICE)",
	"test_bundle_load_failed":          "the test bundle did not load: check its Test Host and Bundle Loader settings, its linked frameworks and architectures",
	"simulator_boot_timeout":           "the simulator did not boot: xcrun simctl shutdown all, then erase or recreate it, or choose another -destination",
	"test_runner_background_failed":    "the UI test runner could not go to the background: restart the simulator (xcrun simctl shutdown all) and rerun",
	"ui_test_runner_initialize_failed": "the UI test runner failed to initialise: erase the simulator and check the -Runner app's signing",
	"test_runner_launch_failed":        "the test runner could not be installed or launched: erase the simulator (xcrun simctl erase DEVICE), check code signing, rerun",
	"test_process_crashed":             "the test process crashed: rerun the test alone with -only-testing and read its crash report",
	"swift_fatal_error":                "a Swift runtime trap (a force-unwrapped nil, precondition or fatalError) killed the process: fix or guard it at the line named",
}

func (p *xcodeParser) Finish(exit report.Exit) adapters.Outcome {
	var out adapters.Outcome
	var hints []string
	tests := p.rec.Tests()
	failed := false
	for _, t := range tests {
		if t.Status == report.TestFailed {
			failed = true
		}
	}
	// A failure recorded for a test whose end never came (it crashed).
	runningNames := p.rec.Running("")

	if len(p.buildErrs) > 0 && !p.testing {
		out.BuildFailed = true
		out.BuildErrors = p.buildErrs
		p.cleanup(false)
		return out
	}
	if !p.testing && exit.Code != 0 && strings.Contains(p.terminator, "BUILD FAILED") {
		out.BuildFailed = true
		out.BuildErrors = []report.BuildError{{Message: "xcodebuild reported ** BUILD FAILED ** without a compiler error line: see the details file's output"}}
		p.cleanup(false)
		return out
	}

	if p.recordListed() > 0 {
		failed = true
	}
	noRerun := p.fixParallelReruns()
	if len(noRerun) > 0 {
		hints = append(hints, fmt.Sprintf("no rerun command for %s: the log does not name the test target, and -only-testing reads Class/method as Target/Class; rerun with -only-testing:TARGET/Class/method", strings.Join(noRerun, ", ")))
	}

	// A test with a failure whose end never came (the runner was
	// restarted, or the log stops) still failed.
	for name := range p.fails {
		if slices.Contains(runningNames, name) {
			p.endFailed(name, 0, "")
			runningNames = slices.DeleteFunc(runningNames, func(n string) bool { return n == name })
			failed = true
		}
	}
	reports := p.crashReports(time.Now())
	// An early exit with no crash behind it is the runner failing to
	// start or to stay up, not the code under test.
	if slices.Contains(p.indicators, "early_unexpected_exit") && p.crash == nil && p.fatal == nil && len(reports) == 0 &&
		!slices.Contains(p.indicators, report.IndicatorInfrastructure) {
		p.indicators = append(p.indicators, report.IndicatorInfrastructure)
	}
	// A run strobe stopped (its timeout or stuck verdict, a cancel) did
	// not crash: the runner says so, and the tests running stay running.
	stopped := exit.StoppedBy != ""
	crashed := len(p.indicators) > 0 || len(reports) > 0 || exit.Signaled && !stopped
	if crashed {
		// The tests the process died in fail, with what was known of them.
		for _, name := range runningNames {
			why := kit.DidNotFinish("the test process died", 0)
			if len(reports) > 0 {
				why += ": " + reports[0].summary()
			}
			p.crashTest(name, why)
			failed = true
		}
		c := &report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code, Signal: exit.Signal, SignalName: exit.SignalName,
			CoreDump: exit.CoreDump, Indicators: slices.Clone(p.indicators)}
		c.RunningTests = append(slices.Clone(p.suspects), runningNames...)
		p.noteCrash(c.RunningTests)
		if p.fatal != nil && p.fatal.test != "" && !slices.Contains(c.RunningTests, p.fatal.test) {
			c.RunningTests = append(c.RunningTests, p.fatal.test)
		}
		msgs := slices.Clone(p.evidence)
		if exit.Signaled {
			c.Type = kit.CrashType(kit.ExitSignal(exit))
		}
		for _, r := range reports {
			c.Indicators = append(c.Indicators, "crash_report")
			msgs = append(msgs, r.summary())
			if c.Type == report.CrashUnknown {
				c.Type = kit.CrashType(r.signal)
			}
			hints = append(hints, fmt.Sprintf("crash report %s: %s", r.path, r.summary()))
		}
		if p.fatal != nil {
			where := ""
			if p.fatal.file != "" {
				where = fmt.Sprintf(" at %s:%d", kit.ProjectPath(p.root, p.fatal.file), p.fatal.line)
			}
			in := ""
			if p.fatal.test != "" {
				in = fmt.Sprintf(" in %s", p.fatal.test)
			}
			hints = append(hints, fmt.Sprintf("Swift %s%s%s: %s", p.fatal.text, where, in, xcodeHints["swift_fatal_error"]))
		}
		for _, ind := range p.indicators {
			if h := p.hintFor(ind); h != "" && ind != "swift_fatal_error" {
				hints = append(hints, h)
			}
		}
		if len(p.testingFail) > 0 {
			msgs = append(msgs, "Testing failed: "+strings.Join(p.testingFail, "; "))
		}
		c.Message = kit.Clip(strings.Join(msgs, "\n"))
		out.Crash = c
	}
	if exit.Exited && exit.Code != 0 {
		if why, ok := xcodeExitCodes[exit.Code]; ok {
			hints = append(hints, fmt.Sprintf("xcodebuild exited %d, %s", exit.Code, why))
		}
	}
	if len(p.xcodeErrors) > 0 {
		hints = append(hints, "xcodebuild: "+strings.Join(p.xcodeErrors, "; "))
	}
	// Silent failure: it failed, and nothing parsed says why.
	if exit.Code != 0 && !stopped && !failed && out.Crash == nil && len(p.xcodeErrors) == 0 {
		c := &report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code, SilentFailure: true, Indicators: []string{"silent_failure"},
			Message: fmt.Sprintf("xcodebuild exited %d and strobe parsed no failing test, build error or crash from its output", exit.Code)}
		if p.terminator != "" {
			c.Message += " (it printed ** " + p.terminator + " **)"
		}
		if n := p.readBundle(); n > 0 {
			c.Message += fmt.Sprintf("; the result bundle names %d failing test(s), recorded as failures", n)
		} else if _, err := os.Stat(p.bundle); err == nil {
			hints = append(hints, "open the result bundle for what happened: xcrun xcresulttool get test-results summary --path "+shell.Quote(p.bundle))
		}
		out.Crash = c
		hints = append(hints, "run the command by hand to see its whole output; the details file has what strobe saw")
	}
	if out.Crash == nil && exit.Code == 0 && len(tests) == 0 {
		out.NoTests = true
		out.Project = &report.Project{Language: "swift", BuildSystem: "xcodebuild"}
		hints = append(hints, kit.NoTestsHint{
			Test: fmt.Sprintf("no test matched -only-testing:%s: give Target/Class/method (XCTest) or Target/Suite/function() (Swift Testing)", p.test),
			All:  "xcodebuild ran no test: does the scheme's Test action include the test targets?",
		}.For(p.test, adapters.LevelAll))
	}
	if p.cleanup(out.Crash == nil && !failed && exit.Code == 0) && out.Crash != nil {
		hints = append(hints, "result bundle: "+p.bundle)
	}
	out.Hint = strings.Join(hints, "; ")
	return out
}

// recordListed records the tests the "Failing tests:" block names that no
// line before recorded (a crash, or a parallel run, can leave a failure
// unprinted). It returns how many it recorded.
func (p *xcodeParser) recordListed() int {
	known := map[string]bool{}
	for _, t := range p.rec.Tests() {
		known[xcodeKey(t.Name)] = true
	}
	n := 0
	for _, l := range p.listed {
		name := p.xctestName(l.raw)
		if known[xcodeKey(name)] {
			continue
		}
		known[xcodeKey(name)] = true
		if l.target != "" && strings.Count(name, "/") == 1 {
			cls, method, _ := strings.Cut(name, "/")
			name = l.target + "/" + cls + "/" + strings.TrimSuffix(method, "()")
		} else if strings.Count(name, "/") == 1 {
			p.parallelTest(name, "Test case '")
		}
		p.rec.End("", name, report.TestFailed, 0, &report.Failure{Name: name, Rerun: p.rerunFor(name),
			Message: "xcodebuild lists this test under \"Failing tests:\" but printed no failure for it: the result bundle has the details"})
		n++
	}
	return n
}

// fixParallelReruns sets the reruns of the tests parallel lines named, now
// that the whole log is read, and returns those whose target is unknown.
func (p *xcodeParser) fixParallelReruns() []string {
	var unknown []string
	for _, t := range p.rec.Tests() {
		if _, ok := p.parallel[t.Name]; !ok || t.Status != report.TestFailed {
			continue
		}
		rerun := p.parallelRerun(t.Name)
		if p.rec.UpdateFailure("", t.Name, func(f *report.Failure) { f.Rerun = rerun }) && rerun == "" && len(p.rerun) > 0 {
			unknown = append(unknown, t.Name)
		}
	}
	return unknown
}

// noteCrash adds the crash xcodebuild named to the failures of the tests
// it killed.
func (p *xcodeParser) noteCrash(tests []string) {
	if p.crash == nil {
		return
	}
	for _, name := range tests {
		p.rec.UpdateFailure("", name, func(f *report.Failure) {
			if !strings.Contains(f.Message, p.crash.String()) {
				f.Message = strings.TrimSpace(f.Message + "\n" + p.crash.String())
			}
		})
	}
}

func (c *xcodeCrash) String() string {
	s := fmt.Sprintf("%s (pid %s) crashed", c.proc, c.pid)
	if c.frame != "" {
		s += " in " + c.frame
	}
	return s
}

// hintFor is the next step for an indicator, told from what the log says.
func (p *xcodeParser) hintFor(ind string) string {
	switch ind {
	case "early_unexpected_exit":
		return p.earlyExitHint()
	case report.IndicatorInfrastructure:
		return p.infrastructureHint()
	}
	return xcodeHints[ind]
}

// earlyExitHint says what the log says of an "Early unexpected exit": the
// process that crashed and where, and whether tests had run.
func (p *xcodeParser) earlyExitHint() string {
	n := len(p.startedNames)
	last := ""
	if n > 0 {
		if t, ok := p.rec.Lookup("", p.startedNames[n-1]); ok && t.Status != report.TestPassed && t.Status != report.TestSkipped {
			last = t.Name // it did not pass: the exit came inside it
		}
	}
	frame := "the crashing frame"
	if p.crash != nil && p.crash.frame != "" {
		frame = p.crash.frame
	}
	switch {
	case p.crash != nil && last != "":
		return fmt.Sprintf("%s while %s ran (%d test(s) had started), and xcodebuild gave up on the test runner (Early unexpected exit): rerun it alone with -only-testing and look at %s",
			p.crash, last, n, frame)
	case p.crash != nil && n > 0:
		return fmt.Sprintf("%s after %d test(s) had run, outside any test (Early unexpected exit): look at %s and at what runs between tests (setUp/tearDown of a class, a host app's lifecycle)", p.crash, n, frame)
	case p.crash != nil:
		return fmt.Sprintf("%s before testing began (Early unexpected exit): look at its launch code (AppDelegate, @main) and at %s", p.crash, frame)
	case last != "":
		return fmt.Sprintf("the test runner exited unexpectedly while %s ran and xcodebuild did not restart it (Early unexpected exit): rerun it alone with -only-testing and read the crash report", last)
	case n > 0:
		return fmt.Sprintf("the test runner exited unexpectedly after %d test(s) had run, outside any test (Early unexpected exit): the error xcodebuild names says why", n)
	}
	return xcodeHints["early_unexpected_exit"]
}

// infrastructureHint quotes the test runner's own error and says it is
// not a failure of the code under test.
func (p *xcodeParser) infrastructureHint() string {
	quote := ""
	for _, e := range p.targetErrors {
		quote = e
		break
	}
	if quote == "" {
		for _, ev := range p.evidence {
			for _, ind := range xcodeIndicators {
				if (ind.name == report.IndicatorInfrastructure && strings.Contains(ev, ind.phrase)) || strings.Contains(ev, "Early unexpected exit") {
					quote = ev
				}
			}
			if quote != "" {
				break
			}
		}
	}
	// The error's boilerplate asks for a bug report; the details file has it whole.
	if i := strings.Index(quote, " If you believe this error represents a bug"); i >= 0 {
		quote = quote[:i]
	}
	return fmt.Sprintf("the test runner failed, not the code under test: %q; rerun, and if it repeats reset the simulator (xcrun simctl shutdown all; xcrun simctl erase all)", quote)
}

// cleanup removes the run's directory after a clean pass, or when there is
// no result bundle in it; otherwise the bundle stays for whoever reads the
// answer. It says whether the bundle stays.
func (p *xcodeParser) cleanup(passed bool) bool {
	keep := !passed && p.sawBundle()
	if !keep || !strings.HasPrefix(p.bundle, p.dir) {
		os.RemoveAll(p.dir)
	}
	return keep
}

func (p *xcodeParser) sawBundle() bool {
	_, err := os.Stat(p.bundle)
	return err == nil
}

// readBundle asks xcresulttool (Xcode 16+) for the failing tests of the
// result bundle and records them; it returns how many it found.
func (p *xcodeParser) readBundle() int {
	if !p.sawBundle() {
		return 0
	}
	out, err := xcodeTool(context.Background(), p.root, p.env, "xcrun", "xcresulttool", "get", "test-results", "summary", "--path", p.bundle, "--compact")
	if err != nil {
		return 0
	}
	var sum struct {
		Result       string `json:"result"`
		TestFailures []struct {
			TestName       string `json:"testName"`
			TargetName     string `json:"targetName"`
			FailureText    string `json:"failureText"`
			TestIdentifier string `json:"testIdentifierString"`
		} `json:"testFailures"`
	}
	if json.Unmarshal(jsonPart(out), &sum) != nil {
		return 0
	}
	for _, f := range sum.TestFailures {
		name := f.TestIdentifier
		if name == "" {
			name = f.TestName
		}
		if f.TargetName != "" && !strings.HasPrefix(name, f.TargetName+"/") {
			name = f.TargetName + "/" + name
		}
		p.rec.End("", name, report.TestFailed, 0, &report.Failure{Name: name, Message: f.FailureText, Rerun: p.rerunFor(name)})
	}
	return len(sum.TestFailures)
}

// crashReport is one .ips file that belongs to the run.
type crashReport struct {
	path, proc, exception, signal, subtype, frame string
	pid                                           int
}

func (r crashReport) summary() string {
	s := fmt.Sprintf("%s (pid %d) crashed: %s", r.proc, r.pid, r.exception)
	if r.signal != "" {
		s += " (" + r.signal + ")"
	}
	if r.subtype != "" {
		s += ", " + r.subtype
	}
	if r.frame != "" {
		s += ", in " + r.frame
	}
	return s
}

// ipsHeader and ipsBody are the fields strobe reads from a crash report:
// a one-line JSON header, then the JSON body.
type ipsHeader struct {
	AppName   string `json:"app_name"`
	Name      string `json:"name"`
	BugType   string `json:"bug_type"`
	Timestamp string `json:"timestamp"`
}

type ipsBody struct {
	ProcName    string `json:"procName"`
	PID         int    `json:"pid"`
	CaptureTime string `json:"captureTime"`
	Exception   struct {
		Type    string `json:"type"`
		Signal  string `json:"signal"`
		Subtype string `json:"subtype"`
	} `json:"exception"`
	FaultingThread int `json:"faultingThread"`
	Threads        []struct {
		Triggered bool `json:"triggered"`
		Frames    []struct {
			Symbol     string `json:"symbol"`
			SourceFile string `json:"sourceFile"`
			SourceLine int    `json:"sourceLine"`
		} `json:"frames"`
	} `json:"threads"`
}

// ipsTimeLayouts are the forms of captureTime and timestamp.
var ipsTimeLayouts = []string{"2006-01-02 15:04:05.0000 -0700", "2006-01-02 15:04:05.000 -0700", "2006-01-02 15:04:05.00 -0700", "2006-01-02 15:04:05 -0700"}

func parseIPSTime(s string) (time.Time, bool) {
	for _, l := range ipsTimeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// xcodeCrashSlack widens the run's window for clocks and file times.
const xcodeCrashSlack = 2 * time.Second

// crashReports reads the .ips files written during the run and keeps those
// of a process the run launched (the scheme's app, a test bundle, an
// xctest or -Runner process, one the log named) whose capture time falls
// inside the run. A report is matched by what is in it, not by its name.
func (p *xcodeParser) crashReports(end time.Time) []crashReport {
	home := kit.EnvValue(p.env, "HOME") // the client's, where its crash reports go
	if home == "" {
		return nil
	}
	dir := filepath.Join(home, "Library", "Logs", "DiagnosticReports")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	from, to := p.started.Add(-xcodeCrashSlack), end.Add(xcodeCrashSlack)
	var out []crashReport
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".ips") {
			continue
		}
		info, err := e.Info()
		if err != nil || info.ModTime().Before(from) || info.ModTime().After(to) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		r, ok := readIPS(path)
		if !ok {
			continue
		}
		if t, ok := parseIPSTime(r.captureTime); !ok || t.Before(from) || t.After(to) {
			continue
		}
		if !p.ourProcess(r.crashReport.proc) {
			continue
		}
		out = append(out, r.crashReport)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

type ipsRead struct {
	crashReport
	captureTime string
}

func readIPS(path string) (ipsRead, bool) {
	f, err := os.Open(path)
	if err != nil {
		return ipsRead{}, false
	}
	defer f.Close()
	br := bufio.NewReader(f)
	head, err := br.ReadBytes('\n')
	if err != nil {
		return ipsRead{}, false
	}
	var h ipsHeader
	if json.Unmarshal(head, &h) != nil {
		return ipsRead{}, false
	}
	var b ipsBody
	if json.NewDecoder(br).Decode(&b) != nil {
		return ipsRead{}, false
	}
	proc := b.ProcName
	if proc == "" {
		proc = h.Name
	}
	capture := b.CaptureTime
	if capture == "" {
		capture = h.Timestamp
	}
	r := ipsRead{crashReport: crashReport{path: path, proc: proc, pid: b.PID, exception: b.Exception.Type,
		signal: b.Exception.Signal, subtype: b.Exception.Subtype}, captureTime: capture}
	for i, t := range b.Threads {
		if !(t.Triggered || i == b.FaultingThread) {
			continue
		}
		for _, fr := range t.Frames {
			if fr.Symbol == "" {
				continue
			}
			r.frame = fr.Symbol
			if fr.SourceFile != "" {
				r.frame += fmt.Sprintf(" (%s:%d)", fr.SourceFile, fr.SourceLine)
			}
			break
		}
		break
	}
	return r, true
}

func (p *xcodeParser) ourProcess(proc string) bool {
	if proc == "" {
		return false
	}
	if proc == "xctest" || strings.HasSuffix(proc, "-Runner") || p.procs[proc] {
		return true
	}
	return p.scheme != "" && strings.EqualFold(proc, p.scheme)
}

// xcscheme is the part of a scheme file (.xcscheme) that names its test
// targets.
type xcscheme struct {
	Testables []struct {
		Skipped   string `xml:"skipped,attr"`
		Buildable struct {
			BlueprintName string `xml:"BlueprintName,attr"`
		} `xml:"BuildableReference"`
	} `xml:"TestAction>Testables>TestableReference"`
}

// schemeTestTarget is the test target of the run's scheme when it has
// exactly one, read from the shared scheme file next to the project or
// workspace; otherwise empty.
func (p *xcodeParser) schemeTestTarget() string {
	if p.schemeTarget != nil {
		return *p.schemeTarget
	}
	target := ""
	p.schemeTarget = &target
	scheme := p.scheme
	var containers []string
	for i := 0; i+1 < len(p.rerun); i++ {
		switch p.rerun[i] {
		case "-scheme":
			scheme = p.rerun[i+1]
		case "-project", "-workspace":
			containers = append(containers, p.rerun[i+1])
		}
	}
	if scheme == "" {
		return ""
	}
	// A workspace's schemes may be in any of its projects.
	ws, projs := xcodeContainers(p.root)
	containers = append(containers, append(ws, projs...)...)
	for _, c := range containers {
		b, err := os.ReadFile(filepath.Join(p.root, c, "xcshareddata", "xcschemes", scheme+".xcscheme"))
		if err != nil {
			continue
		}
		var sc xcscheme
		if xml.Unmarshal(b, &sc) != nil {
			return ""
		}
		var names []string
		for _, t := range sc.Testables {
			if n := t.Buildable.BlueprintName; n != "" && t.Skipped != "YES" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		if len(names) == 1 {
			target = names[0]
		}
		return target
	}
	return ""
}
