package gotest

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

func TestGoDetect(t *testing.T) {
	dir := func(files ...string) string {
		d := t.TempDir()
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(d, f), []byte("module example.com/m\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	cases := []struct {
		name    string
		root    string
		command []string
		want    int
	}{
		{"go.mod", dir("go.mod"), nil, 90},
		{"go.work", dir("go.work"), nil, 85},
		{"nothing", dir(), nil, 0},
		{"go test command", dir(), []string{"go", "test", "./..."}, 95},
		{"go test by path", dir(), []string{"/usr/local/go/bin/go", "test"}, 95},
		{"other command in a module", dir("go.mod"), []string{"make", "test"}, 0},
		{"go vet", dir("go.mod"), []string{"go", "vet"}, 0},
		{"a package of a module", pkgDir(t, "cmp/cmpopts", "util_test.go"), nil, 85},
		{"a directory of a module without Go files", pkgDir(t, "docs"), nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := gotest{}.Detect(adapters.Request{ProjectRoot: c.root, Command: c.command})
			if got.Confidence != c.want {
				t.Errorf("confidence = %d (%s), want %d", got.Confidence, got.Hint, c.want)
			}
		})
	}
}

// pkgDir makes a module with a directory rel holding files, and returns
// that directory.
func pkgDir(t *testing.T, rel string, files ...string) string {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := filepath.Join(root, rel)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(d, f), []byte("package cmpopts\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

func TestGoPlan(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		req  adapters.Request
		want []string
	}{
		{"all", adapters.Request{}, []string{"go", "test", "-json", "./..."}},
		{"unit", adapters.Request{Level: adapters.LevelUnit}, []string{"go", "test", "-json", "-short", "./..."}},
		{"integration", adapters.Request{Level: adapters.LevelIntegration}, []string{"go", "test", "-json", "-tags", "integration", "-run", "^TestIntegration", "./..."}},
		{"e2e", adapters.Request{Level: adapters.LevelE2E}, []string{"go", "test", "-json", "-tags", "e2e", "-run", "^TestE2E", "./..."}},
		{"test", adapters.Request{Test: "TestFoo"}, []string{"go", "test", "-json", "-run", "^TestFoo$", "./..."}},
		{"subtest with spaces", adapters.Request{Test: "TestFoo/sub case"}, []string{"go", "test", "-json", "-run", "^TestFoo$/^sub_case$", "./..."}},
		{"subtest with metacharacters", adapters.Request{Test: "TestCases/1_+_2_=_3"}, []string{"go", "test", "-json", "-run", `^TestCases$/^1_\+_2_=_3$`, "./..."}},
		{"integration test", adapters.Request{Level: adapters.LevelIntegration, Test: "TestIntegrationDB"}, []string{"go", "test", "-json", "-tags", "integration", "-run", "^TestIntegrationDB$", "./..."}},
		{"command", adapters.Request{Command: []string{"go", "test", "-race", "./pkg/..."}}, []string{"go", "test", "-json", "-race", "./pkg/..."}},
		{"command with -json", adapters.Request{Command: []string{"go", "test", "-json", "./pkg"}}, []string{"go", "test", "-json", "./pkg"}},
		{"command and test", adapters.Request{Command: []string{"go", "test", "./pkg", "-args", "-x"}, Test: "TestA"}, []string{"go", "test", "-json", "./pkg", "-run", "^TestA$", "-args", "-x"}},
		{"command and level", adapters.Request{Command: []string{"go", "test", "-run", "Mine", "./..."}, Level: adapters.LevelE2E}, []string{"go", "test", "-json", "-tags", "e2e", "-run", "^TestE2E", "-run", "Mine", "./..."}},
		// A retry or a repeat's run: go test's cache must not answer it.
		{"fresh", adapters.Request{Test: "TestFoo", Fresh: true}, []string{"go", "test", "-json", "-count=1", "-run", "^TestFoo$", "./..."}},
		{"fresh command", adapters.Request{Command: []string{"go", "test", "-json", "./pkg", "-args", "-count", "2"}, Fresh: true}, []string{"go", "test", "-count=1", "-json", "./pkg", "-args", "-count", "2"}},
		{"fresh command with -count", adapters.Request{Command: []string{"go", "test", "-count", "3", "./pkg"}, Fresh: true}, []string{"go", "test", "-json", "-count", "3", "./pkg"}},
		{"fresh, -count in GOFLAGS", adapters.Request{Env: []string{"GOFLAGS=-mod=mod -count=2"}, Fresh: true}, []string{"go", "test", "-json", "./..."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.req.ProjectRoot = root
			plan, err := gotest{}.Plan(context.Background(), c.req, adapters.NewRecorder())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(plan.Argv, c.want) {
				t.Errorf("argv = %q, want %q", plan.Argv, c.want)
			}
			if plan.Dir != root {
				t.Errorf("dir = %q, want %q", plan.Dir, root)
			}
		})
	}
	if _, err := (gotest{}).Plan(context.Background(), adapters.Request{ProjectRoot: root, Command: []string{"make", "test"}}, adapters.NewRecorder()); !adapters.IsUsage(err) {
		t.Errorf("plan of make test: err = %v, want a usage error", err)
	}
}

func TestGoRerun(t *testing.T) {
	root := t.TempDir()
	mods := []goModule{{"example.com/m", "."}}
	cases := []struct {
		name    string
		cmd     []string
		level   adapters.Level
		pkg     string
		test    string
		want    string
		wantRun []string // the rerun prefix goCommand derives, when cmd is set
	}{
		{name: "root package", pkg: "example.com/m", test: "TestA", want: "go test -run '^TestA$' ."},
		{name: "subtest", pkg: "example.com/m/calc", test: "TestTable/two plus two", want: "go test -run '^TestTable$/^two_plus_two$' ./calc"},
		{name: "quote in name", pkg: "example.com/m/calc", test: "TestA/it's", want: `go test -run '^TestA$/^it'\''s$' ./calc`},
		{name: "package", pkg: "example.com/m/calc", want: "go test ./calc"},
		{name: "other module", pkg: "other.org/x", test: "TestA", want: "go test -run '^TestA$' other.org/x"},
		{name: "integration level", level: adapters.LevelIntegration, pkg: "example.com/m/db", test: "TestIntegrationDB", want: "go test -tags integration -run '^TestIntegrationDB$' ./db"},
		{name: "command flags kept", cmd: []string{"go", "test", "-race", "-count", "1", "-v", "-json", "-run", "X", "-tags=a b", "./..."}, pkg: "example.com/m/calc", test: "TestA",
			want: "go test -race -count 1 '-tags=a b' -run '^TestA$' ./calc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			flags, _ := goLevel(c.level)
			rerun := append([]string{"go", "test"}, flags...)
			if c.cmd != nil {
				_, rerun, _ = goCommand(c.cmd, flags, "", "", nil)
			}
			p := newGoParser(adapters.NewRecorder(), root, mods, rerun, "")
			if got := p.rerunCommand(c.pkg, c.test); got != c.want {
				t.Errorf("rerun = %s, want %s", got, c.want)
			}
		})
	}
}

func TestGoModules(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "// the root module\nmodule \"example.com/root\" // quoted\n\ngo 1.22\n")
	write("go.work", "go 1.22\n\nuse (\n\t.\n\t./tools // a tool module\n)\nuse ./api\n")
	write("tools/go.mod", "module example.com/root/tools\n")
	write("api/go.mod", "module example.org/api\n")
	got := readGoModules(root)
	want := []goModule{{"example.com/root/tools", "tools"}, {"example.com/root", "."}, {"example.org/api", "api"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("modules = %q, want %q", got, want)
	}
	if pats, want := goPatterns(root), []string{"./...", "./tools/...", "./api/..."}; !reflect.DeepEqual(pats, want) {
		t.Errorf("patterns = %q, want %q", pats, want)
	}
	p := newGoParser(adapters.NewRecorder(), root, got, nil, "")
	for pkg, dir := range map[string]string{"example.com/root/tools/gen": "tools/gen", "example.com/root/x": "x", "example.org/api": "api"} {
		if got, ok := p.pkgDir(pkg); !ok || got != dir {
			t.Errorf("pkgDir(%s) = %q, %v, want %q", pkg, got, ok, dir)
		}
	}
}

