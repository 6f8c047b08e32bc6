package stuck

import (
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
	"sync"
	"time"
)

// Frame is one stack frame.
type Frame struct {
	Func string
	File string
	Line int
	pc   uint64 // the address eu-stack gave, to name it when the binary has no symbols
}

func (f Frame) String() string {
	switch {
	case f.File != "" && f.Line > 0:
		return fmt.Sprintf("%s (%s:%d)", f.Func, f.File, f.Line)
	case f.File != "":
		return fmt.Sprintf("%s (%s)", f.Func, f.File)
	}
	return f.Func
}

// Stack is one thread's or goroutine's stack, innermost frame first.
type Stack struct {
	Name   string // thread name, or "goroutine 7 [chan receive]"
	TID    int    // 0 for a goroutine
	Frames []Frame
}

// Capture is the stacks of one process, or why there are none.
type Capture struct {
	PID    int
	Tool   string // eu-stack, gdb, gdb+runtime-gdb.py, go-sigquit, proc
	Stacks []Stack
	// Reason says why stacks are missing or poor (ptrace not permitted,
	// tool not installed, process gone, a Go binary without symbols).
	Reason string
	Took   time.Duration
	at     time.Time
	busy   []int // the threads busy when it was taken (a loop suspicion)
	// keys are busyStacks of a loop suspicion's sample, computed when it
	// is taken: the next sample compares with them, and unnamedTop reads
	// them (a loop in unnamed code needs loopSamplesUnnamed samples).
	keys []string
	// native are the interpreter's own stacks taken beside a capture of
	// Python frames (Opts.Native).
	native []Stack
}

// Stacker captures the stacks of a live process without stopping it for
// long (eu-stack, gdb) and without killing it.
type Stacker interface {
	Stacks(ctx context.Context, pid int, exe string, opt Opts) Capture
}

// Opts say what a capture needs.
type Opts struct {
	// Goroutines: a Go program's goroutines instead of its threads, when
	// its binary has symbols.
	Goroutines bool
	// Lines: source lines and inlined frames, for a report. Samples that
	// are only compared go without: eu-stack then costs 2 ms of CPU
	// instead of 50, and inlined frames, which come and go as a loop
	// moves through its body, stay out of the comparison.
	Lines bool
	// Symbols is a copy of a stripped Go binary linked with DWARF (the
	// same code), for its goroutines; "" when there is none.
	Symbols string
	// Native: a capture of an interpreter's frames (Python) also takes
	// the process's native stacks, for loop samples. Neither alone tells
	// a loop from work: CPython runs Python calls inside one C function,
	// so its native stacks are the same for a spin and a recursive
	// computation, while the Python frames of a spin and of a sieve's
	// inner loop are the same function, on lines a loop alternates
	// between. The sieve's native frames move (its iterator, its
	// subscript), the recursion's Python frames do.
	Native bool
}

// NativeStacker captures stacks with the tools found on PATH: eu-stack,
// then gdb batch, then the kernel's view in /proc. For a Go binary built
// with symbols it reads goroutines through gdb and Go's runtime-gdb.py.
func NativeStacker() Stacker { return &native{} }

type native struct {
	once    sync.Once
	syms    symbolizer // names the frames of samples (elfsyms.go)
	euStack string
	gdb     string
	goGDB   string // GOROOT/src/runtime/runtime-gdb.py
}

const captureTimeout = 10 * time.Second

func (n *native) init() {
	n.once.Do(func() {
		n.euStack, _ = exec.LookPath("eu-stack")
		n.gdb, _ = exec.LookPath("gdb")
		if goBin, err := exec.LookPath("go"); err == nil {
			if out, err := exec.Command(goBin, "env", "GOROOT").Output(); err == nil {
				p := strings.TrimSpace(string(out)) + "/src/runtime/runtime-gdb.py"
				if _, err := os.Stat(p); err == nil {
					n.goGDB = p
				}
			}
		}
	})
}

