package runner

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/details"
	"strobe/history"
	"strobe/internal/githead"
	"strobe/report"
	"strobe/shard"
)

// selection is what a run chose to run beyond its level and test: the
// tests of one partition, or the failures of the previous run.
type selection struct {
	partition  *shard.Partition
	onlyFailed bool
	// rerun and part describe the choice for the answer, once made; hint
	// is what the answer's hint says of it.
	rerun *report.Rerun
	part  *report.Partition
	hint  string
	// commit is the project's git commit, read beside the run.
	commit chan string
}

// checkSelection refuses, before anything runs, a partition or a rerun the
// request or its adapter cannot have.
func checkSelection(req Request, a adapters.Adapter) (selection, error) {
	sel := selection{onlyFailed: req.OnlyFailed}
	if strings.TrimSpace(req.Partition) == "" {
		return sel, nil
	}
	p, err := shard.Parse(req.Partition)
	if err != nil {
		return sel, err
	}
	if req.OnlyFailed {
		return sel, adapters.Usagef("--failed and --partition do not go together: rerun the failures on one machine, or partition the whole suite")
	}
	if req.Test != "" {
		return sel, adapters.Usagef("a partition splits a suite, not one test: drop the test, or the partition")
	}
	_, lists := a.(adapters.Lister)
	_, multi := a.(adapters.MultiSelector)
	if !lists || !multi {
		return sel, adapters.Usagef("the %s framework cannot list its tests before running them, so strobe cannot partition it: split the suite by level or by directory instead", a.Name())
	}
	sel.partition = &p
	return sel, nil
}

// historyKey is the selection a run compares within (see remember).
func (r *Run) historyKey() history.Key {
	k := history.Key{Framework: r.adapter.Name(), Level: string(r.level), Test: r.req.Test, Command: strings.TrimSpace(r.req.Command)}
	if r.sel.partition != nil {
		k.Partition = r.sel.partition.String()
	}
	return k
}

// choose sets the tests of a partition or a rerun in the adapter's
// request. A non-nil answer ends the run before it starts: nothing to run.
func (r *Run) choose(ctx context.Context) (*report.Response, error) {
	switch {
	case r.sel.partition != nil:
		if err := r.choosePartition(ctx); err != nil || len(r.areq.Tests) > 0 {
			return nil, err
		}
		// A part of a small suite may hold no test: it answers so, with
		// a details file for strobe merge, rather than run everything.
		return &report.Response{Status: report.NoTests, RunID: r.ID, Framework: r.adapter.Name(), Summary: &report.Summary{},
			Hint: fmt.Sprintf("partition %s holds none of the %d tests listed: nothing to run on this shard", r.sel.part.Spec, r.sel.part.Listed)}, nil
	case r.sel.onlyFailed:
		return r.chooseFailed()
	}
	return nil, nil
}

func (r *Run) choosePartition(ctx context.Context) error {
	p := r.sel.partition
	began := time.Now()
	all, err := r.adapter.(adapters.Lister).List(ctx, r.areq)
	if err != nil {
		return err
	}
	tests := p.Select(all)
	r.sel.part = &report.Partition{Spec: p.String(), Kind: p.Kind, Index: p.Index, Total: p.Total,
		Listed: len(all), Selected: len(tests), ListMS: time.Since(began).Milliseconds()}
	r.areq.Tests = tests
	if _, docs := r.adapter.(adapters.DocTester); docs && r.areq.Level == adapters.LevelAll {
		// The parts together are not the whole suite: say so on each.
		r.sel.hint = "the doctests are in no partition (they are not listed): run them as a job of their own, with level doc (--level doc)"
	}
	return nil
}

