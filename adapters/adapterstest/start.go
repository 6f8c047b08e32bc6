package adapterstest

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"strobe/adapters"
	"strobe/report"
)

// Started is a plan running in the background, for the tests that stop a
// run (a hang, Ctrl+C, strobe's timeout) and look at what is left.
type Started struct {
	Cmd   *exec.Cmd
	Plan  *adapters.Plan
	Rec   *adapters.Recorder
	lines sync.WaitGroup
}

// Start plans req with a and starts the plan in a process group of its
// own, as the runner does, its lines read into the parser; env is added
// to this process's environment after the plan's own (as the runner
// adds the plan's). The group is killed when the test ends.
// The caller calls Finish and Close.
func Start(t *testing.T, a adapters.Adapter, req adapters.Request, env ...string) *Started {
	t.Helper()
	s := &Started{Rec: adapters.NewRecorder()}
	plan, err := a.Plan(context.Background(), req, s.Rec)
	if err != nil {
		t.Fatal(err)
	}
	s.Plan = plan
	s.Cmd = exec.Command(plan.Argv[0], plan.Argv[1:]...)
	s.Cmd.Dir, s.Cmd.Env = plan.Dir, append(append(os.Environ(), plan.Env...), env...)
	s.Cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, _ := s.Cmd.StdoutPipe()
	stderr, _ := s.Cmd.StderrPipe()
	if err := s.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	feed(plan.Parser, stdout, stderr, &s.lines)
	t.Cleanup(func() { syscall.Kill(-s.Cmd.Process.Pid, syscall.SIGKILL) })
	return s
}

// WaitRunning waits (15 s at most) for the Recorder to show name, and
// only it, running.
func (s *Started) WaitRunning(t *testing.T, name string) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if r := s.Rec.Progress().Running; len(r) == 1 && r[0].Name == name {
			return
		}
	}
	t.Fatalf("running %+v, want %q", s.Rec.Progress().Running, name)
}

// Wait reads the rest of the output and reaps the command.
func (s *Started) Wait() report.Exit {
	s.lines.Wait()
	s.Cmd.Wait()
	ws := s.Cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		sig := int(ws.Signal())
		// unix's table, not kit's: kit reads formats (kit/format), whose
		// tests use this package.
		return report.Exit{Signaled: true, Signal: sig, SignalName: unix.SignalName(ws.Signal()), Code: 128 + sig}
	}
	return report.Exit{Exited: true, Code: ws.ExitStatus()}
}
