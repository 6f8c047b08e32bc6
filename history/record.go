package history

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"strobe/report"
)

// Run is a finished run as the history records it.
type Run struct {
	ID     string
	Root   string // the project root, absolute and clean
	Key    Key
	Status report.Status
	Tests  []report.Test
	// Stuck are the tests the stuck detector stopped: failing, for the
	// comparison.
	Stuck []report.StuckTest
	// Crash is the answer's crash: which tests the run's end cut off
	// (cutOff), neither failing nor passing for the comparison.
	Crash *report.Crash
	// Subset says the run ran a chosen part of its selection (a rerun of
	// what failed, one partition): it compares as a partial run does and
	// updates only the tests it ran.
	Subset bool
	// Unfinished says a test binary died before its last test (a Go
	// panic ends its package's binary): the run failed, and the tests
	// after that one never ran. It compares as a partial run does: they
	// were not removed.
	Unfinished bool
}

// TestID names a test within a project and framework.
type TestID struct{ Suite, Name string }

// Result is what the history says about a run.
type Result struct {
	// Changes compares the run with the previous comparable run of its
	// key; nil when there is none, or when the run ran no test.
	Changes *report.Changes
	// Repeated counts, for each failure seen at least twice in a row, the
	// runs in a row (this one included) it failed the same way.
	Repeated map[TestID]int
	// Flipped counts, for each test of the run whose state (failing,
	// passing) changed in each of its last FlipsFlaky runs or more, those
	// changes in a row: fail, pass, fail, pass is 3.
	Flipped map[TestID]int
	// MovedAside is where an unusable history file went; empty otherwise.
	MovedAside string
}

// Record adds run to its project's history and compares it with the
// previous comparable run of the same key, under an exclusive lock so that
// two processes recording at once both land.
//
// What a run compares against: a run that passed or failed with tests is
// complete: it is compared with the baseline and replaces it. A run that
// ended early with some tests (stuck, timeout, crashed, cancelled, a build
// failure in one package) is partial: it is compared over the tests it ran,
// removed_tests stays empty, and only those tests are updated in the
// baseline, so the next run is not told that the tests never reached are
// new. A run that ran no test (a build failure, no tests, an error) is
// listed but compares with nothing and leaves the baseline alone: a broken
// build does not make every test "removed", nor every test "new" after it.
//
// A test the run's end cut off (cutOff: running when strobe stopped the
// run, or beside others in a process that died) neither failed nor passed
// on its own: it is listed apart (Changes.CutOff), keeps its state and
// streak in the baseline, and is rerun with what failed.
func (s *Store) Record(run Run) (*Result, error) {
	res, written, err := s.Start(run, nil)
	if err != nil {
		return nil, err
	}
	if err := written(); err != nil {
		return nil, err
	}
	return res, nil
}

// Start is Record that writes the file while the caller goes on: the
// comparison is ready when it returns, and written waits for the file and
// says whether it landed. The lock is held until then, so the run recorded
// next reads this one. (A 2,000-test history takes milliseconds to encode
// and write, which the answer need not wait for.)
//
// ahead, when not nil, is the file read while the run ran (ReadAhead):
// Start takes it when the file is still the one read, and closes it.
func (s *Store) Start(run Run, ahead *Ahead) (res *Result, written func() error, err error) {
	defer ahead.Close()
	if err := ensureDir(s.Dir); err != nil {
		return nil, nil, err
	}
	path := Path(s.Dir, run.Root)
	unlock, err := lock(path, syscall.LOCK_EX)
	if err != nil {
		return nil, nil, err
	}
	res = &Result{}
	f, suffix, err := ahead.load(path, run.Root)
	if errors.Is(err, errUnusable) {
		// Never a crash, never a comparison with someone else's runs: the
		// file is kept for a look and a fresh history starts.
		res.MovedAside = path + "." + suffix
		if err := os.Rename(path, res.MovedAside); err != nil {
			unlock()
			return nil, nil, fmt.Errorf("moving aside unusable history: %w", err)
		}
		f = &file{Format: format, Version: version, Project: run.Root}
	} else if err != nil {
		unlock()
		return nil, nil, err
	}
	if len(f.Runs) == 0 {
		pruneProjects(s.Dir, s.now())
	}
	f.record(run, s.now(), res)
	f.prune()
	done := make(chan error, 1)
	go func() {
		defer unlock()
		done <- write(path, f)
	}()
	return res, sync.OnceValue(func() error { return <-done }), nil
}

