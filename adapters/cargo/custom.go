package cargo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/shell"
	"strobe/report"
)

// Test binaries with their own main ([[test]] harness = false, as
// rust-url's url_wpt) are not libtest's: given libtest's JSON arguments,
// url_wpt reads the first as a filter, runs none of its checks and exits 0.
// The runner script (cargoRunner) runs them with the test arguments alone,
// as plain cargo test does, and prints a line before and after them on
// stdout, the second with their exit status: the parser knows exactly which
// stdout lines are theirs, and whether they passed. cargo prints nothing of
// an exit status of 101 on stderr.
//
// Such a binary that prints libtest's human lines ("test NAME ... ok", the
// "---- NAME stdout ----" blocks; libtest-mimic, tester) gives a test per
// line; any other is one test named after its target, failed by its exit
// status, with the panic it printed (on stderr: nothing captures it).

const (
	customStart = "strobe:cargo:custom-harness"
	customEnd   = "strobe:cargo:custom-harness-end "
)

// customScript runs a custom-harness binary between the markers. The end
// marker comes on a line of its own even after output without a newline.
// Something must stay the binary's parent to print it, and end as the
// binary did, so that cargo reports what plain cargo test would: its exit
// status, or the signal that killed it.
//
// A shell cannot tell the two apart: its $? is 128+N for a binary killed
// by signal N and for one that called exit(128+N) alike, so exit(130)
// after catching Ctrl-C read as a crash with SIGINT. perl's $? is the
// wait status itself: where perl is (Debian's perl-base is essential,
// macOS has it), customWait runs the binary and kills itself with the
// binary's signal, or exits with its status. Without perl, the shell
// still takes a status above 128 for a signal (signals are the likelier:
// abort, a segfault in unsafe code). The program is double-quoted for the
// shell, and holds neither ' nor !, which cargo escapes when it shows the
// runner in its line (cargoRunnerShown would no longer find it).
const customScript = `echo ` + customStart + `; command -v perl >/dev/null 2>&1 && exec perl -e "` + customWait + `" -- "$@"; ` +
	`"$@"; s=$?; echo; echo ` + customEnd + `$s; [ $s -gt 128 ] && kill -$((s-128)) $$; exit $s`

// customWait is perl's part of customScript, with $ escaped for the
// shell's double quotes. system LIST runs the binary without a shell and
// with perl's signal dispositions (the defaults: a shell's background job
// would ignore SIGINT); $? is -1 when it could not run ($^E is $!). The end marker's
// status is the shell's number (128+N for signal N): only 0 or not matters
// to the parser, which takes a signal from cargo's own line.
const customWait = `\$|=1; system {\$ARGV[0]} @ARGV; ` +
	`if (\$? == -1) { print STDERR qq(\$ARGV[0]: \$^E\n); \$? = 127 << 8 } ` +
	`\$g = \$? & 127; \$s = \$g ? 128 + \$g : \$? >> 8; ` +
	`print qq(\n` + customEnd + `\$s\n); kill \$g, \$\$ if \$g; exit \$s`

// cargoManifest holds what a manifest says of its targets' harnesses.
type cargoManifest struct {
	Package *struct {
		Name string `toml:"name"`
	} `toml:"package"`
	Lib     *cargoManifestTarget  `toml:"lib"`
	Bin     []cargoManifestTarget `toml:"bin"`
	Test    []cargoManifestTarget `toml:"test"`
	Bench   []cargoManifestTarget `toml:"bench"`
	Example []cargoManifestTarget `toml:"example"`
}

type cargoManifestTarget struct {
	Name    string `toml:"name"`
	Harness *bool  `toml:"harness"`
	Test    *bool  `toml:"test"`
}

