package deno

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
)

// fixture is the deno project of the real tests; its package-lock.json
// pins deno, which `npm ci` installs into its node_modules.
func fixture(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("testdata/fixtures/basic")
	if err != nil {
		t.Fatal(err)
	}
	adapterstest.NpmCI(t, root)
	return root
}

// project makes a deno project in a temporary directory from files,
// run with the fixture's installed deno.
func project(t *testing.T, files map[string]string) (root string, command []string) {
	t.Helper()
	bin := filepath.Join(fixture(t), "node_modules", ".bin", "deno")
	root = t.TempDir()
	files["deno.json"] = "{}"
	adapterstest.WriteFiles(t, root, files)
	return root, []string{bin, "test"}
}

func normalise(root string, rec *adapters.Recorder, out adapters.Outcome) adapterstest.Result {
	return adapterstest.Normalise(rec, out, func(s string) string { return strings.ReplaceAll(s, root, "/project") })
}

func TestDenoReal(t *testing.T) {
	root := fixture(t)
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if exit.Code != 1 {
		t.Errorf("exit %+v, want 1", exit)
	}
	tests := rec.Tests()
	want := map[string]report.TestStatus{
		"adds": report.TestPassed, "multiplies": report.TestFailed, "divides later": report.TestSkipped, "throws": report.TestFailed,
		"group": report.TestFailed, "group > inner passes": report.TestPassed, "group > inner fails": report.TestFailed,
		"parses a number": report.TestPassed, "stores and loads": report.TestPassed,
	}
	if len(tests) != len(want) {
		t.Errorf("%d tests, want %d: %+v", len(tests), len(want), tests)
	}
	for name, st := range want {
		if tt, ok := adapterstest.TestByName(tests, name); !ok || tt.Status != st {
			t.Errorf("%s: %+v, want %s", name, tt, st)
		}
	}
	mul, _ := adapterstest.TestByName(tests, "multiplies")
	if f := mul.Failure; f == nil || f.File != "math_test.ts" || f.Line != 8 || !strings.Contains(f.Message, "actual: 9\n  expected: 10") ||
		f.Rerun != `./node_modules/.bin/deno test ./math_test.ts --filter '/^multiplies$/'` {
		t.Errorf("multiplies failed with %+v, want math_test.ts:8 (not the helper's frame), the message and a rerun", f)
	}
	step, _ := adapterstest.TestByName(tests, "group > inner fails")
	if f := step.Failure; f == nil || f.Line != 20 || !strings.Contains(f.Rerun, `'/^group$/'`) {
		t.Errorf("the step failed with %+v, want math_test.ts:20 and a rerun of its test", f)
	}
	if g, _ := adapterstest.TestByName(tests, "group"); g.Failure != nil {
		t.Errorf("a test that failed through its step is listed: %+v", g.Failure)
	}
	if st, _ := adapterstest.TestByName(tests, "stores and loads"); st.Output != "stored a\n" {
		t.Errorf("the test's output: %q", st.Output)
	}
	if out.BuildFailed || out.NoTests || out.Hint != "" {
		t.Errorf("outcome %+v", out)
	}
	adapterstest.Golden(t, "basic-all", normalise(root, rec, out))
}

// TestDenoRerun runs failures' rerun selections: the filtered-out tests
// deno lists as skipped are not recorded.
func TestDenoRerun(t *testing.T) {
	root := fixture(t)
	for _, tc := range []struct {
		test  string
		names []string
	}{
		{"multiplies", []string{"multiplies"}},
		{"math_test.ts > adds", []string{"adds"}},
		{"group > inner fails", []string{"group", "group > inner passes", "group > inner fails"}},
	} {
		rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: tc.test})
		var got []string
		for _, tt := range rec.Tests() {
			got = append(got, tt.Name)
		}
		if strings.Join(got, "|") != strings.Join(tc.names, "|") {
			t.Errorf("test %q ran %q, want %q", tc.test, got, tc.names)
		}
	}
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "nothing"})
	if len(rec.Tests()) != 0 || !out.NoTests || !strings.Contains(out.Hint, "no test matched") {
		t.Errorf("an unknown test: %+v %+v, want no tests", rec.Tests(), out)
	}
}

