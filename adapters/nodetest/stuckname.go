package nodetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/node"
	"strobe/internal/shell"
	"strobe/report"
)

// parser is node's events (node.Events), with the stuck test named from
// the stacks, and the test files a stopped run left without a result.
type parser struct {
	*node.Events
	rec  *adapters.Recorder
	root string
	// toRun are the test files node was to run, listed before it
	// started: a test may write a file node would find (a generated
	// module under test/), which it never was to run.
	toRun []string
	rerun func(file, test string) string
	// rest is the run's command for the rest of a stopped run (restHint):
	// without its name patterns (own), and its files; base is nil for a
	// run of one test.
	rest struct{ base, own, files []string }
	// named are the tests NameStuck named from the stacks (full titles),
	// unknown that it named a place no test was found around.
	named   []string
	unknown bool
}

// Finish reads node's events; for a run strobe stopped, it says which
// test files reported no result: node runs the files a few at a time, so
// those after the one that hung never started, and a file's process
// that was stopped took its results with it. How to run the rest is
// RestHint's, which the runner asks for once the stacks named the test.
func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	out := p.Events.Finish(exit)
	if exit.StoppedBy == "" {
		return out
	}
	reported := map[string]bool{}
	for _, t := range p.rec.Tests() {
		reported[t.Suite] = true
	}
	var silent []string
	for _, f := range p.toRun {
		if !reported[f] {
			silent = append(silent, f)
		}
	}
	if len(silent) == 0 {
		return out
	}
	its := "their"
	if len(silent) == 1 {
		its = "its"
	}
	h := fmt.Sprintf("node was stopped at %s: %s reported no result (never started, or stopped before node had %s results), and %s tests are in no count",
		kit.StoppedAt(exit.StoppedBy), kit.JoinAnd(clip(silent, 5)), its, its)
	out.Hint = strings.TrimPrefix(out.Hint+"; "+h, "; ")
	out.Indicators = append(out.Indicators, report.IndicatorNotReached)
	return out
}

// clip keeps the first n names, and counts the rest.
func clip(names []string, n int) []string {
	if len(names) <= n {
		return names
	}
	return append(names[:n:n], fmt.Sprintf("%d more", len(names)-n))
}

// testFiles are the test files node is to run, relative to the project
// root: those given, those under the directories given, else those its
// own search finds (testFile); none when a glob was given (node reads it).
func testFiles(root string, files []string) []string {
	if len(files) == 0 {
		return node.TestFiles(root, testFile)
	}
	var out []string
	for _, f := range files {
		if strings.ContainsAny(f, "*?[{") {
			return nil
		}
		abs := f
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, f)
		}
		st, err := os.Stat(abs)
		if err != nil {
			continue
		}
		rel, ok := kit.Rel(root, abs)
		if !ok {
			continue
		}
		if !st.IsDir() {
			out = append(out, rel)
			continue
		}
		for _, in := range node.TestFiles(abs, func(r string) bool { return testFile(filepath.Join(rel, r)) }) {
			out = append(out, filepath.Join(rel, in))
		}
	}
	return out
}

// StacksOverEvents (adapters.StacksOverEvents): a test file's process
// writes its events asynchronously, so one that spins or blocks never
// sends the start of the test it runs, nor the end of the test before it:
// the events name the wrong test, or none.
func (p *parser) StacksOverEvents() {}

// NameStuck names the test a stuck test file's process runs from its
// stacks: the test whose body holds a frame of the project's, read from
// the source (node.DeclaredPath, joined as node joins titles), the
// deepest such test of the frames: a subtest (t.test) runs from its
// parent's call of it, or from a tick of its own, and the hang is the
// subtest's, named by its full title. A helper it calls is in no test.
// Its rerun runs the outermost parent test, as a failing subtest's does:
// node runs a subtest only inside its parent. When the process was idle
// (its events sent, the stacks only where what keeps it alive was made,
// as a server opened in the parent test's body), the subtest the events
// show running under that test names it. When no test's body holds a
// frame (the file's own code, a title made at run time), the answer
// names the outermost place in a test file, and its rerun runs the
// file; false when the stacks show no project code.
func (p *parser) NameStuck(_ context.Context, funcs []string) (adapters.StuckName, bool) {
	place, placeLine := "", 0
	var best []node.Declared
	bestFile, bestLine := "", 0
	sources := map[string]string{}
	idle := len(funcs) > 0
	for i := len(funcs) - 1; i >= 0; i-- {
		idle = idle && strings.HasPrefix(funcs[i], "waiting on ")
		file, line, ok := p.projectFrame(funcs[i])
		if !ok {
			continue
		}
		src, read := sources[file]
		if !read {
			if b, err := os.ReadFile(filepath.Join(p.root, file)); err == nil {
				src = string(b)
			}
			sources[file] = src
		}
		if path, ok := node.DeclaredPath(src, line); ok && (len(path) > len(best) || file == bestFile && slices.Equal(path, best)) {
			// The same test's inner frame: where in it the hang is.
			best, bestFile, bestLine = path, file, line
			continue
		}
		if place == "" && testFile(file) {
			place, placeLine = file, line
		}
	}
	if best != nil {
		var titles []string
		top := ""
		for _, d := range best {
			titles = append(titles, d.Title)
			if d.Test && top == "" {
				top = d.Title
			}
		}
		name := strings.Join(titles, Sep)
		if idle {
			name = p.runningUnder(bestFile, name)
		}
		p.named = append(p.named, name)
		return adapters.StuckName{Name: name, File: bestFile, Line: bestLine, Rerun: p.rerun(bestFile, top)}, true
	}
	if place == "" {
		return adapters.StuckName{}, false
	}
	p.unknown = true
	return adapters.StuckName{Name: fmt.Sprintf("the code at %s:%d (strobe could not tell which test runs it)", place, placeLine), File: place, Line: placeLine,
		Rerun: p.rerun(place, "")}, true
}

