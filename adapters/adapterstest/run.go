package adapterstest

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/report"
)

// RunReal plans req with a and runs the plan for real, feeding its output to
// the plan's parser the way the runner does (lines from both streams, one at
// a time). Adapter tests use it to check parsers against the real framework
// without depending on the runner package.
func RunReal(t testing.TB, a adapters.Adapter, req adapters.Request) (*adapters.Recorder, adapters.Outcome, report.Exit) {
	t.Helper()
	r := Run(t, a, req)
	return r.Rec, r.Outcome, r.Exit
}

// Ran is what Run saw of a plan's run.
type Ran struct {
	Rec     *adapters.Recorder
	Outcome adapters.Outcome
	Exit    report.Exit
	// CPU is the user and system time of the framework's process and the
	// descendants it reaped; the benchmarks compare it with the raw
	// command's.
	CPU time.Duration
}

// Run is RunReal, with the framework's CPU time too.
func Run(t testing.TB, a adapters.Adapter, req adapters.Request) Ran {
	t.Helper()
	rec := adapters.NewRecorder()
	plan, err := a.Plan(context.Background(), req, rec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, plan.Argv[0], plan.Argv[1:]...)
	cmd.Dir = plan.Dir
	cmd.Env = append(os.Environ(), plan.Env...)
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %v: %v", plan.Argv, err)
	}
	var wg sync.WaitGroup
	feed(plan.Parser, stdout, stderr, &wg)
	wg.Wait()
	err = cmd.Wait()
	var exit report.Exit
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("wait: %v", err)
	}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	switch {
	case ws.Exited():
		exit = report.Exit{Exited: true, Code: ws.ExitStatus()}
	case ws.Signaled():
		exit = report.Exit{Signaled: true, Signal: int(ws.Signal()), Code: 128 + int(ws.Signal()), CoreDump: ws.CoreDump()}
	}
	out := plan.Parser.Finish(exit)
	if c, ok := plan.Parser.(adapters.Closer); ok {
		c.Close() // as the runner does
	}
	return Ran{Rec: rec, Outcome: out, Exit: exit, CPU: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
}

// feed reads both streams line by line into p, never two lines at once,
// as the runner does; wg is done when both are at their end.
func feed(p adapters.Parser, stdout, stderr io.Reader, wg *sync.WaitGroup) {
	var mu sync.Mutex
	read := func(s adapters.Stream, r io.Reader) {
		defer wg.Done()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 256<<20)
		for sc.Scan() {
			mu.Lock()
			p.Line(s, sc.Bytes(), false)
			mu.Unlock()
		}
	}
	wg.Add(2)
	go read(adapters.Stdout, stdout)
	go read(adapters.Stderr, stderr)
}
