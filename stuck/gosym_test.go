package stuck

import (
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"strobe/internal/testutil"
)

// goDebugLdflags is what the go adapter links a copy with symbols with.
const goDebugLdflags = "-s=false -w=false -compressdwarf=false"

// buildGodeadlock builds testdata/godeadlock's test binary with ldflags:
// "-s -w" is what go test runs.
func buildGodeadlock(t *testing.T, ldflags string) string {
	t.Helper()
	testutil.RequireTool(t, "go")
	out := filepath.Join(t.TempDir(), "godeadlock.test")
	cmd := exec.Command("go", "test", "-c", "-o", out, "-ldflags="+ldflags, ".")
	cmd.Dir = "testdata/godeadlock"
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, msg)
	}
	return out
}

// startGodeadlock runs one test of bin and returns its pid once the test
// wrote its marker (it blocks or spins from there).
func startGodeadlock(t *testing.T, bin, test string) int {
	t.Helper()
	cmd := exec.Command(bin, "-test.run=^"+test+"$")
	cmd.Dir = "testdata/godeadlock"
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	marked := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "STROBE-MARK") {
				marked <- true
				break
			}
		}
		for sc.Scan() {
		}
	}()
	select {
	case <-marked:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s wrote no marker", test)
	}
	time.Sleep(300 * time.Millisecond) // the other goroutine takes its lock too
	return cmd.Process.Pid
}

func funcs(c Capture) string {
	var b strings.Builder
	for _, s := range c.Stacks {
		fmt.Fprintf(&b, "%s:\n", s.Name)
		for _, f := range s.Frames {
			fmt.Fprintf(&b, "  %s\n", f)
		}
	}
	return b.String()
}

// TestGoStrippedThreadsNamed: eu-stack unwinds a stripped Go binary by its
// frame pointers but names nothing; the binary's .gopclntab names the
// frames, so a loop's samples compare by function. (spin is inlined into
// the test: the table names the function the code was compiled into.)
func TestGoStrippedThreadsNamed(t *testing.T) {
	testutil.RequireTool(t, "eu-stack")
	bin := buildGodeadlock(t, "-s -w")
	pid := startGodeadlock(t, bin, "TestBusyLoop")
	for _, lines := range []bool{false, true} {
		var c Capture
		var spin *Frame // the loop's frame
		// Under load a sample can catch the goroutine preempted, in the
		// run queue and on no thread (the detector counts such a sample
		// neither way): a few samples, and one must show it.
		for try := 0; try < 10 && spin == nil; try++ {
			c = NativeStacker().Stacks(context.Background(), pid, bin, Opts{Lines: lines})
			if c.Tool != "eu-stack" {
				t.Fatalf("tool %q (%s), want eu-stack", c.Tool, c.Reason)
			}
			for _, s := range c.Stacks {
				for i, f := range s.Frames {
					if f.Func == "godeadlock.TestBusyLoop" {
						spin = &s.Frames[i]
					}
				}
			}
		}
		if spin == nil {
			t.Fatalf("lines=%v: no frame names godeadlock.TestBusyLoop:\n%s", lines, funcs(c))
		}
		if lines && (filepath.Base(spin.File) != "deadlock_test.go" || spin.Line == 0) {
			t.Errorf("the loop at %s:%d, want deadlock_test.go and a line", spin.File, spin.Line)
		}
	}
}

// TestGoStrippedGoroutines: the goroutines of a binary go test stripped,
// read with a copy linked with DWARF relocated to it, are those gdb reads
// from a binary linked with DWARF.
func TestGoStrippedGoroutines(t *testing.T) {
	testutil.RequireTool(t, "gdb")
	stripped := buildGodeadlock(t, "-s -w")
	debug := buildGodeadlock(t, goDebugLdflags)
	n := NativeStacker()

	pid := startGodeadlock(t, stripped, "TestDeadlock")
	without := n.Stacks(context.Background(), pid, stripped, Opts{Goroutines: true})
	if without.Tool == "gdb+runtime-gdb.py" {
		t.Fatal("goroutines read from a stripped binary with no symbols given")
	}
	got := n.Stacks(context.Background(), pid, stripped, Opts{Goroutines: true, Symbols: debug})
	if got.Tool != "gdb+runtime-gdb.py" {
		t.Fatalf("tool %q (%s), want gdb+runtime-gdb.py", got.Tool, got.Reason)
	}

	ref := n.Stacks(context.Background(), startGodeadlock(t, debug, "TestDeadlock"), debug, Opts{Goroutines: true})
	if ref.Tool != "gdb+runtime-gdb.py" {
		t.Fatalf("reference: tool %q (%s)", ref.Tool, ref.Reason)
	}
	if !slices.Equal(stackSet(got), stackSet(ref)) {
		t.Errorf("relocated symbols:\n%s\nwant as with DWARF:\n%s", funcs(got), funcs(ref))
	}
	for _, fn := range []string{"godeadlock.lockAThenB", "godeadlock.lockBThenA"} {
		if !strings.Contains(funcs(got), fn) {
			t.Errorf("goroutines lack %s:\n%s", fn, funcs(got))
		}
	}
}

