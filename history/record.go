package history

import (
	"errors"
	"fmt"
	"os"
	"slices"
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
	// comparison, like tests a crash left running.
	Stuck []report.StuckTest
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
func (s *Store) Record(run Run) (*Result, error) {
	if err := ensureDir(s.Dir); err != nil {
		return nil, err
	}
	path := Path(s.Dir, run.Root)
	unlock, err := lock(path, syscall.LOCK_EX)
	if err != nil {
		return nil, err
	}
	defer unlock()
	res := &Result{}
	f, suffix, err := load(path, run.Root)
	if errors.Is(err, errUnusable) {
		// Never a crash, never a comparison with someone else's runs: the
		// file is kept for a look and a fresh history starts.
		res.MovedAside = path + "." + suffix
		if err := os.Rename(path, res.MovedAside); err != nil {
			return nil, fmt.Errorf("moving aside unusable history: %w", err)
		}
		f = &file{Format: format, Version: version, Project: run.Root}
	} else if err != nil {
		return nil, err
	}
	f.record(run, s.now(), res)
	f.prune()
	if err := write(path, f); err != nil {
		return nil, err
	}
	return res, nil
}

// cur is one test of the run being recorded.
type cur struct {
	failing bool
	passed  bool
	failure *report.Failure
}

func (f *file) record(run Run, now time.Time, res *Result) {
	tests := current(run)
	entry := Entry{RunID: run.ID, Time: now, Key: run.Key, Status: run.Status, Tests: len(tests)}
	for _, c := range tests {
		if c.failing {
			entry.Failing++
		}
	}
	complete := (run.Status == report.Passed || run.Status == report.Failed) && len(tests) > 0
	if len(tests) == 0 {
		f.Runs = append(f.Runs, entry)
		return
	}
	i := f.baseline(run.Key)
	if i >= 0 {
		res.Changes = compare(&f.Baselines[i], tests, complete)
		entry.Changes = counts(res.Changes)
	}
	base := Baseline{Key: run.Key}
	if i >= 0 && !complete {
		base = f.Baselines[i]
	}
	base.RunID, base.Time = run.ID, now
	base.update(tests)
	if i >= 0 {
		f.Baselines[i] = base
	} else {
		f.Baselines = append(f.Baselines, base)
	}
	res.Repeated = f.streaks(run, tests)
	f.Runs = append(f.Runs, entry)
}

// current is the run's tests by id. A stuck test, or one a crash left
// running, is failing.
func current(run Run) map[TestID]cur {
	stuck := map[string]bool{}
	for _, s := range run.Stuck {
		stuck[s.Name] = true
	}
	out := make(map[TestID]cur, len(run.Tests))
	for _, t := range run.Tests {
		c := cur{failure: t.Failure}
		switch {
		case t.Status == report.TestFailed, t.Status == report.TestRunning, stuck[t.Name]:
			c.failing = true
		case t.Status == report.TestPassed:
			c.passed = true
		}
		out[TestID{t.Suite, t.Name}] = c
	}
	return out
}

// compare is what changed between the baseline and tests.
func compare(b *Baseline, tests map[TestID]cur, complete bool) *report.Changes {
	known, failing := b.set(b.Tests), b.set(b.Failing)
	names := displayNames(tests, known)
	var nf, still, fixed, added, removed []string
	for id, c := range tests {
		name := names(id)
		if !known[id] {
			added = append(added, name)
		}
		switch {
		case c.failing && failing[id]:
			still = append(still, name)
		case c.failing:
			nf = append(nf, name)
		case c.passed && failing[id]:
			fixed = append(fixed, name)
		}
	}
	if complete {
		for id := range known {
			if _, ok := tests[id]; !ok {
				removed = append(removed, names(id))
			}
		}
	}
	return &report.Changes{Since: b.RunID, NewFailures: list(nf), StillFailing: list(still), Fixed: list(fixed),
		NewTests: list(added), RemovedTests: list(removed), Partial: !complete}
}

// displayNames names a test by its name alone, or "name (suite)" when two
// suites have a test of that name (Go packages often do).
func displayNames(tests map[TestID]cur, known map[TestID]bool) func(TestID) string {
	suites := map[string]string{}
	dup := map[string]bool{}
	see := func(id TestID) {
		if s, ok := suites[id.Name]; ok && s != id.Suite {
			dup[id.Name] = true
		}
		suites[id.Name] = id.Suite
	}
	for id := range tests {
		see(id)
	}
	for id := range known {
		see(id)
	}
	return func(id TestID) string {
		if dup[id.Name] && id.Suite != "" {
			return id.Name + " (" + id.Suite + ")"
		}
		return id.Name
	}
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
	for _, l := range []*report.Names{&out.NewFailures, &out.StillFailing, &out.Fixed, &out.NewTests, &out.RemovedTests} {
		if len(l.Names) > n {
			l.Names = l.Names[:n:n]
		}
		if len(l.Names) == 0 {
			l.Names = nil
		}
	}
	return &out
}

func (b *Baseline) set(m map[string][]string) map[TestID]bool {
	out := map[TestID]bool{}
	for suite, names := range m {
		for _, n := range names {
			out[TestID{suite, n}] = true
		}
	}
	return out
}

// update sets the tests that ran in the baseline, keeping the others.
func (b *Baseline) update(tests map[TestID]cur) {
	known, failing := b.set(b.Tests), b.set(b.Failing)
	for id, c := range tests {
		known[id] = true
		failing[id] = c.failing
	}
	b.Tests, b.Failing = bySuite(known), bySuite(failing)
}

func bySuite(set map[TestID]bool) map[string][]string {
	out := map[string][]string{}
	for id, in := range set {
		if in {
			out[id.Suite] = append(out[id.Suite], id.Name)
		}
	}
	for _, names := range out {
		slices.Sort(names)
	}
	return out
}

// streaks advances the fingerprint streak of every test that ran: the same
// failure again adds one, another failure starts at one, a pass ends it.
// A test this run did not run keeps its streak. It returns the streaks of
// two runs or more among this run's failures.
func (f *file) streaks(run Run, tests map[TestID]cur) map[TestID]int {
	type key struct{ fw, suite, name string }
	at := make(map[key]int, len(f.Streaks))
	for i, s := range f.Streaks {
		at[key{s.Framework, s.Suite, s.Name}] = i
	}
	var drop []int
	repeated := map[TestID]int{}
	for id, c := range tests {
		k := key{run.Key.Framework, id.Suite, id.Name}
		i, ok := at[k]
		if !c.failing || c.failure == nil {
			if ok {
				drop = append(drop, i)
			}
			continue
		}
		fp := Fingerprint(id.Suite, c.failure)
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
	if len(drop) > 0 {
		slices.Sort(drop)
		for j := len(drop) - 1; j >= 0; j-- {
			f.Streaks = slices.Delete(f.Streaks, drop[j], drop[j]+1)
		}
	}
	return repeated
}