// chooseFailed selects the failed and stuck tests of the previous
// comparable run, from the history.
func (r *Run) chooseFailed() (*report.Response, error) {
	none := func(why string) *report.Response {
		return &report.Response{Status: report.NoTests, RunID: r.ID, Framework: r.adapter.Name(),
			Summary: &report.Summary{}, Hint: why}
	}
	if r.opts.HistoryDir == "" {
		return none("nothing to rerun: this strobe keeps no run history (STROBE_HOME), so it does not know what failed; run the suite instead"), nil
	}
	var selects func(history.TestID) bool
	if r.req.Test != "" {
		selects = func(id history.TestID) bool { return filterSelects(r.req.Test, id) }
	}
	rr, err := history.Open(r.opts.HistoryDir).ToRerunIn(r.req.ProjectRoot, r.historyKey(), selects)
	if err != nil {
		return nil, fmt.Errorf("reading what failed last time: %w", err)
	}
	if rr.Last != nil && rr.Last.Status == report.BuildFailed {
		// What did not build ran no test, and which tests it holds is
		// not known: the failures beside it are not all that failed.
		r.sel.hint = fmt.Sprintf("the previous run (%s) did not build, so this one ran the whole selection, not only what failed: the tests of what did not build are not known", rr.Last.RunID)
		return nil, nil
	}
	if rr.N == 0 && rr.Last != nil && unfinished(rr.Last.Status) {
		// The run stopped in a test it never recorded (one the stuck
		// detector named from the JVM's stacks, a class whose fork
		// died): nothing is named failing, and not every test passed.
		r.sel.hint = fmt.Sprintf("the previous run (%s) was %s with no test of its results failing, so this one ran the whole selection, not only what failed", rr.Last.RunID, rr.Last.Status)
		return nil, nil
	}
	if rr.Since == "" {
		return none("nothing to rerun: no earlier run of this selection is in the history, nor any run of a test it selects; run it once without --failed (onlyFailed)"), nil
	}
	var tests []adapters.TestRef
	suites := make([]string, 0, len(rr.Failing))
	for s := range rr.Failing {
		suites = append(suites, s)
	}
	slices.Sort(suites)
	for _, s := range suites {
		for _, n := range rr.Failing[s] {
			tests = append(tests, adapters.TestRef{Suite: s, Name: n})
		}
	}
	if len(tests) == 0 {
		return none(fmt.Sprintf("nothing to rerun: every test of the previous run (%s) passed", rr.Since)), nil
	}
	r.sel.rerun = &report.Rerun{Of: rr.Since, Tests: rr.N}
	if _, ok := r.adapter.(adapters.MultiSelector); ok {
		r.areq.Tests = tests
		return nil, nil
	}
	if len(tests) == 1 {
		r.areq.Test, r.areq.TestSuite = tests[0].Name, tests[0].Suite
		return nil, nil
	}
	r.chooseSequence(tests)
	return nil, nil
}

// filterSelects says whether a test filter (Request.Test) selects the
// test id, as far as its name tells, for a rerun of the filter's
// failures that the runs of other filters found (the whole suite's,
// before the filter ran alone): the filter is the test's suite (its
// file, its package) or a directory above it, or its name or a name
// above it (a parent test, a describe block, a class), alone or after
// its file (`FILE::name`, `FILE › title`). A filter read otherwise (a
// pytest -k expression, a go -run pattern) selects none of them, and
// the rerun of a filter never run alone is "nothing to rerun", as it
// was for every filter.
func filterSelects(filter string, id history.TestID) bool {
	f := strings.TrimPrefix(strings.TrimSpace(filter), "./")
	suite := strings.TrimPrefix(id.Suite, "./")
	if f == "" {
		return false
	}
	if suite != "" && (suite == f || strings.HasPrefix(suite, strings.TrimSuffix(f, "/")+"/")) {
		return true
	}
	t := report.Test{Suite: id.Suite, Name: id.Name}
	if rest, ok := strings.CutPrefix(f, suite); ok && suite != "" {
		for _, sep := range []string{"::", " › ", " > ", "#"} {
			if name, ok := strings.CutPrefix(rest, sep); ok && name != "" && ranAsked(adapters.TestRef{Name: name}, t) {
				return true
			}
		}
	}
	return ranAsked(adapters.TestRef{Name: f}, t)
}

// unfinished says whether a run's status is that of a run that ended
// before its tests did.
func unfinished(s report.Status) bool {
	return s == report.Stuck || s == report.Crashed || s == report.Timeout || s == report.Cancelled
}

// readCommit reads the project's git commit beside the run, for the
// details file: strobe merge refuses shards of different commits.
func (r *Run) readCommit() {
	r.sel.commit = make(chan string, 1)
	go func() {
		if c, ok := githead.Read(r.req.ProjectRoot, r.areq.Env); ok {
			r.sel.commit <- c
			return
		}
		out, _, err := kit.RunTool(context.Background(), kit.Tool{Dir: r.req.ProjectRoot, Env: r.areq.Env, Timeout: 5 * time.Second},
			"git", "rev-parse", "HEAD")
		if err != nil {
			out = nil
		}
		r.sel.commit <- string(bytes.TrimSpace(out))
	}()
}

// commit waits for readCommit's answer; empty when the project is not a
// git repository (or git is missing).
func (r *Run) commit() string {
	if r.sel.commit == nil {
		return ""
	}
	c := <-r.sel.commit
	r.sel.commit <- c
	return c
}

// nameLikeIt adds to the answer of a --test that ran nothing the names of
// the last whole-suite run's tests that end with it or hold it (a Go
// subtest asked for without its parent, `Invalid Brackets` for
// TestValidate/Invalid_Brackets; a pytest test without its file): at most
// three, from the history, which knows every name the framework's own
// listing may not (`go test -list` lists no subtest).
func (r *Run) nameLikeIt(resp *report.Response) {
	want := strings.TrimSpace(r.areq.Test)
	if resp.Status != report.NoTests || want == "" || r.sel.rerun != nil || r.opts.HistoryDir == "" {
		return
	}
	key := history.Key{Framework: r.adapter.Name(), Command: strings.TrimSpace(r.req.Command)}
	b, err := history.Open(r.opts.HistoryDir).Baseline(r.req.ProjectRoot, key)
	if err != nil || b == nil {
		return
	}
	if names := namesLike(b.Tests, want); len(names) > 0 {
		resp.Hint = joinHints(resp.Hint, "tests of the last whole run whose names end with or hold it: "+strings.Join(names, ", "))
	}
}

