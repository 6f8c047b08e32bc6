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

// Confidences: a unittest command is certain; test files that import
// unittest are below pytest's 60 for test files, which pytest claims only
// when it is installed.
const (
	confCommand = 95
	confFiles   = 55
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
	if f := testFile(req.ProjectRoot); f != "" {
		return adapters.Detection{Confidence: confFiles, Hint: "Python unittest tests found (" + f + ")"}
	}
	return adapters.Detection{}
}

// unittestIndex is the index of "unittest" in `python -m unittest …`, -1
// if the command is not that.
func unittestIndex(cmd []string) int {
	if strings.HasPrefix(filepath.Base(cmd[0]), "python") && len(cmd) > 2 && cmd[1] == "-m" && cmd[2] == "unittest" {
		return 2
	}
	return -1
}

// testFile is the first test*.py file (in a bounded walk) that imports
// unittest, "" if none.
func testFile(root string) string {
	found := ""
	kit.WalkLimited(root, 4, func(path string, d fs.DirEntry) {
		name := d.Name()
		if found == "" && strings.HasPrefix(name, "test") && strings.HasSuffix(name, ".py") && importsUnittest(path) {
			found = kit.ProjectPath(root, path)
		}
	}, func(name string) bool {
		switch name {
		case "venv", "node_modules", "__pycache__", "site-packages", "build", "dist":
			return true
		}
		return false
	})
	return found
}

func importsUnittest(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 0; sc.Scan() && n < 200; n++ {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "import unittest") || strings.HasPrefix(l, "from unittest") {
			return true
		}
	}
	return false
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
	// Python builds nothing: a module that hangs as the runner imports it
	// hangs in the tests, and was left to the build's 30 minutes, past
	// --timeout.
	rec.BeginTesting()
	return &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Env: append(wd.Env(req.Env), env...), Parser: p}, nil
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
