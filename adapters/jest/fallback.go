package jest

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
)

// readFallback records what jest's --json output says, once the run is
// over (jest writes the file at its end).
func (p *parser) readFallback() {
	f, err := os.Open(p.fallback)
	if err != nil {
		return // jest ended before writing it: Finish reads the exit
	}
	defer f.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.readJSON(f)
}

// readJSON turns jest's --json output into the reporter's events; p.mu is
// held.
func (p *parser) readJSON(r io.Reader) {
	res, err := format.DecodeJestReport(r)
	if err != nil {
		p.bad++
		return
	}
	p.handle(&event{Ev: "run"})
	for _, tr := range res.TestResults {
		// As the reporter names a name repeated in a file: "NAME #2", past
		// any name the file already gave.
		seen, used := map[string]int{}, map[string]bool{}
		for _, a := range tr.AssertionResults {
			ev := &event{Ev: "end", File: tr.Name, Name: a.Name(sep),
				Status: jsonStatus(a.Status), MS: a.Duration}
			title, n := ev.Name, seen[ev.Name]+1
			if n > 1 {
				ev.Title, ev.Name = title, fmt.Sprintf("%s #%d", title, n)
			}
			for used[ev.Name] {
				n++
				ev.Title, ev.Name = title, fmt.Sprintf("%s #%d", title, n)
			}
			seen[title], used[ev.Name] = n, true
			if ev.Status == "failed" {
				text := strings.Join(a.FailureMessages, "\n\n")
				ev.Msg = failureText(text)
				if ev.At = frameIn(text, tr.Name); ev.At == nil && a.Location != nil {
					ev.At = &location{File: tr.Name, Line: a.Location.Line, Col: a.Location.Column + 1}
				}
			}
			p.handle(ev)
		}
		if tr.Status == "failed" && len(tr.AssertionResults) == 0 {
			msg := failureText(tr.Message)
			msg = strings.TrimSpace(strings.TrimPrefix(msg, "● Test suite failed to run"))
			p.handle(&event{Ev: "suite", File: tr.Name, Msg: msg, At: frameIn(tr.Message, tr.Name)})
		}
	}
	p.handle(&event{Ev: "done"})
}

func jsonStatus(s string) string {
	switch s {
	case "passed", "failed", "todo":
		return s
	case "pending", "skipped", "disabled", "focused":
		return "skipped"
	}
	return "failed"
}

var (
	ansi = lazyre.New("\x1b\\[[0-9;]*[A-Za-z]")
	// frameLine is a V8 stack frame: "at fn (file:line:col)" or "at file:line:col".
	frameLine = lazyre.New(`^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?\s*$`)
)

// failureText is a failure's message without colours and without its
// stack frames, as the reporter makes it.
func failureText(text string) string {
	var b strings.Builder
	for _, l := range strings.Split(ansi.ReplaceAllString(text, ""), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "at ") {
			continue
		}
		b.WriteString(strings.TrimRight(l, " "))
		b.WriteByte('\n')
	}
	return strings.TrimSpace(collapseBlank(b.String()))
}

func collapseBlank(s string) string {
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	return s
}

// frameIn is the first frame in the test file (jest prints it absolute or
// relative to the rootDir), else the first outside node_modules and node's
// internals.
func frameIn(text, file string) *location {
	var first *location
	for _, l := range strings.Split(ansi.ReplaceAllString(text, ""), "\n") {
		m := frameLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		at := &location{File: m[1], Line: line, Col: col}
		if m[1] == file || strings.HasSuffix(file, "/"+m[1]) {
			at.File = file
			return at
		}
		if first == nil && !strings.Contains(m[1], "node_modules/") && !strings.HasPrefix(m[1], "node:") && !strings.HasPrefix(m[1], "internal/") {
			first = at
		}
	}
	return first
}