// cur is one test of the run being recorded, with what the baseline said
// of it.
type cur struct {
	id         TestID
	failing    bool
	passed     bool
	failure    *report.Failure
	known      bool // the baseline has it
	wasFailing bool // the baseline has it failing
	// flaky: it failed, then passed on a retry. It is neither failing
	// nor passing: not a new failure, not fixed; the baseline keeps it
	// as the run before left it, and its streak stays.
	flaky bool
	// cutOff: a crash or strobe's stop cut it off (see cutOff). Neither
	// failing nor passing, as flaky, and listed apart; the baseline
	// keeps it among the tests to rerun (Store.Failing).
	cutOff bool
}

// current holds the run's tests, indexed by id.
type current struct {
	tests []cur
	at    map[TestID]int
}

func (f *file) record(run Run, now time.Time, res *Result) {
	c := newCurrent(run)
	entry := Entry{RunID: run.ID, Time: now, Key: run.Key, Status: run.Status, Tests: len(c.tests)}
	for _, t := range c.tests {
		switch {
		case t.failing:
			entry.Failing++
		case t.cutOff:
			entry.CutOff++
		}
	}
	if len(c.tests) == 0 {
		f.Runs = append(f.Runs, entry)
		return
	}
	complete := (run.Status == report.Passed || run.Status == report.Failed) && !run.Subset && !run.Unfinished
	i := f.baseline(run.Key)
	var base Baseline
	if i >= 0 {
		base = f.Baselines[i]
		res.Changes = c.compare(&base, complete)
		entry.Changes = counts(res.Changes)
	}
	next := Baseline{Key: run.Key, RunID: run.ID, Time: now, Partial: !complete && (i < 0 || base.Partial)}
	if complete || i < 0 {
		next.Tests, next.Failing, next.CutOff = c.bySuite()
	} else {
		next.Tests, next.Failing, next.CutOff = c.merge(&base)
	}
	next.Select = c.selects(&base, next.Failing)
	if !complete {
		next.Learnt = c.unlearn(base.Learnt)
	}
	if i >= 0 {
		f.Baselines[i] = next
	} else {
		f.Baselines = append(f.Baselines, next)
	}
	f.teach(run, c)
	res.Repeated = f.streaks(run, c)
	res.Flipped = f.flips(run, c)
	f.Runs = append(f.Runs, entry)
}

// newCurrent indexes the run's tests. A stuck test, or one a crash left
// running, is failing, unless the crash cut it off (cutOff).
func newCurrent(run Run) *current {
	stuck := map[string]bool{}
	for _, s := range run.Stuck {
		stuck[s.Name] = true
	}
	cut := cutOff(run.Crash)
	c := &current{tests: make([]cur, 0, len(run.Tests)), at: make(map[TestID]int, len(run.Tests))}
	for _, t := range run.Tests {
		id := TestID{t.Suite, t.Name}
		k, ok := c.at[id]
		if !ok {
			k = len(c.tests)
			c.at[id] = k
			c.tests = append(c.tests, cur{id: id})
		}
		e := &c.tests[k]
		e.failure = t.Failure
		e.flaky = t.Flaky
		e.cutOff = false
		switch {
		case t.Flaky:
			e.failing, e.passed = false, false
		case stuck[t.Name]:
			e.failing, e.passed = true, false
		case cut(t):
			e.failing, e.passed, e.cutOff = false, false, true
		case t.Status == report.TestFailed, t.Status == report.TestRunning, t.Status == report.TestStuck:
			e.failing, e.passed = true, false
		case t.Status == report.TestPassed:
			e.failing, e.passed = false, true
		default:
			e.failing, e.passed = false, false
		}
	}
	return c
}

// cutOff says whether a test of a run that ended with crash failed only
// because the run's end cut it off, rather than on its own:
//   - strobe stopped the run (its timeout, a cancel, the stuck
//     detector): a test still running that the detector did not name
//     stuck (those are failing, the caller checks them first). The
//     timeout is the whole run's: the test running when it ran out was
//     not the one that took too long, or not alone.
//   - the process died while it ran several tests (crash.running_tests,
//     a cargo test binary's threads, jest's workers): each that "did not
//     finish" (report.DidNotFinish) or stayed running is a suspect, and
//     nothing tells which did it. A test the crash names as the cause
//     (the thread that overflowed its stack) failed in its own words, and
//     a test alone in its process when it died is the cause: both fail.
func cutOff(crash *report.Crash) func(report.Test) bool {
	switch {
	case crash == nil:
		return func(report.Test) bool { return false }
	case crash.StoppedBy != "":
		return func(t report.Test) bool { return t.Status == report.TestRunning }
	case len(crash.RunningTests) < 2:
		return func(report.Test) bool { return false }
	}
	suspects := make(map[string]bool, len(crash.RunningTests))
	for _, n := range crash.RunningTests {
		suspects[n] = true
	}
	return func(t report.Test) bool {
		if !suspects[t.Name] {
			return false
		}
		return t.Status == report.TestRunning ||
			t.Status == report.TestFailed && t.Failure != nil && strings.HasPrefix(t.Failure.Message, report.DidNotFinish)
	}
}

