package runner

import (
	"bytes"
	"os"
	"strconv"
	"sync"
)

// pidWindow narrows the sweep for a run's leftovers (killRunID) to the
// pids its processes can have, so that it reads the environment of the
// processes started since the run began, not of every process on the
// machine (150 here, 600 on a desktop: most of the sweep's time, and the
// answer waits for the sweep).
//
// The kernel hands out pids in order: each new one after the last, past
// those in use, from pid 300 again after pid_max. So a process started
// after the run's leader has a pid after the leader's, up to the last one
// handed out (/proc/sys/kernel/ns_last_pid), unless the pids went all the
// way round since, past the leader's pid again. That takes a pid_max's
// worth of pids handed out or skipped: at most one per fork (/proc/stat's
// processes counts every fork and thread of the machine, in any pid
// namespace) plus one per pid in use, which is at most three per task
// (its own, and as the process group and session of others after its
// exit). When forks and tasks could add up to that, or anything cannot be
// read, the window is not used and the sweep reads every process.
type pidWindow struct {
	leader int
	forks  uint64 // /proc/stat's processes, read before the leader's fork
	tasks  uint64 // /proc/loadavg's task count then
}

// reservedPids is where the kernel starts again after pid_max.
const reservedPids = 300

// newPIDWindow reads the counts before the leader's fork; set leader once
// it has its pid. A zero window (a read failed) filters nothing.
func newPIDWindow() pidWindow {
	forks, ok1 := forkCount()
	tasks, _, ok2 := loadavgPids()
	if !ok1 || !ok2 {
		return pidWindow{}
	}
	return pidWindow{forks: forks, tasks: tasks}
}

// filter reports whether pid may be a process started after the leader;
// nil means any may be.
func (w pidWindow) filter() func(pid int) bool {
	if w.leader <= 0 || w.forks == 0 || !procIsOurs() {
		return nil
	}
	forks, ok1 := forkCount()
	// The namespace's own count; /proc/loadavg's last field says the same
	// but is rewritten by lxcfs in some containers.
	last, ok2 := readUint("/proc/sys/kernel/ns_last_pid")
	if !ok2 {
		_, last, ok2 = loadavgPids()
	}
	pidMax, ok3 := readUint("/proc/sys/kernel/pid_max")
	if !ok1 || !ok2 || !ok3 || forks < w.forks {
		return nil
	}
	return windowFilter(w.leader, int(last), forks-w.forks, w.tasks, int(pidMax))
}

// windowFilter is filter's arithmetic: the leader's pid, the last pid
// handed out, the forks since before the leader's and the tasks then.
func windowFilter(leader, last int, forks, tasks uint64, pidMax int) func(pid int) bool {
	if pidMax <= reservedPids {
		return nil
	}
	// Pids passed since the leader's: handed out (forks) or skipped
	// (in use: its own, a process group's, a session's, per task).
	passed := forks + 3*(tasks+forks)
	if passed >= uint64(pidMax-reservedPids) {
		return nil // they may have gone round
	}
	if last >= leader {
		return func(pid int) bool { return pid > leader && pid <= last }
	}
	if leader < reservedPids {
		return nil // the last pid below the leader's, under 300: not how pids go
	}
	// Round once: after the leader's to pid_max, then from the start.
	return func(pid int) bool { return pid > leader || pid <= last }
}

// procIsOurs says whether /proc shows this process's pid namespace (it
// may be another's, after an unshare without its own /proc): the window's
// pids are this namespace's, /proc's names would be the other's.
var procIsOurs = sync.OnceValue(func() bool {
	self, err := os.Readlink("/proc/self")
	return err == nil && self == strconv.Itoa(os.Getpid())
})

// forkCount is /proc/stat's processes: the forks since boot.
func forkCount() (uint64, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	_, rest, ok := bytes.Cut(b, []byte("\nprocesses "))
	if !ok {
		return 0, false
	}
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	n, err := strconv.ParseUint(string(rest), 10, 64)
	return n, err == nil
}

// loadavgPids reads /proc/loadavg ("0.20 0.18 0.12 1/80 11206"): the
// tasks of the machine and the last pid handed out in this namespace.
func loadavgPids() (tasks, last uint64, ok bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, 0, false
	}
	f := bytes.Fields(b)
	if len(f) != 5 {
		return 0, 0, false
	}
	_, total, ok := bytes.Cut(f[3], []byte("/"))
	if !ok {
		return 0, 0, false
	}
	tasks, err1 := strconv.ParseUint(string(total), 10, 64)
	last, err2 := strconv.ParseUint(string(f[4]), 10, 64)
	return tasks, last, err1 == nil && err2 == nil
}

func readUint(path string) (uint64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(string(bytes.TrimSpace(b)), 10, 64)
	return n, err == nil
}
