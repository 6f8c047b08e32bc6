package pytest

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/python"
	"strobe/internal/lazyre"
	"strobe/report"
)

// pytest-timeout's thread method, on a test that runs past its timeout,
// writes every other thread's stack to the terminal between two
// "+++ Timeout +++" rules, then ends pytest with os._exit(1): no report,
// no session end. timeoutDump reads that block from stdout, so that the
// test is said to have timed out, where it was then, and not to be a
// crash of pytest.
type timeoutDump struct {
	in     bool     // between the two rules
	seen   bool     // a block was read
	thread string   // the thread whose stack is being read; "" in a captured section
	frames []pyLine // the frames of the test's thread (MainThread), outermost first
	first  []pyLine // the first other thread's frames in the project, when MainThread has none
	cur    []pyLine // the frames of the thread being read
	text   []byte   // the block, bounded
}

type pyLine struct {
	fn   string
	file string // absolute, as Python wrote it
	line int
}

// maxDump bounds the block kept for the test's output.
const maxDump = 64 << 10

var (
	// The first rule may follow the progress of the test's file on its
	// line ("test_x.py .+++ Timeout +++"): no newline comes before it.
	timeoutRule  = lazyre.New(`\++ Timeout \++$`)
	threadHeader = lazyre.New(`^~+ Stack of (.+) \(\d+\) ~+$`)
	otherSection = lazyre.New(`^~+ .+ ~+$`)
)

// line reads a stdout line; it says whether the line was the block's.
func (d *timeoutDump) line(b []byte, root string) bool {
	if !d.in {
		if b[len(b)-1] == '+' && timeoutRule.Match(b) {
			d.in, d.seen, d.thread, d.frames, d.first, d.cur, d.text = true, true, "", nil, nil, nil, d.text[:0]
			d.keep(b)
			return true
		}
		return false
	}
	d.keep(b)
	switch {
	case b[0] == '+' && timeoutRule.Match(b):
		d.endThread(root)
		d.in = false
	case b[0] == '~':
		d.endThread(root)
		if m := threadHeader.FindSubmatch(b); m != nil {
			d.thread = string(m[1])
		} else if otherSection.Match(b) {
			d.thread = "" // the test's captured output, log
		}
	case d.thread != "" && b[0] == ' ':
		if m := tracebackFrame.FindSubmatch(b); m != nil {
			n, _ := strconv.Atoi(string(m[2]))
			d.cur = append(d.cur, pyLine{fn: string(m[3]), file: string(m[1]), line: n})
		}
	}
	return true
}

func (d *timeoutDump) keep(b []byte) {
	if len(d.text)+len(b) < maxDump {
		d.text = append(append(d.text, b...), '\n')
	}
}

// endThread files the stack just read: the test runs in MainThread, as
// pytest runs its tests; another thread with project frames stands in
// when the dump has no MainThread.
func (d *timeoutDump) endThread(root string) {
	switch {
	case d.thread == "MainThread":
		d.frames = d.cur
	case d.first == nil && d.thread != "" && d.projectFrame(d.cur, root) >= 0:
		d.first = d.cur
	}
	d.thread, d.cur = "", nil
}

// projectFrame is the index of the innermost frame in the project's
// files, -1 when there is none.
func (d *timeoutDump) projectFrame(fs []pyLine, root string) int {
	for i := len(fs) - 1; i >= 0; i-- {
		if _, ok := projectPath(root, fs[i].file); ok {
			return i
		}
	}
	return -1
}

func projectPath(root, file string) (string, bool) {
	if !filepath.IsAbs(file) {
		return "", false
	}
	rel, ok := kit.Rel(root, file)
	if !ok || strings.Contains(rel, "site-packages") || strings.Contains(rel, "dist-packages") {
		return "", false
	}
	return rel, true
}

// stack is the test's thread's frames from its first project frame in,
// innermost first, as the stuck detector says a thread's; and the
// innermost project frame's place.
func (d *timeoutDump) stack(root string) (frames []string, file string, line int) {
	fs := d.frames
	if d.projectFrame(fs, root) < 0 {
		fs = d.first
	}
	outer := -1
	for i, f := range fs {
		if rel, ok := projectPath(root, f.file); ok {
			if outer < 0 {
				outer = i
			}
			file, line = rel, f.line
		}
	}
	if outer < 0 {
		return nil, "", 0
	}
	for i := len(fs) - 1; i >= outer && len(frames) < maxStack; i-- {
		f := fs[i]
		where := f.file
		if rel, ok := projectPath(root, f.file); ok {
			where = rel
		} else if j := strings.LastIndex(where, "-packages/"); j >= 0 {
			where = where[j+len("-packages/"):]
		} else {
			where = filepath.Base(where)
		}
		frames = append(frames, fmt.Sprintf("%s (%s:%d)", f.fn, where, f.line))
	}
	return frames, file, line
}

// maxStack bounds the frames a timed-out test's message says.
const maxStack = 12

// timeoutExit fills out for a session pytest-timeout's thread method
// ended: each running test failed, timed out, at the frame its thread
// was in; no crash (pytest-timeout ended it on purpose), but the tests
// after it never ran, which the hint counts. It says whether it did.
// Mu is held.
func (p *parser) timeoutExit(st python.State, exit report.Exit, out *adapters.Outcome) bool {
	running := p.rec.Running("")
	if !p.dump.seen || !st.Hello || st.Done || !exit.Exited || len(running) == 0 {
		return false
	}
	frames, file, line := p.dump.stack(p.root)
	since := map[string]float64{}
	for _, r := range p.rec.Progress().Running {
		since[r.Name] = time.Since(r.Since).Seconds()
	}
	for _, id := range running {
		what := "pytest-timeout stopped the test"
		if s := since[id]; s > 0 {
			what += fmt.Sprintf(" after %.1fs", s)
		}
		what += fmt.Sprintf(" and ended pytest (its thread method's os._exit(%d))", exit.Code)
		f := &report.Failure{Message: kit.Clip(python.TimedOut(what, frames)), File: file, Line: line, Rerun: p.rerun(id)}
		if f.File == "" {
			f.File, f.Line = p.M.DefinedAt(id)
		}
		p.rec.Output("", id, string(bytes.TrimRight(p.dump.text, "\n"))+"\n")
		p.rec.End("", id, report.TestFailed, 0, f)
	}
	out.Indicators = append(out.Indicators, "test_timed_out", "pytest_timeout_ended_session", report.IndicatorBinaryDied)
	hint := fmt.Sprintf("pytest-timeout's thread method ended pytest when %s ran past its timeout", running[0])
	if ran := len(p.rec.Tests()); st.Collected > ran {
		hint += fmt.Sprintf(": %d of the %d tests collected did not run", st.Collected-ran, st.Collected)
	}
	out.Hint = joinHint(out.Hint, hint+" (--timeout-method=signal fails the test and goes on)")
	return true
}
