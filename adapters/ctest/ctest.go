// Package ctest runs the tests of a CMake build tree through CTest.
package ctest

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
)

// ctest runs a CMake build tree's tests (enable_testing(): a
// CTestTestfile.cmake in the tree) with CTest and reads two things:
//
//   - the console, live: `Start N: name` starts a test, `N/M Test #N:
//     name .... Passed 0.01 sec` (or ***Failed, ***Skipped, ***Timeout,
//     ***Exception: SegFault, Subprocess aborted***Exception:, ***Not
//     Run) ends it, and --output-on-failure prints a failed test's output
//     right after its line. When that output is GoogleTest's
//     (gtest_discover_tests: one CTest test per Suite.Name) or Catch2's
//     console (catch_discover_tests), the failure's file:line and
//     assertion come from it, read with kit/format's readers;
//
//   - the JUnit report (--output-junit, CTest 3.21+), at Finish: every
//     test's output, the passed ones' too, and any test the console did
//     not end.
//
//     ctest --test-dir TREE --output-on-failure --output-junit FILE --no-tests=error [-L ^LEVEL$] [-R ^NAME$]
//
// A CTest test that dies of a signal (SegFault, abort) fails, and is
// crash evidence naming it: CTest goes on with the other tests, so the
// run is answered as crashed with every such test named. One CTest stops
// at its TIMEOUT fails, timed out: the run did not crash. Under --repeat
// a test's last try is its result, and one that failed before passing is
// flaky. Levels are labels (LABELS unit, integration,
// e2e), one test is -R with the name quoted as a regular expression.
//
// Detection: a `ctest` command; a build tree whose CTestTestfile.cmake
// lists tests (85, above gtest's and catch2's 80 for the same project:
// CTest runs every test binary of the tree, each test in a process of its
// own); a CMakeLists.txt that declares tests but no build tree (70): Plan
// then answers the configure and build commands, and never builds.
type ctest struct{}

// New returns the ctest adapter.
func New() adapters.Adapter { return ctest{} }

func (ctest) Name() string { return "ctest" }

// TraceElsewhere: ctest runs the tests' binaries as they are, so it cannot
// put them under gdb; a GoogleTest or Catch2 binary traces through its own
// framework's adapter.
func (ctest) TraceElsewhere() string {
	return "a CTest test that runs a GoogleTest or Catch2 binary traces through that framework: framework gtest or catch2, command its binary (BUILD/DIR/BINARY), test its name"
}

// cmakeMarkers are what a CMakeLists.txt with CTest tests says.
var cmakeMarkers = []string{"enable_testing(", "include(CTest)", "add_test(", "gtest_discover_tests(", "catch_discover_tests("}

func (ctest) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		if isCTest(req.Command[0]) {
			return adapters.Detection{Confidence: 95, Hint: "the command runs ctest"}
		}
		return adapters.Detection{}
	}
	if trees := testTrees(req.ProjectRoot); len(trees) > 0 {
		return adapters.Detection{Confidence: 85, Hint: "CMake build tree with CTest tests (" + strings.Join(trees, ", ") + ")"}
	}
	if kit.CMakeMentions(req.ProjectRoot, cmakeMarkers...) {
		return adapters.Detection{Confidence: 70, Hint: "CMake project with CTest tests, not built"}
	}
	return adapters.Detection{}
}

func isCTest(prog string) bool {
	b := filepath.Base(prog)
	return b == "ctest" || strings.HasPrefix(b, "ctest-") || strings.HasPrefix(b, "ctest3")
}

// testTrees lists the project's build trees that CTest can run, relative
// to root ("." for a project that is its own build tree): the usual names
// (build*/, cmake-build-*/, out/build/*/, _build/) and any directory with
// a CMakeCache.txt, each with a CTestTestfile.cmake that declares tests.
func testTrees(root string) []string {
	var trees []string
	if hasTests(root) {
		trees = append(trees, ".")
	}
	for _, dir := range candidateTrees(root) {
		if hasTests(filepath.Join(root, dir)) {
			trees = append(trees, dir)
		}
	}
	return trees
}

