package stuck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
)

// StacksDirEnv names the variable that gives every run's processes a
// private directory for their stack dumps: a Python process that loaded
// strobe's plugin (adapters/kit/python's strobe_stacks.py) makes it if it
// is not there yet (its parent is strobe's own, closed to others) and
// registers its dump there.
const StacksDirEnv = "STROBE_STACKS_DIR"

// Capture tools that give Python frames.
const (
	ToolFaulthandler = "faulthandler"
	ToolPySpy        = "py-spy"
)

// pyDumpWait bounds how long a Python process gets to write its
// faulthandler dump after SIGUSR2; pyDumpSettle is how long its size must
// stay the same for the dump to count as written.
const (
	pyDumpWait   = time.Second
	pyDumpSettle = 15 * time.Millisecond
)

// pythonExe matches the interpreter's file name: python, python3,
// python3.11, python3.13t, pypy3.
var pythonExe = lazyre.New(`^(python|pypy)(\d+(\.\d+)*)?[a-z]?$`)

// IsPython says whether exe is a Python interpreter.
func IsPython(exe string) bool { return exe != "" && pythonExe.MatchString(filepath.Base(exe)) }

// IsPythonProcess says whether process pid, last seen running exe, runs a
// Python interpreter now. A process keeps its pid and start time across
// execve, so the exe a view read once may be a launcher's that has since
// exec'd Python (pyenv's shims are bash scripts that exec it): when exe is
// not Python, the live one is read.
func IsPythonProcess(pid int, exe string) bool {
	_, ok := pythonOf(pid, exe)
	return ok
}

// pythonOf answers the interpreter process pid runs (exe, or the live one
// when exe is not Python), and whether it runs one.
func pythonOf(pid int, exe string) (string, bool) {
	if IsPython(exe) {
		return exe, true
	}
	live, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil || !IsPython(live) {
		return exe, false
	}
	return live, true
}

// PythonStacker captures a Python process's Python frames, and any other
// process's stacks with next: first the faulthandler dump the process
// registered in dir (StacksDirEnv), else py-spy (beside the interpreter,
// in the project's virtualenv, or on PATH), else next's native stacks
// with a reason that says how to get Python frames. root is the project.
func PythonStacker(dir, root string, next Stacker) Stacker {
	return &pyStacker{dir: dir, root: root, next: next}
}

type pyStacker struct {
	dir, root string
	next      Stacker
}

func (s *pyStacker) Stacks(ctx context.Context, pid int, exe string, opt Opts) Capture {
	exe, ok := pythonOf(pid, exe)
	if !ok {
		return s.next.Stacks(ctx, pid, exe, opt)
	}
	start := time.Now()
	var reasons []string
	threads, err := faulthandlerDump(pid, s.dir)
	if err == nil {
		return s.withNative(ctx, pyCapture(pid, ToolFaulthandler, threads, start), exe, opt)
	}
	if !errors.Is(err, errNoDumpFile) {
		reasons = append(reasons, err.Error())
	}
	if spy := s.pySpy(exe); spy != "" {
		threads, err := pySpyDump(ctx, spy, pid)
		if err == nil {
			c := pyCapture(pid, ToolPySpy, threads, start)
			c.Reason = strings.Join(reasons, "; ")
			return s.withNative(ctx, c, exe, opt)
		}
		reasons = append(reasons, err.Error())
	} else {
		reasons = append(reasons, "no Python frames: install py-spy (pip install py-spy) in the project's environment")
	}
	c := s.next.Stacks(ctx, pid, exe, opt)
	c.Reason = strings.TrimPrefix(strings.Join(reasons, "; ")+"; "+c.Reason, "; ")
	c.Reason = strings.TrimSuffix(c.Reason, "; ")
	return c
}

// withNative adds the process's native stacks to a capture of its Python
// frames when opt asks for them (loop samples: Opts.Native).
func (s *pyStacker) withNative(ctx context.Context, c Capture, exe string, opt Opts) Capture {
	if opt.Native {
		c.native = s.next.Stacks(ctx, c.PID, exe, Opts{}).Stacks
	}
	return c
}

