package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters/adapterstest"
	"strobe/adapters/vitest"
	"strobe/internal/testutil"
)

// BenchmarkVitestOverhead measures what strobe's vitest reporter, its
// worker setup file and the adapter's parser cost over `vitest run` as a
// user types it, on a generated suite of 2,000 passing tests (40 files of
// 50), alternating the two, ratio of the medians (target: at most 1.05).
// "raw" is node_modules/.bin/vitest run with vitest's default reporter,
// its output to /dev/null; "strobe" is the adapter's plan, its output
// read line by line into the parser and the events file tailed, as the
// runner does, in this process (planOverhead). cpu-ratio counts vitest's
// process tree and the parser's CPU in this process, parser-cpu-ms the
// latter alone.
func BenchmarkVitestOverhead(b *testing.B) {
	testutil.RequireTool(b, "node")
	testutil.RequireTool(b, "npm")
	modules := vitestModules(b)
	files := map[string]string{"package.json": `{"name":"bench2000","private":true,"type":"module","devDependencies":{"vitest":"3.2.4"}}` + "\n"}
	for f := range 40 {
		var s strings.Builder
		fmt.Fprintf(&s, "import { describe, expect, test } from 'vitest'\n\ndescribe('module %d', () => {\n", f)
		for i := range 50 {
			fmt.Fprintf(&s, "  test('case %d', () => {\n    expect(%d + 1).toBe(%d)\n  })\n", i, i, i+1)
		}
		s.WriteString("})\n")
		files[fmt.Sprintf("test/m%02d.test.js", f)] = s.String()
	}
	dir := cacheDir(b, "vitest-2000", files)
	link := filepath.Join(dir, "node_modules")
	// The cache outlives checkouts: a link into another (or a removed)
	// checkout is made again.
	if target, err := os.Readlink(link); err != nil || target != modules {
		os.Remove(link)
		if err := os.Symlink(modules, link); err != nil {
			b.Fatal(err)
		}
	}
	planOverhead(b, planCase{dir: dir, adapter: vitest.New(), raw: []string{filepath.Join(dir, "node_modules", ".bin", "vitest"), "run"}, tests: 2000})
}

// vitestModules is the vitest adapter's fixture workspace's node_modules
// (vitest 3.2.4 from its lockfile), installed with npm ci when missing.
func vitestModules(b *testing.B) string {
	ws := filepath.Join(testutil.Root(), "adapters", "vitest", "testdata", "js")
	adapterstest.NpmCI(b, ws)
	return filepath.Join(ws, "node_modules")
}
