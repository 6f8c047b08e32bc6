package mocha

import (
	"encoding/json"
	"strings"
	"sync"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/node"
	"strobe/internal/lazyre"
	"strobe/report"
)

// maxJSON bounds what the fallback keeps of mocha's JSON report.
const maxJSON = 32 << 20

// jsonParser reads mocha's own JSON reporter (--reporter json) from stdout
// once the run is over: the fallback when strobe's reporter cannot be
// written. mocha prints the report last, a "{" line at its start; what
// tests printed comes before it. Names are mocha's full titles (describe
// blocks and test joined by spaces): the report does not keep them apart.
type jsonParser struct {
	rec    *adapters.Recorder
	cfg    node.EventsConfig
	mu     sync.Mutex
	report []string
	size   int
	stderr []string
}

func newJSONParser(rec *adapters.Recorder, cfg node.EventsConfig) *jsonParser {
	return &jsonParser{rec: rec, cfg: cfg}
}

func (p *jsonParser) Line(s adapters.Stream, b []byte, _ bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := string(b)
	switch {
	case s == adapters.Stderr:
		if len(p.stderr) < maxEarly {
			p.stderr = append(p.stderr, line)
		}
	case line == "{": // the report's first line: what came before was output
		p.report, p.size = []string{line}, len(line)
	case p.report != nil && p.size < maxJSON:
		p.report = append(p.report, line)
		p.size += len(line) + 1
	}
}

type jsonTest struct {
	Title     string  `json:"title"`
	FullTitle string  `json:"fullTitle"`
	File      string  `json:"file"`
	Duration  float64 `json:"duration"`
	Err       struct {
		Message  string `json:"message"`
		Stack    string `json:"stack"`
		Expected any    `json:"expected"`
		Actual   any    `json:"actual"`
	} `json:"err"`
}

type jsonReport struct {
	Tests    []jsonTest `json:"tests"`
	Pending  []jsonTest `json:"pending"`
	Failures []jsonTest `json:"failures"`
}

func (p *jsonParser) Finish(exit report.Exit) adapters.Outcome {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := adapters.Outcome{Hint: p.cfg.Note}
	var r jsonReport
	if p.report == nil || json.Unmarshal([]byte(strings.Join(p.report, "\n")), &r) != nil {
		if be, ok := loadError(p.cfg.Root, p.stderr); ok && exit.Exited && exit.Code != 0 {
			out.BuildFailed, out.BuildErrors = true, []report.BuildError{be}
		}
		return out
	}
	failed := map[string]bool{}
	for _, t := range r.Failures {
		failed[t.File+"\x00"+t.FullTitle] = true
	}
	pending := map[string]bool{}
	for _, t := range r.Pending {
		pending[t.File+"\x00"+t.FullTitle] = true
	}
	// Hook failures are in failures only.
	all := append(r.Tests, r.Failures...)
	seen := map[string]bool{}
	for _, t := range all {
		key := t.File + "\x00" + t.FullTitle
		if seen[key] {
			continue
		}
		seen[key] = true
		name := t.FullTitle
		if name == "" {
			// A test titled "" at the top level: still counted, and a
			// failure still fails, under a name that says so (and no
			// rerun by name).
			name = "(a test mocha did not name)"
		}
		suite := kit.ProjectPath(p.cfg.Root, t.File)
		d := kit.DurationOf(t.Duration / 1000)
		switch {
		case failed[key]:
			f := &report.Failure{Name: name, File: suite, Message: kit.Clip(t.Err.Message)}
			if file, line, ok := stackFrame(p.cfg.Root, t.Err.Stack, t.File); ok {
				f.File, f.Line = file, line
			}
			if p.cfg.Rerun != nil && t.FullTitle != "" {
				f.Rerun = p.cfg.Rerun(suite, t.FullTitle)
			}
			p.rec.End(suite, name, report.TestFailed, d, f)
		case pending[key]:
			p.rec.End(suite, name, report.TestSkipped, d, nil)
		default:
			p.rec.End(suite, name, report.TestPassed, d, nil)
		}
	}
	if len(seen) == 0 {
		out.NoTests = true
		out.Hint = strings.Join(append(nonEmpty(out.Hint), p.cfg.NoTests.For(p.cfg.Test, p.cfg.Level)), "; ")
	}
	return out
}

// relFrame is a frame of a stack mocha has trimmed: "at Context.<anonymous>
// (test/a.spec.js:10:12)", relative to the working directory.
var relFrame = lazyre.New(`^\s*at (?:.*? \()?([^():]+):(\d+):\d+\)?$`)

// stackFrame is the first frame of stack in the test file, else the first
// outside node_modules and node's own.
func stackFrame(root, stack, testFile string) (string, int, bool) {
	var first string
	var firstLine int
	for _, l := range strings.Split(stack, "\n") {
		m := relFrame.FindStringSubmatch(l)
		if m == nil || strings.HasPrefix(m[1], "node:") || strings.Contains(m[1], "node_modules/") {
			continue
		}
		file := kit.ProjectPath(root, m[1])
		if file == kit.ProjectPath(root, testFile) {
			return file, atoi(m[2]), true
		}
		if first == "" {
			first, firstLine = file, atoi(m[2])
		}
	}
	return first, firstLine, first != ""
}