// candidateTrees are the directories under root that may be build trees.
func candidateTrees(root string) []string {
	var dirs []string
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		switch dir := filepath.Join(root, e.Name()); {
		case e.Name() == "out":
			// Visual Studio's and CMake presets' habit: out/build/<preset>.
			sub, _ := os.ReadDir(filepath.Join(dir, "build"))
			for _, s := range sub {
				if s.IsDir() {
					dirs = append(dirs, "out/build/"+s.Name())
				}
			}
			if kit.FileExists(filepath.Join(dir, "CMakeCache.txt")) {
				dirs = append(dirs, "out")
			}
		case kit.CMakeBuildDir(e.Name()) || kit.FileExists(filepath.Join(dir, "CMakeCache.txt")):
			dirs = append(dirs, e.Name())
		}
	}
	return dirs
}

// testDecl is what a CTestTestfile.cmake says to declare a test: add_test
// itself, the include() of gtest_discover_tests' and catch_discover_tests'
// lists, or a subdirectory with a file of its own.
var testDecl = lazyre.New(`(?m)^\s*(add_test|include|subdirs)\(`)

// hasTests says whether dir is a CTest tree that declares tests: its
// CTestTestfile.cmake (or one of its subdirectories', for a project whose
// tests live in tests/) names add_test or an include of discovered tests.
func hasTests(dir string) bool {
	if !kit.FileExists(filepath.Join(dir, "CTestTestfile.cmake")) {
		return false
	}
	found := false
	kit.WalkLimited(dir, 4, func(path string, d fs.DirEntry) {
		if found || d.Name() != "CTestTestfile.cmake" {
			return
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return
		}
		for _, m := range testDecl.FindAllSubmatch(b, -1) {
			if string(m[1]) != "subdirs" {
				found = true
				return
			}
		}
	}, func(name string) bool { return name == "CMakeFiles" || name == "_deps" || name == "Testing" })
	return found
}

// versionTimeout bounds `ctest --version`.
const versionTimeout = 5 * time.Second

var versionLine = lazyre.New(`ctest version (\d+)\.(\d+)`)

// ctestVersion is CTest's version as [major, minor], {0, 0} when unknown:
// read from its installation when that tells, else from ctest --version
// (10 ms in front of every run).
func ctestVersion(ctx context.Context, prog string, req adapters.Request) [2]int {
	if v := installedVersion(prog); v != [2]int{} {
		return v
	}
	out, _, err := kit.RunTool(ctx, kit.Tool{Dir: req.ProjectRoot, Env: req.Env, Timeout: versionTimeout}, prog, "--version")
	if err != nil {
		return [2]int{}
	}
	m := versionLine.FindStringSubmatch(string(out))
	if m == nil {
		return [2]int{}
	}
	return versionOf(m[1], m[2])
}

// versionOf is [major, minor] from their digits.
func versionOf(major, minor string) [2]int {
	mj, _ := strconv.Atoi(major)
	mn, _ := strconv.Atoi(minor)
	return [2]int{mj, mn}
}

// shareDir is the directory of CMake's modules, named for its version.
var shareDir = lazyre.New(`^cmake-(\d+)\.(\d+)$`)

// installedVersion reads CTest's version from its installation: CMake
// keeps its modules in PREFIX/share/cmake-MAJOR.MINOR beside
// PREFIX/bin/ctest (Debian's, Kitware's, pip's). {0, 0} when there is not
// exactly one such directory.
func installedVersion(prog string) [2]int {
	real, err := filepath.EvalSymlinks(prog)
	if err != nil {
		return [2]int{}
	}
	entries, err := os.ReadDir(filepath.Join(filepath.Dir(filepath.Dir(real)), "share"))
	if err != nil {
		return [2]int{}
	}
	var found []string
	for _, e := range entries {
		if m := shareDir.FindStringSubmatch(e.Name()); m != nil && e.IsDir() {
			if found != nil {
				return [2]int{} // two CMakes share the prefix: ask this one
			}
			found = m
		}
	}
	if found == nil {
		return [2]int{}
	}
	return versionOf(found[1], found[2])
}

func atLeast(v [2]int, major, minor int) bool {
	return v[0] > major || v[0] == major && v[1] >= minor
}

