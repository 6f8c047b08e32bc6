package format

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// JUnit XML has no single schema: every producer writes its own dialect
// of <testsuites>/<testsuite>/<testcase>. What the reader knows of them:
//
//   - bun nests a <testsuite> per describe block inside the file's, and
//     puts file and line (the test's declaration) on every <testcase>;
//   - deno writes one <testsuite> per file, the file again as classname,
//     line and col but no file, "parent > step" names, and a <skipped/>
//     without a time for a test its --filter left out;
//   - pytest's junitxml (xunit1) has file and line, xunit2 neither; a
//     skip and an xfail are both <skipped type="pytest.skip|xfail">;
//   - jest-junit leaves classname empty or makes it the full title;
//   - Maven surefire adds <rerunFailure>/<flakyFailure> (with their own
//     <stackTrace>) for a test that failed and was run again, and writes
//     times such as "1,234.5";
//   - Gradle puts <system-out> on the suite, not the test case;
//   - nextest and cargo2junit speak surefire's dialect.
//
// The reader keeps what they share and reads each attribute where any of
// them puts it.

// JUnitStatus is a test case's result.
type JUnitStatus string

const (
	JUnitPassed  JUnitStatus = "passed"
	JUnitFailed  JUnitStatus = "failed"  // an assertion (<failure>)
	JUnitError   JUnitStatus = "error"   // anything else it threw (<error>)
	JUnitSkipped JUnitStatus = "skipped" // <skipped>, pytest's xfail too
)

// JUnitMaxText bounds the text kept of one element (a failure's body, a
// test's system-out): the rest of a 200 MB log is dropped as it is read,
// before the decoder holds it (junitCap).
const JUnitMaxText = 64 << 10

// JUnitCase is one <testcase>.
type JUnitCase struct {
	// Suites are the names of the <testsuite> elements around the test,
	// outermost first (bun: the file, then each describe block).
	Suites    []string
	Classname string
	Name      string
	// File and Line are the test's own attributes, where the producer
	// writes them (bun, pytest's xunit1, gtest); "" and 0 otherwise.
	File string
	Line int
	// Status is the worst of the test's result elements; Message, Type
	// and Text are the first such element's (a skip's reason too).
	Status  JUnitStatus
	Message string
	Type    string
	Text    string
	// Failures counts <failure> and <error> elements: mocha and others
	// write one per failed assertion or hook.
	Failures int
	// Reruns counts surefire's and nextest's <rerunFailure>,
	// <rerunError>, <flakyFailure> and <flakyError>: earlier attempts of
	// a test that was run again; Status is the last attempt's.
	Reruns int
	// RerunMessage and RerunText are the first of those elements'
	// message and text (a stack trace): where a flaky test failed first.
	RerunMessage, RerunText string
	// Time is in seconds; HasTime says the attribute was there (deno
	// leaves it out for a test its filter skipped).
	Time    float64
	HasTime bool
	// SystemOut and SystemErr are the test's own captured output,
	// clipped to JUnitMaxText.
	SystemOut string
	SystemErr string
}

// FullName joins the suites below the outermost and the name with sep:
// bun's "describe > test". The outermost suite, usually the file or the
// framework's name, is left out.
func (c JUnitCase) FullName(sep string) string {
	parts := make([]string, 0, len(c.Suites))
	if len(c.Suites) > 1 {
		parts = append(parts, c.Suites[1:]...)
	}
	return strings.Join(append(parts, c.Name), sep)
}

// JUnitReader reads the test cases of a JUnit XML report one at a time,
// holding one test case and a bounded amount of text whatever the
// report's size.
type JUnitReader struct {
	dec    *xml.Decoder
	suites []string
	err    error
	// suiteOut and suiteErr are the <system-out> and <system-err> of the
	// suites, outside any test case (Gradle's, Surefire's for a class).
	suiteOut, suiteErr string
}

// SuiteOutput is the text of the <system-out> and <system-err> elements
// read so far outside any test case, clipped to JUnitMaxText: Gradle
// writes a class's output there, after its test cases, so it is whole
// once Next has returned io.EOF.
func (r *JUnitReader) SuiteOutput() (stdout, stderr string) { return r.suiteOut, r.suiteErr }

// NewJUnitReader returns a reader of the report r holds.
func NewJUnitReader(r io.Reader) *JUnitReader {
	dec := xml.NewDecoder(&junitCap{r: r, max: JUnitMaxText})
	// Lenient: Catch2's and others' reports carry stray text and
	// entities a strict reader refuses; a truncated report still gives
	// the test cases before its cut.
	dec.Strict = false
	dec.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	return &JUnitReader{dec: dec}
}

