package gotest

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"strobe/adapters/kit"
)

// When a run tests a single package, strobe asks for `go test -v=test2json`
// instead of `go test -json` and turns the output into test2json's events
// itself. The test binary prints the same thing either way: verbose output
// whose framing lines (=== RUN, --- PASS, …) start with a ^V byte. With
// -json the go command converts every line into a JSON event, which strobe
// then decodes; on a test that prints a million lines that costs the go
// command more CPU than the test itself (go test -json takes 1.8× the time
// of go test there, go test -v=test2json 1.1×).
//
// Only for one package: with several, the go command buffers each
// package's output until its binary exits unless -json is set, and a
// stuck test would be silent.

// marker starts the framing lines of a test binary run with
// -test.v=test2json (cmd/internal/test2json).
const marker = 0x16

// goFramer converts the output of `go test -v=test2json` on one package
// into the events `go test -json` prints for it. It follows test2json's
// converter (cmd/internal/test2json) line for line, so that the parser
// reads the same events either way: a test's pass or fail is held back
// until a line at a lower depth, "=== NAME" names the test that owns the
// lines after it, and once a framing line carried the marker only marked
// lines are framing. The package's own start and end, which test2json
// writes as the go command starts and finishes the binary, come from the
// first line and from the go command's "ok", "FAIL" or "?" line.
type goFramer struct {
	pkg        string         // the import path
	emit       func(*goEvent) // must not keep the pointer
	started    bool
	ended      bool
	needMarker bool
	testName   string
	report     []goEvent // test ends waiting for a line at a lower depth
	out        goEvent   // the output event, reused: emit keeps no pointer

	// The go command's lines that end the package.
	okLine, failLine, skipLine, buildLine, setupLine string
}

func newGoFramer(pkg string, emit func(*goEvent)) *goFramer {
	return &goFramer{pkg: pkg, emit: emit,
		okLine: "ok  \t" + pkg + "\t", failLine: "FAIL\t" + pkg + "\t", skipLine: "?   \t" + pkg + "\t",
		buildLine: "FAIL\t" + pkg + " [build failed]", setupLine: "FAIL\t" + pkg + " [setup failed]"}
}

// line reads one line of stdout, without its newline. A marker inside the
// line starts a framing line after output that did not end its line.
func (f *goFramer) line(b []byte, cut bool) {
	if !f.started {
		f.started = true
		f.emit(&goEvent{Action: "start", Package: f.pkg})
	}
	for len(b) > 1 {
		i := bytes.IndexByte(b[1:], marker)
		if i < 0 {
			break
		}
		f.piece(b[:i+1], false)
		b = b[i+1:]
	}
	f.piece(b, !cut)
}

var (
	framingUpdates = []string{"=== RUN   ", "=== PAUSE ", "=== CONT  ", "=== NAME  ", "=== PASS  ", "=== FAIL  ", "=== SKIP  ", "=== ATTR  ", "=== ARTIFACTS "}
	framingReports = []string{"--- PASS: ", "--- FAIL: ", "--- SKIP: ", "--- BENCH: "}
)

