package format

import (
	"strconv"
	"strings"
	"strobe/internal/lazyre"
)

// Catch2Failure is one failed assertion in the output of Catch2's console
// reporter (v2 and v3): its location and the lines under it, such as
// `REQUIRE( n * 2 == 7 )`, `with expansion:`, `6 == 7`.
type Catch2Failure struct {
	File string
	Line int
	Text []string
	// TestCase and Sections are what the header before the block named:
	// the test case and the section path, "" and nil without a header. A
	// binary add_test runs whole prints many test cases' blocks.
	TestCase string
	Sections []string
}

// Catch2Blocks follows the failure blocks in Catch2's console output, a
// line at a time (a CTest test that catch_discover_tests made runs one
// test case with the console reporter):
//
//	/src/x_test.cpp:9: FAILED:
//	  REQUIRE( n * 2 == 7 )
//	with expansion:
//	  6 == 7
//	<blank line>
//
// A fatal error condition (`due to a fatal error condition:` and the
// signal) and an exception (`due to unexpected exception with message:`)
// read the same way. The header Catch2 prints before the first failure of
// a test case's run, between two rules of dashes, names the test case and
// its sections (indented):
//
//	-------------------------------------------------------------------------------
//	vector sections
//	  push
//	-------------------------------------------------------------------------------
//	/src/x_test.cpp:5
//	...............................................................................
type Catch2Blocks struct {
	Failures []Catch2Failure
	open     bool // the last failure's text comes now

	header   []string // the header's lines while it is read; nil outside one
	inHeader bool
	testCase string
	sections []string
}

// catch2MaxHeader bounds a header's lines: more is no header but output
// that happens to hold a rule.
const catch2MaxHeader = 16

// catch2MaxBlock bounds the lines kept of one block.
const catch2MaxBlock = 200

var catch2FailAt = lazyre.New(`^(.+?)(?::(\d+)|\((\d+)\)): FAILED:$`)

// Line reads one line of the output.
func (b *Catch2Blocks) Line(line string) {
	if b.headerLine(line) {
		return
	}
	if m := catch2FailAt.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[2] + m[3])
		b.Failures = append(b.Failures, Catch2Failure{File: m[1], Line: n, TestCase: b.testCase, Sections: b.sections})
		b.open = true
		return
	}
	if !b.open {
		return
	}
	if strings.TrimSpace(line) == "" {
		b.open = false
		return
	}
	if f := &b.Failures[len(b.Failures)-1]; len(f.Text) < catch2MaxBlock {
		f.Text = append(f.Text, line)
	}
}

// headerLine reads the test case header's rules and the names between
// them, and says whether line was one of those.
func (b *Catch2Blocks) headerLine(line string) bool {
	if isRule(line) {
		if b.inHeader {
			b.endHeader()
		} else {
			b.inHeader, b.header, b.open = true, b.header[:0], false
		}
		return true
	}
	if !b.inHeader {
		return false
	}
	if b.header = append(b.header, line); len(b.header) > catch2MaxHeader {
		b.inHeader = false
	}
	return true
}

// endHeader takes the names of the header just read: the test case's
// first, its wrapped lines (not indented) after it, then each section's,
// indented by two spaces.
func (b *Catch2Blocks) endHeader() {
	b.inHeader = false
	if len(b.header) == 0 {
		return
	}
	name, sections := b.header[0], []string(nil)
	for _, l := range b.header[1:] {
		if strings.HasPrefix(l, "  ") {
			sections = append(sections, strings.TrimSpace(l))
		} else if len(sections) == 0 {
			name += " " + strings.TrimSpace(l)
		}
	}
	b.testCase, b.sections = name, sections
}

// isRule says whether line is Catch2's rule of dashes (79 of them, or
// as wide as the console was told to be).
func isRule(line string) bool {
	return len(line) >= 40 && strings.Trim(line, "-") == ""
}

// Message is the block's text as Catch2 printed it, the first line's
// indent aside.
func (f Catch2Failure) Message() string {
	return strings.TrimSpace(strings.Join(f.Text, "\n"))
}
