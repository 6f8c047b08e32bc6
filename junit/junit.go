// Package junit writes a run as JUnit XML, the report format CI systems
// read (GitHub Actions test reporters, GitLab, Jenkins): one testsuite per
// suite of the run (a Go package, a cargo test target, a test file), a
// testcase per test, failures with their message and file:line, tests the
// stuck detector stopped or a crash left running as errors with their
// stacks, skipped tests, and each test's output, bounded.
//
// The model (Suites, Suite, Case) is built first and encoded second, so
// that what another part adds (reruns of a flaky test, shards merged into
// one file) is a change to the model, not to the encoding.
package junit

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"strobe/report"
)

// Bounds of the output kept in a report: each case's system-out is its
// newest caseOutput bytes, and once totalOutput bytes are written the
// remaining cases keep none (a CI system loads the whole file at once).
const (
	caseOutput  = 16 << 10
	totalOutput = 4 << 20
)

// Suites is the document: <testsuites>.
type Suites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr,omitempty"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Time     Seconds  `xml:"time,attr"`
	Suites   []Suite  `xml:"testsuite"`
}

// Suite is one <testsuite>.
type Suite struct {
	Name      string  `xml:"name,attr"`
	Tests     int     `xml:"tests,attr"`
	Failures  int     `xml:"failures,attr"`
	Errors    int     `xml:"errors,attr"`
	Skipped   int     `xml:"skipped,attr"`
	Time      Seconds `xml:"time,attr"`
	Timestamp string  `xml:"timestamp,attr,omitempty"`
	Cases     []Case  `xml:"testcase"`
}

// Case is one <testcase>. At most one of Failure, Error and Skipped is set.
type Case struct {
	Classname string   `xml:"classname,attr"`
	Name      string   `xml:"name,attr"`
	Time      Seconds  `xml:"time,attr"`
	File      string   `xml:"file,attr,omitempty"`
	Line      int      `xml:"line,attr,omitempty"`
	Failure   *Problem `xml:"failure"`
	Error     *Problem `xml:"error"`
	Skipped   *Skipped `xml:"skipped"`
	// FlakyFailures are failed attempts of a test that passed on a rerun
	// (the Maven Surefire extension that Jenkins and others read).
	FlakyFailures []Problem `xml:"flakyFailure"`
	SystemOut     *Text     `xml:"system-out"`
}

