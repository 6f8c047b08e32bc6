package main

// End-to-end tests of tracing through `strobe mcp`, as an agent uses it:
// a failing test, its suggested_traces fed back as tracePatterns with test
// set, then debug_query by the answer's sessionId shows the argument that
// caused the failure. Two calls after the failure, no code edited.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
	"strobe/trace"
)

// requirePytest skips without python3 and pytest, and fails under CI.
func requirePytest(t *testing.T) {
	t.Helper()
	py := testutil.RequireTool(t, "python3")
	if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pytest is not installed: .ci/run must install it")
		}
		t.Skip("pytest is not installed")
	}
}

// copyFixture copies a fixture project of the repository (rel from its
// root) to a temporary directory, so that no build output lands in it.
func copyFixture(t *testing.T, rel string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(rel))
	testutil.CopyTree(t, filepath.Join(testutil.Root(), rel), dst)
	return dst
}

// query calls debug_query: its text, and the page of its structured
// content; a tool error comes back as toolErr.
func query(t *testing.T, cs *mcp.ClientSession, args map[string]any) (text string, page trace.Page, toolErr string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "debug_query", Arguments: args})
	if err != nil {
		t.Fatalf("debug_query: %v", err)
	}
	if len(res.Content) > 0 {
		text = res.Content[0].(*mcp.TextContent).Text
	}
	if res.IsError {
		return "", page, text
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &page); err != nil {
		t.Fatalf("debug_query's structured content: %v: %s", err, b)
	}
	return text, page, ""
}

// fromFailureToCause is the agent's path: run the suite, take the failure
// named name, rerun it traced with its suggested traces, then query the
// enters of fn. It returns the traced answer and the query's text.
func fromFailureToCause(t *testing.T, cs *mcp.ClientSession, args map[string]any, name, fn string) (report.Response, string) {
	t.Helper()
	first, terr := call(t, cs, "debug_test", args, nil)
	if first.Status != report.Failed {
		t.Fatalf("untraced run: %s %s %+v", first.Status, terr, first)
	}
	f := findFailure(t, first, name)
	if len(f.SuggestedTraces) == 0 {
		t.Fatalf("%s has no suggested_traces: %+v", name, f)
	}
	t.Logf("suggested_traces: %v", f.SuggestedTraces)

	// Call 1: the traced rerun.
	again := map[string]any{"test": f.Name, "tracePatterns": f.SuggestedTraces}
	for k, v := range args {
		again[k] = v
	}
	traced, terr := call(t, cs, "debug_test", again, nil)
	if traced.Status != report.Failed || traced.SessionID == "" || traced.Trace == nil || traced.Trace.Matched.Count == 0 {
		t.Fatalf("traced run: %s %s, session %q, trace %+v", traced.Status, terr, traced.SessionID, traced.Trace)
	}
	if traced.Summary == nil || traced.Summary.Failed != 1 || traced.Summary.Passed != 0 {
		t.Errorf("the traced run ran more than %s: %+v", name, traced.Summary)
	}
	if len(traced.Trace.Unmatched) > 0 {
		t.Errorf("a suggested trace matched nothing: %+v", traced.Trace.Unmatched)
	}
	if left := processesOf(traced.RunID); len(left) > 0 {
		t.Errorf("processes of the traced run outlived it: %v", left)
	}
	// Call 2: the query.
	text, page, terr := query(t, cs, map[string]any{"sessionId": traced.SessionID, "function": map[string]any{"contains": fn}, "eventType": "enter"})
	if terr != "" || len(page.Lines) == 0 || page.SessionID != traced.SessionID {
		t.Fatalf("debug_query: %s %q %+v", terr, text, page)
	}
	t.Logf("debug_query:\n%s", text)
	return traced, text
}

func TestMCPTraceGo(t *testing.T) {
	testutil.RequireDelve(t)
	root := copyFixture(t, "adapters/gotest/testdata/trace")
	cs := stdioSession(t, "", nil)
	traced, text := fromFailureToCause(t, cs, map[string]any{"projectRoot": root}, "TestTotal", "shop.Discount")
	if !strings.Contains(text, "shop.Discount(total=10, percent=510) @shop/shop.go:") {
		t.Errorf("the query does not show Discount getting the swapped arguments:\n%s", text)
	}
	// The output events show go test's text, not test2json's lines, and a
	// unique prefix of the session id is enough.
	text, page, terr := query(t, cs, map[string]any{"sessionId": traced.SessionID[:8], "eventType": "stdout"})
	if terr != "" || page.SessionID != traced.SessionID || !strings.Contains(text, "stdout: === RUN   TestTotal") ||
		!strings.Contains(text, "shop_test.go:8: Total = -41, want 459") || strings.Contains(text, `"Action"`) {
		t.Errorf("stdout events by prefix %s: %s\n%s", traced.SessionID[:8], terr, text)
	}
}

