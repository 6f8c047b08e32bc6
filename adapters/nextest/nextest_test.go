package nextest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
)

func TestDetect(t *testing.T) {
	withConfig := t.TempDir()
	adapterstest.WriteFiles(t, withConfig, map[string]string{"Cargo.toml": "[package]\nname = \"a\"\n", ".config/nextest.toml": "[profile.default]\n"})
	member := filepath.Join(t.TempDir(), "ws")
	adapterstest.WriteFiles(t, member, map[string]string{"Cargo.toml": "[workspace]\nmembers = [\"m\"]\n", ".config/nextest.toml": "", "m/Cargo.toml": "[package]\nname = \"m\"\n"})
	plain := t.TempDir()
	adapterstest.WriteFiles(t, plain, map[string]string{"Cargo.toml": "[package]\nname = \"a\"\n"})
	for _, tc := range []struct {
		name    string
		root    string
		command []string
		want    int
	}{
		{"nextest.toml", withConfig, nil, 92},
		{"workspace member, config at the root", filepath.Join(member, "m"), nil, 92},
		{"Cargo.toml alone is cargo's", plain, nil, 0},
		{"cargo nextest run", plain, []string{"cargo", "nextest", "run", "--release"}, 95},
		{"toolchain", plain, []string{"cargo", "+nightly", "nextest", "run"}, 95},
		{"cargo test is cargo's", withConfig, []string{"cargo", "test"}, 0},
		{"cargo nextest list", withConfig, []string{"cargo", "nextest", "list"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := New().Detect(adapters.Request{ProjectRoot: tc.root, Command: tc.command}); got.Confidence != tc.want {
				t.Errorf("confidence %d (%s), want %d", got.Confidence, got.Hint, tc.want)
			}
		})
	}
}

// fakeNextest puts a cargo-nextest on a PATH of its own, for plans that
// need it installed and run nothing.
func fakeNextest(t *testing.T) []string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cargo-nextest"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return []string{"PATH=" + dir, "HOME=" + t.TempDir()}
}

func TestPlan(t *testing.T) {
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{"Cargo.toml": "[package]\nname = \"a\"\n"})
	env := fakeNextest(t)
	const added = " --message-format libtest-json-plus --status-level skip --success-output immediate"
	base := "cargo nextest run --no-fail-fast" + added
	for _, tc := range []struct {
		name    string
		req     adapters.Request
		want    string
		wantErr string
	}{
		{"whole suite", adapters.Request{}, base, ""},
		{"unit", adapters.Request{Level: adapters.LevelUnit}, base + " -E kind(lib) | kind(bin) | kind(proc-macro)", ""},
		{"integration", adapters.Request{Level: adapters.LevelIntegration}, base + " -E kind(test) & !binary(/^e2e/)", ""},
		{"e2e", adapters.Request{Level: adapters.LevelE2E}, base + " -E kind(test) & binary(/^e2e/)", ""},
		{"one test", adapters.Request{Test: "tests::adds"}, base + " -E test(=tests::adds)", ""},
		{"one test by its full name", adapters.Request{Test: "a::it$adds"}, base + " -E binary_id(a::it) & test(=adds)", ""},
		{"one test as nextest prints it", adapters.Request{Test: "a::it adds"}, base + " -E binary_id(a::it) & test(=adds)", ""},
		{"a harness's test with spaces", adapters.Request{Test: "parses empty input"}, base + " -E test(=parses empty input)", ""},
		{"a test in a level", adapters.Request{Level: adapters.LevelUnit, Test: "adds"}, base + " -E (kind(lib) | kind(bin) | kind(proc-macro)) & test(=adds)", ""},
		{"a command's flags kept, the format replaced", adapters.Request{Command: []string{"cargo", "nextest", "run", "--release", "--message-format", "human", "--fail-fast", "--", "--ignored"}},
			"cargo nextest run --release --no-fail-fast" + added + " -- --ignored", ""},
		// A passing test's output under its PASS line tells one that
		// exited 0 before libtest's end: the command's own success output
		// gives way, and a level that hides PASS lines shows none.
		{"a command's success output replaced", adapters.Request{Command: []string{"cargo", "nextest", "run", "--success-output", "never", "--status-level=all"}},
			"cargo nextest run --status-level=all --no-fail-fast --message-format libtest-json-plus --success-output immediate", ""},
		{"a level without PASS lines", adapters.Request{Command: []string{"cargo", "nextest", "run", "--status-level", "fail", "--success-output=final"}},
			"cargo nextest run --status-level fail --success-output=final --no-fail-fast --message-format libtest-json-plus", ""},
		{"a filterset and a test", adapters.Request{Command: []string{"cargo", "nextest", "run", "-E", "package(a)"}, Test: "adds"}, "", "already has a filterset"},
		{"target flags and a level", adapters.Request{Command: []string{"cargo", "nextest", "run", "--lib"}, Level: adapters.LevelUnit}, "", "already selects test binaries"},
		{"not nextest", adapters.Request{Command: []string{"cargo", "test"}}, "", "--framework generic"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := tc.req
			req.ProjectRoot, req.Env = root, env
			plan, err := New().Plan(context.Background(), req, adapters.NewRecorder())
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !adapters.IsUsage(err) {
					t.Fatalf("err = %v, want a usage error with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(plan.Argv, " "); got != tc.want {
				t.Errorf("argv\n got %s\nwant %s", got, tc.want)
			}
			if !slices.Contains(plan.Env, "NEXTEST_EXPERIMENTAL_LIBTEST_JSON=1") {
				t.Errorf("env %v lacks the libtest-json switch", plan.Env)
			}
			// The answer's command: nextest refuses libtest's JSON
			// without strobe's environment, pasted.
			want := strings.Replace(tc.want, added, "", 1)
			want = strings.Replace(strings.Replace(want, " --message-format libtest-json-plus", "", 1), " --success-output immediate", "", 1)
			if strings.ReplaceAll(plan.Shown, "'", "") != want {
				t.Errorf("shown\n got %s\nwant %s", plan.Shown, want)
			}
		})
	}
}

