package runner

import (
	"os"
	"os/exec"
	"testing"
)

func TestWindowFilter(t *testing.T) {
	type probe struct {
		pid int
		in  bool
	}
	for _, tc := range []struct {
		name                 string
		leader, last, pidMax int
		forks, tasks         uint64
		probes               []probe // nil: the whole of /proc is read
	}{
		{"after the leader, up to the last pid", 1000, 1200, 32768, 50, 150,
			[]probe{{1001, true}, {1200, true}, {1000, false}, {999, false}, {1201, false}, {5, false}}},
		{"round once past pid_max", 32000, 500, 32768, 900, 150,
			[]probe{{32001, true}, {32767, true}, {300, true}, {500, true}, {501, false}, {31999, false}, {32000, false}}},
		{"enough forks to have gone round", 1000, 1200, 32768, 9000, 150, nil},
		{"enough tasks to have gone round", 1000, 1200, 32768, 10, 11000, nil},
		{"the same forks under a large pid_max", 1000, 90000, 4194304, 7000, 150,
			[]probe{{1001, true}, {90000, true}, {999, false}}},
		{"below 300 and round: not how pids go", 200, 100, 32768, 10, 10, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := windowFilter(tc.leader, tc.last, tc.forks, tc.tasks, tc.pidMax)
			if tc.probes == nil {
				if in != nil {
					t.Fatal("a window, want none (every process read)")
				}
				return
			}
			if in == nil {
				t.Fatal("no window")
			}
			for _, p := range tc.probes {
				if got := in(p.pid); got != p.in {
					t.Errorf("pid %d in the window = %v, want %v", p.pid, got, p.in)
				}
			}
		})
	}
}

// TestPIDWindowOnThisMachine: a process started after the window opened is
// in it; this test's own process, older, is not.
func TestPIDWindowOnThisMachine(t *testing.T) {
	w := newPIDWindow()
	if w.forks == 0 {
		t.Fatal("no window: /proc/stat or /proc/loadavg unreadable")
	}
	leader := exec.Command("sleep", "10")
	if err := leader.Start(); err != nil {
		t.Fatal(err)
	}
	defer leader.Process.Kill()
	w.leader = leader.Process.Pid
	child := exec.Command("sleep", "10")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	if !procIsOurs() {
		t.Fatal("/proc/self is not this process")
	}
	in := w.filter()
	if in == nil {
		t.Skip("this machine has handed out too many pids for a window")
	}
	if !in(child.Process.Pid) {
		t.Errorf("pid %d, started after the leader %d, is not in the window", child.Process.Pid, w.leader)
	}
	if in(os.Getpid()) {
		t.Errorf("this test's pid %d, older than the leader %d, is in the window", os.Getpid(), w.leader)
	}
}
