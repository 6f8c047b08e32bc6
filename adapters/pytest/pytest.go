// Package pytest runs Python tests with pytest, through a small plugin
// strobe ships and loads itself: nothing for the user to install.
package pytest

import (
	"bytes"
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

// The plugin pytest loads (-p strobe_plugin) and the module that holds
// its hooks.
var (
	//go:embed strobe_plugin.py
	plugin []byte
	//go:embed strobe_pytest.py
	pluginHooks []byte
)

// pytestAdapter runs `python -m pytest -p strobe_plugin [SELECTION]` with
// the project's own interpreter (.venv, venv, $VIRTUAL_ENV, else python3 on
// the client's PATH), the plugin's directory first on PYTHONPATH.
//
// The plugin writes one JSON line per event to a file of its own, which
// the parser tails (kit/python): a test's start while it runs, its outcome
// with the failing frame in the project, the assertion as pytest rewrote
// it, the exception, its captured output. pytest's own output stays as it
// is, for the person reading the raw log, and is read only when the plugin
// did not load: then the `FAILED`/`ERROR` short summary lines and the
// closing counts are the results, and the hint says so.
//
// Selection: a test is a node id (`tests/test_x.py::TestC::test_y[p]`), a
// file or directory, or else a -k expression. Levels are directories first:
// tests/unit, tests/integration, tests/e2e (or test/…) when the project has
// them; otherwise the markers unit, integration and e2e (-m).
//
// A given `pytest …` or `python -m pytest …` command runs as given, with
// the plugin added after `pytest`.
type pytestAdapter struct{}

// New returns the pytest adapter.
func New() adapters.Adapter { return pytestAdapter{} }

func (pytestAdapter) Name() string { return "pytest" }

// ExitAdvice: the interpreter joins every non-daemon thread at exit.
func (pytestAdapter) ExitAdvice() string {
	return "Python waits at its exit for every thread that is not a daemon: stop and join the threads the tests start in the fixture's teardown (or start them with daemon=True)"
}

// Confidences: a command or a pytest configuration is as sure as cargo's
// Cargo.toml; conftest.py nearly; test files alone could be unittest's.
const (
	confCommand = 95
	confConfig  = 90
	confConftst = 85
	confFiles   = 60
)

func (a pytestAdapter) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		if pytestIndex(req.Command) >= 0 {
			return adapters.Detection{Confidence: confCommand, Hint: "the command runs pytest"}
		}
		return adapters.Detection{}
	}
	if what := python.PytestConfig(req.ProjectRoot); what != "" {
		return adapters.Detection{Confidence: confConfig, Hint: "pytest configured in " + what}
	}
	if python.HasConftest(req.ProjectRoot) {
		return adapters.Detection{Confidence: confConftst, Hint: "conftest.py found"}
	}
	files := TestFiles(req.ProjectRoot, 1)
	if len(files) == 0 {
		return adapters.Detection{}
	}
	// Test files alone: unittest's too. pytest runs unittest tests well,
	// but only where it is installed; that check may start Python (100
	// ms), so it runs only when pytest would be picked.
	found := adapters.Detection{Confidence: confFiles, Hint: "Python test files found (" + files[0] + "), run with pytest"}
	found.Confirm = func() adapters.Detection {
		in, err := python.FindInterpreter(req.ProjectRoot, req.Env)
		if err != nil {
			return adapters.Detection{Hint: "pytest: Python test files found but " + err.Error()}
		}
		if ok, _ := in.HasModule(context.Background(), req.ProjectRoot, req.Env, "pytest"); !ok {
			return adapters.Detection{Hint: "pytest: Python test files found (" + files[0] + ") but pytest is not installed for " + in.Shown +
				" (install it: " + shell.Join([]string{in.Shown, "-m", "pip", "install", "pytest"}) + ")"}
		}
		return adapters.Detection{Confidence: confFiles, Hint: found.Hint}
	}
	return found
}

// pytestIndex is the index of the word that names pytest in a command
// (`pytest`, `py.test`, or the module after `python -m`), -1 if none.
func pytestIndex(cmd []string) int {
	base := filepath.Base(cmd[0])
	if base == "pytest" || base == "py.test" {
		return 0
	}
	if strings.HasPrefix(base, "python") && len(cmd) > 2 && cmd[1] == "-m" && cmd[2] == "pytest" {
		return 2
	}
	return -1
}

