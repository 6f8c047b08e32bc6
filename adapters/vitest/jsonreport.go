package vitest

import (
	"bytes"
	"os"
	"strconv"
	"strings"

	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
)

// readJSONReport records the tests of vitest's JSON report file.
func (p *parser) readJSONReport() {
	b, err := os.ReadFile(p.jsonReport)
	if err != nil {
		return
	}
	p.jsonEvents(b)
}

// jsonEvents turns a JSON report into the events the reporter would have
// written, so that both paths record tests the same way.
func (p *parser) jsonEvents(b []byte) {
	r, err := format.DecodeJestReport(bytes.NewReader(b))
	if err != nil {
		p.badLines++
		return
	}
	p.began, p.ended = true, true
	// The report is the run's record: what the live events recorded
	// gives way to it. A batch vitest sent between a failed try and the
	// retry that passed (or before a test.fails test's result was turned
	// over) said failed, and the Recorder keeps the worse of two ends.
	for k := range p.early {
		p.rec.Forget(k[0], k[1])
	}
	for _, f := range r.TestResults {
		if len(f.AssertionResults) == 0 && f.Status == "failed" {
			p.moduleError(event{File: f.Name, Error: stackError(f.Message, f.Name)})
			continue
		}
		for _, a := range f.AssertionResults {
			name := assertionName(a)
			if p.selected != nil && a.Status != "passed" && a.Status != "failed" && !p.selected.MatchString(name) {
				continue // left out by -t
			}
			e := event{Ev: "end", File: f.Name, Name: name, MS: a.Duration}
			switch a.Status {
			case "passed":
				e.Status = "passed"
			case "failed":
				e.Status = "failed"
				if len(a.FailureMessages) > 0 {
					e.Error = stackError(a.FailureMessages[0], f.Name)
					for _, m := range a.FailureMessages[1:] {
						e.More = append(e.More, stackError(m, f.Name))
					}
				}
				if e.Error != nil && e.Error.Line == 0 && a.Location != nil {
					e.Error.File, e.Error.Line, e.Error.Col = f.Name, a.Location.Line, a.Location.Column
				}
			default: // skipped, pending, todo
				e.Status = "skipped"
			}
			p.rec.Start(p.path(f.Name), name)
			p.end(e)
		}
	}
}

// assertionName is a test's full name as the live reporter gives it:
// its describe blocks' titles and its own, joined by " > ". vitest 1's
// report starts the blocks with an empty one (the file's), which made
// every name start with " > " and match no -t of the name vitest prints.
func assertionName(a format.JestAssertion) string {
	parts := make([]string, 0, len(a.AncestorTitles)+1)
	for _, t := range a.AncestorTitles {
		if t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(append(parts, a.Title), " > ")
}

// v8Frame is a frame of a V8 stack: "    at fn (file:line:col)" or
// "    at file:line:col".
var v8Frame = lazyre.New(`^\s+at (?:.*? \()?(?:file://)?(.+?):(\d+):(\d+)\)?$`)

// stackError splits an error's text as vitest's JSON report gives it
// (message, then the stack) into its message and the frame in the test
// file, else the first frame outside node_modules and node's own.
func stackError(text, testFile string) *testError {
	e := &testError{}
	var msg []string
	var fallback *testError
	inStack := false
	for _, l := range strings.Split(text, "\n") {
		m := v8Frame.FindStringSubmatch(l)
		if m == nil {
			if !inStack {
				msg = append(msg, l)
			}
			continue
		}
		inStack = true
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		switch {
		case m[1] == testFile && e.Line == 0:
			e.File, e.Line, e.Col = m[1], line, col
		case fallback == nil && strings.HasPrefix(m[1], "/") && !strings.Contains(m[1], "/node_modules/"):
			fallback = &testError{File: m[1], Line: line, Col: col}
		}
	}
	if e.Line == 0 && fallback != nil {
		e.File, e.Line, e.Col = fallback.File, fallback.Line, fallback.Col
	}
	e.Message = kit.Clip(strings.TrimSpace(strings.Join(msg, "\n")))
	// As the live reporter gives it: an assertion's message without its
	// error's name, another error's (TypeError: …) with it.
	for _, name := range []string{"AssertionError: ", "Error: "} {
		if m, ok := strings.CutPrefix(e.Message, name); ok {
			e.Message = m
			break
		}
	}
	return e
}