// TestGoRelocation: the copy's symbols go to the running binary's section
// addresses; a binary with other code is refused.
func TestGoRelocation(t *testing.T) {
	stripped := buildGodeadlock(t, "-s -w")
	debug := buildGodeadlock(t, goDebugLdflags)
	cmd, err := goRelocation(stripped, debug)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(stripped)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := []string{"add-symbol-file " + debug, fmt.Sprintf(" 0x%x ", f.Section(".text").Addr)}
	for _, name := range []string{".rodata", ".noptrdata", ".data", ".bss", ".noptrbss"} {
		want = append(want, fmt.Sprintf("-s %s 0x%x", name, f.Section(name).Addr))
	}
	for _, w := range want {
		if !strings.Contains(cmd, w) {
			t.Errorf("%q lacks %q", cmd, w)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := goRelocation(stripped, self); err == nil {
		t.Error("another program's symbols accepted")
	}
}

// optsStacker records the options of each capture.
type optsStacker struct {
	fakeStacker
	opts []Opts
}

func (s *optsStacker) Stacks(ctx context.Context, pid int, exe string, opt Opts) Capture {
	s.opts = append(s.opts, opt)
	c := s.fakeStacker.Stacks(ctx, pid, exe, opt)
	if opt.Symbols != "" {
		c.Tool = "gdb+runtime-gdb.py"
	}
	return c
}

// TestNoVerdictWhileGoSymbolsLink: threads blocked in a stripped Go test
// binary are no deadlock while the copy with symbols links (they cannot
// tell a ticker's poll from one); once it is there the goroutines are read
// with it at once, and the threads' samples before count.
func TestNoVerdictWhileGoSymbolsLink(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if bin := inspectBinary(self); !bin.isGo || bin.dwarf {
		t.Skip("the test binary is not stripped (go test -c?)")
	}
	clock := &fakeClock{t: start}
	p := ProcSample{ProcKey: ProcKey{PID: 10, Start: 1}, Name: "pkg.test", Exe: self,
		Threads: []ThreadSample{thread(10, 'S', lock, 1, 1), thread(11, 'S', lock, 1, 1)}}
	stacker := &optsStacker{fakeStacker: fakeStacker{frames: []Frame{{Func: "main.lockAThenB"}}}}
	release := make(chan struct{})
	links := 0
	d := New(Config{Root: 1, Clock: clock, Stacker: stacker,
		View:       &fakeView{clock: clock, procs: func(int) []ProcSample { return []ProcSample{p} }},
		LastOutput: func() time.Time { return start },
		GoSymbols: func(ctx context.Context, got ProcSample) (string, error) {
			links++
			<-release
			return "/tmp/copy.test", nil
		},
	})
	step := func(until time.Duration) *Verdict {
		for ; clock.t.Sub(start) < until; clock.t = clock.t.Add(DefaultTick) {
			if v := d.Step(context.Background()); v != nil {
				return v
			}
		}
		return nil
	}
	if v := step(6 * time.Second); v != nil {
		t.Fatalf("verdict %q while the symbols link", v.Diagnosis)
	}
	linking := len(stacker.opts)
	if linking == 0 {
		t.Error("no thread samples while the symbols link")
	}
	for _, o := range stacker.opts {
		if o.Symbols != "" {
			t.Errorf("capture with %+v while the symbols link", o)
		}
	}
	close(release)
	for d.readySymbols(p) == "" {
		time.Sleep(time.Millisecond)
	}
	released := clock.t
	v := step(12 * time.Second)
	if v == nil || v.Kind != Deadlock {
		t.Fatalf("verdict %+v, want a deadlock once the symbols are there", v)
	}
	if took := clock.t.Sub(released); took > DefaultTick {
		t.Errorf("verdict %v after the symbols came, want at the first step", took)
	}
	if links != 1 {
		t.Errorf("linked %d times, want once", links)
	}
	if o := stacker.opts[len(stacker.opts)-1]; o.Symbols != "/tmp/copy.test" || !o.Goroutines {
		t.Errorf("last capture with %+v, want the goroutines with the copy's symbols", o)
	}
}

// TestGoroutineListingCancelledLeavesTheTestWhole cancels gdb's goroutine
// listing at points spread over its run: runtime-gdb.py moves the current
// thread's pc and sp for each goroutine, so a gdb killed in the middle left
// the test to resume on the wrong stack (SIGSEGV or "morestack on g0", 7
// of 25 such kills). Asked to stop, gdb finishes the goroutine at hand.
func TestGoroutineListingCancelledLeavesTheTestWhole(t *testing.T) {
	n := NativeStacker().(*native)
	n.init()
	if n.gdb == "" || n.goGDB == "" {
		testutil.RequireTool(t, "gdb")
		t.Fatal("Go's runtime-gdb.py not found")
	}
	bin := buildGodeadlock(t, goDebugLdflags)
	start := time.Now()
	if _, err := gdbGoroutines(context.Background(), n.gdb, n.goGDB, startGodeadlock(t, bin, "TestDeadlock")); err != nil {
		t.Fatal(err)
	}
	full := time.Since(start)
	for i := range 12 {
		pid := startGodeadlock(t, bin, "TestDeadlock")
		ctx, cancel := context.WithTimeout(context.Background(), full*time.Duration(i+1)/12)
		gdbGoroutines(ctx, n.gdb, n.goGDB, pid)
		cancel()
		time.Sleep(300 * time.Millisecond)
		st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || bytes.Contains(st, []byte(") Z ")) {
			t.Fatalf("cancelled after %v of %v: the test process died", full*time.Duration(i+1)/12, full)
		}
	}
}
