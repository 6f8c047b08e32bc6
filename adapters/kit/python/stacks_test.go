package python

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"strobe/adapters/adapterstest"
	"strobe/adapters/kit/format"
	"strobe/internal/testutil"
)

// busyThreads runs eight threads of pure-Python string work (as idna's
// concurrency test does) for two seconds, between a "ready" and a "done"
// line.
const busyThreads = `
import threading, time
print("ready", flush=True)
def work():
    end = time.monotonic() + 2
    while time.monotonic() < end:
        for s in ("пример", "παράδειγμα", "例え", "bücher"):
            s.encode("punycode").decode("punycode").upper().split("a")
ts = [threading.Thread(target=work) for _ in range(8)]
for t in ts: t.start()
for t in ts: t.join()
print("done", flush=True)
`

// TestStackDumpsOfBusyThreads: SIGUSR2, sent as often as the stuck
// detector samples and faster, dumps the stacks of a process whose
// threads are busy without crashing it. faulthandler.register's dump,
// which reads the other threads' frames from the C signal handler while
// they run, killed such a process with SIGSEGV (idna's concurrency test
// under strobe, three times in six).
func TestStackDumpsOfBusyThreads(t *testing.T) {
	py := testutil.RequireTool(t, "python3")
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.py")
	if err := os.WriteFile(prog, []byte(string(StacksModule)+busyThreads), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd, out := startDumping(t, py, prog, dir)
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	if l := <-lines; l != "ready" {
		t.Fatalf("first line %q", l)
	}
	sent := 0
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
signal:
	for {
		select {
		case l, ok := <-lines:
			if !ok || l == "done" {
				break signal
			}
		case <-tick.C:
			if cmd.Process.Signal(syscall.SIGUSR2) == nil {
				sent++
			}
		}
	}
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("the process died of %v after %d dumps asked for", ws.Signal(), sent)
	}
	if err != nil {
		t.Fatalf("after %d dumps asked for: %v", sent, err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "py-"+strconv.Itoa(cmd.Process.Pid)+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	dumps := format.ParseFaulthandler(string(b))
	workers, withTID := 0, 0
	pid := cmd.Process.Pid
	for _, d := range dumps {
		for _, th := range d {
			if len(th.Frames) > 0 && th.Frames[len(th.Frames)-1].Func == "_bootstrap" && strings.Contains(stackOf(th), "work (") {
				workers++
				if th.TID == pid {
					t.Errorf("a worker thread's tid is the pid %d", pid)
				} else if th.TID != 0 {
					withTID++
				}
			}
			if th.Current && th.TID != pid {
				t.Errorf("the main thread's tid is %d, want the pid %d", th.TID, pid)
			}
		}
	}
	// The dump says each thread's kernel id (a worker stack, rarely, has
	// none: it is then compared as faulthandler's are).
	if withTID == 0 {
		t.Errorf("no worker stack of %d says its kernel thread id", workers)
	}
	if len(dumps) < 10 || workers == 0 {
		t.Errorf("%d dumps for %d signals, %d worker stacks: want the busy threads' stacks", len(dumps), sent, workers)
	}
	t.Logf("%d signals, %d dumps, %d worker stacks", sent, len(dumps), workers)
}

func stackOf(th format.PyThread) string {
	var sb strings.Builder
	for _, f := range th.Frames {
		sb.WriteString(f.Func + " (" + f.File + ":" + strconv.Itoa(f.Line) + ")\n")
	}
	return sb.String()
}

// exitsSlowly imports strobe's module, as its site does; its last object is freed after Python's finalization has
// given SIGUSR2 back to its default action (which kills), says
// "finalizing" and lingers there.
const exitsSlowly = `
import os, time
import strobe_stacks
class Last:
    def __del__(self, os=os, time=time):
        os.write(1, b"finalizing\n")
        time.sleep(1)
last = Last()
print("ready", flush=True)
`

// TestNoDeathByDumpAtExit: a dump asked for while the process exits (the
// stuck detector's sample as a test process ends) does not kill it.
// Python's finalization gave SIGUSR2 back to its default action, and such
// a process died of it: its run read as a crash.
func TestNoDeathByDumpAtExit(t *testing.T) {
	py := testutil.RequireTool(t, "python3")
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.py")
	adapterstest.WriteFiles(t, dir, map[string]string{"prog.py": exitsSlowly, "strobe_stacks.py": string(StacksModule)})
	cmd, out := startDumping(t, py, prog, dir)
	sc := bufio.NewScanner(out)
	var seen []string
	for sc.Scan() {
		seen = append(seen, sc.Text())
		if sc.Text() == "finalizing" {
			if err := cmd.Process.Signal(syscall.SIGUSR2); err != nil {
				t.Fatal(err)
			}
		}
	}
	err := cmd.Wait()
	if strings.Join(seen, ",") != "ready,finalizing" {
		t.Fatalf("the program said %q", seen)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("the process died of %v, asked for a dump as it exited", ws.Signal())
	}
	if err != nil {
		t.Fatal(err)
	}
}

// startDumping starts the program prog with py, its stack dumps asked for
// in dir (STROBE_STACKS_DIR), and returns it with its stdout.
func startDumping(t *testing.T, py, prog, dir string) (*exec.Cmd, io.Reader) {
	t.Helper()
	cmd := exec.Command(py, prog)
	cmd.Env = append(os.Environ(), "STROBE_STACKS_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out
}

// forkHook is a program whose own fork hook, registered before strobe's
// (a module a pytest plugin imports, as virtualenv's imports filelock),
// closes a descriptor in the child; the child checks that its number is
// closed, as filelock's tests do.
const forkHook = `
import os, sys
fd = os.open(os.devnull, os.O_RDONLY)
os.register_at_fork(after_in_child=lambda: os.close(fd))
exec(open(sys.argv[1]).read())
pid = os.fork()
if pid == 0:
    try:
        os.fstat(fd)
    except OSError:
        os._exit(0)
    os._exit(3)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
`

// TestForkHookKeepsTheChildsDescriptors: strobe's fork hook opens the
// child's stack file at a high descriptor number, not at one the
// program's own hook just closed. Before, filelock's fork tests failed
// under strobe alone ("DID NOT RAISE OSError" in the child, which then
// went on running the suite).
func TestForkHookKeepsTheChildsDescriptors(t *testing.T) {
	py := testutil.RequireTool(t, "python3")
	dir := t.TempDir()
	prog, stacks := filepath.Join(dir, "prog.py"), filepath.Join(dir, "strobe_stacks.py")
	if err := os.WriteFile(prog, []byte(forkHook), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stacks, StacksModule, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, prog, stacks)
	cmd.Env = append(os.Environ(), "STROBE_STACKS_DIR="+filepath.Join(dir, "stacks"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the child found its closed descriptor open (%v): %s", err, out)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "stacks", "py-*.txt")); len(files) != 2 {
		t.Errorf("stack files %v, want the parent's and the child's", files)
	}
}