func (n *native) Stacks(ctx context.Context, pid int, exe string, opt Opts) Capture {
	n.init()
	start := time.Now()
	c := n.capture(ctx, pid, exe, opt)
	c.PID, c.Took = pid, time.Since(start)
	nameThreads(&c)
	return c
}

// nameThreads names the threads a tool left unnamed (eu-stack) by their
// comm; libtest names each test's thread after the test.
func nameThreads(c *Capture) {
	for i := range c.Stacks {
		s := &c.Stacks[i]
		if s.Name == "" && s.TID != 0 {
			if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/comm", c.PID, s.TID)); err == nil {
				s.Name = strings.TrimSpace(string(b))
			}
		}
	}
}

func (n *native) capture(ctx context.Context, pid int, exe string, opt Opts) Capture {
	ctx, cancel := context.WithTimeout(ctx, captureTimeout)
	defer cancel()
	if runtime.GOOS == "darwin" {
		return macStacks(ctx, pid)
	}
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err != nil {
		return Capture{Reason: "process gone before its stacks could be read"}
	}
	var reasons []string
	bin := inspectBinary(exe)
	if bin.isGo && opt.Goroutines {
		if c, reason := n.goroutines(ctx, pid, exe, bin, opt); len(c.Stacks) > 0 {
			return c
		} else if reason != "" {
			reasons = append(reasons, reason)
		}
	}
	if n.euStack != "" {
		args := []string{"-p", strconv.Itoa(pid)}
		if opt.Lines {
			args = append(args, "-s", "-i")
		} else {
			args = append(args, "-q") // addresses only: named below, at a fraction of the cost
		}
		out, err := exec.CommandContext(ctx, n.euStack, args...).CombinedOutput()
		stacks := parseEuStack(out)
		if !opt.Lines {
			n.syms.name(pid, stacks)
		}
		if bin.isGo && !bin.dwarf {
			symbolizeGo(stacks, exe, opt.Lines)
		}
		if len(stacks) > 0 {
			return Capture{Tool: "eu-stack", Stacks: stacks, Reason: strings.Join(reasons, "; ")}
		}
		reasons = append(reasons, "eu-stack: "+toolError(out, err))
	} else {
		reasons = append(reasons, "eu-stack not installed (elfutils)")
	}
	if n.gdb != "" {
		out, err := exec.CommandContext(ctx, n.gdb, "-p", strconv.Itoa(pid), "-batch", "-nx",
			"-ex", "set pagination off", "-ex", "thread apply all bt").CombinedOutput()
		stacks := parseGDB(out)
		if len(stacks) > 0 {
			return Capture{Tool: "gdb", Stacks: stacks, Reason: strings.Join(reasons, "; ")}
		}
		reasons = append(reasons, "gdb: "+toolError(out, err))
	} else {
		reasons = append(reasons, "gdb not installed")
	}
	stacks := procStacks(pid)
	if len(stacks) == 0 {
		reasons = append(reasons, "process gone")
	}
	return Capture{Tool: "proc", Stacks: stacks, Reason: strings.Join(reasons, "; ")}
}

// goroutines reads a Go program's goroutines through gdb and Go's
// runtime-gdb.py: with the binary's own DWARF, or, for a binary go test
// stripped, with opt.Symbols's relocated to it. It answers why not when it
// cannot.
func (n *native) goroutines(ctx context.Context, pid int, exe string, bin binaryInfo, opt Opts) (Capture, string) {
	var load []string
	switch {
	case !bin.dwarf && opt.Symbols == "":
		return Capture{}, "a Go test binary without symbols (go test strips them): goroutines come from the runtime's SIGQUIT dump at the verdict"
	case n.gdb == "" || n.goGDB == "":
		return Capture{}, "gdb or Go's runtime-gdb.py not found: goroutines come from the runtime's SIGQUIT dump at the verdict"
	case !bin.dwarf:
		cmd, err := goRelocation(exe, opt.Symbols)
		if err != nil {
			return Capture{}, "symbols for the Go test binary: " + err.Error()
		}
		// Arguments are not printed: gdb warns about some of them with
		// relocated symbols, and they are not reported anyway.
		load = []string{"set print frame-arguments none", cmd}
	}
	c, err := gdbGoroutines(ctx, n.gdb, n.goGDB, pid, load...)
	if err != nil {
		return Capture{}, err.Error()
	}
	return c, ""
}

