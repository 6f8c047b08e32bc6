package cargo

import (
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

// Doctests run under rustdoc, which prints libtest's human output (strobe
// gives rustdoc no RUSTC_BOOTSTRAP, see cargo): a "running N tests" line,
// one "test NAME ... ok|FAILED|ignored" line per doctest as it ends, then a
// "---- NAME stdout ----" block per failure and the "test result:" line.
// Cargo names the crate first on stderr ("Doc-tests NAME"): the k-th such
// line and the k-th crate's "running" blocks on stdout are the same crate.
// A crate of edition 2024 may run two blocks under one "Doc-tests" line:
// its merged doctests, then those that run apart (compile_fail,
// standalone_crate), then "all doctests ran in …". Which crate a block
// is comes from stdout alone (the streams' order is no guide): a block
// after one that no "all doctests ran" line closed continues that crate
// when its first doctest's file is in the same package (doctestPackage).

var (
	rustdocRunning = lazyre.New(`^running (\d+) tests?$`)
	rustdocResult  = lazyre.New(`^test (.+) \.\.\. (ok|FAILED|ignored(?:, .*)?)$`)
	rustdocBlock   = lazyre.New(`^---- (.+) stdout ----$`)
	rustdocTotals  = lazyre.New(`^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored;`)
	// "...; 0 measured; 3 filtered out; finished in 0.01s": the doctests a
	// filter left out.
	rustdocFiltered = lazyre.New(`; (\d+) filtered out`)
	// "src/lib.rs - with_vat (line 9)", "src/lib.rs - Foo::bar (line 3) - compile fail":
	// the file and the line of the doctest's opening fence.
	doctestName  = lazyre.New(`^(\S.*?) - (.*?) ?\(line (\d+)\)`)
	cargoDocTest = lazyre.New(`^\s*Doc-tests (\S+)`)
	// rustdoc's last line for a crate that ran merged doctests (edition 2024).
	rustdocAllRan = lazyre.New(`^all doctests ran in `)
	// rustc's first error in a doctest that did not compile, and where.
	rustcError   = lazyre.New(`(?m)^error(?:\[E\d+\])?: .*$`)
	rustcErrorAt = lazyre.New(`(?m)^\s*--> (.+?):(\d+):(\d+)$`)
	rustcErrEnd  = lazyre.New(`(?m)^(?:error: aborting due to|Couldn't compile the test\.|For more information about)`)
	// rustdoc's word on a doctest whose program a signal ended: "Test
	// executable failed (signal: 11 (SIGSEGV))."; for edition 2024's
	// merged doctests, "(terminated by signal)", which does not say which.
	rustdocSignal = lazyre.New(`(?m)^Test executable failed \((?:signal: (\d+) \((SIG\w+)\)|terminated by signal)`)
)

// isDoctestName says whether a test name is rustdoc's, so that a single
// test asked for by that name runs under cargo test --doc.
func isDoctestName(name string) bool { return doctestName.MatchString(name) }

// cargoDocSuite is one crate's doctests.
type cargoDocSuite struct {
	name    string
	pkg     string
	version string   // pkg's version, for a -p that must name it
	bound   bool     // its "Doc-tests" line came: name and pkg are known
	crate   int      // its crate: an index of docRuns; -1 until known
	dir     string   // the package directory of its first doctest's file
	closed  bool     // rustdoc's "all doctests ran" line followed: its crate's last block
	pending []string // lines held until then
	tests   int      // from "running N tests"
	done    bool     // the "test result:" line came
	failed  []string // doctests reported FAILED, waiting for their block
	human   libtestHuman
	counts  [3]int  // passed, failed, skipped as recorded
	totals  *[3]int // as rustdoc counted them
	// filtered counts the crate's doctests a filter left out: the names
	// read are not all of them.
	filtered int
}

// docStart begins a block of doctests: the next crate's, or, after a
// block of doctests that no "all doctests ran" line closed, maybe more of
// the same crate's, undecided until its first doctest names its file.
func (p *cargoParser) docStart(tests int) {
	p.rec.BeginTesting()
	p.rec.StartsUnknown() // rustdoc names a doctest only once it ends
	d := &cargoDocSuite{tests: tests, crate: -1}
	prev := p.lastDoc()
	p.docs = append(p.docs, d)
	if prev != nil && !prev.closed && prev.dir != "" && tests > 0 {
		return // docDecide, at its first doctest or its end
	}
	p.docDecide(d, false)
}

// lastDoc is the last block of doctests begun, if any.
func (p *cargoParser) lastDoc() *cargoDocSuite {
	if len(p.docs) == 0 {
		return nil
	}
	return p.docs[len(p.docs)-1]
}

// docDecide sets which crate a block is: the previous block's, or the
// next one, bound to its "Doc-tests" line if that came.
func (p *cargoParser) docDecide(d *cargoDocSuite, same bool) {
	d.crate = 0
	if k := slices.Index(p.docs, d); k > 0 {
		d.crate = p.docs[k-1].crate
		if !same {
			d.crate++
		}
	}
	if d.crate < len(p.docRuns) {
		p.docBind(d, p.docRuns[d.crate])
	}
}

// docCrate is cargo's "Doc-tests NAME" line.
func (p *cargoParser) docCrate(lib string) {
	p.docRuns = append(p.docRuns, lib)
	for _, d := range p.docs {
		if d.crate == len(p.docRuns)-1 && !d.bound {
			p.docBind(d, lib)
		}
	}
}

// docCrates is how many crates' doctests began on stdout.
func (p *cargoParser) docCrates() int {
	if d := p.lastDoc(); d != nil {
		return d.crate + 1
	}
	return 0
}

// docSeen notes a block's first doctest's package, which decides an
// undecided block: the same package as the block before it is the same
// crate.
func (p *cargoParser) docSeen(d *cargoDocSuite, line string) {
	if d.dir != "" {
		return
	}
	if m := rustdocResult.FindStringSubmatch(line); m != nil {
		d.dir = p.doctestPackage(m[1])
		if d.crate < 0 {
			k := slices.Index(p.docs, d)
			p.docDecide(d, k > 0 && p.docs[k-1].dir == d.dir)
		}
	}
}

// doctestPackage is the directory of the package whose library holds a
// doctest's file ("first/src/lib.rs - f (line 3)": rustdoc names it from
// the workspace root), the deepest of the built libraries' package
// directories it is in; the file's own directory when none is.
func (p *cargoParser) doctestPackage(name string) string {
	m := doctestName.FindStringSubmatch(name)
	if m == nil {
		return name
	}
	file := m[1]
	if !filepath.IsAbs(file) {
		file = filepath.Join(p.wsRoot, file)
	}
	best := ""
	for _, dir := range p.libDirs {
		if len(dir) > len(best) && kit.Within(dir, file) {
			best = dir
		}
	}
	if best == "" {
		return filepath.Dir(file)
	}
	return best
}

// docBind names a crate's doctests after its package (cargo prints the
// library's name, which -p does not take) and replays its lines.
func (p *cargoParser) docBind(d *cargoDocSuite, lib string) {
	d.pkg = lib
	// A dependency may be another version of the same package, its
	// library of the same name (dtolnay/itoa tests against crates.io's
	// itoa), built in whatever order: the doctests are a tested package's.
	if libs := p.libs[lib]; len(libs) > 0 {
		t := libs[len(libs)-1]
		for _, l := range libs {
			if p.tested[l.pkg+"@"+l.version] {
				t = l
			}
		}
		d.pkg, d.version = t.pkg, t.version
	}
	d.name = d.pkg + " (doc)"
	d.bound = true
	for _, l := range d.pending {
		p.docApply(d, l)
	}
	d.pending = nil
}

func (p *cargoParser) currentDoc() *cargoDocSuite {
	if d := p.lastDoc(); d != nil && !d.done {
		return d
	}
	return nil
}

// docLine takes a stdout line of rustdoc's, and says whether it was one.
func (p *cargoParser) docLine(line string) bool {
	if d := p.currentDoc(); d != nil {
		p.docSeen(d, line)
		if !d.bound {
			d.pending = append(d.pending, line)
			if rustdocTotals.MatchString(line) {
				d.done = true // the next "running" line is another block's
				if d.crate < 0 {
					p.docDecide(d, false) // no doctest ran in it
				}
			}
			return true
		}
		p.docApply(d, line)
		return true
	}
	if m := rustdocRunning.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[1])
		p.docStart(n)
		return true
	}
	if d := p.lastDoc(); d != nil && rustdocAllRan.MatchString(line) {
		d.closed = true
		return true
	}
	return false
}

