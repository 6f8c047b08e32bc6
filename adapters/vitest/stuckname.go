package vitest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit/node"
)

// NameStuck names the test a stuck vitest process's stacks show running,
// when no event named it: vitest 1 and 2 send a test's start only with
// their next batch of results, which a test that spins never lets go.
// The test is the one whose body holds the outermost frame in a test
// file (a helper it calls is inner), its name read from the source
// (node.DeclaredAt); when the source does not tell it (the file's own
// code, a test.each), the answer names the place, and its rerun runs the
// file.
func (p *parser) NameStuck(_ context.Context, funcs []string) (adapters.StuckName, bool) {
	file, line, ok := node.OutermostTestFrame(funcs, p.pkgDir, isTestFile)
	if !ok {
		return adapters.StuckName{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	rel := p.path(file)
	if src, err := os.ReadFile(file); err == nil {
		if name, ok := node.DeclaredAt(string(src), line); ok {
			return adapters.StuckName{Name: name, File: rel, Line: line, Rerun: p.rerunFor(file, name, "")}, true
		}
	}
	return adapters.StuckName{Name: fmt.Sprintf("the code at %s:%d (strobe could not tell which test runs it)", rel, line), File: rel, Line: line,
		Rerun: p.rerunPattern(file, "", "")}, true
}

// isTestFile says whether a path is a test file by vitest's default
// names: *.test.*, *.spec.*.
func isTestFile(path string) bool {
	base := filepath.Base(path)
	return strings.Contains(base, ".test.") || strings.Contains(base, ".spec.")
}