// TestRealShownCommand: the answer's command, pasted, ran nextest with
// libtest's JSON, which it refuses without strobe's environment. It is
// the command a person types, which runs the same test.
func TestRealShownCommand(t *testing.T) {
	dir := fixture(t)
	cmd, out := adapterstest.PasteShown(t, New(), adapters.Request{ProjectRoot: dir, Test: "tests::adds"})
	if cmd != "cargo nextest run --no-fail-fast -E 'test(=tests::adds)'" || !strings.Contains(string(out), "1 test run: 1 passed") {
		t.Errorf("%s:\n%s\nwant nextest's run of tests::adds", cmd, out)
	}
}

// TestLevelWithoutE2E: nextest refuses a filterset whose binary() matches
// no binary, so a crate without tests/e2e*.rs ran no integration test
// ("failed to parse filterset"). Its integration level is every test
// target, run here by the real nextest; its e2e level, and integration in
// a crate without tests/, say what the level holds.
func TestLevelWithoutE2E(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	testutil.RequireTool(t, "cargo-nextest")
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"Cargo.toml":  "[package]\nname = \"lv\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"src/lib.rs":  "pub fn two() -> u32 { 2 }\n#[test]\nfn unit() {}\n",
		"tests/it.rs": "#[test]\nfn integration() { assert_eq!(lv::two(), 2); }\n",
	})
	plan, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: root, Level: adapters.LevelIntegration}, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.Index(plan.Argv, "-E"); i < 0 || plan.Argv[i+1] != "kind(test)" {
		t.Fatalf("argv %q, want the filterset kind(test)", plan.Argv)
	}
	cmd := exec.Command(plan.Argv[0], plan.Argv[1:]...)
	cmd.Dir, cmd.Env = root, append(os.Environ(), plan.Env...)
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte(`"name":"lv::it$integration"`)) || bytes.Contains(out, []byte("$unit")) {
		t.Errorf("%s: %v, want the integration test alone:\n%s", plan.Argv, err, out)
	}
	_, err = New().Plan(context.Background(), adapters.Request{ProjectRoot: root, Level: adapters.LevelE2E}, adapters.NewRecorder())
	if !adapters.IsUsage(err) || !strings.Contains(err.Error(), "no e2e tests in") {
		t.Errorf("e2e: %v, want a usage error saying what e2e tests are", err)
	}
	os.RemoveAll(filepath.Join(root, "tests"))
	_, err = New().Plan(context.Background(), adapters.Request{ProjectRoot: root, Level: adapters.LevelIntegration}, adapters.NewRecorder())
	if !adapters.IsUsage(err) || !strings.Contains(err.Error(), "no integration tests in") {
		t.Errorf("integration without tests/: %v, want a usage error", err)
	}
}