// compare is what changed between the baseline and the run. It walks the
// baseline's lists once, marking the run's tests, rather than indexing the
// baseline too.
func (c *current) compare(b *Baseline, complete bool) *report.Changes {
	var unmatched []TestID
	for suite, names := range b.Tests {
		for _, n := range names {
			if k, ok := c.at[TestID{suite, n}]; ok {
				c.tests[k].known = true
			} else {
				unmatched = append(unmatched, TestID{suite, n})
			}
		}
	}
	for suite, names := range b.Failing {
		for _, n := range names {
			if k, ok := c.at[TestID{suite, n}]; ok {
				c.tests[k].wasFailing = true
			}
		}
	}
	unmatched = c.moved(b, unmatched)
	var owners []string
	unmatched, owners = c.owners(b, unmatched)
	var removed []TestID
	if complete {
		removed = unmatched
	}
	name := c.displayNames(removed)
	var nf, still, fixed, added, gone, cut []string
	fixed = append(fixed, owners...)
	for _, t := range c.tests {
		if !t.known && !b.Partial {
			added = append(added, name(t.id))
		}
		switch {
		case t.cutOff:
			cut = append(cut, name(t.id))
		case t.failing && t.wasFailing:
			still = append(still, name(t.id))
		case t.failing:
			nf = append(nf, name(t.id))
		case t.passed && t.wasFailing:
			fixed = append(fixed, name(t.id))
		}
	}
	for _, id := range removed {
		gone = append(gone, name(id))
	}
	ch := &report.Changes{Since: b.RunID, NewFailures: list(nf), StillFailing: list(still), Fixed: list(fixed),
		NewTests: list(added), RemovedTests: list(gone), Partial: !complete}
	if len(cut) > 0 {
		l := list(cut)
		ch.CutOff = &l
	}
	return ch
}

// owners takes from unmatched the failing tests of the baseline that were
// a suite's or a class's own failure (GoogleTest's SetUpTestSuite, JUnit's
// @BeforeAll, named by the suite or the class alone) whose tests the run
// has now, each under its name ("Fixture" → "Fixture.Works", "SetupTest"
// → "SetupTest#one"): it is fixed when none of them fails, not removed.
// It returns the unmatched tests left and the names of those fixed.
func (c *current) owners(b *Baseline, unmatched []TestID) (left []TestID, fixed []string) {
	for _, id := range unmatched {
		if !slices.Contains(b.Failing[id.Suite], id.Name) {
			left = append(left, id)
			continue
		}
		owns, failing := c.owned(id)
		switch {
		case !owns:
			left = append(left, id)
		case !failing:
			fixed = append(fixed, id.Name)
		}
	}
	return left, fixed
}

// owned says whether the run has tests under a suite's or a class's own
// name (owners), and whether one of them fails.
func (c *current) owned(id TestID) (owns, failing bool) {
	for _, t := range c.tests {
		if t.id.Suite != id.Suite || len(t.id.Name) <= len(id.Name) || !strings.HasPrefix(t.id.Name, id.Name) {
			continue
		}
		if rest := t.id.Name[len(id.Name):]; strings.ContainsRune(".#/: ", rune(rest[0])) {
			owns, failing = true, failing || t.failing
		}
	}
	return owns, failing
}