// customHarnesses finds the targets with their own main among the packages
// cargo may test here, as shell patterns of their test binaries' names (the
// crate name, then "-" and 16 hex digits). One package's manifest is read
// alone; a workspace's members come from cargo metadata, read here unless
// the plan has it. A pattern can match another target of the same crate
// name (a library and a test both named "foo"): that libtest binary then
// prints its human output, which is read as well.
func customHarnesses(ctx context.Context, prefix []string, root string, userArgs, env []string, meta *kit.CargoMetadata) ([]string, *kit.CargoMetadata) {
	var manifests []string
	single := !hasCargoFlag(userArgs, "-p", "--package", "--workspace", "--all", "--exclude", "--manifest-path")
	if b, err := os.ReadFile(filepath.Join(root, "Cargo.toml")); meta == nil && single && err == nil && !kit.CargoWorkspaceTable(b) {
		manifests = []string{filepath.Join(root, "Cargo.toml")}
	} else {
		if meta == nil {
			var err error
			if meta, err = kit.ReadCargoMetadata(ctx, prefix[:len(prefix)-1], root, cargoManifestFlags(userArgs), env); err != nil {
				return nil, nil // cargo test will say what is wrong
			}
		}
		for _, p := range meta.Packages {
			manifests = append(manifests, p.ManifestPath)
		}
	}
	var patterns []string
	all := hasCargoFlag(userArgs, "--all-targets")
	benches := all || hasCargoFlag(userArgs, "--benches", "--bench")
	examples := all || hasCargoFlag(userArgs, "--examples", "--example")
	for _, path := range manifests {
		for _, name := range manifestCustoms(path, benches, examples) {
			p := strings.ReplaceAll(name, "-", "_") + "-" + strings.Repeat("?", 16)
			if !slices.Contains(patterns, p) {
				patterns = append(patterns, p)
			}
		}
	}
	return patterns, meta
}

// manifestCustoms reads the names of a manifest's targets that say
// harness = false. A library is named after its package by default. A
// benchmark or an example is one only where cargo test runs it: asked
// for (benches, examples: --benches, --all-targets…) or test = true. A
// benchmark named after its crate, as criterion's often are (rust-hex's
// "hex"), has the library's unit tests' binary name: taken for it, they
// ran without libtest's JSON, and a hung test was named after the crate.
func manifestCustoms(path string, benches, examples bool) []string {
	b, err := os.ReadFile(path)
	var m cargoManifest
	if err != nil || toml.Unmarshal(b, &m) != nil {
		return nil
	}
	custom := func(t cargoManifestTarget) bool { return t.Harness != nil && !*t.Harness }
	var names []string
	if m.Lib != nil && custom(*m.Lib) {
		name := m.Lib.Name
		if name == "" && m.Package != nil {
			name = m.Package.Name
		}
		names = append(names, name)
	}
	for i, ts := range [][]cargoManifestTarget{m.Bin, m.Test, m.Bench, m.Example} {
		for _, t := range ts {
			run := i < 2 || i == 2 && benches || i == 3 && examples || t.Test != nil && *t.Test
			if custom(t) && t.Name != "" && run {
				names = append(names, t.Name)
			}
		}
	}
	return names
}

// cargoCustom is a custom-harness binary's stdout, read as it comes.
type cargoCustom struct {
	started bool // its one test started, once the suite knew its name
	ended   bool // the end marker came
	status  int  // the binary's exit status, from the end marker
	results []customResult
	human   libtestHuman // its libtest-like lines, if it prints them
	totals  *[3]int      // from libtest's "test result:" line, if printed
	out     strings.Builder
}

type customResult struct {
	name   string
	status report.TestStatus
}

// customBegin is the start marker: the next suite is a custom binary's.
func (p *cargoParser) customBegin() {
	p.rec.BeginTesting()
	s := &cargoSuite{custom: &cargoCustom{}}
	p.suites = append(p.suites, s)
	if k := len(p.suites) - 1; k < len(p.runs) {
		p.bind(s, p.runs[k].exe, k)
	}
	p.inCustom = s
}

// customLine reads a stdout line of the custom binary running.
func (p *cargoParser) customLine(line string) {
	s := p.inCustom
	c := s.custom
	if st, ok := strings.CutPrefix(line, customEnd); ok {
		c.status, _ = strconv.Atoi(st)
		c.ended, s.done = true, true
		p.inCustom = nil
		return
	}
	if c.out.Len() < adapters.PerTestOutput {
		c.out.WriteString(line + "\n")
	}
	switch r := c.human.read(line); {
	case r.totals != nil:
		c.totals = r.totals
	case r.name != "":
		c.results = append(c.results, customResult{r.name, r.status})
	}
}

