// Package python is what strobe's Python adapters (pytest, unittest) share:
// finding the project's interpreter, the directory that holds the Python
// code strobe ships (shared by the runs, so that Python's bytecode cache
// lasts), the run's own directory (made at Plan, removed when the run is
// over), and the event channel that code writes: its decoder and its
// mapping into the Recorder.
//
// The events go to a file of their own that strobe tails, never to stdout
// or stderr: a test's print() cannot corrupt them, a crash keeps what was
// written, and the runner needs no file descriptor of ours (a Plan is an
// argv and an environment; the runner owns the process).
package python

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"strobe/adapters/kit"
	"strobe/internal/shell"
)

//go:embed strobe_events.py
var eventsModule []byte

// StacksModule is strobe_stacks.py: imported, it registers the process's
// Python stack dump for the stuck detector (the protocol is in package
// stuck: STROBE_STACKS_DIR, py-<pid>.txt, SIGUSR2). The plugin and the
// runner import it; tests that start Python processes of their own run it.
//
//go:embed strobe_stacks.py
var StacksModule []byte

// Interpreter is the Python a project's tests run with.
type Interpreter struct {
	// Path is the program to run: absolute, or as found on PATH.
	Path string
	// Shown is how a person would type it in the project's directory
	// (.venv/bin/python, python3), for rerun commands and hints.
	Shown string
}

// FindInterpreter picks the project's own interpreter: its .venv or venv,
// then the active $VIRTUAL_ENV (from the client's environment), then a
// .venv or venv above the project inside its repository (a workspace's,
// when strobe runs on one package or on tests/), then python3 (or python)
// on the client's PATH. Tests must import what the project installed, so
// the project's venv comes before anything on PATH.
func FindInterpreter(root string, env []string) (Interpreter, error) {
	if in, ok := venvIn(root, root); ok {
		return in, nil
	}
	if v := kit.EnvValue(env, "VIRTUAL_ENV"); v != "" {
		if p := filepath.Join(v, "bin", "python"); kit.FileExists(p) {
			return Interpreter{Path: p, Shown: p}, nil
		}
	}
	for _, dir := range reposParents(root) {
		if in, ok := venvIn(dir, root); ok {
			return in, nil
		}
	}
	for _, name := range []string{"python3", "python"} {
		if p, err := shell.LookPath(name, env); err == nil {
			return Interpreter{Path: p, Shown: name}, nil
		}
	}
	return Interpreter{}, errors.New("no python3 on PATH and no .venv or venv in the project")
}

// venvIn is dir's .venv or venv interpreter, shown relative to root.
func venvIn(dir, root string) (Interpreter, bool) {
	for _, name := range []string{".venv", "venv"} {
		p := filepath.Join(dir, name, "bin", "python")
		if !kit.FileExists(p) {
			continue
		}
		shown, err := filepath.Rel(root, p)
		if err != nil {
			shown = p
		}
		return Interpreter{Path: p, Shown: shown}, true
	}
	return Interpreter{}, false
}

// reposParents lists root's parents up to the top of its repository (the
// directory that holds .git), nearest first; none outside a repository,
// where a venv above could be anyone's (a home directory's).
func reposParents(root string) []string {
	var dirs []string
	for d := root; !exists(filepath.Join(d, ".git")); { // a directory, or a worktree's file
		parent := filepath.Dir(d)
		if parent == d {
			return nil
		}
		d = parent
		dirs = append(dirs, d)
	}
	return dirs
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// HasModule says whether the interpreter can import module, without
// importing it: from the files when they tell (installed), else by asking
// Python (askPython).
func (in Interpreter) HasModule(ctx context.Context, dir string, env []string, module string) (bool, error) {
	if in.installed(dir, env, module) {
		return true, nil
	}
	return in.askPython(ctx, dir, env, module)
}

// askPython asks the interpreter whether it finds module (find_spec, not
// an import): its start-up, 20 ms, or 120 through a pyenv shim.
func (in Interpreter) askPython(ctx context.Context, dir string, env []string, module string) (bool, error) {
	code := fmt.Sprintf("import importlib.util, sys; sys.exit(0 if importlib.util.find_spec(%q) else 3)", module)
	_, stderr, err := kit.RunTool(ctx, kit.Tool{Dir: dir, Env: env, Timeout: 15 * time.Second, MaxOutput: 4 << 10}, in.Path, "-c", code)
	if err == nil {
		return true, nil
	}
	var exit interface{ ExitCode() int }
	if errors.As(err, &exit) && exit.ExitCode() == 3 {
		return false, nil
	}
	return false, fmt.Errorf("%s could not be run: %w (%s)", in.Shown, err, strings.TrimSpace(string(stderr)))
}

// Workdir is what a run's Python side needs: the directory of the Python
// modules strobe ships, put first on PYTHONPATH, and the events file they
// write, in a directory of the run's own.
type Workdir struct {
	Dir    string
	Events string
	run    string // the run's own directory, which Remove deletes
}

// NewWorkdir writes the shared event module and the adapter's own modules
// (name → source) where Python finds them, and makes the run's directory
// (its name from pattern) for the events file.
//
// The modules go in a directory that every run with the same modules
// shares (kit.SharedDir), so that Python's bytecode cache and pytest's
// assertion-rewrite cache written beside them last from run to run:
// written afresh for every run, they were compiled for every run, 13 ms of
// a 320 ms pytest run (docs/perf.md). Where no such directory can be had,
// they go in the run's directory, as they did before.
func NewWorkdir(pattern string, modules map[string][]byte) (*Workdir, error) {
	run, err := os.MkdirTemp("", pattern)
	if err != nil {
		return nil, fmt.Errorf("creating strobe's python directory: %w", err)
	}
	files := shipped(modules)
	w := &Workdir{Dir: kit.SharedDir("python", files), Events: filepath.Join(run, "events.jsonl"), run: run}
	if w.Dir == "" {
		w.Dir = run
		if err := kit.WriteShipped(run, files); err != nil {
			os.RemoveAll(run)
			return nil, err
		}
	}
	return w, nil
}

// shipped is every module a run's Python side imports: the shared ones
// and the adapter's own (name → source).
func shipped(modules map[string][]byte) map[string][]byte {
	files := map[string][]byte{"strobe_events.py": eventsModule, "strobe_stacks.py": StacksModule, "strobe_trace.py": traceModule}
	maps.Copy(files, modules)
	return files
}

// Env is what the run's environment needs: strobe's modules first on the
// project's own PYTHONPATH, and where to write events.
func (w *Workdir) Env(env []string) []string {
	path := w.Dir
	if old := kit.EnvValue(env, "PYTHONPATH"); old != "" {
		path += string(os.PathListSeparator) + old
	}
	return []string{"PYTHONPATH=" + path, "STROBE_PY_EVENTS=" + w.Events}
}

// Remove deletes the run's directory; the shared modules stay.
func (w *Workdir) Remove() error { return os.RemoveAll(w.run) }
