package generic

import (
	"context"
	"slices"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, files)
	return root
}

// TestFallback: a project with no framework but a test command of its own
// runs that command, by its package manager or make.
func TestFallback(t *testing.T) {
	const script = `{"scripts": {"test": "node test.js"}}`
	for _, tc := range []struct {
		name  string
		files map[string]string
		argv  []string // nil: no fallback
		conf  int
	}{
		{"npm", map[string]string{"package.json": script, "package-lock.json": "{}"}, []string{"npm", "test"}, 10},
		{"no lockfile", map[string]string{"package.json": script}, []string{"npm", "test"}, 10},
		{"pnpm", map[string]string{"package.json": script, "pnpm-lock.yaml": ""}, []string{"pnpm", "test"}, 10},
		{"yarn", map[string]string{"package.json": script, "yarn.lock": ""}, []string{"yarn", "test"}, 10},
		{"bun", map[string]string{"package.json": script, "bun.lock": ""}, []string{"bun", "run", "test"}, 10},
		{"npm's placeholder", map[string]string{"package.json": `{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`}, nil, 1},
		{"no scripts", map[string]string{"package.json": `{"name": "x"}`}, nil, 1},
		{"make test", map[string]string{"Makefile": ".PHONY: test\nbuild:\n\tcc -o x x.c\ntest: build\n\t./x --test\n"}, []string{"make", "test"}, 5},
		{"make check", map[string]string{"Makefile": "all:\n\ttrue\ncheck:\n\t./run-tests\n"}, []string{"make", "check"}, 5},
		{"test before check", map[string]string{"Makefile": "check test:\n\t./t\n"}, []string{"make", "test"}, 5},
		{"a variable, not a target", map[string]string{"Makefile": "test := yes\ncheck ?= no\nall:\n\ttrue\n"}, nil, 1},
		{"script over make", map[string]string{"Makefile": "test:\n\ttrue\n", "package.json": script}, []string{"npm", "test"}, 10},
		{"nothing", map[string]string{"README": "hi"}, nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeFiles(t, tc.files)
			d := New().Detect(adapters.Request{ProjectRoot: root})
			if d.Confidence != tc.conf {
				t.Errorf("confidence %d, want %d", d.Confidence, tc.conf)
			}
			plan, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: root}, adapters.NewRecorder())
			if tc.argv == nil {
				if !adapters.IsUsage(err) || d.Hint != "" {
					t.Errorf("plan %+v, %v, hint %q: want the usage error of old", plan, err, d.Hint)
				}
				return
			}
			if err != nil || !slices.Equal(plan.Argv, tc.argv) {
				t.Fatalf("plan %+v, %v; want %q", plan, err, tc.argv)
			}
			if want := "`" + strings.Join(tc.argv, " ") + "`"; !strings.Contains(d.Hint, want) || !strings.Contains(d.Hint, `framework: "NAME"`) {
				t.Errorf("hint %q: want it to name %s and how to pick a framework", d.Hint, want)
			}
		})
	}
}

// TestFallbackRuns runs a Makefile's test target and an npm test script
// for real, each printing TAP.
func TestFallbackRuns(t *testing.T) {
	testutil.RequireTool(t, "make")
	testutil.RequireTool(t, "npm")
	tap := `printf '%s\n' '1..2' 'ok 1 - adds' 'not ok 2 - divides'; exit 1`
	for name, files := range map[string]map[string]string{
		"make": {"Makefile": "test:\n\t@" + tap + "\n"},
		"npm":  {"package.json": `{"scripts": {"test": "node test.js"}}`, "test.js": "console.log('1..2\\nok 1 - adds\\nnot ok 2 - divides'); process.exit(1);\n"},
	} {
		t.Run(name, func(t *testing.T) {
			if name == "npm" {
				testutil.RequireTool(t, "node")
			}
			rec, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: writeFiles(t, files)})
			if exit.Code == 0 {
				t.Errorf("exit %+v, want a failure", exit)
			}
			if tt, ok := adapterstest.TestByName(rec.Tests(), "divides"); !ok || tt.Status != report.TestFailed {
				t.Errorf("tests %+v, want divides failed", rec.Tests())
			}
		})
	}
}
