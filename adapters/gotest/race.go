package gotest

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
	"strobe/report"
)

// Data races (go test -race).
//
// The race detector prints its report ("WARNING: DATA RACE", the two
// accesses' stacks, where their goroutines were created, a line of "="
// signs) when it finds the race, in the output of whichever test go test
// names at that moment, and testing then fails every test that was
// running ("testing.go:1712: race detected during execution of test"),
// which with parallel tests is not only the test whose code raced. So the
// reports are read by package, each with the tests its code is in (a frame
// of an access, or of a goroutine's creation), and a failed test that
// says a race was detected gets the report printed while it ran: the one
// its own code is in, else the first, saying whose code it is. A race
// found outside any test (in TestMain, in a goroutine a test left running
// after the last test) fails the package although its tests passed
// ("Found 1 data race(s)", exit 66): the package's failure says so.

const (
	goRaceDetected = "race detected during execution of test"
	goRaces        = 16 // race reports kept by package
)

var (
	// "Read at 0x00c000012345 by goroutine 7:", "Previous write at … by main goroutine:".
	goRaceAccessLine = lazyre.New(`^(\S.*?) at 0x[0-9a-f]+ by (.+):$`)
	// "Goroutine 8 (running) created at:".
	goRaceCreatedLine = lazyre.New(`^Goroutine (\d+) \(\w+\) created at:$`)
	goRaceFrameFile   = lazyre.New(`^\s+(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)
)

// goRace is a data race report: its accesses and where their goroutines
// were created, each by its frames in the project's files.
type goRace struct {
	access  []goRaceAccess
	created map[string]goSite // "goroutine 8" → its creation's first frame in the project
	// tests are the package's top-level tests whose code is in the report,
	// in the order read; main says TestMain's is.
	tests   []string
	main    bool
	running []string // the package's tests running when it was printed
	section int      // what the frames being read are: goRaceNone, goRaceInAccess, goRaceInCreation
	gor     string   // the goroutine whose creation is being read
	fn      string
	lines   int
}

const (
	goRaceNone = iota
	goRaceInAccess
	goRaceInCreation
)

// goSite is a frame in the project's files.
type goSite struct {
	path, fn string
	line     int
}

func (s goSite) String() string {
	return s.path + ":" + strconv.Itoa(s.line) + " (" + s.fn[strings.LastIndexByte(s.fn, '/')+1:] + ")"
}

type goRaceAccess struct {
	what, by   string // "Read", "goroutine 15"
	at, caller goSite // its first two frames in the project's files
}

// raceLine reads a line of a package's output (a test's or its own) for
// a race report, and says whether the line was the report's.
func (p *goParser) raceLine(pkg *goPackage, line string) bool {
	r := pkg.race
	if r == nil {
		if strings.TrimSpace(line) != "WARNING: DATA RACE" {
			return false
		}
		pkg.race = &goRace{created: map[string]goSite{}, running: slices.Clone(pkg.running)}
		return true
	}
	if r.lines++; r.lines > goTraceLines || strings.HasPrefix(line, "=======") {
		pkg.race = nil
		if pkg.nraces++; len(pkg.races) < goRaces {
			pkg.races = append(pkg.races, r)
		}
		return true
	}
	if m := goRaceAccessLine.FindStringSubmatch(line); m != nil {
		r.access = append(r.access, goRaceAccess{what: m[1], by: m[2]})
		r.section, r.fn = goRaceInAccess, ""
		return true
	}
	if m := goRaceCreatedLine.FindStringSubmatch(line); m != nil {
		r.section, r.gor, r.fn = goRaceInCreation, "goroutine "+m[1], ""
		return true
	}
	if !strings.HasPrefix(line, " ") {
		r.section = goRaceNone // "Location is heap block …", "Mutex M1 … created at:"
		return true
	}
	if r.section == goRaceNone {
		return true
	}
	m := goRaceFrameFile.FindStringSubmatch(line)
	if m == nil {
		r.fn = format.GoFuncName(line)
		return true
	}
	fn := r.fn
	r.fn = ""
	if fn == "" {
		return true
	}
	if test := goTestOf(pkg, fn); test != "" && !slices.Contains(r.tests, test) {
		r.tests = append(r.tests, test)
	}
	if goIsTestMain(pkg, fn) {
		r.main = true
	}
	rel, ok := p.projectFile(m[1], fn)
	if !ok {
		return true
	}
	n, _ := strconv.Atoi(m[2])
	site := goSite{rel, fn, n}
	switch a := &r.access[len(r.access)-1]; {
	case r.section == goRaceInCreation:
		if _, ok := r.created[r.gor]; !ok {
			r.created[r.gor] = site
			// A goroutine a test's helper started: the test that calls it.
			if test := p.helperCaller(pkg, fn); test != "" && !slices.Contains(r.tests, test) {
				r.tests = append(r.tests, test)
			}
		}
	case a.at.path == "":
		a.at = site
	case a.caller.path == "":
		a.caller = site
	}
	return true
}

// goIsTestMain says whether fn is the package's TestMain or a closure in it.
func goIsTestMain(pkg *goPackage, fn string) bool {
	path := goPackageOf(fn)
	if path != pkg.path && path != pkg.path+"_test" || len(fn) <= len(path)+1 {
		return false
	}
	top, _, _ := strings.Cut(fn[len(path)+1:], ".")
	return top == "TestMain"
}

// essence is a race's failure location and message: its two accesses
// (with their callers when both are on the same line: a shared helper),
// and where their goroutines were created.
func (r *goRace) essence() *goLoc {
	loc := &goLoc{kind: goLocFail}
	var parts, created []string
	same := len(r.access) >= 2 && r.access[0].at == r.access[1].at
	for i, a := range r.access {
		if i == 2 {
			break
		}
		s := strings.ToLower(a.what[:1]) + a.what[1:] + " by " + a.by
		if a.at.path != "" {
			s += " at " + a.at.String()
			if same && a.caller.path != "" {
				s += " called at " + a.caller.String()
			}
			if loc.path == "" {
				loc.path, loc.line = a.at.path, a.at.line
			}
		}
		parts = append(parts, s)
		if c, ok := r.created[a.by]; ok {
			if s := a.by + " created at " + c.String(); !slices.Contains(created, s) {
				created = append(created, s)
			}
		}
	}
	loc.msg = "data race (go test -race)"
	if len(parts) > 0 {
		loc.msg += ": " + strings.Join(parts, ", ")
	}
	if len(created) > 0 {
		loc.msg += "; " + strings.Join(created, ", ")
	}
	return loc
}

// testRace is the race report a failed test that says a race was
// detected failed for: one printed after it started whose code is the
// test's, else the first printed after it started; nil when none was read.
func (pkg *goPackage) testRace(name string, t *goTest) *goRace {
	top, _, _ := strings.Cut(name, "/")
	var first *goRace
	for i, r := range pkg.races {
		if i < t.raceFrom {
			continue
		}
		if slices.Contains(r.tests, top) {
			return r
		}
		if first == nil {
			first = r
		}
	}
	return first
}

// raceFailure is a test's failure for a race report: the race's essence,
// whose code it is when not only the test's, and a rerun with -race of
// the tests the race needs.
func (p *goParser) raceFailure(pkg *goPackage, name string, r *goRace) *report.Failure {
	loc := r.essence()
	f := loc.failure()
	if f.File != "" {
		f.SuggestedTraces = p.callTraces(pkg.path, f.File, f.Line, name)
	}
	top, _, _ := strings.Cut(name, "/")
	var others []string
	for _, t := range r.tests {
		if t != top {
			others = append(others, t)
		}
	}
	switch {
	case len(others) == 0:
		f.Rerun = p.rerunRace(pkg.path, goRunPattern(name))
		return f
	case !slices.Contains(r.tests, top):
		f.Message = kit.Clip(f.Message + fmt.Sprintf("\n(the race is in %s's code: testing fails every test running when a race is found, so %s only happened to be running; a rerun needs both)", strings.Join(others, " and "), top))
	default:
		f.Message = kit.Clip(f.Message + fmt.Sprintf("\n(%s's code is in the race too, a goroutine it left running: a rerun needs both)", strings.Join(others, " and ")))
	}
	names := []string{regexp.QuoteMeta(top)}
	for _, o := range others {
		names = append(names, regexp.QuoteMeta(o))
	}
	f.Rerun = p.rerunRace(pkg.path, "^("+strings.Join(names, "|")+")$")
	return f
}

// packageRace is the failure of a package whose tests passed but whose
// binary found a race outside them: in TestMain, or in a goroutine a test
// left running after the last test ended.
func (p *goParser) packageRace(pkg *goPackage) *report.Failure {
	r := pkg.races[0]
	for _, c := range pkg.races {
		if len(c.running) == 0 {
			r = c
			break
		}
	}
	where := "outside any test"
	switch {
	case r.main:
		where += " (in TestMain)"
	case len(r.tests) > 0:
		where += fmt.Sprintf(" (in a goroutine %s left running)", strings.Join(r.tests, " and "))
	}
	loc := r.essence()
	f := loc.failure()
	f.Message = kit.Clip(fmt.Sprintf("a data race %s: go test -race fails the package for it though no test failed\n%s", where, f.Message))
	run := ""
	if !r.main && len(r.tests) == 1 {
		run = goRunPattern(r.tests[0])
	}
	f.Rerun = p.rerunRace(pkg.path, run)
	return f
}

// rerunRace is rerunRun with -race, which the race needs (the run may
// have had it from GOFLAGS).
func (p *goParser) rerunRace(importPath, run string) string {
	start := p.rerun
	if !slices.ContainsFunc(start, func(w string) bool { return w == "-race" || w == "--race" || w == "-race=true" }) {
		start = append(slices.Clone(start), "-race")
	}
	return p.rerunFrom(start, importPath, run)
}