// macStacks samples a process for a second with macOS's sample(1).
func macStacks(ctx context.Context, pid int) Capture {
	tool, err := exec.LookPath("sample")
	if err != nil {
		return Capture{Reason: "sample not found (it comes with macOS)"}
	}
	f, err := os.CreateTemp("", "strobe-sample-*.txt")
	if err != nil {
		return Capture{Reason: err.Error()}
	}
	f.Close()
	defer os.Remove(f.Name())
	out, err := exec.CommandContext(ctx, tool, strconv.Itoa(pid), "1", "-mayDie", "-file", f.Name()).CombinedOutput()
	b, _ := os.ReadFile(f.Name())
	if stacks := parseMacSample(string(b)); len(stacks) > 0 {
		return Capture{Tool: "sample", Stacks: stacks}
	}
	return Capture{Reason: "sample: " + toolError(out, err)}
}

// toolError says in a few words why a stack tool gave nothing.
func toolError(out []byte, err error) string {
	s := string(out)
	switch {
	case strings.Contains(s, "ptrace") && (strings.Contains(s, "not permitted") || strings.Contains(s, "Operation not permitted")),
		strings.Contains(s, "Operation not permitted"):
		return "ptrace not permitted (Yama ptrace_scope, or a container without CAP_SYS_PTRACE)"
	case strings.Contains(s, "No such process"), strings.Contains(s, "No such file"):
		return "process gone"
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out"
	}
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	if err != nil {
		return err.Error()
	}
	return "no stacks"
}

type binaryInfo struct{ isGo, dwarf bool }

var binaries sync.Map // exe path → binaryInfo

// inspectBinary says whether exe is a Go program and whether it kept its
// DWARF (go test strips the binaries it runs unless -o or -c keeps them).
func inspectBinary(exe string) binaryInfo {
	if exe == "" {
		return binaryInfo{}
	}
	if v, ok := binaries.Load(exe); ok {
		return v.(binaryInfo)
	}
	var bi binaryInfo
	if f, err := elf.Open(exe); err == nil {
		bi.isGo = f.Section(".go.buildinfo") != nil || f.Section(".gopclntab") != nil
		bi.dwarf = f.Section(".debug_info") != nil || f.Section(".zdebug_info") != nil
		f.Close()
	}
	binaries.Store(exe, bi)
	return bi
}

// IsGoBinary says whether exe is a Go program.
func IsGoBinary(exe string) bool { return inspectBinary(exe).isGo }

// parseEuStack reads `eu-stack -p PID -s -i`:
//
//	TID 14639:
//	#0  0x00007f52522a412b futex_wait
//	    ../sysdeps/nptl/futex-internal.h:146:13
func parseEuStack(out []byte) []Stack {
	var stacks []Stack
	var cur *Stack
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "TID "):
			tid, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(line, "TID "), ":"))
			stacks = append(stacks, Stack{TID: tid})
			cur = &stacks[len(stacks)-1]
		case strings.HasPrefix(line, "#") && cur != nil:
			f := strings.Fields(line)
			fn := "??"
			if len(f) >= 3 {
				fn = demangleRust(strings.Join(f[2:], " "))
			}
			var pc uint64
			if len(f) >= 2 {
				pc, _ = strconv.ParseUint(strings.TrimPrefix(f[1], "0x"), 16, 64)
			}
			cur.Frames = append(cur.Frames, Frame{Func: fn, pc: pc})
		case strings.HasPrefix(line, "    ") && cur != nil && len(cur.Frames) > 0:
			fr := &cur.Frames[len(cur.Frames)-1]
			fr.File, fr.Line = splitFileLine(strings.TrimSpace(line))
		}
	}
	return stacks
}

