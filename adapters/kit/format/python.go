package format

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"strobe/internal/lazyre"
	"strobe/report"
)

// PyFrame is one frame of a Python stack.
type PyFrame struct {
	Func string // "withdraw", "<module>", py-spy's "Account.withdraw"
	File string
	Line int
	// Source is the line of code a traceback prints under the frame; ""
	// in a faulthandler dump.
	Source string `json:",omitempty"`
}

// PyThread is one thread of a Python stack dump, innermost frame first.
type PyThread struct {
	// ID is faulthandler's thread identifier ("0x00007f08212c76c0", the
	// pthread id) or py-spy's.
	ID string
	// TID is the kernel's thread id when the tool knows it (py-spy,
	// strobe's dump handler); 0 for faulthandler.
	TID int `json:",omitempty"`
	// Name is the threading name when the tool knows it (py-spy).
	Name string `json:",omitempty"`
	// Current marks the thread that took the signal (faulthandler) or
	// holds the GIL (py-spy).
	Current bool `json:",omitempty"`
	Frames  []PyFrame
	// Truncated says the dump left frames out (faulthandler stops at 100).
	Truncated bool `json:",omitempty"`
	// Task marks an asyncio task's await chain, which strobe's dump
	// handler adds after the threads ("Task 0x… [Task-1] (most recent
	// call first):", its name in Name): a coroutine that awaits is on no
	// thread's stack.
	Task bool `json:",omitempty"`
}

// faulthandlerHeader matches a thread's header in a faulthandler dump:
// "Thread 0x00007f08212c76c0 (most recent call first):", "Current thread
// 0x… (most recent call first):", and "Stack (most recent call first):"
// when only one thread was dumped. Python 3.14 adds the thread's name in
// brackets after the id. strobe's own dump handler adds the kernel's
// thread id ("Thread 0x… tid 4242 (most recent call first):") and asyncio
// tasks as "Task 0x… [NAME] (most recent call first):".
var faulthandlerHeader = lazyre.New(`^(Current thread|Thread|Stack|Task)(?: (0x[0-9a-fA-F]+))?(?: \[(.*)\])?(?: tid (\d+))? \(most recent call first\):$`)

// faulthandlerFrame matches `  File "/src/x.py", line 12 in spin`.
var faulthandlerFrame = lazyre.New(`^\s+File "(.*)", line (\d+) in (.*)$`)

// ParseFaulthandler reads what faulthandler.dump_traceback (on a signal,
// a fault or a timeout) writes: each dump, its threads in the order
// written (newest thread first, the main thread last), each thread's
// stack innermost frame first. Dumps appended to one file (one per
// signal) follow each other with no separator, while a dump's threads are
// separated by a blank line: a header right after a frame starts a dump.
func ParseFaulthandler(text string) [][]PyThread {
	var dumps [][]PyThread
	var cur *PyThread
	blank := true // the start of the text starts a dump
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := faulthandlerHeader.FindStringSubmatch(line); m != nil {
			t := PyThread{ID: m[2], Name: m[3], Current: m[1] == "Current thread" || m[1] == "Stack", Task: m[1] == "Task"}
			t.TID, _ = strconv.Atoi(m[4])
			if !blank || len(dumps) == 0 {
				dumps = append(dumps, nil)
			}
			d := &dumps[len(dumps)-1]
			*d = append(*d, t)
			cur = &(*d)[len(*d)-1]
			blank = false
			continue
		}
		blank = line == ""
		if cur == nil {
			continue
		}
		switch m := faulthandlerFrame.FindStringSubmatch(line); {
		case m != nil:
			n, _ := strconv.Atoi(m[2])
			cur.Frames = append(cur.Frames, PyFrame{Func: m[3], File: m[1], Line: n})
		case strings.TrimSpace(line) == "...":
			cur.Truncated = true
		case line == "":
			cur = nil // a blank line ends a thread; anything up to the next header is not ours
		}
	}
	return dumps
}

// PyTraceback is one exception of a Python traceback: its frames,
// innermost first, and the exception line ("ValueError: boom").
type PyTraceback struct {
	Frames    []PyFrame
	Exception string
}

// tracebackFrame matches `  File "/src/x.py", line 12, in withdraw`.
var tracebackFrame = lazyre.New(`^(\s*)File "(.*)", line (\d+), in (.*)$`)

// caretLine is the markers Python 3.11+ prints under a frame's source.
var caretLine = lazyre.New(`^\s*[~^]+\s*$`)

