package vitest_test

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"strobe/adapters/adapterstest"
	"strobe/report"
	"strobe/runner"
)

// TestStuckRestWithoutIt: a test awaits a promise that never settles (as
// fixture hang's does, without its timer), named with regexp characters,
// quotes, "; ", ". " and unicode inside a describe block; strobe stops
// the run, and the hint's command for the rest, pasted in a shell, runs
// the other tests of the run's selection (the one after it in its file,
// another file's) and not that one: each test prints its name as it
// starts. Before, the hint gave no command for the rest.
func TestStuckRestWithoutIt(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	js, _ := filepath.Abs(filepath.Join("testdata", "js"))
	adapterstest.NpmCI(t, js)
	dir := adapterstest.ScratchBeside(t, filepath.Join(js, "projects"), "tmp-rest-", "")
	files := map[string]string{
		"package.json": `{"name": "rest", "private": true, "type": "module"}`,
		"hang.test.js": `import { describe, test } from 'vitest'
test('quick', () => { console.log('RAN quick') })
describe('blo\'ck', () => {
  test(` + strconv.Quote(`waits (a|b) [x] $1.50? ünï; it's "ok". yes`) + `, async () => { console.log('RAN odd'); await new Promise(() => {}) }, 0)
})
test('after', () => { console.log('RAN after') })
`,
		"other.test.js": `import { test } from 'vitest'
test('elsewhere', () => { console.log('RAN elsewhere') })
`,
	}
	adapterstest.WriteFiles(t, dir, files)
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: dir, Framework: "vitest", Timeout: time.Minute},
		runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != report.Stuck {
		t.Fatalf("status %s, hint %q: want stuck", resp.Status, resp.Hint)
	}
	cmd, out, err := adapterstest.RunRest(t, resp.Hint, dir)
	got := string(out)
	if err != nil || !strings.Contains(got, "RAN quick") || !strings.Contains(got, "RAN elsewhere") || !strings.Contains(got, "RAN after") || strings.Contains(got, "RAN odd") {
		t.Errorf("%s: %v; want quick, after and elsewhere run, not the test that hung\n%s", cmd, err, got)
	}
}
