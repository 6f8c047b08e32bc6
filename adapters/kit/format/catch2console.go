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
// read the same way.
type Catch2Blocks struct {
	Failures []Catch2Failure
	open     bool // the last failure's text comes now
}

// catch2MaxBlock bounds the lines kept of one block.
const catch2MaxBlock = 200

var catch2FailAt = lazyre.New(`^(.+?)(?::(\d+)|\((\d+)\)): FAILED:$`)

// Line reads one line of the output.
func (b *Catch2Blocks) Line(line string) {
	if m := catch2FailAt.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[2] + m[3])
		b.Failures = append(b.Failures, Catch2Failure{File: m[1], Line: n})
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

// Message is the block's text as Catch2 printed it, the first line's
// indent aside.
func (f Catch2Failure) Message() string {
	return strings.TrimSpace(strings.Join(f.Text, "\n"))
}