// TestFiles lists up to limit of the project's Python test files
// (test_*.py, *_test.py), project-relative, in a bounded walk that skips
// virtual environments and caches.
func TestFiles(root string, limit int) []string {
	var files []string
	kit.WalkLimited(root, 4, func(path string, d fs.DirEntry) {
		name := d.Name()
		if len(files) < limit && strings.HasSuffix(name, ".py") && (strings.HasPrefix(name, "test_") || strings.HasSuffix(name, "_test.py")) {
			files = append(files, kit.ProjectPath(root, path))
		}
	}, skipDir)
	return files
}

func skipDir(name string) bool {
	switch name {
	case "venv", "node_modules", "__pycache__", "site-packages", "build", "dist":
		return true
	}
	return false
}

func (a pytestAdapter) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	argv, prefix, env, err := a.command(ctx, req)
	if err != nil {
		return nil, err
	}
	wd, err := python.NewWorkdir("strobe-pytest-*", map[string][]byte{"strobe_plugin.py": plugin, "strobe_pytest.py": pluginHooks})
	if err != nil {
		return nil, err
	}
	p := newParser(rec, req, wd, prefix)
	p.args = argv[slices.Index(argv, "strobe_plugin")+1:]
	if len(req.Tests) > 0 && len(req.Command) == 0 {
		// selection left out the ids presentIDs found gone, or, all of
		// them gone, gave them all, for pytest to say it finds none
		// (Finish tells which, on that error alone).
		for _, t := range req.Tests {
			p.asked = append(p.asked, t.Name)
			if !slices.Contains(p.args, t.Name) {
				p.gone = append(p.gone, t.Name)
			}
		}
	}
	if len(req.Command) > 0 {
		p.rerunOpts = rerunOptions(req.ProjectRoot, p.args)
	}
	// Python builds nothing: a module that hangs as pytest imports it
	// (collection, a conftest.py) hangs in the tests, and was left to the
	// build's 30 minutes, past --timeout. The tests begin with pytest's
	// process, unless a launcher (tox, uv) may install first.
	if len(req.Command) == 0 && bareName(req) {
		env = append(env, exactNameEnv+"="+req.Test)
	}
	// The answer's command as a person types it: without strobe's plugin,
	// which only strobe's PYTHONPATH finds (pasted, pytest refused -p
	// strobe_plugin), and with the interpreter as the user names it.
	return &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Env: append(wd.Env(req.Env), env...), Parser: p,
		TestProcessBeginsTests: !slices.Contains(launchers, filepath.Base(argv[0])), Shown: shell.Join(slices.Concat(prefix, p.args))}, nil
}

// command is the argv to run, the words a rerun starts with, and what the
// interpreter's environment needs (python.Interpreter.Direct).
func (pytestAdapter) command(ctx context.Context, req adapters.Request) (argv, prefix, env []string, err error) {
	if len(req.Command) > 0 {
		i := pytestIndex(req.Command)
		if i < 0 {
			return nil, nil, nil, adapters.Usagef("the command does not run pytest (%s): use `python -m pytest …` or `pytest …`, or another --framework", shell.Join(req.Command))
		}
		if req.Test != "" || req.Level != adapters.LevelAll {
			return nil, nil, nil, adapters.Usagef("a pytest command selects its own tests: put the test or level in the command, or leave --command out")
		}
		prefix = req.Command[:i+1]
		argv = append(append(append([]string{}, prefix...), "-p", "strobe_plugin"), req.Command[i+1:]...)
		return argv, prefix, nil, nil
	}
	in, err := python.FindInterpreter(req.ProjectRoot, req.Env)
	if err != nil {
		return nil, nil, nil, &adapters.UsageError{Msg: "cannot run pytest: " + err.Error(), Framework: "pytest",
			Hint: "install Python 3 or create the project's virtual environment (python3 -m venv .venv)"}
	}
	// The shim resolved first: HasModule then reads that interpreter's
	// site, not pyenv's version files a second time.
	in, env = in.Direct(req.ProjectRoot, req.Env)
	ok, err := in.HasModule(ctx, req.ProjectRoot, req.Env, "pytest")
	if err != nil {
		return nil, nil, nil, &adapters.UsageError{Msg: "cannot run pytest: " + err.Error(), Framework: "pytest", Hint: "check that " + in.Shown + " runs"}
	}
	if !ok {
		return nil, nil, nil, &adapters.UsageError{Msg: "pytest is not installed for " + in.Shown, Framework: "pytest",
			Hint: "install it: " + shell.Join([]string{in.Shown, "-m", "pip", "install", "pytest"})}
	}
	argv = append([]string{in.Path, "-m", "pytest", "-p", "strobe_plugin"}, selection(req)...)
	return argv, []string{in.Shown, "-m", "pytest"}, env, nil
}

