package bun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
)

// fixture is the bun project of the real tests; its package-lock.json
// pins bun, which `npm ci` installs into its node_modules.
func fixture(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("testdata/fixtures/basic")
	if err != nil {
		t.Fatal(err)
	}
	adapterstest.NpmCI(t, root)
	return root
}

// project makes a bun project in a temporary directory from files,
// sharing the fixture's installed bun.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	fx := fixture(t)
	root := t.TempDir()
	if err := os.Symlink(filepath.Join(fx, "node_modules"), filepath.Join(root, "node_modules")); err != nil {
		t.Fatal(err)
	}
	files["package.json"] = `{"scripts": {"test": "bun test"}, "devDependencies": {"bun": "1.4.5"}}`
	adapterstest.WriteFiles(t, root, files)
	return root
}

func normalise(root string, rec *adapters.Recorder, out adapters.Outcome) adapterstest.Result {
	return adapterstest.Normalise(rec, out, func(s string) string { return strings.ReplaceAll(s, root, "/project") })
}

func TestBunReal(t *testing.T) {
	root := fixture(t)
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if exit.Code != 1 {
		t.Errorf("exit %+v, want 1", exit)
	}
	tests := rec.Tests()
	want := map[string]report.TestStatus{
		"math > adds": report.TestPassed, "math > multiplies": report.TestFailed, "math > divides later": report.TestSkipped,
		"math > subtracts": report.TestSkipped, "throws": report.TestFailed, "parses a number": report.TestPassed, "stores and loads": report.TestPassed,
	}
	if len(tests) != len(want) {
		t.Errorf("%d tests, want %d: %+v", len(tests), len(want), tests)
	}
	for name, st := range want {
		if tt, ok := adapterstest.TestByName(tests, name); !ok || tt.Status != st {
			t.Errorf("%s: %+v, want %s", name, tt, st)
		}
	}
	mul, _ := adapterstest.TestByName(tests, "math > multiplies")
	if f := mul.Failure; f == nil || f.File != "math.test.ts" || f.Line != 8 || !strings.Contains(f.Message, "Expected: 10\nReceived: 9") ||
		f.Rerun != `./node_modules/.bin/bun test ./math.test.ts -t '^math (?:> )?multiplies$'` {
		t.Errorf("multiplies failed with %+v, want math.test.ts:8, the matcher's message and a rerun", f)
	}
	thr, _ := adapterstest.TestByName(tests, "throws")
	if f := thr.Failure; f == nil || f.Line != 15 || f.Message != "Error: boom" {
		t.Errorf("throws failed with %+v, want math.test.ts:15 Error: boom", f)
	}
	if out.BuildFailed || out.NoTests || out.Hint != "" {
		t.Errorf("outcome %+v", out)
	}
	adapterstest.Golden(t, "basic-all", normalise(root, rec, out))
}

// TestBunRerun runs a failure's rerun selection: that test alone, though
// bun's report lists every other test as skipped.
func TestBunRerun(t *testing.T) {
	root := fixture(t)
	for _, tc := range []struct{ test, name string }{
		{"math > multiplies", "math > multiplies"},
		{"math.test.ts > math > adds", "math > adds"},
		{"throws", "throws"},
	} {
		rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: tc.test})
		if tests := rec.Tests(); len(tests) != 1 || tests[0].Name != tc.name {
			t.Errorf("test %q ran %+v, want %q alone", tc.test, tests, tc.name)
		}
	}
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "math > nothing"})
	if len(rec.Tests()) != 0 || !out.NoTests || !strings.Contains(out.Hint, "no test matched") {
		t.Errorf("an unknown test: %+v %+v, want no tests", rec.Tests(), out)
	}
}

func TestBunLevels(t *testing.T) {
	root := fixture(t)
	for level, name := range map[adapters.Level]string{adapters.LevelUnit: "parses a number", adapters.LevelIntegration: "stores and loads"} {
		rec, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Level: level})
		if tests := rec.Tests(); len(tests) != 1 || tests[0].Name != name || exit.Code != 0 {
			t.Errorf("level %s ran %+v (exit %+v), want %q alone", level, tests, exit, name)
		}
	}
	if _, err := New().Plan(t.Context(), adapters.Request{ProjectRoot: root, Level: adapters.LevelE2E}, adapters.NewRecorder()); !adapters.IsUsage(err) {
		t.Errorf("a level with no directory: %v, want a usage error", err)
	}
}

