// Package gdbtrace is the native tracer of a traced run (Request.Trace):
// gdb with strobe's Python script, for the adapters whose tests are native
// binaries (cargo, Catch2, GoogleTest).
//
// An adapter prepares a Gdb at Plan (the script written to a private
// directory), wraps each test binary's argv with Argv (or, for cargo, puts
// Prefix in its runner), and wraps its parser with Parser so that the
// directory goes when the runner closes the parser. The script reads the
// spec named by trace.SpecEnv, writes events-<gdb pid>.jsonl under the
// spec's Out, keeps gdb's own messages off the test's stdout and stderr,
// and ends gdb as the test binary ended: same exit code, or killed by the
// same signal. gdb is the binary's parent and stays in the run's process
// group, so the runner's kill takes both; gdb's SIGTERM handler kills the
// binary too.
package gdbtrace

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"

	"strobe/adapters"
	"strobe/internal/shell"
)

//go:embed strobe_gdb.py
var script []byte

// RefusedExit is the exit code of a test binary's gdb that refused to run
// it (patterns matching more than trace.MaxFunctions) or failed to trace.
const RefusedExit = 125

// Gdb is one traced run's gdb and script.
type Gdb struct {
	// Path is gdb's path on the run's PATH.
	Path string
	// Script is strobe_gdb.py, in Dir, a directory of its own that
	// Close removes.
	Script string
	Dir    string
}

// Prepare finds gdb on env's PATH and writes the script. framework names
// the adapter in the error a missing gdb gives.
func Prepare(framework string, env []string) (*Gdb, error) {
	path, err := shell.LookPath("gdb", env)
	if err != nil {
		return nil, &adapters.UsageError{
			Msg:       fmt.Sprintf("%s: tracing native tests needs gdb, which is not on PATH", framework),
			Framework: framework,
			Hint:      "install it (apt-get install gdb), then rerun",
		}
	}
	dir, err := os.MkdirTemp("", "strobe-gdb-")
	if err != nil {
		return nil, fmt.Errorf("%s: tracer directory: %w", framework, err)
	}
	g := &Gdb{Path: path, Dir: dir, Script: filepath.Join(dir, "strobe_gdb.py")}
	if err := os.WriteFile(g.Script, script, 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%s: tracer script: %w", framework, err)
	}
	return g, nil
}

// Prefix is the command that runs a program under the tracer: the
// program and its arguments follow it.
func (g *Gdb) Prefix() []string {
	// -nx: no user .gdbinit may change what the script relies on;
	// -batch: gdb ends when the script does; -iex: the script moves
	// gdb's own output away before gdb loads the program and warns about
	// it, then -x traces.
	return []string{g.Path, "-q", "-nx", "-batch", "-iex", "source " + g.Script, "-x", g.Script, "--args"}
}

// ShowUntraced has the answer name the plan's command as it is before
// gdb wraps it (call it first): the traced command names the tracer's
// script, in a directory removed once the run ends, so pasted it failed,
// and a cargo run's was three lines of quoting around it. The untraced
// command runs the same tests; the answer's trace names the tracer.
func ShowUntraced(plan *adapters.Plan) {
	if plan.Shown == "" {
		plan.Shown = shell.Join(plan.Argv)
	}
}

// Argv runs argv under the tracer.
func (g *Gdb) Argv(argv []string) []string {
	return append(g.Prefix(), argv...)
}

// Close removes the script's directory.
func (g *Gdb) Close() error { return os.RemoveAll(g.Dir) }

// Parser wraps an adapter's parser: Close closes it, then removes the
// script's directory. The runner finds what else the parser does (reads
// cut lines, shows its encoded output, names and reruns stuck tests) on
// the parser itself (adapters.ParserAs): before, the wrapper hid all but
// what it forwarded one by one, and a traced cargo run's stdout events
// were cargo's and libtest's JSON lines, its stuck tests without a rerun.
func (g *Gdb) Parser(p adapters.Parser) adapters.Parser {
	return wrapped{Parser: p, g: g}
}

type wrapped struct {
	adapters.Parser
	g *Gdb
}

func (w wrapped) Unwrap() adapters.Parser { return w.Parser }

func (w wrapped) Close() error {
	var err error
	if c, ok := w.Parser.(adapters.Closer); ok {
		err = c.Close()
	}
	if e := w.g.Close(); err == nil {
		err = e
	}
	return err
}