func TestMCPTracePython(t *testing.T) {
	requirePytest(t)
	root := copyFixture(t, "adapters/pytest/testdata/fixtures/trace")
	cs := stdioSession(t, "", nil)
	_, text := fromFailureToCause(t, cs, map[string]any{"projectRoot": root}, "tests/test_calc.py::test_adds", "parse_int")
	if !strings.Contains(text, "calc.tokens.parse_int(text='10', base=8) @calc/tokens.py:5") {
		t.Errorf("the query does not show parse_int reading base 8:\n%s", text)
	}
}

func TestMCPTraceCargo(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	testutil.RequireTool(t, "gdb")
	root := copyFixture(t, "adapters/cargo/testdata/fixtures/traced")
	cs := stdioSession(t, "", nil)
	// The fixture's deadlock test hangs: the agent's first run is the
	// failing test alone.
	traced, text := fromFailureToCause(t, cs, map[string]any{"projectRoot": root, "test": "tests::sum_two"}, "tests::sum_two", "parser::parse")
	if !strings.Contains(text, `traced::parser::parse(s=",3") @src/lib.rs:`) {
		t.Errorf("the query does not show parse getting the comma:\n%s", text)
	}
	// The output events show libtest's lines and the test's output, not
	// cargo's build messages nor libtest's JSON events, which the gdb
	// tracer's parser kept.
	text, _, terr := query(t, cs, map[string]any{"sessionId": traced.SessionID, "eventType": "stdout"})
	if terr != "" || !strings.Contains(text, "stdout: test tests::sum_two ... failed") || !strings.Contains(text, "assertion `left == right` failed") ||
		strings.Contains(text, `"reason"`) || strings.Contains(text, `"type"`) {
		t.Errorf("stdout events: %s\n%s", terr, text)
	}
}

func TestMCPTraceGtest(t *testing.T) {
	testutil.RequireTool(t, "cmake")
	testutil.RequireTool(t, "gdb")
	root := copyFixture(t, "adapters/gtest/testdata/traced")
	build := filepath.Join(root, "build")
	for _, argv := range [][]string{{"cmake", "-S", root, "-B", build, "-DCMAKE_BUILD_TYPE=Debug"}, {"cmake", "--build", build, "-j2"}} {
		if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", argv, err, out)
		}
	}
	cs := stdioSession(t, "", nil)
	args := map[string]any{"projectRoot": root, "framework": "gtest", "command": filepath.Join(build, "traced_test")}
	_, text := fromFailureToCause(t, cs, args, "Calc.SumTwo", "calc::parse")
	if !strings.Contains(text, `calc::parse(s=",3")`) {
		t.Errorf("the query does not show parse getting the comma:\n%s", text)
	}
}

func TestMCPTraceCatch2(t *testing.T) {
	testutil.RequireTool(t, "gdb")
	bins := testutil.Catch2Fixtures(t)
	root := testutil.Fixture("catch2", "plain")
	cs := stdioSession(t, "", nil)
	args := map[string]any{"projectRoot": root, "framework": "catch2", "command": filepath.Join(bins, "basic"), "test": "adds wrongly"}
	_, text := fromFailureToCause(t, cs, args, "adds wrongly", "add")
	if !regexp.MustCompile(`→ add\((a|x|lhs)=2, \w+=2\) @basic\.cpp:`).MatchString(text) {
		t.Errorf("the query does not show add's arguments:\n%s", text)
	}
}