// TestGoFailureMessage checks how a failure's message and location are
// read from the layouts testing and assertion libraries print, and which
// location line is the failure's (location.go): the source lines of
// x_test.go tell a t.Log's line from a t.Error's.
func TestGoFailureMessage(t *testing.T) {
	race := []string{"==================\n", "WARNING: DATA RACE\n", "Read at 0x0000007f1470 by goroutine 15:\n",
		"  example.com/m.TestX.func1()\n", "      {{ROOT}}/x_test.go:45 +0x30\n", "\n",
		"Previous write at 0x0000007f1470 by goroutine 14:\n", "  example.com/m.TestX()\n", "      {{ROOT}}/x_test.go:46 +0xbd\n",
		"  testing.tRunner()\n", "      /usr/local/go/src/testing/testing.go:2036 +0x21c\n", "\n",
		"Goroutine 15 (running) created at:\n", "  example.com/m.TestX()\n", "      {{ROOT}}/x_test.go:44 +0x99\n",
		"==================\n", "    testing.go:1712: race detected during execution of test\n"}
	cases := []struct {
		name   string
		src    map[int]string // lines of x_test.go; nil: no x_test.go
		output []string
		want   report.Failure
	}{
		{"t.Error", map[int]string{12: `t.Errorf("got 3\n want 4")`, 13: `t.Log("later")`},
			[]string{"    x_test.go:12: got 3\n", "        want 4\n", "    x_test.go:13: later\n"},
			report.Failure{File: "x_test.go", Line: 12, Message: "got 3\nwant 4"}},
		{"testify", map[int]string{9: `assert.Equal(t, 1, 2)`},
			[]string{"    x_test.go:9: \n", "        \tError Trace:\t/src/x_test.go:9\n", "        \tError:      \tNot equal: 1 != 2\n", "--- FAIL: TestX (0.00s)\n"},
			report.Failure{File: "x_test.go", Line: 9, Message: "Error Trace:\t/src/x_test.go:9\nError:      \tNot equal: 1 != 2"}},
		{"before go 1.14", map[int]string{5: `t.Error("bad")`}, []string{"    TestX: x_test.go:5: bad\n"},
			report.Failure{File: "x_test.go", Line: 5, Message: "bad"}},
		{"no location", nil, []string{"=== RUN   TestX\n", "something went wrong\n", "--- FAIL: TestX (0.00s)\n"},
			report.Failure{Message: "something went wrong"}},
		{"no output", nil, []string{"=== RUN   TestX\n", "--- FAIL: TestX (0.00s)\n"},
			report.Failure{Message: "failed without a message (t.Fail or t.FailNow)"}},
		{"t.Log then t.Fatalf", map[int]string{13: `t.Log("before")`, 14: `t.Fatalf("fatal: %s", "boom")`},
			[]string{"    x_test.go:13: before\n", "    x_test.go:14: fatal: boom\n"},
			report.Failure{File: "x_test.go", Line: 14, Message: "fatal: boom"}},
		{"t.Log then require", map[int]string{16: `t.Log("setting up")`, 17: `require.NoError(t, assert.AnError)`},
			[]string{"    x_test.go:16: setting up\n", "    x_test.go:17: \n", "        \tError Trace:\t/src/x_test.go:17\n",
				"        \tError:      \tReceived unexpected error:\n", "        \t            \tassert.AnError general error for testing\n",
				"        \tTest:       \tTestX\n"},
			report.Failure{File: "x_test.go", Line: 17, Message: "Error Trace:\t/src/x_test.go:17\nError:      \tReceived unexpected error:\n            \tassert.AnError general error for testing\nTest:       \tTestX"}},
		{"a log then several errors", map[int]string{18: `t.Logf("case %d", i)`, 19: `t.Errorf("par error %d", 1)`, 20: `t.Errorf("par error %d", 2)`},
			[]string{"    x_test.go:18: case 1\n", "    x_test.go:19: par error 1\n", "    x_test.go:20: par error 2\n"},
			report.Failure{File: "x_test.go", Line: 19, Message: "par error 1\nand 1 more failure in this test:\nx_test.go:20: par error 2",
				Later: []report.LaterFailure{{File: "x_test.go", Line: 20, Message: "par error 2"}}}},
		{"a log then a helper", map[int]string{5: `t.Log("err:", err.Error())`, 6: `check(t, 1, 2)`, 7: `t.Log("after")`},
			[]string{"    x_test.go:5: err: x\n", "    x_test.go:6: 1 != 2\n", "    x_test.go:7: after\n"},
			report.Failure{File: "x_test.go", Line: 6, Message: "1 != 2"}},
		{"logs only", map[int]string{5: `t.Log("a")`, 6: `t.Logf("b")`, 7: `t.Fail()`},
			[]string{"    x_test.go:5: a\n", "    x_test.go:6: b\n"},
			report.Failure{File: "x_test.go", Line: 6, Message: "b"}},
		{"a multi-line call", map[int]string{16: `t.Errorf("got %d,\n want %d",`, 17: `1,`, 18: `2)`, 19: `t.Logf("log %d",`},
			[]string{"    x_test.go:16: got 1,\n", "         want 2\n", "    x_test.go:19: log 3\n"},
			report.Failure{File: "x_test.go", Line: 16, Message: "got 1,\nwant 2"}},
		{"a helper of another package", map[int]string{}, []string{"    helper.go:7: mismatch\n"},
			report.Failure{Message: "helper.go:7: mismatch"}},
		{"FailNow on a parent", map[int]string{}, []string{"    testing.go:1913: test executed panic(nil) or runtime.Goexit: subtest may have called FailNow on a parent test\n"},
			report.Failure{Message: "test executed panic(nil) or runtime.Goexit: subtest may have called FailNow on a parent test"}},
		{"output without a newline", map[int]string{9: `t.Errorf("boom")`}, []string{"progress 50%...    x_test.go:9: boom\n"},
			report.Failure{File: "x_test.go", Line: 9, Message: "boom"}},
		{"a testify suite's recovered panic", map[int]string{7: `_ = *m["x"]`},
			[]string{"    panic.go:336: test panicked: runtime error: invalid memory address or nil pointer dereference\n",
				"        goroutine 29 [running]:\n", "        runtime/debug.Stack()\n", "        \t/usr/local/go/src/runtime/debug/stack.go:26 +0x5e\n",
				"        github.com/stretchr/testify/suite.failOnPanic(0x14d8752a7208, {0x825a60, 0xc09990})\n",
				"        \t/home/dev/go/pkg/mod/github.com/stretchr/testify@v1.11.1/suite/suite.go:89 +0x37\n",
				"        panic({0x825a60?, 0xc09990?})\n", "        \t/usr/local/go/src/runtime/panic.go:860 +0x13a\n",
				"        example.com/m_test.(*S).TestNew(0x14d875278400)\n", "        \t{{ROOT}}/x_test.go:7 +0x7a\n",
				"        reflect.Value.call({0x14d8752a4000?, 0x14d8751b4a90?, 0x14d875205dc0?}, {0x88edbe, 0x4}, {0x14d875205f28, 0x1, 0x82a120?})\n",
				"        \t/usr/local/go/src/reflect/value.go:586 +0xf0c\n",
				"        created by testing.(*T).Run in goroutine 11\n", "        \t/usr/local/go/src/testing/testing.go:2101 +0x4c5\n"},
			report.Failure{File: "x_test.go", Line: 7, Message: "test panicked: runtime error: invalid memory address or nil pointer dereference"}},
		{"data race", map[int]string{}, race,
			report.Failure{File: "x_test.go", Line: 45, Message: "data race (go test -race): read by goroutine 15 at x_test.go:45 (m.TestX.func1), previous write by goroutine 14 at x_test.go:46 (m.TestX); goroutine 15 created at x_test.go:44 (m.TestX)",
				Rerun: "go test -race -run '^TestX$' ."}},
		// A test that fails its own check and races: both are named (golang-lru).
		{"a race beside a failed check", map[int]string{47: `t.Errorf("len = %d", n)`}, append([]string{"    x_test.go:47: len = 1\n"}, race...),
			report.Failure{File: "x_test.go", Line: 47, Message: "len = 1\n(and a data race while it ran: read by goroutine 15 at x_test.go:45 (m.TestX.func1), previous write by goroutine 14 at x_test.go:46 (m.TestX); goroutine 15 created at x_test.go:44 (m.TestX))",
				Rerun: "go test -race -run '^TestX$' ."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			if c.src != nil {
				var b strings.Builder
				for i := 1; i <= 50; i++ {
					b.WriteString(c.src[i] + "\n")
				}
				if err := os.WriteFile(filepath.Join(root, "x_test.go"), []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			lines := []string{`{"Action":"run","Package":"example.com/m","Test":"TestX"}`}
			for _, o := range c.output {
				b, _ := json.Marshal(goEvent{Action: "output", Package: "example.com/m", Test: "TestX", Output: strings.ReplaceAll(o, "{{ROOT}}", root)})
				lines = append(lines, string(b))
			}
			lines = append(lines, `{"Action":"fail","Package":"example.com/m","Test":"TestX"}`, `{"Action":"fail","Package":"example.com/m"}`)
			got := parseGo(t, root, "example.com/m", lines, nil, goExited(1))
			c.want.Name = "TestX"
			if c.want.Rerun == "" {
				c.want.Rerun = "go test -run '^TestX$' ."
			}
			if len(got.Tests) != 1 || got.Tests[0].Failure == nil {
				t.Fatalf("tests = %+v, want one failed", got.Tests)
			}
			f := *got.Tests[0].Failure
			f.SuggestedTraces = nil
			if !reflect.DeepEqual(f, c.want) {
				t.Errorf("failure =\n%+v, want\n%+v", f, c.want)
			}
		})
	}
}

// goGolden is what a golden file holds: the tests recorded and the outcome.
type goGolden = adapterstest.Result

// parseGo feeds recorded output to a parser for root and module, the
// stderr lines first, as the go command prints build errors before tests.
func parseGo(t *testing.T, root, module string, stdout, stderr []string, exit report.Exit) goGolden {
	t.Helper()
	var mods []goModule
	if module != "" {
		mods = []goModule{{module, "."}}
	}
	rec := adapters.NewRecorder()
	p := newGoParser(rec, root, mods, []string{"go", "test"}, "no test ran")
	for _, l := range stderr {
		p.Line(adapters.Stderr, []byte(l), false)
	}
	for _, l := range stdout {
		p.Line(adapters.Stdout, []byte(l), false)
	}
	return adapterstest.Normalise(rec, p.Finish(exit), nil)
}

func goReadLines(t *testing.T, path string) []string {
	t.Helper()
	var lines []string
	for _, l := range adapterstest.ReadLines(t, path, adapters.Stdout) {
		lines = append(lines, l.Text)
	}
	return lines
}

func goExited(code int) report.Exit { return report.Exit{Exited: true, Code: code} }

// TestGoCorpus parses real go test -json output copied from the team's
// shared corpus (testdata/README.md names the sources). Its projects are
// not on this machine, so file names stay as printed where they cannot be
// checked.
func TestGoCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "corpus")
	// Where each recording's project was, as far as its output tells.
	gotestsum := [2]string{"/src/gotestsum", "gotest.tools/gotestsum"}
	projects := map[string][2]string{
		"json-panic-missing-test-fail-event":  {"/home/daniel/pers/code/gotest.tools", "gotest.tools/v3"},
		"json-dorny-calculator-7-fail-1-skip": {"/home/james_t/git/test-reporter/reports/go", ""},
		"json-build-failed-go1.24":            {"/src/cacher", "example.com/internal/cacher"},
		"json-setup-failed-go1.24":            {"/src/cacher", "example.com/internal/cacher"},
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(files) == 0 {
		t.Fatalf("no .jsonl in %s", dir)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		t.Run(name, func(t *testing.T) {
			proj, ok := projects[name]
			if !ok {
				proj = gotestsum
			}
			stdout := goReadLines(t, path)
			var stderr []string
			if name == "json-mixed-pass-fail-skip-badmain" {
				stderr = goReadLines(t, filepath.Join(dir, "json-mixed.stderr.txt"))
			}
			exit := goExited(0)
			for _, l := range stdout {
				if strings.Contains(l, `"Action":"fail"`) {
					exit = goExited(1)
				}
			}
			adapterstest.Golden(t, "corpus/"+name, parseGo(t, proj[0], proj[1], stdout, stderr, exit))
		})
	}
}

// TestGoRecorded parses recordings of real runs of the fixtures (see
// testdata/record.sh, which made them).
func TestGoRecorded(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no recordings in testdata")
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		t.Run(name, func(t *testing.T) {
			fixture, _, _ := strings.Cut(name, "-")
			root := testutil.Fixture("go", fixture)
			module := "example.com/" + fixture
			load := func(path string) []string {
				if _, err := os.Stat(path); err != nil {
					return nil
				}
				lines := goReadLines(t, path)
				for i, l := range lines {
					lines[i] = strings.ReplaceAll(l, "{{ROOT}}", root)
				}
				return lines
			}
			code, err := os.ReadFile(strings.TrimSuffix(path, ".jsonl") + ".exit")
			if err != nil {
				t.Fatal(err)
			}
			n, _ := strconv.Atoi(strings.TrimSpace(string(code)))
			got := parseGo(t, root, module, load(path), load(strings.TrimSuffix(path, ".jsonl")+".stderr"), goExited(n))
			for i := range got.Tests {
				got.Tests[i].Output = strings.ReplaceAll(got.Tests[i].Output, root, "{{ROOT}}")
			}
			adapterstest.Golden(t, name, got)
		})
	}
}

