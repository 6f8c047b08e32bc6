package kit

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"strobe/report"
)

func TestProjectPath(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"/p/src/a.cpp", "src/a.cpp"},
		{"/p", "."},
		{"/other/a.cpp", "/other/a.cpp"},
		{"/p/../p2/a.cpp", "/p/../p2/a.cpp"},
		{"/p/..hidden/a.cpp", "..hidden/a.cpp"},
		{"src/a.cpp", "src/a.cpp"},
	} {
		if got := ProjectPath("/p", tc.file); got != tc.want {
			t.Errorf("ProjectPath(/p, %q) = %q, want %q", tc.file, got, tc.want)
		}
	}
	if rel, ok := Rel("/p", "sub/mod"); !ok || rel != "sub/mod" {
		t.Errorf("Rel(/p, sub/mod) = %q, %v", rel, ok)
	}
	if _, ok := Rel("/p", "../x"); ok {
		t.Error("Rel(/p, ../x) is inside")
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("é", MaxMessage) // two bytes each
	if got := Clip(long); len(got) > MaxMessage+len("…") || !strings.HasSuffix(got, "é…") {
		t.Errorf("Clip cut %d bytes, ending %q", len(got), got[len(got)-6:])
	}
	if got := ClipTail(long); !strings.HasPrefix(got, "…é") || len(got) > MaxMessage+len("…") {
		t.Errorf("ClipTail kept %d bytes, starting %q", len(got), got[:6])
	}
	if got := ClipTo("abcdef", 3, "+"); got != "abc+" {
		t.Errorf("ClipTo = %q", got)
	}
	if got := ClipTo("abc", 3, "+"); got != "abc" {
		t.Errorf("ClipTo of a short string = %q", got)
	}
}

func TestSignals(t *testing.T) {
	for _, tc := range []struct {
		sig   syscall.Signal
		name  string
		crash report.CrashType
	}{
		{syscall.SIGSEGV, "SIGSEGV", report.CrashSegmentationFault},
		{syscall.SIGBUS, "SIGBUS", report.CrashBusError},
		{syscall.SIGKILL, "SIGKILL", report.CrashKilled},
		{syscall.SIGQUIT, "SIGQUIT", report.CrashUnknown},
	} {
		if got := SignalName(int(tc.sig)); got != tc.name {
			t.Errorf("SignalName(%d) = %q, want %q", tc.sig, got, tc.name)
		}
		if got := SignalNumber(tc.name); got != int(tc.sig) {
			t.Errorf("SignalNumber(%s) = %d", tc.name, got)
		}
		if got := CrashType(tc.name); got != tc.crash {
			t.Errorf("CrashType(%s) = %s, want %s", tc.name, got, tc.crash)
		}
		if got := SignalByText(tc.sig.String()); got != tc.name {
			t.Errorf("SignalByText(%q) = %q", tc.sig.String(), got)
		}
		if got := ExitSignal(report.Exit{Signaled: true, Signal: int(tc.sig)}); got != tc.name {
			t.Errorf("ExitSignal(%d) = %q", tc.sig, got)
		}
	}
	if got := SignalName(99); got != "signal 99" {
		t.Errorf("SignalName(99) = %q", got)
	}
	if got := ExitSignal(report.Exit{Exited: true}); got != "" {
		t.Errorf("ExitSignal of an exit = %q", got)
	}
}

func TestAddFailure(t *testing.T) {
	f := &report.Failure{File: "a_test.cpp", Line: 3, Message: "CHECK( a == 1 )\nwith expansion:\n  2 == 1"}
	AddFailure(f, "a_test.cpp", 9, "CHECK( b == 2 )")
	AppendMessage(f, "\n", "with expansion:\n  3 == 2")
	AddFailure(f, "helper.hpp", 0, "FAIL()")
	AddFailure(f, "", 0, "no place")
	want := "CHECK( a == 1 )\nwith expansion:\n  2 == 1\nand 3 more failures in this test:\n" +
		"a_test.cpp:9: CHECK( b == 2 ) with expansion: 3 == 2\nhelper.hpp: FAIL()\nno place"
	if f.Message != want || f.File != "a_test.cpp" || f.Line != 3 {
		t.Errorf("failure %+v, want the first location and message %q", f, want)
	}
	if len(f.Later) != 3 || f.Later[0] != (report.LaterFailure{File: "a_test.cpp", Line: 9, Message: "CHECK( b == 2 )\nwith expansion:\n  3 == 2"}) {
		t.Errorf("later failures %+v", f.Later)
	}
	long := strings.Repeat("x", MaxMessage)
	AppendMessage(f, "\n", long)
	if len(f.Message) > MaxMessage+len("…")+laterShown*(laterWidth+1)+100 {
		t.Errorf("message grew to %d bytes", len(f.Message))
	}
}

