package format

import (
	"strconv"
	"strings"

	"strobe/internal/lazyre"
)

// DoctestFailure is one failure in the output of doctest's console
// reporter: a failed assertion, an exception, a crash. Text is the
// failure's first line after its severity, such as `CHECK( f(3) == 6 )
// is NOT correct!`, then the lines under it (`  values: CHECK( 7 == 6 )`,
// `  logged: n is 3`).
type DoctestFailure struct {
	File string
	Line int
	Text []string
	// TestCase and Subcases are what the header before the failure
	// named; "" and nil without one.
	TestCase string
	Subcases []string
}

// DoctestBlocks follows the failures in doctest's console output, a line
// at a time (magic_enum's and nlohmann/json's tests: one binary per
// add_test, which CTest runs whole). Each test case's failures come
// after a header, a rule of '=', the test case's place, its name and
// the subcases it was in (indented), then a blank line:
//
//	===============================================================================
//	/src/test.cpp:14:
//	TEST CASE:  vector grows
//	  push
//
//	/src/test.cpp:24: FATAL ERROR: REQUIRE( v.size() == 2 ) is NOT correct!
//	  values: REQUIRE( 1 == 2 )
//	<blank line>
//
// An exception (`ERROR: test case THREW exception: …`) and a signal
// (`FATAL ERROR: test case CRASHED: SIGSEGV - …`) read the same way.
type DoctestBlocks struct {
	Failures []DoctestFailure
	open     bool // the last failure's lines come now

	state    int // 0 outside a header; 1 after its rule; 2 after its place; 3 after its name
	testCase string
	subcases []string
}

// doctestFailAt is a failure's first line: place, severity, text. A
// WARNING does not fail the test.
var doctestFailAt = lazyre.New(`^(.+?)(?::(\d+)|\((\d+)\)): (ERROR|FATAL ERROR): (.+)$`)

// doctestPlace is a header's place line: `/src/test.cpp:14:`.
var doctestPlace = lazyre.New(`^(.+?)(?::(\d+)|\((\d+)\)):$`)

// Line reads one line of the output.
func (b *DoctestBlocks) Line(line string) {
	if len(line) >= 40 && strings.Trim(line, "=") == "" {
		b.state, b.open = 1, false
		return
	}
	switch b.state {
	case 1:
		if doctestPlace.MatchString(line) {
			b.state = 2
			return
		}
		b.state = 0
	case 2:
		if name, ok := strings.CutPrefix(line, "TEST CASE:  "); ok {
			b.testCase, b.subcases, b.state = name, nil, 3
			return
		}
		b.state = 0
	case 3:
		if strings.HasPrefix(line, "  ") && strings.TrimSpace(line) != "" {
			b.subcases = append(b.subcases, strings.TrimSpace(line))
			return
		}
		b.state = 0
	}
	if m := doctestFailAt.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[2] + m[3])
		b.Failures = append(b.Failures, DoctestFailure{File: m[1], Line: n, Text: []string{m[5]}, TestCase: b.testCase, Subcases: b.subcases})
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

// Message is the failure's text as doctest printed it.
func (f DoctestFailure) Message() string {
	return strings.TrimSpace(strings.Join(f.Text, "\n"))
}

// Crashed says whether the failure is doctest's report of a signal that
// ended the test case (`test case CRASHED: SIGSEGV - …`).
func (f DoctestFailure) Crashed() bool {
	return strings.HasPrefix(f.Text[0], "test case CRASHED: ")
}