func (p *cargoParser) docApply(d *cargoDocSuite, line string) {
	r := d.human.read(line)
	switch {
	case r.totals != nil:
		d.totals, d.filtered = r.totals, r.filtered
		p.docFinish(d)
		// The next crate's doctests may compile before its "running" line.
		p.rec.BeginBuilding()
	case r.name == "":
	case r.status == report.TestFailed:
		p.sawTest = true
		d.failed = append(d.failed, r.name)
	default:
		p.sawTest = true
		p.docEnd(d, r.name, r.status, nil)
	}
}

// docFinish records the failed doctests with what their blocks said.
func (p *cargoParser) docFinish(d *cargoDocSuite) {
	d.done, d.human.block = true, ""
	for _, name := range d.failed {
		p.docEnd(d, name, report.TestFailed, p.docFailure(d, name))
	}
	d.failed = nil
}

func (p *cargoParser) docEnd(d *cargoDocSuite, name string, st report.TestStatus, f *report.Failure) {
	if b := d.blockOf(name); f != nil && b != nil {
		p.rec.Output(d.name, name, b.String())
		if m := rustdocSignal.FindStringSubmatch(b.String()); m != nil {
			n, _ := strconv.Atoi(m[1])
			p.docSignals = append(p.docSignals, docSignal{test: name, signal: n, name: m[2]})
		}
	}
	p.rec.End(d.name, name, st, 0, f)
	d.counts[slices.Index([]report.TestStatus{report.TestPassed, report.TestFailed, report.TestSkipped}, st)]++
}