// TestNotInstalled: nextest asked for and missing is an error that names
// the framework and the command that installs it.
func TestNotInstalled(t *testing.T) {
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{"Cargo.toml": "[package]\nname = \"a\"\n"})
	_, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: root, Env: []string{"PATH=" + t.TempDir(), "HOME=" + t.TempDir()}}, adapters.NewRecorder())
	u, ok := err.(*adapters.UsageError)
	if !ok || u.Framework != "nextest" || !strings.Contains(u.Hint, "cargo install cargo-nextest --locked") {
		t.Fatalf("err = %#v, want a usage error naming nextest and its install command", err)
	}
}

func TestDocExamples(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{"Cargo.toml": "[package]\nname = \"a\"\n", "src/lib.rs": "//! Docs.\n\n/// ```\n/// assert!(true);\n/// ```\npub fn f() {}\n"})
	if got := docExamples(cargoMetadata(t.Context(), []string{"cargo"}, root, nil, nil), root, nil); got != "src/lib.rs" {
		t.Errorf("docExamples = %q, want src/lib.rs", got)
	}
	adapterstest.WriteFiles(t, root, map[string]string{"Cargo.toml": "[package]\nname = \"a\"\n\n[lib]\ndoctest = false\n"})
	if got := docExamples(cargoMetadata(t.Context(), []string{"cargo"}, root, nil, nil), root, nil); got != "" {
		t.Errorf("docExamples with doctest = false = %q, want none", got)
	}
	bin := t.TempDir()
	adapterstest.WriteFiles(t, bin, map[string]string{"Cargo.toml": "[package]\nname = \"a\"\n", "src/main.rs": "/// ```\n/// x\n/// ```\nfn main() {}\n"})
	if got := docExamples(cargoMetadata(t.Context(), []string{"cargo"}, bin, nil, nil), bin, nil); got != "" {
		t.Errorf("docExamples of a binary crate = %q, want none (cargo runs no doctests there)", got)
	}
}