// byName indexes recorded tests by suite and name.
func goByName(tests []report.Test) map[string]report.Test {
	m := map[string]report.Test{}
	for _, t := range tests {
		m[t.Suite+" "+t.Name] = t
	}
	return m
}

func goTestNames(tests []report.Test) []string {
	var n []string
	for _, t := range tests {
		n = append(n, t.Name)
	}
	sort.Strings(n)
	return n
}

func runGo(t *testing.T, fixture string, req adapters.Request) (*adapters.Recorder, adapters.Outcome) {
	t.Helper()
	testutil.RequireTool(t, "go")
	if testing.Short() {
		t.Skip("runs go test on a fixture")
	}
	req.ProjectRoot = testutil.Fixture("go", fixture)
	rec, out, _ := adapterstest.RunReal(t, gotest{}, req)
	return rec, out
}

func TestGoRealBasic(t *testing.T) {
	rec, out := runGo(t, "basic", adapters.Request{})
	if out.BuildFailed || out.Crash != nil || out.NoTests {
		t.Errorf("outcome = %+v, want only test failures", out)
	}
	tests := goByName(rec.Tests())
	const calc, text = "example.com/basic/calc ", "example.com/basic/text "
	want := map[string]report.TestStatus{
		calc + "TestAdd": report.TestPassed, calc + "TestAddWrong": report.TestFailed,
		calc + "TestTable": report.TestFailed, calc + "TestTable/one_plus_one": report.TestPassed,
		calc + "TestTable/two_plus_two": report.TestFailed, calc + "TestTable/zero": report.TestPassed,
		calc + "TestSkipped": report.TestSkipped, calc + "TestSlow": report.TestPassed,
		calc + "TestDivideByZero": report.TestFailed,
		text + "TestShout":        report.TestPassed, text + "TestPrintsPanicText": report.TestPassed,
		text + "TestShoutEmpty":  report.TestFailed,
		text + "TestLoadFixture": report.TestFailed, text + "TestLoadFixture/missing": report.TestFailed,
	}
	if len(tests) != len(want) {
		t.Errorf("tests = %q, want %d tests", goTestNames(rec.Tests()), len(want))
	}
	for name, status := range want {
		if got := tests[name].Status; got != status {
			t.Errorf("%s: status %q, want %q", name, got, status)
		}
	}
	failures := []report.Failure{
		{Name: "TestAddWrong", File: "calc/calc_test.go", Line: 13, Message: "Add(2, 2) = 4, want 5",
			Rerun: "go test -run '^TestAddWrong$' ./calc", SuggestedTraces: []string{"calc.Add"}},
		{Name: "TestTable/two_plus_two", File: "calc/calc_test.go", Line: 29, Message: "Add(2, 2) = 4, want 5\nsecond line of the message",
			Rerun: "go test -run '^TestTable$/^two_plus_two$' ./calc", SuggestedTraces: []string{"calc.Add"}},
		{Name: "TestDivideByZero", File: "calc/calc.go", Line: 8, Message: "panic: runtime error: integer divide by zero",
			Rerun: "go test -run '^TestDivideByZero$' ./calc", SuggestedTraces: []string{"example.com/basic/calc.Divide"}},
	}
	for _, f := range failures {
		if got := tests[calc+f.Name].Failure; got == nil || !reflect.DeepEqual(*got, f) {
			t.Errorf("%s: failure\n%+v, want\n%+v", f.Name, got, f)
		}
	}
	// After a test that printed "panic: …" and passed, failures are still
	// read from their own output.
	if f := tests[text+"TestShoutEmpty"].Failure; f == nil || f.File != "text/text_test.go" || f.Line != 23 {
		t.Errorf("TestShoutEmpty: failure %+v, want text/text_test.go:23", f)
	}
	f := tests[text+"TestLoadFixture/missing"].Failure
	if f == nil || f.File != "text/text_test.go" || f.Line != 42 || f.Message != "panic: no fixture missing" ||
		!reflect.DeepEqual(f.SuggestedTraces, []string{"example.com/basic/text.loadFixture"}) {
		t.Errorf("TestLoadFixture/missing: failure %+v, want the helper's panic at text/text_test.go:42", f)
	}
	for _, parent := range []string{calc + "TestTable", text + "TestLoadFixture"} {
		if f := tests[parent].Failure; f != nil {
			t.Errorf("%s: failure %+v, want none of its own (its subtest failed)", parent, f)
		}
	}

	// The rerun command is pasteable and runs just that test.
	rerun := tests[calc+"TestTable/two_plus_two"].Failure.Rerun
	cmd := exec.Command("sh", "-c", rerun+" -v")
	cmd.Dir = testutil.Fixture("go", "basic")
	outb, _ := cmd.CombinedOutput()
	if s := string(outb); !strings.Contains(s, "--- FAIL: TestTable/two_plus_two") || strings.Contains(s, "TestAddWrong") || strings.Contains(s, "one_plus_one") {
		t.Errorf("%s ran more or less than the subtest:\n%s", rerun, s)
	}
}

func TestGoRealLevels(t *testing.T) {
	cases := []struct {
		level adapters.Level
		want  []string // the tests that ran
	}{
		{adapters.LevelIntegration, []string{"TestIntegrationX"}},
		{adapters.LevelE2E, []string{"TestE2EY"}},
	}
	for _, c := range cases {
		t.Run(string(c.level), func(t *testing.T) {
			rec, out := runGo(t, "basic", adapters.Request{Level: c.level})
			if got := goTestNames(rec.Tests()); !reflect.DeepEqual(got, c.want) {
				t.Errorf("tests = %q, want %q", got, c.want)
			}
			if tests := rec.Tests(); len(tests) == 1 && tests[0].Status != report.TestPassed {
				t.Errorf("%s: %s", tests[0].Name, tests[0].Status)
			}
			if out.NoTests || out.BuildFailed {
				t.Errorf("outcome = %+v", out)
			}
		})
	}
	t.Run("unit", func(t *testing.T) {
		rec, _ := runGo(t, "basic", adapters.Request{Level: adapters.LevelUnit})
		tests := goByName(rec.Tests())
		slow := tests["example.com/basic/calc TestSlow"]
		if slow.Status != report.TestSkipped || !strings.Contains(slow.Output, "-short mode") {
			t.Errorf("TestSlow = %s (%q), want skipped in -short mode", slow.Status, slow.Output)
		}
		if add := tests["example.com/basic/calc TestAdd"]; add.Status != report.TestPassed {
			t.Errorf("TestAdd = %s, want passed", add.Status)
		}
	})
}