// customFinish records a custom binary's tests, once both streams are read:
// its panic is on stderr. A binary cut short or killed by a signal records
// nothing: crash reports it.
func (p *cargoParser) customFinish(s *cargoSuite, run *cargoRun) {
	c := s.custom
	if !c.ended || run != nil && run.signal > 0 {
		return
	}
	p.sawTest = true
	if len(c.results) > 0 {
		p.rec.Forget(s.name, s.customName()) // started as one test, it printed several
		s.tests, s.totals = len(c.results), c.totals
		for _, r := range c.results {
			var f *report.Failure
			if b := c.human.blocks[r.name]; b != nil {
				p.rec.Output(s.name, r.name, b.String())
			}
			if r.status == report.TestFailed {
				f = p.customFailure(s, r.name, c.human.blocks[r.name], run)
			}
			p.rec.End(s.name, r.name, r.status, 0, f)
			s.counts[slices.Index([]report.TestStatus{report.TestPassed, report.TestFailed, report.TestSkipped}, r.status)]++
		}
		return
	}
	s.tests = 1
	name := s.customName()
	out := c.out.String()
	if run != nil {
		out += run.out.String()
	}
	if strings.TrimSpace(out) != "" {
		p.rec.Output(s.name, name, out)
	}
	if c.status == 0 {
		p.rec.End(s.name, name, report.TestPassed, 0, nil)
		s.counts[0]++
		return
	}
	f := &report.Failure{Name: name, Rerun: p.customRerun(s)}
	f.File, f.Line, f.Message = p.panicIn(out)
	if f.Message == "" {
		// No panic: the status says why it failed, then what it printed.
		f.Message = strings.TrimSpace(fmt.Sprintf("the test binary exited with status %d\n", c.status) + kit.ClipTail(strings.TrimSpace(out)))
	}
	f.SuggestedTraces = p.traces(out, "main")
	p.rec.End(s.name, name, report.TestFailed, 0, f)
	s.counts[1]++
}

// customFailure reads a failed test's block, as libtest prints it, or
// else its panic on stderr: a harness that captures nothing (tester, as
// idna's tests use it) prints no block, and the panic names the test's
// thread ("thread 'UTS #46 line 3386' (6366) panicked at idna/tests/uts46.rs:171:13:").
func (p *cargoParser) customFailure(s *cargoSuite, name string, block *strings.Builder, run *cargoRun) *report.Failure {
	f := &report.Failure{Name: name, Rerun: p.rerunFor(s, name)}
	var text string
	if block != nil {
		text = block.String()
	}
	if _, _, msg := p.panicIn(text); msg == "" && run != nil {
		stderr := run.out.String()
		// Rust 1.88 and later put the thread's id after its name.
		at := regexp.MustCompile(`thread '` + regexp.QuoteMeta(name) + `'(?: \(\d+\))? panicked at `)
		if loc := at.FindStringIndex(stderr); loc != nil {
			text = stderr[loc[0]:]
			if j := strings.Index(text[1:], "\nthread '"); j >= 0 {
				text = text[:j+1] // the next thread's panic is another test's
			}
		}
	}
	f.File, f.Line, f.Message = p.panicIn(text)
	if f.Message == "" {
		f.Message = kit.ClipTail(strings.TrimSpace(text))
	}
	f.SuggestedTraces = p.traces(text, name)
	return f
}

// customStart starts a custom binary's one test once its suite is named:
// a binary that hangs is then the test the stuck detector and a timeout
// name, and a run with nothing else is not one without tests. One that
// prints libtest's lines turns out to be several tests (customFinish).
func (p *cargoParser) customStart(s *cargoSuite) {
	if c := s.custom; c != nil && !c.started {
		c.started = true
		p.sawTest = true
		p.rec.Start(s.name, s.customName())
	}
}

// customDied fails a custom binary's one test when the binary died in it
// (crash names the signal or the exit), as diedWhileRunning does a
// libtest binary's tests, with the custom rerun.
func (p *cargoParser) customDied(s *cargoSuite, died string) {
	if c := s.custom; c != nil && c.started && c.results == nil {
		name := s.customName()
		s.counts[1]++
		f := &report.Failure{Name: name, Message: kit.DidNotFinish(died, 0), Rerun: p.customRerun(s)}
		if s.target != nil {
			// Its test is its main: the failure is at its declaration.
			if file, line := kit.RustTestDecl(s.target.src, "main"); file != "" {
				f.File, f.Line = p.relPath(file), line
			}
		}
		p.rec.End(s.name, name, report.TestFailed, 0, f)
	}
}

// customName is the one test of a custom binary that prints no test lines:
// its target.
func (s *cargoSuite) customName() string {
	if s.target != nil {
		return s.target.name
	}
	return s.name
}

// customRerun runs the binary again, as plain cargo test does (also the
// rerun of a libtest binary whole): its
// arguments mean what its own main makes of them.
func (p *cargoParser) customRerun(s *cargoSuite) string {
	argv := slices.Clone(p.rerun)
	if s.target != nil {
		argv = append(argv, "-p", p.spec(s.target.pkg, s.target.version))
		argv = append(argv, s.target.flags()...)
	}
	return shell.Join(argv)
}