// piece is test2json's handleInputLine: line is a whole line when eol is
// set (its newline left out), else output cut short by a framing line.
func (f *goFramer) piece(line []byte, eol bool) {
	if len(line) == 0 && !eol {
		return
	}
	if f.needMarker && (len(line) == 0 || line[0] != marker) {
		f.output(line, eol)
		return
	}
	sawMarker := false
	if len(line) > 0 && line[0] == marker {
		sawMarker = true
		line = line[1:]
	}
	trim := line
	if eol {
		trim = bytes.TrimSuffix(trim, []byte("\r"))
	}
	if string(trim) == "=== NAME" {
		line = []byte("=== NAME  ")
		trim = line
	}
	if string(trim) == "PASS" || string(trim) == "FAIL" || bytes.HasPrefix(trim, []byte("FAIL\t")) {
		f.flushReport(0)
		f.testName = ""
		f.needMarker = sawMarker
		f.output(line, eol)
		return
	}

	orig := line
	framing, indent := false, 0
	for _, m := range framingUpdates {
		if bytes.HasPrefix(line, []byte(m)) {
			framing = true
			break
		}
	}
	if !framing {
		for bytes.HasPrefix(line, []byte("    ")) {
			line = line[4:]
			indent++
		}
		for _, m := range framingReports {
			if bytes.HasPrefix(line, []byte(m)) {
				framing = true
				break
			}
		}
	}
	if !framing {
		if indent > 0 && indent <= len(f.report) {
			f.testName = f.report[indent-1].Test
		}
		f.output(orig, eol)
		return
	}

	action, name, _ := strings.Cut(string(line[len("=== "):]), " ")
	action = strings.ToLower(strings.TrimSuffix(action, ":"))
	name = strings.TrimSpace(name)
	e := goEvent{Action: action, Package: f.pkg}
	if line[0] == '-' { // a test's end
		if i := strings.Index(name, " ("); i >= 0 {
			if strings.HasSuffix(name, "s)") {
				if t, err := strconv.ParseFloat(name[i+2:len(name)-2], 64); err == nil {
					e.Elapsed = t
				}
			}
			name = name[:i]
		}
		if len(f.report) < indent {
			f.output(orig, eol)
			return
		}
		f.needMarker = sawMarker
		f.flushReport(indent)
		e.Test = name
		f.testName = name
		f.report = append(f.report, e)
		f.output(orig, eol)
		return
	}
	switch action {
	case "artifacts", "attr":
		name, _, _ = strings.Cut(name, " ")
	}
	f.needMarker = sawMarker
	f.flushReport(0)
	f.testName = name
	if action == "name" {
		return
	}
	e.Test = name
	if action == "pause" {
		f.output(orig, eol)
	}
	f.emit(&e)
	if action != "pause" {
		f.output(orig, eol)
	}
}

// flushReport sends the held test ends deeper than depth, innermost first.
func (f *goFramer) flushReport(depth int) {
	f.testName = ""
	for len(f.report) > depth {
		e := f.report[len(f.report)-1]
		f.report = f.report[:len(f.report)-1]
		f.emit(&e)
	}
}

// output sends a piece of the binary's output, owned by the current test,
// and ends the package when it is the go command's last line for it.
func (f *goFramer) output(b []byte, eol bool) {
	var s strings.Builder
	s.Grow(len(b) + 1)
	s.Write(b)
	if eol {
		s.WriteByte('\n')
	}
	f.out = goEvent{Action: "output", Package: f.pkg, Test: f.testName, Output: s.String()}
	f.emit(&f.out)
	f.packageEnd(b)
}

// packageEnd ends the package on the go command's last line for it:
// "ok  \tpkg\t0.012s", "FAIL\tpkg\t0.012s", "FAIL\tpkg [build failed]" or
// "?   \tpkg\t[no test files]".
func (f *goFramer) packageEnd(line []byte) {
	if f.ended || len(line) < 5 || line[0] != 'o' && line[0] != '?' && line[0] != 'F' {
		return // most lines: a test's output
	}
	e := goEvent{Package: f.pkg}
	var rest string
	switch s := string(line); {
	case strings.HasPrefix(s, f.okLine):
		e.Action, rest = "pass", s[len(f.okLine):]
	case strings.HasPrefix(s, f.skipLine):
		e.Action = "skip"
	case strings.HasPrefix(s, f.failLine):
		e.Action, rest = "fail", s[len(f.failLine):]
	case strings.HasPrefix(s, f.buildLine), strings.HasPrefix(s, f.setupLine):
		e.Action, e.FailedBuild = "fail", f.pkg
	default:
		return
	}
	if d, _, _ := strings.Cut(rest, "\t"); strings.HasSuffix(d, "s") {
		e.Elapsed, _ = strconv.ParseFloat(strings.TrimSuffix(d, "s"), 64)
	}
	f.ended = true
	f.emit(&e)
}