// Next returns the next test case; io.EOF after the last one, or the
// decoding error of a malformed or cut report (the cases before it have
// been returned).
func (r *JUnitReader) Next() (JUnitCase, error) {
	if r.err != nil {
		return JUnitCase{}, r.err
	}
	for {
		tok, err := r.dec.RawToken()
		if err != nil {
			if err == io.EOF && len(r.suites) > 0 {
				err = cutShort("testsuite")
			}
			r.err = err
			return JUnitCase{}, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "testsuite":
				r.suites = append(r.suites, attr(t, "name"))
			case "testcase":
				c, err := r.testCase(t)
				if err != nil {
					r.err = err
				}
				return c, nil
			case "system-out", "system-err":
				text, err := r.text()
				if t.Name.Local == "system-out" {
					r.suiteOut = clipText(r.suiteOut + text)
				} else {
					r.suiteErr = clipText(r.suiteErr + text)
				}
				if err != nil {
					r.err = err
					return JUnitCase{}, err
				}
			}
		case xml.EndElement:
			if t.Name.Local == "testsuite" && len(r.suites) > 0 {
				r.suites = r.suites[:len(r.suites)-1]
			}
		}
	}
}

// testCase reads a <testcase> to its end. An error cuts it short: the
// case is returned as far as it was read, and the error comes next.
func (r *JUnitReader) testCase(start xml.StartElement) (JUnitCase, error) {
	c := JUnitCase{
		Suites:    append([]string(nil), r.suites...),
		Classname: attr(start, "classname"),
		Name:      attr(start, "name"),
		File:      attr(start, "file"),
		Status:    JUnitPassed,
	}
	c.Line, _ = strconv.Atoi(attr(start, "line"))
	if s, ok := attrOK(start, "time"); ok {
		c.Time, _ = strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), 64)
		c.HasTime = true
	}
	for {
		tok, err := r.dec.RawToken()
		if err != nil {
			return c, cutShort("testcase", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := r.child(&c, t); err != nil {
				return c, err
			}
		case xml.EndElement:
			if t.Name.Local == "testcase" {
				return c, nil
			}
		}
	}
}

// child reads one element inside a <testcase>.
func (r *JUnitReader) child(c *JUnitCase, t xml.StartElement) error {
	var status JUnitStatus
	switch t.Name.Local {
	case "failure":
		status = JUnitFailed
	case "error":
		status = JUnitError
	case "skipped":
		status = JUnitSkipped
	case "system-out", "system-err":
		text, err := r.text()
		if t.Name.Local == "system-out" {
			c.SystemOut = clipText(c.SystemOut + text)
		} else {
			c.SystemErr = clipText(c.SystemErr + text)
		}
		return err
	case "rerunFailure", "rerunError", "flakyFailure", "flakyError":
		c.Reruns++
		if c.Reruns > 1 {
			return r.skip()
		}
		text, err := r.text()
		c.RerunMessage, c.RerunText = clipText(attr(t, "message")), strings.TrimSpace(text)
		return err
	default: // properties, or what some producer invents
		return r.skip()
	}
	text, err := r.text()
	if status != JUnitSkipped {
		c.Failures++
	}
	// The worst news leads: an error or failure over a skip, the first
	// failure over later ones.
	if rank(status) > rank(c.Status) {
		c.Status = status
		c.Message, c.Type = clipText(attr(t, "message")), attr(t, "type")
		c.Text = strings.TrimSpace(text)
	}
	return err
}

// cutShort is the error of a report that ends inside element: RawToken
// answers a plain io.EOF there, which would read as a complete report.
func cutShort(element string, err ...error) error {
	if len(err) > 0 && err[0] != io.EOF {
		return err[0]
	}
	return fmt.Errorf("the JUnit report ends inside a <%s>: %w", element, io.ErrUnexpectedEOF)
}

