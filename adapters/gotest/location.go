package gotest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
	"strobe/report"
)

// Which `file.go:12: message` line of a test's output is its failure.
//
// testing prints t.Log and t.Error alike, "    file.go:12: text", and marks
// neither, so the adapter sorts the location lines of a test's own output
// (its subtests' are theirs) into three kinds:
//
//   - a failure: the source line there calls Error, Errorf, Fatal or Fatalf
//     (the first such call on the line decides); a testify block (an
//     "Error Trace:" continuation line); a data race report (-race); a line
//     testing itself prints from testing.go ("race detected during
//     execution of test", a subtest's FailNow on its parent);
//   - a log: the source line calls Log, Logf, Skip or Skipf;
//   - unknown: anything else, such as a helper's call site (t.Helper), an
//     assertion library's line without testify's layout, or a file that
//     cannot be read.
//
// The failure shown is the first failure; else the first unknown line;
// else, when the test's own lines are all logs, nothing if a subtest
// failed (its failure is the test's), or the last log (the nearest to
// where a message-less t.Fail struck). Several t.Errorf: the first, as go
// test lists them. t.Log then t.Fatalf: the Fatalf. A file that is not in
// the test's package directory (Go's testing.go, a helper of another
// package that does not call t.Helper) is no location: the failure has
// none, and a helper's file:line stays in its message. The message is
// always the text of the line chosen, with its continuation lines.

// goLocKind is what a location line is, as far as its source line and the
// output tell.
type goLocKind int

const (
	goLocUnknown goLocKind = iota
	goLocLog
	goLocFail
)

// goLoc is one location line of a test's output and its continuation
// lines.
type goLoc struct {
	path string // relative to the project root, or "" when not the package's file
	line int
	msg  string // the location line's text (message gives it with cont)
	// cont are its continuation lines, less the location line's
	// indentation, kept to kit.MaxMessage bytes.
	cont     []string
	contSize int
	indent   string // the line's indentation: continuation lines are deeper
	kind     goLocKind
	// read: its source line was read, so an unknown kind is a line that
	// calls none of testing's methods (a helper's caller, t.Helper), not
	// a line strobe could not see.
	read bool
	race bool // testing's "race detected during execution of test"
	// panicked: testify's suite recovered a panic and reported it with
	// t.Errorf ("test panicked: …" and the stack) from a helper, so the
	// line testing names is the runtime's panic.go; the stack's first
	// frame in the project is where it happened.
	panicked bool
	fn       string // the function of the stack frame being read
}

var (
	// "progress 50%...    zz_test.go:9: boom": output printed without a
	// newline runs into the location line testing prints after it.
	goLocAfter = lazyre.New(`^\S.*?( {4,}|\t+)([^\s:/]+\.go):(\d+): (.*)$`)
	// The first method call of testing's on a source line.
	goTestingCall = lazyre.New(`\.(Logf?|Skipf?|Errorf?|Fatalf?)\((?:[^)]|$)`)
)

// goSourceCache bounds the source files kept to sort location lines: a
// run's parser lives in the daemon, whose memory stays flat (32 files of at
// most 1 MiB; a test file is tens of KB, a bigger one is generated, and
// its lines are of unknown kind).
const (
	goSourceFiles   = 32
	goSourceMaxSize = 1 << 20
)

// readLoc reads a line of a test's own output for its failure's location.
func (p *goParser) readLoc(pkg *goPackage, t *goTest, line string) {
	if c := t.cur; c != nil {
		if strings.HasPrefix(line, c.indent) && len(line) > len(c.indent) &&
			(line[len(c.indent)] == ' ' || line[len(c.indent)] == '\t') {
			if c.panicked {
				p.panicFrame(c, line[len(c.indent):])
				return
			}
			if rest := line[len(c.indent):]; c.contSize < kit.MaxMessage {
				c.cont = append(c.cont, rest)
				c.contSize += len(rest) + 1
			}
			if c.kind != goLocFail && strings.HasPrefix(strings.TrimSpace(line), "Error Trace:") {
				c.kind = goLocFail
				t.note(c)
			}
			return
		}
		t.cur = nil
	}
	if m := goLocMatch(line); m != nil {
		n, _ := strconv.Atoi(m[3])
		loc := &goLoc{line: n, msg: kit.Clip(m[4]), indent: m[1]}
		p.sortLoc(pkg.path, m[2], loc)
		if loc.line == 0 && strings.HasPrefix(m[4], goSuitePanic) {
			loc.msg, loc.kind, loc.panicked = kit.Clip(m[4]), goLocFail, true
		}
		t.cur = loc
		t.note(loc)
		return
	}
	if len(t.lines) < goKeptLines && (strings.TrimSpace(line) == "" || !goFraming(line)) {
		t.lines = append(t.lines, line) // a blank line too: it may be what an Example's got and want differ by
	}
}

// message is the location line's text with its continuation lines, less
// the indentation testing gives them (four spaces past the location line
// since Go 1.14, eight before; the least any of them has): the message's
// own indentation (a diff's, nested JSON's) stays, and a blank line stays
// blank.
func (l *goLoc) message() string {
	if len(l.cont) == 0 {
		return l.msg
	}
	common := -1
	for _, c := range l.cont {
		if strings.TrimSpace(c) == "" {
			continue
		}
		if n := len(c) - len(strings.TrimLeft(c, " \t")); common < 0 || n < common {
			common = n
		}
	}
	var b strings.Builder
	b.WriteString(l.msg)
	for _, c := range l.cont {
		b.WriteByte('\n')
		if len(c) > common && common > 0 {
			c = c[common:]
		} else if strings.TrimSpace(c) == "" {
			c = ""
		}
		b.WriteString(strings.TrimRight(c, " \t"))
	}
	return kit.Clip(strings.Trim(b.String(), "\n")) // testify's location line says nothing
}