// Problem is a <failure>, <error> or <flakyFailure>: a one-line message
// and type as attributes, the whole story in the body.
type Problem struct {
	Message string `xml:"message,attr,omitempty"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// Skipped is <skipped/>.
type Skipped struct {
	Message string `xml:"message,attr,omitempty"`
}

// Text is an element holding only text.
type Text struct {
	Body string `xml:",chardata"`
}

// Seconds is a duration as JUnit writes it: seconds, three decimals.
type Seconds time.Duration

// MarshalXMLAttr writes the seconds.
func (s Seconds) MarshalXMLAttr(name xml.Name) (xml.Attr, error) {
	return xml.Attr{Name: name, Value: s.String()}, nil
}

// String is the seconds with three decimals.
func (s Seconds) String() string {
	return strconv.FormatFloat(time.Duration(s).Seconds(), 'f', 3, 64)
}

// Run is what a report is made of: the run's response and every test.
type Run struct {
	Response *report.Response
	Tests    []report.Test
	Started  time.Time
}

// Build turns a run into the report model.
func Build(run Run) *Suites {
	resp := run.Response
	doc := &Suites{Name: resp.Framework}
	stuck := map[string]*report.StuckTest{}
	for i := range resp.Stuck {
		stuck[resp.Stuck[i].Name] = &resp.Stuck[i]
	}
	at := map[string]int{} // suite name → index, in the run's order
	budget := totalOutput
	for _, t := range run.Tests {
		i, ok := at[t.Suite]
		if !ok {
			i = len(doc.Suites)
			at[t.Suite] = i
			doc.Suites = append(doc.Suites, Suite{Name: suiteName(t.Suite, resp.Framework), Timestamp: timestamp(run.Started)})
		}
		c := testCase(t, resp, stuck[t.Name], &budget)
		doc.Suites[i].add(c, time.Duration(t.DurationMS)*time.Millisecond)
	}
	seen := map[string]bool{}
	for _, t := range run.Tests {
		seen[t.Name] = true
	}
	for i := range resp.Stuck {
		if st := &resp.Stuck[i]; !seen[st.Name] {
			// The detector named a test the parser never saw start.
			s := Suite{Name: suiteName("", resp.Framework), Timestamp: timestamp(run.Started)}
			c := Case{Classname: s.Name, Name: st.Name, Time: Seconds(time.Duration(st.ElapsedMS) * time.Millisecond),
				Error: &Problem{Message: firstLine(st.Diagnosis), Type: "stuck", Body: stuckBody(st)}}
			s.add(c, time.Duration(st.ElapsedMS)*time.Millisecond)
			doc.Suites = append(doc.Suites, s)
		}
	}
	if len(run.Tests) == 0 && len(resp.Stuck) == 0 && resp.Status != report.Passed && resp.Status != report.NoTests {
		// Nothing ran: one case says why, or CI would show a green
		// empty report for a build that failed.
		s := Suite{Name: suiteName("", resp.Framework), Timestamp: timestamp(run.Started)}
		s.add(runCase(resp), 0)
		doc.Suites = append(doc.Suites, s)
	}
	for _, s := range doc.Suites {
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
	}
	if resp.Summary != nil {
		doc.Time = Seconds(time.Duration(resp.Summary.DurationMS) * time.Millisecond)
	}
	return doc
}

func suiteName(suite, framework string) string {
	if suite != "" {
		return suite
	}
	if framework != "" {
		return framework
	}
	return "tests"
}

func timestamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05")
}

func (s *Suite) add(c Case, d time.Duration) {
	s.Cases = append(s.Cases, c)
	s.Tests++
	s.Time += Seconds(d)
	switch {
	case c.Failure != nil:
		s.Failures++
	case c.Error != nil:
		s.Errors++
	case c.Skipped != nil:
		s.Skipped++
	}
}

func testCase(t report.Test, resp *report.Response, st *report.StuckTest, budget *int) Case {
	c := Case{Classname: suiteName(t.Suite, resp.Framework), Name: t.Name, Time: Seconds(time.Duration(t.DurationMS) * time.Millisecond)}
	if f := t.Failure; f != nil {
		c.File, c.Line = f.File, f.Line
	}
	switch {
	case st != nil:
		c.Error = &Problem{Message: firstLine(st.Diagnosis), Type: "stuck", Body: stuckBody(st)}
	case t.Status == report.TestRunning, t.Status == report.TestStuck:
		c.Error = &Problem{Message: "the test never finished: " + endOf(resp), Type: string(resp.Status)}
	case t.Status == report.TestFailed:
		p := &Problem{Type: "failure", Body: "failed"}
		if f := t.Failure; f != nil {
			p.Message, p.Body = firstLine(f.Message), failureBody(f)
		}
		c.Failure = p
	case t.Status == report.TestSkipped:
		c.Skipped = &Skipped{}
		if f := t.Failure; f != nil {
			// Why a test did not run, when the adapter knows (node:test's
			// cancelled tests: their describe block's before hook failed).
			c.Skipped.Message = firstLine(f.Message)
		}
	}
	c.FlakyFailures = flakyFailures(t)
	if out := clipOutput(t.Output, budget); out != "" {
		c.SystemOut = &Text{Body: out}
	}
	return c
}

// runCase is the one case of a run that ran no test: why.
func runCase(resp *report.Response) Case {
	c := Case{Classname: suiteName("", resp.Framework), Name: string(resp.Status)}
	var b strings.Builder
	for _, e := range resp.BuildErrors {
		fmt.Fprintf(&b, "%s\n", location(e.File, e.Line)+": "+e.Message)
	}
	if resp.Hint != "" {
		b.WriteString(resp.Hint + "\n")
	}
	msg := endOf(resp)
	if len(resp.BuildErrors) > 0 {
		c.File, c.Line = resp.BuildErrors[0].File, resp.BuildErrors[0].Line
		msg = firstLine(resp.BuildErrors[0].Message)
	}
	c.Error = &Problem{Message: msg, Type: string(resp.Status), Body: b.String()}
	return c
}

// endOf says in a few words how the run ended.
func endOf(resp *report.Response) string {
	switch {
	case resp.Error != "":
		return resp.Error
	case resp.Crash != nil && resp.Crash.Message != "":
		return resp.Crash.Message
	}
	return "the run ended " + string(resp.Status)
}

func failureBody(f *report.Failure) string {
	var b strings.Builder
	if loc := location(f.File, f.Line); loc != "" {
		b.WriteString(loc + "\n")
	}
	b.WriteString(f.Message)
	if f.Rerun != "" {
		b.WriteString("\n\nrerun: " + f.Rerun)
	}
	return b.String()
}

func stuckBody(st *report.StuckTest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nafter %v\n", st.Diagnosis, time.Duration(st.ElapsedMS)*time.Millisecond)
	for _, th := range st.Threads {
		fmt.Fprintf(&b, "\n%s:\n", th.Name)
		for _, fr := range th.Stack {
			fmt.Fprintf(&b, "    %s\n", fr)
		}
	}
	return b.String()
}

func location(file string, line int) string {
	switch {
	case file == "":
		return ""
	case line > 0:
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}

// firstLine is s's first non-empty line: attributes are read as one line.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// clipOutput keeps the newest caseOutput bytes of out, within what is left
// of the report's budget.
func clipOutput(out string, budget *int) string {
	if out == "" || *budget <= 0 {
		return ""
	}
	n := min(caseOutput, *budget)
	if len(out) > n {
		out = "… (older output cut; the details file has more)\n" + out[len(out)-n:]
	}
	*budget -= len(out)
	return out
}

// writerPool keeps Encode's buffer from run to run (the daemon writes a
// report for every run).
var writerPool = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// Encode writes doc as an XML document. It writes the elements itself,
// what encoding/xml would write for the model's tags, at a third of the
// cost: every run writes one, 2,000 tests in a few milliseconds.
func Encode(w io.Writer, doc *Suites) error {
	bw := writerPool.Get().(*bufio.Writer)
	bw.Reset(w)
	defer func() { bw.Reset(nil); writerPool.Put(bw) }()
	e := &encoder{w: bw}
	e.raw(xml.Header)
	e.start(0, "testsuites", attr{"name", doc.Name}, attr{"tests", strconv.Itoa(doc.Tests)}, attr{"failures", strconv.Itoa(doc.Failures)},
		attr{"errors", strconv.Itoa(doc.Errors)}, attr{"skipped", strconv.Itoa(doc.Skipped)}, attr{"time", doc.Time.String()})
	for _, s := range doc.Suites {
		e.start(1, "testsuite", attr{"name", s.Name}, attr{"tests", strconv.Itoa(s.Tests)}, attr{"failures", strconv.Itoa(s.Failures)},
			attr{"errors", strconv.Itoa(s.Errors)}, attr{"skipped", strconv.Itoa(s.Skipped)}, attr{"time", s.Time.String()},
			attr{"timestamp", s.Timestamp})
		for _, c := range s.Cases {
			line := ""
			if c.Line != 0 {
				line = strconv.Itoa(c.Line)
			}
			e.start(2, "testcase", attr{"classname", c.Classname}, attr{"name", c.Name}, attr{"time", c.Time.String()},
				attr{"file", c.File}, attr{"line", line})
			e.problem("failure", c.Failure)
			e.problem("error", c.Error)
			if c.Skipped != nil {
				e.start(3, "skipped", attr{"message", c.Skipped.Message})
				e.end(-1, "skipped")
			}
			for i := range c.FlakyFailures {
				e.problem("flakyFailure", &c.FlakyFailures[i])
			}
			if c.SystemOut != nil {
				e.start(3, "system-out")
				e.text(c.SystemOut.Body)
				e.end(-1, "system-out")
			}
			e.end(2, "testcase")
		}
		e.end(1, "testsuite")
	}
	e.end(0, "testsuites")
	e.raw("\n")
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}

// attr is an attribute; an empty value is left out (omitempty), but for
// the counts and times, which are never empty.
type attr struct{ name, value string }

// encoder writes indented XML, two spaces a level, and keeps the first
// error.
type encoder struct {
	w   *bufio.Writer
	err error
}

func (e *encoder) raw(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *encoder) start(depth int, name string, attrs ...attr) {
	if depth > 0 {
		e.raw("\n" + strings.Repeat("  ", depth))
	}
	e.raw("<" + name)
	for _, a := range attrs {
		if a.value == "" {
			continue
		}
		e.raw(" " + a.name + `="`)
		e.text(a.value)
		e.raw(`"`)
	}
	e.raw(">")
}

// end closes an element: on a line of its own at depth, or right after its
// content when depth is -1.
func (e *encoder) end(depth int, name string) {
	if depth >= 0 {
		e.raw("\n" + strings.Repeat("  ", depth))
	}
	e.raw("</" + name + ">")
}

func (e *encoder) text(s string) {
	if e.err == nil {
		e.err = xml.EscapeText(e.w, []byte(s))
	}
}

func (e *encoder) problem(name string, p *Problem) {
	if p == nil {
		return
	}
	e.start(3, name, attr{"message", p.Message}, attr{"type", p.Type})
	e.text(p.Body)
	e.end(-1, name)
}

// WriteFile writes doc to path atomically (a temporary file renamed).
func WriteFile(path string, doc *Suites) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*.xml")
	if err != nil {
		return fmt.Errorf("writing junit report: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := Encode(tmp, doc); err != nil {
		tmp.Close()
		return fmt.Errorf("writing junit report: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing junit report: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing junit report: %w", err)
	}
	return nil
}
