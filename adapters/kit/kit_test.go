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
	f := &report.Failure{File: "a_test.cpp", Line: 3, Message: "CHECK( a == 1 )"}
	AddFailure(f, "\n\n", "a_test.cpp", 9, "CHECK( b == 2 )")
	AddFailure(f, "\n\n", "helper.hpp", 0, "FAIL()")
	AppendMessage(f, "\n", "with expansion: 3 == 2")
	want := "CHECK( a == 1 )\n\na_test.cpp:9: CHECK( b == 2 )\n\nhelper.hpp: FAIL()\nwith expansion: 3 == 2"
	if f.Message != want || f.File != "a_test.cpp" || f.Line != 3 {
		t.Errorf("failure %+v, want the first location and message %q", f, want)
	}
	long := strings.Repeat("x", MaxMessage)
	AppendMessage(f, "\n", long)
	if len(f.Message) > MaxMessage+len("…") {
		t.Errorf("message grew to %d bytes", len(f.Message))
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
