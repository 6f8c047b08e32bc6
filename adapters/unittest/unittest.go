// Package unittest runs Python's unittest tests through a small runner
// strobe ships (embedded, written to a private directory at Plan) that
// reports through unittest's result API.
package unittest

import (
	"bufio"
	"context"
	_ "embed"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/python"
	"strobe/internal/shell"
)

//go:embed strobe_unittest.py
var runner []byte

// unittestAdapter runs `python -m strobe_unittest [NAMES | discover …]`
// with the project's own interpreter: unittest's discovery (start ".",
// pattern test*.py, and directories that are not packages, such as a
// tests/ without __init__.py), each test reported through a TestResult as
// strobe's pytest plugin reports (kit/python's events). It is for projects
// that do not use pytest: detection gives way to pytest wherever pytest
// is configured or installed.
//
// A test is named by its dotted id (tests.test_x.TestY.test_z), a file
// (tests/test_x.py, as unittest converts it) or a directory (discovered on
// its own); the dotted id makes its rerun: `python3 -m unittest tests.test_x.TestY.test_z`. Levels
// are the directories tests/unit, tests/integration, tests/e2e (or
// test/…), discovered on their own.
type unittestAdapter struct{}

// New returns the unittest adapter.
func New() adapters.Adapter { return unittestAdapter{} }

func (unittestAdapter) Name() string { return "unittest" }

// ExitAdvice: the interpreter joins every non-daemon thread at exit.
func (unittestAdapter) ExitAdvice() string {
	return "Python waits at its exit for every thread that is not a daemon: stop and join the threads the tests start in tearDown (or start them with daemon=True)"
}

// Confidences: a unittest command is certain; test files with TestCase
// classes are below pytest's 60 for test files, which pytest claims only
// when it is installed (pytest runs TestCase classes too). A test module's
// load_tests (doctests added to the suite: more-itertools' 153), which
// pytest ignores, or the project's own command for its tests (`python -m
// unittest` in tox.ini or the Makefile) put unittest above it: pytest
// answered passed without those tests, or their failures.
const (
	confCommand  = 95
	confOwnTests = 65
	confFiles    = 55
)

func (unittestAdapter) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		if unittestIndex(req.Command) >= 0 {
			return adapters.Detection{Confidence: confCommand, Hint: "the command runs unittest"}
		}
		return adapters.Detection{}
	}
	// A project that configures pytest runs its TestCase classes with
	// pytest, beside its pytest-style tests (python-dateutil, six): naming
	// unittest as another way to run it, on every answer, would mislead.
	if python.PytestConfig(req.ProjectRoot) != "" || python.HasConftest(req.ProjectRoot) {
		return adapters.Detection{}
	}
	f, loads := testFile(req.ProjectRoot)
	switch {
	case f == "":
		return adapters.Detection{}
	case loads:
		return adapters.Detection{Confidence: confOwnTests, Hint: f + " defines load_tests, which unittest runs and pytest does not"}
	}
	if by := projectCommand(req.ProjectRoot); by != "" {
		return adapters.Detection{Confidence: confOwnTests, Hint: "the project runs its tests with python -m unittest (" + by + ")"}
	}
	return adapters.Detection{Confidence: confFiles, Hint: "Python unittest tests found (" + f + ")"}
}

// projectCommand names the file in which the project runs its tests with
// `-m unittest` (tox.ini, the Makefile, noxfile.py), "" when none does.
func projectCommand(root string) string {
	for _, name := range []string{"tox.ini", "Makefile", "noxfile.py"} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err == nil && strings.Contains(string(b), "-m unittest") {
			return name
		}
	}
	return ""
}

// unittestIndex is the index of "unittest" in `python -m unittest …`, -1
// if the command is not that.
func unittestIndex(cmd []string) int {
	if strings.HasPrefix(filepath.Base(cmd[0]), "python") && len(cmd) > 2 && cmd[1] == "-m" && cmd[2] == "unittest" {
		return 2
	}
	return -1
}

// testFile is the first test*.py file (in a bounded walk) with a TestCase
// class, "" if none; loads says whether one of them defines load_tests.
func testFile(root string) (found string, loads bool) {
	kit.WalkLimited(root, 4, func(path string, d fs.DirEntry) {
		name := d.Name()
		if loads || !strings.HasPrefix(name, "test") || !strings.HasSuffix(name, ".py") {
			return
		}
		cases, l := unittestUse(path)
		if cases && (found == "" || l) {
			found, loads = kit.ProjectPath(root, path), l
		}
	}, func(name string) bool {
		switch name {
		case "venv", "node_modules", "__pycache__", "site-packages", "build", "dist":
			return true
		}
		return false
	})
	return found, loads
}

