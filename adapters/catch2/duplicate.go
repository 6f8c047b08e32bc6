package catch2

import (
	"strconv"
	"strings"

	"strobe/internal/lazyre"
)

// duplicate is Catch2's refusal to run a binary in which two test cases
// have one name: it checks at start, runs none of its tests, and exits
// 255 (v2) after printing, on stderr,
//
//	error: TEST_CASE( "name" ) already defined.
//		First seen at /src/a.cpp:11
//		Redefined at /src/b.cpp:14
//
// (v3: `error: test case "name", with tags "[x]" already defined.`).
// It is the build's error, at the redefinition: the linker took both.
type duplicate struct {
	name        string
	first, file string // where it was first seen, and redefined
	firstLine   int
	line        int
}

var (
	duplicateHead = lazyre.New(`^error: (?:TEST_CASE\( "(.*)" \)|test case "(.*?)"(?:, with tags "[^"]*")?) already defined\.?$`)
	duplicateAt   = lazyre.New(`^\s*(First seen|Redefined) at (.+):(\d+)\s*$`)
)

// findDuplicate reads Catch2's refusal from the lines of stderr; nil when
// they hold none, or not its two places.
func findDuplicate(lines []string) *duplicate {
	var d *duplicate
	for _, l := range lines {
		l = strings.TrimRight(l, "\r")
		if m := duplicateHead.FindStringSubmatch(l); m != nil {
			d = &duplicate{name: m[1] + m[2]}
			continue
		}
		m := duplicateAt.FindStringSubmatch(l)
		if d == nil || m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[3])
		if m[1] == "First seen" {
			d.first, d.firstLine = m[2], n
		} else {
			d.file, d.line = m[2], n
		}
		if d.first != "" && d.file != "" {
			return d
		}
	}
	return nil
}