// splitFileLine splits "path:line[:col]".
func splitFileLine(s string) (string, int) {
	parts := strings.Split(s, ":")
	for len(parts) > 1 {
		n, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil {
			break
		}
		if len(parts) > 2 {
			if m, err := strconv.Atoi(parts[len(parts)-2]); err == nil {
				return strings.Join(parts[:len(parts)-2], ":"), m // file:line:col
			}
		}
		return strings.Join(parts[:len(parts)-1], ":"), n
	}
	return s, 0
}

var (
	gdbThread = lazyre.New(`^Thread \d+ \(.*?LWP (\d+)\)(?: "(.*)")?\):`)
	gdbFrame  = lazyre.New(`^#\d+\s+(?:0x[0-9a-f]+ in )?(.*)$`)
)

// parseGDB reads `thread apply all bt` and the goroutine listing of
// gdbGoroutines (headers "STROBE-GOROUTINE id status").
func parseGDB(out []byte) []Stack {
	var stacks []Stack
	var cur *Stack
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := gdbThread.FindStringSubmatch(line); m != nil {
			tid, _ := strconv.Atoi(m[1])
			stacks = append(stacks, Stack{TID: tid, Name: m[2]})
			cur = &stacks[len(stacks)-1]
			continue
		}
		if rest, ok := strings.CutPrefix(line, "STROBE-GOROUTINE "); ok && len(strings.Fields(rest)) > 0 {
			f := strings.Fields(rest)
			name := "goroutine " + f[0]
			if len(f) > 1 {
				name += " [" + strings.Join(f[1:], " ") + "]"
			}
			stacks = append(stacks, Stack{Name: name})
			cur = &stacks[len(stacks)-1]
			continue
		}
		m := gdbFrame.FindStringSubmatch(line)
		if m == nil || cur == nil {
			continue
		}
		fr := Frame{Func: m[1]}
		if i := strings.LastIndex(m[1], " at "); i >= 0 {
			fr.File, fr.Line = splitFileLine(m[1][i+4:])
			fr.Func = m[1][:i]
		} else if i := strings.LastIndex(m[1], " from "); i >= 0 {
			fr.Func = m[1][:i]
		}
		fr.Func = demangleRust(stripArgs(fr.Func))
		if fr.Func == "??" && fr.File == "" && len(cur.Frames) > 0 {
			continue
		}
		cur.Frames = append(cur.Frames, fr)
	}
	return stacks
}

// stripArgs drops gdb's argument list, "(a=1, b=<optimized out>)", from
// the end of a frame, leaving parentheses that belong to the name
// ("std::__invoke_impl<void, void (*)()>").
func stripArgs(fn string) string {
	if !strings.HasSuffix(fn, ")") {
		return fn
	}
	depth := 0
	for i := len(fn) - 1; i >= 0; i-- {
		switch fn[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				if i > 0 && fn[i-1] == ' ' {
					return fn[:i-1]
				}
				return fn
			}
		}
	}
	return fn
}

// gdbGoroutinesScript lists every goroutine with its stack through Go's
// runtime-gdb.py, without stopping the process for more than a moment:
// "goroutine N bt" points the current thread's pc and sp at the
// goroutine's, and back once the backtrace is printed. A gdb killed in
// between leaves the thread there: it resumes at the goroutine's pc on
// the wrong stack and the test dies (SIGSEGV, "morestack on g0"; 7 of 25
// kills in the middle of the listing did so). So gdb is never killed
// there: the script stops between two goroutines when STROBE_STOP exists.
const gdbGoroutinesScript = `import gdb, os
out = gdb.execute("info goroutines", to_string=True)
for line in out.splitlines():
    if os.path.exists(STROBE_STOP):
        print("STROBE-ERROR stopped")
        break
    f = line.replace("*", " ").split()
    if len(f) >= 2 and f[0].isdigit():
        print("STROBE-GOROUTINE %s %s" % (f[0], f[1]))
        try:
            gdb.execute("goroutine %s bt" % f[0])
        except Exception as e:
            print("STROBE-ERROR %s" % e)
`

// gdbStopGrace is how long gdb gets to stop between two goroutines once
// asked; only a gdb stuck inside one backtrace that long is killed.
const gdbStopGrace = 5 * time.Second