// rerunOptions are the words of a pytest command after pytest that a rerun
// of one test keeps: the options that may decide whether the test is
// collected and how it behaves (--doctest-modules, -p no:asyncio, -o
// ini=value, -W error, a conftest's --runslow, pytest-timeout's --timeout:
// a test that timed out must not hang when pasted), and not those that only
// select, order, spread or report a run (-k, -x, -n 2, pytest-randomly's
// seed, which the rerun adds itself, --cov, -q), nor the paths and node
// ids the command names, which the rerun's node id replaces. An option's
// value goes with it: the next word after one of pytest's or a common
// plugin's options that take one, or after an unknown option when it
// names no path in the project.
func rerunOptions(root string, args []string) []string {
	var keep []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break // what follows is all paths
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			continue // a path or a node id
		}
		words := []string{a}
		name, _, attached := strings.Cut(a, "=")
		short := !strings.HasPrefix(a, "--") && len(a) >= 2
		if short {
			name, attached = a[:2], len(a) > 2
		}
		if !attached && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") &&
			(valueOptions[name] || short && strings.Contains(shortValueOptions, name[1:]) || !short && !namesPath(root, args[i+1])) {
			i++
			words = append(words, args[i])
		}
		if !rerunDrops(name, a, words) {
			keep = append(keep, words...)
		}
	}
	return keep
}

// rerunDrops says whether a rerun of one test leaves out an option (name,
// as given in arg, with its words): one that selects, orders, spreads or
// reports the run.
func rerunDrops(name, arg string, words []string) bool {
	switch {
	case runOnlyOptions[name]:
		return true
	case name == "-p":
		plugin := strings.TrimPrefix(strings.TrimPrefix(arg, "-p"), "=")
		if len(words) > 1 {
			plugin = words[1]
		}
		plugin = strings.TrimPrefix(plugin, "no:")
		return plugin == "randomly" || plugin == "xdist"
	case !strings.HasPrefix(arg, "--") && len(arg) > 1:
		// A cluster of one-letter flags (-xvs): dropped when each is.
		return strings.Trim(arg[1:], runOnlyFlags) == ""
	}
	return false
}

// runOnlyFlags are pytest's one-letter flags a rerun of one test leaves
// out: -x, -q, -v, -s, -l; runOnlyOptions its and common plugins' other
// options that select, order, spread or report a run.
const runOnlyFlags = "xqvsl"

var runOnlyOptions = map[string]bool{
	"-k": true, "-m": true, "-n": true, "-r": true,
	"--exitfirst": true, "--maxfail": true, "--quiet": true, "--verbose": true, "--verbosity": true,
	"--lf": true, "--last-failed": true, "--ff": true, "--failed-first": true, "--nf": true, "--new-first": true,
	"--sw": true, "--stepwise": true, "--deselect": true, "--durations": true, "--durations-min": true,
	"--tb": true, "--junitxml": true, "--junit-xml": true, "--junit-prefix": true, "--color": true,
	"--code-highlight": true, "--no-header": true, "--no-summary": true, "--showlocals": true, "--pdb": true,
	"--numprocesses": true, "--dist": true, "--maxprocesses": true, "--tx": true, "--rsyncdir": true,
	"--session-timeout": true, "--randomly-seed": true, "--randomly-dont-reset-seed": true, "--randomly-dont-reorganize": true,
	"--reruns": true, "--reruns-delay": true, "--only-rerun": true,
	"--cov": true, "--cov-report": true, "--cov-config": true, "--cov-fail-under": true, "--cov-context": true, "--no-cov": true,
	"--html": true, "--self-contained-html": true,
}

// namesPath says whether a word of a pytest command names a path in the
// project (a file, a directory, a node id's file), as a positional one does.
func namesPath(root, word string) bool {
	path, _, _ := strings.Cut(word, "::")
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, path)
	}
	_, err := os.Stat(path)
	return err == nil
}

// shortValueOptions are pytest's one-letter options that take a value
// (-k EXPR, -m MARKEXPR, -p NAME, -c FILE, -o INI, -W WARNING, -r CHARS,
// and pytest-xdist's -n NUM).
const shortValueOptions = "kmpcoWrn"

