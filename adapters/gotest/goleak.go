package gotest

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"strobe/adapters/kit"
	"strobe/internal/lazyre"
	"strobe/report"
)

// Leaked goroutines found by go.uber.org/goleak.
//
// goleak.VerifyNone(t) fails a test with t.Error("found unexpected
// goroutines:\n[Goroutine 19 in state chan receive, with pkg.f on top of
// the stack:\n<stack>\ncreated by pkg.TestX in goroutine 18\n<file:line>\n]"),
// and goleak.VerifyTestMain, after tests that all passed, prints
// "goleak: Errors on successful test run: found unexpected goroutines: …"
// and exits 1. The report is dozens of lines of absolute paths; its
// essence is each goroutine's state, where it is stuck and where it was
// created, in the project's files. A leaked goroutine lives on into the
// tests after the one that started it, so VerifyNone fails them too: the
// failure names the test that started it, and reruns both.

const goleakHeader = "found unexpected goroutines:"

var (
	// "[Goroutine 19 in state chan receive, with example.com/m.serve on top of the stack:".
	goleakGoroutine = lazyre.New(`^\[?Goroutine (\d+) in state ([^,]+), with (\S+) on top of the stack:`)
	goleakFile      = lazyre.New(`^(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)
)

// goLeak is one leaked goroutine of a goleak report.
type goLeak struct {
	id, state string
	at        goSite // its first frame in the project's files
	creator   string // "created by" function
	created   goSite // where, when in the project's files
	test      string // the package's test that started it
}

// readGoleak reads a goleak report (its lines from "found unexpected
// goroutines:" on, indentation trimmed or not).
func (p *goParser) readGoleak(pkg *goPackage, lines []string) []goLeak {
	var leaks []goLeak
	fn, inCreated := "", false
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if m := goleakGoroutine.FindStringSubmatch(l); m != nil {
			leaks = append(leaks, goLeak{id: m[1], state: m[2]})
			fn, inCreated = "", false
			continue
		}
		if len(leaks) == 0 {
			continue
		}
		g := &leaks[len(leaks)-1]
		if c, ok := strings.CutPrefix(l, "created by "); ok {
			c, _, _ = strings.Cut(c, " in goroutine ")
			g.creator, inCreated, fn = c, true, c
			if g.test = goTestOf(pkg, c); g.test == "" {
				g.test = p.helperCaller(pkg, c)
			}
			continue
		}
		m := goleakFile.FindStringSubmatch(l)
		if m == nil {
			if l != "" && l != "]" {
				fn = goFuncArgs(l)
			}
			continue
		}
		rel, ok := p.projectFile(m[1], fn)
		if !ok || fn == "" {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		switch {
		case inCreated && g.created.path == "":
			g.created = goSite{rel, fn, n}
		case !inCreated && g.at.path == "":
			g.at = goSite{rel, fn, n}
		}
	}
	return leaks
}

// goFuncArgs strips a goleak frame's arguments: "pkg.f(...)", "pkg.g(0x1)".
func goFuncArgs(l string) string {
	if i := strings.LastIndexByte(l, '('); i > 0 && strings.HasSuffix(l, ")") {
		return l[:i]
	}
	return l
}

// goleakFailure turns a goleak report into a failure: the leaked
// goroutines' essence, located where the first was created (else where it
// is stuck), and the tests that started them beside test (the failing
// one, "" for VerifyTestMain's), whose rerun needs them.
func (p *goParser) goleakFailure(pkg *goPackage, test, reported string, lines []string) *report.Failure {
	leaks := p.readGoleak(pkg, lines)
	if len(leaks) == 0 {
		return nil
	}
	noun := "goroutine"
	if len(leaks) > 1 {
		noun = "goroutines"
	}
	var parts, starters []string
	f := &report.Failure{}
	for i, g := range leaks {
		if g.test != "" && !slices.Contains(starters, g.test) {
			starters = append(starters, g.test)
		}
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(leaks)-3))
			break
		}
		s := "goroutine " + g.id + " [" + g.state + "]"
		if g.at.path != "" {
			s += " at " + g.at.String()
		}
		if g.created.path != "" {
			s += ", created at " + g.created.String()
		} else if g.creator != "" {
			s += ", created by " + g.creator
		}
		parts = append(parts, s)
		for _, site := range []goSite{g.created, g.at} {
			if f.File == "" && site.path != "" {
				f.File, f.Line = site.path, site.line
			}
		}
	}
	f.Message = fmt.Sprintf("goleak: %d leaked %s%s: %s", len(leaks), noun, reported, strings.Join(parts, "; "))
	top, _, _ := strings.Cut(test, "/")
	others := slices.DeleteFunc(slices.Clone(starters), func(s string) bool { return s == top })
	switch {
	case test == "" && len(starters) > 0:
		f.Message += fmt.Sprintf("\n(started by %s)", strings.Join(starters, " and "))
		run := "^(" + strings.Join(quoteAll(starters), "|") + ")$"
		if len(starters) == 1 {
			run = goRunPattern(starters[0])
		}
		f.Rerun = p.rerunRun(pkg.path, run)
	case test != "" && len(others) > 0 && !slices.Contains(starters, top):
		f.Message += fmt.Sprintf("\n(started by %s, which left it running: %s only saw it; a rerun needs both)", strings.Join(others, " and "), top)
		f.Rerun = p.rerunRun(pkg.path, "^("+regexp.QuoteMeta(top)+"|"+strings.Join(quoteAll(others), "|")+")$")
	}
	f.Message = kit.Clip(f.Message)
	return f
}

func quoteAll(ss []string) []string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = regexp.QuoteMeta(s)
	}
	return q
}