// TestDocExamplesOfTheRun: the doctest hint names a file of a crate the
// run covers only, as cargo selects them: not a crate the workspace
// excludes, nor one --exclude leaves out or -p does not name.
func TestDocExamplesOfTheRun(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	testutil.RequireTool(t, "cargo-nextest")
	root := t.TempDir()
	doc := "/// ```\n/// assert!(true);\n/// ```\npub fn f() {}\n"
	adapterstest.WriteFiles(t, root, map[string]string{
		"Cargo.toml":     "[workspace]\nmembers = [\"a\", \"b\"]\nexclude = [\"c\", \"a/d\"]\n",
		"a/Cargo.toml":   "[package]\nname = \"a\"\n",
		"a/src/lib.rs":   "pub fn f() {}\n",
		"b/Cargo.toml":   "[package]\nname = \"b\"\n",
		"b/src/lib.rs":   doc,
		"c/Cargo.toml":   "[package]\nname = \"c\"\n",
		"c/src/lib.rs":   doc,
		"a/d/Cargo.toml": "[package]\nname = \"d\"\n",
		"a/d/src/lib.rs": doc,
	})
	for _, tc := range []struct {
		dir  string
		args []string
		want string
		cmd  string // the cargo test --doc the hint gives
	}{
		{"", nil, "b/src/lib.rs", "cargo test --doc"},
		{"", []string{"--workspace", "--exclude", "b"}, "", ""},
		{"", []string{"-p", "a"}, "", ""},
		{"", []string{"--package=b*", "--release", "--profile", "ci"}, "b/src/lib.rs", "cargo test --doc '--package=b*' --release"},
		{"", []string{"--workspace", "--exclude", "a", "--cargo-profile", "dev"}, "b/src/lib.rs", "cargo test --doc --workspace --exclude a --profile dev"},
		{"a", nil, "", ""}, // a/d is a crate of its own
		{"b", nil, "src/lib.rs", "cargo test --doc"},
	} {
		req := adapters.Request{ProjectRoot: filepath.Join(root, tc.dir), Command: append([]string{"cargo", "nextest", "run"}, tc.args...)}
		plan, err := New().Plan(t.Context(), req, adapters.NewRecorder())
		if err != nil {
			t.Fatal(err)
		}
		p := plan.Parser.(*parser)
		if got := p.docs.Wait(); got != tc.want {
			t.Errorf("%q in %q: the hint names %q, want %q", tc.args, tc.dir, got, tc.want)
		}
		if tc.want != "" && p.docCmd != tc.cmd {
			t.Errorf("%q in %q: the hint's command is %q, want %q", tc.args, tc.dir, p.docCmd, tc.cmd)
		}
	}

	// Pasted, the command runs the doctests of the packages the run
	// tested: b's, not a's (a run of -p b at the root; plain cargo test
	// --doc there runs every default member's).
	plan, err := New().Plan(t.Context(), adapters.Request{ProjectRoot: root, Command: []string{"cargo", "nextest", "run", "-p", "b"}}, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", plan.Parser.(*parser).docCmd)
	cmd.Dir = root
	b, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(b, []byte("Doc-tests b")) || bytes.Contains(b, []byte("Doc-tests a")) {
		t.Errorf("the hint's command ran (%v):\n%s", err, b)
	}
}

// fixture is the crate every real run uses, in place, as the cargo
// adapter's tests use theirs: its target/ is ignored by git.
func fixture(t *testing.T) string {
	testutil.RequireTool(t, "cargo")
	testutil.RequireTool(t, "cargo-nextest")
	if testing.Short() {
		t.Skip("runs cargo nextest")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "fixtures", "ntdemo"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReal runs the fixture's whole suite with the real cargo-nextest.
func TestReal(t *testing.T) {
	dir := fixture(t)
	// The flaky test fails on every first try: start its count anew.
	os.Remove(filepath.Join(dir, "target", "tmp", "ntdemo-flaky-count"))
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir})
	if exit.Code != 100 {
		t.Errorf("exit %d, want nextest's 100 for failed tests", exit.Code)
	}
	tests := rec.Tests()
	for name, want := range map[string]report.TestStatus{
		"tests::adds": report.TestPassed, "tests::halves": report.TestFailed, "tests::ignored": report.TestSkipped,
		"smoke": report.TestPassed, "passes": report.TestPassed, "panics": report.TestFailed, "segfault": report.TestFailed,
		"aborts": report.TestFailed, "flaky": report.TestPassed, "slow": report.TestPassed, "deadlock": report.TestFailed,
	} {
		if got, ok := adapterstest.TestByName(tests, name); !ok || got.Status != want {
			t.Errorf("%s: %q (recorded: %v), want %s", name, got.Status, ok, want)
		}
	}
	if got, _ := adapterstest.TestByName(tests, "panics"); got.Failure == nil || got.Failure.File != "tests/integration.rs" || got.Failure.Line != 13 ||
		got.Failure.Message != "boom: the list is empty" || got.Suite != "ntdemo::integration" {
		t.Errorf("panics: %+v", got)
	}
	if got, _ := adapterstest.TestByName(tests, "deadlock"); got.Failure == nil || !strings.HasPrefix(got.Failure.Message, "timed out: nextest's slow-timeout") {
		t.Errorf("deadlock: %+v", got.Failure)
	}
	if c := out.Crash; c == nil || c.SignalName != "SIGABRT" || !slices.Equal(c.RunningTests, []string{"aborts", "segfault"}) || !strings.Contains(c.Message, "SIGSEGV") {
		t.Errorf("crash = %+v, want SIGABRT then SIGSEGV, naming their tests", c)
	}
	if len(out.Flaky) != 1 || out.Flaky[0].Name != "flaky" || out.Flaky[0].Attempts != 2 {
		t.Errorf("flaky = %+v, want the flaky test, passed on its second try", out.Flaky)
	}
	if !strings.Contains(out.Hint, "nextest does not run doctests, and src/lib.rs has documentation examples") {
		t.Errorf("hint %q does not say the doctests were left out", out.Hint)
	}
}

// TestRealSelection runs levels and single tests with the real nextest. A
// single test's run records no other test: nextest starts, then skips, the
// ignored tests of the binaries it runs (anyhow's --test test_iter said
// "2 skipped"); the ignored test asked for is recorded skipped, and its
// hint is not "no test is named so".
func TestRealSelection(t *testing.T) {
	dir := fixture(t)
	for _, tc := range []struct {
		name  string
		req   adapters.Request
		tests []string
		code  int
	}{
		{"unit", adapters.Request{Level: adapters.LevelUnit}, []string{"tests::adds", "tests::halves", "tests::ignored"}, 100},
		{"e2e", adapters.Request{Level: adapters.LevelE2E}, []string{"smoke"}, 0},
		{"one test", adapters.Request{Test: "tests::adds"}, []string{"tests::adds"}, 0},
		{"one test by its full name", adapters.Request{Test: "ntdemo::integration$passes"}, []string{"passes"}, 0},
		// As nextest prints it (`PASS [0.01s] ntdemo::integration passes`):
		// it was no test's name.
		{"one test as nextest prints it", adapters.Request{Test: "ntdemo::integration passes"}, []string{"passes"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := tc.req
			req.ProjectRoot = dir
			rec, out, exit := adapterstest.RunReal(t, New(), req)
			var names []string
			for _, r := range rec.Tests() {
				names = append(names, r.Name)
			}
			slices.Sort(names)
			if !slices.Equal(names, tc.tests) || exit.Code != tc.code || out.NoTests {
				t.Errorf("tests %v, exit %d (no tests: %v); want %v, exit %d", names, exit.Code, out.NoTests, tc.tests, tc.code)
			}
			if strings.Contains(out.Hint, "doctests") {
				t.Errorf("a selection's hint speaks of doctests: %q", out.Hint)
			}
		})
	}
	t.Run("an ignored test", func(t *testing.T) {
		rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir, Test: "tests::ignored"})
		if p := rec.Progress(); p.Skipped != 1 || p.Passed+p.Failed != 0 || strings.Contains(out.Hint, "no test is named") {
			t.Errorf("progress %+v, hint %q: want the ignored test skipped, and no word that it does not exist", p, out.Hint)
		}
	})
	t.Run("no such test", func(t *testing.T) {
		_, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir, Test: "no_such_test"})
		if !out.NoTests || !out.ExitExplained || exit.Code != 4 || !strings.Contains(out.Hint, `"no_such_test"`) {
			t.Errorf("outcome %+v, exit %d: want no tests, explained, naming the test", out, exit.Code)
		}
	})
}