// docSignal is a doctest whose program died of a signal: rustdoc says
// only that the doctest failed, and cargo that the doctests did, so the
// run would read as failed, not crashed.
type docSignal struct {
	test   string
	signal int
	name   string // SIGSEGV
}

// blockOf is a failed doctest's "---- NAME stdout ----" block. Its name
// there leaves out what follows the line ("src/lib.rs - f (line 6) -
// compile fail" has the block "---- src/lib.rs - f (line 6) stdout ----").
func (d *cargoDocSuite) blockOf(name string) *strings.Builder {
	if b := d.human.blocks[name]; b != nil {
		return b
	}
	if m := doctestName.FindStringSubmatch(name); m != nil {
		return d.human.blocks[m[0]]
	}
	return nil
}

// docFailure reads a doctest's failure block. The doctest's own location
// is its file and the line rustdoc names it by: the panic location rustdoc
// reports for a line inside a doctest is wrong (rustc 1.95 says
// src/lib.rs:5:1 for an assertion on line 9 under edition 2021, and names a
// temporary file under 2024), while the named line always leads to the
// doctest. A doctest that does not compile points at rustc's error, whose
// location rustdoc maps right. A panic inside the library called by the
// doctest keeps its location in the message.
func (p *cargoParser) docFailure(d *cargoDocSuite, name string) *report.Failure {
	f := &report.Failure{Name: name, Rerun: p.docRerun(d, name)}
	if m := doctestName.FindStringSubmatch(name); m != nil {
		f.File = p.relPath(m[1])
		f.Line, _ = strconv.Atoi(m[3])
	}
	var text string
	if b := d.blockOf(name); b != nil {
		text = b.String()
	}
	if loc := rustcError.FindStringIndex(text); loc != nil && strings.Contains(text, "Couldn't compile the test.") {
		msg := text[loc[0]:]
		if end := rustcErrEnd.FindStringIndex(msg); end != nil {
			msg = msg[:end[0]]
		}
		if at := rustcErrorAt.FindStringSubmatch(msg); at != nil {
			f.File = p.relPath(at[1])
			f.Line, _ = strconv.Atoi(at[2])
		}
		f.Message = kit.Clip(strings.TrimSpace(msg))
		return f
	}
	file, line, msg := p.panicIn(text)
	switch {
	case msg == "":
		f.Message = kit.ClipTail(strings.TrimSpace(text))
	case doctestPanicReal(text, file, line, f.File):
		f.Message = kit.Clip("panicked at " + file + ":" + strconv.Itoa(line) + ": " + msg)
	default:
		f.Message = msg
	}
	f.SuggestedTraces = p.traces(text, "")
	return f
}