// TestAddFailureLoop: a check failing in a loop names the first few,
// counts the rest, and keeps the first laterKept.
func TestAddFailureLoop(t *testing.T) {
	f := &report.Failure{File: "a.cpp", Line: 5, Message: "i=0"}
	for i := 1; i < 1000; i++ {
		AddFailure(f, "a.cpp", 5, "i="+strconv.Itoa(i)+" "+strings.Repeat("y", 300))
	}
	lines := strings.Split(f.Message, "\n")
	if len(lines) != 2+laterShown+1 || lines[1] != "and 999 more failures in this test:" ||
		!strings.HasPrefix(lines[2], "a.cpp:5: i=1 yyy") || len(lines[2]) != len("a.cpp:5: ")+laterWidth+len("…") ||
		lines[len(lines)-1] != "(994 more: the details file's later_failures)" {
		t.Errorf("message:\n%s", f.Message)
	}
	if len(f.Later) != laterKept || f.LaterOmitted != 999-laterKept {
		t.Errorf("kept %d, omitted %d", len(f.Later), f.LaterOmitted)
	}
	// An answer's clip keeps the block whole, the first message gives way.
	f.Message = strings.Repeat("z", 2000) + laterBlock(f)
	got := ClipFailure(*f, 800, "…")
	if !strings.HasSuffix(got, laterBlock(f)) || !strings.HasPrefix(got, "zzz") || len(got) > 800+2*len("…") {
		t.Errorf("clipped to %d bytes:\n%s", len(got), got)
	}
	if got := ClipFailure(report.Failure{Message: strings.Repeat("z", 900)}, 800, "…"); len(got) != 800+len("…") {
		t.Errorf("a failure alone clipped to %d bytes", len(got))
	}
}

// TestOmitFailures: a parser that kept the first LaterKept failures and
// counted the rest says the same as AddFailure given them all.
func TestOmitFailures(t *testing.T) {
	all := &report.Failure{File: "a.cpp", Line: 5, Message: "i=0"}
	kept := &report.Failure{File: "a.cpp", Line: 5, Message: "i=0"}
	for i := 1; i < 1000; i++ {
		AddFailure(all, "a.cpp", 5, "i="+strconv.Itoa(i))
		if i <= LaterKept {
			AddFailure(kept, "a.cpp", 5, "i="+strconv.Itoa(i))
		}
	}
	OmitFailures(kept, 999-LaterKept)
	OmitFailures(kept, 0)
	if kept.Message != all.Message || kept.LaterOmitted != all.LaterOmitted || len(kept.Later) != len(all.Later) {
		t.Errorf("counted:\n%s\n%d omitted\nwant:\n%s\n%d omitted", kept.Message, kept.LaterOmitted, all.Message, all.LaterOmitted)
	}
}

func TestJoinAnd(t *testing.T) {
	for want, list := range map[string][]string{"": nil, "a": {"a"}, "a and b": {"a", "b"}, "a, b and c": {"a", "b", "c"}} {
		if got := JoinAnd(list); got != want {
			t.Errorf("JoinAnd(%q) = %q, want %q", list, got, want)
		}
	}
}

// TestParentArgs reads this test binary's parent's command line.
func TestParentArgs(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(os.Getppid()), "cmdline"))
	if err != nil {
		t.Skip("no /proc here")
	}
	got, ok := ParentArgs(os.Getpid())
	if !ok || strings.Join(got, "\x00") != strings.TrimSuffix(string(want), "\x00") {
		t.Errorf("ParentArgs = %q, %v; want %q", got, ok, want)
	}
	if _, ok := ParentArgs(0); ok {
		t.Error("ParentArgs(0) answered")
	}
}