func TestGoRealSingle(t *testing.T) {
	cases := []struct {
		test string
		want []string
	}{
		{"TestTable", []string{"TestTable", "TestTable/one_plus_one", "TestTable/two_plus_two", "TestTable/zero"}},
		{"TestTable/two plus two", []string{"TestTable", "TestTable/two_plus_two"}},
		{"TestTable/two_plus_two", []string{"TestTable", "TestTable/two_plus_two"}},
		{"TestAdd", []string{"TestAdd"}}, // not TestAddWrong
	}
	for _, c := range cases {
		t.Run(c.test, func(t *testing.T) {
			rec, _ := runGo(t, "basic", adapters.Request{Test: c.test})
			if got := goTestNames(rec.Tests()); !reflect.DeepEqual(got, c.want) {
				t.Errorf("tests = %q, want %q", got, c.want)
			}
		})
	}
	t.Run("no such test", func(t *testing.T) {
		rec, out := runGo(t, "basic", adapters.Request{Test: "TestNope"})
		if len(rec.Tests()) != 0 || !out.NoTests || !strings.Contains(out.Hint, "^TestNope$") {
			t.Errorf("tests = %q, outcome = %+v, want no_tests with a hint naming the pattern", goTestNames(rec.Tests()), out)
		}
		if out.Project == nil || len(out.Project.TestFiles) == 0 {
			t.Errorf("project = %+v, want the test files that exist", out.Project)
		}
	})
}

func TestGoRealCommand(t *testing.T) {
	rec, out := runGo(t, "basic", adapters.Request{Command: []string{"go", "test", "-count", "1", "./text"}})
	want := []string{"TestLoadFixture", "TestLoadFixture/missing", "TestPrintsPanicText", "TestShout", "TestShoutEmpty"}
	if got := goTestNames(rec.Tests()); !reflect.DeepEqual(got, want) {
		t.Errorf("tests = %q, want %q", got, want)
	}
	f := rec.Failure("example.com/basic/text", "TestLoadFixture/missing")
	if f == nil || f.Rerun != "go test -count 1 -run '^TestLoadFixture$/^missing$' ./text" {
		t.Errorf("failure = %+v, want a rerun that keeps -count 1", f)
	}
	// Neither a plain panic nor a test printing "fatal error: …" is a crash.
	if out.Crash != nil {
		t.Errorf("crash = %+v, want none", out.Crash)
	}
}

func TestGoRealCrash(t *testing.T) {
	cases := []struct {
		pkg    string
		test   string
		typ    report.CrashType
		signal string // in the message
		file   string
		line   int
	}{
		{"segv", "TestNilConfig", report.CrashSegmentationFault, "SIGSEGV", "segv/segv.go", 8},
		{"abort", "TestAbort", report.CrashAbort, "SIGABRT", "abort/abort_test.go", 18},
		// The stack's top frame is cgo's _cgo_gotypes.go, generated in
		// go's build directory: the project's call of the C code is
		// the first frame in its files.
		{"cgosegv", "TestStoreThroughNull", report.CrashSegmentationFault, "SIGSEGV", "cgosegv/cgosegv.go", 15},
	}
	for _, c := range cases {
		t.Run(c.pkg, func(t *testing.T) {
			testutil.RequireTool(t, "go")
			if c.pkg == "cgosegv" {
				testutil.RequireTool(t, "gcc")
			}
			if testing.Short() {
				t.Skip("runs go test on a fixture")
			}
			rec, out, exit := adapterstest.RunReal(t, gotest{}, adapters.Request{ProjectRoot: testutil.Fixture("go", "crash"), Command: []string{"go", "test", "./" + c.pkg}})
			cr := out.Crash
			if cr == nil {
				t.Fatalf("no crash in %+v", out)
			}
			// The runtime caught the signal and the binary exited 2, go
			// test 1: the signal is evidence in the message, not the
			// process's fate, and the exit code is go test's own.
			if cr.Type != c.typ || cr.Signal != 0 || cr.SignalName != "" || cr.ExitCode != exit.Code || exit.Code != 1 ||
				!strings.Contains(cr.Message, c.signal) || !reflect.DeepEqual(cr.RunningTests, []string{c.test}) {
				t.Errorf("crash = %+v (go test exited %d), want %s with %s in its message, no signal, exit code 1, in %s", cr, exit.Code, c.typ, c.signal, c.test)
			}
			if !reflect.DeepEqual(cr.Indicators, []string{"go_runtime_signal"}) {
				t.Errorf("indicators = %q", cr.Indicators)
			}
			got, _ := rec.Lookup("example.com/crash/"+c.pkg, c.test)
			if got.Status != report.TestFailed || got.Failure == nil || got.Failure.File != c.file || got.Failure.Line != c.line {
				t.Errorf("%s = %s, failure %+v, want failed at %s:%d", c.test, got.Status, got.Failure, c.file, c.line)
			}
		})
	}
}

// TestGoSIGQUIT: the goroutine dump strobe asks for when it stops a run
// fails nothing (the test stays running, for the runner to count as stuck
// or timed out); the same dump with no stop of strobe's is a crash. So for
// the SIGTERM strobe sends the process group: when the test binary died
// before the go command, go test's "signal: terminated" was the stuck
// test's failure, and the run counted it stuck and failed (a CI run).
func TestGoSIGQUIT(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "stuck", "testdata", "godeadlock"))
	for _, rc := range []struct {
		file, test, crash string
		indicators        []string
	}{
		{"busyloop.jsonl", "TestBusyLoop", "SIGQUIT: quit", []string{"go_runtime_signal"}},
		{"deadlock-sigterm.jsonl", "TestDeadlock", "signal: terminated", []string{"test_binary_signaled"}},
	} {
		lines := goReadLines(t, filepath.Join("testdata", "sigquit", rc.file))
		for i, l := range lines {
			lines[i] = strings.ReplaceAll(l, "{{ROOT}}", root)
		}
		for _, tc := range []struct {
			stoppedBy string
			status    report.TestStatus
			crash     bool
		}{
			{report.StoppedStuck, report.TestRunning, false},
			{report.StoppedTimeout, report.TestRunning, false},
			{"", report.TestFailed, true},
		} {
			t.Run(rc.file+" stopped by "+cmp.Or(tc.stoppedBy, "nobody"), func(t *testing.T) {
				exit := goExited(1)
				exit.StoppedBy = tc.stoppedBy
				got := parseGo(t, root, "godeadlock", lines, nil, exit)
				test := goByName(got.Tests)["godeadlock "+rc.test]
				if test.Status != tc.status || len(got.Tests) != 1 {
					t.Errorf("tests %v, %s %s; want it alone and %s", goTestNames(got.Tests), rc.test, test.Status, tc.status)
				}
				if c := got.Outcome.Crash; (c != nil) != tc.crash || c != nil && (!strings.Contains(c.Message, rc.crash) || !reflect.DeepEqual(c.Indicators, rc.indicators)) {
					t.Errorf("crash %+v, want one (%q, %v): %v", c, rc.crash, rc.indicators, tc.crash)
				}
			})
		}
	}
}

// TestGoTimeoutBeforePass: test2json holds a test's pass event back until
// the next line, so go test's timeout panic, printed as a test finished,
// lands in that test's output before its pass. The run is still a timeout
// naming the tests the alarm found running (a real recording).
func TestGoTimeoutBeforePass(t *testing.T) {
	name := "crash-timeout-late-pass"
	root := testutil.Fixture("go", "crash")
	lines := goReadLines(t, filepath.Join("testdata", name+".jsonl"))
	for i, l := range lines {
		lines[i] = strings.ReplaceAll(l, "{{ROOT}}", root)
	}
	got := parseGo(t, root, "example.com/crash", lines, nil, goExited(1))
	running := []string{"TestLate/5", "TestLate/6", "TestLate/7", "TestLate/8", "TestLate/9"}
	c := got.Outcome.Crash
	if c == nil || c.Type != report.CrashTimeout || !reflect.DeepEqual(c.Indicators, []string{"go_test_timeout"}) ||
		!reflect.DeepEqual(c.RunningTests, running) || c.ExitCode != 1 {
		t.Fatalf("crash = %+v, want a timeout naming %v", c, running)
	}
	tests := goByName(got.Tests)
	if s := tests["example.com/crash/lateparallel TestLate/4"].Status; s != report.TestPassed {
		t.Errorf("TestLate/4, whose output held the panic, is %s; want passed", s)
	}
	for _, name := range running {
		f := tests["example.com/crash/lateparallel "+name].Failure
		if f == nil || !strings.Contains(f.Message, "test timed out after 1s") {
			t.Errorf("%s failure %+v, want the timeout named", name, f)
		}
	}
}

func TestGoRealBroken(t *testing.T) {
	rec, out := runGo(t, "broken", adapters.Request{})
	if !out.BuildFailed {
		t.Errorf("outcome = %+v, want a build failure", out)
	}
	want := []report.BuildError{
		{File: "lib/lib.go", Line: 5, Column: 9, Message: `cannot use "forty-two" (untyped string constant) as int value in return statement`},
		{File: "vetfail/vetfail_test.go", Line: 10, Column: 14, Message: `go vet: fmt.Printf format %d has arg "not a number" of wrong type string`},
	}
	if !reflect.DeepEqual(out.BuildErrors, want) {
		t.Errorf("build errors =\n%+v, want\n%+v", out.BuildErrors, want)
	}
	if got := goTestNames(rec.Tests()); !reflect.DeepEqual(got, []string{"TestOK"}) {
		t.Errorf("tests = %q, want the one package that builds", got)
	}
}

