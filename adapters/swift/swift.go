// Package swift runs a Swift package's tests, XCTest and Swift Testing
// alike, with `swift test` on Linux and macOS.
//
//	swift test --xunit-output DIR/xunit.xml [--filter REGEX]
//
// The console is read as it streams (see parse.go): XCTest's "Test Case"
// lines in both spellings (-[Module.Class test] on macOS, Class.test from
// swift-corelibs-xctest on Linux), its assertion lines with file:line,
// Swift Testing's ◇/✔/✘ lines (or the SF Symbols glyphs of macOS) with
// "recorded an issue at File.swift:17:9", skips of both, the compiler's
// errors before any test ran, and crashes: SwiftPM's "Exited with signal
// code N", the runtime's "Fatal error:" and its backtracer's "Program
// crashed" block. The xUnit files SwiftPM writes (one for XCTest, one
// with -swift-testing for Swift Testing) only add the tests the console
// did not name: SwiftPM writes XCTest skips there as passes.
//
// Swift Testing's JSON event stream (--experimental-event-stream-output)
// is not used: no real recording of it was found to test against, and the
// console carries the same events.
package swift

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/shell"
)

type swiftTest struct{}

// New returns the swift test adapter.
func New() adapters.Adapter { return swiftTest{} }

func (swiftTest) Name() string { return "swift" }

// isSwiftTest says whether argv is `swift test …`.
func isSwiftTest(argv []string) bool {
	return len(argv) > 1 && filepath.Base(argv[0]) == "swift" && argv[1] == "test"
}

func (swiftTest) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		if isSwiftTest(req.Command) {
			return adapters.Detection{Confidence: 95, Hint: "the command is swift test"}
		}
		return adapters.Detection{Hint: "swift: the command is not swift test"}
	}
	if !kit.FileExists(filepath.Join(req.ProjectRoot, "Package.swift")) {
		return adapters.Detection{Hint: "swift: no Package.swift in the project root"}
	}
	if len(testTargets(req.ProjectRoot)) == 0 {
		return adapters.Detection{Confidence: 20, Hint: "swift: Package.swift found, but no test target under Tests/"}
	}
	// An Xcode project beside the package is xcodebuild's (90): its schemes
	// may test more than the package does.
	if hasXcodeContainer(req.ProjectRoot) {
		return adapters.Detection{Confidence: 85, Hint: "Package.swift with Tests/ found (an Xcode project too)"}
	}
	return adapters.Detection{Confidence: 90, Hint: "Package.swift with Tests/ found"}
}

func hasXcodeContainer(root string) bool {
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if ext := filepath.Ext(e.Name()); ext == ".xcodeproj" || ext == ".xcworkspace" {
			return true
		}
	}
	return false
}

// testTargets are the directories under Tests/: SwiftPM's test targets
// where Package.swift gives them no other path.
func testTargets(root string) []string {
	entries, err := os.ReadDir(filepath.Join(root, "Tests"))
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// missingSwift is the answer for a machine without the toolchain.
func missingSwift(prog string) error {
	return &adapters.UsageError{
		Msg:       fmt.Sprintf("swift: %s is not on PATH", prog),
		Framework: "swift",
		Hint:      "install the Swift toolchain from swift.org (or Xcode on macOS) so that `swift test` runs, then rerun",
	}
}

func (swiftTest) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	argv := []string{"swift", "test"}
	if len(req.Command) > 0 {
		if !isSwiftTest(req.Command) {
			return nil, adapters.Usagef("the swift framework runs `swift test …`, not `%s`: pass that command with --framework generic", shell.Join(req.Command))
		}
		if req.Level != adapters.LevelAll && req.Test == "" {
			return nil, adapters.Usagef("swift: with --command, choose the level's tests in the command (--filter), or drop --command and let strobe pick them")
		}
		argv = slices.Clone(req.Command)
	}
	if _, err := shell.LookPath(argv[0], req.Env); err != nil {
		return nil, missingSwift(argv[0])
	}
	var filter string
	switch {
	case req.Test != "":
		filter = TestFilter(req.Test)
	case req.Level != adapters.LevelAll:
		f, err := levelFilter(req.ProjectRoot, req.Level)
		if err != nil {
			return nil, err
		}
		filter = f
	}

	dir, err := os.MkdirTemp("", "strobe-swift-")
	if err != nil {
		return nil, fmt.Errorf("swift: report directory: %w", err)
	}
	xunit := filepath.Join(dir, "xunit.xml")
	if i := slices.Index(argv, "--xunit-output"); i >= 0 && i+1 < len(argv) {
		xunit = argv[i+1] // the user's own report stays where they asked
	} else {
		argv = append(argv, "--xunit-output", xunit)
	}
	p := newParser(rec, req.ProjectRoot, dir, xunit, rerunBase(argv, xunit))
	p.filter = filter
	if filter != "" {
		argv = append(argv, "--filter", filter)
	}
	return &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Parser: p}, nil
}

