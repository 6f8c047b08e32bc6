// Package history is strobe's memory between runs: a bounded store per
// project in STROBE_HOME that every finished run is recorded into, the
// comparison of a run with the previous comparable one (what its last edit
// changed), and failure fingerprints that tell a failure come back
// unchanged run after run from a new one.
//
// One file per project root holds the project's last runs (every
// framework and selection), for each selection the test results of its last
// comparable run (the baseline), and the fingerprint streaks of the tests
// failing now. Rerunning what failed reads the baselines.
package history

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"strobe/report"
)

// Bounds of one project's file.
const (
	// KeepRuns is how many runs of a project the history keeps.
	KeepRuns = 50
	// keepStreaks bounds the failing tests whose streaks are kept.
	keepStreaks = 1000
	// lockWait is how long a run waits for another process's write.
	lockWait = 5 * time.Second
	// keepProjects is how long the history of a project nobody ran stays.
	keepProjects = 90 * 24 * time.Hour
)

const (
	format  = "strobe-history"
	version = 1
)

// Key is the selection a run compares within: the same project root,
// framework, level, test filter and command.
type Key struct {
	Framework string `json:"framework"`
	Level     string `json:"level,omitempty"`
	Test      string `json:"test,omitempty"`
	Command   string `json:"command,omitempty"`
	// Partition is the part of the suite a CI shard ran (hash:2/3): each
	// shard compares with the same part of the previous run.
	Partition string `json:"partition,omitempty"`
}

// Entry is one run as the history lists it.
type Entry struct {
	RunID   string        `json:"run_id"`
	Time    time.Time     `json:"time"`
	Key     Key           `json:"key"`
	Status  report.Status `json:"status"`
	Tests   int           `json:"tests"`
	Failing int           `json:"failing"`
	// CutOff counts the tests a crash or strobe's stop cut off, which
	// Failing does not count.
	CutOff int `json:"cut_off,omitempty"`
	// Changes counts what changed since the run compared with; no names.
	Changes *report.Changes `json:"changes,omitempty"`
}

// Baseline is the last comparable run of one selection: every test it knows
// and those failing, by suite. A run that ended early updated only the
// tests it ran.
type Baseline struct {
	Key     Key                 `json:"key"`
	RunID   string              `json:"run_id"`
	Time    time.Time           `json:"time"`
	Tests   map[string][]string `json:"tests"`             // suite → names, sorted
	Failing map[string][]string `json:"failing,omitempty"` // suite → names, sorted
	// CutOff are the tests a crash or strobe's stop cut off when they
	// last ran (Changes.CutOff): neither failing nor passing, but rerun
	// with what failed.
	CutOff map[string][]string `json:"cut_off,omitempty"`
	// Select holds, for the failing tests whose failure named another
	// name to select it again (report.Failure.Select: a late error's
	// test file), that name: suite → test's name → the name rerun.
	Select map[string]map[string]string `json:"select,omitempty"`
	// Partial says no complete run of the key has been recorded: the
	// baseline holds only what partial runs reached (a first run that
	// crashed, stopped or reran what failed), so a test it lacks may
	// well have existed then, and a later run does not call it new.
	Partial bool `json:"partial,omitempty"`
	// Learnt is what runs of another test filter of the same framework,
	// level and command (`--test FILE` beside the whole suite, the whole
	// suite beside `--test FILE`) found of the selection's tests since
	// it last ran them, where that differs from Failing and CutOff:
	// suite → name → what. Rerunning what failed goes by it (a test such
	// a run saw pass is not rerun, one it saw fail is); the comparison
	// with the next run of the selection (changes) does not.
	Learnt map[string]map[string]Learnt `json:"learnt,omitempty"`
}

// Learnt is a test's state as a run of another test filter left it.
type Learnt struct {
	Failing bool   `json:"failing,omitempty"` // failing, stuck or cut off; else passed
	Select  string `json:"select,omitempty"`  // as Baseline.Select
	RunID   string `json:"run_id"`
}

// streak is a test failing the same way in consecutive runs that ran it.
type streak struct {
	Framework   string `json:"framework"`
	Suite       string `json:"suite,omitempty"`
	Name        string `json:"name"`
	Fingerprint string `json:"fingerprint"`
	Runs        int    `json:"runs"`
	RunID       string `json:"run_id"`
}

// file is one project's history on disk.
type file struct {
	Format    string     `json:"format"`
	Version   int        `json:"version"`
	Project   string     `json:"project_root"`
	Runs      []Entry    `json:"runs"` // oldest first
	Baselines []Baseline `json:"baselines"`
	Streaks   []streak   `json:"streaks,omitempty"`
	Flips     []flip     `json:"flips,omitempty"`
}

