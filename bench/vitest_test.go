package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
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

// BenchmarkVitestLarge measures `strobe test --no-daemon` against `vitest
// run` on a generated suite of 40,000 quick tests (two files of 20,000, in
// describe blocks of 1,000), the shape of a suite of generated cases
// (cookie 2.0.1: 63,740 tests, 63,528 of them in one file), where
// strobe's cost per test is most of what it adds: four event lines a test
// (the worker's start and end, the reporter's), each read, decoded and
// recorded, and a record of every test. "reporter" is vitest with
// strobe's reporter and setup file alone (their events written, nobody
// reading them): the node side's share of the difference. Rounds
// alternate as in BenchmarkOverhead (overhead).
func BenchmarkVitestLarge(b *testing.B) {
	testutil.RequireTool(b, "node")
	testutil.RequireTool(b, "npm")
	modules := vitestModules(b)
	files := map[string]string{"package.json": `{"name":"bench40000","private":true,"type":"module","devDependencies":{"vitest":"3.2.4"}}` + "\n"}
	for f := range 2 {
		files[fmt.Sprintf("test/g%d.test.js", f)] = fmt.Sprintf(`import { describe, expect, test } from 'vitest'

for (let d = 0; d < 20; d++) {
  describe('block %d.' + d, () => {
    for (let i = 0; i < 1000; i++) {
      test('case ' + i, () => {
        expect(i + d).toBe(d + i)
      })
    }
  })
}
`, f)
	}
	dir := cacheDir(b, "vitest-40000", files)
	link := filepath.Join(dir, "node_modules")
	if target, err := os.Readlink(link); err != nil || target != modules {
		os.Remove(link)
		if err := os.Symlink(modules, link); err != nil {
			b.Fatal(err)
		}
	}
	// The reporter and its setup file as strobe writes them for a run;
	// the events file is emptied before each run.
	rep := b.TempDir()
	for _, name := range []string{"reporter.mjs", "setup.mjs", "select.mjs"} {
		src, err := os.ReadFile(filepath.Join(testutil.Root(), "adapters", "vitest", name))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(rep, name), src, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	vitestBin := filepath.Join(dir, "node_modules", ".bin", "vitest")
	bin := strobeBin(b)
	req := adapters.Request{ProjectRoot: dir, Level: adapters.LevelAll}
	overhead(b, dir, 40000, overheadTarget, "vitest", req, []variant{
		{name: "raw", argv: []string{vitestBin, "run"}, env: []string{"NO_COLOR=1"}},
		{name: "strobe", argv: []string{bin, "test", dir, "--no-daemon", "--json"}, strobe: true},
		{name: "reporter", argv: []string{"sh", "-c", `: > "$1/events.jsonl" && exec "$2" run --reporter="$1/reporter.mjs"`, "sh", rep, vitestBin}, env: []string{"NO_COLOR=1"}},
	})
}