// TestBunLoadErrors: a test file with a syntax error and one whose
// import is missing are build errors at their file:line; the other
// file's tests still run.
func TestBunLoadErrors(t *testing.T) {
	root := project(t, map[string]string{
		"syntax.test.ts": "import { test } from \"bun:test\";\ntest(\"x\", () => {\n  const a = ;\n});\n",
		"import.test.ts": "import { missing } from \"./nope\";\nimport { test } from \"bun:test\";\ntest(\"never\", () => { missing(); });\n",
		"ok.test.ts":     "import { test, expect } from \"bun:test\";\ntest(\"fine\", () => { expect(1).toBe(1); });\n",
	})
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if !out.BuildFailed || len(out.BuildErrors) != 2 {
		t.Fatalf("outcome %+v, want two build errors", out)
	}
	byFile := map[string]report.BuildError{}
	for _, e := range out.BuildErrors {
		byFile[e.File] = e
	}
	if e := byFile["syntax.test.ts"]; e.Line != 3 || e.Message != "Unexpected ;" {
		t.Errorf("syntax error: %+v", e)
	}
	if e := byFile["import.test.ts"]; !strings.Contains(e.Message, "Cannot find module './nope'") {
		t.Errorf("missing import: %+v", e)
	}
	if tt, ok := adapterstest.TestByName(rec.Tests(), "fine"); !ok || tt.Status != report.TestPassed {
		t.Errorf("the loadable file's test: %+v", rec.Tests())
	}
}

func TestBunNoTests(t *testing.T) {
	root := project(t, map[string]string{"index.ts": "export const x = 1;\n"})
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if len(rec.Tests()) != 0 || !out.NoTests || !strings.Contains(out.Hint, "found no test files") {
		t.Errorf("%+v %+v, want no tests", rec.Tests(), out)
	}
}

func TestBunNotInstalled(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "package.json"), []byte(`{"scripts": {"test": "bun test"}, "devDependencies": {"bun": "1.4.5"}}`), 0o644)
	os.WriteFile(filepath.Join(root, "package-lock.json"), []byte(`{}`), 0o644)
	_, err := New().Plan(t.Context(), adapters.Request{ProjectRoot: root, Env: []string{"PATH=" + t.TempDir()}}, adapters.NewRecorder())
	u, ok := err.(*adapters.UsageError)
	if !ok || u.Framework != "bun" || !strings.Contains(u.Hint, "`npm ci`") {
		t.Errorf("%v, want a usage error that says to run npm ci", err)
	}
}

func TestBunDetect(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   map[string]string
		command []string
		want    int
	}{
		{"command", nil, []string{"bun", "test", "--bail"}, 95},
		{"another command", nil, []string{"bun", "run", "build"}, 0},
		{"test script", map[string]string{"package.json": `{"scripts":{"test":"bun test --coverage"}}`}, nil, 90},
		{"bunfig", map[string]string{"bunfig.toml": "[test]\n"}, nil, 80},
		{"lockfile", map[string]string{"bun.lock": "{}"}, nil, 60},
		{"binary lockfile", map[string]string{"bun.lockb": ""}, nil, 60},
		{"npm's placeholder", map[string]string{"package.json": `{"scripts":{"test":"echo \"Error: no test specified\" && exit 1"}}`}, nil, 0},
		{"nothing", nil, nil, 0},
	} {
		root := t.TempDir()
		for name, text := range tc.files {
			os.WriteFile(filepath.Join(root, name), []byte(text), 0o644)
		}
		if got := New().Detect(adapters.Request{ProjectRoot: root, Command: tc.command}); got.Confidence != tc.want {
			t.Errorf("%s: confidence %d, want %d", tc.name, got.Confidence, tc.want)
		}
	}
}

// TestBunCrash: a test that aborts kills bun (SIGABRT) before it writes
// its report; the tests that ended before stay recorded, and nothing is
// taken for no tests or a build error (the runner names the crash).
func TestBunCrash(t *testing.T) {
	root := project(t, map[string]string{"crash.test.ts": "import { test, expect } from \"bun:test\";\ntest(\"fine\", () => { expect(1).toBe(1); });\ntest(\"aborts\", () => { process.abort(); });\n"})
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if !exit.Signaled || exit.Signal != 6 {
		t.Errorf("exit %+v, want SIGABRT", exit)
	}
	if tt, ok := adapterstest.TestByName(rec.Tests(), "fine"); !ok || tt.Status != report.TestPassed {
		t.Errorf("tests %+v, want fine passed", rec.Tests())
	}
	if out.NoTests || out.BuildFailed {
		t.Errorf("outcome %+v", out)
	}
}

// TestBunBannerIsNoOutput: bun's banner comes on stdout, its results on
// stderr, read apart; a banner read after a file's header is not the first
// test's output (CI saw it so once).
func TestBunBannerIsNoOutput(t *testing.T) {
	rec := adapters.NewRecorder()
	p := newParser(rec, adapters.Request{ProjectRoot: t.TempDir()}, t.TempDir(), "bun test")
	for _, l := range []struct {
		s    adapters.Stream
		line string
	}{
		{adapters.Stderr, "math.test.ts:"},
		{adapters.Stdout, "bun test v1.4.5 (a7733435c)"},
		{adapters.Stderr, "(pass) math > adds [0.12ms]"},
	} {
		p.Line(l.s, []byte(l.line), false)
	}
	tt, ok := adapterstest.TestByName(rec.Tests(), "math > adds")
	if !ok || tt.Output != "" {
		t.Errorf("math > adds: %+v, want it without output", tt)
	}
}