// flip is a test that has failed in some run, and how many times in a
// row its runs changed its state (failing, passing): a test that fails,
// passes, fails again, with no run between them agreeing with the last,
// may be flaky rather than broken and fixed by each edit.
type flip struct {
	Framework string `json:"framework"`
	Suite     string `json:"suite,omitempty"`
	Name      string `json:"name"`
	Failing   bool   `json:"failing"` // its state in the last run that ran it
	Flips     int    `json:"flips"`   // changes of state in a row, up to that run
	RunID     string `json:"run_id"`
}

// Dir is the history directory of a STROBE_HOME.
func Dir(home string) string { return filepath.Join(home, "history") }

// Path is the file holding root's history in dir: named by a hash of the
// root, which the file repeats so a collision is told from a match.
func Path(dir, root string) string {
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(dir, hex.EncodeToString(sum[:8])+".json")
}

// Store is the history directory.
type Store struct {
	Dir string
	now func() time.Time
}

// Open returns the store in dir (created on first write).
func Open(dir string) *Store { return &Store{Dir: dir, now: time.Now} }

// Rerun is what rerunning what failed takes from the history.
type Rerun struct {
	// Failing is what the last comparable run of the selection left
	// failing (stuck tests included) or cut off, by suite; N counts the
	// tests, and Since is that run's id ("" when there is none). A test
	// a crash cut off did not pass either. A failing test whose failure
	// named the name that selects it again (Baseline.Select: a late
	// error's test file) is given by that name, once however many of the
	// suite's tests give it; N still counts each test.
	Failing map[string][]string
	N       int
	Since   string
	// Last is the newest run of the selection (nil when none). It is not
	// the run Since names when it ran no test (a build failure, an
	// error): such a run leaves the baseline alone.
	Last *Entry
}

// ToRerun reads what rerunning key's failures in root takes.
func (s *Store) ToRerun(root string, key Key) (Rerun, error) {
	return s.ToRerunIn(root, key, nil)
}

// ToRerunIn is ToRerun for a key with a test filter, given which tests
// the filter selects (selects; the history keeps names, and only the
// framework knows what a filter means): the filter's tests that its own
// runs never ran, and the runs of the other filters of its framework,
// level and command did (the whole suite's, before any run of the filter
// alone), are taken as the newest of those runs left them. A filter
// that never ran alone thus reruns what the whole suite found failing
// in it; Since is "" only when no run knows a test of it.
func (s *Store) ToRerunIn(root string, key Key, selects func(TestID) bool) (Rerun, error) {
	f, err := s.read(root)
	if err != nil || f == nil {
		return Rerun{}, err
	}
	var r Rerun
	r.Failing, r.N, r.Since = f.failing(key, selects)
	for i := len(f.Runs) - 1; i >= 0; i-- {
		if f.Runs[i].Key == key {
			r.Last = &f.Runs[i]
			break
		}
	}
	return r, nil
}

// failing is Rerun's Failing, N and Since, from f: the baseline's
// failing and cut-off tests, as the runs of other test filters found them
// since (Baseline.Learnt); Since is the newest run that says so. With
// selects, the filter's tests the baseline does not know are added as
// the other filters' runs know them (f.known).
func (f *file) failing(key Key, selects func(TestID) bool) (failing map[string][]string, n int, runID string) {
	i := f.baseline(key)
	if selects != nil && key.Test == "" {
		selects = nil // the whole suite's baseline is taught every test
	}
	if i < 0 && selects == nil {
		return nil, 0, ""
	}
	b := &Baseline{}
	if i >= 0 {
		b = &f.Baselines[i]
	}
	if len(b.CutOff) == 0 && len(b.Select) == 0 && len(b.Learnt) == 0 && selects == nil {
		for _, names := range b.Failing {
			n += len(names)
		}
		return b.Failing, n, b.RunID
	}
	runID = b.RunID
	failing = make(map[string][]string, len(b.Failing)+len(b.CutOff))
	seen := map[TestID]bool{}
	add := func(suite, name, sel string) {
		if seen[TestID{suite, name}] {
			return
		}
		seen[TestID{suite, name}] = true
		n++
		name = cmp.Or(sel, name)
		if !slices.Contains(failing[suite], name) {
			failing[suite] = append(failing[suite], name)
		}
	}
	runAt := f.runOrder()
	newest := -1
	if runID != "" {
		newest = runAt(runID)
	}
	says := func(id string) {
		if at := runAt(id); at > newest || runID == "" {
			newest, runID = at, id
		}
	}
	learnt := func(suite, name string) (Learnt, bool) {
		l, ok := b.Learnt[suite][name]
		if ok {
			says(l.RunID)
		}
		return l, ok
	}
	for _, m := range []map[string][]string{b.Failing, b.CutOff} {
		for suite, names := range m {
			for _, name := range names {
				if l, ok := learnt(suite, name); ok && !l.Failing {
					continue // passed since, in a run of another filter
				}
				add(suite, name, b.Select[suite][name])
			}
		}
	}
	for suite, names := range b.Learnt {
		for name, l := range names {
			if l.Failing {
				learnt(suite, name)
				add(suite, name, l.Select)
			}
		}
	}
	if selects == nil {
		return failing, n, runID
	}
	own := set(b.Tests)
	var passed []string // the runs that saw the filter's tests pass
	for id, l := range f.known(key, runAt) {
		if !selects(id) || own(id) || b.Learnt[id.Suite][id.Name].RunID != "" {
			continue
		}
		if !l.Failing {
			passed = append(passed, l.RunID)
			continue
		}
		says(l.RunID)
		add(id.Suite, id.Name, l.Select)
	}
	if runID == "" {
		// Every test of the filter that other runs know passed: the
		// newest of those runs is the one to name.
		for _, id := range passed {
			says(id)
		}
	}
	return failing, n, runID
}