// exceptionLine matches the line that ends a traceback: a dotted name,
// then a colon and the message, or nothing.
var exceptionLine = lazyre.New(`^[A-Za-z_][\w.]*(: .*|:)?$`)

// ParsePythonTracebacks reads every `Traceback (most recent call last):`
// in text (a chained exception prints one per cause, the last one being
// the exception raised), frames innermost first. Exception groups' "| "
// margins are read through.
func ParsePythonTracebacks(text string) []PyTraceback {
	var tbs []PyTraceback
	var cur *PyTraceback
	var frames []PyFrame // outermost first, as printed
	indent := ""
	flush := func(exc string) {
		if cur == nil {
			return
		}
		for i := len(frames) - 1; i >= 0; i-- {
			cur.Frames = append(cur.Frames, frames[i])
		}
		cur.Exception = exc
		tbs = append(tbs, *cur)
		cur, frames = nil, nil
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(groupMargin(strings.TrimRight(line, "\r")), " ")
		if strings.TrimSpace(line) == "Traceback (most recent call last):" {
			flush("")
			cur = &PyTraceback{}
			indent = line[:len(line)-len(strings.TrimLeft(line, " "))]
			continue
		}
		if cur == nil {
			continue
		}
		if m := tracebackFrame.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[3])
			frames = append(frames, PyFrame{Func: m[4], File: m[2], Line: n})
			continue
		}
		rest, ok := strings.CutPrefix(line, indent)
		switch {
		case !ok || rest == "":
			continue
		case strings.HasPrefix(rest, " "):
			// The frame's source, its carets, or "[Previous line repeated
			// 996 more times]".
			if len(frames) > 0 && frames[len(frames)-1].Source == "" && !caretLine.MatchString(rest) && !strings.HasPrefix(strings.TrimSpace(rest), "[Previous line") {
				frames[len(frames)-1].Source = strings.TrimSpace(rest)
			}
		case exceptionLine.MatchString(rest) || strings.Contains(rest, ": "):
			flush(rest)
		}
	}
	flush("")
	return tbs
}

// groupMargin strips the "| " margin of an exception group's nested
// tracebacks ("  | Traceback…", "    +---------------- 1 ----").
func groupMargin(line string) string {
	t := strings.TrimLeft(line, " ")
	switch {
	case strings.HasPrefix(t, "| "):
		return strings.Repeat(" ", len(line)-len(t)) + t[2:]
	case strings.HasPrefix(t, "+-") || strings.HasPrefix(t, "+ "):
		return ""
	}
	return line
}

// pySpyThread is one thread of `py-spy dump --json`.
type pySpyThread struct {
	ThreadID   uint64 `json:"thread_id"`
	ThreadName string `json:"thread_name"`
	OSThreadID int    `json:"os_thread_id"`
	OwnsGIL    bool   `json:"owns_gil"`
	Frames     []struct {
		Name     string `json:"name"`
		Filename string `json:"filename"`
		Line     int    `json:"line"`
	} `json:"frames"`
}

// ParsePySpyJSON reads `py-spy dump --pid N --json`: every thread, with
// its kernel thread id and name, innermost frame first.
func ParsePySpyJSON(b []byte) ([]PyThread, error) {
	var raw []pySpyThread
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("reading py-spy's dump: %w", err)
	}
	threads := make([]PyThread, 0, len(raw))
	for _, r := range raw {
		t := PyThread{ID: fmt.Sprintf("%#016x", r.ThreadID), TID: r.OSThreadID, Name: r.ThreadName, Current: r.OwnsGIL}
		for _, f := range r.Frames {
			t.Frames = append(t.Frames, PyFrame{Func: f.Name, File: f.Filename, Line: f.Line})
		}
		threads = append(threads, t)
	}
	return threads, nil
}

var pytestCount = lazyre.New(`(\d+) (passed|failed|skipped|errors?|xfailed|xpassed)`)

// PytestCounts reads the counts of pytest's closing line ("1 failed, 3
// passed, 1 xfailed in 0.12s"): xpassed counts passed, errors failed and
// xfailed skipped. The pytest adapter and the generic one (pytest run
// through a script) read them alike.
func PytestCounts(line string) *report.Summary {
	s := &report.Summary{}
	for _, m := range pytestCount.FindAllStringSubmatch(line, -1) {
		n, _ := strconv.Atoi(m[1])
		switch m[2] {
		case "passed", "xpassed":
			s.Passed += n
		case "failed", "error", "errors":
			s.Failed += n
		case "skipped", "xfailed":
			s.Skipped += n
		}
	}
	return s
}