func TestGoRealWorkspace(t *testing.T) {
	rec, out := runGo(t, "workspace", adapters.Request{})
	if out.BuildFailed || out.NoTests {
		t.Fatalf("outcome = %+v", out)
	}
	if got, want := goTestNames(rec.Tests()), []string{"TestAPI", "TestTool"}; !reflect.DeepEqual(got, want) {
		t.Errorf("tests = %q, want %q", got, want)
	}
	want := report.Failure{Name: "TestAPI", File: "api/api_test.go", Line: 7, Message: "status 500", Rerun: "go test -run '^TestAPI$' ./api"}
	if f := rec.Failure("example.com/api", "TestAPI"); f == nil || !reflect.DeepEqual(*f, want) {
		t.Errorf("failure = %+v, want %+v", f, want)
	}
}

// TestGoRealSetup runs go test where it gives up before testing: a module
// without packages is no_tests; one that needs a newer Go is a build
// failure that says so.
func TestGoRealSetup(t *testing.T) {
	testutil.RequireTool(t, "go")
	if testing.Short() {
		t.Skip("runs go test")
	}
	t.Setenv("GOTOOLCHAIN", "local") // never download a toolchain
	module := func(goVersion string) string {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo "+goVersion+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	rec, out, _ := adapterstest.RunReal(t, gotest{}, adapters.Request{ProjectRoot: module("1.22")})
	// go exits 1 for it: explained, or the runner answered a silent crash.
	if len(rec.Tests()) != 0 || !out.NoTests || out.BuildFailed || !out.ExitExplained || !strings.Contains(out.Hint, "go test found no package to test") {
		t.Errorf("module without packages: outcome = %+v, want no_tests, go's exit 1 explained", out)
	}
	_, out, _ = adapterstest.RunReal(t, gotest{}, adapters.Request{ProjectRoot: module("1.999")})
	if !out.BuildFailed || len(out.BuildErrors) != 1 || !strings.Contains(out.BuildErrors[0].Message, "go >= 1.999") {
		t.Errorf("module for a future Go: outcome = %+v, want a build failure naming the version", out)
	}
}

func TestGoRealEmpty(t *testing.T) {
	rec, out := runGo(t, "empty", adapters.Request{})
	if len(rec.Tests()) != 0 || !out.NoTests || out.Hint == "" {
		t.Errorf("outcome = %+v, want no_tests with a hint", out)
	}
	if want := (&report.Project{Language: "go", BuildSystem: "go modules"}); !reflect.DeepEqual(out.Project, want) {
		t.Errorf("project = %+v, want %+v", out.Project, want)
	}
}

// TestGoRealFailures runs go test on testdata/failures, whose tests fail
// the ways strobe got wrong on real modules: output before a failure
// (location.go), Go's own testing.go lines, a data race, a panic in a
// goroutine another test started, test binaries that die before their
// last test. Each package runs alone (-v=test2json, framed.go) and all
// together (-json).
func TestGoRealFailures(t *testing.T) {
	testutil.RequireTool(t, "go")
	if testing.Short() {
		t.Skip("runs go test on a fixture")
	}
	root, _ := filepath.Abs(filepath.Join("testdata", "failures"))
	run := func(t *testing.T, args ...string) (*adapters.Recorder, adapters.Outcome) {
		rec, out, _ := adapterstest.RunReal(t, gotest{}, adapters.Request{ProjectRoot: root, Command: append([]string{"go", "test", "-count=1"}, args...)})
		return rec, out
	}
	loc := func(t *testing.T, rec *adapters.Recorder) {
		t.Helper()
		want := map[string]report.Failure{
			"TestLogThenFatalf":     {File: "loc/loc_test.go", Line: 12, Message: "fatal: boom"},
			"TestParallelErrors":    {File: "loc/loc_test.go", Line: 18, Message: "first error 1\nand 1 more failure in this test:\nloc/loc_test.go:19: second error 2"},
			"TestHelperAfterLog":    {File: "loc/loc_test.go", Line: 31, Message: "got 1, want 2"},
			"TestProgress":          {File: "loc/loc_test.go", Line: 37, Message: "boom"},
			"TestParentFailNow/sub": {Message: "test executed panic(nil) or runtime.Goexit: subtest may have called FailNow on a parent test"},
			"Example_sum":           {File: "loc/loc_test.go", Line: 47, Message: "got:\n2\nwant:\n3"},
			// The message's layout is kept: a blank line, an indentation.
			"Example_blank": {File: "loc/loc_test.go", Line: 53, Message: "got:\na\n\nb\nwant:\na\nb"},
			"TestLayout":    {File: "loc/loc_test.go", Line: 64, Message: "Output:\n{\n  \"a\": [\n    1\n  ]\n}\n\nend"},
		}
		for name, w := range want {
			f := rec.Failure("example.com/failures/loc", name)
			if f == nil || f.File != w.File || f.Line != w.Line || f.Message != w.Message {
				t.Errorf("%s: failure %+v, want %s:%d %q", name, f, w.File, w.Line, w.Message)
			}
		}
	}
	leak := func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
		t.Helper()
		f := rec.Failure("example.com/failures/leak", "TestLeakB")
		if f == nil || !strings.Contains(f.Message, "the panic is in a goroutine that TestLeakA started") ||
			f.Rerun != "go test -count=1 -run '^(TestLeakA|TestLeakB)$' ./leak" {
			t.Fatalf("TestLeakB: failure %+v, want the panic blamed on TestLeakA's goroutine and a rerun of both", f)
		}
		// The rerun reproduces the panic; TestLeakB alone passes.
		cmd := exec.Command("sh", "-c", f.Rerun)
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(b), "assignment to entry in nil map") {
			t.Errorf("%s: %v\n%s", f.Rerun, err, b)
		}
		if !slices.Contains(out.Indicators, "test_binary_died") || !strings.Contains(out.Hint, "example.com/failures/leak's test binary died (panic: assignment to entry in nil map) in TestLeakB: its tests after that did not run") {
			t.Errorf("outcome indicators %q, hint %q: want the leak package's binary named dead", out.Indicators, out.Hint)
		}
		if _, ok := rec.Lookup("example.com/failures/leak", "TestAfter"); ok {
			t.Errorf("TestAfter recorded: it never ran")
		}
	}
	exit := func(t *testing.T, out adapters.Outcome) {
		t.Helper()
		if !strings.Contains(out.Hint, "example.com/failures/exit's test binary exited (os.Exit or log.Fatal?) in TestExit: its tests after that did not run") {
			t.Errorf("hint %q: want the exit package's binary named", out.Hint)
		}
	}
	t.Run("loc", func(t *testing.T) {
		rec, out := run(t, "./loc")
		loc(t, rec)
		if slices.Contains(out.Indicators, "test_binary_died") || out.Hint != "" {
			t.Errorf("outcome indicators %q, hint %q: the binary ran to its end", out.Indicators, out.Hint)
		}
	})
	t.Run("leak", func(t *testing.T) {
		rec, out := run(t, "./leak")
		leak(t, rec, out)
	})
	t.Run("exit", func(t *testing.T) {
		_, out := run(t, "./exit")
		exit(t, out)
	})
	t.Run("runtests", func(t *testing.T) {
		// go's JSON says the inner tests failed, TestRunsSubtests's as its
		// own subtests (testify's suite tests); the package passed.
		rec, out := run(t, "./runtests")
		var names []string
		for _, tt := range rec.Tests() {
			names = append(names, tt.Name+" "+string(tt.Status))
		}
		if want := []string{"TestRunsTests passed", "TestPlain passed", "TestRunsSubtests passed"}; !slices.Equal(names, want) || out.Crash != nil {
			t.Errorf("tests %q, crash %+v; want %q and no crash: the package passed", names, out.Crash, want)
		}
	})
	t.Run("swallow", func(t *testing.T) {
		// TestMain exits 0 after m.Run: go test says ok, but the test
		// failed, and is answered so, with why go said ok.
		rec, out := run(t, "./swallow")
		f := rec.Failure("example.com/failures/swallow", "TestSwallowed")
		if f == nil || f.File != "swallow/swallow_test.go" || f.Line != 16 {
			t.Errorf("TestSwallowed: failure %+v, want swallow/swallow_test.go:16", f)
		}
		if !strings.Contains(out.Hint, "example.com/failures/swallow's test binary exited 0 although TestSwallowed failed: does its TestMain ignore m.Run's result") {
			t.Errorf("hint %q: want TestMain's swallowed failure named", out.Hint)
		}
	})
	t.Run("parpanic", func(t *testing.T) {
		// The panic is the subtest's that testing reported failed before
		// it, not the parallel sibling that started last, nor the parent.
		for _, tc := range []struct{ test, panicked, file string }{
			{"TestSleepingSibling", "TestSleepingSibling/beta", "parpanic/parpanic_test.go:21"},
			{"TestSkippedSibling", "TestSkippedSibling/beta", "parpanic/skipped_test.go:16"},
			{"TestDeep", "TestDeep/outer/inner", "parpanic/deep_test.go:11"},
		} {
			rec, _ := run(t, "-run", "^"+tc.test+"$", "./parpanic")
			f := rec.Failure("example.com/failures/parpanic", tc.panicked)
			if f == nil || fmt.Sprintf("%s:%d", f.File, f.Line) != tc.file || !strings.HasPrefix(f.Message, "panic: ") {
				t.Errorf("%s: failure %+v, want the panic at %s", tc.panicked, f, tc.file)
			}
			for _, tt := range rec.Tests() {
				if tt.Name != tc.panicked && tt.Failure != nil && strings.HasPrefix(tt.Failure.Message, "panic: ") {
					t.Errorf("%s: the panic is also blamed on %s", tc.test, tt.Name)
				}
			}
		}
	})
	t.Run("pausedsiblings", func(t *testing.T) {
		// Under -parallel 1 boom panics while its siblings still wait in
		// t.Parallel: they never ran, and go test reports nothing of
		// them; they were failed ("did not finish") and listed first.
		rec, out := run(t, "-parallel", "1", "-run", "^TestPanicFirst$", "./parpanic")
		const pkg = "example.com/failures/parpanic"
		if f := rec.Failure(pkg, "TestPanicFirst/boom"); f == nil || f.File != "parpanic/first_test.go" || f.Line != 13 || !strings.HasPrefix(f.Message, "panic: ") {
			t.Errorf("TestPanicFirst/boom: failure %+v, want the panic at parpanic/first_test.go:13", f)
		}
		for _, name := range []string{"TestPanicFirst/two", "TestPanicFirst/three"} {
			if tt, ok := rec.Lookup(pkg, name); ok {
				t.Errorf("%s, which never ran, is recorded: %+v", name, tt)
			}
		}
		if out.Crash != nil && slices.ContainsFunc(out.Crash.RunningTests, func(n string) bool { return n == "TestPanicFirst/two" || n == "TestPanicFirst/three" }) {
			t.Errorf("crash %+v: want the paused tests left out of the running ones", out.Crash)
		}
	})
	t.Run("panichelper", func(t *testing.T) {
		// A helper of the tests that panics on purpose: the failure is at
		// the test's call of it, which tells the assertion, the helper's
		// line in the message (it was at the helper's, every
		// assertion's).
		rec, _ := run(t, "./panichelper")
		f := rec.Failure("example.com/failures/panichelper", "TestDouble")
		if f == nil || f.File != "panichelper/panichelper_test.go" || f.Line != 15 ||
			f.Message != "panic: assert failed\n(panicked in assert at panichelper/panichelper_test.go:9)" ||
			!slices.Equal(f.SuggestedTraces, []string{"panichelper.double"}) {
			t.Errorf("TestDouble: failure %+v, want it at panichelper/panichelper_test.go:15, the helper named, what the line calls suggested", f)
		}
	})
	t.Run("helperleak", func(t *testing.T) {
		// The goroutine was "created by …startWorker": the test that ran
		// and calls that helper started it.
		rec, _ := run(t, "./helperleak")
		f := rec.Failure("example.com/failures/helperleak", "TestSlow")
		if f == nil || !strings.Contains(f.Message, "the panic is in a goroutine that TestStartsHelper started") ||
			f.Rerun != "go test -count=1 -run '^(TestStartsHelper|TestSlow)$' ./helperleak" {
			t.Fatalf("TestSlow: failure %+v, want the panic blamed on TestStartsHelper's goroutine and a rerun of both", f)
		}
		cmd := exec.Command("sh", "-c", f.Rerun)
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(b), "assignment to entry in nil map") {
			t.Errorf("%s: %v\n%s", f.Rerun, err, b)
		}
	})
	t.Run("many", func(t *testing.T) {
		// A test goes on after t.Error: its failure is the first, and its
		// message names the later ones, a few, counting the rest.
		rec, _ := run(t, "./many")
		want := map[string]report.Failure{
			"TestMany": {File: "many/many_test.go", Line: 8,
				Message: "first: got 1 want 2\nand 2 more failures in this test:\nmany/many_test.go:9: second: got \"x\"\nmany/many_test.go:10: third"},
			"TestHelper": {File: "many/many_test.go", Line: 24,
				Message: "got 1 want 2\nand 1 more failure in this test:\nmany/many_test.go:25: got 3 want 4"},
			"TestSub/a": {File: "many/many_test.go", Line: 31,
				Message: "sub first\nand 1 more failure in this test:\nmany/many_test.go:32: sub second with a second line"},
			"TestLoop": {File: "many/many_test.go", Line: 39,
				Message: "i=0\nand 49 more failures in this test:\nmany/many_test.go:39: i=1\nmany/many_test.go:39: i=2\n" +
					"many/many_test.go:39: i=3\nmany/many_test.go:39: i=4\nmany/many_test.go:39: i=5\n(44 more: the details file's later_failures)"},
		}
		for name, w := range want {
			f := rec.Failure("example.com/failures/many", name)
			if f == nil || f.File != w.File || f.Line != w.Line || f.Message != w.Message {
				t.Errorf("%s: failure %+v, want %s:%d %q", name, f, w.File, w.Line, w.Message)
			}
		}
		if f := rec.Failure("example.com/failures/many", "TestLoop"); f == nil || len(f.Later) != 49 ||
			f.Later[48] != (report.LaterFailure{File: "many/many_test.go", Line: 39, Message: "i=49"}) {
			t.Errorf("TestLoop: later failures %+v, want all 49", f)
		}
		if f := rec.Failure("example.com/failures/many", "TestSub/a"); f == nil || len(f.Later) != 1 ||
			f.Later[0].Message != "sub second\nwith a second line" {
			t.Errorf("TestSub/a: later failures %+v, want the second with its continuation", f)
		}
		if f := rec.Failure("example.com/failures/many", "TestSub"); f != nil {
			t.Errorf("TestSub: failure %+v, want none of its own (its subtest's is)", f)
		}
	})
	t.Run("all", func(t *testing.T) {
		rec, out := run(t, "./loc", "./leak", "./exit")
		loc(t, rec)
		leak(t, rec, out)
		exit(t, out)
	})
	t.Run("mainskip", func(t *testing.T) {
		// TestMain exited 0 before m.Run: go test says ok and no test ran.
		// The answer says so and what TestMain printed, not that the
		// package has no tests.
		_, out := run(t, "./mainskip")
		want := "example.com/failures/mainskip's TestMain exited before running its tests (printed: MAINSKIP_DB not set: skipping the database tests)"
		if !out.NoTests || !strings.Contains(out.Hint, want) {
			t.Errorf("outcome no tests %v, hint %q: want no tests and %q", out.NoTests, out.Hint, want)
		}
		_, out = run(t, "./mainskip", "./exit")
		if !strings.Contains(out.Hint, want) {
			t.Errorf("hint %q: want %q beside the other package's", out.Hint, want)
		}
		exit(t, out)
	})
	t.Run("mainfail", func(t *testing.T) {
		// TestMain failed the package before m.Run, or after tests that
		// all passed: the failure is at TestMain and says which.
		want := map[string]report.Failure{
			"example.com/failures/mainfail": {File: "mainfail/mainfail_test.go", Line: 12,
				Message: "TestMain exited with a failure before running any test (none of the package's tests ran); it printed:\ncannot reach the database"},
			"example.com/failures/mainafter": {File: "mainafter/mainafter_test.go", Line: 11,
				Message: "the tests passed, then TestMain exited with a failure; it printed:\nteardown: 2 files left behind"},
		}
		for _, args := range [][]string{{"./mainfail"}, {"./mainafter"}, {"./mainfail", "./mainafter"}} {
			rec, _ := run(t, args...)
			for _, a := range args {
				pkg := "example.com/failures/" + strings.TrimPrefix(a, "./")
				w := want[pkg]
				f := rec.Failure(pkg, pkg)
				if f == nil || f.File != w.File || f.Line != w.Line || f.Message != w.Message {
					t.Errorf("go test %s: %s: failure %+v, want %s:%d %q", args, pkg, f, w.File, w.Line, w.Message)
				}
			}
		}
	})
	t.Run("cover", func(t *testing.T) {
		// Under -cover, a package without test files prints go's own
		// "coverage: 0.0% of statements" line and passes: it has no
		// tests, not a TestMain that exited before them.
		_, out := run(t, "-cover", "./notests", "./mainskip")
		want := "example.com/failures/mainskip's TestMain exited before running its tests (printed: MAINSKIP_DB not set: skipping the database tests"
		if !strings.Contains(out.Hint, want) || strings.Contains(out.Hint, "notests") {
			t.Errorf("hint %q: want %q and nothing of notests", out.Hint, want)
		}
	})
	t.Run("race", func(t *testing.T) {
		rec, out := run(t, "-race", "./race")
		requireRace(t, out)
		f := rec.Failure("example.com/failures/race", "TestRace")
		if f == nil || f.File != "race/race_test.go" || (f.Line != 11 && f.Line != 14) ||
			!strings.HasPrefix(f.Message, "data race (go test -race): ") || !strings.Contains(f.Message, "race/race_test.go:11") || !strings.Contains(f.Message, "race/race_test.go:14") {
			t.Errorf("TestRace: failure %+v, want the race's accesses at race/race_test.go:11 and :14", f)
		}
	})
}

