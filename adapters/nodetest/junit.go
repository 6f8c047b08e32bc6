package nodetest

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"sync"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/node"
	"strobe/internal/lazyre"
	"strobe/report"
)

// maxJUnit bounds what the fallback keeps of node's JUnit report.
const maxJUnit = 32 << 20

// junitParser reads node's own JUnit reporter from stdout once the run is
// over: the fallback when strobe's reporter cannot be written. Test names
// are full titles (describe blocks joined by " › "); the report names no
// file, so a test's suite is the file of its failure's first frame in the
// project, and "" for the others.
type junitParser struct {
	rec  *adapters.Recorder
	cfg  node.EventsConfig
	mu   sync.Mutex
	buf  strings.Builder
	seen bool // the XML declaration came
}

func (p *junitParser) Line(s adapters.Stream, b []byte, _ bool) {
	if s != adapters.Stdout {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if strings.HasPrefix(string(b), "<?xml") {
		p.seen = true
		p.buf.Reset()
	}
	if p.seen && p.buf.Len() < maxJUnit {
		p.buf.Write(b)
		p.buf.WriteByte('\n')
	}
}

func (p *junitParser) Finish(report.Exit) adapters.Outcome {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := adapters.Outcome{Hint: p.cfg.Note}
	n := p.decode(xml.NewDecoder(strings.NewReader(p.buf.String())))
	if n == 0 {
		out.NoTests = true
		out.Hint += "; " + p.cfg.NoTests.For(p.cfg.Test, p.cfg.Level)
	}
	return out
}

// decode records the report's test cases, named by the test suites
// around them, and counts them.
func (p *junitParser) decode(dec *xml.Decoder) int {
	var suites []string
	var name, text, msg string
	var status report.TestStatus
	var seconds float64
	inCase, n := false, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			return n
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "testsuite":
				suites = append(suites, attr(t, "name"))
			case "testcase":
				inCase, name, text, msg, status = true, attr(t, "name"), "", "", report.TestPassed
				seconds, _ = strconv.ParseFloat(attr(t, "time"), 64)
			case "failure", "error":
				status = report.TestFailed
				msg = attr(t, "message")
			case "skipped":
				if status != report.TestFailed {
					status = report.TestSkipped
				}
			}
		case xml.CharData:
			if inCase && status == report.TestFailed {
				text += string(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "testsuite":
				if len(suites) > 0 {
					suites = suites[:len(suites)-1]
				}
			case "testcase":
				inCase = false
				p.record(strings.Join(append(append([]string{}, suites...), name), Sep), status, seconds, msg, text)
				n++
			}
		}
	}
}

// frame is a V8 stack frame with an absolute file: "at fn (/p/a.js:3:9)".
var frame = lazyre.New(`at (?:.*? \()?(?:file://)?(/[^():]+):(\d+):\d+\)?`)

func (p *junitParser) record(title string, status report.TestStatus, seconds float64, msg, text string) {
	suite, line := "", 0
	for _, m := range frame.FindAllStringSubmatch(text, -1) {
		if !strings.Contains(m[1], "/node_modules/") {
			suite, line = kit.ProjectPath(p.cfg.Root, m[1]), atoi(m[2])
			break
		}
	}
	var f *report.Failure
	if status == report.TestFailed {
		f = &report.Failure{Name: title, File: suite, Line: line, Message: kit.Clip(msg)}
		if p.cfg.Rerun != nil && suite != "" {
			f.Rerun = p.cfg.Rerun(suite, title)
		}
	}
	p.rec.End(suite, title, status, kit.DurationOf(seconds), f)
}

func attr(se xml.StartElement, name string) string {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