// gdbGoroutines runs the goroutine listing; load are gdb commands run
// before runtime-gdb.py is loaded (the symbols of a binary go test
// stripped). When ctx ends first, gdb is asked to stop (the script's stop
// file) and waited for, not killed.
func gdbGoroutines(ctx context.Context, gdb, runtimeGDB string, pid int, load ...string) (Capture, error) {
	dir, err := os.MkdirTemp("", "strobe-goroutines-")
	if err != nil {
		return Capture{}, err
	}
	defer os.RemoveAll(dir)
	script, stop := filepath.Join(dir, "goroutines.py"), filepath.Join(dir, "stop")
	if err := os.WriteFile(script, []byte(gdbGoroutinesScript), 0o600); err != nil {
		return Capture{}, err
	}
	args := []string{"-p", strconv.Itoa(pid), "-batch", "-nx", "-ex", "set pagination off"}
	for _, c := range load {
		args = append(args, "-ex", c)
	}
	args = append(args, "-ex", "source "+runtimeGDB, "-ex", "python STROBE_STOP = "+strconv.Quote(stop), "-ex", "source "+script)
	cmd := exec.Command(gdb, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return Capture{}, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		os.WriteFile(stop, nil, 0o600)
		select {
		case err = <-done:
		case <-time.After(gdbStopGrace):
			cmd.Process.Kill()
			err = <-done
		}
	}
	stacks := parseGDB(out.Bytes())
	if len(stacks) == 0 {
		return Capture{}, fmt.Errorf("gdb goroutines: %s", toolError(out.Bytes(), err))
	}
	return Capture{Tool: "gdb+runtime-gdb.py", Stacks: stacks}, nil
}

// procStacks is the last resort: the kernel's view of each thread (its
// kernel stack when readable, its wchan and syscall otherwise).
func procStacks(pid int) []Stack {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var stacks []Stack
	for _, t := range tasks {
		tid, _ := strconv.Atoi(t.Name())
		st := Stack{TID: tid}
		if b, err := os.ReadFile(dir + "/" + t.Name() + "/comm"); err == nil {
			st.Name = strings.TrimSpace(string(b))
		}
		if b, err := os.ReadFile(dir + "/" + t.Name() + "/stack"); err == nil {
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				// "[<0>] futex_wait_queue+0x60/0x90"
				if i := strings.Index(l, "] "); i >= 0 {
					l = l[i+2:]
				}
				if i := strings.IndexByte(l, '+'); i >= 0 {
					l = l[:i]
				}
				if l != "" {
					st.Frames = append(st.Frames, Frame{Func: "[kernel] " + l})
				}
			}
		}
		if len(st.Frames) == 0 {
			if b, err := os.ReadFile(dir + "/" + t.Name() + "/wchan"); err == nil && string(b) != "0" && len(b) > 0 {
				st.Frames = append(st.Frames, Frame{Func: "[kernel] " + string(b)})
			}
			if sc, ok := readSyscall(dir + "/" + t.Name() + "/syscall"); ok && sc.Nr >= 0 {
				name := nameOf(sc.Nr)
				if name == "" {
					name = "syscall " + strconv.Itoa(sc.Nr)
				}
				st.Frames = append(st.Frames, Frame{Func: "[syscall] " + name})
			}
		}
		stacks = append(stacks, st)
	}
	return stacks
}

// ParseGoroutines reads a Go runtime traceback (a SIGQUIT dump, a panic,
// a -timeout panic) into goroutine stacks. The reader is the go adapter's
// too (adapters/kit/format).
func ParseGoroutines(text string) []Stack {
	var stacks []Stack
	for _, g := range format.ParseGoroutines(text) {
		st := Stack{Name: "goroutine " + strconv.Itoa(g.ID) + " [" + g.State + "]"}
		for _, f := range g.Frames {
			st.Frames = append(st.Frames, Frame{Func: f.Func, File: f.File, Line: f.Line})
		}
		stacks = append(stacks, st)
	}
	return stacks
}