// moved pairs the baseline's tests the run did not have (unmatched) with
// the run's tests the baseline did not know whose names differ only in
// the line they end with: a doctest is named by its line, and a line
// added above it renames it. A pair is one test, known to the baseline
// (failing if it was), neither removed nor new; the tests of a name are
// paired in the order of their lines when both sides have as many. It
// returns the unmatched tests left.
func (c *current) moved(b *Baseline, unmatched []TestID) []TestID {
	type stem struct{ suite, name string }
	stemOf := func(id TestID) (stem, bool) {
		name, _, ok := atLine(id.Name)
		return stem{id.Suite, name}, ok
	}
	gone := map[stem][]TestID{}
	for _, id := range unmatched {
		if st, ok := stemOf(id); ok {
			gone[st] = append(gone[st], id)
		}
	}
	if len(gone) == 0 {
		return unmatched
	}
	added := map[stem][]int{}
	for k, t := range c.tests {
		if st, ok := stemOf(t.id); ok && !t.known && len(gone[st]) > 0 {
			added[st] = append(added[st], k)
		}
	}
	paired := map[TestID]bool{}
	byLine := func(a, b string) int {
		_, x, _ := atLine(a)
		_, y, _ := atLine(b)
		return x - y
	}
	for st, ks := range added {
		old := gone[st]
		if len(old) != len(ks) {
			continue // tests of that name came or went: nothing says which is which
		}
		slices.SortFunc(ks, func(x, y int) int { return byLine(c.tests[x].id.Name, c.tests[y].id.Name) })
		slices.SortFunc(old, func(x, y TestID) int { return byLine(x.Name, y.Name) })
		for i, k := range ks {
			c.tests[k].known = true
			c.tests[k].wasFailing = slices.Contains(b.Failing[old[i].Suite], old[i].Name)
			paired[old[i]] = true
		}
	}
	return slices.DeleteFunc(unmatched, func(id TestID) bool { return paired[id] })
}

// atLine splits a doctest's name from the line it ends with (rustdoc:
// "src/lib.rs - foo (line 12)"); ok is false for a name without one.
func atLine(name string) (stem string, line int, ok bool) {
	i := strings.LastIndex(name, " (line ")
	if i < 0 || !strings.HasSuffix(name, ")") {
		return "", 0, false
	}
	n, err := strconv.Atoi(name[i+len(" (line ") : len(name)-1])
	if err != nil || n <= 0 {
		return "", 0, false
	}
	return name[:i], n, true
}

// displayNames names a test by its name alone, or "name (suite)" when
// another suite of the answer has a test of that name (Go packages often
// do). It looks the name up in each suite rather than indexing every name:
// a run lists few names, and a project has few suites.
func (c *current) displayNames(removed []TestID) func(TestID) string {
	var suites []string
	add := func(s string) {
		if n := len(suites); n == 0 || suites[n-1] != s && !slices.Contains(suites, s) {
			suites = append(suites, s)
		}
	}
	for _, t := range c.tests {
		add(t.id.Suite)
	}
	for _, id := range removed {
		add(id.Suite)
	}
	if len(suites) < 2 {
		return func(id TestID) string { return id.Name }
	}
	gone := make(map[TestID]bool, len(removed))
	for _, id := range removed {
		gone[id] = true
	}
	return func(id TestID) string {
		for _, s := range suites {
			other := TestID{s, id.Name}
			if s == id.Suite {
				continue
			}
			if _, ok := c.at[other]; ok || gone[other] {
				return id.Name + " (" + id.Suite + ")"
			}
		}
		return id.Name
	}
}

// bySuite is the run's tests, failing tests and tests cut off as a
// baseline keeps them, in the run's order; cut is nil when none was.
func (c *current) bySuite() (tests, failing, cut map[string][]string) {
	tests, failing = map[string][]string{}, map[string][]string{}
	for _, t := range c.tests {
		tests[t.id.Suite] = append(tests[t.id.Suite], t.id.Name)
		// A run that did not pass it (flaky, cut off by a crash,
		// skipped) leaves a failing test failing: skipped a while and
		// run again, it is still failing, not a new failure.
		if t.failing || !t.passed && t.wasFailing {
			failing[t.id.Suite] = append(failing[t.id.Suite], t.id.Name)
		}
		if t.cutOff {
			if cut == nil {
				cut = map[string][]string{}
			}
			cut[t.id.Suite] = append(cut[t.id.Suite], t.id.Name)
		}
	}
	return tests, failing, cut
}

// merge is the baseline with the tests of a partial run updated: the tests
// it never reached stay as they were.
func (c *current) merge(b *Baseline) (tests, failing, cut map[string][]string) {
	tests, failing, cut = c.bySuite()
	// A suite's own failure whose tests now pass is fixed (owners): a
	// rerun of the failures (GoogleTest's SetUpTestSuite.*) listed it
	// fixed again, each time, until a whole run.
	stillFailing := map[string][]string{}
	for suite, names := range b.Failing {
		for _, n := range names {
			if owns, failing := c.owned(TestID{suite, n}); !owns || failing {
				stillFailing[suite] = append(stillFailing[suite], n)
			}
		}
	}
	return c.keepUnrun(tests, b.Tests), c.keepUnrun(failing, stillFailing), c.keepUnrun(cut, b.CutOff)
}

