package runner

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
)

// TestEachCrashedInItsOwnProcess: CTest runs every test in a process of
// its own, and two of the ctest fixture's GoogleTest tests each die of a
// signal of their own (a null dereference, an abort). The hint said "a
// test process crashed while A, B ran: rerun each of them alone (one of
// them did it, …)", where each did; it says that each crashed, and of
// what.
func TestEachCrashedInItsOwnProcess(t *testing.T) {
	parallel(t, true)
	for _, tool := range []string{"cmake", "ctest", "g++"} {
		testutil.RequireTool(t, tool)
	}
	testutil.RequireHeader(t, "/usr/include/gtest/gtest.h", "libgtest-dev")
	testutil.RequireHeader(t, "/usr/include/catch2/catch.hpp", "catch2")
	src, err := filepath.Abs(filepath.Join("..", "adapters", "ctest", "testdata", "project"))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := testutil.CMakeTree(src)
	if err != nil {
		t.Fatalf("building the ctest fixture: %v", err)
	}
	resp, _ := runReq(t, Request{ProjectRoot: src, Framework: "ctest",
		Command: shell.Join([]string{"ctest", "--test-dir", tree, "-R", `^Crash\.(DereferencesNull|Aborts)$`})})
	if resp.Status != report.Crashed || resp.Crash == nil || !slices.Equal(resp.Crash.RunningTests, []string{"Crash.DereferencesNull", "Crash.Aborts"}) {
		t.Fatalf("status %s, crash %+v: want crashed, naming both tests", resp.Status, resp.Crash)
	}
	want := "each of Crash.DereferencesNull, Crash.Aborts crashed, each in a test process of its own (Crash.DereferencesNull died of SIGSEGV; Crash.Aborts died of SIGABRT): rerun each alone"
	if !strings.Contains(resp.Hint, want) || strings.Contains(resp.Hint, "one of them did it") {
		t.Errorf("hint %q\nwant %q, and not that one of them did it", resp.Hint, want)
	}
}