// dropped are the options the plan sets itself or that change the
// console it reads: verbose output prefixes every line with the test's
// number, quiet hides it, progress rewrites one line.
var dropped = []string{"-V", "--verbose", "-VV", "--extra-verbose", "-Q", "--quiet", "--progress", "--output-on-failure", "-N", "--show-only"}

// valued are the options whose value is the next argument.
var valued = []string{"-R", "--tests-regex", "-E", "--exclude-regex", "-L", "--label-regex", "-LE", "--label-exclude",
	"-C", "--build-config", "-j", "--parallel", "--test-dir", "--output-junit", "--timeout", "--repeat", "--no-tests",
	"-I", "--tests-information", "-FA", "-FS", "-FC", "--fixture-exclude-any", "--fixture-exclude-setup", "--fixture-exclude-cleanup",
	"--resource-spec-file", "--stop-time", "-O", "--output-log", "--test-load", "-T", "-M", "-D", "-S", "-SP"}

// userArgs splits a ctest command's arguments into those kept, whether
// they select tests (-R, -E, -L, -LE, -I), and the build tree they name.
func userArgs(args []string) (kept []string, selects bool, tree string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(a, "=")
		if strings.HasPrefix(name, "--show-only") || slices.Contains(dropped, a) {
			continue
		}
		if !hasValue && slices.Contains(valued, name) && i+1 < len(args) && !optionalValue(name, args[i+1]) {
			i++
			value = args[i]
		}
		switch name {
		case "--output-junit", "--no-tests":
			continue
		case "-R", "--tests-regex", "-E", "--exclude-regex", "-L", "--label-regex", "-LE", "--label-exclude", "-I", "--tests-information":
			selects = true
		case "--test-dir":
			tree = value
		}
		kept = append(kept, a)
		if !hasValue && slices.Contains(valued, name) && value != "" {
			kept = append(kept, value)
		}
	}
	return kept, selects, tree
}

// repeatMode is the command's --repeat mode (until-fail:3), "" when it
// has none: CTest 3.17's --repeat, or the older --repeat-until-fail N.
func repeatMode(args []string) string {
	for i, a := range args {
		next := ""
		if i+1 < len(args) {
			next = args[i+1]
		}
		switch {
		case strings.HasPrefix(a, "--repeat="):
			return strings.TrimPrefix(a, "--repeat=")
		case a == "--repeat":
			return next
		case a == "--repeat-until-fail":
			return "until-fail:" + next
		}
	}
	return ""
}

// optionalValue says that next is not the value of name: since CTest
// 3.29, -j alone asks for the default parallel level.
func optionalValue(name, next string) bool {
	if name != "-j" && name != "--parallel" {
		return false
	}
	_, err := strconv.Atoi(next)
	return err != nil
}

// levelArgs selects a level's tests: the label of that name exactly.
func levelArgs(l adapters.Level) []string {
	if l == adapters.LevelAll {
		return nil
	}
	return []string{"-L", "^" + string(l) + "$"}
}

// testArgs selects one test by its full name.
func testArgs(name string) []string {
	return []string{"-R", "^" + regexp.QuoteMeta(name) + "$"}
}