// TestRealBroken: a compile error is a build failure at rustc's file:line.
func TestRealBroken(t *testing.T) {
	out := brokenRun(t, "a + b", "a + c")
	if e := out.BuildErrors[0]; e.File != "src/lib.rs" || e.Line != 10 || e.Column != 9 || !strings.HasPrefix(e.Message, "cannot find value `c`") {
		t.Errorf("build error %+v", e)
	}
}

// TestRealBrokenLabel: the error's message has the label rustc puts
// under the code, as cargo's JSON gives it to the cargo adapter:
// "mismatched types" alone said neither type.
func TestRealBrokenLabel(t *testing.T) {
	out := brokenRun(t, "    a + b\n", "    let x: i32 = \"two\";\n    a + x\n")
	if e := out.BuildErrors[0]; e.File != "src/lib.rs" || e.Line != 10 || e.Column != 18 || e.Message != "mismatched types: expected `i32`, found `&str`" {
		t.Errorf("build error %+v", e)
	}
}

// TestRealExitsZero: a test that calls std::process::exit(0) ends its
// process with code 0, and nextest counts it passed (PASS, an "ok"
// event). Its output under the PASS line (--success-output immediate)
// has libtest's "running 1 test" and not the "test result:" line libtest
// ends a test with: it fails, at its declaration, with what it printed
// and its rerun; the test beside it that ends as tests do still passes.
func TestRealExitsZero(t *testing.T) {
	dir := t.TempDir()
	files := fixtureFiles(t)
	decl := strings.Count(files["tests/integration.rs"], "\n") + 3 // the fn line of what is appended
	files["tests/integration.rs"] += "\n#[test]\nfn exits_zero() {\n    println!(\"leaving early\");\n    std::process::exit(0);\n}\n"
	adapterstest.WriteFiles(t, dir, files)
	cmd := []string{"cargo", "nextest", "run", "--test", "integration", "-E", "test(=exits_zero) | test(=passes)"}
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir, Command: cmd})
	if exit.Code != 0 {
		t.Errorf("nextest exited %d; it counts exit(0) passed and exits 0", exit.Code)
	}
	got, ok := rec.Lookup("ntdemo::integration", "exits_zero")
	f := got.Failure
	if !ok || got.Status != report.TestFailed || f == nil || f.File != "tests/integration.rs" || f.Line != decl ||
		!strings.HasPrefix(f.Message, "the test process exited with code 0 before libtest's end") || !strings.Contains(f.Message, "std::process::exit") ||
		!strings.HasSuffix(f.Message, "It printed:\nleaving early") ||
		f.Rerun != "cargo nextest run -p ntdemo --test integration -E 'test(=exits_zero)'" {
		t.Errorf("exits_zero: %s, failure %+v; want failed at tests/integration.rs:%d, exited before libtest's end, with its rerun", got.Status, f, decl)
	}
	if got, _ := rec.Lookup("ntdemo::integration", "passes"); got.Status != report.TestPassed {
		t.Errorf("passes: %s, want passed", got.Status)
	}
	if !slices.Contains(out.Indicators, "test_exited_early") {
		t.Errorf("indicators %v lack test_exited_early", out.Indicators)
	}
}