// TestGoRealFuzz runs a fuzz target whose input fails: one in the seed
// corpus (testdata/fuzz/FuzzX/ID, run by a plain go test as the subtest
// FuzzX/ID) and one the fuzzer finds and writes there. The failure names
// the input's file, and its rerun runs that input alone, without fuzzing
// again, as go's own "To re-run" says.
func TestGoRealFuzz(t *testing.T) {
	testutil.RequireTool(t, "go")
	if testing.Short() {
		t.Skip("runs go test on a fuzz target")
	}
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"go.mod": "module example.com/fz\n\ngo 1.22\n",
		"fz/fz_test.go": `package fz

import "testing"

func FuzzDigit(f *testing.F) {
	f.Add("abc")
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range s {
			if r >= '0' && r <= '9' {
				t.Errorf("digit in %q", s)
			}
		}
	})
}
`,
		"fz/testdata/fuzz/FuzzDigit/582528ddfad69eb5": "go test fuzz v1\nstring(\"a1\")\n",
	})
	run := func(args ...string) *adapters.Recorder {
		rec, _, _ := adapterstest.RunReal(t, gotest{}, adapters.Request{ProjectRoot: root, Command: append([]string{"go", "test", "-count=1"}, args...)})
		return rec
	}
	rerunFails := func(f *report.Failure, want string) {
		t.Helper()
		cmd := exec.Command("sh", "-c", strings.Replace(f.Rerun, "go test", "go test -v", 1))
		cmd.Dir = root
		b, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(b), want) || strings.Contains(string(b), "fuzz: elapsed") {
			t.Errorf("%s: %v, want the input %s to fail without fuzzing\n%s", f.Rerun, err, want, b)
		}
	}

	rec := run("./...")
	f := rec.Failure("example.com/fz/fz", "FuzzDigit/582528ddfad69eb5")
	if f == nil || f.File != "fz/fz_test.go" || f.Line != 10 ||
		f.Message != "digit in \"a1\"\n(the input is fz/testdata/fuzz/FuzzDigit/582528ddfad69eb5)" ||
		f.Rerun != "go test -count=1 -run '^FuzzDigit$/^582528ddfad69eb5$' ./fz" {
		t.Fatalf("seed corpus failure %+v: want fz/fz_test.go:10 naming the input's file", f)
	}
	rerunFails(f, `digit in "a1"`)

	if err := os.Remove(filepath.Join(root, "fz", "testdata", "fuzz", "FuzzDigit", "582528ddfad69eb5")); err != nil {
		t.Fatal(err)
	}
	rec = run("-run", "^$", "-fuzz", "FuzzDigit", "-fuzztime", "60s", "./fz")
	f = rec.Failure("example.com/fz/fz", "FuzzDigit")
	if f == nil || f.File != "fz/fz_test.go" || f.Line != 10 {
		t.Fatalf("fuzzing's failure %+v: want fz/fz_test.go:10", f)
	}
	written, _ := filepath.Glob(filepath.Join(root, "fz", "testdata", "fuzz", "FuzzDigit", "*"))
	if len(written) != 1 {
		t.Fatalf("fuzzing wrote %q, want one failing input", written)
	}
	id := filepath.Base(written[0])
	if !strings.HasSuffix(f.Message, "\n(the input is fz/testdata/fuzz/FuzzDigit/"+id+")") ||
		f.Rerun != "go test -count=1 -run '^FuzzDigit$/^"+id+"$' ./fz" {
		t.Fatalf("fuzzing's failure %+v: want the written input %s named and rerun alone", f, id)
	}
	rerunFails(f, "digit in")
}

