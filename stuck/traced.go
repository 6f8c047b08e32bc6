package stuck

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A traced run (tracePatterns) runs the tests under a debugger: gdb or
// Delve is the test process's parent and holds it with ptrace. Two things
// follow for the detector. A thread in tracing stop (state t) is the
// debugger at work on a breakpoint, not a wait: while the tree holds one,
// no idle verdict is made (the debugger's CPU counts as the tree's, and
// the hard timeout still holds). And no stack tool can attach to a process
// a debugger already holds: the capture says so at once instead of
// failing slowly.

// TracerPID is the pid of the process that ptraces pid, 0 for none (or
// when it cannot be read).
func TracerPID(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "TracerPid:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

// UntracedStacker captures with inner, unless a debugger already traces
// the process: then the capture has no stacks and says why. A tracer that
// appears while another capture of the same process runs through this
// stacker is that capture's own tool (eu-stack, gdb: a sample still
// running when the timeout's capture comes), not the user's debugger: it
// is waited for.
func UntracedStacker(inner Stacker) Stacker {
	return &untraced{inner: inner, busy: map[int]int{}}
}

type untraced struct {
	inner Stacker
	mu    sync.Mutex
	busy  map[int]int // captures running, by pid
}

func (u *untraced) Stacks(ctx context.Context, pid int, exe string, opt Opts) Capture {
	t := TracerPID(pid)
	for deadline := time.Now().Add(ownToolWait); t != 0 && u.capturing(pid) && time.Now().Before(deadline) && ctx.Err() == nil; t = TracerPID(pid) {
		time.Sleep(20 * time.Millisecond)
	}
	if t != 0 {
		return Capture{PID: pid, Tool: "none", Reason: TracedReason(t)}
	}
	u.mu.Lock()
	u.busy[pid]++
	u.mu.Unlock()
	defer func() {
		u.mu.Lock()
		if u.busy[pid]--; u.busy[pid] == 0 {
			delete(u.busy, pid)
		}
		u.mu.Unlock()
	}()
	return u.inner.Stacks(ctx, pid, exe, opt)
}

func (u *untraced) capturing(pid int) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.busy[pid] > 0
}

// ownToolWait bounds the wait for another capture's tool to let go of a
// process: gdb reading a Go binary's goroutines took seconds under load.
const ownToolWait = 10 * time.Second

// TracedReason is why a traced process has no stacks.
func TracedReason(tracer int) string {
	name := "pid " + strconv.Itoa(tracer)
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(tracer) + "/comm"); err == nil {
		name = fmt.Sprintf("%s, pid %d", strings.TrimSpace(string(b)), tracer)
	}
	return "stacks unavailable: the test runs under the tracer (" + name + "), and a process has one tracer only"
}

// debuggerHolds reports whether a test process's thread is in tracing
// stop under a tracer that is part of the run's tree: the debugger
// handling a breakpoint.
func debuggerHolds(views []threadView) bool {
	inTree := map[int]bool{}
	for _, v := range views {
		inTree[v.proc.PID] = true
	}
	for _, v := range views {
		if v.t.State == 't' && v.proc.TracerPID != 0 && inTree[v.proc.TracerPID] {
			return true
		}
	}
	return false
}

// tracers are the processes of the tree that trace another of it: a
// debugger waits for its inferior, and its wait is no evidence of a hang
// of its own (the inferior's is).
func tracers(views []threadView) map[int]bool {
	var out map[int]bool
	for _, v := range views {
		if t := v.proc.TracerPID; t != 0 && t != v.proc.PID {
			if out == nil {
				out = map[int]bool{}
			}
			out[t] = true
		}
	}
	return out
}