// valueOptions are the long options of pytest and common plugins that
// take a value as the next word.
var valueOptions = map[string]bool{
	"--maxfail": true, "--rootdir": true, "--deselect": true, "--ignore": true, "--ignore-glob": true,
	"--confcutdir": true, "--basetemp": true, "--junitxml": true, "--junit-xml": true, "--junit-prefix": true,
	"--import-mode": true, "--tb": true, "--durations": true, "--durations-min": true, "--capture": true,
	"--color": true, "--code-highlight": true, "--doctest-glob": true, "--doctest-report": true,
	"--override-ini": true, "--pythonwarnings": true, "--assert": true, "--show-capture": true,
	"--pdbcls": true, "--config-file": true, "--verbosity": true, "--log-level": true, "--log-format": true,
	"--log-date-format": true, "--log-cli-level": true, "--log-cli-format": true, "--log-cli-date-format": true,
	"--log-file": true, "--log-file-level": true, "--log-file-format": true, "--log-file-date-format": true,
	"--cov": true, "--cov-report": true, "--cov-config": true, "--cov-fail-under": true, "--cov-context": true,
	"--numprocesses": true, "--dist": true, "--maxprocesses": true, "--tx": true, "--rsyncdir": true,
	"--reruns": true, "--reruns-delay": true, "--only-rerun": true, "--timeout": true, "--timeout-method": true,
	"--randomly-seed": true, "--hypothesis-profile": true, "--hypothesis-seed": true, "--asyncio-mode": true,
	"--ds": true, "--dc": true, "--html": true,
}

// selection is the arguments that pick a test or a level.
func selection(req adapters.Request) []string {
	if len(req.Tests) > 0 {
		ids := make([]string, len(req.Tests))
		for i, t := range req.Tests {
			ids[i] = t.Name
		}
		if keep, _ := presentIDs(req.ProjectRoot, ids); len(keep) > 0 {
			return keep
		}
		return ids
	}
	if req.Test != "" {
		if !bareName(req) {
			return []string{req.Test}
		}
		return []string{"-k", req.Test}
	}
	if req.Level == adapters.LevelAll {
		return nil
	}
	if dir := LevelDir(req.ProjectRoot, req.Level); dir != "" {
		return []string{dir}
	}
	return []string{"-m", string(req.Level)}
}

// bareName says whether a request's test is a name alone, neither a node
// id nor a file: -k takes it, and every test whose name holds it, without
// case; strobe's plugin then keeps those of that very name, when any is
// (exactNameEnv).
func bareName(req adapters.Request) bool {
	file, _, _ := strings.Cut(req.Test, "::")
	return req.Test != "" && !strings.Contains(req.Test, "::") && !strings.HasSuffix(file, ".py") && !pathExists(filepath.Join(req.ProjectRoot, file))
}

// exactNameEnv hands strobe's plugin a bare name to keep (bareName).
const exactNameEnv = "STROBE_PYTEST_NAME"

// presentIDs splits node ids into those their files may still hold and
// those gone: the file is missing, or a name of the id (a class, a
// function, without its parameters; a doctest's last dotted name) no
// longer appears in it, renamed or removed since the run that failed it.
// pytest refuses a whole command for one id it cannot find ("ERROR: not
// found"), so --failed after a test's rename ran none of the others.
func presentIDs(root string, ids []string) (keep, gone []string) {
	files := map[string][]byte{}
	for _, id := range ids {
		file, rest, _ := strings.Cut(id, "::")
		data, ok := files[file]
		if !ok {
			data, _ = os.ReadFile(filepath.Join(root, file))
			files[file] = data
		}
		if data == nil && !pathExists(filepath.Join(root, file)) || strings.HasSuffix(file, ".py") && !holdsNames(data, rest) {
			gone = append(gone, id)
			continue
		}
		keep = append(keep, id)
	}
	return keep, gone
}

// holdsNames says whether a test file's source holds each name of a node
// id after its file ("TestC::test_m[1-2]").
func holdsNames(src []byte, rest string) bool {
	for part := range strings.SplitSeq(rest, "::") {
		name, _, _ := strings.Cut(part, "[")
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		if name != "" && !holdsWord(src, name) {
			return false
		}
	}
	return true
}

// holdsWord says whether src holds name as a whole identifier: test_one
// is not in a file that now defines only test_one_renamed.
func holdsWord(src []byte, name string) bool {
	ident := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
	}
	for off := 0; ; {
		i := bytes.Index(src[off:], []byte(name))
		if i < 0 {
			return false
		}
		start, end := off+i, off+i+len(name)
		if (start == 0 || !ident(src[start-1])) && (end == len(src) || !ident(src[end])) {
			return true
		}
		off = start + 1
	}
}

// LevelDir is the project's directory for a level (tests/unit, test/unit),
// "" when it has none.
func LevelDir(root string, l adapters.Level) string {
	for _, top := range []string{"tests", "test"} {
		if d := top + "/" + string(l); dirExists(filepath.Join(root, d)) {
			return d
		}
	}
	return ""
}

// pathExists: a file or directory. A file named is pytest's to run
// whatever its suffix (a text file of doctests, --doctest-glob).
func pathExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func dirExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}
