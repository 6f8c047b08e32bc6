package python

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"strobe/adapters/kit"
	"strobe/internal/lazyre"
	"strobe/report"
)

// Fatal reads an interpreter's dying words on stderr: faulthandler's
// "Fatal Python error: Segmentation fault" and the stack after it (pytest
// enables faulthandler; strobe's unittest runner does too), so that a
// crash names where in the project it happened.
type Fatal struct {
	Root  string
	error string // "Fatal Python error: …"
	at    string // the first frame of the dump in the project: "t.py:7 (f)"
	file  string // that frame's file and line
	line  int
}

var fatalPrefix = []byte("Fatal Python error: ")

// frameLine is a frame of faulthandler's dump: `  File "/p/t.py", line 10 in f`.
var frameLine = lazyre.New(`^\s+File "([^"]+)", line (\d+) in (.+)$`)

// Line reads one stderr line.
func (f *Fatal) Line(b []byte) {
	if f.error == "" {
		if bytes.HasPrefix(b, fatalPrefix) {
			f.error = kit.Clip(string(b))
		}
		return
	}
	if f.at == "" {
		f.frameAt(b)
	}
}

// frameAt keeps a frame line's place when the file is the project's.
func (f *Fatal) frameAt(b []byte) {
	m := frameLine.FindSubmatch(b)
	if m == nil || f.Root == "" || !filepath.IsAbs(string(m[1])) {
		return
	}
	rel, ok := kit.Rel(f.Root, string(m[1]))
	if !ok || strings.Contains(rel, "site-packages") {
		return
	}
	f.at = rel + ":" + string(m[2]) + " (" + string(m[3]) + ")"
	f.file = rel
	f.line, _ = strconv.Atoi(string(m[2]))
}

// Crash is an interpreter that died of a signal: a test that called
// os.abort() or crashed it (a segfault in C code), with the tests that
// were running.
func (f *Fatal) Crash(exit report.Exit, running []string) *report.Crash {
	sig := kit.ExitSignal(exit)
	c := &report.Crash{Type: kit.CrashType(sig), Signal: exit.Signal, SignalName: sig, ExitCode: exit.Code,
		RunningTests: running, Indicators: []string{"python_process_signaled"}}
	msg := "the Python process died of " + sig
	if len(running) > 0 {
		msg += " in " + running[0]
	}
	if f.at != "" {
		msg += " at " + f.at
	}
	if f.error != "" {
		msg += " (" + f.error + ")"
	}
	c.Message = msg
	return c
}

// CutShort is a session that ended, without a signal, before it said it
// was done: something called os._exit() in a test (pytest-timeout's
// thread method does, after dumping the stacks). The tests running then
// are the suspects. nil when the session finished or never began.
func CutShort(st State, exit report.Exit, running []string, framework string) *report.Crash {
	if !st.Hello || st.Done || !exit.Exited {
		return nil
	}
	msg := fmt.Sprintf("%s ended (exit %d) before its session finished", framework, exit.Code)
	if len(running) > 0 {
		msg += ", inside " + running[0] + ": a call to os._exit() or a timeout plugin that ends the process"
	}
	return &report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code, RunningTests: running,
		Indicators: []string{"python_session_cut_short"}, Message: msg}
}

// signal is the signal faulthandler's dying words name ("Fatal Python
// error: Aborted" is SIGABRT); "" when they name none.
func (f *Fatal) signal() string {
	text := strings.TrimPrefix(f.error, string(fatalPrefix))
	return kit.SignalByText(strings.ReplaceAll(strings.ToLower(text), "-", " "))
}

// UnrunHint says how many of the tests the framework collected did not
// run, for a session that ended before its last test (strobe stopped it,
// a signal, a test's os._exit): the counts are of the tests that ran. ""
// when all ran, or the framework did not say how many it collected.
func UnrunHint(st State, ran int, framework string) string {
	if st.Collected > ran {
		return fmt.Sprintf("%d of the %d tests %s collected did not run and %s in no count", st.Collected-ran, st.Collected, framework, map[bool]string{true: "is", false: "are"}[st.Collected-ran == 1])
	}
	return ""
}
