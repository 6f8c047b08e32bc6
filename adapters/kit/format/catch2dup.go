package format

import (
	"strconv"
	"strings"

	"strobe/internal/lazyre"
)

// Catch2Duplicate is Catch2's refusal to run a binary in which two test
// cases have one name: it checks at start, runs none of its tests, and
// exits 255 (v2) after printing, on stderr,
//
//	error: TEST_CASE( "name" ) already defined.
//		First seen at /src/a.cpp:11
//		Redefined at /src/b.cpp:14
//
// (v3: `error: test case "name", with tags "[x]" already defined.`).
// It is the build's error, at the redefinition: the linker took both. The
// catch2 adapter reads it from the binary it runs, the ctest adapter from
// a binary whose discovery found no test.
type Catch2Duplicate struct {
	Name        string
	First, File string // where it was first seen, and redefined
	FirstLine   int
	Line        int
}

var (
	catch2DuplicateHead = lazyre.New(`^error: (?:TEST_CASE\( "(.*)" \)|test case "(.*?)"(?:, with tags "[^"]*")?) already defined\.?$`)
	catch2DuplicateAt   = lazyre.New(`^\s*(First seen|Redefined) at (.+):(\d+)\s*$`)
)

// FindCatch2Duplicate reads Catch2's refusal from the lines of stderr;
// nil when they hold none, or not its two places.
func FindCatch2Duplicate(lines []string) *Catch2Duplicate {
	var d *Catch2Duplicate
	for _, l := range lines {
		l = strings.TrimRight(l, "\r")
		if m := catch2DuplicateHead.FindStringSubmatch(l); m != nil {
			d = &Catch2Duplicate{Name: m[1] + m[2]}
			continue
		}
		m := catch2DuplicateAt.FindStringSubmatch(l)
		if d == nil || m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[3])
		if m[1] == "First seen" {
			d.First, d.FirstLine = m[2], n
		} else {
			d.File, d.Line = m[2], n
		}
		if d.First != "" && d.File != "" {
			return d
		}
	}
	return nil
}