// runningUnder is the subtest of the test name that the events show
// running in file, the innermost of one line of them, else name.
func (p *parser) runningUnder(file, name string) string {
	deepest := name
	for _, r := range p.rec.Running(file) {
		if !strings.HasPrefix(r, name+Sep) {
			continue
		}
		switch {
		case strings.HasPrefix(r, deepest+Sep):
			deepest = r
		case !strings.HasPrefix(deepest, r+Sep) && r != deepest:
			return name // subtests side by side: which one hangs is not told
		}
	}
	return deepest
}

// projectFrame is a frame's file, relative to the project root, and
// line, when the file is the project's (not node's, not a dependency's).
func (p *parser) projectFrame(frame string) (file string, line int, ok bool) {
	file, line, ok = node.FramePlace(frame)
	if !ok || strings.Contains(file, "/node_modules/") || strings.HasPrefix(file, "node:") {
		return "", 0, false
	}
	if filepath.IsAbs(file) {
		rel, ok := kit.Rel(p.root, file)
		if !ok {
			return "", 0, false
		}
		file = rel
	}
	return file, line, kit.FileExists(filepath.Join(p.root, file))
}

// RestCommand (adapters.RestCommander) is, for a run strobe stopped
// while tests ran, the command that runs the rest of its selection
// without them: the run's command and files, with name patterns that
// leave them out. The tests are those the stacks named (NameStuck) and
// those the events show running, the innermost of each line of subtests
// (a test whose end a blocked process never sent is left out too). Node
// 22.1 and later skip them by their full titles (--test-skip-pattern,
// which node matches against a test's name, its ancestors' and its name
// after theirs, joined by spaces), the run's own --test-name-pattern
// kept. Node 20 has no skip pattern, and runs a test when its own name or
// an ancestor's matches --test-name-pattern, the root's, "<root>", too:
// the pattern leaves out every name on each test's line and "<root>", so
// a test elsewhere whose names are all among them is left out too, and
// so is a parent test with its other subtests; with name patterns of its
// own each is written again with the exclusion in front. "" for a run of
// one test, when no test was running, when the stacks named a place in
// no test, or on a node neither 20 nor 22.1 and later: 22.0 has no skip
// pattern and runs the test on node 20's (as 22.23 does), and the JUnit
// fallback's is unknown.
func (p *parser) RestCommand(by string) string {
	if p.rest.base == nil || p.unknown {
		return ""
	}
	var hung []string
	add := func(name string) {
		for _, n := range []string{name, node.Unnumbered(name)} { // strobe's "NAME #2" is NAME to node
			if !slices.Contains(hung, n) {
				hung = append(hung, n)
			}
		}
	}
	for _, n := range p.named {
		add(n)
	}
	running := p.rec.Progress().Running
	for _, r := range running {
		if r.Name == r.Suite {
			// A test file named whole (node 22 says its file runs): no
			// name pattern leaves it out, only a test of its own can be.
			if !slices.ContainsFunc(running, func(o adapters.RunningTest) bool { return o.Suite == r.Suite && o.Name != r.Name }) &&
				len(p.named) == 0 {
				return ""
			}
			continue
		}
		if !slices.ContainsFunc(running, func(o adapters.RunningTest) bool {
			return o.Suite == r.Suite && strings.HasPrefix(o.Name, r.Name+Sep)
		}) {
			add(r.Name)
		}
	}
	if len(hung) == 0 {
		return ""
	}
	var major, minor int
	if _, err := fmt.Sscanf(p.NodeVersion(), "v%d.%d", &major, &minor); err != nil || major < 20 || major == 21 || major == 22 && minor < 1 {
		return ""
	}
	spaced := func(name string) string { return node.RestSafe(node.QuoteRegexp(strings.ReplaceAll(name, Sep, " "))) }
	var args []string
	if major > 22 || major == 22 && minor >= 1 {
		for _, own := range p.rest.own {
			args = append(args, "--test-name-pattern="+own)
		}
		var full []string
		for _, h := range hung {
			full = append(full, spaced(h))
		}
		args = append(args, "--test-skip-pattern=^(?:"+strings.Join(full, "|")+")$")
	} else { // node 20
		names := []string{"<root>"}
		for _, h := range hung {
			for _, n := range strings.Split(h, Sep) {
				if q := spaced(n); !slices.Contains(names, q) {
					names = append(names, q)
				}
			}
		}
		if len(p.rest.own) == 0 {
			args = append(args, "--test-name-pattern="+node.Except(names, ""))
		}
		for _, own := range p.rest.own {
			if source, flags, ok := node.Slashed(own); ok {
				args = append(args, "--test-name-pattern=/"+node.Except(names, source)+"/"+flags)
				continue
			}
			args = append(args, "--test-name-pattern="+node.Except(names, own))
		}
	}
	return shell.Join(slices.Concat(p.rest.base, args, p.rest.files))
}