// doctestPanicReal says whether a panic's location is worth showing beside
// the doctest's: a place in the project's code that is not the doctest's
// own mislabelled line. Rustdoc's line for the doctest's code is the line
// within the generated program (an assertion on line 9 of src/lib.rs is
// reported at src/lib.rs:5:1), or a temporary file under edition 2024, so
// a location in the doctest's own file is believed only when a backtrace
// frame (RUST_BACKTRACE) confirms it; one in another file of the project
// is the library code the doctest called.
func doctestPanicReal(text, file string, line int, docFile string) bool {
	if file == "" || filepath.IsAbs(file) {
		return false
	}
	if file != docFile {
		return true
	}
	frame := regexp.MustCompile(`(?m)^\s+at (?:\./)?` + regexp.QuoteMeta(file) + ":" + strconv.Itoa(line) + ":")
	return frame.MatchString(text)
}

// docRerun filters by the doctest's item (with_vat, Parser::new), not by
// its whole name: cargo hands the filter to rustdoc, which splits its test
// arguments at whitespace, so 'src/lib.rs - with_vat (line 8)' would run
// every doctest (and with --exact, none). The item may select a few more
// doctests: its other examples, and items whose path contains it. Once the
// crate's doctests are known, Finish replaces it with a rerun that selects
// the doctest alone (exactDocReruns); this one stays when none can.
func (p *cargoParser) docRerun(d *cargoDocSuite, name string) string {
	argv := slices.Clone(p.rerun)
	if d.pkg != "" {
		argv = append(argv, "-p", p.spec(d.pkg, d.version))
	}
	return shell.Join(append(argv, "--doc", "--", doctestFilter(name)))
}

// doctestFilter is the whitespace-free filter that selects a doctest: its
// item's path, or for a crate's or module's own docs ("src/lib.rs - (line
// 1)") its file.
func doctestFilter(name string) string {
	m := doctestName.FindStringSubmatch(name)
	if m == nil {
		return name
	}
	if f := strings.Fields(m[2]); len(f) > 0 {
		return f[0]
	}
	return m[1]
}

// libtestHuman reads libtest's human output, as rustdoc prints it for the
// doctests and libtest-like harnesses (tester, libtest-mimic) for their
// tests: a "test NAME ... ok|FAILED|ignored" line as each test ends, then a
// "---- NAME stdout ----" block per failure, and the "test result:" totals.
type libtestHuman struct {
	block  string                      // the test whose failure block is being read
	blocks map[string]*strings.Builder // failure blocks by test name
}

// humanLine is what a line of human output told: a test's result (name
// set), the totals (passed, failed, ignored), or nothing to act on.
type humanLine struct {
	name     string
	status   report.TestStatus
	totals   *[3]int
	filtered int // with totals: how many tests a filter left out
}

func (h *libtestHuman) read(line string) humanLine {
	switch {
	case h.block == "" && rustdocResult.MatchString(line):
		m := rustdocResult.FindStringSubmatch(line)
		st := report.TestSkipped // "ignored", "ignored, reason"
		switch m[2] {
		case "ok":
			st = report.TestPassed
		case "FAILED":
			st = report.TestFailed
		}
		return humanLine{name: m[1], status: st}
	case rustdocBlock.MatchString(line):
		h.block = rustdocBlock.FindStringSubmatch(line)[1]
		if h.blocks == nil {
			h.blocks = map[string]*strings.Builder{}
		}
		h.blocks[h.block] = &strings.Builder{}
	case line == "failures:":
		h.block = ""
	case rustdocTotals.MatchString(line):
		m := rustdocTotals.FindStringSubmatch(line)
		var t [3]int
		for i := range t {
			t[i], _ = strconv.Atoi(m[i+1])
		}
		h.block = ""
		filtered := 0
		if f := rustdocFiltered.FindStringSubmatch(line); f != nil {
			filtered, _ = strconv.Atoi(f[1])
		}
		return humanLine{totals: &t, filtered: filtered}
	case h.block != "":
		if b := h.blocks[h.block]; b.Len() < adapters.PerTestOutput {
			b.WriteString(line + "\n")
		}
	}
	return humanLine{}
}
