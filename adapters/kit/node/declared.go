package node

import (
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"strobe/adapters/kit"
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
	path, ok := declared(src, line, false)
	titles := make([]string, len(path))
	for i, d := range path {
		titles[i] = d.Title
	}
	return strings.Join(titles, " > "), ok
}

// Declared is one title of a test's path: a describe block's or a test's.
type Declared struct {
	Title string
	Test  bool // a test (or a parent test, with subtests), not a block
}

// DeclaredPath is DeclaredAt's test as its titles, for node:test, whose
// tests nest: a subtest (`await t.test('inner', …)`, any context's name,
// or a test() called in a test's body) is a test inside the test whose
// body holds it, and the path goes on through its parents to the describe
// blocks. A subtest whose title is not a literal (a template with a
// value) ends the path at its parent, which runs it: ok with the parent's
// path. The first title that is a test is the outermost parent test,
// which node must run for a subtest to run.
func DeclaredPath(src string, line int) (path []Declared, ok bool) {
	return declared(src, line, true)
}

// subtestCall is a subtest's call at the start of its line, any
// context's name: `await t.test('inner',`, `return ctx.test("x",`, its
// title a literal or not (`t.test(`+"`case ${n}`"+`,`: one whose body
// opens on the line, not a RegExp's test(s)).
var subtestCall = lazyre.New("^(\\s*)(?:(?:await|return|void)\\s+)?[A-Za-z_$][\\w$]*\\.(test)()\\s*\\((?:\\s*(?:'((?:[^'\\\\]|\\\\.)*)'|\"((?:[^\"\\\\]|\\\\.)*)\"|`([^`$\\\\]*)`)\\s*,|.*(?:=>|\\bfunction\\b))")

// declared reads the path of titles to the test whose body holds line,
// outermost first; nested says tests nest (node:test's subtests).
func declared(src string, line int, nested bool) (path []Declared, ok bool) {
	lines := strings.Split(src, "\n")
	if line < 1 || line > len(lines) {
		return nil, false
	}
	limit := indent(lines[line-1]) + 1 // the line itself may declare it
	for i := line - 1; i >= 0; i-- {
		m := callTitle.FindStringSubmatch(lines[i])
		if m == nil && nested {
			m = subtestCall.FindStringSubmatch(lines[i])
		}
		if m == nil || len(m[1]) >= limit || nested && !opensOver(lines[i:line-1]) {
			continue
		}
		isTest := m[2] == "test" || m[2] == "it"
		if !isTest && len(path) == 0 {
			return nil, false // a block's own code, in no test
		}
		if isTest && len(path) > 0 && !nested {
			continue // a test beside the one found, at its depth
		}
		limit = len(m[1])
		title, ok := literal(m[4:])
		if ok && isTest && eachCase.MatchString(m[3]) {
			ok = false // test.each: its name is each case's
		}
		switch {
		case ok:
			path = append(path, Declared{Title: title, Test: isTest})
		case nested && isTest:
			// A test named at run time: its parents' path, which
			// runs it, is what can be told.
			path = nil
		default:
			return nil, false
		}
	}
	if len(path) == 0 {
		return nil, false
	}
	slices.Reverse(path)
	return path, true
}

// opensOver says whether the call that begins the first of lines is still
// open after the last: its body holds the line that follows them. A call
// closed before (`await t.test('fine', () => {})` above a loop in its
// parent's body) holds nothing below it, however it is indented. No
// lines: the line itself declares it, which may hold a one-line body.
// Brackets in strings and comments are skipped; a RegExp literal's are
// not told from code.
func opensOver(lines []string) bool {
	depth := 0
	var quote byte
	for _, l := range lines {
		for i := 0; i < len(l); i++ {
			c := l[i]
			switch {
			case quote != 0:
				if c == '\\' {
					i++
				} else if c == quote {
					quote = 0
				}
			case c == '\'' || c == '"' || c == '`':
				quote = c
			case c == '/' && i+1 < len(l) && l[i+1] == '/':
				i = len(l)
			case c == '(' || c == '[' || c == '{':
				depth++
			case c == ')' || c == ']' || c == '}':
				if depth--; depth <= 0 {
					return false
				}
			}
		}
		if quote != '`' {
			quote = 0 // a quote left open: not worth following
		}
	}
	return true
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

// OutermostTestFrame is the place of the outermost of a stuck capture's
// frames (innermost first) that is in one of the project's test files,
// outside node_modules: the test's body, which a helper it calls is
// inner to. A relative file is under dir; testFile says whether a path
// is a test file by the framework's default names. ok is false when no
// frame is in one.
func OutermostTestFrame(frames []string, dir string, testFile func(path string) bool) (file string, line int, ok bool) {
	for _, f := range frames {
		path, n, found := FramePlace(f)
		if !found || strings.Contains(path, "/node_modules/") {
			continue
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if testFile(path) && kit.FileExists(path) {
			file, line, ok = path, n, true
		}
	}
	return file, line, ok
}

var framePlace = lazyre.New(`^\s*(?:at )?(?:\S.*? \()?(.+?):(\d+)(?::\d+)?\)?\s*$`)