// keepUnrun adds to dst (made when nil and there is one) the tests of src
// this run did not run: a partial run leaves them as they were.
func (c *current) keepUnrun(dst, src map[string][]string) map[string][]string {
	for suite, names := range src {
		for _, n := range names {
			if _, ok := c.at[TestID{suite, n}]; !ok {
				if dst == nil {
					dst = map[string][]string{}
				}
				dst[suite] = append(dst[suite], n)
			}
		}
	}
	return dst
}

// unlearn is what a baseline learnt from runs of other test filters
// (Baseline.Learnt) less the tests this run of its own ran: what they did
// now is newer.
func (c *current) unlearn(learnt map[string]map[string]Learnt) map[string]map[string]Learnt {
	var out map[string]map[string]Learnt
	for suite, names := range learnt {
		for name, l := range names {
			if _, ran := c.at[TestID{suite, name}]; ran {
				continue
			}
			if out == nil {
				out = map[string]map[string]Learnt{}
			}
			if out[suite] == nil {
				out[suite] = map[string]Learnt{}
			}
			out[suite][name] = l
		}
	}
	return out
}

// teach tells the baselines of the run's other test filters (the same
// framework, level and command; no partition) what the run found of their
// tests (Baseline.Learnt): a failure that `--test FILE` fixed is not
// rerun by the whole suite's --failed, nor one the whole suite found new
// left out of `--failed --test FILE`. A whole suite's baseline takes each
// test; a test filter's, the tests it knows.
func (f *file) teach(run Run, c *current) {
	for i := range f.Baselines {
		b := &f.Baselines[i]
		k := b.Key
		if k.Test == run.Key.Test || k.Framework != run.Key.Framework || k.Level != run.Key.Level ||
			k.Command != run.Key.Command || k.Partition != "" || run.Key.Partition != "" {
			continue
		}
		known := func(TestID) bool { return true }
		if k.Test != "" {
			known = set(b.Tests)
		}
		wasFailing := set(b.Failing, b.CutOff)
		for _, t := range c.tests {
			failing := t.failing || t.cutOff
			if !failing && !t.passed || !known(t.id) {
				continue // flaky, skipped: neither; or not the filter's
			}
			s, n := t.id.Suite, t.id.Name
			if failing == wasFailing(t.id) {
				delete(b.Learnt[s], n)
				if len(b.Learnt[s]) == 0 {
					delete(b.Learnt, s)
				}
				continue
			}
			l := Learnt{Failing: failing, RunID: run.ID}
			if failing && t.failure != nil {
				l.Select = t.failure.Select
			}
			if b.Learnt == nil {
				b.Learnt = map[string]map[string]Learnt{}
			}
			if b.Learnt[s] == nil {
				b.Learnt[s] = map[string]Learnt{}
			}
			b.Learnt[s][n] = l
		}
	}
}

// set is the tests of the maps (suite → names), to look up.
func set(ms ...map[string][]string) func(TestID) bool {
	in := map[TestID]bool{}
	for _, m := range ms {
		for suite, names := range m {
			for _, n := range names {
				in[TestID{suite, n}] = true
			}
		}
	}
	return func(id TestID) bool { return in[id] }
}

// selects is Baseline.Select of the failing tests: a test this run
// failed is selected as its failure says (report.Failure.Select), one it
// did not fail (not run, skipped, flaky, cut off: still failing) as b
// said.
func (c *current) selects(b *Baseline, failing map[string][]string) map[string]map[string]string {
	var out map[string]map[string]string
	for suite, names := range failing {
		for _, n := range names {
			sel := b.Select[suite][n]
			if k, ok := c.at[TestID{suite, n}]; ok && c.tests[k].failing {
				sel = ""
				if f := c.tests[k].failure; f != nil {
					sel = f.Select
				}
			}
			if sel == "" {
				continue
			}
			if out == nil {
				out = map[string]map[string]string{}
			}
			if out[suite] == nil {
				out[suite] = map[string]string{}
			}
			out[suite][n] = sel
		}
	}
	return out
}

func list(names []string) report.Names {
	slices.Sort(names)
	return report.Names{Count: len(names), Names: names}
}