// The contract's bad input and bounds, end to end on the Go tracer: a
// watch on a package-level counter, a pattern matching nothing (the run
// is answered, with the nearest names), a pattern too broad (refused
// before any test runs), a session that does not exist, and a traced run
// cancelled mid-trace leaving no dlv, test binary or go behind.
func TestMCPTraceGoBadInput(t *testing.T) {
	testutil.RequireDelve(t)
	root := copyFixture(t, "adapters/gotest/testdata/trace")
	cs := stdioSession(t, "", nil)

	t.Run("watch and unmatched", func(t *testing.T) {
		resp, terr := call(t, cs, "debug_test", map[string]any{"projectRoot": root, "test": "TestTotal", "tracePatterns": []string{"shop.Discont"},
			"watches": []map[string]any{{"variable": "Lookups", "on": []string{"shop.Subtotal"}}}}, nil)
		if resp.Status != report.Failed || resp.Trace == nil {
			t.Fatalf("%s %s %+v", resp.Status, terr, resp)
		}
		u := resp.Trace.Unmatched
		if len(u) != 1 || u[0].Pattern != "shop.Discont" || len(u[0].Nearest) == 0 || !strings.HasSuffix(u[0].Nearest[0], "shop.Discount") {
			t.Errorf("unmatched = %+v, want shop.Discont with shop.Discount nearest", u)
		}
		text, _, terr := query(t, cs, map[string]any{"sessionId": resp.SessionID, "eventType": "exit", "function": map[string]any{"contains": "Subtotal"}})
		if terr != "" || !strings.Contains(text, "shop.Subtotal = 360") || !strings.Contains(text, "[Lookups=1]") || !strings.Contains(text, "[Lookups=2]") {
			t.Errorf("the watch on Lookups: %s\n%s", terr, text)
		}
	})
	t.Run("too broad", func(t *testing.T) {
		resp, terr := call(t, cs, "debug_test", map[string]any{"projectRoot": root, "test": "TestTotal", "tracePatterns": []string{"reflect.**", "strconv.*", "strings.**", "fmt.**"}}, nil)
		if resp.Status != report.Error || !strings.Contains(resp.Error, "more than 200") || strings.Contains(resp.Error, "\n") || resp.Hint == "" {
			t.Fatalf("%s %s: error %q hint %q", resp.Status, terr, resp.Error, resp.Hint)
		}
		if s := resp.Summary; s != nil && s.Passed+s.Failed+s.Skipped > 0 || len(resp.Failures) > 0 {
			t.Errorf("tests ran before the refusal: %+v", s)
		}
	})
	t.Run("unknown session", func(t *testing.T) {
		_, _, terr := query(t, cs, map[string]any{"sessionId": "0123456789"})
		if !strings.Contains(terr, "no trace session") || strings.Contains(terr, "\n") {
			t.Errorf("tool error %q", terr)
		}
	})
	t.Run("cancel mid-trace", func(t *testing.T) {
		resp, terr := call(t, cs, "debug_test", map[string]any{"projectRoot": root, "test": "TestDeadlock", "tracePatterns": []string{"hang.*"},
			"env": map[string]string{"TRACEFIX_DEADLOCK": "1"}, "waitMs": 0}, nil)
		if resp.RunID == "" {
			t.Fatalf("%s %+v", terr, resp)
		}
		waitForCarrier(t, resp.RunID, "1.test", 90*time.Second)
		time.Sleep(time.Second) // in the trace: Twice's enter is recorded
		resp, terr = call(t, cs, "debug_test_cancel", map[string]any{"runId": resp.RunID}, nil)
		if resp.Status != report.Cancelled {
			t.Errorf("cancel: %s %s", resp.Status, terr)
		}
		noneCarry(t, resp.RunID, 10*time.Second)
	})
}