// skip reads to the end of the element just started. RawToken (no
// namespace bookkeeping, a third faster) does not pair tags, so
// Decoder.Skip, which reads with Token, cannot be mixed with it.
func (r *JUnitReader) skip() error {
	for depth := 1; depth > 0; {
		tok, err := r.dec.RawToken()
		if err != nil {
			return cutShort("testcase", err)
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
	}
	return nil
}

// rank orders statuses by how much they say.
func rank(s JUnitStatus) int {
	switch s {
	case JUnitSkipped:
		return 1
	case JUnitFailed, JUnitError:
		return 2
	}
	return 0
}

// text reads the character data of the element just started, to its end,
// skipping any element inside (surefire's <stackTrace> is read as text).
func (r *JUnitReader) text() (string, error) {
	var b strings.Builder
	for depth := 1; ; {
		tok, err := r.dec.RawToken()
		if err != nil {
			return clipText(b.String()), cutShort("testcase", err)
		}
		switch t := tok.(type) {
		case xml.CharData:
			if b.Len() < JUnitMaxText {
				b.Write(t)
			}
		case xml.StartElement:
			depth++
		case xml.EndElement:
			if depth--; depth == 0 {
				return clipText(b.String()), nil
			}
		}
	}
}

// clipText keeps a text within JUnitMaxText, cut on a rune.
func clipText(s string) string {
	if len(s) <= JUnitMaxText {
		return s
	}
	cut := JUnitMaxText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func attr(t xml.StartElement, name string) string {
	v, _ := attrOK(t, name)
	return v
}

func attrOK(t xml.StartElement, name string) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// junitCap drops the part of any text run or attribute value beyond max
// bytes before the XML decoder sees it: encoding/xml holds a whole text
// token (a test's 200 MB of system-out) in memory, and the reader keeps
// only JUnitMaxText of it anyway. It cuts at an ASCII byte outside an
// entity, so what it passes on is still well-formed, and keeps a CDATA
// section's end.
type junitCap struct {
	r   io.Reader
	max int

	state  capState
	quote  byte // the attribute value's quote, in capAttr
	run    int  // bytes of the current text run or value
	entity bool // inside &…;
	drop   bool // dropping until the run ends
	tag    []byte
	end    int // bytes of "]]>" matched, in a CDATA section
	buf    []byte
	out    []byte
}

type capState int

const (
	capText capState = iota
	capTag
	capAttr
	capCDATA
)

var (
	cdataStart = []byte("<![CDATA[")
	cutMark    = []byte("…")
)

func (c *junitCap) Read(p []byte) (int, error) {
	for len(c.out) == 0 {
		if c.buf == nil {
			c.buf = make([]byte, 32<<10)
		}
		n, err := c.r.Read(c.buf)
		for _, b := range c.buf[:n] {
			c.filter(b)
		}
		if len(c.out) > 0 {
			break
		}
		if err != nil {
			return 0, err
		}
		if n == 0 {
			return 0, io.ErrNoProgress
		}
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	if len(c.out) == 0 {
		c.out = c.out[:0:0] // let the buffer go once drained
	}
	return n, nil
}

// filter passes b on, or drops it, by where it stands.
func (c *junitCap) filter(b byte) {
	switch c.state {
	case capText:
		if b == '<' {
			c.state, c.tag, c.run, c.drop, c.entity = capTag, append(c.tag[:0], b), 0, false, false
			c.out = append(c.out, b)
			return
		}
		c.counted(b, '&', ';')
	case capTag:
		c.out = append(c.out, b)
		if len(c.tag) < len(cdataStart) {
			c.tag = append(c.tag, b)
			if string(c.tag) == string(cdataStart) {
				c.state, c.run, c.drop, c.end = capCDATA, 0, false, 0
				return
			}
		}
		switch {
		case (b == '"' || b == '\'') && c.tag[1] != '!': // not in a comment
			c.state, c.quote, c.run, c.drop, c.entity = capAttr, b, 0, false, false
		case b == '>':
			c.state, c.run, c.drop, c.entity = capText, 0, false, false
		}
	case capAttr:
		if b == c.quote {
			c.state = capTag
			c.out = append(c.out, b)
			return
		}
		c.counted(b, '&', ';')
	case capCDATA:
		switch {
		case b == ']' && c.end < 2:
			c.end++
		case b == '>' && c.end == 2:
			c.state, c.run, c.drop, c.end = capText, 0, false, 0
			c.out = append(c.out, ']', ']', '>')
			return
		case b == ']':
			// "]]]": the first one was content
			c.cdata(']')
			return
		default:
			for ; c.end > 0; c.end-- {
				c.cdata(']')
			}
			c.cdata(b)
			return
		}
	}
}

// cdata passes a CDATA section's content byte on, within max.
func (c *junitCap) cdata(b byte) { c.counted(b, 0, 0) }

// counted passes b on while the run is within max; past it, from the
// first ASCII byte outside an entity, it drops the rest and marks the cut.
func (c *junitCap) counted(b, entOpen, entClose byte) {
	if c.drop {
		return
	}
	c.run++
	inEntity := c.entity
	if entOpen != 0 {
		switch b {
		case entOpen:
			c.entity = true
		case entClose:
			c.entity = false
		}
	}
	if c.run > c.max && b < utf8.RuneSelf && !inEntity && (entOpen == 0 || b != entOpen) {
		c.drop = true
		c.out = append(c.out, cutMark...)
		return
	}
	c.out = append(c.out, b)
}
