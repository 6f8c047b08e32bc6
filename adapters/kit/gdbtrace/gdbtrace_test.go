package gdbtrace_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"strobe/adapters"
	"strobe/adapters/kit/gdbtrace"
	"strobe/adapters/kit/gdbtrace/gdbtracetest"
	"strobe/internal/testutil"
	"strobe/report"
)

// TestTheProgramKeepsItsStreams: under gdb a program writes what it writes,
// nothing of gdb's, and gdb ends as the program did: its exit code, or its
// signal. A program without debug info runs, with a warning.
func TestTheProgramKeepsItsStreams(t *testing.T) {
	testutil.RequireTool(t, "gdb")
	for _, tc := range []struct {
		name, script string
		code         int
		sig          syscall.Signal
	}{
		{"exit", `echo out; echo err >&2; exit 3`, 3, 0},
		{"quoted args", `printf '%s|' "$0" "a b" 'c"d'; echo; echo err >&2`, 0, 0},
		{"signal", `echo out; echo err >&2; kill -SEGV $$`, 0, syscall.SIGSEGV},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := gdbtracetest.Spec(t, t.TempDir(), []string{"main"})
			g, err := gdbtrace.Prepare("test", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			argv := g.Argv([]string{"/bin/sh", "-c", tc.script, "zero", "a b", `c"d`})
			cmd := exec.Command(argv[0], argv[1:]...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err = cmd.Run()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatal(err)
			}
			wantOut := "out\n"
			if tc.name == "quoted args" {
				wantOut = "zero|a b|c\"d|\n"
			}
			if stdout.String() != wantOut || stderr.String() != "err\n" {
				t.Errorf("stdout %q, stderr %q: want %q and \"err\\n\" alone", stdout.String(), stderr.String(), wantOut)
			}
			ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if tc.sig != 0 {
				if !ws.Signaled() || ws.Signal() != tc.sig {
					t.Errorf("status %v, want killed by %v", ws, tc.sig)
				}
			} else if !ws.Exited() || ws.ExitStatus() != tc.code {
				t.Errorf("status %v, want exit %d", ws, tc.code)
			}
			_, metas := gdbtracetest.Events(t, spec.Out)
			if len(metas) != 1 || !strings.HasPrefix(metas[0].Tracer, "gdb ") || len(metas[0].Warnings) == 0 || !strings.HasPrefix(metas[0].Warnings[0], "no debug info") {
				t.Errorf("metas %+v, want the no-debug-info warning", metas)
			}
		})
	}
}

// TestPrepare: the script is written and Close removes it; without gdb the
// error says how to install it.
func TestPrepare(t *testing.T) {
	if _, err := gdbtrace.Prepare("cargo", []string{"PATH=" + t.TempDir()}); !adapters.IsUsage(err) || !strings.Contains(err.Error(), "apt-get install gdb") {
		t.Errorf("err %v, want a usage error with the install command", err)
	}
	testutil.RequireTool(t, "gdb")
	g, err := gdbtrace.Prepare("cargo", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(g.Script); err != nil {
		t.Fatal(err)
	}
	g.Parser(nil).(adapters.Closer).Close()
	if _, err := os.Stat(g.Dir); !os.IsNotExist(err) {
		t.Errorf("%s still there after Close", g.Dir)
	}
}

// TestParserKeepsWhatItWraps: wrapped for a trace, the adapter's parser
// still reads cut lines, shows its encoded output, names and reruns stuck
// tests: the runner finds those on the parser the wrapper holds
// (adapters.ParserAs). Before, the wrapper hid all it did not forward one
// by one: a traced cargo run's stdout events were cargo's and libtest's
// JSON lines, and its stuck tests had no rerun. Close closes both.
func TestParserKeepsWhatItWraps(t *testing.T) {
	dir := t.TempDir()
	inner := &everyParser{}
	p := (&gdbtrace.Gdb{Dir: dir}).Parser(inner)
	if _, ok := adapters.ParserAs[adapters.CutLiner](p); !ok {
		t.Error("CutLiner hidden")
	}
	if d, ok := adapters.ParserAs[adapters.Displayer](p); !ok {
		t.Error("Displayer hidden")
	} else if b, _ := d.Display(adapters.Stdout, []byte(`{"x":1}`)); string(b) != "x" {
		t.Errorf("shown %q, want the parser's own", b)
	}
	if _, ok := adapters.ParserAs[adapters.StacksOverEvents](p); !ok {
		t.Error("StacksOverEvents hidden")
	}
	if n, ok := adapters.ParserAs[adapters.StuckNamer](p); !ok {
		t.Error("StuckNamer hidden")
	} else if name, _ := n.NameStuck(context.Background(), nil); name.Name != "doctest" {
		t.Errorf("named %q", name.Name)
	}
	if r, ok := adapters.ParserAs[adapters.Reruner](p); !ok || r.Rerun("s", "t") != "rerun s t" {
		t.Error("Reruner hidden")
	}
	if err := p.(adapters.Closer).Close(); err != nil || !inner.closed {
		t.Errorf("close: %v, the parser's closed %v", err, inner.closed)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the script's directory left: %v", err)
	}
}

// everyParser does every optional thing a parser may.
type everyParser struct{ closed bool }

func (*everyParser) Line(adapters.Stream, []byte, bool)             {}
func (*everyParser) Finish(report.Exit) adapters.Outcome            { return adapters.Outcome{} }
func (*everyParser) CutLine(adapters.Stream, []byte, []byte)        {}
func (*everyParser) Display(adapters.Stream, []byte) ([]byte, bool) { return []byte("x"), true }
func (*everyParser) StacksOverEvents()                              {}
func (*everyParser) Rerun(suite, name string) string                { return "rerun " + suite + " " + name }
func (p *everyParser) Close() error                                 { p.closed = true; return nil }
func (*everyParser) NameStuck(context.Context, []string) (adapters.StuckName, bool) {
	return adapters.StuckName{Name: "doctest"}, true
}