// fixtureFiles are the fixture's sources by their paths, to be changed
// and written into a copy (its target directory left out).
func fixtureFiles(t *testing.T) map[string]string {
	t.Helper()
	src := fixture(t)
	files := map[string]string{}
	for _, f := range []string{"Cargo.toml", "Cargo.lock", ".config/nextest.toml", "src/lib.rs", "tests/integration.rs", "tests/e2e_smoke.rs"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = string(b)
	}
	return files
}

// brokenRun runs the fixture's e2e level in a copy whose src/lib.rs has
// old replaced by new, and wants a build failure.
func brokenRun(t *testing.T, old, new string) adapters.Outcome {
	dir := t.TempDir()
	files := fixtureFiles(t)
	files["src/lib.rs"] = strings.Replace(files["src/lib.rs"], old, new, 1)
	adapterstest.WriteFiles(t, dir, files)
	_, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir, Level: adapters.LevelE2E})
	if !out.BuildFailed || len(out.BuildErrors) == 0 || exit.Code != 101 {
		t.Fatalf("outcome %+v, exit %d: want a build failure", out, exit.Code)
	}
	return out
}

func TestHooks(t *testing.T) {
	a := nextest{}
	for _, tc := range []struct {
		proc    adapters.Proc
		test    bool
		harness bool // its thread tid 7, not its main thread
	}{
		{adapters.Proc{PID: 1, Name: "cargo", Exe: "/home/u/.rustup/toolchains/stable/bin/cargo"}, false, false},
		{adapters.Proc{PID: 2, Name: "cargo-nextest", Exe: "/home/u/.cargo/bin/cargo-nextest"}, false, true},
		{adapters.Proc{PID: 3, Name: "integration-68a", Exe: "/p/target/debug/deps/integration-68a8ebb5a217d350"}, true, false},
		{adapters.Proc{PID: 4, Name: "build-script-bu", Exe: "/p/target/debug/build/x-1/build-script-build"}, false, false},
		{adapters.Proc{PID: 5, Name: "rustc", Exe: "/x/rustc"}, false, false},
	} {
		if got := a.IsTestProcess(tc.proc); got != tc.test {
			t.Errorf("IsTestProcess(%s) = %v, want %v", tc.proc.Name, got, tc.test)
		}
		if got := a.IsHarnessThread(tc.proc, 7, "t"); got != tc.harness {
			t.Errorf("IsHarnessThread(%s, another thread) = %v, want %v", tc.proc.Name, got, tc.harness)
		}
		if !a.IsHarnessThread(tc.proc, tc.proc.PID, "main") {
			t.Errorf("IsHarnessThread(%s, main thread) = false", tc.proc.Name)
		}
	}
}

