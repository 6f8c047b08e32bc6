package format

import (
	"strconv"
	"strings"
	"strobe/internal/lazyre"
)

// GTestFailure is one failure block of GoogleTest's console output: where
// it happened and the lines GoogleTest printed after the location (the
// assertion's text, its `Which is:` values, the user's message).
type GTestFailure struct {
	File string // "" for "unknown file" (an exception, a mock's verdict)
	Line int
	Text []string
}

// GTestBlocks follows the failure blocks in the console output of one
// test, a line at a time: the gtest adapter feeds it the lines between a
// test's RUN and its end, the ctest adapter a CTest test's whole output
// (one GoogleTest test per CTest test under gtest_discover_tests).
type GTestBlocks struct {
	Failures []GTestFailure
	// Skip is GTEST_SKIP's location and message, when the test skipped.
	Skip *GTestFailure
	open *GTestFailure // the block whose text comes now
}

// gtestMaxBlock bounds the lines kept of one block: a failed comparison
// of two long containers prints one line per element.
const gtestMaxBlock = 200

var (
	gtestFailAt = lazyre.New(`^(.+?):(\d+|#): (Failure|Skipped)$`)
	gtestMSVCAt = lazyre.New(`^(.+?)\((\d+)\): error: (.*)$`)
)

// gtestUnknown is GoogleTest's location line for a failure without one.
const gtestUnknown = "unknown file: Failure"

// Line reads one line of the test's output: a location line opens a
// block, the lines after it are the block's text.
func (b *GTestBlocks) Line(line string) {
	var f *GTestFailure
	switch m := gtestFailAt.FindStringSubmatch(line); {
	case m != nil:
		n, _ := strconv.Atoi(m[2])
		f = &GTestFailure{File: m[1], Line: n}
		if m[3] == "Skipped" {
			b.Skip, b.open = f, f
			return
		}
	case line == gtestUnknown:
		f = &GTestFailure{}
	default:
		if m := gtestMSVCAt.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			f = &GTestFailure{File: m[1], Line: n, Text: []string{m[3]}}
		}
	}
	if f != nil {
		b.Failures = append(b.Failures, *f)
		b.open = &b.Failures[len(b.Failures)-1]
		return
	}
	if b.open != nil && len(b.open.Text) < gtestMaxBlock {
		b.open.Text = append(b.open.Text, line)
	}
}

// Close ends the block open: the lines after a test's end (GoogleTest's
// own summary) are no failure's text.
func (b *GTestBlocks) Close() { b.open = nil }

// Message is a block's text as one string, trailing blank lines and
// spaces cut.
func (f GTestFailure) Message() string {
	return strings.TrimRight(strings.Join(f.Text, "\n"), "\n ")
}