// testCaseClass says whether a line declares a class that is a TestCase:
// its base says so (unittest.TestCase, IsolatedAsyncioTestCase), or a
// Test class has a base (a project's own TestCase: `class
// TestParse(BaseTest):`). A pytest class has none (`class TestParse:`).
func testCaseClass(l string) bool {
	rest, ok := strings.CutPrefix(l, "class ")
	if !ok {
		return false
	}
	name, bases, ok := strings.Cut(rest, "(")
	if !ok {
		return false
	}
	bases, _, _ = strings.Cut(bases, ")")
	bases = strings.TrimSpace(bases)
	return strings.Contains(bases, "TestCase") || strings.HasPrefix(strings.TrimSpace(name), "Test") && bases != "" && bases != "object"
}

// unittestUse says whether a Python file defines a TestCase class (it
// imports unittest, and a class line names a TestCase: `from unittest
// import mock` alone is no unittest test), and whether it defines
// load_tests. It reads 5,000 lines at most.
func unittestUse(path string) (cases, loads bool) {
	f, err := os.Open(path)
	if err != nil {
		return false, false
	}
	defer f.Close()
	imports := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 0; sc.Scan() && n < 5000; n++ {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "import unittest") || strings.HasPrefix(l, "from unittest"):
			imports = true
		case testCaseClass(l):
			cases = true
		case strings.HasPrefix(l, "def load_tests("):
			loads = true
		}
	}
	return imports && cases, imports && cases && loads
}

func (unittestAdapter) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	in, err := python.FindInterpreter(req.ProjectRoot, req.Env)
	if err != nil {
		return nil, &adapters.UsageError{Msg: "cannot run unittest: " + err.Error(), Framework: "unittest",
			Hint: "install Python 3 or create the project's virtual environment (python3 -m venv .venv)"}
	}
	in, env := in.Direct(req.ProjectRoot, req.Env)
	py, shown := in.Path, in.Shown
	var args []string
	switch {
	case len(req.Command) > 0:
		i := unittestIndex(req.Command)
		if i < 0 {
			return nil, adapters.Usagef("the command does not run unittest (%s): use `python -m unittest …`, or another --framework", shell.Join(req.Command))
		}
		if req.Test != "" || req.Level != adapters.LevelAll {
			return nil, adapters.Usagef("a unittest command selects its own tests: put the test or level in the command, or leave --command out")
		}
		py, shown, args, env = req.Command[0], req.Command[0], req.Command[i+1:], nil
	case len(req.Tests) > 0:
		args = testIDs(req.Tests)
	case req.Test != "":
		args = []string{req.Test}
	case req.Level != adapters.LevelAll:
		dir := levelDir(req.ProjectRoot, req.Level)
		if dir == "" {
			return nil, adapters.Usagef("no %s tests: unittest levels are the directories tests/%s (or test/%s); run the whole suite, or one test by its dotted id", req.Level, req.Level, req.Level)
		}
		args = []string{"discover", "-s", dir}
	}
	wd, err := python.NewWorkdir("strobe-unittest-*", map[string][]byte{"strobe_unittest.py": runner})
	if err != nil {
		return nil, err
	}
	argv := append([]string{py, "-m", "strobe_unittest"}, args...)
	p := newParser(rec, req, wd, []string{shown, "-m", "unittest"})
	if req.Test == "" {
		// The rest of a run strobe stops: strobe's runner loads the
		// selection again, and names what runs it without the tests
		// that hung (restNames).
		p.rest = append([]string{py, "-m", "strobe_unittest", "--rest"}, args...)
		p.restTool = kit.Tool{Dir: req.ProjectRoot, Env: slices.Concat(req.Env, wd.Env(req.Env), env), Timeout: restTimeout, MaxOutput: 1 << 20}
	}
	// Python builds nothing: a module that hangs as the runner imports it
	// hangs in the tests, and was left to the build's 30 minutes, past
	// --timeout.
	rec.BeginTesting()
	// The answer's command as a person types it: unittest itself, not
	// strobe's runner, which only strobe's PYTHONPATH finds.
	return &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Env: append(wd.Env(req.Env), env...), Parser: p,
		Shown: shell.Join(slices.Concat([]string{shown, "-m", "unittest"}, args))}, nil
}

func levelDir(root string, l adapters.Level) string {
	for _, top := range []string{"tests", "test"} {
		d := top + "/" + string(l)
		if st, err := os.Stat(filepath.Join(root, d)); err == nil && st.IsDir() {
			return d
		}
	}
	return ""
}