func TestDenoLevels(t *testing.T) {
	root := fixture(t)
	for level, name := range map[adapters.Level]string{adapters.LevelUnit: "parses a number", adapters.LevelIntegration: "stores and loads"} {
		rec, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Level: level})
		if tests := rec.Tests(); len(tests) != 1 || tests[0].Name != name || exit.Code != 0 {
			t.Errorf("level %s ran %+v (exit %+v), want %q alone", level, tests, exit, name)
		}
	}
}

// TestDenoBuildErrors: a type error and a missing module are build
// errors at their file:line.
func TestDenoBuildErrors(t *testing.T) {
	root, cmd := project(t, map[string]string{
		"bad_test.ts": "Deno.test(\"typed\", () => {\n  const n: number = \"x\";\n});\n",
		"imp_test.ts": "import { x } from \"./nope.ts\";\nDeno.test(\"imp\", () => { x(); });\n",
	})
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: cmd})
	if !out.BuildFailed || len(out.BuildErrors) != 2 || len(rec.Tests()) != 0 {
		t.Fatalf("outcome %+v, tests %+v; want two build errors", out, rec.Tests())
	}
	byFile := map[string]report.BuildError{}
	for _, e := range out.BuildErrors {
		byFile[e.File] = e
	}
	if e := byFile["bad_test.ts"]; e.Line != 2 || e.Column != 9 || !strings.Contains(e.Message, "not assignable to type 'number'") {
		t.Errorf("type error: %+v", e)
	}
	if e := byFile["imp_test.ts"]; e.Line != 1 || !strings.Contains(e.Message, "Cannot find module") {
		t.Errorf("missing module: %+v", e)
	}
	// Without the type check, the loader's error.
	rec, out, _ = adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: append(cmd, "--no-check", "imp_test.ts")})
	if !out.BuildFailed || len(out.BuildErrors) != 1 || out.BuildErrors[0].File != "imp_test.ts" || !strings.Contains(out.BuildErrors[0].Message, "Module not found") {
		t.Errorf("--no-check: %+v", out)
	}
}

func TestDenoNoTests(t *testing.T) {
	root, cmd := project(t, map[string]string{"main.ts": "export const x = 1;\n"})
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: cmd})
	if len(rec.Tests()) != 0 || !out.NoTests || !strings.Contains(out.Hint, "no test modules") {
		t.Errorf("%+v %+v, want no tests", rec.Tests(), out)
	}
}

func TestDenoNotInstalled(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "deno.json"), []byte(`{}`), 0o644)
	_, err := New().Plan(t.Context(), adapters.Request{ProjectRoot: root, Env: []string{"PATH=" + t.TempDir()}}, adapters.NewRecorder())
	u, ok := err.(*adapters.UsageError)
	if !ok || u.Framework != "deno" || !strings.Contains(u.Hint, "install deno") {
		t.Errorf("%v, want a usage error that says how to install deno", err)
	}
}

func TestDenoDetect(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   map[string]string
		command []string
		want    int
	}{
		{"command", nil, []string{"deno", "test", "-A"}, 95},
		{"another command", nil, []string{"deno", "run", "main.ts"}, 0},
		{"deno.json", map[string]string{"deno.json": "{}"}, nil, 90},
		{"deno.jsonc", map[string]string{"deno.jsonc": "{}"}, nil, 90},
		{"test script", map[string]string{"package.json": `{"scripts":{"test":"deno test -A"}}`}, nil, 85},
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

// TestDenoCrash: a test that aborts kills deno (SIGABRT); the test that
// ended is recorded and the one that was running stays running, named by
// deno's "aborts ..." (the runner names it in the crash).
func TestDenoCrash(t *testing.T) {
	root, cmd := project(t, map[string]string{"crash_test.ts": "Deno.test(\"fine\", () => {});\nDeno.test(\"aborts\", () => { (globalThis as any).process.abort(); });\n"})
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: cmd})
	if !exit.Signaled || exit.Signal != 6 {
		t.Errorf("exit %+v, want SIGABRT", exit)
	}
	if tt, ok := adapterstest.TestByName(rec.Tests(), "fine"); !ok || tt.Status != report.TestPassed {
		t.Errorf("tests %+v, want fine passed", rec.Tests())
	}
	if r := rec.Running("crash_test.ts"); len(r) != 1 || r[0] != "aborts" {
		t.Errorf("running %q, want aborts", r)
	}
	if out.NoTests || out.BuildFailed {
		t.Errorf("outcome %+v", out)
	}
}
