package nodetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/node"
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
}

// Finish reads node's events; for a run strobe stopped, it says which
// test files reported no result: node runs the files a few at a time, so
// those after the one that hung never started, and a file's process
// that was stopped took its results with it.
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
// stacks: the test whose body holds the outermost frame of the project's
// that lies in one (a helper it calls is inner), its name read from the
// source (node.DeclaredTitles, joined as node joins them). When no test's
// body holds one (the file's own code, a title made at run time), the
// answer names the outermost place in a test file, and its rerun runs the
// file; false when the stacks show no project code.
func (p *parser) NameStuck(_ context.Context, funcs []string) (adapters.StuckName, bool) {
	place, placeLine := "", 0
	for i := len(funcs) - 1; i >= 0; i-- {
		file, line, ok := p.projectFrame(funcs[i])
		if !ok {
			continue
		}
		if src, err := os.ReadFile(filepath.Join(p.root, file)); err == nil {
			if titles, ok := node.DeclaredTitles(string(src), line); ok {
				name := strings.Join(titles, Sep)
				return adapters.StuckName{Name: name, File: file, Line: line, Rerun: p.rerun(file, name)}, true
			}
		}
		if place == "" && testFile(file) {
			place, placeLine = file, line
		}
	}
	if place == "" {
		return adapters.StuckName{}, false
	}
	return adapters.StuckName{Name: fmt.Sprintf("the code at %s:%d (strobe could not tell which test runs it)", place, placeLine), File: place, Line: placeLine,
		Rerun: p.rerun(place, "")}, true
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