// waitForCarrier waits for a process named comm that carries the run's id.
func waitForCarrier(t *testing.T, runID, comm string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		for _, p := range processesOf(runID) {
			pid, _, _ := strings.Cut(p, " ")
			if c, _ := os.ReadFile("/proc/" + pid + "/comm"); strings.TrimSpace(string(c)) == comm {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s of run %s started: %v", comm, runID, processesOf(runID))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// noneCarry waits for every process carrying the run's id to be gone.
func noneCarry(t *testing.T, runID string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for len(processesOf(runID)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("left running: %v", processesOf(runID))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Ctrl+C of `strobe test` during a traced run that hangs stops it and
// leaves no debugger, test binary or python behind.
func TestCtrlCTraced(t *testing.T) {
	for _, tc := range []struct {
		name, fixture, test, pattern, env string
		comm                              string // the test process's name, or its start
		require                           func(*testing.T)
	}{
		{"go", "adapters/gotest/testdata/trace", "TestDeadlock", "hang.*", "TRACEFIX_DEADLOCK=1", "1.test", func(t *testing.T) { testutil.RequireDelve(t) }},
		{"cargo", "adapters/cargo/testdata/fixtures/traced", "tests::deadlock", "parser::*", "TRACED_UNUSED=1", "traced-", func(t *testing.T) {
			testutil.RequireTool(t, "cargo")
			testutil.RequireTool(t, "gdb")
		}},
		{"pytest", "adapters/pytest/testdata/fixtures/trace", "tests/test_calc.py::test_deadlock", "calc.bank.transfer", "CALC_DEADLOCK=1", "python3", requirePytest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.require(t)
			root := copyFixture(t, tc.fixture)
			mark := "STROBE_E2E_MARK=" + filepath.Base(t.TempDir())
			cmd := exec.Command(strobeBin, "test", root, "--test", tc.test, "--trace", tc.pattern, "--json")
			cmd.Env = append(os.Environ(), "TMPDIR="+tmpdir(t), "STROBE_HOME="+strobeHome(t), tc.env, mark)
			var stdout strings.Builder
			cmd.Stdout = &stdout
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			deadline := time.Now().Add(90 * time.Second)
			for !slices.ContainsFunc(markedComms(mark), func(c string) bool { return strings.HasPrefix(c, tc.comm) }) {
				if time.Now().After(deadline) {
					t.Fatalf("no %s started: %v", tc.comm, markedComms(mark))
				}
				time.Sleep(50 * time.Millisecond)
			}
			time.Sleep(time.Second) // into the hang, under the tracer
			cmd.Process.Signal(os.Interrupt)
			cmd.Wait()
			var resp report.Response
			if err := json.Unmarshal([]byte(stdout.String()), &resp); err != nil || resp.Status != report.Cancelled {
				t.Errorf("response %q (%v), want status cancelled", stdout.String(), err)
			}
			time.Sleep(200 * time.Millisecond)
			if left := markedComms(mark); len(left) > 0 {
				t.Errorf("left after Ctrl+C: %v", left)
			}
			if left := processesOf(resp.RunID); len(left) > 0 {
				t.Errorf("processes of the run left after Ctrl+C: %v", left)
			}
		})
	}
}

// markedComms are the names of the live processes of a strobe run whose
// environment has mark.
func markedComms(mark string) []string {
	var comms []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		env, err := os.ReadFile(d + "/environ")
		if err != nil || !strings.Contains(string(env), "\x00"+mark+"\x00") || !strings.Contains(string(env), runner.RunIDEnv+"=") {
			continue
		}
		if st, _ := os.ReadFile(d + "/stat"); strings.Contains(string(st), ") Z ") {
			continue
		}
		c, _ := os.ReadFile(d + "/comm")
		comms = append(comms, strings.TrimSpace(string(c)))
	}
	return comms
}

// A watch on a module-level or static counter reads it at each call, and
// a misspelt pattern is answered with the nearest names, for the Python
// and native tracers (the Go tracer's: TestMCPTraceGoBadInput).
func TestMCPTraceWatchAndUnmatched(t *testing.T) {
	for _, tc := range []struct {
		name, fixture, test, typo, nearest, variable, on, fn string
		want                                                 []string // in the query of fn's exits
		require                                              func(*testing.T)
	}{
		{"pytest", "adapters/pytest/testdata/fixtures/trace", "tests/test_calc.py::test_adds", "calc.tokens.parse_itn", "calc.tokens.parse_int",
			"produced", "calc.tokens.tokenize", "calc.tokens.tokenize", []string{"← calc.tokens.tokenize = [8, '+', 5]", "[produced=3]"}, requirePytest},
		{"cargo", "adapters/cargo/testdata/fixtures/traced", "tests::sum_two", "parser::prase", "traced::parser::parse",
			"traced::parser::PARSED", "parser::parse", "traced::parser::parse", []string{"[traced::parser::PARSED=1]", "[traced::parser::PARSED=2]"}, func(t *testing.T) {
				testutil.RequireTool(t, "cargo")
				testutil.RequireTool(t, "gdb")
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.require(t)
			root := copyFixture(t, tc.fixture)
			cs := stdioSession(t, "", nil)
			resp, terr := call(t, cs, "debug_test", map[string]any{"projectRoot": root, "test": tc.test, "tracePatterns": []string{tc.typo},
				"watches": []map[string]any{{"variable": tc.variable, "on": []string{tc.on}}}}, nil)
			if resp.Status != report.Failed || resp.Trace == nil {
				t.Fatalf("%s %s %+v", resp.Status, terr, resp)
			}
			u := resp.Trace.Unmatched
			if len(u) != 1 || u[0].Pattern != tc.typo || !slices.Contains(u[0].Nearest, tc.nearest) {
				t.Errorf("unmatched = %+v, want %s with %s among the nearest", u, tc.typo, tc.nearest)
			}
			text, _, terr := query(t, cs, map[string]any{"sessionId": resp.SessionID, "eventType": "exit", "function": map[string]any{"equals": tc.fn}})
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("the exits of %s lack %q: %s\n%s", tc.fn, w, terr, text)
				}
			}
		})
	}
}