// goFramedArgv returns argv, a go test command with strobe's -json at
// argv[2], with -v=test2json in its place, and the import path of the
// package it tests. ok is false unless the command certainly tests one
// package of the module in root: with no package named (the root's own),
// one directory of the module, one import path in it, or a pattern
// "dir/..." whose tree holds Go files in one directory only. It is false
// too in a workspace, for a module that may be built by a Go older than
// 1.21 (-v=test2json is 1.20's), and for flags whose output the converter
// does not follow (-bench, -fuzz, -list, test binary flags).
func goFramedArgv(root string, mods []goModule, env, argv []string) ([]string, string, bool) {
	if len(mods) != 1 || mods[0].dir != "." || !goAtLeast121(goDirective(filepath.Join(root, "go.mod"), "go")) {
		return nil, "", false
	}
	if strings.Contains(kit.EnvValue(env, "GOFLAGS"), "json") {
		return nil, "", false
	}
	out := []string{argv[0], argv[1], "-v=test2json"}
	var pkgs []string
	args := argv[3:]
	for i := 0; i < len(args); {
		name, words := goArg(args, i)
		i += len(words)
		switch {
		case name == "":
			pkgs = append(pkgs, words[0])
			out = append(out, words...)
		case name == "args", name == "json", name == "bench", name == "fuzz", name == "list", name == "c",
			strings.HasPrefix(name, "test."):
			return nil, "", false
		case name == "v": // -v=test2json is the verbosity
		default:
			out = append(out, words...)
		}
	}
	if len(pkgs) > 1 {
		return nil, "", false
	}
	pat := "."
	if len(pkgs) == 1 {
		pat = pkgs[0]
	}
	pkg, ok := goOnePackage(root, mods[0].path, pat)
	return out, pkg, ok
}

// goOnePackage is the import path of the one package pattern pat names in
// the module path at root, or false when it may name more, or none.
func goOnePackage(root, module, pat string) (string, bool) {
	if pat == module || strings.HasPrefix(pat, module+"/") {
		pat = "./" + strings.TrimPrefix(strings.TrimPrefix(pat, module), "/")
	} else if pat != "." && pat != ".." && !strings.HasPrefix(pat, "./") && !strings.HasPrefix(pat, "../") {
		return "", false // the standard library, another module, an absolute path
	}
	dir, walk := strings.CutSuffix(pat, "/...")
	if strings.Contains(dir, "...") {
		return "", false
	}
	rel, ok := kit.Rel(root, filepath.FromSlash(dir))
	if !ok {
		return "", false
	}
	for d := rel; d != "."; d = filepath.Dir(d) {
		if filepath.Base(d) == "vendor" || kit.FileExists(filepath.Join(root, d, "go.mod")) {
			return "", false // vendored, or another module
		}
	}
	if walk {
		var found bool
		if rel, found = goOnlyPackageDir(root, rel); !found {
			return "", false
		}
	} else if files, _ := filepath.Glob(filepath.Join(root, rel, "*.go")); len(files) == 0 {
		return "", false // not a package: let go test say so as it always has
	}
	if rel == "." {
		return module, true
	}
	return module + "/" + filepath.ToSlash(rel), true
}

// goOnlyPackageDir is the one directory under dir (relative to root) that
// holds .go files, as ./... sees the tree: without directories named
// testdata or starting with . or _, and stopping at nested modules. It
// counts directories whose files a build would skip, so it may answer
// false for a tree of one package, never true for one of two.
func goOnlyPackageDir(root, dir string) (string, bool) {
	found, n, visited := "", 0, 0
	filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
		visited++
		if err != nil || n > 1 || visited > 5000 {
			n = 2
			return fs.SkipAll
		}
		name := d.Name()
		if d.IsDir() {
			if rel, _ := filepath.Rel(root, path); rel != dir &&
				(name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || kit.FileExists(filepath.Join(path, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") {
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			if rel != found {
				found = rel
				n++
			}
		}
		return nil
	})
	return found, n == 1
}

// goAtLeast121 says whether a go directive ("1.22", "1.21.3", "1.23rc1")
// asks for Go 1.21 or later, which refuses to build a module for a newer
// Go: the go command running is at least as new.
func goAtLeast121(directive []string) bool {
	if len(directive) == 0 {
		return false
	}
	major, rest, _ := strings.Cut(directive[0], ".")
	minor := rest
	if i := strings.IndexFunc(minor, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		minor = minor[:i]
	}
	mj, err1 := strconv.Atoi(major)
	mn, err2 := strconv.Atoi(minor)
	return err1 == nil && err2 == nil && (mj > 1 || mj == 1 && mn >= 21)
}