// runOrder returns each recorded run's place in f.Runs, oldest first, by
// its id (-1 for none): which of two runs is the newer, asked for every
// test a baseline knows, without a scan of the runs each time.
func (f *file) runOrder() func(id string) int {
	at := make(map[string]int, len(f.Runs))
	for i, e := range f.Runs {
		if _, ok := at[e.RunID]; !ok {
			at[e.RunID] = i
		}
	}
	return func(id string) int {
		if i, ok := at[id]; ok {
			return i
		}
		return -1
	}
}

// known is what the baselines of key's other test filters (the same
// framework, level and command; no partition) know of each test: failing
// (or cut off) or passed, in which run, the newest of them for a test
// two know (runAt: f.runOrder). A baseline's state of a test is what it
// learnt of it, else its own.
func (f *file) known(key Key, runAt func(id string) int) map[TestID]Learnt {
	out := map[TestID]Learnt{}
	put := func(id TestID, l Learnt) {
		if old, ok := out[id]; !ok || runAt(l.RunID) > runAt(old.RunID) {
			out[id] = l
		}
	}
	for _, b := range f.Baselines {
		k := b.Key
		if k.Test == key.Test || k.Framework != key.Framework || k.Level != key.Level || k.Command != key.Command ||
			k.Partition != "" || key.Partition != "" {
			continue
		}
		failing := set(b.Failing, b.CutOff)
		for suite, names := range b.Tests {
			for _, name := range names {
				id := TestID{suite, name}
				if l, ok := b.Learnt[suite][name]; ok {
					put(id, l)
					continue
				}
				l := Learnt{Failing: failing(id), RunID: b.RunID}
				if l.Failing {
					l.Select = b.Select[suite][name]
				}
				put(id, l)
			}
		}
		for suite, names := range b.Learnt {
			for name, l := range names {
				put(TestID{suite, name}, l)
			}
		}
	}
	return out
}

// Runs lists root's recorded runs, newest first.
func (s *Store) Runs(root string) ([]Entry, error) {
	f, err := s.read(root)
	if err != nil || f == nil {
		return nil, err
	}
	out := slices.Clone(f.Runs)
	slices.Reverse(out)
	return out, nil
}

// Baseline is the last comparable run of key in root, or nil.
func (s *Store) Baseline(root string, key Key) (*Baseline, error) {
	f, err := s.read(root)
	if err != nil || f == nil {
		return nil, err
	}
	if i := f.baseline(key); i >= 0 {
		return &f.Baselines[i], nil
	}
	return nil, nil
}

// read loads root's file under a shared lock, for readers that do not write.
// A file it cannot use reads as none; the next write moves it aside.
func (s *Store) read(root string) (*file, error) {
	path := Path(s.Dir, root)
	unlock, err := lock(path, syscall.LOCK_SH)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer unlock()
	f, _, err := load(path, root)
	if err != nil {
		return nil, nil
	}
	return f, nil
}

// errUnusable marks a file that is not a history of this project.
var errUnusable = errors.New("not a history file of this project")

// load reads path. A missing file is an empty history; a file that does not
// parse is errUnusable with suffix "corrupt", one that parses but is not
// this project's history (another format, version or root) with "foreign".
func load(path, root string) (*file, string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &file{Format: format, Version: version, Project: root}, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("reading history: %w", err)
	}
	return parse(b, path, root)
}

// parse decodes the bytes of the file at path, as load says.
func parse(b []byte, path, root string) (*file, string, error) {
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, "corrupt", fmt.Errorf("%s: %w: %v", path, errUnusable, err)
	}
	if f.Format != format || f.Version != version || f.Project != root {
		return nil, "foreign", fmt.Errorf("%s: %w (format %q, version %d, project %q)", path, errUnusable, f.Format, f.Version, f.Project)
	}
	if err := f.check(); err != nil {
		return nil, "corrupt", fmt.Errorf("%s: %w: %v", path, errUnusable, err)
	}
	return &f, "", nil
}