// goSuitePanic begins the failure testify's suite reports for a test
// method (or setup) that panicked: it recovers the panic, so the test
// binary goes on and no panic reaches the output on its own.
const goSuitePanic = "test panicked: "

// panicFrame reads a line of the stack under a suite's "test panicked:"
// failure (less its indentation): the first frame in the project's files
// becomes the failure's location. The stack itself stays in the test's
// output, not in the message.
func (p *goParser) panicFrame(l *goLoc, line string) {
	if l.line > 0 {
		return
	}
	line = strings.TrimLeft(line, " ")
	if !strings.HasPrefix(line, "\t") {
		l.fn = format.GoFuncName(line)
		return
	}
	if file, n, ok := format.GoFrameFile(line); ok && l.fn != "" {
		if rel, ok := p.projectFile(file, l.fn); ok {
			l.path, l.line = rel, n
		}
	}
}

// note keeps a location line if it may be the failure's.
func (t *goTest) note(l *goLoc) {
	t.last = l
	if l.race {
		t.raced = true
	}
	if (l.kind == goLocFail || l.kind == goLocUnknown && l.read) && !l.race &&
		(len(t.failing) == 0 || t.failing[len(t.failing)-1] != l) {
		if len(t.failing) < goFailingKept {
			t.failing = append(t.failing, l)
		} else {
			t.failingMore++
		}
	}
	switch {
	case l.kind == goLocFail && t.fail == nil:
		t.fail = l
	case l.kind == goLocUnknown && t.unknown == nil:
		t.unknown = l
	}
}

// loc is the location line that tells the test's failure (the rule above),
// nil when there is none; logOnly says it is only a log.
func (t *goTest) loc() (l *goLoc, logOnly bool) {
	switch {
	case t.fail != nil:
		return t.fail, false
	case t.unknown != nil:
		return t.unknown, false
	}
	return t.last, t.last != nil
}

// sortLoc resolves a location line's file in the test's package and tells
// its kind from the source line there.
func (p *goParser) sortLoc(importPath, base string, loc *goLoc) {
	dir, ok := p.pkgDir(importPath)
	if !ok {
		loc.path = base // a package of no module here: as printed
		return
	}
	rel := filepath.Join(dir, base)
	src, exists := p.sourceLines(rel)
	_, dirExists := p.sourceLines(dir)
	switch {
	case exists:
		loc.path = filepath.ToSlash(rel)
		loc.kind = src.kind(loc.line)
		loc.read = loc.line >= 1 && loc.line <= len(src.lines)
	case !dirExists:
		loc.path = base // the package is not on this machine: as printed
	case base == "testing.go":
		// testing's own report: a race, a subtest's FailNow on its parent.
		loc.kind = goLocFail
		loc.race = loc.msg == goRaceDetected
	default:
		loc.msg = kit.Clip(base + ":" + strconv.Itoa(loc.line) + ": " + loc.msg)
		loc.line = 0
	}
}

// sourceLines returns a project file (with no lines when too big to read)
// and whether it exists, read once.
func (p *goParser) sourceLines(rel string) (*goSourceFile, bool) {
	if s, ok := p.src[rel]; ok {
		return s, s.exists
	}
	s := &goSourceFile{}
	if fi, err := os.Stat(filepath.Join(p.root, rel)); err == nil {
		s.exists = fi.Mode().IsRegular() || fi.IsDir()
		if fi.Mode().IsRegular() && fi.Size() <= goSourceMaxSize {
			if b, err := os.ReadFile(filepath.Join(p.root, rel)); err == nil {
				s.lines = strings.Split(string(b), "\n")
			}
		}
	}
	if p.src == nil {
		p.src = map[string]*goSourceFile{}
	}
	if len(p.src) < goSourceFiles {
		p.src[rel] = s
	}
	return s, s.exists
}

// goSourceFile is a project file read to sort location lines.
type goSourceFile struct {
	lines  []string
	exists bool
	kinds  map[int]goLocKind // the kinds of its lines told so far
}

// kind tells a location line's kind from the source line it names: the
// first call of testing's there decides.
func (s *goSourceFile) kind(n int) goLocKind {
	if n < 1 || n > len(s.lines) {
		return goLocUnknown
	}
	if k, ok := s.kinds[n]; ok {
		return k
	}
	k := goLocUnknown
	if m := goTestingCall.FindStringSubmatch(s.lines[n-1]); m != nil {
		switch m[1] {
		case "Log", "Logf", "Skip", "Skipf":
			k = goLocLog
		default:
			k = goLocFail
		}
	}
	if s.kinds == nil {
		s.kinds = map[int]goLocKind{}
	}
	s.kinds[n] = k
	return k
}

// goFailingKept bounds the location lines a test keeps for its later
// failures: kit keeps fewer, and counts the rest.
const goFailingKept = 200

// addLater adds to f, the failure l told, the test's other failure lines
// (t.Errorf after t.Errorf, a helper's t.Errorf at its caller's line;
// neither a log nor a line of a file strobe could not read, nor a race
// report, which the failure names on its own): a test goes on after
// t.Error, and its answer names every failure, not only the first.
func (t *goTest) addLater(f *report.Failure, l *goLoc) {
	for _, o := range t.failing {
		if o != l {
			lf := o.failure()
			kit.AddFailure(f, lf.File, lf.Line, lf.Message)
		}
	}
	for range t.failingMore {
		kit.AddFailure(f, "", 0, "")
	}
}

// failure is the Failure a location line tells.
func (l *goLoc) failure() *report.Failure {
	f := &report.Failure{Message: l.message()}
	if l.path != "" && l.line > 0 {
		f.File, f.Line = l.path, l.line
	}
	return f
}