// TestGoRealSlashSubtest: a subtest named with a slash (t.Run("a/b"), full
// name TestX/a/b) beside a subtest "a". testing splits both -run's pattern
// and a test's name at every slash and matches them element by element, and
// a partial match runs a test so that its subtests may match: any pattern
// that runs TestX/a/b runs TestX/a too, and -skip skips only on a full
// match, which TestX/a/b would share. So the selection and the rerun run
// TestX/a/b and TestX/a's own body, none of TestX/a's subtests and no other
// sibling; an escaped slash (^a\/b$) would run nothing.
func TestGoRealSlashSubtest(t *testing.T) {
	testutil.RequireTool(t, "go")
	if testing.Short() {
		t.Skip("runs go test")
	}
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"go.mod": "module example.com/slash\n\ngo 1.22\n",
		"x_test.go": `package slash

import "testing"

func TestX(t *testing.T) {
	t.Run("a/b", func(t *testing.T) { t.Error("a/b fails") })
	t.Run("a", func(t *testing.T) {
		t.Run("c", func(t *testing.T) {})
	})
	t.Run("a/d", func(t *testing.T) {})
}
`,
	})
	rec, _, _ := adapterstest.RunReal(t, gotest{}, adapters.Request{ProjectRoot: root, Test: "TestX/a/b"})
	var ran []string
	for _, tt := range rec.Tests() {
		ran = append(ran, tt.Name)
	}
	slices.Sort(ran)
	if want := []string{"TestX", "TestX/a", "TestX/a/b"}; !slices.Equal(ran, want) {
		t.Errorf("--test TestX/a/b ran %q, want %q", ran, want)
	}
	f := rec.Failure("example.com/slash", "TestX/a/b")
	if f == nil || f.Rerun != "go test -run '^TestX$/^a$/^b$' ." {
		t.Fatalf("failure %+v, want TestX/a/b's with its rerun", f)
	}
	cmd := exec.Command("sh", "-c", strings.Replace(f.Rerun, "go test", "go test -v", 1))
	cmd.Dir = root
	out, _ := cmd.CombinedOutput()
	var reran []string
	for _, l := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(l), "=== RUN   "); ok {
			reran = append(reran, name)
		}
	}
	if want := []string{"TestX", "TestX/a/b", "TestX/a"}; !slices.Equal(reran, want) {
		t.Errorf("the rerun ran %q, want %q\n%s", reran, want, out)
	}
}

// TestGoNoSuchSubtest: --test naming a subtest that is not there runs its
// parent, which passes, and none of its subtests (go says ok): no test
// asked for ran, and the answer says so, where it said passed.
func TestGoNoSuchSubtest(t *testing.T) {
	testutil.RequireTool(t, "go")
	if testing.Short() {
		t.Skip("runs go test on a fixture")
	}
	root := testutil.Fixture("go", "basic")
	for _, tc := range []struct {
		test, hint string
		none       bool
	}{
		{"TestTable/no such", `no subtest matched "TestTable/no such": TestTable ran, and none of its subtests (` + "`go test -run '^TestTable$' -v ./...`" + ` names them)`, true},
		{"TestTable/zero", "", false},
		{"TestTable/two plus two", "", false},
	} {
		_, out, _ := adapterstest.RunReal(t, gotest{}, adapters.Request{ProjectRoot: root, Test: tc.test})
		if out.NoTests != tc.none || !strings.Contains(out.Hint, tc.hint) {
			t.Errorf("--test %q: no tests %v, hint %q; want %v, %q", tc.test, out.NoTests, out.Hint, tc.none, tc.hint)
		}
	}
}

// TestGoPanicAfterSiblingCont: testing reports a panicking parallel
// subtest and its parents failed, and the panic follows; but a sibling's
// "=== CONT" may come between (1 run in 8 of parpanic's TestDeep here), so
// that the panic lands in the sibling's output. The recordings (`go test
// -v=test2json -run '^TestDeep$' ./parpanic` in testdata/failures) are
// such runs: the panic is still inner's, and later, which was running, is
// not blamed for it. In parpanic-held.txt (1 run in 30 on a loaded
// machine) later also printed its pass before the panic: test2json holds
// that pass back until the go command's FAIL, after the panic, and it is
// no sign that the binary lived on.
func TestGoPanicAfterSiblingCont(t *testing.T) {
	for _, rec := range []string{"parpanic-cont.txt", "parpanic-held.txt"} {
		t.Run(rec, func(t *testing.T) { panicAfterSibling(t, rec) })
	}
}

func panicAfterSibling(t *testing.T, recording string) {
	const pkg = "example.com/failures/parpanic"
	replayRecording(t, recording, pkg, func(framed bool, rec *adapters.Recorder) {
		f := rec.Failure(pkg, "TestDeep/outer/inner")
		if f == nil || f.File != "parpanic/deep_test.go" || f.Line != 11 || !strings.HasPrefix(f.Message, "panic: deep down") {
			t.Errorf("framed %v: TestDeep/outer/inner: failure %+v, want the panic at parpanic/deep_test.go:11", framed, f)
		}
		for _, tt := range rec.Tests() {
			if tt.Name != "TestDeep/outer/inner" && tt.Failure != nil && strings.HasPrefix(tt.Failure.Message, "panic: ") {
				t.Errorf("framed %v: the panic is also blamed on %s", framed, tt.Name)
			}
		}
	})
}

// replayRecording feeds a recording of `go test -v=test2json` of pkg (in
// testdata, rooted at testdata/failures) to the parser twice, framed by
// strobe and through go tool test2json as -json has it, and checks each
// run's record.
func replayRecording(t *testing.T, recording, pkg string, check func(framed bool, rec *adapters.Recorder)) {
	t.Helper()
	root, _ := filepath.Abs(filepath.Join("testdata", "failures"))
	data, err := os.ReadFile(filepath.Join("testdata", recording))
	if err != nil {
		t.Fatal(err)
	}
	for _, framed := range []bool{true, false} {
		rec := adapters.NewRecorder()
		p := newGoParser(rec, root, []goModule{{"example.com/failures", "."}}, []string{"go", "test"}, "no test ran")
		lines := strings.SplitAfter(strings.ReplaceAll(string(data), "{{ROOT}}", root), "\n")
		if framed {
			p.framer = newGoFramer(pkg, p.event)
		} else {
			cmd := exec.Command("go", "tool", "test2json", "-t", "-p", pkg)
			cmd.Stdin = strings.NewReader(strings.Join(lines, ""))
			b, err := cmd.Output()
			if err != nil {
				t.Fatalf("test2json: %v", err)
			}
			lines = strings.SplitAfter(string(b), "\n")
		}
		for _, l := range lines {
			if l != "" {
				p.Line(adapters.Stdout, []byte(strings.TrimSuffix(l, "\n")), false)
			}
		}
		p.Finish(goExited(1))
		check(framed, rec)
	}
}