// pySpy finds py-spy: beside the interpreter (pip installs it into the
// same bin directory), in the project's virtualenv, then on PATH.
func (s *pyStacker) pySpy(exe string) string {
	dirs := []string{filepath.Dir(exe)}
	if s.root != "" {
		dirs = append(dirs, filepath.Join(s.root, ".venv", "bin"), filepath.Join(s.root, "venv", "bin"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, "py-spy")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	p, _ := exec.LookPath("py-spy")
	return p
}

// IsPythonCapture says whether a capture holds Python frames.
func IsPythonCapture(c Capture) bool { return c.Tool == ToolFaulthandler || c.Tool == ToolPySpy }

func pyCapture(pid int, tool string, threads []format.PyThread, start time.Time) Capture {
	c := Capture{PID: pid, Tool: tool, Took: time.Since(start)}
	for _, t := range threads {
		st := Stack{TID: t.TID, Name: t.Name}
		if t.Task {
			st.Name = "asyncio task " + t.Name
		} else if st.Name == "" {
			st.Name = "Thread " + t.ID
			if t.Current {
				st.Name = "Current thread " + t.ID
			}
		}
		for _, f := range trimPython(t.Frames) {
			st.Frames = append(st.Frames, Frame{Func: f.Func, File: f.File, Line: f.Line})
		}
		c.Stacks = append(c.Stacks, st)
	}
	return c
}

// pyHarness are the files whose frames start a Python thread or run a
// test for a framework: the outer frames they make say nothing of the
// test (threading's bootstrap, pytest's and pluggy's hook calls,
// unittest's case runner and strobe's runner around it, strobe_unittest.py,
// runpy for python -m, which Python 3.11 and later freeze: its frames'
// file is "<frozen runpy>").
var pyHarness = lazyre.New(`(^|/)(threading\.py|runpy\.py|_pytest/.*|pluggy/.*|pytest/__main__\.py|unittest/(case|suite|main|runner)\.py|strobe_unittest\.py|xdist/.*|execnet/.*)$|^<frozen runpy>$`)

// pyHarnessStart matches the files of the harness that start threads of
// their own in a test process: pytest's, pluggy's, pytest-xdist's and
// execnet's (its reader in an xdist worker), and a pytest plugin
// installed beside them (pytest-rerunfailures' socket server for its
// xdist support, waiting in accept for a worker that never comes).
var pyHarnessStart = lazyre.New(`(^|/)((_pytest|pluggy|xdist|execnet)/.*|(site|dist)-packages/pytest_\w+(\.py|/.*))$`)

// pyHarnessThreads are the threads of a Python capture that the harness
// started, by kernel thread id: the outermost frame left below
// threading's bootstrap (trimPython keeps the innermost of a stack all
// the harness's) is the harness's. Never the main thread, where the
// tests run, nor a thread the capture knows no kernel id of (faulthandler's).
func pyHarnessThreads(c Capture) []int {
	if !IsPythonCapture(c) {
		return nil
	}
	var tids []int
	for _, s := range c.Stacks {
		if s.TID == 0 || s.TID == c.PID || len(s.Frames) == 0 {
			continue
		}
		if pyHarnessStart.MatchString(s.Frames[len(s.Frames)-1].File) {
			tids = append(tids, s.TID)
		}
	}
	return tids
}

// trimPython drops the outer frames of the harness, keeping at least one.
func trimPython(frames []format.PyFrame) []format.PyFrame {
	end := len(frames)
	for end > 1 && pyHarness.MatchString(frames[end-1].File) {
		end--
	}
	return frames[:end]
}

// errNoDumpFile: the process did not register strobe's faulthandler.
var errNoDumpFile = errors.New("no faulthandler dump file")

// faulthandlerDump signals a Python process that registered strobe's
// faulthandler (its dump file exists and it catches SIGUSR2, whose default
// would kill it) and reads the dump it appends.
func faulthandlerDump(pid int, dir string) ([]format.PyThread, error) {
	if dir == "" {
		return nil, errNoDumpFile
	}
	path := filepath.Join(dir, "py-"+strconv.Itoa(pid)+".txt")
	fi, err := os.Stat(path)
	if err != nil {
		return nil, errNoDumpFile
	}
	if !catchesSignal(pid, syscall.SIGUSR2) {
		return nil, fmt.Errorf("faulthandler: process %d has a dump file but does not catch SIGUSR2", pid)
	}
	before := fi.Size()
	if err := syscall.Kill(pid, syscall.SIGUSR2); err != nil {
		return nil, fmt.Errorf("faulthandler: signalling process %d: %w", pid, err)
	}
	return readDump(path, before, pyDumpWait)
}

// readDump waits for the dump appended to path after offset before and
// reads it, at most wait. faulthandler writes a dump in many small writes
// from one signal handler, and a process that competes for the CPU may be
// descheduled halfway: a dump counts as written once its size stopped
// changing and its last thread reaches a thread's first frame, or once
// its size stopped changing for long.
func readDump(path string, before int64, wait time.Duration) ([]format.PyThread, error) {
	end := time.Now().Add(wait)
	last, stable := before, time.Time{}
	var threads []format.PyThread
	for {
		fi, err := os.Stat(path)
		if err != nil {
			return nil, fmt.Errorf("faulthandler: %w", err)
		}
		now := time.Now()
		if fi.Size() != last {
			last, stable = fi.Size(), now
			if threads, err = readFrom(path, before, last); err != nil {
				return nil, err
			}
		}
		settled := last > before && now.Sub(stable) >= pyDumpSettle
		if settled && (dumpComplete(threads) || now.Sub(stable) >= pyDumpPatience) || now.After(end) && last > before {
			if len(threads) == 0 {
				return nil, errors.New("faulthandler: the dump has no threads")
			}
			return threads, nil
		}
		if now.After(end) {
			return nil, errors.New("faulthandler: no dump within 1s of SIGUSR2")
		}
		time.Sleep(3 * time.Millisecond)
	}
}

// pyDumpPatience: a dump whose last thread does not reach a thread's
// first frame (a thread started from C, a frame faulthandler could not
// read) is taken after its size stayed the same this long.
const pyDumpPatience = 200 * time.Millisecond

func readFrom(path string, from, to int64) ([]format.PyThread, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("faulthandler: %w", err)
	}
	defer f.Close()
	b := make([]byte, to-from)
	n, err := f.ReadAt(b, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("faulthandler: reading the dump: %w", err)
	}
	dumps := format.ParseFaulthandler(string(b[:n]))
	if len(dumps) == 0 {
		return nil, nil
	}
	return dumps[len(dumps)-1], nil // what came before is the rest of a dump read too early
}

// dumpComplete says whether a dump ends with a whole thread: faulthandler
// writes the main thread last (the oldest), from its innermost frame to
// the main module's (runpy's for python -m), or cut at 100 frames.
func dumpComplete(threads []format.PyThread) bool {
	if len(threads) == 0 {
		return false
	}
	t := threads[len(threads)-1]
	if t.Truncated {
		return true
	}
	if len(t.Frames) == 0 {
		return false
	}
	outer := t.Frames[len(t.Frames)-1]
	return outer.Func == "<module>" || outer.Func == "_run_module_as_main"
}

// pySpyDump reads every thread's Python stack with `py-spy dump --json`
// (it stops the process for the moment it reads it).
func pySpyDump(ctx context.Context, spy string, pid int) ([]format.PyThread, error) {
	ctx, cancel := context.WithTimeout(ctx, captureTimeout)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, spy, "dump", "--pid", strconv.Itoa(pid), "--json")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("py-spy: %s", toolError(append(stderr.Bytes(), out...), err))
	}
	threads, err := format.ParsePySpyJSON(out)
	if err != nil {
		return nil, fmt.Errorf("py-spy: %w", err)
	}
	if len(threads) == 0 {
		return nil, errors.New("py-spy: no Python threads")
	}
	return threads, nil
}

// catchesSignal says whether a process has a handler for sig
// (/proc/PID/status SigCgt, a hexadecimal mask, bit sig-1).
func catchesSignal(pid int, sig syscall.Signal) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "SigCgt:"); ok {
			mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return err == nil && mask&(1<<(uint(sig)-1)) != 0
		}
	}
	return false
}