// rerunBase is the command without strobe's report and any filter: a
// test's rerun adds its own --filter.
func rerunBase(argv []string, xunit string) []string {
	var out []string
	for i := 0; i < len(argv); i++ {
		switch {
		case (argv[i] == "--filter" || argv[i] == "--skip") && i+1 < len(argv):
			i++
		case argv[i] == "--xunit-output" && i+1 < len(argv) && argv[i+1] == xunit && strings.Contains(xunit, "strobe-swift-"):
			i++
		default:
			out = append(out, argv[i])
		}
	}
	return out
}

// TestFilter is the --filter regex that selects one test by the name strobe
// reports: XCTest's Module.Class/testName (macOS) or Class/testName (Linux),
// or Swift Testing's function name, such as parse() or parse(_:). SwiftPM
// matches the regex against Module.Class/testName and Swift Testing against
// Module.Suite/function(), so the name is quoted and anchored at its end,
// and a bare name must start after a dot or slash.
func TestFilter(name string) string {
	q := regexp.QuoteMeta(name)
	if !strings.Contains(name, "/") {
		return `(^|[./])` + q + `$`
	}
	if !strings.Contains(name[:strings.Index(name, "/")], ".") {
		q = `(^|\.)` + q // Class/test: the module comes before it
	}
	return q + `$`
}

// levelWords name the test targets of each level; unit is every other
// test target.
var levelWords = map[adapters.Level][]string{
	adapters.LevelIntegration: {"integration"},
	adapters.LevelE2E:         {"e2e", "endtoend", "uitest", "acceptance"},
}

func levelOf(target string) adapters.Level {
	lt := strings.ToLower(target)
	for _, l := range []adapters.Level{adapters.LevelE2E, adapters.LevelIntegration} {
		for _, w := range levelWords[l] {
			if strings.Contains(lt, w) {
				return l
			}
		}
	}
	return adapters.LevelUnit
}

// levelFilter selects a level's test targets by name: a --filter on the
// module, which both XCTest and Swift Testing names begin with.
func levelFilter(root string, l adapters.Level) (string, error) {
	targets := testTargets(root)
	var sel []string
	for _, t := range targets {
		if levelOf(t) == l {
			sel = append(sel, regexp.QuoteMeta(t))
		}
	}
	if len(sel) == 0 {
		return "", adapters.Usagef("swift: no test target names the %s level (test targets: %s): name one …%sTests under Tests/ (unit: any other), or pass --test",
			l, orNone(targets), levelExample(l))
	}
	return `^(` + strings.Join(sel, "|") + `)\.`, nil
}

func levelExample(l adapters.Level) string {
	switch l {
	case adapters.LevelIntegration:
		return "Integration"
	case adapters.LevelE2E:
		return "E2E"
	}
	return "Unit"
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}