// counts is c without names: what the history keeps of each run's changes.
func counts(c *report.Changes) *report.Changes {
	return Clip(c, 0)
}

// Clip is c with at most n names in each list; the counts stay whole.
func Clip(c *report.Changes, n int) *report.Changes {
	if c == nil {
		return nil
	}
	out := *c
	lists := []*report.Names{&out.NewFailures, &out.StillFailing, &out.Fixed, &out.NewTests, &out.RemovedTests}
	if c.CutOff != nil {
		cut := *c.CutOff
		out.CutOff = &cut
		lists = append(lists, out.CutOff)
	}
	for _, l := range lists {
		if len(l.Names) > n {
			l.Names = l.Names[:n:n]
		}
		if len(l.Names) == 0 {
			l.Names = nil
		}
	}
	return &out
}

// streaks advances the fingerprint streak of every test that ran: the same
// failure again adds one, another failure starts at one, a pass ends it.
// A test this run did not run keeps its streak. It returns the streaks of
// two runs or more among this run's failures.
func (f *file) streaks(run Run, c *current) map[TestID]int {
	type key struct{ fw, suite, name string }
	at := make(map[key]int, len(f.Streaks))
	for i, s := range f.Streaks {
		at[key{s.Framework, s.Suite, s.Name}] = i
	}
	var drop []int
	repeated := map[TestID]int{}
	for _, t := range c.tests {
		id := t.id
		k := key{run.Key.Framework, id.Suite, id.Name}
		i, ok := at[k]
		if t.flaky || t.cutOff {
			continue // it failed and passed, or was cut off: the streak neither grows nor ends
		}
		if !t.failing || t.failure == nil {
			if ok {
				drop = append(drop, i)
			}
			continue
		}
		fp := Fingerprint(id.Suite, t.failure)
		if !ok {
			f.Streaks = append(f.Streaks, streak{Framework: k.fw, Suite: k.suite, Name: k.name})
			i = len(f.Streaks) - 1
		}
		s := &f.Streaks[i]
		if s.Fingerprint == fp {
			s.Runs++
		} else {
			s.Fingerprint, s.Runs = fp, 1
		}
		s.RunID = run.ID
		if s.Runs >= 2 {
			repeated[id] = s.Runs
		}
	}
	f.Streaks = deleteAt(f.Streaks, drop)
	return repeated
}

// FlipsFlaky is how many changes of state in a row (fail, pass, fail,
// pass: 3) make a test one that may be flaky.
const FlipsFlaky = 3

// flips follows the state of the run's tests that have failed: each change
// (a failing test passes, a passing one fails) counts one more in a row,
// a run that agrees with the one before ends the count, and a test that
// passes twice in a row is forgotten. A test the run did not pass or fail
// on its own (skipped, flaky, cut off) leaves its count as it was. It
// returns the counts of FlipsFlaky or more.
func (f *file) flips(run Run, c *current) map[TestID]int {
	type key struct{ fw, suite, name string }
	at := make(map[key]int, len(f.Flips))
	for i, s := range f.Flips {
		at[key{s.Framework, s.Suite, s.Name}] = i
	}
	var drop []int
	var out map[TestID]int
	for _, t := range c.tests {
		if t.flaky || t.cutOff || !t.failing && !t.passed {
			continue
		}
		k := key{run.Key.Framework, t.id.Suite, t.id.Name}
		i, ok := at[k]
		switch {
		case !ok && t.failing:
			f.Flips = append(f.Flips, flip{Framework: k.fw, Suite: k.suite, Name: k.name, Failing: true, RunID: run.ID})
			continue
		case !ok:
			continue
		}
		s := &f.Flips[i]
		s.RunID = run.ID
		if s.Failing == t.failing {
			if !t.failing {
				drop = append(drop, i)
			}
			s.Flips = 0
			continue
		}
		s.Failing = t.failing
		s.Flips++
		if s.Flips >= FlipsFlaky {
			if out == nil {
				out = map[TestID]int{}
			}
			out[t.id] = s.Flips
		}
	}
	f.Flips = deleteAt(f.Flips, drop)
	return out
}

// deleteAt deletes the elements at the indexes drop (distinct, in any
// order) from s.
func deleteAt[T any](s []T, drop []int) []T {
	slices.Sort(drop)
	for j := len(drop) - 1; j >= 0; j-- {
		s = slices.Delete(s, drop[j], drop[j]+1)
	}
	return s
}