// check refuses a file that parses but could only give wrong answers.
func (f *file) check() error {
	seen := map[Key]bool{}
	for _, b := range f.Baselines {
		if seen[b.Key] {
			return fmt.Errorf("two baselines for %+v", b.Key)
		}
		seen[b.Key] = true
		if b.RunID == "" {
			return errors.New("a baseline without a run id")
		}
	}
	for _, s := range f.Streaks {
		if s.Runs < 1 || s.Fingerprint == "" {
			return fmt.Errorf("streak of %s counts %d runs", s.Name, s.Runs)
		}
	}
	return nil
}

func (f *file) baseline(key Key) int {
	return slices.IndexFunc(f.Baselines, func(b Baseline) bool { return b.Key == key })
}

// prune keeps the newest KeepRuns runs, the baselines of the selections
// they ran, and the streaks and flips of the newest keepStreaks failing
// tests seen in them.
func (f *file) prune() {
	if n := len(f.Runs) - KeepRuns; n > 0 {
		f.Runs = slices.Delete(f.Runs, 0, n)
	}
	keys := map[Key]bool{}
	runs := map[string]int{} // run id → age order
	for i, r := range f.Runs {
		keys[r.Key] = true
		runs[r.RunID] = i
	}
	f.Baselines = slices.DeleteFunc(f.Baselines, func(b Baseline) bool { return !keys[b.Key] })
	f.Streaks = slices.DeleteFunc(f.Streaks, func(s streak) bool { _, ok := runs[s.RunID]; return !ok })
	if n := len(f.Streaks) - keepStreaks; n > 0 {
		slices.SortStableFunc(f.Streaks, func(a, b streak) int { return runs[a.RunID] - runs[b.RunID] })
		f.Streaks = slices.Delete(f.Streaks, 0, n)
	}
	f.Flips = slices.DeleteFunc(f.Flips, func(s flip) bool { _, ok := runs[s.RunID]; return !ok })
	if n := len(f.Flips) - keepStreaks; n > 0 {
		slices.SortStableFunc(f.Flips, func(a, b flip) int { return runs[a.RunID] - runs[b.RunID] })
		f.Flips = slices.Delete(f.Flips, 0, n)
	}
}

// write stores f at path atomically: a temporary file renamed over it, so
// a reader sees the old history or the new one, never half of one.
func write(path string, f *file) error {
	b, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("writing history: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*.json")
	if err != nil {
		return fmt.Errorf("writing history: %w", err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("writing history: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing history: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing history: %w", err)
	}
	return nil
}

// ensureDir creates dir 0700, or checks that it is a directory of ours: the
// history names every project and test the user ran.
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating history directory: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("checking history directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("history directory %s is not a directory (a symlink?): remove it", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("history directory %s belongs to uid %d, not to you: remove it or set STROBE_HOME", dir, st.Uid)
	}
	if fi.Mode()&os.ModeSticky != 0 {
		// A shared directory (/tmp itself): never closed to others.
		return fmt.Errorf("history directory %s is a shared directory (sticky, like /tmp): set STROBE_HOME to a directory of your own", dir)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("closing history directory %s to others: %w", dir, err)
		}
	}
	return nil
}

// pruneProjects removes the files of projects not run for keepProjects. It
// runs when a project's history starts, not on every run: the directory
// is read once per new project rather than once per run.
func pruneProjects(dir string, now time.Time) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, de := range des {
		fi, err := de.Info()
		if err != nil || !fi.Mode().IsRegular() || now.Sub(fi.ModTime()) < keepProjects {
			continue
		}
		os.Remove(filepath.Join(dir, de.Name()))
	}
}

// lock takes an flock on path's lock file, waiting up to lockWait for
// another process (a second daemon, `strobe test --no-daemon`). The lock is
// on a file of its own because the history file is replaced by rename. A
// shared lock on a missing lock file is os.ErrNotExist: nothing to read.
func lock(path string, how int) (unlock func(), err error) {
	flags := os.O_RDWR | os.O_CREATE
	if how == syscall.LOCK_SH {
		flags = os.O_RDONLY
	}
	lf, err := os.OpenFile(path+".lock", flags, 0o600)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(lockWait)
	for {
		err := syscall.Flock(int(lf.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			return func() { lf.Close() }, nil // closing releases the lock
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			lf.Close()
			return nil, fmt.Errorf("locking history: %w", err)
		}
		if time.Now().After(deadline) {
			lf.Close()
			return nil, fmt.Errorf("history %s is locked by another process for over %v", path, lockWait)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
