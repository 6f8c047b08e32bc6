package node

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"strobe/internal/lazyre"
)

// callTitle is a test or block declared with a literal title: `test('adds',`,
// `it.only("adds"`, `describe.concurrent(`+"`carry`"+`,`,
// `test.runIf(process.env.CI)('adds'`, at the start of its line.
var callTitle = lazyre.New("^(\\s*)(test|it|describe|suite)((?:\\.[A-Za-z]+(?:\\([^()]*\\))?)*)\\s*\\(\\s*(?:'((?:[^'\\\\]|\\\\.)*)'|\"((?:[^\"\\\\]|\\\\.)*)\"|`([^`$\\\\]*)`)")

// eachCase is a modifier that names each case of a test: test.each,
// test.for.
var eachCase = lazyre.New(`\.(?:each|for)\b`)

// DeclaredAt is the full name of the test whose body holds line (from
// 1) of a test file's source, as jest and vitest join it (its describe
// blocks' titles and its own, joined by " > "), read from the source:
// the nearest test or it call above the line, at the start of a line
// indented less than the line (or on the line itself), then each describe
// or suite call above it indented less than the last. ok is false when
// no test encloses the line, or when a title is not a plain literal (a
// template with a value, a test.each's "%s", which names each case).
func DeclaredAt(src string, line int) (name string, ok bool) {
	titles, ok := DeclaredTitles(src, line)
	return strings.Join(titles, " > "), ok
}

// DeclaredTitles is DeclaredAt's test as its titles, the outermost
// describe block's first, for a framework that joins them otherwise.
func DeclaredTitles(src string, line int) (titles []string, ok bool) {
	lines := strings.Split(src, "\n")
	if line < 1 || line > len(lines) {
		return nil, false
	}
	limit := indent(lines[line-1]) + 1 // the line itself may declare it
	for i := line - 1; i >= 0; i-- {
		m := callTitle.FindStringSubmatch(lines[i])
		if m == nil || len(m[1]) >= limit {
			continue
		}
		isTest := m[2] == "test" || m[2] == "it"
		if len(titles) == 0 != isTest {
			if len(titles) == 0 {
				return nil, false // a block's own code, in no test
			}
			continue // a test beside the one found, at its depth
		}
		title, ok := literal(m[4:])
		if !ok || eachCase.MatchString(m[3]) {
			return nil, false
		}
		titles = append(titles, title)
		limit = len(m[1])
	}
	if len(titles) == 0 {
		return nil, false
	}
	slices.Reverse(titles)
	return titles, true
}

// literal is a title's text from callTitle's three quotes' groups, with
// its escapes undone.
func literal(groups []string) (string, bool) {
	var s string
	switch {
	case groups[0] != "":
		s = groups[0]
	case groups[1] != "":
		s = groups[1]
	default:
		s = groups[2]
	}
	if s == "" {
		return "", false
	}
	if !strings.Contains(s, "\\") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '\'', '"', '`', '\\':
			b.WriteByte(s[i])
		default:
			return "", false // \u…, \x…: not worth spelling out
		}
	}
	return b.String(), true
}

// indent is the width of a line's leading white space.
func indent(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

// FramePlace reads a JavaScript frame's file and line: a line of V8's
// stack text ("    at fn (FILE:LINE:COL)", "    at FILE:LINE:COL") or a
// stuck capture's frame ("fn (FILE:LINE)", "fn (FILE:LINE:COL)"); a
// file:// URL is its path. The file is as the frame names it: absolute,
// relative, or node's own ("node:internal/…").
func FramePlace(frame string) (file string, line int, ok bool) {
	m := framePlace.FindStringSubmatch(frame)
	if m == nil {
		return "", 0, false
	}
	file = m[1]
	if strings.HasPrefix(file, "file://") {
		if u, err := url.Parse(file); err == nil {
			file = u.Path
		}
	}
	line, err := strconv.Atoi(m[2])
	if err != nil || line < 1 {
		return "", 0, false
	}
	return file, line, true
}

var framePlace = lazyre.New(`^\s*(?:at )?(?:\S.*? \()?(.+?):(\d+)(?::\d+)?\)?\s*$`)
