package stuck

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"strobe/adapters/kit/format"
	"strobe/adapters/kit/python"
	"strobe/internal/testutil"
)

// startPython runs code after strobe's faulthandler registration (unless
// register is false) with STROBE_STACKS_DIR=dir, and waits until it
// printed its first line. The process is killed when the test ends.
func startPython(t *testing.T, dir, code string, register bool) *exec.Cmd {
	t.Helper()
	py := testutil.RequireTool(t, "python3")
	if register {
		code = string(python.StacksModule) + "\n" + code
	}
	script := filepath.Join(t.TempDir(), "prog.py")
	if err := os.WriteFile(script, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, script)
	cmd.Env = append(os.Environ(), StacksDirEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	b := make([]byte, 64)
	if n, err := out.Read(b); err != nil || n == 0 {
		t.Fatalf("the program printed nothing: %v", err)
	}
	return cmd
}

const pyWaiter = `import threading, time
def wait_in_worker():
    time.sleep(60)
def test_waits():
    threading.Thread(target=wait_in_worker, name="worker").start()
    print("ready", flush=True)
    time.sleep(60)
test_waits()
`

// TestPythonStacksSnippet: the registration creates the process's dump
// file (and a forked child's own), and SIGUSR2 then dumps every thread's
// Python stack there, read back as function, file and line.
func TestPythonStacksSnippet(t *testing.T) {
	dir := t.TempDir()
	cmd := startPython(t, dir, `import os, time
pid = os.fork()
if pid == 0:
    os._exit(0 if os.path.exists(os.path.join(os.environ["STROBE_STACKS_DIR"], "py-%d.txt" % os.getpid())) else 3)
_, status = os.waitpid(pid, 0)
print("child", os.waitstatus_to_exitcode(status), flush=True)
time.sleep(60)
`, true)
	if _, err := os.Stat(filepath.Join(dir, "py-"+strconv.Itoa(cmd.Process.Pid)+".txt")); err != nil {
		t.Fatalf("no dump file for the process: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "py-*.txt"))
	if len(files) != 2 {
		t.Errorf("dump files %v, want the process's and its forked child's", files)
	}

	// A program with its own SIGUSR2 handler keeps it: no dump file.
	dir = t.TempDir()
	startPython(t, dir, "import signal\nsignal.signal(signal.SIGUSR2, lambda *a: None)\n"+string(python.StacksModule)+"\nprint('ready', flush=True)\n", false)
	if files, _ := filepath.Glob(filepath.Join(dir, "py-*.txt")); len(files) != 0 {
		t.Errorf("dump files %v beside the program's own SIGUSR2 handler", files)
	}

	dir = t.TempDir()
	cmd = startPython(t, dir, pyWaiter, true)
	c := PythonStacker(dir, "", NativeStacker()).Stacks(context.Background(), cmd.Process.Pid, pyExe(t, cmd.Process.Pid), Opts{})
	if c.Tool != ToolFaulthandler {
		t.Fatalf("tool %q (%s), want faulthandler", c.Tool, c.Reason)
	}
	txt := stacksText(c)
	for _, want := range []string{"test_waits (/", "wait_in_worker (/", "/prog.py:"} {
		if !strings.Contains(txt, want) {
			t.Errorf("stacks lack %s:\n%s", want, txt)
		}
	}
	if strings.Contains(txt, "threading.py") {
		t.Errorf("threading's bootstrap frames were not trimmed:\n%s", txt)
	}
	t.Logf("faulthandler dump in %v:\n%s", c.Took, txt)
}

// TestPythonStackerFallbacks: a process that did not register is never
// sent SIGUSR2 (it would die), even beside a dump file of its pid; its
// Python frames come from py-spy, or its native stacks say to install it.
func TestPythonStackerFallbacks(t *testing.T) {
	dir := t.TempDir()
	cmd := startPython(t, dir, pyWaiter, false)
	pid := cmd.Process.Pid
	if err := os.WriteFile(filepath.Join(dir, "py-"+strconv.Itoa(pid)+".txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c := PythonStacker(dir, "", NativeStacker()).Stacks(context.Background(), pid, pyExe(t, pid), Opts{})
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("the process died: %v", err)
	}
	if !strings.Contains(c.Reason, "does not catch SIGUSR2") {
		t.Errorf("reason %q, want it to say the process does not catch SIGUSR2", c.Reason)
	}
	if _, err := exec.LookPath("py-spy"); err == nil {
		if c.Tool != ToolPySpy || !strings.Contains(stacksText(c), "test_waits (") {
			t.Errorf("tool %q, stacks:\n%s\nwant py-spy's with test_waits", c.Tool, stacksText(c))
		}
	} else if !strings.Contains(c.Reason, "install py-spy") {
		t.Errorf("reason %q, want it to say to install py-spy", c.Reason)
	}
	// Not a Python process: the next stacker's capture, untouched.
	self, _ := os.Executable()
	if c := PythonStacker(dir, "", &fakeStacker{frames: []Frame{{Func: "spin"}}}).Stacks(context.Background(), os.Getpid(), self, Opts{}); c.Tool != "fake" {
		t.Errorf("a native process got %s", c.Tool)
	}
}

// TestFaulthandlerDumpsUnderLoad: dumps taken one after another from a
// process spinning beside CPU hogs are whole and the same (a dump read
// before it is written would break a loop's run of identical samples).
func TestFaulthandlerDumpsUnderLoad(t *testing.T) {
	dir := t.TempDir()
	cmd := startPython(t, dir, `import threading
def hog():
    while True:
        pass
for _ in range(2):
    threading.Thread(target=hog, daemon=True).start()
def spin():
    print("ready", flush=True)
    done = False
    while not done:
        pass
spin()
`, true)
	ps := PythonStacker(dir, "", NativeStacker())
	exe := pyExe(t, cmd.Process.Pid)
	var worst time.Duration
	for i := range 40 {
		c := ps.Stacks(context.Background(), cmd.Process.Pid, exe, Opts{})
		if c.Tool != ToolFaulthandler {
			t.Fatalf("dump %d: tool %q (%s)", i, c.Tool, c.Reason)
		}
		worst = max(worst, c.Took)
		txt := stacksText(c)
		if len(c.Stacks) != 3 || strings.Count(txt, "hog (") != 2 || !strings.Contains(txt, "spin (") || strings.Count(txt, "<module>") != 1 {
			t.Fatalf("dump %d is not whole:\n%s", i, txt)
		}
	}
	t.Logf("40 dumps, slowest %v", worst)
}

// pyExe is the interpreter a process runs.
func pyExe(t *testing.T, pid int) string {
	t.Helper()
	exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func stacksText(c Capture) string {
	var b strings.Builder
	for _, s := range c.Stacks {
		b.WriteString(s.Name + "\n")
		for _, f := range s.Frames {
			b.WriteString("  " + f.String() + "\n")
		}
	}
	return b.String()
}

// TestPyHarnessThreads: a thread whose outermost frame left is pytest's,
// a pytest plugin's or execnet's is the harness's; the main thread, a
// thread running the test's code or the standard library's, and one
// whose kernel id is unknown are not.
func TestPyHarnessThreads(t *testing.T) {
	const site = "/venv/lib/python3.11/site-packages/"
	stack := func(tid int, files ...string) Stack {
		s := Stack{TID: tid}
		for _, f := range files {
			s.Frames = append(s.Frames, Frame{Func: "f", File: f})
		}
		return s
	}
	c := Capture{PID: 10, Tool: ToolFaulthandler, Stacks: []Stack{
		stack(11, "/usr/lib/python3.11/socket.py", site+"pytest_rerunfailures.py"),
		stack(12, site+"execnet/gateway_base.py"),
		stack(13, "/usr/lib/python3.11/socket.py", "/p/tests/test_server.py"),
		stack(14, "/usr/lib/python3.11/threading.py"),
		stack(0, site+"pytest_rerunfailures.py"),
		stack(10, "/usr/lib/python3.11/selectors.py", site+"_pytest/python.py"),
		stack(15, "/p/pytest_helpers.py"),
	}}
	if got := pyHarnessThreads(c); !slices.Equal(got, []int{11, 12}) {
		t.Errorf("harness threads %v, want [11 12]", got)
	}
	c.Tool = "eu-stack"
	if got := pyHarnessThreads(c); got != nil {
		t.Errorf("a native capture's harness threads %v, want none", got)
	}
}

// TestTrimPython: the outer frames of python -m pytest (runpy's, frozen
// since Python 3.11, then pytest's and pluggy's) are trimmed; the test's
// own and what it calls stay.
func TestTrimPython(t *testing.T) {
	frames := []format.PyFrame{
		{Func: "wait", File: "/usr/lib/python3.11/threading.py", Line: 320},
		{Func: "test_waits", File: "/p/test_x.py", Line: 9},
		{Func: "pytest_pyfunc_call", File: "/usr/lib/python3/dist-packages/_pytest/python.py", Line: 194},
		{Func: "_multicall", File: "/usr/lib/python3/dist-packages/pluggy/_callers.py", Line: 80},
		{Func: "<module>", File: "/usr/lib/python3/dist-packages/pytest/__main__.py", Line: 5},
		{Func: "_run_code", File: "<frozen runpy>", Line: 88},
		{Func: "_run_module_as_main", File: "<frozen runpy>", Line: 198},
	}
	got := trimPython(frames)
	if len(got) != 2 || got[1].Func != "test_waits" {
		t.Errorf("trimmed to %+v, want the wait and test_waits", got)
	}
	// Under strobe's unittest runner (python -m strobe_unittest), its
	// frames and unittest's case runner's go the same way.
	frames = []format.PyFrame{
		{Func: "test_sleep", File: "tests/test_zcrash.py", Line: 14},
		{Func: "_callTestMethod", File: "/usr/lib/python3.11/unittest/case.py", Line: 579},
		{Func: "run", File: "/usr/lib/python3.11/unittest/case.py", Line: 623},
		{Func: "run", File: "/usr/lib/python3.11/unittest/suite.py", Line: 122},
		{Func: "main", File: "/tmp/strobe-unittest-123/strobe_unittest.py", Line: 433},
		{Func: "<module>", File: "/tmp/strobe-unittest-123/strobe_unittest.py", Line: 456},
		{Func: "_run_code", File: "<frozen runpy>", Line: 88},
	}
	if got := trimPython(frames); len(got) != 1 || got[0].Func != "test_sleep" {
		t.Errorf("trimmed to %+v, want test_sleep alone", got)
	}
}