// namesLike are up to three of tests' names (suite → names) whose last
// part is want, then whose name holds it; a Go subtest's spaces are
// underscores in its name, and compare so.
func namesLike(tests map[string][]string, want string) []string {
	under := strings.ReplaceAll(want, " ", "_")
	var ends, holds []string
	for _, suite := range slices.Sorted(maps.Keys(tests)) {
		for _, name := range tests[suite] {
			switch {
			case name == want:
			case strings.HasSuffix(name, "/"+want) || strings.HasSuffix(name, "/"+under) || strings.HasSuffix(name, "::"+want) ||
				strings.HasSuffix(name, "."+want) || strings.HasSuffix(name, " > "+want) || strings.HasSuffix(name, " › "+want):
				ends = append(ends, name)
			case strings.Contains(name, want) || strings.Contains(name, under):
				holds = append(holds, name)
			}
		}
	}
	out := append(ends, holds...)
	return clipList(out, 3)
}

// noteUnrunAsked names, in a rerun of failures (--failed) that ran to
// its end, the tests asked for that the run has no trace of: renamed or
// removed since (a GoogleTest name with a pointer's bytes changes with
// each build). gtest, CTest and Maven left them out without a word, and
// the answer's rerun.tests counted them. A test counts as run when the
// run has it, or tests under it (a suite's or a class's own failure, a
// parent test, a package's failure named by the package); an adapter
// that already said which did not run ("asked for" in its hint) is left
// to say it.
//
// A rerun that ran none of them answers no_tests: the adapter's hint
// (Go's "Go tests are functions TestXxx…") speaks of a suite with no
// tests, and is replaced by the names of those asked for.
func (r *Run) noteUnrunAsked(resp *report.Response, tests []report.Test) {
	asked := r.areq.Tests
	if r.sel.rerun == nil || strings.Contains(resp.Hint, "asked for") {
		return
	}
	if resp.Status == report.NoTests {
		if len(asked) == 0 && r.areq.Test != "" { // one test, chosen as --test
			asked = []adapters.TestRef{{Name: r.areq.Test, Suite: r.areq.TestSuite}}
		}
		if len(asked) == 0 {
			return
		}
		names := make([]string, len(asked))
		for i, a := range asked {
			names[i] = a.Name
		}
		what := fmt.Sprintf("none of the %d tests that failed in run %s ran", len(asked), r.sel.rerun.Of)
		if len(asked) == 1 {
			what = fmt.Sprintf("the test that failed in run %s did not run", r.sel.rerun.Of)
		}
		resp.Hint = fmt.Sprintf("%s: %s (renamed or removed since?); run the suite without --failed (onlyFailed) to see what fails under its new name",
			what, kit.ClipTo(strings.Join(names, ", "), 300, "…"))
		return
	}
	if len(asked) == 0 || resp.Status != report.Passed && resp.Status != report.Failed {
		return
	}
	var unrun []string
	for _, a := range asked {
		if !slices.ContainsFunc(tests, func(t report.Test) bool { return ranAsked(a, t) }) {
			unrun = append(unrun, a.Name)
		}
	}
	if len(unrun) == 0 {
		return
	}
	resp.Hint = joinHints(resp.Hint, fmt.Sprintf("%d of the %d tests asked for did not run: %s (renamed or removed since the run that failed them?)",
		len(unrun), len(asked), kit.ClipTo(strings.Join(unrun, ", "), 300, "…")))
}

// ranAsked says whether the run's test t is the test asked for, or one
// under it.
func ranAsked(a adapters.TestRef, t report.Test) bool {
	if a.Suite != "" && t.Suite != a.Suite {
		return false
	}
	if t.Name == a.Name || a.Name == a.Suite {
		return true
	}
	rest, ok := strings.CutPrefix(t.Name, a.Name)
	return ok && rest != "" && (strings.ContainsRune(".#/: [(", rune(rest[0])) || strings.HasPrefix(rest, " › ") || strings.HasPrefix(rest, " > "))
}

// annotate puts the selection into the answer.
func (r *Run) annotate(resp *report.Response) {
	resp.Partition, resp.Rerun = r.sel.part, r.sel.rerun
}

// answerWithout ends a run that had nothing to run with resp, written to a
// details file like any answer.
func (r *Run) answerWithout(resp *report.Response) {
	r.annotate(resp)
	dir := r.detailsDir()
	rec := &details.Record{Response: *resp, ProjectRoot: r.req.ProjectRoot, Adapter: r.adapter.Name(),
		Level: string(r.level), Test: r.req.Test, Env: r.req.Env, TimeoutMS: r.timeout.Milliseconds(),
		Started: r.started, Finished: time.Now(), Tests: []report.Test{},
		Commit: r.commit(), Command: strings.TrimSpace(r.req.Command)}
	resp.JUnit = r.writeJUnit(dir, resp, nil)
	rec.Response.JUnit = resp.JUnit
	if path, err := details.Write(dir, rec); err == nil {
		resp.Details = path
	}
	r.resp = resp
	close(r.done)
}