// TestRealQuotedNames: nextest writes test names unescaped in its JSON
// events, so a harness's name holding a double quote made lines no JSON
// decoder reads, and those tests went unrecorded: rust-url's data-url, 1,113
// tests, answered 19 passed where nextest ran 1,132. A name holding ")" or
// "," ended the filterset's matcher in its rerun: nextest refused the
// expression.
func TestRealQuotedNames(t *testing.T) {
	fixture(t) // requires cargo-nextest
	dir := adapterstest.CopyFixture(t, "quoted")
	rec, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir})
	if exit.Code != 100 {
		t.Errorf("exit %d, want nextest's 100 for the failed test", exit.Code)
	}
	tests := rec.Tests()
	if len(tests) != 4 {
		t.Errorf("%d tests, want 4: %+v", len(tests), tests)
	}
	for name, want := range map[string]report.TestStatus{`greets "world"`: report.TestPassed, `greets "nobody"`: report.TestFailed, "plain": report.TestPassed,
		"parses (a, b)": report.TestFailed} {
		if got, ok := adapterstest.TestByName(tests, name); !ok || got.Status != want || got.Suite != "quoted::quoted" {
			t.Errorf("%s: %+v (recorded: %v), want %s", name, got, ok, want)
		}
	}
	got, _ := adapterstest.TestByName(tests, `greets "nobody"`)
	if f := got.Failure; f == nil || f.File != "tests/quoted.rs" || f.Line != 27 || !strings.HasPrefix(f.Message, "assertion `left == right` failed: greets \"nobody\" failed on purpose") ||
		f.Rerun != `cargo nextest run -p quoted --test quoted -E 'test(=greets "nobody")'` {
		t.Errorf(`greets "nobody": failure %+v`, f)
	}
	got, _ = adapterstest.TestByName(tests, "parses (a, b)")
	want := `cargo nextest run -p quoted --test quoted -E 'test(=parses (a\, b\))'`
	if got.Failure == nil || got.Failure.Rerun != want {
		t.Fatalf("parses (a, b): failure %+v, want the rerun %s", got.Failure, want)
	}
	// The rerun, as printed, runs that test alone.
	argv, err := shell.Split(want)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "1 test run: 0 passed, 1 failed") || !strings.Contains(string(out), "parses (a, b)") {
		t.Errorf("%s ran something else:\n%s", want, out)
	}
	// And so does the test selected by name.
	rec, _, _ = adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir, Test: "parses (a, b)"})
	if tests := rec.Tests(); len(tests) != 1 || tests[0].Name != "parses (a, b)" {
		t.Errorf("--test 'parses (a, b)' ran %+v", tests)
	}
}

// TestRealUnlistedHarness: a harness = false target that ignores
// nextest's --list (rust-url's url_wpt) fails the whole run before any
// test. The answer says why, as nextest's "Caused by:" does, and what
// runs it: "creating test list failed" alone named neither the target nor
// the cause.
func TestRealUnlistedHarness(t *testing.T) {
	fixture(t) // requires cargo-nextest
	dir := adapterstest.CopyFixture(t, "unlisted")
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir})
	if exit.Code == 0 || len(rec.Tests()) != 0 || out.BuildFailed {
		t.Errorf("exit %d, %d tests, build failed %v: want nextest's error and no test", exit.Code, len(rec.Tests()), out.BuildFailed)
	}
	// Nothing ran, so nothing failed: the answer is an error (status
	// failed, before), and says where to see nextest's.
	if !strings.HasPrefix(out.Refused, "cargo nextest run failed before running any test: creating test list failed: for `unlisted::checks`") ||
		!strings.Contains(out.Hint, "`cargo nextest list` shows nextest's whole error") {
		t.Errorf("refused %q, hint %q: want nextest's error, and cargo nextest list to see it", out.Refused, out.Hint)
	}
	for _, want := range []string{
		"cargo nextest run failed: creating test list failed: for `unlisted::checks`, line \"all checks passed\" did not end with the string \": test\" or \": benchmark\"",
		"`unlisted::checks` does not list its tests as libtest does (a target with harness = false?): nextest cannot run it; framework: \"cargo\" runs it as cargo test does",
	} {
		if !strings.Contains(out.Hint, want) {
			t.Errorf("hint %q\nlacks %q", out.Hint, want)
		}
	}
}