func (ctest) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	prog, args, tree, note, err := command(req)
	if err != nil {
		return nil, err
	}
	var stale kit.Pending
	if built := tree; built != "" {
		if !filepath.IsAbs(built) {
			built = filepath.Join(req.ProjectRoot, built)
		}
		stale = kit.StaleCheck(req.ProjectRoot, built)
	}
	bin, err := kit.ResolveProgram(req.ProjectRoot, prog, req.Env)
	if err != nil {
		return nil, &adapters.UsageError{Msg: "ctest: " + prog + " not found", Framework: "ctest", Hint: "install CMake (its ctest), or pass --command with the path of ctest"}
	}
	v := ctestVersion(ctx, bin, req)
	dir, err := os.MkdirTemp("", "strobe-ctest-")
	if err != nil {
		return nil, fmt.Errorf("ctest: report directory: %w", err)
	}
	// The rerun keeps the command's own words; the plan adds the report.
	base := append([]string{prog}, args...)
	planDir := req.ProjectRoot
	if tree != "" && len(req.Command) == 0 {
		if atLeast(v, 3, 20) || v == [2]int{} {
			base = append(base, "--test-dir", tree)
		} else {
			planDir = filepath.Join(req.ProjectRoot, tree) // --test-dir is 3.20's
		}
	}
	base = append(base, "--output-on-failure")
	argv := slices.Clone(base)
	if atLeast(v, 3, 17) || v == [2]int{} {
		argv = append(argv, "--no-tests=error") // 3.17's: no tests is then an error, not a pass
	}
	junit := ""
	if atLeast(v, 3, 21) {
		junit = filepath.Join(dir, "junit.xml")
		argv = append(argv, "--output-junit", junit)
	}
	argv = append(argv, selectArgs(req)...)
	argv[0] = bin
	rec.BeginTesting() // the tests are built already: CTest only runs them
	p := newParser(rec, req.ProjectRoot, dir, junit)
	p.rerun, p.sel, p.test, p.level, p.note, p.stale = base, selectArgs(req), req.Test, req.Level, note, stale
	p.bin, p.runDir, p.env = bin, planDir, req.Env
	p.tree, p.selects = treeDir(req, tree, planDir), selects(req)
	p.repeat = repeatMode(args)
	// The answer's command as a person types it: without the JUnit
	// report, in a directory removed after the run.
	shown := slices.Concat(base, selectArgs(req))
	if atLeast(v, 3, 17) || v == [2]int{} {
		shown = slices.Insert(shown, len(base), "--no-tests=error")
	}
	return &adapters.Plan{Argv: argv, Dir: planDir, Parser: p, Shown: shell.Join(shown)}, nil
}

// treeDir is the build tree's directory, absolute: the one named
// (--test-dir, relative to the project), else the directory ctest runs in.
func treeDir(req adapters.Request, tree, planDir string) string {
	dir := planDir
	if tree != "" {
		dir = tree
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(req.ProjectRoot, dir)
		}
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// selects says the request's command selects tests of its own.
func selects(req adapters.Request) bool {
	if len(req.Command) == 0 {
		return false
	}
	_, s, _ := userArgs(req.Command[1:])
	return s
}

// command is the ctest to run, the command's arguments kept, the build
// tree and a note on its choice: the command's, or ctest in the one tree.
func command(req adapters.Request) (prog string, args []string, tree, note string, err error) {
	prog = "ctest"
	if len(req.Command) > 0 {
		prog = req.Command[0]
		kept, selects, t := userArgs(req.Command[1:])
		if selects && (req.Test != "" || req.Level != adapters.LevelAll || len(req.Tests) > 0) {
			return "", nil, "", "", adapters.Usagef("ctest: the command already selects tests (-R, -E, -L, -LE or -I): drop them, or drop --test/--level")
		}
		return prog, kept, t, "", nil
	}
	tree, note, err = findTree(req.ProjectRoot)
	return prog, nil, tree, note, err
}

// findTree is the one build tree to run, with a note when the choice
// needs saying; no tree, or several, is a usage error saying what to do.
func findTree(root string) (tree, note string, err error) {
	trees := testTrees(root)
	switch len(trees) {
	case 1:
		if trees[0] == "." {
			return "", "", nil
		}
		return trees[0], "", nil
	case 0:
		var seen []string
		for _, t := range candidateTrees(root) {
			seen = append(seen, t+"/")
		}
		where := "no CMake build tree (build/, cmake-build-*/, out/build/*/)"
		if len(seen) > 0 {
			where = "no CTest tests in " + strings.Join(seen, ", ") + " (is it configured, with enable_testing()?)"
		}
		return "", "", &adapters.UsageError{Msg: "ctest: the tests are not built: " + where, Framework: "ctest",
			Hint: fmt.Sprintf("configure and build them with `%s`, then rerun", kit.CMakeBuildCommand(root, seen))}
	}
	return "", "", adapters.Usagef("ctest: several CMake build trees have tests: %s: pass --command with the one to run (for example --command %s)",
		strings.Join(trees, ", "), shell.Quote("ctest --test-dir "+trees[0]))
}
