package jest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit/node"
	"strobe/internal/shell"
	"strobe/report"
)

// NameStuck names the test a stuck jest process's stacks show running,
// when no event named it: jest before 29.6 has no onTestCaseStart, so a
// test that hangs was named by the command alone (luxon's jest 29.4.3),
// with no rerun. The test is the one whose body holds the outermost frame
// in a test file (a helper it calls is inner), its name read from the
// source (node.DeclaredPath); when the source does not tell it, the
// answer names the place, and its rerun runs the file.
func (p *parser) NameStuck(_ context.Context, funcs []string) (adapters.StuckName, bool) {
	file, line, ok := node.OutermostTestFrame(funcs, p.root, isTestFile)
	if !ok {
		return adapters.StuckName{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sawDone {
		// The run is over: the stacks show what keeps the process alive
		// (an interval a test started), not a test that runs.
		return adapters.StuckName{}, false
	}
	suite, rel := p.name(file), p.relPkg(file)
	if src, err := os.ReadFile(file); err == nil {
		if path, ok := node.DeclaredPath(string(src), line); ok && len(path) > 0 {
			titles := make([]string, len(path))
			for i, d := range path {
				titles[i] = d.Title
			}
			name := strings.Join(titles, sep)
			if slices.ContainsFunc(p.rec.Tests(), func(t report.Test) bool {
				return t.Suite == suite && t.Name == name && t.Status != report.TestRunning
			}) {
				return adapters.StuckName{}, false // it ended: what it left behind runs
			}
			return adapters.StuckName{Name: name, Suite: suite, File: suite, Line: line,
				Rerun: p.rerunCommand(p.rerunPrefix(""), rel, name)}, true
		}
	}
	return adapters.StuckName{Name: fmt.Sprintf("the code at %s:%d (strobe could not tell which test runs it)", suite, line), Suite: suite,
		File: suite, Line: line, Rerun: node.InDir(p.cd, shell.Join(append(p.rerunPrefix(""), "--runTestsByPath", rel)))}, true
}

// isTestFile says whether a path is a test file as jest's default
// testRegex finds them: under __tests__, or named *.test.* or *.spec.*.
func isTestFile(path string) bool {
	base := filepath.Base(path)
	return strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") || strings.Contains(path, "/__tests__/")
}