// TestGoRealFailedRows: a rerun of a table test's failed rows (--failed)
// runs those rows, not their passing siblings (BurntSushi/toml's decode
// tests: 6 failed rows ran 31 tests); a whole test beside rows of
// another runs the rows' siblings, as it must run its own subtests.
func TestGoRealFailedRows(t *testing.T) {
	testutil.RequireTool(t, "go")
	if testing.Short() {
		t.Skip("runs go test")
	}
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"go.mod": "module example.com/rows\n\ngo 1.22\n",
		"rows_test.go": `package rows

import "testing"

func TestTable(t *testing.T) {
	for _, name := range []string{"one", "two (2)", "three", "four"} {
		t.Run(name, func(t *testing.T) {
			if name == "two (2)" || name == "four" {
				t.Error("fails")
			}
		})
	}
}

func TestOther(t *testing.T) {
	t.Run("a", func(t *testing.T) {})
	t.Run("b", func(t *testing.T) { t.Error("fails") })
}

func TestWhole(t *testing.T) {
	t.Run("one", func(t *testing.T) {})
	t.Error("fails")
}
`,
	})
	for _, tc := range []struct {
		tests []string
		want  []string
	}{
		{[]string{"TestTable", "TestTable/two_(2)", "TestTable/four", "TestOther", "TestOther/b"},
			[]string{"TestOther", "TestOther/b", "TestTable", "TestTable/four", "TestTable/two_(2)"}},
		{[]string{"TestTable", "TestTable/four", "TestWhole"},
			[]string{"TestTable", "TestTable/four", "TestTable/one", "TestTable/three", "TestTable/two_(2)", "TestWhole", "TestWhole/one"}},
	} {
		var refs []adapters.TestRef
		for _, n := range tc.tests {
			refs = append(refs, adapters.TestRef{Suite: "example.com/rows", Name: n})
		}
		rec, _, _ := adapterstest.RunReal(t, gotest{}, adapters.Request{ProjectRoot: root, Tests: refs})
		var ran []string
		for _, tt := range rec.Tests() {
			ran = append(ran, tt.Name)
		}
		slices.Sort(ran)
		if !slices.Equal(ran, tc.want) {
			t.Errorf("rerun of %q ran %q, want %q", tc.tests, ran, tc.want)
		}
	}
}

// TestGoRealFailedWithCommand: --failed after a run of the project's own
// go test command reruns the failures under that command's flags, in
// their packages only. It was refused ("drop the command"), and the run
// without the command built other files: xxhash's failure under -tags
// purego is in a file only that tag builds.
func TestGoRealFailedWithCommand(t *testing.T) {
	testutil.RequireTool(t, "go")
	if testing.Short() {
		t.Skip("runs go test")
	}
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"go.mod": "module example.com/tags\n\ngo 1.22\n",
		"sum/sum_test.go": `package sum

import "testing"

func TestPasses(t *testing.T) {}
`,
		"sum/pure_test.go": `//go:build purego

package sum

import "testing"

func TestPure(t *testing.T) {
	t.Run("input=\"asd\"", func(t *testing.T) { t.Error("wrong sum") })
	t.Run("other", func(t *testing.T) {})
}
`,
		"other/other_test.go": `package other

import "testing"

func TestOther(t *testing.T) {}
`,
	})
	refs := []adapters.TestRef{{Suite: "example.com/tags/sum", Name: "TestPure"}, {Suite: "example.com/tags/sum", Name: `TestPure/input="asd"`}}
	rec, out, _ := adapterstest.RunReal(t, gotest{}, adapters.Request{ProjectRoot: root, Tests: refs,
		Command: []string{"go", "test", "-tags", "purego", "./..."}})
	var ran []string
	for _, tt := range rec.Tests() {
		ran = append(ran, tt.Suite+" "+tt.Name+" "+string(tt.Status))
	}
	slices.Sort(ran)
	want := []string{"example.com/tags/sum TestPure failed", `example.com/tags/sum TestPure/input="asd" failed`}
	if !slices.Equal(ran, want) {
		t.Fatalf("ran %q (%+v), want %q", ran, out, want)
	}
	got, _ := rec.Lookup("example.com/tags/sum", `TestPure/input="asd"`)
	if got.Failure == nil || got.Failure.Rerun != `go test -tags purego -run '^TestPure$/^input="asd"$' ./sum` {
		t.Errorf("failure = %+v, want a rerun with -tags purego", got.Failure)
	}
}

// TestGoNoModule: --framework go where no go.mod is, in or above, is a
// usage error that says what to give, not go's "cannot find main module"
// read as a build failure; GOPATH mode needs none.
func TestGoNoModule(t *testing.T) {
	root := t.TempDir()
	_, err := gotest{}.Plan(context.Background(), adapters.Request{ProjectRoot: root}, adapters.NewRecorder())
	var ue *adapters.UsageError
	if !errors.As(err, &ue) || ue.Framework != "go" || !strings.Contains(ue.Hint, "give the Go module's directory") {
		t.Errorf("no go.mod: %v, want a usage error naming go", err)
	}
	sub := filepath.Join(root, "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := (gotest{}).Plan(context.Background(), adapters.Request{ProjectRoot: sub}, adapters.NewRecorder()); err != nil {
		t.Errorf("a package's directory below go.mod: %v, want it planned (go finds the module above)", err)
	}
}

// TestGoPanicOfAFailedParallelTest: a parallel test that panics in its own
// goroutine is reported failed ("--- FAIL: TestParB") after a sibling's
// failure, and its panic follows: the panic is TestParB's (its stack runs
// it), and TestParA/case_2 keeps its own failure. The panic was given to
// TestParA/case_2, as if a goroutine TestParB left behind had panicked
// while it ran, and TestParB "failed without a message" (google/uuid's
// suite with a nil dereference added). The recording is `go test
// -v=test2json -run '^TestPar'` of a package whose TestParA (parallel)
// runs parallel subtests "case 1" and "case 2", the second failing at once
// with t.Fatalf, and whose TestParB (parallel) sleeps 100 ms, then calls a
// method on a nil pointer.
func TestGoPanicOfAFailedParallelTest(t *testing.T) {
	const pkg = "example.com/failures/parown"
	replayRecording(t, "parpanic-own.txt", pkg, func(framed bool, rec *adapters.Recorder) {
		if f := rec.Failure(pkg, "TestParB"); f == nil || f.File != "parown/par_test.go" || f.Line != 10 || !strings.HasPrefix(f.Message, "panic: runtime error: invalid memory address") {
			t.Errorf("framed %v: TestParB: failure %+v, want its panic at parown/par_test.go:10", framed, f)
		}
		if f := rec.Failure(pkg, "TestParA/case_2"); f == nil || f.Line != 19 || f.Message != "bad case 2" {
			t.Errorf("framed %v: TestParA/case_2: failure %+v, want its own, bad case 2 at line 19", framed, f)
		}
	})
}

// TestGoStoppedSaysWhatDidNotRun: a run strobe stopped at a hung test
// says that the package's later tests and the packages not yet tested did
// not run (go test prints nothing of them), and how to run the rest
// without what hung; a run that ended by itself says nothing of it, and
// one stopped at its timeout says so, not that a test hung (a slow test
// that printed as it went was called hung).
// google/uuid with a select{} in its first test file: 0 passed, 1 stuck,
// and its other 201 tests unmentioned.
func TestGoStoppedSaysWhatDidNotRun(t *testing.T) {
	for _, stopped := range []string{report.StoppedStuck, report.StoppedTimeout, ""} {
		rec := adapters.NewRecorder()
		p := newGoParser(rec, "/p", nil, []string{"go", "test"}, "no test ran")
		p.whole = []string{"go", "test", "-count=1", "./..."}
		for _, l := range []string{
			`{"Action":"start","Package":"example.com/m"}`,
			`{"Action":"run","Package":"example.com/m","Test":"TestA"}`,
			`{"Action":"pass","Package":"example.com/m","Test":"TestA","Elapsed":0}`,
			`{"Action":"run","Package":"example.com/m","Test":"TestHang"}`,
			`{"Action":"run","Package":"example.com/m","Test":"TestHang/row"}`,
		} {
			p.Line(adapters.Stdout, []byte(l), false)
		}
		out := p.Finish(report.Exit{Signaled: true, Signal: 9, StoppedBy: stopped})
		want := "go test was stopped at what hung: the tests of example.com/m that had not run yet, and the packages not yet tested, did not run and are in no count; " +
			"to run the rest without what hung: go test -skip '^TestHang$' -count=1 ./..."
		switch stopped {
		case "":
			want = ""
		case report.StoppedTimeout:
			want = "go test was stopped at its timeout: the tests of example.com/m that had not run yet, and the packages not yet tested, did not run and are in no count; " +
				"to run the rest without what was running: go test -skip '^TestHang$' -count=1 ./..."
		}
		if !strings.Contains(out.Hint, want) || want == "" && strings.Contains(out.Hint, "was stopped") {
			t.Errorf("stopped by %q: hint %q, want %q", stopped, out.Hint, want)
		}
	}
}