// TestStoppedSaysWhatDidNotRun: when strobe stops cargo nextest run at a
// hung test, the answer says how many tests nextest never started ("Starting
// 5 tests": one passed, one hung) and gives the command that runs the rest
// without what hung: the command's own flags and filtersets (joined into
// one, as nextest would "or" two -E) or the level's, narrowed by a
// filterset that leaves the hung test out. A run that ended by itself, or
// one of a single test, gives no such command.
func TestStoppedSaysWhatDidNotRun(t *testing.T) {
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{"Cargo.toml": "[package]\nname = \"hang\"\n"})
	const said = "nextest was stopped at what hung: 3 more tests of the 5 it would run never started"
	for _, tc := range []struct {
		name    string
		req     adapters.Request
		stopped string
		want    string
	}{
		{"whole suite", adapters.Request{Command: []string{"cargo", "+nightly", "nextest", "run", "--release", "-j", "1"}}, report.StoppedStuck,
			said + "; to run the rest without what hung: cargo +nightly nextest run --release -j 1 --no-fail-fast -E 'not (binary_id(hang) & test(=tests::hangs))'"},
		{"past its timeout", adapters.Request{}, report.StoppedTimeout,
			"nextest was stopped at its timeout: 3 more tests of the 5 it would run never started; to run the rest without what was running: cargo nextest run --no-fail-fast -E 'not (binary_id(hang) & test(=tests::hangs))'"},
		{"the command's filtersets and test arguments", adapters.Request{Command: []string{"cargo", "nextest", "run", "-E", "package(hang)", "--filterset=test(/a/)", "--", "--include-ignored"}}, report.StoppedStuck,
			said + "; to run the rest without what hung: cargo nextest run --no-fail-fast -E '((package(hang)) | (test(/a/))) & not (binary_id(hang) & test(=tests::hangs))' -- --include-ignored"},
		{"a level", adapters.Request{Level: adapters.LevelUnit}, report.StoppedStuck,
			said + "; to run the rest without what hung: cargo nextest run --no-fail-fast -E '(kind(lib) | kind(bin) | kind(proc-macro)) & not (binary_id(hang) & test(=tests::hangs))'"},
		{"one test", adapters.Request{Test: "tests::hangs"}, report.StoppedStuck, said},
		{"ended by itself", adapters.Request{}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := tc.req
			req.ProjectRoot, req.Env = root, fakeNextest(t)
			rec := adapters.NewRecorder()
			plan, err := New().Plan(context.Background(), req, rec)
			if err != nil {
				t.Fatal(err)
			}
			p := plan.Parser
			for _, l := range []string{
				`{"type":"suite","event":"started","test_count":5,"nextest":{"crate":"hang","test_binary":"hang","kind":"lib"}}`,
				`{"type":"test","event":"started","name":"hang::hang$tests::ignored"}`,
				`{"type":"test","event":"started","name":"hang::hang$tests::quick"}`,
				`{"type":"test","event":"ok","name":"hang::hang$tests::quick","exec_time":0.004}`,
				`{"type":"test","event":"started","name":"hang::hang$tests::hangs"}`,
				`{"type":"test","event":"failed","name":"hang::hang$tests::hangs","exec_time":9.6,"stdout":""}`,
			} {
				p.Line(adapters.Stdout, []byte(l), false)
			}
			for _, l := range []string{
				"    Starting 5 tests across 1 binary (1 test skipped)",
				"        SKIP [         ] (───) hang tests::ignored",
				"  Cancelling due to signal: 1 test still running",
				"     SIGTERM [   9.608s] (2/5) hang tests::hangs",
				"     Summary [   9.610s] 2/5 tests run: 1 passed, 1 failed, 1 skipped",
				"warning: 3/5 tests were not run due to signal",
			} {
				p.Line(adapters.Stderr, []byte(l), false)
			}
			out := p.Finish(report.Exit{Exited: true, Code: 100, StoppedBy: tc.stopped})
			if tc.want == "" {
				if strings.Contains(out.Hint, "was stopped") {
					t.Errorf("hint %q speaks of a stop", out.Hint)
				}
				return
			}
			if !strings.Contains(out.Hint, tc.want) || tc.req.Test != "" && strings.Contains(out.Hint, "to run the rest") {
				t.Errorf("hint %q\nwant %q", out.Hint, tc.want)
			}
		})
	}
}
